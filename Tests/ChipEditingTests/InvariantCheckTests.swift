import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

/// `_checkInvariants()`: what it checks holds after every operation, and
/// it sees each invariant broken.
@Suite("Composer invariants, checked")
struct InvariantCheckTests {
    /// Random operations, undo and redo, with contacts: no invariant breaks
    /// (debug builds also check after each operation; this asks directly,
    /// so the check runs in any build).
    @Test(arguments: 0..<TestScale.count(60, 20, "invariants after random operations, seeds"))
    func randomOperationsKeepEveryInvariant(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x1A7)
        var c = Composer(duplicatePolicy: [.allow, .warn, .reject, .merge][seed % 4])
        c.remoteLookups = seed % 3 == 0
        c.maxUndoSteps = 1 + rng.below(20)
        for step in 0..<80 {
            ComposerUndoTests.randomStep(&c, &rng)
            let broken = c.invariantViolations()
            #expect(broken.isEmpty, "seed \(seed) step \(step): \(broken)")
            if !broken.isEmpty { return }
        }
    }

    static func draft() -> Composer {
        var c = Composer()
        c.paste("a@x.org, Ann <b@y.org>, c@, ")
        c.focus(.cc)
        c.paste("d@z.org, ")
        return c
    }

    /// Each corruption is seen, with words that say which invariant.
    @Test(arguments: ["focus", "index-missing", "index-extra", "index-empty", "two-fields", "repeat", "lookup", "undo"])
    func eachBrokenInvariantIsSeen(_ corruption: String) {
        var c = Self.draft()
        #expect(c.invariantViolations().isEmpty)
        let a = c.fields[0][0].id
        var changes: [FieldChange] = []
        let expected: String
        switch corruption {
        case "focus":
            c.focusedIndex = 7
            expected = "focus"
        case "index-missing":
            c.chipKeys[a] = nil
            expected = "missing from the address index"
        case "index-extra":
            c.chipKeys[c.fields[0][2].id] = 42
            expected = "no address"
        case "index-empty":
            c.keyIndex[99] = []
            expected = "has no chip"
        case "two-fields":
            c.fields[1].insertChip(c.fields[0][0], at: 0, &changes)
            expected = "two fields"
        case "repeat":
            c.fields[0].insertChip(c.fields[0][1], at: 0, &changes)
            expected = "repeats"
        case "lookup":
            c.lookups.byChip[a] = 12
            expected = "not open"
        default:
            c.maxUndoSteps = 1
            c.undoStack.append(c.undoStack[0])
            expected = "undo steps"
        }
        let broken = c.invariantViolations()
        #expect(broken.contains { $0.contains(expected) }, "\(corruption): \(broken)")
    }
}
