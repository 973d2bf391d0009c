import Testing
import ChipTestSupport
import ChipDirectoryTestSupport
@testable import ChipDirectory

/// What each version's specification writes, now that a contact keeps its
/// phones and its declared VERSION and need not have an address.
@Suite("vCard: phones, organizations and agents as the specifications write them")
struct VCardVersionTableTests {
    @Test(arguments: [
        // vCard 2.1 specification: bare types, an AGENT card on the following lines.
        ("2.1", """
            N:Public;John;Quinlan;Mr.;Esq.
            TEL;WORK;VOICE;MSG:+1 (919) 555-1234
            TEL;CELL:+1 (919) 554-6758
            AGENT:
            BEGIN:VCARD
            VERSION:2.1
            N:Friday;Fred
            TEL;WORK;VOICE:+1-213-555-1234
            EMAIL;INTERNET:fred@example.com
            END:VCARD
            ORG:ABC Company;North American Division
            """, "Mr. John Quinlan Public Esq.", ["+1 (919) 555-1234", "+1 (919) 554-6758"], "ABC Company"),
        // RFC 2426 §3.3.1 and §3.5.4: a TEL with types, the AGENT as an escaped value.
        ("3.0", """
            FN:Frank Dawson
            N:Dawson;Frank;;;
            TEL;TYPE=work,voice,pref,msg:+1-213-555-1234
            AGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nTEL:+1-919-555-1234\\nEMAIL\\;INTERNET:sthomas@host.com\\nEND:VCARD\\n
            ORG:ABC\\, Inc.;North American Division;Marketing
            """, "Frank Dawson", ["+1-213-555-1234"], "ABC, Inc."),
        // RFC 6350 §6.4.1 and §6.6.4: tel: URIs; an organization's card without N.
        ("4.0", """
            KIND:org
            FN:ABC Marketing
            TEL;VALUE=uri;PREF=1;TYPE="voice,home":tel:+1-555-555-5555;ext=5555
            TEL;VALUE=uri;TYPE=home:tel:+33-01-23-45-67
            ORG:ABC\\, Inc.;North American Division;Marketing
            """, "ABC Marketing", ["+1-555-555-5555;ext=5555", "+33-01-23-45-67"], "ABC, Inc."),
    ])
    func phonesOrganizationsAndAgents(_ version: String, _ body: String, _ name: String, _ phones: [String],
                                      _ organization: String)
    {
        let result = importVCard("BEGIN:VCARD\nVERSION:\(version)\n\(body)\nEND:VCARD\n")
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        guard let c = result.contacts.first, result.contacts.count == 1 else {
            Issue.record("\(version): \(result.contacts.count) contacts")
            return
        }
        // The agent's name, phone and address never become the card's.
        #expect(c.displayName == name)
        #expect(c.phones == phones)
        #expect(c.emails.isEmpty)
        #expect(c.organization == organization)
        #expect(c.declaredVersion == version)
        #expect(c.source.rawValue == version)
    }

    /// RFC 6350 §8's card: its phones, without the `tel:` scheme.
    @Test func rfc6350ExampleKeepsItsPhones() {
        let c = importVCard(VCardRFCExampleTests.rfc6350Example).contacts.first
        #expect(c?.phones == ["+1-418-656-9254;ext=102", "+1-418-262-6501"])
        #expect(c?.declaredVersion == "4.0")
    }
}

/// One row per repair rule: the contact kept, and the warning at its line.
@Suite("vCard: lenient repairs, one rule each")
struct VCardRepairRuleTests {
    struct Row: CustomStringConvertible, Sendable {
        var rule: String
        var text: String
        /// Display names of the contacts ("" for none).
        var names: [String]
        /// `line: reason` of each problem.
        var problems: [String]
        /// Whether the problems skip their card (an empty card's).
        var skips = false
        var description: String { rule }
    }

    static let rows: [Row] = [
        Row(rule: "no VERSION", text: "BEGIN:VCARD\nFN:Ann\nEMAIL:ann@x.org\nEND:VCARD\n", names: ["Ann"], problems: []),
        Row(rule: "unknown VERSION", text: "BEGIN:VCARD\nVERSION:9.9\nFN:Ann\nEND:VCARD\n", names: ["Ann"],
            problems: ["2: unknown VERSION '9.9'; the card is read as vCard 3.0"]),
        Row(rule: "no final END", text: "BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEMAIL:ann@x.org\n", names: ["Ann"],
            problems: ["1: no END:VCARD before the end of the file; the card ends there"]),
        Row(rule: "BEGIN inside a card",
            text: "BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nBEGIN:VCARD\nVERSION:3.0\nFN:Bo\nEND:VCARD\n", names: ["Ann", "Bo"],
            problems: ["1: no END:VCARD before the BEGIN:VCARD on line 4; the card ends there"]),
        Row(rule: "a colon-less line", text: "BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nNOTE:one\ntwo\nEND:VCARD\n",
            names: ["Ann"], problems: ["5: line 5 has no ':' (not a property); skipped"]),
        Row(rule: "2.1 AGENT", text: """
            BEGIN:VCARD\nVERSION:2.1\nN:Lee;Ann\nAGENT:\nBEGIN:VCARD\nVERSION:2.1\nN:Agent;Bo\nEMAIL:bo@x.org
            END:VCARD\nEMAIL:ann@x.org\nEND:VCARD\nBEGIN:VCARD\nVERSION:2.1\nN:Next\nEND:VCARD\n
            """, names: ["Ann Lee", "Next"], problems: []),
        Row(rule: "2.1 AGENT whose END was lost", text: """
            BEGIN:VCARD\nVERSION:2.1\nN:Lee;Ann\nEMAIL:ann@x.org\nAGENT:\nBEGIN:VCARD\nN:Agent;Bo
            BEGIN:VCARD\nVERSION:2.1\nN:Next\nEND:VCARD\n
            """, names: ["Ann Lee", "Next"],
            problems: ["1: no END:VCARD before the BEGIN:VCARD on line 8; the card ends there"]),
        Row(rule: "3.0 AGENT", text: """
            BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nAGENT:BEGIN:VCARD\\nFN:Bo\\nEMAIL:bo@x.org\\nEND:VCARD\\n\nEND:VCARD\n
            """, names: ["Ann"], problems: []),
        Row(rule: "unknown CHARSET", text: "BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=x-nope:Zoë\nEND:VCARD\n",
            names: ["Zoë"], problems: ["3: unknown charset 'x-nope'; the value is read as UTF-8"]),
        Row(rule: "QP soft break before the next BEGIN", text: """
            BEGIN:VCARD\nVERSION:2.1\nFN;QUOTED-PRINTABLE:Ann=\nBEGIN:VCARD\nVERSION:2.1\nFN:Bo\nEND:VCARD\n
            """, names: ["Ann", "Bo"],
            problems: ["1: no END:VCARD before the BEGIN:VCARD on line 4; the card ends there"]),
        Row(rule: "bad quoted-printable", text: "BEGIN:VCARD\nVERSION:2.1\nN:Lee\nFN;QUOTED-PRINTABLE:A=ZZ\nEND:VCARD\n",
            names: ["Lee"], problems: ["4: bad quoted-printable '=ZZ' on line 4; the property is dropped"]),
        Row(rule: "bad base64", text: "BEGIN:VCARD\nVERSION:3.0\nN:Lee;;;;\nFN;ENCODING=b:!!\nEND:VCARD\n",
            names: ["Lee"], problems: ["4: bad base64 on line 4; the property is dropped"]),
        Row(rule: "EMAIL Name <addr> names a card without one",
            text: "BEGIN:VCARD\nVERSION:3.0\nEMAIL:John Smith <john@example.com>\nEND:VCARD\n",
            names: ["John Smith"], problems: []),
        Row(rule: "EMAIL that is not an address",
            text: "BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEMAIL:ann at home\nEND:VCARD\n", names: ["Ann"],
            problems: ["4: EMAIL on line 4: 'ann at home' is not an e-mail address; dropped"]),
        Row(rule: "empty EMAIL", text: "BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEMAIL:\nEND:VCARD\n", names: ["Ann"], problems: []),
        Row(rule: "organization only", text: "BEGIN:VCARD\nVERSION:3.0\nORG:Acme;Sales\nEND:VCARD\n", names: ["Acme"],
            problems: []),
        Row(rule: "phone only", text: "BEGIN:VCARD\nVERSION:4.0\nTEL:tel:+1-555-0100\nEND:VCARD\n",
            names: ["+1-555-0100"], problems: []),
        Row(rule: "nickname only", text: "BEGIN:VCARD\nVERSION:3.0\nNICKNAME:Bobby\nEND:VCARD\n", names: ["Bobby"],
            problems: []),
        Row(rule: "other data only", text: "BEGIN:VCARD\nVERSION:3.0\nNOTE:call back\nEND:VCARD\n", names: [""],
            problems: []),
        Row(rule: "nothing but identity",
            text: "BEGIN:VCARD\nVERSION:3.0\nPRODID:-//X//EN\nUID:1\nREV:2024\nFN:\nEND:VCARD\n", names: [],
            problems: ["1: no name, address, phone or other data (an empty card); skipped"], skips: true),
        Row(rule: "empty input", text: "", names: [], problems: []),
        Row(rule: "only blank lines and a byte order mark", text: "\u{FEFF}\n  \n\n", names: [], problems: []),
    ]

    @Test(arguments: rows)
    func rule(_ row: Row) {
        let result = importVCard(row.text)
        #expect(result.contacts.map { $0.displayName ?? "" } == row.names)
        #expect(described(result.problems) == row.problems)
        #expect(result.problems.allSatisfy { $0.isWarning }, "a repair is a warning")
        #expect(result.problems.allSatisfy { $0.skipsRecord == row.skips })
    }

    @Test func noVersionIsDeclaredNilAndReadLeniently() {
        let c = importVCard("BEGIN:VCARD\nFN:Ann\nN:Lee;Ann,Marie;;;\nEND:VCARD\n").contacts.first
        #expect(c?.declaredVersion == nil)
        #expect(c?.source == .vCard30)
        #expect(c?.name.given == ["Ann", "Marie"])
        #expect(importVCard("BEGIN:VCARD\nVERSION:9.9\nFN:Ann\nEND:VCARD\n").contacts.first?.declaredVersion == "9.9")
    }

    @Test func severalAddressesShareTypesAndPreference() {
        let c = importVCard("BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEMAIL;TYPE=work,pref:a@x.org; b@x.org\nEND:VCARD\n")
            .contacts.first
        #expect(c?.emails == [ContactEmail(address: "a@x.org", types: ["work"], pref: 1),
                              ContactEmail(address: "b@x.org", types: ["work"], pref: 1)])
        // The card's own name wins over the address's.
        let named = importVCard("BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEMAIL:Someone Else <a@x.org>\nEND:VCARD\n")
        #expect(named.contacts.first?.displayName == "Ann")
    }

    @Test func androidNicknames() {
        let c = importVCard("""
            BEGIN:VCARD\nVERSION:2.1\nN:Jones;Robert\n\
            X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Bobby;1;;;;;;;;;;;;;\n\
            X-ANDROID-CUSTOM;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:vnd.android.cursor.item/nickname;R=C3=B6b;1;;;;;;;;;;;;;\n\
            X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;Alice;1;;;;;;;;;;;;;\nEND:VCARD\n
            """).contacts.first
        #expect(c?.nicknames == ["Bobby", "Röb"])
    }

    @Test func appleGroupMembersByABUID() {
        let result = importVCard("""
            BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEMAIL:ann@x.org\nX-ABUID:AAAA-1111\\:ABPerson\nEND:VCARD
            BEGIN:VCARD\nVERSION:3.0\nFN:Bo\nEMAIL:bo@x.org\nUID:bbbb-2222\nX-ABUID:BBBB-2222:ABPerson\nEND:VCARD
            BEGIN:VCARD\nVERSION:3.0\nFN:Team\nX-ADDRESSBOOKSERVER-KIND:group
            X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:aaaa-1111
            X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:AAAA-1111:ABPerson
            X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:bbbb-2222
            X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:CCCC-3333\nEND:VCARD\n
            """)
        let ann = result.contacts.first?.id.rawValue ?? "?"
        #expect(result.contacts.last?.members == [
            "urn:uuid:\(ann)", "urn:uuid:\(ann)", "urn:uuid:bbbb-2222", "urn:uuid:CCCC-3333",
        ])
    }
}

/// The committed samples damaged at random in the ways the lenient reader
/// repairs: no card that holds a name or an address is lost, and every
/// problem is a warning; strictly, skipping a card with an address is an
/// error.
@Suite("vCard: damaged samples")
struct VCardDamageTests {
    static let samples = ["icloud.vcf", "android.vcf", "nextcloud.vcf", "repairs.vcf", "sample-2.1.vcf",
                          "sample-3.0.vcf", "sample.vcf"]

    static func lines(of bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var current: [UInt8] = []
        for b in bytes {
            current.append(b)
            if b == 0x0A {
                out.append(current)
                current = []
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func text(_ line: [UInt8]) -> String {
        String(decoding: line.filter { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
    }

    /// Applies one damage of the repaired classes, or none when the sample
    /// has no place for it.
    static func damage(_ lines: inout [[UInt8]], _ rng: inout SplitMix64) -> String {
        func indices(_ where: (String) -> Bool) -> [Int] { lines.indices.filter { `where`(text(lines[$0])) } }
        switch rng.below(4) {
        case 0:
            let ends = indices { $0.uppercased() == "END:VCARD" }
            guard !ends.isEmpty else { return "none" }
            let k = ends[rng.below(ends.count)]
            lines.remove(at: k)
            return "END dropped at \(k + 1)"
        case 1:
            let places = indices { !$0.uppercased().hasPrefix("AGENT:") }
            guard !places.isEmpty else { return "none" }
            let k = places[rng.below(places.count)] + 1
            lines.insert(Array("a line an editor wrapped\r\n".utf8), at: k)
            return "colon-less line at \(k + 1)"
        case 2:
            let versions = indices { $0.uppercased().hasPrefix("VERSION:") }
            guard !versions.isEmpty else { return "none" }
            let k = versions[rng.below(versions.count)]
            lines.remove(at: k)
            return "VERSION dropped at \(k + 1)"
        default:
            let qp = indices { $0.uppercased().contains("QUOTED-PRINTABLE:") }
            guard !qp.isEmpty else { return "none" }
            let k = qp[rng.below(qp.count)]
            var line = lines[k].filter { $0 != 0x0D && $0 != 0x0A }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon + 1 < line.count else { return "none" }
            line.removeSubrange((colon + 1 + rng.below(line.count - colon))...)
            lines[k] = line + [0x0D, 0x0A]
            return "QP value cut at \(k + 1)"
        }
    }

    @Test(arguments: samples)
    func damagedSamplesKeepEveryNamedCard(_ name: String) {
        guard let clean = readFile(ChipTestSupport.packageRoot() + "/Corpus/contacts/" + name) else {
            Issue.record("cannot read \(name)")
            return
        }
        let original = ContactImporter.import(clean)
        var rng = SplitMix64(seed: 0xC0FFEE &+ UInt64(name.utf8.count))
        for round in 0..<TestScale.count(60, 15, "damaged vCard samples, rounds") {
            var lines = Self.lines(of: clean)
            var done: [String] = []
            for _ in 0..<(1 + rng.below(3)) { done.append(Self.damage(&lines, &rng)) }
            let bytes = lines.flatMap { $0 }
            let lenient = ContactImporter.import(bytes)
            let context = "\(name) round \(round): \(done)"
            // Each damage keeps every card: none merges two or loses one.
            #expect(lenient.contacts.count == original.contacts.count, "\(context): \(described(lenient.problems))")
            for (before, after) in zip(original.contacts, lenient.contacts)
                where before.displayName != nil || !before.emails.isEmpty
            {
                #expect(after.displayName != nil || !after.emails.isEmpty, "\(context): line \(after.line)")
            }
            #expect(lenient.problems.allSatisfy { $0.isWarning }, "\(context): \(described(lenient.problems))")
            let strict = ContactImporter.import(bytes, options: ContactImportOptions(strict: true))
            let withAddress = Set(lenient.contacts.filter { !$0.emails.isEmpty }.map(\.line))
            for p in strict.problems where p.skipsRecord && withAddress.contains(p.line) {
                #expect(!p.isWarning, "\(context): strict skip of a card with an address is an error: \(p)")
            }
            #expect(ContactCorpus.importViolations(of: bytes).isEmpty, "\(context)")
        }
    }
}
