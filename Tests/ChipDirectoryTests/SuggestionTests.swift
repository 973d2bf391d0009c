import Testing
@testable import ChipDirectory
import ChipTestSupport

private func person(
    _ id: String, _ name: String?, _ emails: [String], nick: [String] = [], org: String? = nil,
    uses: Int = 0, last: Double? = nil
) -> Contact {
    var usage = ContactUsage()
    for _ in 0..<uses { usage = usage.recordingUse(at: last ?? 0) }
    return Contact(
        id: ContactID(id), displayName: name, nicknames: nick, organization: org,
        emails: emails.map { ContactEmail(address: $0) }, usage: usage)
}

@Suite("Suggestions")
struct SuggestionTests {
    static let book = ContactDirectory([
        person("1", "José Ortiz", ["jose@ortiz.example"]),
        person("2", "Mary Jones", ["mary@jones.example"]),
        person("3", "John Smith", ["john.smith@x.org"]),
        person("4", "Ann Lee", ["ann@joblink.io"]),
        person("5", "Bob Stone", ["bob@y.org"], nick: ["jo"]),
        person("6", "Zed Quinn", ["zed@q.example"]),
    ])

    @Test func aQueryMatchesTheStartOfAnyWord() {
        let ids = Set(SuggestionTests.book.suggestions(for: "jo").map(\.contact.rawValue))
        #expect(ids == ["1", "2", "3", "4", "5"])
    }

    @Test func classesRankExactThenFullNameThenFirstWordThenOthers() {
        let s = SuggestionTests.book.suggestions(for: "jo")
        #expect(s.first?.contact.rawValue == "5")  // the nickname "jo", exactly
        #expect(s.map(\.matchClass) == s.map(\.matchClass).sorted())
        #expect(s[0].matchClass == .exact)
        // José and John start their names with "jo"; Mary Jones does not.
        let full = s.filter { $0.matchClass == .fullNamePrefix }.map(\.contact.rawValue)
        #expect(Set(full) == ["1", "3"])
        #expect(s.first { $0.contact.rawValue == "2" }?.matchClass == .otherWord)
    }

    @Test func multiWordQueriesMatchEachWordInAnyOrder() {
        #expect(SuggestionTests.book.suggestions(for: "jo ma").map(\.contact.rawValue) == ["2"])
        #expect(SuggestionTests.book.suggestions(for: "smith john").map(\.contact.rawValue) == ["3"])
        #expect(SuggestionTests.book.suggestions(for: "\"mary jo\"").map(\.contact.rawValue) == ["2"])
        #expect(SuggestionTests.book.suggestions(for: "\"jo ma\"").isEmpty)
        #expect(SuggestionTests.book.suggestions(for: "jo qq").isEmpty)
    }

    @Test func anExactAddressComesFirst() {
        let s = SuggestionTests.book.suggestions(for: "bob@y.org")
        #expect(s.first?.address == "bob@y.org")
        #expect(s.first?.matchClass == .exact)
    }

    @Test func matchesAreHighlightedInNameAndAddress() {
        let s = SuggestionTests.book.suggestions(for: "jo").first { $0.contact.rawValue == "2" }!
        let name = Array(s.name!.utf8)
        #expect(s.nameMatches.map { String(decoding: name[$0], as: UTF8.self) } == ["Jo"])
        let address = Array(s.address!.utf8)
        #expect(s.addressMatches.map { String(decoding: address[$0], as: UTF8.self) } == ["jo"])
        let ann = SuggestionTests.book.suggestions(for: "jo").first { $0.contact.rawValue == "4" }!
        let a = Array(ann.address!.utf8)
        #expect(ann.addressMatches.map { String(decoding: a[$0], as: UTF8.self) } == ["jo"])
    }

    @Test func chippedAddressesAreLeftOutAndSharedOnesShownOnce() {
        let book = ContactDirectory([
            person("a", "Ann Lee", ["ann@x.org"], uses: 3, last: 100),
            person("b", "Annie", ["ANN@x.org"]),
            person("c", "Anna Berg", ["anna@y.org"]),
        ])
        let s = book.suggestions(for: "ann")
        #expect(s.map(\.contact.rawValue) == ["a", "c"])
        // Excluding the shared mailbox (compared folded) leaves out both rows.
        #expect(book.suggestions(for: "ann", excluding: ["Ann@X.org"]).map(\.contact.rawValue) == ["c"])
    }

    @Test func usageOrdersWithinAClassAndDecays() {
        let book = ContactDirectory([
            person("old", "Sam Old", ["old@x.org"], uses: 8, last: 0),
            person("new", "Sam New", ["new@x.org"], uses: 1, last: 200 * 24 * 3600),
            person("none", "Sam None", ["none@x.org"]),
        ])
        // Eight uses 200 days ago count 8·2^(−200/30) ≈ 0.08: less than one now.
        #expect(book.suggestions(for: "sam").map(\.contact.rawValue) == ["new", "old", "none"])
    }

    /// The index gives exactly what reading every contact gives, for
    /// seeded random books and queries (prefixes, several words, phrases).
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func theIndexAgreesWithAScan(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let first = ["Ann", "Anna", "Bob", "José", "Jo", "Mary", "Jon", "Zoë", "Li", "Jörg", "Anne-Marie"]
        let last = ["Lee", "Jones", "Ortiz", "Smith", "Stone", "Jonas", "Berg", "Li", "O'Neil"]
        func pick(_ a: [String]) -> String { a[Int(rng.next() % UInt64(a.count))] }
        var contacts: [Contact] = []
        for i in 0..<Int(rng.next() % 300 + 50) {
            let f = pick(first), l = pick(last)
            let emails = (0..<Int(rng.next() % 3)).map { k in "\(f.lowercased()).\(l.lowercased())\(k)@\(pick(last).lowercased()).org" }
            let uses = Int(rng.next() % 4)
            contacts.append(person("id\(i)", rng.next() % 10 == 0 ? nil : "\(f) \(l)", emails,
                                   nick: rng.next() % 5 == 0 ? [String(f.prefix(2)).lowercased()] : [],
                                   uses: uses, last: Double(rng.next() % 1000) * 3600))
        }
        let book = ContactDirectory(contacts)
        for _ in 0..<200 {
            let word = pick(first + last).lowercased()
            var query = String(word.prefix(Int(rng.next() % UInt64(word.count)) + 1))
            switch rng.next() % 4 {
            case 0: query += " " + String(pick(last).lowercased().prefix(2))
            case 1: query = "\"\(pick(first).lowercased()) \(String(pick(last).lowercased().prefix(1)))\""
            default: break
            }
            let limit = Int(rng.next() % 10) + 1
            #expect(book.suggestions(for: query, limit: limit) == book.suggestionsByScanning(for: query, limit: limit),
                    "\(query)")
        }
    }
}
