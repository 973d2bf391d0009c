#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ChipKit

/// Output to a file descriptor, or to memory when `fd` is -1: the bytes
/// gather in a ``ByteBuffer`` and leave in one `write(2)` per flush
/// (per-line `print` is an order of magnitude slower on Linux).
package struct OutputBuffer {
    package var buffer: ByteBuffer
    package let fd: Int32
    /// Set when a write failed (e.g. EPIPE); output stops there.
    package private(set) var failed = false
    /// The `errno` of the failed write.
    package private(set) var writeError: Int32 = 0

    package init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        buffer = ByteBuffer(capacity: capacity)
    }

    /// Writes out when more than `threshold` bytes are waiting.
    @inline(__always)
    package mutating func flushIfNeeded(threshold: Int = 1 << 19) {
        if buffer.count >= threshold { flush() }
    }

    /// Writes what `other` holds after what is buffered, without copying it
    /// into the buffer when this writes to a file descriptor.
    package mutating func writeThrough(_ other: ByteBuffer) {
        guard fd >= 0 else {
            buffer.append(other)
            return
        }
        flush()
        other.withUnsafeBytes { drain($0) }
    }

    package mutating func flush() {
        guard fd >= 0, !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { drain($0) }
        buffer.removeAll()
    }

    /// Writes all of `raw`, retrying on EINTR; stops for good on an error.
    private mutating func drain(_ raw: UnsafeRawBufferPointer) {
        var offset = 0
        while !failed && offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno != EINTR {
                    failed = true
                    writeError = errno
                }
                continue
            }
            if n == 0 {
                failed = true
                writeError = EIO
                continue
            }
            offset += n
        }
    }
}

/// The library's ``ChipRecordWriter`` wired to an output: the CLI only
/// moves its bytes to the file descriptor.
package struct ChipWriter {
    package var records: ChipRecordWriter
    package var out: OutputBuffer

    package init(format: OutputFormat, out: OutputBuffer, policy: ValidationPolicy, summarize: Bool = false,
         smtpUTF8: Bool = false) {
        records = ChipRecordWriter(
            format: format, policy: policy, summarize: summarize, smtpUTF8: smtpUTF8, capacity: 0)
        self.out = out
    }

    package var recordNumbers: Bool {
        get { records.recordNumbers }
        set { records.recordNumbers = newValue }
    }

    package var summary: Summary {
        get { records.summary }
        _modify { yield &records.summary }
    }

    @inline(__always)
    package mutating func write(_ c: ChipRecord) {
        records.write(c)
        if records.output.count >= spillBytes { moveOutput() }
    }

    /// Writes a chip of the simple lane (see ``ChipRecordWriter``).
    @inline(__always)
    package mutating func write(
        simple item: SimpleItem, record: Int, index: Int, _ p: UnsafeBufferPointer<UInt8>,
        raw: UnsafeBufferPointer<UInt8>, start: Int, end: Int, suggestion: String?, group: [UInt8]?
    ) {
        records.write(
            simple: item, record: record, index: index, p, raw: raw, start: start, end: end, suggestion: suggestion, group: group)
        if records.output.count >= spillBytes { moveOutput() }
    }

    /// Writes a chip of the simple lane with an encoded name, as the lane
    /// decoded it (see ``ChipRecordWriter``).
    package mutating func write(
        simple item: SimpleItem, record: Int, index: Int, _ p: UnsafeBufferPointer<UInt8>,
        raw: UnsafeBufferPointer<UInt8>, start: Int, end: Int, suggestion: String?, group: [UInt8]?, decodedName: [UInt8],
        decodedNameIsWellFormed: Bool = false
    ) {
        records.write(
            simple: item, record: record, index: index, p, raw: raw, start: start, end: end, suggestion: suggestion, group: group,
            decodedName: decodedName, decodedNameIsWellFormed: decodedNameIsWellFormed)
        if records.output.count >= spillBytes { moveOutput() }
    }

    package mutating func endRecord() {
        records.endRecord()
        // A summary holds no output until the end.
        if !records.summarize && records.output.count >= spillBytes { moveOutput() }
    }

    /// In memory (fd -1), what takes the records' bytes once more than
    /// ``spillBytes`` are waiting (nil: they stay). A piece of `-j`
    /// hands them to the thread that writes, so the output a piece holds
    /// is bounded whatever its input.
    package var spill: ((inout ChipRecordWriter) -> Void)?

    /// The output held before it goes out (or to ``spill``), plus at most
    /// the last chip or record written: ``spillThreshold`` by default, more
    /// in a piece of `-j` (``ParallelProcessor/pieceOutputBytes``).
    package var spillBytes = ChipWriter.spillThreshold

    /// The output held by default before it goes out: 512 KiB.
    package static let spillThreshold = 1 << 19

    /// Writes the records' bytes to the descriptor; in memory (fd -1) they
    /// stay where they are, so nothing is copied, unless ``spill`` takes
    /// them. Chips a header left out are reported after the output that
    /// would have held them.
    @inline(__always)
    package mutating func moveOutput() {
        guard out.fd >= 0 else {
            if let spill, records.output.count >= spillBytes { spill(&records) }
            return
        }
        out.writeThrough(records.output)
        records.output.removeAll()
        if !records.omissions.isEmpty { reportOmissions() }
    }

    /// Where chips left out of a header are reported (standard error);
    /// -1 keeps them in ``ChipRecordWriter/omissions``.
    package var errorFD: Int32 = -1
    /// How many chips a header left out (and were reported).
    package private(set) var omittedCount = 0

    /// One line on standard error for each chip a header value left out:
    /// where it was, its text, why, and what would let it through.
    package mutating func reportOmissions() {
        // After a failed write of the output only that failure is reported.
        guard errorFD >= 0, !out.failed else { return }
        var text = ByteBuffer(capacity: 256)
        for o in records.omissions {
            text.append("chipify: record ")
            text.appendDecimal(o.record)
            text.append(", chip ")
            text.appendDecimal(o.index + 1)
            text.append(" '")
            Escaper.appendEscaped(o.raw, to: text.uniqueStorage)
            if o.truncated { text.append("...") }
            text.append("' left out of the header: ")
            text.appendString(Self.omissionText(o.reason))
            text.append("\n")
        }
        omittedCount += records.omissions.count
        records.omissions.removeAll(keepingCapacity: true)
        var errors = OutputBuffer(fd: errorFD, capacity: 0)
        errors.writeThrough(text)
    }

    /// Why, in words, with what would let the chip through.
    package static func omissionText(_ reason: HeaderOmission.Reason) -> String {
        switch reason.code {
        case "in-error": "in error (\(reason.error?.code ?? "error"))"
        case "needs-smtputf8": "needs-smtputf8 (a UTF-8 local part: --smtputf8 lets it through)"
        case "invalid-idn": "invalid-idn (the domain has no A-label form)"
        case "control-character": "control-character (a control or line separator in the address)"
        case "not-an-addr-spec": "not-an-addr-spec (only --policy lenient accepts it)"
        case "too-long": "too-long (longer than a header line may be)"
        default: reason.code
        }
    }

    /// Everything written so far goes out.
    package mutating func flush() {
        moveOutput()
        out.flush()
    }

    /// Whether a write failed.
    package var failed: Bool { out.failed }

    /// What the run ends with, after a failed write (see ``writeFailureStatus(_:stderr:)``).
    package func finalStatus(_ status: Int32, stderr: Int32) -> Int32 {
        writeFailureStatus(out, stderr: stderr) ?? status
    }

    /// Everything written so far, for output to memory.
    package func bytes() -> [UInt8] { records.output.bytes }
}

/// Calls `read` once for at most `count` bytes at `p`. At the end of the
/// input, or on an error (kept in `failure`), sets `eof`. Returns the
/// number of bytes read (0 at the end or on an error).
@inline(__always)
package func readOnce(
    _ read: (UnsafeMutableRawPointer, Int) -> Int, _ p: UnsafeMutableRawPointer, _ count: Int,
    eof: inout Bool, failure: inout Int32?
) -> Int {
    let n = read(p, count)
    if n < 0 {
        failure = errno
        eof = true
        return 0
    }
    if n == 0 { eof = true }
    return n
}

/// Reads a whole file descriptor, retrying on EINTR. Returns the count
/// read, 0 at the end, or -1 with `errno` set.
package func readSome(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let n = read(fd, p, count)
        if n < 0 && errno == EINTR { continue }
        return n
    }
}

/// Writes a string to a file descriptor at once (for messages). Returns
/// the buffer, whose `failed` tells whether the write went through.
@discardableResult
package func writeAll(_ fd: Int32, _ text: String) -> OutputBuffer {
    var out = OutputBuffer(fd: fd, capacity: text.utf8.count)
    out.buffer.appendString(text)
    out.flush()
    return out
}

/// The exit status a failed write of standard output calls for, or nil
/// when every write went through. A closed pipe (EPIPE, as under `| head`)
/// ends the run quietly with 141, the status of a process that SIGPIPE
/// stops; any other failure (ENOSPC, EIO, …) is reported on standard
/// error and gives 1, so nothing is lost without a word.
package func writeFailureStatus(_ out: OutputBuffer, stderr: Int32) -> Int32? {
    guard out.failed else { return nil }
    if out.writeError == EPIPE { return 141 }
    writeAll(stderr, "chipify: write error: \(errorText(out.writeError))\n")
    return 1
}

package func errorText(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    return String(cString: s)
}

/// Whether `fd` is a regular file, whose reads never wait for input to
/// come.
package func isRegularFile(_ fd: Int32) -> Bool {
    var s = stat()
    return fstat(fd, &s) == 0 && s.st_mode & S_IFMT == S_IFREG
}

/// Whether `fd` has input (or its end) to read without waiting.
package func inputIsReady(_ fd: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, 0) > 0
}
