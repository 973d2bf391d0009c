import ChipKit
import ChipTestSupport
import Testing

/// A host with many lists (a mailbox's headers, an export's rows) reads
/// them with what it made once: an ``AddressList/Parser`` for chips as
/// values, a ``ChipRecordWriter`` for `chipify`'s formats. What they keep
/// from list to list (tables, each domain's look-alike and typo verdicts)
/// only makes them faster: each list's chips are those a fresh
/// ``AddressList/parse(_:policy:)`` gives it.
@Suite("Many lists, one parser")
struct ManyListsTests {
    /// The sample corpus, a sample of the real lists, seeded random lists,
    /// and lists that repeat one another's addresses, look-alikes and
    /// typos (the verdicts a warm cache holds; no duplicate across lists).
    static func lists() -> [[UInt8]] {
        let root = ChipTestSupport.packageRoot() + "/"
        var lists = (readFile(root + "Corpus/samples/compose.txt") ?? []).split(separator: 0x0A).map(Array.init)
        let real = (readFile(root + "Corpus/real/debian-maintainers.txt") ?? []).split(separator: 0x0A).map(Array.init)
        #expect(lists.count > 20 && real.count > 7_000, "the corpus files are read")
        lists += TestScale.sample(real, 800, "real lists")
        var rng = SplitMix64(seed: 36)
        for _ in 0..<300 { lists.append(randomList(&rng, pieces: 1 + rng.below(12))) }
        let repeated = [
            "Ann <ann@x.org>, ann@x.org", "ann@x.org, bob@gmial.com", "Bob <bob@gmial.com>, c@exаmple.com",
            "c@exаmple.com, Ann <ann@x.org>", "Team: ann@x.org, ann@x.org;, ann@x.org", "d@xn--80ak6aa92e.com, d@yaho.com",
        ]
        for k in 0..<60 { lists.append(Array(repeated[k % repeated.count].utf8)) }
        return lists
    }

    @Test(arguments: ["standard", "strict", "lenient"])
    func aParserGivesWhatParseGivesListByList(_ name: String) throws {
        let policy = try #require(ValidationPolicy(named: name))
        let lists = Self.lists()
        var parser = AddressList.Parser(policy: policy)
        var chips = 0, duplicates = 0, typos = 0
        for list in lists {
            let fresh = AddressList.parse(list, policy: policy)
            let reused = parser.parse(list)
            chips += reused.count
            duplicates += reused.filter { $0.warnings.contains(.duplicate) }.count
            typos += reused.filter { $0.suggestedDomain != nil }.count
            #expect(reused == fresh, "\(name): \(String(decoding: list, as: UTF8.self))")
            if reused != fresh { return }
        }
        #expect(chips > 2_000)
        // Found within lists (three in each round of the repeated ones),
        // never across them.
        #expect(duplicates >= 30 && duplicates < 60)
        if name != "lenient" { #expect(typos > 0) }
    }

    /// A chip's domain three ways: as written, its ASCII form (A-labels,
    /// lower case) and its Unicode form; each kept apart whatever text the
    /// others share.
    @Test(arguments: [
        ("a@xn--80ak6aa92e.com", "xn--80ak6aa92e.com", "xn--80ak6aa92e.com", "аррӏе.com"),
        ("a@XN--BCHER-KVA.de", "XN--BCHER-KVA.de", "xn--bcher-kva.de", "bücher.de"),
        ("a@Bücher.DE", "Bücher.DE", "xn--bcher-kva.de", "Bücher.DE"),
        ("a@пример.рф", "пример.рф", "xn--e1afmkfd.xn--p1ai", "пример.рф"),
        ("a@Example.COM", "Example.COM", "example.com", "Example.COM"),
        ("a@example.com", "example.com", "example.com", "example.com"),
        ("a@[192.0.2.1]", "[192.0.2.1]", "[192.0.2.1]", "[192.0.2.1]"),
        ("a@(note)example.org", "example.org", "example.org", "example.org"),
    ])
    func aDomainIsGivenAsWrittenAndInBothForms(_ row: (String, String, String, String)) throws {
        var parser = AddressList.Parser()
        for chip in [try #require(AddressList.parse(row.0).first), try #require(parser.parse(row.0).first)] {
            #expect(chip.error == nil)
            #expect(chip.domain == row.1, "\(row.0)")
            #expect(chip.asciiDomain == row.2, "\(row.0)")
            #expect(chip.unicodeDomain == row.3, "\(row.0)")
        }
    }

    /// A domain that starts with a combining mark (only a lenient policy
    /// lets one through) is found after the address's last `@` byte, even
    /// though `@` and the mark are one `Character`; its ASCII form is
    /// refused (no label may start with a mark).
    @Test func aDomainAfterAnAtThatAMarkJoinsIsStillFound() throws {
        for text in ["a@\u{301}x.org", "\"a@b\"@\u{301}x.org"] {
            let chip = try #require(AddressList.parse(text, policy: .lenient).first)
            #expect(chip.error == nil, "\(text)")
            #expect(chip.unicodeDomain == "\u{301}x.org", "\(text)")
            #expect(chip.asciiDomain == nil, "\(text)")
        }
    }

    /// Bytes in any collection, or a string: the same chips.
    @Test func aParserTakesBytesAsTheyCome() {
        var parser = AddressList.Parser()
        let text = "Ann Lee <ann@example.org>, \"Lee, Bob\" <bob@example.org>, bad@"
        let bytes = Array(text.utf8)
        let want = AddressList.parse(text)
        #expect(want.count == 3)
        #expect(parser.parse(text) == want)
        #expect(parser.parse(bytes) == want)
        #expect(parser.parse(bytes[...]) == want)
        #expect(parser.parse(text.utf8) == want)
        #expect(parser.parse(bytes.lazy.map { $0 }) == want)
    }

    /// A copy parses on its own: what one learns or holds open is not the
    /// other's.
    @Test func aCopyOfAParserParsesOnItsOwn() {
        var a = AddressList.Parser()
        _ = a.parse("ann@x.org, Team: bob@gmial.com")
        var b = a
        let first = b.parse("ann@x.org")
        let second = a.parse("ann@x.org, bob@gmial.com")
        #expect(first == AddressList.parse("ann@x.org"))
        #expect(second == AddressList.parse("ann@x.org, bob@gmial.com"))
        #expect(second.allSatisfy { !$0.warnings.contains(.duplicate) })
    }

    /// The record writer, fed the same lists one by one, and a copy of it
    /// fed the rest: the bytes one writer writes for them all.
    @Test func aCopiedRecordWriterWritesWhatOneWriterWrites() {
        let lists = Self.lists()
        var one = ChipRecordWriter(format: .jsonl)
        for (k, list) in lists.enumerated() { one.write(record: k + 1, list) }
        var first = ChipRecordWriter(format: .jsonl)
        let half = lists.count / 2
        for (k, list) in lists[..<half].enumerated() { first.write(record: k + 1, list) }
        var second = first
        second.output.removeAll()
        for (k, list) in lists[half...].enumerated() { second.write(record: half + k + 1, list) }
        // The first writer, used again after the copy, is unchanged by it.
        first.write(record: half + 1, lists[half])
        #expect(one.output.count > 100_000)
        #expect(Array(one.output.bytes.prefix(first.output.count)) == first.output.bytes)
        #expect(Array(one.output.bytes.dropFirst(one.output.count - second.output.count)) == second.output.bytes)
    }
}
