import ChipKit

/// `chipify group`: replays a script of taps and host changes against a
/// ``ChipGroup`` of choice, filter or action chips and prints its state,
/// so the selection rules can be tried, reported and tested as scripts.
///
/// The script is JSON Lines: a config line, then one operation a line
/// (see ``help``). Chips are named by their identities, which are also
/// their labels.
package enum GroupCommand {
    package static let usage = "Usage: chipify group [--trace] [SCRIPT]"

    package static let help = """
        chipify group: replays taps and changes against a group of choice,
        filter or action chips and prints its state.

        \(usage)

        The script (a file, or standard input) is JSON Lines. Its first line
        configures the group (only "chips" is needed; the rest are the defaults):
          {"config":{"chips":["a","b"],"single":false,"required":false,"checked":[],
           "disabled":[],"read_only":false,"not_checkable":[],"exclusive":[],
           "max_visible":8,"max_selected":null,"controlled":false}}
        not_checkable chips are action chips (never selected). Then one operation
        a line: tap, check, uncheck, remove (with "id"); add (with "id" and
        "checked", default false); clear; setSingle, setRequired (with a boolean
        "value"); toggleOverflow.

        \(spec.optionsHelp())\

        At the end, one line: the selection in display order, the selected chip
        in single mode, the chips shown, the overflow entry's facts, each chip's
        role, the taps a controlled group emitted as requests, and configuration
        warnings. A bad line stops the replay: exit status 1.

        """

    package struct Options: Sendable, Equatable {
        package var trace = false
        package var script: String?
        package var help = false
    }

    /// The options of `chipify group`, described once (``CommandSpec``).
    static let spec = CommandSpec(
        name: "chipify group", summary: "replays taps and changes against a group of choice, filter or action chips",
        operands: "[SCRIPT]", options: [
        OptionSpec("trace", help: """
            after each operation, print whether it changed the group, the selection after it, and any \
            refusal or request
            """),
        .help, .version,
    ])

    package static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var o = Options()
        o.trace = parsed.has("trace")
        o.help = parsed.has("help")
        guard parsed.operands.count <= 1 else { throw UsageError(message: "more than one script") }
        o.script = parsed.operands.first
        return o
    }

    /// Runs `chipify group`; returns the exit status.
    package static func main(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Int32 {
        let (parsed, exit) = subcommandOptions(
            arguments, parse: parse, isHelp: \.help, usage: usage, help: help, command: "group", stdout: stdout, stderr: stderr)
        guard let options = parsed else { return exit }
        guard let script = readScript(options.script, stdin: stdin, stderr: stderr, command: "chipify group") else { return 1 }
        var out = OutputBuffer(fd: stdout)
        var errors = OutputBuffer(fd: stderr, capacity: 1 << 12)
        let status = run(script: script, trace: options.trace, out: &out, errors: &errors)
        out.flush()
        errors.flush()
        return writeFailureStatus(out, stderr: stderr) ?? status
    }

    /// Replays `script`, writing results to `out` and the first bad line's
    /// error to `errors`.
    /// `observe` sees the group after each operation (for tests that
    /// check the group is changed in place).
    static func run(
        script: [UInt8], trace: Bool, out: inout OutputBuffer, errors: inout OutputBuffer,
        observe: ((ChipGroup<Never>) -> Void)? = nil
    ) -> Int32 {
        var group: ChipGroup<Never>?
        var requested: [ChipOptionID] = []
        var lineNumber = 0
        var failed = false
        for line in script.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            do throws(LineError) {
                let object: [String: JSONReader.Value]
                do {
                    object = try JSONReader.object(Array(line), nested: true)
                } catch {
                    throw LineError(message: "not a JSON object (\(error.message))")
                }
                guard group != nil else {
                    group = try makeGroup(object)
                    continue
                }
                let op = try Operation(object)
                // In place: a copy taken out of `group` would share its
                // storage, so the operation would copy every option (O(n)
                // per add, quadratic over a script).
                let change = op.apply(to: &group!)
                observe?(group!)
                if let r = change.request { requested.append(r.id) }
                if trace { writeTrace(line: lineNumber, op: op.name, change, &out) }
            } catch {
                failed = true
                errors.buffer.appendString("chipify group: line \(lineNumber): \(error.message)\n")
                break
            }
            out.flushIfNeeded()
            if out.failed { break }  // nowhere to write: reported by the caller
        }
        guard let group else {
            if !failed {
                errors.buffer.appendString(
                    "chipify group: the script has no config line (its first line must be {\"config\":{…}})\n")
            }
            return 1
        }
        writeState(group, requested: requested, &out)
        return failed ? 1 : 0
    }

    /// A line that could not be replayed.
    typealias LineError = ScriptLineError

    static let configKeys: Set<String> = [
        "chips", "single", "required", "checked", "disabled", "read_only", "not_checkable", "exclusive",
        "max_visible", "max_selected", "controlled",
    ]

    /// The group a config line describes.
    static func makeGroup(_ line: [String: JSONReader.Value]) throws(LineError) -> ChipGroup<Never> {
        guard line.count == 1, case .object(let c)? = line["config"] else {
            throw LineError(message: "the first line must be {\"config\":{…}}")
        }
        if let key = c.keys.sorted().first(where: { !configKeys.contains($0) }) {
            throw LineError(message: "unknown config key \"\(key)\"")
        }
        func bool(_ key: String) throws(LineError) -> Bool {
            switch c[key] {
            case nil, .null?: return false
            case .bool(let b)?: return b
            default: throw LineError(message: "\"\(key)\" must be true or false")
            }
        }
        func ids(_ key: String) throws(LineError) -> [ChipOptionID] {
            switch c[key] {
            case nil, .null?: return []
            case .array(let items)?:
                var out: [ChipOptionID] = []
                for item in items {
                    guard case .string(let s) = item else { throw LineError(message: "\"\(key)\" must be a list of strings") }
                    out.append(ChipOptionID(s))
                }
                return out
            default: throw LineError(message: "\"\(key)\" must be a list of strings")
            }
        }
        func count(_ key: String, default value: Int?) throws(LineError) -> Int? {
            switch c[key] {
            case nil, .null?: return value
            case .number(let d)? where d == d.rounded() && d >= 1 && d < 1e9: return Int(d)
            default: throw LineError(message: "\"\(key)\" must be a whole number from 1 to 999999999\(value == nil ? ", or null" : "")")
            }
        }
        guard c["chips"] != nil else { throw LineError(message: "the config needs \"chips\"") }
        let chips = try ids("chips")
        let known = Set(chips)
        var flags: [String: Set<ChipOptionID>] = [:]
        for key in ["disabled", "not_checkable", "exclusive"] {
            let list = try ids(key)
            if let stranger = list.first(where: { !known.contains($0) }) {
                throw LineError(message: "\"\(key)\" names \"\(stranger)\", which is not a chip")
            }
            flags[key] = Set(list)
        }
        let options = chips.map { id in
            ChipOption<Never>(
                id: id, label: id.rawValue, isDisabled: flags["disabled"]!.contains(id),
                isCheckable: !flags["not_checkable"]!.contains(id), isExclusive: flags["exclusive"]!.contains(id))
        }
        let configuration = GroupConfiguration(
            isSingleSelection: try bool("single"), isSelectionRequired: try bool("required"),
            isReadOnly: try bool("read_only"), isControlled: try bool("controlled"),
            maxVisible: try count("max_visible", default: 8)!, maxSelected: try count("max_selected", default: nil))
        let checked = try ids("checked")
        do {
            return try ChipGroup(options: options, configuration: configuration, checked: checked)
        } catch {
            throw LineError(message: error.message)
        }
    }

    /// One operation line.
    struct Operation {
        var name: String
        var id: ChipOptionID?
        var value: Bool?
        var checked: Bool?

        init(_ o: [String: JSONReader.Value]) throws(LineError) {
            if o["config"] != nil { throw LineError(message: "the config comes once, on the first line") }
            guard case .string(let op)? = o["op"] else { throw LineError(message: "no \"op\"") }
            name = op
            if let key = o.keys.sorted().first(where: { !["op", "id", "value", "checked"].contains($0) }) {
                throw LineError(message: "unknown key \"\(key)\"")
            }
            id = try o.string("id").map { ChipOptionID($0) }
            value = try o.bool("value")
            checked = try o.bool("checked")
            switch op {
            case "tap", "check", "uncheck", "remove", "add":
                guard id != nil else { throw LineError(message: "\"\(op)\" needs a string \"id\"") }
            case "setSingle", "setRequired":
                guard value != nil else { throw LineError(message: "\"\(op)\" needs a boolean \"value\"") }
            case "clear", "toggleOverflow":
                break
            default:
                throw LineError(message: "unknown op \"\(op)\"")
            }
        }

        func apply(to g: inout ChipGroup<Never>) -> GroupChange {
            switch name {
            case "tap": g.tap(id!)
            case "check": g.check(id!)
            case "uncheck": g.uncheck(id!)
            case "remove": g.remove(id!)
            case "add": g.add(ChipOption(id: id!, label: id!.rawValue), checked: checked ?? false)
            case "clear": g.clear()
            case "setSingle": g.setSingleSelection(value!)
            case "setRequired": g.setSelectionRequired(value!)
            default: g.toggleOverflow()  // the only other op the initializer lets through
            }
        }
    }

    static func appendID(_ id: ChipOptionID, _ out: inout OutputBuffer) {
        JSON.appendString(Array(id.rawValue.utf8), to: &out.buffer)
    }

    static func appendIDs(_ ids: some Sequence<ChipOptionID>, _ out: inout OutputBuffer) {
        out.buffer.append(UInt8(ascii: "["))
        for (k, id) in ids.enumerated() {
            if k > 0 { out.buffer.append(UInt8(ascii: ",")) }
            appendID(id, &out)
        }
        out.buffer.append(UInt8(ascii: "]"))
    }

    static func writeTrace(line: Int, op: String, _ change: GroupChange, _ out: inout OutputBuffer) {
        out.buffer.append("{\"line\":")
        out.buffer.appendDecimal(line)
        out.buffer.append(",\"op\":")
        JSON.appendString(Array(op.utf8), to: &out.buffer)
        out.buffer.append(change.changed ? ",\"changed\":true,\"checked\":" : ",\"changed\":false,\"checked\":")
        appendIDs(change.selectedIDs, &out)
        for edit in change.edits {
            switch edit {
            case .refused(let r):
                out.buffer.append(",\"refused\":")
                JSON.appendString(Array(r.reason.code.utf8), to: &out.buffer)
            case .requested(let r):
                out.buffer.append(",\"requested\":")
                appendID(r.id, &out)
            case .actionTriggered(let id):
                out.buffer.append(",\"triggered\":")
                appendID(id, &out)
            default:
                break
            }
        }
        out.buffer.append("}\n")
    }

    static func writeState(_ g: ChipGroup<Never>, requested: [ChipOptionID], _ out: inout OutputBuffer) {
        out.buffer.append("{\"checked\":")
        appendIDs(g.selectedIDs, &out)
        out.buffer.append(",\"single_checked\":")
        if let id = g.selectedID { appendID(id, &out) } else { out.buffer.append("null") }
        out.buffer.append(",\"visible\":")
        appendIDs(g.visibleOptions.lazy.map(\.id), &out)
        out.buffer.append(",\"overflow\":")
        if let o = g.overflow {
            out.buffer.append("{\"hidden\":")
            out.buffer.appendDecimal(o.hiddenCount)
            out.buffer.append(",\"hidden_checked\":")
            out.buffer.appendDecimal(o.hiddenSelectedCount)
            out.buffer.append(o.isExpanded ? ",\"expanded\":true}" : ",\"expanded\":false}")
        } else {
            out.buffer.append("null")
        }
        out.buffer.append(",\"roles\":{")
        for (k, option) in g.options.enumerated() {
            if k > 0 { out.buffer.append(UInt8(ascii: ",")) }
            appendID(option.id, &out)
            out.buffer.append(":\"")
            out.buffer.appendString(g.role(of: option.id)!.rawValue)
            out.buffer.append("\"")
        }
        out.buffer.append("},\"requested\":")
        appendIDs(requested, &out)
        out.buffer.append(",\"warnings\":[")
        for (k, w) in g.configurationWarnings.enumerated() {
            out.buffer.append(k > 0 ? ",{\"warning\":" : "{\"warning\":")
            switch w {
            case .noneNotExclusive(let id):
                out.buffer.append("\"none-not-exclusive\",\"id\":")
                appendID(id, &out)
            case .selectionAboveMaximum(let count, let maximum):
                out.buffer.append("\"selection-above-maximum\",\"count\":")
                out.buffer.appendDecimal(count)
                out.buffer.append(",\"maximum\":")
                out.buffer.appendDecimal(maximum)
            case .maxSelectedInSingleMode:
                out.buffer.append("\"max-selected-in-single-mode\"")
            case .singleOption:
                out.buffer.append("\"single-option\"")
            }
            out.buffer.append("}")
        }
        out.buffer.append("]}\n")
    }
}
