import Testing
import ChipKit
import ChipKitTestSupport
import ChipDirectoryTestSupport
import ChipTestSupport

/// Inputs the fuzzer once broke an invariant with (Fuzz/regressions/),
/// replayed through the same verifiers (chips and contact import), plus a seeded sweep of random inputs.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = packageRoot() + "/Fuzz/regressions/"

    /// The folder's files; a missing folder is a failure of its own below,
    /// not a test that runs zero cases.
    static let inputs: [String] = directoryEntries(directory) ?? []

    @Test func regressionFolderHoldsTheKnownCrashes() {
        let names = directoryEntries(Self.directory)
        #expect(names != nil, "no folder \(Self.directory)")
        #expect((names ?? []).count >= 2, "the fuzzer's crash inputs are gone from \(Self.directory)")
    }

    @Test(arguments: inputs)
    func regressionInputKeepsEveryInvariant(_ name: String) {
        let bytes = readFile(Self.directory + name)
        #expect(bytes != nil, "cannot read \(name)")
        #expect(InvariantVerifier.violations(ofAnyPolicy: bytes ?? []) == [], "\(name)")
        #expect(ContactCorpus.importViolations(of: bytes ?? []) == [], "\(name)")
        #expect(ContactCorpus.suggestionViolations(of: ContactCorpus.contacts(fromLines: bytes ?? [])) == [], "\(name)")
    }

    @Test(arguments: 0..<60)
    func randomInputsKeepEveryInvariant(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 31337)
        let bytes = randomList(&rng, pieces: 1 + rng.below(30))
        #expect(InvariantVerifier.violations(ofAnyPolicy: bytes) == [], "seed \(seed)")
    }
}
