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
    /// The line to show: names, then the count of the rest in the host's words.
    public var text: String
    /// Names shown in `text`, from the first.
    public var shownCount: Int
    /// Names counted in `and N more`, or in `+N`.
    public var hiddenCount: Int
    /// The measure of `text`.
    public var width: Int
    /// Whether ``width`` is within the budget; false only for a `+N` the budget
    /// cannot hold either.
    public var fits: Bool

    /// The summary of `labels` (already cleaned, e.g. by ``ChipText/label(of:)-(ParsedChip)``)
    /// in `budget`: as many names as fit, then the count of the rest.
    ///
    /// - Complexity: O(*k*) measures, where *k* is the number of names shown
    ///   (plus one), each of a name, of the `and N more` words or of the
    ///   summary; the summary is measured again only for each name a measure
    ///   that is not additive makes it give back.
    public static func make(
        labels: [String], budget: Int, measure: some TextWidthMeasure = TerminalWidth(),
        strings: ChipStrings = .english, isolatesBidi: Bool = true
    ) -> FieldSummary {
        var names = Names(widthLimit: budget, measure: measure, strings: strings, isolatesBidi: isolatesBidi)
        for label in labels {
            names.append(label)
            if names.isFull { break }
        }
        return names.summary(budget: budget, count: labels.count)
    }

    /// The names a summary can show, taken one label at a time: a summary
    /// never needs a name after the first that does not fit (each name
    /// after the first adds a separator, so the run of names only grows),
    /// so only the names up to that one are kept, and the rest are counted.
    /// A record of any length is summarized in memory bounded by the width,
    /// not by the number of chips.
    ///
    /// Invariants:
    /// 1. `widths[k]` is the measure of the first *k* kept names with
    ///    separators between.
    /// 2. Every kept name but the last fits `widthLimit` with those before
    ///    it: names are kept until their run exceeds `widthLimit`.
    public struct Names<Measure: TextWidthMeasure>: Sendable {
        /// The largest budget ``summary(budget:count:)`` may be given.
        public let widthLimit: Int
        /// Labels appended since the last ``removeAll()``, kept or not.
        public private(set) var count = 0
        let measure: Measure
        let strings: ChipStrings
        let isolatesBidi: Bool
        let separatorWidth: Int
        var names: [String] = []
        var widths = [0]

        /// Names for summaries in at most `widthLimit` columns.
        public init(
            widthLimit: Int, measure: Measure = TerminalWidth(), strings: ChipStrings = .english,
            isolatesBidi: Bool = true
        ) {
            self.widthLimit = widthLimit
            self.measure = measure
            self.strings = strings
            self.isolatesBidi = isolatesBidi
            separatorWidth = measure.width(of: strings.listSeparator)
        }

        /// Whether no later label can show (separators of no width aside,
        /// which let every label be kept).
        public var isFull: Bool { widths[widths.count - 1] > widthLimit && separatorWidth > 0 }

        /// Counts a label, and keeps it while it can still show.
        ///
        /// - Complexity: O(*m*), where *m* is the label's length, while labels
        ///   are kept; O(1) once the summary is full.
        public mutating func append(_ label: String) {
            count += 1
            guard widths[widths.count - 1] <= widthLimit || separatorWidth == 0 else { return }
            let name = isolatesBidi && TerminalWidth.containsRightToLeft(label[...]) ? "\u{2068}\(label)\u{2069}" : label
            widths.append(widths[widths.count - 1] + measure.width(of: name) + (names.isEmpty ? 0 : separatorWidth))
            names.append(name)
        }

        /// Forgets every label, keeping the capacity (for the next record).
        public mutating func removeAll() {
            count = 0
            names.removeAll(keepingCapacity: true)
            widths.removeAll(keepingCapacity: true)
            widths.append(0)
        }

        /// The summary of the labels appended, in `budget` columns.
        ///
        /// - Precondition: `budget <= widthLimit`.
        /// - Complexity: as ``FieldSummary/make(labels:budget:measure:strings:isolatesBidi:)``.
        public func summary(budget: Int) -> FieldSummary { summary(budget: budget, count: count) }

        func summary(budget: Int, count n: Int) -> FieldSummary {
            precondition(budget <= widthLimit, "a budget above the width limit needs names that were not kept")
            if n == 0 { return FieldSummary(text: "", shownCount: 0, hiddenCount: 0, width: 0, fits: true) }
            // Asked only as far as the names can fit, which the kept ones
            // reach (invariant 2).
            func namesWidth(_ k: Int) -> Int { widths[k] }

            // Every name, when they all fit.
            var best: (text: String, shown: Int)?
            let lastAdjustment = n > 1 ? measure.width(of: strings.lastSeparator) - separatorWidth : 0
            var all = 0
            while all < names.count && namesWidth(all + 1) + (all + 1 == n ? lastAdjustment : 0) <= budget { all += 1 }
            if all == n {
                let text = allNames(names, strings)
                if measure.width(of: text) <= budget { best = (text, n) }
            }
            // Otherwise the most names that fit with "and N more".
            if best == nil {
                var fitting: Int?
                var k = 1
                while k <= min(n - 1, names.count) && namesWidth(k) <= budget {
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
    }

    /// The overflow chip's text, `+N`.
    ///
    /// - Complexity: O(*t*), where *t* is the length of the `moreChip` template.
    public static func moreChipText(count: Int, strings: ChipStrings = .english) -> String {
        ChipStrings.fill(strings.moreChip, ["count": "\(count)"])
    }

    /// `Ann`, `Ann and Bob`, `Ann, Bob and Cy`.
    static func allNames(_ names: [String], _ strings: ChipStrings) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: strings.listSeparator) + strings.lastSeparator + names.last!
    }
}
