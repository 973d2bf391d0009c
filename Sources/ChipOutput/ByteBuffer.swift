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
            Storage.copy(p, to: base + count, n)
            count += n
        }

        @inline(__always)
        func append(_ s: StaticString) {
            append(s.utf8Start, count: s.utf8CodeUnitCount)
        }

        /// Copies `n` bytes: a few stores for the short pieces a record
        /// is made of (a call to `memmove` costs more than the copy),
        /// sixteen bytes a store up to 256 with the last sixteen
        /// overlapping, and `memmove` for longer ones. Never reads or
        /// writes outside the `n` bytes.
        @inline(__always)
        static func copy(_ p: UnsafePointer<UInt8>, to d: UnsafeMutablePointer<UInt8>, _ n: Int) {
            let src = UnsafeRawPointer(p), dst = UnsafeMutableRawPointer(d)
            if n >= 16 && n <= 256 {
                var i = 0
                while i + 16 < n {
                    dst.storeBytes(
                        of: src.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), toByteOffset: i,
                        as: SIMD16<UInt8>.self)
                    i += 16
                }
                dst.storeBytes(
                    of: src.loadUnaligned(fromByteOffset: n - 16, as: SIMD16<UInt8>.self), toByteOffset: n - 16,
                    as: SIMD16<UInt8>.self)
            } else if n >= 8 && n < 16 {
                dst.storeBytes(of: src.loadUnaligned(as: UInt64.self), as: UInt64.self)
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self)
            } else if n >= 4 && n < 8 {
                dst.storeBytes(of: src.loadUnaligned(as: UInt32.self), as: UInt32.self)
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self), toByteOffset: n - 4, as: UInt32.self)
            } else if n < 4 {
                for k in 0..<n { d[k] = p[k] }
            } else {
                d.update(from: p, count: n)
            }
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

        /// Appends `value` in decimal.
        @inline(__always)
        func appendDecimal(_ value: Int) {
            reserve(Storage.decimalRoom)
            count += Storage.storeDecimal(value, at: base + count)
        }

        /// The most bytes ``storeDecimal(_:at:)`` may store (it writes a
        /// word of eight for a number of fewer digits).
        static let decimalRoom = 24

        /// Stores `value` in decimal at `d` (room for ``decimalRoom``
        /// bytes) and returns how many bytes it is. One digit or two from
        /// the two-digit table, three or four (most offsets in a record)
        /// from two of its pairs in one word; below 10⁸ one
        /// word of eight digits with the leading zeros shifted out, without
        /// a branch on their count (which varies from chip to chip and
        /// mispredicted); longer numbers two digits at a time from the end.
        @inline(__always)
        static func storeDecimal(_ value: Int, at d: UnsafeMutablePointer<UInt8>) -> Int {
            if UInt(bitPattern: value) < 10 {
                d.pointee = UInt8(truncatingIfNeeded: value) &+ 0x30
                return 1
            }
            let pairs = UnsafeRawPointer(digitPairs.utf8Start)
            if UInt(bitPattern: value) < 100 {
                UnsafeMutableRawPointer(d).storeBytes(
                    of: pairs.loadUnaligned(fromByteOffset: value &* 2, as: UInt16.self), as: UInt16.self)
                return 2
            }
            if UInt(bitPattern: value) < 10_000 {
                // Three or four digits: two pairs in one word, a leading
                // zero shifted out without a branch.
                let high = UInt32(truncatingIfNeeded: value / 100), low = UInt32(truncatingIfNeeded: value) &- high &* 100
                let word = UInt32(pairs.loadUnaligned(fromByteOffset: Int(high) &* 2, as: UInt16.self))
                    | UInt32(pairs.loadUnaligned(fromByteOffset: Int(low) &* 2, as: UInt16.self)) << 16
                let digits = value >= 1_000 ? 4 : 3
                UnsafeMutableRawPointer(d).storeBytes(
                    of: UInt32(littleEndian: word >> UInt32(8 &* (4 &- digits))), as: UInt32.self)
                return digits
            }
            return storeLongDecimal(value, at: d)
        }

        @inline(never)
        static func storeLongDecimal(_ value: Int, at d: UnsafeMutablePointer<UInt8>) -> Int {
            if value < 0 {
                d.pointee = UInt8(ascii: "-")
                return 1 + storeDigits(value.magnitude, at: d + 1)
            }
            return storeDigits(UInt(value), at: d)
        }

        /// The digits of `v`: 10,000 or more, or the magnitude of a
        /// negative number (any, so this counts its digits).
        static func storeDigits(_ v: UInt, at d: UnsafeMutablePointer<UInt8>) -> Int {
            let pairs = UnsafeRawPointer(digitPairs.utf8Start)
            @inline(__always) func pair(_ k: UInt64) -> UInt64 {
                UInt64(UInt16(littleEndian: pairs.loadUnaligned(fromByteOffset: Int(k) &* 2, as: UInt16.self)))
            }
            if v < 100_000_000 {
                // The first digit in the lowest byte.
                let w = UInt64(v)
                let high = w / 10_000, low = w - high * 10_000
                let hh = high / 100, hl = high - hh * 100, lh = low / 100, ll = low - lh * 100
                let word = pair(hh) | pair(hl) << 16 | pair(lh) << 32 | pair(ll) << 48
                var digits = w >= 10 ? 2 : 1
                digits &+= w >= 100 ? 1 : 0
                digits &+= w >= 1_000 ? 1 : 0
                digits &+= w >= 10_000 ? 1 : 0
                digits &+= w >= 100_000 ? 1 : 0
                digits &+= w >= 1_000_000 ? 1 : 0
                digits &+= w >= 10_000_000 ? 1 : 0
                // Little-endian: the leading zeros go out at the bottom.
                UnsafeMutableRawPointer(d).storeBytes(
                    of: UInt64(littleEndian: word >> UInt64(8 * (8 - digits))), as: UInt64.self)
                return digits
            }
            // Digits counted first, then written from the end two at a time.
            var digits = 9
            var bound: UInt = 1_000_000_000
            while digits < 20 && v >= bound {
                digits += 1
                if bound > UInt.max / 10 { break }
                bound &*= 10
            }
            var rest = v
            var at = digits
            while rest >= 100 {
                let k = Int(rest % 100) * 2
                rest /= 100
                at -= 2
                d[at] = pairs.load(fromByteOffset: k, as: UInt8.self)
                d[at + 1] = pairs.load(fromByteOffset: k + 1, as: UInt8.self)
            }
            if rest >= 10 {
                at -= 2
                d[at] = pairs.load(fromByteOffset: Int(rest) * 2, as: UInt8.self)
                d[at + 1] = pairs.load(fromByteOffset: Int(rest) * 2 + 1, as: UInt8.self)
            } else {
                at -= 1
                d[at] = UInt8(truncatingIfNeeded: rest) + 0x30
            }
            return digits
        }

        /// "00", "01", … "99", back to back.
        static var digitPairs: StaticString {
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
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
