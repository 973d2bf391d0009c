import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ChipKit

/// Inputs the fuzzer once broke an invariant with (Fuzz/regressions/),
/// replayed through the same checks, plus a seeded sweep of random inputs.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory: String = {
        let root = String(#filePath).components(separatedBy: "/Tests/")[0]
        return root + "/Fuzz/regressions/"
    }()

    static var inputs: [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    @Test(arguments: inputs)
    func regressionInputKeepsEveryInvariant(_ name: String) {
        let bytes = readAll(Self.directory + name)
        #expect(!bytes.isEmpty || name.isEmpty)
        #expect(invariantViolations(bytes) == [], "\(name)")
    }

    @Test(arguments: 0..<60)
    func randomInputsKeepEveryInvariant(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 31337)
        let bytes = randomList(&rng, pieces: 1 + rng.below(30))
        #expect(invariantViolations(bytes) == [], "seed \(seed)")
    }
}
