#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit
import ChipTestSupport
import ChipDirectoryTestSupport

// chipify-bench: benchmarks for Chipify, and the corpus generator.

let usage = "Usage: chipify-bench [--json] [--file PATH] [--size SIZE] [--samples N] [--allow-debug] [SCENARIO...] | corpus --size SIZE [--seed N] [--shape S] | contacts --count N --format F [--seed S] | shapes-chart TABLE OUT.svg | list | --svg DIR [--real FILE] [--peers generated|real=TABLE ...]"

let help = """
    chipify-bench: measures Chipify.

    \(usage)

    Scenarios (all when none is named):
      batch/synthetic   scan + recognize a generated corpus (--size, default 20MB), library only
      batch/corpus      the same on --file PATH
      batch/index       the structural index alone (stages 1 and 2, no recognition)
                        on the corpus in use: generated, or --file PATH
      cli/jsonl         chipify -j 1 --format jsonl on the corpus file, in process, output to /dev/null
      cli/text          chipify -j 1 --format text
      cli/tsv           chipify -j 1 --format tsv
      cli/summary       chipify -j 1 --summary
      library/jsonl     a host's ChipRecordWriter.write(record:_:), a record at a time, JSON Lines
      library/summary   the same, counting (--summary)
      library/parse     a host's AddressList.parse(_:policy:), a record at a time, chips as values
      library/parser    the same with one AddressList.Parser for every record
      parallel/jsonl    chipify --format jsonl on every core (-j = cores)
      parallel/summary  chipify --summary on every core
      memory/chip       resident bytes per parsed chip (300,000 chips kept, measured once)
      memory/field/100000  resident bytes per chip of a composer's field into which
                        100,000 addresses were typed key by key, undo history on;
                        what the history adds (dropped by sending) and what it
                        counts; the peak while typing; and the peak of one 1 MB
                        paste per chip it makes (measured once)
      keystroke/10      one keystroke typing the next address into a field of 10 chips
      keystroke/1000    … of 1,000 chips
      keystroke/100000  … of 100,000 chips
      paste/1mb         pasting 1 MB of addresses into an empty field
      paste/1mb-into-100000  … into a field of 100,000 chips
      move/100000       moving one chip from the front to the back of 100,000
      delete/100000     deleting one chip from the middle of 100,000
      layout/insert/10000  re-laying out 10,000 chips in wrapped rows after one
                        insertion near the end and near the start (and from scratch)
      contacts/vcard40  importing 100,000 generated contacts written as vCard 4.0, library only
      contacts/vcard21  … as vCard 2.1 (quoted-printable)
      contacts/google   … as Google Contacts CSV
      directory/build/100000  building the suggestion index of 100,000 generated
                        contacts (imported from vCard): time, and memory per contact
      directory/build/1000000  … of 1,000,000
      directory/import/100000  importing 100,000 generated contacts from a
                        vCard file a piece at a time into a directory: time,
                        and per contact the peak memory, what the directory
                        holds, and the peak above it; also the file read whole
                        first (directory/import-whole/N), for comparison
                        (measured once)
      directory/import/1000000  … of 1,000,000
      suggest/100000    one keystroke's query (1 to 3 letters) against 100,000
                        contacts; also warm (each query repeated, its fastest),
                        of two words (`jo sm`) and by scanning every contact;
                        names the slowest queries and what makes up the p99
      suggest/1000000   … against 1,000,000
      group/tap/100     one tap in a multi-select chip group of 100 options
      group/tap/10000   … of 10,000 options
      compose/redraw/1000  one keystroke in chipify compose with 1,000 chips in the
                        field: the operation, the screen drawn from the state, the
                        changed rows' bytes (80×24)
      compose/draft-save/100000  saving the draft of a compose session with
                        100,000 varied chips: the snapshot encoded as JSON
                        (the write to disk is not timed)

    Each scenario runs warm-ups, then samples; prints min, median, p90, p99,
    max per run, MB/s at the median, and a checksum of the work. --json prints
    one JSON object per scenario per line. Refuses a debug build unless
    --allow-debug. 'corpus' writes the deterministic corpus to standard output;
    'contacts' writes a generated address book (see 'chipify-bench contacts --help').
    --svg DIR measures the filter on the generated corpus and on FILE (default
    Corpus/real/debian-maintainers.txt) repeated to SIZE, and keystrokes at 10,
    1,000 and 100,000 chips, and writes DIR/throughput.svg (with the peers of
    each table written by Benchmarks/peers/run_peers.sh) and DIR/keystroke.svg.
    'shapes-chart TABLE OUT.svg' draws the table of Benchmarks/peers/run_shapes.sh
    (chipify over GMime by shape of list) as a bar chart.

    """

func fail(_ message: String) -> Never {
    let text = "Error: \(message)\n\(usage)\nSee 'chipify-bench --help'.\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(64)
}

func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
}

// memory/chip and memory/field first: they measure growth of resident
// memory, which pages freed by earlier scenarios would hide.
let allScenarios = [
    "memory/chip", "memory/field/100000", "batch/synthetic", "batch/corpus", "batch/index", "cli/jsonl", "cli/text", "cli/tsv", "cli/summary",
    "library/jsonl", "library/summary", "library/parse", "library/parser",
    "parallel/jsonl", "parallel/summary",
    "keystroke/10", "keystroke/1000", "keystroke/100000", "paste/1mb", "paste/1mb-into-100000",
    "move/100000", "delete/100000", "layout/insert/10000", "contacts/vcard40", "contacts/vcard21", "contacts/google",
    "directory/build/100000", "directory/build/1000000", "directory/import/100000", "directory/import/1000000", "suggest/100000", "suggest/1000000",
    "group/tap/100", "group/tap/10000", "compose/redraw/1000", "compose/draft-save/100000",
]

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "corpus" {
    exit(runCorpusCommand(arguments.dropFirst()))
}
if arguments.first == "contacts" {
    exit(runContactsCommand(arguments.dropFirst()))
}
if arguments.first == "shapes-chart" {
    exit(runShapesChart(arguments.dropFirst()))
}
if arguments.first == "list" {
    for s in allScenarios { say(s) }
    exit(0)
}

var json = false
var svgDirectory: String?
var peerTables: [(corpus: String, path: String)] = []
var realCorpusPath = "Corpus/real/debian-maintainers.txt"
var file: String?
var size = 20_000_000
var samples: Int?
var allowDebug = false
var chosen: [String] = []
var i = 0
while i < arguments.count {
    let a = arguments[i]
    func value() -> String {
        i += 1
        guard i < arguments.count else { fail("option '\(a)' needs a value") }
        return arguments[i]
    }
    switch a {
    case "--json": json = true
    case "--svg": svgDirectory = value()
    case "--real": realCorpusPath = value()
    case "--peers":
        let v = value()
        guard let eq = v.firstIndex(of: "="), eq != v.startIndex else { fail("--peers takes CORPUS=FILE, not '\(v)'") }
        peerTables.append((String(v[..<eq]), String(v[v.index(after: eq)...])))
    case "--file": file = value()
    case "--size":
        let v = value()
        guard let n = parseSize(v) else { fail("bad size '\(v)'") }
        size = n
    case "--samples":
        let v = value()
        guard let n = Int(v), n > 0 else { fail("bad sample count '\(v)'") }
        samples = n
    case "--allow-debug": allowDebug = true
    case "-h", "--help":
        say(help)
        exit(0)
    default:
        if a.hasPrefix("-") { fail("unknown option '\(a)'") }
        guard allScenarios.contains(a) else { fail("unknown scenario '\(a)' (see 'chipify-bench list')") }
        chosen.append(a)
    }
    i += 1
}

#if DEBUG
if !allowDebug {
    fail("this is a debug build; measure with 'swift run -c release chipify-bench' or pass --allow-debug")
}
#endif

if let svgDirectory {
    exit(drawCharts(dir: svgDirectory, size: size, samples: samples, realPath: realCorpusPath, peers: peerTables))
}

if chosen.isEmpty {
    chosen = allScenarios.filter { $0 != "batch/corpus" || file != nil }
}

/// Parses 20MB, 1GiB, 5000 and friends.
func parseSize(_ text: String) -> Int? {
    let units: [(String, Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10),
                                  ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000)]
    for (suffix, factor) in units where text.hasSuffix(suffix) {
        return Int(text.dropLast(suffix.count)).map { $0 * factor }
    }
    return Int(text)
}

// memory/chip before anything else allocates: it reads the growth of
// resident memory, which pages freed by a setup would hide.
if chosen.contains("memory/chip") {
    let name = "memory/chip"
    // One measurement: a second would reuse the pages the first freed.
    let stats = Stats([bytesPerChip(count: 300_000)])
    let result = Result(name: name, unit: "bytes/chip", stats: stats, bytes: 0, checksum: 300_000)
    if json {
        say(report(result, json: true))
    } else {
        say("\(name.padding(20)) \(formatDouble(stats.median, decimals: 1)) bytes per chip (resident memory growth over 300,000 chips kept)")
    }
}

if chosen.contains("memory/field/100000") {
    let (results, lines) = fieldMemoryScenario(count: 100_000)
    if json {
        for r in results { say(report(r, json: true)) }
    } else {
        for line in lines { say(line) }
    }
}

// Setup, not timed: the corpus in memory and, for the CLI, in a file.
let needsCorpus = chosen.contains {
    $0.hasPrefix("batch/") || $0.hasPrefix("cli/") || $0.hasPrefix("parallel/") || $0.hasPrefix("library/")
}
var corpus: [UInt8] = []
var corpusPath = file ?? ""
if needsCorpus {
    if let file {
        guard let bytes = readFile(file) else { fail("cannot read '\(file)'") }
        corpus = bytes
    } else {
        corpus = generateCorpus(size: size, seed: 1)
        guard let path = temporaryFile(corpus) else { fail("cannot create a temporary file") }
        corpusPath = path
    }
}
defer { if file == nil && !corpusPath.isEmpty { unlink(corpusPath) } }

for name in chosen {
    let n = samples ?? 10
    var scenario: Scenario
    switch name {
    case "batch/synthetic", "batch/corpus":
        let bytes = corpus
        scenario = Scenario(name: name, bytes: bytes.count, warmups: 2, samples: n) { scanAndRecognize(bytes) }
    case "batch/index":
        let bytes = corpus
        scenario = Scenario(name: name, bytes: bytes.count, warmups: 2, samples: n) { indexRecords(bytes).checksum }
    case "cli/jsonl", "cli/text", "cli/tsv":
        let format = String(name.dropFirst(4))
        let path = corpusPath
        scenario = Scenario(name: name, bytes: corpus.count, warmups: 1, samples: n) {
            runCLI(["-j", "1", "--format", format, path])
        }
    case "cli/summary":
        let path = corpusPath
        scenario = Scenario(name: name, bytes: corpus.count, warmups: 1, samples: n) {
            runCLI(["-j", "1", "--summary", path])
        }
    case "library/jsonl", "library/summary":
        // As a host that imports only ChipKit writes records it holds.
        let records = corpus.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let summarize = name == "library/summary"
        scenario = Scenario(name: name, bytes: corpus.count, warmups: 1, samples: n) {
            var writer = ChipRecordWriter(format: .jsonl, summarize: summarize)
            var checksum: UInt64 = 0
            for (k, record) in records.enumerated() {
                writer.write(record: k + 1, record)
                checksum &+= UInt64(writer.output.count)
                writer.output.removeAll()
            }
            return checksum &+ UInt64(writer.summary.chips)
        }
    case "library/parse", "library/parser":
        let records = corpus.split(separator: 0x0A, omittingEmptySubsequences: false)
        let reused = name == "library/parser"
        scenario = Scenario(name: name, bytes: corpus.count, warmups: 1, samples: n) {
            // One parser for the run when reused (as a host keeps one).
            var parser = reused ? AddressList.Parser() : nil
            var checksum: UInt64 = 0
            for record in records {
                let chips = parser?.parse(record) ?? AddressList.parse(record)
                for chip in chips { checksum &+= UInt64(chip.byteRange.upperBound) }
            }
            return checksum
        }
    case "parallel/jsonl", "parallel/summary":
        let path = corpusPath
        let arguments = name == "parallel/jsonl" ? ["--format", "jsonl", path] : ["--summary", path]
        scenario = Scenario(name: name, bytes: corpus.count, warmups: 1, samples: n) { runCLI(arguments) }
    case "contacts/vcard40", "contacts/vcard21", "contacts/google":
        let format = ContactCorpus.Format(rawValue: String(name.dropFirst(9)))!
        let bytes = ContactCorpus.write(ContactCorpus.contacts(count: 100_000, seed: 1), as: format, seed: 1).bytes
        scenario = Scenario(name: name, bytes: bytes.count, warmups: 1, samples: n) { importContacts(bytes) }
    case "directory/build/100000", "directory/build/1000000":
        let count = Int(name.split(separator: "/").last!)!
        for r in directoryBuildScenario(count: count, samples: samples ?? (count > 100_000 ? 2 : 5)) {
            say(report(r, json: json))
        }
        continue
    case "directory/import/100000", "directory/import/1000000":
        let (results, lines) = directoryImportScenario(count: Int(name.split(separator: "/").last!)!)
        if !json { lines.forEach(say) }
        for r in results { say(report(r, json: json)) }
        continue
    case "suggest/100000", "suggest/1000000":
        let count = Int(name.split(separator: "/").last!)!
        for r in suggestScenario(count: count, samples: samples ?? 5_000, scanSamples: count > 100_000 ? 5 : 20) {
            say(report(r, json: json))
        }
        continue
    case "memory/chip", "memory/field/100000":
        continue  // measured before any setup, above
    case "keystroke/10", "keystroke/1000", "keystroke/100000":
        say(report(keystrokeScenario(chips: Int(name.dropFirst(10))!, samples: samples ?? 2_000), json: json))
        continue
    case "paste/1mb":
        say(report(pasteScenario(chips: 0, samples: samples ?? 10), json: json))
        continue
    case "paste/1mb-into-100000":
        say(report(pasteScenario(chips: 100_000, samples: samples ?? 10), json: json))
        continue
    case "move/100000":
        say(report(moveScenario(chips: 100_000, samples: samples ?? 500), json: json))
        continue
    case "compose/redraw/1000":
        say(report(composeRedrawScenario(chips: 1_000, samples: samples ?? 2_000), json: json))
        continue
    case "compose/draft-save/100000":
        say(report(draftSaveScenario(chips: 100_000, samples: samples ?? 10), json: json))
        continue
    case "group/tap/100", "group/tap/10000":
        let count = Int(name.split(separator: "/").last!)!
        say(report(groupTapScenario(options: count, samples: samples ?? 5_000), json: json))
        continue
    case "delete/100000":
        say(report(deleteScenario(chips: 100_000, samples: samples ?? 500), json: json))
        continue
    case "layout/insert/10000":
        for r in layoutInsertScenario(chips: 10_000, samples: samples ?? 2_000) { say(report(r, json: json)) }
        continue
    default:
        fatalError("unreachable")
    }
    say(report(measure(scenario), json: json))
}
