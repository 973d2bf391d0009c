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
        #expect(r.stderrText.hasPrefix("Error: \(message)\n"), "\(args): \(r.stderrText)")
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
