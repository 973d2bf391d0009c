#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit
import ChipifyCLI
import ChipTestSupport

/// Generates `size` bytes of corpus with `seed` in memory (setup, not timed).
func generateCorpus(size: Int, seed: UInt64) -> [UInt8] {
    var generator = CorpusGenerator(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(size + 65_536)
    generator.generate(byteCount: size) { out.append(contentsOf: $0) }
    return out
}

/// Scans and recognizes every line of `bytes` with the library alone, no
/// output: the work `chipify --summary` does. Returns a checksum mixing the
/// chip count with every error's reason and position.
func scanAndRecognize(_ bytes: [UInt8], policy: ValidationPolicy = .standard) -> UInt64 {
    var checksum: UInt64 = 0
    bytes.withUnsafeBufferPointer { p in
        var list = ListRecognizer(policy: policy)
        var segments: [Segment] = []
        var start = 0
        let n = p.count
        while start < n {
            var end = start
            if let hit = memchr(p.baseAddress! + start, 0x0A, n - start) {
                end = UnsafeRawPointer(hit) - UnsafeRawPointer(p.baseAddress!)
            } else {
                end = n
            }
            let line = UnsafeBufferPointer(rebasing: p[start..<end])
            var scanner = ListScanner()
            segments.removeAll(keepingCapacity: true)
            scanner.scan(line) { segments.append($0) }
            scanner.finish { segments.append($0) }
            for segment in segments {
                guard let item = list.handle(segment, line, base: 0) else { continue }
                checksum &+= 1
                if let error = item.recognition.error {
                    checksum = (checksum &* 31) &+ UInt64(error.precedence) &+ UInt64(item.recognition.errorOffset)
                }
            }
            list.reset()
            start = end + 1
        }
    }
    return checksum
}

/// What the structural index alone made of a buffer of records.
struct IndexCount: Equatable {
    /// Records read, each ended by a line feed or by the buffer's end.
    var records = 0
    /// Records the index answered, and the entries it wrote for them.
    var answered = 0
    var entries = 0
    /// The sum of the entries' bounds as offsets in the buffer: where the
    /// entries lie, not only how many there are.
    var bounds = 0

    var checksum: UInt64 {
        UInt64(records) &* 1_000_003 &+ UInt64(answered) &* 1_009 &+ UInt64(entries) &* 31 &+ UInt64(bounds)
    }

    /// Counts a record at `start` of the buffer and its entries, if answered.
    mutating func add(start: Int, _ entries: UnsafeBufferPointer<SimpleList.Chip>?) {
        records += 1
        guard let entries else { return }
        answered += 1
        self.entries += entries.count
        for c in entries { bounds &+= 2 &* start &+ Int(c.lo) &+ Int(c.hi) }
    }
}

/// Stages 1 and 2 alone (the structural index, `SimpleList`) over every
/// record of `bytes`, read one after another from the buffer as `chipify`
/// reads them, each record's end found by the same compares that classify
/// it: no recognition, no output. The part of `cli/summary` the per-stage
/// budget calls the index, measured rather than estimated.
///
/// - Complexity: O(*n*) in the buffer's length.
func indexRecords(_ bytes: [UInt8]) -> IndexCount {
    var count = IndexCount()
    bytes.withUnsafeBufferPointer { p in
        guard let base = p.baseAddress else { return }
        withUnsafeTemporaryAllocation(of: SimpleList.Chip.self, capacity: SimpleList.maxChips) { out in
            var at = 0
            while at < p.count {
                let read = SimpleList.record(base + at, available: p.count - at, terminator: 0x0A, into: out.baseAddress!)
                count.add(start: at, read.count.map { UnsafeBufferPointer(rebasing: out[0..<$0]) })
                at += read.length + (read.terminated ? 1 : 0)
            }
        }
    }
    return count
}

/// Runs `chipify` in process with its output going to /dev/null; returns
/// the exit status mixed with the input's size (the CLI's own counts are
/// checked by its tests).
func runCLI(_ arguments: [String]) -> UInt64 {
    let devnull = open("/dev/null", O_WRONLY)
    defer { close(devnull) }
    let status = CLI.main(arguments, stdin: 0, stdout: devnull, stderr: 2)
    return UInt64(status) &+ 1
}

/// Resident memory of this process in bytes, from /proc/self/statm.
func residentBytes() -> Int {
    guard let bytes = readFile("/proc/self/statm") else { return 0 }
    let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Memory held per parsed chip (`ParsedChip`, with its raw bytes and
/// strings), measured as the growth of resident memory while `count`
/// chips are kept alive. Lists are parsed 10,000 chips at a time so the
/// transient input copies stay small next to the result.
func bytesPerChip(count: Int) -> Double {
    let kinds = ["ann.lee@example.com", "\"Lee, Ann\" <ann@example.com>", "Bob Ray <bob@example.org>"]
    var batch: [UInt8] = []
    for k in 0..<10_000 {
        batch += Array(kinds[k % kinds.count].utf8)
        batch += Array(", ".utf8)
    }
    var kept: [ParsedChip] = []
    kept.reserveCapacity(count)
    let before = residentBytes()
    while kept.count < count {
        kept += AddressList.parse(batch)
    }
    let after = residentBytes()
    // Use every chip, so none of the work can be optimized away.
    var check = 0
    for c in kept { check &+= c.raw.count &+ (c.displayName?.utf8.count ?? 0) }
    precondition(check > 0)
    return Double(after - before) / Double(kept.count)
}

/// A field holding `count` chips, made untimed.
func filledField(_ count: Int) -> ChipField {
    var f = ChipField(name: "to")
    var text: [UInt8] = []
    text.reserveCapacity(count * 24)
    for k in 0..<count { text += Array("user\(k)@example.com, ".utf8) }
    f.insert(text)
    precondition(f.count == count)
    return f
}

/// Times single operations, one sample each: `prepare` (untimed) then `op`.
func sampleOperations(
    samples: Int, warmups: Int, prepare: () -> Void = {}, _ op: () -> UInt64
) -> (Stats, UInt64) {
    let (times, checksum) = sampleOperationTimes(samples: samples, warmups: warmups, prepare: prepare, op)
    return (Stats(times), checksum)
}

/// The same, with every sample's time (ns), in the order taken.
func sampleOperationTimes(
    samples: Int, warmups: Int, prepare: () -> Void = {}, _ op: () -> UInt64
) -> ([Double], UInt64) {
    var checksum: UInt64 = 0
    var times: [Double] = []
    times.reserveCapacity(samples)
    for k in 0..<(warmups + samples) {
        prepare()
        let t0 = nowNanoseconds()
        checksum &+= op()
        let t1 = nowNanoseconds()
        if k >= warmups { times.append(Double(t1 - t0)) }
    }
    return (times, checksum)
}

/// Typing the next address key by key into the focused field of a
/// composer (undo recording included) holding `chips` chips: each sample
/// is one keystroke.
func keystrokeScenario(chips: Int, samples: Int) -> Result {
    let (times, checksum) = keystrokeTimes(chips: chips, samples: samples)
    return Result(name: "keystroke/\(chips)", unit: "ns/keystroke", stats: Stats(times), bytes: 0, checksum: checksum)
}

/// Each keystroke's time (ns) of ``keystrokeScenario(chips:samples:)``.
func keystrokeTimes(chips: Int, samples: Int) -> ([Double], UInt64) {
    var composer = Composer()
    if chips > 0 {
        composer.paste(String(decoding: (0..<chips).flatMap { Array("user\($0)@example.com, ".utf8) }, as: UTF8.self))
    }
    precondition(composer.focusedField.count == chips)
    // Distinct addresses, so no keystroke pays for the duplicate path.
    var keys: [String] = []
    for n in 0..<((samples + 200) / 30 + 1) { keys += "Next Person <next.\(n)@example.org>, ".map(String.init) }
    var k = 0
    let (times, checksum) = sampleOperationTimes(samples: samples, warmups: 200) {
        let changes = composer.type(keys[k])
        k += 1
        return UInt64(changes.count)
    }
    return (times, checksum &+ UInt64(composer.focusedField.count))
}

/// One keystroke in `chipify compose` with `chips` chips in the To field
/// (80×24): the composer operation, the screen drawn again from the state
/// (lay-out of every chip, the rows in view), and the bytes of the rows
/// that changed. Typing goes on after the chips, so a chip is made every
/// 30 keys or so and the field grows by a few percent over the samples.
func composeRedrawScenario(chips: Int, samples: Int) -> Result {
    var probe = ComposeProbe(chips: chips)
    precondition(probe.chipCount == chips)
    var keys: [String] = []
    for n in 0..<((samples + 200) / 30 + 1) { keys += "Next Person <next.\(n)@example.org>, ".map(String.init) }
    var k = 0
    let (stats, checksum) = sampleOperations(samples: samples, warmups: 200) {
        let written = probe.keystroke(keys[k])
        k += 1
        return UInt64(written)
    }
    return Result(name: "compose/redraw/\(chips)", unit: "ns/keystroke", stats: stats, bytes: 0,
                  checksum: checksum &+ UInt64(probe.chipCount))
}

/// Saving the draft of a compose session whose To field holds `chips`
/// varied chips: the composer's snapshot encoded as the draft's JSON, as
/// every save does before it writes to disk (the write, `fsync` and
/// `rename` are not timed: they measure the disk).
func draftSaveScenario(chips: Int, samples: Int) -> Result {
    let probe = DraftProbe(chips: chips)
    precondition(probe.chipCount == chips)
    let (stats, checksum) = sampleOperations(samples: samples, warmups: 1) { UInt64(probe.encodedBytes()) }
    return Result(name: "compose/draft-save/\(chips)", unit: "ns/save", stats: stats, bytes: 0, checksum: checksum)
}

/// Pasting about 1 MB of addresses into a field of `chips` chips.
func pasteScenario(chips: Int, samples: Int) -> Result {
    var paste: [UInt8] = []
    var k = 0
    while paste.count < 1_000_000 {
        paste += Array("\"Person \(k)\" <p\(k)@example.org>, ".utf8)
        k += 1
    }
    let base = filledField(chips)
    var field = base
    let (stats, checksum) = sampleOperations(samples: samples, warmups: 1, prepare: {
        field = base
        field.clearSelection()  // no change, but the copy is made before timing
        field.insert([])
    }) {
        let changes = field.insert(paste)
        return UInt64(changes.count) &+ UInt64(field.count)
    }
    return Result(name: chips == 0 ? "paste/1mb" : "paste/1mb-into-\(chips)", unit: "ns", stats: stats,
                  bytes: paste.count, checksum: checksum)
}

/// Moving one chip from the front to the back of a field of `chips` chips.
func moveScenario(chips: Int, samples: Int) -> Result {
    var field = filledField(chips)
    let (stats, checksum) = sampleOperations(samples: samples, warmups: 20) {
        UInt64(field.move(from: 0, to: chips - 1).count)
    }
    return Result(name: "move/\(chips)", unit: "ns", stats: stats, bytes: 0, checksum: checksum)
}

/// Deleting one chip from the middle of a field of `chips` chips, undone
/// (untimed) before the next sample.
func deleteScenario(chips: Int, samples: Int) -> Result {
    var composer = Composer()
    composer.paste(String(decoding: (0..<chips).flatMap { Array("user\($0)@example.com, ".utf8) }, as: UTF8.self))
    precondition(composer.focusedField.count == chips)
    var removed = false
    let (stats, checksum) = sampleOperations(samples: samples, warmups: 20, prepare: {
        if removed { composer.undo() }
    }) {
        removed = true
        return UInt64(composer.remove(at: chips / 2).count)
    }
    return Result(name: "delete/\(chips)", unit: "ns", stats: stats, bytes: 0, checksum: checksum)
}

/// Re-laying out 10,000 chips in wrapped rows after one insertion, near the
/// end and near the start (the chip is removed again, untimed, before the
/// next sample), and, for scale, the layout from scratch. Widths are seeded
/// terminal label widths plus padding, in rows of 120 columns.
func layoutInsertScenario(chips: Int, samples: Int) -> [Result] {
    var random = SplitMix64(seed: 11)
    let widths = (0..<chips).map { _ in 6 + random.below(30) }
    var results: [Result] = []
    for (label, at) in [("near-end", chips - 10), ("near-start", 10)] {
        var layout = ChipFlowLayout(widths: widths, spacing: 1, lineWidth: 120)
        var inserted = false
        let (stats, checksum) = sampleOperations(samples: samples, warmups: 50, prepare: {
            if inserted { layout.remove(at: at) }
        }) {
            inserted = true
            let change = layout.insert(width: 20, at: at)
            return UInt64(change.newRows.upperBound &* 31 &+ change.oldRows.count)
        }
        results.append(Result(
            name: "layout/insert/\(chips)/\(label)", unit: "ns", stats: stats, bytes: 0,
            checksum: checksum &+ UInt64(layout.rowCount)))
    }
    let (stats, checksum) = sampleOperations(samples: max(10, samples / 10), warmups: 5) {
        UInt64(ChipFlowLayout(widths: widths, spacing: 1, lineWidth: 120).rowCount)
    }
    results.append(Result(name: "layout/scratch/\(chips)", unit: "ns", stats: stats, bytes: 0, checksum: checksum))
    return results
}
