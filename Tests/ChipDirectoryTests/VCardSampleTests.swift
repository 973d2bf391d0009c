import Testing
import ChipTestSupport
@testable import ChipDirectory

/// The hand-written samples of `Corpus/contacts/` in the shapes real
/// exporters write (Apple/iCloud, Android, Nextcloud), and one card per
/// repair rule: every contact and every warning.
@Suite("vCard: exporters' samples")
struct VCardSampleTests {
    static func sample(_ name: String, strict: Bool = false) -> ContactImportResult {
        let path = ChipTestSupport.packageRoot() + "/Corpus/contacts/" + name
        guard let bytes = readFile(path) else {
            Issue.record("cannot read \(path)")
            return ContactImportResult(format: .unknown, textEncoding: "")
        }
        return ContactImporter.import(bytes, options: ContactImportOptions(strict: strict))
    }

    /// The parts of a contact a sample states.
    struct Seen: Equatable, CustomStringConvertible {
        var name: String?
        var emails: [String]
        var phones: [String]
        var version: String?
        var description: String { "\(name ?? "nil") \(emails) \(phones) \(version ?? "nil")" }

        init(_ name: String?, _ emails: [String], _ phones: [String] = [], _ version: String? = "3.0") {
            self.name = name
            self.emails = emails
            self.phones = phones
            self.version = version
        }

        init(_ c: Contact) {
            self.init(c.displayName, c.emails.map(\.address), c.phones, c.declaredVersion)
        }
    }

    @Test func iCloud() {
        let result = Self.sample("icloud.vcf")
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(Seen.init) == [
            Seen("Johnny Appleseed", ["johnny@example.com", "j.appleseed@orchards.example"], ["+1 (408) 555-0101"]),
            Seen("Mei Chen", ["mei.chen@example.org"]),
            Seen("Bay Area Bakery", [], ["+1 (415) 555-0177"]),
            Seen("+1 (408) 555-0199", [], ["+1 (408) 555-0199"]),
            Seen("Book Club", []),
        ])
        guard result.contacts.count == 5 else { return }
        let johnny = result.contacts[0]
        #expect(johnny.emails[0] == ContactEmail(address: "johnny@example.com", types: ["internet", "other"], pref: 1))
        #expect(johnny.emails[1] == ContactEmail(address: "j.appleseed@orchards.example", types: ["internet", "work"]))
        #expect(johnny.organization == "Example Orchards")
        #expect(result.contacts[2].organization == "Bay Area Bakery")
        let group = result.contacts[4]
        #expect(group.kind == .group)
        // Members by X-ABUID (with or without `:ABPerson`) now name the
        // card's id; the member by UID stays.
        #expect(group.members == [
            "urn:uuid:" + johnny.id.rawValue,
            "urn:uuid:8C5292AA-F2D8-41DB-A5B6-582C39AD9BF3",
            "urn:uuid:" + result.contacts[2].id.rawValue,
        ])
        #expect(johnny.id.rawValue == referenceFNV(["Johnny Appleseed", "johnny@example.com", "3.0"]))
        // Apple's cards are valid 3.0 (the phone-only card writes an empty
        // FN and N), so strict mode keeps them all.
        #expect(Self.sample("icloud.vcf", strict: true).contacts.count == 5)
    }

    @Test func android() {
        let result = Self.sample("android.vcf")
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(Seen.init) == [
            Seen("Jürgen Müller", ["juergen.mueller@example.de"], ["+49 170 1234567"], "2.1"),
            Seen("+33 6 12 34 56 78", [], ["+33 6 12 34 56 78"], "2.1"),
            Seen("Анна Иванова", ["anna.ivanova@example.ru"], [], "2.1"),
            Seen("Chidi Okafor", [], ["+234 803 555 0100", "+234 1 555 0101"], "2.1"),
            Seen("+81 90 5555 0123", [], ["+81 90 5555 0123"], "2.1"),
        ])
        guard result.contacts.count == 5 else { return }
        #expect(result.contacts[0].name == StructuredName(family: ["Müller"], given: ["Jürgen"]))
        #expect(result.contacts[0].nicknames == ["Jürgi"])
        #expect(result.contacts[2].name == StructuredName(family: ["Иванова"], given: ["Анна"]))
        #expect(result.contacts[3].nicknames == ["Chi"])
        #expect(result.contacts.map(\.line) == [1, 9, 15, 23, 31])
        #expect(result.contacts.allSatisfy { $0.source == .vCard21 })
    }

    @Test func nextcloud() {
        let result = Self.sample("nextcloud.vcf")
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(Seen.init) == [
            Seen("Lena Novak", ["lena.novak@example.com"], ["+386 41 555 010"]),
            Seen("Tomás Ruiz", ["tomas.ruiz@example.es"]),
            Seen("Acme Plumbing", [], ["+44 20 7946 0018"]),
        ])
        guard result.contacts.count == 3 else { return }
        #expect(result.contacts[0].categories == ["Work", "Hiking"])
        #expect(result.contacts[1].categories == ["Friends"])
        #expect(result.contacts[1].emails == [ContactEmail(address: "tomas.ruiz@example.es", types: ["home"])])
        #expect(result.contacts[1].id.rawValue == "b1c2d3e4-5f60-4718-9a2b-3c4d5e6f7081")
        #expect(result.contacts[2].organization == "Acme Plumbing")
    }

    @Test func repairs() {
        let result = Self.sample("repairs.vcf")
        #expect(result.contacts.map(Seen.init) == [
            Seen("Norah Version", ["norah@example.com"], [], nil),
            Seen("Felix Future", ["felix@example.com"], [], "9.9"),
            Seen("Wanda Wrapped", ["wanda@example.com"]),
            Seen("Bertha Boss", ["bertha@example.com"], ["+1 555 0100"], "2.1"),
            Seen("Carla Chief", ["carla@example.com"]),
            Seen("René Dubois", ["rene@example.fr"], [], "2.1"),
            Seen("Milo Mailto", ["milo@example.com"], [], "4.0"),
            Seen("Sam Several", ["sam@example.com", "sam.several@work.example"]),
            Seen("Xavier Exchange", ["xavier@example.com"]),
            Seen("Penny Phone", [], ["+1 555 0142"]),
            Seen("Quentin Cut", [], [], "2.1"),
            Seen("Ending Eve", ["eve@example.com"]),
        ])
        #expect(result.contacts.first?.source == .vCard30, "no VERSION reads by the lenient (3.0) rules")
        #expect(result.contacts.dropFirst(7).first?.emails.map(\.pref) == [1, 1])
        #expect(result.contacts.dropFirst(7).first?.emails.map(\.types) == [["work"], ["work"]])
        #expect(result.problems.map(\.line) == [6, 16, 43, 61, 68, 71, 75])
        let reasons = result.problems.map(\.message)
        guard reasons.count == 7 else {
            Issue.record("\(described(result.problems))")
            return
        }
        #expect(reasons[0] == "unknown VERSION '9.9'; the card is read as vCard 3.0")
        #expect(reasons[1] == "line 16 has no ':' (not a property); skipped")
        #expect(reasons[2] == "unknown charset 'x-mac-unknown'; the value is read as the fallback charset")
        #expect(reasons[3].hasPrefix("EMAIL on line 61: '/o=ExchangeLabs/"))
        #expect(reasons[3].hasSuffix("is an Exchange (X.500) address, not an e-mail address; dropped"))
        #expect(reasons[4] == "EMAIL on line 68: '+1 555 0142' is not an e-mail address; dropped")
        #expect(reasons[5] == "no END:VCARD before the BEGIN:VCARD on line 75; the card ends there")
        #expect(reasons[6] == "no END:VCARD before the end of the file; the card ends there")
        #expect(result.problems.allSatisfy { $0.isWarning && !$0.skipsRecord })
        // Strictly, the cards the standards forbid are skipped, as errors.
        let strict = Self.sample("repairs.vcf", strict: true)
        #expect(strict.contacts.map(\.displayName) == [
            "Bertha Boss", "Carla Chief", "René Dubois", "Milo Mailto", "Sam Several", "Xavier Exchange", "Penny Phone",
        ])
        #expect(strict.problems.filter(\.skipsRecord).map(\.line) == [1, 5, 11, 71, 75])
        #expect(strict.problems.filter(\.skipsRecord).allSatisfy { !$0.isWarning })
    }
}
