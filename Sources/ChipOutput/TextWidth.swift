import ChipSyntax

/// How wide text is drawn on one line: terminal columns, or a font's
/// measure given by a host.
///
/// Units are the measure's own integers: columns for ``TerminalWidth``,
/// or whatever a host picks for a font (points × 100, pixels). Layout and
/// truncation only add and compare them.
///
/// Truncation and summaries measure a label one grapheme cluster at a
/// time and add the widths, then measure the result whole once and step
/// back if kerning made it wider; a measure should be close to additive
/// over grapheme clusters for that step to be rare.
public protocol TextWidthMeasure: Sendable {
    /// The width of `text` drawn on one line.
    ///
    /// - Complexity: O(*n*) in the text's length for the measures in this
    ///   module; a host's measure is the host's.
    func width(of text: Substring) -> Int
}

extension TextWidthMeasure {
    /// The width of `text` drawn on one line.
    ///
    /// - Complexity: that of ``width(of:)-(Substring)``.
    public func width(of text: String) -> Int { width(of: text[...]) }
}

/// A measure given as a function, for a host's font (`CTLine`, `Paint.measureText`…).
public struct WidthMeasure: TextWidthMeasure {
    let body: @Sendable (Substring) -> Int

    /// A measure that calls `body`, which must be safe to call from any thread.
    public init(_ body: @escaping @Sendable (Substring) -> Int) { self.body = body }

    /// The width `body` gives for `text`.
    ///
    /// - Complexity: that of `body`.
    public func width(of text: Substring) -> Int { body(text) }
}

/// Terminal columns, as terminals draw text: two for East Asian wide and
/// full-width characters and for emoji, zero for combining marks, format
/// and control characters, one for the rest.
///
/// What depends on neighbours, read from the UTF-8 bytes in one pass:
/// - an emoji ZWJ sequence (👩‍💻, 👨‍👩‍👧) is two: an emoji joined by U+200D
///   to the emoji before it adds nothing;
/// - a flag (two regional indicators, 🇫🇷) is two, and so is a lone
///   regional indicator; a tag flag (🏴 and its tags) is two;
/// - a skin-tone modifier after an emoji adds nothing (👍🏽 is two), but
///   makes a text-style emoji two, as VS16 does (✌🏽);
/// - VS16 (U+FE0F) after an emoji that is text-style by default makes it
///   two (❤️, keycaps 1️⃣); VS15 changes nothing (terminals keep emoji wide);
/// - conjoining Hangul jamo: the initial consonant is two, the vowel and
///   final consonant that join it zero.
///
/// Ambiguous characters (East_Asian_Width A: `±`, `§`, Greek and Cyrillic
/// in CJK fonts) are one unless `ambiguousIsWide`, as terminals in CJK
/// locales draw them. The tables are generated from the Unicode data
/// (`Scripts/generate-width-tables.py`), so `WidthTables.unicodeVersion`
/// says which characters are known.
public struct TerminalWidth: TextWidthMeasure, Hashable {
    /// Count East Asian ambiguous characters as two columns.
    public var ambiguousIsWide: Bool

    /// Terminal columns; ambiguous characters are one column unless `ambiguousIsWide`.
    public init(ambiguousIsWide: Bool = false) {
        self.ambiguousIsWide = ambiguousIsWide
    }

    /// The columns of `text`.
    ///
    /// - Complexity: O(*n*) in the text's UTF-8 length.
    public func width(of text: Substring) -> Int {
        if let w = text.utf8.withContiguousStorageIfAvailable({ columns(of: $0) }) { return w }
        return Array(text.utf8).withUnsafeBufferPointer { columns(of: $0) }
    }

    /// The columns of one scalar alone, without its neighbours.
    ///
    /// - Complexity: O(1).
    public func width(of scalar: Unicode.Scalar) -> Int {
        let info = widthTables.info(scalar.value)
        if ambiguousIsWide && info & WidthTables.ambiguousBit != 0 { return 2 }
        return Int(info & WidthTables.widthMask)
    }

    /// The columns of valid UTF-8 (a `String`'s bytes).
    func columns(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var total = 0
        var i = 0
        let n = bytes.count
        // The last scalar that took columns: its width and whether it is an emoji.
        var baseWidth = 0
        var baseIsEmoji = false
        var afterJoiner = false
        var openFlag = false
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                // ASCII: printable is one column, controls none.
                i += 1
                let w = b0 >= 0x20 && b0 != 0x7F ? 1 : 0
                total += w
                if w > 0 {
                    baseWidth = 1
                    // Digits, '#' and '*' start keycaps.
                    baseIsEmoji = (b0 >= 0x30 && b0 <= 0x39) || b0 == 0x23 || b0 == 0x2A
                }
                afterJoiner = false
                openFlag = false
                continue
            }
            let (scalar, length) = UTF8Bytes.decodeWellFormed(bytes, at: i)
            i += length
            if scalar == 0x200D {  // ZERO WIDTH JOINER
                afterJoiner = true
                openFlag = false
                continue
            }
            if scalar == 0xFE0F {  // VARIATION SELECTOR-16: emoji presentation
                if baseIsEmoji && baseWidth == 1 {
                    total += 1
                    baseWidth = 2
                }
                continue
            }
            let info = widthTables.info(scalar)
            var w = Int(info & WidthTables.widthMask)
            if w == 0 { continue }  // marks and the like extend what came before
            let isEmoji = info & WidthTables.emojiBit != 0
            if scalar &- 0x1F1E6 < 26 {  // regional indicators pair into one flag
                if openFlag {
                    openFlag = false
                    afterJoiner = false
                    continue
                }
                openFlag = true
            } else {
                openFlag = false
            }
            if isEmoji && baseIsEmoji && (afterJoiner || scalar &- 0x1F3FB < 5) {
                // Joined to the emoji before, or its skin tone, which asks
                // for emoji presentation as VS16 does (✌🏽 is two).
                if baseWidth == 1 && !afterJoiner {
                    total += 1
                    baseWidth = 2
                }
                afterJoiner = false
                continue
            }
            if w == 1 && ambiguousIsWide && info & WidthTables.ambiguousBit != 0 { w = 2 }
            total += w
            baseWidth = w
            baseIsEmoji = isEmoji
            afterJoiner = false
        }
        return total
    }
}

extension TerminalWidth {
    /// Whether `text` holds a strong right-to-left character (Hebrew,
    /// Arabic, Syriac, Thaana, N'Ko…: Bidi_Class R or AL).
    ///
    /// - Complexity: O(*n*) in the text's UTF-8 length.
    public static func containsRightToLeft(_ text: Substring) -> Bool {
        for scalar in text.unicodeScalars where scalar.value >= 0x0590 {
            if widthTables.info(scalar.value) & WidthTables.rightToLeftBit != 0 { return true }
        }
        return false
    }
}
