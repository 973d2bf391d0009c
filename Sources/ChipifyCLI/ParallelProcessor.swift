#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ChipKit

/// `chipify -j N`: splits the input at record boundaries into pieces,
/// recognizes the pieces on N threads, and writes their output in input
/// order, so the output is byte for byte that of one thread. Each thread
/// keeps one recognizer for the whole run (its look-alike verdicts stay
/// warm) and reads its pieces where they lie in the batch, uncopied.
///
/// Memory stays bounded: one batch of at most `jobs × pieceSize` input
/// bytes and its output are held at a time. A record longer than a whole
/// batch is streamed through the one-thread ``RecordProcessor``, which
/// bounds its memory as for `-j 1`.
struct ParallelProcessor: Sendable {
    let jobs: Int
    let pieceSize: Int
    let terminator: UInt8
    let policy: ValidationPolicy
    let format: OutputFormat
    let summarize: Bool
    let recordNumbers: Bool
    let smtpUTF8: Bool
    let summaryWidth: Int?

    init(jobs: Int, pieceSize: Int = 1 << 20, terminator: UInt8, policy: ValidationPolicy,
         format: OutputFormat, summarize: Bool, recordNumbers: Bool = true, smtpUTF8: Bool = false,
         summaryWidth: Int? = nil) {
        self.summaryWidth = summaryWidth
        self.recordNumbers = recordNumbers
        self.smtpUTF8 = smtpUTF8
        self.jobs = max(1, jobs)
        self.pieceSize = max(pieceSize, 64)
        self.terminator = terminator
        self.policy = policy
        self.format = format
        self.summarize = summarize
    }

    /// What one piece produced. Kept from batch to batch, so its buffers
    /// are reused instead of faulting in fresh memory each time.
    struct PieceResult {
        var writer: ChipWriter
        var totals = RunTotals()
    }

    /// Processes the input read by `read` (`read(2)`'s contract). `ready`
    /// tells whether more input can be read without waiting, so that a
    /// batch is filled from a file but an interactive pipe is answered
    /// line by line. Returns nil or the `errno` of a failed read.
    func run(
        read: (UnsafeMutableRawPointer, Int) -> Int, ready: () -> Bool,
        writer: inout ChipWriter, totals: inout RunTotals
    ) -> Int32? {
        let capacity = jobs * pieceSize
        var buffer = [UInt8](repeating: 0, count: capacity)
        let workers = WorkerSlots(count: jobs) { InMemoryRecords(policy: policy) }
        defer { workers.free() }
        let slots = ResultSlots(count: jobs * ParallelProcessor.piecesPerJob) {
            var pieceWriter = ChipWriter(
                format: format, out: OutputBuffer(fd: -1, capacity: 0), policy: policy, summarize: summarize,
                smtpUTF8: smtpUTF8)
            pieceWriter.recordNumbers = recordNumbers
            pieceWriter.records.summaryWidth = summaryWidth
            return PieceResult(writer: pieceWriter)
        }
        defer { slots.free() }
        var len = 0
        var eof = false
        var failure: Int32?
        while true {
            // Fill the batch while input is there without waiting.
            while !eof && len < capacity {
                let n = buffer.withUnsafeMutableBytes {
                    readOnce(read, $0.baseAddress! + len, capacity - len, eof: &eof, failure: &failure)
                }
                len += n
                writer.summary.bytes += n
                if !ready() { break }
            }
            // Everything up to the last terminator is whole records.
            var complete = len
            while complete > 0 && buffer[complete - 1] != terminator { complete -= 1 }
            if complete == 0 && !eof {
                if len < capacity { continue }
                // One record fills the whole batch: stream it alone.
                var leftover: [UInt8]?
                var served = 0
                let pending = buffer[0..<len]
                writer.summary.bytes -= len
                let processor = RecordProcessor(terminator: terminator, policy: policy)
                let error = processor.run(read: { p, count in
                    if served < pending.count {
                        let n = min(count, pending.count - served)
                        pending.withUnsafeBytes { p.copyMemory(from: $0.baseAddress! + served, byteCount: n) }
                        served += n
                        return n
                    }
                    return read(p, count)
                }, writer: &writer, totals: &totals, leftover: &leftover)
                if let error { failure = error }
                writer.flush()
                // Nil: the record ran to the end of the input.
                guard let rest = leftover, failure == nil else { break }
                writer.summary.bytes += rest.count  // read, and not yet processed
                len = rest.count
                buffer.replaceSubrange(0..<len, with: rest)
                continue
            }
            let end = eof ? len : complete
            if end > 0 {
                processBatch(buffer[0..<end], slots: slots, workers: workers, writer: &writer, totals: &totals)
                if writer.out.failed { break }
            }
            if eof { break }
            buffer.replaceSubrange(0..<(len - end), with: buffer[end..<len])
            len -= end
        }
        return failure
    }

    /// Pieces per thread in a batch: several, dealt out in turn, so that
    /// pieces of unequal cost even out before the batch's end, where
    /// every thread waits for the last.
    static let piecesPerJob = 4

    /// Splits a batch of whole records into up to `jobs × piecesPerJob`
    /// pieces, runs them on `jobs` threads (thread *w* takes pieces *w*,
    /// *w* + `jobs`, … with its own long-lived recognizer), and writes
    /// their output in order.
    func processBatch(
        _ batch: ArraySlice<UInt8>, slots results: ResultSlots, workers: WorkerSlots,
        writer: inout ChipWriter, totals: inout RunTotals
    ) {
        let count = results.slots.count
        // Piece boundaries: just after a terminator near each k/count mark.
        var bounds = [batch.startIndex]
        batch.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            for k in 1..<count {
                let target = batch.count * k / count
                guard target > bounds.last! - batch.startIndex else { continue }
                if let hit = memchr(base + target, Int32(terminator), batch.count - target) {
                    let cut = batch.startIndex + (UnsafeRawPointer(hit) - base) + 1
                    if cut < batch.endIndex && cut > bounds.last! { bounds.append(cut) }
                }
            }
        }
        bounds.append(batch.endIndex)
        let pieces = (0..<(bounds.count - 1)).map { batch[bounds[$0]..<bounds[$0 + 1]] }
        // Record numbers: each piece starts after the records of those before it.
        var firstRecord = [Int](repeating: 0, count: pieces.count)
        var records = totals.records
        for (k, piece) in pieces.enumerated() {
            firstRecord[k] = records
            piece.withUnsafeBytes { raw in
                var p = raw.baseAddress!
                var left = raw.count
                while left > 0, let hit = memchr(p, Int32(terminator), left) {
                    records += 1
                    let step = UnsafeRawPointer(hit) - p + 1
                    p += step
                    left -= step
                }
                if left > 0 { records += 1 }  // the input's last record, unterminated
            }
        }
        let starts = firstRecord
        let threads = min(jobs, pieces.count)
        let run: @Sendable (Int) -> Void = { [self] w in
            for k in stride(from: w, to: pieces.count, by: threads) {
                var pieceTotals = RunTotals()
                pieceTotals.records = starts[k]
                var pieceWriter = results.slots[k].writer
                pieceWriter.records.output.removeAll()
                pieceWriter.summary = Summary()
                pieces[k].withUnsafeBufferPointer { bytes in
                    workers.slots[w].run(bytes, terminator: terminator, writer: &pieceWriter, totals: &pieceTotals)
                }
                pieceTotals.records -= starts[k]
                results.slots[k] = PieceResult(writer: pieceWriter, totals: pieceTotals)
            }
        }
        if threads == 1 {
            run(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: threads, execute: run)
        }
        for k in 0..<pieces.count {
            let result = results.slots[k]
            writer.moveOutput()
            if writer.out.fd >= 0 {
                writer.out.writeThrough(result.writer.records.output)
            } else {
                writer.records.output.append(result.writer.records.output)
            }
            var s = result.writer.summary
            s.bytes = 0  // counted as read
            writer.summary.add(s)
            totals.records += result.totals.records
            totals.chips += result.totals.chips
            totals.errors += result.totals.errors
        }
        writer.flush()
    }
}

/// One long-lived recognizer per thread of `-j`, used only by that thread
/// during a batch.
///
/// `@unchecked Sendable` is safe here: iteration *w* of `concurrentPerform`
/// uses only slot *w*, and the slots are touched by no one else until it
/// returns.
struct WorkerSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<InMemoryRecords>

    init(count: Int, _ make: () -> InMemoryRecords) {
        slots = .allocate(capacity: count)
        for k in 0..<count { (slots.baseAddress! + k).initialize(to: make()) }
    }

    func free() {
        for k in 0..<slots.count { slots[k].deallocate() }
        slots.deinitialize()
        slots.deallocate()
    }
}

/// One result slot per piece, written by the thread that runs the piece.
///
/// `@unchecked Sendable` is safe here: each concurrent iteration writes only
/// its own slot, and the slots are read only after `concurrentPerform`
/// returns, which orders those writes before the reads.
struct ResultSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<ParallelProcessor.PieceResult>

    init(count: Int, _ make: () -> ParallelProcessor.PieceResult) {
        slots = .allocate(capacity: count)
        for k in 0..<count { (slots.baseAddress! + k).initialize(to: make()) }
    }

    func free() {
        slots.deinitialize()
        slots.deallocate()
    }
}
