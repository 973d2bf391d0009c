import Foundation
import Testing
import ChipKit
@testable import ChipRecognition
import ChipTestSupport

/// Lists as people paste them from other programs: Outlook's `Last, First`
/// names separated by `;`, `mailto:` links with %-escapes (RFC 6068), and
/// bare addresses typed with a full-width `＠`. Every row also goes through
/// the invariant verifier: chunked scanning, typing key by key and pasting
/// give the same chips.
enum PastedListTables {
    static let outlook: [RFCRow] = [
        // The shape Outlook writes: `;` between mailboxes, unquoted names.
        rfcList("Outlook", "Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>", .standard, [
            member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
            member("Ray, Bob", "bob@y.org", warn: ["unquoted-comma"]),
        ]),
        rfcList("Outlook", "Lee, Ann <ann@x.org>;", .standard, [member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"])]),
        rfcList("Outlook", "van der Berg, Jan M. <jan@x.nl>; Ørsted, Hans <h@y.dk>; c@z.org", .standard, [
            member("van der Berg, Jan M.", "jan@x.nl", warn: ["unquoted-comma"]),
            member("Ørsted, Hans", "h@y.dk", warn: ["unquoted-comma"]),
            member(nil, "c@z.org"),
        ]),
        // After a `;` has been seen, the last mailbox needs none.
        rfcList("Outlook", "a@x.org; Lee, Ann <ann@x.org>", .standard, [
            member(nil, "a@x.org"), member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
        ]),
        rfcList("Outlook", "Lee, Ann <ann@x.org> (work); Ray, Bob <bob@y.org>", .standard, [
            member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
            member("Ray, Bob", "bob@y.org", warn: ["unquoted-comma"]),
        ]),
        rfcList("Outlook", "Lee, Ann <ann@x.org>;\r\nRay, Bob <bob@y.org>", .standard, [
            member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
            member("Ray, Bob", "bob@y.org", warn: ["unquoted-comma"]),
        ]),
        // RFC 5322 reads a `,` as a separator everywhere else.
        rfcList("5322 §3.4", "Lee, Ann <ann@x.org>", .standard, [
            member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, Ann <ann@x.org>, Ray, Bob <bob@y.org>", .standard, [
            member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
            member(nil, .unchecked, .error("missing-at")), member("Bob", "bob@y.org"),
        ]),
        rfcList("5322 §3.4", "Ann, Bob, Carol", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, .unchecked, .error("missing-at")),
            member(nil, .unchecked, .error("missing-at")),
        ]),
        rfcList("5322 §3.4", "Lee, ann@x.org; bob@y.org", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, "ann@x.org"), member(nil, "bob@y.org"),
        ]),
        rfcList("5322 §3.4", "Lee, \"Ann\" <ann@x.org>;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, <ann@x.org>;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, Ann, Bo <b@y.org>;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, .unchecked, .error("missing-at")),
            member("Bo", "b@y.org"),
        ]),
        rfcList("5322 §3.4", "x@y.org, Lee, Ann <ann@x.org>", .standard, [
            member(nil, "x@y.org"), member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, Team: a@x.org, b@y.org;", .standard, [
            member(nil, .unchecked, .error("missing-at")),
            member(nil, "a@x.org", group: "Team"), member(nil, "b@y.org", group: "Team"),
        ]),
        rfcList("5322 §3.4", "Lee, mailto:ann@x.org;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, "ann@x.org", warn: ["mailto-prefix"]),
        ]),
        // Inside a group commas separate members, as RFC 5322 says.
        rfcList("5322 §3.4", "Team: Lee, Ann <ann@x.org>;", .standard, [
            member(nil, .unchecked, group: "Team", .error("missing-at")), member("Ann", "ann@x.org", group: "Team"),
        ]),
        // The strict policy keeps RFC 5322's phrase: no bare comma.
        rfcList("5322 §3.2.5", "Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>", .strict, [
            member(.unchecked, .unchecked, .error("invalid-display-name")),
            member(.unchecked, .unchecked, .error("invalid-display-name")),
        ]),
    ]

    static let links: [RFCRow] = [
        // RFC 6068 §2: the addr-spec of a link is %-encoded.
        rfc("6068 §2", "mailto:ann%40x.org", .standard, .valid, address: "ann@x.org", warn: ["mailto-prefix"]),
        rfc("6068 §2", "<mailto:j%C3%B6rg@x.org>", .standard, .valid, address: "jörg@x.org", warn: ["mailto-prefix"]),
        rfc("6068 §2", "J <mailto:j%c3%b6rg@x.org?subject=a%20b>", .standard, .valid, name: "J",
            address: "jörg@x.org", warn: ["mailto-prefix", "mailto-fields-dropped"]),
        rfc("6068 §6", "mailto:%22not%40me%22@example.org", .standard, .valid, address: "\"not@me\"@example.org",
            warn: ["mailto-prefix"]),
        rfc("6068 §6", "mailto:user@example.org?subject=caf%C3%A9", .standard, .valid, address: "user@example.org"),
        rfc("6068 §6", "mailto:~jdoe@example.net", .standard, .valid, address: "~jdoe@example.net"),
        // Escapes are decoded once: `%25` is a percent sign.
        rfc("6068 §2", "mailto:a%2540x.org", .standard, "missing-at"),
        rfc("6068 §2", "mailto:a%25b@x.org", .standard, .valid, address: "a%b@x.org"),
        // What decodes to something an address cannot hold is an error.
        rfc("6068 §2", "mailto:ann@x.org%0D%0ABcc:e@y.org", .standard, .invalid),
        rfc("6068 §2", "mailto:%FFann@x.org", .standard, "invalid-utf8"),
        rfc("6068 §2", "mailto:ann%20lee@x.org", .standard, .invalid),
        // A `%` that is no escape is a plain atext character.
        rfc("6068 §2", "mailto:a%zz@x.org", .standard, .valid, address: "a%zz@x.org"),
        // No link, no decoding.
        rfc("5322 §3.2.3", "a%40b@x.org", .standard, .valid, address: "a%40b@x.org"),
    ]

    /// A `mailto:` prefix, however often a link generator repeats it, is a
    /// link's scheme and never a group's name.
    static let doubledPrefix: [RFCRow] = [
        rfcList("6068 §2", "mailto:mailto:ann@x.org, bob@y.org", .standard, [
            member(nil, "ann@x.org", warn: ["mailto-prefix"]), member(nil, "bob@y.org"),
        ]),
        rfcList("6068 §2", "MAILTO:mailto:Mailto:ann@x.org; bob@y.org", .standard, [
            member(nil, "ann@x.org", warn: ["mailto-prefix"]), member(nil, "bob@y.org"),
        ]),
        rfcList("6068 §2", "Ann <mailto:mailto:ann@x.org>, bob@y.org", .standard, [
            member("Ann", "ann@x.org", warn: ["mailto-prefix"]), member(nil, "bob@y.org"),
        ]),
        rfcList("6068 §2", "mailto:mailto:Team: a@x.org, b@y.org;", .standard, [
            member(nil, "a@x.org", group: "Team"), member(nil, "b@y.org", group: "Team"),
        ]),
    ]

    static let fullWidth: [RFCRow] = [
        rfcList("UTS 46", "ann\u{FF20}x.org bob\u{FF20}y.org", .standard, [
            member(nil, "ann@x.org", warn: ["full-width-at"]), member(nil, "bob@y.org", warn: ["full-width-at"]),
        ]),
        rfcList("UTS 46", "ann\u{FF20}x.org bob@y.org", .standard, [
            member(nil, "ann@x.org", warn: ["full-width-at"]), member(nil, "bob@y.org"),
        ]),
        rfcList("UTS 46", "\u{FF71}\u{FF9D} ann@x.org bob\u{FF20}y.org", .standard, [
            member("\u{FF71}\u{FF9D}", "ann@x.org", warn: ["missing-angle-brackets"]),
            member(nil, "bob@y.org", warn: ["full-width-at"]),
        ]),
        rfcList("UTS 46", "\u{FF20}x.org b@y.org", .standard, [
            member(nil, .unchecked, .error("empty-local-part")), member(nil, "b@y.org"),
        ]),
        // Full-width letters are no `＠`.
        rfcList("UTS 46", "\u{FF41}\u{FF42} a@x.org", .standard, [member("\u{FF41}\u{FF42}", "a@x.org")]),
    ]
}

@Suite("Lists pasted from other programs")
struct PastedListsTests {
    @Test(arguments: PastedListTables.outlook)
    func outlook(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: PastedListTables.links)
    func links(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: PastedListTables.fullWidth)
    func fullWidth(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: PastedListTables.doubledPrefix)
    func doubledPrefix(_ row: RFCRow) { verifyRFCRow(row) }

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

    /// Recognition of one chip the scanner made from an Outlook list: a
    /// comma between words of a name is read, one at either end is not.
    @Test(arguments: [
        ("Lee, Ann <ann@x.org>", ValidationPolicy.standard, nil as String?, "Lee, Ann" as String?),
        ("Lee , Ann M. <ann@x.org>", .standard, nil, "Lee , Ann M."),
        ("Lee, <ann@x.org>", .standard, "invalid-display-name", nil),
        (", Ann <ann@x.org>", .standard, "invalid-display-name", nil),
        ("Lee, Ann <ann@x.org>", .strict, "invalid-display-name", nil),
        ("Lee, Ann <ann@x.org>", .lenient, nil, "Lee, Ann"),
    ])
    func aCommaBetweenWordsOfAName(_ text: String, _ policy: ValidationPolicy, _ error: String?, _ name: String?) {
        var recognizer = Recognizer(policy: policy)
        let bytes = Array(text.utf8)
        let r = recognizer.recognize(bytes)
        #expect(r.error?.code == error, "\(text)")
        #expect(r.warnings.contains(.unquotedComma) == (error == nil), "\(text)")
        if let name {
            var out: [UInt8] = []
            bytes.withUnsafeBufferPointer { _ = recognizer.appendDisplayName(r, $0, into: &out) }
            #expect(String(decoding: out, as: UTF8.self) == name)
        }
    }

    /// The header writer quotes an Outlook name, so it reads back as one.
    @Test func outlookNamesGoOutQuoted() {
        let chips = AddressList.parse("Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>")
        let header = HeaderRenderer.render(chips).text
        #expect(header == "\"Lee, Ann\" <ann@x.org>, \"Ray, Bob\" <bob@y.org>")
        #expect(AddressList.parse(header).map(\.displayName) == ["Lee, Ann", "Ray, Bob"])
    }

    /// The policy rule is saved and restored with the others.
    @Test func theCommaRuleRoundTrips() throws {
        #expect(ValidationPolicy.standard.allowsUnquotedCommaInName)
        #expect(!ValidationPolicy.strict.allowsUnquotedCommaInName)
        #expect(ValidationPolicy.lenient.allowsUnquotedCommaInName)
        var custom = ValidationPolicy.standard
        custom.allowsUnquotedCommaInName = false
        let data = try JSONEncoder().encode(custom)
        #expect(try JSONDecoder().decode(ValidationPolicy.self, from: data) == custom)
    }
}
