import Testing
import ChipTestSupport
@testable import ChipDirectory

/// Outlook writes its CSV header in the user's language: each language's
/// header with one row gives the same contact.
@Suite("CSV: Outlook's header in every language")
struct CSVHeaderLanguageTests {
    struct Case: Sendable, CustomStringConvertible {
        var language: String
        /// given, middle, family, company, categories, e-mail, e-mail type, e-mail display name, business phone, mobile phone
        var names: [String]
        var description: String { language }
    }

    static let cases: [Case] = [
        Case(language: "en", names: ["First Name", "Middle Name", "Last Name", "Company", "Categories", "E-mail Address",
                                     "E-mail Type", "E-mail Display Name", "Business Phone", "Mobile Phone"]),
        Case(language: "de", names: ["Vorname", "Weitere Vornamen", "Nachname", "Firma", "Kategorien", "E-Mail-Adresse",
                                     "E-Mail-Typ", "E-Mail: Angezeigter Name", "Telefon geschäftlich", "Mobiltelefon"]),
        Case(language: "fr", names: ["Prénom", "Deuxième prénom", "Nom", "Société", "Catégories", "Adresse de messagerie",
                                     "Type de messagerie", "Nom complet de l’adresse de messagerie", "Téléphone (bureau)",
                                     "Tél. mobile"]),
        Case(language: "es", names: ["Nombre", "Segundo nombre", "Apellidos", "Organización", "Categorías", "E-mail Address",
                                     "E-mail Type", "Nombre de pantalla de correo electrónico", "Teléfono del trabajo",
                                     "Mobile Phone"]),
        Case(language: "it", names: ["Nome", "Secondo nome", "Cognome", "Società", "Categorie", "Indirizzo posta elettronica",
                                     "Tipo posta elettronica", "Nome visualizzato posta elettronica", "Ufficio", "Cellulare"]),
        Case(language: "nl", names: ["Voornaam", "Middelste naam", "Achternaam", "Bedrijf", "Categorieën", "E-mailadres",
                                     "E-mailtype", "Weergavenaam voor e-mail", "Telefoon op werk", "Mobiele telefoon"]),
        Case(language: "pt-BR", names: ["Primeiro nome", "Segundo nome", "Sobrenome", "Empresa", "Categorias",
                                        "E-mail Address", "Tipo de email", "Nome para exibição do email",
                                        "Telefone comercial", "Telefone celular"]),
        Case(language: "pt-PT", names: ["Primeiro nome", "Outros nomes/apelidos", "Apelido", "Empresa", "Categorias",
                                        "Endereço de correio electrónico", "Tipo de correio electrónico",
                                        "Nome a apresentar para o correio electrónico", "Telefone da empresa", "Telemóvel"]),
        Case(language: "sv", names: ["Förnamn", "Mellannamn", "Efternamn", "Företag", "Kategorier", "E-postadress",
                                     "E-posttyp", "E-postnamn", "Arbete", "Mobiltelefon"]),
        Case(language: "da", names: ["Fornavn", "Mellemnavn", "Efternavn", "Firma", "Kategorier", "E-mail-adresse",
                                     "E-mail-type", "E-mail-vist navn", "Telefon (arbejde)", "Mobiltelefon"]),
        Case(language: "nb", names: ["Fornavn", "Mellomnavn", "Etternavn", "Firma", "Kategorier", "E-postadresse",
                                     "E-posttype", "Visningsnavn for e-post", "Telefon, arb.", "Mobiltelefon"]),
        Case(language: "fi", names: ["Etunimi", "Toinen nimi", "Sukunimi", "Yritys", "Luokat", "Sähköpostiosoite",
                                     "Sähköpostin laji", "Näytettävä sähköpostinimi", "Työpuhelin", "Matkapuhelin"]),
        Case(language: "pl", names: ["Imię", "Drugie imię", "Nazwisko", "Firma", "Kategorie", "Adres e-mail",
                                     "Typ poczty e-mail", "Wyświetlana nazwa e-mail", "Telefon służbowy", "Telefon komórkowy"]),
        Case(language: "ja", names: ["名", "ミドル ネーム", "姓", "会社名", "分類", "電子メール アドレス", "電子メールの種類",
                                     "電子メール表示名", "会社電話", "携帯電話"]),
    ]

    static let values = ["Anna", "Maria", "Berg", "Berg & Söhne", "Kunden;VIP", "anna@berg.example", "SMTP",
                         "Anna Berg (anna@berg.example)", "+49 30 1234567", "+49 170 7654321"]

    static func csv(_ names: [String], _ values: [String], delimiter: String = ",") -> String {
        names.map { "\"\($0)\"" }.joined(separator: delimiter) + "\r\n"
            + values.map { "\"\($0)\"" }.joined(separator: delimiter) + "\r\n"
    }

    static func check(_ result: ContactImportResult, _ label: String) {
        #expect(result.format == .outlookCSV, "\(label)")
        #expect(result.problems.isEmpty, "\(label): \(described(result.problems))")
        let c = result.contacts.first
        #expect(c?.displayName == "Anna Maria Berg", "\(label)")
        #expect(c?.name == StructuredName(family: ["Berg"], given: ["Anna"], additional: ["Maria"]), "\(label)")
        #expect(c?.organization == "Berg & Söhne", "\(label)")
        #expect(c?.categories == ["Kunden", "VIP"], "\(label)")
        #expect(c?.emails == [ContactEmail(address: "anna@berg.example")], "\(label)")
        #expect(c?.phones == ["+49 30 1234567", "+49 170 7654321"], "\(label)")
    }

    @Test(arguments: cases)
    func eachLanguagesHeaderGivesTheContact(_ language: Case) {
        Self.check(importCSV(Self.csv(language.names, Self.values)), language.language)
        // Excel in much of Europe writes `;`; the header's case and spaces do not matter.
        let shouted = language.names.map { "  " + $0.uppercased() + " " }
        Self.check(importCSV(Self.csv(shouted, Self.values, delimiter: ";")), "\(language.language) upper-case ;")
        // A byte order mark before the header.
        let marked = ContactImporter.import([0xEF, 0xBB, 0xBF] + Array(Self.csv(language.names, Self.values).utf8))
        Self.check(marked, "\(language.language) BOM")
    }

    /// A seeded random order and subset of a language's columns still
    /// gives the same parts of the contact.
    @Test(arguments: cases)
    func anyOrderAndSubsetOfTheColumnsReads(_ language: Case) {
        var rng = SplitMix64(seed: 0xC5F + UInt64(language.language.utf8.count))
        for round in 0..<30 {
            // Keep the address (Outlook's marker) and drop others at random.
            var picked = [5] + (0..<10).filter { $0 != 5 && rng.below(3) != 0 }
            for k in stride(from: picked.count - 1, to: 0, by: -1) { picked.swapAt(k, rng.below(k + 1)) }
            let result = importCSV(Self.csv(picked.map { language.names[$0] }, picked.map { Self.values[$0] }))
            let label = "\(language.language) round \(round) columns \(picked)"
            #expect(result.format == .outlookCSV, "\(label)")
            #expect(result.problems.isEmpty, "\(label): \(described(result.problems))")
            guard let c = result.contacts.first else {
                Issue.record("\(label): no contact")
                continue
            }
            #expect(c.emails.map(\.address) == ["anna@berg.example"], "\(label)")
            #expect(c.name.given == (picked.contains(0) ? ["Anna"] : []), "\(label)")
            #expect(c.name.family == (picked.contains(2) ? ["Berg"] : []), "\(label)")
            #expect(c.organization == (picked.contains(3) ? "Berg & Söhne" : nil), "\(label)")
            let phones = [8, 9].filter { picked.contains($0) }.sorted { picked.firstIndex(of: $0)! < picked.firstIndex(of: $1)! }
            #expect(c.phones == phones.map { Self.values[$0] }, "\(label)")
            let named = picked.contains(0) || picked.contains(1) || picked.contains(2)
            #expect(c.displayName == (named ? c.name.formatted : picked.contains(7) ? "Anna Berg" : picked.contains(3) ? "Berg & Söhne" : nil),
                    "\(label)")
        }
    }

    /// One name, one role: a name two languages use means the same in both.
    @Test func noHeaderNameHasTwoRoles() {
        for tables in [CSVHeaders.outlook, CSVHeaders.thunderbird] {
            var seen: [String: (String, CSVRole)] = [:]
            for table in tables {
                for (name, role) in table.columns {
                    let key = CSVHeaders.normalized(name)
                    if let (language, earlier) = seen[key] {
                        #expect(earlier == role, "'\(name)' is \(earlier) in \(language) and \(role) in \(table.language)")
                    }
                    seen[key] = (table.language, role)
                }
            }
        }
    }

    @Test func thunderbirdsGermanHeader() {
        let text = "Vorname,Nachname,Anzeigename,Spitzname,Primäre E-Mail-Adresse,Sekundäre E-Mail-Adresse,Tel. dienstlich,Organisation\n"
            + "Jörg,Strauß,Jörg S.,Jogi,joerg@strauss.example,js@firma.example,+49 89 123,Firma GmbH\n"
        let result = importCSV(text)
        #expect(result.format == .thunderbirdCSV)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        let c = result.contacts.first
        #expect(c?.displayName == "Jörg S.")
        #expect(c?.name == StructuredName(family: ["Strauß"], given: ["Jörg"]))
        #expect(c?.nicknames == ["Jogi"])
        #expect(c?.emails.map(\.address) == ["joerg@strauss.example", "js@firma.example"])
        #expect(c?.phones == ["+49 89 123"])
        #expect(c?.organization == "Firma GmbH")
    }
}
