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

    init(jobs: Int, pieceSize: Int = 1 << 19, terminator: UInt8, policy: ValidationPolicy,
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
    ///
    /// Batches are double-buffered: while the worker threads recognize
    /// batch *n*, this thread reads batch *n* + 1, and once *n* + 1 is
    /// under way it writes the output of *n*. Two batches' input and
    /// output are held at most.
    func run(
        read: (UnsafeMutableRawPointer, Int) -> Int, ready: () -> Bool,
        writer: inout ChipWriter, totals: inout RunTotals
    ) -> Int32? {
        let capacity = jobs * pieceSize
        let buffers = [UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity),
                       UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)]
        defer { for b in buffers { b.deallocate() } }
        let workers = WorkerSlots(count: jobs) { InMemoryRecords(policy: policy) }
        defer { workers.free() }
        let slotSets = (0..<2).map { _ in
            ResultSlots(count: jobs * ParallelProcessor.piecesPerJob) {
                var pieceWriter = ChipWriter(
                    format: format, out: OutputBuffer(fd: -1, capacity: 0), policy: policy, summarize: summarize,
                    smtpUTF8: smtpUTF8)
                pieceWriter.recordNumbers = recordNumbers
                pieceWriter.records.summaryWidth = summaryWidth
                return PieceResult(writer: pieceWriter)
            }
        }
        defer { for slots in slotSets { slots.free() } }
        var current = 0      // the buffer being filled
        var len = 0
        var eof = false
        var failure: Int32?
        var inFlight: BatchJob?  // the batch the workers are recognizing
        var nextRecord = totals.records
        // Waits for the batch in flight and returns it, its records counted.
        func land() -> BatchJob? {
            guard let job = inFlight else { return nil }
            job.group.wait()
            inFlight = nil
            nextRecord = job.firstRecord + job.records
            return job
        }
        while true {
            // Fill the batch while input is there without waiting; before
            // waiting for input, what is recognized goes out.
            while !eof && len < capacity {
                if !ready(), let job = land() { write(job, writer: &writer, totals: &totals) }
                let n = readOnce(read, buffers[current].baseAddress! + len, capacity - len, eof: &eof, failure: &failure)
                len += n
                writer.summary.bytes += n
                if !ready() { break }
            }
            let buffer = buffers[current]
            // Everything up to the last terminator is whole records.
            var complete = len
            while complete > 0 && buffer[complete - 1] != terminator { complete -= 1 }
            if complete == 0 && !eof {
                if len < capacity { continue }
                if let job = land() { write(job, writer: &writer, totals: &totals) }
                totals.records = nextRecord
                // One record fills the whole batch: stream it alone.
                var leftover: [UInt8]?
                var served = 0
                let pending = Array(buffer[0..<len])
                writer.summary.bytes -= len
                // It reads at most a batch at a time, so what it reads past
                // the record (`leftover`) fits the batch's buffer.
                let processor = RecordProcessor(terminator: terminator, policy: policy, readSize: capacity)
                let error = processor.run(read: { p, count in
                    if served < pending.count {
                        let n = min(count, pending.count - served)
                        pending.withUnsafeBytes { p.copyMemory(from: $0.baseAddress! + served, byteCount: n) }
                        served += n
                        return n
                    }
                    return read(p, count)
                }, writer: &writer, totals: &totals, leftover: &leftover)
                nextRecord = totals.records
                if let error { failure = error }
                writer.flush()
                // Nil: the record ran to the end of the input.
                guard let rest = leftover, failure == nil else { break }
                writer.summary.bytes += rest.count  // read, and not yet processed
                len = rest.count
                _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<len]).initialize(from: rest)
                continue
            }
            let end = eof ? len : complete
            if end > 0 {
                // Cut and counted while the batch in flight is recognized.
                let batch = prepare(UnsafeBufferPointer(rebasing: buffer[0..<end]), pieces: slotSets[current].slots.count)
                let previous = land()
                inFlight = start(batch, slots: slotSets[current], workers: workers, firstRecord: nextRecord)
                if let previous { write(previous, writer: &writer, totals: &totals) }
                if writer.out.failed { break }
            }
            if eof { break }
            // The unfinished record moves to the front of the other buffer,
            // which the batch in flight does not use.
            let other = buffers[1 - current]
            other.baseAddress!.update(from: buffer.baseAddress! + end, count: len - end)
            len -= end
            current = 1 - current
        }
        if let job = land() { write(job, writer: &writer, totals: &totals) }
        return failure
    }

    /// Pieces per thread in a batch: several, each taken by the first
    /// thread free, so that pieces of unequal cost (and threads the
    /// machine slows) even out before the batch's end, where every thread
    /// waits for the last.
    static let piecesPerJob = 4

    /// A batch the worker threads recognize while the caller goes on.
    /// `@unchecked Sendable`: it is written only before the job starts, and
    /// its results (in `slots`) are read only after waiting for `group`.
    final class BatchJob: @unchecked Sendable {
        let group = DispatchGroup()
        let slots: ResultSlots
        let firstRecord: Int
        var pieceCount = 0
        var records = 0

        init(slots: ResultSlots, firstRecord: Int) {
            self.slots = slots
            self.firstRecord = firstRecord
        }
    }

    /// The pieces of a batch, for the threads that read them, and how many
    /// records each holds.
    struct Pieces: @unchecked Sendable {
        let pieces: [UnsafeBufferPointer<UInt8>]
        let records: [Int]
    }

    /// Splits a batch of whole records into up to `count` pieces, each
    /// ending just after a terminator near its share of the bytes, and
    /// counts their records (the input's last may be unterminated).
    ///
    /// - Complexity: O(*n*) in the batch's length, 64 bytes per step.
    func prepare(_ batch: UnsafeBufferPointer<UInt8>, pieces count: Int) -> Pieces {
        var bounds = [0]
        let base = batch.baseAddress!
        for k in 1..<count {
            let target = batch.count * k / count
            guard target > bounds.last! else { continue }
            if let hit = memchr(base + target, Int32(terminator), batch.count - target) {
                let cut = UnsafeRawPointer(hit) - UnsafeRawPointer(base) + 1
                if cut < batch.count && cut > bounds.last! { bounds.append(cut) }
            }
        }
        bounds.append(batch.count)
        let pieces = (0..<(bounds.count - 1)).map { UnsafeBufferPointer(rebasing: batch[bounds[$0]..<bounds[$0 + 1]]) }
        let records = pieces.map { piece in
            countByte(piece, terminator) + (piece.last == terminator || piece.isEmpty ? 0 : 1)
        }
        return Pieces(pieces: pieces, records: records)
    }

    /// Starts recognizing a batch's pieces on `jobs` threads (each takes
    /// the next piece not yet taken, and recognizes it with its own
    /// long-lived recognizer); their results land in `slots`. The batch's first
    /// record is record `firstRecord` + 1.
    ///
    /// - Complexity: O(*n*) in the batch's length, on the worker threads.
    func start(_ batch: Pieces, slots results: ResultSlots, workers: WorkerSlots, firstRecord: Int) -> BatchJob {
        let job = BatchJob(slots: results, firstRecord: firstRecord)
        job.pieceCount = batch.pieces.count
        job.records = batch.records.reduce(0, +)
        job.group.enter()
        DispatchQueue.global().async { [self] in
            recognize(batch, job: job, workers: workers)
            job.group.leave()
        }
        return job
    }

    /// Recognizes a batch's pieces, each numbering its records after those
    /// of the pieces before it.
    func recognize(_ batch: Pieces, job: BatchJob, workers: WorkerSlots) {
        let results = job.slots
        let pieceCount = batch.pieces.count
        let threads = min(jobs, pieceCount)
        var firstRecord = [Int](repeating: 0, count: pieceCount)
        var records = job.firstRecord
        for k in 0..<pieceCount {
            firstRecord[k] = records
            records += batch.records[k]
        }
        let starts = firstRecord
        // Each thread takes the next piece not yet taken: a thread slowed
        // down (by the machine, or by harder pieces) takes fewer.
        let next = PieceCounter()
        let run: @Sendable (Int) -> Void = { [self] w in
            while true {
                let k = next.take()
                guard k < pieceCount else { break }
                var pieceTotals = RunTotals()
                pieceTotals.records = starts[k]
                var pieceWriter = results.slots[k].writer
                pieceWriter.records.output.removeAll()
                pieceWriter.summary = Summary()
                workers[w].pointee.run(batch.pieces[k], terminator: terminator, writer: &pieceWriter, totals: &pieceTotals)
                pieceTotals.records -= starts[k]
                results.slots[k] = PieceResult(writer: pieceWriter, totals: pieceTotals)
            }
        }
        if threads == 1 {
            run(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: threads, execute: run)
        }
    }

    /// Writes a recognized batch's output, in order, and adds its counts.
    func write(_ job: BatchJob, writer: inout ChipWriter, totals: inout RunTotals) {
        let results = job.slots
        for k in 0..<job.pieceCount {
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
/// Each lies on cache lines of its own: the counters a thread bumps per
/// chip must not share a line with the state another thread reads, or
/// every chip would move that line between the cores.
///
/// `@unchecked Sendable` is safe here: iteration *w* of `concurrentPerform`
/// uses only slot *w*, and the slots are touched by no one else until it
/// returns.
struct WorkerSlots: @unchecked Sendable {
    static let lineBytes = 128
    let base: UnsafeMutableRawPointer
    let stride: Int
    let count: Int

    init(count: Int, _ make: () -> InMemoryRecords) {
        let line = WorkerSlots.lineBytes
        stride = (MemoryLayout<InMemoryRecords>.stride + line - 1) / line * line
        self.count = count
        base = .allocate(byteCount: stride * count, alignment: line)
        for k in 0..<count { (base + k * stride).bindMemory(to: InMemoryRecords.self, capacity: 1).initialize(to: make()) }
    }

    /// Slot `k`.
    subscript(_ k: Int) -> UnsafeMutablePointer<InMemoryRecords> {
        (base + k * stride).assumingMemoryBound(to: InMemoryRecords.self)
    }

    func free() {
        for k in 0..<count {
            self[k].pointee.deallocate()
            self[k].deinitialize(count: 1)
        }
        base.deallocate()
    }
}

/// The next piece of a batch to take, shared by its threads.
///
/// `@unchecked Sendable` is safe: `next` is read and written only while
/// holding `lock` (a semaphore of one, from Dispatch, which every platform
/// the package builds on has; a batch takes it a few times).
final class PieceCounter: @unchecked Sendable {
    private var next = 0
    private let lock = DispatchSemaphore(value: 1)

    /// The index of a piece no other thread has taken.
    func take() -> Int {
        lock.wait()
        defer { lock.signal() }
        next += 1
        return next - 1
    }
}

/// How many bytes of `p` are `byte`: 64 at a time, compared as vectors and
/// summed in vector lanes.
///
/// - Complexity: O(*n*).
func countByte(_ p: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Int {
    guard let base = p.baseAddress else { return 0 }
    let n = p.count
    var total = 0
    var i = 0
    let target = SIMD16<UInt8>(repeating: byte)
    while i + 64 <= n {
        // Lanes of a true compare are all ones: subtracting them counts.
        var sums = SIMD16<UInt8>(repeating: 0)
        var k = 0
        while k < 63 && i + 64 <= n {
            for j in 0..<4 {
                let v = UnsafeRawPointer(base + i + 16 * j).loadUnaligned(as: SIMD16<UInt8>.self)
                sums &-= unsafeBitCast(v .== target, to: SIMD16<UInt8>.self)
            }
            i += 64
            k += 1
        }
        total += sums.indices.reduce(0) { $0 + Int(sums[$1]) }
    }
    while i < n {
        if base[i] == byte { total += 1 }
        i += 1
    }
    return total
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
