import ChipSyntax
import ChipTestSupport
import Testing

/// Byte offsets in a host's units: the rule is "as `String(decoding:)`
/// shows the bytes", held to the standard library on tables and on seeded
/// random bytes of every shape (well-formed, truncated, overlong,
/// surrogates, stray continuation bytes, bytes that never occur).
@Suite struct TextOffsetsTests {
    /// (bytes, byte offset, UTF-16 offset, scalar offset); nil: no boundary.
    static let table: [(String, [UInt8], Int, Int?, Int?)] = [
        ("ASCII", Array("a@x.org".utf8), 3, 3, 3),
        ("after a two-byte scalar", Array("Zoë <z@x>".utf8), 4, 3, 3),
        ("inside a two-byte scalar", Array("Zoë".utf8), 3, nil, nil),
        ("after an emoji", Array("😀a".utf8), 4, 2, 1),
        ("inside an emoji", Array("😀a".utf8), 2, nil, nil),
        ("end", Array("Zoë 😀".utf8), 9, 6, 5),
        ("past the end", Array("ab".utf8), 3, nil, nil),
        ("negative", Array("ab".utf8), -1, nil, nil),
        ("a combining mark is its own scalar", Array("e\u{301}x".utf8), 3, 2, 2),
        // E2 82 is a truncated three-byte sequence: one U+FFFD.
        ("after a truncated sequence", [0x61, 0xE2, 0x82, 0x61], 3, 2, 2),
        ("inside a truncated sequence", [0x61, 0xE2, 0x82, 0x61], 2, nil, nil),
        // ED A0 80 (a surrogate) is three pieces: ED, A0, 80.
        ("inside an encoded surrogate", [0xED, 0xA0, 0x80, 0x61], 2, 2, 2),
        // C0 80 (overlong NUL) is two pieces.
        ("inside an overlong", [0xC0, 0x80], 1, 1, 1),
        ("a stray continuation byte", [0x80, 0x80, 0x80, 0x80, 0x80], 4, 4, 4),
        ("F0 90 80 then a stray", [0xF0, 0x90, 0x80, 0x80, 0x80], 4, 2, 1),
        ("a byte that never occurs", [0xFF, 0x61], 1, 1, 1),
    ]

    @Test func table() {
        for (label, bytes, byte, utf16, scalars) in Self.table {
            #expect(TextOffsets.offset(ofByte: byte, in: bytes, unit: .utf16) == utf16, "\(label)")
            #expect(TextOffsets.offset(ofByte: byte, in: bytes, unit: .unicodeScalars) == scalars, "\(label)")
            #expect((TextOffsets.offset(ofByte: byte, in: bytes, unit: .utf8) != nil) == (utf16 != nil), "\(label)")
            #expect(TextOffsets.isBoundary(byte, in: bytes) == (utf16 != nil), "\(label)")
            if let utf16 {
                #expect(TextOffsets.byteOffset(of: utf16, in: .utf16, in: bytes) == byte, "\(label)")
            }
        }
        // The second half of a surrogate pair is no position.
        #expect(TextOffsets.byteOffset(of: 1, in: .utf16, in: Array("😀".utf8)) == nil)
        #expect(TextOffsets.byteRange(of: 1..<3, in: .utf16, in: Array("a😀b".utf8)) == 1..<5)
        #expect(TextOffsets.range(ofBytes: 1..<5, in: Array("a😀b".utf8), unit: .utf16) == 1..<3)
    }

    /// Bytes drawn from every shape UTF-8 text and non-text can take.
    static func randomBytes(_ random: inout SplitMix64) -> [UInt8] {
        let shapes: [[UInt8]] = [
            Array("a".utf8), Array(" ".utf8), Array("é".utf8), Array("中".utf8), Array("😀".utf8),
            Array("e\u{301}".utf8), Array("\u{10FFFF}".utf8), Array("\u{FFFD}".utf8),
            [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF0, 0x9F], [0xC3], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80], [0xFF], [0xFE], [0x80], [0xBF, 0xBF],
        ]
        var out: [UInt8] = []
        for _ in 0..<random.between(0...24) {
            if random.chance(perMille: 150) {
                out.append(UInt8(random.below(256)))
            } else {
                out += random.pick(shapes)
            }
        }
        return out
    }

    /// The pieces the cursor walks are those the standard library decodes:
    /// each is one scalar decoded alone, and together they decode as the
    /// whole; every offset the walk does not stop at is refused.
    @Test func agreesWithTheStandardLibrary() {
        var random = SplitMix64(seed: 0x7E87)
        for _ in 0..<600 {
            let bytes = Self.randomBytes(&random)
            let whole = String(decoding: bytes, as: UTF8.self)
            var boundaries: [Int] = [0]
            var scalars: [Unicode.Scalar] = []
            var cursor = TextOffsets.Cursor(bytes)
            var at = 0
            while at < bytes.count {
                let p = TextOffsets.piece(bytes, at: at)
                let alone = String(decoding: bytes[at..<(at + p.bytes)], as: UTF8.self)
                #expect(alone.unicodeScalars.count == 1, "\(bytes) at \(at)")
                #expect(alone.utf16.count == p.utf16, "\(bytes) at \(at)")
                scalars += alone.unicodeScalars
                at += p.bytes
                boundaries.append(at)
            }
            #expect(scalars == Array(whole.unicodeScalars), "\(bytes)")
            for k in 0...bytes.count {
                let isBoundary = boundaries.contains(k)
                #expect(TextOffsets.isBoundary(k, in: bytes) == isBoundary, "\(bytes) at \(k)")
                let utf16 = cursor.offset(ofByte: k, unit: .utf16)
                #expect((utf16 != nil) == isBoundary, "\(bytes) at \(k)")
                if let utf16, let n = boundaries.firstIndex(of: k) {
                    let prefix = String(decoding: bytes[..<k], as: UTF8.self)
                    #expect(utf16 == prefix.utf16.count, "\(bytes) at \(k)")
                    #expect(TextOffsets.offset(ofByte: k, in: bytes, unit: .unicodeScalars) == n)
                    #expect(TextOffsets.byteOffset(of: utf16, in: .utf16, in: bytes) == k)
                    #expect(TextOffsets.byteOffset(of: n, in: .unicodeScalars, in: bytes) == k)
                }
            }
            #expect(TextOffsets.offset(ofByte: bytes.count, in: bytes, unit: .utf16) == whole.utf16.count)
        }
    }

    /// On strings, byte offsets and indices agree with the standard
    /// library's views, and an index inside a scalar is refused.
    @Test func stringIndices() {
        var random = SplitMix64(seed: 0x57D1)
        for _ in 0..<500 {
            let s = String(decoding: Self.randomBytes(&random), as: UTF8.self)
            let utf8 = Array(s.utf8)
            for i in s.unicodeScalars.indices + [s.endIndex] {
                let byte = s.utf8.distance(from: s.startIndex, to: i)
                #expect(TextOffsets.byteOffset(of: i, in: s) == byte)
                #expect(TextOffsets.index(ofByte: byte, in: s) == i)
                #expect(TextOffsets.offset(ofByte: byte, in: utf8, unit: .utf16) == i.utf16Offset(in: s))
            }
            for k in 0...utf8.count where !TextOffsets.isBoundary(k, in: utf8) {
                #expect(TextOffsets.index(ofByte: k, in: s) == nil)
            }
            for i in s.utf16.indices where i.samePosition(in: s.unicodeScalars) == nil {
                #expect(TextOffsets.byteOffset(of: i, in: s) == nil)
            }
        }
        let s = "Zoë 😀 <z@x.org>"
        let r = TextOffsets.range(ofBytes: 9..<10, in: s)!
        #expect(s[r] == " ")
        #expect(TextOffsets.byteRange(of: r, in: s) == 9..<10)
    }

    /// Walking forward costs the distance walked; going back starts again
    /// and still answers right.
    @Test func cursorGoesBothWays() {
        let bytes = Array("aé😀中b".utf8)
        var cursor = TextOffsets.Cursor(bytes)
        #expect(cursor.offset(ofByte: 10, unit: .utf16) == 5)
        #expect(cursor.offset(ofByte: 3, unit: .utf16) == 2)
        #expect(cursor.byteOffset(of: 5, in: .utf16) == 10)
        #expect(cursor.byteOffset(of: 1, in: .unicodeScalars) == 1)
        #expect(cursor.offset(ofByteRoundingDown: 5, unit: .utf16) == 2)
        #expect(cursor.offset(ofByteRoundingDown: 99, unit: .unicodeScalars) == 5)
    }
}
