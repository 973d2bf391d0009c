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
/// warm) and reads its pieces where they lie, uncopied.
///
/// There is no barrier between batches: the calling thread reads pieces
/// into a ring of slots ahead of the threads, each thread takes the next
/// piece read as soon as it is free, and the calling thread writes each
/// piece's output as soon as it and every piece before it are done. The
/// calling thread is one of the N: N − 1 are started, and it recognizes
/// the next piece read whenever it would otherwise wait for one to be
/// done (so that on N cores no N + 1st thread wakes for every piece). A
/// thread waits only when the reading has not kept up, at the end, or
/// when its piece's output passes the bound below.
///
/// Memory stays bounded: the ring holds `jobs × slotsPerJob` pieces of
/// `pieceSize` bytes, and each piece holds at most ``pieceOutputBytes``
/// of output (plus the last chip written): a thread whose piece has made
/// more hands it to the calling thread and waits until it is written,
/// which is when every piece before it is (the calling thread's own piece
/// writes the pieces before it, then its output; the output of a piece
/// of short chips in JSON Lines is 10 to 20 times its input). So that this wait is
/// rare, the next piece is cut to about half that output at the last
/// piece's output per input byte (see ``nextPieceBytes(input:output:)``).
/// A record longer than a piece is streamed through the one-thread
/// ``RecordProcessor``, which bounds its memory as for `-j 1`.
package struct ParallelProcessor: Sendable {
    package let jobs: Int
    package let pieceSize: Int
    package let terminator: UInt8
    package let policy: ValidationPolicy
    package let format: OutputFormat
    package let summarize: Bool
    package let recordNumbers: Bool
    package let smtpUTF8: Bool
    package let summaryWidth: Int?

    package init(jobs: Int, pieceSize: Int = 1 << 18, terminator: UInt8, policy: ValidationPolicy,
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

    /// Slots in the ring per thread: enough that the reading runs ahead of
    /// every thread by a piece or more, and that a slow piece does not
    /// stop the others while its output waits to be written. A summary's
    /// pieces hold no output, so they are more, and the threads run
    /// further past a slow one; the others' are fewer, so that pieces may
    /// hold more output (``pieceOutputBytes``) in the same memory.
    package static func slotsPerJob(summarize: Bool) -> Int { summarize ? 4 : 2 }

    /// The output a piece holds before it is handed over: 1 MiB. The
    /// fewer the pieces, the fewer the hand-offs between threads, each a
    /// wake-up and a switch of the cores (at 512 KiB a piece, `-j 2` of
    /// JSON Lines took 5 % longer).
    package static let pieceOutputBytes = 1 << 20

    /// The output a piece is cut to make, by the last piece's output per
    /// input byte: half what it may hold, so that a piece rarely waits to
    /// hand over its output.
    package static let outputPerPiece = pieceOutputBytes / 2
    /// The least input a piece is cut to (whole records permitting).
    package static let minPieceBytes = 16 << 10

    /// The input the next piece is read to, once it holds a whole record:
    /// a piece's worth, or less when the last piece's output was more than
    /// ``outputPerPiece`` per piece of that size.
    package func nextPieceBytes(input: Int, output: Int) -> Int {
        guard output > 0, input > 0 else { return pieceSize }
        let bytes = Int((Double(input) * Double(ParallelProcessor.outputPerPiece) / Double(output)).rounded(.down))
        return min(pieceSize, max(ParallelProcessor.minPieceBytes, bytes))
    }

    /// Processes the input read by `read` (`read(2)`'s contract). `ready`
    /// tells whether more input can be read without waiting, so that a
    /// file is read ahead but an interactive pipe is answered line by
    /// line: before a read that may wait, every piece read so far is
    /// recognized and written. Returns nil or the `errno` of a failed read.
    ///
    /// - Complexity: O(*n*) in the input; the calling thread reads, cuts
    ///   at the last terminator and counts records (64 bytes per step),
    ///   and with `jobs - 1` threads recognizes.
    package func run(
        read: (UnsafeMutableRawPointer, Int) -> Int, ready: () -> Bool,
        writer: inout ChipWriter, totals: inout RunTotals
    ) -> Int32? {
        let ring = Ring(count: jobs * ParallelProcessor.slotsPerJob(summarize: summarize), bytes: pieceSize) {
            var pieceWriter = ChipWriter(
                format: format, out: OutputBuffer(fd: -1, capacity: 0), policy: policy, summarize: summarize,
                smtpUTF8: smtpUTF8)
            pieceWriter.spillBytes = ParallelProcessor.pieceOutputBytes
            pieceWriter.recordNumbers = recordNumbers
            pieceWriter.records.summaryWidth = summaryWidth
            return pieceWriter
        }
        // N - 1 threads, and this one, which recognizes a piece whenever
        // it would otherwise wait (so no third thread wakes on two cores
        // for each piece): each with its own recognizer.
        let workers = WorkerSlots(count: jobs) { InMemoryRecords(policy: policy) }
        let threads = DispatchGroup()
        for w in 1..<jobs {
            threads.enter()
            DispatchQueue.global().async { [self] in
                work(ring, recognizer: workers[w])
                threads.leave()
            }
        }
        defer {
            ring.stop(threads: jobs - 1)
            threads.wait()
            workers.free()
            ring.free()
        }
        var filled = 0       // pieces handed to the threads
        var written = 0      // pieces whose output is written
        var target = pieceSize  // what the next piece is read to (see nextPieceBytes)
        var pieceOutput = 0  // output of the piece being written, so far
        var nextRecord = totals.records
        var eof = false
        var failure: Int32?
        // Writes the next piece's output, waiting for it if `wait`; false
        // when there is none, or it is not done and `wait` is false.
        func writeNext(wait: Bool) -> Bool {
            guard written < filled else { return false }
            let slot = ring[written]
            if !wait && !slot.isPosted { return false }
            slot.take()
            guard slot.complete else {
                // Output handed over before the piece's end: written, and
                // its thread goes on.
                emit(&slot.handed)
                report(&slot.handedOmissions)
                slot.resume.signal()
                return true
            }
            emit(&slot.writer.records.output)
            report(&slot.writer.records.omissions)
            target = nextPieceBytes(input: slot.end, output: pieceOutput)
            pieceOutput = 0
            var s = slot.writer.summary
            s.bytes = 0  // counted as read
            writer.summary.add(s)
            totals.records += slot.totals.records
            totals.chips += slot.totals.chips
            totals.errors += slot.totals.errors
            written += 1
            return true
        }
        // A piece's output, then the chips it left out of headers.
        func emit(_ output: inout ByteBuffer) {
            writer.moveOutput()
            pieceOutput += output.count
            if writer.out.fd >= 0 {
                writer.out.writeThrough(output)
            } else {
                writer.records.output.append(output)
            }
            output.removeAll()
        }
        func report(_ omissions: inout [OmittedChip]) {
            writer.records.omissions += omissions
            omissions.removeAll(keepingCapacity: true)
            if !writer.records.omissions.isEmpty { writer.reportOmissions() }
        }
        // This thread's turn at a piece: the next one handed out, when one
        // waits. Its output stays in the slot like a thread's, but past
        // the bound it goes out at once, after the pieces before it (no
        // one else writes them, and every one of them is taken).
        var pieceWriter = ChipWriter(format: format, out: OutputBuffer(fd: -1, capacity: 0), policy: policy)
        func recognizeNext() -> Bool {
            guard let k = ring.tryTake() else { return false }
            let slot = ring[k]
            func spill(_ records: inout ChipRecordWriter) {
                while written < k { _ = writeNext(wait: true) }
                emit(&records.output)
                report(&records.omissions)
            }
            recognize(slot, with: workers[0], writer: &pieceWriter, spill: spill)
            return true
        }
        // A step towards writing the oldest piece: written if done, else
        // a piece recognized here, else a wait for it.
        func advance() {
            if writeNext(wait: false) || recognizeNext() { return }
            _ = writeNext(wait: true)
        }
        func drain() {
            while written < filled { advance() }
            writer.flush()
        }
        // The slot being filled, and what of it is read.
        var slot = ring[0]
        var len = 0
        reading: while true {
            // Nowhere to write: stop reading (input may never end).
            if writer.out.failed { break }
            // Fill the piece while input is there without waiting; before
            // waiting for input, what is read goes out: whole records in
            // the slot (what a long record's stream read past it) as a
            // piece, the pieces handed out by writing them.
            // A piece is read to `target` bytes, or on to a whole piece
            // until it holds a whole record.
            while !eof && len < pieceSize {
                if !ready() {
                    if memchr(slot.bytes, Int32(terminator), len) != nil { break }
                    drain()
                    if writer.out.failed { break reading }
                }
                let limit = len < target ? target : pieceSize
                let n = readOnce(read, slot.bytes + len, limit - len, eof: &eof, failure: &failure)
                len += n
                writer.summary.bytes += n
                if !ready() { break }
                if len >= target && memchr(slot.bytes, Int32(terminator), len) != nil { break }
            }
            // Everything up to the last terminator is whole records.
            var end = len
            if !eof {
                while end > 0 && slot.bytes[end - 1] != terminator { end -= 1 }
            }
            if end == 0 && !eof {
                if len < pieceSize { continue }
                // One record fills the whole piece: stream it alone.
                drain()
                totals.records = nextRecord
                var leftover: [UInt8]?
                var served = 0
                let pending = Array(UnsafeBufferPointer(start: slot.bytes, count: len))
                writer.summary.bytes -= len
                // It reads at most a piece at a time, so what it reads past
                // the record (`leftover`) fits the piece's buffer.
                let processor = RecordProcessor(terminator: terminator, policy: policy, readSize: pieceSize)
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
                _ = UnsafeMutableBufferPointer(start: slot.bytes, count: len).initialize(from: rest)
                continue
            }
            if end > 0 {
                let piece = UnsafeBufferPointer(start: UnsafePointer(slot.bytes), count: end)
                let records = countByte(piece, terminator) + (piece.last == terminator ? 0 : 1)
                slot.firstRecord = nextRecord
                slot.end = end
                nextRecord += records
                filled += 1
                ring.hand()
                // Output goes out as it is done, so that little waits in
                // the ring.
                while writeNext(wait: false) {}
                if writer.out.failed { break }
            }
            if eof { break }
            // The next slot is free once its last piece is written; the
            // unfinished record moves to its front (the threads read only
            // the piece before it).
            while written <= filled - ring.count { advance() }
            let next = ring[filled]
            next.bytes.update(from: slot.bytes + end, count: len - end)
            len -= end
            slot = next
        }
        drain()
        return failure
    }

    /// A thread of `-j`: recognizes pieces as they are handed out, until
    /// ``Ring/stop(threads:)``.
    package func work(_ ring: Ring, recognizer: UnsafeMutablePointer<InMemoryRecords>) {
        // The piece's writer and counters are worked on here, on this
        // thread's stack, and not in the slot: slots lie side by side on
        // the heap, and per-chip writes to one while another thread writes
        // the next would move their cache lines between the cores. The
        // slot's writer is swapped out and back (its buffers stay unique,
        // so they are reused, not copied).
        var writer = ChipWriter(format: format, out: OutputBuffer(fd: -1, capacity: 0), policy: policy)
        while let k = ring.take() {
            let slot = ring[k]
            recognize(slot, with: recognizer, writer: &writer) { slot.handOver(&$0) }
        }
    }

    /// Recognizes the piece in `slot` into its writer, swapped in and out
    /// of `writer` (a thread's own), with `spill` taking its output past
    /// the bound; then marks the piece done.
    ///
    /// - Complexity: O(*n*) in the piece.
    func recognize(
        _ slot: Ring.Slot, with recognizer: UnsafeMutablePointer<InMemoryRecords>, writer: inout ChipWriter,
        spill: (inout ChipRecordWriter) -> Void
    ) {
        swap(&writer, &slot.writer)
        writer.records.output.removeAll()
        writer.summary = Summary()
        var totals = RunTotals()
        totals.records = slot.firstRecord
        withoutActuallyEscaping(spill) { spill in
            writer.spill = spill
            recognizer.pointee.run(
                UnsafeBufferPointer(start: UnsafePointer(slot.bytes), count: slot.end),
                terminator: terminator, writer: &writer, totals: &totals)
            writer.spill = nil
        }
        totals.records -= slot.firstRecord
        slot.totals = totals
        swap(&writer, &slot.writer)
        slot.complete = true
        slot.post()
    }
}

extension ParallelProcessor {
    /// The ring of pieces between the reading thread and the threads of
    /// `-j`. Piece *k* (counted from 0 over the whole run) lies in slot
    /// *k* mod `count`.
    ///
    /// `@unchecked Sendable` is safe: a slot's input, first record and end
    /// are written by the reading thread before ``hand()`` and read by
    /// one thread after ``take()``; its writer, totals, output handed over
    /// and `complete` are written by that thread before its `done` is
    /// signalled and read by the reading thread after waiting for it; the
    /// thread that handed output over touches it again only after `resume`,
    /// which the reading thread signals once it is written; the reading
    /// thread refills a slot only after writing its output. The semaphores
    /// order each of these. A piece the reading thread takes itself
    /// (``tryTake()``) is all on that thread.
    package final class Ring: @unchecked Sendable {
        final class Slot {
            let bytes: UnsafeMutablePointer<UInt8>
            var end = 0
            var firstRecord = 0
            /// What the piece produced, kept from piece to piece so that
            /// its buffers are reused instead of faulting in fresh memory.
            var writer: ChipWriter
            var totals = RunTotals()
            /// Signalled when output is ready to write: the piece's end
            /// (`complete`) or output handed over before it (``post()``).
            let done = DispatchSemaphore(value: 0)
            var complete = false
            /// How many times `done` was signalled (under `counting`), and
            /// how many of them the reading thread took (its own): so that
            /// it asks whether output is ready without waiting on `done`.
            /// (A wait that times out at once races with a signal, and the
            /// loser sleeps until the signal's wake-up: 1,600 such sleeps,
            /// 125 ms, on 100 MB of JSON Lines at `-j 2`.)
            private var posted = 0
            private var taken = 0
            private let counting = DispatchSemaphore(value: 1)
            /// Output handed over before the piece's end, and the chips it
            /// left out of headers.
            var handed = ByteBuffer(capacity: 0)
            var handedOmissions: [OmittedChip] = []
            /// Signalled when the output handed over is written.
            let resume = DispatchSemaphore(value: 0)

            init(bytes: Int, writer: ChipWriter) {
                self.bytes = .allocate(capacity: bytes)
                self.writer = writer
            }

            /// Output is ready to write (on the thread working on the piece).
            /// `done` first: once the count says so, a wait on it cannot
            /// block (the other order leaves a moment when it can).
            func post() {
                done.signal()
                counting.wait()
                posted += 1
                counting.signal()
            }

            /// Whether ``post()`` was called more often than ``take()``
            /// (on the reading thread).
            var isPosted: Bool {
                counting.wait()
                defer { counting.signal() }
                return posted > taken
            }

            /// Waits until output is ready to write (on the reading thread).
            func take() {
                done.wait()
                taken += 1
            }

            /// On the thread working on the piece: hands the output made so
            /// far to the reading thread and waits until it is written (its
            /// buffer comes back empty, so one buffer per slot holds output).
            func handOver(_ records: inout ChipRecordWriter) {
                swap(&records.output, &handed)
                swap(&records.omissions, &handedOmissions)
                complete = false
                post()
                resume.wait()
                swap(&records.output, &handed)
                swap(&records.omissions, &handedOmissions)
            }
        }

        private let slots: [Slot]
        var count: Int { slots.count }
        /// One signal per piece handed out, and one per thread to stop.
        private let handed = DispatchSemaphore(value: 0)
        private let lock = DispatchSemaphore(value: 1)
        private var taken = 0
        private var stopped = false

        init(count: Int, bytes: Int, _ make: () -> ChipWriter) {
            slots = (0..<count).map { _ in Slot(bytes: bytes, writer: make()) }
        }

        /// The slot of piece `k`.
        subscript(_ k: Int) -> Slot { slots[k % slots.count] }

        /// Hands out the next piece, whose slot is filled.
        func hand() {
            handed.signal()
        }

        /// Waits for a piece and returns its number, or nil once stopped.
        /// Pieces are taken in the order they were handed out: the *k*-th
        /// return follows at least *k* signals, so its slot is filled.
        func take() -> Int? {
            handed.wait()
            lock.wait()
            defer { lock.signal() }
            guard !stopped else { return nil }
            taken += 1
            return taken - 1
        }

        /// The next piece handed out, if one waits (else nil at once).
        func tryTake() -> Int? {
            guard handed.wait(timeout: .now()) == .success else { return nil }
            lock.wait()
            defer { lock.signal() }
            taken += 1
            return taken - 1
        }

        /// Lets `threads` threads go: each returns from ``take()`` with nil
        /// when it is next woken (the run has written, or after a failed
        /// write recognized, every piece it handed out before it stops).
        func stop(threads: Int) {
            lock.wait()
            stopped = true
            lock.signal()
            for _ in 0..<threads { handed.signal() }
        }

        func free() {
            for slot in slots { slot.bytes.deallocate() }
        }
    }
}

/// One long-lived recognizer per thread of `-j`, used only by that thread
/// for the whole run.
///
/// Each lies on cache lines of its own: the counters a thread bumps per
/// chip must not share a line with the state another thread reads, or
/// every chip would move that line between the cores.
///
/// `@unchecked Sendable` is safe here: thread *w* of `-j` alone uses slot
/// *w* (slot 0 is the reading thread's), and the run touches the others
/// only before the threads start and after it has waited for them to end.
package struct WorkerSlots: @unchecked Sendable {
    package static let lineBytes = 128
    package let base: UnsafeMutableRawPointer
    package let stride: Int
    package let count: Int

    package init(count: Int, _ make: () -> InMemoryRecords) {
        let line = WorkerSlots.lineBytes
        stride = (MemoryLayout<InMemoryRecords>.stride + line - 1) / line * line
        self.count = count
        base = .allocate(byteCount: stride * count, alignment: line)
        for k in 0..<count { (base + k * stride).bindMemory(to: InMemoryRecords.self, capacity: 1).initialize(to: make()) }
    }

    /// Slot `k`.
    package subscript(_ k: Int) -> UnsafeMutablePointer<InMemoryRecords> {
        (base + k * stride).assumingMemoryBound(to: InMemoryRecords.self)
    }

    package func free() {
        for k in 0..<count {
            self[k].pointee.deallocate()
            self[k].deinitialize(count: 1)
        }
        base.deallocate()
    }
}

/// How many bytes of `p` are `byte`: 64 at a time, compared as vectors and
/// summed in vector lanes.
///
/// - Complexity: O(*n*).
package func countByte(_ p: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Int {
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
