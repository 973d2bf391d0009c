import Foundation
import Testing
import ChipKit
import ChipKitTestSupport
import ChipTestSupport

/// Seeded lists in the shapes other programs paste (Outlook's `Last,
/// First;`, `mailto:` links, folded white space): recognition finds every
/// address, and scanning in chunks, typing key by key and pasting into a
/// field all give the same chips (``InvariantVerifier``).
@Suite("Pasted lists through the whole engine")
struct PastedListsEngineTests {
    /// No chip reports an address that is not in its text: seeded lists of
    /// known mailboxes, joined by every kind of white space and separator
    /// (folding white space included), give chips whose addresses are
    /// among those typed, one chip for each.
    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func everyAddressIsInItsText(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let between = [" ", "\r\n ", "\n\t", "\r\n \t", ", ", ",\r\n ", "; ", "\r\n", "\n"]
        let shapes = ["%", "Ann <%>", "% (Ann)", "\"Lee, Ann\" <%>", "mailto:%", "Ann\r\n <%>", "%\r\n (x)"]
        for _ in 0..<60 {
            let n = Int(rng.next() % 5) + 1
            var parts: [String] = []
            var addresses: [String] = []
            for k in 0..<n {
                let address = "p\(k)@x\(k).org"
                addresses.append(address)
                let shape = shapes[Int(rng.next() % UInt64(shapes.count))]
                parts.append(shape.replacingOccurrences(of: "%", with: address))
                if k < n - 1 { parts.append(between[Int(rng.next() % UInt64(between.count))]) }
            }
            let text = parts.joined()
            let chips = AddressList.parse(text)
            #expect(chips.map(\.address) == addresses as [String?], "seed \(seed): \(text.debugDescription)")
            #expect(InvariantVerifier(policy: .standard).violations(of: Array(text.utf8)) == [], "seed \(seed): \(text.debugDescription)")
        }
    }

    /// Seeded lists whose addresses carry `mailto:` repeated 0 to 3 times
    /// in any case: one chip per address, none in a group.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func repeatedMailtoIsNeverAGroup(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let spellings = ["mailto:", "MAILTO:", "Mailto:", "mAiLtO:"]
        for _ in 0..<60 {
            let n = Int(rng.next() % 4) + 1
            var parts: [String] = []
            for k in 0..<n {
                var prefix = ""
                for _ in 0..<Int(rng.next() % 4) { prefix += spellings[Int(rng.next() % UInt64(spellings.count))] }
                parts.append(rng.next() % 3 == 0 ? "<\(prefix)p\(k)@x\(k).org>" : "\(prefix)p\(k)@x\(k).org")
            }
            let text = parts.joined(separator: rng.next() % 2 == 0 ? ", " : "; ")
            let chips = AddressList.parse(text)
            #expect(chips.map(\.address) == (0..<n).map { "p\($0)@x\($0).org" } as [String?], "seed \(seed): \(text)")
            #expect(chips.allSatisfy { $0.group == nil && $0.error == nil }, "seed \(seed): \(text)")
            #expect(InvariantVerifier(policy: .standard).violations(of: Array(text.utf8)) == [], "seed \(seed): \(text)")
        }
    }

    /// Seeded Outlook lists of any length: one chip per mailbox, with the
    /// `Last, First` name, however the input is chunked or typed.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func outlookListsOfAnyLength(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let last = ["Lee", "van der Berg", "Ørsted", "O'Neil", "Müller-Lüdenscheidt", "Ng", "da Silva"]
        let first = ["Ann", "Jan M.", "Hans", "Zoë", "Bob", "José Luis"]
        for _ in 0..<40 {
            let n = Int(rng.next() % 6) + 1
            var names: [String] = []
            var parts: [String] = []
            for k in 0..<n {
                let name = "\(last[Int(rng.next() % UInt64(last.count))]), \(first[Int(rng.next() % UInt64(first.count))])"
                names.append(name)
                parts.append("\(name) <p\(k)@x\(k).org>")
            }
            let separator = rng.next() % 2 == 0 ? "; " : ";\r\n"
            // One mailbox alone needs its `;` to show the list's style.
            let text = parts.joined(separator: separator) + (n == 1 || rng.next() % 2 == 0 ? ";" : "")
            let chips = AddressList.parse(text)
            #expect(chips.map(\.displayName) == names.map { $0 } as [String?], "\(text)")
            #expect(chips.allSatisfy { $0.error == nil && $0.warnings.contains(.unquotedComma) })
            #expect(InvariantVerifier(policy: .standard).violations(of: Array(text.utf8)) == [], "\(text)")
        }
    }

    /// A `,` or `;` after a bare address and white space is the separator
    /// that ended it, for deciding whether a later `,` after words is
    /// Outlook's `Last, First`: a field typed key by key ends the address
    /// at the space, and must still count the separator, as the list read
    /// whole does (found by the fuzzer as `a@x.orge-mail ; Lee, Ann <…>`).
    @Test(arguments: [
        "a@x.org ;L,A<>", "a@x.org ; Lee, Ann <b@y.org>", "a@x.org  ;Lee, Ann <b@y.org>", "a@x.org ,L,A<>;",
        "a@x.org , Lee, Ann <b@y.org>; c@z.org", "a@x.org\t; Lee, Ann <b@y.org>", "a@x.org \r\n ; Lee, Ann <b@y.org>",
        "a@x.org \n; Lee, Ann <b@y.org>", "T: a@x.org ; Lee, Ann <b@y.org>", "a@x.org (c) ; Lee, Ann <b@y.org>",
        "@- ;\u{1},A<>",
    ])
    func aSeparatorAfterAnAddressAndSpaceEndsIt(_ text: String) {
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            #expect(InvariantVerifier(policy: policy).violations(of: Array(text.utf8)) == [], "\(policy.name) \(text.debugDescription)")
        }
    }

    /// In a list that used `;`, a second `,` after held words splits both
    /// commas: the words between them are a chip of their own and cannot
    /// be held in turn. A field typed key by key shows the held words at
    /// once and learns from its copy of the scanner that they stand alone;
    /// the words after them must not then join the next name (found by
    /// the fuzzer as `-;\0,\xBC,0<>`).
    @Test(arguments: [
        "x@y.org; Lee, Ann, Bob <b@x.org>", "x@y.org; Lee, Ann, Bob <b@x.org>;", "-;\0,\u{BC},0<>",
        "x@y.org; Lee, Ann, Bob, Ray <r@x.org>",
    ])
    func wordsAfterASplitHeldCommaAreNotHeld(_ text: String) {
        let chips = AddressList.parse(text)
        #expect(!chips.contains { $0.raw.starts(with: Array("Ann,".utf8)) }, "\(text)")
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            #expect(InvariantVerifier(policy: policy).violations(of: Array(text.utf8)) == [], "\(text)")
        }
    }

    /// The same list typed in pieces where the words after the held comma
    /// and the `,` that splits it come in one piece: the field learns they
    /// stand alone before it has read them, and must not hold their comma
    /// either (found by the fuzzer as `-;\0,\xB8,\00 <mail6>`).
    @Test(arguments: [
        ["x@y.org; Lee,", " Ann,", " Bob <b@x.org>;"],
        ["x@y.org; Lee,", " Ann, Bob", " <b@x.org>;"],
        ["x@y.org; Lee,", " ", "Ann, Bob <b@x.org>;"],
        ["x@y.org; Lee, ", "Ann,", " Bob, Ray <r@x.org>;"],
        ["x@y.org; Lee,", "\nAnn,", " Bob <b@x.org>;"],
    ])
    func wordsAfterASplitHeldCommaInOnePieceAreNotHeld(_ pieces: [String]) {
        var field = ChipField(name: "to")
        for piece in pieces { field.insert(piece) }
        field.commit()
        let whole = AddressList.parse(pieces.joined())
        #expect(field.chips.map(\.content.raw) == whole.map(\.raw), "\(pieces)")
        // After a line break, `Ann, Bob <…>` is a new `Last, First <…>`.
        if !pieces.joined().contains("\n") {
            #expect(!field.chips.contains { $0.content.raw.starts(with: Array("Ann,".utf8)) }, "\(pieces)")
        }
    }
}
