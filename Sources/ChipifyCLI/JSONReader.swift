import ChipSyntax

/// How a JSON reader keeps a string: as `String` (script lines, drafts:
/// text, which must be UTF-8) or as its bytes (what `chipify --format
/// jsonl` wrote, where `\udcXX` stands for an invalid byte).
protocol JSONText: Equatable, Sendable {
    /// Whether a lone `\udc80`…`\udcff` is the byte 0x80…0xFF (PEP 383's
    /// surrogate escape, as the record writer escapes invalid UTF-8).
    static var readsSurrogateEscapes: Bool { get }
    /// The text of these bytes, or nil when they cannot be this text.
    init?(jsonBytes: [UInt8])
}

extension String: JSONText {
    static var readsSurrogateEscapes: Bool { false }
    /// RFC 8259 §8.1: JSON text is UTF-8; a script's text is typed as it
    /// is, so it must be text, never repaired.
    init?(jsonBytes: [UInt8]) { self.init(validating: jsonBytes, as: UTF8.self) }
}

extension Array: JSONText where Element == UInt8 {
    static var readsSurrogateEscapes: Bool { true }
    init?(jsonBytes: [UInt8]) { self = jsonBytes }
}

/// The one JSON reader of the package (the writer is ChipOutput's `JSON`):
/// string, number, boolean and null values; with `nested`, also arrays
/// and objects (for `chipify group`'s config line, drafts and the tests'
/// reading of JSON Lines), at most ``maxDepth`` deep so no line can
/// exhaust the stack. Kept here so the CLI needs no Foundation, whose
/// loading alone would double the filter's resident memory.
struct JSONParser<Text: JSONText> {
    enum Value: Equatable {
        case string(Text)
        case number(Double)
        case bool(Bool)
        case null
        /// Only in a `nested` read.
        case array([Value])
        case object([String: Value])
    }

    /// How deep arrays and objects may nest in a `nested` read.
    static var maxDepth: Int { 16 }

    struct Failure: Error {
        var message: String
    }

    let s: [UInt8]
    var i = 0
    var nested = false
    var depth = 0

    /// Parses one object; keys must not repeat. Values are flat unless
    /// `nested`.
    static func object(_ bytes: [UInt8], nested: Bool = false) throws(Failure) -> [String: Value] {
        var r = JSONParser(s: bytes, nested: nested)
        r.skipSpace()
        let o = try r.parseObject()
        r.skipSpace()
        guard r.i == bytes.count else { throw Failure(message: "text after the object") }
        return o
    }

    mutating func skipSpace() {
        while i < s.count, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D { i += 1 }
    }

    mutating func expect(_ b: UInt8) throws(Failure) {
        skipSpace()
        guard i < s.count, s[i] == b else { throw Failure(message: "expected '\(Character(Unicode.Scalar(b)))'") }
        i += 1
    }

    mutating func parseObject() throws(Failure) -> [String: Value] {
        try expect(UInt8(ascii: "{"))
        var out: [String: Value] = [:]
        skipSpace()
        if i < s.count, s[i] == UInt8(ascii: "}") {
            i += 1
            return out
        }
        while true {
            skipSpace()
            guard let key = String(validating: try parseBytes(), as: UTF8.self) else {
                throw Failure(message: "a key that is not UTF-8")
            }
            try expect(UInt8(ascii: ":"))
            skipSpace()
            guard out[key] == nil else { throw Failure(message: "key \"\(key)\" repeats") }
            out[key] = try parseValue()
            skipSpace()
            guard i < s.count else { throw Failure(message: "unterminated object") }
            if s[i] == UInt8(ascii: "}") {
                i += 1
                return out
            }
            try expect(UInt8(ascii: ","))
        }
    }

    mutating func parseArray() throws(Failure) -> [Value] {
        try expect(UInt8(ascii: "["))
        var out: [Value] = []
        skipSpace()
        if i < s.count, s[i] == UInt8(ascii: "]") {
            i += 1
            return out
        }
        while true {
            skipSpace()
            out.append(try parseValue())
            skipSpace()
            guard i < s.count else { throw Failure(message: "unterminated array") }
            if s[i] == UInt8(ascii: "]") {
                i += 1
                return out
            }
            try expect(UInt8(ascii: ","))
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let w = word.withUTF8Buffer { Array($0) }
        guard i + w.count <= s.count, Array(s[i..<i + w.count]) == w else { return false }
        i += w.count
        return true
    }

    mutating func parseValue() throws(Failure) -> Value {
        guard i < s.count else { throw Failure(message: "missing value") }
        switch s[i] {
        case UInt8(ascii: "\""):
            guard let text = Text(jsonBytes: try parseBytes()) else { throw Failure(message: "a string that is not UTF-8") }
            return .string(text)
        case UInt8(ascii: "t"): if literal("true") { return .bool(true) }
        case UInt8(ascii: "f"): if literal("false") { return .bool(false) }
        case UInt8(ascii: "n"): if literal("null") { return .null }
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard nested else { break }
            guard depth < Self.maxDepth else { throw Failure(message: "nested deeper than \(Self.maxDepth)") }
            depth += 1
            defer { depth -= 1 }
            if s[i] == UInt8(ascii: "{") { return .object(try parseObject()) }
            return .array(try parseArray())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = i
            i += 1
            while i < s.count, "0123456789.eE+-".utf8.contains(s[i]) { i += 1 }
            if let d = Double(String(decoding: s[start..<i], as: UTF8.self)) { return .number(d) }
        default:
            break
        }
        throw Failure(message: "unsupported value")
    }

    /// A string's bytes, its escapes read (a lone `\udc80`…`\udcff` as
    /// the byte it stands for when ``JSONText/readsSurrogateEscapes``).
    mutating func parseBytes() throws(Failure) -> [UInt8] {
        guard i < s.count, s[i] == UInt8(ascii: "\"") else { throw Failure(message: "expected a string") }
        i += 1
        var out: [UInt8] = []
        var pendingHigh: UInt32?
        while i < s.count {
            let b = s[i]
            if pendingHigh != nil && !(b == UInt8(ascii: "\\") && i + 1 < s.count && s[i + 1] == UInt8(ascii: "u")) {
                throw Failure(message: "a lone surrogate \\u\(String(pendingHigh!, radix: 16)) (JSON text is Unicode)")
            }
            if b == UInt8(ascii: "\"") {
                i += 1
                return out
            }
            guard b >= 0x20 else { throw Failure(message: "control character in a string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < s.count else { break }
            let e = s[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard i + 4 <= s.count, let v = UInt32(String(decoding: s[i..<i + 4], as: UTF8.self), radix: 16) else {
                    throw Failure(message: "bad \\u escape")
                }
                i += 4
                if v >= 0xD800 && v < 0xDC00 {
                    guard pendingHigh == nil else {
                        throw Failure(message: "a lone surrogate \\u\(String(pendingHigh!, radix: 16)) (JSON text is Unicode)")
                    }
                    pendingHigh = v
                    continue
                }
                if v >= 0xDC80 && v < 0xDD00 && pendingHigh == nil && Text.readsSurrogateEscapes {
                    out.append(UInt8(v - 0xDC00))
                    continue
                }
                if v >= 0xDC00 && v < 0xE000 {
                    guard let high = pendingHigh else {
                        throw Failure(message: "a lone surrogate \\u\(String(v, radix: 16)) (JSON text is Unicode)")
                    }
                    appendUTF8Scalar(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00), into: &out)
                    pendingHigh = nil
                    continue
                }
                guard pendingHigh == nil else {
                    throw Failure(message: "a lone surrogate \\u\(String(pendingHigh!, radix: 16)) (JSON text is Unicode)")
                }
                appendUTF8Scalar(v, into: &out)
            default:
                throw Failure(message: "bad escape")
            }
            pendingHigh = nil
        }
        throw Failure(message: "unterminated string")
    }

}

/// The reader of script lines and drafts, whose strings are text.
typealias JSONReader = JSONParser<String>

/// A script line (`chipify replay`, `chipify group`) that could not be
/// replayed, in a sentence.
struct ScriptLineError: Error {
    var message: String
}

extension Dictionary where Key == String, Value == JSONReader.Value {
    /// The string at `key`; nil when absent or null; an error for another type.
    func string(_ key: String) throws(ScriptLineError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw ScriptLineError(message: "\"\(key)\" has the wrong type")
        }
    }

    /// The largest whole number a script may give (each op checks its own
    /// range after).
    static var maxWhole: Double { 1_000_000_000 }

    /// The whole number at `key`; nil when absent or null; an error for
    /// another type, a fraction, or a number past ``maxWhole``.
    func int(_ key: String) throws(ScriptLineError) -> Int? {
        switch self[key] {
        case nil, .null?: return nil
        case .number(let d)? where d == d.rounded(.towardZero) && abs(d) <= Self.maxWhole: return Int(d)
        case .number?: throw ScriptLineError(message: "\"\(key)\" must be a whole number from -\(Int(Self.maxWhole)) to \(Int(Self.maxWhole))")
        default: throw ScriptLineError(message: "\"\(key)\" has the wrong type")
        }
    }

    /// The boolean at `key`; nil when absent or null; an error for another type.
    func bool(_ key: String) throws(ScriptLineError) -> Bool? {
        switch self[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw ScriptLineError(message: "\"\(key)\" has the wrong type")
        }
    }
}
