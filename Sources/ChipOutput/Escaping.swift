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
    /// escape: no control byte, no DEL, no `"` or `\\`, and none of the
    /// sequences ``appendString(_:to:)-(UnsafeBufferPointer<UInt8>,_)``
    /// writes as `\uXXXX` (a bidi control, a hidden character, a C1
    /// control, a line or paragraph separator); every other sequence is
    /// copied as it is. Sixteen bytes a step; a byte that may start such
    /// a sequence (0xC2, 0xD8, 0xE1, 0xE2, 0xEF: all of Arabic's 0xD8
    /// letters, and punctuation such as `–` and `’`) is looked at closer.
    /// A string of such bytes, and any part of it cut between sequences,
    /// is written by ``JSONLine`` whole.
    ///
    /// - Complexity: O(*n*).
    package static func isPlain(wellFormedUTF8 p: UnsafeBufferPointer<UInt8>) -> Bool {
        isPlain(p, allowsHighBytes: true)
    }

    /// No control byte, DEL, `"` or `\\`, and, unless `allowsHighBytes`,
    /// none of 0x80 and above (with it, no sequence that
    /// ``escapesSequence(_:at:)``).
    @inline(__always)
    static func isPlain(_ p: UnsafeBufferPointer<UInt8>, allowsHighBytes: Bool) -> Bool {
        let n = p.count
        if n >= 16, let base = p.baseAddress {
            // Sixteen bytes a step, the last sixteen overlapping.
            var i = 0
            while true {
                let v = VectorBits.load(base + i)
                var bad = v .< SIMD16<UInt8>(repeating: 0x20)
                bad .|= v .== SIMD16<UInt8>(repeating: 0x7F)
                bad .|= v .== SIMD16<UInt8>(repeating: ASCII.quote)
                bad .|= v .== SIMD16<UInt8>(repeating: ASCII.backslash)
                let high = v .>= SIMD16<UInt8>(repeating: 0x80)
                if !allowsHighBytes { bad .|= high }
                if VectorBits.isAnySet(bad) { return false }
                if allowsHighBytes && VectorBits.isAnySet(high) {
                    // A byte that may start a sequence the escaper writes
                    // as `\uXXXX`: each looked at.
                    var bits = VectorBits.bits(Invisibles.mayStartInvisibleLanes(v))
                    while bits != 0 {
                        if escapesSequence(p, at: i + bits.trailingZeroBitCount) { return false }
                        bits &= bits &- 1
                    }
                }
                if i + 16 >= n { return true }
                i = min(i + 16, n - 16)
            }
        }
        var i = 0
        var bad: UInt64 = 0
        // A byte below 0x20 (one of 0x80 and above has its high bit set,
        // so `~w` clears it), a high byte if refused, DEL, a quote or a
        // backslash.
        @inline(__always) func flags(_ w: UInt64) -> UInt64 {
            (w &- 0x2020_2020_2020_2020) & ~w | (allowsHighBytes ? 0 : w)
                | SWAR.byte(w, 0x7F) | SWAR.byte(w, ASCII.quote) | SWAR.byte(w, ASCII.backslash)
        }
        while i + 8 <= n {
            let w = SWAR.load(p, i)
            bad |= flags(w)
            if allowsHighBytes && w & 0x8080_8080_8080_8080 != 0 && escapesSome(p, w, at: i) { return false }
            i += 8
        }
        if i < n && n >= 8 {
            // The last bytes as the end of the last eight, read again
            // whole rather than one by one.
            let w = SWAR.load(p, n - 8)
            bad |= flags(w)
            if allowsHighBytes && w & 0x8080_8080_8080_8080 != 0 && escapesSome(p, w, at: n - 8) { return false }
            i = n
        }
        if bad & 0x8080_8080_8080_8080 != 0 { return false }
        while i < n {
            let b = p[i]
            if b < 0x20 || b == 0x7F || b == ASCII.quote || b == ASCII.backslash || (!allowsHighBytes && b >= 0x80)
                || (allowsHighBytes && escapesSequence(p, at: i)) {
                return false
            }
            i += 1
        }
        return true
    }

    /// Whether the inside of a quoted string (the bytes between its
    /// quotes, well-formed UTF-8), once decoded, is written in JSON as
    /// these very bytes: each quoted-pair is `\"` or `\\` (which JSON
    /// writes the same way), no `"` stands unescaped, no other byte or
    /// sequence is one JSON escapes, and its white space is single spaces
    /// between words (which decoding keeps as they are). Then the decoding
    /// is that of ``DisplayName``'s plain path, with no warning.
    /// Sixteen bytes a step; the few quotes and backslashes are looked at
    /// one by one.
    ///
    /// - Complexity: O(*n*).
    package static func quotedIsJSON(wellFormedUTF8 p: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = p.count
        guard n > 0, let base = p.baseAddress, p[0] != ASCII.space, p[n - 1] != ASCII.space else { return false }
        var escaped = -1  // the byte the last quoted-pair escapes
        // One step of sixteen bytes read at `i`, its lanes below `from`
        // already looked at.
        @inline(__always) func step(_ v: SIMD16<UInt8>, at i: Int, from: Int) -> Bool {
            var bad = v .< SIMD16<UInt8>(repeating: 0x20)
            bad .|= v .== SIMD16<UInt8>(repeating: 0x7F)
            let spaces = VectorBits.bits(v .== SIMD16<UInt8>(repeating: ASCII.space))
            if VectorBits.isAnySet(bad) || spaces & (spaces >> 1) != 0 { return false }
            let keep = ~VectorBits.low(from)
            var pairs = VectorBits.bits((v .== SIMD16<UInt8>(repeating: ASCII.quote)) .| (v .== SIMD16<UInt8>(repeating: ASCII.backslash))) & keep
            while pairs != 0 {
                let g = i + pairs.trailingZeroBitCount
                pairs &= pairs &- 1
                if g == escaped { continue }
                guard p[g] == ASCII.backslash, g + 1 < n, p[g + 1] == ASCII.quote || p[g + 1] == ASCII.backslash else {
                    return false
                }
                escaped = g + 1
            }
            if VectorBits.isAnySet(v .>= SIMD16<UInt8>(repeating: 0x80)) {
                var leads = VectorBits.bits(Invisibles.mayStartInvisibleLanes(v)) & keep
                while leads != 0 {
                    if escapesSequence(p, at: i + leads.trailingZeroBitCount) { return false }
                    leads &= leads &- 1
                }
            }
            return true
        }
        guard n >= 16 else {
            // Padded with letters, which change nothing.
            var v = SIMD16<UInt8>(repeating: UInt8(ascii: "a"))
            withUnsafeMutableBytes(of: &v) { $0.baseAddress!.copyMemory(from: base, byteCount: n) }
            return step(v, at: 0, from: 0)
        }
        var i = 0
        while true {
            // Two spaces across the step before.
            if i > 0 && p[i] == ASCII.space && p[i - 1] == ASCII.space { return false }
            guard step(VectorBits.load(base + i), at: i, from: 0) else { return false }
            i += 16
            if i + 16 > n { break }
        }
        // The last sixteen, overlapping the step before.
        return i == n || step(VectorBits.load(base + n - 16), at: n - 16, from: i - (n - 16))
    }

    /// Whether one of the eight bytes `w` read at `at` starts a sequence
    /// ``escapesSequence(_:at:)``: the bytes that may start one are each
    /// looked at (a flag above the lowest may be a false one).
    @inline(never)
    static func escapesSome(_ p: UnsafeBufferPointer<UInt8>, _ w: UInt64, at: Int) -> Bool {
        var f = Invisibles.mayStartInvisibleBytes(w)
        while f != 0 {
            if escapesSequence(p, at: at + f.trailingZeroBitCount >> 3) { return true }
            f &= f &- 1
        }
        return false
    }

    /// Whether the well-formed sequence that starts at `i` (or the byte
    /// there, when it starts none) is one ``appendString(_:to:)-(UnsafeBufferPointer<UInt8>,_)``
    /// escapes: a bidi control, a hidden character, a C1 control, a line
    /// or paragraph separator, all two or three bytes long. Its first two
    /// bytes are looked at inline (``mayEscape(_:_:)``), so that most
    /// sequences that share a first byte with one to escape (Arabic
    /// letters, `–`, `’`, `…`, U+00A0–00BF) cost no call.
    @inline(__always)
    static func escapesSequence(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let b = p[i]
        guard b >= 0xC2 && b < 0xF0, mayEscape(b, p[i + 1]) else { return false }
        return escapes(p, at: i, length: b < 0xE0 ? 2 : 3)
    }

    /// Whether a sequence whose first two bytes are `b` and `c` may be one
    /// to escape (``Invisibles/invisibleScalar(_:at:length:)``,
    /// ``Escaper/isLineOrControl(_:at:length:)``).
    @inline(__always)
    static func mayEscape(_ b: UInt8, _ c: UInt8) -> Bool {
        switch b {
        case 0xC2: return c < 0xA0 || c == 0xAD
        case 0xD8: return c == 0x9C
        case 0xE1: return c == 0xA0
        case 0xE2: return c == 0x80 || c == 0x81
        case 0xEF: return c == 0xBB
        default: return false
        }
    }

    @inline(never)
    static func escapes(_ p: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> Bool {
        Invisibles.invisibleScalar(p, at: i, length: length) != nil || Escaper.isLineOrControl(p, at: i, length: length)
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
                } else if len < 4, escapesSequence(p, at: i) {
                    let scalar = Self.scalar(p, at: i, length: len)
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

    /// The JSON string of `p`, bytes known to be well-formed UTF-8,
    /// written at `d`: what ``appendString(_:to:)-(UnsafeBufferPointer<UInt8>,_)``
    /// writes, found sixteen bytes a step (eight, then one, near the
    /// end). Each step stores its bytes whole and keeps those before the
    /// first that needs a look: a control, DEL, `"`, `\\`, or a byte that
    /// may start a sequence to escape (``escapesSequence(_:at:)``; by
    /// eights, any byte of 0x80 and above). Returns where the string
    /// ends. Writes up to 15 bytes past that, in room the caller reserved
    /// (``JSONLine/Text/slack``): 6 × `p.count` + 2 + 16 in all.
    ///
    /// - Complexity: O(*n*).
    @inline(never)
    static func writeString(wellFormedUTF8 p: UnsafeBufferPointer<UInt8>, at d: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var o = d
        o.pointee = ASCII.quote
        o += 1
        let n = p.count
        guard let base = p.baseAddress else {
            o.pointee = ASCII.quote
            return o + 1
        }
        let plain = JSON.plain
        @inline(__always) func storeVector(_ v: SIMD16<UInt8>, at o: UnsafeMutablePointer<UInt8>) {
            UnsafeMutableRawPointer(o).storeBytes(of: v, as: SIMD16<UInt8>.self)
        }
        var i = 0
        outer: while i < n {
            if i + 16 <= n {
                let v = VectorBits.load(base + i)
                storeVector(v, at: o)
                let quoted = VectorBits.bits((v .== SIMD16<UInt8>(repeating: ASCII.quote)) .| (v .== SIMD16<UInt8>(repeating: ASCII.backslash)))
                var m = v .< SIMD16<UInt8>(repeating: 0x20)
                m .|= v .== SIMD16<UInt8>(repeating: 0x7F)
                m .|= Invisibles.mayStartInvisibleLanes(v)
                let other = VectorBits.bits(m)
                if quoted | other == 0 {
                    o += 16
                    i += 16
                    continue
                }
                // Each `"` and `\\` before the first other byte to look at:
                // a `\\` before it, and the bytes after it stored from the
                // string, sixteen while they lie in it.
                let stop = other == 0 ? 16 : other.trailingZeroBitCount
                var from = 0
                var q = quoted & VectorBits.low(stop)
                while q != 0 {
                    let k = q.trailingZeroBitCount
                    o += k - from
                    o[0] = ASCII.backslash
                    o[1] = base[i + k]
                    o += 2
                    from = k + 1
                    q &= q &- 1
                    guard i + from + 16 <= n else {
                        i += from
                        continue outer
                    }
                    storeVector(VectorBits.load(base + i + from), at: o)
                }
                o += stop - from
                i += stop
                if stop == 16 { continue }
            } else if i + 8 <= n {
                let w = SWAR.load(p, i)
                UnsafeMutableRawPointer(o).storeBytes(of: w.littleEndian, as: UInt64.self)
                let below = (w &- 0x2020_2020_2020_2020) & ~w
                let special = (below | w | SWAR.byte(w, 0x7F) | SWAR.byte(w, ASCII.backslash) | SWAR.byte(w, ASCII.quote))
                    & 0x8080_8080_8080_8080
                let run = special == 0 ? 8 : special.trailingZeroBitCount >> 3
                o += run
                i += run
                if run == 8 { continue }
            } else if plain[p[i]] != 0 {
                o.pointee = p[i]
                o += 1
                i += 1
                continue
            }
            let b = p[i]
            if b >= 0xC0 {
                // A sequence's first byte: escaped, or copied whole.
                let length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
                if length < 4, escapesSequence(p, at: i) {
                    let scalar = Self.scalar(p, at: i, length: length)
                    var k = 0
                    store("\\u", o, &k)
                    storeHex(UInt8(scalar >> 8), o, &k)
                    storeHex(UInt8(scalar & 0xFF), o, &k)
                    o += k
                } else {
                    for k in 0..<length { o[k] = p[i + k] }
                    o += length
                }
                i += length
                continue
            }
            var k = 0
            switch b {
            case ASCII.quote: store("\\\"", o, &k)
            case ASCII.backslash: store("\\\\", o, &k)
            case ASCII.lineFeed: store("\\n", o, &k)
            case ASCII.carriageReturn: store("\\r", o, &k)
            case ASCII.tab: store("\\t", o, &k)
            case 0..<0x20, 0x7F:
                store("\\u00", o, &k)
                storeHex(b, o, &k)
            default:
                // The rest of a sequence a step split: copied.
                o.pointee = b
                k = 1
            }
            o += k
            i += 1
        }
        o.pointee = ASCII.quote
        return o + 1
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
