import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory

/// Every import problem is a stable code plus values: each code is reached
/// by a file an exporter or a person could write, and its words name only
/// values the import gives (no `{placeholder}` is left in a message).
@Suite("Import problems: codes and values")
struct ImportProblemCodeTests {
    struct Case: Sendable, CustomStringConvertible {
        var code: String
        var bytes: [UInt8]
        var strict = false
        var defaultCharset: String?
        var description: String { code }
    }

    static func card(_ lines: [String], version: String = "3.0") -> [UInt8] {
        Array((["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD", ""]).joined(separator: "\r\n").utf8)
    }

    static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    static let named = ["FN:Ann Lee", "N:Lee;Ann;;;"]
    static let exchange = "/o=ExchangeLabs/ou=Exchange Administrative Group/cn=Recipients/cn=ann"

    static let cases: [Case] = [
        Case(code: "unknown-default-charset", bytes: card(named + ["EMAIL:ann@x.org"]), defaultCharset: "x-klingon"),
        Case(code: "not-an-address-book", bytes: text("dear Ann,\nsee you\n")),
        Case(code: "csv-unclosed-quote", bytes: text("Name,E-mail Address\n\"Ann,ann@x.org\nBob,bob@x.org\n"), strict: true),
        Case(code: "csv-unclosed-quote-repaired", bytes: text("Name,E-mail Address\n\"Ann,ann@x.org\nBob,bob@x.org\n")),
        Case(code: "csv-text-after-quote", bytes: text("Name,E-mail Address\n\"Ann\"x,ann@x.org\n"), strict: true),
        Case(code: "csv-quote-in-unquoted-field", bytes: text("Name,E-mail Address\nA\"nn,ann@x.org\n"), strict: true),
        Case(code: "csv-field-count", bytes: text("Name,E-mail Address\nAnn,ann@x.org,more\n")),
        Case(code: "csv-row-without-data", bytes: text("Name,E-mail Address\n,SMTP\n")),
        Case(code: "exchange-address-replaced", bytes: text(
            "First Name,Last Name,E-mail Address,E-mail Type,E-mail Display Name\n"
                + "Ann,Lee,\(exchange),EX,Ann Lee (ann@corp.example)\n")),
        Case(code: "value-not-an-address", bytes: text("Name,E-mail Address\nAnn,+1 555 0100\n")),
        Case(code: "value-exchange-address", bytes: text(
            "First Name,Last Name,E-mail Address,E-mail Type,E-mail Display Name\nAnn,Lee,\(exchange),EX,Ann Lee\n")),
        Case(code: "email-not-an-address", bytes: card(named + ["EMAIL:+1 555 0100", "EMAIL:ann@x.org"])),
        Case(code: "email-exchange-address", bytes: card(named + ["EMAIL:\(exchange)", "EMAIL:ann@x.org"])),
        Case(code: "not-a-property", bytes: card(named + ["a line without a colon", "EMAIL:ann@x.org"]), strict: true),
        Case(code: "not-a-property-skipped", bytes: card(named + ["a line without a colon", "EMAIL:ann@x.org"])),
        Case(code: "no-end-before-begin", bytes: text(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nN:;Ann;;;\r\n" + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nN:;Bob;;;\r\nEND:VCARD\r\n"),
             strict: true),
        Case(code: "no-end-before-begin-repaired", bytes: text(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\n" + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nEND:VCARD\r\n")),
        Case(code: "no-end-before-end-of-file", bytes: text("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nN:;Ann;;;\r\n"), strict: true),
        Case(code: "no-end-before-end-of-file-repaired", bytes: text("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\n")),
        Case(code: "invalid-property-name", bytes: card(named + ["X_BAD:1", "EMAIL:ann@x.org"]), strict: true),
        Case(code: "properties-outside-card", bytes: text("NOTE:stray\r\n") + card(named)),
        Case(code: "invalid-utf8-replaced", bytes: text("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=UTF-8:Ren") + [0xE9] +
             text(" Dubois\r\nEMAIL:r@example.fr\r\nEND:VCARD\r\n")),
        Case(code: "csv-lines-not-utf8", bytes: text("Name,E-mail\r\nJ\u{FC}rgen,j@x.org\r\nRen") + [0xE9] + text(",r@x.org\r\n")),
        Case(code: "text-outside-card", bytes: card(named) + text("Ann Lee <ann@example.org>\r\n") + card(named)),
        Case(code: "unknown-version", bytes: card(named, version: "9.9"), strict: true),
        Case(code: "unknown-version-repaired", bytes: card(named, version: "9.9")),
        Case(code: "no-version", bytes: text("BEGIN:VCARD\r\nFN:Ann\r\nN:;Ann;;;\r\nEND:VCARD\r\n"), strict: true),
        Case(code: "version-not-first", bytes: text("BEGIN:VCARD\r\nFN:Ann\r\nVERSION:4.0\r\nEND:VCARD\r\n"), strict: true),
        Case(code: "empty-email", bytes: card(named + ["EMAIL:"]), strict: true),
        Case(code: "empty-card", bytes: card([])),
        Case(code: "no-fn", bytes: card(["N:Lee;Ann;;;"]), strict: true),
        Case(code: "no-n", bytes: card(["FN:Ann"]), strict: true),
        Case(code: "member-outside-group", bytes: card(["FN:Ann", "MEMBER:mailto:bob@x.org"], version: "4.0"), strict: true),
        Case(code: "misplaced-bare-pref", bytes: card(named + ["EMAIL;PREF:ann@x.org"]), strict: true),
        Case(code: "misplaced-type-pref", bytes: card(["FN:Ann", "EMAIL;TYPE=pref:ann@x.org"], version: "4.0"), strict: true),
        Case(code: "misplaced-pref-number", bytes: card(named + ["EMAIL;PREF=1:ann@x.org"]), strict: true),
        Case(code: "unknown-encoding", bytes: card(named + ["ORG;ENCODING=x-rot13:nop"]), strict: true),
        Case(code: "unknown-encoding-dropped", bytes: card(named + ["ORG;ENCODING=x-rot13:nop"])),
        Case(code: "pref-not-a-number", bytes: card(["FN:Ann", "EMAIL;PREF=high:ann@x.org"], version: "4.0"), strict: true),
        Case(code: "pref-not-a-number-ignored", bytes: card(["FN:Ann", "EMAIL;PREF=high:ann@x.org"], version: "4.0")),
        Case(code: "empty-pref", bytes: card(["FN:Ann", "EMAIL;PREF=:ann@x.org"], version: "4.0"), strict: true),
        Case(code: "empty-pref-ignored", bytes: card(["FN:Ann", "EMAIL;PREF=:ann@x.org"], version: "4.0")),
        Case(code: "pref-out-of-range", bytes: card(["FN:Ann", "EMAIL;PREF=0:ann@x.org"], version: "4.0"), strict: true),
        Case(code: "pref-out-of-range-clamped", bytes: card(["FN:Ann", "EMAIL;PREF=0:ann@x.org"], version: "4.0")),
        Case(code: "bad-quoted-printable",
             bytes: card(["FN:Ann", "N:;Ann;;;", "ORG;ENCODING=QUOTED-PRINTABLE:=ZZ"], version: "2.1"), strict: true),
        Case(code: "bad-quoted-printable-dropped",
             bytes: card(["FN:Ann", "N:;Ann;;;", "ORG;ENCODING=QUOTED-PRINTABLE:=ZZ"], version: "2.1")),
        Case(code: "bad-base64", bytes: card(named + ["ORG;ENCODING=b:!!!!"]), strict: true),
        Case(code: "bad-base64-dropped", bytes: card(named + ["ORG;ENCODING=b:!!!!"])),
        Case(code: "unknown-charset-read-as-utf8", bytes: card(["FN;CHARSET=x-klingon:Ann", "N:;Ann;;;"], version: "2.1")),
        Case(code: "unknown-charset-read-as-fallback",
             bytes: text("BEGIN:VCARD\r\nVERSION:2.1\r\nN:;Ann;;;\r\nFN;CHARSET=x-klingon:Ren")
                + [0xE9] + text("e\r\nEND:VCARD\r\n")),
        Case(code: "vcard-4-not-utf8", bytes: text("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ren") + [0xE9] + text("e\r\nEND:VCARD\r\n"),
             strict: true),
    ]

    /// The case's file gives a problem of its code, and every problem's
    /// words are filled: each placeholder is one of its values.
    @Test(arguments: cases)
    func eachCodeIsReachedAndFilled(_ c: Case) {
        let result = ContactImporter.import(c.bytes, options: ContactImportOptions(strict: c.strict, defaultCharset: c.defaultCharset))
        #expect(result.problems.contains { $0.code == c.code }, "\(result.problems.map(\.description))")
        for p in result.problems {
            let missing = Set(ReasonTemplate.placeholders(p.englishTemplate)).subtracting(p.values.keys)
            #expect(missing.isEmpty, "\(p.code): \(missing) unfilled in \(p.message)")
            #expect(!p.message.contains("{"), "\(p.message)")
            #expect(ContactImportProblem.Reason(code: p.code) == p.reason)
        }
    }

    /// Free text outside every card is reported where it stands, a run of
    /// lines once at its first: a warning for a heading, a record that
    /// was not imported when a line holds an `@` (a pasted address); a
    /// line of controls alone (an old end-of-file mark) is no text. The
    /// cards around it are read whole.
    @Test(arguments: [
        ("Exported contacts\r\n", 1, true, "a line of text outside BEGIN:VCARD … END:VCARD is not read: 'Exported contacts'"),
        ("Ann Lee <ann@example.org>\r\nBob\r\n", 6, false,
         "2 lines of text outside BEGIN:VCARD … END:VCARD are not read, the first 'Ann Lee <ann@example.org>'"),
        ("\u{1A}\r\n", 0, true, ""),
    ])
    func freeTextOutsideCardsIsReported(_ stray: String, _ line: Int, _ isWarning: Bool, _ message: String) {
        let bytes = line == 1 ? Self.text(stray) + Self.card(Self.named) + Self.card(["FN:Bob", "N:;Bob;;;"])
            : Self.card(Self.named) + Self.text(stray) + Self.card(["FN:Bob", "N:;Bob;;;"])
        let result = ContactImporter.import(bytes)
        #expect(result.contacts.map(\.displayName) == ["Ann Lee", "Bob"])
        let found = result.problems.filter { $0.code == "text-outside-card" }
        if line == 0 {
            #expect(found.isEmpty, "\(found)")
        } else {
            #expect(found.map(\.line) == [line])
            #expect(found.map(\.isWarning) == [isWarning])
            #expect(found.map(\.message) == [message])
        }
    }

    /// A CSV whose lines are UTF-8 beyond ASCII beside lines that are not
    /// (rows appended by another tool, one stray byte) reads each line as
    /// what it is, and names the first that is not UTF-8; a file of one
    /// kind reads as before, and a charset given is read as given.
    @Test func aCSVOfMixedLinesReadsEachLineAsWhatItIs() {
        let mixed = Self.text("First Name,Last Name,E-mail Address\r\nJ\u{FC}rgen,M\u{FC}ller,j@x.de\r\n")
            + Self.text("Ren") + [0xE9] + Self.text(",Dubois,r@x.fr\r\nZo\u{EB},Lee,z@x.org\r\n")
        let result = ContactImporter.import(mixed)
        #expect(result.contacts.map(\.displayName) == ["Jürgen Müller", "René Dubois", "Zoë Lee"])
        #expect(result.problems.map(\.code) == ["csv-lines-not-utf8"])
        #expect(result.problems.map(\.line) == [3])
        let warnings = result.problems.filter { $0.isWarning }.count
        #expect(warnings == 1)
        // Of one kind: as before.
        let legacy = Self.text("First Name,Last Name,E-mail Address\r\nRen") + [0xE9] + Self.text(",Dubois,r@x.fr\r\n")
        let one = ContactImporter.import(legacy)
        #expect(one.contacts.map(\.displayName) == ["René Dubois"])
        #expect(one.problems.isEmpty && one.textEncoding == "windows-1252 (default)")
        // A charset given is the charset of every line.
        let given = ContactImporter.import(mixed, options: ContactImportOptions(defaultCharset: "windows-1252"))
        #expect(given.contacts.first?.displayName == "JÃ¼rgen MÃ¼ller")
        #expect(given.problems.isEmpty)
    }

    /// The table reaches every code there is, and names no other.
    @Test func theTableCoversEveryCode() {
        let all = Set(ContactImportProblem.Reason.allReasons.map(\.code))
        // Detection reads the header with the reader's own rules, so a
        // file it calls CSV always has columns: this code guards the stream.
        let table = Set(Self.cases.map(\.code)).union(["csv-header-without-columns"])
        #expect(all.subtracting(table).sorted() == [], "codes no file reaches")
        #expect(table.subtracting(all).sorted() == [], "codes that are not reasons")
        #expect(all.count == ContactImportProblem.Reason.allReasons.count, "codes repeat")
    }

}
