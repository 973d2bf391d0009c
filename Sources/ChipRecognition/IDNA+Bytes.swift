import ChipSyntax

/// IDNA on UTF-8 bytes: the verdict of ``LabelCache`` on a label (how many
/// labels it makes, and the length of its ASCII form or invalid), worked
/// out with the generated tables (``IDNATables``) and Punycode on buffers
/// on the stack, with no `String`, no case mapping or property look-up of
/// the standard library and no allocation.
///
/// It answers as ``IDNA``'s `String` form does, rule for rule (held to it
/// by a differential test over every label of the corpora and seeded
/// random labels):
/// - the width mapping of UTS #46 for the full-width forms and full stops;
/// - a label ends at a `.` that is a grapheme of its own, as `split` on a
///   `String` reads it: not one that a mark, ZWJ or spacing mark after it,
///   or a prepended character before it, joins;
/// - each piece is lower-cased as `lowercased()` does (full mappings,
///   no context: `İ` is `i` and a combining dot, `Σ` is `σ`);
/// - an ASCII piece is LDH with no hyphen at either end, and `ab--…` only
///   as a valid A-label; any other is letters, marks and digits (never a
///   mark first) with no hyphen first or last (a hyphen a mark joins is no
///   edge), and Punycode encodes it;
/// - an A-label decodes to a label with a non-ASCII scalar, already
///   lower-case, itself valid, that encodes back to the same bytes.
///
/// A label holding ill-formed UTF-8, or a scalar the tables' Unicode does
/// not assign (the standard library's may be newer), is left to the
/// `String` form: `nil`.
package enum IDNABytes {
    /// The verdict on a label's bytes, or nil when only the `String` form
    /// can give it.
    ///
    /// - Complexity: O(*n* + *l*²), where *n* is the label's length and *l*
    ///   that of its longest piece (Punycode is quadratic).
    package static func verdict(_ label: UnsafeBufferPointer<UInt8>) -> LabelCache.Verdict? {
        let tables = idnaTables
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(label.count, 1)) { scalars in
            // Decode, with the width mapping.
            var n = 0
            var i = 0
            while i < label.count {
                let length = UTF8Bytes.sequenceLength(label, at: i, end: label.count)
                guard length > 0 else { return nil }
                var s = UInt32(label[i])
                if length > 1 {
                    s &= 0xFF >> UInt32(length + 1)
                    for k in 1..<length { s = s << 6 | UInt32(label[i + k] & 0x3F) }
                }
                switch s {
                case 0xFF01...0xFF5E: s -= 0xFEE0
                case 0x3002, 0xFF0E, 0xFF61: s = 0x2E
                default: break
                }
                if s >= 0x80 && tables.info(s) & IDNATables.kindMask == IDNATables.Kind.unassigned.rawValue {
                    return nil
                }
                scalars[n] = s
                n += 1
                i += length
            }
            let all = UnsafeBufferPointer(rebasing: scalars[0..<n])
            // Pieces at the dots that are graphemes of their own.
            var pieces = 1
            var total = 0
            var valid = true
            var start = 0
            var k = 0
            while k <= n {
                if k < n && !(all[k] == 0x2E && separates(all, k, tables)) {
                    k += 1
                    continue
                }
                if valid {
                    switch piece(UnsafeBufferPointer(rebasing: all[start..<k]), tables) {
                    case .valid(let length): total += length
                    case .invalid: valid = false
                    case .stringForm: return nil
                    }
                }
                if k < n { pieces += 1 }
                k += 1
                start = k
            }
            return LabelCache.Verdict(pieces: Int32(pieces), asciiLength: valid ? Int32(total + pieces - 1) : -1)
        }
    }

    /// Whether UTF-8 bytes hold a scalar the width mapping changes
    /// (``IDNA/mapWidth(_:)``: U+FF01–U+FF5E, U+3002, U+FF61), all of
    /// whose first bytes are 0xE3 or 0xEF: without one, and without an
    /// A-label, a domain's Unicode form is itself.
    package static func holdsWidthForms(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 2 < bytes.count {
            let b = bytes[i]
            if b == 0xEF && (bytes[i + 1] == 0xBC || (bytes[i + 1] == 0xBD && bytes[i + 2] <= 0xA1)) { return true }
            if b == 0xE3 && bytes[i + 1] == 0x80 && bytes[i + 2] == 0x82 { return true }
            i += 1
        }
        return false
    }

    /// Whether the bytes are well-formed UTF-8 (as `String` reads them
    /// without repair).
    package static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let n = UTF8Bytes.sequenceLength(bytes, at: i, end: bytes.count)
            guard n > 0 else { return false }
            i += n
        }
        return true
    }

    /// Whether the `.` at `k` is a grapheme of its own.
    @inline(__always)
    static func separates(_ s: UnsafeBufferPointer<UInt32>, _ k: Int, _ tables: IDNATables) -> Bool {
        if k + 1 < s.count && joinsBefore(s[k + 1], tables) { return false }
        if k > 0 && joinsAfter(s[k - 1], tables) { return false }
        return true
    }

    @inline(__always)
    static func joinsBefore(_ s: UInt32, _ tables: IDNATables) -> Bool {
        s >= 0x80 && tables.info(s) & IDNATables.joinsBeforeBit != 0
    }

    @inline(__always)
    static func joinsAfter(_ s: UInt32, _ tables: IDNATables) -> Bool {
        s >= 0x80 && tables.info(s) & IDNATables.joinsAfterBit != 0
    }

    /// What a piece of a label comes to.
    enum Piece {
        /// A valid label: the length of its A-label, or of its lower-cased ASCII.
        case valid(Int)
        case invalid
        /// Only the `String` form can tell (it decodes to a scalar the
        /// tables do not assign).
        case stringForm
    }

    /// What a piece of a label comes to (``Piece``).
    static func piece(_ piece: UnsafeBufferPointer<UInt32>, _ tables: IDNATables) -> Piece {
        guard !piece.isEmpty else { return .invalid }
        // A piece lower-cases to at most three times its scalars (the
        // generator keeps mappings to three or fewer).
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * piece.count) { buffer -> Piece in
            var n = 0
            var ascii = true
            for s in piece {
                if s < 0x80 {
                    buffer[n] = s >= 0x41 && s <= 0x5A ? s | 0x20 : s
                    n += 1
                } else if tables.info(s) & IDNATables.mapsBit != 0 {
                    for m in tables.lowercase(s) {
                        buffer[n] = m
                        n += 1
                        if m >= 0x80 { ascii = false }
                    }
                } else {
                    buffer[n] = s
                    n += 1
                    ascii = false
                }
            }
            let lower = UnsafeBufferPointer(rebasing: buffer[0..<n])
            if ascii {
                guard lower[0] != 0x2D, lower[n - 1] != 0x2D else { return .invalid }
                for s in lower where !(ByteClass.isLetterOrDigit(UInt8(s)) || s == 0x2D) { return .invalid }
                if n >= 4 && lower[2] == 0x2D && lower[3] == 0x2D {
                    guard lower[0] == 0x78, lower[1] == 0x6E else { return .invalid }
                    switch validALabel(lower, tables) {
                    case true?: break
                    case false?: return .invalid
                    case nil: return .stringForm
                    }
                }
                return .valid(n)
            }
            guard validUnicodeLabel(lower, tables) else { return .invalid }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Punycode.maxEncodedBytes(n)) { code in
                guard let length = Punycode.encode(lower, into: code) else { return .invalid }
                return .valid(4 + length)
            }
        }
    }

    /// Letters, marks, digits and hyphens (none that NFKC_Casefold
    /// changes), no mark first, and no hyphen at
    /// either end (as `hasPrefix("-")` and `hasSuffix("-")` read it on a
    /// `String`: a hyphen that joins a grapheme is no edge). Every scalar
    /// is assigned in the tables and lower-case.
    static func validUnicodeLabel(_ s: UnsafeBufferPointer<UInt32>, _ tables: IDNATables) -> Bool {
        let n = s.count
        if s[0] == 0x2D && !(n > 1 && joinsBefore(s[1], tables)) { return false }
        if s[n - 1] == 0x2D && !(n > 1 && joinsAfter(s[n - 2], tables)) { return false }
        for (k, scalar) in s.enumerated() {
            let info = scalar >= 0x80 ? tables.info(scalar) : 0
            if info & IDNATables.unstableBit != 0 { return false }
            let kind = scalar >= 0x80 ? info & IDNATables.kindMask
                : (scalar >= 0x61 && scalar <= 0x7A) || (scalar >= 0x30 && scalar <= 0x39)
                    ? IDNATables.Kind.valid.rawValue : IDNATables.Kind.disallowed.rawValue
            switch kind {
            case IDNATables.Kind.mark.rawValue:
                if k == 0 { return false }
            case IDNATables.Kind.valid.rawValue:
                break
            default:
                if scalar != 0x2D { return false }
            }
        }
        return true
    }

    /// Whether the lower-case ASCII `xn--…` is a valid A-label: nil when
    /// it decodes to a scalar the tables do not assign.
    static func validALabel(_ label: UnsafeBufferPointer<UInt32>, _ tables: IDNATables) -> Bool? {
        let codeCount = label.count - 4
        guard codeCount > 0 else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: codeCount) { code -> Bool? in
            for k in 0..<codeCount { code[k] = UInt8(truncatingIfNeeded: label[4 + k]) }
            let codeBytes = UnsafeBufferPointer(code)
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: codeCount) { decoded -> Bool? in
                guard let count = Punycode.decode(codeBytes, into: decoded), count > 0 else { return false }
                let u = UnsafeBufferPointer(rebasing: decoded[0..<count])
                var nonASCII = false
                for s in u where s >= 0x80 {
                    nonASCII = true
                    let info = tables.info(s)
                    if info & IDNATables.kindMask == IDNATables.Kind.unassigned.rawValue { return nil }
                    // Not already lower-case: lowercased() would change it.
                    if info & IDNATables.mapsBit != 0 { return false }
                }
                for s in u where s >= 0x41 && s <= 0x5A { return false }
                guard nonASCII, validUnicodeLabel(u, tables) else { return false }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Punycode.maxEncodedBytes(count)) { again in
                    guard let length = Punycode.encode(u, into: again), length == codeCount else { return false }
                    for k in 0..<length where again[k] != code[k] { return false }
                    return true
                }
            }
        }
    }
}
