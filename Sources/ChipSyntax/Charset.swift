// Character encodings, found by label as the WHATWG Encoding Standard finds
// them, and decoded to Unicode scalars.

/// A character encoding that text can be decoded from.
///
/// Labels are matched as the WHATWG Encoding Standard matches them: ASCII
/// case-insensitively, after trimming ASCII white space, so `latin1`,
/// `ISO-8859-1` and `us-ascii` all name windows-1252, as they do in every
/// browser and in most mail clients.
package enum Charset: Sendable, Hashable {
    case utf8
    case utf16LE
    case utf16BE
    case windows1252
    case iso8859_15

    /// The encoding a label names, or `nil` for a label the standard does
    /// not know. An RFC 2231 language suffix (`utf-8*en`) is ignored.
    ///
    /// - Complexity: O(*n*) in the label's length.
    package init?(label: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var end = label.count
        if let star = label.firstIndex(of: UInt8(ascii: "*")) { end = star }
        while start < end && Charset.isLabelSpace(label[start]) { start += 1 }
        while end > start && Charset.isLabelSpace(label[end - 1]) { end -= 1 }
        var name: [UInt8] = []
        name.reserveCapacity(end - start)
        for i in start..<end { name.append(ByteClass.lowercased(label[i])) }
        guard let found = Charset.byLabel(String(decoding: name, as: UTF8.self)) else { return nil }
        self = found
    }

    /// The encoding a label names (see ``init(label:)-(UnsafeBufferPointer<UInt8>)``).
    package init?(label: String) {
        var label = label
        guard let found = label.withUTF8({ Charset(label: $0) }) else { return nil }
        self = found
    }

    /// The standard's name for the encoding.
    package var name: String {
        switch self {
        case .utf8: "UTF-8"
        case .utf16LE: "UTF-16LE"
        case .utf16BE: "UTF-16BE"
        case .windows1252: "windows-1252"
        case .iso8859_15: "ISO-8859-15"
        }
    }

    static func isLabelSpace(_ b: UInt8) -> Bool {
        b == ASCII.space || b == ASCII.tab || b == ASCII.lineFeed || b == ASCII.carriageReturn || b == 0x0C
    }

    static func byLabel(_ label: String) -> Charset? {
        switch label {
        case "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8": .utf8
        case "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le": .utf16LE
        case "unicodefffe", "utf-16be": .utf16BE
        case "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
             "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii",
             "windows-1252", "x-cp1252":
            .windows1252
        case "csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9", "latin9", "latin-9":
            .iso8859_15
        default: nil
        }
    }

    /// Decodes `bytes`, calling `scalar` with each Unicode scalar value in
    /// order. A byte sequence the encoding does not define gives U+FFFD, as
    /// the standard's decoders do in replacement mode; nothing is skipped.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        switch self {
        case .utf8:
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): scalar(s.value)
                case .error: scalar(0xFFFD)
                case .emptyInput: return
                }
            }
        case .utf16LE, .utf16BE:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 0
            while i + 1 < bytes.count {
                let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
                units.append(self == .utf16LE ? a | b << 8 : a << 8 | b)
                i += 2
            }
            var iterator = units.makeIterator()
            var decoder = UTF16()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): scalar(s.value)
                case .error: scalar(0xFFFD)
                case .emptyInput: break loop
                }
            }
            if bytes.count % 2 == 1 { scalar(0xFFFD) }  // an odd byte at the end
        case .windows1252:
            for b in bytes {
                if b >= 0x80 && b < 0xA0 {
                    scalar(Charset.windows1252High[Int(b - 0x80)])
                } else {
                    scalar(UInt32(b))
                }
            }
        case .iso8859_15:
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

    /// Decodes `bytes` to UTF-8 (see ``decode(_:_:)``).
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package func decodeToUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        decode(bytes) { appendUTF8Scalar($0, into: &out) }
        return out
    }

    /// Windows-1252's 0x80–0x9F. The five bytes the code page leaves
    /// undefined decode to the C1 control of the same value, as the
    /// standard's index says.
    static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

/// Appends a code point as UTF-8 (surrogates and out-of-range values
/// become U+FFFD).
package func appendUTF8Scalar(_ value: UInt32, into out: inout [UInt8]) {
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
