#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ChipifyCLI
import ChipKit
import ChipTestSupport

/// Command-line conventions a shell user expects.
@Suite("CLI conventions")
struct ConventionTests {
    /// Short options bundle and take attached values, as getopt does.
    @Test(arguments: [
        (["-j1", "-fjsonl"], "jsonl", 1, false, "standard"),
        (["-zj", "2"], "text", 2, true, "standard"),
        (["-zj2"], "text", 2, true, "standard"),
        (["-zfjsonl"], "jsonl", nil, true, "standard"),
        (["-pstrict", "-z"], "text", nil, true, "strict"),
        (["-f", "tsv", "-p", "lenient"], "tsv", nil, false, "lenient"),
        (["--", "-zj2"], "text", nil, false, "standard"),
    ] as [([String], String, Int?, Bool, String)])
    func shortOptionsBundleAsGetoptReadsThem(_ args: [String], _ format: String, _ jobs: Int?, _ null: Bool, _ policy: String) throws {
        let o = try CLI.parse(args)
        #expect(o.format.rawValue == format, "\(args)")
        #expect(o.jobs == jobs, "\(args)")
        #expect(o.nullTerminated == null, "\(args)")
        #expect(o.policy.name == policy, "\(args)")
        if args.first == "--" { #expect(o.files == ["-zj2"]) }
    }

    /// Options that would do nothing, and bad clusters, are usage errors.
    @Test(arguments: [
        (["--smtputf8"], "--smtputf8 applies to --format header only"),
        (["--smtputf8", "-f", "jsonl"], "--smtputf8 applies to --format header only"),
        (["--summary", "-f", "tsv"], "--summary writes text or JSON (--format text or jsonl), not tsv"),
        (["--summary", "--format=header"], "--summary writes text or JSON (--format text or jsonl), not header"),
        (["--no-record-numbers", "--summary"], "--no-record-numbers does nothing with --summary"),
        (["--no-record-numbers", "-f", "header"], "--no-record-numbers does nothing with --format header"),
        (["-zq"], "unknown option '-q'"),
        (["-j"], "option '-j' needs a value"),
        (["-zj"], "option '-j' needs a value"),
    ] as [([String], String)])
    func pointlessOptionsAreUsageErrors(_ args: [String], _ message: String) {
        #expect {
            _ = try CLI.parse(args)
        } throws: { error in
            (error as? UsageError)?.message == message
        }
        let r = runProcess(chipifyPath, args)
        #expect(r.status == 64, "\(args)")
        #expect(r.stderrText.hasPrefix("chipify: \(message)\n"), "\(args): \(r.stderrText)")
    }

    /// `chipify help [COMMAND]` prints what `--help` prints; `-h` and
    /// `--version` work in every command; help is plain text ending with a
    /// newline.
    @Test(arguments: ["", "replay", "contacts", "suggest", "group", "compose"])
    func everyCommandHasHelpAndVersion(_ command: String) {
        let name = command.isEmpty ? [] : [command]
        let viaHelp = runProcess(chipifyPath, ["help"] + name)
        let long = runProcess(chipifyPath, name + ["--help"])
        let short = runProcess(chipifyPath, name + ["-h"])
        #expect(viaHelp.status == 0 && long.status == 0 && short.status == 0, "\(command)")
        #expect(viaHelp.stdoutText == long.stdoutText && short.stdoutText == long.stdoutText, "\(command)")
        #expect(long.stdoutText.hasSuffix("\n") && !long.stdoutText.contains("`"), "\(command): no Markdown")
        let version = runProcess(chipifyPath, name + ["--version"])
        #expect(version.status == 0 && version.stdoutText == "chipify \(CLI.version)\n", "\(command)")
    }

    /// A first argument that is neither a file nor a command but is close
    /// to one is a usage error that names the command; far from every
    /// command, it is a file that cannot be opened.
    @Test(arguments: [
        ("contact", "contacts"), ("replya", "replay"), ("sugest", "suggest"), ("grop", "group"), ("COMPOSE", "compose"),
        ("hlep", "help"),
    ])
    func aNearMissOfACommandSaysWhichOneWasMeant(_ word: String, _ meant: String) {
        let r = runProcess(chipifyPath, [word, "x.vcf"])
        #expect(r.status == 64)
        #expect(r.stderrText.hasPrefix("chipify: no file '\(word)', and no such command: did you mean '\(meant)'?\n"), "\(r.stderrText)")
        let unknownHelp = runProcess(chipifyPath, ["help", word])
        #expect(unknownHelp.status == 64)
        #expect(unknownHelp.stderrText.contains("did you mean '\(meant)'?"))
        // An existing file of that name is read, as a file always was.
        let far = runProcess(chipifyPath, ["/nonexistent/list.txt"])
        #expect(far.status == 1 && far.stderrText.hasPrefix("chipify: cannot open"))
    }

    /// `--version` names the release the changelog's newest entry is
    /// about (the git tag of that release is made when it lands).
    @Test func theVersionIsTheChangelogsNewestRelease() {
        let changelog = String(decoding: contents(packageRoot + "CHANGELOG.md"), as: UTF8.self)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.dropFirst(3).hasPrefix(CLI.version + " ") == true, "\(String(describing: newest))")
    }

    @Test func replayOfADirectoryIsAnError() {
        let r = runProcess(chipifyPath, ["replay", packageRoot + "Corpus/replay"])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("cannot read") && r.stderrText.contains("Is a directory"), "\(r.stderrText)")
        #expect(r.stdout.isEmpty)
    }

    /// A byte order mark starts the script, not its first line; a lone
    /// surrogate is an invalid line, not a character typed elsewhere.
    @Test func scriptsSkipABOMAndRefuseLoneSurrogates() {
        let script = Array("\u{FEFF}{\"op\":\"type\",\"text\":\"a@x.org, \"}\n".utf8)
            + Array("{\"op\":\"type\",\"text\":\"\\ud800x\"}\n{\"op\":\"type\",\"text\":\"\\udc00\"}\n".utf8)
            + Array("{\"op\":\"type\",\"text\":\"\\ud83d\\ude00@x.org, \"}\n".utf8)
            + [0x7B] + Array("\"op\":\"type\",\"text\":\"\u{FF}\"}".utf8).map { $0 == 0xC3 ? 0xFF : $0 } + [0x0A]
        let path = temporaryFile(script)
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["replay", "--keep-going", path])
        #expect(r.status == 1)
        #expect(r.stderrText == """
            chipify replay: line 2: not a JSON object (a lone surrogate \\ud800 (JSON text is Unicode))
            chipify replay: line 3: not a JSON object (a lone surrogate \\udc00 (JSON text is Unicode))
            chipify replay: line 5: not a JSON object (a string that is not UTF-8)

            """, "\(r.stderrText)")
        let fields = jsonLines(r.stdout)
        guard case .array(let chips)? = fields.first?["chips"] else {
            Issue.record("no chips in \(r.stdoutText)")
            return
        }
        #expect(chips.count == 2)
    }
}
