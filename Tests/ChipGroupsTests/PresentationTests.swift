import Foundation
import Testing
@testable import ChipGroups

func letters(_ n: Int) -> [ChipOptionID] { (0..<n).map { ChipOptionID("o\($0)") } }

@Suite("Chip group overflow")
struct OverflowTests {
    @Test(arguments: [(8, 8, false), (9, 8, true), (12, 8, true), (3, 2, true), (1, 1, false)])
    func anEntryAppearsPastMaxVisible(_ count: Int, _ maxVisible: Int, _ hasEntry: Bool) {
        let g = Setup(ids: letters(count), maxVisible: maxVisible).make()
        #expect((g.overflow != nil) == hasEntry)
        #expect(g.visibleOptions.count == min(count, maxVisible))
        #expect(g.overflow?.hiddenCount == (hasEntry ? count - maxVisible : nil))
    }

    @Test(arguments: [
        (false, [] as [ChipOptionID], GroupOverflow.Prompt.seeAll, 0),
        (false, ["o1"], .seeAll, 0),
        (true, ["o9"], .seeSelected, 1),
        (false, ["o1", "o9", "o10"], .selectedCount(3), 2),
        (true, ["o2"], .seeAll, 0),
    ])
    func theEntrySaysWhetherHiddenOptionsHoldTheSelection(
        _ single: Bool, _ checked: [ChipOptionID], _ prompt: GroupOverflow.Prompt, _ hiddenSelected: Int
    ) {
        let g = Setup(ids: letters(12), single: single, checked: checked).make()
        #expect(g.overflow?.prompt == prompt)
        #expect(g.overflow?.hiddenSelectedCount == hiddenSelected)
        #expect(g.overflow?.hiddenCount == 4)
        #expect(g.overflow?.selectedCount == checked.count)
    }

    @Test func togglingExpandsAndCollapses() {
        var g = Setup(ids: letters(10), checked: ["o9"]).make()
        #expect(g.toggleOverflow().edits == [.overflowToggled(expanded: true)])
        #expect(g.visibleOptions.count == 10)
        #expect(g.overflow == GroupOverflow(hiddenCount: 0, hiddenSelectedCount: 0, selectedCount: 1,
                                            isExpanded: true, prompt: .showFewer))
        #expect(g.toggleOverflow().edits == [.overflowToggled(expanded: false)])
        #expect(g.visibleOptions.map(\.id) == Array(letters(8)))
        _ = g.toggleOverflow()
        // Removing down to maxVisible leaves nothing hidden: the entry goes, closed.
        _ = g.remove("o0")
        #expect(g.remove("o1").edits == [.removed("o1", at: 0), .overflowToggled(expanded: false)])
        #expect(!g.isExpanded)
        #expect(g.overflow == nil)
    }

    @Test func withNothingHiddenToggleDoesNothing() {
        var g = Setup().make()
        #expect(g.toggleOverflow().changed == false)
        #expect(!g.isExpanded)
    }
}

@Suite("Chip group accessibility")
struct AccessibilityTests {
    @Test(arguments: [(true, ChipRole.radio), (false, .checkbox)])
    func rolesFollowTheMode(_ single: Bool, _ role: ChipRole) {
        let g = Setup(single: single, actions: ["d"]).make()
        #expect(g.role(of: "a") == role)
        #expect(g.role(of: "d") == .button)
        #expect(g.role(of: "zz") == nil)
    }

    @Test func eachOptionHasItsPositionCountAndStates() {
        let g = Setup(ids: letters(12), readOnly: true, checked: ["o2"], disabled: ["o3"]).make()
        let a = g.accessibility(of: "o2")!
        #expect(a.position == 3)
        #expect(a.count == 12)
        #expect(a.isSelected)
        #expect(!a.isDisabled)
        #expect(a.isReadOnly)
        #expect(a.role == .checkbox)
        #expect(a.label == "O2")
        #expect(g.accessibility(of: "o3")?.isDisabled == true)
        #expect(g.accessibility(of: "o3")?.isSelected == false)
        #expect(g.accessibility(of: "nope") == nil)
    }
}

@Suite("Chip group configuration")
struct ConfigurationTests {
    @Test(arguments: [
        (Setup(ids: ["a", "none"]), [GroupWarning.noneNotExclusive("none")]),
        (Setup(ids: ["a", "n"], labels: ["n": " None "]), [.noneNotExclusive("n")]),
        (Setup(ids: ["a", "none"], exclusive: ["none"]), []),
        (Setup(ids: ["a", "none"], single: true), []),
        (Setup(single: true, maxSelected: 2), [.maxSelectedInSingleMode]),
        (Setup(ids: ["a", "b"], actions: ["b"]), [.singleOption]),
    ] as [(Setup, [GroupWarning])])
    func warningsReportWhatTheGuidelinesAdviseAgainst(_ setup: Setup, _ warnings: [GroupWarning]) {
        #expect(setup.make().configurationWarnings == warnings, "\(setup)")
    }

    @Test func aLoweredMaximumIsAWarning() {
        var g = Setup(checked: ["a", "b", "c"]).make()
        _ = g.setMaxSelected(2)
        #expect(g.configurationWarnings == [.selectionAboveMaximum(count: 3, maximum: 2)])
    }

    @Test(arguments: [
        (["a", "a"], GroupConfiguration(), [] as [ChipOptionID], "option \"a\" appears twice"),
        (["a"], GroupConfiguration(), ["x"], "checked option \"x\" is not an option"),
        (["a", "b"], GroupConfiguration(isSingleSelection: true), ["a", "b"],
         "a single-selection group with 2 options checked"),
        (["a", "b"], GroupConfiguration(maxSelected: 1), ["a", "b"], "2 options checked, more than maxSelected (1)"),
        (["a"], GroupConfiguration(maxVisible: 0), [], "maxVisible must be at least 1, not 0"),
        (["a"], GroupConfiguration(maxSelected: 0), [], "maxSelected must be at least 1, not 0"),
        (["a"], GroupConfiguration(), ["a", "a"], "option \"a\" is checked twice"),
    ] as [([ChipOptionID], GroupConfiguration, [ChipOptionID], String)])
    func impossibleGroupsAreRefusedWhenMade(
        _ ids: [ChipOptionID], _ configuration: GroupConfiguration, _ checked: [ChipOptionID], _ message: String
    ) {
        let error = #expect(throws: GroupConfigurationError.self) {
            _ = try ChipGroup<Int>(options: ids.map { ChipOption(id: $0, label: $0.rawValue) },
                                   configuration: configuration, checked: checked)
        }
        #expect(error?.message == message)
        #expect(error.map { GroupConfigurationError.Reason.allReasons.contains($0.reason) } == true)
    }

    @Test func exclusiveAndActionChipsCannotStartInAWrongSelection() {
        let options: [ChipOption<Int>] = [
            ChipOption(id: "a", label: "A"), ChipOption(id: "none", label: "None", isExclusive: true),
            .action(id: "go", label: "Go"),
        ]
        #expect(configurationError {
            _ = try ChipGroup(options: options, checked: ["a", "none"])
        } == "exclusive option \"none\" is checked with others")
        #expect(configurationError {
            _ = try ChipGroup(options: options, checked: ["go"])
        } == "checked option \"go\" is an action chip")
    }
}

@Suite("Filter chips")
struct FilterTests {
    @Test func replacingTheOptionsKeepsTheSelectionThatRemains() {
        var g = Setup(ids: ["a", "b", "c"], checked: ["a", "c"]).make()
        let change = g.replaceOptions(["c", "x", "a"].map { ChipOption(id: $0, label: $0.rawValue) })
        #expect(change.edits == [.optionsReplaced])
        #expect(g.selectedIDs == ["c", "a"], "display order is the new one")
        let again = g.replaceOptions(["x"].map { ChipOption(id: $0, label: $0.rawValue) })
        #expect(again.edits == [.unchecked("c"), .unchecked("a"), .optionsReplaced])
        #expect(g.selectedIDs == [])
        #expect(g.invariantViolations() == [])
    }

    @Test func aKeptOptionThatBecameAnActionOrExclusiveIsDropped() {
        var g = Setup(ids: ["a", "b", "c"], checked: ["a", "b", "c"]).make()
        _ = g.replaceOptions([
            ChipOption(id: "a", label: "A", isExclusive: true), ChipOption(id: "b", label: "B"),
            .action(id: "c", label: "C"),
        ])
        #expect(g.selectedIDs == ["b"])
        #expect(g.invariantViolations() == [])
    }

    @Test func repeatedIdentitiesRefuseTheWholeReplacement() {
        var g = Setup(checked: ["a"]).make()
        let before = g
        let change = g.replaceOptions(["x", "x"].map { ChipOption(id: $0, label: "X") })
        #expect(change.refusal == GroupRefusal(.duplicateID, id: "x"))
        #expect(g == before)
        #expect(g.replaceOptions(before.options).changed == false)
    }
}

@Suite("Chip group snapshots")
struct GroupSnapshotTests {
    @Test func aSnapshotRoundTripsThroughJSON() throws {
        var g = Setup(ids: letters(10), required: true, checked: ["o1", "o9"], disabled: ["o2"], actions: ["o5"],
                      exclusive: ["o7"], maxSelected: 3).make()
        _ = g.toggleOverflow()
        _ = g.setActionState(.inProgress, for: "o5")
        let data = try JSONEncoder().encode(g.snapshot)
        let restored = try ChipGroup(snapshot: try JSONDecoder().decode(ChipGroupSnapshot<Int>.self, from: data))
        #expect(restored == g)
        #expect(restored.isExpanded)
        #expect(restored.selectedIDs == ["o1", "o9"])
    }

    @Test func aSelectionAboveALoweredMaximumIsRestored() throws {
        var g = Setup(checked: ["a", "b"]).make()
        _ = g.setMaxSelected(1)
        #expect(try ChipGroup(snapshot: g.snapshot) == g)
    }

    @Test func anInconsistentSnapshotIsRefused() {
        var s = Setup(single: true).make().snapshot
        s.selectedIDs = ["a", "b"]
        #expect(configurationError {
            _ = try ChipGroup(snapshot: s)
        } == "a single-selection group with 2 options checked")
        s.selectedIDs = []
        s.version = 9
        #expect(configurationError { _ = try ChipGroup(snapshot: s) } == "snapshot version 9 is not 1")
    }
}

/// The sentence of the configuration error `body` throws, or nil.
private func configurationError(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as GroupConfigurationError {
        return error.message
    } catch {
        return "not a configuration error: \(error)"
    }
}
