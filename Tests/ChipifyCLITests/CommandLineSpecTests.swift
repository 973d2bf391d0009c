#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ChipifyCLI

/// The one reader of every command's arguments (``CommandSpec``), and the
/// commands' descriptions against their help.
@Suite("Command-line descriptions")
struct CommandLineSpecTests {
    static let spec = CommandSpec(name: "t", summary: "", operands: "", options: [
        OptionSpec("format", "f", value: "F", help: ""), OptionSpec("null", "z", help: ""),
        OptionSpec("jobs", "j", value: "N", help: ""), OptionSpec("check", help: ""),
        OptionSpec("contacts", value: "FILE", help: ""),
    ])

    static func given(_ pairs: [(String, String?)]) -> [CommandSpec.Given] {
        pairs.map { CommandSpec.Given(name: $0.0, value: $0.1) }
    }

    @Test(arguments: [
        (["-zj2", "a"], [("null", nil), ("jobs", "2")] as [(String, String?)], ["a"]),
        (["-zj", "2"], [("null", nil), ("jobs", "2")], []),
        (["-fjsonl", "-", "b"], [("format", "jsonl")], ["-", "b"]),
        (["--format=tsv", "--format", "text"], [("format", "tsv"), ("format", "text")], []),
        (["--contacts", "a.vcf", "--contacts=b.vcf"], [("contacts", "a.vcf"), ("contacts", "b.vcf")], []),
        (["--", "--check", "-z"], [], ["--check", "-z"]),
        (["x", "--check", "y"], [("check", nil)], ["x", "y"]),
        (["--format="], [("format", "")], []),
    ] as [([String], [(String, String?)], [String])])
    func readsAsGetoptDoes(_ args: [String], _ options: [(String, String?)], _ operands: [String]) throws {
        let parsed = try Self.spec.parse(args)
        #expect(parsed.options == Self.given(options), "\(args)")
        #expect(parsed.operands == operands, "\(args)")
    }

    @Test(arguments: [
        (["-q"], "unknown option '-q'"), (["-zq"], "unknown option '-q'"), (["-j"], "option '-j' needs a value"),
        (["--jobs"], "option '--jobs' needs a value"), (["--check=yes"], "option '--check' takes no value"),
        (["--bogus"], "unknown option '--bogus'"), (["--fromat", "x"], "unknown option '--fromat' (did you mean '--format'?)"),
        (["--chek"], "unknown option '--chek' (did you mean '--check'?)"),
    ])
    func mistakesAreSaidTheSameWay(_ args: [String], _ message: String) {
        #expect(throws: UsageError(message: message)) { try Self.spec.parse(args) }
    }

    /// Each command's help lists its options as the description writes
    /// them, with every short form.
    @Test(arguments: [
        (CLI.spec, CLI.help), (Contacts.spec, Contacts.help), (Suggest.spec, Suggest.help), (Replay.spec, Replay.help),
        (GroupCommand.spec, GroupCommand.help), (ComposeCommand.spec, ComposeCommand.help),
    ] as [(CommandSpec, String)])
    func everyDescribedOptionIsInTheHelp(_ spec: CommandSpec, _ help: String) {
        // The options block is the description's, written by optionsHelp.
        #expect(help.contains(spec.optionsHelp()), "\(spec.name)")
        for option in spec.options where option.long != "version" || spec.name == "chipify" {
            #expect(help.contains("--\(option.long)"), "\(spec.name): --\(option.long)")
            if let short = option.short {
                #expect(help.contains("-\(short), --\(option.long)"), "\(spec.name): -\(short), --\(option.long)")
            }
        }
    }
}

/// What the descriptions generate, held to what is checked in: the manual
/// page `docs/chipify.1`, README's synopsis, and completion scripts that
/// name every command and option and that the shells parse.
@Suite("Generated from the descriptions")
struct GeneratedFromDescriptionsTests {
    @Test func theManualPageIsTheGeneratedOne() {
        let page = String(decoding: contents(packageRoot + "docs/chipify.1"), as: UTF8.self)
        #expect(page == CommandLineDocs.manPage(version: CLI.version),
                "docs/chipify.1 is stale: swift run chipify help --man > docs/chipify.1")
        for spec in CommandLineDocs.commands {
            for option in spec.options { #expect(page.contains("\\-\\-" + CommandLineDocs.roff(option.long)), "\(option.long)") }
        }
    }

    @Test func readmesSynopsisIsTheGeneratedOne() {
        let readme = String(decoding: contents(packageRoot + "README.md"), as: UTF8.self)
        #expect(readme.contains("```\n" + CommandLineDocs.readmeSynopsis + "```\n"),
                "README's synopsis differs from CommandLineDocs.readmeSynopsis:\n\(CommandLineDocs.readmeSynopsis)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsNameEveryCommandAndOption(_ shell: String) throws {
        let script = try #require(CommandLineDocs.completions(for: shell))
        for spec in CommandLineDocs.commands {
            if !CommandLineDocs.word(spec).isEmpty { #expect(script.contains(CommandLineDocs.word(spec)), "\(shell)") }
            for option in spec.options {
                #expect(script.contains(shell == "fish" ? "-l \(option.long)" : "--\(option.long)"), "\(shell): \(option.long)")
                for choice in option.choices { #expect(script.contains(choice), "\(shell): \(choice)") }
            }
        }
        let run = runProcess(chipifyPath, ["completions", shell])
        #expect(run.status == 0 && run.stdoutText == script)
        // The shell itself reads it, where it is installed.
        let path = "/usr/bin/" + shell
        guard access(path, X_OK) == 0 else {
            print("skipped: \(shell) is not installed, so its parse of the script is not checked")
            return
        }
        let file = temporaryFile(Array(script.utf8))
        defer { unlink(file) }
        let parsed = runProcess(path, ["-n", file])
        #expect(parsed.status == 0, "\(shell) -n: \(parsed.stderrText)")
        if shell == "fish" {
            // fish completes a choice's values, and a command's options.
            let r = runProcess(path, ["-c", "source \(file); complete -C 'chipify --format '; complete -C 'chipify replay --tr'"])
            #expect(r.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
                    == ["header", "jsonl", "text", "tsv", "--trace"], "\(r.stdoutText)")
        }
    }

    /// Completing in bash, as a shell asks: the commands after `chipify`,
    /// a choice's values, a command's options.
    @Test func bashCompletesCommandsChoicesAndOptions() throws {
        guard access("/usr/bin/bash", X_OK) == 0 else {
            print("skipped: bash is not installed")
            return
        }
        let file = temporaryFile(Array(try #require(CommandLineDocs.completions(for: "bash")).utf8))
        defer { unlink(file) }
        let probe = """
            source \(file)
            COMP_WORDS=(chipify rep); COMP_CWORD=1; _chipify; echo "${COMPREPLY[*]}"
            COMP_WORDS=(chipify --format ""); COMP_CWORD=2; _chipify; echo "${COMPREPLY[*]}"
            COMP_WORDS=(chipify compose --policy s); COMP_CWORD=3; _chipify; echo "${COMPREPLY[*]}"
            COMP_WORDS=(chipify contacts --s); COMP_CWORD=2; _chipify; echo "${COMPREPLY[*]}"
            """
        let r = runProcess("/usr/bin/bash", ["-c", probe])
        #expect(r.stdoutText == "replay\ntext jsonl tsv header\nstrict standard\n--strict\n", "\(r.stdoutText)")
    }
}
