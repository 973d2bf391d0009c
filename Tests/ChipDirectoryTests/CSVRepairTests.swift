import Testing
import ChipTestSupport
@testable import ChipDirectory

/// One row per rule: what is accepted, what is repaired (the contact kept,
/// a warning on the row's line), what is refused.
@Suite("CSV: rows as people export them")
struct CSVRepairTests {
    struct Problem: Equatable, CustomStringConvertible {
        var line: Int
        var reason: String
        var skipsRecord: Bool
        var isWarning: Bool
        var description: String { "\(line): \(reason) [\(skipsRecord ? "skips" : "kept"), \(isWarning ? "warning" : "error")]" }

        init(_ line: Int, _ reason: String, skips: Bool = false, warning: Bool = true) {
            self.line = line
            self.reason = reason
            self.skipsRecord = skips
            self.isWarning = warning
        }

        init(_ p: ContactImportProblem) {
            self.init(p.line, p.message, skips: p.skipsRecord, warning: p.isWarning)
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var text: String
        /// Display name, addresses, phones of each contact (lists left out).
        var contacts: [(String?, [String], [String])]
        var problems: [(Int, String, Bool, Bool)] = []
    }

    static let cases: [Case] = [
        Case(description: "a phone-only row is a contact shown by its number",
             text: "Name,Email,Phone\n,,+44 20 7946 0018\n", contacts: [("+44 20 7946 0018", [], ["+44 20 7946 0018"])]),
        Case(description: "a company-only row is shown by the company",
             text: "First Name,Last Name,E-mail Address,Company\n,,,ACME Ltd\n", contacts: [("ACME Ltd", [], [])]),
        Case(description: "a row with text but nothing to keep is skipped as a warning",
             text: "Name,Email,Notes\n,,call back\nBob,b@x.org,\n", contacts: [("Bob", ["b@x.org"], [])],
             problems: [(2, "no name, address, phone, organization or nickname", true, true)]),
        Case(description: "an all-empty row says nothing",
             text: "Name,Email,Notes\n,,\n\"\",\"\",\"\"\n,,,,,\n,\nBob,b@x.org,\n", contacts: [("Bob", ["b@x.org"], [])]),
        Case(description: "Name <addr> gives the address, and the name when the row has none",
             text: "Name,Email\n,John Smith <john@x.org>\nJo,Jo Smith <jo@x.org>\n",
             contacts: [("John Smith", ["john@x.org"], []), ("Jo", ["jo@x.org"], [])]),
        Case(description: "mailto: is removed",
             text: "Name,Email\nAnn,mailto:ann@x.org\n", contacts: [("Ann", ["ann@x.org"], [])]),
        Case(description: "several addresses in one cell are several",
             text: "Name,Email\nAnn,\"ann@x.org, a.lee@y.org\"\nBob,b@x.org; bob@y.org\n",
             contacts: [("Ann", ["ann@x.org", "a.lee@y.org"], []), ("Bob", ["b@x.org", "bob@y.org"], [])]),
        Case(description: "a type word in an address column is dropped with a warning",
             text: "Name,Email\nAnn,SMTP\n", contacts: [("Ann", [], [])],
             problems: [(2, "'SMTP' is not an e-mail address; dropped", false, true)]),
        Case(description: "a phone number in an address column is dropped with a warning",
             text: "Name,Email\nAnn,+1 555 0100\n", contacts: [("Ann", [], [])],
             problems: [(2, "'+1 555 0100' is not an e-mail address; dropped", false, true)]),
        Case(description: "a row whose only text is not an address is skipped as a warning",
             text: "Name,Email\n,SMTP\n", contacts: [],
             problems: [(2, "'SMTP' is not an e-mail address; dropped", false, true),
                        (2, "no name, address, phone, organization or nickname", true, true)]),
        Case(description: "an Exchange entry takes the address of its display name",
             text: "First Name,Last Name,E-mail Address,E-mail Type,E-mail Display Name\n"
                 + "Ann,Lee,/o=ExchangeLabs/ou=Exchange Administrative Group/cn=Recipients/cn=ann,EX,Ann Lee (ann@corp.example)\n",
             contacts: [("Ann Lee", ["ann@corp.example"], [])],
             problems: [(2, "'/o=ExchangeLabs/ou=Exchange Administrative Group/cn=Recipients/cn=ann' is an Exchange (X.500) address; the address ann@corp.example of its display name is used",
                         false, true)]),
        Case(description: "an Exchange entry without an address is dropped with a warning",
             text: "First Name,Last Name,E-mail Address,E-mail Type,E-mail Display Name\n"
                 + "Ann,Lee,/o=ExchangeLabs/cn=Recipients/cn=ann,EX,Ann Lee\n",
             contacts: [("Ann Lee", [], [])],
             problems: [(2, "'/o=ExchangeLabs/cn=Recipients/cn=ann' is an Exchange (X.500) address, not an e-mail address; dropped",
                         false, true)]),
        Case(description: "a row with neither name nor address but a repaired quote is kept when it has a phone",
             text: "Name,Phone\n\"Ann,+1 555 0100\n", contacts: [("Ann", [], ["+1 555 0100"])],
             problems: [(2, "the quoted field opened on line 2 is never closed; its quote was read as text up to the end of the field",
                         false, true)]),
        Case(description: "a field count other than the header's is an error",
             text: "Name,Email\nAnn,ann@x.org,extra\nBob,b@x.org\n", contacts: [("Bob", ["b@x.org"], [])],
             problems: [(2, "3 fields where the header has 2", true, false)]),
    ]

    @Test(arguments: cases)
    func eachRule(_ rule: Case) {
        let result = importCSV(rule.text, groups: false)
        #expect(result.contacts.count == rule.contacts.count, "\(result.contacts)")
        for (got, want) in zip(result.contacts, rule.contacts) {
            #expect(got.displayName == want.0)
            #expect(got.emails.map(\.address) == want.1)
            #expect(got.phones == want.2)
        }
        #expect(result.problems.map(Problem.init) == rule.problems.map { Problem($0.0, $0.1, skips: $0.2, warning: $0.3) })
    }

    @Test func anExchangeEntryIsNeverPreferredOverSMTP() {
        let text = "First Name,Last Name,E-mail Address,E-mail Type,E-mail Display Name,E-mail 2 Address,E-mail 2 Type\n"
            + "Ann,Lee,/o=Corp/cn=Recipients/cn=ann,EX,Ann Lee (ann@corp.example),ann.lee@home.example,SMTP\n"
        let c = importCSV(text).contacts.first
        #expect(c?.emails.map(\.address) == ["ann@corp.example", "ann.lee@home.example"])
        #expect(c?.preferredEmail?.address == "ann.lee@home.example")
        // The Exchange entry's address written again as SMTP is one address.
        let twice = importCSV("E-mail Address,E-mail Type,E-mail Display Name,E-mail 2 Address,E-mail 2 Type\n"
            + "/o=Corp/cn=Recipients/cn=ann,EX,Ann Lee (ann@corp.example),ann@corp.example,SMTP\n").contacts.first
        #expect(twice?.emails == [ContactEmail(address: "ann@corp.example")])
        // Without an Exchange entry nothing is marked.
        let plain = importCSV("E-mail Address,E-mail 2 Address\na@x.org,b@x.org\n").contacts.first
        #expect(plain?.emails.allSatisfy { $0.pref == nil } == true)
    }

    @Test func everyGoogleSystemLabelIsNoList() {
        let h = ExporterHeaders.googleCurrent
        let text = h + "\n" + ExporterHeaders.row(h, [
            "First Name": "Ann", "Labels": "* myContacts ::: * My Contacts ::: * starred ::: * friends ::: Friends ::: Chor",
            "E-mail 1 - Value": "ann@x.org",
        ]) + "\n"
        let result = importCSV(text)
        #expect(result.contacts.first?.categories == ["Friends", "Chor"])
        #expect(result.contacts.filter { $0.kind == .group }.map(\.displayName) == ["Friends", "Chor"])
    }

    @Test func googlePhonesAndCompanyOnlyRows() {
        let h = ExporterHeaders.googleCurrent
        let text = h + "\n"
            + ExporterHeaders.row(h, ["Organization Name": "Stadtwerke", "Phone 1 - Label": "Work",
                                      "Phone 1 - Value": "+49 711 1 ::: +49 711 2"]) + "\n"
            + ExporterHeaders.row(h, ["Phone 1 - Value": "+49 170 5"]) + "\n"
        let result = importCSV(text)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.displayName) == ["Stadtwerke", "+49 170 5"])
        #expect(result.contacts.map(\.phones) == [["+49 711 1", "+49 711 2"], ["+49 170 5"]])
        #expect(result.contacts.allSatisfy { !$0.canBecomeChip })
    }
}

/// Files without a header the reader knows: read by what their columns hold.
@Suite("CSV: columns by content")
struct CSVContentTests {
    @Test(arguments: [
        // Pasted from a spreadsheet: no header, the first row is data.
        ("John Smith,john@x.org\nJane Roe,jane@y.org\n", [1, 2], ["John Smith", "Jane Roe"]),
        // The address first, the name after it, tab-separated.
        ("john@x.org\tJohn Smith\njane@y.org\tJane Roe\n", [1, 2], ["John Smith", "Jane Roe"]),
        // A header of unknown names: the columns are found by content, the header row skipped.
        ("Kontakt;Mailadresse bitte;Bemerkung\nJohn Smith;john@x.org;nett\nJane Roe;jane@y.org;\n", [2, 3],
         ["John Smith", "Jane Roe"]),
        // `Name <addr>` cells alone.
        ("John Smith <john@x.org>\nJane Roe <jane@y.org>\n", [1, 2], ["John Smith", "Jane Roe"]),
    ] as [(String, [Int], [String])])
    func aListIsReadByWhatItsColumnsHold(_ text: String, _ lines: [Int], _ names: [String]) {
        let result = importCSV(text)
        #expect(result.format == .genericCSV)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.line) == lines)
        #expect(result.contacts.map(\.displayName) == names)
        #expect(result.contacts.map { $0.emails.map(\.address) } == [["john@x.org"], ["jane@y.org"]])
    }

    @Test func aRowOfAddressesIsOneContact() {
        let result = importCSV("ann@x.org,bob@y.org\n")
        #expect(result.format == .genericCSV)
        #expect(result.contacts.map { $0.emails.map(\.address) } == [["ann@x.org", "bob@y.org"]])
    }
}

/// A quote that never closes does not swallow the rows after it.
@Suite("CSV: unclosed quotes")
struct CSVUnclosedQuoteTests {
    @Test(arguments: [
        // Quotes on every field (Outlook): the stray quote would pair with the next row's.
        ("\"Name\",\"Email\"\n\"Ann,ann@x.org\n\"Bob\",\"b@x.org\"\n\"Cy\",\"c@x.org\"\n", ["Ann", "Bob", "Cy"]),
        // Plain fields: the quote stays open to the end of the file.
        ("Name,Email\n\"Ann,ann@x.org\nBob,b@x.org\nCy,c@x.org\n", ["Ann", "Bob", "Cy"]),
        // A quoted line break that closes properly is one field.
        ("Name,Email,Notes\nAnn,ann@x.org,\"two\nlines\"\nBob,b@x.org,\n", ["Ann", "Bob"]),
    ])
    func rowsAfterTheQuoteStay(_ text: String, _ names: [String]) {
        let result = importCSV(text)
        #expect(result.contacts.map { $0.displayName ?? "" } == names, "\(described(result.problems))")
        #expect(result.problems.allSatisfy { $0.isWarning && !$0.skipsRecord })
    }

    /// A quote open for more than 1 MiB is unclosed: a stream never holds
    /// the rest of the file waiting for it, and the rows after it are read
    /// as they come. A long note that closes within the limit is one field.
    @Test func aQuoteClosesWithinOneMebibyteOrNever() {
        let note = String(repeating: "a long note, line after line\n", count: (CSVRecords.maxQuotedBytes - 64) / 29)
        let closed = importCSV("Name,Email,Notes\nAnn,ann@x.org,\"\(note)\"\nBob,b@x.org,\n")
        #expect(closed.contacts.map(\.displayName) == ["Ann", "Bob"])
        #expect(closed.problems.isEmpty, "\(described(closed.problems))")

        var text = Array("Name,Email,Notes\nAnn,ann@x.org,\"oops\n".utf8)
        let filler = String(repeating: "x", count: 180)
        for k in 0..<25_000 { text += Array("P\(k),p\(k)@x.org,\(filler)\n".utf8) }
        var stream = ContactImportStream()
        var count = 0, held = 0
        var i = 0
        while i < text.count {
            let n = min(65_536, text.count - i)
            stream.feed(Array(text[i..<(i + n)]))
            count += stream.takeContacts().count
            held = max(held, stream.heldBytes)
            i += n
        }
        stream.finish()
        count += stream.takeContacts().count
        #expect(count == 25_001)
        #expect(held < ContactImportStream.pieceBytes + CSVRecords.maxQuotedBytes + 3 * 65_536, "held \(held) of \(text.count)")
        #expect(stream.takeProblems().map(\.line) == [2])
    }

    /// Seeded random damage: a quote put at the start of a random field of
    /// a clean list never loses a row after the damaged one.
    @Test func randomDamageNeverLosesTheRowsAfterIt() {
        var rng = SplitMix64(seed: 20261204)
        let first = ["Ann", "Bob", "Cyd", "Dörte", "Émile", "Fatima", "Gao", "Håkon"]
        for round in 0..<200 {
            let count = 3 + rng.below(12)
            var rows: [[String]] = []
            for k in 0..<count {
                let name = first[rng.below(first.count)] + " \(k)"
                rows.append([name, "p\(k)@x.example", rng.below(2) == 0 ? "+49 30 \(k)" : ""])
            }
            let damaged = rng.below(count)
            let field = rng.below(3)
            rows[damaged][field] = "\"" + rows[damaged][field]
            let text = "Name,Email,Phone\n" + rows.map { $0.joined(separator: ",") }.joined(separator: rng.below(2) == 0 ? "\n" : "\r\n") + "\n"
            let result = importCSV(text, groups: false)
            let label = "round \(round), row \(damaged) field \(field): \(described(result.problems))"
            for k in (damaged + 1)..<max(count, damaged + 1) {
                #expect(result.contacts.contains { $0.line == k + 2 && $0.emails.map(\.address) == ["p\(k)@x.example"] }, "\(label)")
            }
            #expect(result.contacts.count == count, "\(label)")
            #expect(result.problems.allSatisfy { $0.isWarning && $0.line == damaged + 2 }, "\(label)")
        }
    }
}

@Suite("CSV: charsets")
struct CSVCharsetTests {
    /// Shift_JIS bytes of a Japanese Outlook header and row.
    static let japanese: [UInt8] = {
        let text = "\"姓\",\"名\",\"会社名\",\"電子メール アドレス\",\"携帯電話\"\r\n\"山田\",\"太郎\",\"山田商事\",\"taro@yamada.example\",\"090-1234-5678\"\r\n"
        return shiftJISEncoded(text)
    }()

    @Test func japaneseOutlookIsReadAsShiftJIS() {
        #expect(looksLikeShiftJIS(Self.japanese.withUnsafeBufferPointer { $0 }))
        let result = ContactImporter.import(Self.japanese)
        #expect(result.textEncoding == "Shift_JIS (detected)")
        #expect(result.format == .outlookCSV)
        let c = result.contacts.first
        #expect(c?.name == StructuredName(family: ["山田"], given: ["太郎"]))
        #expect(c?.organization == "山田商事")
        #expect(c?.phones == ["090-1234-5678"])
    }

    @Test func aGivenCharsetWinsOverDetection() {
        let result = ContactImporter.import(Self.japanese, options: ContactImportOptions(defaultCharset: "windows-1252"))
        #expect(result.textEncoding == "windows-1252 (given)")
        #expect(result.contacts.first?.name.family != ["山田"])
    }

    @Test(arguments: [
        "Vorname,Nachname,E-Mail-Adresse\nJürgen,Müller,jm@x.de\nKäthe,Größe,kg@x.de\nÉlève,Süß,es@x.fr\nŒdipe,Ærø,oe@x.dk\n",
        "Prénom;Nom;Adresse de messagerie\nélève;Lefèvre;el@x.fr\nChloé;Bérénice;cb@x.fr\nRenée;Façade;rf@x.fr\nAndré;Hélène;ah@x.fr\n",
    ])
    func westernTextIsWindows1252(_ text: String) {
        let bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value == 0x152 ? 0x8C : $0.value) }
        #expect(!looksLikeShiftJIS(bytes.withUnsafeBufferPointer { $0 }))
        let result = ContactImporter.import(bytes)
        #expect(result.textEncoding == "windows-1252 (default)")
        #expect(result.contacts.count == 4)
    }
}

/// `text` in Shift_JIS (test helper: the characters the tests use, from
/// the decoder's own table).
func shiftJISEncoded(_ text: String) -> [UInt8] {
    var table: [UInt32: [UInt8]] = [:]
    var out: [UInt8] = []
    for scalar in text.unicodeScalars {
        if scalar.value < 0x80 {
            out.append(UInt8(scalar.value))
            continue
        }
        if table.isEmpty {
            for lead in Array(0x81...0x9F) + Array(0xE0...0xEF) {
                for trail in Array(0x40...0x7E) + Array(0x80...0xFC) {
                    let pair = [UInt8(lead), UInt8(trail)]
                    let decoded = shiftJIS.decodeToUTF8(pair.withUnsafeBufferPointer { $0 })
                    let s = String(decoding: decoded, as: UTF8.self).unicodeScalars
                    if s.count == 1, let v = s.first?.value, v != 0xFFFD, table[v] == nil { table[v] = pair }
                }
            }
        }
        out += table[scalar.value] ?? [0x3F]
    }
    return out
}

/// The shortcut for an internationalized address alone in its cell gives
/// what `EmailValue` gives, and leaves every other cell to it.
@Suite("CSV: internationalized addresses")
struct CSVInternationalAddressTests {
    @Test(arguments: ["josé@correo.es", "用户@例子.广告", "françois@例え.jp", "δοκιμή@παράδειγμα.δοκιμή", "иван@почта.рф"])
    func aLoneAddressReadsAsEmailValueReadsIt(_ address: String) {
        var bytes = Array(address.utf8)
        #expect(bytes.withUnsafeMutableBufferPointer { ContactCSVReader.isLoneInternationalAddress(UnsafeBufferPointer($0)) })
        #expect(EmailValue(address).addresses == [address])
        #expect(importCSV("Name,Email\nA,\(address)\n").contacts.first?.emails.map(\.address) == [address])
    }

    @Test(arguments: ["José <josé@correo.es>", "mailto:josé@correo.es", "josé@correo.es, ana@correo.es", "josé@correo",
                      "/o=Zürich/cn=josé", "josé", "ann@x.org"])
    func otherCellsAreLeftToEmailValue(_ cell: String) {
        var bytes = Array(cell.utf8)
        #expect(!bytes.withUnsafeMutableBufferPointer { ContactCSVReader.isLoneInternationalAddress(UnsafeBufferPointer($0)) })
    }
}
