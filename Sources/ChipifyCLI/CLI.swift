#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit

/// The parsed command line of `chipify`.
package struct Options: Sendable, Equatable {
    package var format: OutputFormat = .text
    package var policy: ValidationPolicy = .standard
    package var nullTerminated = false
    package var check = false
    package var summary = false
    /// For `--format header`: UTF-8 stays as is (RFC 6532).
    package var smtpUTF8 = false
    package var recordNumbers = true
    /// Threads for recognition; nil means one per core.
    package var jobs: Int?
    package var files: [String] = []
    /// Address books to resolve chips against (`--contacts`).
    package var contacts: [String] = []
    /// With `--format text`: one summary line per record, at most this many
    /// columns (`--width`).
    package var width: Int?
    package var showHelp = false
    package var showVersion = false

    package init() {}
}

/// A command-line mistake: reported in three lines, exit status 64.
package struct UsageError: Error, Equatable, Sendable {
    package var message: String
}

/// `chipify`: address lists in, chips out.
package enum CLI {
    package static let version = "0.2.8"

    /// The number of online processors, the default for `-j`.
    package static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    package static let usage =
        "Usage: chipify [--format text|jsonl|tsv|header] [--smtputf8] [--policy strict|standard|lenient] [-z] [--check] [--summary] [-j N] [--no-record-numbers] [--width N] [FILE...]"

    package static let help = """
        chipify: turns address lists into chips.

        \(usage)

        chipify help [COMMAND]                           a command's options
        chipify help --man                               the manual page, in roff
        chipify completions bash|zsh|fish                a completion script for the shell
        chipify replay [--trace] [--keep-going] [SCRIPT]   (see 'chipify replay --help')
        chipify contacts [--format jsonl|text] [--strict] [--quiet] [--charset NAME] [FILE...]
                                                         (see 'chipify contacts --help')
        chipify suggest --contacts FILE [--format jsonl|text] [--limit K] [--usage FILE] QUERY
                                                         (see 'chipify suggest --help')
        chipify group [--trace] [SCRIPT]                 (see 'chipify group --help')
        chipify compose [--contacts FILE]... [--fields to,cc,bcc] [--draft FILE] ...
                                                         (see 'chipify compose --help')

        Reads each FILE (or standard input when none is given, or for '-') and treats
        each record as the text of one To/Cc field. Records end with a newline, or
        with NUL under -z. Prints one chip per line.

        Options:
        \(spec.optionsHelp())
        Exit status: 0 success, 1 an error chip (or one left out of a header)
        under --check or an unreadable input, 64 a usage error.

        """

    /// The filter's options, described once (``CommandSpec``).
    static let spec = CommandSpec(
        name: "chipify", summary: "turns address lists into chips, one record a line", operands: "[FILE]...", options: [
        OptionSpec("format", "f", value: "FORMAT", choices: ["text", "jsonl", "tsv", "header"], help: """
            text (default): readable, errors marked ERROR
            jsonl: one JSON object per chip
            tsv: tab-separated columns, see docs/cli.md
            header: each record as a header value, folded at 78 with a newline and a space
            """),
        OptionSpec("smtputf8", help: "with header: keep UTF-8 (RFC 6532) instead of encoded words and A-labels"),
        OptionSpec("policy", "p", value: "POLICY", choices: ["strict", "standard", "lenient"],
                   help: "strict, standard (default) or lenient"),
        OptionSpec("null", "z", help: "records end with NUL instead of newline"),
        OptionSpec("check", help: """
            exit with status 1 if any chip is in error or left out of a header (each one left out is \
            reported on standard error, with or without it)
            """),
        OptionSpec("summary", help: """
            print counts instead of chips: records, chips, valid, errors by reason, warnings by kind, \
            bytes (one JSON object with --format jsonl)
            """),
        OptionSpec("jobs", "j", value: "N", help: """
            recognize on N threads, 1 to 1024 (default: one per core); the output is the same, in input order
            """),
        OptionSpec("contacts", value: "FILE", isFile: true, help: """
            resolve chips against an address book (vCard or the exporters' CSV; repeatable): a typed \
            address gets its contact, a typed name its one best contact or the error ambiguous; JSON \
            Lines gains "contact"
            """),
        OptionSpec("no-record-numbers", help: """
            leave record numbers out, so the output of pieces of the input, joined, equals that of the whole
            """),
        OptionSpec("width", value: "N", help: """
            with text: each record as one line of at most N (1 to 100000) terminal columns, as a field \
            that is not focused shows it: the names that fit, then "and K more", or "+K" when not even one fits
            """),
        .help, .version,
    ])

    /// Parses the arguments that follow the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown option or a bad value.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var options = Options()
        options.files = parsed.operands
        for given in parsed.options {
            let v = given.value ?? ""
            switch given.name {
            case "format":
                guard let format = OutputFormat(rawValue: v) else {
                    throw UsageError(message: "unknown format '\(v)' (expected text, jsonl, tsv or header)")
                }
                options.format = format
            case "policy": options.policy = try OptionValue.policy(v)
            case "null": options.nullTerminated = true
            case "check": options.check = true
            case "summary": options.summary = true
            case "smtputf8": options.smtpUTF8 = true
            case "no-record-numbers": options.recordNumbers = false
            case "jobs":
                guard let n = Int(v), n >= 1, n <= 1024 else {
                    throw UsageError(message: "bad job count '\(v)' (expected 1 to 1024)")
                }
                options.jobs = n
            case "contacts": options.contacts.append(v)
            case "width":
                guard let n = Int(v), n >= 1, n <= 100_000 else {
                    throw UsageError(message: "bad width '\(v)' (expected 1 to 100000 columns)")
                }
                options.width = n
            case "help": options.showHelp = true
            case "version": options.showVersion = true
            default: break
            }
        }
        // An option that would do nothing is a mistake worth saying.
        if options.smtpUTF8 && options.format != .header {
            throw UsageError(message: "--smtputf8 applies to --format header only")
        }
        if options.summary && (options.format == .tsv || options.format == .header) {
            throw UsageError(message: "--summary writes text or JSON (--format text or jsonl), not \(options.format.rawValue)")
        }
        if !options.contacts.isEmpty && options.summary {
            throw UsageError(message: "--contacts does nothing with --summary")
        }
        if options.width != nil && (options.summary || options.format != .text) {
            throw UsageError(message: "--width applies to --format text only, without --summary")
        }
        if !options.recordNumbers && (options.summary || options.format == .header) {
            throw UsageError(message: "--no-record-numbers does nothing with \(options.summary ? "--summary" : "--format header")")
        }
        return options
    }

    /// The subcommands, as the first argument names them.
    static let commands = ["contacts", "suggest", "replay", "group", "compose", "help", "completions"]

    /// `chipify help [COMMAND]`: what `chipify COMMAND --help` prints, or
    /// the filter's help.
    static func helpCommand(_ arguments: [String], stdout: Int32, stderr: Int32) -> Int32 {
        let text: String
        switch arguments.first {
        case "--man": text = CommandLineDocs.manPage(version: version)
        case nil, "help": text = help
        case "replay": text = Replay.help
        case "contacts": text = Contacts.help
        case "suggest": text = Suggest.help
        case "group": text = GroupCommand.help
        case "compose": text = ComposeCommand.help
        case let other?:
            let near = nearCommand(other, needsNoFile: true).map { ": did you mean '\($0)'?" } ?? ""
            return usageFailure(
                stderr, "no command '\(other)' (the commands: \(commands.joined(separator: ", ")))\(near)",
                usage: "Usage: chipify help [COMMAND]", command: "chipify help")
        }
        guard arguments.count <= 1 else {
            return usageFailure(stderr, "help takes one command", usage: "Usage: chipify help [COMMAND]", command: "chipify help")
        }
        return writeFailureStatus(writeAll(stdout, text), stderr: stderr) ?? 0
    }

    /// The command `word` is probably a mistyped spelling of: not a command
    /// itself, not an option, not an existing file (unless `needsNoFile`),
    /// and at most two edits from one (`contact`, `replya`).
    static func nearCommand(_ word: String, needsNoFile: Bool = false) -> String? {
        guard !word.hasPrefix("-"), !commands.contains(word), word.count >= 3, word.count <= 12 else { return nil }
        if !needsNoFile && access(word, F_OK) == 0 { return nil }
        let best = commands.map { ($0, editDistance(Array(word.lowercased()), Array($0))) }.min { $0.1 < $1.1 }
        return best.flatMap { $0.1 <= 2 ? $0.0 : nil }
    }

    /// Levenshtein distance.
    ///
    /// - Complexity: O(*m* · *n*) in the two lengths.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Runs `chipify` with the arguments after the program name, reading
    /// standard input from `stdin` and writing to the given descriptors.
    /// Returns the exit status.
    package static func main(
        _ arguments: [String], stdin: Int32 = 0, stdout: Int32 = 1, stderr: Int32 = 2
    ) -> Int32 {
        // `--version` (before a `--`) answers the same in every command.
        if let first = arguments.first, commands.contains(first),
           arguments.prefix(while: { $0 != "--" }).contains("--version") {
            return writeFailureStatus(writeAll(stdout, "chipify \(version)\n"), stderr: stderr) ?? 0
        }
        if arguments.first == "help" {
            return helpCommand(Array(arguments.dropFirst()), stdout: stdout, stderr: stderr)
        }
        if arguments.first == "completions" {
            let shells = Array(arguments.dropFirst())
            guard shells.count == 1, let script = CommandLineDocs.completions(for: shells[0]) else {
                return usageFailure(
                    stderr, shells.isEmpty ? "completions needs a shell" : "no completions for '\(shells.joined(separator: " "))'",
                    usage: "Usage: chipify completions bash|zsh|fish", command: "chipify completions")
            }
            return writeFailureStatus(writeAll(stdout, script), stderr: stderr) ?? 0
        }
        if let first = arguments.first, let near = nearCommand(first) {
            return usageFailure(
                stderr, "no file '\(first)', and no such command: did you mean '\(near)'?", usage: usage, command: "chipify")
        }
        if arguments.first == "replay" {
            return Replay.main(Array(arguments.dropFirst()), stdin: stdin, stdout: stdout, stderr: stderr)
        }
        if arguments.first == "suggest" {
            return Suggest.main(Array(arguments.dropFirst()), stdin: stdin, stdout: stdout, stderr: stderr)
        }
        if arguments.first == "group" {
            return GroupCommand.main(Array(arguments.dropFirst()), stdin: stdin, stdout: stdout, stderr: stderr)
        }
        if arguments.first == "compose" {
            return ComposeCommand.main(Array(arguments.dropFirst()), stdin: stdin, stdout: stdout, stderr: stderr)
        }
        if arguments.first == "contacts" {
            return Contacts.main(Array(arguments.dropFirst()), stdin: stdin, stdout: stdout, stderr: stderr)
        }
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            return usageFailure(stderr, error.message, usage: usage, command: "chipify")
        }
        if options.showHelp {
            return writeFailureStatus(writeAll(stdout, help), stderr: stderr) ?? 0
        }
        if options.showVersion {
            return writeFailureStatus(writeAll(stdout, "chipify \(version)\n"), stderr: stderr) ?? 0
        }
        return run(options, stdin: stdin, stdout: stdout, stderr: stderr)
    }

    /// Processes the inputs named by `options`.
    package static func run(_ options: Options, stdin: Int32, stdout: Int32, stderr: Int32) -> Int32 {
        let processor = RecordProcessor(
            terminator: options.nullTerminated ? 0 : 0x0A, policy: options.policy)
        var writer = ChipWriter(
            format: options.format, out: OutputBuffer(fd: stdout), policy: options.policy,
            summarize: options.summary, smtpUTF8: options.smtpUTF8)
        writer.recordNumbers = options.recordNumbers
        writer.records.summaryWidth = options.width
        writer.errorFD = stderr
        var totals = RunTotals()
        var status: Int32 = 0
        let jobs = options.jobs ?? CLI.coreCount
        let parallel = ParallelProcessor(
            jobs: jobs, terminator: options.nullTerminated ? 0 : 0x0A, policy: options.policy,
            format: options.format, summarize: options.summary, recordNumbers: options.recordNumbers,
            smtpUTF8: options.smtpUTF8, summaryWidth: options.width)
        var contactRecords: ContactRecords?
        if !options.contacts.isEmpty {
            var errors = OutputBuffer(fd: stderr, capacity: 1 << 12)
            let (directory, loaded) = AddressBooks.load(
                options.contacts, charset: nil, command: "chipify", errors: &errors.buffer)
            errors.flush()
            status = loaded
            contactRecords = ContactRecords(
                resolver: ContactResolver(directory: directory), policy: options.policy,
                terminator: options.nullTerminated ? 0 : 0x0A)
        }
        let files = options.files.isEmpty ? ["-"] : options.files
        for file in files {
            if writer.failed { break }  // nowhere to write: reported below
            let fd: Int32
            if file == "-" {
                fd = stdin
            } else {
                fd = open(file, O_RDONLY)
                if fd < 0 {
                    writer.flush()
                    writeAll(stderr, "chipify: cannot open '\(file)': \(errorText(errno))\n")
                    status = 1
                    continue
                }
            }
            let failed: Int32?
            if let resolver = contactRecords {
                failed = resolver.run(fd: fd, writer: &writer, totals: &totals)
            } else if jobs > 1 {
                // A file's bytes are there to read: asked of a pipe or a
                // terminal only (a poll(2) a piece cost about 1 % at -j 2).
                let file = isRegularFile(fd)
                failed = parallel.run(
                    read: { readSome(fd, $0, $1) }, ready: { file || inputIsReady(fd) },
                    writer: &writer, totals: &totals)
            } else {
                failed = processor.run(fd: fd, writer: &writer, totals: &totals)
            }
            if let failure = failed {
                writer.flush()
                writeAll(stderr, "chipify: cannot read '\(file)': \(errorText(failure))\n")
                status = 1
            }
            if fd != stdin { close(fd) }
        }
        if options.summary {
            writer.records.output.appendString(options.format == .jsonl ? writer.summary.json : writer.summary.text)
        }
        writer.flush()
        // A chip left out of a header fails the check as an error chip does.
        if options.check && (totals.errors > 0 || writer.omittedCount > 0) && status == 0 { status = 1 }
        return writer.finalStatus(status, stderr: stderr)
    }

    /// Runs on bytes in memory and returns what would be written, reading
    /// at most `readSize` bytes at a time: for tests and for hosts that
    /// want the formats without a process.
    /// With `options.jobs` above 1, runs the parallel path with pieces of
    /// `pieceSize` bytes.
    package static func render(
        _ input: [UInt8], options: Options, readSize: Int = 1 << 20, pieceSize: Int = 4 << 20
    ) -> [UInt8] {
        let processor = RecordProcessor(
            terminator: options.nullTerminated ? 0 : 0x0A, policy: options.policy, readSize: readSize)
        var writer = ChipWriter(
            format: options.format, out: OutputBuffer(fd: -1), policy: options.policy,
            summarize: options.summary, smtpUTF8: options.smtpUTF8)
        writer.recordNumbers = options.recordNumbers
        writer.records.summaryWidth = options.width
        var totals = RunTotals()
        var offset = 0
        let read = { (p: UnsafeMutableRawPointer, count: Int) -> Int in
            let n = min(count, readSize, input.count - offset)
            input.withUnsafeBytes { raw in
                if n > 0 { p.copyMemory(from: raw.baseAddress! + offset, byteCount: n) }
            }
            offset += n
            return n
        }
        if let jobs = options.jobs, jobs > 1 {
            let parallel = ParallelProcessor(
                jobs: jobs, pieceSize: pieceSize, terminator: options.nullTerminated ? 0 : 0x0A,
                policy: options.policy, format: options.format, summarize: options.summary,
                recordNumbers: options.recordNumbers, smtpUTF8: options.smtpUTF8, summaryWidth: options.width)
            _ = parallel.run(read: read, ready: { offset < input.count }, writer: &writer, totals: &totals)
        } else {
            _ = processor.run(read: read, writer: &writer, totals: &totals)
        }
        if options.summary {
            writer.records.output.appendString(options.format == .jsonl ? writer.summary.json : writer.summary.text)
        }
        return writer.bytes()
    }
}
