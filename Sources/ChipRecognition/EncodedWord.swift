import ChipSyntax

/// RFC 2047 encoded words, `=?charset?encoding?text?=`, as they appear in
/// display names and comments.
enum EncodedWord {
    enum Charset: Equatable {
        case utf8, ascii, latin1, windows1252, latin9
    }

    struct Decoded {
        var charset: Charset
        var bytes: [UInt8]
    }

    enum Outcome {
        /// Not an encoded word at all: ordinary text.
        case notEncoded
        /// Shaped like one, but with an unknown charset or a bad encoding:
        /// left as written.
        case undecodable
        case decoded([Decoded])
    }

    /// Decodes an atom that consists of one or more encoded words (several
    /// only when written back to back, which real mail does).
    static func decode(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Outcome {
        var i = range.lowerBound
        let end = range.upperBound
        guard end - i >= 8, p[i] == UInt8(ascii: "="), p[i + 1] == UInt8(ascii: "?") else {
            return .notEncoded
        }
        var words: [Decoded] = []
        while i < end {
            guard end - i >= 8, p[i] == UInt8(ascii: "="), p[i + 1] == UInt8(ascii: "?") else {
                return words.isEmpty ? .notEncoded : .undecodable
            }
            // charset
            var j = i + 2
            let charsetStart = j
            while j < end && p[j] != UInt8(ascii: "?") { j += 1 }
            guard j < end, j > charsetStart else { return .notEncoded }
            let charsetEnd = j
            j += 1
            guard j + 1 < end, p[j + 1] == UInt8(ascii: "?") else { return .notEncoded }
            let encoding = ByteClass.lowercased(p[j])
            guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q") else { return .notEncoded }
            j += 2
            let textStart = j
            while j + 1 < end && !(p[j] == UInt8(ascii: "?") && p[j + 1] == UInt8(ascii: "=")) { j += 1 }
            guard j + 1 < end else { return .notEncoded }
            let textEnd = j
            i = j + 2
            guard let charset = charset(p, charsetStart..<charsetEnd) else { return .undecodable }
            let text = UnsafeBufferPointer(rebasing: p[textStart..<textEnd])
            let decoded = encoding == UInt8(ascii: "b") ? base64(text) : quoted(text)
            guard let bytes = decoded else { return .undecodable }
            words.append(Decoded(charset: charset, bytes: bytes))
        }
        return .decoded(words)
    }

    /// The charsets understood. An RFC 2231 language suffix (`*en`) is ignored.
    static func charset(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Charset? {
        var name: [UInt8] = []
        for i in range {
            if p[i] == UInt8(ascii: "*") { break }
            name.append(ByteClass.lowercased(p[i]))
        }
        switch String(decoding: name, as: UTF8.self) {
        case "utf-8", "utf8": return .utf8
        case "us-ascii", "ascii", "ansi_x3.4-1968": return .ascii
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1": return .latin1
        case "windows-1252", "cp1252": return .windows1252
        case "iso-8859-15", "iso8859-15", "latin9", "latin-9": return .latin9
        default: return nil
        }
    }

    static func base64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        var padding = 0
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                return nil
            }
            if padding > 0 { return nil }  // data after padding
            buffer = (buffer << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Leftover bits must be fewer than a byte (missing padding is tolerated).
        return bits >= 6 ? nil : out
    }

    static func quoted(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: "_") {
                out.append(ASCII.space)
            } else if c == UInt8(ascii: "=") {
                guard i + 2 < text.count, let hi = hex(text[i + 1]), let lo = hex(text[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 2
            } else {
                out.append(c)
            }
            i += 1
        }
        return out
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Windows-1252's 0x80–0x9F (0 where undefined).
    static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// Appends `bytes` in `charset` as UTF-8; what cannot be converted
    /// becomes U+FFFD. Every control character (C0, DEL, C1) and line or
    /// paragraph separator becomes a space, and runs of white space fold to
    /// one, so a decoded name can never smuggle a line break, and the words
    /// around a control stay apart (`x=0D=0Ay` is `x y`).
    static func appendUTF8(_ bytes: [UInt8], charset: Charset, into out: inout [UInt8]) {
        func scalar(_ v: UInt32) {
            if v <= 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029 {
                if out.last != ASCII.space { out.append(ASCII.space) }
                return
            }
            appendScalar(v, into: &out)
        }
        switch charset {
        case .utf8:
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): scalar(s.value)
                case .error: scalar(0xFFFD)
                case .emptyInput: break loop
                }
            }
        case .ascii:
            for b in bytes { scalar(b < 0x80 ? UInt32(b) : 0xFFFD) }
        case .latin1:
            for b in bytes { scalar(UInt32(b)) }
        case .windows1252:
            for b in bytes {
                if b >= 0x80 && b < 0xA0 {
                    let v = windows1252High[Int(b - 0x80)]
                    scalar(v == 0 ? 0xFFFD : v)
                } else {
                    scalar(UInt32(b))
                }
            }
        case .latin9:
            for b in bytes {
                switch b {
                case 0xA4: scalar(0x20AC)
                case 0xA6: scalar(0x0160)
                case 0xA8: scalar(0x0161)
                case 0xB4: scalar(0x017D)
                case 0xB8: scalar(0x017E)
                case 0xBC: scalar(0x0152)
                case 0xBD: scalar(0x0153)
                case 0xBE: scalar(0x0178)
                default: scalar(UInt32(b))
                }
            }
        }
    }
}

/// Appends a code point as UTF-8 (surrogates and out-of-range values
/// become U+FFFD).
func appendScalar(_ value: UInt32, into out: inout [UInt8]) {
    var v = value
    if (v >= 0xD800 && v < 0xE000) || v > 0x10FFFF { v = 0xFFFD }
    switch v {
    case 0..<0x80:
        out.append(UInt8(v))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | (v >> 6)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | (v >> 12)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    default:
        out.append(UInt8(0xF0 | (v >> 18)))
        out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    }
}
