import ChipKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `chipify replay`: replays a script of edits against a composer and
/// prints the result, so a bug report can be reproduced exactly and
/// behaviour can be tested as scripts.
///
/// The script is JSON Lines, one operation per line (see README). Chip
/// indexes are in the focused field.
package enum Replay {
    package static let usage =
        "Usage: chipify replay [--trace] [--keep-going] [--fields a,b,c] [--policy P] [--duplicates D] [--contacts FILE]... [--resolution R] [--width N] [SCRIPT]"

    package struct Options: Sendable, Equatable {
        package var trace = false
        package var keepGoing = false
        package var fields: [FieldID] = [.to, .cc, .bcc]
        package var policy = ValidationPolicy.standard
        package var duplicates = DuplicatePolicy.warn
        /// Address books for suggestions and resolution (`--contacts`).
        package var contacts: [String] = []
        package var resolution = ContactResolution.uniqueMatch
        package var script: String?
        package var help = false
        /// Print each field as a summary line of at most this many columns
        /// (`--width`), instead of its chips as JSON.
        package var width: Int?
    }

    /// The options of `chipify replay`, described once (``CommandSpec``).
    static let spec = CommandSpec(
        name: "chipify replay", summary: "replays a script of edits and prints the fields", operands: "[SCRIPT]",
        options: [
        OptionSpec("trace", help: "after each operation, print the changes it made"),
        OptionSpec("keep-going", help: """
            go on after an invalid line (exit status still 1); a refused operation (pending-too-long, \
            duplicate...) is reported on standard error and gives status 1, and the replay goes on
            """),
        OptionSpec("fields", value: "LIST", help: "field names, comma-separated (default to,cc,bcc)"),
        OptionSpec("policy", "p", value: "POLICY", choices: ["strict", "standard", "lenient"],
                   help: "strict, standard (default) or lenient"),
        OptionSpec("duplicates", value: "D", choices: ["allow", "warn", "reject", "merge"],
                   help: "allow, warn (default), reject or merge"),
        OptionSpec("contacts", value: "FILE", isFile: true,
                   help: "an address book for suggestions and for resolving names (repeatable)"),
        OptionSpec("resolution", value: "R", choices: ["off", "uniqueMatch", "topSuggestion", "topSuggestionOnReturn"],
                   help: """
            what a committed name becomes: uniqueMatch (default), topSuggestion, topSuggestionOnReturn \
            (the top on return, uniqueMatch on separators, tab and blur) or off
            """),
        OptionSpec("width", value: "N", help: """
            print each field as one line of at most N terminal columns, 'to: Ann, Bob and 3 more', as a \
            field that is not focused shows it (pending text left out)
            """),
        .help, .version,
    ])

    package static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var o = Options()
        for given in parsed.options {
            let v = given.value ?? ""
            switch given.name {
            case "trace": o.trace = true
            case "keep-going": o.keepGoing = true
            case "help": o.help = true
            case "fields": o.fields = try OptionValue.fieldNames(v)
            case "policy": o.policy = try OptionValue.policy(v)
            case "contacts": o.contacts.append(v)
            case "resolution":
                guard let r = ContactResolution(rawValue: v) else {
                    throw UsageError(message: "unknown resolution '\(v)' (expected off, uniqueMatch, topSuggestion or topSuggestionOnReturn)")
                }
                o.resolution = r
            case "width":
                guard let n = Int(v), n >= 1, n <= 100_000 else {
                    throw UsageError(message: "bad width '\(v)' (expected 1 to 100000 columns)")
                }
                o.width = n
            case "duplicates": o.duplicates = try OptionValue.duplicates(v)
            default: break
            }
        }
        guard parsed.operands.count <= 1 else { throw UsageError(message: "more than one script") }
        o.script = parsed.operands.first
        return o
    }

    package static let help = """
        chipify replay: replays a script of edits and prints the fields.

        \(usage)

        The script (a file, or standard input) is JSON Lines, one operation per
        line: focus, type, paste, composition, compositionEnd, backspace, delete,
        left, right, return, tab, blur, select, selectAll, clearSelection,
        removeSelection, moveCaret, moveSelection, edit, remove, move, undo,
        redo, send; with --contacts also suggest, choose, expand, alternate.
        See README.

        \(spec.optionsHelp())\

        """

    /// Runs a replay; returns the exit status.
    package static func main(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Int32 {
        let (parsed, exit) = subcommandOptions(
            arguments, parse: parse, isHelp: \.help, usage: usage, help: help, command: "replay", stdout: stdout, stderr: stderr)
        guard let options = parsed else { return exit }
        guard let script = readScript(options.script, stdin: stdin, stderr: stderr, command: "chipify replay") else { return 1 }
        var out = OutputBuffer(fd: stdout)
        var errors = OutputBuffer(fd: stderr)
        let status = run(script: script, options: options, out: &out, errors: &errors)
        out.flush()
        errors.flush()
        return writeFailureStatus(out, stderr: stderr) ?? status
    }

    /// Replays `script`, writing results to `out` and line errors to `errors`.
    static func run(script: [UInt8], options: Options, out: inout OutputBuffer, errors: inout OutputBuffer) -> Int32 {
        var composer = Composer(fields: options.fields, policy: options.policy, duplicatePolicy: options.duplicates)
        var failed = false
        if !options.contacts.isEmpty {
            let (directory, status) = AddressBooks.load(
                options.contacts, charset: nil, command: "chipify replay", errors: &errors.buffer)
            composer.directory = directory
            if status != 0 { failed = true }
        }
        composer.resolution = options.resolution
        var suggestions: [Suggestion] = []
        var lineNumber = 0
        for line in script.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            do {
                let op = try Operation(json: Array(line))
                let result = try op.apply(to: &composer, suggestions: &suggestions, keepsChanges: options.trace)
                if options.trace { writeTrace(line: lineNumber, op: op, result: result, composer, &out) }
                // What the composer refused did not go in: said, and the
                // run fails, with or without --trace. A merged duplicate
                // lost nothing (its chip is the earlier copy).
                for change in result.changes {
                    guard case .refused(let r) = change.change, r.reason != .mergedDuplicate else { continue }
                    failed = true
                    errors.buffer.appendString("chipify replay: line \(lineNumber): refused in field \"\(change.field)\": \(r.reason.code)")
                    if let text = r.text {
                        errors.buffer.append(" (")
                        JSON.appendString(Array(text.utf8), to: &errors.buffer)
                        errors.buffer.append(")")
                    }
                    errors.buffer.append(UInt8(ascii: "\n"))
                }
            } catch {
                failed = true
                errors.buffer.appendString("chipify replay: line \(lineNumber): \(error.message)\n")
                if !options.keepGoing { break }
            }
            out.flushIfNeeded()
            if out.failed { break }  // nowhere to write: reported by the caller
        }
        for field in composer.fields {
            if let width = options.width {
                writeSummaryLine(field, width: width, &out)
            } else {
                writeField(field, &out)
            }
        }
        return failed ? 1 : 0
    }

    /// A line that could not be replayed.
    typealias LineError = ScriptLineError

    struct Result {
        var changes: [ComposerChange]
        var send: SendReport?
        var suggestions: [Suggestion]? = nil
    }

    /// One parsed script operation.
    struct Operation {
        var op: String
        var text: String?
        var field: String?
        var chip: Int?
        var extend: Bool?
        var toggle: Bool?
        var to: String?
        var at: Int?
        var smtputf8: Bool?
        var suggestion: Int?
        var choice: Int?
        var limit: Int?

        var name: String { op }

        /// The keys each op reads besides `"op"`.
        static let keys: [String: Set<String>] = [
            "focus": ["field"], "type": ["text"], "paste": ["text"], "composition": ["text"],
            "compositionEnd": ["text"], "backspace": [], "delete": [], "left": [], "right": [], "return": [],
            "tab": [], "blur": [], "select": ["chip", "extend", "toggle"], "edit": ["chip"], "remove": ["chip"],
            "move": ["chip", "to", "at"], "selectAll": [], "clearSelection": [], "removeSelection": [],
            "moveCaret": ["at"], "moveSelection": ["at"], "undo": [], "redo": [], "send": ["smtputf8"],
            "suggest": ["limit"], "choose": ["suggestion"], "expand": ["chip"], "alternate": ["chip", "choice"],
        ]

        init(json: [UInt8]) throws(LineError) {
            let object: [String: JSONReader.Value]
            do {
                object = try JSONReader.object(json)
            } catch {
                throw LineError(message: "not a JSON object (\(error.message))")
            }
            guard let op = try object.string("op") else { throw LineError(message: "no \"op\"") }
            guard let allowed = Self.keys[op] else { throw LineError(message: "unknown op \"\(op)\"") }
            // A key the op does not read is a mistake worth saying: a
            // `"field"` where `move` reads `"to"` would otherwise reorder
            // the chip in its own field without a word.
            for key in object.keys.sorted() where key != "op" && !allowed.contains(key) {
                let takes = allowed.isEmpty ? "no other key" : allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                throw LineError(message: "\"\(op)\" takes no \"\(key)\" (it takes \(takes))")
            }
            self.op = op
            text = try object.string("text")
            field = try object.string("field")
            chip = try object.int("chip")
            extend = try object.bool("extend")
            toggle = try object.bool("toggle")
            to = try object.string("to")
            at = try object.int("at")
            smtputf8 = try object.bool("smtputf8")
            suggestion = try object.int("suggestion")
            choice = try object.int("choice")
            limit = try object.int("limit")
        }

        func string(_ key: String, _ value: String?) throws(LineError) -> String {
            guard let value else { throw LineError(message: "\"\(op)\" needs a string \"\(key)\"") }
            return value
        }

        func int(_ key: String, _ value: Int?) throws(LineError) -> Int {
            guard let value else { throw LineError(message: "\"\(op)\" needs a whole number \"\(key)\"") }
            return value
        }

        /// Applies the operation. Without `keepsChanges` (no trace to
        /// print), a `type` op keeps only its keys' refusals: every key's
        /// changes kept until the op ends would cost about 100 bytes a key.
        func apply(to c: inout Composer, suggestions: inout [Suggestion], keepsChanges: Bool = true) throws(LineError) -> Result {
            func chipIndex() throws(LineError) -> Int {
                let i = try int("chip", chip)
                guard i >= 0 && i < c.focusedField.count else {
                    throw LineError(message: "no chip \(i) in field \"\(c.focusedField.name)\" (it has \(c.focusedField.count))")
                }
                return i
            }
            // A place between chips of the focused field: 0 to its count.
            func place() throws(LineError) -> Int {
                let at = try int("at", self.at)
                guard (0...c.focusedField.count).contains(at) else {
                    throw LineError(message: "no place \(at) in field \"\(c.focusedField.name)\" (it has \(c.focusedField.count) chips)")
                }
                return at
            }
            switch op {
            case "focus":
                let f = try string("field", field)
                guard let id = FieldID(f), c.fieldIndex(of: id) != nil else { throw LineError(message: "no field \"\(f)\"") }
                return Result(changes: c.focus(id))
            case "type":
                var changes: [ComposerChange] = []
                for ch in try string("text", text) {
                    let made = c.type(String(ch))
                    if keepsChanges {
                        changes += made
                    } else {
                        for change in made {
                            if case .refused = change.change { changes.append(change) }
                        }
                    }
                }
                return Result(changes: changes)
            case "paste": return Result(changes: c.paste(try string("text", text)))
            case "composition": return Result(changes: c.compositionUpdate(try string("text", text)))
            case "compositionEnd": return Result(changes: c.compositionEnd(try string("text", text)))
            case "backspace": return Result(changes: c.backspace())
            case "delete": return Result(changes: c.deleteForward())
            case "left": return Result(changes: c.moveLeft())
            case "right": return Result(changes: c.moveRight())
            case "return": return Result(changes: c.commit(by: .returnKey))
            case "tab": return Result(changes: c.commit(by: .tab))
            case "blur": return Result(changes: c.commit(by: .blur))
            case "select":
                return Result(changes: c.select(try chipIndex(), extend: extend ?? false, toggle: toggle ?? false))
            case "edit": return Result(changes: c.edit(at: try chipIndex()))
            case "remove": return Result(changes: c.remove(at: try chipIndex()))
            case "move":
                let i = try chipIndex()
                let at = try int("at", self.at)
                if let field = to {
                    guard let id = FieldID(field), let k = c.fieldIndex(of: id) else {
                        throw LineError(message: "no field \"\(field)\"")
                    }
                    guard (0...c.fields[k].count).contains(at) else {
                        throw LineError(message: "no place \(at) in field \"\(field)\" (it has \(c.fields[k].count) chips)")
                    }
                    return Result(changes: c.move(from: i, toField: id, at: at))
                }
                guard (0..<c.focusedField.count).contains(at) else {
                    throw LineError(message: "no place \(at) in field \"\(c.focusedField.name)\" (it has \(c.focusedField.count) chips)")
                }
                return Result(changes: c.move(from: i, to: at))
            case "selectAll": return Result(changes: c.selectAll())
            case "clearSelection": return Result(changes: c.clearSelection())
            case "removeSelection": return Result(changes: c.removeSelection())
            case "moveCaret": return Result(changes: c.moveCaret(toChipIndex: try place()))
            case "moveSelection": return Result(changes: c.moveSelection(to: try place()))
            case "undo": return Result(changes: c.undo())
            case "redo": return Result(changes: c.redo())
            case "send":
                let report = c.send(smtpUTF8: smtputf8 ?? false)
                return Result(changes: report.changes, send: report)
            case "suggest":
                guard c.directory != nil else { throw LineError(message: "\"suggest\" needs --contacts") }
                let k = limit ?? 8
                guard k >= 1 && k <= OptionValue.maxSuggestionLimit else {
                    throw LineError(message: "\"limit\" must be 1 to \(OptionValue.maxSuggestionLimit), not \(k)")
                }
                suggestions = c.suggestions(limit: k)
                return Result(changes: [], suggestions: suggestions)
            case "choose":
                // Among the suggestions for the pending text as it stands,
                // as a person chooses from the list the field shows: no
                // "suggest" needed first. The list is a prefix of one order,
                // so the first n + 1 hold the n-th whatever the list's length.
                guard c.directory != nil else { throw LineError(message: "\"choose\" needs --contacts") }
                let n = try int("suggestion", suggestion)
                guard n >= 0 && n < OptionValue.maxSuggestionLimit else {
                    throw LineError(message: "\"suggestion\" must be 0 to \(OptionValue.maxSuggestionLimit - 1), not \(n)")
                }
                let shown = c.suggestions(limit: n + 1)
                guard shown.indices.contains(n) else {
                    throw LineError(message: "no suggestion \(n) (the pending text has \(shown.count))")
                }
                let changes = c.choose(shown[n])
                suggestions = []
                return Result(changes: changes)
            case "expand":
                return Result(changes: c.expand(at: try chipIndex()))
            case "alternate":
                let i = try chipIndex()
                let m = try int("choice", choice)
                let options = c.alternates(at: i)
                guard options.indices.contains(m) else {
                    throw LineError(message: "chip \(i) has \(options.count) alternate address(es), not \(m + 1)")
                }
                return Result(changes: c.chooseAlternate(at: i, m))
            default:
                throw LineError(message: "unknown op \"\(op)\"")
            }
        }
    }

    static func writeTrace(line: Int, op: Operation, result: Result, _ c: Composer, _ out: inout OutputBuffer) {
        out.buffer.append("{\"line\":")
        out.buffer.appendDecimal(line)
        out.buffer.append(",\"op\":")
        JSON.appendString(Array(op.name.utf8), to: &out.buffer)
        out.buffer.append(",\"changes\":[")
        for (k, change) in result.changes.enumerated() {
            if k > 0 { out.buffer.append(UInt8(ascii: ",")) }
            writeChange(change, &out)
        }
        out.buffer.append("]")
        if let list = result.suggestions {
            out.buffer.append(",\"suggestions\":[")
            for (k, x) in list.enumerated() {
                out.buffer.append(k > 0 ? ",{" : "{")
                Suggest.appendFields(x, &out.buffer)
                out.buffer.append("}")
            }
            out.buffer.append("]")
        }
        if let report = result.send {
            out.buffer.append(report.sent ? ",\"sent\":true" : ",\"sent\":false")
            out.buffer.append(",\"errors\":{")
            for (k, name) in report.errorChips.keys.sorted(by: { $0.name < $1.name }).enumerated() {
                if k > 0 { out.buffer.append(UInt8(ascii: ",")) }
                JSON.appendString(Array(name.name.utf8), to: &out.buffer)
                out.buffer.append(":[")
                out.buffer.appendString(report.errorChips[name]!.map { "\($0.rawValue)" }.joined(separator: ","))
                out.buffer.append("]")
            }
            out.buffer.append("},\"pending\":[")
            out.buffer.appendString(report.fieldsWithPendingText.map { "\"\($0)\"" }.joined(separator: ","))
            out.buffer.append("]")
            if report.hasNoRecipient { out.buffer.append(",\"no_recipient\":true") }
            if !report.unsendableChips.isEmpty {
                out.buffer.append(",\"unsendable\":[")
                for (k, u) in report.unsendableChips.enumerated() {
                    out.buffer.append(k > 0 ? ",{\"field\":" : "{\"field\":")
                    JSON.appendString(Array(u.field.name.utf8), to: &out.buffer)
                    out.buffer.append(",\"id\":")
                    out.buffer.appendString("\(u.id.rawValue)")
                    out.buffer.append(",\"reason\":")
                    JSON.appendString(Array(u.reason.code.utf8), to: &out.buffer)
                    out.buffer.append("}")
                }
                out.buffer.append("]")
            }
            if report.sent {
                out.buffer.append(",\"headers\":{")
                for (k, h) in report.headers.enumerated() {
                    if k > 0 { out.buffer.append(UInt8(ascii: ",")) }
                    JSON.appendString(Array(h.field.name.utf8), to: &out.buffer)
                    out.buffer.append(":")
                    JSON.appendString(Array(h.value.utf8), to: &out.buffer)
                }
                out.buffer.append("}")
            }
        }
        out.buffer.append("}\n")
    }

    static func writeChange(_ c: ComposerChange, _ out: inout OutputBuffer) {
        out.buffer.append("{\"field\":")
        JSON.appendString(Array(c.field.name.utf8), to: &out.buffer)
        func idAt(_ kind: StaticString, _ id: ChipID, _ at: Int) {
            out.buffer.append(",\"change\":\"")
            out.buffer.append(kind)
            out.buffer.append("\",\"id\":")
            out.buffer.appendString("\(id.rawValue)")
            out.buffer.append(",\"at\":")
            out.buffer.appendDecimal(at)
        }
        switch c.change {
        case .inserted(let id, let at): idAt("inserted", id, at)
        case .removed(let id, let at): idAt("removed", id, at)
        case .updated(let id, let at): idAt("updated", id, at)
        case .moved(let id, let from, let to):
            idAt("moved", id, to)
            out.buffer.append(",\"from\":")
            out.buffer.appendDecimal(from)
        case .pendingChanged: out.buffer.append(",\"change\":\"pending\"")
        case .selectionChanged: out.buffer.append(",\"change\":\"selection\"")
        case .caretMoved: out.buffer.append(",\"change\":\"caret\"")
        case .lookupRequested(let request):
            out.buffer.append(",\"change\":\"lookup\",\"request\":")
            out.buffer.appendDecimal(Int(request.id))
            if let chip = request.chip {
                out.buffer.append(",\"id\":")
                out.buffer.appendString("\(chip.rawValue)")
            }
            out.buffer.append(",\"query\":")
            JSON.appendString(Array(request.query.utf8), to: &out.buffer)
        case .lookupCancelled(let request):
            out.buffer.append(",\"change\":\"lookup-cancelled\",\"request\":")
            out.buffer.appendDecimal(Int(request))
        case .refused(let r):
            out.buffer.append(",\"change\":\"refused\",\"reason\":")
            JSON.appendString(Array(r.reason.code.utf8), to: &out.buffer)
            if let text = r.text {
                out.buffer.append(",\"text\":")
                JSON.appendString(Array(text.utf8), to: &out.buffer)
            }
        }
        out.buffer.append("}")
    }

    /// `to: Ann, Bob and 3 more`: the field's name, then the summary that
    /// fits in what the name leaves of `width`.
    static func writeSummaryLine(_ f: ChipField, width: Int, _ out: inout OutputBuffer) {
        let name = ChipText.clean(f.name) + ":"
        // Chip by chip: `f.chips` would copy every chip (over 200 bytes each).
        let labels = (0..<f.count).map { ChipText.label(of: f[$0]) }
        let budget = width - TerminalWidth().width(of: name) - 1
        let summary = FieldSummary.make(labels: labels, budget: budget)
        out.buffer.appendString(summary.text.isEmpty ? name : name + " " + summary.text)
        out.buffer.append(UInt8(ascii: "\n"))
    }

    static func writeField(_ f: ChipField, _ out: inout OutputBuffer) {
        out.buffer.append("{\"field\":")
        JSON.appendString(Array(f.name.utf8), to: &out.buffer)
        out.buffer.append(",\"chips\":[")
        // Chip by chip, written out as the buffer fills: a copy of every
        // chip, or the whole field's JSON in memory, would cost more than
        // the field itself.
        for k in 0..<f.count {
            let chip = f[k]
            if k > 0 { out.buffer.append(UInt8(ascii: ",")) }
            let c = chip.content
            out.buffer.append("{\"id\":")
            out.buffer.appendString("\(chip.id.rawValue)")
            out.buffer.append(",\"state\":\"")
            out.buffer.appendString(chip.state.rawValue)
            out.buffer.append(f.isSelected(chip.id) ? "\",\"selected\":true" : "\",\"selected\":false")
            out.buffer.append(",\"name\":")
            if let name = c.displayName { JSON.appendString(Array(name.utf8), to: &out.buffer) } else { out.buffer.append("null") }
            out.buffer.append(",\"address\":")
            if let a = c.address { JSON.appendString(Array(a.utf8), to: &out.buffer) } else { out.buffer.append("null") }
            if let g = c.group {
                out.buffer.append(",\"group\":")
                JSON.appendString(Array(g.utf8), to: &out.buffer)
            }
            out.buffer.append(",\"raw\":")
            JSON.appendString(c.raw, to: &out.buffer)
            out.buffer.append(",\"error\":")
            if let e = c.error {
                out.buffer.append("\"")
                out.buffer.append(e.staticCode)
                out.buffer.append("\"")
            } else {
                out.buffer.append("null")
            }
            out.buffer.append(",\"warnings\":[")
            var first = true
            c.warnings.forEachCode { code in
                out.buffer.append(first ? "\"" : ",\"")
                out.buffer.append(code)
                out.buffer.append("\"")
                first = false
            }
            out.buffer.append("]")
            if let contact = chip.contact {
                out.buffer.append(",\"contact\":")
                JSON.appendString(Array(contact.rawValue.utf8), to: &out.buffer)
            }
            if !chip.candidates.isEmpty {
                out.buffer.append(",\"candidates\":[")
                out.buffer.appendString(chip.candidates.map { "\"\($0.contact.rawValue)\"" }.joined(separator: ","))
                out.buffer.append("]")
            }
            out.buffer.append("}")
            out.flushIfNeeded()
        }
        out.buffer.append("],\"pending\":")
        JSON.appendString(f.pending, to: &out.buffer)
        out.buffer.append("}\n")
    }
}
