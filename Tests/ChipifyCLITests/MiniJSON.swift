/// A small JSON reader for the objects `chipify --format jsonl` writes:
/// strings, numbers, null, booleans, arrays and objects. Strings decode
/// to bytes, so `\udcXX` escapes of invalid UTF-8 come back as the
/// original byte (PEP 383's convention).
enum JSONValue: Equatable {
    case string([UInt8])
    case number(Int)
    case null
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    var bytes: [UInt8]? { if case .string(let b) = self { b } else { nil } }
    var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
    var int: Int? { if case .number(let n) = self { n } else { nil } }
}

struct MiniJSON {
    let s: [UInt8]
    var i = 0

    static func object(_ line: [UInt8]) -> [String: JSONValue]? {
        var p = MiniJSON(s: line)
        guard let o = p.parseObject(), p.i == line.count else { return nil }
        return o
    }

    mutating func parseObject() -> [String: JSONValue]? {
        guard eat(UInt8(ascii: "{")) else { return nil }
        var out: [String: JSONValue] = [:]
        if eat(UInt8(ascii: "}")) { return out }
        while true {
            guard case .string(let key)? = parseValue(), eat(UInt8(ascii: ":")),
                  let value = parseValue() else { return nil }
            let name = String(decoding: key, as: UTF8.self)
            guard out[name] == nil else { return nil }  // no duplicate keys
            out[name] = value
            if eat(UInt8(ascii: "}")) { return out }
            guard eat(UInt8(ascii: ",")) else { return nil }
        }
    }

    mutating func eat(_ b: UInt8) -> Bool {
        if i < s.count && s[i] == b { i += 1; return true }
        return false
    }

    mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= s.count, Array(s[i..<i + w.count]) == w else { return false }
        i += w.count
        return true
    }

    mutating func parseValue() -> JSONValue? {
        guard i < s.count else { return nil }
        switch s[i] {
        case UInt8(ascii: "\""): return parseString()
        case UInt8(ascii: "{"): return parseObject().map { .object($0) }
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            if eat(UInt8(ascii: "]")) { return .array(items) }
            while true {
                guard let v = parseValue() else { return nil }
                items.append(v)
                if eat(UInt8(ascii: "]")) { return .array(items) }
                guard eat(UInt8(ascii: ",")) else { return nil }
            }
        default:
            var n = 0
            var digits = 0
            while i < s.count, s[i] >= 0x30, s[i] <= 0x39 {
                n = n * 10 + Int(s[i] - 0x30)
                i += 1
                digits += 1
            }
            return digits > 0 ? .number(n) : nil
        }
    }

    mutating func parseString() -> JSONValue? {
        i += 1
        var out: [UInt8] = []
        while i < s.count {
            let b = s[i]
            if b == UInt8(ascii: "\"") { i += 1; return .string(out) }
            if b < 0x20 { return nil }  // raw control characters are not JSON
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            guard i + 1 < s.count else { return nil }
            let e = s[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard i + 4 <= s.count, let v = UInt32(String(decoding: s[i..<i + 4], as: UTF8.self), radix: 16)
                else { return nil }
                i += 4
                if v >= 0xDC80 && v <= 0xDCFF {
                    out.append(UInt8(v - 0xDC00))
                } else if let scalar = Unicode.Scalar(v) {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                } else {
                    return nil
                }
            default: return nil
            }
        }
        return nil
    }
}
