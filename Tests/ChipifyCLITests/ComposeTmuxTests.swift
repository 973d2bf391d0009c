#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import ChipTestSupport
@testable import ChipifyCLI

/// Where tmux is, if it is installed: the end-to-end tests need it (CI
/// installs it) and are skipped, saying why, where it is missing.
let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { access($0, X_OK) == 0 }

/// `chipify compose` running in a detached tmux session of 80×24 on a
/// private server socket, its standard output and exit status in files.
final class ComposeInTmux {
    let socket: String
    let directory: String
    var outPath: String { directory + "/out.txt" }
    var errPath: String { directory + "/err.txt" }
    var statusPath: String { directory + "/status.txt" }
    /// Where the default draft goes: `XDG_STATE_HOME` is this directory's `state`.
    var defaultDraftPath: String { directory + "/state/chipify/draft.json" }

    /// Where standard output goes: a file, `/dev/full`, or a pipe whose
    /// reader has gone.
    enum Output { case file, full, closedPipe }

    /// With `recordsTerminal`, the terminal's settings (`stty -g`) are
    /// saved before and after, in `before.txt` and `after.txt`.
    init(_ arguments: [String], recordsTerminal: Bool = false, width: Int = 80, height: Int = 24, output: Output = .file) {
        var template = Array("/tmp/chipify-compose-XXXXXX".utf8CString)
        directory = String(cString: mkdtemp(&template)!)
        // Unique as the directory is, so tests running at once never share a server.
        socket = "chipify-test-" + directory.split(separator: "-").last!
        let command = ([chipifyPath, "compose"] + arguments).map(Self.quoted).joined(separator: " ")
        let before = recordsTerminal ? "stty -g > \(Self.quoted(directory + "/before.txt")); " : ""
        let after = recordsTerminal ? "stty -g > \(Self.quoted(directory + "/after.txt")); " : ""
        let run = "XDG_STATE_HOME=\(Self.quoted(directory + "/state")) \(command) 2> \(Self.quoted(errPath))"
        let status = "echo $? > \(Self.quoted(statusPath)).part"
        let body: String
        switch output {
        case .file: body = "\(run) > \(Self.quoted(outPath)); \(status); "
        case .full: body = "\(run) > /dev/full; \(status); "
        case .closedPipe: body = "{ \(run); \(status); } | true; "
        }
        let script = "ulimit -c 0; \(before)\(body)\(after)mv \(Self.quoted(statusPath)).part \(Self.quoted(statusPath))"
        let r = tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", script])
        precondition(r.status == 0, "tmux new-session failed: \(r.stderrText)")
    }

    deinit {
        _ = tmux(["kill-server"])
        for name in ["out.txt", "err.txt", "status.txt", "status.txt.part", "before.txt", "after.txt", "draft.json",
                     "draft.json.tmp", "state/chipify/draft.json", "state/chipify/draft.json.tmp"] {
            unlink(directory + "/" + name)
        }
        rmdir(directory + "/state/chipify")
        rmdir(directory + "/state")
        rmdir(directory)
    }

    static func quoted(_ s: String) -> String { "'" + s.replacingAll("'", with: "'\\''") + "'" }

    /// Runs tmux on this session's server, in a UTF-8 locale so names
    /// are typed and captured as they are.
    @discardableResult
    func tmux(_ arguments: [String]) -> ProcessResult {
        runProcess("/usr/bin/env", ["LC_ALL=C.UTF-8", "LANG=C.UTF-8", tmuxPath!, "-L", socket] + arguments)
    }

    /// Keys by tmux's names (`Enter`, `BSpace`, `S-Left`, `C-s`).
    func keys(_ names: String...) { tmux(["send-keys"] + names) }

    /// Text typed as it is.
    func type(_ text: String) { tmux(["send-keys", "-l", text]) }

    /// Text pasted the way a terminal pastes: bracketed, since compose asks for it.
    func paste(_ text: String) {
        tmux(["set-buffer", "--", text])
        tmux(["paste-buffer", "-p"])
    }

    /// The screen as text, rows without trailing spaces.
    func screen() -> String {
        let rows = tmux(["capture-pane", "-p"]).stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        var trimmed = rows.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while trimmed.last == "" { trimmed.removeLast() }
        return trimmed.joined(separator: "\n")
    }

    /// Waits (polling, up to `seconds`) until the screen holds `text`;
    /// returns the last screen seen.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        var last = ""
        for _ in 0..<Int(seconds * 50) {
            last = screen()
            if last.contains(text) { return last }
            usleep(20_000)
        }
        Issue.record("never saw \(text.debugDescription) on the screen:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// Waits for the command to end; its exit status, or nil on a timeout.
    func exitStatus(seconds: Double = 10) -> Int32? {
        for _ in 0..<Int(seconds * 50) {
            if let bytes = readFile(statusPath) {
                return Int32(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " \n"))
            }
            usleep(20_000)
        }
        return nil
    }

    var output: String { String(decoding: readFile(outPath) ?? [], as: UTF8.self) }
    var errors: String { String(decoding: readFile(errPath) ?? [], as: UTF8.self) }

    /// The process id of `chipify compose`: the child of the pane's shell.
    func composePID() -> Int32? {
        let shell = tmux(["display-message", "-p", "#{pane_pid}"]).stdoutText.trimmingCharacters(in: "\n ")
        let children = String(decoding: readFile("/proc/\(shell)/task/\(shell)/children") ?? [], as: UTF8.self)
        return Int32(children.trimmingCharacters(in: " \n").split(separator: " ").first.map(String.init) ?? "")
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

@Suite("compose: end to end in tmux", .enabled(if: tmuxPath != nil, "tmux is not installed (CI installs it): the compose end-to-end tests are skipped"))
struct ComposeTmuxTests {
    let contacts = packageRoot + "Corpus/contacts/sample.vcf"

    @Test func pasteUndoFixSuggestionMoveAndSend() {
        let s = ComposeInTmux(["--contacts", contacts])
        s.waitFor("Ctrl-S send")
        // A whole list pasted at once, with UTF-8 names and an error chip.
        s.paste("Jiří Procházka <jiri.prochazka@firma.cz>, 李小龍 <li@example.cn>, bob@,")
        s.waitFor("To:  [Jiří Procházka] [李小龍] [!bob@]")
        s.waitFor("bob@, invalid address: nothing after the @, 3 of 3")
        // Backspace selects it, a second deletes it, Ctrl-Z brings it back.
        s.keys("BSpace", "BSpace")
        s.waitFor("李小龍, li@example.cn, 2 of 2")  // the status tells of the chip before the caret
        #expect(!s.screen().contains("bob@]") && !s.screen().contains("bob@}"))
        s.keys("C-z")
        s.waitFor("{!bob@}")
        // Ctrl-E edits it; Return makes it a chip again.
        s.keys("C-e")
        s.type("example.org")
        s.keys("Enter")
        s.waitFor("[bob@example.org]")
        // A suggestion taken.
        s.type("céli")
        s.waitFor("Céline Dubois <celine.dubois@proton.me>")
        s.keys("Down", "Enter")
        s.waitFor("[Céline Dubois]")
        // Moved to Bcc: selected, then Ctrl-N twice.
        s.keys("S-Left", "C-n", "C-n")
        let screen = s.waitFor("Moved 1 chip to Bcc")
        #expect(screen.hasPrefix("""
            To:  [Jiří Procházka] [李小龍] [bob@example.org]
            Cc:
            Bcc: {Céline Dubois}
            """))
        s.keys("C-s")
        #expect(s.exitStatus() == 0)
        #expect(s.output == """
            To: =?UTF-8?B?SmnFmcOtIFByb2Now6F6a2E=?= <jiri.prochazka@firma.cz>,
             =?UTF-8?B?5p2O5bCP6b6N?= <li@example.cn>, bob@example.org
            Bcc: =?UTF-8?Q?C=C3=A9line_Dubois?= <celine.dubois@proton.me>

            """)
    }

    @Test func aDraftThatCannotGoIsNotSentAndEscapeLeavesWith130() {
        let s = ComposeInTmux([])
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, bob@")
        s.keys("C-s")
        s.waitFor("Not sent: text not made a chip in To")
        s.keys("Enter", "C-s")
        s.waitFor("Not sent: 1 chip in error")
        s.keys("Escape")
        #expect(s.exitStatus() == 130)
        #expect(s.output == "")
    }

    @Test func smtpUTF8KeepsNamesAsTheyAre() {
        let s = ComposeInTmux(["--smtputf8", "--fields", "to,reply-to"])
        s.waitFor("Reply-To:")
        s.type("Jiří <jiri@example.cz>\t\tann@example.org")
        s.waitFor("Reply-To: ann@example.org")
        s.keys("C-s")
        s.waitFor("Not sent: text not made a chip in Reply-To")
        s.keys("Tab", "C-s")
        #expect(s.exitStatus() == 0)
        #expect(s.output == "To: Jiří <jiri@example.cz>\nReply-To: ann@example.org\n")
    }

    @Test func aResizedTerminalIsLaidOutAgain() {
        let s = ComposeInTmux([])
        s.waitFor("Ctrl-S send")
        s.type("Ann Lee <ann@example.org>, Bob Ray <bob@example.com>, Cy Young <cy@example.net>, ")
        s.keys("Tab")
        s.waitFor("To:  [Ann Lee] [Bob Ray] [Cy Young]")
        // Narrower than 40 columns, the field left shows its summary.
        s.tmux(["resize-window", "-x", "30", "-y", "10"])
        let narrow = s.waitFor("To:  Ann Lee and 2 more")
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 30 })
        s.tmux(["resize-window", "-x", "80", "-y", "24"])
        s.waitFor("To:  [Ann Lee] [Bob Ray] [Cy Young]")
        s.keys("C-c")
        #expect(s.exitStatus() == 130)
    }

    @Test func theDraftIsSavedOnLeavingAndRestoredOnStart() {
        var template = Array("/tmp/chipify-draft-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let draft = directory + "/draft.json"
        defer { unlink(draft); rmdir(directory) }
        do {
            let a = ComposeInTmux(["--draft", draft])
            a.waitFor("Ctrl-S send")
            a.type("ann@example.org, bo")
            a.waitFor("[ann@example.org] bo")
            a.keys("C-c")
            #expect(a.exitStatus() == 130)
        }
        #expect(readFile(draft) != nil)
        let b = ComposeInTmux(["--draft", draft])
        b.waitFor("To:  [ann@example.org] bo")
        b.type("b@example.org")
        b.keys("Enter", "C-s")
        #expect(b.exitStatus() == 0)
        #expect(b.output == "To: ann@example.org, bob@example.org\n")
        #expect(readFile(draft) == nil, "a sent draft is removed")
    }

    @Test func theTerminalIsRestoredWhenKilled() {
        let s = ComposeInTmux([], recordsTerminal: true)
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, ")
        s.waitFor("[ann@example.org]")
        // The shell tmux started runs chipify as its child: end that child.
        let shell = s.tmux(["display-message", "-p", "#{pane_pid}"]).stdoutText.trimmingCharacters(in: "\n ")
        let children = String(decoding: readFile("/proc/\(shell)/task/\(shell)/children") ?? [], as: UTF8.self)
        guard let pid = Int32(children.trimmingCharacters(in: " \n").split(separator: " ").first.map(String.init) ?? "") else {
            Issue.record("no child of the pane's shell \(shell)")
            return
        }
        kill(pid, SIGTERM)
        let status = s.exitStatus()
        #expect(status == 128 + SIGTERM, "pane \(shell), children \(children.debugDescription): \(s.screen())")
        let before = readFile(s.directory + "/before.txt") ?? []
        #expect(!before.isEmpty)
        #expect(readFile(s.directory + "/after.txt") == before, "raw mode was undone")
        #expect(s.output == "")
    }

    /// Each terminating signal: the draft is saved, the terminal restored,
    /// and the status is 128 + the signal, as if it had not been caught.
    @Test(arguments: [SIGHUP, SIGTERM, SIGINT, SIGQUIT])
    func aSignalSavesTheDraftAndRestoresTheTerminal(_ number: Int32) throws {
        let s = ComposeInTmux([], recordsTerminal: true)
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, bo")
        s.waitFor("[ann@example.org] bo")
        let pid = try #require(s.composePID())
        kill(pid, number)
        #expect(s.exitStatus() == 128 + number, "signal \(number)")
        let draft = String(decoding: readFile(s.defaultDraftPath) ?? [], as: UTF8.self)
        #expect(draft.contains("\"raw\":\"ann@example.org\"") && draft.contains("\"pending\":\"bo\""), "signal \(number): \(draft)")
        #expect(readFile(s.directory + "/after.txt") == readFile(s.directory + "/before.txt"), "raw mode was undone")
        #expect(s.errors.contains(s.defaultDraftPath), "\(s.errors)")
    }

    /// Headers that cannot be written are not sent: the draft stays, with
    /// what was typed, and the status is 1 with a message.
    @Test(arguments: [ComposeInTmux.Output.full, .closedPipe])
    func aSendThatCannotBeWrittenKeepsTheDraft(_ output: ComposeInTmux.Output) {
        let s = ComposeInTmux([], output: output)
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, ")
        s.waitFor("[ann@example.org]")
        s.keys("C-s")
        #expect(s.exitStatus() == 1, "\(output)")
        #expect(s.errors.contains("cannot write the headers"), "\(output): \(s.errors)")
        #expect(s.errors.contains("the draft is kept in"), "\(output): \(s.errors)")
        let draft = String(decoding: readFile(s.defaultDraftPath) ?? [], as: UTF8.self)
        #expect(draft.contains("\"raw\":\"ann@example.org\""), "\(output): \(draft)")
    }

    /// Escape closes the suggestions and stays; leaving with unsent work
    /// keeps the draft and says where.
    @Test func escapeClosesTheListThenLeavesKeepingTheDraft() {
        let s = ComposeInTmux(["--contacts", contacts])
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, céli")
        s.waitFor("Céline Dubois <celine.dubois@proton.me>")
        s.keys("Escape")
        for _ in 0..<100 where s.screen().contains("Céline Dubois <") { usleep(20_000) }
        #expect(!s.screen().contains("Céline Dubois <"), "the list is closed")
        #expect(readFile(s.statusPath) == nil, "still running")
        s.keys("Escape")
        #expect(s.exitStatus() == 130)
        #expect(s.errors == "chipify compose: not sent; the draft is kept in '\(s.defaultDraftPath)'\n", "\(s.errors)")
        let draft = String(decoding: readFile(s.defaultDraftPath) ?? [], as: UTF8.self)
        #expect(draft.contains("\"raw\":\"ann@example.org\"") && draft.contains("\"pending\":\"céli\""), "\(draft)")
    }

    /// Typing is saved a second after it stops, before any way of leaving.
    @Test func theDraftIsSavedWhileTyping() {
        let s = ComposeInTmux([])
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, ")
        s.waitFor("[ann@example.org]")
        var draft = ""
        for _ in 0..<250 {
            draft = String(decoding: readFile(s.defaultDraftPath) ?? [], as: UTF8.self)
            if draft.contains("ann@example.org") { break }
            usleep(20_000)
        }
        #expect(draft.contains("\"raw\":\"ann@example.org\""), "no draft saved while typing: \(draft)")
        let pid = composePIDOrZero(s)
        if pid > 0 { kill(pid, SIGKILL) }  // after SIGKILL only what was saved remains
        #expect(s.exitStatus() == 128 + SIGKILL)
        #expect(readFile(s.defaultDraftPath) != nil)
    }

    /// Without a draft, leaving with unsent work asks first.
    @Test func withoutADraftLeavingAsks() {
        let s = ComposeInTmux(["--no-draft"])
        s.waitFor("Ctrl-S send")
        s.type("ann@example.org, ")
        s.waitFor("[ann@example.org]")
        s.keys("Escape")
        s.waitFor("Escape or Ctrl-C again leaves without it")
        s.keys("Escape")
        #expect(s.exitStatus() == 130)
        #expect(readFile(s.defaultDraftPath) == nil)
    }

    func composePIDOrZero(_ s: ComposeInTmux) -> Int32 { s.composePID() ?? 0 }

    @Test func withoutATerminalItIsAUsageError() throws {
        try #require(access("/usr/bin/setsid", X_OK) == 0, "setsid (util-linux) starts a process without a terminal")
        let r = runProcess("/usr/bin/setsid", ["-w", chipifyPath, "compose"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrText.hasPrefix("chipify compose: compose needs a terminal to draw on, and /dev/tty cannot be opened"))
        #expect(r.stderrText.hasSuffix("\nSee 'chipify compose --help'.\n"))
    }
}
