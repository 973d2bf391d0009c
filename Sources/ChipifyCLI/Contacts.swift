import ChipKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `chipify contacts`: imports address books (vCard 2.1, 3.0, 4.0, and the
/// CSV of Google Contacts, Outlook and Thunderbird) and prints their
/// contacts, so an export can be checked before a host loads it.
package enum Contacts {
    /// The one-line synopsis, shown with usage errors.
    package static let usage = "Usage: chipify contacts [--format jsonl|text] [--strict] [--quiet] [--charset NAME] [FILE...]"

    /// What a contact is printed as.
    package enum Format: String, Sendable {
        case jsonl, text
    }

    /// The parsed command line of `chipify contacts`.
    package struct Options: Sendable, Equatable {
        package var format = Format.jsonl
        package var strict = false
        /// The WHATWG label of the charset of text that names none and is not UTF-8.
        package var charset: String?
        /// Whether warnings (what was repaired or dropped) are left unsaid.
        package var quiet = false
        package var files: [String] = []
        package var help = false
    }

    /// What `chipify contacts --help` prints.
    package static let help = """
        chipify contacts: reads address books and prints their contacts.

        \(usage)

        Reads each FILE (or standard input when none is given, or for '-'): vCard
        2.1, 3.0 or 4.0 (one or more cards), or the CSV that Google Contacts,
        Outlook or Thunderbird export, found from the text. Prints one line per
        contact, in file order; for CSV, one list per category follows the rows.

        \(spec.optionsHelp())\

        Files are read a piece at a time, so a large address book is never held
        whole. A card or row that cannot be read is skipped and reported on
        standard error as 'chipify contacts: FILE:LINE: reason'; what was
        repaired or dropped while the contact was kept (an address that is not
        one, a card without its END, ...) as 'FILE:LINE: warning: reason', and
        the charset a CSV was read in when it is not UTF-8 as 'FILE: note: ...'.
        Exit status: 0 success (warnings included), 1 a file that cannot be read
        or a card or row holding a name or an address that could not be
        imported (the rest is still read and printed), 64 a usage error.

        """

    /// Parses the arguments after `contacts`: options as getopt_long reads
    /// them (`--format=text`, `-ftext`), `--` before files that start with `-`.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a bad value or an
    ///   unknown charset label.
    /// The options of `chipify contacts`, described once (``CommandSpec``).
    static let spec = CommandSpec(
        name: "chipify contacts", summary: "reads address books and prints their contacts", operands: "[FILE]...",
        options: [
        OptionSpec("format", "f", value: "FORMAT", choices: ["jsonl", "text"], help: """
            jsonl (default): one JSON object per contact
            text: one readable line per contact
            """),
        OptionSpec("strict", help: """
            skip cards and rows that break the standards (no VERSION, FN or N where required, PREF \
            outside 1-100, bad property names, ...)
            """),
        OptionSpec("charset", value: "NAME", help: """
            charset of CSV text without a byte order mark, and of vCard values that name none and are \
            not UTF-8 (a WHATWG label; default: detected, else windows-1252)
            """),
        OptionSpec("quiet", "q", help: "do not report warnings"),
        .help, .version,
    ])

    package static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var o = Options()
        o.files = parsed.operands
        for given in parsed.options {
            let v = given.value ?? ""
            switch given.name {
            case "format":
                guard let format = Format(rawValue: v) else {
                    throw UsageError(message: "unknown format '\(v)' (expected jsonl or text)")
                }
                o.format = format
            case "charset":
                guard Charset(label: v) != nil else {
                    throw UsageError(message: "unknown charset '\(v)' (expected a WHATWG label such as windows-1252)")
                }
                o.charset = v
            case "strict": o.strict = true
            case "quiet": o.quiet = true
            case "help": o.help = true
            default: break
            }
        }
        return o
    }

    /// Runs `chipify contacts` with the arguments after `contacts`, reading
    /// standard input from `stdin` and writing to the given descriptors;
    /// returns the exit status.
    package static func main(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Int32 {
        let (parsed, exit) = subcommandOptions(
            arguments, parse: parse, isHelp: \.help, usage: usage, help: help, command: "contacts", stdout: stdout, stderr: stderr)
        guard let options = parsed else { return exit }
        var out = OutputBuffer(fd: stdout)
        var errors = OutputBuffer(fd: stderr, capacity: 1 << 12)
        let importOptions = ContactImportOptions(strict: options.strict, defaultCharset: options.charset)
        var status: Int32 = 0
        for file in options.files.isEmpty ? ["-"] : options.files {
            let read = readAddressBook(
                file, stdin: stdin, options: importOptions,
                contacts: { batch in
                    guard !out.failed else { return }
                    // Through the buffer: binding each contact to a loop variable,
                    // or the array's subscript, copied it (retains and releases
                    // of every string and array in it).
                    batch.withUnsafeBufferPointer { contacts in
                        for k in contacts.indices {
                            switch options.format {
                            case .jsonl: writeJSON(contacts[k], to: &out.buffer)
                            case .text: writeText(contacts[k], to: &out.buffer)
                            }
                            out.flushIfNeeded()
                            if out.failed { break }
                        }
                    }
                },
                problem: { p in
                    guard !(options.quiet && p.isWarning) else { return }
                    out.flush()
                    appendProblem(p, file: file, command: "chipify contacts", to: &errors.buffer)
                    errors.flush()
                })
            switch read {
            case .success(let book):
                if book.hadError { status = 1 }
                if !options.quiet, let note = charsetNote(book) {
                    out.flush()
                    errors.buffer.appendString("chipify contacts: \(file): note: \(note)\n")
                    errors.flush()
                }
            case .failure(let failure):
                out.flush()
                errors.buffer.appendString("chipify contacts: \(failure.message)\n")
                errors.flush()
                status = 1
            }
            if out.failed { break }  // nowhere to write: reported below
        }
        out.flush()
        return writeFailureStatus(out, stderr: stderr) ?? status
    }

    /// What to say about the charset a file was read in: nothing for
    /// Unicode, the charset of a CSV read from 8-bit text otherwise.
    static func charsetNote(_ book: AddressBookRead) -> String? {
        guard book.format != .vCard, book.format != .unknown, !book.textEncoding.hasPrefix("UTF-") else { return nil }
        return "not UTF-8; read as \(book.textEncoding) (--charset NAME reads it otherwise)"
    }

    /// The version a contact is reported with: a vCard's `VERSION` as
    /// written (`nil` for a card without one), `csv` for a CSV row.
    static func version(_ c: borrowing Contact) -> String? {
        switch c.source {
        case .csv, .host: c.source.rawValue
        case .vCard21, .vCard30, .vCard40: c.declaredVersion
        }
    }

    /// One contact as a JSON object, keys in a fixed order:
    /// `line`, `name`, `emails`, `preferred_email`, `emails_detail`,
    /// `phones`, `nicknames`, `org`, `kind`, `members`, `version` (`null`
    /// for a card without `VERSION`).
    static func writeJSON(_ c: borrowing Contact, to out: inout ByteBuffer) {
        out.append("{\"line\":")
        out.appendDecimal(c.line)
        out.append(",\"name\":")
        appendJSON(c.displayName, &out)
        out.append(",\"emails\":[")
        for (k, email) in c.emails.enumerated() {
            if k > 0 { out.append(ASCII.comma) }
            appendJSON(email.address, &out)
        }
        out.append("],\"preferred_email\":")
        appendJSON(c.preferredEmail?.address, &out)
        out.append(",\"emails_detail\":[")
        for (k, email) in c.emails.enumerated() {
            out.append(k > 0 ? ",{\"value\":" : "{\"value\":")
            appendJSON(email.address, &out)
            out.append(",\"types\":[")
            for (j, type) in email.types.enumerated() {
                if j > 0 { out.append(ASCII.comma) }
                appendJSON(type, &out)
            }
            out.append("],\"pref\":")
            if let pref = email.pref { out.appendDecimal(pref) } else { out.append("null") }
            out.append(UInt8(ascii: "}"))
        }
        out.append("],\"phones\":[")
        for (k, phone) in c.phones.enumerated() {
            if k > 0 { out.append(ASCII.comma) }
            appendJSON(phone, &out)
        }
        out.append("],\"nicknames\":[")
        for (k, nickname) in c.nicknames.enumerated() {
            if k > 0 { out.append(ASCII.comma) }
            appendJSON(nickname, &out)
        }
        out.append("],\"org\":")
        appendJSON(c.organization, &out)
        out.append(",\"kind\":\"")
        out.appendString(c.kind.rawValue)
        out.append("\",\"members\":[")
        for (k, member) in c.members.enumerated() {
            if k > 0 { out.append(ASCII.comma) }
            appendJSON(member, &out)
        }
        out.append("],\"version\":")
        appendJSON(version(c), &out)
        out.append("}\n")
    }

    static func appendJSON(_ s: String?, _ out: inout ByteBuffer) {
        guard var s else {
            out.append("null")
            return
        }
        let storage = out.uniqueStorage
        s.withUTF8 { JSON.appendString($0, to: storage) }
    }

    /// One contact as a line for people: the line number, the kind when it
    /// is not a person, the name (`(no name)` without one), the addresses
    /// in angle brackets (`(preferred)` after the preferred one when there
    /// are several), then `tel` phones, `aka` nicknames, `org`, the number of
    /// `members`, and the version in brackets (`no version` for a card
    /// without one). Control characters, invisible characters and invalid
    /// UTF-8 are escaped as in `chipify --format text`.
    static func writeText(_ c: borrowing Contact, to out: inout ByteBuffer) {
        out.appendDecimal(c.line)
        out.append("  ")
        if c.kind != .individual {
            out.appendString(c.kind.rawValue)
            out.append(ASCII.space)
        }
        if let name = c.displayName { appendText(name, &out) } else { out.append("(no name)") }
        let preferred = c.emails.count > 1 ? c.preferredEmailIndex : nil
        for (k, email) in c.emails.enumerated() {
            out.append(k == 0 ? "  <" : ", <")
            appendText(email.address, &out)
            out.append(k == preferred ? "> (preferred)" : ">")
        }
        if !c.phones.isEmpty {
            out.append("  tel ")
            appendText(c.phones.joined(separator: ", "), &out)
        }
        if !c.nicknames.isEmpty {
            out.append("  aka ")
            appendText(c.nicknames.joined(separator: ", "), &out)
        }
        if let org = c.organization {
            out.append("  org ")
            appendText(org, &out)
        }
        if c.kind == .group {
            out.append("  members ")
            out.appendDecimal(c.members.count)
        }
        out.append("  [")
        if let version = version(c) { appendText(version, &out) } else { out.append("no version") }
        out.append("]\n")
    }

    static func appendText(_ s: String, _ out: inout ByteBuffer) {
        var s = s
        let storage = out.uniqueStorage
        s.withUTF8 { Escaper.appendEscaped($0, forPeople: true, to: storage) }
    }
}
