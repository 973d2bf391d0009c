import Foundation
import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

func addresses(_ c: Composer, _ field: FieldID) -> [String?] {
    c.field(field)!.chips.map(\.content.address)
}

@Suite("Composer")
struct ComposerTests {

    @Test func listsAndComposersUseThePolicysRule() {
        let list = "ANN@x.org, ann@x.org"
        #expect(AddressList.parse(list)[1].warnings.contains(.duplicate))
        var exact = ValidationPolicy.standard
        exact.comparesLocalPartsExactly = true
        #expect(!AddressList.parse(list, policy: exact)[1].warnings.contains(.duplicate))
        var c = Composer(duplicatePolicy: .reject)
        c.paste("ANN@x.org, ")
        c.focus(.cc)
        let changes = c.paste("ann@x.org, ")
        #expect(c.field(.cc)!.count == 0)
        #expect(changes.contains { if case .refused(let r) = $0.change { r.reason == .duplicate } else { false } })
        var e = Composer(policy: exact, duplicatePolicy: .reject)
        e.paste("ANN@x.org, ann@x.org, ")
        #expect(e.focusedField.count == 2)
    }
    /// A group a paste left open (`Team: a@x.org, `) closes when its field
    /// is committed or loses focus: what is typed or inserted afterwards
    /// is outside it.
    @Test(arguments: [
        ("Team: a@x.org, ", "blur"), ("Team: a@x.org, ", "return"), ("Team: a@x.org,", "blur"),
        ("Team: a@x.org, b@y.org", "blur"), ("Team: a@x.org;Two: b@y.org, ", "return"),
    ])
    func aGroupLeftOpenClosesOnCommitAndBlur(_ paste: String, _ how: String) {
        var c = Composer()
        c.paste(paste)
        if how == "blur" {
            c.focus(.cc)
            c.focus(.to)
        } else {
            c.commit()
        }
        c.type("c@z.org,")
        c.insertMailbox(name: "Dee", address: "d@z.org")
        let to = c.field(.to)!
        #expect(to.chips.suffix(2).map(\.content.group) == [nil, nil], "\(paste.debugDescription) \(how)")
        #expect(to.chips.dropLast(2).allSatisfy { $0.content.group != nil })
        #expect(to.pendingText == "")
    }

    /// Seeded: a group opened by a paste of any number of members, then
    /// committed or blurred, never takes in a chip added afterwards.
    @Test(arguments: [41, 42] as [UInt64])
    func nothingJoinsAGroupAfterCommit(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<30 {
            var text = "G\(rng.next() % 9): "
            let n = Int(rng.next() % 4) + 1
            for k in 0..<n { text += "m\(k)@x.org" + (rng.next() % 2 == 0 ? ", " : ",") }
            if rng.next() % 2 == 0 { text.removeLast() }
            var c = Composer()
            c.paste(text)
            if rng.next() % 2 == 0 { c.commit() } else { c.focus(.cc); c.focus(.to) }
            c.type("z@z.org,")
            let to = c.field(.to)!
            #expect(to.chips.last?.content.group == nil, "seed \(seed): \(text.debugDescription)")
            #expect(to.count == n + 1, "seed \(seed): \(text.debugDescription)")
        }
    }

    @Test func defaultFieldsAndFocus() {
        var c = Composer()
        #expect(c.fields.map(\.name) == ["to", "cc", "bcc"])
        c.type("a@x.org")
        let changes = c.focus(.cc)
        // Leaving a field commits its text.
        #expect(addresses(c, .to) == ["a@x.org"])
        #expect(c.focusedField.name == "cc")
        #expect(changes.contains { $0.field == .to && { if case .inserted = $0.change { true } else { false } }($0) })
        #expect(c.focus(FieldID("nope")!) == [ComposerChange(field: FieldID("nope")!, change: .refused(Refusal(.noSuchField)))])
        var custom = Composer(fields: [FieldID("invitees")!])
        custom.paste("a@x.org, ")
        #expect(addresses(custom, FieldID("invitees")!) == ["a@x.org"])
    }

    @Test func moveToAnotherFieldKeepsIdentityAndContent() {
        var c = Composer()
        c.paste("Ann <a@x.org>, b@y.org, ")
        let chip = c.focusedField[0]
        c.move(from: 0, toField: .bcc, at: 0)
        #expect(addresses(c, .to) == ["b@y.org"])
        #expect(c.field(.bcc)!.chips == [chip])
        c.undo()
        #expect(addresses(c, .to) == ["a@x.org", "b@y.org"])
        #expect(c.field(.bcc)!.count == 0)
    }

    @Test func movingTheSelectionMovesEverySelectedChip() {
        var c = Composer()
        c.paste("a@x.org, b@x.org, c@x.org, ")
        c.select(0)
        c.select(2, toggle: true)
        c.move(from: 0, toField: .cc, at: 0)
        #expect(addresses(c, .to) == ["b@x.org"])
        #expect(addresses(c, .cc) == ["a@x.org", "c@x.org"])
    }

    @Test(arguments: DuplicatePolicy.allCases)
    func duplicatePolicies(_ policy: DuplicatePolicy) {
        var c = Composer(duplicatePolicy: policy)
        c.paste("ann@example.com, ")
        c.focus(.cc)
        let changes = c.paste("Ann Lee <ann@EXAMPLE.com>, ")
        let cc = c.field(.cc)!
        let to = c.field(.to)!
        switch policy {
        case .allow:
            #expect(cc.count == 1)
            #expect(!cc[0].content.warnings.contains(.duplicate))
        case .warn:
            #expect(cc.count == 1)
            #expect(cc[0].content.warnings.contains(.duplicate))
            #expect(!to[0].content.warnings.contains(.duplicate))
        case .reject:
            #expect(cc.count == 0)
            #expect(changes.contains(ComposerChange(field: .cc,
                change: .refused(Refusal(.duplicate, text: "Ann Lee <ann@EXAMPLE.com>")))))
        case .merge:
            #expect(cc.count == 0)
            #expect(to[0].content.displayName == "Ann Lee")
        }
        // Another local part is another recipient.
        c.paste("anne@example.com, ")
        #expect(c.field(.cc)!.chips.last?.content.address == "anne@example.com")
        #expect(c.field(.cc)!.chips.last?.content.warnings.contains(.duplicate) == false)
    }

    @Test func warningLeavesTheCopyLeftAlone() {
        var c = Composer(duplicatePolicy: .warn)
        c.paste("a@x.org, a@x.org, ")
        #expect(c.focusedField[1].content.warnings.contains(.duplicate))
        c.remove(at: 0)
        #expect(c.focusedField.count == 1)
        #expect(!c.focusedField[0].content.warnings.contains(.duplicate))
    }

    @Test func typingIsOneUndoStepAndPasteIsOne() {
        var c = Composer()
        for ch in "a@x.org, b@y" { c.type(String(ch)) }
        #expect(c.focusedField.count == 1)
        c.undo()
        #expect(c.focusedField.count == 0)
        #expect(c.focusedField.pendingText == "")
        #expect(!c.canUndo)
        c.paste("c@z.org, d@w.org, ")
        c.paste("e@v.org, ")
        c.undo()
        #expect(addresses(c, .to) == ["c@z.org", "d@w.org"])
    }

    @Test func anEditSessionIsOneUndoStep() {
        var c = Composer()
        c.paste("a@x.org, bob@y, ")
        let id = c.focusedField[1].id
        c.edit(at: 1)
        for ch in ".org" { c.type(String(ch)) }
        c.commit()
        #expect(addresses(c, .to) == ["a@x.org", "bob@y.org"])
        #expect(c.focusedField[1].id == id)
        c.undo()
        #expect(addresses(c, .to) == ["a@x.org", "bob@y"])
        #expect(c.focusedField[1].id == id)
        c.redo()
        #expect(addresses(c, .to) == ["a@x.org", "bob@y.org"])
    }

    @Test func undoReturnsTheFocusTheStepLeft() {
        var c = Composer()
        c.type("a@x.org")
        c.focus(.cc)
        c.type("b@y.org,")
        #expect(c.focusedField.name == "cc")
        c.undo()
        #expect(c.focusedField.name == "cc")
        #expect(addresses(c, .cc) == [])
        c.undo()
        #expect(c.focusedField.name == "to")
        #expect(c.focusedField.pendingText == "a@x.org")
    }

    @Test func aNewEditClearsRedo() {
        var c = Composer()
        c.paste("a@x.org, ")
        c.undo()
        #expect(c.canRedo)
        c.paste("b@x.org, ")
        #expect(!c.canRedo)
    }

    @Test func sendRefusesErrorsAndPendingTextThenCommits() {
        var c = Composer()
        c.paste("a@x.org, b@, ")
        var report = c.send()
        #expect(!report.sent)
        #expect(report.errorChips[.to] == [c.focusedField[1].id])
        c.remove(at: 1)
        c.focus(.cc)
        c.type("pending")
        report = c.send()
        #expect(!report.sent)
        #expect(report.fieldsWithPendingText == [.cc])
        c.backspace(); c.backspace(); c.backspace(); c.backspace(); c.backspace(); c.backspace(); c.backspace()
        report = c.send()
        #expect(report.sent)
        #expect(c.field(.to)![0].state == .committed)
        #expect(!c.canUndo)
        // Committed chips can no longer change.
        c.focus(.to)
        #expect(c.remove(at: 0) == [ComposerChange(field: .to, change: .refused(Refusal(.chipCommitted)))])
        #expect(c.edit(at: 0).contains(ComposerChange(field: .to, change: .refused(Refusal(.chipCommitted)))))
        #expect(c.move(from: 0, toField: .cc, at: 0).contains { if case .refused = $0.change { true } else { false } })
        #expect(addresses(c, .to) == ["a@x.org"])
    }

    @Test func limitsAreValues() {
        var c = Composer(limits: FieldLimits(maxChips: 1, maxPendingBytes: 100))
        c.paste("a@x.org, ")
        let refused = c.paste("b@x.org, ")
        #expect(refused == [ComposerChange(field: .to, change: .refused(Refusal(.tooManyChips)))])
    }
}

/// The edited state: a snapshot without the identity counter, which undo
/// leaves alone so that identities are never reused, and without the focus,
/// which moves without making an undo step of its own.
func visible(_ c: Composer) -> ComposerSnapshot {
    var s = c.snapshot
    for k in s.fields.indices { s.fields[k].nextSerial = 0 }
    s.focus = .to
    return s
}

@Suite("Composer undo")
struct ComposerUndoTests {
    enum Op: CaseIterable { case type, paste, backspace, delete, left, right, commit, select, edit, remove, move, moveField, focus, composition }

    @discardableResult
    static func apply(_ op: Op, _ c: inout Composer, _ rng: inout SplitMix64) -> [ComposerChange] {
        let n = c.focusedField.count
        switch op {
        case .type: return c.type(["a", "@", ".", "x", ",", " ", "é", "\""][rng.below(8)])
        case .paste: return c.paste(["a@x.org, ", "Ann <b@y.org>, c", "Team: t@z.org;", "\"Lee, A\" <l@x.org>, "][rng.below(4)])
        case .backspace: return c.backspace()
        case .delete: return c.deleteForward()
        case .left: return c.moveLeft()
        case .right: return c.moveRight()
        case .commit: return c.commit()
        case .select: return n > 0 ? c.select(rng.below(n), extend: rng.below(3) == 0, toggle: rng.below(3) == 0) : []
        case .edit: return n > 0 ? c.edit(at: rng.below(n)) : []
        case .remove: return n > 0 ? c.remove(at: rng.below(n)) : []
        case .move: return n > 1 ? c.move(from: rng.below(n), to: rng.below(n)) : []
        case .moveField: return n > 0 ? c.move(from: rng.below(n), toField: [FieldID.to, .cc, .bcc][rng.below(3)], at: rng.below(3)) : []
        case .focus: return c.focus([FieldID.to, .cc, .bcc][rng.below(3)])
        case .composition: return c.compositionUpdate("あ")
        }
    }

    /// One step of a random session: an undo or redo one time in six,
    /// else a random operation.
    @discardableResult
    static func randomStep(_ c: inout Composer, _ rng: inout SplitMix64) -> [ComposerChange] {
        if rng.below(6) == 0 { return rng.below(2) == 0 ? c.undo() : c.redo() }
        return apply(Op.allCases[rng.below(Op.allCases.count)], &c, &rng)
    }

    /// Undo of every operation restores the exact previous state, and redo
    /// the state after it.
    @Test(arguments: Op.allCases)
    func undoRestoresTheExactPreviousState(_ op: Op) {
        for seed in 0..<40 {
            var rng = SplitMix64(seed: UInt64(seed) &+ 5)
            var c = Composer(duplicatePolicy: [.allow, .warn, .reject, .merge][seed % 4])
            for _ in 0..<rng.below(12) { Self.apply(Op.allCases[rng.below(Op.allCases.count)], &c, &rng) }
            c.commit()  // close any open typing step, so the next op is its own
            let before = visible(c)
            let undoDepth = c.undoStackCount
            Self.apply(op, &c, &rng)
            let after = visible(c)
            if c.undoStackCount > undoDepth {
                c.undo()
                #expect(visible(c) == before, "seed \(seed): undo of \(op)")
                c.redo()
                #expect(visible(c) == after, "seed \(seed): redo of \(op)")
            } else {
                #expect(visible(c) == before, "seed \(seed): \(op) changed the state without an undo step")
            }
        }
    }

    @Test(arguments: 0..<60)
    func undoAllThenRedoAllGivesTheFinalState(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 131)
        var c = Composer()
        let initial = visible(c)
        for _ in 0..<30 { Self.apply(Op.allCases[rng.below(Op.allCases.count)], &c, &rng) }
        let final = visible(c)
        while c.canUndo { c.undo() }
        #expect(visible(c) == initial, "seed \(seed)")
        while c.canRedo { c.redo() }
        #expect(visible(c) == final, "seed \(seed)")
    }
}

@Suite("Composer snapshots")
struct SnapshotTests {
    @Test func roundTripsThroughJSON() throws {
        var c = Composer(duplicatePolicy: .reject)
        c.paste("\"Lee, Ann\" <a@x.org>, b@, Team: t@z.org;, ")
        c.focus(.cc)
        c.type("half typed")
        c.select(0)
        let data = try JSONEncoder().encode(c.snapshot)
        let decoded = try JSONDecoder().decode(ComposerSnapshot.self, from: data)
        let restored = try Composer(snapshot: decoded)
        #expect(restored.snapshot == c.snapshot)
        // A restored draft goes on as the original would.
        var a = c, b = restored
        a.type(", x@y.org,")
        b.type(", x@y.org,")
        #expect(a.snapshot.fields.map { $0.chips.map(\.content) } == b.snapshot.fields.map { $0.chips.map(\.content) })
        #expect(Set(b.field(.cc)!.chips.map(\.id)).count == b.field(.cc)!.count)
    }

    @Test(arguments: [
        ("version", "snapshot version"),
        ("duplicate-id", "repeats"),
        ("caret", "caret"),
        ("index", "insertion index"),
        ("focus", "focus"),
        ("selection", "selection"),
        ("names", "field names repeat"),
    ])
    func corruptedSnapshotsFailClearly(_ corruption: String, _ message: String) throws {
        var c = Composer()
        c.paste("a@x.org, b@y.org, ")
        c.type("tail")
        var s = c.snapshot
        switch corruption {
        case "version": s.version = 99
        case "duplicate-id": s.fields[1].chips = [s.fields[0].chips[0]]
        case "caret": s.fields[0].caret = 999
        case "index": s.fields[0].insertionIndex = -1
        case "focus": s.focus = FieldID("nowhere")!
        case "selection": s.fields[1].selection = [s.fields[0].chips[0].id]
        default: s.fields[1].name = .to
        }
        #expect {
            _ = try Composer(snapshot: s)
        } throws: { error in
            (error as? SnapshotError)?.message.contains(message) == true
        }
    }

    @Test func garbageJSONIsADecodingErrorNotACrash() {
        for text in ["{}", "[]", "{\"version\":1}", "{\"version\":1,\"fields\":[{\"name\":1}]}", "not json"] {
            #expect(throws: (any Error).self) {
                _ = try JSONDecoder().decode(ComposerSnapshot.self, from: Data(text.utf8))
            }
        }
    }
}

@Suite("Composer change events")
struct ChangeEventTests {
    /// A UI that applies the changes one by one, in order, to its own list
    /// of chips ends with exactly the composer's chips, after every
    /// operation, undo and redo included.
    @Test(arguments: 0..<80)
    func changesReplayedByAUIGiveTheSameChips(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 4242)
        var c = Composer(duplicatePolicy: [.allow, .warn, .reject, .merge][seed % 4])
        var mirror: [String: [ChipID]] = ["to": [], "cc": [], "bcc": []]
        for step in 0..<50 {
            let changes = ComposerUndoTests.randomStep(&c, &rng)
            for change in changes {
                var list = mirror[change.field.name]!
                switch change.change {
                case .inserted(let id, let at):
                    #expect(at >= 0 && at <= list.count, "seed \(seed) step \(step)")
                    list.insert(id, at: min(max(at, 0), list.count))
                case .removed(let id, let at):
                    #expect(list.indices.contains(at) && list[at] == id, "seed \(seed) step \(step): removed \(id) at \(at)")
                    if list.indices.contains(at) { list.remove(at: at) }
                case .moved(let id, let from, let to):
                    #expect(list.indices.contains(from) && list[from] == id, "seed \(seed) step \(step)")
                    if list.indices.contains(from) {
                        list.remove(at: from)
                        list.insert(id, at: min(to, list.count))
                    }
                case .updated(let id, let at):
                    #expect(list.indices.contains(at) && list[at] == id, "seed \(seed) step \(step): updated \(id) at \(at)")
                default:
                    break
                }
                mirror[change.field.name] = list
            }
            for f in c.fields {
                #expect(mirror[f.name]! == f.chips.map(\.id), "seed \(seed) step \(step): field \(f.name)")
            }
        }
    }
}
