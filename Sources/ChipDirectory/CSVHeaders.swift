// The column names address-book exporters write in CSV headers, as data:
// Outlook in each language it speaks, Thunderbird, and the names a
// spreadsheet of unknown origin tends to use.

/// What a CSV column holds.
enum CSVRole: Hashable, Sendable {
    case displayName, given, middle, family, prefix, suffix, nickname, organization, categories
    /// A telephone number (any kind but fax and pager).
    case phone
    /// The address of the `N`th e-mail (1-based).
    case email(Int)
    /// Outlook's `E-mail N Type` (`SMTP`, `EX`).
    case emailType(Int)
    /// Outlook's `E-mail N Display Name` (`Ann Lee (ann@x.org)`).
    case emailDisplayName(Int)
}

/// The header names of the exporters, by language. Names are compared
/// after ``CSVHeaders/normalized(_:)``: without case, surrounding white
/// space, a byte order mark, and with `’` read as `'`.
///
/// Outlook writes its CSV header in the language of its user interface
/// (the names below are the ones its export writes; a few columns keep
/// their English name in some languages, as the Spanish and Brazilian
/// `E-mail Address`). Fax and pager columns are left out: they are not a
/// way to reach a person that this library shows.
enum CSVHeaders {
    /// Outlook's columns, one table per language.
    static let outlook: [(language: String, columns: [(String, CSVRole)])] = [
        ("en", [
            ("Title", .prefix), ("First Name", .given), ("Middle Name", .middle), ("Last Name", .family),
            ("Suffix", .suffix), ("Nickname", .nickname), ("Company", .organization), ("Categories", .categories),
            ("E-mail Address", .email(1)), ("E-mail Type", .emailType(1)), ("E-mail Display Name", .emailDisplayName(1)),
            ("E-mail 2 Address", .email(2)), ("E-mail 2 Type", .emailType(2)), ("E-mail 2 Display Name", .emailDisplayName(2)),
            ("E-mail 3 Address", .email(3)), ("E-mail 3 Type", .emailType(3)), ("E-mail 3 Display Name", .emailDisplayName(3)),
            ("Business Phone", .phone), ("Business Phone 2", .phone), ("Home Phone", .phone), ("Home Phone 2", .phone),
            ("Mobile Phone", .phone), ("Primary Phone", .phone), ("Company Main Phone", .phone), ("Other Phone", .phone),
            ("Car Phone", .phone),
        ]),
        ("de", [
            ("Anrede", .prefix), ("Vorname", .given), ("Weitere Vornamen", .middle), ("Nachname", .family),
            ("Suffix", .suffix), ("Firma", .organization), ("Kategorien", .categories),
            ("E-Mail-Adresse", .email(1)), ("E-Mail-Typ", .emailType(1)), ("E-Mail: Angezeigter Name", .emailDisplayName(1)),
            ("E-Mail 2: Adresse", .email(2)), ("E-Mail 2: Typ", .emailType(2)), ("E-Mail 2: Angezeigter Name", .emailDisplayName(2)),
            ("E-Mail 3: Adresse", .email(3)), ("E-Mail 3: Typ", .emailType(3)), ("E-Mail 3: Angezeigter Name", .emailDisplayName(3)),
            ("Telefon geschäftlich", .phone), ("Telefon geschäftlich 2", .phone), ("Telefon privat", .phone),
            ("Telefon privat 2", .phone), ("Telefon (privat)", .phone), ("Telefon (privat 2)", .phone),
            ("Mobiltelefon", .phone), ("Mobiltelefon 2", .phone), ("Haupttelefon", .phone), ("Telefon Firma", .phone),
            ("Weiteres Telefon", .phone), ("Autotelefon", .phone),
        ]),
        ("fr", [
            ("Prénom", .given), ("Deuxième prénom", .middle), ("Nom", .family), ("Suffixe", .suffix),
            ("Société", .organization), ("Catégories", .categories),
            ("Adresse de messagerie", .email(1)), ("Type de messagerie", .emailType(1)),
            ("Nom complet de l'adresse de messagerie", .emailDisplayName(1)),
            ("Adresse de messagerie 2", .email(2)), ("Type de messagerie 2", .emailType(2)),
            ("Nom complet de l'adresse de messagerie 2", .emailDisplayName(2)),
            ("Adresse de messagerie 3", .email(3)), ("Type de messagerie 3", .emailType(3)),
            ("Nom complet de l'adresse de messagerie 3", .emailDisplayName(3)),
            ("Téléphone (bureau)", .phone), ("Téléphone 2 (bureau)", .phone), ("Téléphone (domicile)", .phone),
            ("Téléphone 2 (domicile)", .phone), ("Tél. mobile", .phone), ("Téléphone principal", .phone),
            ("Téléphone société", .phone), ("Téléphone (autre)", .phone), ("Téléphone (voiture)", .phone),
        ]),
        ("es", [
            ("Nombre", .given), ("Segundo nombre", .middle), ("Apellidos", .family), ("Organización", .organization),
            ("Categorías", .categories),
            ("Dirección de correo electrónico", .email(1)), ("Tipo de correo electrónico", .emailType(1)),
            ("Nombre de pantalla de correo electrónico", .emailDisplayName(1)),
            ("Dirección de correo electrónico 2", .email(2)), ("Tipo de correo electrónico 2", .emailType(2)),
            ("Nombre de pantalla de correo electrónico 2", .emailDisplayName(2)),
            ("Dirección del correo electrónico 3", .email(3)), ("Dirección de correo electrónico 3", .email(3)),
            ("Tipo de correo electrónico 3", .emailType(3)),
            ("Nombre de pantalla de correo electrónico 3", .emailDisplayName(3)),
            ("Teléfono del trabajo", .phone), ("Particular", .phone), ("Teléfono móvil", .phone),
            ("Teléfono principal", .phone), ("Número de centralita de la organización", .phone),
            ("Otro teléfono", .phone),
        ]),
        ("it", [
            ("Titolo", .prefix), ("Nome", .given), ("Secondo nome", .middle), ("Cognome", .family),
            ("Titolo straniero", .suffix), ("Società", .organization), ("Categorie", .categories),
            ("Indirizzo posta elettronica", .email(1)), ("Tipo posta elettronica", .emailType(1)),
            ("Nome visualizzato posta elettronica", .emailDisplayName(1)),
            ("Indirizzo posta elettronica 2", .email(2)), ("Tipo posta elettronica 2", .emailType(2)),
            ("Nome visualizzato posta elettronica 2", .emailDisplayName(2)),
            ("Indirizzo posta elettronica 3", .email(3)), ("Tipo posta elettronica 3", .emailType(3)),
            ("Nome visualizzato posta elettronica 3", .emailDisplayName(3)),
            ("Ufficio", .phone), ("Ufficio 2", .phone), ("Abitazione", .phone), ("Abitazione 2", .phone),
            ("Cellulare", .phone), ("Telefono principale", .phone), ("Telefono principale società", .phone),
            ("Altro telefono", .phone), ("Telefono auto", .phone),
        ]),
        ("nl", [
            ("Titel", .prefix), ("Voornaam", .given), ("Middelste naam", .middle), ("Achternaam", .family),
            ("Achtervoegsel", .suffix), ("Bedrijf", .organization), ("Categorieën", .categories),
            ("E-mailadres", .email(1)), ("E-mailtype", .emailType(1)), ("Weergavenaam voor e-mail", .emailDisplayName(1)),
            ("E-mailadres 2", .email(2)), ("E-mailtype 2", .emailType(2)), ("Weergavenaam voor e-mail 2", .emailDisplayName(2)),
            ("E-mailadres 3", .email(3)), ("E-mailtype 3", .emailType(3)), ("Weergavenaam voor e-mail 3", .emailDisplayName(3)),
            ("Telefoon op werk", .phone), ("Telefoon op werk 2", .phone), ("Telefoon thuis", .phone),
            ("Telefoon thuis 2", .phone), ("Mobiele telefoon", .phone), ("Hoofdtelefoon", .phone),
            ("Hoofdtelefoon bedrijf", .phone), ("Andere telefoon", .phone), ("Autotelefoon", .phone),
        ]),
        ("pt-BR", [
            ("Tratamento", .prefix), ("Primeiro nome", .given), ("Segundo nome", .middle), ("Sobrenome", .family),
            ("Sufixo", .suffix), ("Empresa", .organization), ("Categorias", .categories),
            ("Endereço de email", .email(1)), ("Tipo de email", .emailType(1)),
            ("Nome para exibição do email", .emailDisplayName(1)),
            ("Endereço de email 2", .email(2)), ("Tipo de email 2", .emailType(2)),
            ("Nome para exibição do email 2", .emailDisplayName(2)),
            ("Endereço de email 3", .email(3)), ("Tipo de email 3", .emailType(3)),
            ("Nome para exibição do email 3", .emailDisplayName(3)),
            ("Telefone comercial", .phone), ("Telefone comercial 2", .phone), ("Telefone residencial", .phone),
            ("Telefone residencial 2", .phone), ("Telefone celular", .phone), ("Telefone principal", .phone),
            ("Telefone principal da empresa", .phone), ("Outro telefone", .phone), ("Telefone do carro", .phone),
        ]),
        ("pt-PT", [
            ("Título", .prefix), ("Outros nomes/apelidos", .middle), ("Apelido", .family),
            ("Endereço de correio electrónico", .email(1)), ("Tipo de correio electrónico", .emailType(1)),
            ("Nome a apresentar para o correio electrónico", .emailDisplayName(1)),
            ("Endereço do correio electrónico 2", .email(2)), ("Tipo de correio electrónico 2", .emailType(2)),
            ("Nome a apresentar para o correio electrónico 2", .emailDisplayName(2)),
            ("Endereço do correio electrónico 3", .email(3)), ("Tipo de correio electrónico 3", .emailType(3)),
            ("Nome a apresentar para o correio electrónico 3", .emailDisplayName(3)),
            ("Telefone da empresa", .phone), ("2º telefone da empresa", .phone), ("Telefone da residência", .phone),
            ("2º telefone da residência", .phone), ("Telemóvel", .phone),
        ]),
        ("sv", [
            ("Förnamn", .given), ("Mellannamn", .middle), ("Efternamn", .family), ("Namnsuffix", .suffix),
            ("Företag", .organization), ("Kategorier", .categories),
            ("E-postadress", .email(1)), ("E-posttyp", .emailType(1)), ("E-postnamn", .emailDisplayName(1)),
            ("E-postadress 2", .email(2)), ("E-posttyp 2", .emailType(2)), ("E-postnamn 2", .emailDisplayName(2)),
            ("E-postadress 3", .email(3)), ("E-posttyp 3", .emailType(3)), ("E-postnamn 3", .emailDisplayName(3)),
            ("Arbete", .phone), ("Telefon 2, arbete", .phone), ("Hem", .phone), ("Telefon 2, hem", .phone),
            ("Telefon 1", .phone), ("Telefon 2", .phone), ("Företag, växel", .phone), ("Telefon, annan", .phone),
            ("Biltelefon", .phone),
        ]),
        ("da", [
            ("Titel", .prefix), ("Fornavn", .given), ("Mellemnavn", .middle), ("Efternavn", .family), ("Suffiks", .suffix),
            ("Firma", .organization), ("Kategorier", .categories),
            ("E-mail-adresse", .email(1)), ("E-mail-type", .emailType(1)), ("E-mail-vist navn", .emailDisplayName(1)),
            ("E-mail 2-adresse", .email(2)), ("E-mail 2-type", .emailType(2)), ("E-mail 2-vist navn", .emailDisplayName(2)),
            ("E-mail 3-adresse", .email(3)), ("E-mail 3-type", .emailType(3)), ("E-mail 3-vist navn", .emailDisplayName(3)),
            ("Telefon (arbejde)", .phone), ("Telefon 2 (arbejde)", .phone), ("Telefon (privat)", .phone),
            ("Telefon 2 (privat)", .phone), ("Mobiltelefon", .phone), ("Primær telefon", .phone), ("Primær telefon (firma)", .phone),
            ("Biltelefon", .phone),
        ]),
        ("nb", [
            ("Tittel", .prefix), ("Fornavn", .given), ("Mellomnavn", .middle), ("Etternavn", .family), ("Suffiks", .suffix),
            ("Firma", .organization), ("Kategorier", .categories),
            ("E-postadresse", .email(1)), ("E-posttype", .emailType(1)), ("Visningsnavn for e-post", .emailDisplayName(1)),
            ("E-postadresse 2", .email(2)), ("E-posttype 2", .emailType(2)), ("Visningsnavn for e-post 2", .emailDisplayName(2)),
            ("E-postadresse 3", .email(3)), ("E-posttype 3", .emailType(3)), ("Visningsnavn for e-post 3", .emailDisplayName(3)),
            ("Telefon, arb.", .phone), ("Telefon 2, arb.", .phone), ("Telefon, priv.", .phone), ("Telefon 2, priv.", .phone),
            ("Mobiltelefon", .phone), ("Hovedtelefon", .phone), ("Hovedtelefon for firma", .phone),
            ("Annen telefon", .phone),
        ]),
        ("fi", [
            ("Etunimi", .given), ("Toinen nimi", .middle), ("Sukunimi", .family), ("Jälkiliite", .suffix),
            ("Yritys", .organization), ("Luokat", .categories),
            ("Sähköpostiosoite", .email(1)), ("Sähköpostin laji", .emailType(1)),
            ("Näytettävä sähköpostinimi", .emailDisplayName(1)),
            ("Sähköpostiosoite 2", .email(2)), ("Sähköposti 2:n laji", .emailType(2)),
            ("Näytettävä sähköpostinimi 2", .emailDisplayName(2)),
            ("Sähköpostiosoite 3", .email(3)), ("Sähköposti 3:n laji", .emailType(3)),
            ("Näytettävä sähköpostinimi 3", .emailDisplayName(3)),
            ("Työpuhelin", .phone), ("Työpuhelin 2", .phone), ("Kotipuhelin", .phone), ("Kotipuhelin 2", .phone),
            ("Matkapuhelin", .phone), ("Ensisijainen puhelin", .phone), ("Yrityksen puhelinvaihde", .phone),
            ("Muu puhelin", .phone), ("Autopuhelin", .phone),
        ]),
        ("pl", [
            ("Tytuł", .prefix), ("Imię", .given), ("Drugie imię", .middle), ("Nazwisko", .family), ("Sufiks", .suffix),
            ("Firma", .organization), ("Kategorie", .categories),
            ("Adres e-mail", .email(1)), ("Typ poczty e-mail", .emailType(1)), ("Wyświetlana nazwa e-mail", .emailDisplayName(1)),
            ("Adres e-mail 2", .email(2)), ("Rodzaj e-mail 2", .emailType(2)), ("Wyświetlana nazwa e-mail 2", .emailDisplayName(2)),
            ("Adres e-mail 3", .email(3)), ("Rodzaj e-mail 3", .emailType(3)), ("Wyświetlana nazwa e-mail 3", .emailDisplayName(3)),
            ("Telefon służbowy", .phone), ("Telefon służbowy 2", .phone), ("Telefon domowy", .phone),
            ("Telefon domowy 2", .phone), ("Telefon komórkowy", .phone), ("Telefon podstawowy", .phone),
            ("Główny telefon do firmy", .phone), ("Inny telefon", .phone), ("Telefon w samochodzie", .phone),
        ]),
        ("ja", [
            ("肩書き", .prefix), ("名", .given), ("ミドル ネーム", .middle), ("姓", .family), ("敬称", .suffix),
            ("会社名", .organization), ("分類", .categories),
            ("電子メール アドレス", .email(1)), ("電子メールの種類", .emailType(1)), ("電子メール表示名", .emailDisplayName(1)),
            ("電子メール 2 アドレス", .email(2)), ("電子メール 2 の種類", .emailType(2)),
            ("電子メール 2 表示名", .emailDisplayName(2)),
            ("電子メール 3 アドレス", .email(3)), ("電子メール 3 の種類", .emailType(3)),
            ("電子メール 3 表示名", .emailDisplayName(3)),
            ("会社電話", .phone), ("会社電話 2", .phone), ("自宅電話", .phone), ("自宅電話 2", .phone),
            ("携帯電話", .phone), ("通常の電話", .phone), ("会社代表電話", .phone), ("その他の電話", .phone),
            ("自動車電話", .phone),
        ]),
    ]

    /// Thunderbird's columns, in English and in the languages whose
    /// Thunderbird writes translated names (German, French).
    static let thunderbird: [(language: String, columns: [(String, CSVRole)])] = [
        ("en", [
            ("First Name", .given), ("Last Name", .family), ("Display Name", .displayName), ("Nickname", .nickname),
            ("Primary Email", .email(1)), ("Secondary Email", .email(2)), ("Work Phone", .phone),
            ("Home Phone", .phone), ("Mobile Number", .phone), ("Organization", .organization),
        ]),
        ("de", [
            ("Vorname", .given), ("Nachname", .family), ("Anzeigename", .displayName), ("Spitzname", .nickname),
            ("Primäre E-Mail-Adresse", .email(1)), ("Sekundäre E-Mail-Adresse", .email(2)),
            ("Tel. dienstlich", .phone), ("Tel. privat", .phone), ("Mobil-Tel.-Nr.", .phone),
            ("Organisation", .organization),
        ]),
        ("fr", [
            ("Prénom", .given), ("Nom", .family), ("Nom à afficher", .displayName), ("Surnom", .nickname),
            ("Adresse électronique principale", .email(1)), ("Adresse électronique secondaire", .email(2)),
            ("Tél. professionnel", .phone), ("Tél. personnel", .phone), ("Portable", .phone),
            ("Société", .organization),
        ]),
    ]

    /// Names a layout of unknown origin uses (English, lower-case), read
    /// when no exporter's header matches.
    static let generic: [(String, CSVRole)] = [
        ("name", .displayName), ("display name", .displayName), ("full name", .displayName),
        ("formatted name", .displayName),
        ("first name", .given), ("given name", .given), ("firstname", .given), ("givenname", .given),
        ("middle name", .middle), ("additional name", .middle),
        ("last name", .family), ("family name", .family), ("surname", .family), ("lastname", .family),
        ("familyname", .family),
        ("name prefix", .prefix), ("prefix", .prefix), ("title", .prefix),
        ("name suffix", .suffix), ("suffix", .suffix),
        ("nickname", .nickname), ("nick name", .nickname),
        ("company", .organization), ("organization", .organization), ("organisation", .organization),
        ("organization name", .organization),
        ("categories", .categories), ("groups", .categories), ("group membership", .categories),
        ("labels", .categories),
        ("phone", .phone), ("telephone", .phone), ("phone number", .phone), ("tel", .phone),
        ("mobile", .phone), ("mobile phone", .phone), ("cell", .phone), ("cell phone", .phone),
        ("home phone", .phone), ("work phone", .phone), ("business phone", .phone),
    ]

    /// `name` as headers are compared: a byte order mark and surrounding
    /// white space (NBSP included) dropped, runs of inner white space one
    /// space, `’` as `'`, lower-cased by Unicode's rules.
    static func normalized(_ name: String) -> String {
        var out = ""
        var pendingSpace = false
        for c in name.unicodeScalars {
            if c == "\u{FEFF}" { continue }
            if c == " " || c == "\t" || c == "\u{A0}" || c == "\r" || c == "\n" {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.unicodeScalars.append(" ")
                pendingSpace = false
            }
            out.unicodeScalars.append(c == "\u{2019}" ? "'" : c)
        }
        return out.lowercased()
    }

    /// A table as a dictionary of normalized names; the first role given
    /// for a name wins (tests check that no name has two).
    static func lookup(_ tables: [(language: String, columns: [(String, CSVRole)])]) -> [String: CSVRole] {
        var out: [String: CSVRole] = [:]
        for table in tables {
            for (name, role) in table.columns where out[normalized(name)] == nil { out[normalized(name)] = role }
        }
        return out
    }

    static let outlookLookup = lookup(outlook)
    static let thunderbirdLookup = lookup(thunderbird)
    static let genericLookup = lookup([("generic", generic)])
}
