import Testing
@testable import ChipifyCLI

/// The one reader of every command's arguments (``CommandSpec``), and the
/// commands' descriptions against their help.
@Suite("Command-line descriptions")
struct CommandLineSpecTests {
    static let spec = CommandSpec(name: "t", options: [
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

    /// Each command's help names every option its description has, and
    /// every short form, so the help cannot leave one out.
    @Test(arguments: [
        (CLI.spec, CLI.help), (Contacts.spec, Contacts.help), (Suggest.spec, Suggest.help), (Replay.spec, Replay.help),
        (GroupCommand.spec, GroupCommand.help), (ComposeCommand.spec, ComposeCommand.help),
    ] as [(CommandSpec, String)])
    func everyDescribedOptionIsInTheHelp(_ spec: CommandSpec, _ help: String) {
        for option in spec.options where option.long != "version" || spec.name == "chipify" {
            #expect(help.contains("--\(option.long)"), "\(spec.name): --\(option.long)")
            if let short = option.short {
                #expect(help.contains("-\(short), --\(option.long)"), "\(spec.name): -\(short), --\(option.long)")
            }
        }
    }
}
