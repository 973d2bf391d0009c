@testable import ChipifyCLI

/// What the tests read JSON Lines with: the package's one reader
/// (``JSONParser``), keeping strings as bytes, so `\udcXX` escapes of
/// invalid UTF-8 come back as the original byte (PEP 383's convention).
typealias JSONValue = JSONParser<[UInt8]>.Value

extension JSONParser.Value where Text == [UInt8] {
    var bytes: [UInt8]? { if case .string(let b) = self { b } else { nil } }
    var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
    var int: Int? { if case .number(let d) = self { Int(exactly: d) } else { nil } }
}

enum MiniJSON {
    /// One object, nested values included, or nil when the line is not one.
    static func object(_ line: [UInt8]) -> [String: JSONValue]? {
        try? JSONParser<[UInt8]>.object(line, nested: true)
    }
}

import Testing

/// Scripts, drafts and the tests read JSON with the same parser; only
/// where strings are bytes does a lone `\udcXX` stand for a byte.
@Suite("One JSON reader")
struct OneJSONReaderTests {
    @Test func surrogateEscapesAreBytesOnlyWhereStringsAreBytes() throws {
        let line = Array(#"{"raw":"a\udcff\udc80b","n":2}"#.utf8)
        #expect(MiniJSON.object(line)?["raw"]?.bytes == [0x61, 0xFF, 0x80, 0x62])
        #expect(MiniJSON.object(line)?["n"]?.int == 2)
        #expect(throws: JSONReader.Failure.self) { try JSONReader.object(line) }
        // A pair is one scalar in both; a lone high surrogate is refused in both.
        let pair = Array(#"{"s":"\ud83d\ude00"}"#.utf8)
        #expect(try JSONReader.object(pair)["s"] == .string("😀"))
        #expect(MiniJSON.object(pair)?["s"]?.text == "😀")
        #expect(MiniJSON.object(Array(#"{"s":"\ud83d"}"#.utf8)) == nil)
        // Below U+DC80 a low surrogate is no byte: refused.
        #expect(MiniJSON.object(Array(#"{"s":"\udc7f"}"#.utf8)) == nil)
    }
}
