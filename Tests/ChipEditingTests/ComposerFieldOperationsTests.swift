import Testing
import ChipKit
@testable import ChipEditing
import ChipTestSupport

/// What a host reaches through the composer alone: every field operation
/// it needs, each one undoable; the policy fixed for a field's life; and an
/// undo history whose memory follows the edits, not a cache.
@Suite("Composer: field operations, policy, history memory")
struct ComposerFieldOperationsTests {
    static func composer(_ text: String) -> Composer {
        var c = Composer()
        c.paste(text)
        return c
    }

    @Test func selectAllThenRemoveSelectionIsOneUndoableStep() {
        var c = Self.composer("a@x.org, b@x.org, c@x.org, ")
        let before = c.focusedField.chips
        let selected = c.selectAll()
        #expect(selected.contains { $0.change == .selectionChanged })
        #expect(c.focusedField.selection == Set(before.map(\.id)))
        let removed = c.removeSelection()
        #expect(c.focusedField.count == 0)
        #expect(removed.filter { if case .removed = $0.change { true } else { false } }.count == 3)
        c.undo()
        #expect(c.focusedField.chips == before)
        #expect(c.focusedField.selection == Set(before.map(\.id)))
        c.clearSelection()
        #expect(c.focusedField.selection.isEmpty)
    }

    @Test func moveCaretToAChipIndexCommitsAndPlacesTheCaret() {
        var c = Self.composer("a@x.org, b@x.org, c@x.org, d@x")
        let changes = c.moveCaret(toChipIndex: 1)
        // The pending `d@x` became a chip at the end, then the caret moved.
        #expect(addresses(c, "to") == ["a@x.org", "b@x.org", "c@x.org", "d@x"])
        #expect(c.focusedField.insertionIndex == 1)
        #expect(changes.contains { $0.change == .caretMoved })
        c.type("e@x.org, ")
        #expect(addresses(c, "to") == ["a@x.org", "e@x.org", "b@x.org", "c@x.org", "d@x"])
        c.moveCaret(toChipIndex: 99)
        #expect(c.focusedField.insertionIndex == 5)
    }

    @Test func moveSelectionKeepsOrderAndUndoes() {
        var c = Self.composer("a@x.org, b@x.org, c@x.org, d@x.org, ")
        let before = c.focusedField.chips
        c.select(0)
        c.select(2, toggle: true)
        c.moveSelection(to: 2)
        #expect(addresses(c, "to") == ["b@x.org", "d@x.org", "a@x.org", "c@x.org"])
        c.undo()
        #expect(c.focusedField.chips == before)
    }

    /// The policy is a `let`: a field recognizes with the rules it was made
    /// with, and a composer gives its policy to every field.
    @Test(arguments: [ValidationPolicy.strict, .standard, .lenient])
    func everyFieldRecognizesWithTheComposersPolicy(_ policy: ValidationPolicy) {
        var c = Composer(policy: policy)
        for name in ["to", "cc", "bcc"] {
            c.focus(name)
            c.paste("ann@x.org (Ann), ")
            let chip = c.field(named: name)![0].content
            #expect(c.field(named: name)!.policy == policy)
            let parsed = AddressList.parse("ann@x.org (Ann)", policy: policy)[0]
            #expect(chip.error == parsed.error, "\(policy.name) in \(name)")
        }
        // Comments are errors under strict only.
        #expect((c.field(named: "to")![0].content.error == nil) == (policy.name != "strict"))
    }

    /// A thousand pastes, each with domains never seen before: under the
    /// old design every step pinned its own copy of the 4,096-entry
    /// look-alike cache (64 KiB), about 65 MB in all. Now each step keeps
    /// only its text and chips.
    @Test func undoHistoryMemoryFollowsTheEditsNotTheLookalikeCache() {
        var c = Composer()
        c.maxUndoSteps = 2_000
        var pasted = 0
        for k in 0..<1_000 {
            let text = "user\(k)@domain\(k).example, Name \(k) <n\(k)@gmial\(k).com>, "
            pasted += text.utf8.count
            c.paste(text)
        }
        #expect(c.undoStackCount == 1_000)
        #expect(c.focusedField.count == 2_000)
        let footprint = c.historyFootprint
        #expect(footprint > pasted, "the history holds the chips' text")
        #expect(footprint < 1_000 * 2_048, "history pins \(footprint) bytes for \(pasted) bytes pasted")
        // Look-alike checks still run in the field.
        var d = Composer()
        d.paste("ann@gmial.com, ")
        #expect(d.focusedField[0].content.warnings.contains(.likelyTypo))
    }
}

/// Moving the selection equals removing the selected chips and inserting
/// them, in order, at the destination of what remains (seeded cases).
@Suite("Field: moving the selection")
struct MoveSelectionTests {
    @Test(arguments: 0..<40)
    func movingTheSelectionEqualsRemoveThenInsert(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 77)
        let n = 1 + rng.below(8)
        var field = ChipField(name: "to")
        field.insert((0..<n).map { "c\($0)@x.org, " }.joined())
        var picked: [Int] = []
        for i in 0..<n where rng.below(2) == 0 { picked.append(i) }
        guard !picked.isEmpty else { return }
        field.select(picked[0])
        for i in picked.dropFirst() { field.select(i, toggle: true) }
        let ids = field.chips.map(\.id)
        let moving = picked.map { ids[$0] }
        var rest = ids.filter { !moving.contains($0) }
        let destination = rng.below(n + 2)
        rest.insert(contentsOf: moving, at: min(destination, rest.count))
        field.moveSelection(to: destination)
        #expect(field.chips.map(\.id) == rest, "seed \(seed): \(picked) to \(destination)")
    }
}
