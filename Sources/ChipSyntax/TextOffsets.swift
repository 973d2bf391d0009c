/// The units a host's text system counts positions in.
///
/// The engine's offsets are UTF-8 bytes. UIKit and AppKit (`NSRange`),
/// Android's `InputConnection`, Java and the web (`selectionStart`) count
/// UTF-16 code units; Python and Rust's `chars()` count Unicode scalars.
public enum TextUnit: Sendable, Hashable, CaseIterable {
    /// UTF-8 bytes: the engine's own offsets.
    case utf8
    /// UTF-16 code units: a scalar above U+FFFF counts two.
    case utf16
    /// Unicode scalars.
    case unicodeScalars
}

/// Conversions between the engine's byte offsets and a host's units.
///
/// Text is read as `String(decoding: bytes, as: UTF8.self)` shows it: each
/// maximal ill-formed subsequence of the bytes (Unicode §3.9, the practice
/// the standard library follows) is one U+FFFD, one UTF-16 unit and one
/// scalar. An offset that does not fall on a boundary of the text so read
/// (inside a scalar, inside an ill-formed subsequence, between the two
/// halves of a surrogate pair, or past the end) converts to nil.
///
/// ```swift
/// let text = Array("Zoë 😀 <z@x.org>".utf8)
/// TextOffsets.offset(ofByte: 9, in: text, unit: .utf16)   // 6
/// TextOffsets.byteOffset(of: 6, in: .utf16, in: text)     // 9
/// ```
///
/// To convert many ascending offsets of one text (every chip of a list),
/// use a ``TextOffsets/Cursor``: the whole walk costs one pass over the text.
public enum TextOffsets {
    /// The length of the piece of text that starts at `i`: a well-formed
    /// scalar (its byte count and whether it is outside the BMP) or a
    /// maximal ill-formed subsequence (at least one byte).
    ///
    /// - Complexity: O(1).
    @inline(__always)
    package static func piece<C: Collection<UInt8>>(_ bytes: C, at i: C.Index) -> (bytes: Int, utf16: Int) where C.Index == Int {
        let b = bytes[i]
        if b < 0x80 { return (1, 1) }
        // The second byte's bounds (Unicode Table 3-7), and the length.
        let lo: UInt8, hi: UInt8, length: Int
        switch b {
        case 0xC2...0xDF: (lo, hi, length) = (0x80, 0xBF, 2)
        case 0xE0: (lo, hi, length) = (0xA0, 0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (lo, hi, length) = (0x80, 0xBF, 3)
        case 0xED: (lo, hi, length) = (0x80, 0x9F, 3)
        case 0xF0: (lo, hi, length) = (0x90, 0xBF, 4)
        case 0xF1...0xF3: (lo, hi, length) = (0x80, 0xBF, 4)
        case 0xF4: (lo, hi, length) = (0x80, 0x8F, 4)
        default: return (1, 1)
        }
        var k = 1
        while k < length {
            let j = i + k
            guard j < bytes.endIndex else { return (k, 1) }
            let c = bytes[j]
            let (l, h): (UInt8, UInt8) = k == 1 ? (lo, hi) : (0x80, 0xBF)
            guard c >= l && c <= h else { return (k, 1) }
            k += 1
        }
        return (length, length == 4 ? 2 : 1)
    }

    /// A position in a text walked forward, in every unit at once. Going
    /// back starts again from the text's start.
    ///
    /// ```swift
    /// var cursor = TextOffsets.Cursor(listBytes)
    /// for chip in chips { print(cursor.offset(ofByte: chip.byteRange.lowerBound, unit: .utf16)) }
    /// ```
    public struct Cursor<Text: Collection<UInt8>> where Text.Index == Int {
        /// The text walked, as the host's bytes.
        public let text: Text
        /// Where the cursor stands, in each unit.
        public private(set) var byte: Int
        /// Where the cursor stands, in UTF-16 code units.
        public private(set) var utf16 = 0
        /// Where the cursor stands, in Unicode scalars.
        public private(set) var scalars = 0

        /// A cursor at the start of `text`.
        public init(_ text: Text) {
            self.text = text
            byte = text.startIndex
        }

        /// The cursor's offset in `unit`.
        public func offset(in unit: TextUnit) -> Int {
            switch unit {
            case .utf8: byte - text.startIndex
            case .utf16: utf16
            case .unicodeScalars: scalars
            }
        }

        private mutating func rewind() {
            byte = text.startIndex
            utf16 = 0
            scalars = 0
        }

        /// Moves the cursor to the piece boundary at or before which the
        /// walk must stop for `stop` (true: past the target).
        private mutating func advance(while before: (Int, Int, Int) -> Bool) {
            while byte < text.endIndex {
                let p = TextOffsets.piece(text, at: byte)
                guard before(byte - text.startIndex + p.bytes, utf16 + p.utf16, scalars + 1) else { return }
                byte += p.bytes
                utf16 += p.utf16
                scalars += 1
            }
        }

        /// The offset in `unit` of the byte offset `offset` (from the
        /// text's start), or nil when it is not on a boundary.
        ///
        /// - Complexity: O(*d*) for a distance *d* forward from the last
        ///   position asked; O(*offset*) going back.
        public mutating func offset(ofByte offset: Int, unit: TextUnit) -> Int? {
            guard offset >= 0, offset <= text.count else { return nil }
            if offset < byte - text.startIndex { rewind() }
            advance { b, _, _ in b <= offset }
            return byte - text.startIndex == offset ? self.offset(in: unit) : nil
        }

        /// The offset in `unit` of the boundary at or before the byte offset
        /// `offset` (clamped to the text): total, for positions the engine
        /// keeps in bytes that may have become the inside of a scalar (a
        /// lead byte typed before continuation bytes).
        ///
        /// - Complexity: as ``offset(ofByte:unit:)``.
        public mutating func offset(ofByteRoundingDown offset: Int, unit: TextUnit) -> Int {
            let offset = min(max(offset, 0), text.count)
            if offset < byte - text.startIndex { rewind() }
            advance { b, _, _ in b <= offset }
            return self.offset(in: unit)
        }

        /// The byte offset of `offset` counted in `unit`, or nil when it is
        /// not on a boundary (the second half of a surrogate pair) or past
        /// the end.
        ///
        /// - Complexity: as ``offset(ofByte:unit:)``.
        public mutating func byteOffset(of offset: Int, in unit: TextUnit) -> Int? {
            guard offset >= 0 else { return nil }
            if offset < self.offset(in: unit) { rewind() }
            switch unit {
            case .utf8: advance { b, _, _ in b <= offset }
            case .utf16: advance { _, u, _ in u <= offset }
            case .unicodeScalars: advance { _, _, s in s <= offset }
            }
            return self.offset(in: unit) == offset ? byte - text.startIndex : nil
        }
    }

    /// The offset in `unit` of the byte offset `offset` in `bytes`, or nil
    /// when it is not on a boundary of the text.
    ///
    /// - Complexity: O(*offset*), a walk of the bytes before it; O(1) in `.utf8`.
    public static func offset<C: Collection<UInt8>>(ofByte offset: Int, in bytes: C, unit: TextUnit) -> Int?
    where C.Index == Int {
        if unit == .utf8 { return (0...bytes.count).contains(offset) && isBoundary(offset, in: bytes) ? offset : nil }
        var cursor = Cursor(bytes)
        return cursor.offset(ofByte: offset, unit: unit)
    }

    /// The byte offset in `bytes` of `offset` counted in `unit`, or nil.
    ///
    /// - Complexity: O(*n*), where *n* is the number of bytes up to the offset found.
    public static func byteOffset<C: Collection<UInt8>>(of offset: Int, in unit: TextUnit, in bytes: C) -> Int?
    where C.Index == Int {
        var cursor = Cursor(bytes)
        return cursor.byteOffset(of: offset, in: unit)
    }

    /// The range in `unit` of a byte range of `bytes`, or nil when either
    /// end is not on a boundary.
    ///
    /// - Complexity: O(*u*), where *u* is `range.upperBound`: one walk from the start.
    public static func range<C: Collection<UInt8>>(ofBytes range: Range<Int>, in bytes: C, unit: TextUnit) -> Range<Int>?
    where C.Index == Int {
        var cursor = Cursor(bytes)
        guard let lower = cursor.offset(ofByte: range.lowerBound, unit: unit),
              let upper = cursor.offset(ofByte: range.upperBound, unit: unit) else { return nil }
        return lower..<upper
    }

    /// The byte range of a range counted in `unit`, or nil.
    ///
    /// - Complexity: O(*n*), where *n* is the number of bytes up to the range's end.
    public static func byteRange<C: Collection<UInt8>>(of range: Range<Int>, in unit: TextUnit, in bytes: C) -> Range<Int>?
    where C.Index == Int {
        var cursor = Cursor(bytes)
        guard let lower = cursor.byteOffset(of: range.lowerBound, in: unit),
              let upper = cursor.byteOffset(of: range.upperBound, in: unit) else { return nil }
        return lower..<upper
    }

    /// Whether a byte offset starts a piece of the text (or ends it).
    ///
    /// - Complexity: O(1) for well-formed UTF-8 (the offset is a boundary
    ///   unless it holds a continuation byte, and then a walk of at most
    ///   four bytes tells a scalar's inside from an ill-formed piece's end).
    public static func isBoundary<C: Collection<UInt8>>(_ offset: Int, in bytes: C) -> Bool where C.Index == Int {
        guard offset >= 0, offset <= bytes.count else { return false }
        let i = bytes.startIndex + offset
        if i == bytes.endIndex || bytes[i] & 0xC0 != 0x80 {
            // A lead byte or ASCII: a boundary unless it continues an
            // ill-formed piece, which a lead byte never does.
            return true
        }
        // A continuation byte: walk from the lead byte before it, at most
        // three back (any byte that is not a continuation starts a piece).
        var start = i
        while start > bytes.startIndex && i - start < 3 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        // No lead byte in the three before: no scalar reaches here, and a
        // stray continuation byte is a piece of its own.
        if bytes[start] & 0xC0 == 0x80 { return true }
        var j = start
        while j < i { j += piece(bytes, at: j).bytes }
        return j == i
    }

    // MARK: - String indices

    /// The index in `string` of a byte offset in its UTF-8, or nil when the
    /// offset is inside a scalar or past the end. For the engine's offsets
    /// into text that was well-formed UTF-8 (all text typed as a `String`
    /// is); for other bytes, convert to UTF-16 with
    /// ``offset(ofByte:in:unit:)`` and use `String.Index(utf16Offset:in:)`.
    ///
    /// - Complexity: O(1) for a native string.
    public static func index(ofByte offset: Int, in string: String) -> String.Index? {
        let utf8 = string.utf8
        guard offset >= 0, offset <= utf8.count else { return nil }
        let i = utf8.index(utf8.startIndex, offsetBy: offset)
        return i.samePosition(in: string.unicodeScalars)
    }

    /// The indices in `string` of a byte range of its UTF-8, or nil.
    ///
    /// - Complexity: O(1) for a native string.
    public static func range(ofBytes range: Range<Int>, in string: String) -> Range<String.Index>? {
        guard let lower = index(ofByte: range.lowerBound, in: string),
              let upper = index(ofByte: range.upperBound, in: string) else { return nil }
        return lower..<upper
    }

    /// The byte offset of an index of `string` in its UTF-8, or nil when the
    /// index is not on a scalar boundary (an index inside a surrogate pair
    /// of the UTF-16 view).
    ///
    /// - Complexity: O(1) for a native string.
    public static func byteOffset(of index: String.Index, in string: String) -> Int? {
        guard index >= string.startIndex, index <= string.endIndex,
              let scalar = index.samePosition(in: string.unicodeScalars) else { return nil }
        return string.utf8.distance(from: string.utf8.startIndex, to: scalar)
    }

    /// The byte range of a range of indices of `string`, or nil.
    ///
    /// - Complexity: O(1) for a native string.
    public static func byteRange(of range: Range<String.Index>, in string: String) -> Range<Int>? {
        guard let lower = byteOffset(of: range.lowerBound, in: string),
              let upper = byteOffset(of: range.upperBound, in: string) else { return nil }
        return lower..<upper
    }
}

extension TextOffsets.Cursor: Sendable where Text: Sendable {}
