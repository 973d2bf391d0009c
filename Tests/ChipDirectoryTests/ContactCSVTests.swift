import Testing
@testable import ChipDirectory

func importCSV(_ text: String, strict: Bool = false, groups: Bool = true) -> ContactImportResult {
    ContactImporter.import(Array(text.utf8), options: ContactImportOptions(strict: strict, groupsFromCategories: groups))
}

/// The headers the exporters write (column names as they document them).
enum ExporterHeaders {
    static let googleLegacy = "Name,Given Name,Additional Name,Family Name,Yomi Name,Given Name Yomi,Additional Name Yomi,Family Name Yomi,Name Prefix,Name Suffix,Initials,Nickname,Short Name,Maiden Name,Birthday,Gender,Location,Billing Information,Directory Server,Mileage,Occupation,Hobby,Sensitivity,Priority,Subject,Notes,Language,Photo,Group Membership,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Type,E-mail 2 - Value,Phone 1 - Type,Phone 1 - Value,Organization 1 - Type,Organization 1 - Name,Organization 1 - Yomi Name,Organization 1 - Title"
    static let googleCurrent = "First Name,Middle Name,Last Name,Phonetic First Name,Phonetic Middle Name,Phonetic Last Name,Name Prefix,Name Suffix,Nickname,File As,Organization Name,Organization Title,Organization Department,Birthday,Notes,Photo,Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label,Phone 1 - Value"
    static let outlook = "\"Title\",\"First Name\",\"Middle Name\",\"Last Name\",\"Suffix\",\"Nickname\",\"Company\",\"Department\",\"Job Title\",\"Business Street\",\"Business City\",\"Home Phone\",\"Mobile Phone\",\"Categories\",\"E-mail Address\",\"E-mail Type\",\"E-mail Display Name\",\"E-mail 2 Address\",\"E-mail 2 Type\",\"E-mail 2 Display Name\",\"E-mail 3 Address\",\"E-mail 3 Type\",\"E-mail 3 Display Name\",\"Notes\""
    static let thunderbird = "First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email,Screen Name,Work Phone,Home Phone,Fax Number,Pager Number,Mobile Number,Home Address,Home Address 2,Home City,Home State,Home ZipCode,Home Country,Work Address,Work Address 2,Work City,Work State,Work ZipCode,Work Country,Job Title,Department,Organization,Web Page 1,Web Page 2,Birth Year,Birth Month,Birth Day,Custom 1,Custom 2,Custom 3,Custom 4,Notes,"

    /// A row for `header` with the named columns filled in and the rest empty.
    static func row(_ header: String, _ values: [String: String], delimiter: Character = ",") -> String {
        let names = header.split(separator: delimiter, omittingEmptySubsequences: false)
            .map { $0.replacingOccurrencesOfQuotes() }
        return names.map { values[$0].map(quoted) ?? "" }.joined(separator: String(delimiter))
    }

    static func quoted(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == ";" }) else { return s }
        return "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}

extension Substring {
    func replacingOccurrencesOfQuotes() -> String { String(filter { $0 != "\"" }) }
}

@Suite("CSV: the exporters' layouts")
struct ContactCSVLayoutTests {
    /// An exporter's address column (Outlook's `E-mail Address`,
    /// Thunderbird's `Primary Email`, Google's `E-mail 1 - Value`) beside
    /// a plain name column: the layout's table does not name that column,
    /// and its names were dropped without a word. A column whose name says
    /// it holds a name is read when the layout's own columns gave none.
    @Test(arguments: [
        ("Name,E-mail Address", "outlook-csv"), ("Full Name,E-mail Address", "outlook-csv"),
        ("Display Name,E-mail Address", "outlook-csv"), ("Name,Primary Email", "thunderbird-csv"),
        ("Display Name,E-mail 1 - Value", "google-csv"), ("Name,Email", "csv"),
    ])
    func aNameColumnBesideAnExportersAddressColumnIsRead(_ header: String, _ format: String) {
        let result = importCSV(header + "\r\nAnn Lee,ann@example.org\r\n")
        #expect(result.format.rawValue == format)
        #expect(result.contacts.map(\.displayName) == ["Ann Lee"], "\(result.problems)")
        #expect(result.contacts.first?.emails.map(\.address) == ["ann@example.org"])
    }

    /// The layout's own name columns win over a plain one.
    @Test func theLayoutsOwnNameColumnsWin() {
        let result = importCSV("First Name,Last Name,Name,E-mail Address\r\nAnn,Lee,Annie,ann@example.org\r\n")
        #expect(result.contacts.map(\.displayName) == ["Ann Lee"])
    }

    @Test func googleLegacyExport() {
        let h = ExporterHeaders.googleLegacy
        let text = [
            h,
            ExporterHeaders.row(h, [
                "Name": "José Luis Ortiz", "Given Name": "José", "Additional Name": "Luis", "Family Name": "Ortiz",
                "Nickname": "Pepe", "Group Membership": "* myContacts ::: Friends ::: * starred",
                "E-mail 1 - Type": "* Home", "E-mail 1 - Value": "jose@ortiz.es ::: pepe@ortiz.es",
                "E-mail 2 - Type": "Work", "E-mail 2 - Value": "jl.ortiz@empresa.es",
                "Organization 1 - Name": "Empresa, S.A.",
            ]),
            ExporterHeaders.row(h, ["Name": "Zoë Brandt", "Group Membership": "* myContacts ::: Friends",
                                    "E-mail 1 - Type": "Other", "E-mail 1 - Value": "zoe@brandt.de"]),
        ].joined(separator: "\r\n") + "\r\n"
        let result = importCSV(text)
        #expect(result.format == .googleCSV)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        guard result.contacts.count == 3 else {
            Issue.record("\(result.contacts.count) contacts")
            return
        }
        let jose = result.contacts[0]
        #expect(jose.displayName == "José Luis Ortiz")
        #expect(jose.name == StructuredName(family: ["Ortiz"], given: ["José"], additional: ["Luis"]))
        #expect(jose.nicknames == ["Pepe"])
        #expect(jose.organization == "Empresa, S.A.")
        // Google's own labels (`* myContacts`, `* starred`) are no lists.
        #expect(jose.categories == ["Friends"])
        #expect(jose.emails == [
            ContactEmail(address: "jose@ortiz.es", types: ["home"], pref: 1),
            ContactEmail(address: "pepe@ortiz.es", types: ["home"]),
            ContactEmail(address: "jl.ortiz@empresa.es", types: ["work"]),
        ])
        #expect(jose.source == .csv)
        #expect(result.contacts.map(\.line) == [2, 3, 2])
        // One list per category, after the rows, with the members' preferred addresses.
        #expect(result.contacts[2] .kind == .group)
        #expect(result.contacts[2].displayName == "Friends")
        #expect(result.contacts[2].members == ["jose@ortiz.es", "zoe@brandt.de"])
    }

    @Test func googleCurrentExport() {
        let h = ExporterHeaders.googleCurrent
        let text = h + "\n" + ExporterHeaders.row(h, [
            "First Name": "Nguyễn", "Middle Name": "Văn", "Last Name": "An", "Name Prefix": "Ông", "Nickname": "Anh",
            "Organization Name": "Công ty ABC", "Labels": "* myContacts ::: Gia đình",
            "E-mail 1 - Label": "* Work", "E-mail 1 - Value": "an@abc.vn", "E-mail 2 - Label": "Home",
            "E-mail 2 - Value": "an.nguyen@mail.vn",
        ]) + "\n"
        let result = importCSV(text)
        #expect(result.format == .googleCSV)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        let c = result.contacts.first
        #expect(c?.displayName == "Ông Nguyễn Văn An")
        #expect(c?.name == StructuredName(family: ["An"], given: ["Nguyễn"], additional: ["Văn"], prefixes: ["Ông"]))
        #expect(c?.organization == "Công ty ABC")
        #expect(c?.categories == ["Gia đình"])
        #expect(c?.emails == [ContactEmail(address: "an@abc.vn", types: ["work"], pref: 1),
                              ContactEmail(address: "an.nguyen@mail.vn", types: ["home"])])
    }

    @Test func outlookExport() {
        let h = ExporterHeaders.outlook
        let text = h + "\r\n" + ExporterHeaders.row(h, [
            "Title": "Dr.", "First Name": "Ingrid", "Middle Name": "Maria", "Last Name": "Søndergård", "Suffix": "PhD",
            "Nickname": "Inga", "Company": "Nordisk A/S", "Categories": "Work;Book club; VIP",
            "E-mail Address": "ingrid@nordisk.dk", "E-mail Type": "SMTP", "E-mail Display Name": "Ingrid Søndergård (ingrid@nordisk.dk)",
            "E-mail 2 Address": "inga@home.dk", "E-mail 3 Address": "i.s@uni.dk", "Mobile Phone": "+45 20 12 34 56",
            "Notes": "Met at the conference,\nsecond day",
        ]).split(separator: ",", omittingEmptySubsequences: false).map { $0.isEmpty ? "\"\"" : String($0) }
            .joined(separator: ",") + "\r\n"
            + ExporterHeaders.row(h, ["E-mail Address": "noname@x.org", "E-mail Display Name": "Pat Doe (noname@x.org)"]) + "\r\n"
        let result = importCSV(text)
        #expect(result.format == .outlookCSV)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        let c = result.contacts.first
        #expect(c?.displayName == "Dr. Ingrid Maria Søndergård PhD")
        #expect(c?.name == StructuredName(family: ["Søndergård"], given: ["Ingrid"], additional: ["Maria"],
                                          prefixes: ["Dr."], suffixes: ["PhD"]))
        #expect(c?.nicknames == ["Inga"])
        #expect(c?.organization == "Nordisk A/S")
        #expect(c?.categories == ["Work", "Book club", "VIP"])
        #expect(c?.emails.map(\.address) == ["ingrid@nordisk.dk", "inga@home.dk", "i.s@uni.dk"])
        #expect(c?.emails.allSatisfy { $0.types.isEmpty && $0.pref == nil } == true)
        #expect(c?.phones == ["+45 20 12 34 56"])
        // Without a name, the name in the address's display name.
        #expect(result.contacts.count >= 2)
        #expect(result.contacts[1].displayName == "Pat Doe")
        // The quoted line break in the notes makes the second row start on line 4.
        #expect(result.contacts.prefix(2).map(\.line) == [2, 4])
        #expect(result.contacts.filter { $0.kind == .group }.map(\.displayName) == ["Work", "Book club", "VIP"])
    }

    @Test func thunderbirdExportWithItsTrailingComma() {
        let h = ExporterHeaders.thunderbird
        let text = h + "\n"
            + ExporterHeaders.row(h, ["First Name": "Łukasz", "Last Name": "Wróbel", "Display Name": "Łukasz W.",
                                      "Nickname": "Łukasz", "Primary Email": "lukasz@wrobel.pl",
                                      "Secondary Email": "l.wrobel@firma.pl", "Organization": "Firma sp. z o.o.",
                                      "Work Phone": "+48 22 123 45 67", "Mobile Number": "+48 601 234 567"]) + "\n"
            + ExporterHeaders.row(h, ["First Name": "Ahmet", "Last Name": "Yılmaz", "Primary Email": "ahmet@yilmaz.com.tr"]) + "\n"
        let result = importCSV(text)
        #expect(result.format == .thunderbirdCSV)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.displayName) == ["Łukasz W.", "Ahmet Yılmaz"])
        #expect(result.contacts.first?.name == StructuredName(family: ["Wróbel"], given: ["Łukasz"]))
        #expect(result.contacts.first?.emails.map(\.address) == ["lukasz@wrobel.pl", "l.wrobel@firma.pl"])
        #expect(result.contacts.first?.organization == "Firma sp. z o.o.")
        #expect(result.contacts.first?.nicknames == ["Łukasz"])
        #expect(result.contacts.first?.phones == ["+48 22 123 45 67", "+48 601 234 567"])
    }

    @Test(arguments: [
        ("Name,Email\nAnn Lee,ann@x.org\n", ContactFileFormat.genericCSV, "Ann Lee", ["ann@x.org"]),
        // German Outlook names (`E-Mail 2` is no Outlook name, but says it holds addresses).
        ("Vorname;Nachname;E-Mail-Adresse;E-Mail 2\nJürgen;Groß;jg@gross.de;j@g.de\n", .outlookCSV, "Jürgen Groß",
         ["jg@gross.de", "j@g.de"]),
        ("full name\tmail\tcourriel pro\nRené Lévesque\trene@x.ca\tr.levesque@gouv.qc.ca\n", .genericCSV, "René Lévesque",
         ["rene@x.ca", "r.levesque@gouv.qc.ca"]),
        ("First Name,Last Name,Email Address,Email Type\nAnn,Lee,ann@x.org,home\n", .genericCSV, "Ann Lee", ["ann@x.org"]),
    ] as [(String, ContactFileFormat, String?, [String])])
    func otherLayoutsAreReadByColumnName(_ text: String, _ format: ContactFileFormat, _ name: String?, _ emails: [String]) {
        let result = importCSV(text)
        #expect(result.format == format)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.first?.displayName == name)
        #expect(result.contacts.first?.emails.map(\.address) == emails)
    }

    @Test(arguments: ["Foo,Bar\n1,2\n", "Please mail me,soon\n", "Notes,Phone\nfriend,+1 555 0100\n"])
    func aHeaderWithoutNameOrAddressColumnsIsNoAddressBook(_ text: String) {
        let result = importCSV(text)
        #expect(result.format == .unknown)
        #expect(result.contacts.isEmpty)
        #expect(result.problems.count == 1)
    }
}

@Suite("CSV: RFC 4180 records")
struct ContactCSVRecordTests {
    @Test(arguments: [
        // Quoted fields hold delimiters, doubled quotes and line breaks.
        ("Name,Email\n\"Lee, Ann\",ann@x.org\n", "Lee, Ann", 2),
        ("Name,Email\n\"Ann \"\"Nan\"\" Lee\",ann@x.org\n", "Ann \"Nan\" Lee", 2),
        ("Name,Email,Notes\n\"Ann\",ann@x.org,\"one\r\ntwo\nthree\"\nBob,b@x.org,\n", "Bob", 5),
        // Semicolons and tabs, found from the header line.
        ("Name;Email\n\"Lee; Ann\";ann@x.org\n", "Lee; Ann", 2),
        ("Name\tEmail\nAnn, Lee\tann@x.org\n", "Ann, Lee", 2),
        // Blank lines before the header and between rows are skipped silently.
        ("\n\nName,Email\n\n   \nAnn,ann@x.org\n", "Ann", 6),
        // No final line break; a CR alone ends a line.
        ("Name,Email\rAnn,ann@x.org", "Ann", 2),
    ])
    func quotedFieldsAndDelimiters(_ text: String, _ lastName: String, _ lastLine: Int) {
        let result = importCSV(text)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.last?.displayName == lastName)
        #expect(result.contacts.last?.line == lastLine)
    }

    @Test(arguments: [
        ("Name,Email\nAnn,ann@x.org,extra\nBob,b@x.org\n", false, ["2: 3 fields where the header has 2"], ["Bob"]),
        ("Name,Email\nAnn\nBob,b@x.org\n", false, ["2: 1 field where the header has 2"], ["Bob"]),
        // Empty rows say nothing.
        ("Name,Email\n,\n , \nBob,b@x.org\n", false, [], ["Bob"]),
        // A quote that never closes is read as text, to the end of its field; the rows after it stay.
        ("Name,Email\nBob,b@x.org\n\"Open,x@y.org\nnext,z@y.org\n", false,
         ["3: the quoted field opened on line 3 is never closed; its quote was read as text up to the end of the field"],
         ["Bob", "Open", "next"]),
        ("Name,Email\nBob,b@x.org\n\"Open,x@y.org\nnext,z@y.org\n", true,
         ["3: the quoted field opened on line 3 is never closed"], ["Bob", "next"]),
        ("Name,Email\nAnn \"A\" Lee,ann@x.org\n", false, [], ["Ann \"A\" Lee"]),
        ("Name,Email\nAnn \"A\" Lee,ann@x.org\n", true, ["2: a quote inside an unquoted field on line 2"], []),
        ("Name,Email\n\"Ann\" Lee,ann@x.org\n", false, [], ["Ann Lee"]),
        ("Name,Email\n\"Ann\" Lee,ann@x.org\n", true, ["2: text after a closing quote on line 2"], []),
        ("Name,Email\n\"Ann\"  ,ann@x.org\n", true, [], ["Ann"]),
    ] as [(String, Bool, [String], [String])])
    func malformedRowsAreProblemsWithTheirLine(_ text: String, _ strict: Bool, _ problems: [String], _ names: [String]) {
        let result = importCSV(text, strict: strict)
        #expect(described(result.problems) == problems)
        #expect(result.contacts.map { $0.displayName ?? "" } == names)
    }

    @Test func categoriesNeedNotMakeGroups() {
        let text = "Name,Email,Categories\nAnn,ann@x.org,Friends;Work\nBob,,Friends\n"
        let with = importCSV(text)
        #expect(with.contacts.map(\.kind) == [.individual, .individual, .group, .group])
        // A member without an address is named by its identity.
        #expect(with.contacts[2].members == ["ann@x.org", with.contacts[1].id.rawValue])
        let without = importCSV(text, groups: false)
        #expect(without.contacts.map(\.kind) == [.individual, .individual])
        #expect(without.contacts[0].categories == ["Friends", "Work"])
    }

    @Test func identitiesAreDerivedFromNameAddressAndSource() {
        let result = importCSV("Name,Email\nAnn,ann@x.org\nAnn,ann@x.org\n,bob@x.org\n", groups: false)
        let ann = referenceFNV(["Ann", "ann@x.org", "csv"])
        #expect(result.contacts.map(\.id.rawValue) == [ann, ann + "-2", referenceFNV(["", "bob@x.org", "csv"])])
    }
}

@Suite("CSV: text encodings")
struct ContactCSVEncodingTests {
    static let text = "First Name,Last Name,Primary Email\r\nZoë,Ångström,zoe@x.se\r\n"

    @Test(arguments: [
        ("UTF-8", Array(text.utf8), "UTF-8"),
        ("UTF-8 BOM", [0xEF, 0xBB, 0xBF] + Array(text.utf8), "UTF-8"),
        ("UTF-16LE BOM", [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16LE"),
        ("UTF-16BE BOM", [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16BE"),
        ("windows-1252", text.unicodeScalars.map { UInt8($0.value) }, "windows-1252 (default)"),
    ] as [(String, [UInt8], String)])
    func exportsInEveryEncodingRead(_ name: String, _ bytes: [UInt8], _ encoding: String) {
        let result = ContactImporter.import(bytes)
        #expect(result.textEncoding == encoding, "\(name)")
        #expect(result.problems.isEmpty, "\(name): \(described(result.problems))")
        #expect(result.contacts.first?.displayName == "Zoë Ångström", "\(name)")
    }

    @Test func theDefaultCharsetReadsTextThatIsNotUTF8() {
        // ISO-8859-15 differs from windows-1252 at 0xA4; KOI8-R reads 0xE9 as И.
        let bytes = Array("Name,Email\n".utf8) + [0xA4, 0x20, 0x41] + Array(",a@x.org\n".utf8)
        #expect(ContactImporter.import(bytes).contacts.first?.displayName == "¤ A")
        let latin9 = ContactImporter.import(bytes, options: ContactImportOptions(defaultCharset: "iso-8859-15"))
        #expect(latin9.contacts.first?.displayName == "€ A")
        #expect(latin9.textEncoding == "iso-8859-15 (given)")
        let cyrillic = Array("Name,Email\n".utf8) + [0xE9, 0xD7, 0xC1, 0xCE] + Array(",i@x.org\n".utf8)
        let koi8 = ContactImporter.import(cyrillic, options: ContactImportOptions(defaultCharset: "koi8-r"))
        #expect(koi8.contacts.first?.displayName == "Иван")
    }
}
