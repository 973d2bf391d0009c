#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of the largest checks a test run does.
///
/// The few checks that sweep a whole corpus, or hundreds of seeds, run a
/// seeded sample by default, so a cold `swift test` stays quick; with
/// `CHIPIFY_TESTS=full` (as `.ci/run` sets) they run whole. The sample's
/// seed is printed once per check; `CHIPIFY_TEST_SEED=n` repeats a sample.
/// A sample is always a subset of the whole check, so a failure in either
/// is a real failure.
public enum TestScale {
    /// Whether the largest checks run whole (`CHIPIFY_TESTS=full`).
    public static let isFull: Bool = {
        guard let value = getenv("CHIPIFY_TESTS") else { return false }
        return String(cString: value) == "full"
    }()

    /// The seed samples are drawn with: `CHIPIFY_TEST_SEED`, or one taken
    /// from the clock, so successive runs cover different samples.
    public static let seed: UInt64 = {
        if let value = getenv("CHIPIFY_TEST_SEED"), let n = UInt64(String(cString: value)) { return n }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(truncatingIfNeeded: now.tv_sec) &* 1_000_003 &+ UInt64(truncatingIfNeeded: now.tv_nsec) % 1_000_003
    }()

    /// `items` whole under `CHIPIFY_TESTS=full`; otherwise `count` of them
    /// (all when there are no more), drawn with ``seed`` and kept in their
    /// order. Says what it kept on standard output, with how to repeat it.
    ///
    /// - Complexity: O(*n*) in the items.
    public static func sample<C: Collection>(_ items: C, _ count: Int, _ label: String) -> [C.Element] {
        let all = Array(items)
        guard !isFull, count < all.count else { return all }
        // Each check draws its own stream, so adding a check leaves the
        // others' samples as they were for a given seed.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in label.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var random = SplitMix64(seed: seed ^ hash)
        var picked = Array(all.indices)
        for i in 0..<count {
            let j = i + random.below(picked.count - i)
            picked.swapAt(i, j)
        }
        let kept = picked[..<count].sorted().map { all[$0] }
        print("sampled: \(label): \(count) of \(all.count) (CHIPIFY_TEST_SEED=\(seed); CHIPIFY_TESTS=full runs all)")
        return kept
    }

    /// `full` under `CHIPIFY_TESTS=full`, else `sampled`: how many rounds
    /// of a seeded loop run, or how large an input is. The rounds run are
    /// the first of the whole check's (a seeded stream gives them in the
    /// same order); a smaller input is still past the bound it tests.
    /// Says so on standard output.
    public static func count(_ full: Int, _ sampled: Int, _ label: String) -> Int {
        guard !isFull, sampled < full else { return full }
        print("sampled: \(label): the first \(sampled) of \(full) (CHIPIFY_TESTS=full runs all)")
        return sampled
    }
}
