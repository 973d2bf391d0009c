import Testing
import ChipKit
import ChipKitTestSupport
import ChipTestSupport

/// The invariant verifier over the inputs the project carries: the sample
/// corpus under every policy, every real Debian maintainer list, and
/// seeded random lists. (The RFC tables run it on every row as well.)
@Suite("Invariants on the corpus")
struct InvariantTests {
    static let root = packageRoot()

    static func lines(_ path: String) -> [[UInt8]] {
        (readFile(root + "/" + path) ?? []).split(separator: 0x0A).map(Array.init)
    }

    @Test func sampleCorpusKeepsEveryInvariantUnderEveryPolicy() {
        let lines = Self.lines("Corpus/samples/compose.txt")
        #expect(lines.count >= 20, "the sample corpus is missing")
        for (k, line) in lines.enumerated() {
            #expect(InvariantVerifier.violations(ofAnyPolicy: line) == [], "line \(k + 1)")
        }
        // And the whole sample as one paste, line breaks and all.
        let whole = readFile(Self.root + "/Corpus/samples/compose.txt") ?? []
        #expect(InvariantVerifier(policy: .standard).violations(of: whole) == [])
    }

    /// The real lists, in four shards so they run side by side.
    @Test(arguments: 0..<4)
    func realMaintainerListsKeepEveryInvariant(shard: Int) {
        let lines = Self.lines("Corpus/real/debian-maintainers.txt")
        #expect(lines.count == 7_501, "the real corpus is missing or changed")
        var verifier = InvariantVerifier(policy: .standard)
        verifier.seeds = [UInt64(shard + 1)]
        var checked = 0
        for (j, k) in Self.realLinesChecked.enumerated() where j % 4 == shard {
            let broken = verifier.violations(of: lines[k])
            #expect(broken == [], "line \(k + 1): \(String(decoding: lines[k], as: UTF8.self))")
            checked += 1
        }
        #expect(checked * 4 >= Self.realLinesChecked.count - 3)
    }

    /// Which lines of the 7,501: a seeded 600 by default, all of them
    /// under `CHIPIFY_TESTS=full`.
    static let realLinesChecked = TestScale.sample(0..<7_501, 600, "real maintainer lists, every invariant")

    /// The verifier is not vacuous: it sees what it claims to check.
    @Test func verifierHelpersSplitKeysAndRebaseChips() {
        // Keys are scalars, or single bytes where UTF-8 is invalid.
        let bytes: [UInt8] = Array("aé😀".utf8) + [0xFF, 0xC3]
        #expect(InvariantVerifier.keys(of: bytes).map(\.count) == [1, 2, 4, 1, 1])
        // A parsed chip seen as a field holds it: offsets from its start.
        let chip = AddressList.parse("x@y.org, bob@")[1]
        let rebased = InvariantVerifier.relativeToChip(chip)
        #expect(chip.byteRange == 9..<13 && rebased.byteRange == 0..<4)
        #expect(rebased.errorOffset == chip.errorOffset! - 9)
    }
}
