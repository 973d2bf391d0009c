import Testing
@testable import ChipOutput
import ChipTestSupport

/// Text and TSV output, and the filter's reports on standard error, are read
/// in terminals: no byte that a terminal acts on passes unescaped. C0
/// controls and DEL are escaped, and so are the C1 controls (a terminal may
/// read U+009B as CSI) and the line and paragraph separators, each byte as
/// `\xhh` so a reader gets the bytes back.
@Suite("Escaping for terminals")
struct TerminalSafeEscapingTests {
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ByteBuffer(capacity: 8)
        Escaper.appendEscaped(bytes, to: out.uniqueStorage)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("a\u{85}b", "a\\xc2\\x85b"), ("a\u{9B}31m", "a\\xc2\\x9b31m"), ("x\u{2028}y", "x\\xe2\\x80\\xa8y"),
        ("x\u{2029}y", "x\\xe2\\x80\\xa9y"), ("\u{1B}[2J", "\\x1b[2J"), ("é\u{A0}ü", "é\u{A0}ü"),
        ("\u{2027}\u{202A}", "\u{2027}\u{202A}"),
    ])
    func controlsAndSeparatorsAreEscaped(_ input: String, _ expected: String) {
        #expect(Self.escaped(Array(input.utf8)) == expected)
    }

    /// Seeded: whatever the scalars, the escaped text holds no C0, DEL, C1,
    /// U+2028 or U+2029, and other scalars pass unchanged.
    @Test func noTerminalControlSurvives() {
        var rng = SplitMix64(seed: 32)
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0xFF, 0x2000...0x206F, 0x300...0x3FF]
        for _ in 0..<2_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 12) {
                let r = ranges[Int(rng.next() % UInt64(ranges.count))]
                let v = r.lowerBound + UInt32(rng.next() % UInt64(r.count))
                if let u = Unicode.Scalar(v) { s.unicodeScalars.append(u) }
            }
            let out = Self.escaped(Array(s.utf8))
            let bad = out.unicodeScalars.first {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
            }
            #expect(bad == nil, "seed 32: \(s.debugDescription) → \(out.debugDescription)")
        }
    }
}

/// Characters that show nothing or turn text around (bidi controls,
/// zero-width and other hidden characters) are escaped where a person
/// reads the output: `\u{xxxx}` in text, `\uxxxx` in JSON (the same
/// string to a JSON reader), so a line never renders reversed.
@Suite("Escaping invisible characters")
struct InvisibleEscapingTests {
    /// Every character of the invisible classes (Unicode TR #36 §2, as
    /// recognition reports them), and neighbours that stay as they are.
    static let invisible: [UInt32] = [0x061C, 0x200E, 0x200F, 0x00AD, 0x180E, 0xFEFF]
        + Array(0x202A...0x202E) + Array(0x2066...0x2069) + Array(0x200B...0x200D) + Array(0x2060...0x2064)
    static let visible: [UInt32] = [0x00A0, 0x00AC, 0x00AE, 0x0600, 0x061B, 0x180D, 0x2010, 0x2027, 0x2065, 0x202F, 0x2070, 0xFEFE, 0xFF01]

    static func text(_ bytes: [UInt8]) -> String {
        var out = ByteBuffer(capacity: 8)
        Escaper.appendEscaped(bytes, forPeople: true, to: out.uniqueStorage)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    static func json(_ bytes: [UInt8]) -> String {
        var out = ByteBuffer(capacity: 8)
        JSON.appendString(bytes, to: out.uniqueStorage)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    static func hex(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    @Test func eachInvisibleIsEscapedAndNoOtherCharacter() {
        for v in Self.invisible {
            let s = "a" + String(Unicode.Scalar(v)!) + "b"
            #expect(Self.text(Array(s.utf8)) == "a\\u{\(Self.hex(v))}b", "U+\(Self.hex(v))")
            #expect(Self.json(Array(s.utf8)) == "\"a\\u\(Self.hex(v))b\"", "U+\(Self.hex(v))")
            #expect(!JSON.isPlain(wellFormedUTF8: Array(s.utf8).withUnsafeBufferPointer { $0 }), "U+\(Self.hex(v))")
        }
        for v in Self.visible {
            let s = "a" + String(Unicode.Scalar(v)!) + "b"
            #expect(Self.text(Array(s.utf8)) == s, "U+\(Self.hex(v))")
            #expect(Self.json(Array(s.utf8)) == "\"" + s + "\"", "U+\(Self.hex(v))")
        }
        // Not for people (TSV, data for programs) they pass as they are.
        var out = ByteBuffer(capacity: 8)
        Escaper.appendEscaped(Array("a\u{202E}b".utf8), to: out.uniqueStorage)
        #expect(out.bytes == Array("a\u{202E}b".utf8))
    }

    /// For people, a backslash is doubled only where it could start an
    /// escape (anywhere but before printable ASCII other than t, n, r, x, u
    /// and a backslash); for programs (TSV), always.
    @Test(arguments: [
        ("B\\B", "B\\B", "B\\\\B"), ("a\\tb", "a\\\\tb", "a\\\\tb"), ("C:\\Users", "C:\\Users", "C:\\\\Users"),
        ("x\\", "x\\\\", "x\\\\"), ("\\\\", "\\\\\\\\", "\\\\\\\\"), ("\\u{41}", "\\\\u{41}", "\\\\u{41}"),
        ("a\\\"b", "a\\\"b", "a\\\\\"b"), ("\\\u{202E}", "\\\\\\u{202e}", "\\\\\u{202E}"), ("\\é", "\\\\é", "\\\\é"),
    ])
    func backslashesAreDoubledOnlyWhereTheyWouldReadAsEscapes(_ input: String, _ people: String, _ programs: String) {
        #expect(Self.text(Array(input.utf8)) == people, "\(input)")
        var out = ByteBuffer(capacity: 8)
        Escaper.appendEscaped(Array(input.utf8), to: out.uniqueStorage)
        #expect(String(decoding: out.bytes, as: UTF8.self) == programs, "\(input)")
        #expect(Self.unescapeText(people) == Array(input.utf8))
    }

    /// The escapes of the text format read back to the bytes, and hold no
    /// character a terminal acts on or hides.
    static func unescapeText(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        let b = Array(s.utf8)
        var i = 0
        func hexValue(_ bytes: ArraySlice<UInt8>) -> UInt32 { UInt32(String(decoding: bytes, as: UTF8.self), radix: 16)! }
        while i < b.count {
            guard b[i] == UInt8(ascii: "\\"), i + 1 < b.count else { out.append(b[i]); i += 1; continue }
            switch b[i + 1] {
            case UInt8(ascii: "t"): out.append(9); i += 2
            case UInt8(ascii: "n"): out.append(10); i += 2
            case UInt8(ascii: "r"): out.append(13); i += 2
            case UInt8(ascii: "\\"): out.append(0x5C); i += 2
            case UInt8(ascii: "x"): out.append(UInt8(hexValue(b[(i + 2)..<(i + 4)]))); i += 4
            case UInt8(ascii: "u"):
                let close = b[(i + 3)...].firstIndex(of: UInt8(ascii: "}"))!
                out += Array(String(Unicode.Scalar(hexValue(b[(i + 3)..<close]))!).utf8)
                i = close + 1
            default: out.append(0x5C); i += 1  // not an escape: the backslash as it stands
            }
        }
        return out
    }

    /// Seeded: any bytes (invalid UTF-8, controls, invisible and visible
    /// neighbours) come back from the text escapes, and from JSON, whole;
    /// JSON's fast test says "plain" only when the escaper copies as is.
    @Test(arguments: 0..<20)
    func escapesReadBackAndPlainMeansCopied(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x1EE7)
        let pool = (Self.invisible + Self.visible + [0x41, 0x22, 0x5C, 0x5C, 0x74, 0x78, 0x75, 0x7B, 0x09, 0x0A, 0x85, 0x9B, 0x2028, 0xE9, 0x1F600])
            .map { Array(String(Unicode.Scalar($0)!).utf8) } + [[0xFF], [0xE2, 0x80], [0xC2], [0x7F], [0x00]]
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.below(24) { bytes += rng.pick(pool) }
            let text = Self.text(bytes)
            #expect(Self.unescapeText(text) == bytes, "seed \(seed): \(bytes)")
            let shown = text.unicodeScalars.first { v in Self.invisible.contains(v.value) || (0x80...0x9F).contains(v.value) }
            #expect(shown == nil, "seed \(seed): \(text.debugDescription)")
            guard let s = String(validating: bytes, as: UTF8.self) else { continue }
            let json = Self.json(bytes)
            let back = try JSONStringReader.decode(json)
            #expect(back == s, "seed \(seed): \(json)")
            let plain = bytes.withUnsafeBufferPointer { JSON.isPlain(wellFormedUTF8: $0) }
            if plain { #expect(json == "\"" + s + "\"", "seed \(seed): plain but escaped: \(json)") }
            #expect(!json.unicodeScalars.contains { Self.invisible.contains($0.value) || (0x80...0x9F).contains($0.value) })
        }
    }
}

/// A JSON string literal's value, for the tests (escapes of RFC 8259 §7,
/// surrogate pairs included).
enum JSONStringReader {
    struct Bad: Error {}

    static func decode(_ literal: String) throws -> String {
        let b = Array(literal.utf8)
        guard b.count >= 2, b.first == 0x22, b.last == 0x22 else { throw Bad() }
        var out = ""
        var i = 1
        var pendingHigh: UInt32?
        while i < b.count - 1 {
            if b[i] != 0x5C {
                let n = b[i] < 0x80 ? 1 : b[i] >= 0xF0 ? 4 : b[i] >= 0xE0 ? 3 : 2
                out += String(decoding: b[i..<(i + n)], as: UTF8.self)
                i += n
                continue
            }
            let e = b[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out += "\n"
            case UInt8(ascii: "t"): out += "\t"
            case UInt8(ascii: "r"): out += "\r"
            case UInt8(ascii: "\""): out += "\""
            case UInt8(ascii: "\\"): out += "\\"
            case UInt8(ascii: "/"): out += "/"
            case UInt8(ascii: "u"):
                guard let v = UInt32(String(decoding: b[i..<(i + 4)], as: UTF8.self), radix: 16) else { throw Bad() }
                i += 4
                if (0xD800...0xDBFF).contains(v) { pendingHigh = v; continue }
                if let high = pendingHigh, (0xDC00...0xDFFF).contains(v) {
                    out.unicodeScalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00))!)
                    pendingHigh = nil
                    continue
                }
                guard let scalar = Unicode.Scalar(v) else { throw Bad() }
                out.unicodeScalars.append(scalar)
            default: throw Bad()
            }
        }
        return out
    }
}
