import Foundation
import Testing
@testable import ChipDirectory
import ChipTestSupport
import ChipDirectoryTestSupport

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

    /// A limit is a cap, never a size: Int.max allocates for the matches
    /// found and does not overflow, with or without an overlay.
    @Test func anyLimitIsACapNotAnAllocation() {
        let updated = SuggestionTests.book.updating([person("7", "Joan Mill", ["joan@m.example"])])
        for book in [SuggestionTests.book, updated] {
            #expect(book.suggestions(for: "jo", limit: .max).count == book.suggestions(for: "jo", limit: 100).count)
            var search = SuggestionSearch(book, limit: .max)
            #expect(search.update("jo").count == book.suggestions(for: "jo", limit: 100).count)
        }
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

    /// A query of several words is answered from the words' postings:
    /// a word found in one address of a contact matches that row only, a
    /// display name starts with the words only when the first is its whole
    /// first word, and the classes are what the rows' text says.
    @Test(arguments: [
        ("le e", [("1", "le@x.org", MatchClass.fullNamePrefix), ("1", "evan@y.org", .fullNamePrefix),
                  ("2", "lee@x.org", .firstWord), ("3", "anna.e@z.org", .otherWord)]),
        ("e le", [("2", "lee@x.org", .firstWord), ("1", "le@x.org", .firstWord), ("1", "evan@y.org", .firstWord),
                  ("3", "anna.e@z.org", .otherWord)]),
        ("le evans x", [("1", "le@x.org", .firstWord)]),
        ("le evans", [("1", "le@x.org", .fullNamePrefix), ("1", "evan@y.org", .fullNamePrefix)]),
        ("ann e", [("3", "anna.e@z.org", .firstWord)]),
        ("z ann", [("3", "anna.e@z.org", .firstWord)]),
        ("q le", [("3", "other@q.org", .otherWord)]),
    ])
    func wordsMatchRowsByTheirPostings(_ query: String, _ expected: [(String, String, MatchClass)]) {
        let book = ContactDirectory([
            person("1", "Le Evans", ["le@x.org", "evan@y.org"], uses: 3, last: 10),
            person("2", "Lee Ellis", ["lee@x.org"], uses: 5, last: 10),
            person("3", "Anna Le", ["anna.e@z.org", "other@q.org"]),
        ])
        let s = book.suggestions(for: query)
        #expect(s.map { [$0.contact.rawValue, $0.address ?? ""] } == expected.map { [$0.0, $0.1] }, "\(query)")
        #expect(s.map(\.matchClass) == expected.map(\.2), "\(query)")
        #expect(s == book.suggestionsByScanning(for: query), "\(query)")
        // The intersection of postings on its own (a book this small
        // takes the folded rows' path, within its budget).
        let index = book.base
        let q = SearchQuery(query)
        var taken = TakenRows(wanted: 8)
        index.wordsHits(q, ranges: index.ranges(q, after: nil), &taken, isHidden: { _ in false }, isUsable: { _, _ in true })
        #expect(taken.hits.map { [index.contacts[Int(index.rows[Int($0.row)].contact)].id.rawValue, index.address(of: $0.row)] }
                == expected.map { [$0.0, $0.1] }, "\(query)")
        #expect(taken.hits.map(\.matchClass) == expected.map(\.2), "\(query)")
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

    /// Rows are merged and left out by a 32-bit key of the folded address,
    /// checked against the text: these two addresses share a key (found
    /// by search) and must neither merge nor exclude each other.
    @Test func addressesThatShareAKeyStayApart() {
        let (a, b) = ("u26156@coll.example", "u49273@coll.example")
        #expect(SearchIndex.addressKey(a) == SearchIndex.addressKey(b))
        let book = ContactDirectory([
            person("1", "Coll One", [a], uses: 2, last: 10), person("2", "Coll Two", [b]),
            person("3", "Coll Three", [a.uppercased()]),
        ])
        #expect(book.suggestions(for: "coll").map(\.contact.rawValue) == ["1", "2"])
        #expect(book.suggestions(for: "coll", excluding: [a]).map(\.contact.rawValue) == ["2"])
        #expect(book.suggestions(for: "coll", excluding: [b]).map(\.contact.rawValue) == ["1"])
        for excluding in [[], [a], [b], [a, b]] as [Set<String>] {
            #expect(book.suggestions(for: "coll", excluding: excluding) == book.suggestionsByScanning(for: "coll", excluding: excluding))
        }
        // The overlay's rows meet the base's by the same key.
        let changed = book.updating([person("2", "Coll Two", [b], uses: 5, last: 20)])
        #expect(changed.suggestions(for: "coll").map(\.contact.rawValue) == ["2", "1"])
        #expect(changed.suggestions(for: "coll") == changed.suggestionsByScanning(for: "coll"))
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

    /// A contact's rows: its preferred address first (by `pref`, in any
    /// place of the card), then the others in the card's order; the same
    /// order in the overlay, and for a typed name's best row.
    @Test(arguments: [
        ([nil, 1, nil] as [Int?], ["b@p.example", "a@p.example", "c@p.example"]),
        ([nil, nil, 1], ["c@p.example", "a@p.example", "b@p.example"]),
        ([3, 2, 2], ["b@p.example", "a@p.example", "c@p.example"]),
        ([nil, nil, nil], ["a@p.example", "b@p.example", "c@p.example"]),
        ([1, nil, nil], ["a@p.example", "b@p.example", "c@p.example"]),
    ])
    func thePreferredAddressComesFirst(prefs: [Int?], expected: [String]) {
        let emails = zip(["a@p.example", "b@p.example", "c@p.example"], prefs).map { ContactEmail(address: $0, pref: $1) }
        let pat = Contact(id: ContactID("p"), displayName: "Pat Pref", emails: emails)
        let book = ContactDirectory([pat, person("q", "Pat Other", ["q@p.example"])])
        #expect(book.suggestions(for: "pat pref").map { $0.address ?? "" } == expected)
        #expect(book.suggestions(for: "pat pref") == book.suggestionsByScanning(for: "pat pref"))
        let changed = book.updating([pat])
        #expect(changed.suggestions(for: "pat pref").map { $0.address ?? "" } == expected)
        #expect(changed.suggestions(for: "pat pref") == changed.suggestionsByScanning(for: "pat pref"))
    }

    /// Uses recorded out of order (two devices' records merged) count as
    /// old as they are: the same uses in any order give the same score.
    @Test(arguments: [71, 72, 73] as [UInt64])
    func usesInAnyOrderGiveTheSameScore(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let day = 24.0 * 3600
        let times = (0..<12).map { _ in Double(rng.next() % 400) * day }
        var inOrder = ContactUsage(), shuffled = ContactUsage()
        for t in times.sorted() { inOrder = inOrder.recordingUse(at: t) }
        for t in times.shuffled(using: &rng) { shuffled = shuffled.recordingUse(at: t) }
        let now = 500 * day
        let expected = times.reduce(0.0) { $0 + halving((now - $1) / ContactUsage.defaultHalfLife) }
        #expect(abs(inOrder.score(at: now) - expected) < 1e-9 * max(1, expected))
        #expect(abs(shuffled.score(at: now) - expected) < 1e-9 * max(1, expected))
        #expect(shuffled.last == times.max() && shuffled.count == times.count)
    }

    /// One use now outranks three from 120 days ago (1 > 3·2^(−4)),
    /// whichever was recorded first.
    @Test func anOldUseRecordedLateCountsAsOld() {
        let now = 120.0 * 24 * 3600
        var late = ContactUsage().recordingUse(at: now)
        for _ in 0..<3 { late = late.recordingUse(at: 0) }
        let recent = ContactUsage().recordingUse(at: now).recordingUse(at: now)
        let book = ContactDirectory([
            Contact(id: ContactID("jose"), displayName: "José Ortiz", emails: [ContactEmail(address: "jose@x.org")], usage: late),
            Contact(id: ContactID("wide"), displayName: "Johann Wide", emails: [ContactEmail(address: "wide@x.org")], usage: recent),
        ])
        #expect(book.suggestions(for: "jo").map(\.contact.rawValue) == ["wide", "jose"])
    }

    /// A mailbox two contacts share is shown once, by the better row, with
    /// the best name: a row without a name gives way to the best row of
    /// the same mailbox that has one.
    @Test func aSharedMailboxKeepsTheBestName() {
        let book = ContactDirectory([
            person("a", nil, ["bob@shared.example"], uses: 2, last: 10),
            person("b", "Bob Builder", ["BOB@shared.example"]),
            person("c", "Bob Other", ["bob@shared.example"], uses: 1, last: 10),
            person("d", nil, ["solo@shared.example"]),
        ])
        let s = book.suggestions(for: "shared")
        #expect(s.map(\.contact.rawValue) == ["c", "d"])
        #expect(s.map(\.name) == ["Bob Other", nil])
        #expect(s == book.suggestionsByScanning(for: "shared"))
        // A named contact updated into the overlay lends its name too.
        let changed = ContactDirectory([person("a", nil, ["bob@shared.example"], uses: 2, last: 10)])
            .updating([person("e", "Bob Late", ["bob@shared.example"])])
        #expect(changed.suggestions(for: "shared").map(\.contact.rawValue) == ["e"])
        #expect(changed.suggestions(for: "shared").map(\.name) == ["Bob Late"])
        #expect(changed.suggestions(for: "shared") == changed.suggestionsByScanning(for: "shared"))
    }

    /// Equal class, usage and name: the contact's id decides.
    @Test func theIdBreaksTheLastTie() {
        let book = ContactDirectory([
            person("m", "Sam Same", ["m@x.org"]), person("c", "Sam Same", ["c@x.org"]),
            person("x", "Sam Same", ["x@x.org"]), person("a", "Sam Same", ["a@x.org"]),
        ])
        #expect(book.suggestions(for: "sam").map(\.contact.rawValue) == ["a", "c", "m", "x"])
        #expect(book.suggestionsByScanning(for: "sam").map(\.contact.rawValue) == ["a", "c", "m", "x"])
    }

    /// Only a row that makes a chip is offered: an address, or a list with
    /// members. Phone-only and company-only contacts, and lists without
    /// members, are in the directory but never suggested.
    @Test func onlyContactsThatCanBecomeAChipAreSuggested() {
        let book = ContactDirectory([
            person("1", "Jo Mail", ["jo@mail.example"]),
            Contact(id: ContactID("2"), displayName: "Jo Phone", phones: ["+33 1 23 45 67 89"]),
            Contact(id: ContactID("3"), kind: .org, displayName: "Jo Company", organization: "Jo Company"),
            Contact(id: ContactID("4"), kind: .group, displayName: "Jo List", members: ["jo@mail.example"]),
            Contact(id: ContactID("5"), kind: .group, displayName: "Jo Empty List"),
        ])
        for query in ["jo", "j", "jo c", "jo phone", "\"jo p\""] {
            let ids = book.suggestions(for: query, limit: 10).map(\.contact.rawValue)
            #expect(ids.allSatisfy { ["1", "4"].contains($0) }, "\(query)")
            #expect(book.suggestionsByScanning(for: query, limit: 10).map(\.contact.rawValue) == ids, "\(query)")
        }
        #expect(Set(book.suggestions(for: "jo").map(\.contact.rawValue)) == ["1", "4"])
        // Still contacts of the directory.
        #expect(book.contact(ContactID("2"))?.phones == ["+33 1 23 45 67 89"])
        #expect(book.updating([]).suggestions(for: "jo phone").isEmpty)
        #expect(ContactDirectory([]).updating(book.contacts).suggestions(for: "jo phone").isEmpty)
    }

    /// Uses are per mailbox: a person who always writes to a contact's
    /// second address sees it first; the contact ranks by its most used
    /// row; a contact's own record applies to all its rows.
    @Test func usesOfOneAddressRankItsRowFirst() {
        var ann = person("ann", "Ann Lee", ["ann@home.example", "ann@work.example"])
        let bob = person("bob", "Anna Bell", ["anna@bell.example"], uses: 2, last: 100)
        var book = ContactDirectory([ann, bob])
        #expect(book.suggestions(for: "ann").map(\.address) == ["anna@bell.example", "ann@home.example", "ann@work.example"])
        for t in [10.0, 20, 30] { book = book.recordingUse(of: ContactID("ann"), address: "Ann@Work.example", at: t) }
        #expect(book.contact(ContactID("ann"))?.emails[1].usage.count == 3)
        #expect(book.contact(ContactID("ann"))?.usage.count == 0)
        // Three uses at 10-30 outweigh two at 100 (a 30-day half-life).
        #expect(book.suggestions(for: "ann").map(\.address) == ["ann@work.example", "ann@home.example", "anna@bell.example"])
        #expect(book.suggestions(for: "ann") == book.suggestionsByScanning(for: "ann"))
        #expect(book.suggestions(for: "ann") == ContactDirectory(book.contacts).suggestions(for: "ann"))
        // An address the contact does not have is a use of the contact.
        let other = book.recordingUse(of: ContactID("bob"), address: "nobody@x.example", at: 200)
        #expect(other.contact(ContactID("bob"))?.usage.count == 3)
        // A contact's record and an address's add up.
        ann.usage = ContactUsage(count: 1, weight: 1, last: 0)
        ann.emails[1].usage = ContactUsage(count: 1, weight: 1, last: 0)
        var same = ann
        same.id = ContactID("same")
        same.usage = ContactUsage(count: 2, weight: 2, last: 0)
        same.emails = [ContactEmail(address: "same@x.example")]
        let tie = ContactDirectory([same, ann])
        #expect(RowKey(ann, email: 1, halfLife: tie.halfLife).usage == RowKey(same, email: 0, halfLife: tie.halfLife).usage)
        // Equal uses: the id breaks the tie; Ann's used address first.
        #expect(tie.suggestions(for: "ann lee", limit: 4).map(\.address)
                == ["ann@work.example", "ann@home.example", "same@x.example"])
    }

    /// An address's usage costs an unused address one reference, keeps
    /// the JSON of an address as it was, and round-trips.
    @Test func anAddressUsageIsCompactAndCodable() throws {
        #expect(MemoryLayout<ContactEmail>.stride <= 48)
        var e = ContactEmail(address: "a@x.org", types: ["work"])
        let plain = try JSONEncoder().encode(e)
        #expect(!String(decoding: plain, as: UTF8.self).contains("usage"))
        e.usage = ContactUsage(count: 2, weight: 1.5, last: 7)
        let back = try JSONDecoder().decode(ContactEmail.self, from: try JSONEncoder().encode(e))
        #expect(back == e && back.usage.count == 2)
        #expect(try JSONDecoder().decode(ContactEmail.self, from: plain) == ContactEmail(address: "a@x.org", types: ["work"]))
        #expect(e != ContactEmail(address: "a@x.org", types: ["work"]))
    }

    /// Matches inside a word, for a one-word query of three letters or
    /// more, come after every match at a word start; a lower-to-upper case
    /// change starts a word; punctuation inside a name joins its words.
    @Test(arguments: [
        ("smith", ["a", "j"], [MatchClass.firstWord, .inWord]),  // `johnsmith@x.org`
        ("email", ["p"], [.otherWord]),  // `PrimaryEmail1@`: a case change starts a word
        ("mary", ["p"], [.inWord]),  // `priMary`: no case change there
        ("rimary", ["p"], [.inWord]),
        ("obrien", ["c", "c2"], [.otherWord, .otherWord]),  // ' and ’ fold away inside a name
        ("brien", ["c", "c2"], [.otherWord, .otherWord]),  // and a word still starts after them
        ("o'brien", ["c", "c2"], [.otherWord, .otherWord]),
        ("o\u{2019}brien", ["c", "c2"], [.otherWord, .otherWord]),
        ("jeanluc", ["l"], [.fullNamePrefix]),
        ("jean-luc", ["l"], [.fullNamePrefix]),
        ("luc", ["l"], [.otherWord]),
        ("jean luc", ["l"], [.firstWord]),
        ("annemarie", ["m"], [.fullNamePrefix]),
        ("mi", [], []),  // two letters: never inside a word
        ("mit", ["a", "j"], [.inWord, .inWord]),
        ("donald", ["r"], [.otherWord]),  // `McDonald`
        ("onald", ["r"], [.inWord]),
        ("zed", [], []),  // no address: no row
    ] as [(String, [String], [MatchClass])])
    func wordStartsInsideWordsAndPunctuation(_ query: String, _ expected: [String], _ classes: [MatchClass]) {
        let book = ContactDirectory([
            person("a", "Ann Smith", ["smith@a.example"], uses: 1, last: 0),
            person("j", nil, ["johnsmith@x.org"]),
            person("p", nil, ["PrimaryEmail1@corp.example"]),
            person("c", "Conor O'Brien", ["conor@x.org"]),
            person("c2", "Conor O\u{2019}Brien", ["c2@x.org"]),
            person("l", "Jean-Luc Picard", ["jl@x.org"]),
            person("m", "Anne-Marie Duval", ["am@x.org"]),
            person("r", "Ronald McDonald", ["rm@x.org"]),
            person("z", "Zed", []),
        ])
        let s = book.suggestions(for: query, limit: 10)
        #expect(s.map(\.contact.rawValue) == expected, "\(query)")
        #expect(s.map(\.matchClass) == classes, "\(query)")
        #expect(s == book.suggestionsByScanning(for: query, limit: 10), "\(query)")
        #expect(s == ContactDirectory([]).updating(book.contacts).suggestions(for: query, limit: 10), "\(query)")
    }

    /// An in-word match is highlighted where it stands; a match across
    /// punctuation covers the punctuation.
    @Test func inWordAndJoinedMatchesAreHighlighted() {
        let book = ContactDirectory([
            person("j", "Jo Doe", ["johnsmith@x.org"]),
            person("c", "Conor O\u{2019}Brien", ["conor@x.org"]),
        ])
        let smith = book.suggestions(for: "smith")
        #expect(smith.count == 1 && smith[0].matchClass == .inWord)
        #expect(smith[0].addressMatches == [4..<9])
        let obrien = book.suggestions(for: "obrien")
        #expect(obrien[0].nameMatches == [6..<15])  // "O’Brien": the ’ is three bytes
        let brien = book.suggestions(for: "brien")
        #expect(brien[0].nameMatches == [10..<15])
    }

    static let first = ["Ann", "Anna", "Bob", "José", "Jo", "Mary", "Jon", "Zoë", "Li", "Jörg", "Anne-Marie", "Jean-Luc"]
    static let last = ["Lee", "Jones", "Ortiz", "Smith", "Stone", "Jonas", "Berg", "Li", "O'Neil", "O\u{2019}Brien", "McBride"]

    static func pick(_ a: [String], _ rng: inout SplitMix64) -> String { a[Int(rng.next() % UInt64(a.count))] }

    /// A seeded book of a few hundred people sharing few names, so that
    /// queries match many rows and ties are common.
    static func randomContact(_ i: Int, _ rng: inout SplitMix64) -> Contact {
        let f = pick(first, &rng), l = pick(last, &rng)
        let emails = (0..<Int(rng.next() % 3)).map { k in
            "\(f.lowercased()).\(l.lowercased())\(k)@\(pick(last, &rng).lowercased()).org"
        }
        let uses = Int(rng.next() % 4)
        var c = person("id\(i)", rng.next() % 10 == 0 ? nil : "\(f) \(l)", emails,
                       nick: rng.next() % 5 == 0 ? [String(f.prefix(2)).lowercased()] : [],
                       uses: uses, last: Double(rng.next() % 1000) * 3600)
        // Some addresses used on their own, some written in camel case.
        for k in c.emails.indices where rng.next() % 4 == 0 {
            c.emails[k].usage = ContactUsage(count: 1, weight: Double(rng.next() % 3 + 1), last: Double(rng.next() % 1000) * 3600)
        }
        if let e = c.emails.first, rng.next() % 4 == 0 {
            c.emails[0].address = f + l + e.address
        }
        return c
    }

    /// A query as people type them: a prefix, two words, or a phrase.
    static func randomQuery(_ rng: inout SplitMix64) -> String {
        let word = pick(first + last, &rng).lowercased()
        var query = String(word.prefix(Int(rng.next() % UInt64(word.count)) + 1))
        if rng.next() % 3 == 0 && word.count > 2 {
            // Inside a word: `ones`, `mith`, `neil`, `rien`.
            query = String(word.dropFirst(Int(rng.next() % 2) + 1).prefix(Int(rng.next() % 4) + 2))
        }
        switch rng.next() % 4 {
        case 0: query += " " + String(pick(last, &rng).lowercased().prefix(2))
        case 1: query = "\"\(pick(first, &rng).lowercased()) \(String(pick(last, &rng).lowercased().prefix(1)))\""
        default: break
        }
        return query
    }

    /// The index gives exactly what reading every contact gives, for
    /// seeded random books and queries (prefixes, several words, phrases).
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func theIndexAgreesWithAScan(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let contacts = (0..<Int(rng.next() % 300 + 50)).map { SuggestionTests.randomContact($0, &rng) }
        let book = ContactDirectory(contacts)
        for _ in 0..<TestScale.count(200, 60, "index against a scan, queries") {
            let query = SuggestionTests.randomQuery(&rng)
            let limit = Int(rng.next() % 10) + 1
            #expect(book.suggestions(for: query, limit: limit) == book.suggestionsByScanning(for: query, limit: limit),
                    "\(query)")
            #expect(book.suggestions(for: query, limit: limit).allSatisfy { book.contact($0.contact)!.canBecomeChip })
        }
    }

    /// The same on books large enough that the best rows are found from a
    /// range's blocks best rank first, not by reading the range: one- and
    /// two-letter words, words of one letter each, addresses left out,
    /// and a version with changed and removed contacts (an overlay and
    /// hidden rows).
    @Test(arguments: [31, 32, 33] as [UInt64])
    func theIndexAgreesWithAScanOnLargeBooks(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var contacts = (0..<1500).map { SuggestionTests.randomContact($0, &rng) }
        var book = ContactDirectory(contacts)
        if seed != 31 {
            var changed: [Contact] = []
            for _ in 0..<40 {
                let i = Int(rng.next() % UInt64(contacts.count))
                var c = SuggestionTests.randomContact(i, &rng)
                c.id = contacts[i].id
                contacts[i] = c
                changed.append(c)
            }
            book = book.updating(changed).removing([contacts[7].id, contacts[99].id])
        }
        let letters = Array("abcdefghijklmnoprstuvwyz")
        for _ in 0..<TestScale.count(80, 12, "large books, queries") {
            var query: String
            switch rng.next() % 4 {
            case 0: query = String(letters[Int(rng.next() % UInt64(letters.count))])
            case 1: query = "\(letters[Int(rng.next() % UInt64(letters.count))]) \(letters[Int(rng.next() % UInt64(letters.count))])"
            default: query = SuggestionTests.randomQuery(&rng)
            }
            let limit = Int(rng.next() % 12) + 1
            var excluding: Set<String> = []
            for s in book.suggestionsByScanning(for: query, limit: 6) where rng.next() % 2 == 0 {
                if let a = s.address { excluding.insert(a.uppercased()) }
            }
            #expect(book.suggestions(for: query, limit: limit, excluding: excluding)
                    == book.suggestionsByScanning(for: query, limit: limit, excluding: excluding),
                    "seed \(seed): \(query) limit \(limit) excluding \(excluding.sorted())")
        }
    }

    /// Typing a query key by key (with some backspaces) narrows within
    /// the previous matches and gives what a fresh search gives at every key.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func narrowingEqualsSearchingAfresh(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let book = ContactDirectory((0..<300).map { SuggestionTests.randomContact($0, &rng) })
        for _ in 0..<30 {
            let target = SuggestionTests.randomQuery(&rng)
            var search = SuggestionSearch(book, limit: 5)
            var typed = ""
            for ch in target {
                typed.append(ch)
                if rng.next() % 7 == 0 && !typed.isEmpty {
                    typed.removeLast()
                    #expect(search.update(typed) == book.suggestions(for: typed, limit: 5), "\(typed)")
                    typed.append(ch)
                }
                #expect(search.update(typed) == book.suggestions(for: typed, limit: 5), "\(typed)")
            }
        }
    }

    /// A directory changed by updates, removals and uses suggests exactly
    /// what one built afresh from the same contacts suggests, and holds
    /// the same contacts.
    @Test(arguments: TestScale.sample([21, 22, 23] as [UInt64], 1, "new versions of a directory, seeds"))
    func newVersionsEqualAFreshBuild(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var contacts = (0..<400).map { SuggestionTests.randomContact($0, &rng) }
        var book = ContactDirectory(contacts)
        var next = contacts.count
        for step in 0..<60 {
            switch rng.next() % 4 {
            case 0:  // add
                let c = SuggestionTests.randomContact(next, &rng)
                next += 1
                contacts.append(c)
                book = book.updating([c])
            case 1:  // change
                let i = Int(rng.next() % UInt64(contacts.count))
                var c = SuggestionTests.randomContact(i, &rng)
                c.id = contacts[i].id
                contacts.remove(at: i)
                contacts.append(c)
                book = book.updating([c])
            case 2:  // remove
                let i = Int(rng.next() % UInt64(contacts.count))
                book = book.removing([contacts[i].id])
                contacts.remove(at: i)
            default:  // use
                let i = Int(rng.next() % UInt64(contacts.count))
                let time = Double(2000 + step) * 3600
                contacts[i].usage = contacts[i].usage.recordingUse(at: time)
                let c = contacts.remove(at: i)
                contacts.append(c)
                book = book.recordingUse(of: c.id, at: time)
            }
            #expect(book.count == contacts.count)
            guard step % 4 == 3 else { continue }
            let fresh = ContactDirectory(contacts)
            for _ in 0..<10 {
                let q = SuggestionTests.randomQuery(&rng)
                #expect(book.suggestions(for: q) == fresh.suggestions(for: q), "step \(step): \(q)")
            }
        }
        #expect(Set(book.contacts.map(\.id)) == Set(contacts.map(\.id)))
        #expect(book.contacts.map { book.contact($0.id) } == book.contacts.map { $0 } as [Contact?])
        // Past 256 changes the versions fold into a full build; nothing changes.
        for _ in 0..<270 {
            let c = SuggestionTests.randomContact(next, &rng)
            next += 1
            contacts.append(c)
            book = book.updating([c])
        }
        #expect(book.overlay.contacts.count <= 256)
        let fresh = ContactDirectory(contacts)
        for _ in 0..<50 {
            let q = SuggestionTests.randomQuery(&rng)
            #expect(book.suggestions(for: q) == fresh.suggestions(for: q), "\(q)")
        }
    }

    /// Removals fold into a full build as changes do: a book of 2,000
    /// emptied one removal at a time never hides more rows than the bound
    /// (an eighth of its first index, and 256), so its memory and the
    /// rows a query steps over follow the contacts it holds; each version
    /// suggests what a fresh build of the same contacts suggests.
    @Test func removalsFoldIntoAFullBuild() {
        var rng = SplitMix64(seed: 31)
        var contacts = (0..<2_000).map { SuggestionTests.randomContact($0, &rng) }
        var book = ContactDirectory(contacts)
        var builds = 0
        while contacts.count > 10 {
            let i = Int(rng.next() % UInt64(contacts.count))
            let before = book.base.contacts.count
            book = book.removing([contacts[i].id])
            contacts.remove(at: i)
            if book.base.contacts.count != before { builds += 1 }
            #expect(book.hidden.count + book.overlay.contacts.count <= max(256, book.base.contacts.count / 8))
            #expect(book.count == contacts.count)
            guard contacts.count % 97 == 0 else { continue }
            let fresh = ContactDirectory(contacts)
            for _ in 0..<10 {
                let q = SuggestionTests.randomQuery(&rng)
                #expect(book.suggestions(for: q) == fresh.suggestions(for: q), "\(contacts.count) left: \(q)")
            }
        }
        #expect(builds >= 6)
        #expect(book.base.contacts.count <= 10 + 256)
    }

    @Test func anAddressFindsItsContact() {
        let book = ContactDirectory([
            person("a", "Ann Lee", ["ann@x.org", "a.lee@work.example"]),
            person("b", "Bob", ["bob@y.org"]),
        ])
        #expect(book.contact(forAddress: "A.Lee@Work.example")?.contact.id.rawValue == "a")
        #expect(book.contact(forAddress: "A.Lee@Work.example")?.addressIndex == 1)
        #expect(book.contact(forAddress: "nobody@x.org") == nil)
        let changed = book.updating([person("b", "Robert", ["bob@y.org"])])
        #expect(changed.contact(forAddress: "bob@y.org")?.contact.displayName == "Robert")
        #expect(changed.removing([ContactID("b")]).contact(forAddress: "bob@y.org") == nil)
    }

    /// Folding on both sides: accents, case, full-width forms, letters
    /// with strokes; scripts without spaces match any substring of a name.
    @Test(arguments: [
        ("jose", "José Ortiz", "José"),
        ("JOSÉ", "José Ortiz", "José"),
        ("muller", "Jürgen Müller", "Müller"),
        ("lukasz", "Łukasz Żółć", "Łukasz"),
        ("zolc", "Łukasz Żółć", "Żółć"),
        ("oystein", "Øystein Bråten", "Øystein"),
        ("ｏｒｔｉｚ", "José Ortiz", "Ortiz"),
        ("strasse", "Anna Straße", "Straße"),
        ("nguyen thi", "Nguyễn Thị Ánh", "Nguyễn Thị"),
        ("ελενη", "Ελένη Παπαδοπούλου", "Ελένη"),
        ("дмитрий", "Дмитрий Иванов", "Дмитрий"),
        ("伟", "张伟", "伟"),
        ("山田", "山田太郎", "山田"),
        ("太郎", "山田太郎", "太郎"),
        ("민준", "김민준", "민준"),
    ])
    func foldingMatchesAndHighlightsTheOriginal(_ query: String, _ name: String, _ highlighted: String) {
        let book = ContactDirectory([person("x", name, ["x@example.org"]), person("y", "Zed Quinn", ["z@q.example"])])
        let s = book.suggestions(for: query)
        #expect(s.map(\.contact.rawValue) == ["x"], "\(query)")
        guard let first = s.first else { return }
        let bytes = Array(name.utf8)
        let shown = first.nameMatches.map { String(decoding: bytes[$0], as: UTF8.self) }.joined(separator: " ")
        #expect(shown == highlighted, "\(query)")
    }
}

/// ASCII is folded without the tables, to its lower case with each byte
/// its own origin; it must come out as the tables fold it, bytes and
/// origins. Every ASCII byte is in the alphabet of half the cases.
@Suite("ASCII fields")
struct ASCIIFieldTests {
    /// Up to `maxLength` bytes from `alphabet`, or any ASCII when nil.
    static func randomASCII(_ rng: inout SplitMix64, _ alphabet: [UInt8]?, maxLength: Int) -> [UInt8] {
        (0..<Int(rng.next() % UInt64(maxLength + 1))).map { _ in
            alphabet.map { $0[Int(rng.next() % UInt64($0.count))] } ?? UInt8(rng.next() % 128)
        }
    }

    @Test(arguments: [41, 42, 43] as [UInt64])
    func asciiFoldsAsTheTablesFoldIt(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let common = Array("aZb9.-_+ ,'x0Q(".utf8)
        for n in 0..<3000 {
            let bytes = ASCIIFieldTests.randomASCII(&rng, n % 2 == 0 ? common : nil, maxLength: 15)
            var folded: [UInt8] = [0x7A], from: [Int32] = [0]
            var fast: [UInt8] = [0x7A], fastFrom: [Int32] = [0]
            bytes.withUnsafeBufferPointer {
                #expect(SearchIndex.isASCII($0))
                SearchFold.fold($0, into: &folded, origins: &from)
                SearchIndex.fold($0, into: &fast, origins: &fastFrom)
            }
            let shown = bytes.map { String($0, radix: 16) }.joined(separator: " ")
            #expect(fast == folded && fastFrom == from, "seed \(seed): \(shown)")
        }
    }

    /// A query of ASCII without quotes is parsed without the tables: its
    /// words, phrase, folded text and hashes must be what folding and
    /// normalizing it as any text gives.
    @Test(arguments: [48, 49] as [UInt64])
    func asciiQueriesParseAsTheTablesParseThem(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let common = Array("aZb9.-_+ \t,'x0Q(@".utf8)
        for n in 0..<3000 {
            let bytes = ASCIIFieldTests.randomASCII(&rng, n % 2 == 0 ? common : nil, maxLength: 13)
            guard !bytes.contains(0x22) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let shown = bytes.map { String($0, radix: 16) }.joined(separator: " ")
            #expect(SearchQuery(text) == SearchQuery(folding: text), "seed \(seed): \(shown)")
        }
    }

    /// A nickname is compared with a query's phrase as it is read when it
    /// is ASCII; it must answer as normalizing it first does.
    @Test(arguments: [50] as [UInt64])
    func asciiNicknamesNormalizeAsTheTablesDo(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let common = Array("aB9.- ,'x".utf8)
        for _ in 0..<3000 {
            let name = String(decoding: (0..<Int(rng.next() % 9)).map { _ in common[Int(rng.next() % UInt64(common.count))] }, as: UTF8.self)
            let other = String(decoding: (0..<Int(rng.next() % 9)).map { _ in common[Int(rng.next() % UInt64(common.count))] }, as: UTF8.self)
            for phrase in [SearchIndex.normalizedQuery(name), SearchIndex.normalizedQuery(other)] {
                #expect(SearchIndex.normalizes(name, to: phrase) == (SearchIndex.normalizedQuery(name) == phrase), "\(name) / \(other)")
            }
        }
    }

    /// A shown field is folded on the stack when it fits: the bytes and
    /// origins must be those folding into arrays makes, and a text that
    /// folds to more than the room (U+FDFA folds to 33 bytes) must say so.
    @Test(arguments: [56, 57] as [UInt64])
    func foldingIntoHeldMemoryIsFoldingIntoArrays(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = ["a", "É", "ß", "李", "ω", "İ", "\u{A0}", " ", "ﬁ", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{FDFA}", "\u{FFFD}"]
        var sawTooSmall = false, sawFit = false
        for _ in 0..<3000 {
            var bytes = Array((0..<Int(rng.next() % 12)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined().utf8)
            if rng.next() % 4 == 0, !bytes.isEmpty { bytes[Int(rng.next() % UInt64(bytes.count))] = 0xC3 }  // broken UTF-8
            var folded: [UInt8] = [], from: [Int32] = []
            bytes.withUnsafeBufferPointer { SearchFold.fold($0, into: &folded, origins: &from) }
            let capacity = SearchFold.foldCapacity(bytes.count)
            let out = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            let origins = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            defer { out.deallocate(); origins.deallocate() }
            let n = bytes.withUnsafeBufferPointer { SearchFold.fold($0, into: out, origins: origins, capacity: capacity) }
            let shown = bytes.map { String($0, radix: 16) }.joined(separator: " ")
            if let n {
                sawFit = true
                #expect(Array(UnsafeBufferPointer(start: out, count: n)) == folded, "seed \(seed): \(shown)")
                #expect(Array(UnsafeBufferPointer(start: origins, count: n)) == from, "seed \(seed): \(shown)")
            } else {
                sawTooSmall = true
                #expect(folded.count > capacity - 37, "seed \(seed): \(shown) said too small for \(folded.count) bytes")
            }
        }
        #expect(sawFit && sawTooSmall)
    }

    /// A shown field's highlight looks where a query word's first byte
    /// stands in its bytes (ASCII) or its folded bytes (other text),
    /// without normalizing them; it must find what the walk over the
    /// folded, normalized field finds.
    ///
    /// Seed 49 leaves out conjoining jamo, which the others mix in, so
    /// that its fields fold scalar by scalar, without composing.
    @Test(arguments: [44, 45, 46, 47, 49] as [UInt64])
    func highlightsAreWhereTheNormalizedTextMatches(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let ascii = seed % 2 == 0
        let jamo = seed == 49 ? [] : ["\u{1100}", "\u{1161}", "\u{11A8}"]
        let alphabet: [String] = ascii
            ? "aAb9.-_+ ,'x0Q(".map(String.init)
            : ["a", "A", "é", "ß", "S", "李", "明", "Ω", "ω", "İ", "\u{A0}", " ", ".", "9", "x", "ﬁ", "Ø", "-", "\u{301}",
                "\u{FDFA}", "Ａ", "\u{AD}", "ǅ", "٣"] + jamo
        let wordAlphabet: [String] = ascii ? "ab9x0q ".map(String.init) : ["a", "e", "s", "ss", "李", "明", "ω", "i", "x", "9", "fi", "o", " "]
        var t = RowText()
        for _ in 0..<3000 {
            let text = (0..<Int(rng.next() % 10)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let bytes = Array(text.utf8)
            let kinds: [FieldKind] = [.displayName, .localPart, .domain]
            let kind = kinds[Int(rng.next() % 3)]
            var words: [[UInt8]] = []
            for _ in 0..<Int(rng.next() % 3 + 1) {
                let w = (0..<Int(rng.next() % 4 + 1)).map { _ in wordAlphabet[Int(rng.next() % UInt64(wordAlphabet.count))] }.joined()
                // A query word is normalized: no space at either end, none doubled.
                let normalized = SearchIndex.normalizedQuery(w)
                if !normalized.isEmpty { words.append(normalized) }
            }
            var fast: [Range<Int>] = [], general: [Range<Int>] = []
            var fastAnywhere: [Range<Int>] = [], generalAnywhere: [Range<Int>] = []
            bytes.withUnsafeBufferPointer { field in
                SearchIndex.matches(of: words, in: field, kind, base: 3, into: &fast)
                SearchIndex.matches(of: words, in: field, kind, base: 3, anywhere: true, into: &fastAnywhere)
                t.removeAll()
                t.add(field, kind)
                func range(_ s: Int, _ word: [UInt8]) -> Range<Int> {
                    let last = Int(t.origins[s + word.count - 1])
                    let b = field[last]
                    let end = last + (b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1)
                    return (Int(t.origins[s]) + 3)..<(min(end, field.count) + 3)
                }
                for k in t.starts.indices {
                    for word in words where t.start(k, startsWith: word) { general.append(range(Int(t.starts[k]), word)) }
                }
                // Anywhere: every scalar start of the normalized text (not
                // a space) where the word stands.
                for s in t.text.indices where t.text[s] & 0xC0 != 0x80 && t.text[s] != 0x20 {
                    for word in words where t.text.count - s >= word.count && t.text[s..<(s + word.count)].elementsEqual(word) {
                        generalAnywhere.append(range(s, word))
                    }
                }
            }
            func sortedRanges(_ r: [Range<Int>]) -> [Range<Int>] { r.sorted { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) } }
            #expect(sortedRanges(fastAnywhere) == sortedRanges(generalAnywhere),
                    "anywhere, seed \(seed): \(text.debugDescription) \(kind) \(words.map { String(decoding: $0, as: UTF8.self) })")
            // The fast walk reports word by word, the general one place by
            // place: the same ranges, each as often.
            func order(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                (a.lowerBound, a.upperBound) < (b.lowerBound, b.upperBound)
            }
            #expect(
                fast.sorted(by: order) == general.sorted(by: order),
                "seed \(seed): \(text.debugDescription) \(kind) \(words.map { String(decoding: $0, as: UTF8.self) })")
        }
    }

    /// Address keys hash the folded address; an ASCII one is hashed in
    /// lower case without folding, which must be the same.
    @Test func foldedHashesAreTheHashesOfTheFoldedText() {
        for b in 0..<128 {
            let s = String(decoding: [UInt8(b)], as: UTF8.self)
            let lower = UInt8(b) &- 0x41 < 26 ? UInt8(b) | 0x20 : UInt8(b)
            #expect(SearchFold.fold(s) == [lower], "byte \(b)")
        }
        var rng = SplitMix64(seed: 46)
        let pieces = ["Ann", "@", "X.ORG", "é", "ß", "İ", "-", "+", "Ω", "9"]
        for _ in 0..<500 {
            let s = (0..<Int(rng.next() % 6)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            #expect(SearchIndex.foldedHash(s) == SearchIndex.hash(SearchFold.fold(s)), "\(s)")
        }
    }

    @Test func nonASCIIIsSeenInEveryLane() {
        for length in 1..<20 {
            for at in 0..<length {
                var bytes = [UInt8](repeating: 0x61, count: length)
                bytes[at] = 0xC3
                bytes.withUnsafeBufferPointer { #expect(!SearchIndex.isASCII($0), "\(length) \(at)") }
            }
        }
    }
}

/// A row is exact for a query when the query is its address (folded) or
/// one of its nicknames (folded and normalized); the index answers that
/// from its own text, and must answer as the definition does.
@Suite("Exact rows")
struct ExactRowTests {
    /// A nickname's key names all its contact's rows and an address's key
    /// one row; when both are the query (an address without `@` equal to
    /// the nickname) the rows are listed once each, in rank order, and the
    /// later address adds nothing.
    @Test(arguments: [
        ["robert@x.org", "bob", "r@y.org"], ["bob", "robert@x.org"], ["robert@x.org", "BOB"], ["bob"],
    ])
    func aNicknameThatIsAlsoAnAddressListsEachRowOnce(_ emails: [String]) {
        let book = ContactDirectory([
            person("1", "Robert", emails, nick: ["Bob"]), person("2", "Bobby Tables", ["bobby@x.org"]),
        ])
        let s = book.suggestions(for: "bob")
        #expect(s.prefix(emails.count).map(\.address) == emails)
        #expect(s.prefix(emails.count).allSatisfy { $0.matchClass == .exact })
        #expect(s.dropFirst(emails.count).map(\.contact.rawValue) == ["2"])
        #expect(book.suggestions(for: "bob") == book.suggestionsByScanning(for: "bob"))
        let bob = emails.firstIndex { $0.lowercased() == "bob" }
        #expect(book.contact(forAddress: "Bob")?.addressIndex == bob)
    }

    @Test(arguments: TestScale.sample([51, 52] as [UInt64], 1, "exact rows, seeds"))
    func exactRowsAreTheAddressesAndNicknamesTheQueryIs(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let contacts = (0..<300).map { SuggestionTests.randomContact($0, &rng) }
        let index = ContactDirectory(contacts).base
        var queries = contacts.flatMap { c in c.nicknames + c.emails.map(\.address) }
        queries += ["JO", " jo ", "\"jo\"", "jo x", "zz"]
        for text in queries {
            let q = SearchQuery(text)
            var exactRows: [Int32] = []  // in rank order: the rows' order
            for row in 0..<Int32(index.rows.count) {
                let r = index.rows[Int(row)]
                let c = index.contacts[Int(r.contact)]
                let expected = (r.email >= 0 && SearchFold.fold(c.emails[Int(r.email)].address) == q.folded)
                    || c.nicknames.contains { SearchIndex.normalizedQuery($0) == q.phrase }
                #expect(index.isExact(row, q) == expected, "seed \(seed): \(text) row \(row)")
                var t = RowText(index, row: row)
                #expect(t.isExact(index, row: row, q) == expected, "seed \(seed): \(text) row \(row), from the row's text")
                if expected { exactRows.append(row) }
            }
            let hits = index.allExactHits(q).map(\.row)
            let expected = exactRows
            #expect(hits == expected, "seed \(seed): \(text)")
        }
    }
}

/// The fuzz target's suggestion check on seeded books of lines: names in
/// several scripts with separators, nicknames, and addresses that share
/// their parts, as the fuzzer makes them.
@Suite("Suggestions of arbitrary lines")
struct LineBookTests {
    @Test(arguments: [61, 62, 63, 64] as [UInt64])
    func theIndexAgreesWithAScanOnBooksOfLines(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let parts = ["Ann", "ann", "Anna", "Jo", "José", "Ørsted", "Straße", "李", "李明", "Ó", "o'n", "N", "x.y", "a-b", "Ωμέγα", "x@y.org", "ann@x.org", "ANN@X.ORG", "\"q\"", "1985", "ß"]
        var lines: [String] = []
        for _ in 0..<Int(rng.next() % 40 + 5) {
            var fields: [String] = []
            for _ in 0..<Int(rng.next() % 5) {
                let words = (0..<Int(rng.next() % 3 + 1)).map { _ in parts[Int(rng.next() % UInt64(parts.count))] }
                fields.append(words.joined(separator: rng.next() % 4 == 0 ? "." : " "))
            }
            lines.append(fields.joined(separator: "|"))
        }
        let contacts = ContactCorpus.contacts(fromLines: Array(lines.joined(separator: "\n").utf8))
        #expect(ContactCorpus.suggestionViolations(of: contacts, extraQueries: ["a", "o n", "\"ann x\"", "ß", "ss"]) == [],
                "seed \(seed)")
    }
}
