/// A field that is not focused, in one line that fits a width budget:
/// `Ann, Bob and 3 more`, or `Ann, Bob and Cy` when all fit, or `+5` when
/// not even the first name does (as Android's compose field shows a "+N"
/// chip). The words are the host's (``ChipStrings``).
///
/// Names are shown whole, in field order: a summary never truncates a
/// name, it shows fewer. A name holding right-to-left text is wrapped in
/// FSI…PDI (U+2068, U+2069) when `isolatesBidi`, so `سارا, Bob and 3 more`
/// keeps its commas and count in place; the isolates are zero columns wide.
///
/// Invariants:
/// 1. `shownCount + hiddenCount` is the number of labels.
/// 2. `width` is the measure of `text`, and it is at most the budget unless
///    `fits` is false: then `text` is the `+N` of every label, which the
///    budget could not hold either (shown anyway, so a field never looks empty).
public struct FieldSummary: Sendable, Hashable {
    public var text: String
    /// Names shown in `text`, from the first.
    public var shownCount: Int
    /// Names counted in `and N more`, or in `+N`.
    public var hiddenCount: Int
    /// The measure of `text`.
    public var width: Int
    public var fits: Bool

    /// The summary of `labels` (already cleaned, e.g. by ``ChipText/label(of:)-(ParsedChip)``)
    /// in `budget`: as many names as fit, then the count of the rest.
    ///
    /// - Complexity: O(*k* + *t*) measures, for *k* the names shown (plus
    ///   one) and *t* the template's length, each of one name or template.
    public static func make(
        labels: [String], budget: Int, measure: some TextWidthMeasure = TerminalWidth(),
        strings: ChipStrings = .english, isolatesBidi: Bool = true
    ) -> FieldSummary {
        let n = labels.count
        if n == 0 { return FieldSummary(text: "", shownCount: 0, hiddenCount: 0, width: 0, fits: true) }
        let names = labels.map { isolatesBidi && TerminalWidth.containsRightToLeft($0[...]) ? "\u{2068}\($0)\u{2069}" : $0 }
        let separatorWidth = measure.width(of: strings.listSeparator)
        // prefix[k]: the width of names[0..<k] with separators between,
        // measured only as far as the names can fit.
        var prefix = [0]
        func namesWidth(_ k: Int) -> Int {
            while prefix.count <= k {
                let i = prefix.count - 1
                prefix.append(prefix[i] + measure.width(of: names[i]) + (i == 0 ? 0 : separatorWidth))
            }
            return prefix[k]
        }

        // Every name, when they all fit.
        var best: (text: String, shown: Int)?
        let lastAdjustment = n > 1 ? measure.width(of: strings.lastSeparator) - separatorWidth : 0
        var all = 0
        while all < n && namesWidth(all + 1) + (all + 1 == n ? lastAdjustment : 0) <= budget { all += 1 }
        if all == n {
            let text = allNames(names, strings)
            if measure.width(of: text) <= budget { best = (text, n) }
        }
        // Otherwise the most names that fit with "and N more".
        if best == nil {
            var fitting: Int?
            var k = 1
            while k <= n - 1 && namesWidth(k) <= budget {
                let rest = measure.width(of: ChipStrings.fill(strings.namesAndMore, ["names": "", "count": "\(n - k)"]))
                if namesWidth(k) + rest <= budget { fitting = k }
                k += 1
            }
            k = fitting ?? 0
            // Confirm with the whole text: a measure need not be additive.
            while k > 0 {
                let text = ChipStrings.fill(
                    strings.namesAndMore, ["names": names[0..<k].joined(separator: strings.listSeparator), "count": "\(n - k)"])
                if measure.width(of: text) <= budget {
                    best = (text, k)
                    break
                }
                k -= 1
            }
        }
        if let best {
            return FieldSummary(
                text: best.text, shownCount: best.shown, hiddenCount: n - best.shown,
                width: measure.width(of: best.text), fits: true)
        }
        let more = moreChipText(count: n, strings: strings)
        let w = measure.width(of: more)
        return FieldSummary(text: more, shownCount: 0, hiddenCount: n, width: w, fits: w <= budget)
    }

    /// The overflow chip's text, `+N`.
    ///
    /// - Complexity: O(*t*) in the template's length.
    public static func moreChipText(count: Int, strings: ChipStrings = .english) -> String {
        ChipStrings.fill(strings.moreChip, ["count": "\(count)"])
    }

    /// `Ann`, `Ann and Bob`, `Ann, Bob and Cy`.
    static func allNames(_ names: [String], _ strings: ChipStrings) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: strings.listSeparator) + strings.lastSeparator + names.last!
    }
}
