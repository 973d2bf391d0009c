#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import ChipifyCLI
import ChipKit

@Suite("compose: command line")
struct ComposeCLITests {
    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--fields", "to,,cc"], "bad field list 'to,,cc' (expected distinct names such as to,cc,bcc)"),
        (["--fields", "to,to"], "bad field list 'to,to' (expected distinct names such as to,cc,bcc)"),
        (["--policy", "loose"], "unknown policy 'loose' (expected strict, standard or lenient)"),
        (["--duplicates", "keep"], "unknown duplicate policy 'keep' (expected allow, warn, reject or merge)"),
        (["--draft"], "option '--draft' needs a value"),
        (["--smtputf8=yes"], "option '--smtputf8' takes no value"),
        (["file.txt"], "compose takes no file ('file.txt'); see --contacts and --draft"),
    ])
    func usageErrorsInThreeLines(_ arguments: [String], _ message: String) {
        let r = runProcess(chipifyPath, ["compose"] + arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText == "chipify compose: \(message)\n\(ComposeCommand.usage)\nSee 'chipify compose --help'.\n")
    }

    @Test func helpNamesTheKeyThatMovesChipsToTheNextField() {
        let r = runProcess(chipifyPath, ["compose", "--help"])
        #expect(r.status == 0)
        #expect(r.stdoutText.hasPrefix(ComposeCommand.usage + "\n"))
        #expect(r.stdoutText.contains("Ctrl-N               move the selected chips"))
    }

    @Test func theMainHelpListsCompose() {
        #expect(CLI.help.contains("chipify compose [--contacts FILE]..."))
    }

    @Test func aBadDraftIsAnErrorBeforeTheTerminalIsTouched() {
        let path = temporaryFile(Array("{\"version\":99}".utf8))
        defer { unlink(path) }
        let r = runProcess(chipifyPath, ["compose", "--draft", path])
        #expect(r.status == 1)
        #expect(r.stderrText.hasPrefix("chipify compose: \(path): not a draft this version can read"))
    }

    @Test func aDraftRoundTripsThroughItsJSON() throws {
        var composer = Composer()
        composer.type("Ann Lee <ann@example.org>, bob@, Jiří <jiri@example.cz>, pend")
        composer.focus(.bcc)
        composer.type("cy@example.net, ")
        let directory = temporaryFile([])
        unlink(directory)
        #expect(ComposeDraft.save(composer, to: directory) == nil)
        defer { unlink(directory) }
        guard case .restored(let restored) = ComposeDraft.load(directory) else {
            Issue.record("the draft did not load")
            return
        }
        #expect(restored.snapshot == composer.snapshot)
    }
}
