/// Byte tests eight bytes at a time in one 64-bit integer ("SIMD within a
/// register"): what the checks run on every chip use to look at a name or
/// a domain without a branch per byte.
@usableFromInline package enum SWAR {
    // Computed, so that a use in another module is a constant, not a lazy
    // global behind a `swift_once`.
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `i`, the first in the lowest byte.
    @inlinable @inline(__always)
    package static func load(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: UInt64.self))
    }

    /// Non-zero exactly when some byte of `v` is zero.
    @inlinable @inline(__always)
    package static func zeroByte(_ v: UInt64) -> UInt64 {
        (v &- ones) & ~v & highs
    }

    /// Non-zero exactly when some byte of `v` is `b`.
    @inlinable @inline(__always)
    package static func byte(_ v: UInt64, _ b: UInt8) -> UInt64 {
        zeroByte(v ^ (ones &* UInt64(b)))
    }

    /// A flag (the byte's high bit) on each byte of `v` that is a control
    /// character, DEL or of 0x80 and above: non-zero exactly when `v` is
    /// not all printable ASCII and spaces. The lowest flag is exact (a
    /// borrow or a carry runs only upwards, from a byte that is flagged).
    @inlinable @inline(__always)
    package static func unprintable(_ v: UInt64) -> UInt64 {
        let controls = (v &- ones &* 0x20) & ~v & highs
        let high = ((v &+ ones) | v) & highs
        return controls | high
    }

    /// ``unprintable(_:)`` and `(` and `)` too: what stops a walk through
    /// a comment's text. The lowest flag is exact.
    @inlinable @inline(__always)
    package static func commentStops(_ v: UInt64) -> UInt64 {
        zeroByte((v & ~ones) ^ (ones &* 0x28)) | unprintable(v)
    }

    /// `v` with its ASCII capitals lower-cased; other bytes (those of
    /// 0x80 and above too) unchanged.
    @inlinable @inline(__always)
    package static func lowercased(_ v: UInt64) -> UInt64 {
        let x = v & ~highs
        // The high bit of each byte: at least `A`, and at least `[`.
        let atLeastA = x &+ ones &* (0x80 - 0x41)
        let pastZ = x &+ ones &* (0x80 - 0x5B)
        let upper = atLeastA & ~pastZ & ~v & highs
        return v | upper >> 2
    }

    /// What the look-alike checks need to know of a display name's raw
    /// bytes before looking closer.
    package struct NameFacts: Sendable {
        package var hasAt = false
        /// `=?`, which may start an RFC 2047 encoded word.
        package var hasEncodedWord = false
        package var hasNonASCII = false
    }

    /// The ``NameFacts`` of `p[range]`.
    ///
    /// - Complexity: O(*n*), eight bytes per step.
    package static func scanName(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> NameFacts {
        var at: UInt64 = 0, equals: UInt64 = 0, high: UInt64 = 0
        var i = range.lowerBound
        let end = range.upperBound
        while i + 8 <= end {
            let w = load(p, i)
            high |= w
            at |= byte(w, 0x40)
            equals |= byte(w, 0x3D)
            i += 8
        }
        var facts = NameFacts()
        while i < end {
            let b = p[i]
            if b == 0x40 { facts.hasAt = true }
            if b == 0x3D { equals = 1 }
            if b >= 0x80 { facts.hasNonASCII = true }
            i += 1
        }
        if at != 0 { facts.hasAt = true }
        if high & highs != 0 { facts.hasNonASCII = true }
        if equals != 0 {
            var k = range.lowerBound
            while k + 1 < end {
                if p[k] == 0x3D && p[k + 1] == 0x3F {
                    facts.hasEncodedWord = true
                    break
                }
                k += 1
            }
        }
        return facts
    }

    /// Whether some byte of `p` is not ASCII.
    package static func hasNonASCII(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= p.count {
            high |= load(p, i)
            i += 8
        }
        while i < p.count {
            high |= UInt64(p[i])
            i += 1
        }
        return high & highs != 0
    }
}
