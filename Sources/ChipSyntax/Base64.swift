// Base64 (RFC 4648) and hex digits: one decoder for RFC 2047 B words,
// vCard values and the generated tables.

/// Base64 and hexadecimal digits.
package enum Base64 {
    /// The value of a base64 digit (`A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`;
    /// with `urlSafe` also `-` and `_`, RFC 4648 §5), or nil.
    @inline(__always)
    package static func digitValue(_ b: UInt8, urlSafe: Bool = false) -> UInt8? {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): b - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): b - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        case UInt8(ascii: "-") where urlSafe: 62
        case UInt8(ascii: "_") where urlSafe: 63
        default: nil
        }
    }

    /// The value of a hexadecimal digit, either case, or nil. Inlinable:
    /// the Q decoders of other modules call it for every `=XX`.
    @inlinable @inline(__always)
    package static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Decodes base64, calling `byte` with each decoded byte. `=` padding
    /// may be missing but nothing may follow it; leftover bits must be
    /// fewer than a byte. With `skippingWhiteSpace`, spaces, tabs and line
    /// breaks are ignored (as in folded vCard values and generated tables);
    /// otherwise they are errors. Returns false on a bad digit or a
    /// truncated final byte.
    ///
    /// - Complexity: O(*n*) in the text's length.
    package static func decode(
        _ text: UnsafeBufferPointer<UInt8>, skippingWhiteSpace: Bool = false, urlSafe: Bool = false,
        _ byte: (UInt8) -> Void
    ) -> Bool {
        var accumulator: UInt32 = 0
        var bits = 0
        var padded = false
        for c in text {
            if skippingWhiteSpace && (ByteClass.isSpace(c) || ByteClass.isLineBreak(c)) { continue }
            if c == UInt8(ascii: "=") {
                padded = true
                continue
            }
            guard !padded, let v = digitValue(c, urlSafe: urlSafe) else { return false }
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                byte(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bits < 6
    }

    /// Each byte's value as a digit of standard base64, 0x40 for `=`, and
    /// 0xFF for any other byte.
    @usableFromInline package static let digitValues = ByteTable { b in
        if b == 0x3D { return 0x40 }
        return digitValue(UInt8(b)) ?? 0xFF
    }

    /// Each byte's value as a hexadecimal digit (either case), and 0xFF
    /// for any other byte.
    @usableFromInline package static let hexValues = ByteTable { b in hexValue(UInt8(b)) ?? 0xFF }

    /// ``decode(_:skippingWhiteSpace:urlSafe:_:)`` of standard base64,
    /// into `out` (room for `text.count` bytes, which no text outgrows):
    /// how many bytes it wrote, or nil on a bad digit or a truncated final
    /// byte. Four digits make three bytes at a time, each valued by one
    /// look-up, up to the first `=` or bad digit; the rest (a padded last
    /// group, or an error) digit by digit.
    ///
    /// - Complexity: O(*n*) in the text's length.
    @inlinable
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        var accumulator: UInt32 = 0, bits = 0, n = 0
        var padded = false
        let values = digitValues
        var i = 0
        while i + 4 <= text.count {
            let a = values[text[i]], b = values[text[i + 1]], c = values[text[i + 2]], d = values[text[i + 3]]
            guard (a | b | c | d) & 0xC0 == 0 else { break }
            let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            out[n] = UInt8(truncatingIfNeeded: v >> 16)
            out[n + 1] = UInt8(truncatingIfNeeded: v >> 8)
            out[n + 2] = UInt8(truncatingIfNeeded: v)
            n += 3
            i += 4
        }
        for c in UnsafeBufferPointer(rebasing: text[i...]) {
            if c == UInt8(ascii: "=") {
                padded = true
                continue
            }
            var v: UInt8 = 0xFF
            v = c &- 0x41 < 26 ? c &- 0x41 : v
            v = c &- 0x61 < 26 ? c &- 0x61 &+ 26 : v
            v = c &- 0x30 < 10 ? c &- 0x30 &+ 52 : v
            v = c == UInt8(ascii: "+") ? 62 : v
            v = c == UInt8(ascii: "/") ? 63 : v
            guard !padded, v < 64 else { return nil }
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out[n] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                n += 1
            }
        }
        return bits < 6 ? n : nil
    }

    /// A generated table's base64 (white space between lines skipped)
    /// decoded into `count` freshly allocated bytes, followed by `padding`
    /// zero bytes; never freed, as the tables live as long as the process.
    /// Traps when the text is not `count` bytes of base64: the generator
    /// and the file disagree.
    ///
    /// - Complexity: O(*n*) in the text's length.
    package static func decodeTable(
        _ text: StaticString, count: Int, padding: Int = 0, name: String
    ) -> UnsafeMutablePointer<UInt8> {
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: count + padding)
        (out + count).initialize(repeating: 0, count: padding)
        var written = 0
        let valid = text.withUTF8Buffer { utf8 in
            decode(utf8, skippingWhiteSpace: true) { byte in
                precondition(written < count, "\(name): more data than declared")
                out[written] = byte
                written += 1
            }
        }
        precondition(valid && written == count, "\(name): less data than declared, or not base64")
        return out
    }
}
