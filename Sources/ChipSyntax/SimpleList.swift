/// The chips of a whole record in one pass over a structural index, for
/// the lists most records are: mailboxes `local@domain` or
/// `Name <local@domain>` separated by commas and spaces.
///
/// Stage 1 classifies 64 bytes at a time with vector compares into one
/// bitmask of the bytes that matter here (`,` `<` `>` `@` space, and those
/// that make a record not simple); stage 2 walks only the set bits. A
/// record with anything else (quotes, comments, groups, `;`, line breaks,
/// tabs, a `0xEF` lead byte, a name before a bare address, words without
/// an address, text after `>`, a `,` inside `<…>`) is refused, and the
/// caller scans it with ``ListScanner``, which stays the reference: where
/// this answers, its segments are exactly the scanner's (tested on the
/// corpora, the RFC tables and random lists).
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

    /// The same chips as ``segments(_:into:)``, with their `<` and `@`.
    ///
    /// - Complexity: O(*n*) in the record's length.
    package static func chips(_ record: UnsafeBufferPointer<UInt8>, into chips: inout [Chip]) -> Bool {
        guard let base = record.baseAddress else { return true }
        let n = record.count
        guard n <= maxBytes else { return false }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: maxBytes / 64) { spaces in
            let first = chips.count
            var piece = Piece(spaces: UnsafeBufferPointer(spaces))
            // Block by block: stage 1 classifies it, stage 2 walks its
            // special bytes (a piece ends at a comma, so it never needs a
            // block not yet classified), and the first byte that makes the
            // record not simple stops both.
            var at = 0
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
                spaces[at >> 6] = m.spaces
                var bits = m.special
                while bits != 0 {
                    let i = at + bits.trailingZeroBitCount
                    bits &= bits &- 1
                    if !piece.step(record[i], at: i, chips: &chips) {
                        chips.removeSubrange(first...)
                        return false
                    }
                }
                at += 64
            }
            if !piece.end(at: n, chips: &chips) {
                chips.removeSubrange(first...)
                return false
            }
            return true
        }
    }

    struct Masks {
        var special: UInt64 = 0
        var spaces: UInt64 = 0
    }

    /// Stage 1 for 64 bytes: bit *k* of `special` is set when byte *k* is
    /// `,` `<` `>` `@` or one that makes the record not simple (`"` `(`
    /// `[` `:` `;` CR LF tab 0xEF); of `spaces`, when it is a space.
    @inline(__always)
    static func classify(_ p: UnsafeRawPointer) -> Masks {
        var masks = Masks()
        for k in 0..<4 {
            let v = p.loadUnaligned(fromByteOffset: 16 * k, as: SIMD16<UInt8>.self)
            // One compare per byte value, the masks or-ed (written apart:
            // one long expression is too much for the type checker).
            var m = v .== SIMD16<UInt8>(repeating: 0x2C)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3C)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3E)
            m .|= v .== SIMD16<UInt8>(repeating: 0x40)
            m .|= v .== SIMD16<UInt8>(repeating: 0x22)
            m .|= v .== SIMD16<UInt8>(repeating: 0x28)
            m .|= v .== SIMD16<UInt8>(repeating: 0x5B)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3A)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3B)
            m .|= v .== SIMD16<UInt8>(repeating: 0x0D)
            m .|= v .== SIMD16<UInt8>(repeating: 0x0A)
            m .|= v .== SIMD16<UInt8>(repeating: 0x09)
            m .|= v .== SIMD16<UInt8>(repeating: 0xEF)
            masks.special |= movemask(m) << (16 * UInt64(k))
            masks.spaces |= movemask(v .== SIMD16<UInt8>(repeating: 0x20)) << (16 * UInt64(k))
        }
        return masks
    }

    /// The lanes of a mask as 16 bits, lane 0 lowest. There is no public
    /// movemask: each half's lanes (0x00 or 0xFF bytes of a word) are
    /// folded into its low byte by three shifts, in scalar code.
    @inline(__always)
    static func movemask(_ m: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let words = unsafeBitCast(m, to: SIMD2<UInt64>.self)
        return gather(words[0]) | gather(words[1]) << 8
    }

    /// Bit *j* of the result: the low bit of byte *j* of `w`.
    @inline(__always)
    static func gather(_ w: UInt64) -> UInt64 {
        var x = w & 0x0101_0101_0101_0101
        x |= x >> 7
        x |= x >> 14
        x |= x >> 28
        return x & 0xFF
    }

    /// Stage 2: the piece of the record since the last comma.
    struct Piece {
        /// One word per 64 bytes of the record: a bit for each space.
        let spaces: UnsafeBufferPointer<UInt64>
        /// Where the piece begins: just after the last comma.
        var from = 0
        var open = -1
        var close = -1
        var atOutside = 0
        /// The last `@` and the count of them inside the brackets.
        var lastAt = -1
        var atInside = 0

        init(spaces: UnsafeBufferPointer<UInt64>) {
            self.spaces = spaces
        }

        @inline(__always)
        func isSpace(_ i: Int) -> Bool { spaces[i >> 6] >> UInt64(i & 63) & 1 != 0 }

        @inline(__always)
        mutating func step(_ b: UInt8, at i: Int, chips: inout [Chip]) -> Bool {
            switch b {
            case 0x2C:
                if open >= 0 && close < 0 { return false }  // a `,` inside `<…>`
                return end(at: i, chips: &chips)
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

        /// Ends the piece at `stop` (a comma or the record's end). A piece
        /// is a chip when it is `Name <…>` (no `@` outside the brackets,
        /// nothing but spaces after them) or one bare address with no space
        /// inside; an empty piece is two separators side by side.
        mutating func end(at stop: Int, chips: inout [Chip]) -> Bool {
            defer {
                from = stop + 1
                open = -1
                close = -1
                atOutside = 0
                lastAt = -1
                atInside = 0
            }
            var lo = from, hi = stop
            while lo < hi && isSpace(lo) { lo += 1 }
            while hi > lo && isSpace(hi - 1) { hi -= 1 }
            guard lo < hi else { return open < 0 && atOutside == 0 }
            if open >= 0 {
                guard close >= 0, close + 1 == hi, atOutside == 0 else { return false }
            } else {
                guard atOutside >= 1 else { return false }
                for k in lo..<hi where isSpace(k) { return false }
            }
            chips.append(Chip(
                lo: Int32(lo), hi: Int32(hi), open: Int32(open), at: Int32(lastAt),
                ats: Int32(open >= 0 ? atInside : atOutside)))
            return true
        }
    }
}
