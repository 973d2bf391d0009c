/// SplitMix64 (Steele, Lea & Flood, 2014): the one seeded generator of the
/// tests, the fuzzer's replay and the benchmark's corpus.
///
/// Chosen because it is tiny, fast and fully specified: unlike the system
/// generator or `Hasher`, a seed reproduces its stream on every machine and
/// toolchain, so a failing randomized case is replayed from its seed and
/// the corpus a seed names never changes.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<n`, by Lemire's multiply-high with rejection.
    /// Spelled out because the standard library's `random(in:using:)` is not
    /// promised to stay the same across releases, and the corpus must.
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "below(_:) needs a positive bound")
        let bound = UInt64(n)
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    public mutating func between(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// True with probability `perMille` / 1000.
    public mutating func chance(perMille: Int) -> Bool {
        below(1000) < perMille
    }

    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }
}
