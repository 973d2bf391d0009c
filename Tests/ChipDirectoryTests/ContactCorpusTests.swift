import Testing
import ChipTestSupport
import ChipDirectoryTestSupport
@testable import ChipDirectory

/// The main differential test of import: generated address books written
/// in every format, imported, and compared field by field with what each
/// format can carry.
@Suite("Contact corpus: write, import, compare")
struct ContactCorpusTests {
    /// Seeds 1 to 20; a seeded two of them by default (see ``TestScale``).
    static let seeds = TestScale.sample(UInt64(1)...20, 2, "address-book formats, seeds")

    /// The identities an import must give: the written UID, or the FNV-1a of
    /// display name, first address and source; repeats take `-2`, `-3`, ….
    struct ExpectedIDs {
        var used: Set<String> = []

        mutating func next(_ base: String) -> String {
            if used.insert(base).inserted { return base }
            var k = 2
            while !used.insert("\(base)-\(k)").inserted { k += 1 }
            return "\(base)-\(k)"
        }
    }

    static func expected(_ generated: [Contact], _ format: ContactCorpus.Format, _ file: ContactCorpus.File,
                         seed: UInt64) -> (contacts: [Contact], problems: [Int])
    {
        var ids = ExpectedIDs()
        var out: [Contact] = []
        var problemLines: [Int] = []
        var groupOrder: [String] = []
        var groupLines: [String: Int] = [:]
        var groupMembers: [String: [String]] = [:]
        let legacy = ContactCorpus.isGoogleLegacy(seed: seed)
        // Where each physical line starts, to find the phone number Google's
        // writer put at the end of each row.
        var lineStarts = [0, 0]
        for (i, b) in file.bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
        let phoneMark = Array("+49 170 ".utf8)
        for (k, index) in file.written.enumerated() {
            var c = ContactCorpus.carried(generated[index], by: format, googleLegacy: legacy)
            c.line = file.lines[k]
            if format == .google, c.line < lineStarts.count {
                var i = lineStarts[c.line]
                while i + phoneMark.count + 7 <= file.bytes.count && !file.bytes[i..<(i + phoneMark.count)].elementsEqual(phoneMark) {
                    i += 1
                }
                c.phones = [String(decoding: file.bytes[i..<min(file.bytes.count, i + phoneMark.count + 7)], as: UTF8.self)]
            }
            let vCardHoldsData = format.isVCard && Self.addVCardReading(&c, file)
            // A row without a name shows its organization, nickname or phone.
            if c.displayName == nil { c.displayName = c.organization ?? c.nicknames.first ?? c.phones.first }
            if c.displayName == nil && c.emails.isEmpty && !vCardHoldsData {
                problemLines.append(c.line)
                continue
            }
            let uid = format.isVCard ? generated[index].id.rawValue : ""
            c.id = ContactID(ids.next(uid.isEmpty
                ? referenceFNV([c.displayName ?? "", c.emails.first?.address ?? "", c.source.rawValue]) : uid))
            for category in c.categories where format == .google || format == .outlook {
                if groupLines[category] == nil {
                    groupOrder.append(category)
                    groupLines[category] = c.line
                }
                groupMembers[category, default: []].append(c.preferredEmail?.address ?? c.id.rawValue)
            }
            out.append(c)
        }
        // A vCard file's groups follow its other cards, in file order.
        if format.isVCard { out = out.filter { $0.kind != .group } + out.filter { $0.kind == .group } }
        for category in groupOrder {
            out.append(Contact(
                id: ContactID(ids.next(referenceFNV(["group", category]))), kind: .group, displayName: category,
                members: groupMembers[category]!, source: .csv, line: groupLines[category]!))
        }
        return (out, problemLines)
    }

    @Test(arguments: ContactCorpus.Format.allCases)
    func everyFormatImportsWhatItCarries(_ format: ContactCorpus.Format) {
        for seed in Self.seeds {
            let generated = ContactCorpus.contacts(count: 150 + Int(seed) * 7, seed: seed)
            let file = ContactCorpus.write(generated, as: format, seed: seed)
            let (expected, problemLines) = Self.expected(generated, format, file, seed: seed)
            for strict in [false, true] {
                let result = ContactImporter.import(file.bytes, options: ContactImportOptions(strict: strict))
                #expect(result.problems.map(\.line) == problemLines, "seed \(seed) \(format) strict \(strict): \(described(result.problems))")
                guard result.contacts.count == expected.count else {
                    Issue.record("seed \(seed) \(format) strict \(strict): \(result.contacts.count) contacts, expected \(expected.count)")
                    continue
                }
                for (got, want) in zip(result.contacts, expected) {
                    guard got != want else { continue }
                    Issue.record("seed \(seed) \(format) strict \(strict), line \(want.line):\n got \(got)\nwant \(want)")
                    break
                }
            }
        }
    }

    @Test(arguments: ContactCorpus.Format.allCases)
    func theFormatIsRecognized(_ format: ContactCorpus.Format) {
        for seed: UInt64 in [1, 2, 3, 4] {
            let file = ContactCorpus.write(ContactCorpus.contacts(count: 30, seed: seed), as: format, seed: seed)
            let result = ContactImporter.import(file.bytes)
            let want: ContactFileFormat = switch format {
            case .vcard40, .vcard30, .vcard21: .vCard
            case .google: .googleCSV
            case .outlook: .outlookCSV
            case .thunderbird: .thunderbirdCSV
            }
            #expect(result.format == want, "seed \(seed)")
            if format == .outlook {
                #expect(result.textEncoding == (ContactCorpus.outlookStyle(seed: seed).utf16 ? "UTF-16LE" : "UTF-8"))
            }
        }
    }

    /// Broken files: generated ones with bytes flipped, cut, doubled and
    /// interesting tokens inserted keep the import's invariants.
    static let mutationSeeds = TestScale.sample(UInt64(1)...12, 4, "mutated address books, seeds")

    @Test(arguments: ContactCorpus.Format.allCases)
    func mutatedFilesKeepTheImportInvariants(_ format: ContactCorpus.Format) {
        let tokens: [[UInt8]] = ["\r\n", "\n", "=", ":", ";", ",", "\"", "\\", " ", "BEGIN:VCARD\r\n", "END:VCARD\r\n",
                                 "VERSION:2.1\r\n", ";ENCODING=QUOTED-PRINTABLE", ";CHARSET=x-bogus", "=\r\n", "item1.",
                                 "\u{FEFF}", "PREF=0", " ::: ", "\"\""].map { Array($0.utf8) } + [[0xFF], [0x00], [0xC3]]
        for seed in Self.mutationSeeds {
            let clean = ContactCorpus.write(ContactCorpus.contacts(count: 12, seed: seed), as: format, seed: seed).bytes
            var rng = SplitMix64(seed: seed &* 7919)
            for round in 0..<40 {
                var bytes = clean
                for _ in 0..<(1 + rng.below(4)) {
                    guard !bytes.isEmpty else { break }
                    let at = rng.below(bytes.count)
                    switch rng.below(4) {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + rng.below(40)))
                    case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + rng.below(60))], at: at)
                    default: bytes.insert(contentsOf: tokens[rng.below(tokens.count)], at: at)
                    }
                }
                let violations = ContactCorpus.importViolations(of: bytes)
                #expect(violations.isEmpty, "seed \(seed) round \(round) \(format): \(violations)")
                if !violations.isEmpty { return }
            }
        }
    }

    @Test func theSameSeedGivesTheSameBytes() {
        for format in ContactCorpus.Format.allCases {
            let a = ContactCorpus.write(ContactCorpus.contacts(count: 200, seed: 9), as: format, seed: 9).bytes
            let b = ContactCorpus.write(ContactCorpus.contacts(count: 200, seed: 9), as: format, seed: 9).bytes
            let c = ContactCorpus.write(ContactCorpus.contacts(count: 200, seed: 10), as: format, seed: 10).bytes
            #expect(a == b, "\(format)")
            #expect(a != c, "\(format)")
        }
    }

    /// The generator draws on every script it promises, and on the values
    /// that writers must escape.
    @Test func theCorpusHoldsEveryScriptAndAwkwardValue() {
        let generated = ContactCorpus.contacts(count: 3_000, seed: 5)
        let text = generated.map { [$0.displayName ?? "", $0.organization ?? ""].joined(separator: "|") + $0.nicknames.joined() }
            .joined(separator: "\n")
        for marker in ["ß", "ł", "ø", "å", "ı", "İ", "ễ", "Γ", "Д", "Ա", "م", "ש", "王", "山", "김", "é", "ñ", "ã", "ř",
                       ",", ";", "\"", "\\"] {
            #expect(text.contains(marker), "\(marker)")
        }
        #expect(generated.contains { $0.kind == .group && !$0.members.isEmpty })
        #expect(generated.contains { $0.kind == .org })
        #expect(generated.contains { $0.emails.count == 3 && $0.emails.contains { $0.pref != nil } })
        #expect(generated.contains { $0.id.rawValue.isEmpty })
    }

    /// The samples under `Corpus/contacts/` are the generator's output for
    /// 50 contacts of seed 1; `chipify-bench contacts` writes them again.
    @Test(arguments: ContactCorpus.Format.allCases)
    func committedSamplesAreTheGeneratorsOutput(_ format: ContactCorpus.Format) {
        let path = ChipTestSupport.packageRoot() + "/Corpus/contacts/" + format.sampleName
        guard let committed = readFile(path) else {
            Issue.record("cannot read \(path)")
            return
        }
        let file = ContactCorpus.write(ContactCorpus.contacts(count: 50, seed: 1), as: format, seed: 1)
        #expect(committed == file.bytes, "regenerate with: chipify-bench contacts --count 50 --format \(format.rawValue) --seed 1")
        let result = ContactImporter.import(committed, options: ContactImportOptions(strict: true))
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.count >= 50 * 9 / 10)
    }
}

/// The CSV samples written by hand from the exporters' documented columns
/// (`Corpus/contacts/*.csv` other than the generator's): every contact and
/// every warning.
@Suite("Contact corpus: exporters' CSV samples")
struct ContactCSVSampleTests {
    struct Want {
        var line: Int
        var displayName: String?
        var emails: [ContactEmail]
        var phones: [String] = []
        var organization: String? = nil
        var categories: [String] = []
    }

    static func check(_ file: String, format: ContactFileFormat, encoding: String, _ wants: [Want],
                      groups: [String] = [], warnings: [String] = [])
    {
        let path = ChipTestSupport.packageRoot() + "/Corpus/contacts/" + file
        guard let bytes = readFile(path) else {
            Issue.record("cannot read \(path)")
            return
        }
        let result = ContactImporter.import(bytes)
        #expect(result.format == format, "\(file)")
        #expect(result.textEncoding == encoding, "\(file)")
        #expect(result.problems.allSatisfy { $0.isWarning }, "\(file)")
        #expect(described(result.problems) == warnings, "\(file)")
        let people = result.contacts.filter { $0.kind == .individual }
        #expect(people.count == wants.count, "\(file): \(people.map { $0.displayName ?? "-" })")
        for (got, want) in zip(people, wants) {
            #expect(got.line == want.line, "\(file) \(want.displayName ?? "-")")
            #expect(got.displayName == want.displayName, "\(file) line \(want.line)")
            #expect(got.emails == want.emails, "\(file) line \(want.line)")
            #expect(got.phones == want.phones, "\(file) line \(want.line)")
            #expect(got.organization == want.organization, "\(file) line \(want.line)")
            #expect(got.categories == want.categories, "\(file) line \(want.line)")
        }
        #expect(result.contacts.filter { $0.kind == .group }.map { $0.displayName ?? "" } == groups, "\(file)")
        // The strict reading keeps the same contacts (none of these breaks a standard).
        let strict = ContactImporter.import(bytes, options: ContactImportOptions(strict: true))
        if file != "unclosed-quote.csv" {
            #expect(strict.contacts == result.contacts, "\(file) strict")
        }
    }

    @Test func germanOutlookInWindows1252() {
        let exchange = "/o=ExchangeLabs/ou=Exchange Administrative Group (FYDIBOHF23SPDLT)/cn=Recipients/cn="
        Self.check("outlook-de.csv", format: .outlookCSV, encoding: "windows-1252 (default)", [
            Want(line: 2, displayName: "Herr Jürgen Groß", emails: [ContactEmail(address: "juergen.gross@mueller-soehne.example")],
                 phones: ["+49 89 1234567", "+49 170 1234567"], organization: "Müller & Söhne GmbH",
                 categories: ["Kunden", "Stammtisch"]),
            Want(line: 3, displayName: "Frau Dr. Käthe Weiß", emails: [ContactEmail(address: "kaethe.weiss@gmx.example")],
                 organization: "Stadtwerke München"),
            Want(line: 5, displayName: "Björn Öztürk",
                 emails: [ContactEmail(address: "bjoern.oeztuerk@firma.example"),
                          ContactEmail(address: "bjoern@privat.example", pref: 1)],
                 categories: ["Kunden"]),
            Want(line: 6, displayName: "Stadtwerke München", emails: [], phones: ["+49 89 2361-0"],
                 organization: "Stadtwerke München"),
            Want(line: 7, displayName: "+49 151 98765432", emails: [], phones: ["+49 151 98765432"]),
        ], groups: ["Kunden", "Stammtisch"], warnings: [
            "3: '\(ContactCSVReader.abbreviated(exchange + "kaethe.weiss"))' is an Exchange (X.500) address, not an e-mail address; dropped",
            "5: '\(ContactCSVReader.abbreviated(exchange + "b.oeztuerk"))' is an Exchange (X.500) address; the address bjoern.oeztuerk@firma.example of its display name is used",
        ])
    }

    @Test func frenchOutlookWithSemicolonsAndBOM() {
        Self.check("outlook-fr.csv", format: .outlookCSV, encoding: "UTF-8", [
            Want(line: 2, displayName: "Céline Lefèvre", emails: [ContactEmail(address: "celine.lefevre@orange.example")],
                 phones: ["06 12 34 56 78"], organization: "Crédit Agricole", categories: ["Famille", "Chorale"]),
            Want(line: 3, displayName: "François Hébert", emails: [ContactEmail(address: "francois.hebert@free.example")]),
            Want(line: 5, displayName: "Élodie Mercier",
                 emails: [ContactEmail(address: "elodie@laposte.example"), ContactEmail(address: "e.mercier@travail.example")],
                 phones: ["01 23 45 67 89"], categories: ["Chorale"]),
        ], groups: ["Famille", "Chorale"])
    }

    @Test func japaneseOutlookInShiftJIS() {
        Self.check("outlook-ja.csv", format: .outlookCSV, encoding: "Shift_JIS (detected)", [
            Want(line: 2, displayName: "山田 太郎", emails: [ContactEmail(address: "taro.yamada@yamada-shoji.example")],
                 phones: ["090-1234-5678"], organization: "山田商事株式会社", categories: ["取引先"]),
            Want(line: 3, displayName: "佐藤 花子", emails: [ContactEmail(address: "hanako.sato@example.jp")],
                 phones: ["03-1234-5678"]),
            Want(line: 4, displayName: "株式会社サンプル", emails: [], phones: ["06-6123-4567"], organization: "株式会社サンプル"),
        ], groups: ["取引先"])
    }

    @Test func googleCurrentLayout() {
        Self.check("google-2024.csv", format: .googleCSV, encoding: "UTF-8", [
            Want(line: 2, displayName: "Ann Lee",
                 emails: [ContactEmail(address: "ann.lee@gmail.example", types: ["home"], pref: 1),
                          ContactEmail(address: "ann@work.example", types: ["work"])],
                 phones: ["+1 415-555-0100"], categories: ["Friends"]),
            Want(line: 3, displayName: "Blue Bottle Coffee", emails: [], phones: ["+1 510-555-0199"],
                 organization: "Blue Bottle Coffee"),
            Want(line: 4, displayName: "+1 650-555-0123", emails: [], phones: ["+1 650-555-0123", "+1 650-555-0124"]),
            Want(line: 5, displayName: "Grandma", emails: [], phones: ["+1 212-555-0150"], categories: ["Family"]),
        ], groups: ["Friends", "Family"])
    }

    @Test func aListPastedWithoutHeader() {
        Self.check("pasted.csv", format: .genericCSV, encoding: "UTF-8", [
            Want(line: 1, displayName: "Ann Lee", emails: [ContactEmail(address: "ann.lee@example.org")]),
            Want(line: 2, displayName: "Smith, John", emails: [ContactEmail(address: "john.smith@example.com")]),
            Want(line: 3, displayName: "Zoë Brandt", emails: [ContactEmail(address: "zoe@brandt.example")]),
            Want(line: 4, displayName: "Li Wei", emails: [ContactEmail(address: "li.wei@example.cn")]),
        ])
    }

    @Test func anUnclosedQuoteLosesNoRow() {
        Self.check("unclosed-quote.csv", format: .genericCSV, encoding: "UTF-8", [
            Want(line: 2, displayName: "Ann Lee", emails: [ContactEmail(address: "ann@example.org")], phones: ["+1 555 0100"]),
            Want(line: 3, displayName: "Bob Stone", emails: [ContactEmail(address: "bob@example.org")], phones: ["+1 555 0101"]),
            Want(line: 4, displayName: "Cy Young", emails: [ContactEmail(address: "cy@example.org")]),
            Want(line: 5, displayName: "Dee Dee", emails: [ContactEmail(address: "dee@example.org")]),
        ], warnings: [
            "3: the quoted field opened on line 3 is never closed; its quote was read as text up to the end of the field",
        ])
    }
}

extension ContactCorpusTests {
    /// What a card's lines give beyond the generated contact: its VERSION,
    /// its phone, and, for a card without a name, the organization,
    /// nickname or phone it is shown by. Returns whether the card holds
    /// data beyond its identity (a nameless card that does is a contact).
    static func addVCardReading(_ c: inout Contact, _ file: ContactCorpus.File) -> Bool {
        c.declaredVersion = c.source.rawValue
        var lines: [String] = []
        var line = 1
        var current: [UInt8] = []
        for b in file.bytes {
            if b == 0x0A {
                if line >= c.line {
                    let text = String(decoding: current.last == 0x0D ? current.dropLast() : current[...], as: UTF8.self)
                    if text == "END:VCARD" { break }
                    lines.append(text)
                }
                line += 1
                current.removeAll(keepingCapacity: true)
            } else if line >= c.line {
                current.append(b)
            }
        }
        for text in lines where text.hasPrefix("TEL;TYPE=cell:") { c.phones.append(String(text.dropFirst(14))) }
        if c.displayName == nil { c.displayName = c.organization ?? c.nicknames.first ?? c.phones.first }
        let other = lines.contains { $0.hasPrefix("NOTE") || $0.hasPrefix("ADR") || $0.hasPrefix("PHOTO") }
        return other || !c.phones.isEmpty || !c.categories.isEmpty || !c.members.isEmpty || c.organization != nil
            || !c.nicknames.isEmpty
    }
}
