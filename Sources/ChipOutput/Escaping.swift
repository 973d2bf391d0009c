import ChipSyntax
import ChipRecognition

/// JSON string escaping that never loses a byte: control characters as
/// `\uXXXX`, and each byte of invalid UTF-8 as a lone surrogate
/// `\udcXX` (U+DC80–U+DCFF, the convention of PEP 383), which a reader
/// can map back to the original byte.
package enum JSON {
    /// Bytes that can be copied as they are: printable ASCII but `"` and `\`.
    package static let plain = ByteTable { b in
        b >= 0x20 && b < 0x7F && b != ASCII.quote && b != ASCII.backslash ? 1 : 0
    }

    /// Whether every byte needs no escape and is ASCII (printable, not `"`
    /// or `\`): eight bytes a step. A string of such bytes, and any part
    /// of it, is copied whole (``JSONLine``).
    ///
    /// - Complexity: O(*n*).
    package static func isPlain(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        isPlain(p, allowsHighBytes: false)
    }

    /// Whether bytes already known to be well-formed UTF-8 need no
    /// escape: no control byte, no DEL, no `"` or `\\`, and no byte that
    /// may start a bidi control, a hidden character, a C1 control or a line
    /// or paragraph separator (other bytes of 0x80
    /// and above pass: ``appendString(_:to:)-(UnsafeBufferPointer<UInt8>,_)``
    /// copies a well-formed sequence as it is). Eight bytes a step. A
    /// string of such bytes, and any part of it, is written by
    /// ``JSONLine`` whole.
    ///
    /// - Complexity: O(*n*).
    package static func isPlain(wellFormedUTF8 p: UnsafeBufferPointer<UInt8>) -> Bool {
        isPlain(p, allowsHighBytes: true)
    }

    /// No control byte, DEL, `"` or `\\`, and, unless `allowsHighBytes`,
    /// none of 0x80 and above: eight bytes a step.
    @inline(__always)
    static func isPlain(_ p: UnsafeBufferPointer<UInt8>, allowsHighBytes: Bool) -> Bool {
        let n = p.count
        if n >= 16, let base = p.baseAddress {
            // Sixteen bytes a step, the last sixteen overlapping.
            var bad = SIMDMask<SIMD16<Int8>>(repeating: false)
            var i = 0
            while true {
                let v = VectorBits.load(base + i)
                bad .|= v .< SIMD16<UInt8>(repeating: 0x20)
                bad .|= v .== SIMD16<UInt8>(repeating: 0x7F)
                bad .|= v .== SIMD16<UInt8>(repeating: ASCII.quote)
                bad .|= v .== SIMD16<UInt8>(repeating: ASCII.backslash)
                if !allowsHighBytes {
                    bad .|= v .>= SIMD16<UInt8>(repeating: 0x80)
                } else {
                    // A byte that may start a bidi control or hidden
                    // character, which the escaper writes as `\uXXXX`.
                    bad .|= v .== SIMD16<UInt8>(repeating: 0xC2)
                    bad .|= v .== SIMD16<UInt8>(repeating: 0xD8)
                    bad .|= v .== SIMD16<UInt8>(repeating: 0xE1)
                    bad .|= v .== SIMD16<UInt8>(repeating: 0xE2)
                    bad .|= v .== SIMD16<UInt8>(repeating: 0xEF)
                }
                if i + 16 >= n { break }
                i = min(i + 16, n - 16)
            }
            return !VectorBits.isAnySet(bad)
        }
        var i = 0
        var bad: UInt64 = 0
        // A byte below 0x20 (one of 0x80 and above has its high bit set,
        // so `~w` clears it), a high byte if refused, DEL, a quote or a
        // backslash.
        @inline(__always) func flags(_ w: UInt64) -> UInt64 {
            (w &- 0x2020_2020_2020_2020) & ~w
                | (allowsHighBytes
                    ? SWAR.byte(w, 0xC2) | SWAR.byte(w, 0xD8) | SWAR.byte(w, 0xE1) | SWAR.byte(w, 0xE2)
                        | SWAR.byte(w, 0xEF)
                    : w)
                | SWAR.byte(w, 0x7F) | SWAR.byte(w, ASCII.quote) | SWAR.byte(w, ASCII.backslash)
        }
        while i + 8 <= n {
            bad |= flags(SWAR.load(p, i))
            i += 8
        }
        if i < n && n >= 8 {
            // The last bytes as the end of the last eight, read again
            // whole rather than one by one.
            bad |= flags(SWAR.load(p, n - 8))
            i = n
        }
        if bad & 0x8080_8080_8080_8080 != 0 { return false }
        while i < n {
            let b = p[i]
            if b < 0x20 || b == 0x7F || b == ASCII.quote || b == ASCII.backslash || (!allowsHighBytes && b >= 0x80)
                || (allowsHighBytes && Invisibles.mayStartInvisible(b)) {
                return false
            }
            i += 1
        }
        return true
    }

    package static func appendString(_ a: [UInt8], to out: inout ByteBuffer) {
        appendString(a, to: out.uniqueStorage)
    }

    package static func appendString(_ a: [UInt8], to out: ByteBuffer.Storage) {
        a.withUnsafeBufferPointer { appendString($0, to: out) }
    }

    package static func appendString(_ p: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        // Room for the worst case (every byte six), so the loop stores
        // without checking; words of eight bytes that need no escape are
        // copied whole, and a word's bytes before its first that does.
        out.reserve(6 * p.count + 2)
        var o = out.count
        let d = out.base
        d[o] = ASCII.quote
        o += 1
        let plain = JSON.plain
        let n = p.count
        var i = 0
        while i < n {
            copyPlainWords(p, &i, to: d, &o, quoteIsPlain: false)
            guard i < n else { break }
            let b = p[i]
            if plain[b] != 0 {
                d[o] = b
                o += 1
                i += 1
                continue
            }
            switch b {
            case ASCII.quote: store("\\\"", d, &o); i += 1
            case ASCII.backslash: store("\\\\", d, &o); i += 1
            case ASCII.lineFeed: store("\\n", d, &o); i += 1
            case ASCII.carriageReturn: store("\\r", d, &o); i += 1
            case ASCII.tab: store("\\t", d, &o); i += 1
            case 0..<0x20, 0x7F:
                store("\\u00", d, &o)
                storeHex(b, d, &o)
                i += 1
            default:
                let len = UTF8Bytes.sequenceLength(p, at: i, end: p.count)
                if len == 0 {
                    store("\\udc", d, &o)
                    storeHex(b, d, &o)
                    i += 1
                } else if let scalar = Invisibles.invisibleScalar(p, at: i, length: len)
                    ?? (Escaper.isLineOrControl(p, at: i, length: len) ? Self.scalar(p, at: i, length: len) : nil) {
                    // A bidi control, a hidden character, a C1 control or a
                    // line or paragraph separator: escaped, so the line
                    // never renders reversed in a terminal, hides a
                    // character or sends a terminal a control; a JSON
                    // reader gets the same string.
                    store("\\u", d, &o)
                    storeHex(UInt8(scalar >> 8), d, &o)
                    storeHex(UInt8(scalar & 0xFF), d, &o)
                    i += len
                } else {
                    for k in 0..<len { d[o + k] = p[i + k] }
                    o += len
                    i += len
                }
            }
        }
        d[o] = ASCII.quote
        out.count = o + 1
    }

    /// Copies the bytes at `p[i...]` that need no escape into `d[o...]`
    /// eight at a time, and stops at the first byte that needs a look (a
    /// control, DEL, a `\\`, a byte of 0x80 and above, and a `"` unless
    /// `quoteIsPlain`) or where fewer than eight bytes are left; `i` and
    /// `o` move past what was copied. A word goes out whole into the room
    /// the caller reserved, and only its bytes before the first flagged
    /// one count (the lowest flag is exact: a borrow runs only upwards).
    ///
    /// - Complexity: O(*n*) in the bytes copied.
    @inline(__always)
    static func copyPlainWords(
        _ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, to d: UnsafeMutablePointer<UInt8>, _ o: inout Int,
        quoteIsPlain: Bool
    ) {
        while i + 8 <= p.count {
            let w = SWAR.load(p, i)
            let below = (w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080
            var special = below | w | SWAR.byte(w, 0x7F) | SWAR.byte(w, ASCII.backslash)
            if !quoteIsPlain { special |= SWAR.byte(w, ASCII.quote) }
            special &= 0x8080_8080_8080_8080
            UnsafeMutableRawPointer(d + o).storeBytes(of: w.littleEndian, as: UInt64.self)
            if special == 0 {
                o += 8
                i += 8
                continue
            }
            let plainBytes = special.trailingZeroBitCount >> 3
            o += plainBytes
            i += plainBytes
            return
        }
    }

    /// The scalar of the well-formed two- or three-byte sequence at `i`.
    @inline(__always)
    static func scalar(_ p: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> UInt32 {
        length == 2
            ? UInt32(p[i] & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F)
            : UInt32(p[i] & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F)
    }

    @inline(__always)
    static func store(_ s: StaticString, _ d: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
        let p = s.utf8Start
        for k in 0..<s.utf8CodeUnitCount { d[o + k] = p[k] }
        o += s.utf8CodeUnitCount
    }

    @inline(__always)
    static func storeHex(_ b: UInt8, _ d: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
        let digits: StaticString = "0123456789abcdef"
        d[o] = digits.utf8Start[Int(b >> 4)]
        d[o + 1] = digits.utf8Start[Int(b & 0xF)]
        o += 2
    }

    package static func appendHex(_ b: UInt8, to out: ByteBuffer.Storage) {
        out.reserve(2)
        storeHex(b, out.base, &out.count)
    }
}

/// Escaping for one-line text and TSV fields: `\t` `\n` `\r` `\\` and
/// `\xHH` for other control bytes and for invalid UTF-8.
package enum Escaper {
    /// Whether the well-formed sequence of `length` bytes at `i` is a C1
    /// control (U+0080–U+009F), U+2028 or U+2029.
    @inline(__always)
    static func isLineOrControl(_ p: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> Bool {
        (length == 2 && p[i] == 0xC2 && p[i + 1] < 0xA0)
            || (length == 3 && p[i] == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9))
    }

    /// The letters after a `\` that make an escape of the text formats.
    @inline(__always)
    static func startsEscape(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "t") || b == UInt8(ascii: "n") || b == UInt8(ascii: "r") || b == UInt8(ascii: "x")
            || b == UInt8(ascii: "u") || b == ASCII.backslash
    }

    package static func appendEscaped(_ a: [UInt8], forPeople: Bool = false, to out: ByteBuffer.Storage) {
        a.withUnsafeBufferPointer { appendEscaped($0, forPeople: forPeople, to: out) }
    }

    /// Writes `p` with controls, line separators and invalid bytes as
    /// `\xHH`, a tab, line feed or carriage return as `\t`, `\n`, `\r`,
    /// and `\` as `\\` (TSV: data for programs). `forPeople` (the text
    /// formats, which a person reads in a terminal) writes a bidi control
    /// or hidden character as `\u{xxxx}` too, and a `\` as `\\` only where
    /// it could read as the start of an escape (anywhere but before
    /// printable ASCII other than `t`, `n`, `r`, `x`, `u` and `\`): `B\B`
    /// stays `B\B`, and a reader that takes an unknown escape as it stands
    /// still gets every byte back.
    ///
    /// - Complexity: O(*n*) in the bytes.
    package static func appendEscaped(
        _ p: UnsafeBufferPointer<UInt8>, forPeople: Bool = false, to out: ByteBuffer.Storage
    ) {
        // Room for the worst case (four bytes out for each byte in), so the
        // loop stores without checking; words of eight printable ASCII
        // bytes but `\` are copied whole, as JSON strings are.
        out.reserve(4 * p.count)
        let d = out.base
        var o = out.count
        let n = p.count
        var i = 0
        while i < n {
            JSON.copyPlainWords(p, &i, to: d, &o, quoteIsPlain: true)
            guard i < n else { break }
            let b = p[i]
            switch b {
            case ASCII.tab: JSON.store("\\t", d, &o); i += 1
            case ASCII.lineFeed: JSON.store("\\n", d, &o); i += 1
            case ASCII.carriageReturn: JSON.store("\\r", d, &o); i += 1
            case ASCII.backslash:
                // Raw only before printable ASCII that starts no escape:
                // anything else may be written as an escape itself.
                if forPeople, i + 1 < n, p[i + 1] >= 0x20, p[i + 1] < 0x7F, !Escaper.startsEscape(p[i + 1]) {
                    d[o] = b
                    o += 1
                } else {
                    JSON.store("\\\\", d, &o)
                }
                i += 1
            case 0..<0x20, 0x7F:
                JSON.store("\\x", d, &o)
                JSON.storeHex(b, d, &o)
                i += 1
            case 0x20..<0x7F:
                d[o] = b
                o += 1
                i += 1
            default:
                let len = UTF8Bytes.sequenceLength(p, at: i, end: n)
                if len == 0 {
                    JSON.store("\\x", d, &o)
                    JSON.storeHex(b, d, &o)
                    i += 1
                } else if Escaper.isLineOrControl(p, at: i, length: len) {
                    // A C1 control (a terminal may read U+009B as CSI) or a
                    // line or paragraph separator: its bytes, as `\xHH`, so
                    // a reader gets them back and a terminal never acts on them.
                    for k in i..<i + len {
                        JSON.store("\\x", d, &o)
                        JSON.storeHex(p[k], d, &o)
                    }
                    i += len
                } else if forPeople, let scalar = Invisibles.invisibleScalar(p, at: i, length: len) {
                    JSON.store("\\u{", d, &o)
                    JSON.storeHex(UInt8(scalar >> 8), d, &o)
                    JSON.storeHex(UInt8(scalar & 0xFF), d, &o)
                    JSON.store("}", d, &o)
                    i += len
                } else {
                    for k in 0..<len { d[o + k] = p[i + k] }
                    o += len
                    i += len
                }
            }
        }
        out.count = o
    }
}
