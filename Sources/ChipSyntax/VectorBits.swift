#if arch(x86_64)
// The toolchain's own Clang module of SSE2 intrinsics (baseline on every
// x86_64): `pmovmskb` reads a compare's lanes back as bits in one step.
import _Builtin_intrinsics.intel
#endif

/// Sixteen bytes compared at once, and the lanes of a compare read back
/// as bits. Written only with the forms that compile to vector
/// instructions (compares against a splatted vector, `.|` `.&` on masks,
/// wrapping arithmetic, `unsafeBitCast`): check the machine code
/// (`pcmpeqb`, `pminub`) after changing anything here.
@usableFromInline package enum VectorBits {
    /// The sixteen bytes at `p`.
    @inlinable @inline(__always)
    package static func load(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// The lanes of a mask as 16 bits, lane 0 lowest: on x86_64 by
    /// `pmovmskb`; elsewhere each half's lanes (0x00 or 0xFF bytes of a
    /// word) are gathered into bits by one multiply each, in scalar code
    /// (the standard library has no movemask).
    @inlinable @inline(__always)
    package static func bits(_ m: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        #if arch(x86_64)
        return UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(m, to: __m128i.self))))
        #else
        return gatheredBits(m)
        #endif
    }

    /// ``bits(_:)`` by the multiplies, on every architecture: the
    /// reference the tests hold the fast form to.
    @inlinable @inline(__always)
    package static func gatheredBits(_ m: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let words = unsafeBitCast(m, to: SIMD2<UInt64>.self)
        return gather(words[0]) | gather(words[1]) << 8
    }

    /// Whether some lane of a mask is set.
    @inlinable @inline(__always)
    package static func isAnySet(_ m: SIMDMask<SIMD16<Int8>>) -> Bool {
        #if arch(x86_64)
        return _mm_movemask_epi8(unsafeBitCast(m, to: __m128i.self)) != 0
        #else
        let words = unsafeBitCast(m, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
        #endif
    }

    /// Bit *j* of the result: the low bit of byte *j* of `w`, gathered by
    /// one multiply (each bit lands on its own place in the top byte, and
    /// no two products meet, so nothing carries).
    @inlinable @inline(__always)
    package static func gather(_ w: UInt64) -> UInt64 {
        ((w & 0x0101_0101_0101_0101) &* 0x0102_0408_1020_4080) >> 56
    }

    /// The lanes holding an ASCII letter, digit or hyphen (LDH), or a dot.
    @inlinable @inline(__always)
    package static func hostNameBytes(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        let letter = ((v | SIMD16<UInt8>(repeating: 0x20)) &- SIMD16<UInt8>(repeating: 0x61)) .< SIMD16<UInt8>(repeating: 26)
        let digit = (v &- SIMD16<UInt8>(repeating: 0x30)) .< SIMD16<UInt8>(repeating: 10)
        var ok = letter .| digit
        ok .|= v .== SIMD16<UInt8>(repeating: 0x2D)
        ok .|= v .== SIMD16<UInt8>(repeating: 0x2E)
        return ok
    }

    /// Bit *k* set when an odd number of bits of `x` are set at or below
    /// *k*: from each opening quote up to (not including) its closing one,
    /// or from each `(` up to its `)` when they alternate.
    @inlinable @inline(__always)
    package static func prefixXor(_ x: UInt64) -> UInt64 {
        var y = x
        y ^= y << 1
        y ^= y << 2
        y ^= y << 4
        y ^= y << 8
        y ^= y << 16
        y ^= y << 32
        return y
    }

    /// The low `n` bits set (`n` at most 64).
    @inlinable @inline(__always)
    package static func low(_ n: Int) -> UInt64 {
        n >= 64 ? ~0 : (1 << UInt64(n)) &- 1
    }
}
