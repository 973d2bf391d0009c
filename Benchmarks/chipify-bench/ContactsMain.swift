// `chipify-bench contacts`: writes a generated address book to standard
// output, in any format the importer reads. It is how the samples under
// Corpus/contacts/ are made again, and how large inputs are made for
// measuring `chipify contacts`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit
import ChipTestSupport
import ChipDirectoryTestSupport

let contactsUsage =
    "Usage: chipify-bench contacts --count N --format vcard40|vcard30|vcard21|google|outlook|thunderbird [--seed S]"

/// The parsed arguments of `chipify-bench contacts`.
struct ContactsArguments: Equatable {
    var count: Int
    var format: ContactCorpus.Format
    var seed: UInt64 = 1
}

enum ContactsCommand: Equatable {
    case run(ContactsArguments)
    case help
    case invalid(String)
}

/// Parses the arguments after `contacts`; `--name value` and `--name=value` both work.
func parseContactsArguments(_ args: ArraySlice<String>) -> ContactsCommand {
    var count: Int?
    var format: ContactCorpus.Format?
    var seed: UInt64 = 1
    var remaining = args
    while let argument = remaining.popFirst() {
        if argument == "-h" || argument == "--help" { return .help }
        var name = argument
        var value: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            value = String(argument[argument.index(after: equals)...])
        }
        guard ["--count", "--format", "--seed"].contains(name) else { return .invalid("unknown argument '\(argument)'") }
        if value == nil { value = remaining.popFirst() }
        guard let value else { return .invalid("option '\(name)' needs a value") }
        switch name {
        case "--count":
            guard let n = Int(value), n >= 0, n <= 100_000_000 else {
                return .invalid("bad count '\(value)' (expected 0 to 100000000)")
            }
            count = n
        case "--format":
            guard let f = ContactCorpus.Format(rawValue: value) else {
                return .invalid("unknown format '\(value)' (expected vcard40, vcard30, vcard21, google, outlook or thunderbird)")
            }
            format = f
        default:
            guard let s = UInt64(value) else { return .invalid("bad seed '\(value)' (expected an unsigned 64-bit integer)") }
            seed = s
        }
    }
    guard let count else { return .invalid("missing required option '--count'") }
    guard let format else { return .invalid("missing required option '--format'") }
    return .run(ContactsArguments(count: count, format: format, seed: seed))
}

/// Runs `chipify-bench contacts`; returns 0, 64 (usage) or 74 (a failed write).
func runContactsCommand(_ args: ArraySlice<String>) -> Int32 {
    switch parseContactsArguments(args) {
    case .help:
        writeAllText(STDOUT_FILENO, """
            \(contactsUsage)

            Writes N generated contacts (people in many scripts, organizations, lists)
            to standard output in one format: vCard 4.0, 3.0 or 2.1, or the CSV of
            Google Contacts, Outlook or Thunderbird. The same seed gives the same bytes
            everywhere; the samples in Corpus/contacts/ are --count 50 --seed 1.

            """)
        return 0
    case .invalid(let message):
        writeAllText(STDERR_FILENO, "Error: \(message)\n\(contactsUsage)\nSee 'chipify-bench contacts --help'.\n")
        return 64
    case .run(let a):
        let file = ContactCorpus.write(ContactCorpus.contacts(count: a.count, seed: a.seed), as: a.format, seed: a.seed)
        let failure = file.bytes.withUnsafeBytes { writeAllBytes(STDOUT_FILENO, $0) }
        guard failure == 0 else {
            writeAllText(STDERR_FILENO, "Error: cannot write the contacts to standard output: \(String(cString: strerror(failure)))\n")
            return 74
        }
        // Freeing a million contacts one by one would take a good part of a
        // second; the process is done with them.
        exit(0)
    }
}

/// Imports `bytes` with the library; the checksum mixes the counts of
/// contacts, addresses and problems.
func importContacts(_ bytes: [UInt8]) -> UInt64 {
    let result = ContactImporter.import(bytes)
    var checksum = UInt64(result.contacts.count) &* 1_000_003 &+ UInt64(result.problems.count)
    for c in result.contacts { checksum = checksum &* 31 &+ UInt64(c.emails.count) }
    return checksum
}

/// Writes all of `raw`, retrying after partial writes and EINTR. Returns 0 or the errno.
func writeAllBytes(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n > 0 {
            offset += n
        } else if n < 0 && errno == EINTR {
            continue
        } else {
            return n < 0 ? errno : EIO
        }
    }
    return 0
}

func writeAllText(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { _ = writeAllBytes(fd, UnsafeRawBufferPointer($0)) }
}
