import Testing
@testable import ChipifyCLI
import ChipKit
import ChipTestSupport

/// The library's record writer and `chipify` write the same bytes: the CLI
/// only wires options to the writer, and a host gets the filter's output
/// without a process.
@Suite("Record writer in the library")
struct RecordWriterTests {
    static let formats: [OutputFormat] = [.text, .jsonl, .tsv, .header]

    /// The sample corpus and seeded random lists (invalid UTF-8, controls,
    /// groups and all), one record per line.
    static func inputs() -> [[UInt8]] {
        var records = (contents(packageRoot + "Corpus/samples/compose.txt"))
            .split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<300 {
            records.append(randomList(&rng, pieces: 1 + rng.below(20)).filter { $0 != 0x0A })
        }
        return records
    }

    /// Writes each record with the library, as chipify numbers them.
    static func library(_ records: [[UInt8]], _ format: OutputFormat, summarize: Bool = false) -> [UInt8] {
        var writer = ChipRecordWriter(format: format, summarize: summarize)
        for (k, record) in records.enumerated() { writer.write(record: k + 1, record) }
        if summarize {
            // The records' bytes are counted; chipify also counts the line
            // breaks between them, which it read.
            #expect(writer.summary.bytes == records.reduce(0) { $0 + $1.count })
            writer.summary.bytes += records.count - 1
            writer.output.appendString(format == .jsonl ? writer.summary.json : writer.summary.text)
        }
        return writer.output.bytes
    }

    @Test(arguments: formats)
    func libraryWritesWhatChipifyPrints(_ format: OutputFormat) throws {
        let records = Self.inputs()
        #expect(records.count > 300)
        let input = Array(records.joined(separator: [0x0A]))
        let cli = CLI.render(input, options: try CLI.parse(["-j", "1", "--format", format.rawValue]))
        let lib = Self.library(records, format)
        #expect(!lib.isEmpty)
        #expect(lib.count == cli.count)
        #expect(lib == cli, "\(format): library and chipify differ")
    }

    @Test(arguments: [OutputFormat.text, .jsonl])
    func librarySummaryIsChipifySummary(_ format: OutputFormat) throws {
        let records = Self.inputs()
        let input = Array(records.joined(separator: [0x0A]))
        let cli = CLI.render(input, options: try CLI.parse(["-j", "1", "--summary", "--format", format.rawValue]))
        let lib = Self.library(records, format, summarize: true)
        #expect(String(decoding: lib, as: UTF8.self) == String(decoding: cli, as: UTF8.self))
    }

    /// A host writing record by record gets `chipify`'s bytes on real
    /// lists too, where most chips take the lane (the writer reads a
    /// record as `chipify` does, its recognizer kept from record to
    /// record), and on records the index declines (a tab or CR inside).
    @Test(arguments: [OutputFormat.jsonl, .text, .tsv])
    func libraryWritesWhatChipifyPrintsOnRealLists(_ format: OutputFormat) throws {
        var records = contents(packageRoot + "Corpus/real/debian-maintainers.txt")
            .split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if records.last == [] { records.removeLast() }
        #expect(records.count > 7_000)
        // Declined by the index, read by the scanner: a tab, a CR, a
        // record longer than the index holds.
        records[10] = Array("Ann <ann@x.org>,\tBob <bob@y.org>".utf8).map { $0 == 0x5C ? 0x09 : $0 }
        records[11] = Array("Ann <ann@x.org>\r, bob@y.org".utf8).map { $0 == 0x5C ? 0x0D : $0 }
        records[12] = Array(repeating: Array("Ann Lee <ann@example.org>, ".utf8), count: 200).flatMap { $0 }
        let input = Array(records.joined(separator: [0x0A]))
        let cli = CLI.render(input, options: try CLI.parse(["-j", "1", "--format", format.rawValue]))
        let lib = Self.library(records, format)
        #expect(lib.count > 500_000)
        #expect(lib == cli, "\(format): library and chipify differ on the real lists")
        guard format != .tsv else { return }
        let summary = Self.library(records, format, summarize: true)
        let cliSummary = CLI.render(input, options: try CLI.parse(["-j", "1", "--summary", "--format", format.rawValue]))
        #expect(String(decoding: summary, as: UTF8.self) == String(decoding: cliSummary, as: UTF8.self))
    }

    /// A construct left open past the policy's longest chip (a quote, a
    /// comment, an angle, a domain literal) makes one `too-long` chip to
    /// the record's end, in the library as in `chipify`: the default limit
    /// on a 70,000-byte record, and seeded random lists under small limits.
    @Test(arguments: [0, 16, 20, 40, 100])
    func anUnclosedConstructPastTheLimitIsOneChip(_ limit: Int) throws {
        var options = try CLI.parse(["-j", "1", "--format", "jsonl"])
        var records: [[UInt8]] = []
        if limit == 0 {
            for open in ["\"", "(", "Ann <", "a@["] {
                records.append(Array(open.utf8) + Array(repeating: UInt8(ascii: "a"), count: 70_000) + Array(", b@x.org".utf8))
            }
        } else {
            options.policy.maxChipBytes = limit
            var rng = SplitMix64(seed: UInt64(limit))
            for _ in 0..<400 { records.append(randomList(&rng, pieces: 1 + rng.below(8)).filter { $0 != 0x0A }) }
            records.append(Array("\"abcdefghijklmnopqrstuvwxyz, b@x.org".utf8))
        }
        let input = Array(records.joined(separator: [0x0A]))
        let cli = CLI.render(input, options: options)
        var writer = ChipRecordWriter(format: .jsonl, policy: options.policy)
        for (k, record) in records.enumerated() { writer.write(record: k + 1, record) }
        #expect(!cli.isEmpty)
        #expect(writer.output.bytes == cli, "limit \(limit)")
        if limit == 0 { #expect(jsonLines(cli).count == 4) }
    }

    /// Chips a host holds (from `AddressList.parse`) are written as chipify
    /// writes them, when the text is valid UTF-8 (a chip's name was already
    /// repaired where it was not).
    @Test(arguments: formats)
    func parsedChipsAreWrittenAsChipifyWritesThem(_ format: OutputFormat) throws {
        let records = Self.inputs().filter { String(validating: $0, as: UTF8.self) != nil }
        #expect(records.count > 100)
        var writer = ChipRecordWriter(format: format)
        for (k, record) in records.enumerated() {
            for (i, chip) in AddressList.parse(record).enumerated() { writer.write(chip, record: k + 1, index: i) }
            writer.endRecord()
        }
        let input = Array(records.joined(separator: [0x0A]))
        let cli = CLI.render(input, options: try CLI.parse(["-j", "1", "--format", format.rawValue]))
        let lines = writer.output.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let want = cli.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.count == want.count)
        for (got, expected) in zip(lines, want) where got != expected {
            Issue.record("\(format): \(String(decoding: got, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
            break
        }
    }

    /// The buffer is a value: a copy does not see later appends.
    @Test func byteBufferCopiesOnWrite() {
        var a = ByteBuffer(capacity: 4)
        a.append(contentsOf: Array("abc".utf8))
        let b = a
        a.append(contentsOf: Array("defghijk".utf8))
        a.appendDecimal(-1234567890123)
        #expect(b.bytes == Array("abc".utf8))
        #expect(a.bytes == Array("abcdefghijk-1234567890123".utf8))
        var c = a
        c.removeAll()
        #expect(c.isEmpty && a.count == 25)
        var d = ByteBuffer()
        d.appendDecimal(Int.min)
        #expect(d.bytes == Array(String(Int.min).utf8))
    }
}

/// `--summary` counts every warning and error the chips carry: the same
/// counts as adding up the JSON Lines, on the corpus, the real lists, and
/// names in charsets that are not decoded.
@Suite("Summary counts what the chips carry")
struct SummaryCountTests {
    @Test func summaryEqualsTheSumOfTheChips() throws {
        var input = contents(packageRoot + "Corpus/samples/compose.txt")
        input += contents(packageRoot + "Corpus/real/debian-maintainers.txt")
        input += Array("=?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>, =?x-unknown?Q?abc?= <b@y.org>\n".utf8)
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200 { input += randomList(&rng, pieces: 1 + rng.below(12)).filter { $0 != 0x0A } + [0x0A] }
        let chips = jsonLines(CLI.render(input, options: try CLI.parse(["-j", "1", "--format", "jsonl"])))
        let line = CLI.render(input, options: try CLI.parse(["-j", "1", "--summary", "--format", "jsonl"]))
        let summary = try #require(MiniJSON.object(Array(line.prefix { $0 != 0x0A })))
        var warnings: [String: Int] = [:]
        var errors: [String: Int] = [:]
        for chip in chips {
            if case .array(let list)? = chip["warnings"] { for w in list { warnings[w.text ?? "?", default: 0] += 1 } }
            if let e = chip["error"]?.text { errors[e, default: 0] += 1 }
        }
        #expect(warnings["undecoded-encoded-word", default: 0] >= 2)
        guard case .object(let byWarning)? = summary["warnings"], case .object(let byReason)? = summary["errors_by_reason"] else {
            Issue.record("summary lacks its tables")
            return
        }
        for (code, count) in byWarning { #expect(count.int == warnings[code, default: 0], "warning \(code)") }
        for (code, count) in byReason { #expect(count.int == errors[code, default: 0], "error \(code)") }
        #expect(summary["chips"]?.int == chips.count)
    }
}
