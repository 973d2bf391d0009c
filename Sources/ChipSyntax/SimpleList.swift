/// The chips of a whole record in one pass over a structural index, for
/// the lists most records are: mailboxes `local@domain`, `Name <local@domain>`
/// or `"Quoted, Name" <local@domain>` separated by commas or semicolons
/// and spaces.
///
/// Stage 1 classifies 64 bytes at a time with vector compares into
/// bitmasks of the bytes that matter here (`,` `;` `<` `>` `@` `"` space,
/// and those that make a record not simple); quoted strings are found by
/// a prefix XOR of the quotes' mask (carried from block to block), and
/// what they hold is masked out; stage 2 walks only the set bits. A record
/// with anything else (a backslash, comments, groups, domain literals,
/// line breaks, tabs, a `0xEF` lead byte, a quote that is not a name
/// before `<…>` or is never closed, a name before a bare address, words
/// without an address, text after `>`, a separator inside `<…>`) is
/// refused, and the caller scans it with ``ListScanner``, which stays the
/// reference: where this answers, its segments are exactly the scanner's
/// (tested on the corpora, the RFC tables and random lists).
package enum SimpleList {
    /// Records longer than this are left to the scanner: the record's
    /// spaces are kept as one bit per byte in a small stack buffer. Few
    /// lists are so long.
    static let maxBytes = 4_096

    /// One chip of a simple list, with what stage 2 learned of it: where
    /// its `<` and its last `@` stand, so that recognition need not look
    /// for them again.
    package struct Chip: Sendable, Hashable {
        /// Offsets from the record's first byte: the chip's text, without
        /// the spaces around it.
        package var lo: Int32
        package var hi: Int32
        /// The `<` of `Name <…>` (or of a bare `<…>`), -1 for a bare address.
        package var open: Int32
        /// The last `@` of the address (inside the brackets for `<…>`),
        /// -1 when there is none there.
        package var at: Int32
        /// How many `@` the address holds (inside the brackets for `<…>`).
        package var ats: Int32

        package var range: Range<Int> { Int(lo)..<Int(hi) }
    }

    /// Appends the chip segments of `record` (offsets from its first byte)
    /// to `segments` and returns true, or returns false and appends nothing.
    ///
    /// - Complexity: O(*n*) in the record's length, 64 bytes per step of
    ///   stage 1 and one step of stage 2 per `,` `<` `>` `@`.
    package static func segments(_ record: UnsafeBufferPointer<UInt8>, into segments: inout [Segment]) -> Bool {
        var found: [Chip] = []
        guard chips(record, into: &found) else { return false }
        for c in found { segments.append(Segment(.chip, c.range)) }
        return true
    }

    /// The same chips as ``segments(_:into:)``, with their `<` and `@`,
    /// appended to `chips`.
    ///
    /// - Complexity: O(*n*) in the record's length.
    package static func chips(_ record: UnsafeBufferPointer<UInt8>, into chips: inout [Chip]) -> Bool {
        withUnsafeTemporaryAllocation(of: Chip.self, capacity: maxChips) { buffer in
            guard let count = self.chips(record, into: buffer.baseAddress!) else { return false }
            chips.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
            return true
        }
    }

    /// The most chips a record the index reads can hold: each needs a
    /// byte and a separator.
    package static let maxChips = maxBytes / 2 + 1

    /// The chips of `record` written to `out` (room for ``maxChips``):
    /// their count, or nil when the record is not simple. The caller keeps
    /// one buffer for every record, so no array is cleared or grown.
    ///
    /// - Complexity: O(*n*) in the record's length, 64 bytes per step of
    ///   stage 1 and one step of stage 2 per structural byte.
    package static func chips(_ record: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<Chip>) -> Int? {
        guard let base = record.baseAddress else { return 0 }
        let n = record.count
        guard n <= maxBytes else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: maxBytes / 64) { spaces -> Int? in
            var piece = Piece(spaces: UnsafeBufferPointer(spaces), out: out)
            // Block by block: stage 1 classifies it, stage 2 walks its
            // special bytes (a piece ends at a separator, so it never
            // needs a block not yet classified), and the first byte that
            // makes the record not simple stops both.
            var at = 0
            // All ones while a quoted string is open at a block's end.
            var inQuote: UInt64 = 0
            while at < n {
                var m: Masks
                if at + 64 <= n {
                    m = classify(UnsafeRawPointer(base + at))
                } else {
                    // The last bytes, padded with a plain letter.
                    var pad = (SIMD16<UInt8>(repeating: 0x61), SIMD16<UInt8>(repeating: 0x61),
                               SIMD16<UInt8>(repeating: 0x61), SIMD16<UInt8>(repeating: 0x61))
                    m = withUnsafeMutableBytes(of: &pad) { raw in
                        raw.baseAddress!.copyMemory(from: base + at, byteCount: n - at)
                        return classify(UnsafeRawPointer(raw.baseAddress!))
                    }
                }
                if m.refused != 0 { return nil }
                if m.quotes | inQuote != 0 {
                    // From an opening quote up to its closing one: what a
                    // quoted string holds is text, its quotes stay.
                    let inside = prefixXor(m.quotes) ^ inQuote
                    m.special &= ~inside | m.quotes
                    m.spaces &= ~inside
                    inQuote = 0 &- (inside >> 63)
                }
                spaces[at >> 6] = m.spaces
                var bits = m.special
                while bits != 0 {
                    let i = at + bits.trailingZeroBitCount
                    bits &= bits &- 1
                    if !piece.step(record[i], at: i) { return nil }
                }
                at += 64
            }
            if inQuote != 0 || !piece.end(at: n) { return nil }
            return piece.count
        }
    }

    struct Masks {
        var special: UInt64 = 0
        var spaces: UInt64 = 0
        var quotes: UInt64 = 0
        var refused: UInt64 = 0
    }

    /// Stage 1 for 64 bytes: bit *k* of `special` is set when byte *k* is
    /// `,` `;` `<` `>` `@` `"` or one that makes the record not simple
    /// outside quotes (`(` `[` `:`); of `quotes`, when it is `"`; of
    /// `spaces`, when it is a space. `refused` is not zero when some byte
    /// makes the record not simple anywhere (CR LF tab `\` 0xEF). Masks
    /// that are seldom needed are gathered into bits only when some lane
    /// is set: gathering costs more than comparing.
    @inline(__always)
    static func classify(_ p: UnsafeRawPointer) -> Masks {
        var masks = Masks()
        var refused = SIMDMask<SIMD16<Int8>>(repeating: false)
        for k in 0..<4 {
            let v = p.loadUnaligned(fromByteOffset: 16 * k, as: SIMD16<UInt8>.self)
            // One compare per byte value, the masks or-ed (written apart:
            // one long expression is too much for the type checker).
            let quote = v .== SIMD16<UInt8>(repeating: 0x22)
            var m = v .== SIMD16<UInt8>(repeating: 0x2C)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3C)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3E)
            m .|= v .== SIMD16<UInt8>(repeating: 0x40)
            m .|= quote
            m .|= v .== SIMD16<UInt8>(repeating: 0x28)
            m .|= v .== SIMD16<UInt8>(repeating: 0x5B)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3A)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3B)
            refused .|= v .== SIMD16<UInt8>(repeating: 0x0D)
            refused .|= v .== SIMD16<UInt8>(repeating: 0x0A)
            refused .|= v .== SIMD16<UInt8>(repeating: 0x09)
            refused .|= v .== SIMD16<UInt8>(repeating: 0x5C)
            refused .|= v .== SIMD16<UInt8>(repeating: 0xEF)
            let shift = 16 * UInt64(k)
            masks.special |= movemask(m) << shift
            if isAnySet(quote) { masks.quotes |= movemask(quote) << shift }
            masks.spaces |= movemask(v .== SIMD16<UInt8>(repeating: 0x20)) << shift
        }
        if isAnySet(refused) { masks.refused = 1 }
        return masks
    }

    /// Whether some lane of a mask is set.
    @inline(__always)
    static func isAnySet(_ m: SIMDMask<SIMD16<Int8>>) -> Bool {
        let words = unsafeBitCast(m, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// Bit *k* set when an odd number of bits of `x` are set at or below
    /// *k*: from each opening quote up to (not including) its closing one.
    @inline(__always)
    static func prefixXor(_ x: UInt64) -> UInt64 {
        var y = x
        y ^= y << 1
        y ^= y << 2
        y ^= y << 4
        y ^= y << 8
        y ^= y << 16
        y ^= y << 32
        return y
    }

    /// The lanes of a mask as 16 bits, lane 0 lowest. There is no public
    /// movemask: each half's lanes (0x00 or 0xFF bytes of a word) are
    /// folded into its low byte by three shifts, in scalar code.
    @inline(__always)
    static func movemask(_ m: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let words = unsafeBitCast(m, to: SIMD2<UInt64>.self)
        return gather(words[0]) | gather(words[1]) << 8
    }

    /// Bit *j* of the result: the low bit of byte *j* of `w`, gathered by
    /// one multiply (each bit lands on its own place in the top byte, and
    /// no two products meet, so nothing carries).
    @inline(__always)
    static func gather(_ w: UInt64) -> UInt64 {
        ((w & 0x0101_0101_0101_0101) &* 0x0102_0408_1020_4080) >> 56
    }

    /// Stage 2: the piece of the record since the last separator.
    struct Piece {
        /// One word per 64 bytes of the record: a bit for each space.
        let spaces: UnsafeBufferPointer<UInt64>
        /// Where the chips go, and how many there are.
        let out: UnsafeMutablePointer<Chip>
        var count = 0
        /// Where the piece begins: just after the last separator.
        var from = 0
        var open = -1
        var close = -1
        var atOutside = 0
        /// A quoted string stood before any `<`.
        var quoted = false
        /// The last `@` and the count of them inside the brackets.
        var lastAt = -1
        var atInside = 0

        init(spaces: UnsafeBufferPointer<UInt64>, out: UnsafeMutablePointer<Chip>) {
            self.spaces = spaces
            self.out = out
        }

        @inline(__always)
        func isSpace(_ i: Int) -> Bool { spaces[i >> 6] >> UInt64(i & 63) & 1 != 0 }

        @inline(__always)
        mutating func step(_ b: UInt8, at i: Int) -> Bool {
            switch b {
            case 0x2C, 0x3B:
                if open >= 0 && close < 0 { return false }  // a separator inside `<…>`
                return end(at: i)
            case 0x22:
                if open >= 0 { return false }  // a quote inside or after `<…>`
                quoted = true
                return true
            case 0x3C:
                if open >= 0 { return false }
                open = i
                return true
            case 0x3E:
                if open < 0 || close >= 0 { return false }
                close = i
                return true
            case 0x40:
                if open < 0 || close >= 0 {
                    atOutside += 1
                    if open < 0 { lastAt = i }
                } else {
                    atInside += 1
                    lastAt = i
                }
                return true
            default:
                return false
            }
        }

        /// Ends the piece at `stop` (a `,` or `;`, or the record's end). A
        /// piece is a chip when it is `Name <…>` (no `@` outside the
        /// brackets or quotes, nothing but spaces after the brackets) or
        /// one bare address with no space or quote inside; an empty piece
        /// is two separators side by side.
        mutating func end(at stop: Int) -> Bool {
            defer {
                from = stop + 1
                open = -1
                close = -1
                atOutside = 0
                lastAt = -1
                atInside = 0
                quoted = false
            }
            var lo = from, hi = stop
            while lo < hi && isSpace(lo) { lo += 1 }
            while hi > lo && isSpace(hi - 1) { hi -= 1 }
            guard lo < hi else { return open < 0 && atOutside == 0 }
            if open >= 0 {
                guard close >= 0, close + 1 == hi, atOutside == 0 else { return false }
            } else {
                guard atOutside >= 1, !quoted else { return false }
                for k in lo..<hi where isSpace(k) { return false }
            }
            out[count] = Chip(
                lo: Int32(lo), hi: Int32(hi), open: Int32(open), at: Int32(lastAt),
                ats: Int32(open >= 0 ? atInside : atOutside))
            count += 1
            return true
        }
    }
}
