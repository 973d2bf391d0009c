import ChipSyntax

/// Characters that show nothing, or change how the text around them is
/// shown, found in UTF-8 bytes (Unicode TR #36 §2, TR #39 §3.1): in an
/// address they are an error, since two addresses that look the same would
/// reach different mailboxes; in a name, a warning.
///
/// | kind | code points |
/// |---|---|
/// | bidi controls | U+061C ALM, U+200E LRM, U+200F RLM, U+202A–U+202E, U+2066–U+2069 |
/// | hidden | U+00AD soft hyphen, U+180E, U+200B–U+200D, U+2060–U+2064, U+FEFF |
/// | controls (``Found/control``) | U+0080–U+009F, U+2028, U+2029 |
@usableFromInline package enum Invisibles {
    struct Found: Equatable {
        var bidi = false
        var hidden = false
        /// The offset of the first one, if any.
        var first: Int?
        /// The offset of the first C1 control (U+0080–U+009F) or line or
        /// paragraph separator (U+2028, U+2029): no character of an
        /// address at all, quoted or not.
        var control: Int?
    }

    /// The scalar of the well-formed UTF-8 sequence of `length` bytes at
    /// `i` when it is a bidi control or a hidden character of the table
    /// above (not a control: writers escape those their own way), else
    /// nil. The text and JSON writers show such a character escaped, so a
    /// line never renders reversed or hides a character.
    @inlinable @inline(__always)
    package static func invisibleScalar(_ p: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> UInt32? {
        let b = p[i]
        switch length {
        case 2:
            guard (b == 0xC2 && p[i + 1] == 0xAD) || (b == 0xD8 && p[i + 1] == 0x9C) else { return nil }
            return UInt32(b & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F)
        case 3:
            let c = p[i + 1], d = p[i + 2]
            let hit: Bool
            switch b {
            case 0xE1: hit = c == 0xA0 && d == 0x8E
            case 0xE2:
                hit = (c == 0x80 && ((d >= 0x8B && d <= 0x8F) || (d >= 0xAA && d <= 0xAE)))
                    || (c == 0x81 && ((d >= 0xA0 && d <= 0xA4) || (d >= 0xA6 && d <= 0xA9)))
            case 0xEF: hit = c == 0xBB && d == 0xBF
            default: hit = false
            }
            guard hit else { return nil }
            return UInt32(b & 0x0F) << 12 | UInt32(c & 0x3F) << 6 | UInt32(d & 0x3F)
        default:
            return nil
        }
    }

    /// The lanes of `v` holding a byte that can start one of the
    /// characters ``invisibleScalar(_:at:length:)`` finds, a C1 control or
    /// a line or paragraph separator (0xC2, 0xD8, 0xE1, 0xE2, 0xEF): what a
    /// scan for text that needs no closer look tests.
    @inlinable @inline(__always)
    package static func mayStartInvisibleLanes(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        var m = v .== SIMD16<UInt8>(repeating: 0xC2)
        m .|= v .== SIMD16<UInt8>(repeating: 0xD8)
        m .|= v .== SIMD16<UInt8>(repeating: 0xE1)
        m .|= v .== SIMD16<UInt8>(repeating: 0xE2)
        m .|= v .== SIMD16<UInt8>(repeating: 0xEF)
        return m
    }

    /// ``mayStartInvisibleLanes(_:)`` for the eight bytes `w`: a flag (the
    /// high bit) on each such byte. The lowest flag is exact; one above it
    /// may be a false one.
    @inlinable @inline(__always)
    package static func mayStartInvisibleBytes(_ w: UInt64) -> UInt64 {
        SWAR.byte(w, 0xC2) | SWAR.byte(w, 0xD8) | SWAR.byte(w, 0xE1) | SWAR.byte(w, 0xE2) | SWAR.byte(w, 0xEF)
    }

    /// What `p[range]` holds.
    ///
    /// - Complexity: O(*n*) in the range; ASCII bytes cost one compare.
    static func scan(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Found {
        var found = Found()
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let b = p[i]
            if b < 0xC2 {
                i += 1
                continue
            }
            var kind = 0  // 1 bidi, 2 hidden, 3 control
            if b == 0xC2, i + 1 < end, p[i + 1] == 0xAD {
                kind = 2
            } else if b == 0xC2, i + 1 < end, p[i + 1] >= 0x80, p[i + 1] <= 0x9F {
                kind = 3
            } else if b == 0xD8, i + 1 < end, p[i + 1] == 0x9C {
                kind = 1
            } else if b == 0xE1, i + 2 < end, p[i + 1] == 0xA0, p[i + 2] == 0x8E {
                kind = 2
            } else if b == 0xE2, i + 2 < end {
                let c = p[i + 1], d = p[i + 2]
                if c == 0x80 {
                    if d >= 0x8B && d <= 0x8D { kind = 2 }
                    if d == 0x8E || d == 0x8F || (d >= 0xAA && d <= 0xAE) { kind = 1 }
                    if d == 0xA8 || d == 0xA9 { kind = 3 }
                } else if c == 0x81 {
                    if d >= 0xA0 && d <= 0xA4 { kind = 2 }
                    if d >= 0xA6 && d <= 0xA9 { kind = 1 }
                }
            } else if b == 0xEF, i + 2 < end, p[i + 1] == 0xBB, p[i + 2] == 0xBF {
                kind = 2
            }
            if kind == 3 {
                if found.control == nil { found.control = i }
            } else if kind != 0 {
                if found.first == nil { found.first = i }
                if kind == 1 { found.bidi = true } else { found.hidden = true }
            }
            i += 1
        }
        return found
    }

    /// The same over an array (a decoded name).
    static func scan(_ bytes: [UInt8]) -> Found {
        bytes.withUnsafeBufferPointer { scan($0, 0..<$0.count) }
    }

    /// The warnings a name with these characters carries.
    static func warnings(_ found: Found) -> ChipWarnings {
        var w: ChipWarnings = []
        if found.bidi { w.insert(.bidiControl) }
        if found.hidden { w.insert(.hiddenCharacter) }
        return w
    }
}
