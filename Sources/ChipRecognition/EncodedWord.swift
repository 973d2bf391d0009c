import ChipSyntax

/// RFC 2047 encoded words, `=?charset?encoding?text?=`, as they appear in
/// display names and comments.
enum EncodedWord {
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

    /// The charset a label names (WHATWG labels; an RFC 2231 language
    /// suffix such as `*en` is ignored).
    ///
    /// The labels the standard maps to its replacement encoding
    /// (`iso-2022-kr`, `hz-gb-2312`, …) count as unknown: decoding would
    /// give one U+FFFD, and sending would then replace the sender's text
    /// with it, whereas a word left as written still reaches a reader whose
    /// client knows the charset.
    static func charset(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Charset? {
        guard let charset = Charset(label: UnsafeBufferPointer(rebasing: p[range])),
              charset != .replacement else { return nil }
        return charset
    }

    static func base64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        return Base64.decode(text) { out.append($0) } ? out : nil
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
                guard i + 2 < text.count, let hi = Base64.hexValue(text[i + 1]), let lo = Base64.hexValue(text[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 2
            } else {
                out.append(c)
            }
            i += 1
        }
        return out
    }


    /// Appends `bytes` in `charset` as UTF-8; what cannot be converted
    /// becomes U+FFFD. Every control character (C0, DEL, C1) and line or
    /// paragraph separator becomes a space, and runs of white space fold to
    /// one, so a decoded name can never smuggle a line break, and the words
    /// around a control stay apart (`x=0D=0Ay` is `x y`).
    static func appendUTF8(_ bytes: [UInt8], charset: Charset, into out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            charset.decode(buffer) { v in
                if v <= 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029 {
                    if out.last != ASCII.space { out.append(ASCII.space) }
                } else {
                    appendUTF8Scalar(v, into: &out)
                }
            }
        }
    }
}
