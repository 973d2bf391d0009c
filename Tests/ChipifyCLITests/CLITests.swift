#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import ChipifyCLI
import ChipKit
import ChipTestSupport

/// The package root, with a trailing slash.
let packageRoot = ChipTestSupport.packageRoot() + "/"

/// A file the tests need; a missing one is a failure, not empty input.
func contents(_ path: String) -> [UInt8] {
    guard let bytes = readFile(path) else {
        Issue.record("cannot read \(path)")
        return []
    }
    return bytes
}

func render(_ text: String, _ arguments: [String] = [], readSize: Int = 1 << 20) -> String {
    let options = try! CLI.parse(arguments)
    return String(decoding: CLI.render(Array(text.utf8), options: options, readSize: readSize), as: UTF8.self)
}

func jsonLines(_ bytes: [UInt8]) -> [[String: JSONValue]] {
    bytes.split(separator: 0x0A).map { line in
        guard let o = MiniJSON.object(Array(line)) else {
            Issue.record("not a JSON object: \(String(decoding: line, as: UTF8.self))")
            return [:]
        }
        return o
    }
}

@Suite("chipify as a process")
struct ProcessTests {
    /// Every mode: a failed write is an error with a message and status 1;
    /// a closed pipe ends the run quietly (status 141, as SIGPIPE would).
    static let modes: [[String]] = [
        ["Corpus/samples/compose.txt"], ["--format", "jsonl", "Corpus/samples/compose.txt"],
        ["--format", "tsv", "-j", "2", "Corpus/samples/compose.txt"], ["--format", "header", "Corpus/samples/compose.txt"],
        ["--summary", "Corpus/samples/compose.txt"], ["--help"], ["--version"],
        ["replay", "--trace", "Corpus/replay/typing.jsonl"], ["replay", "--help"],
        ["group", "--trace", "Corpus/groups/sizes.jsonl"], ["group", "--help"],
    ]

    /// The memory measure reads a plausible peak, with GNU time or without.
    @Test func peakMemoryIsMeasured() {
        let r = runProcess(chipifyPath, ["--format", "jsonl", packageRoot + "Corpus/real/debian-maintainers.txt"],
                           measureMemory: true)
        #expect(r.status == 0)
        #expect(r.maxRSSKiB > 1_000 && r.maxRSSKiB < 200_000, "\(r.maxRSSKiB) KiB (GNU time: \(hasGNUTime))")
    }

    @Test(arguments: modes)
    func aFailedWriteIsReportedWithStatusOne(_ arguments: [String]) {
        let args = arguments.map { $0.hasPrefix("Corpus/") ? packageRoot + $0 : $0 }
        let r = runProcess(chipifyPath, args, stdout: .path("/dev/full"))
        #expect(r.status == 1, "\(arguments)")
        #expect(r.stderrText == "chipify: write error: No space left on device\n", "\(arguments)")
    }

    @Test(arguments: modes)
    func aClosedPipeEndsTheRunQuietly(_ arguments: [String]) {
        let args = arguments.map { $0.hasPrefix("Corpus/") ? packageRoot + $0 : $0 }
        let r = runProcess(chipifyPath, args, stdout: .closedPipe)
        #expect(r.status == 141, "\(arguments)")
        #expect(r.stderr.isEmpty, "\(arguments): \(r.stderrText)")
    }

    @Test func unknownOptionIsAUsageErrorInThreeLines() {
        let r = runProcess(chipifyPath, ["--bogus"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText == "chipify: unknown option '--bogus'\n\(CLI.usage)\nSee 'chipify --help'.\n")
    }

    @Test(arguments: [
        (["--format", "xml"], "chipify: unknown format 'xml' (expected text, jsonl, tsv or header)"),
        (["--policy=loose"], "chipify: unknown policy 'loose' (expected strict, standard or lenient)"),
        (["--format"], "chipify: option '--format' needs a value"),
        (["--check=yes"], "chipify: option '--check' takes no value"),
    ])
    func badValuesAreUsageErrors(_ arguments: [String], _ firstLine: String) {
        let r = runProcess(chipifyPath, arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText == "\(firstLine)\n\(CLI.usage)\nSee 'chipify --help'.\n")
    }

    @Test func helpAndVersion() {
        let help = runProcess(chipifyPath, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText == CLI.help)
        #expect(help.stderr.isEmpty)
        let version = runProcess(chipifyPath, ["--version"])
        #expect(version.stdoutText == "chipify \(CLI.version)\n")
    }

    @Test func readsStandardInputAndFilesInOrder() {
        let a = temporaryFile(Array("a@x.org\n".utf8))
        let b = temporaryFile(Array("b@y.org".utf8))  // no final newline
        defer { unlink(a); unlink(b) }
        let r = runProcess(chipifyPath, ["--format", "tsv", a, "-", b], stdinPath: a)
        #expect(r.status == 0)
        #expect(r.stdoutText == """
            1\t1\tmailbox\tvalid\t\ta@x.org\t\t\t\t0\t7\ta@x.org
            2\t1\tmailbox\tvalid\t\ta@x.org\t\t\t\t0\t7\ta@x.org
            3\t1\tmailbox\tvalid\t\tb@y.org\t\t\t\t0\t7\tb@y.org

            """)
    }

    @Test func missingFileIsReportedAndTheRestProcessed() {
        let a = temporaryFile(Array("a@x.org\n".utf8))
        defer { unlink(a) }
        let r = runProcess(chipifyPath, ["--format=jsonl", "/nonexistent/list.txt", a])
        #expect(r.status == 1)
        #expect(r.stderrText == "chipify: cannot open '/nonexistent/list.txt': No such file or directory\n")
        #expect(jsonLines(r.stdout).map { $0["address"]?.text } == ["a@x.org"])
    }

    @Test func checkFailsOnlyWhenAChipIsInError() {
        let good = temporaryFile(Array("a@x.org, Ann <b@y.org>\n".utf8))
        let bad = temporaryFile(Array("a@x.org, b@\n".utf8))
        defer { unlink(good); unlink(bad) }
        #expect(runProcess(chipifyPath, ["--check", good]).status == 0)
        #expect(runProcess(chipifyPath, ["--check", bad]).status == 1)
        #expect(runProcess(chipifyPath, [bad]).status == 0)
    }

    /// A chip left out of a header is never silent: one line on standard
    /// error (record, chip, text, reason, what lets it through), and
    /// `--check` fails for it as for an error chip; with `-j` the same.
    @Test(arguments: [
        (["--format", "header"], "jörg@x.org, ann@x.org\n", "ann@x.org\n",
         "chipify: record 1, chip 1 'jörg@x.org' left out of the header: needs-smtputf8 (a UTF-8 local part: --smtputf8 lets it through)\n"),
        (["--format", "header", "--smtputf8"], "jörg@x.org, ann@x.org\n", "jörg@x.org, ann@x.org\n", ""),
        (["--format", "header", "--smtputf8"], "ann@ｘ。org\n", "ann@x.org\n", ""),
        (["--format", "header", "--smtputf8", "--policy", "lenient"], "c@x\u{85}y.org, d@x.org\u{2029}, e@x.org\n", "e@x.org\n",
         "chipify: record 1, chip 1 'c@x\\xc2\\x85y.org' left out of the header: in error (invalid-character)\n"
            + "chipify: record 1, chip 2 'd@x.org\\xe2\\x80\\xa9' left out of the header: in error (invalid-character)\n"),
        (["--format", "header"], "a@x.org\nb@, c@x.org\n", "a@x.org\nc@x.org\n",
         "chipify: record 2, chip 1 'b@' left out of the header: in error (missing-domain)\n"),
    ])
    func chipsLeftOutOfAHeaderAreReportedAndFailTheCheck(
        _ arguments: [String], _ input: String, _ expectedOut: String, _ expectedErr: String
    ) {
        let path = temporaryFile(Array(input.utf8))
        defer { unlink(path) }
        for extra in [[], ["--check"], ["--check", "-j", "2"]] {
            let r = runProcess(chipifyPath, arguments + extra + [path])
            #expect(r.stdoutText == expectedOut, "\(arguments + extra)")
            #expect(r.stderrText == expectedErr, "\(arguments + extra)")
            #expect(r.status == (extra.isEmpty || expectedErr.isEmpty ? 0 : 1), "\(arguments + extra)")
        }
    }

    /// The sample corpus against recorded output. Re-record with
    /// `CHIPIFY_RECORD=1 swift test` and review the diff.
    @Test(arguments: [("text", "txt"), ("jsonl", "jsonl"), ("tsv", "tsv"), ("header", "header"),
                      ("header --smtputf8", "header-smtputf8")])
    func sampleCorpusMatchesGoldenOutput(_ format: String, _ ext: String) {
        let input = packageRoot + "Corpus/samples/compose.txt"
        let golden = packageRoot + "Corpus/expected/compose.\(ext)"
        let args = format.split(separator: " ").map(String.init)
        let r = runProcess(chipifyPath, ["--format"] + args + [input])
        #expect(r.status == 0)
        if getenv("CHIPIFY_RECORD") != nil {
            let fd = open(golden, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = r.stdout.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        #expect(r.stdoutText == String(decoding: contents(golden), as: UTF8.self))
    }

    @Test func hugeRecordStreamsInBoundedMemory() {
        // 100 MB in one record: an unterminated quote swallows it all.
        var big = [UInt8]()
        big.reserveCapacity(100_000_020)
        big += Array("a@x.org, \"".utf8)
        big += [UInt8](repeating: UInt8(ascii: "x"), count: 100_000_000)
        let path = temporaryFile(big)
        big = []
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["--format", "jsonl", path], measureMemory: true)
        #expect(r.status == 0)
        let lines = jsonLines(r.stdout)
        #expect(lines.count == 2)
        #expect(lines.last?["error"]?.text == "too-long")
        #expect(lines.last?["truncated"] == .bool(true))
        #expect(lines.last?["start"]?.int == 9)
        #expect(lines.last?["end"]?.int == 100_000_010)
        #expect(lines.last?["raw"]?.bytes?.count == ValidationPolicy.standard.maxChipBytes)
        #expect(r.maxRSSKiB < 40_000, "peak RSS \(r.maxRSSKiB) KiB")
    }

    @Test func manyRecordsAndAddressesStreamInBoundedMemory() {
        // 20 MB: 200,000 records of two chips, and one record of 200,000
        // chips. Not sampled: a smaller input would fit under the bound.
        let n = 200_000
        var big = [UInt8]()
        let line = Array("Ann Lee <ann@example.com>, \"Lee, B\" <b@x.org>\n".utf8)
        for _ in 0..<n { big += line }
        let long = Array("c@y.org, ".utf8)
        for _ in 0..<n { big += long }
        let path = temporaryFile(big)
        defer { unlink(path) }
        for (jobs, limitKiB) in [("1", 20_000), ("2", 50_000)] {
            let r = runProcess(chipifyPath, ["--format", "tsv", "-j", jobs, path], measureMemory: true)
            #expect(r.status == 0)
            var count = 0
            for b in r.stdout where b == 0x0A { count += 1 }
            #expect(count == 3 * n)
            #expect(r.maxRSSKiB < limitKiB, "-j \(jobs): peak RSS \(r.maxRSSKiB) KiB")
        }
    }

    /// A person at a pipe gets each record's chips before typing the next:
    /// with one thread and with several, nothing waits for more input
    /// before it is written.
    @Test(.serialized, arguments: ["1", "2", "3"])
    func anInteractivePipeIsAnsweredLineByLine(jobs: String) throws {
        let child = try #require(InteractiveProcess(chipifyPath, ["--format", "tsv", "-j", jobs]))
        defer { child.finish() }
        for (k, line) in ["Ann <a@x.org>, b@y.org\n", "c@\n", "d@z.org\n"].enumerated() {
            child.send(line)
            // Every chip of this record, and only its, within ten seconds.
            let got = child.readLines(upTo: line.filter { $0 == "@" }.count, seconds: 10)
            #expect(got.count == line.filter { $0 == "@" }.count, "-j \(jobs), record \(k + 1): \(got)")
            #expect(got.allSatisfy { $0.hasPrefix("\(k + 1)\t") }, "-j \(jobs): \(got)")
        }
        #expect(child.finish() == 0)
    }

    /// Records read past a record longer than a piece of `-j` (256 KiB) are
    /// answered before more input comes.
    @Test(.serialized, arguments: ["1", "2"])
    func recordsAfterALongOneAreAnsweredAtOnce(jobs: String) throws {
        let child = try #require(InteractiveProcess(chipifyPath, ["--format", "tsv", "-j", jobs]))
        defer { child.finish() }
        child.send(String(repeating: "x", count: 300_000) + "@long.org\nb@y.org\n")
        let got = child.readLines(upTo: 2, seconds: 10)
        #expect(got.count == 2, "-j \(jobs): \(got.map { $0.prefix(40) })")
        #expect(got.last?.hasPrefix("2\t1\tmailbox\tvalid") == true, "-j \(jobs)")
    }

    /// When output can no longer be written (the reader went away), the
    /// run ends at once, though its input stays open.
    @Test(.serialized, arguments: ["1", "2"])
    func aClosedOutputEndsTheRunThoughInputStaysOpen(jobs: String) throws {
        let child = try #require(InteractiveProcess(chipifyPath, ["--format", "tsv", "-j", jobs]))
        defer { child.finish() }
        child.closeOutput()
        child.send("a@x.org\n")
        let status = child.exitStatus(within: 10)
        #expect(status == 141, "-j \(jobs): \(String(describing: status))")
    }
}

@Suite("chipify formats")
struct FormatTests {
    /// Every format counts chips from 1, as it counts records: text's
    /// `R.C` is JSON Lines' `record` and `chip` and TSV's first two
    /// columns, with record numbers or without; and text's columns after
    /// the number line up on every line (records past 9, chips past 9).
    @Test(arguments: [true, false])
    func everyFormatCountsChipsAlikeAndTextLinesUp(_ numbers: Bool) throws {
        var records: [String] = []
        for r in 1...14 {
            records.append((1...(1 + r % 12)).map { $0 % 5 == 0 ? "bad\($0)@" : "p\(r)x\($0)@x.org" }.joined(separator: ", "))
        }
        let input = Array((records.joined(separator: "\n") + "\n").utf8)
        let extra = numbers ? [] : ["--no-record-numbers"]
        func lines(_ format: String) throws -> [String] {
            let out = CLI.render(input, options: try CLI.parse(["--format", format] + extra))
            return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let text = try lines("text"), tsv = try lines("tsv")
        let json = jsonLines(CLI.render(input, options: try CLI.parse(["--format", "jsonl"] + extra)))
        #expect(text.count == json.count && tsv.count == json.count)
        for (k, line) in text.enumerated() {
            let number = String(line.prefix { $0 != " " })
            let chip = json[k]["chip"]?.int ?? -1
            let expected = numbers ? "\(json[k]["record"]?.int ?? -1).\(chip)" : "\(chip)"
            #expect(number == expected, "line \(k + 1): \(line)")
            let columns = tsv[k].split(separator: "\t", omittingEmptySubsequences: false)
            #expect(columns[1] == "\(chip)" && columns[0] == (numbers ? "\(json[k]["record"]?.int ?? -1)" : ""))
            // The state starts in the same column on every line.
            let state = line.firstRange(of: "ok     ") ?? line.firstRange(of: "ERROR  ")
            let column = state.map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            #expect(column == (numbers ? 9 : 5), "line \(k + 1): \(line)")
        }
        #expect(json.first?["chip"]?.int == 1)
    }

    @Test func jsonlHasEveryFieldAndRawReproducesTheRecord() {
        let record = "Team: \"Lee, Ann\" <ann@x.org>, b@; c@z.org (C), undisclosed-recipients:;"
        let out = CLI.render(Array((record + "\n").utf8), options: try! CLI.parse(["--format", "jsonl"]))
        let chips = jsonLines(out)
        #expect(chips.count == 4)
        let bytes = Array(record.utf8)
        for (k, c) in chips.enumerated() {
            #expect(c["record"]?.int == 1)
            #expect(c["chip"]?.int == k + 1)
            let start = c["start"]!.int!, end = c["end"]!.int!
            #expect(Array(bytes[start..<end]) == c["raw"]?.bytes)
            #expect(c["warnings"] != nil)
        }
        #expect(chips[0]["name"]?.text == "Lee, Ann")
        #expect(chips[0]["group"]?.text == "Team")
        #expect(chips[1]["state"]?.text == "error")
        #expect(chips[1]["error"]?.text == "missing-domain")
        #expect(chips[1]["error_at"]?.int == 32)
        #expect(chips[2]["group"] == nil)
        #expect(chips[2]["name"]?.text == "C")
        #expect(chips[2]["error"] == .null)
        #expect(chips[3]["kind"]?.text == "group")
        #expect(chips[3]["address"] == .null)
        #expect(chips[3]["group"]?.text == "undisclosed-recipients")
    }

    @Test func invalidUTF8AndControlsAreEscapedNeverDropped() {
        let input: [UInt8] = Array("a".utf8) + [0xFF, 0xC3] + Array("@x.org, \u{1}b@y.org, \"\\\u{7F}\"@z.org\n".utf8)
        let out = CLI.render(input, options: try! CLI.parse(["--format", "jsonl"]))
        #expect(!out.contains(0xFF))
        #expect(!out.contains(0x01))
        let chips = jsonLines(out)
        #expect(chips.count == 3)
        #expect(chips[0]["raw"]?.bytes == [0x61, 0xFF, 0xC3] + Array("@x.org".utf8))
        #expect(chips[0]["error"]?.text == "invalid-utf8")
        #expect(chips[1]["raw"]?.bytes == [0x01] + Array("b@y.org".utf8))
        #expect(chips[1]["error"]?.text == "invalid-character")
        #expect(chips[2]["error"]?.text == "invalid-character")
    }

    @Test func nullSeparatedRecordsMayHoldLineBreaks() {
        let input = Array("a@x.org,\r\n b@y.org\u{0}c@z.org\nd@w.org\u{0}".utf8)
        let out = CLI.render(input, options: try! CLI.parse(["-z", "--format", "jsonl"]))
        let chips = jsonLines(out)
        #expect(chips.map { $0["record"]?.int } == [1, 1, 2, 2])
        #expect(chips.map { $0["address"]?.text } == ["a@x.org", "b@y.org", "c@z.org", "d@w.org"])
    }

    @Test func textMarksErrorsAndShowsGroupsAndWarnings() {
        let out = render("Ann <a@x.org>, b@, Team: c@y.org;\nmailto:d@z.org, d@Z.org\n")
        #expect(out == """
            1.1      ok     Ann <a@x.org>
            1.2      ERROR  b@  -- missing-domain: nothing after the @
            1.3      ok     c@y.org  [group: Team]
            2.1      ok     d@z.org  [warning: mailto-prefix]
            2.2      ok     d@Z.org  [warning: duplicate]

            """)
    }

    @Test func tsvEscapesTabsAndLineBreaks() {
        let out = render("\"A\tB\u{0}\" <a@x.org>\n", ["--format", "tsv"])
        #expect(out == "1\t1\terror\terror\tA B\ta@x.org\t\tinvalid-character\t\t0\t16\t\"A\\tB\\x00\" <a@x.org>\n")
    }

    /// Output does not depend on how the input arrives.
    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func readSizeDoesNotChangeOutput(readSize: Int) {
        let sample = String(decoding: contents(packageRoot + "Corpus/samples/compose.txt"), as: UTF8.self)
        for format in ["text", "jsonl", "tsv"] {
            #expect(render(sample, ["--format", format], readSize: readSize) == render(sample, ["--format", format]))
        }
    }

    @Test func tooLongChipsKeepTheirStartAndTheRestOfTheRecord() {
        var policy = ValidationPolicy.standard
        policy.maxChipBytes = 100
        let long = String(repeating: "x", count: 1_000)
        let input = "a@x.org, \(long)@y.org, b@z.org, c@w.org \(String(repeating: " ", count: 500)), d@v.org\n"
        for readSize in [16, 64, 200, 1 << 20] {
            var options = Options()
            options.format = .jsonl
            options.policy = policy
            let chips = jsonLines(CLI.render(Array(input.utf8), options: options, readSize: readSize))
            #expect(chips.map { $0["error"]?.text } == [nil, "too-long", nil, nil, nil], "read size \(readSize)")
            #expect(chips.map { $0["address"]?.text } == ["a@x.org", nil, "b@z.org", "c@w.org", "d@v.org"])
            #expect(chips[1]["raw"]?.bytes == Array(long.utf8.prefix(100)))
            #expect(chips[1]["start"]?.int == 9)
            #expect(chips[1]["end"]?.int == 1_015)
        }
    }

    /// Outlook's `Last, First`: the scanner holds the `,` after the words,
    /// and a chip too long to hold may then start at either word. Whatever
    /// the scanner decides and wherever a read ends, each chip keeps its
    /// first bytes (found by a fuzzing run: a read that ended inside the
    /// second chip lost them, `"raw":""`).
    @Test(arguments: [
        "Bob. Mueller <a+tag@hotmial.com>; <info@xn--pypal-4ve.com> , Schäfer, Jürgen <o'neil@a-b.c-d.org>,,Noah. Walker <bob.lee@MÜNCHEN.DE>",
        "Petrov, $ ⷠ J.R. ἀλφα <a+tag@例え.jp>",
        "van der Berg, !éééööé bö <ojeypxjczkakbhtcsyiarleooeksdyrzaymkhaxaykzhbpqqehklwiyry@MÜNCHEN.DE>, \"#\" <ANN@localhost>",
        "Groß, Иван <ann@δοκιμή.gr>",
        "Lee, Ann Marie Catherine Elizabeth <ann.marie@example.org>; Ray, Bob <bob@y.org>",
        "Lee Anderson-Smithson-Jones-Fitzgerald, Ann <ann@x.org>; b@y.org",
        "Lee Anderson-Smithson-Jones-Fitzgerald, Ann Marie Catherine Elizabeth Lee <a@x.org>, c@z.org",
    ])
    func tooLongChipsAfterAHeldCommaKeepTheirStartForAnyReadSize(_ list: String) {
        for limit in [16, 24, 40] {
            var options = Options()
            options.format = .jsonl
            options.policy.maxChipBytes = limit
            let input = Array((list + "\n" + list + "\n").utf8)
            let whole = CLI.render(input, options: options)
            for readSize in Array(1...48) + [64, 100, 4097] {
                let chunked = CLI.render(input, options: options, readSize: readSize)
                #expect(chunked == whole, "limit \(limit), read size \(readSize)")
                if chunked != whole { return }
            }
            for c in jsonLines(whole) {
                let raw = c["raw"]?.bytes ?? []
                let length = c["end"]!.int! - c["start"]!.int!
                #expect(raw == Array(Array(list.utf8)[c["start"]!.int!...].prefix(min(length, limit))), "limit \(limit)")
            }
        }
    }

    /// The same under the default limit (64 KiB): words before a held `,`
    /// and a chip after it that fits, the two longer than a chip may be
    /// (found by a fuzzing run: read in 33,000-byte pieces, or as a last
    /// record with no line break, the chip after the `,` came out
    /// `too-long` with an empty `raw`, a valid address among them).
    @Test func aChipAfterAHeldCommaThatFitsIsReadWhateverTheReads() {
        let cases: [(String, String?)] = [
            ("L, " + String(repeating: "A", count: 65_534), "missing-at"),
            (String(repeating: "L", count: 1_000) + ", " + String(repeating: "A", count: 65_000) + " <a@x.org>", nil),
        ]
        for (list, error) in cases {
            for ending in ["", "\n"] {
                let input = Array((list + ending).utf8)
                var options = Options()
                options.format = .jsonl
                for readSize in [1 << 20, 33_000, 20_000, 4_096] {
                    let chips = jsonLines(CLI.render(input, options: options, readSize: readSize))
                    #expect(chips.count == 2, "read size \(readSize)")
                    guard chips.count == 2 else { continue }
                    #expect(chips[1]["error"]?.text == error, "read size \(readSize), ending \(ending.debugDescription)")
                    #expect(chips[1]["raw"]?.bytes == Array(Array(list.utf8)[chips[1]["start"]!.int!...]),
                            "read size \(readSize)")
                }
            }
        }
    }

    @Test(arguments: 0..<100)
    func randomInputsGiveTheSameOutputForAnyReadSize(seed: Int) {
        var rng = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Int {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
            return Int(rng >> 1)
        }
        // Words before a `,` (Outlook's `Last, First`) make the scanner
        // hold it; a long run of them makes a chip too long to hold.
        let pieces = ["a@x.org", ", ", "\"", "(", ")", "<", ">", "Team:", ";", "\n", " ", "b@", "é", "\u{0}", "\r\n ",
                      "Lee", "Ann Marie", "Anderson-Smithson-Fitzgerald-Jones", ", Ann <a@x.org>"]
        var input: [UInt8] = []
        for _ in 0..<(next() % 200) {
            if next() % 30 == 0 { input.append(UInt8(truncatingIfNeeded: next())) }
            input += Array(pieces[next() % pieces.count].utf8)
        }
        var options = Options()
        options.format = .jsonl
        options.policy.maxChipBytes = 50
        let whole = CLI.render(input, options: options)
        let chunked = CLI.render(input, options: options, readSize: 1 + next() % 40)
        #expect(whole == chunked, "seed \(seed)")
        for c in jsonLines(whole) where c["truncated"] == nil {
            #expect(c["raw"]?.bytes?.count == c["end"]!.int! - c["start"]!.int!, "seed \(seed)")
        }
    }
}

@Suite("chipify -j and --summary")
struct ParallelTests {
    static let sample = contents(packageRoot + "Corpus/samples/compose.txt")

    /// A varied input: the sample, random records, a record longer than
    /// the parallel batch, records without a final newline.
    static func mixedInput(seed: UInt64) -> [UInt8] {
        var state = seed | 1
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state >> 1)
        }
        var input = sample
        let pieces = ["a@x.org", ", ", "\"Lee, A\" <l@y.org>", "Team: t@z.org;", "b@", "(c)", "é", "\n", "\n", ";"]
        for _ in 0..<400 { input += Array(pieces[next() % pieces.count].utf8) }
        input += [UInt8](repeating: UInt8(ascii: "x"), count: 3_000) + Array("@long.org, c@d.org\n".utf8)
        for _ in 0..<100 { input += Array(pieces[next() % pieces.count].utf8) }
        return input
    }

    @Test(arguments: [(2, 64), (2, 300), (3, 1_000), (4, 4_096)])
    func parallelOutputEqualsOneThread(jobs: Int, pieceSize: Int) throws {
        let input = Self.mixedInput(seed: UInt64(jobs * 1_000 + pieceSize))
        for arguments in [["--format", "jsonl"], ["--format", "tsv"], ["--format", "text"], ["--format", "header"],
                          ["--summary"],
                          ["--summary", "--format", "jsonl"], ["-z", "--format", "jsonl"]] {
            var one = try CLI.parse(arguments)
            one.jobs = 1
            var many = one
            many.jobs = jobs
            let expected = String(decoding: CLI.render(input, options: one), as: UTF8.self)
            let got = String(decoding: CLI.render(input, options: many, readSize: 1 + pieceSize / 3,
                                                  pieceSize: pieceSize), as: UTF8.self)
            #expect(got == expected, "\(arguments) with -j \(jobs), pieces of \(pieceSize)")
        }
    }

    /// A record longer than a batch is streamed alone, and what was read
    /// past it goes back into the batch's buffer: with reads larger than a
    /// batch (a host's `readSize`), that must still fit.
    @Test(arguments: [(2, 64, 400), (2, 64, 1 << 20), (3, 100, 5_000)])
    func readsLargerThanABatchAfterALongRecord(jobs: Int, pieceSize: Int, readSize: Int) throws {
        var input = Array((String(repeating: "x", count: 300) + "@long.org\n").utf8)
        var k = 0
        while input.count < 130_000 {
            input += Array("Ann \(k) <a\(k)@x.org>, b\(k)@y.org\n".utf8)
            k += 1
        }
        var one = try CLI.parse(["--format", "jsonl"])
        one.jobs = 1
        var many = one
        many.jobs = jobs
        let expected = CLI.render(input, options: one)
        #expect(CLI.render(input, options: many, readSize: readSize, pieceSize: pieceSize) == expected,
                "-j \(jobs), pieces of \(pieceSize), reads of \(readSize)")
    }

    @Test func summaryCountsEqualTheChips() throws {
        let input = Self.mixedInput(seed: 99)
        let chips = jsonLines(CLI.render(input, options: try CLI.parse(["--format", "jsonl", "-j", "1"])))
        let summaryLine = CLI.render(input, options: try CLI.parse(["--summary", "--format", "jsonl", "-j", "1"]))
        let summary = try #require(MiniJSON.object(Array(summaryLine.dropLast())))
        #expect(summary["chips"]?.int == chips.count)
        #expect(summary["valid"]?.int == chips.filter { $0["state"]?.text == "valid" }.count)
        #expect(summary["errors"]?.int == chips.filter { $0["state"]?.text == "error" }.count)
        #expect(summary["bytes"]?.int == input.count)
        var records = 0
        for b in input where b == 0x0A { records += 1 }
        if input.last != 0x0A { records += 1 }
        #expect(summary["records"]?.int == records)
        guard case .object(let byReason)? = summary["errors_by_reason"],
              case .object(let warnings)? = summary["warnings"] else {
            Issue.record("missing breakdowns")
            return
        }
        for reason in ChipError.allReasons {
            let expected = chips.filter { $0["error"]?.text == reason.code }.count
            #expect(byReason[reason.code]?.int == expected, "\(reason.code)")
        }
        for (_, code) in ChipWarnings.all {
            let expected = chips.filter { c in
                if case .array(let list)? = c["warnings"] { return list.contains(.string(Array(code.utf8))) }
                return false
            }.count
            #expect(warnings[code]?.int == expected, "\(code)")
        }
    }

    @Test func summaryTextBlock() {
        let out = render("a@x.org, b@, c@y.org, c@Y.org\n\nd@\n", ["--summary"])
        #expect(out == """
            records: 3
            chips: 5
            valid: 3
            errors: 2
              missing-domain: 2
            warnings: 1
              duplicate: 1
            bytes: 34

            """)
    }

    @Test func withoutRecordNumbersPiecesJoinToTheWhole() throws {
        let input = Self.mixedInput(seed: 5)
        let lines = input.split(separator: 0x0A, omittingEmptySubsequences: false)
        let cut = lines.count / 2
        let first = Array(lines[..<cut].joined(separator: [0x0A])) + [0x0A]
        let second = Array(lines[cut...].joined(separator: [0x0A]))
        for format in ["jsonl", "tsv", "text"] {
            let options = try CLI.parse(["--format", format, "--no-record-numbers", "-j", "1"])
            let joined = CLI.render(first, options: options) + CLI.render(second, options: options)
            #expect(String(decoding: joined, as: UTF8.self)
                    == String(decoding: CLI.render(input, options: options), as: UTF8.self), "\(format)")
        }
    }

    /// The documented recipe: GNU parallel splits the input at line ends and
    /// runs several chipify processes; joined in order, their output equals
    /// one process's.
    @Test(.enabled(if: commandExists("parallel"), "GNU parallel is not installed (.ci/run installs it)"))
    func gnuParallelRecipeEqualsOneProcess() {
        let input = Self.mixedInput(seed: 11) + Self.mixedInput(seed: 12) + Self.mixedInput(seed: 13)
        let path = temporaryFile(input)
        defer { unlink(path) }
        let single = runProcess(chipifyPath, ["--format", "jsonl", "--no-record-numbers", path])
        let piped = runProcess("/bin/sh", ["-c",
            "parallel --will-cite --pipe -k --block 2k -j 4 '\(chipifyPath)' --format jsonl --no-record-numbers -j 1"],
            stdinPath: path)
        #expect(piped.status == 0, "\(piped.stderrText)")
        #expect(single.status == 0)
        #expect(!single.stdout.isEmpty)
        #expect(piped.stdout.count == single.stdout.count)
        #expect(piped.stdout == single.stdout, "GNU parallel output differs")
    }

    @Test func parallelProcessMatchesOneThreadOnALargeInput() {
        // Larger than one batch of 2 × 1 MiB, so several batches run.
        var input: [UInt8] = []
        let block = Self.mixedInput(seed: 3)
        let size = TestScale.count(10_000_000, 2_500_000, "-j 2 equals -j 1, bytes")
        while input.count < size { input += block }
        let path = temporaryFile(input)
        defer { unlink(path) }
        let one = runProcess(chipifyPath, ["--format", "tsv", "-j", "1", path])
        let two = runProcess(chipifyPath, ["--format", "tsv", "-j", "2", path])
        #expect(one.status == 0 && two.status == 0)
        #expect(one.stdout.count > input.count)
        #expect(one.stdout.count == two.stdout.count)
        #expect(one.stdout == two.stdout, "-j 2 output differs from -j 1")
    }
}

@Suite("chipify replay")
struct ReplayTests {
    /// The replay scripts under Corpus/replay against recorded traces.
    /// Re-record with `CHIPIFY_RECORD=1 swift test` and review the diff.
    @Test(arguments: ["typing", "backspace-and-edit", "move-and-duplicates", "send", "invalid-lines", "selection-and-send"])
    func scriptsMatchRecordedTraces(_ name: String) {
        let script = packageRoot + "Corpus/replay/\(name).jsonl"
        let golden = packageRoot + "Corpus/expected/replay/\(name).out"
        let r = runProcess(chipifyPath, ["replay", "--trace", "--keep-going", script])
        if getenv("CHIPIFY_RECORD") != nil {
            let fd = open(golden, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = r.stdout.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        #expect(r.stdoutText == String(decoding: contents(golden), as: UTF8.self))
        if name == "invalid-lines" {
            #expect(r.status == 1)
            #expect(r.stderrText == """
                chipify replay: line 2: not a JSON object (expected '{')
                chipify replay: line 3: unknown op "fly"
                chipify replay: line 4: no chip 7 in field "to" (it has 1)
                chipify replay: line 5: "type" needs a string "text"
                chipify replay: line 7: no place 99 in field "to" (it has 2 chips)
                chipify replay: line 8: "move" takes no "field" (it takes "at", "chip", "to")

                """)
        } else if name == "send" {
            // Editing a sent chip is refused: said, and the run fails.
            #expect(r.status == 1)
            #expect(r.stderrText == "chipify replay: line 12: refused in field \"to\": chip-committed\n")
        } else {
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty)
        }
    }

    /// A refusal loses what was typed or pasted: it is reported on standard
    /// error and fails the run, with or without --trace; a merged
    /// duplicate loses nothing and is not.
    @Test(arguments: [
        ([], "{\"op\":\"paste\",\"text\":\"" + String(repeating: "x", count: 70_000) + "\"}\n{\"op\":\"paste\",\"text\":\"b@x.org, \"}\n",
         "chipify replay: line 1: refused in field \"to\": pending-too-long\n"),
        (["--duplicates", "reject"], "{\"op\":\"paste\",\"text\":\"a@x.org, A@X.org, \"}\n",
         "chipify replay: line 1: refused in field \"to\": duplicate (\"A@X.org\")\n"),
        (["--duplicates", "merge"], "{\"op\":\"paste\",\"text\":\"a@x.org, A@X.org, \"}\n", ""),
        // Key by key: a type op keeps its keys' refusals without a trace too.
        (["--duplicates", "reject"], "{\"op\":\"type\",\"text\":\"a@x.org, A@X.org, \"}\n",
         "chipify replay: line 1: refused in field \"to\": duplicate (\"A@X.org\")\n"),
    ])
    func refusalsAreReportedAndFailTheRun(_ arguments: [String], _ script: String, _ expectedErr: String) {
        let path = temporaryFile(Array(script.utf8))
        defer { unlink(path) }
        for trace in [[], ["--trace"]] {
            let r = runProcess(chipifyPath, ["replay"] + arguments + trace + [path])
            #expect(r.stderrText == expectedErr, "\(arguments + trace)")
            #expect(r.status == (expectedErr.isEmpty ? 0 : 1), "\(arguments + trace)")
            // The replay goes on after a refusal: the last field line holds what came after.
            #expect(r.stdoutText.contains("\"address\":\"" + (arguments.isEmpty ? "b" : "a") + "@x.org\""))
        }
    }

    /// 20,000 addresses typed key by key in one `type` op: the field, its
    /// undo history (one typing step) and the replay hold under 1 KB a
    /// chip beyond an empty replay's peak. (The history once kept two
    /// 1,248-byte edits a chip and the op every key's changes: about 4.9 KB
    /// a chip.)
    @Test func typingKeyByKeyInOneOpStaysUnderAKilobyteAChip() {
        let count = TestScale.count(20_000, 5_000, "typed in one replay op, addresses")
        var text = ""
        for k in 0..<count { text += "u\(k)@x.org, " }
        let path = temporaryFile(Array("{\"op\":\"type\",\"text\":\"\(text)\"}\n".utf8))
        let empty = temporaryFile([])
        defer { unlink(path); unlink(empty) }
        // The empty replay lives a few milliseconds: without GNU time its
        // high-water mark is polled, and a test process short of CPU may
        // read it before the peak (once 2 MB short, 1,427 bytes a chip
        // instead of under 1,024). The highest of three readings is its peak.
        let bases = (0..<3).map { _ in runProcess(chipifyPath, ["replay", "--width", "40", empty], measureMemory: true) }
        let base = bases.max { $0.maxRSSKiB < $1.maxRSSKiB }!
        let r = runProcess(chipifyPath, ["replay", "--width", "40", path], measureMemory: true)
        #expect(r.status == 0 && bases.allSatisfy { $0.status == 0 })
        #expect(r.stdoutText.hasPrefix("to: u0@x.org, u1@x.org and \(count - 2) more\n"))
        let perChip = (r.maxRSSKiB - base.maxRSSKiB) * 1024 / count
        #expect(perChip < 1_024, "\(perChip) bytes per chip (\(r.maxRSSKiB) KiB, empty \(base.maxRSSKiB) KiB)")
    }

    @Test func withoutKeepGoingTheReplayStopsAtTheFirstBadLine() {
        let r = runProcess(chipifyPath, ["replay", packageRoot + "Corpus/replay/invalid-lines.jsonl"])
        #expect(r.status == 1)
        #expect(r.stderrText == "chipify replay: line 2: not a JSON object (expected '{')\n")
        let fields = jsonLines(r.stdout)
        #expect(fields.count == 3)
        #expect(fields[0]["field"]?.text == "to")
        guard case .array(let chips)? = fields[0]["chips"] else {
            Issue.record("no chips")
            return
        }
        #expect(chips.count == 1)
    }

    @Test func customFieldsAndUsageErrors() {
        let script = temporaryFile(Array("{\"op\":\"paste\",\"text\":\"a@x.org, \"}\n".utf8))
        defer { unlink(script) }
        let r = runProcess(chipifyPath, ["replay", "--fields", "invitees", script])
        #expect(r.status == 0)
        #expect(r.stdoutText.hasPrefix("{\"field\":\"invitees\",\"chips\":[{\"id\":"))
        let bad = runProcess(chipifyPath, ["replay", "--duplicates", "sometimes"])
        #expect(bad.status == 64)
        #expect(bad.stderrText == """
            chipify replay: unknown duplicate policy 'sometimes' (expected allow, warn, reject or merge)
            \(Replay.usage)
            See 'chipify replay --help'.

            """)
        // Replay and compose read field lists and policies alike.
        for (arguments, message) in [
            (["--fields", "to,,cc"], "bad field list 'to,,cc' (expected distinct names such as to,cc,bcc)"),
            (["--fields", "to:x"], "bad field list 'to:x' (expected distinct names such as to,cc,bcc)"),
            (["--policy", "loose"], "unknown policy 'loose' (expected strict, standard or lenient)"),
        ] {
            let r = runProcess(chipifyPath, ["replay"] + arguments)
            #expect(r.status == 64)
            #expect(r.stderrText.hasPrefix("chipify replay: \(message)\n"), "\(arguments)")
        }
    }
}

@Suite("Replay script reader")
struct JSONReaderTests {
    @Test(arguments: [
        (#"{"op":"type","text":"a\"b\\c\n\u00e9\ud83d\ude00"}"#, "a\"b\\c\né😀"),
        (#"  { "text" : "x" , "op":"paste" }  "#, "x"),
    ])
    func readsStringsWithEscapes(_ json: String, _ text: String) throws {
        let o = try JSONReader.object(Array(json.utf8))
        #expect(o["text"] == .string(text))
    }

    @Test(arguments: [#"{"a":1,"a":2}"#, #"{"a":[1]}"#, #"{"a":"x"} y"#, #"{"a":"\q"}"#, "{\"a\":\"\u{1}\"}", #"{"a""#, "[]"])
    func refusesWhatIsNotAFlatObject(_ json: String) {
        #expect(throws: JSONReader.Failure.self) { _ = try JSONReader.object(Array(json.utf8)) }
    }

    @Test func readsNumbersBooleansAndNull() throws {
        let o = try JSONReader.object(Array(#"{"chip":3,"at":-1,"extend":true,"toggle":false,"to":null}"#.utf8))
        #expect(o["chip"] == .number(3))
        #expect(o["at"] == .number(-1))
        #expect(o["extend"] == .bool(true))
        #expect(o["toggle"] == .bool(false))
        #expect(o["to"] == .null)
    }
}

/// `chipify` as a process against hostile input: it must exit normally, in
/// time linear in the input, with bounded memory (peak RSS measured).
@Suite("Hostile input to chipify", .serialized)
struct HostileProcessTests {
    /// Writes `count` copies of `unit` after `head` to a temporary file,
    /// without holding it all in memory.
    static func bigFile(head: [UInt8] = [], unit: [UInt8], count: Int, tail: [UInt8] = []) -> String {
        let path = temporaryFile(head)
        let fd = open(path, O_WRONLY | O_APPEND)
        var block: [UInt8] = []
        let perBlock = max(1, (1 << 20) / max(unit.count, 1))
        for _ in 0..<min(perBlock, count) { block += unit }
        var left = count
        while left > 0 {
            let n = min(perBlock, left)
            let bytes = n == perBlock ? block : Array(block[0..<(n * unit.count)])
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            left -= n
        }
        _ = tail.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        return path
    }

    static let memoryLimitKiB = 50_000
    /// For the binary as input under `--format jsonl` on every core: a
    /// binary's NUL-dense sections expand about six times (`\u0000`). While
    /// each piece's JSON was held until its turn to be written, the peak
    /// followed the densest batch: measured on debug builds of `chipify`
    /// (2 cores), 29–47 MB for 2–8 MB prefixes of the binary, 49 MB for
    /// 9 MB of seeded random bytes, 56 MB for the whole 9.5 MB binary;
    /// with `-j 1`, 16 MB. Since a piece hands over its output past
    /// 512 KiB, 24 MB for the 8 MiB prefix (see `ParallelMemoryTests`).
    /// The test reads an 8 MiB prefix, so the program's growth does not
    /// move it.
    static let binaryInputMemoryLimitKiB = 64_000

    @Test func aMillionNestedCommentsAndQuotes() {
        for unit in ["(", "\"", "<", "[", ")"] {
            let path = Self.bigFile(unit: Array(unit.utf8), count: 1_000_000, tail: Array("a@x.org, b@y.org\n".utf8))
            defer { unlink(path) }
            let r = runProcess(chipifyPath, ["--format", "jsonl", path], measureMemory: true)
            #expect(r.status == 0, "\(unit)")
            #expect(r.stderr.isEmpty)
            let chips = jsonLines(r.stdout)
            #expect(!chips.isEmpty)
            #expect(chips.contains { $0["error"]?.text == "too-long" }, "\(unit)")
            #expect(r.maxRSSKiB < Self.memoryLimitKiB, "\(unit): \(r.maxRSSKiB) KiB")
        }
    }

    @Test func aRecordOfHundredsOfMegabytesWithoutANewline() {
        // By default 100 MB: twice the memory bound, still.
        let size = TestScale.count(500_000_000, 100_000_000, "a record without a newline, bytes")
        let path = Self.bigFile(head: Array("a@x.org, \"".utf8), unit: Array("xxxxxxxxxxxxxxxx".utf8),
                                count: size / 16)
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["--summary", "--format", "jsonl", path], measureMemory: true)
        #expect(r.status == 0)
        let summary = MiniJSON.object(Array(r.stdout.dropLast()))
        #expect(summary?["records"]?.int == 1)
        #expect(summary?["chips"]?.int == 2)
        #expect(summary?["bytes"]?.int == size + 10)
        #expect(r.maxRSSKiB < Self.memoryLimitKiB, "\(r.maxRSSKiB) KiB")
    }

    @Test func tenMillionEmptyRecords() {
        let n = TestScale.count(10_000_000, 2_000_000, "empty records")
        let path = Self.bigFile(unit: [0x0A], count: n)
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["--summary", path], measureMemory: true)
        #expect(r.status == 0)
        #expect(r.stdoutText.hasPrefix("records: \(n)\nchips: 0\n"))
        #expect(r.maxRSSKiB < Self.memoryLimitKiB, "\(r.maxRSSKiB) KiB")
    }

    @Test func binaryFilesAndControlBytes() {
        // The chipify binary's first 8 MiB: megabytes of arbitrary bytes,
        // of a size that does not grow with the program.
        let binary = readFile(chipifyPath) ?? []
        #expect(binary.count > 1 << 20, "cannot read \(chipifyPath)")
        let prefix = temporaryFile(Array(binary.prefix(TestScale.count(8 << 20, 2 << 20, "the binary as input, bytes"))))
        defer { unlink(prefix) }
        let r = runProcess(chipifyPath, ["--format", "jsonl", prefix], measureMemory: true)
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: 0x0A)
        #expect(lines.count > 100)
        for line in lines.prefix(20_000) { #expect(MiniJSON.object(Array(line)) != nil) }
        #expect(!r.stdout.contains(0))
        #expect(r.maxRSSKiB < Self.binaryInputMemoryLimitKiB, "\(r.maxRSSKiB) KiB")
        // A lone CR (a line break inside the record), NUL, DEL and invalid UTF-8.
        let odd: [UInt8] = Array("a@x.org\rb@y.org, c\u{0}d@z.org, \u{7F}e@w.org, f".utf8) + [0xFF, 0xFE]
            + Array("@v.org\n".utf8)
        let file = temporaryFile(odd)
        defer { unlink(file) }
        let o = runProcess(chipifyPath, ["--format", "tsv", file])
        #expect(o.status == 0)
        #expect(o.stdoutText == """
            1\t1\tmailbox\tvalid\t\ta@x.org\t\t\t\t0\t7\ta@x.org
            1\t2\tmailbox\tvalid\t\tb@y.org\t\t\t\t8\t15\tb@y.org
            1\t3\terror\terror\t\tc\\x00d@z.org\t\tinvalid-character\t\t17\t26\tc\\x00d@z.org
            1\t4\terror\terror\t\t\\x7fe@w.org\t\tinvalid-character\t\t28\t36\t\\x7fe@w.org
            1\t5\terror\terror\t\tf\\xff\\xfe@v.org\t\tinvalid-utf8\t\t38\t47\tf\\xff\\xfe@v.org

            """)
    }

    @Test func mailtoAloneIsAnErrorChipNotACrash() {
        let file = temporaryFile(Array("mailto:\nmailto:, a@x.org\n".utf8))
        defer { unlink(file) }
        let r = runProcess(chipifyPath, ["--format", "jsonl", file])
        #expect(r.status == 0)
        #expect(jsonLines(r.stdout).map { $0["error"]?.text } == ["not-an-address", "not-an-address", nil])
    }

    @Test func injectionThroughTheHeaderFormatIsImpossible() {
        // A folded quoted name holding a header, and an encoded word that
        // decodes to CRLF and a header: both must stay inside the value.
        let input: [UInt8] = Array(
            "\"Evil\r\n Bcc: v@x.org\" <a@x.org>, =?UTF-8?Q?x=0D=0ABcc=3A_v=40x.org?= <b@y.org>\0".utf8)
        let file = temporaryFile(input)
        defer { unlink(file) }
        let r = runProcess(chipifyPath, ["-z", "--format", "header", file])
        #expect(r.status == 0)
        #expect(!r.stdout.contains(0x0D))
        // One value: continuation lines start with a space, none is a header.
        let lines = r.stdoutText.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines.dropFirst() { #expect(line.hasPrefix(" ")) }
        #expect(!lines.contains { $0.hasPrefix("Bcc") })
        // Both recipients are there, and only they.
        let unfolded = lines.joined()
        let chips = AddressList.parse(unfolded)
        #expect(chips.map(\.address) == ["a@x.org", "b@y.org"], "\(unfolded)")
    }
}

/// Every number read from a command line, a script or a usage file has a
/// range: outside it, a usage error (64, three lines) on the command line
/// and the file's line named (status 1) in a file; never a trap, never an
/// allocation sized by the number alone.
@Suite("Bad numbers")
struct BadNumberTests {
    static let values = ["-1", "0", "100000000000", "9223372036854775807", "1e19", "NaN", "", "0x10", " 3"]

    static let book = temporaryFile(Array("""
        BEGIN:VCARD
        VERSION:4.0
        UID:jose
        FN:José Núñez
        EMAIL:jose@example.com
        END:VCARD

        """.utf8))

    /// (arguments before the value, the message's start, the usage line, the help command).
    @Test(arguments: [
        (["-j"], "bad job count", CLI.usage, "chipify --help", ""),
        (["--width"], "bad width", CLI.usage, "chipify --help", " columns"),
        (["replay", "--width"], "bad width", Replay.usage, "chipify replay --help", " columns"),
        (["suggest", "--contacts", "BOOK", "--limit"], "bad limit", Suggest.usage, "chipify suggest --help", ""),
    ])
    func commandLineNumbersOutOfRangeAreUsageErrors(
        _ before: [String], _ message: String, _ usage: String, _ help: String, _ unit: String
    ) {
        let range = ["-j": "1 to 1024", "--width": "1 to 100000", "--limit": "1 to 10000"][before.last!]!
        for v in Self.values {
            var args = before.map { $0 == "BOOK" ? Self.book : $0 } + [v]
            if before.first == "suggest" { args.append("jo") }
            let r = runProcess(chipifyPath, args, stdinPath: "/dev/null")
            #expect(r.status == 64, "\(args)")
            let command = String(help.dropLast(" --help".count))
            #expect(r.stderrText == "\(command): \(message) '\(v)' (expected \(range)\(unit))\n\(usage)\nSee '\(help)'.\n", "\(args)")
        }
    }

    /// Replay ops: each number out of its range names the line; exit 1.
    @Test(arguments: [
        (#"{"op":"suggest","limit":%@}"#, true),
        (#"{"op":"select","chip":%@}"#, false),
        (#"{"op":"move","chip":0,"at":%@}"#, false),
        (#"{"op":"moveCaret","at":%@}"#, false),
        (#"{"op":"moveSelection","at":%@}"#, false),
        (#"{"op":"choose","suggestion":%@}"#, true),
        (#"{"op":"alternate","chip":0,"choice":%@}"#, false),
    ])
    func replayNumbersOutOfRangeNameTheirLine(_ template: String, _ contacts: Bool) {
        for v in ["-1", "100000000000", "9223372036854775807", "1e19", "1e400", "0.5", "\"3\""] {
            let parts = template.split(separator: "%@", omittingEmptySubsequences: false)
            let op = parts[0] + v + parts[1]
            let script = temporaryFile(Array("{\"op\":\"paste\",\"text\":\"a@x.org, b@x.org, \"}\n\(op)\n".utf8))
            defer { unlink(script) }
            let r = runProcess(chipifyPath, ["replay"] + (contacts ? ["--contacts", Self.book] : []) + [script])
            #expect(r.status == 1, "\(op)")
            #expect(r.stderrText.hasPrefix("chipify replay: line 2: "), "\(op): \(r.stderrText)")
            #expect(r.stderrText.split(separator: "\n").count == 1, "\(op): \(r.stderrText)")
        }
    }

    @Test(arguments: [
        (#"{"op":"suggest","limit":100000}"#, #"chipify replay: line 2: "limit" must be 1 to 10000, not 100000"#),
        (#"{"op":"suggest","limit":1e19}"#, #"chipify replay: line 2: "limit" must be a whole number from -1000000000 to 1000000000"#),
        (#"{"op":"moveCaret","at":3}"#, #"chipify replay: line 2: no place 3 in field "to" (it has 2 chips)"#),
        (#"{"op":"moveSelection","at":-1}"#, #"chipify replay: line 2: no place -1 in field "to" (it has 2 chips)"#),
    ])
    func replayNumberMessages(_ op: String, _ message: String) {
        let script = temporaryFile(Array("{\"op\":\"paste\",\"text\":\"a@x.org, b@x.org, \"}\n\(op)\n".utf8))
        defer { unlink(script) }
        let r = runProcess(chipifyPath, ["replay", "--contacts", Self.book, script])
        #expect(r.status == 1)
        #expect(r.stderrText == message + "\n")
    }

    /// A usage file's counts and times: out of range, its line is named and
    /// the status is 1; the suggestions still come.
    @Test(arguments: [
        (#"{"contact":"jose","count":1e19}"#, #"line 1: "count" must be a whole number from 0 to 1000000000"#),
        (#"{"contact":"jose","count":-1}"#, #"line 1: "count" must be a whole number from 0 to 1000000000"#),
        (#"{"contact":"jose","count":2.5}"#, #"line 1: "count" must be a whole number from 0 to 1000000000"#),
        (#"{"contact":"jose","count":9223372036854775807}"#, #"line 1: "count" must be a whole number from 0 to 1000000000"#),
        (#"{"contact":"jose","count":3,"last":1e400}"#, #"line 1: "last" must be a number from 0 to 100000000000"#),
        (#"{"contact":"jose","time":-5}"#, #"line 1: "time" must be a number from 0 to 100000000000"#),
        (#"{"contact":"jose","time":1e19}"#, #"line 1: "time" must be a number from 0 to 100000000000"#),
        (#"{"contact":"jose","time":"soon"}"#, #"line 1: "time" must be a number from 0 to 100000000000"#),
    ])
    func usageFileNumbersOutOfRangeNameTheirLine(_ line: String, _ message: String) {
        let usage = temporaryFile(Array((line + "\n").utf8))
        defer { unlink(usage) }
        let r = runProcess(chipifyPath, ["suggest", "--contacts", Self.book, "--usage", usage, "jo"])
        #expect(r.status == 1, "\(line)")
        #expect(r.stderrText == "chipify suggest: \(usage): \(message)\n", "\(line)")
        #expect(r.stdoutText.contains(#""rank":1"#))
    }

    /// Group script counts.
    @Test(arguments: ["0", "-1", "0.5", "1000000000", "9223372036854775807", "1e19", "1e400"])
    func groupCountsOutOfRangeNameTheirLine(_ v: String) {
        let script = temporaryFile(Array("{\"config\":{\"chips\":[\"a\"],\"max_visible\":\(v)}}\n".utf8))
        defer { unlink(script) }
        let r = runProcess(chipifyPath, ["group", script])
        #expect(r.status == 1)
        #expect(r.stderrText == "chipify group: line 1: \"max_visible\" must be a whole number from 1 to 999999999\n")
    }
}

/// Every byte of a record ends in a chip: comment-only text is an error
/// (so `--check` fails), and an unclosed construct keeps the chips after
/// its first separator, in every output format and with `-j`.
@Suite("Filter: comment-only text and unclosed constructs")
struct FilterRecoveryTests {
    @Test(arguments: [
        ("(call Bob first)\n", 1, ["comment-only"]),
        ("a@x.org, (note), b@y.org\n", 1, [nil, "comment-only", nil]),
        ("Team: (nobody);\n", 0, [nil]),
        ("Ann <ann@x.org, b@x.org, c@x.org\n", 1, ["unterminated-angle", nil, nil]),
        ("\"Lee, Ann <ann@x.org>, b@x.org\n", 1, ["unterminated-quote", nil, nil]),
        ("a@x.org (oops; b@y.org\n", 1, ["unbalanced-comment", nil]),
    ])
    func everyByteEndsInAChip(_ input: String, _ checkStatus: Int32, _ errors: [String?]) {
        let path = temporaryFile(Array(input.utf8))
        defer { unlink(path) }
        for j in ["1", "2"] {
            let r = runProcess(chipifyPath, ["--format", "jsonl", "-j", j, path])
            #expect(jsonLines(r.stdout).map { $0["error"]?.text } == errors, "\(input.debugDescription) -j \(j)")
            #expect(runProcess(chipifyPath, ["--check", "-j", j, path]).status == checkStatus)
        }
    }
}
