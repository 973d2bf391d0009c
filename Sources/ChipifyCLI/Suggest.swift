import ChipKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `chipify suggest`: the ranked suggestions a compose field would offer
/// for a query, from address books.
package enum Suggest {
    package static let usage =
        "Usage: chipify suggest --contacts FILE [--contacts FILE]... [--format jsonl|text] [--limit K] [--usage FILE] [--charset NAME] QUERY"

    package static let help = """
        \(usage)

        Prints the suggestions for QUERY, best first, one JSON object a line:
          {"rank":1,"contact":ID,"name":…,"address":…,"matched":[[start,end],…],"class":…,"matched_address":[[start,end],…]}
        "matched" are byte ranges of "name", "matched_address" of "address",
        that the query's words matched. "class" is exact, full-name-prefix,
        first-word, other-word or in-word (a query of one word, three letters
        or more, inside a word of the name or address: smith in
        johnsmith@x.org).

        \(spec.optionsHelp())\

        Problems in an address book are reported as for 'chipify contacts' and
        skipped (exit 1 after printing the suggestions). Exit 64 on usage errors.

        """

    package struct Options: Sendable, Equatable {
        package var contacts: [String] = []
        package var limit = 8
        /// `jsonl` (one object a line) or `text` (a line for people).
        package var text = false
        package var usage: String?
        package var charset: String?
        package var query: String?
        package var help = false
    }

    /// The options of `chipify suggest`, described once (``CommandSpec``).
    static let spec = CommandSpec(
        name: "chipify suggest", summary: "prints the suggestions a compose field offers for a query",
        operands: "QUERY...", options: [
        OptionSpec("contacts", value: "FILE", isFile: true, help: """
            an address book (vCard 2.1/3.0/4.0, or the CSV of Google, Outlook or Thunderbird); repeatable
            """),
        OptionSpec("format", "f", value: "FORMAT", choices: ["jsonl", "text"], help: """
            jsonl (default): one JSON object a line, as above
            text: one line a suggestion for people: rank, name <address>, (class)
            """),
        OptionSpec("limit", value: "K", help: "how many suggestions, 1 to 10000 (default 8)"),
        OptionSpec("usage", value: "FILE", isFile: true, help: """
            uses to rank by, JSON Lines: {"contact":ID,"time":SECONDS} records one use; \
            {"contact":ID,"count":N,"last":SECONDS} sets a contact's record (N a whole number to 10^9, \
            SECONDS 0 to 10^11; a bad line is named, exit 1). With "address":ADDR the line is a use of \
            that one mailbox of the contact, which ranks its row first (an address the contact does \
            not have: ignored)
            """),
        OptionSpec("charset", value: "NAME", help: "the charset of address books that name none and are not UTF-8"),
        .help, .version,
    ])

    package static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var o = Options()
        for given in parsed.options {
            let v = given.value ?? ""
            switch given.name {
            case "contacts": o.contacts.append(v)
            case "usage": o.usage = v
            case "charset":
                guard Charset(label: v) != nil else { throw UsageError(message: "unknown charset '\(v)'") }
                o.charset = v
            case "limit": o.limit = try OptionValue.suggestionLimit(v)
            case "format":
                switch v {
                case "jsonl": o.text = false
                case "text": o.text = true
                default: throw UsageError(message: "unknown format '\(v)' (expected jsonl or text)")
                }
            case "help": o.help = true
            default: break
            }
        }
        if o.help { return o }
        guard !o.contacts.isEmpty else { throw UsageError(message: "suggest needs --contacts FILE") }
        guard !parsed.operands.isEmpty else { throw UsageError(message: "suggest needs a QUERY") }
        o.query = parsed.operands.joined(separator: " ")
        return o
    }

    package static func main(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Int32 {
        let (parsed, exit) = subcommandOptions(
            arguments, parse: parse, isHelp: \.help, usage: usage, help: help, command: "suggest", stdout: stdout, stderr: stderr)
        guard let options = parsed else { return exit }
        var errors = OutputBuffer(fd: stderr, capacity: 1 << 12)
        var (directory, status) = AddressBooks.load(
            options.contacts, charset: options.charset, command: "chipify suggest", errors: &errors.buffer)
        if let usageFile = options.usage {
            switch readWholeInput(usageFile, stdin: nil, skippingBOM: true) {
            case .failure(let failure):
                errors.buffer.appendString("chipify suggest: \(failure.message)\n")
                status = 1
            case .success(let bytes):
                switch AddressBooks.applyUsage(bytes, to: directory) {
                case .success(let d): directory = d
                case .failure(let failure):
                    errors.buffer.appendString("chipify suggest: \(usageFile): \(failure.message)\n")
                    status = 1
                }
            }
        }
        errors.flush()
        var out = OutputBuffer(fd: stdout)
        for (rank, s) in directory.suggestions(for: options.query ?? "", limit: options.limit).enumerated() {
            if options.text {
                appendText(s, rank: rank + 1, &out.buffer)
                continue
            }
            out.buffer.append("{\"rank\":")
            out.buffer.appendDecimal(rank + 1)
            out.buffer.append(",")
            appendFields(s, &out.buffer)
            out.buffer.append("}\n")
        }
        out.flush()
        return writeFailureStatus(out, stderr: stderr) ?? status
    }

    /// A suggestion's keys: `contact`, `name`, `address`, `matched`,
    /// `class`, `matched_address` (for `suggest` and replay's trace).
    static func appendFields(_ s: Suggestion, _ out: inout ByteBuffer) {
        out.append("\"contact\":")
        Contacts.appendJSON(s.contact.rawValue, &out)
        out.append(",\"name\":")
        Contacts.appendJSON(s.name, &out)
        out.append(",\"address\":")
        Contacts.appendJSON(s.address, &out)
        out.append(",\"matched\":")
        appendRanges(s.nameMatches, &out)
        out.append(",\"class\":\"")
        out.appendString(AddressBooks.name(of: s.matchClass))
        out.append("\",\"matched_address\":")
        appendRanges(s.addressMatches, &out)
    }

    /// A suggestion as a line for people: `1  Jörg Strauß <joerg@x.org>
    /// (full-name-prefix)`, the name and address escaped as the text
    /// format escapes them.
    static func appendText(_ s: Suggestion, rank: Int, _ out: inout ByteBuffer) {
        out.appendDecimal(rank)
        out.append("  ")
        let address = s.address ?? ""
        if let name = s.name, !name.isEmpty {
            Contacts.appendText(name, &out)
            out.append(" <")
            Contacts.appendText(address, &out)
            out.append(">")
        } else {
            Contacts.appendText(address, &out)
        }
        out.append("  (")
        out.appendString(AddressBooks.name(of: s.matchClass))
        out.append(")\n")
    }

    static func appendRanges(_ ranges: [Range<Int>], _ out: inout ByteBuffer) {
        out.append("[")
        for (k, r) in ranges.enumerated() {
            if k > 0 { out.append(",") }
            out.append("[")
            out.appendDecimal(r.lowerBound)
            out.append(",")
            out.appendDecimal(r.upperBound)
            out.append("]")
        }
        out.append("]")
    }
}

/// Address books named on a command line, loaded into one directory.
enum AddressBooks {
    /// Every file's contacts, in order (a later contact of the same id
    /// replaces an earlier one), read a piece at a time, and status 1 when
    /// a file could not be read or lost a record, with every problem
    /// reported as `chipify contacts` reports it (warnings too).
    static func load(
        _ files: [String], charset: String?, command: String, errors: inout ByteBuffer
    ) -> (ContactDirectory, Int32) {
        var contacts: [Contact] = []
        var status: Int32 = 0
        let options = ContactImportOptions(defaultCharset: charset)
        for file in files {
            let read = readAddressBook(
                file, stdin: nil, options: options, contacts: { contacts += $0 },
                problem: { appendProblem($0, file: file, command: command, to: &errors) })
            switch read {
            case .success(let book):
                if book.hadError { status = 1 }
            case .failure(let failure):
                errors.appendString("\(command): \(failure.message)\n")
                status = 1
            }
        }
        return (ContactDirectory(contacts), status)
    }

    /// The directory with the uses of a JSON Lines text applied.
    static func applyUsage(_ bytes: [UInt8], to directory: ContactDirectory) -> Result<ContactDirectory, UsageFileError> {
        var changed: [ContactID: Contact] = [:]
        var order: [ContactID] = []
        for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: " \t\r")
            if text.isEmpty { continue }
            let object: [String: JSONReader.Value]
            do {
                object = try JSONReader.object(Array(text.utf8))
            } catch {
                return .failure(UsageFileError(message: "line \(n + 1): \(error.message)"))
            }
            guard case .string(let idText)? = object["contact"] else {
                return .failure(UsageFileError(message: "line \(n + 1): no \"contact\""))
            }
            let id = ContactID(idText)
            guard var contact = changed[id] ?? directory.contact(id) else { continue }  // not in the books: ignored
            // Numbers in range, or the file's line is named (never a trap
            // converting 1e19 to Int).
            func number(_ key: String, _ range: ClosedRange<Double>, whole: Bool) -> Result<Double?, UsageFileError> {
                switch object[key] {
                case nil, .null?: return .success(nil)
                case .number(let d)? where range.contains(d) && (!whole || d == d.rounded(.towardZero)): return .success(d)
                default:
                    return .failure(UsageFileError(message: "line \(n + 1): \"\(key)\" must be \(whole ? "a whole number" : "a number") from \(Int(range.lowerBound)) to \(Int(range.upperBound))"))
                }
            }
            let time: Double?, count: Double?, last: Double?
            switch (number("time", Self.timeRange, whole: false), number("count", Self.countRange, whole: true),
                    number("last", Self.timeRange, whole: false)) {
            case (.success(let t), .success(let c), .success(let l)): (time, count, last) = (t, c, l)
            case (.failure(let e), _, _), (_, .failure(let e), _), (_, _, .failure(let e)): return .failure(e)
            }
            // A use of one mailbox, or of the contact (all its rows).
            var email: Int?
            switch object["address"] {
            case nil, .null?: break
            case .string(let address)?:
                let folded = SearchFold.fold(address)
                email = contact.emails.firstIndex { SearchFold.fold($0.address) == folded }
                guard email != nil else { continue }  // not the contact's: ignored
            default: return .failure(UsageFileError(message: "line \(n + 1): \"address\" must be a string"))
            }
            var usage = email.map { contact.emails[$0].usage } ?? contact.usage
            if let time {
                usage = usage.recordingUse(at: time, halfLife: directory.halfLife)
            } else if let count {
                usage = ContactUsage(count: Int(count), weight: count, last: last)
            } else {
                return .failure(UsageFileError(message: "line \(n + 1): needs \"time\" or \"count\""))
            }
            if let email { contact.emails[email].usage = usage } else { contact.usage = usage }
            if changed[id] == nil { order.append(id) }
            changed[id] = contact
        }
        return .success(directory.updating(order.map { changed[$0]! }))
    }

    /// A use's `time` and a count's `last`: seconds since 1970, up to the
    /// year 5138.
    static let timeRange: ClosedRange<Double> = 0...100_000_000_000
    /// A contact's `count` of uses.
    static let countRange: ClosedRange<Double> = 0...1_000_000_000

    struct UsageFileError: Error {
        var message: String
    }

    static func name(of c: MatchClass) -> String {
        switch c {
        case .exact: "exact"
        case .fullNamePrefix: "full-name-prefix"
        case .firstWord: "first-word"
        case .otherWord: "other-word"
        case .inWord: "in-word"
        }
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
