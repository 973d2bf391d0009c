#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes behind an ``OutputBuffer``: a raw, growable block. A class
/// only so that its memory is freed with it; one buffer owns it.
final class ByteStorage {
    var base: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }
}

/// Buffered output to a file descriptor, or to memory when `fd` is -1.
///
/// One `write(2)` per flush: per-line `print` is an order of magnitude
/// slower on Linux. Appends copy into raw memory: through `Array`'s
/// generic `append(contentsOf:)`, small appends were a fifth of the time
/// of `--format jsonl`.
struct OutputBuffer {
    let storage: ByteStorage
    let fd: Int32
    /// Set when a write failed (e.g. EPIPE); output stops there.
    private(set) var failed = false

    init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        storage = ByteStorage(capacity: capacity)
    }

    /// The bytes not yet written (a copy).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    var count: Int { storage.count }

    /// Forgets what is buffered, keeping the memory.
    func clear() { storage.count = 0 }

    @inline(__always)
    mutating func append(_ b: UInt8) {
        storage.reserve(1)
        storage.base[storage.count] = b
        storage.count += 1
    }

    @inline(__always)
    mutating func appendRaw(_ p: UnsafePointer<UInt8>?, _ n: Int) {
        guard n > 0, let p else { return }
        storage.reserve(n)
        (storage.base + storage.count).update(from: p, count: n)
        storage.count += n
    }

    @inline(__always)
    mutating func append(_ s: StaticString) {
        appendRaw(s.utf8Start, s.utf8CodeUnitCount)
    }

    /// Named apart from `append(_: StaticString)`: with both overloads a
    /// string literal would pick `String`, whose copy is much slower.
    mutating func appendString(_ s: String) {
        var s = s
        s.withUTF8 { appendRaw($0.baseAddress, $0.count) }
    }

    mutating func append(_ p: UnsafeBufferPointer<UInt8>) {
        appendRaw(p.baseAddress, p.count)
    }

    mutating func append(contentsOf a: [UInt8]) {
        a.withUnsafeBufferPointer { appendRaw($0.baseAddress, $0.count) }
    }

    mutating func appendDecimal(_ value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(-value)
            return
        }
        if value < 10 {
            append(UInt8(truncatingIfNeeded: value) + 0x30)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 {
                n += 1
                d[20 - n] = UInt8(truncatingIfNeeded: v % 10) + 0x30
                v /= 10
            }
            let start = d.baseAddress!.assumingMemoryBound(to: UInt8.self) + (20 - n)
            appendRaw(start, n)
        }
    }

    /// Writes out when more than `threshold` bytes are waiting.
    @inline(__always)
    mutating func flushIfNeeded(threshold: Int = 1 << 19) {
        if storage.count >= threshold { flush() }
    }

    /// Writes what `other` holds after what is buffered, without copying it
    /// into the buffer when this writes to a file descriptor.
    mutating func writeThrough(_ other: OutputBuffer) {
        guard fd >= 0 else {
            appendRaw(other.storage.base, other.storage.count)
            return
        }
        flush()
        drain(UnsafeRawBufferPointer(start: other.storage.base, count: other.storage.count))
    }

    mutating func flush() {
        guard fd >= 0, storage.count > 0 else { return }
        drain(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
        storage.count = 0
    }

    /// Writes all of `raw`, retrying on EINTR; stops for good on an error.
    private mutating func drain(_ raw: UnsafeRawBufferPointer) {
        var offset = 0
        while !failed && offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno != EINTR { failed = true }
                continue
            }
            offset += n
        }
    }
}

/// Calls `read` once for at most `count` bytes at `p`. At the end of the
/// input, or on an error (kept in `failure`), sets `eof`. Returns the
/// number of bytes read (0 at the end or on an error).
@inline(__always)
func readOnce(
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
func readSome(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let n = read(fd, p, count)
        if n < 0 && errno == EINTR { continue }
        return n
    }
}

/// Reports a usage error in the three lines of the house style and returns
/// its exit status, 64.
func usageFailure(_ fd: Int32, _ message: String, usage: String, helpCommand: String) -> Int32 {
    writeAll(fd, "Error: \(message)\n\(usage)\nSee '\(helpCommand)'.\n")
    return 64
}

/// Writes a string to a file descriptor at once (for messages).
func writeAll(_ fd: Int32, _ text: String) {
    var out = OutputBuffer(fd: fd, capacity: text.utf8.count)
    out.appendString(text)
    out.flush()
}

func errorText(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    return String(cString: s)
}

/// Whether `fd` has input (or its end) to read without waiting.
func inputIsReady(_ fd: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, 0) > 0
}
