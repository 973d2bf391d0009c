import Testing
@testable import chipify_bench

@Suite("chipify-bench compose scenario")
struct ComposeScenarioTests {
    /// The same keys give the same bytes redrawn, and every sample is a key.
    @Test func theRedrawScenarioIsRepeatable() {
        let a = composeRedrawScenario(chips: 50, samples: 40)
        let b = composeRedrawScenario(chips: 50, samples: 40)
        #expect(a.name == "compose/redraw/50")
        #expect(a.stats.count == 40)
        #expect(a.checksum == b.checksum)
        #expect(a.checksum > 50)
    }

    /// Every save of the same draft writes the same bytes, of varied chips.
    @Test func theDraftSaveScenarioIsRepeatable() {
        let a = draftSaveScenario(chips: 60, samples: 3)
        let b = draftSaveScenario(chips: 60, samples: 3)
        #expect(a.name == "compose/draft-save/60")
        #expect(a.stats.count == 3)
        #expect(a.checksum == b.checksum)
        #expect(a.checksum > 3 * 60 * 100)
    }
}
