import Testing
@testable import ChipSyntax
import ChipTestSupport

/// The eight-bytes-at-a-time tests agree with the same test made one byte
/// at a time, on every byte value in every lane and on seeded random
/// buffers of every length and alignment.
@Suite("SWAR byte tests")
struct SWARTests {
    /// A word with `b` in lane `lane` and `fill` elsewhere.
    func word(_ b: UInt8, lane: Int, fill: UInt8) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(k == lane ? b : fill) << (8 * UInt64(k)) }
        return v
    }

    @Test func everyByteInEveryLane() {
        for fill: UInt8 in [0x00, 0x41, 0x5A, 0x7F, 0x80, 0xFF, 0x2E] {
            for lane in 0..<8 {
                for value in 0...255 {
                    let b = UInt8(value)
                    let v = word(b, lane: lane, fill: fill)
                    // `byte` finds `b` exactly where it is.
                    for probe: UInt8 in [0x20, 0x40, 0x3D, 0x00, 0xFF, b] {
                        let expected = b == probe || fill == probe
                        #expect((SWAR.byte(v, probe) != 0) == expected, "\(b) \(probe) lane \(lane) fill \(fill)")
                    }
                    // `lowercased` changes each lane as ByteClass does.
                    let lowered = SWAR.lowercased(v)
                    for k in 0..<8 {
                        let got = UInt8(truncatingIfNeeded: lowered >> (8 * UInt64(k)))
                        let original = k == lane ? b : fill
                        #expect(got == ByteClass.lowercased(original), "lane \(k) of \(b) fill \(fill)")
                    }
                }
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomBuffersAgreeWithOneByteAtATime(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet: [UInt8] = [0x40, 0x3D, 0x3F, 0x20, 0x41, 0x61, 0x7A, 0xC3, 0xA9, 0x80, 0xFF, 0x00, 0x2E]
        for _ in 0..<2_000 {
            let count = rng.below(40)
            let bytes = (0..<count).map { _ in rng.chance(perMille: 700) ? rng.pick(alphabet) : UInt8(rng.below(256)) }
            let lo = rng.below(count + 1), hi = lo + rng.below(count - lo + 1)
            bytes.withUnsafeBufferPointer { p in
                let facts = SWAR.scanName(p, lo..<hi)
                let slice = Array(bytes[lo..<hi])
                #expect(facts.hasAt == slice.contains(0x40))
                #expect(facts.hasNonASCII == slice.contains { $0 >= 0x80 })
                let pairs = zip(slice, slice.dropFirst()).contains { $0 == 0x3D && $1 == 0x3F }
                #expect(facts.hasEncodedWord == pairs, "\(slice)")
                #expect(SWAR.hasNonASCII(UnsafeBufferPointer(rebasing: p[lo..<hi])) == facts.hasNonASCII)
            }
        }
    }
}

/// A compare's lanes read back as bits: the machine's movemask (on x86_64)
/// and the multiplies (everywhere) give lane *k* as bit *k*, for every
/// single lane, and for seeded random masks.
@Suite("Vector lanes as bits")
struct VectorBitsTests {
    func mask(_ lanes: [Bool]) -> SIMDMask<SIMD16<Int8>> {
        var v = SIMD16<UInt8>(repeating: 0)
        for (k, on) in lanes.enumerated() where on { v[k] = 0x2C }
        return v .== SIMD16<UInt8>(repeating: 0x2C)
    }

    @Test func eachLaneIsItsBit() {
        for k in 0..<16 {
            var lanes = [Bool](repeating: false, count: 16)
            lanes[k] = true
            #expect(VectorBits.bits(mask(lanes)) == 1 << UInt64(k))
            #expect(VectorBits.gatheredBits(mask(lanes)) == 1 << UInt64(k))
            #expect(VectorBits.isAnySet(mask(lanes)))
        }
        #expect(VectorBits.bits(mask([Bool](repeating: false, count: 16))) == 0)
        #expect(!VectorBits.isAnySet(mask([Bool](repeating: false, count: 16))))
        #expect(VectorBits.bits(mask([Bool](repeating: true, count: 16))) == 0xFFFF)
    }

    @Test func randomMasks() {
        var rng = SplitMix64(seed: 16)
        for _ in 0..<5_000 {
            let word = rng.next() & 0xFFFF
            let lanes = (0..<16).map { word >> UInt64($0) & 1 == 1 }
            #expect(VectorBits.bits(mask(lanes)) == word)
            #expect(VectorBits.gatheredBits(mask(lanes)) == word)
            #expect(VectorBits.isAnySet(mask(lanes)) == (word != 0))
        }
    }
}
