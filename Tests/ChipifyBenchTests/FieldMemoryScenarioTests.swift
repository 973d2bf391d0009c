import Testing
import ChipKit
@testable import chipify_bench

@Suite("chipify-bench field memory scenario")
struct FieldMemoryScenarioTests {
    /// The two composers the scenario compares type the same chips; one
    /// keeps the typing step, the other no undo step at all.
    @Test func theComposersDifferOnlyInTheirHistory() {
        let kept = typedComposer(count: 300, undoSteps: 1_000)
        let none = typedComposer(count: 300, undoSteps: 0)
        #expect(kept.focusedField.count == 300)
        #expect(kept.focusedField.chips.map(\.content.raw) == none.focusedField.chips.map(\.content.raw))
        #expect(kept.canUndo && kept.undoStackCount == 1)
        #expect(!none.canUndo)
        #expect(kept.historyFootprint > 0 && none.historyFootprint < kept.historyFootprint)
    }

    /// Where Linux lets the peak be reset, it reads back as at least the
    /// memory in use now.
    @Test func thePeakIsReadAfterAReset() {
        guard resetPeakResident() else { return }
        let peak = peakResidentBytes()
        #expect(peak != nil)
        #expect((peak ?? 0) >= residentBytes() / 2)
    }
}
