import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

@Suite("Hostile input")
struct HostileInputTests {
    static let million = 1_000_000

    static func bigPolicy() -> ValidationPolicy {
        var p = ValidationPolicy.standard
        p.maxChipBytes = Int.max
        return p
    }

    @Test func millionNestedCommentsAreOneErrorChip() {
        let bytes = [UInt8](repeating: UInt8(ascii: "("), count: Self.million)
        let chips = AddressList.parse(bytes)
        #expect(chips.count == 1)
        #expect(chips[0].error == .tooLong)
        #expect(chips[0].raw.count == Self.million)
        // Without the size limit the lexer still walks it iteratively.
        let deep = AddressList.parse(bytes + Array("a@x.org".utf8), policy: Self.bigPolicy())
        #expect(deep.count == 1)
        #expect(deep[0].error == .unbalancedComment)
    }

    @Test func balancedDeepNestingIsAComment() {
        let n = 200_000
        let text = [UInt8](repeating: UInt8(ascii: "("), count: n) + [UInt8](repeating: UInt8(ascii: ")"), count: n)
        let chips = AddressList.parse(Array("a@x.org ".utf8) + text + Array(", b@y.org".utf8),
                                      policy: Self.bigPolicy())
        #expect(chips.map(\.address) == ["a@x.org", "b@y.org"])
        #expect(chips[0].isValid)
    }

    @Test func millionQuotesAndAnglesEndAsChips() {
        for byte in [UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: ">"), UInt8(ascii: ")")] {
            let bytes = [UInt8](repeating: byte, count: Self.million)
            let chips = AddressList.parse(bytes, policy: Self.bigPolicy())
            #expect(!chips.isEmpty)
            #expect(chips.allSatisfy { !$0.isValid })
            #expect(chips.reduce(0) { $0 + $1.raw.count } == Self.million)
        }
    }

    @Test func controlBytesAndInvalidUTF8AreErrors() {
        let cases: [([UInt8], ChipError)] = [
            (Array("a\u{0}b@x.org".utf8), .invalidCharacter),
            (Array("a\u{7}b@x.org".utf8), .invalidCharacter),
            (Array("\"a\u{1B}\"@x.org".utf8), .invalidCharacter),
            (Array("Ann\u{7F} <a@x.org>".utf8), .invalidCharacter),
            ([0x61, 0xFF, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67], .invalidUTF8),
            ([0x61, 0xC3, 0x28, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67], .invalidUTF8),
            ([0x61, 0xED, 0xA0, 0x80, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67], .invalidUTF8),  // surrogate
            ([0x61, 0xC0, 0xAF, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67], .invalidUTF8),  // overlong
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67], .invalidUTF8),  // > U+10FFFF
        ]
        for (bytes, error) in cases {
            for policy in [ValidationPolicy.strict, .standard, .lenient] {
                let chips = AddressList.parse(bytes, policy: policy)
                #expect(chips.count == 1, "\(bytes)")
                #expect(chips.first?.error == error, "\(bytes) under \(policy.name)")
                #expect(chips.first?.raw == bytes)
            }
        }
    }

    @Test(arguments: 0..<100)
    func randomBytesNeverCrashAndAreKept(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919)
        let bytes = (0..<(1 + rng.below(300))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            let chips = AddressList.parse(bytes, policy: policy)
            for c in chips {
                #expect(Array(bytes[c.byteRange]) == c.raw, "seed \(seed)")
                if let name = c.displayName {
                    #expect(!name.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "seed \(seed): control in name")
                }
            }
        }
    }

    /// Not a timing test: the work is counted. The scanner reads each byte
    /// once (chunked scanning is tested apart); recognition is handed each
    /// chip's bytes once, so its work is at most the input's length,
    /// whatever the shape: long lists, deep nesting, unterminated quotes
    /// and comments, many empty groups.
    @Test(arguments: [
        ("list", String(repeating: "Ann Lee <ann@example.com>, \"Lee, B\" <b@x.org>; c@y.org (C) ", count: 20_000)),
        ("nesting", String(repeating: "(", count: 100_000) + "a@x.org"),
        ("open quote", "\"" + String(repeating: "a, b@x.org ", count: 10_000)),
        ("open comment", "a@x.org (" + String(repeating: "b@y.org, ", count: 10_000)),
        ("empty groups", String(repeating: "g:;", count: 30_000)),
        ("junk", String(repeating: "<<>>@@..,,;;", count: 10_000)),
    ])
    func recognitionWorkIsBoundedByTheInput(_ shape: String, _ text: String) {
        let bytes = Array(text.utf8)
        let found = segments(of: bytes)
        var list = ListRecognizer()
        var chips = 0
        bytes.withUnsafeBufferPointer { p in
            for segment in found where list.handle(segment, p, base: 0) != nil { chips += 1 }
        }
        let chipBytes = found.filter { $0.kind == .chip }.reduce(0) { $0 + $1.byteRange.count }
        #expect(chips > 0, "\(shape)")
        #expect(list.bytesRecognized <= bytes.count, "\(shape): \(list.bytesRecognized) bytes recognized of \(bytes.count)")
        // Every chip's bytes, and no more (a too-long chip is refused unread).
        #expect(list.bytesRecognized <= chipBytes, "\(shape)")
    }
}
