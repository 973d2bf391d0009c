/// One option of a command, described once: what the parser accepts, and
/// what help, a manual page and completions can say of it.
struct OptionSpec: Sendable {
    /// The long name, without `--`.
    var long: String
    /// The short form, without `-`.
    var short: Character?
    /// The value's name (`FORMAT`); nil for a flag.
    var value: String?
    /// The values it accepts, when they are a fixed list.
    var choices: [String] = []
    /// Whether the value names a file (completions offer files).
    var isFile = false
    /// One line of plain text.
    var help: String

    init(_ long: String, _ short: Character? = nil, value: String? = nil, choices: [String] = [],
         isFile: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.choices = choices
        self.isFile = isFile
        self.help = help
    }
}

/// A command's options and operands, as data: one getopt-style reader for
/// every command of `chipify`, so they all read `--name=value`, `--name
/// value`, bundled short flags with an attached value (`-zj2`), `--` and
/// `-` the same way, and say the same words when something is wrong.
struct CommandSpec: Sendable {
    /// As messages name it: `chipify`, `chipify replay`.
    var name: String
    /// What it does, in one line without a capital or a full stop.
    var summary: String
    /// Its operands as a synopsis shows them (`[FILE]...`), or empty.
    var operands: String
    var options: [OptionSpec]

    /// An option as given: its long name, and its value for one that takes one.
    struct Given: Equatable, Sendable {
        var name: String
        var value: String?
    }

    /// The options in the order given, and the operands.
    struct Parsed: Equatable, Sendable {
        var options: [Given] = []
        var operands: [String] = []

        /// Whether the flag `name` was given.
        func has(_ name: String) -> Bool { options.contains { $0.name == name } }
    }

    /// Reads `arguments` as getopt does: `--` ends the options, `-` is an
    /// operand, a long option takes its value after `=` or as the next
    /// argument, short flags bundle and the last may take the rest of its
    /// argument as its value (`-fjsonl`, `-zj2`) or the next argument.
    ///
    /// - Throws: ``UsageError`` for an unknown option (naming a close one),
    ///   a missing value, or a value given to a flag.
    /// - Complexity: O(*a* · *o*) for *a* arguments and *o* options.
    func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var parsed = Parsed()
        var i = 0
        var onlyOperands = false
        func next(_ shown: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(message: "option '\(shown)' needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            defer { i += 1 }
            let arg = arguments[i]
            if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
                parsed.operands.append(arg)
                continue
            }
            if arg == "--" {
                onlyOperands = true
                continue
            }
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard let option = options.first(where: { $0.long == name }) else {
                    throw UsageError(message: "unknown option '--\(name)'" + suggestion(for: name))
                }
                if option.value == nil {
                    guard inline == nil else { throw UsageError(message: "option '--\(name)' takes no value") }
                    parsed.options.append(Given(name: name, value: nil))
                } else {
                    let value: String
                    if let inline { value = inline } else { value = try next("--\(name)") }
                    parsed.options.append(Given(name: name, value: value))
                }
                continue
            }
            var rest = Substring(arg.dropFirst())
            while let c = rest.first {
                rest = rest.dropFirst()
                guard let option = options.first(where: { $0.short == c }) else {
                    throw UsageError(message: "unknown option '-\(c)'")
                }
                if option.value == nil {
                    parsed.options.append(Given(name: option.long, value: nil))
                    continue
                }
                let value: String
                if rest.isEmpty { value = try next("-\(c)") } else { value = String(rest) }
                parsed.options.append(Given(name: option.long, value: value))
                break
            }
        }
        return parsed
    }

    /// ` (did you mean '--format'?)` for a long name two edits or fewer
    /// from one of the options, else nothing.
    func suggestion(for name: String) -> String {
        let scored = options.map { ($0.long, CLI.editDistance(Array(name), Array($0.long))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, name.count >= 3 else { return "" }
        return " (did you mean '--\(best.0)'?)"
    }
}

/// The options every command of `chipify` describes: help and version.
extension OptionSpec {
    static let help = OptionSpec("help", "h", help: "show this help")
    static let version = OptionSpec("version", help: "show the version")
}

extension CommandSpec {
    /// The options as `--help` lists them: `  -f, --format FORMAT  help`,
    /// each option's help wrapped at `width` columns in a column of its
    /// own (a line break in the help starts a new line there).
    ///
    /// - Complexity: O(*n*) in the help text.
    func optionsHelp(width: Int = 80, column: Int = 23) -> String {
        var out = ""
        for option in options {
            var head = "  " + (option.short.map { "-\($0), " } ?? "    ") + "--\(option.long)"
            if let value = option.value { head += " " + value }
            var lines: [String] = []
            for segment in option.help.split(separator: "\n", omittingEmptySubsequences: false) {
                var line = ""
                for word in segment.split(separator: " ") {
                    if !line.isEmpty && column + line.count + 1 + word.count > width {
                        lines.append(line)
                        line = String(word)
                    } else {
                        line += (line.isEmpty ? "" : " ") + word
                    }
                }
                lines.append(line)
            }
            let pad = String(repeating: " ", count: column)
            if head.count + 2 > column {
                out += head + "\n"
            } else {
                out += head + String(repeating: " ", count: column - head.count) + lines.removeFirst() + "\n"
            }
            for line in lines { out += pad + line + "\n" }
        }
        return out
    }
}
