import Foundation
import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

private func person(_ id: String, _ name: String?, _ emails: [String]) -> Contact {
    Contact(id: ContactID(id), displayName: name, emails: emails.map { ContactEmail(address: $0) })
}

private let book = ContactDirectory([
    person("jose", "José Ortiz", ["jose@ortiz.example", "j.ortiz@work.example"]),
    person("joan", "Joan Ortiz", ["joan@ortiz.example"]),
    person("mary", "Mary Jones", ["mary@jones.example", "mj@home.example"]),
    Contact(id: ContactID("team"), kind: .group, displayName: "Team", emails: [ContactEmail(address: "team@lists.example")],
            members: ["mailto:mary@jones.example", "urn:uuid:joan"]),
])

/// Each field's chips as (identity, content, contact), and the pending text:
/// what the person sees.
private func chips(_ c: Composer) -> [[String]] {
    c.fields.map { f in
        f.chips.map { "\($0.id) \($0.content.rawText) \($0.content.warnings) \($0.contact?.rawValue ?? "-")" }
            + ["pending: \(f.pendingText)", "selected: \(f.selectedIDs)"]
    }
}

@Suite("Fields by type")
struct FieldIDTests {
    @Test(arguments: [
        ("to", true), ("Reply-To", true), ("X-Team_1", true), ("~", true),
        ("", false), ("to cc", false), ("to:", false), ("a,b", false), ("tö", false), ("t\u{7F}", false),
        ("t\u{0}", false), ("to\r\n", false), ("\u{1B}[2J", false), ("t\u{85}", false),
    ])
    func aNameIsVisibleASCIIButColonAndComma(_ name: String, _ valid: Bool) {
        #expect((FieldID(name) != nil) == valid, "\(name.debugDescription)")
        #expect(FieldID.isValidName(name) == valid)
    }

    @Test func namesCompareAsHeaderNamesDo() {
        #expect(FieldID("CC") == .cc)
        #expect(FieldID("Bcc")!.hashValue == FieldID.bcc.hashValue)
        #expect(FieldID("CC")!.name == "CC")
        #expect(Set([FieldID.to, FieldID("TO")!, FieldID("To")!]).count == 1)
        #expect(FieldID("Reply-To") != FieldID("Reply_To"))
        var c = Composer()
        #expect(c.focus(FieldID("BCC")!).last == ComposerChange(field: .bcc, change: .caretMoved))
        #expect(c.focusedFieldID == .bcc)
    }

    @Test(arguments: [("to", "To"), ("cc", "Cc"), ("BCC", "Bcc"), ("reply-to", "Reply-To"), ("x-my-list", "X-My-List"),
                      ("x_a", "X_a"), ("1-a", "1-A")])
    func theHeaderNameCapitalisesEachWord(_ name: String, _ header: String) {
        #expect(FieldID(name)!.headerName == header)
    }

    @Test func aSnapshotWithANameNoHeaderCanHaveIsADecodingError() throws {
        var c = Composer(fields: [.to, FieldID("Reply-To")!])
        c.paste("a@x.org, ")
        let data = try JSONEncoder().encode(c.snapshot)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"Reply-To\""))
        let back = try JSONDecoder().decode(ComposerSnapshot.self, from: data)
        #expect(try Composer(snapshot: back).fieldIDs == [.to, FieldID("reply-to")!])
        let bad = text.replacingOccurrences(of: "\"Reply-To\"", with: "\"Reply To\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ComposerSnapshot.self, from: Data(bad.utf8)) }
        // Names that differ only in case are one field.
        let twice = text.replacingOccurrences(of: "\"Reply-To\"", with: "\"TO\"")
        let decoded = try JSONDecoder().decode(ComposerSnapshot.self, from: Data(twice.utf8))
        #expect(throws: SnapshotError.self) { try Composer(snapshot: decoded) }
    }
}

@Suite("Chips by identity, in any field")
struct ChipIdentityTests {
    /// A draft with chips in every field, the focus on a random one, and
    /// (when `pending`) text being typed there.
    static func draft(_ rng: inout SplitMix64, pending: Bool) -> Composer {
        var c = Composer(duplicatePolicy: [.allow, .warn, .reject, .merge][rng.below(4)])
        c.directory = book
        let pieces = ["a@x.org", "Ann <b@y.org>", "c@", "Team: t@z.org;", "\"Lee, A\" <l@x.org>", "jose@ortiz.example",
                      "mary@jones.example", "a@x.org", "joan@ortiz.example", "team@lists.example"]
        for field in [FieldID.to, .cc, .bcc] {
            c.focus(field)
            c.paste((0..<rng.below(5)).map { _ in pieces[rng.below(pieces.count)] }.joined(separator: ", ") + ", ")
        }
        c.focus([FieldID.to, .cc, .bcc][rng.below(3)])
        if pending { c.type("half") }
        return c
    }

    enum Op: CaseIterable { case remove, select, extend, toggle, move, moveHere, alternate, expand }

    /// What each operation by identity does with the focus on the chip's
    /// field and its index: the reference.
    static func byIndex(_ op: Op, _ c: inout Composer, _ index: Int, _ target: FieldID, _ at: Int) {
        switch op {
        case .remove: c.remove(at: index)
        case .select: c.select(index)
        case .extend: c.select(index, extend: true)
        case .toggle: c.select(index, toggle: true)
        case .move: c.move(from: index, toField: target, at: at)
        case .moveHere: c.move(from: index, toField: c.focusedFieldID, at: at)
        case .alternate: c.chooseAlternate(at: index, 0)
        case .expand: c.expand(at: index)
        }
    }

    static func byID(_ op: Op, _ c: inout Composer, _ id: ChipID, _ target: FieldID, _ at: Int) -> [ComposerChange] {
        switch op {
        case .remove: c.remove(id)
        case .select: c.select(id)
        case .extend: c.select(id, extend: true)
        case .toggle: c.select(id, toggle: true)
        case .move: c.move(id, to: target, at: at)
        case .moveHere: c.move(id, to: c.location(of: id)!.field, at: at)
        case .alternate: c.chooseAlternate(of: id, 0)
        case .expand: c.expand(id)
        }
    }

    /// Every operation by identity does what focusing the chip's field and
    /// acting on its index does, leaves the focus and the text being typed
    /// where they were, and is one undo step that restores the state.
    @Test(arguments: Op.allCases)
    func byIdentityEqualsFocusingAndActingByIndex(_ op: Op) {
        var done = 0
        for seed in 0..<TestScale.count(60, 25, "chips by identity, seeds") {
            var rng = SplitMix64(seed: UInt64(seed) &* 977 &+ 3)
            var c = Self.draft(&rng, pending: false)
            var all = c.fields.flatMap(\.chipIDs)
            if op == .alternate || op == .expand {
                // Mostly chips that stand for a contact, which these act on.
                let withContact = c.fields.flatMap { f in f.chips.filter { $0.contact != nil }.map(\.id) }
                if !withContact.isEmpty && rng.below(4) != 0 { all = withContact }
            }
            guard !all.isEmpty else { continue }
            let id = all[rng.below(all.count)]
            let target = [FieldID.to, .cc, .bcc][rng.below(3)]
            let at = rng.below(4)
            let (field, index) = c.location(of: id)!
            #expect(c.field(field)![index].id == id)

            var reference = c
            let focus = reference.focusedFieldID
            reference.focus(field)
            Self.byIndex(op, &reference, index, target, at)
            reference.focus(focus)

            let before = visible(c)
            let depth = c.undoStackCount
            let changes = Self.byID(op, &c, id, target, at)
            #expect(chips(c) == chips(reference), "seed \(seed) \(op) on \(id) in \(field)")
            #expect(c.focusedFieldID == focus, "seed \(seed) \(op): the focus moved")
            // Other fields change only by a duplicate warning coming or going.
            #expect(changes.allSatisfy {
                switch $0.change {
                case .refused, .updated: true
                default: $0.field == field || $0.field == target
                }
            }, "seed \(seed) \(op): \(changes)")
            if c.undoStackCount > depth {
                done += 1
                #expect(c.undoStackCount == depth + 1, "seed \(seed) \(op): more than one undo step")
                let after = visible(c)
                c.undo()
                #expect(visible(c) == before, "seed \(seed): undo of \(op)")
                c.redo()
                #expect(visible(c) == after, "seed \(seed): redo of \(op)")
            } else {
                #expect(visible(c) == before, "seed \(seed) \(op) changed the state without an undo step")
            }
        }
        // Not vacuous: the operation did something in a good share of drafts.
        #expect(done >= 3, "\(op) changed a draft \(done) times")
    }

    /// Removing a Cc chip's ⓧ while typing in To leaves the text being
    /// typed and its caret alone: nothing is committed.
    @Test func removingAChipElsewhereKeepsThePendingText() {
        for seed in 0..<20 {
            var rng = SplitMix64(seed: UInt64(seed) &+ 77)
            var c = Self.draft(&rng, pending: true)
            let others = c.fields.indices.filter { $0 != c.focusedIndex }.flatMap { c.fields[$0].chipIDs }
            guard let id = others.first else { continue }
            let pending = c.focusedField.pendingText, caret = c.focusedField.caret, count = c.focusedField.count
            let changes = c.remove(id)
            #expect(c.location(of: id) == nil, "seed \(seed)")
            #expect(c.focusedField.pendingText == pending && c.focusedField.caret == caret && c.focusedField.count == count)
            #expect(changes.contains { if case .removed(id, _) = $0.change { true } else { false } })
            // Typing goes on where it was.
            c.type("@x.org, ")
            #expect(c.focusedField.chips.last?.content.address == "half@x.org", "seed \(seed)")
        }
    }

    @Test func anIdentityNoFieldHoldsIsRefused() {
        var c = Composer()
        c.paste("a@x.org, ")
        let gone = c.focusedField[0].id
        c.remove(gone)
        let refused = [ComposerChange(field: .to, change: .refused(Refusal(.noSuchChip)))]
        #expect(c.remove(gone) == refused)
        #expect(c.select(gone) == refused)
        #expect(c.move(gone, to: .cc, at: 0) == refused)
        #expect(c.edit(gone) == refused)
        #expect(c.expand(gone) == refused)
        #expect(c.chooseAlternate(of: gone, 0) == refused)
        #expect(c.alternates(of: gone).isEmpty)
        #expect(c.location(of: gone) == nil)
    }

    /// Editing a chip of another field moves the focus there (typing goes
    /// where the caret is) and turns the chip into text.
    @Test func editingAChipElsewhereFocusesItsField() {
        var c = Composer()
        c.focus(.cc)
        c.paste("Ann <a@x.org>, b@y.org, ")
        let id = c.focusedField[0].id
        c.focus(.to)
        c.type("c@z.org")
        let changes = c.edit(id)
        #expect(c.focusedFieldID == .cc)
        #expect(c.field(.to)!.chips.map(\.content.address) == ["c@z.org"])
        #expect(c.focusedField.pendingText == "Ann <a@x.org>")
        #expect(changes.contains(ComposerChange(field: .cc, change: .removed(id, at: 0))))
        c.type(" ")
        c.commit()
        #expect(c.focusedField.chips.map(\.id).first == id, "the edited chip keeps its identity")
    }

    /// An `ambiguous` chip becomes one of its candidates: valid, standing
    /// for that contact, same identity, one undo step.
    @Test func anAmbiguousChipResolvesToACandidate() throws {
        var c = Composer()
        c.directory = book
        c.focus(.cc)
        c.type("ortiz, ")
        let chip = try #require(c.focusedField.chips.first)
        #expect(chip.content.error == .ambiguous)
        #expect(chip.candidates.count >= 2)
        c.focus(.to)
        c.type("typing")
        let pick = try #require(chip.candidates.first { $0.contact == ContactID("joan") })
        let changes = c.resolve(chip.id, to: pick)
        #expect(changes == [ComposerChange(field: .cc, change: .updated(chip.id, at: 0))])
        let resolved = try #require(c.field(.cc)?.chip(chip.id))
        #expect(resolved.state == .valid)
        #expect(resolved.content.address == "joan@ortiz.example")
        #expect(resolved.contact == ContactID("joan"))
        #expect(resolved.candidates.isEmpty)
        #expect(c.focusedFieldID == .to && c.focusedField.pendingText == "typing")
        c.undo()
        #expect(c.field(.cc)?.chip(chip.id)?.content.error == .ambiguous)
        // Not one of its candidates: refused, nothing changes.
        let other = try #require(book.suggestions(for: "mary").first)
        #expect(c.resolve(chip.id, to: other) == [ComposerChange(field: .to, change: .refused(Refusal(.noSuchChip)))])
    }

    /// Resolved to an address another chip holds, the duplicate policy
    /// applies in the same undo step.
    @Test func aResolvedChipMeetsTheDuplicatePolicy() throws {
        var c = Composer(duplicatePolicy: .reject)
        c.directory = book
        c.paste("joan@ortiz.example, ortiz, ")
        let chip = try #require(c.focusedField.chips.last)
        let pick = try #require(chip.candidates.first { $0.contact == ContactID("joan") })
        let changes = c.resolve(chip.id, to: pick)
        #expect(c.focusedField.count == 1)
        #expect(changes.contains { if case .refused(let r) = $0.change { r.reason == .duplicate } else { false } })
        c.undo()
        #expect(c.focusedField.count == 2)
        #expect(c.focusedField.chips.last?.content.error == .ambiguous)
    }

    /// A chip whose address changes leaves the old address and meets the
    /// duplicate policy at the new one, and undo gives the old back.
    @Test func anAlternateChosenIsANewAddressForTheDuplicatePolicy() throws {
        var c = Composer(duplicatePolicy: .warn)
        c.directory = book
        c.paste("mary@jones.example, mj@home.example, ")
        let first = c.focusedField[0].id, second = c.focusedField[1].id
        #expect(c.focusedField.chips.allSatisfy { !$0.content.warnings.contains(.duplicate) })
        c.chooseAlternate(of: first, 0)
        #expect(c.focusedField[0].content.address == "mj@home.example")
        #expect(c.focusedField.chip(first)!.content.warnings.contains(.duplicate))
        #expect(c.invariantViolations().isEmpty)
        // Its old address is free: typed again, it is no duplicate.
        c.paste("mary@jones.example, ")
        #expect(!c.focusedField[2].content.warnings.contains(.duplicate))
        c.undo()
        c.undo()
        #expect(c.focusedField.chip(first)!.content.address == "mary@jones.example")
        #expect(c.invariantViolations().isEmpty)
        // Removing the other copy lifts the mark, as for typed copies.
        c.redo()
        c.remove(second)
        #expect(!c.focusedField.chip(first)!.content.warnings.contains(.duplicate))
    }

    /// Choosing a suggestion reports its chip once, not inserted and then
    /// updated; so does every operation, undo and redo (seeded).
    @Test func choosingReportsEachChipOnce() throws {
        var c = Composer()
        c.directory = book
        c.type("jose")
        let s = try #require(c.suggestions().first)
        let changes = c.choose(s)
        let id = c.focusedField[0].id
        #expect(changes.filter { [.inserted(id, at: 0), .updated(id, at: 0)].contains($0.change) }
                == [ComposerChange(field: .to, change: .inserted(id, at: 0))])
        #expect(c.focusedField[0].contact == ContactID("jose"))
    }

    @Test(arguments: 0..<TestScale.count(40, 15, "one report per chip, seeds"))
    func everyOperationReportsAChipOnce(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 31)
        var c = Composer(duplicatePolicy: [.allow, .warn, .reject, .merge][seed % 4])
        c.directory = book
        for step in 0..<60 {
            let changes = ComposerUndoTests.randomStep(&c, &rng)
            var reported = Set<ChipID>()
            for change in changes {
                switch change.change {
                case .inserted(let id, _): reported.insert(id)
                case .updated(let id, _): #expect(reported.insert(id).inserted, "seed \(seed) step \(step): \(changes)")
                case .removed(let id, _): reported.remove(id)
                default: break
                }
            }
        }
    }

    /// A mailbox inserted without a contact is resolved as the same text
    /// typed is: the directory's contact, and so its alternates.
    @Test(arguments: [("José", "jose@ortiz.example"), (nil, "MJ@home.example"), ("Someone", "nobody@x.org"),
                      (nil, "joan@ortiz.example")] as [(String?, String)])
    func anInsertedMailboxIsTheTypedOne(_ name: String?, _ address: String) {
        var inserted = Composer(), typed = Composer()
        inserted.directory = book
        typed.directory = book
        inserted.insertMailbox(name: name, address: address)
        typed.paste(MailboxText.format(name: name, address: address) + ", ")
        #expect(inserted.focusedField[0].contact == typed.focusedField[0].contact, "\(address)")
        #expect(inserted.focusedField[0].content == typed.focusedField[0].content)
        #expect(inserted.alternates(at: 0) == typed.alternates(at: 0))
        #expect(inserted.alternates(of: inserted.focusedField[0].id) == typed.alternates(at: 0))
        if address.hasPrefix("MJ") { #expect(inserted.alternates(at: 0).map(\.address) == ["mary@jones.example"]) }
    }
}

/// A standalone field (a form's chip input, not a composer's) is saved and
/// read back whatever its name: under its name when that can name a
/// header, else under the name made one (each byte it may not hold, and
/// `%`, as `%XX`); its chips keep their identities and new ones do not
/// collide with them.
@Suite("A standalone field is saved and read back")
struct StandaloneFieldSnapshotTests {
    @Test(arguments: [
        ("To:", "To%3A"), ("", "field"), ("Reply To", "Reply%20To"), ("Empfänger", "Empf%C3%A4nger"),
        ("a,b", "a%2Cb"), ("50%:", "50%25%3A"), ("cc", "cc"), ("Reply-To", "Reply-To"),
    ])
    func aFieldOfAnyNameIsReadBack(_ row: (String, String)) throws {
        var field = ChipField(name: row.0)
        _ = field.insert("ann@x.org, Team: Bob <bob@y.org>;, bad@, pend")
        _ = field.select(0)
        #expect(field.chips.count == 3 && field.pendingText == "pend")
        let saved = field.snapshot
        #expect(saved.name.name == row.1)
        let decoded = try JSONDecoder().decode(FieldSnapshot.self, from: JSONEncoder().encode(saved))
        var back = try ChipField(snapshot: decoded)
        #expect(back.name == row.1)
        #expect(back.chips.map(\.content.raw) == field.chips.map(\.content.raw))
        #expect(back.chips.map(\.id) == field.chips.map(\.id))
        #expect(back.selectedIDs == field.selectedIDs)
        #expect(back.pendingText == "pend" && back.caret == field.caret)
        _ = back.insert(", carol@z.org,")
        #expect(Set(back.chips.map(\.id)).count == back.chips.count, "new identities are new")
    }

    /// Identities a host gave the field (`idPrefix`), and what no field
    /// writes: a repeated identity, an index past the chips.
    @Test func identitiesAreKeptAndWhatNoFieldWritesIsRefused() throws {
        var field = ChipField(name: "to", idPrefix: 3)
        _ = field.insert("ann@x.org, bob@y.org, ")
        let back = try ChipField(snapshot: field.snapshot)
        #expect(back.chips.map(\.id) == field.chips.map(\.id))
        var repeated = field.snapshot
        repeated.chips.append(repeated.chips[0])
        #expect(throws: SnapshotError.self) { try ChipField(snapshot: repeated) }
        var past = field.snapshot
        past.insertionIndex = 5
        do {
            _ = try ChipField(snapshot: past)
            Issue.record("an index past the chips was read")
        } catch {
            #expect(error.reason == .insertionIndexOutOfRange)
        }
    }
}
