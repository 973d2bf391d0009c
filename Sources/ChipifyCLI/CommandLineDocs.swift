/// What the command descriptions (``CommandSpec``) generate: README's
/// synopsis, the manual page `docs/chipify.1` (`chipify help --man`) and
/// the shell completions (`chipify completions bash|zsh|fish`). Tests hold
/// the checked-in page and README's block to what these write.
enum CommandLineDocs {
    /// Every command, the filter first.
    static var commands: [CommandSpec] {
        [CLI.spec, Contacts.spec, Suggest.spec, Replay.spec, GroupCommand.spec, ComposeCommand.spec]
    }

    /// The subcommand's word (`replay`), empty for the filter.
    static func word(_ spec: CommandSpec) -> String {
        String(spec.name.dropFirst("chipify".count).drop { $0 == " " })
    }

    // MARK: - Synopsis

    /// One command's synopsis, wrapped at `width` columns under its name:
    /// `chipify replay [--trace] [--keep-going] … [SCRIPT]`.
    ///
    /// - Complexity: O(*o*) in the options.
    static func synopsis(_ spec: CommandSpec, width: Int = 100) -> String {
        var pieces: [String] = []
        for option in spec.options where option.long != "help" && option.long != "version" {
            pieces.append("[--\(option.long)" + (option.value.map { " " + $0 } ?? "") + "]")
        }
        if !spec.operands.isEmpty { pieces.append(spec.operands) }
        let indent = String(repeating: " ", count: spec.name.count + 1)
        var lines: [String] = []
        var line = spec.name
        for piece in pieces {
            if line.count + 1 + piece.count > width && line != spec.name && line != indent {
                lines.append(line)
                line = indent + piece
            } else {
                line += (line == indent ? "" : " ") + piece
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// README's synopsis block: every command, then `chipify help`.
    static var readmeSynopsis: String {
        commands.map { synopsis($0) }.joined(separator: "\n") + "\nchipify help [COMMAND]\n"
    }

    // MARK: - Manual page

    /// Text for roff: backslashes and hyphens escaped, a leading dot or
    /// quote made literal.
    static func roff(_ text: String) -> String {
        var out = text.replacingAll("\\", "\\e").replacingAll("-", "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// The manual page, `chipify(1)`, from the descriptions.
    ///
    /// - Complexity: O(*o*) in all the options.
    static func manPage(version: String) -> String {
        var out = ".TH CHIPIFY 1 \"\" \"chipify \(version)\" \"User Commands\"\n"
        out += ".SH NAME\nchipify \\- turn address lists into chips, read address books, replay edits\n"
        out += ".SH SYNOPSIS\n"
        for spec in commands {
            out += ".B \(spec.name)\n"
            var words: [String] = []
            for option in spec.options where option.long != "help" && option.long != "version" {
                words.append("[\\fB\\-\\-\(roff(option.long))\\fR" + (option.value.map { " \\fI\(roff($0))\\fR" } ?? "") + "]")
            }
            if !spec.operands.isEmpty { words.append(roff(spec.operands)) }
            out += words.joined(separator: "\n") + "\n.br\n"
        }
        out += ".B chipify help\n[\\fICOMMAND\\fR]\n"
        out += ".SH DESCRIPTION\n"
        out += "Each record of the input (a line, or ended by NUL with \\fB\\-z\\fR) is the text of one "
            + "To/Cc field; \\fBchipify\\fR prints its chips. The subcommands read address books, "
            + "print suggestions, replay edit scripts and chip-group scripts, and run a compose field "
            + "in the terminal. The guides are in the package's docs/cli.md.\n"
        for spec in commands {
            out += ".SH " + (spec.name == "chipify" ? "OPTIONS" : roff(spec.name.uppercased())) + "\n"
            out += roff(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst()) + ".\n"
            for option in spec.options {
                out += ".TP\n"
                var head = ""
                if let short = option.short { head += "\\fB\\-\(short)\\fR, " }
                head += "\\fB\\-\\-\(roff(option.long))\\fR"
                if let value = option.value { head += " \\fI\(roff(value))\\fR" }
                // A line break in the help is one on the page too.
                out += head + "\n" + option.help.split(separator: "\n").map { roff(String($0)) }.joined(separator: "\n.br\n") + "\n"
            }
        }
        out += ".SH EXIT STATUS\n"
        out += "0 success; 1 an error chip under \\fB\\-\\-check\\fR, an input that cannot be read, "
            + "an invalid script line or a failed write; 64 a usage error; 130 a compose field left "
            + "without sending; 141 when the reader of standard output went away.\n"
        out += ".SH SEE ALSO\n"
        out += "\\fBchipify help\\fR \\fICOMMAND\\fR, and the package's README.md and docs/.\n"
        return out
    }

    // MARK: - Completions

    /// A completion script for `shell` (`bash`, `zsh` or `fish`), or nil
    /// for another shell.
    ///
    /// - Complexity: O(*o*) in all the options.
    static func completions(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": "#compdef chipify\n# chipify's completions for zsh, through its bash completion support.\n"
            + "autoload -U +X bashcompinit && bashcompinit\n" + bash
        case "fish": fish
        default: nil
        }
    }

    static var subcommandWords: [String] { commands.dropFirst().map(word) + ["help", "completions"] }

    static var bash: String {
        var out = "# chipify's completions for bash: source this file, or put it in\n"
        out += "# ~/.local/share/bash-completion/completions/chipify\n"
        out += "_chipify() {\n"
        out += "    local cur prev command\n"
        out += "    cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
        out += "    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        out += "    command=\"\"\n"
        out += "    case \"${COMP_WORDS[1]}\" in\n"
        out += "        " + subcommandWords.joined(separator: "|") + ") command=\"${COMP_WORDS[1]}\" ;;\n"
        out += "    esac\n"
        out += "    case \"$command:$prev\" in\n"
        for spec in commands {
            for option in spec.options where option.value != nil {
                let names = ["--\(option.long)"] + (option.short.map { ["-\($0)"] } ?? [])
                let cases = names.map { "\(word(spec)):\($0)" }.joined(separator: "|")
                if !option.choices.isEmpty {
                    out += "        \(cases)) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                } else if option.isFile {
                    out += "        \(cases)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                } else {
                    out += "        \(cases)) return ;;\n"
                }
            }
        }
        out += "        help:*|completions:*) ;;\n"
        out += "    esac\n"
        out += "    case \"$command\" in\n"
        for spec in commands {
            let options = spec.options.map { "--\($0.long)" }.joined(separator: " ")
            let label = word(spec).isEmpty ? "\"\"" : word(spec)
            let extra = word(spec).isEmpty ? " " + subcommandWords.joined(separator: " ") : ""
            out += "        \(label)) COMPREPLY=($(compgen -W \"\(options)\(extra)\" -- \"$cur\"))"
            out += spec.operands.contains("FILE") || spec.operands.contains("SCRIPT")
                ? "; [[ \"$cur\" != -* ]] && COMPREPLY+=($(compgen -f -- \"$cur\")) ;;\n" : " ;;\n"
        }
        out += "        help) COMPREPLY=($(compgen -W \"\(commands.dropFirst().map(word).joined(separator: " "))\" -- \"$cur\")) ;;\n"
        out += "        completions) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")) ;;\n"
        out += "    esac\n"
        out += "}\n"
        out += "complete -F _chipify chipify\n"
        return out
    }

    /// Text in single quotes for fish.
    static func quoted(_ text: String) -> String { "'" + text.replacingAll("\\", "\\\\").replacingAll("'", "\\'") + "'" }

    static var fish: String {
        var out = "# chipify's completions for fish: put this file in ~/.config/fish/completions/chipify.fish\n"
        out += "complete -c chipify -f\n"
        for spec in commands.dropFirst() {
            out += "complete -c chipify -n __fish_use_subcommand -a \(word(spec)) -d \(quoted(spec.summary))\n"
        }
        out += "complete -c chipify -n __fish_use_subcommand -a help -d 'a command\\'s options'\n"
        out += "complete -c chipify -n __fish_use_subcommand -a completions -d 'completions for bash, zsh or fish'\n"
        for spec in commands {
            let condition = word(spec).isEmpty ? "__fish_use_subcommand" : "'__fish_seen_subcommand_from \(word(spec))'"
            for option in spec.options {
                var line = "complete -c chipify -n \(condition) -l \(option.long)"
                if let short = option.short { line += " -s \(short)" }
                if option.value != nil {
                    if !option.choices.isEmpty {
                        line += " -x -a \(quoted(option.choices.joined(separator: " ")))"
                    } else {
                        line += option.isFile ? " -r -F" : " -x"
                    }
                }
                out += line + " -d \(quoted(String(option.help.prefix { $0 != "\n" })))\n"
            }
            if spec.operands.contains("FILE") || spec.operands.contains("SCRIPT") {
                out += "complete -c chipify -n \(condition) -F\n"
            }
        }
        return out
    }
}

extension String {
    /// This string with every `target` replaced by `replacement`.
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
