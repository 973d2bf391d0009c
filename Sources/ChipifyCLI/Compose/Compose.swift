#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit

/// `chipify compose`: a To/Cc/Bcc compose field in the terminal. Keys come
/// from and the screen goes to `/dev/tty`, so standard output carries only
/// the header block that Ctrl-S sends.
package enum ComposeCommand {
    package static let usage =
        "Usage: chipify compose [--contacts FILE]... [--fields to,cc,bcc] [--policy P] [--duplicates D] [--smtputf8] [--draft FILE | --no-draft]"

    package static let help = """
        \(usage)

        A compose window's recipient fields in the terminal. Type or paste
        addresses; separators, Return and Tab make chips. Ctrl-S sends: the
        terminal is restored and the header block (To:, Cc:, Bcc:, folded as
        the header writer folds) is printed on standard output, exit 0; if
        the draft cannot go (error chips, text not made a chip, no
        recipient) the status line says why and nothing is printed. Ctrl-C
        or Escape leaves without sending, exit 130 (Escape first closes the
        suggestions or addresses open).

        Drafts: what is typed is kept in a draft, by default
        $XDG_STATE_HOME/chipify/draft.json (else
        ~/.local/state/chipify/draft.json), restored on start, saved a
        second after typing stops, on leaving and on SIGHUP, SIGTERM,
        SIGINT or SIGQUIT (exit 128 + the signal), and removed only once
        the headers are written; the status line names it. If the headers
        cannot be written the draft stays and the exit status is 1. With
        --no-draft, leaving with unsent work asks first.

        Keys:
          Return, Tab          make the text a chip (Return takes the suggestion
                               chosen with Up/Down)
          Backspace, Delete    delete text; at a chip, select it, then delete it
          Left, Right          move between chips and in the text
          Shift-Left/Right     select chips, growing the selection
          Alt-Left/Right       move the selected chips left or right
          Up, Down             choose a suggestion; else the previous or next field
          Tab, Shift-Tab       with no text, the next or previous field
          Home, End            the caret before the first chip, after the last
          Ctrl-A               select every chip of the field
          Ctrl-E               edit the chip under the caret (selected, or just before)
          Ctrl-N               move the selected chips (or the one before the
                               caret) to the next field, To to Cc, Cc to Bcc,
                               Bcc to To; they stay selected and the focus goes
                               with them, so To to Bcc is Ctrl-N twice
          Ctrl-O               an ambiguous chip's matching contacts, a contact
                               chip's other addresses (Up/Down, Return), or a
                               list's members in its place
          Ctrl-Z, Ctrl-Y       undo, redo
          Ctrl-S               send
          Ctrl-C, Escape       leave without sending (Escape closes a list
                               first; without a draft, unsent work asks)

        Options:
        \(spec.optionsHelp())
        Chips: [valid]  [!error]  [?warning]  {selected}. Colours follow the
        states unless NO_COLOR is set. Exit status: 0 sent, 130 left without
        sending, 1 a draft that cannot be read or saved, 64 a usage error
        (also when there is no terminal, /dev/tty, to draw on).

        """

    package struct Options: Sendable, Equatable {
        package var contacts: [String] = []
        package var fields: [FieldID] = [.to, .cc, .bcc]
        package var policy = ValidationPolicy.standard
        package var duplicates = DuplicatePolicy.warn
        package var smtpUTF8 = false
        package var draft: String?
        package var noDraft = false
        package var help = false
    }

    /// The options of `chipify compose`, described once (``CommandSpec``).
    static let spec = CommandSpec(
        name: "chipify compose", summary: "a compose field in the terminal", operands: "", options: [
        OptionSpec("contacts", value: "FILE", isFile: true,
                   help: "address book to suggest from (vCard or the exporters' CSV); repeatable"),
        OptionSpec("fields", value: "LIST", help: "the fields, comma-separated (default to,cc,bcc)"),
        OptionSpec("policy", "p", value: "POLICY", choices: ["strict", "standard", "lenient"],
                   help: "strict, standard (default) or lenient"),
        OptionSpec("duplicates", value: "D", choices: ["allow", "warn", "reject", "merge"],
                   help: "allow, warn (default), reject or merge"),
        OptionSpec("smtputf8", help: "send UTF-8 addresses as they are (RFC 6532)"),
        OptionSpec("draft", value: "FILE", isFile: true, help: "keep the draft in FILE instead of the default place"),
        OptionSpec("no-draft", help: "keep no draft"),
        .help, .version,
    ])

    package static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var o = Options()
        if let file = parsed.operands.first {
            throw UsageError(message: "compose takes no file ('\(file)'); see --contacts and --draft")
        }
        for given in parsed.options {
            let v = given.value ?? ""
            switch given.name {
            case "contacts": o.contacts.append(v)
            case "fields": o.fields = try OptionValue.fieldNames(v)
            case "policy": o.policy = try OptionValue.policy(v)
            case "duplicates": o.duplicates = try OptionValue.duplicates(v)
            case "smtputf8": o.smtpUTF8 = true
            case "draft": o.draft = v
            case "no-draft": o.noDraft = true
            case "help": o.help = true
            default: break
            }
        }
        if o.noDraft && o.draft != nil { throw UsageError(message: "--draft and --no-draft cannot go together") }
        return o
    }

    package static func main(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Int32 {
        let (parsed, exit) = subcommandOptions(
            arguments, parse: parse, isHelp: \.help, usage: usage, help: help, command: "compose",
            stdout: stdout, stderr: stderr)
        guard let options = parsed else { return exit }

        var composer = Composer(fields: options.fields, policy: options.policy, duplicatePolicy: options.duplicates)
        let draftPath = options.noDraft
            ? nil : options.draft ?? ComposeDraft.defaultPath { getenv($0).map { String(cString: $0) } }
        if let path = draftPath {
            switch ComposeDraft.load(path) {
            case .none: break
            case .failure(let message):
                let hint = options.draft == nil ? " (move it away, or run with --no-draft)" : ""
                writeAll(stderr, "chipify compose: \(message)\(hint)\n")
                return 1
            case .restored(let restored):
                composer = restored
            }
        }
        if !options.contacts.isEmpty {
            var errors = OutputBuffer(fd: stderr, capacity: 1 << 12)
            let (directory, status) = AddressBooks.load(
                options.contacts, charset: nil, command: "chipify compose", errors: &errors.buffer)
            errors.flush()
            guard status == 0 else { return status }
            composer.directory = directory
        }
        let terminal: ComposeTerminal
        switch ComposeTerminal.openTTY() {
        case .failure(let error):
            return usageFailure(stderr, error.message, usage: usage, command: "chipify compose")
        case .success(let t): terminal = t
        }

        var controller = ComposeController(composer: composer, smtpUTF8: options.smtpUTF8)
        controller.keepsDraft = draftPath != nil
        controller.ui.draftPath = draftPath.map(shownPath)
        var autosave = draftPath.map(DraftAutosave.init)
        let style = ComposeStyle(attributes: true, colors: getenv("NO_COLOR").map { $0.pointee == 0 } ?? true)
        var decoder = KeyDecoder()
        var shown: ComposeScreen?
        var outcome = ComposeOutcome.stay
        var endingSignal: Int32?
        loop: while true {
            let size = terminal.size
            let screen = controller.screen(width: size.width, height: size.height, style: style)
            if screen != shown {
                terminal.output(screen.drawing(from: shown))
                shown = screen
            }
            // A lone Escape waits a little for the rest of a sequence; a
            // draft not yet saved, until its save is due.
            var timeout = decoder.held.isEmpty ? Int32(-1) : 50
            if let due = autosave?.timeout(), due >= 0 { timeout = timeout < 0 ? due : min(timeout, due) }
            let keys: [ComposeKey]
            switch terminal.next(timeoutMilliseconds: timeout) {
            case .bytes(let bytes): keys = decoder.feed(bytes)
            case .quiet: keys = decoder.flush()
            case .resized:
                shown = nil  // a resized terminal may have moved or lost what was drawn
                continue loop
            case .signal(let number):
                endingSignal = number
                break loop
            case .closed:
                outcome = .cancelled
                break loop
            }
            for key in keys {
                let revision = controller.revision
                outcome = controller.handle(key)
                if outcome != .stay { break loop }
                if controller.revision != revision { autosave?.changed() }
            }
            autosave?.saveIfDue(controller.composer)
        }
        terminal.restore()

        // Every way out saves the draft first, unless it was sent, and the
        // headers went out whole.
        let final = controller.composer
        func keepDraft(_ path: String) -> String? {
            autosave?.finally { () -> String? in ComposeDraft.save(final, to: path) } ?? ComposeDraft.save(final, to: path)
        }
        if let number = endingSignal {
            if let path = draftPath {
                let saved = controller.hasUnsentWork ? keepDraft(path) : removeDraft(path, autosave)
                writeAll(stderr, "chipify compose: \(saved ?? "the draft is in '\(path)'")\n")
            }
            ComposeTerminal.end(bySignal: number)
        }
        if case .sent(let block) = outcome {
            let out = writeAll(stdout, block)
            guard out.failed else {
                if let path = draftPath { _ = removeDraft(path, autosave) }
                return 0
            }
            var message = "chipify compose: cannot write the headers: \(errorText(out.writeError)); nothing was sent"
            if let path = draftPath {
                message += keepDraft(path).map { "; \($0)" } ?? "; the draft is kept in '\(path)'"
            }
            writeAll(stderr, message + "\n")
            return 1
        }
        guard let path = draftPath else { return 130 }
        guard controller.hasUnsentWork else {
            _ = removeDraft(path, autosave)
            return 130
        }
        if let message = keepDraft(path) {
            writeAll(stderr, "chipify compose: \(message)\n")
            return 1
        }
        writeAll(stderr, "chipify compose: not sent; the draft is kept in '\(path)'\n")
        return 130
    }

    /// Removes the draft once the background saves are done (so none can
    /// bring it back); returns why it could not, or nil.
    private static func removeDraft(_ path: String, _ autosave: DraftAutosave?) -> String? {
        let remove: @Sendable () -> String? = {
            unlink(path + ".tmp")
            return unlink(path) == 0 || errno == ENOENT ? nil : "cannot remove the draft '\(path)': \(errorText(errno))"
        }
        return autosave?.finally(remove) ?? remove()
    }

    /// A path as the status line shows it: the home directory as `~`.
    private static func shownPath(_ path: String) -> String {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty, home != "/",
              path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}
