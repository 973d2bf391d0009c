#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit

/// Counts kept across the inputs of one run.
package struct RunTotals {
    package var records = 0
    package var chips = 0
    package var errors = 0

    package init() {}
}

/// Streams records from a file descriptor through the scanner and
/// recognizer into a ``ChipWriter``.
///
/// Memory is bounded whatever the input: the buffer holds one read plus
/// the bytes of the chip still open, and a chip longer than
/// `maxChipBytes` is kept only as its first `maxChipBytes` bytes (it is a
/// `too-long` error, and its `start`/`end` locate the whole text).
package struct RecordProcessor {
    package let terminator: UInt8
    package let policy: ValidationPolicy
    package let readSize: Int

    package init(terminator: UInt8, policy: ValidationPolicy, readSize: Int = 1 << 20) {
        self.terminator = terminator
        self.policy = policy
        self.readSize = max(readSize, 16)
    }

    /// Processes one file descriptor. Returns nil on success or the
    /// `errno` of a failed read.
    package func run(fd: Int32, writer: inout ChipWriter, totals: inout RunTotals) -> Int32? {
        run(read: { readSome(fd, $0, $1) }, writer: &writer, totals: &totals)
    }

    /// Processes one input given as a read function (`read(2)`'s contract:
    /// a count, 0 at the end, -1 with `errno` set).
    ///
    /// With `leftover`, stops after the first record and hands back, in
    /// `leftover`, the bytes it read past that record's terminator (nil
    /// when the input ended first).
    package func run(
        read: (UnsafeMutableRawPointer, Int) -> Int, writer: inout ChipWriter, totals: inout RunTotals,
        leftover: UnsafeMutablePointer<[UInt8]?>? = nil
    ) -> Int32? {
        let maxChip = policy.maxChipBytes
        let capacity = readSize + maxChip + 16
        var state = StreamState(
            capacity: capacity, maxChip: maxChip, policy: policy, firstRecord: totals.records + 1)
        defer { state.deallocate() }
        let buffer = state.buffer
        var len = 0          // valid bytes in buffer
        var scanPos = 0      // first byte not yet scanned
        var failure: Int32?

        var eof = false
        var stopped = false
        while !eof {
            writer.flush()
            if writer.out.failed { break }
            let n = readOnce(read, buffer.baseAddress! + len, min(readSize, capacity - len),
                             eof: &eof, failure: &failure)
            len += n
            writer.summary.bytes += n
            // Read every complete record, then scan the start of the
            // unfinished one. A record read from its first byte is found
            // by the structural index, which finds its end on the way.
            while scanPos < len {
                var end: Int?
                if state.scanner.offset == 0 {
                    let read = state.index(scanPos, limit: len, terminator: terminator)
                    if read.terminated {
                        state.finishIndexed(read, from: scanPos, writer: &writer)
                        end = scanPos + read.length
                    }
                } else {
                    let rest = UnsafeRawPointer(buffer.baseAddress! + scanPos)
                    if let hit = memchr(rest, Int32(terminator), len - scanPos) {
                        let t = scanPos + (UnsafeRawPointer(hit) - rest)
                        state.scan(scanPos..<t, writer: &writer)
                        end = t
                    }
                }
                if let t = end {
                    state.endRecord(writer: &writer)
                    scanPos = t + 1
                    state.bufBase = -scanPos
                    if let leftover {
                        leftover.pointee = Array(buffer[scanPos..<len])
                        writer.summary.bytes -= len - scanPos
                        stopped = true
                        break
                    }
                } else {
                    state.scan(scanPos..<len, writer: &writer)
                    scanPos = len
                }
            }
            if stopped { break }
            if eof {
                if state.scanner.offset > 0 { state.endRecord(writer: &writer) }
                break
            }
            let k = state.compact(len: len)
            if k > 0 {
                len -= k
                scanPos -= k
            }
        }
        writer.summary.records += state.record - 1 - totals.records
        totals.records = state.record - 1
        totals.chips += state.chips
        totals.errors += state.errors
        return failure
    }
}

/// The state of one streaming run, as a value with methods rather than
/// closures over local variables (which the compiler would box and check
/// for exclusive access at run time, on every chip).
package struct StreamState {
    /// The bytes scanned: the state's own buffer, or (for records held in
    /// memory, ``InMemoryRecords``) the caller's.
    package var buffer: UnsafeMutableBufferPointer<UInt8>
    /// The first bytes of chips too long to hold, kept to show them.
    package var saved: SavedStarts
    package let maxChip: Int
    /// Record offset of buffer[0].
    package var bufBase = 0
    package var scanner = ListScanner()
    package var list: ListRecognizer
    package var segments: [Segment] = []
    /// The chips of a simple record, as the structural index found them
    /// (room for `SimpleList.maxChips`, kept for every record).
    package let simpleChips: UnsafeMutablePointer<SimpleList.Chip>
    /// Whether the scanner has read bytes of the current record (a simple
    /// record is read by the index alone).
    package var scanned = false
    package var record: Int
    package var index = 0
    package var errors = 0
    package var chips = 0

    package init(capacity: Int, maxChip: Int, policy: ValidationPolicy, firstRecord: Int) {
        buffer = .allocate(capacity: capacity)
        // Initialized whole: the lane's vector readers may read a few
        // bytes past a chip into what no read has written yet.
        buffer.initialize(repeating: 0)
        saved = SavedStarts(maxChip: maxChip)
        simpleChips = .allocate(capacity: SimpleList.maxChips)
        self.maxChip = maxChip
        // Recovery needs the chip's bytes, which the buffer keeps up to
        // `maxChip`: so much and no more, whatever the read size.
        scanner.maxRecoveredChipBytes = maxChip
        list = ListRecognizer(policy: policy)
        record = firstRecord
    }

    package func deallocate() {
        buffer.deallocate()
        saved.deallocate()
        simpleChips.deallocate()
    }

    /// Scans `buffer[range]`, the next bytes of the current record.
    package mutating func scan(_ range: Range<Int>, writer: inout ChipWriter) {
        scanned = true
        var found = segments
        segments = []
        found.removeAll(keepingCapacity: true)
        // The buffer holds the open chip from its start (unless it grew
        // too long): a line break can recover a construct it left open.
        scanner.scan(held: UnsafeBufferPointer(rebasing: buffer[..<range.upperBound]), base: bufBase) { found.append($0) }
        for segment in found { handle(segment, writer: &writer) }
        segments = found
    }

    /// Reads the record that starts at `buffer[from]` by the structural
    /// index (``SimpleList``), up to its terminator or `limit`: where it
    /// ends, and its entries (in `simpleChips`) when it is simple. Nothing
    /// is reported until ``finishIndexed(_:from:writer:)``.
    ///
    /// - Complexity: O(*n*) in the record's length.
    @inline(__always)
    package func index(_ from: Int, limit: Int, terminator: UInt8) -> SimpleList.RecordRead {
        SimpleList.record(buffer.baseAddress! + from, available: limit - from, terminator: terminator, into: simpleChips)
    }

    /// Reports the record ``index(_:limit:terminator:)`` read at
    /// `buffer[from]` (with `bufBase` at its start): its entries, or, when
    /// it is not simple, what the scanner finds in it.
    package mutating func finishIndexed(_ read: SimpleList.RecordRead, from: Int, writer: inout ChipWriter) {
        let range = from..<(from + read.length)
        if let count = read.count {
            writeSimple(count, range, writer: &writer)
        } else {
            scan(range, writer: &writer)
        }
    }

    /// Reports the `count` entries the structural index found in the
    /// record at `buffer[range]`.
    @inline(__always)
    package mutating func writeSimple(_ count: Int, _ range: Range<Int>, writer: inout ChipWriter) {
        let p = UnsafeBufferPointer(buffer)
        var item = SimpleItem.none
        for c in UnsafeBufferPointer(start: simpleChips, count: count) {
            guard list.handleSimple(c, p, offset: range.lowerBound, into: &item) else {
                // A group's name or end (most are the lane's), or a chip
                // for the general path.
                if c.kind != .chip && list.handleSimpleGroup(c, p, offset: range.lowerBound) { continue }
                handle(c.segment, writer: &writer)
                continue
            }
            chips += 1
            if writer.records.summarize {
                // Only counted: no text to write, no suggestion or group to fetch.
                writer.records.countSimple(item)
            } else if item.nameIsDecoded {
                writeEncoded(item, c, range, writer: &writer)
            } else {
                writer.write(
                    simple: item, record: record, index: index, p,
                    raw: UnsafeBufferPointer(rebasing: buffer[(range.lowerBound + Int(c.lo))..<(range.lowerBound + Int(c.hi))]),
                    start: Int(c.lo), end: Int(c.hi), suggestion: item.typo >= 0 ? list.commonDomain(item.typo) : nil,
                    group: list.currentGroupName)
            }
            index += 1
        }
    }

    /// A lane chip with an encoded name, which the lane decoded for its
    /// checks: the writer takes that text rather than decoding it again.
    /// Apart, so that the other chips' call stays as small as it was.
    @inline(never)
    package mutating func writeEncoded(_ item: SimpleItem, _ c: SimpleList.Chip, _ range: Range<Int>, writer: inout ChipWriter) {
        writer.write(
            simple: item, record: record, index: index, UnsafeBufferPointer(buffer),
            raw: UnsafeBufferPointer(rebasing: buffer[(range.lowerBound + Int(c.lo))..<(range.lowerBound + Int(c.hi))]),
            start: Int(c.lo), end: Int(c.hi), suggestion: item.typo >= 0 ? list.commonDomain(item.typo) : nil,
            group: list.currentGroupName, decodedName: list.decodedName, decodedNameIsWellFormed: list.decodedNameIsWellFormed)
    }

    package mutating func endRecord(writer: inout ChipWriter) {
        if scanned {
            var found = segments
            segments = []
            found.removeAll(keepingCapacity: true)
            scanner.finish(UnsafeBufferPointer(buffer), base: bufBase) { found.append($0) }
            for segment in found { handle(segment, writer: &writer) }
            segments = found
            scanner = ListScanner()
            scanner.maxRecoveredChipBytes = maxChip
            scanned = false
        }
        writer.records.currentRecord = record
        writer.endRecord()
        list.reset()
        record += 1
        index = 0
        saved.reset()
    }

    /// Reports one segment of the current record.
    package mutating func handle(_ segment: Segment, writer: inout ChipWriter) {
        let range = segment.byteRange
        var source = UnsafeBufferPointer(buffer)
        var sourceBase = bufBase
        var sourceHeld = true
        if range.lowerBound < bufBase {
            // The start was dropped: it is in a saved prefix, if anywhere.
            if let k = saved.slot(holding: range) {
                source = saved.bytes(k)
                sourceBase = saved.start[k]
            } else {
                sourceHeld = false
            }
        }
        guard let item = list.handle(segment, source, base: sourceBase) else { return }
        let start = item.byteRange.lowerBound
        let end = item.byteRange.upperBound
        var raw: UnsafeBufferPointer<UInt8>
        var truncated = false
        var held = sourceHeld && start >= sourceBase
        if held {
            let lo = start - sourceBase
            let hi = min(end - sourceBase, lo + maxChip)
            raw = UnsafeBufferPointer(rebasing: source[lo..<hi])
            truncated = hi < end - sourceBase
        } else if let k = saved.slot(startingAt: start) {
            raw = saved.bytes(k)
            truncated = true
            held = false
        } else {
            raw = UnsafeBufferPointer(start: nil, count: 0)
            truncated = true
        }
        if item.recognition.error != nil { errors += 1 }
        chips += 1
        writer.write(ChipRecord(
            record: record, index: index, item: consume item,
            source: held && !truncated ? source : nil,
            raw: raw, truncated: truncated,
            sourceStart: start - sourceBase,
            start: start, end: end))
        index += 1
    }

    /// Keeps only what an open chip or group still needs at the front of
    /// the buffer; returns how many bytes were dropped from the front.
    package mutating func compact(len: Int) -> Int {
        var keep = scanner.retainOffset
        if len - (keep - bufBase) > maxChip {
            // Where a chip not yet reported may start, earliest first: an
            // open group's name (a chip may be reported from there), the
            // open chip, and the words after a held `,` (a chip of their
            // own should it split). The buffer keeps from the first that
            // still fits a chip; each before it keeps its first bytes, so
            // that whatever the scanner reports finds them, however the
            // input was read.
            var starts = [keep]
            if let chip = scanner.openChipStart, chip > keep { starts.append(chip) }
            if let split = scanner.heldSplitStart, split > starts[starts.count - 1] { starts.append(split) }
            keep = bufBase + len
            for from in starts where from - bufBase >= 0 {
                let lo = from - bufBase
                if len - lo <= maxChip {
                    keep = from
                    break
                }
                saved.save(from, UnsafeBufferPointer(rebasing: buffer[lo..<len]), keeping: starts)
            }
        }
        let k = min(max(keep - bufBase, 0), len)
        if k > 0 {
            if k < len {
                buffer.baseAddress!.update(from: buffer.baseAddress! + k, count: len - k)
            }
            bufBase += k
        }
        return k
    }
}

/// The first bytes of chips too long for the buffer to hold
/// (``StreamState/compact(len:)``): a slot for each place such a chip may
/// start at once (an open group's name, the open chip, the words after a
/// held `,`), each of at most the policy's longest chip.
package struct SavedStarts {
    static let slots = 3
    let storage: UnsafeMutableBufferPointer<UInt8>
    let maxChip: Int
    /// Each slot's first byte, as a record offset (-1: empty), and count.
    package var start = [Int](repeating: -1, count: slots)
    package var count = [Int](repeating: 0, count: slots)
    /// Whether a slot holds bytes: most records need none, and their end
    /// then costs one test.
    var isEmpty = true

    init(maxChip: Int) {
        self.maxChip = maxChip
        storage = .allocate(capacity: Self.slots * max(maxChip, 1))
    }

    func deallocate() { storage.deallocate() }

    @inline(__always)
    mutating func reset() {
        if !isEmpty { clear() }
    }

    mutating func clear() {
        isEmpty = true
        for k in 0..<Self.slots {
            start[k] = -1
            count[k] = 0
        }
    }

    func bytes(_ k: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: storage[(k * maxChip)..<(k * maxChip + count[k])])
    }

    /// A slot that holds the bytes of `range` (record offsets) whole.
    func slot(holding range: Range<Int>) -> Int? {
        (0..<Self.slots).first { start[$0] >= 0 && range.lowerBound >= start[$0] && range.upperBound <= start[$0] + count[$0] }
    }

    /// The slot of a chip that starts at `offset`.
    func slot(startingAt offset: Int) -> Int? {
        (0..<Self.slots).first { start[$0] == offset }
    }

    /// Keeps the first bytes of `bytes`, which start at record offset
    /// `from`, unless a slot has them: in a slot that is empty or whose
    /// start is none of `keeping` (the starts still possible).
    mutating func save(_ from: Int, _ bytes: UnsafeBufferPointer<UInt8>, keeping: [Int]) {
        guard slot(startingAt: from) == nil,
              let k = (0..<Self.slots).first(where: { start[$0] < 0 || !keeping.contains(start[$0]) }) else { return }
        count[k] = min(bytes.count, maxChip)
        (storage.baseAddress! + k * maxChip).update(from: bytes.baseAddress!, count: count[k])
        start[k] = from
        isEmpty = false
    }
}

/// Recognizes whole records held in memory, as ``RecordProcessor`` would
/// read them, without copying them into a buffer of its own; kept from one
/// piece of input to the next (by one thread of `-j`), so its recognizer,
/// and the look-alike verdicts it has learned, stay warm.
package struct InMemoryRecords {
    package var state: StreamState
    package let ownBuffer: UnsafeMutableBufferPointer<UInt8>

    package init(policy: ValidationPolicy) {
        state = StreamState(capacity: 16, maxChip: policy.maxChipBytes, policy: policy, firstRecord: 1)
        ownBuffer = state.buffer
    }

    package mutating func deallocate() {
        state.buffer = ownBuffer
        state.deallocate()
    }

    /// Processes `bytes`, whole records each ended by `terminator` (the
    /// last may be unterminated at the end of the input), numbering them
    /// after `totals.records`.
    ///
    /// - Complexity: O(*n*) in the bytes.
    package mutating func run(
        _ bytes: UnsafeBufferPointer<UInt8>, terminator: UInt8, writer: inout ChipWriter, totals: inout RunTotals
    ) {
        guard bytes.baseAddress != nil, !bytes.isEmpty else { return }
        state.buffer = UnsafeMutableBufferPointer(mutating: bytes)
        defer { state.buffer = ownBuffer }
        state.record = totals.records + 1
        state.chips = 0
        state.errors = 0
        state.bufBase = 0
        var pos = 0
        let n = bytes.count
        while pos < n {
            // The index finds the record's end as it reads it; the last
            // record may be unterminated.
            let read = state.index(pos, limit: n, terminator: terminator)
            state.finishIndexed(read, from: pos, writer: &writer)
            state.endRecord(writer: &writer)
            pos += read.length + 1
            state.bufBase = -pos
        }
        writer.summary.records += state.record - 1 - totals.records
        totals.records = state.record - 1
        totals.chips += state.chips
        totals.errors += state.errors
    }
}
