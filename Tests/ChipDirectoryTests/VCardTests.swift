import Testing
@testable import ChipDirectory

/// Imports `text` (line ends as written; `\n` in the literals below is
/// turned into CRLF unless `lf` is set).
func importVCard(_ text: String, strict: Bool = false, crlf: Bool = true, defaultCharset: String? = nil)
    -> ContactImportResult
{
    let bytes = Array((crlf ? text.replacingLineFeeds() : text).utf8)
    return ContactImporter.import(bytes, options: ContactImportOptions(strict: strict, defaultCharset: defaultCharset))
}

extension String {
    /// Every LF as CRLF, as RFC 6350 writes lines.
    func replacingLineFeeds() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar == "\n" { out.unicodeScalars.append("\r") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}

/// The problems of a result as `line: reason`, for readable expectations.
func described(_ problems: [ContactImportProblem]) -> [String] {
    problems.map { "\($0.line): \($0.message)" }
}

/// A reference FNV-1a, written apart from the library's.
func referenceFNV(_ parts: [String]) -> String {
    var h: UInt64 = 14_695_981_039_346_656_037
    for (k, part) in parts.enumerated() {
        if k > 0 { h = (h ^ 0) &* 1_099_511_628_211 }
        for b in part.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
    }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

@Suite("vCard: the RFCs' own examples")
struct VCardRFCExampleTests {
    /// RFC 6350 §8: the complete 4.0 example card.
    static let rfc6350Example = """
        BEGIN:VCARD
        VERSION:4.0
        FN:Simon Perreault
        N:Perreault;Simon;;;ing. jr,M.Sc.
        BDAY:--0203
        ANNIVERSARY:20090808T1430-0500
        GENDER:M
        LANG;PREF=1:fr
        LANG;PREF=2:en
        ORG;TYPE=work:Viagenie
        ADR;TYPE=work:;Suite D2-630;2875 Laurier;
         Quebec;QC;G1V 2M2;Canada
        TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102
        TEL;VALUE=uri;TYPE="work,cell,voice,video,text":tel:+1-418-262-6501
        EMAIL;TYPE=work:simon.perreault@viagenie.ca
        GEO;TYPE=work:geo:46.772673,-71.282945
        KEY;TYPE=work;VALUE=uri:
         http://www.viagenie.ca/simon.perreault/simon.asc
        TZ:-0500
        URL;TYPE=home:http://nomis80.org
        END:VCARD

        """

    @Test(arguments: [false, true])
    func rfc6350SectionEightCard(strict: Bool) {
        let result = importVCard(Self.rfc6350Example, strict: strict)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.format == .vCard)
        guard let c = result.contacts.first, result.contacts.count == 1 else {
            Issue.record("expected one contact, got \(result.contacts.count)")
            return
        }
        #expect(c.displayName == "Simon Perreault")
        #expect(c.name == StructuredName(family: ["Perreault"], given: ["Simon"], suffixes: ["ing. jr", "M.Sc."]))
        #expect(c.organization == "Viagenie")
        #expect(c.emails == [ContactEmail(address: "simon.perreault@viagenie.ca", types: ["work"])])
        #expect(c.kind == .individual)
        #expect(c.source == .vCard40)
        #expect(c.line == 1)
    }

    /// RFC 6350 §6.6.5: a group whose members are other cards' UIDs, then
    /// the members (which have names but no address).
    @Test func rfc6350GroupOfUIDs() {
        let result = importVCard("""
            BEGIN:VCARD
            VERSION:4.0
            KIND:group
            FN:The Doe family
            MEMBER:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af
            MEMBER:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:John Doe
            UID:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Jane Doe
            UID:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519
            END:VCARD

            """, strict: true)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        // The group follows the cards.
        #expect(result.contacts.map(\.displayName) == ["John Doe", "Jane Doe", "The Doe family"])
        #expect(result.contacts.map(\.kind) == [.individual, .individual, .group])
        #expect(result.contacts[2].members == [
            "urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af", "urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519",
        ])
        #expect(result.contacts[0].id == ContactID("urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af"))
        #expect(result.contacts.map(\.line) == [8, 13, 1])
    }

    /// RFC 6350 §6.6.5: a list of URIs of any scheme, kept as written.
    @Test func rfc6350DistributionList() {
        let result = importVCard("""
            BEGIN:VCARD
            VERSION:4.0
            KIND:group
            FN:Funky distribution list
            MEMBER:mailto:subscriber1@example.com
            MEMBER:xmpp:subscriber2@example.com
            MEMBER:sip:subscriber3@example.com
            MEMBER:tel:+1-418-555-5555
            END:VCARD

            """)
        #expect(result.contacts.first?.members == [
            "mailto:subscriber1@example.com", "xmpp:subscriber2@example.com", "sip:subscriber3@example.com",
            "tel:+1-418-555-5555",
        ])
        #expect(result.contacts.first?.kind == .group)
    }

    /// RFC 2426 §5: two 3.0 cards (in `vCard` case). They have no `N`,
    /// which the same RFC requires, so strict mode skips both.
    static let rfc2426Examples = """
        BEGIN:vCard
        VERSION:3.0
        FN:Frank Dawson
        ORG:Lotus Development Corporation
        ADR;TYPE=WORK,POSTAL,PARCEL:;;6544 Battleford Drive
         ;Raleigh;NC;27613-3502;U.S.A.
        TEL;TYPE=VOICE,MSG,WORK:+1-919-676-9515
        TEL;TYPE=FAX,WORK:+1-919-676-9564
        EMAIL;TYPE=INTERNET,PREF:Frank_Dawson@Lotus.com
        EMAIL;TYPE=INTERNET:fdawson@earthlink.net
        URL:http://home.earthlink.net/~fdawson
        END:vCard

        BEGIN:vCard
        VERSION:3.0
        FN:Tim Howes
        ORG:Netscape Communications Corp.
        ADR;TYPE=WORK:;;501 E. Middlefield Rd.;Mountain View;
         CA; 94043;U.S.A.
        TEL;TYPE=VOICE,MSG,WORK:+1-415-937-3419
        TEL;TYPE=FAX,WORK:+1-415-528-4164
        EMAIL;TYPE=INTERNET:howes@netscape.com
        END:vCard

        """

    @Test func rfc2426SectionFiveCards() {
        let result = importVCard(Self.rfc2426Examples)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.displayName) == ["Frank Dawson", "Tim Howes"])
        #expect(result.contacts.first?.emails == [
            ContactEmail(address: "Frank_Dawson@Lotus.com", types: ["internet"], pref: 1),
            ContactEmail(address: "fdawson@earthlink.net", types: ["internet"]),
        ])
        #expect(result.contacts.first?.preferredEmail?.address == "Frank_Dawson@Lotus.com")
        #expect(result.contacts.map(\.organization) == ["Lotus Development Corporation", "Netscape Communications Corp."])
        #expect(result.contacts.map(\.source) == [.vCard30, .vCard30])
        #expect(result.contacts.map(\.line) == [1, 14])

        let strict = importVCard(Self.rfc2426Examples, strict: true)
        #expect(strict.contacts.isEmpty)
        #expect(described(strict.problems) == ["1: no N (required in vCard 3.0)", "14: no N (required in vCard 3.0)"])
    }

    /// The vCard 2.1 specification's examples: bare parameters, a
    /// structured name whose commas are text, quoted-printable with soft
    /// line breaks and indented continuation lines.
    @Test func vCard21SpecificationExamples() {
        let result = importVCard("""
            BEGIN:VCARD
            VERSION:2.1
            N:Public;John;Quinlan;Mr.;Esq.
            FN:Mr. John Q. Public, Esq.
            EMAIL;INTERNET:john.public@abc.com
            LABEL;ENCODING=QUOTED-PRINTABLE:123 Winding Way=0D=0A=
              Any Town, CA 12345=0D=0A=
              USA
            END:VCARD
            BEGIN:VCARD
            VERSION:2.1
            N:Veni, Vidi, Vici;The Restaurant.
            TEL;WORK;VOICE;MSG:+1 (919) 555-1234
            END:VCARD

            """, strict: true)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.count == 2)
        #expect(result.contacts.first?.name == StructuredName(
            family: ["Public"], given: ["John"], additional: ["Quinlan"], prefixes: ["Mr."], suffixes: ["Esq."]))
        #expect(result.contacts.first?.displayName == "Mr. John Q. Public, Esq.")
        #expect(result.contacts.first?.emails == [ContactEmail(address: "john.public@abc.com", types: ["internet"])])
        #expect(result.contacts.last?.name == StructuredName(family: ["Veni, Vidi, Vici"], given: ["The Restaurant."]))
        #expect(result.contacts.last?.displayName == "The Restaurant. Veni, Vidi, Vici")
        #expect(result.contacts.map(\.source) == [.vCard21, .vCard21])
    }
}

/// One card's property lines (between BEGIN and END) and what they must give.
struct CardCase: Sendable, CustomTestStringConvertible {
    var version: String
    var lines: String
    var check: @Sendable (Contact) -> Bool
    var testDescription: String { "\(version): \(lines.prefix(60))" }

    init(_ version: String, _ lines: String, _ check: @escaping @Sendable (Contact) -> Bool) {
        self.version = version
        self.lines = lines
        self.check = check
    }

    var card: String { "BEGIN:VCARD\nVERSION:\(version)\n\(lines)\nEND:VCARD\n" }
}

@Suite("vCard: properties")
struct VCardPropertyTests {
    @Test(arguments: [
        // N: five parts, each a comma list in 3.0 and 4.0 (RFC 2426 §3.1.2's examples).
        CardCase("3.0", "N:Stevenson;John;Philip,Paul;Dr.;Jr.,M.D.,A.C.P.") {
            $0.name == StructuredName(family: ["Stevenson"], given: ["John"], additional: ["Philip", "Paul"],
                                      prefixes: ["Dr."], suffixes: ["Jr.", "M.D.", "A.C.P."])
                && $0.displayName == "Dr. John Philip Paul Stevenson Jr. M.D. A.C.P."
        },
        CardCase("4.0", "N:Ortiz;José;;;") { $0.name == StructuredName(family: ["Ortiz"], given: ["José"]) && $0.displayName == "José Ortiz" },
        CardCase("4.0", "FN:\nN:Lee;Ann;;;") { $0.displayName == "Ann Lee" },  // an empty FN falls back to N
        CardCase("2.1", "N:Lee, Jr.;Ann") { $0.name.family == ["Lee, Jr."] },
        CardCase("3.0", "N:O\\;Neil;Ann\\,Marie") { $0.name == StructuredName(family: ["O;Neil"], given: ["Ann,Marie"]) },
        // NICKNAME and CATEGORIES: comma lists, several properties add up.
        CardCase("3.0", "FN:Jim\nNICKNAME:Jim,Jimmie\nNICKNAME:J") { $0.nicknames == ["Jim", "Jimmie", "J"] },
        CardCase("3.0", "FN:X\nCATEGORIES:INTERNET,IETF,INDUSTRY,INFORMATION TECHNOLOGY") {
            $0.categories == ["INTERNET", "IETF", "INDUSTRY", "INFORMATION TECHNOLOGY"]
        },
        CardCase("4.0", "FN:X\nCATEGORIES:a\\,b,,c") { $0.categories == ["a,b", "c"] },
        // ORG: the organization is the first part; units are left out.
        CardCase("3.0", "FN:X\nORG:ABC\\, Inc.;North American Division;Marketing") { $0.organization == "ABC, Inc." },
        CardCase("4.0", "FN:X\nORG:;Unit only") { $0.organization == nil },
        // Escapes: \, \; \\ \n \N in 3.0 and 4.0, and \: tolerated.
        CardCase("3.0", "FN:Lee\\, Ann \\\\ \\; one\\ntwo\\Nthree \\: four") { $0.displayName == "Lee, Ann \\ ; one\ntwo\nthree : four" },
        CardCase("4.0", "FN:back\\slash \\x") { $0.displayName == "back\\slash \\x" },
        // 2.1 knows \; \, \\ only; a backslash before n is text.
        CardCase("2.1", "FN:C:\\new \\; \\\\") { $0.displayName == "C:\\new ; \\" },
        // Folding: CRLF + one space or tab goes (3.0, 4.0), and only the
        // line break in 2.1 (RFC 822 folding keeps the white space).
        CardCase("4.0", "FN:Pier\n re Dupont") { $0.displayName == "Pierre Dupont" },
        CardCase("3.0", "FN:Pier\n\tre\n  Dupont") { $0.displayName == "Pierre Dupont" },
        CardCase("2.1", "FN:Pierre\n Dupont") { $0.displayName == "Pierre Dupont" },
        CardCase("4.0", "EM\n AIL;TY\n PE=home:a@\n x.org") { $0.emails == [ContactEmail(address: "a@x.org", types: ["home"])] },
        // Case-insensitive names, groups on any property.
        CardCase("4.0", "fn:lower\nemail;type=HOME:a@x.org") { $0.displayName == "lower" && $0.emails.first?.types == ["home"] },
        CardCase("3.0", "a.FN:Grouped\nb.EMAIL:b@x.org") { $0.displayName == "Grouped" && $0.emails.count == 1 },
        // UID is the identity.
        CardCase("4.0", "FN:X\nUID:urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6") {
            $0.id.rawValue == "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
        },
        // KIND.
        CardCase("4.0", "KIND:group\nFN:Team\nMEMBER:mailto:a@x.org") { $0.kind == .group && $0.members == ["mailto:a@x.org"] },
        CardCase("4.0", "KIND:org\nFN:ACME") { $0.kind == .org },
        CardCase("4.0", "KIND:Location\nFN:Room 1") { $0.kind == .location },
        CardCase("4.0", "KIND:individual\nFN:Ann") { $0.kind == .individual },
        CardCase("4.0", "KIND:x-robot\nFN:Bot") { $0.kind == .individual },
        CardCase("3.0", "X-ADDRESSBOOKSERVER-KIND:group\nFN:Club\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:1234") {
            $0.kind == .group && $0.members == ["urn:uuid:1234"]
        },
    ])
    func propertyReadsAsTheRFCsSay(_ c: CardCase) {
        let result = importVCard(c.card)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        guard let contact = result.contacts.first, result.contacts.count == 1 else {
            Issue.record("expected one contact, got \(result.contacts.count): \(described(result.problems))")
            return
        }
        #expect(c.check(contact), "\(contact)")
    }

    @Test(arguments: [
        // vCard 2.1: bare types and a bare PREF.
        ("2.1", "EMAIL;INTERNET;HOME;PREF:a@x.org", ["internet", "home"], 1 as Int?),
        ("2.1", "EMAIL;TYPE=INTERNET;TYPE=WORK:a@x.org", ["internet", "work"], nil),
        // vCard 3.0: TYPE lists, repeated TYPE, TYPE=pref.
        ("3.0", "EMAIL;TYPE=INTERNET,HOME,pref:a@x.org", ["internet", "home"], 1),
        ("3.0", "EMAIL;TYPE=internet;TYPE=pref;TYPE=work:a@x.org", ["internet", "work"], 1),
        ("3.0", "EMAIL;TYPE=HOME;TYPE=home:a@x.org", ["home"], nil),
        // vCard 4.0: PREF=1..100, quoted lists, clamping when lenient.
        ("4.0", "EMAIL;TYPE=work;PREF=3:a@x.org", ["work"], 3),
        ("4.0", "EMAIL;TYPE=\"home,work\";PREF=1:a@x.org", ["home", "work"], 1),
        ("4.0", "EMAIL;PREF=\"7\":a@x.org", [], 7),
        ("4.0", "EMAIL;PREF=150:a@x.org", [], 100),
        ("4.0", "EMAIL;PREF=0:a@x.org", [], 1),
        ("4.0", "EMAIL;PREF=high:a@x.org", [], nil),
        ("4.0", "EMAIL;PREF=2;TYPE=pref:a@x.org", [], 2),  // an explicit PREF wins over TYPE=pref
        ("4.0", "EMAIL:mailto:a@x.org", [], nil),
        ("4.0", "EMAIL;TYPE=x-Büro:a@x.org", ["x-büro"], nil),
    ] as [(String, String, [String], Int?)])
    func emailTypesAndPreference(_ version: String, _ line: String, _ types: [String], _ pref: Int?) {
        let result = importVCard("BEGIN:VCARD\nVERSION:\(version)\nFN:X\nN:X;;;;\n\(line)\nEND:VCARD\n")
        // A PREF clamped or ignored is a warning at its line; the address stays.
        let repaired = ["PREF=150", "PREF=0", "PREF=high"].contains { line.contains($0) }
        #expect(result.problems.map(\.line) == (repaired ? [5] : []), "\(described(result.problems))")
        #expect(result.problems.allSatisfy { $0.isWarning && !$0.skipsRecord })
        #expect(result.contacts.first?.emails == [ContactEmail(address: "a@x.org", types: types, pref: pref)])
    }

    /// Apple's and Google's grouped labels: `itemN.EMAIL` with `itemN.X-ABLabel`.
    @Test func groupLabelsNameTheirAddress() {
        let result = importVCard("""
            BEGIN:VCARD
            VERSION:3.0
            FN:Ann
            item1.EMAIL;type=INTERNET;type=pref:ann@x.org
            item1.X-ABLabel:_$!<Other>!$_
            item2.EMAIL;type=INTERNET:ann@uni.edu
            ITEM2.X-ABLABEL:Uni
            EMAIL;type=INTERNET;type=HOME:ann@home.net
            item3.X-ABLabel:Orphan
            END:VCARD

            """)
        #expect(result.contacts.first?.emails == [
            ContactEmail(address: "ann@x.org", types: ["internet", "other"], pref: 1),
            ContactEmail(address: "ann@uni.edu", types: ["internet", "uni"]),
            ContactEmail(address: "ann@home.net", types: ["internet", "home"]),
        ])
    }

    /// Each version's way of naming the preferred address: 2.1 a bare
    /// `PREF` (vCard 2.1 §2.4.3 style bare types), 3.0 `TYPE=pref` (RFC
    /// 2426 §3.3.2), 4.0 `PREF=1..100` (RFC 6350 §5.3). Leniently every
    /// form is read, as exporters mix them; strictly only the version's own.
    @Test(arguments: [
        ("2.1", "EMAIL;INTERNET;PREF:a@x.org", true),
        ("2.1", "EMAIL;PREF=5:a@x.org", false),
        ("3.0", "EMAIL;TYPE=INTERNET,PREF:a@x.org", true),
        ("3.0", "EMAIL;TYPE=pref:a@x.org", true),
        ("3.0", "EMAIL;PREF=1:a@x.org", false),
        ("3.0", "EMAIL;PREF:a@x.org", false),
        ("4.0", "EMAIL;PREF=1:a@x.org", true),
        ("4.0", "EMAIL;TYPE=work;PREF=1:a@x.org", true),
        ("4.0", "EMAIL;PREF:a@x.org", false),
        ("4.0", "EMAIL;TYPE=pref:a@x.org", false),
    ])
    func eachVersionNamesThePreferredAddressItsOwnWay(version: String, line: String, strictAccepts: Bool) {
        let name = version == "2.1" ? "N:Lee;Ann;;;\n" : version == "3.0" ? "N:Lee;Ann;;;\nFN:Ann Lee\n" : "FN:Ann Lee\n"
        let text = "BEGIN:VCARD\nVERSION:\(version)\n\(name)EMAIL:b@x.org\n\(line)\nEND:VCARD\n"
        let lenient = importVCard(text)
        #expect(lenient.problems.isEmpty, "\(described(lenient.problems))")
        #expect(lenient.contacts.first?.preferredEmail?.address == "a@x.org")
        let strict = importVCard(text, strict: true)
        #expect(strict.contacts.count == (strictAccepts ? 1 : 0), "\(version) \(line): \(described(strict.problems))")
        #expect(strict.problems.count == (strictAccepts ? 0 : 1))
    }

    @Test func emptyEmailIsSkippedWhenLenient() {
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Ann\nEMAIL:\nEMAIL: b@x.org \nEND:VCARD\n"
        #expect(importVCard(text).contacts.first?.emails == [ContactEmail(address: "b@x.org")])
        #expect(described(importVCard(text, strict: true).problems) == ["1: empty EMAIL on line 4"])
    }
}

@Suite("vCard: encodings")
struct VCardEncodingTests {
    @Test(arguments: [
        // 2.1 quoted-printable, soft line breaks, continuation lines that do not start with white space.
        ("2.1", "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Jos=C3=A9=20=\nOrtiz", "José Ortiz"),
        ("2.1", "FN;CHARSET=UTF-8;QUOTED-PRINTABLE:=E7=8E=8B=E4=BC=9F", "王伟"),
        ("2.1", "FN;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:=C5=81=C3=B3d=C5=BA =\n=C5=BC=C3=B3=C5=82w", "Łódź żółw"),
        ("2.1", "FN;QUOTED-PRINTABLE:a=\n=\nb=\n c", "abc"),
        // A charset named per value; WHATWG labels (latin1 is windows-1252).
        ("2.1", "FN;CHARSET=windows-1252;QUOTED-PRINTABLE:Ren=E9 =80", "René €"),
        ("2.1", "FN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FCller", "Müller"),
        ("2.1", "FN;CHARSET=iso-8859-15;ENCODING=QUOTED-PRINTABLE:=A4uro", "€uro"),
        ("2.1", "FN;CHARSET=windows-1251;ENCODING=QUOTED-PRINTABLE:=C8=E2=E0=ED", "Иван"),
        ("2.1", "FN;CHARSET=Shift_JIS;ENCODING=QUOTED-PRINTABLE:=8ER=93c", "山田"),
        // Base64 text: ENCODING=BASE64 (2.1) and ENCODING=b (3.0).
        ("2.1", "FN;CHARSET=UTF-8;ENCODING=BASE64:Sm9zw6kgT3J0aXo=", "José Ortiz"),
        ("3.0", "FN;ENCODING=b;CHARSET=utf-8:Sm9zw6kg\n T3J0aXo=", "José Ortiz"),
        ("3.0", "FN;ENCODING=B:QW5u", "Ann"),
        // 8-bit text in a charset, without transfer encoding.
        ("3.0", "FN;CHARSET=UTF-8;ENCODING=8BIT:Zoë", "Zoë"),
    ])
    func encodedValuesDecode(_ version: String, _ line: String, _ expected: String) {
        let result = importVCard("BEGIN:VCARD\nVERSION:\(version)\nN:X;;;;\n\(line)\nEND:VCARD\n")
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.first?.displayName == expected)
    }

    @Test func qpSoftLineBreaksCountAsLinesForWhatFollows() {
        let result = importVCard("""
            BEGIN:VCARD
            VERSION:2.1
            N;QUOTED-PRINTABLE:Dupont;Pi=
            erre;;;
            NOTE;ENCODING=QUOTED-PRINTABLE:one=0D=0A=
            two=0D=0A=
            three
            EMAIL;INTERNET:p@x.org
            END:VCARD
            BEGIN:VCARD
            VERSION:2.1
            N:Second
            END:VCARD

            """)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.displayName) == ["Pierre Dupont", "Second"])
        #expect(result.contacts.map(\.line) == [1, 10])
        #expect(result.contacts.first?.emails.map(\.address) == ["p@x.org"])
    }

    @Test func aDanglingSoftBreakBeforeEndDoesNotSwallowTheEnd() {
        let result = importVCard("BEGIN:VCARD\nVERSION:2.1\nFN;QUOTED-PRINTABLE:Ann=\nEND:VCARD\n")
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.first?.displayName == "Ann")
    }

    /// An unknown CHARSET: valid UTF-8 stays UTF-8, other bytes are read
    /// in the import's fallback charset (windows-1252 unless told).
    @Test(arguments: [
        ("Ann=FF", nil as String?, "Annÿ", "the fallback charset"),
        ("Ann=A4", "iso-8859-15", "Ann€", "the fallback charset"),
        ("Zo=C3=AB", nil, "Zoë", "UTF-8"),
    ])
    func unknownCharsetIsAProblemOfThePropertyAndTheCardStays(
        _ value: String, _ fallback: String?, _ name: String, _ readAs: String
    ) {
        let result = importVCard("BEGIN:VCARD\nVERSION:2.1\nN:X\nFN;CHARSET=x-klingon;QUOTED-PRINTABLE:\(value)\nEND:VCARD\n",
                                 defaultCharset: fallback)
        #expect(result.contacts.first?.displayName == name)
        #expect(described(result.problems) == ["4: unknown charset 'x-klingon'; the value is read as \(readAs)"])
        #expect(result.problems.first?.skipsRecord == false)
        #expect(result.problems.first?.isWarning == true)
    }

    /// Text that names no charset and is not UTF-8 is read in the default
    /// charset (windows-1252 unless told).
    @Test(arguments: [
        (nil as String?, [0x52, 0x65, 0x6E, 0xE9, 0x20, 0xA4] as [UInt8], "René ¤"),
        ("iso-8859-15", [0x52, 0x65, 0x6E, 0xE9, 0x20, 0xA4], "René €"),
        ("iso-8859-15", Array("René ¤".utf8), "René ¤"),  // valid UTF-8 stays UTF-8
    ])
    func eightBitTextWithoutCharsetUsesTheDefault(_ charset: String?, _ name: [UInt8], _ expected: String) {
        let bytes = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nN:X;;;;\r\nFN:".utf8) + name + Array("\r\nEND:VCARD\r\n".utf8)
        let result = ContactImporter.import(bytes, options: ContactImportOptions(defaultCharset: charset))
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.first?.displayName == expected)
    }

    @Test func aStrictVersionFourCardMustBeUTF8() {
        let bytes = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ren".utf8) + [0xE9] + Array("\r\nEND:VCARD\r\n".utf8)
        #expect(ContactImporter.import(bytes).contacts.first?.displayName == "René")
        let strict = ContactImporter.import(bytes, options: ContactImportOptions(strict: true))
        #expect(described(strict.problems) == ["1: text that is not UTF-8 on line 3 (vCard 4.0 is UTF-8)"])
    }

    static let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Ørsted;Åse;;;\r\nFN:Åse Ørsted\r\nEMAIL;TYPE=home:åse@ørsted.dk\r\nEND:VCARD\r\n"

    @Test(arguments: [
        ("UTF-8 with BOM", [0xEF, 0xBB, 0xBF] + Array(card.utf8), "UTF-8"),
        ("UTF-16LE with BOM", [0xFF, 0xFE] + card.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16LE"),
        ("UTF-16BE with BOM", [0xFE, 0xFF] + card.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16BE"),
        ("UTF-16LE without BOM", card.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16LE"),
        ("UTF-16BE without BOM", card.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16BE"),
    ] as [(String, [UInt8], String)])
    func byteOrderMarksAndUTF16(_ name: String, _ bytes: [UInt8], _ encoding: String) {
        let result = ContactImporter.import(bytes)
        #expect(result.problems.isEmpty, "\(name): \(described(result.problems))")
        #expect(result.textEncoding == encoding, "\(name)")
        #expect(result.contacts.first?.displayName == "Åse Ørsted", "\(name)")
        #expect(result.contacts.first?.emails == [ContactEmail(address: "åse@ørsted.dk", types: ["home"])], "\(name)")
    }

    /// In a UTF-16 file the literal text is already Unicode: a CHARSET
    /// names only the bytes of encoded values.
    @Test func charsetOfAUTF16FileAppliesToEncodedValuesOnly() {
        let card = "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=windows-1252:Zoë\r\nFN;CHARSET=windows-1252;QUOTED-PRINTABLE:Zo=EB\r\nEND:VCARD\r\n"
        let result = ContactImporter.import([0xFF, 0xFE] + card.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(result.contacts.first?.name.family == ["Zoë"])
        #expect(result.contacts.first?.displayName == "Zoë")
    }
}

@Suite("vCard: files of many cards")
struct VCardFileTests {
    /// Free text before, between and after the cards is reported, a run
    /// at its first line, as a warning when no line holds an `@`; a
    /// stray END is not; the cards keep their order.
    @Test func textBeforeAndBetweenCardsIsReportedAndCardsKeepTheirOrder() {
        let result = importVCard("""
            Exported by Someone's Address Book
            begin:vcard
            version:3.0
            fn:One
            end:vcard
            stray line between cards
            END:VCARD
            Begin : VCard
            VERSION:4.0
            FN:Two
            End:VCARD
            trailing text

            """)
        #expect(result.problems.map(\.line) == [1, 6, 12], "\(described(result.problems))")
        #expect(result.problems.allSatisfy { $0.code == "text-outside-card" && $0.isWarning })
        #expect(result.problems.map { $0.values["text"] } == ["Exported by Someone's Address Book", "stray line between cards",
                                                              "trailing text"])
        #expect(result.contacts.map(\.displayName) == ["One", "Two"])
        #expect(result.contacts.map(\.line) == [2, 8])
    }

    /// RFC 6350 gives FN a cardinality of one or more (another language,
    /// a name also used): the first is the contact's name, each further
    /// one a nickname, so a query finds it and nothing is dropped.
    @Test func furtherFNsAreKeptAsNicknames() {
        let result = importVCard("""
            BEGIN:VCARD
            VERSION:4.0
            FN:Robert Smith
            FN:Bob Smith
            FN;ALTID=1;LANGUAGE=ja:山田太郎
            FN:Robert Smith
            EMAIL:rs@example.com
            END:VCARD

            """)
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.displayName) == ["Robert Smith"])
        #expect(result.contacts.first?.nicknames == ["Bob Smith", "山田太郎"])
        let book = ContactDirectory(result.contacts)
        #expect(book.suggestions(for: "Bob").map(\.address) == ["rs@example.com"])
        #expect(book.suggestions(for: "山田").map(\.address) == ["rs@example.com"])
    }

    /// Properties outside every card are data a person would lose: each
    /// run of them is reported at its first line (free text as text, a
    /// stray END not at all), and the cards around them load.
    @Test func propertiesOutsideACardAreReported() {
        let result = importVCard("""
            Exported: 2026-12-03
            BEGIN:VCARD
            VERSION:4.0
            FN:One
            END:VCARD
            FN:Orphan
            item1.EMAIL;TYPE=work:orphan@x.org
             .example
            END:VCARD
            just words
            BEGIN:VCARD
            VERSION:4.0
            FN:Two
            END:VCARD
            NOTE:trailing

            """)
        #expect(result.contacts.map(\.displayName) == ["One", "Two"])
        #expect(result.problems.map(\.line) == [1, 6, 10, 15])
        #expect(result.problems.map(\.message) == [
            "a property outside BEGIN:VCARD … END:VCARD is not read",
            "2 properties outside BEGIN:VCARD … END:VCARD are not read",
            "a line of text outside BEGIN:VCARD … END:VCARD is not read: 'just words'",
            "a property outside BEGIN:VCARD … END:VCARD is not read",
        ])
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func everyLineEndReads(_ lineEnd: String) {
        let text = ["BEGIN:VCARD", "VERSION:3.0", "N:Lee;Ann;;;", "FN:Ann", " Lee", "EMAIL:ann@x.org", "END:VCARD",
                    "BEGIN:VCARD", "VERSION:3.0", "N:B;;;;", "FN:B", "END:VCARD"].joined(separator: lineEnd)
        let result = ContactImporter.import(Array(text.utf8), options: ContactImportOptions(strict: true))
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.map(\.displayName) == ["AnnLee", "B"])
        #expect(result.contacts.map(\.line) == [1, 8])
    }

    @Test func identitiesAreDerivedWhenThereIsNoUIDAndMadeUnique() {
        let card = "BEGIN:VCARD\nVERSION:4.0\nFN:Ann Lee\nEMAIL:ann@x.org\nEMAIL:a2@x.org\nEND:VCARD\n"
        let uidCard = "BEGIN:VCARD\nVERSION:4.0\nFN:Other\nUID:shared\nEND:VCARD\n"
        let result = importVCard(card + card + uidCard + uidCard + card)
        let base = referenceFNV(["Ann Lee", "ann@x.org", "4.0"])
        #expect(result.contacts.map(\.id.rawValue) == [base, base + "-2", "shared", "shared-2", base + "-3"])
        // The same card imported again gets the same identity.
        #expect(importVCard(card).contacts.first?.id.rawValue == base)
        // The version is part of it; the display name may come from N.
        let v3 = importVCard("BEGIN:VCARD\nVERSION:3.0\nN:Lee;Ann;;;\nEND:VCARD\n")
        #expect(v3.contacts.first?.id.rawValue == referenceFNV(["Ann Lee", "", "3.0"]))
    }

    /// Broken structure and values: strict mode skips the card (an error
    /// when it held a name or an address); lenient mode keeps it and says
    /// what it repaired, as a warning at the line of the repair.
    @Test(arguments: [
        ("BEGIN:VCARD\nVERSION:4.0\nFN:Open\nBEGIN:VCARD\nVERSION:4.0\nFN:Next\nEND:VCARD\n",
         ["1: no END:VCARD before the BEGIN:VCARD on line 4; the card ends there"], ["Open", "Next"],
         ["1: no END:VCARD before the BEGIN:VCARD on line 4"], ["Next"]),
        ("BEGIN:VCARD\nVERSION:4.0\nFN:Good\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nFN:Cut off\n",
         ["5: no END:VCARD before the end of the file; the card ends there"], ["Good", "Cut off"],
         ["5: no END:VCARD before the end of the file"], ["Good"]),
        ("BEGIN:VCARD\nVERSION:4.0\nFN:Ann\nthis line has no colon\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nFN:B\nEND:VCARD\n",
         ["4: line 4 has no ':' (not a property); skipped"], ["Ann", "B"],
         ["1: line 4 has no ':' (not a property)"], ["B"]),
        ("BEGIN:VCARD\nVERSION:4.0\nTEL:+1 555 0100\nEND:VCARD\n",
         [], ["+1 555 0100"],
         ["1: no FN (required in vCard 4.0)"], []),
        ("BEGIN:VCARD\nVERSION:4.0\nFN:\nN:;;;;\nEND:VCARD\n",
         ["1: no name, address, phone or other data (an empty card); skipped"], [],
         ["1: no name, address, phone or other data (an empty card); skipped"], []),
        ("BEGIN:VCARD\nVERSION:2.1\nN:X\nFN;QUOTED-PRINTABLE:Bad=ZZ\nEND:VCARD\n",
         ["4: bad quoted-printable '=ZZ' on line 4; the property is dropped"], ["X"],
         ["1: bad quoted-printable '=ZZ' on line 4"], []),
        ("BEGIN:VCARD\nVERSION:3.0\nN:X;;;;\nFN;ENCODING=b:***\nEND:VCARD\n",
         ["4: bad base64 on line 4; the property is dropped"], ["X"], ["1: bad base64 on line 4"], []),
        ("BEGIN:VCARD\nVERSION:3.0\nN:X;;;;\nFN;ENCODING=b:QQ=Q\nEND:VCARD\n",
         ["4: bad base64 on line 4; the property is dropped"], ["X"], ["1: bad base64 on line 4"], []),
        ("BEGIN:VCARD\nVERSION:3.0\nN:X;;;;\nFN;ENCODING=x-rot13:Nnn\nEND:VCARD\n",
         ["4: unknown ENCODING 'x-rot13' on line 4; the property is dropped"], ["X"],
         ["1: unknown ENCODING 'x-rot13' on line 4"], []),
        // A card not read does not hide the next one.
        ("BEGIN:VCARD\nFN:A\nBEGIN:VCARD\nFN:B\nBEGIN:VCARD\nFN:C\nEND:VCARD\nBEGIN:VCARD\nFN:D\n",
         ["1: no END:VCARD before the BEGIN:VCARD on line 3; the card ends there",
          "3: no END:VCARD before the BEGIN:VCARD on line 5; the card ends there",
          "8: no END:VCARD before the end of the file; the card ends there"], ["A", "B", "C", "D"],
         ["1: no END:VCARD before the BEGIN:VCARD on line 3", "3: no END:VCARD before the BEGIN:VCARD on line 5",
          "5: no VERSION", "8: no END:VCARD before the end of the file"], []),
    ] as [(String, [String], [String], [String], [String])])
    func malformedCardsAreRepairedOrStrictlySkipped(
        _ text: String, _ lenientProblems: [String], _ lenientNames: [String], _ strictProblems: [String],
        _ strictNames: [String]
    ) {
        let lenient = importVCard(text)
        #expect(described(lenient.problems) == lenientProblems)
        #expect(lenient.problems.allSatisfy { $0.isWarning }, "a repair is a warning")
        #expect(lenient.problems.allSatisfy { $0.skipsRecord == (lenientNames.isEmpty) })
        #expect(lenient.contacts.map { $0.displayName ?? "" } == lenientNames)
        let strict = importVCard(text, strict: true)
        #expect(described(strict.problems) == strictProblems)
        #expect(strict.problems.allSatisfy { $0.skipsRecord })
        // Strictly skipping a card that held a name is an error; an empty
        // or phone-only card's skip is a warning.
        #expect(strict.problems.allSatisfy { $0.isWarning == (lenientNames.isEmpty || text.contains("TEL:")) })
        #expect(strict.contacts.map { $0.displayName ?? "" } == strictNames)
    }

    /// What the RFCs forbid: strict mode skips the card, lenient mode reads it.
    @Test(arguments: [
        ("FN:Ann\nN:Lee;Ann;;;", "", "no VERSION"),
        ("FN:Ann\nVERSION:4.0", "", "VERSION is not the first property after BEGIN:VCARD (RFC 6350 §6.7.9)"),
        ("VERSION:3.0\nN:Lee;Ann;;;\nEMAIL:a@x.org", "", "no FN (required in vCard 3.0)"),
        ("VERSION:4.0\nN:Lee;Ann;;;\nEMAIL:a@x.org", "", "no FN (required in vCard 4.0)"),
        ("VERSION:3.0\nFN:Ann", "", "no N (required in vCard 3.0)"),
        ("VERSION:2.1\nFN:Ann", "", "no N (required in vCard 2.1)"),
        ("VERSION:4.0\nFN:Ann\nX_BAD NAME:1", "", "invalid property name 'X_BAD NAME' on line 4"),
        ("VERSION:4.0\nFN:Ann\n.EMAIL:a@x.org", "", "invalid property name '.EMAIL' on line 4"),
        ("VERSION:4.0\nFN:Ann\nEMAIL;PREF=101:a@x.org", "4: PREF=101 is outside 1–100; read as 100",
         "PREF=101 is outside 1–100 on line 4"),
        ("VERSION:4.0\nFN:Ann\nEMAIL;PREF=first:a@x.org", "4: PREF 'first' is not a number 1–100; ignored",
         "PREF 'first' is not a number 1–100 on line 4"),
        ("VERSION:4.0\nFN:Ann\nEMAIL: ", "", "empty EMAIL on line 4"),
        ("VERSION:4.0\nFN:Team\nMEMBER:mailto:a@x.org", "", "MEMBER on a card whose KIND is not group (RFC 6350 §6.6.5)"),
        ("VERSION:3.1\nFN:Ann\nN:Lee;Ann;;;", "2: unknown VERSION '3.1'; the card is read as vCard 3.0",
         "unknown VERSION '3.1' on line 2"),
    ])
    func strictModeRejectsWhatTheRFCsForbid(_ lines: String, _ lenientWarning: String, _ reason: String) {
        let text = "BEGIN:VCARD\n\(lines)\nEND:VCARD\n"
        let lenient = importVCard(text)
        #expect(described(lenient.problems) == (lenientWarning.isEmpty ? [] : [lenientWarning]))
        #expect(lenient.problems.allSatisfy { $0.isWarning && !$0.skipsRecord })
        #expect(lenient.contacts.count == 1)
        let strict = importVCard(text, strict: true)
        #expect(strict.contacts.isEmpty)
        #expect(described(strict.problems) == ["1: \(reason)"])
    }

    @Test func bareLineFeedsAreAcceptedInStrictMode() {
        let result = importVCard("BEGIN:VCARD\nVERSION:4.0\nFN:Ann\nEND:VCARD\n", strict: true, crlf: false)
        #expect(result.problems.isEmpty)
        #expect(result.contacts.count == 1)
    }

    /// Every card becomes a contact or exactly one problem that skips it.
    @Test func everyCardIsAccountedFor() {
        var text = ""
        var cards = 0
        for k in 0..<300 {
            cards += 1
            switch k % 6 {
            case 0: text += "BEGIN:VCARD\nVERSION:4.0\nFN:Good \(k)\nEND:VCARD\n"
            case 1: text += "BEGIN:VCARD\nVERSION:4.0\nFN:No end \(k)\n"
            case 2: text += "BEGIN:VCARD\nVERSION:4.0\nno colon \(k)\nFN:x\nEND:VCARD\n"
            case 3: text += "BEGIN:VCARD\nVERSION:4.0\nTEL:\(k)\nEND:VCARD\n"
            case 4: text += "BEGIN:VCARD\nVERSION:2.1\nFN;QUOTED-PRINTABLE:=4\(k % 10)=\n=4G\nEND:VCARD\n"
            default: text += "noise \(k)\n"; cards -= 1
            }
        }
        let result = importVCard(text)
        #expect(result.contacts.count + result.problems.filter(\.skipsRecord).count == cards)
        // Leniently only the cards whose one property cannot be decoded
        // (nothing left) are skipped; the cut, colon-less and phone-only
        // cards are kept.
        #expect(result.contacts.count == 200)
        // 100 repairs, 50 skipped cards, and the 50 lines of noise (warnings).
        #expect(result.problems.count == 200)
        #expect(result.problems.filter { $0.code == "text-outside-card" }.count == 50)
        #expect(result.problems.filter(\.skipsRecord).count == 50)
        let strict = importVCard(text, strict: true)
        #expect(strict.contacts.count + strict.problems.filter(\.skipsRecord).count == cards)
        #expect(strict.contacts.count == 50)
    }

    @Test func anEmptyFileIsAnEmptyAddressBookAndOtherTextIsNone() {
        let empty = ContactImporter.import(Array(" \r\n\n".utf8))
        #expect(empty.contacts.isEmpty && empty.problems.isEmpty && empty.format == .unknown)
        let other = ContactImporter.import(Array("Dear Ann,\nthanks.\n".utf8))
        #expect(other.format == .unknown)
        #expect(described(other.problems) == [
            "1: not an address book: no BEGIN:VCARD line, and no CSV header row naming a name or e-mail column",
        ])
    }

    @Test func anUnknownDefaultCharsetIsAProblemOfTheImport() {
        let result = importVCard("BEGIN:VCARD\nVERSION:4.0\nFN:Ann\nEND:VCARD\n", defaultCharset: "x-unknown")
        #expect(result.contacts.count == 1)
        #expect(result.problems.map(\.line) == [0])
        #expect(result.problems.first?.skipsRecord == false)
    }
}
