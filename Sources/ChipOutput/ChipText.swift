import ChipRecognition

/// The text a chip shows, and that text made to fit: what a UI draws.
///
/// Labels are cleaned for display (see ``clean(_:)``) so a name can never
/// reorder or break the text around it. Truncation is at grapheme-cluster
/// boundaries, found by the standard library's `Character` (Unicode's
/// extended grapheme clusters, UAX #29, as the toolchain implements it):
/// truncation is not a hot path, so segmentation is not written again here.
public enum ChipText {
    /// What truncation ends with.
    public static let ellipsis = "…"

    /// The label a chip shows: its display name, else its address with the
    /// domain in Unicode (`ann@bücher.example`, not `xn--bcher-kva`), else
    /// its group's name (an empty group), else its text as typed (an error
    /// chip; invalid UTF-8 shows as U+FFFD). Always cleaned.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public static func label(of chip: ParsedChip) -> String {
        if let name = chip.displayName {
            let cleaned = clean(name)
            if !cleaned.isEmpty { return cleaned }
        }
        if chip.error == nil, let local = chip.localPart, let domain = chip.unicodeDomain ?? chip.domain {
            let cleaned = clean(local + "@" + domain)
            if !cleaned.isEmpty { return cleaned }
        }
        if chip.error == nil, let address = chip.address {
            let cleaned = clean(displayAddress(address))
            if !cleaned.isEmpty { return cleaned }
        }
        if chip.kind == .emptyGroup, let group = chip.group {
            let cleaned = clean(group)
            if !cleaned.isEmpty { return cleaned }
        }
        return clean(String(decoding: chip.raw, as: UTF8.self))
    }

    /// The label from the parts a writer holds as bytes: the name if it is
    /// not empty, else the address (its A-labels shown in Unicode), else
    /// the raw text. Cleaned.
    ///
    /// - Complexity: O(*n*) in the parts' length.
    public static func label(name: [UInt8], address: [UInt8], raw: UnsafeBufferPointer<UInt8>) -> String {
        if !name.isEmpty {
            let cleaned = clean(String(decoding: name, as: UTF8.self))
            if !cleaned.isEmpty { return cleaned }
        }
        if !address.isEmpty {
            let cleaned = clean(displayAddress(String(decoding: address, as: UTF8.self)))
            if !cleaned.isEmpty { return cleaned }
        }
        return clean(String(decoding: raw, as: UTF8.self))
    }

    /// An address with its domain's A-labels decoded for display; the
    /// address as it is when it has none or they do not decode.
    ///
    /// - Complexity: O(*n*) in the address's length.
    public static func displayAddress(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return address }
        let domain = address[address.index(after: at)...]
        guard domain.lowercased().contains("xn--"), let unicode = try? IDNA.toUnicode(String(domain)) else {
            return address
        }
        return address[...at] + unicode
    }

    /// `text` made safe to show inside other text:
    /// - bidirectional controls (U+202A–U+202E, U+2066–U+2069, LRM, RLM,
    ///   ALM) are removed, so a name cannot reorder what follows it
    ///   (`Ann\u{202E}gro.x` shows as `Anngro.x`, in typed order);
    /// - zero-width space, word joiner, BOM and soft hyphen are removed
    ///   (ZWJ and ZWNJ stay: emoji sequences and Persian need them);
    /// - line breaks, tabs and other controls (C0, C1, U+2028, U+2029)
    ///   become a space, so a label is always one line;
    /// - runs of white space become one space, and the ends are trimmed.
    ///
    /// - Complexity: O(*n*) in the text's length.
    public static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C,
                 0x200B, 0x2060, 0xFEFF, 0x00AD:
                continue
            case 0x00...0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x00A0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000:
                pendingSpace = !out.isEmpty
            default:
                if pendingSpace {
                    out.append(" ")
                    pendingSpace = false
                }
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` cut to fit `budget`, ending in ``ellipsis``: the longest run
    /// of whole grapheme clusters that, with the ellipsis, fits. White
    /// space before the ellipsis is dropped (`Ann…`, not `Ann …`).
    ///
    /// Text that fits is returned as it is. A budget too small for the
    /// ellipsis itself gives the empty string: nothing can be shown, and
    /// the caller can tell (an empty label is never a truncation).
    ///
    /// - Complexity: O(*n*) measures of one cluster each, for *n* the
    ///   clusters of `text`, plus one of the whole text and one of the
    ///   result (one more for each cluster a measure that is not additive
    ///   makes it give back).
    public static func truncate(
        _ text: String, toWidth budget: Int, measure: some TextWidthMeasure = TerminalWidth()
    ) -> String {
        if measure.width(of: text) <= budget { return text }
        let ellipsisWidth = measure.width(of: ellipsis)
        guard ellipsisWidth <= budget else { return "" }
        var end = text.startIndex
        var used = ellipsisWidth
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let w = measure.width(of: text[index..<next])
            if used + w > budget { break }
            used += w
            index = next
            end = next
        }
        // A measure that is not additive (kerning) may make the whole wider
        // than its parts: step back a cluster at a time until it fits.
        while true {
            var prefix = text[..<end]
            while let last = prefix.last, last.isWhitespace { prefix = prefix.dropLast() }
            let candidate = String(prefix) + ellipsis
            if prefix.isEmpty || measure.width(of: candidate) <= budget { return candidate }
            end = text.index(before: end)
        }
    }

    /// `text` in at most `maxLines` lines of `lineWidth` (two for choice
    /// chips): broken after spaces where it can, inside a word (at a
    /// grapheme boundary) only when the word alone is wider than a line;
    /// the last line truncated with ``ellipsis`` when the text does not fit.
    /// The lines have no white space at their ends. A cluster wider than
    /// the whole line (an emoji in a line of one column) is put alone on
    /// its line, since it cannot be cut.
    ///
    /// - Complexity: O(*n*) measures of one cluster each, for *n* the
    ///   clusters of `text`, plus, for each of the at most `maxLines` lines,
    ///   one of the text left, and the last line's ``truncate(_:toWidth:measure:)``.
    public static func wrap(
        _ text: String, lineWidth: Int, maxLines: Int = 2, measure: some TextWidthMeasure = TerminalWidth()
    ) -> [String] {
        precondition(maxLines >= 1, "wrap needs at least one line")
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if lines.count == maxLines - 1 || measure.width(of: rest) <= lineWidth {
                lines.append(truncate(String(rest), toWidth: lineWidth, measure: measure))
                break
            }
            // The longest prefix that fits, and the last space in it.
            var index = rest.startIndex
            var used = 0
            var lastSpace: Substring.Index?
            while index < rest.endIndex {
                let next = rest.index(after: index)
                let w = measure.width(of: rest[index..<next])
                if used + w > lineWidth { break }
                if rest[index].isWhitespace { lastSpace = index }
                used += w
                index = next
            }
            if index < rest.endIndex && rest[index].isWhitespace { lastSpace = index }
            var cut = lastSpace ?? index
            if cut == rest.startIndex { cut = rest.index(after: rest.startIndex) }  // one cluster at least
            var line = rest[..<cut]
            while let last = line.last, last.isWhitespace { line = line.dropLast() }
            lines.append(String(line))
            rest = rest[cut...].drop { $0.isWhitespace }
        }
        return lines
    }
}
