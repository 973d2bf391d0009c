import Testing
import ChipKit
@testable import ChipSyntax
import ChipTestSupport

@Suite("List scanner")
struct ScannerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var input: String
        var chips: [String]
        var groups: [String?]? = nil
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: "", chips: []),
        Case(input: "   ,, ;\n", chips: []),
        Case(input: "ann@x.org", chips: ["ann@x.org"]),
        Case(input: " \t ann@x.org \t , \r\n", chips: ["ann@x.org"]),
        Case(input: "Ann  <a@x.org>  ;", chips: ["Ann  <a@x.org>"]),
        Case(input: "ann@x.org, bob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        Case(input: "ann@x.org;bob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        Case(input: "ann@x.org\nbob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        Case(input: "ann@x.org\r\nbob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        // A space after a complete bare address separates.
        Case(input: "ann@x.org bob@y.org\tcarol@z.org", chips: ["ann@x.org", "bob@y.org", "carol@z.org"]),
        // ... but not before a comment, `<`, a dot or an `@`.
        Case(input: "ann@x.org (Ann Lee) bob@y.org", chips: ["ann@x.org (Ann Lee)", "bob@y.org"]),
        Case(input: "ann@x.org <ann@x.org>", chips: ["ann@x.org <ann@x.org>"]),
        Case(input: "ann @ x . org", chips: ["ann @ x . org"]),
        Case(input: "ann@x .org", chips: ["ann@x .org"]),
        // Names are not split.
        Case(input: "Ann Lee <ann@x.org>", chips: ["Ann Lee <ann@x.org>"]),
        Case(input: "Ann Lee ann@x.org bob@y.org", chips: ["Ann Lee ann@x.org", "bob@y.org"]),
        // A complete name-addr followed by more text starts a new chip.
        Case(input: "Ann <a@x.org> Bob <b@y.org>", chips: ["Ann <a@x.org>", "Bob <b@y.org>"]),
        Case(input: "<a@x.org><b@y.org>", chips: ["<a@x.org>", "<b@y.org>"]),
        Case(input: "Ann <a@x.org> (work) Bob <b@y.org>", chips: ["Ann <a@x.org> (work)", "Bob <b@y.org>"]),
        // Separators inside quotes, comments, brackets and literals are text.
        Case(input: "\"Lee, Ann\" <ann@x.org>, b@y.org", chips: ["\"Lee, Ann\" <ann@x.org>", "b@y.org"]),
        Case(input: "a@x.org (Lee, Ann; x)", chips: ["a@x.org (Lee, Ann; x)"]),
        Case(input: "<@r.example,@s.example:a@x.org>", chips: ["<@r.example,@s.example:a@x.org>"]),
        Case(input: "a@[IPv6:2001:db8::1], b@y.org", chips: ["a@[IPv6:2001:db8::1]", "b@y.org"]),
        Case(input: "\"a\\\"b, c\" <a@x.org>", chips: ["\"a\\\"b, c\" <a@x.org>"]),
        Case(input: "a@x.org ((nested, (deep)) c), b@y.org", chips: ["a@x.org ((nested, (deep)) c)", "b@y.org"]),
        // Folding white space continues a chip; a hard line break ends it.
        Case(input: "\"Ann\r\n Lee\" <a@x.org>", chips: ["\"Ann\r\n Lee\" <a@x.org>"]),
        Case(input: "Ann\r\n Lee <a@x.org>", chips: ["Ann\r\n Lee <a@x.org>"]),
        Case(input: "\"Ann\nb@y.org", chips: ["\"Ann", "b@y.org"]),
        Case(input: "Ann <a@x.org\nb@y.org", chips: ["Ann <a@x.org", "b@y.org"]),
        Case(input: "a@x.org (oops\nb@y.org", chips: ["a@x.org (oops", "b@y.org"]),
        // A construct still open when the list ends: its chip ends before
        // the first `,` or `;` after its opener, and the rest is read again.
        Case(input: "\"Ann, a@x.org, b@y.org", chips: ["\"Ann", "a@x.org", "b@y.org"]),
        Case(input: "Ann <ann@x.org, b@x.org, c@x.org", chips: ["Ann <ann@x.org", "b@x.org", "c@x.org"]),
        Case(input: "Ann <ann@x.org ; b@y.org", chips: ["Ann <ann@x.org", "b@y.org"]),
        Case(input: "a@x.org (oops, b@y.org", chips: ["a@x.org (oops", "b@y.org"]),
        Case(input: "a@[192.0.2.1, b@y.org", chips: ["a@[192.0.2.1", "b@y.org"]),
        Case(input: "x (a, (b, (c, d@x.org", chips: ["x (a", "(b", "(c", "d@x.org"]),
        Case(input: "\"Lee, Ann\" <ann@x.org, b@y.org", chips: ["\"Lee, Ann\" <ann@x.org", "b@y.org"]),
        Case(input: "Ann <ann@x.org", chips: ["Ann <ann@x.org"]),
        Case(input: "\"Ann (x, y\" <a@x.org>, \"Bo, b@y.org", chips: ["\"Ann (x, y\" <a@x.org>", "\"Bo", "b@y.org"]),
        Case(input: "Team: \"Ann, a@x.org; b@y.org", chips: ["\"Ann", "a@x.org", "b@y.org"],
             groups: ["Team", "Team", nil]),
        // Text of only comments is a chip (in error); a group's own
        // comments (its whole content, or after its `;`) are the group's.
        Case(input: "(call Bob first)", chips: ["(call Bob first)"]),
        Case(input: "a@x.org, (call Bob first), b@y.org", chips: ["a@x.org", "(call Bob first)", "b@y.org"]),
        Case(input: "Team: (nobody);", chips: ["Team: (nobody);"], groups: ["Team"]),
        Case(input: "Team: (nobody)", chips: ["Team: (nobody)"], groups: ["Team"]),
        Case(input: "Team: (a), b@y.org;", chips: ["(a)", "b@y.org"], groups: ["Team", "Team"]),
        Case(input: "Team: a@x.org; (end), b@y.org", chips: ["a@x.org", "b@y.org"], groups: ["Team", nil]),
        Case(input: "Team: a@x.org;, (c)", chips: ["a@x.org", "(c)"], groups: ["Team", nil]),
        // Groups.
        Case(input: "Team: a@x.org, b@y.org; c@z.org", chips: ["a@x.org", "b@y.org", "c@z.org"],
             groups: ["Team", "Team", nil]),
        Case(input: "undisclosed-recipients:;", chips: ["undisclosed-recipients:;"],
             groups: ["undisclosed-recipients"]),
        Case(input: "Empty : ; a@x.org", chips: ["Empty : ;", "a@x.org"], groups: ["Empty", nil]),
        Case(input: "Team: a@x.org, b@y.org", chips: ["a@x.org", "b@y.org"], groups: ["Team", "Team"]),
        Case(input: "Team: a@x.org\nb@y.org;", chips: ["a@x.org", "b@y.org"], groups: ["Team", nil]),
        Case(input: "\"The Team\" (x): a@x.org;", chips: ["a@x.org"], groups: ["The Team"]),
        // `mailto:` is a link, not a group.
        Case(input: "mailto:a@x.org", chips: ["mailto:a@x.org"], groups: [nil]),
        Case(input: "MailTo:a@x.org", chips: ["MailTo:a@x.org"], groups: [nil]),
        Case(input: "mail to: a@x.org", chips: ["a@x.org"], groups: ["mail to"]),
        // However often a link generator repeats it.
        Case(input: "mailto:mailto:a@x.org, b@y.org", chips: ["mailto:mailto:a@x.org", "b@y.org"], groups: [nil, nil]),
        Case(input: "MAILTO:mailto:Mailto:a@x.org", chips: ["MAILTO:mailto:Mailto:a@x.org"], groups: [nil]),
        Case(input: "mailto: mailto:a@x.org", chips: ["mailto: mailto:a@x.org"], groups: [nil]),
        Case(input: "mailto:mailto:Team: a@x.org;", chips: ["a@x.org"], groups: ["Team"]),
        // Folding white space (CRLF then a space or tab) is white space
        // wherever a space is: after a complete bare address it separates.
        Case(input: "a@x.org\r\n b@x.org", chips: ["a@x.org", "b@x.org"]),
        Case(input: "a@x.org\n\tb@x.org\r\n \tc@x.org", chips: ["a@x.org", "b@x.org", "c@x.org"]),
        Case(input: "a@x.org\r\n (Ann)", chips: ["a@x.org\r\n (Ann)"]),
        Case(input: "a@x.org\r\n <a@x.org>", chips: ["a@x.org\r\n <a@x.org>"]),
        Case(input: "mailto:\r\n a@x.org", chips: ["mailto:\r\n a@x.org"], groups: [nil]),
        // Junk still becomes chips.
        Case(input: "???, <<>>", chips: ["???", "<<>", ">"]),
        Case(input: ")(", chips: [")("]),
    ]

    @Test(arguments: cases)
    func splitsListsAsAPersonExpects(_ c: Case) {
        let chips = AddressList.parse(c.input)
        #expect(chips.map(\.rawText) == c.chips)
        if let groups = c.groups {
            #expect(chips.map(\.group) == groups)
        }
    }

    /// Every byte that is not in a segment is white space or a separator.
    @Test(arguments: 0..<200)
    func everyByteOutsideSegmentsIsASeparator(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let bytes = randomList(&rng, pieces: 1 + rng.below(40))
        let segs = segments(of: bytes)
        var covered = [Bool](repeating: false, count: bytes.count)
        var previousEnd = 0
        var previous: Segment?
        for s in segs {
            #expect(s.byteRange.lowerBound >= previousEnd, "seed \(seed): segments overlap or go back")
            // Comments a group holds as its own are in no chip: the whole
            // content of a group with no member, and what follows its `;`
            // before the next separator (RFC 5322 §3.4).
            if previous?.kind == .groupOpen && s.kind == .groupClose
                || previous?.kind == .groupClose && previous?.byteRange.isEmpty == false {
                let gap = previousEnd..<s.byteRange.lowerBound
                for i in gap.lowerBound..<InvariantVerifier.endOfGroupComments(bytes, gap) { covered[i] = true }
            }
            previous = s
            previousEnd = max(previousEnd, s.byteRange.upperBound)
            for i in s.byteRange { covered[i] = true }
            if s.kind == .chip {
                #expect(!s.byteRange.isEmpty)
                // (A chip may end in white space only inside an unterminated
                // quote, comment or literal, where it is text.)
                let first = bytes[s.byteRange.lowerBound]
                #expect(first != 0x20 && first != 0x09 && first != 0x0A && first != 0x0D, "seed \(seed)")
            }
        }
        if previous?.kind == .groupClose && previous?.byteRange.isEmpty == false {
            for i in previousEnd..<InvariantVerifier.endOfGroupComments(bytes, previousEnd..<bytes.count) { covered[i] = true }
        }
        let separators: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: ";")]
        var i = 0
        while i < bytes.count {
            // A byte order mark between chips is white space.
            if !covered[i] && i + 2 < bytes.count && bytes[i...(i + 2)].elementsEqual([0xEF, 0xBB, 0xBF])
                && !covered[i + 1] && !covered[i + 2] {
                i += 3
                continue
            }
            if !covered[i] { #expect(separators.contains(bytes[i]), "seed \(seed): byte \(bytes[i]) at \(i) lost") }
            i += 1
        }
    }

    /// The whole input, byte by byte, and random chunks give the same segments.
    @Test(arguments: 0..<200)
    func chunkingDoesNotChangeSegments(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1_000)
        let bytes = randomList(&rng, pieces: 1 + rng.below(60))
        let whole = segments(of: bytes)
        #expect(segments(of: bytes, chunks: [1]) == whole, "seed \(seed): byte by byte differs")
        let sizes = (0..<8).map { _ in 1 + rng.below(17) }
        #expect(segments(of: bytes, chunks: sizes) == whole, "seed \(seed): chunks \(sizes) differ")
    }

    @Test func stateIsASmallValue() {
        // The resumable state must stay small enough to keep per keystroke.
        #expect(MemoryLayout<ListScanner>.size <= 128)
    }

    @Test func retainOffsetCoversTheOpenChip() {
        var scanner = ListScanner()
        var out: [Segment] = []
        scanner.scan(Array("a@x.org, \"Lee, A".utf8)) { out.append($0) }
        #expect(out == [Segment(.chip, 0..<7)])
        #expect(scanner.openChipStart == 9)
        #expect(scanner.retainOffset == 9)
        #expect(scanner.isNested)
        scanner.scan(Array("nn\" <a@y.org>".utf8)) { out.append($0) }
        scanner.finish { out.append($0) }
        #expect(out.last == Segment(.chip, 9..<29))
        #expect(scanner.offset == 29)
    }
}

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
