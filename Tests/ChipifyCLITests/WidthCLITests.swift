import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit
@testable import ChipifyCLI
import ChipTestSupport

/// `chipify --width N` and `chipify replay --width N`: each field as the
/// one summary line a field that is not focused shows, run as a process.
@Suite("chipify --width")
struct WidthCLITests {
    static let input = """
        Ann Lee <ann@x.org>, bob@, "Cy" <cy@xn--bcher-kva.example>, dee@x.org, eve@x.org

        "Sara\u{202E}" <sara@x.org>, 日本 太郎 <taro@x.jp>

        """

    @Test(arguments: [
        (80, [], """
            1  Ann Lee, bob@, Cy, dee@x.org and eve@x.org
            2
            3  Sara and 日本 太郎

            """),
        (30, ["--policy", "standard"], """
            1  Ann Lee, bob@ and 3 more
            2
            3  Sara and 日本 太郎

            """),
        (20, ["-j", "2"], """
            1  +5
            2
            3  Sara and 1 more

            """),
        (12, ["--no-record-numbers"], """
            +5

            +2

            """),
    ] as [(Int, [String], String)])
    func eachRecordIsOneSummaryLineThatFits(_ width: Int, _ arguments: [String], _ expected: String) {
        let file = temporaryFile(Array(Self.input.utf8))
        defer { unlink(file) }
        let r = runProcess(chipifyPath, ["--width=\(width)"] + arguments + [file])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdoutText == expected)
        for line in r.stdoutText.split(separator: "\n") where !line.contains("+") {
            #expect(TerminalWidth().width(of: line) <= width, "\(line)")
        }
    }

    @Test func theLibraryWritesWhatTheFilterWrites() {
        var writer = ChipRecordWriter(format: .text)
        writer.summaryWidth = 30
        for (k, line) in Self.input.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            writer.write(record: k + 1, Array(line.utf8))
        }
        let r = runProcess(chipifyPath, ["--width", "30"], stdinPath: temporaryFile(Array(Self.input.utf8)))
        #expect(String(decoding: writer.output.bytes, as: UTF8.self) == r.stdoutText)
    }

    @Test(arguments: [
        (["--width", "0"], "chipify: bad width '0' (expected 1 to 100000 columns)"),
        (["--width", "x"], "chipify: bad width 'x' (expected 1 to 100000 columns)"),
        (["--width", "20", "--format", "jsonl"], "chipify: --width applies to --format text only, without --summary"),
        (["--width", "20", "--summary"], "chipify: --width applies to --format text only, without --summary"),
    ])
    func badWidthsAreUsageErrors(_ arguments: [String], _ firstLine: String) {
        let r = runProcess(chipifyPath, arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText == "\(firstLine)\n\(CLI.usage)\nSee 'chipify --help'.\n")
    }

    @Test func replayPrintsEachFieldAsASummaryLine() {
        let script = temporaryFile(Array("""
            {"op":"paste","text":"Ann Lee <ann@x.org>, bob@, Cy <cy@x.org>, dee@x.org, "}
            {"op":"focus","field":"cc"}
            {"op":"paste","text":"eve@xn--bcher-kva.example, "}

            """.utf8))
        defer { unlink(script) }
        let r = runProcess(chipifyPath, ["replay", "--width", "30", script])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdoutText == """
            to: Ann Lee, bob@ and 2 more
            cc: eve@bücher.example
            bcc:

            """)
        let help = runProcess(chipifyPath, ["replay", "--help"])
        #expect(help.stdoutText.contains("--width N"))
    }
}
