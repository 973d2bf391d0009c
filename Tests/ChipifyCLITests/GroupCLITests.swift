#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import ChipifyCLI
import ChipKit
import ChipTestSupport

@Suite("chipify group")
struct GroupCLITests {
    /// Runs `chipify group` with `arguments` on `script`, written to a file.
    func group(_ script: String, _ arguments: [String] = []) -> ProcessResult {
        let path = temporaryFile(Array(script.utf8))
        defer { unlink(path) }
        return runProcess(chipifyPath, ["group"] + arguments + [path])
    }

    /// The scripts under Corpus/groups against recorded traces.
    /// Re-record with `CHIPIFY_RECORD=1 swift test` and review the diff.
    @Test(arguments: ["sizes", "controlled"])
    func scriptsMatchRecordedTraces(_ name: String) {
        let golden = packageRoot + "Corpus/expected/groups/\(name).out"
        let r = runProcess(chipifyPath, ["group", "--trace", packageRoot + "Corpus/groups/\(name).jsonl"])
        if getenv("CHIPIFY_RECORD") != nil {
            let fd = open(golden, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = r.stdout.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        #expect(r.stdoutText == String(decoding: contents(golden), as: UTF8.self))
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
    }

    /// The rule: each operation changes the one group in place, so a
    /// script of n adds costs O(n) overall (an add at the end is O(1)). A
    /// copy of the group per operation moves its options to new storage
    /// every time; changed in place, they move only when the array grows,
    /// about log2(n) times.
    @Test(arguments: [1_000, 5_000])
    func addsChangeTheGroupInPlace(_ adds: Int) {
        var script = #"{"config":{"chips":["a"]}}"# + "\n"
        for i in 0..<adds { script += #"{"op":"add","id":"o\#(i)"}"# + "\n" }
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        var out = OutputBuffer(fd: null)
        var errors = OutputBuffer(fd: null)
        var moves = 0
        var operations = 0
        var last: UnsafeRawPointer?
        let status = GroupCommand.run(script: Array(script.utf8), trace: false, out: &out, errors: &errors) { g in
            operations += 1
            let base = g.options.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            if base != last { moves += 1 }
            last = base
        }
        #expect(status == 0)
        #expect(operations == adds)
        let doublings = Int.bitWidth - adds.leadingZeroBitCount
        #expect(moves <= 2 * doublings + 4, "options moved \(moves) times in \(adds) adds")
    }

    @Test func withoutTraceOnlyTheStateIsPrinted() {
        let r = group("""
            {"config":{"chips":["a","b","c"],"single":true,"checked":["a"],"max_visible":2}}
            {"op":"tap","id":"c"}

            """)
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdoutText == """
            {"checked":["c"],"single_checked":"c","visible":["a","b"],"overflow":{"hidden":1,"hidden_checked":1,"expanded":false},"roles":{"a":"radio","b":"radio","c":"radio"},"requested":[],"warnings":[]}

            """)
    }

    @Test func theScriptMayComeOnStandardInput() {
        let path = temporaryFile(Array("{\"config\":{\"chips\":[\"none\",\"x\"]}}\n{\"op\":\"tap\",\"id\":\"x\"}".utf8))
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["group", "--trace"], stdinPath: path)
        #expect(r.status == 0)
        #expect(r.stdoutText == """
            {"line":2,"op":"tap","changed":true,"checked":["x"]}
            {"checked":["x"],"single_checked":null,"visible":["none","x"],"overflow":null,"roles":{"none":"checkbox","x":"checkbox"},"requested":[],"warnings":[{"warning":"none-not-exclusive","id":"none"}]}

            """)
    }

    /// A bad line stops the replay with its number and reason; after a
    /// good config the state so far is still printed.
    @Test(arguments: [
        ("not json", "line 1: not a JSON object (expected '{')", false),
        (#"{"op":"tap","id":"a"}"#, #"line 1: the first line must be {"config":{…}}"#, false),
        (#"{"config":{"chips":["a"],"singel":true}}"#, #"line 1: unknown config key "singel""#, false),
        (#"{"config":{"single":true}}"#, #"line 1: the config needs "chips""#, false),
        (#"{"config":{"chips":["a",1]}}"#, #"line 1: "chips" must be a list of strings"#, false),
        (#"{"config":{"chips":["a","a"]}}"#, #"line 1: option "a" appears twice"#, false),
        (#"{"config":{"chips":["a"],"disabled":["zz"]}}"#, #"line 1: "disabled" names "zz", which is not a chip"#, false),
        (#"{"config":{"chips":["a"],"max_selected":0}}"#, #"line 1: "max_selected" must be a whole number from 1 to 999999999, or null"#, false),
        (#"{"config":{"chips":["a"],"read_only":"yes"}}"#, #"line 1: "read_only" must be true or false"#, false),
        (#"{"config":{"chips":["a","b"],"single":true,"checked":["a","b"]}}"#,
         "line 1: a single-selection group with 2 options checked", false),
        ("{\"config\":{\"chips\":[\"a\"]}}\n{\"op\":\"fly\"}", #"line 2: unknown op "fly""#, true),
        ("{\"config\":{\"chips\":[\"a\"]}}\n{\"op\":\"tap\"}", #"line 2: "tap" needs a string "id""#, true),
        ("{\"config\":{\"chips\":[\"a\"]}}\n{\"op\":\"tap\",\"id\":7}", #"line 2: "id" has the wrong type"#, true),
        ("{\"config\":{\"chips\":[\"a\"]}}\n{\"op\":\"setSingle\"}", #"line 2: "setSingle" needs a boolean "value""#, true),
        ("{\"config\":{\"chips\":[\"a\"]}}\n{\"op\":\"tap\",\"id\":\"a\",\"ids\":1}", #"line 2: unknown key "ids""#, true),
        ("{\"config\":{\"chips\":[\"a\"]}}\n\n# comment\n{\"config\":{\"chips\":[]}}",
         "line 4: the config comes once, on the first line", true),
        ("", #"the script has no config line (its first line must be {"config":{…}})"#, false),
    ] as [(String, String, Bool)])
    func badLinesStopTheReplay(_ script: String, _ message: String, _ printsState: Bool) {
        // A good line follows, which the replay must not reach (an empty
        // script gets only a comment, so it stays without a config).
        let r = group(script.isEmpty ? "\n# nothing\n" : script + "\n{\"op\":\"tap\",\"id\":\"a\"}\n")
        #expect(r.status == 1)
        #expect(r.stderrText == "chipify group: \(message)\n")
        if printsState {
            #expect(r.stdoutText.hasPrefix("{\"checked\":[],"), "\(r.stdoutText)")
            #expect(r.stdoutText.split(separator: "\n").count == 1)
        } else {
            #expect(r.stdout.isEmpty, "\(r.stdoutText)")
        }
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["a.jsonl", "b.jsonl"], "more than one script"),
    ])
    func usageErrorsAreThreeLines(_ arguments: [String], _ message: String) {
        let r = runProcess(chipifyPath, ["group"] + arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText == "chipify group: \(message)\n\(GroupCommand.usage)\nSee 'chipify group --help'.\n")
    }

    @Test func helpIsPrinted() {
        let r = runProcess(chipifyPath, ["group", "--help"])
        #expect(r.status == 0)
        #expect(r.stdoutText == GroupCommand.help)
        #expect(r.stderr.isEmpty)
        #expect(CLI.help.contains("chipify group [--trace] [SCRIPT]"))
    }

    @Test func aMissingScriptIsAnError() {
        let r = runProcess(chipifyPath, ["group", "/nonexistent/script.jsonl"])
        #expect(r.status == 1)
        #expect(r.stderrText == "chipify group: cannot open '/nonexistent/script.jsonl': No such file or directory\n")
    }
}

@Suite("Group script reader")
struct NestedJSONReaderTests {
    @Test func readsArraysAndObjectsWhenAsked() throws {
        let o = try JSONReader.object(Array(#"{"config":{"chips":["a","b"],"max":null,"n":[]}}"#.utf8), nested: true)
        #expect(o["config"] == .object(["chips": .array([.string("a"), .string("b")]), "max": .null, "n": .array([])]))
    }

    @Test(arguments: [#"{"a":[1,]}"#, #"{"a":[1"#, #"{"a":{"b":1}"#, #"{"a":{"a":1,"a":2}}"#])
    func refusesBadNesting(_ json: String) {
        #expect(throws: JSONReader.Failure.self) { _ = try JSONReader.object(Array(json.utf8), nested: true) }
    }

    @Test func nestingIsBounded() {
        let deep = "{\"a\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(throws: JSONReader.Failure.self) { _ = try JSONReader.object(Array(deep.utf8), nested: true) }
        let ok = "{\"a\":" + String(repeating: "[", count: 15) + String(repeating: "]", count: 15) + "}"
        #expect((try? JSONReader.object(Array(ok.utf8), nested: true)) != nil)
    }
}
