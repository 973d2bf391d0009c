import Testing
@testable import chipify_bench

@Suite("chipify-bench group scenarios")
struct GroupScenarioTests {
    /// The same seeded taps give the same checksum, and every sample is a tap.
    @Test func theTapScenarioIsRepeatable() {
        let a = groupTapScenario(options: 50, samples: 40)
        let b = groupTapScenario(options: 50, samples: 40)
        #expect(a.name == "group/tap/50")
        #expect(a.stats.count == 40)
        #expect(a.checksum == b.checksum)
        #expect(a.checksum > 0)
    }
}
