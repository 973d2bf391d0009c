/// A growable run of bytes that the writers of this layer append to: the
/// output of a ``ChipRecordWriter`` or a ``HeaderWriter`` before a host
/// sends it somewhere.
///
/// Appends copy into raw memory. Through `Array`'s generic
/// `append(contentsOf:)` the many small appends of a JSON record were a
/// fifth of the time of writing it. The storage is copied on write, so the
/// buffer is a value like any other: a copy never sees later appends.
///
/// Invariant: `count <= capacity`, and the first `count` bytes of the
/// storage are the buffer's contents.
public struct ByteBuffer: @unchecked Sendable {
    // `@unchecked Sendable` is safe: the storage is only written through
    // `makeUnique()`, which copies it first unless this value is its only
    // owner, so no two values (or threads) ever share written storage.

    package final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        func copy() -> Storage {
            let s = Storage(capacity: capacity)
            s.base.update(from: base, count: count)
            s.count = count
            return s
        }

        @inline(__always)
        func reserve(_ n: Int) {
            if count + n > capacity { grow(count + n) }
        }

        @inline(__always)
        func append(_ b: UInt8) {
            reserve(1)
            base[count] = b
            count += 1
        }

        @inline(__always)
        func append(_ p: UnsafePointer<UInt8>?, count n: Int) {
            guard n > 0, let p else { return }
            reserve(n)
            (base + count).update(from: p, count: n)
            count += n
        }

        @inline(__always)
        func append(_ s: StaticString) {
            append(s.utf8Start, count: s.utf8CodeUnitCount)
        }

        func appendString(_ s: String) {
            var s = s
            s.withUTF8 { append($0.baseAddress, count: $0.count) }
        }

        @inline(__always)
        func append(_ p: UnsafeBufferPointer<UInt8>) {
            append(p.baseAddress, count: p.count)
        }

        func append(contentsOf a: [UInt8]) {
            a.withUnsafeBufferPointer { append($0.baseAddress, count: $0.count) }
        }

        func appendDecimal(_ value: Int) {
            if value < 0 {
                append(UInt8(ascii: "-"))
                if value == .min {
                    appendString(String(value).dropFirst().description)
                    return
                }
                appendDecimal(-value)
                return
            }
            if value < 10 {
                append(UInt8(truncatingIfNeeded: value) + 0x30)
                return
            }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
            var n = 0
            var v = value
            withUnsafeMutableBytes(of: &digits) { d in
                while v > 0 {
                    n += 1
                    d[24 - n] = UInt8(truncatingIfNeeded: v % 10) + 0x30
                    v /= 10
                }
                let start = d.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - n)
                append(UnsafePointer(start), count: n)
            }
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

    var storage: Storage

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 16) {
        storage = Storage(capacity: capacity)
    }

    /// The number of bytes held.
    public var count: Int { storage.count }

    /// Whether the buffer holds no byte.
    public var isEmpty: Bool { storage.count == 0 }

    /// The bytes held, as an array (a copy).
    ///
    /// - Complexity: O(*n*) in the bytes held.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    /// Calls `body` with the bytes held, without copying them.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
    }

    /// Forgets what is held, keeping the memory.
    public mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) {
            storage.count = 0
        } else {
            storage = Storage(capacity: storage.capacity)  // nothing to copy
        }
    }

    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The storage, made this value's own: the writers of this layer
    /// append to it directly, with one uniqueness check per chip rather
    /// than one per append.
    package var uniqueStorage: Storage {
        mutating get {
            makeUnique()
            return storage
        }
    }

    /// Appends one byte.
    @inline(__always)
    public mutating func append(_ b: UInt8) { uniqueStorage.append(b) }

    /// Appends `n` bytes at `p`.
    ///
    /// - Complexity: O(*n*).
    @inline(__always)
    public mutating func append(_ p: UnsafePointer<UInt8>?, count n: Int) { uniqueStorage.append(p, count: n) }

    /// Appends a literal's UTF-8 bytes.
    ///
    /// - Complexity: O(*n*) in the literal's length.
    @inline(__always)
    public mutating func append(_ s: StaticString) { uniqueStorage.append(s) }

    /// Appends a string's UTF-8 bytes. Named apart from `append(_:)` for
    /// `StaticString`: with both overloads a literal would pick `String`,
    /// whose copy is much slower.
    ///
    /// - Complexity: O(*n*) in the string's UTF-8 length.
    public mutating func appendString(_ s: String) { uniqueStorage.appendString(s) }

    /// Appends the bytes of a buffer.
    ///
    /// - Complexity: O(*n*) in the buffer's length.
    public mutating func append(_ p: UnsafeBufferPointer<UInt8>) { uniqueStorage.append(p) }

    /// Appends the bytes of an array.
    ///
    /// - Complexity: O(*n*) in the array's length.
    public mutating func append(contentsOf a: [UInt8]) { uniqueStorage.append(contentsOf: a) }

    /// Appends what another buffer holds.
    ///
    /// - Complexity: O(*n*) in the other buffer's length.
    public mutating func append(_ other: ByteBuffer) {
        uniqueStorage.append(UnsafePointer(other.storage.base), count: other.storage.count)
    }

    /// Appends an integer in decimal.
    ///
    /// - Complexity: O(*d*) in its number of digits.
    public mutating func appendDecimal(_ value: Int) { uniqueStorage.appendDecimal(value) }
}
