#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import ChipifyCLI
import ChipKit
import ChipTestSupport

@Suite("chipify contacts")
struct ContactsCLITests {
    static let samples = ["sample.vcf", "sample-3.0.vcf", "sample-2.1.vcf", "google.csv", "outlook.csv", "thunderbird.csv"]

    @Test func helpIsPrintedAndTheMainHelpPointsToIt() {
        let r = runProcess(chipifyPath, ["contacts", "--help"])
        #expect(r.status == 0)
        #expect(r.stdoutText == Contacts.help)
        #expect(r.stderr.isEmpty)
        #expect(CLI.help.contains("chipify contacts [--format jsonl|text] [--strict] [--quiet] [--charset NAME] [FILE...]"))
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--format", "xml"], "unknown format 'xml' (expected jsonl or text)"),
        (["-fcsv"], "unknown format 'csv' (expected jsonl or text)"),
        (["--format"], "option '--format' needs a value"),
        (["--charset", "klingon"], "unknown charset 'klingon' (expected a WHATWG label such as windows-1252)"),
        (["--charset"], "option '--charset' needs a value"),
        (["--strict=yes"], "option '--strict' takes no value"),
    ])
    func usageErrorsAreThreeLines(_ arguments: [String], _ message: String) {
        let r = runProcess(chipifyPath, ["contacts"] + arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText == "chipify contacts: \(message)\n\(Contacts.usage)\nSee 'chipify contacts --help'.\n")
    }

    @Test(arguments: [
        (["--format=text", "--strict", "--charset=latin1", "a", "-", "--", "-b"],
         Contacts.Format.text, true, "latin1" as String?, ["a", "-", "-b"]),
        (["-f", "jsonl", "x.vcf"], .jsonl, false, nil, ["x.vcf"]),
        (["-ftext"], .text, false, nil, []),
    ] as [([String], Contacts.Format, Bool, String?, [String])])
    func optionsParse(_ arguments: [String], _ format: Contacts.Format, _ strict: Bool, _ charset: String?, _ files: [String]) throws {
        let o = try Contacts.parse(arguments)
        #expect(o.format == format)
        #expect(o.strict == strict)
        #expect(o.charset == charset)
        #expect(o.files == files)
    }

    /// The keys, their order and their values, byte for byte.
    @Test func aContactIsOneJSONObjectWithKeysInOrder() {
        let card = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Ann "Nan" Lee\\\\\r
            NICKNAME:Nan,Annie\r
            ORG:ACME\\, Inc.\r
            EMAIL;TYPE=work;PREF=2:ann@acme.example\r
            EMAIL;TYPE=HOME,x-Other:ann@home.example\r
            EMAIL;PREF=1:ann.lee@x.example\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            KIND:group\r
            FN:Team\r
            MEMBER:mailto:ann@acme.example\r
            END:VCARD\r

            """
        let path = temporaryFile(Array(card.utf8))
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["contacts", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderrText)")
        #expect(r.stdoutText == """
            {"line":1,"name":"Ann \\"Nan\\" Lee\\\\","emails":["ann@acme.example","ann@home.example","ann.lee@x.example"],"preferred_email":"ann.lee@x.example","emails_detail":[{"value":"ann@acme.example","types":["work"],"pref":2},{"value":"ann@home.example","types":["home","x-other"],"pref":null},{"value":"ann.lee@x.example","types":[],"pref":1}],"phones":[],"nicknames":["Nan","Annie"],"org":"ACME, Inc.","kind":"individual","members":[],"version":"4.0"}
            {"line":10,"name":"Team","emails":[],"preferred_email":null,"emails_detail":[],"phones":[],"nicknames":[],"org":null,"kind":"group","members":["mailto:ann@acme.example"],"version":"4.0"}

            """)
    }

    @Test func textIsOneReadableLinePerContact() {
        let csv = "Name,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Type,E-mail 2 - Value,Nickname,Group Membership\n"
            + "Ann Lee,Work,ann@x.org,* Home,ann@home.org,Nan,* myContacts ::: Friends\n"
            + "\"Tab\tName\",,,,,,\n"
        let path = temporaryFile(Array(csv.utf8))
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["contacts", "--format", "text", path])
        #expect(r.status == 0)
        #expect(r.stdoutText == """
            2  Ann Lee  <ann@x.org>, <ann@home.org> (preferred)  aka Nan  [csv]
            3  Tab\\tName  [csv]
            2  group Friends  members 1  [csv]

            """)
    }

    /// Every sample reads without a problem, and the filter prints what the
    /// library imports.
    @Test(arguments: samples)
    func samplesPrintWhatTheLibraryImports(_ name: String) {
        let path = packageRoot + "Corpus/contacts/" + name
        let r = runProcess(chipifyPath, ["contacts", "--strict", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderrText)")
        let imported = ContactImporter.import(contents(path)).contacts
        let lines = jsonLines(r.stdout)
        #expect(lines.count == imported.count)
        for (line, contact) in zip(lines, imported) {
            #expect(line["line"]?.int == contact.line)
            #expect(line["name"]?.text == contact.displayName)
            #expect(line["emails"] == .array(contact.emails.map { .string(Array($0.address.utf8)) }))
            #expect(line["version"]?.text == (contact.source == .csv ? "csv" : contact.declaredVersion))
            #expect(line["kind"]?.text == contact.kind.rawValue)
        }
    }

    /// Text is for people: a nickname `B\B` shows as written (a backslash
    /// is doubled only where it could start an escape), and the preferred
    /// one of several addresses says so in words.
    @Test func textShowsNamesAsWrittenAndSaysWhichAddressIsPreferred() {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nNICKNAME:B\\\\B\r\nEMAIL;TYPE=INTERNET:a@x.org\r\n"
            + "EMAIL;TYPE=INTERNET,PREF:b@y.org\r\nEND:VCARD\r\n"
        let file = temporaryFile(Array(card.utf8))
        defer { unlink(file) }
        let r = runProcess(chipifyPath, ["contacts", "--format", "text", file])
        #expect(r.status == 0)
        #expect(r.stdoutText.contains("<a@x.org>, <b@y.org> (preferred)  aka B\\B  [3.0]"), "\(r.stdoutText)")
    }

    /// Recorded output of the samples; re-record with `CHIPIFY_RECORD=1 swift test` and review the diff.
    @Test(arguments: [("sample.vcf", "jsonl", "sample.jsonl"), ("sample-2.1.vcf", "text", "sample-2.1.txt"),
                      ("google.csv", "jsonl", "google.jsonl"), ("outlook.csv", "text", "outlook.txt")])
    func samplesMatchGoldenOutput(_ input: String, _ format: String, _ golden: String) {
        let r = runProcess(chipifyPath, ["contacts", "--format", format, packageRoot + "Corpus/contacts/" + input])
        #expect(r.status == 0)
        let goldenPath = packageRoot + "Corpus/expected/contacts/" + golden
        if getenv("CHIPIFY_RECORD") != nil {
            let fd = open(goldenPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = r.stdout.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        #expect(r.stdoutText == String(decoding: contents(goldenPath), as: UTF8.self))
    }

    @Test func problemsGoToStandardErrorWithFileAndLineAndTheRestIsPrinted() {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Good One
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            FN:Broken
            no colon here
            END:VCARD
            BEGIN:VCARD
            VERSION:2.1
            N:X
            FN;CHARSET=x-unknown;QUOTED-PRINTABLE:Zo=EB
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Never ends

            """
        let path = temporaryFile(Array(text.utf8))
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["contacts", "--format", "text", path])
        // Every card holds a name: all are kept, each repair a warning, so
        // the import succeeded.
        #expect(r.status == 0)
        #expect(r.stdoutText == "1  Good One  [3.0]\n5  Broken  [3.0]\n10  Zoë  [2.1]\n15  Never ends  [4.0]\n")
        #expect(r.stderrText == """
            chipify contacts: \(path):8: warning: line 8 has no ':' (not a property); skipped
            chipify contacts: \(path):13: warning: unknown charset 'x-unknown'; the value is read as the fallback charset
            chipify contacts: \(path):15: warning: no END:VCARD before the end of the file; the card ends there

            """)
        // --quiet leaves the warnings out; errors stay (a strict run skips cards).
        let quiet = runProcess(chipifyPath, ["contacts", "--quiet", "--format", "text", path])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderrText)")
        #expect(quiet.stdoutText == r.stdoutText)
        let strict = runProcess(chipifyPath, ["contacts", "-q", "--strict", "--format", "text", path])
        #expect(strict.status == 1)
        #expect(strict.stderrText == """
            chipify contacts: \(path):1: no N (required in vCard 3.0)
            chipify contacts: \(path):5: line 8 has no ':' (not a property)
            chipify contacts: \(path):15: no END:VCARD before the end of the file

            """)
    }

    /// A record without a name or an address that was skipped is a
    /// warning; one holding a name or an address that could not be read is
    /// an error (exit 1).
    @Test func onlyALostNameOrAddressIsAnError() {
        let csv = "Display Name,E-mail\nAnn,ann@x.org,extra\nBo,bo@x.org\n"
        let path = temporaryFile(Array(csv.utf8))
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["contacts", "--format", "text", path])
        #expect(r.status == 1, "\(r.stderrText)")
        #expect(r.stderrText == "chipify contacts: \(path):2: 3 fields where the header has 2\n")
        #expect(r.stdoutText == "3  Bo  <bo@x.org>  [csv]\n")
        let empty = temporaryFile(Array("BEGIN:VCARD\nVERSION:4.0\nFN:\nEND:VCARD\n".utf8))
        defer { unlink(empty) }
        let e = runProcess(chipifyPath, ["contacts", empty])
        #expect(e.status == 0)
        #expect(e.stdout.isEmpty)
        #expect(e.stderrText == "chipify contacts: \(empty):1: warning: no name, address, phone or other data (an empty card); skipped\n")
    }

    @Test func strictModeSkipsWhatTheStandardsForbid() {
        let path = temporaryFile(Array("BEGIN:VCARD\r\nFN:No version\r\nEND:VCARD\r\n".utf8))
        defer { unlink(path) }
        let lenient = runProcess(chipifyPath, ["contacts", path])
        #expect(lenient.status == 0)
        #expect(jsonLines(lenient.stdout).count == 1)
        let strict = runProcess(chipifyPath, ["contacts", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(strict.stderrText == "chipify contacts: \(path):1: no VERSION\n")
    }

    @Test func filesThatCannotBeReadAreReportedAndTheOthersRead() {
        let good = temporaryFile(Array("Name,Email\nAnn,ann@x.org\n".utf8))
        defer { unlink(good) }
        let r = runProcess(chipifyPath, ["contacts", "/nonexistent/book.vcf", packageRoot + "Corpus/contacts", good])
        #expect(r.status == 1)
        #expect(r.stderrText == """
            chipify contacts: cannot open '/nonexistent/book.vcf': No such file or directory
            chipify contacts: cannot read '\(packageRoot)Corpus/contacts': Is a directory

            """)
        #expect(jsonLines(r.stdout).map { $0["name"]?.text } == ["Ann"])
    }

    @Test func standardInputAndFilesAreReadInOrder() {
        let a = temporaryFile(Array("BEGIN:VCARD\nVERSION:4.0\nFN:From stdin\nEND:VCARD\n".utf8))
        let b = temporaryFile(Array("First Name,Last Name,Primary Email\nBo,Ek,bo@ek.se\n".utf8))
        defer { unlink(a); unlink(b) }
        let implicit = runProcess(chipifyPath, ["contacts", "--format", "text"], stdinPath: a)
        #expect(implicit.stdoutText == "1  From stdin  [4.0]\n")
        let r = runProcess(chipifyPath, ["contacts", "--format", "text", b, "-", b], stdinPath: a)
        #expect(r.status == 0)
        #expect(r.stdoutText == "2  Bo Ek  <bo@ek.se>  [csv]\n1  From stdin  [4.0]\n2  Bo Ek  <bo@ek.se>  [csv]\n")
    }

    /// Outlook writes the Windows code page when not told otherwise.
    @Test func theCharsetOptionNamesTextThatIsNotUTF8() {
        let bytes = Array("First Name,Last Name,E-mail Address\r\n".utf8) + [0xA4, 0x6C, 0x6F, 0xEF, 0x73, 0x65]
            + Array(",M,e@x.org\r\n".utf8)
        let path = temporaryFile(bytes)
        defer { unlink(path) }
        let plain = runProcess(chipifyPath, ["contacts", "-f", "text", path])
        #expect(plain.stdoutText == "2  ¤loïse M  <e@x.org>  [csv]\n")
        let latin9 = runProcess(chipifyPath, ["contacts", "-f", "text", "--charset", "iso-8859-15", path])
        #expect(latin9.stdoutText == "2  €loïse M  <e@x.org>  [csv]\n")
    }

    @Test(arguments: [["contacts", "Corpus/contacts/sample.vcf"], ["contacts", "-f", "text", "Corpus/contacts/google.csv"],
                      ["contacts", "--help"]])
    func aFailedWriteIsReportedAndAClosedPipeIsQuiet(_ arguments: [String]) {
        let args = arguments.map { $0.hasPrefix("Corpus/") ? packageRoot + $0 : $0 }
        let full = runProcess(chipifyPath, args, stdout: .path("/dev/full"))
        #expect(full.status == 1)
        #expect(full.stderrText == "chipify: write error: No space left on device\n")
        let pipe = runProcess(chipifyPath, args, stdout: .closedPipe)
        #expect(pipe.status == 141)
        #expect(pipe.stderr.isEmpty, "\(pipe.stderrText)")
    }
}

@Suite("chipify suggest")
struct SuggestCLITests {
    static let book = """
        BEGIN:VCARD
        VERSION:4.0
        UID:jose
        FN:José Ortiz
        EMAIL;PREF=1:jose@ortiz.example
        EMAIL:j.ortiz@work.example
        END:VCARD
        BEGIN:VCARD
        VERSION:4.0
        UID:mary
        FN:Mary Jones
        NICKNAME:mj
        EMAIL:mary@jones.example
        END:VCARD
        BEGIN:VCARD
        VERSION:4.0
        UID:john
        FN:John Smith
        EMAIL:john.smith@x.org
        END:VCARD

        """

    func withBook(_ body: (String) throws -> Void) throws {
        let path = temporaryFile(Array(Self.book.utf8))
        defer { unlink(path) }
        try body(path)
    }

    @Test func suggestionsComeRankedWithTheirMatches() throws {
        try withBook { path in
            let r = runProcess(chipifyPath, ["suggest", "--contacts", path, "--limit", "3", "jo"])
            #expect(r.status == 0)
            let lines = r.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0] == #"{"rank":1,"contact":"john","name":"John Smith","address":"john.smith@x.org","matched":[[0,2]],"class":"full-name-prefix","matched_address":[[0,2]]}"#)
            #expect(lines[1].hasPrefix(#"{"rank":2,"contact":"jose","name":"José Ortiz","address":"jose@ortiz.example""#))
            #expect(lines[2].contains(#""contact":"jose""#) && lines[2].contains("j.ortiz@work.example"))
            let mj = runProcess(chipifyPath, ["suggest", "--contacts", path, "mj"])
            #expect(mj.stdoutText.hasPrefix(#"{"rank":1,"contact":"mary","name":"Mary Jones","address":"mary@jones.example","matched":[],"class":"exact""#))
        }
    }

    /// `--format text`: the same suggestions, in the same order, one line
    /// each for people; an unknown format is a usage error.
    @Test func suggestionsAsTextForPeople() throws {
        try withBook { path in
            let text = runProcess(chipifyPath, ["suggest", "--contacts", path, "--limit", "3", "--format", "text", "jo"])
            #expect(text.status == 0)
            let lines = text.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.first == "1  John Smith <john.smith@x.org>  (full-name-prefix)")
            let json = runProcess(chipifyPath, ["suggest", "--contacts", path, "--limit", "3", "jo"])
            let addresses = jsonLines(json.stdout).map { $0["address"]?.text ?? "?" }
            #expect(lines.count == addresses.count)
            for (line, address) in zip(lines, addresses) { #expect(line.contains("<\(address)>"), "\(line)") }
            let bad = runProcess(chipifyPath, ["suggest", "--contacts", path, "-f", "tsv", "jo"])
            #expect(bad.status == 64)
            #expect(bad.stderrText.contains("unknown format 'tsv' (expected jsonl or text)"))
        }
    }

    @Test func usesReorderTiesAndBadUsageFilesAreReported() throws {
        try withBook { path in
            let usage = temporaryFile(Array("{\"contact\":\"jose\",\"time\":1000}\n{\"contact\":\"nobody\",\"time\":5}\n".utf8))
            defer { unlink(usage) }
            let r = runProcess(chipifyPath, ["suggest", "--contacts", path, "--usage", usage, "--limit", "1", "jo"])
            #expect(r.stdoutText.contains(#""contact":"jose""#))
            let broken = temporaryFile(Array("not json\n".utf8))
            defer { unlink(broken) }
            let bad = runProcess(chipifyPath, ["suggest", "--contacts", path, "--usage", broken, "jo"])
            #expect(bad.status == 1)
            #expect(bad.stderrText.contains("chipify suggest: \(broken): line 1"))
            let missing = runProcess(chipifyPath, ["suggest", "--contacts", path, "--usage", "/nonexistent.usage", "jo"])
            #expect(missing.status == 1)
            #expect(missing.stderrText.hasPrefix("chipify suggest: cannot open '/nonexistent.usage': "))
            #expect(missing.stdoutText.contains(#""rank":1"#))  // the suggestions still come
        }
    }

    /// A line with an address is a use of that mailbox: José's second
    /// address, always written to, comes first; a contact's line still
    /// ranks all its rows; an address the contact lacks is ignored.
    @Test func usesOfOneAddressRankItsRowFirst() throws {
        try withBook { path in
            let usage = temporaryFile(Array("""
                {"contact":"jose","address":"J.Ortiz@work.example","time":1000}
                {"contact":"jose","address":"J.Ortiz@work.example","count":3,"last":2000}
                {"contact":"jose","address":"nobody@else.example","time":5}
                {"contact":"john","time":10}

                """.utf8))
            defer { unlink(usage) }
            let r = runProcess(chipifyPath, ["suggest", "--contacts", path, "--usage", usage, "jos"])
            #expect(r.status == 0, "\(r.stderrText)")
            let lines = r.stdoutText.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.contains(#""address":"j.ortiz@work.example""#) == true)
            let j = runProcess(chipifyPath, ["suggest", "--contacts", path, "--usage", usage, "j"])
            let order = j.stdoutText.split(separator: "\n").map { $0.contains("j.ortiz@") ? "jw" : $0.contains("jose@") ? "jo" : "x" }
            // José's rows stay together, his most used first, and his
            // contact ranks by that row (3 uses at 2000 over one at 10).
            #expect(order.prefix(2) == ["jw", "jo"])
            let wrong = temporaryFile(Array("{\"contact\":\"jose\",\"address\":5,\"time\":1}\n".utf8))
            defer { unlink(wrong) }
            let bad = runProcess(chipifyPath, ["suggest", "--contacts", path, "--usage", wrong, "jo"])
            #expect(bad.status == 1)
            #expect(bad.stderrText.contains("line 1: \"address\" must be a string"))
        }
    }

    @Test(arguments: [
        (["suggest", "jo"], "suggest needs --contacts FILE"),
        (["suggest", "--contacts", "x.vcf"], "suggest needs a QUERY"),
        (["suggest", "--contacts", "x.vcf", "--limit", "0", "a"], "bad limit '0' (expected 1 to 10000)"),
    ])
    func usageErrors(_ args: [String], _ message: String) {
        let r = runProcess(chipifyPath, args)
        #expect(r.status == 64)
        #expect(r.stderrText.contains(message))
    }
}

@Suite("chipify --contacts")
struct ContactRecordsCLITests {
    @Test func namesAndAddressesAreResolvedAndWhatWasTypedStays() {
        let book = temporaryFile(Array(SuggestCLITests.book.utf8))
        defer { unlink(book) }
        let input = temporaryFile(Array("Jo, José, john.smith@x.org, nobody\n".utf8))
        defer { unlink(input) }
        let r = runProcess(chipifyPath, ["--contacts", book, "-f", "jsonl", input])
        #expect(r.status == 0)
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        // "Jo" starts José and John alike: ambiguous, at the name's offset.
        #expect(lines[0].contains(#""raw":"Jo","start":0,"end":2,"error":"ambiguous","error_at":0"#))
        #expect(lines[0].hasSuffix(#""contact":null}"#))
        #expect(lines[1] == #"{"record":1,"chip":2,"kind":"mailbox","state":"valid","name":"José Ortiz","address":"jose@ortiz.example","raw":"José","start":4,"end":9,"error":null,"warnings":[],"contact":"jose"}"#)
        #expect(lines[2].contains(#""name":"John Smith","address":"john.smith@x.org","raw":"john.smith@x.org""#))
        #expect(lines[2].hasSuffix(#""contact":"john"}"#))
        #expect(lines[3].contains(#""error":"missing-at""#))
        // Text output is the usual one; --summary is refused.
        let text = runProcess(chipifyPath, ["--contacts", book, input])
        #expect(text.stdoutText.contains("1.2      ok     José Ortiz <jose@ortiz.example>"))
        let summary = runProcess(chipifyPath, ["--contacts", book, "--summary", input])
        #expect(summary.status == 64)
        // An unreadable address book is reported; the chips still come.
        let missing = runProcess(chipifyPath, ["--contacts", "/nonexistent.vcf", input])
        #expect(missing.status == 1)
        #expect(missing.stderrText.contains("chipify: cannot open '/nonexistent.vcf'"))
        #expect(missing.stdoutText.split(separator: "\n").count == 4)
    }

    /// `--contacts` repeats: the books are one directory, for `chipify`
    /// and for `chipify suggest`.
    @Test func severalAddressBooksAreOne() {
        let first = temporaryFile(Array("BEGIN:VCARD\nVERSION:4.0\nFN:Kim Alpha\nUID:k1\nEMAIL:k1@x.org\nEND:VCARD\n".utf8))
        let second = temporaryFile(Array("Name,E-mail 1 - Value\nLou Beta,lou@y.org\n".utf8))
        let input = temporaryFile(Array("Kim, Lou\n".utf8))
        defer { unlink(first); unlink(second); unlink(input) }
        let r = runProcess(chipifyPath, ["--contacts", first, "--contacts", second, "-f", "tsv", input])
        #expect(r.status == 0, "\(r.stderrText)")
        let addresses = r.stdoutText.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[5] }
        #expect(addresses == ["k1@x.org", "lou@y.org"])
        let s = runProcess(chipifyPath, ["suggest", "--contacts", first, "--contacts", second, "a"])
        #expect(s.stdoutText.contains("\"address\":\"k1@x.org\""))
        #expect(s.stdoutText.contains("\"address\":\"lou@y.org\"") == false)  // "a" starts Alpha, not Lou Beta
        let b = runProcess(chipifyPath, ["suggest", "--contacts", first, "--contacts", second, "be"])
        #expect(b.stdoutText.contains("\"address\":\"lou@y.org\""))
    }
}

@Suite("chipify replay with contacts")
struct ReplayContactsTests {
    @Test func suggestChooseAlternateAndErrors() {
        let book = temporaryFile(Array(SuggestCLITests.book.utf8))
        defer { unlink(book) }
        let script = temporaryFile(Array("""
            {"op":"type","text":"jos"}
            {"op":"suggest"}
            {"op":"choose","suggestion":0}
            {"op":"alternate","chip":0,"choice":0}
            {"op":"type","text":"Mary, "}
            {"op":"choose","suggestion":5}

            """.utf8))
        defer { unlink(script) }
        let r = runProcess(chipifyPath, ["replay", "--trace", "--keep-going", "--contacts", book, script])
        #expect(r.status == 1)  // the last line chooses what was never suggested
        #expect(r.stderrText == "chipify replay: line 6: no suggestion 5 (the pending text has 0)\n")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines[1].contains(#""suggestions":[{"contact":"jose","name":"José Ortiz","address":"jose@ortiz.example","matched":[[0,3]],"class":"full-name-prefix","matched_address":[[0,3]]}"#))
        let to = lines.first { $0.hasPrefix(#"{"field":"to""#) }!
        // José chosen, then switched to his other address; Mary resolved on the comma.
        #expect(to.contains(#""address":"j.ortiz@work.example","raw":"José Ortiz <j.ortiz@work.example>""#))
        #expect(to.contains(#""contact":"jose""#))
        #expect(to.contains(#""name":"Mary Jones","address":"mary@jones.example""#))
        #expect(to.contains(#""contact":"mary""#))
        // Without contacts, suggest is an error of the line.
        let none = runProcess(chipifyPath, ["replay", script])
        #expect(none.stderrText.hasPrefix("chipify replay: line 2: \"suggest\" needs --contacts"))
    }

    /// `choose` picks from the list the field shows for the pending text
    /// as it stands, as a person does: no `suggest` line first, and the
    /// list follows the text typed since.
    @Test func chooseNeedsNoSuggestFirst() {
        let book = temporaryFile(Array(SuggestCLITests.book.utf8))
        defer { unlink(book) }
        let script = temporaryFile(Array("""
            {"op":"type","text":"j"}
            {"op":"suggest"}
            {"op":"type","text":"ohn"}
            {"op":"choose","suggestion":0}
            {"op":"type","text":"ortiz"}
            {"op":"choose","suggestion":1}
            {"op":"type","text":"zzz"}
            {"op":"choose","suggestion":0}

            """.utf8))
        defer { unlink(script) }
        let r = runProcess(chipifyPath, ["replay", "--keep-going", "--contacts", book, script])
        #expect(r.status == 1)
        #expect(r.stderrText == "chipify replay: line 8: no suggestion 0 (the pending text has 0)\n")
        // John from "john" (not the first of "j"), then José's second row.
        #expect(r.stdoutText.contains(#""address":"john.smith@x.org""#))
        #expect(r.stdoutText.contains(#""address":"j.ortiz@work.example""#))
        #expect(!r.stdoutText.contains(#""address":"jose@ortiz.example""#))
    }
}
