import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
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
        #expect(addresses(c, .to) == ["a@x.org", "b@x.org", "c@x.org", "d@x"])
        #expect(c.focusedField.insertionIndex == 1)
        #expect(changes.contains { $0.change == .caretMoved })
        c.type("e@x.org, ")
        #expect(addresses(c, .to) == ["a@x.org", "e@x.org", "b@x.org", "c@x.org", "d@x"])
        c.moveCaret(toChipIndex: 99)
        #expect(c.focusedField.insertionIndex == 5)
    }

    @Test func moveSelectionKeepsOrderAndUndoes() {
        var c = Self.composer("a@x.org, b@x.org, c@x.org, d@x.org, ")
        let before = c.focusedField.chips
        c.select(0)
        c.select(2, toggle: true)
        c.moveSelection(to: 2)
        #expect(addresses(c, .to) == ["b@x.org", "d@x.org", "a@x.org", "c@x.org"])
        c.undo()
        #expect(c.focusedField.chips == before)
    }

    /// The policy is a `let`: a field recognizes with the rules it was made
    /// with, and a composer gives its policy to every field.
    @Test(arguments: [ValidationPolicy.strict, .standard, .lenient])
    func everyFieldRecognizesWithTheComposersPolicy(_ policy: ValidationPolicy) {
        var c = Composer(policy: policy)
        for name in [FieldID.to, .cc, .bcc] {
            c.focus(name)
            c.paste("ann@x.org (Ann), ")
            let chip = c.field(name)![0].content
            #expect(c.field(name)!.policy == policy)
            let parsed = AddressList.parse("ann@x.org (Ann)", policy: policy)[0]
            #expect(chip.error == parsed.error, "\(policy.name) in \(name)")
        }
        // Comments are errors under strict only.
        #expect((c.field(.to)![0].content.error == nil) == (policy.name != "strict"))
    }

    /// A thousand pastes, each with domains never seen before: under the
    /// old design every step pinned its own copy of the 4,096-entry
    /// look-alike cache (64 KiB), about 65 MB in all. Now each step keeps
    /// only its text and chips.
    /// A full history forgets its oldest steps and keeps the newest, in
    /// order, however many were forgotten (the history is read from an
    /// offset and compacted now and then): undoing every step kept gives
    /// the draft as it was before them, and no step more.
    @Test(arguments: [1, 7, 50, 64])
    func aFullHistoryKeepsTheNewestSteps(_ keep: Int) {
        var c = Composer()
        c.maxUndoSteps = keep
        let total = 300
        for k in 0..<total { c.paste("p\(k)@x.org, ") }
        #expect(c.undoStackCount == keep)
        var undone = 0
        while c.canUndo {
            c.undo()
            undone += 1
        }
        #expect(undone == keep)
        #expect(c.focusedField.chips.map(\.content.address) == (0..<(total - keep)).map { "p\($0)@x.org" } as [String?])
        for _ in 0..<keep { c.redo() }
        #expect(c.focusedField.count == total)
        // Lowering the limit forgets at once.
        c.maxUndoSteps = keep / 2
        #expect(c.undoStackCount == keep / 2)
    }

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
        // The count includes the history's own arrays and the two saved
        // text states of each step (about 1.3 KB), not only what they hold.
        #expect(footprint < 1_000 * 4_096, "history pins \(footprint) bytes for \(pasted) bytes pasted")
        // Look-alike checks still run in the field.
        var d = Composer()
        d.paste("ann@gmial.com, ")
        #expect(d.focusedField[0].content.warnings.contains(.likelyTypo))
    }

    /// Addresses typed key by key, one typing step: each chip costs the
    /// history one edit that shares the chip with the field, whatever the
    /// number of keys; the step's text states are two, not one per key or
    /// per chip. (Each key once kept a 1,248-byte edit, two per chip: about
    /// 2.5 KB a chip.) Undo empties the field; redo brings every chip back.
    @Test func typingKeyByKeyCostsTheHistoryAFewBytesPerChip() {
        let count = 2_000
        var c = Composer()
        for k in 0..<count {
            for key in "u\(k)@x.org, " { c.type(String(key)) }
        }
        #expect(c.focusedField.count == count)
        #expect(c.undoStackCount == 1)
        let edits = c.undoStack[0].steps.reduce(0) { $0 + $1.edits.count }
        #expect(edits <= count + 1, "\(edits) edits for \(count) chips")
        let perChip = c.historyFootprint / count
        #expect(perChip < 64, "the history counts \(perChip) bytes per chip typed")
        let chips = c.focusedField.chips
        c.undo()
        #expect(c.focusedField.count == 0 && c.focusedField.pending.isEmpty)
        c.redo()
        #expect(c.focusedField.chips == chips)
    }

    /// A chip a space made at once and the next key reopened (`bob@y.org `
    /// then `<`) leaves nothing in the history: its insert and removal
    /// cancel within the step.
    @Test func aChipReopenedInTheSameStepLeavesNoEdit() {
        var c = Composer()
        for key in "bob@y.org " { c.type(String(key)) }
        #expect(c.focusedField.count == 1)
        for key in "<b@y.org>, " { c.type(String(key)) }
        #expect(c.focusedField.chips.map(\.content.rawText) == ["bob@y.org <b@y.org>"])
        let inserts = c.undoStack[0].steps[0].edits.filter { if case .insert = $0 { true } else { false } }
        #expect(inserts.count == 1)
        #expect(c.undoStack[0].steps[0].edits.count == 2, "the chip's insert and the text")
        c.undo()
        #expect(c.focusedField.count == 0 && c.focusedField.pending.isEmpty)
        c.redo()
        #expect(c.focusedField.chips.map(\.content.rawText) == ["bob@y.org <b@y.org>"])
    }

    /// Undo then redo of a typing step leaves a field that goes on exactly
    /// as if nothing had been undone: the step's one text state is the
    /// whole state after its last key (seeded).
    @Test(arguments: 0..<30)
    func afterUndoAndRedoTypingGoesOnAsBefore(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 911)
        let words = ["a@x.org", " ", ",", "Ann", "<b@y.org>", "(c)", ".", "@", "z.org", "Team:", ";", "\"Lee, A\"", "\n"]
        let typed = (0..<(2 + rng.below(14))).map { _ in rng.pick(words) }.joined()
        let more = (0..<(1 + rng.below(6))).map { _ in rng.pick(words) }.joined()
        var c = Composer()
        for key in typed { c.type(String(key)) }
        var untouched = c
        c.undo()
        c.redo()
        #expect(visible(c) == visible(untouched), "seed \(seed): \(typed.debugDescription)")
        for key in more {
            c.type(String(key))
            untouched.type(String(key))
        }
        c.commit()
        untouched.commit()
        #expect(visible(c) == visible(untouched), "seed \(seed): \(typed.debugDescription) then \(more.debugDescription)")
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
