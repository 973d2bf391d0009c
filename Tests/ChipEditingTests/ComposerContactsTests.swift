import Foundation
import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

private func person(_ id: String, _ name: String?, _ emails: [String], nick: [String] = []) -> Contact {
    Contact(id: ContactID(id), displayName: name, nicknames: nick, emails: emails.map { ContactEmail(address: $0) })
}

private let book = ContactDirectory([
    person("jose", "José Ortiz", ["jose@ortiz.example", "j.ortiz@work.example"]),
    person("mary", "Mary Jones", ["mary@jones.example"]),
    person("john", "John Smith", ["john.smith@x.org"]),
    person("ann", "Lee, Ann", ["ann@x.org"], nick: ["annie"]),
    Contact(id: ContactID("team"), kind: .group, displayName: "Team",
            members: ["mailto:mary@jones.example", "urn:uuid:john", "ann"]),
])

private func composer(_ resolution: ContactResolution = .uniqueMatch) -> Composer {
    var c = Composer()
    c.directory = book
    c.resolution = resolution
    return c
}

@Suite("Composer with contacts")
struct ComposerContactsTests {
    @Test func suggestionsFollowThePendingTextAndLeaveOutChips() {
        var c = composer()
        c.type("jo")
        #expect(Set(c.suggestions().map(\.contact.rawValue)) == ["jose", "mary", "john"])
        c.type("s")
        // One row per address of the contact.
        #expect(c.suggestions().map(\.address) == ["jose@ortiz.example", "j.ortiz@work.example"])
        // A chipped address (in another field too) is not suggested again.
        var d = composer()
        d.focus(.cc)
        d.type("mary@jones.example, ")
        d.focus(.to)
        d.type("jo")
        #expect(Set(d.suggestions().map(\.contact.rawValue)) == ["jose", "john"])
    }

    @Test func choosingIsOneStepThatUndoesAtOnce() {
        var c = composer()
        c.type("jo")
        let s = c.suggestions().first { $0.contact.rawValue == "ann" } ?? c.suggestions()[0]
        let changes = c.choose(s)
        #expect(c.focusedField.count == 1)
        #expect(c.focusedField.pendingText.isEmpty)
        #expect(c.focusedField[0].contact == s.contact)
        #expect(c.focusedField[0].content.address == s.address)
        #expect(changes.contains { if case .inserted = $0.change { true } else { false } })
        c.undo()
        #expect(c.focusedField.count == 0)
        #expect(c.focusedField.pendingText == "jo")
    }

    @Test func namesThatNeedQuotesAreQuoted() {
        var c = composer()
        c.type("annie")
        let s = c.suggestions()[0]
        #expect(s.matchClass == .exact)  // the nickname
        c.choose(s)
        let chip = c.focusedField[0]
        #expect(chip.content.displayName == "Lee, Ann")
        #expect(chip.content.rawText == "\"Lee, Ann\" <ann@x.org>")
        #expect(chip.state == .valid)
        var d = composer()
        d.insertMailbox(name: "O\"Brien \\ Co\r\nBcc: x@y", address: "ob@x.org")
        #expect(d.focusedField.count == 1)
        #expect(d.focusedField[0].content.displayName == "O\"Brien \\ Co Bcc: x@y")
        #expect(d.focusedField[0].content.address == "ob@x.org")
    }

    /// Commit of a name: one best match → the contact; ties → ambiguous
    /// with the candidates; none → missing-at; off → missing-at.
    @Test(arguments: [
        ("annie", ContactResolution.uniqueMatch, "valid", "ann"),
        ("smith", .uniqueMatch, "valid", "john"),
        ("jo", .uniqueMatch, "ambiguous", nil),
        ("jo", .topSuggestion, "valid", "john"),  // ties broken by name: "john smith" < "jose ortiz"
        ("jo", .topSuggestionOnReturn, "valid", "john"),  // committed by Return
        ("zed", .uniqueMatch, "missing-at", nil),
        ("annie", .off, "missing-at", nil),
    ] as [(String, ContactResolution, String, String?)])
    func committedNamesResolve(_ text: String, _ policy: ContactResolution, _ outcome: String, _ contact: String?) {
        var c = composer(policy)
        c.type(text)
        c.commit()
        #expect(c.focusedField.count == 1)
        let chip = c.focusedField[0]
        #expect((chip.content.error?.code ?? "valid") == outcome)
        #expect(chip.contact?.rawValue == contact)
        if outcome == "ambiguous" {
            #expect(Set(chip.candidates.map(\.contact.rawValue)) == ["jose", "john"])
        }
        // One undo step takes back the commit and its resolution together.
        c.undo()
        #expect(c.focusedField.count == 0)
        #expect(c.focusedField.pendingText == text)
    }

    @Test func aTypedAddressIsKeptAndNamedByItsContact() {
        var c = composer(.topSuggestion)
        c.type("john.smith@x.org, \"J. O.\" <J.Ortiz@work.example>, ")
        let chips = c.focusedField.chips
        #expect(chips.map(\.content.address) == ["john.smith@x.org", "J.Ortiz@work.example"])
        #expect(chips[0].content.displayName == "John Smith")
        #expect(chips[0].contact?.rawValue == "john")
        #expect(chips[1].contact?.rawValue == "jose")
        // A name the person typed stays.
        #expect(chips[1].content.displayName == "J. O.")
    }

    @Test func alternatesReplaceTheAddressAndKeepTheChip() {
        var c = composer()
        c.type("José")
        c.commit()
        let id = c.focusedField[0].id
        #expect(c.alternates(at: 0).map(\.address) == ["j.ortiz@work.example"])
        c.chooseAlternate(at: 0, 0)
        #expect(c.focusedField[0].id == id)
        #expect(c.focusedField[0].content.address == "j.ortiz@work.example")
        #expect(c.focusedField[0].content.displayName == "José Ortiz")
        #expect(c.alternates(at: 0).map(\.address) == ["jose@ortiz.example"])
        c.undo()
        #expect(c.focusedField[0].content.address == "jose@ortiz.example")
    }

    @Test func aListExpandsToItsMembersLeavingOutThosePresent() {
        var c = composer()
        c.type("mary@jones.example, ")
        c.type("Team")
        let list = c.suggestions().first { $0.contact.rawValue == "team" }!
        #expect(list.address == nil)
        c.choose(list)
        // Mary was there already; John and Ann join, with their contacts.
        #expect(c.focusedField.chips.map(\.content.address) == ["mary@jones.example", "john.smith@x.org", "ann@x.org"])
        #expect(c.focusedField.chips.map { $0.contact?.rawValue } == ["mary", "john", "ann"])
        c.undo()
        #expect(c.focusedField.count == 1)
    }

    /// Uses are per mailbox: after José's work address was used, his
    /// name resolves to it and its row comes first.
    @Test func aNameResolvesToTheMostUsedAddress() {
        var c = Composer()
        c.directory = book.recordingUse(of: ContactID("jose"), address: "j.ortiz@work.example", at: 1000)
        #expect(c.directory!.suggestions(for: "jos").map(\.address) == ["j.ortiz@work.example", "jose@ortiz.example"])
        c.type("José")
        c.commit()
        #expect(c.focusedField[0].contact?.rawValue == "jose")
        #expect(c.focusedField[0].content.address == "j.ortiz@work.example")
    }

    /// Address books hold phone-only and company-only contacts: they are
    /// never offered, never make a typed name ambiguous, and choosing
    /// never takes the pending text away without a chip.
    @Test func contactsThatCannotBecomeAChipAreNeitherOfferedNorChosen() {
        let withPhones = book.updating([
            Contact(id: ContactID("phone"), displayName: "John Smith", phones: ["+1 555 0100"]),
            Contact(id: ContactID("company"), kind: .org, displayName: "Jonas Shipping", organization: "Jonas Shipping"),
            Contact(id: ContactID("empty-list"), kind: .group, displayName: "Joint List"),
            Contact(id: ContactID("gone-list"), kind: .group, displayName: "Jolly List", members: ["urn:uuid:nobody"]),
        ])
        var c = Composer()
        c.directory = withPhones
        c.type("jo")
        let offered = Set(c.suggestions(limit: 20).map(\.contact.rawValue))
        #expect(!offered.contains("phone") && !offered.contains("company") && !offered.contains("empty-list"))
        // A typed name with an addressless namesake still resolves.
        var d = Composer()
        d.directory = withPhones
        d.type("John Smith")
        d.commit()
        #expect(d.focusedField[0].contact?.rawValue == "john")
        #expect(d.focusedField[0].content.error == nil)
        // A list whose members make no chip: refused, the text stays.
        var e = Composer()
        e.directory = withPhones
        e.type("joll")
        let list = e.suggestions().first { $0.contact.rawValue == "gone-list" }
        #expect(list != nil)
        let changes = e.choose(list!)
        #expect(changes.contains { if case .refused(let r) = $0.change { r.reason == .nothingToChoose } else { false } })
        #expect(e.focusedField.pendingText == "joll")
        #expect(e.focusedField.count == 0)
        // A list whose members are all chips already: the same.
        var f = composer()
        f.type("mary@jones.example, john.smith@x.org, ann@x.org, Team")
        let team = f.suggestions().first { $0.contact.rawValue == "team" }!
        _ = f.choose(team)
        #expect(f.focusedField.pendingText == "Team")
        #expect(f.focusedField.count == 3)
    }

    /// A list chip (a list with an address of its own, typed and resolved)
    /// expands into its members' chips in its place, leaving out members
    /// chipped in any field, in one undoable step; a person's chip is not a
    /// list.
    @Test func aListChipExpandsInPlaceInOneStep() {
        var c = composer()
        c.directory = book.updating([
            Contact(id: ContactID("dev"), kind: .group, displayName: "Dev List",
                    emails: [ContactEmail(address: "dev@lists.example")],
                    members: ["mailto:mary@jones.example", "urn:uuid:john", "jose"]),
        ])
        c.type("mary@jones.example, Dev List, ann@x.org, ")
        #expect(c.focusedField.chips.map { $0.contact?.rawValue } == ["mary", "dev", "ann"])
        let before = c.focusedField.chips.map(\.id)
        #expect(c.expand(at: 0).allSatisfy { if case .refused = $0.change { true } else { false } })
        let changes = c.expand(at: 1)
        #expect(!changes.isEmpty)
        #expect(c.focusedField.chips.map(\.content.address)
                == ["mary@jones.example", "john.smith@x.org", "jose@ortiz.example", "ann@x.org"])
        #expect(c.focusedField.chips.map { $0.contact?.rawValue } == ["mary", "john", "jose", "ann"])
        c.undo()
        #expect(c.focusedField.chips.map(\.id) == before)
        #expect(c.focusedField[1].content.address == "dev@lists.example")
    }

    /// `topSuggestionOnReturn`: Return takes the top suggestion; a
    /// separator, Tab and blur resolve only a unique match; a remote
    /// answer applies what the commit that made its chip applied.
    @Test func theTopSuggestionOnReturnOnly() {
        func outcome(_ act: (inout Composer) -> Void) -> (String, String?) {
            var c = composer(.topSuggestionOnReturn)
            act(&c)
            let chip = c.fields[0][0]
            return (chip.content.error?.code ?? "valid", chip.contact?.rawValue)
        }
        #expect(outcome { c in c.type("jo"); c.commit(by: .returnKey) } == ("valid", "john"))
        #expect(outcome { c in c.type("jo"); c.commit(by: .tab) } == ("ambiguous", nil))
        #expect(outcome { c in c.type("jo"); c.commit(by: .blur) } == ("ambiguous", nil))
        #expect(outcome { c in c.type("jo, ") } == ("ambiguous", nil))
        #expect(outcome { c in c.type("jo"); c.focus(c.fieldIDs[1]) } == ("ambiguous", nil))
        #expect(outcome { c in c.type("smith"); c.commit(by: .tab) } == ("valid", "john"))
        // Remote answers: the local directory knows none of them.
        for (trigger, expected) in [(CommitTrigger.returnKey, "valid"), (.tab, "ambiguous")] {
            var c = Composer()
            c.directory = ContactDirectory([])
            c.resolution = .topSuggestionOnReturn
            c.remoteLookups = true
            c.type("kim")
            c.commit(by: trigger)
            let requests = c.takeLookupRequests().issued
            #expect(requests.count == 1)
            c.applyLookup(requests[0].id, contacts: [
                person("k1", "Kim Alpha", ["k1@x.org"]), person("k2", "Kim Beta", ["k2@x.org"]),
            ])
            #expect((c.focusedField[0].content.error?.code ?? "valid") == expected, "\(trigger)")
        }
    }

    /// A typed name takes its contact's preferred address, wherever the
    /// card lists it; the others stay as alternates.
    @Test func aResolvedNameTakesThePreferredAddress() {
        var c = Composer()
        c.directory = ContactDirectory([
            Contact(id: ContactID("pat"), displayName: "Pat Pref", emails: [
                ContactEmail(address: "first@x.org"), ContactEmail(address: "second@x.org", pref: 1),
            ]),
        ])
        c.type("Pat Pref")
        c.commit()
        #expect(c.focusedField[0].content.address == "second@x.org")
        #expect(c.alternates(at: 0).map(\.address) == ["first@x.org"])
    }

    /// A slow, out-of-order remote directory: answers to requests an edit
    /// made stale are ignored, a deleted chip's request is taken back.
    @Test func remoteAnswersApplyOnlyWhileTheyStillFit() {
        var c = Composer()
        c.remoteLookups = true
        c.type("Dana, Eve, Finn, ")
        #expect(c.focusedField.chips.allSatisfy { $0.isResolving })
        let (issued, _) = c.takeLookupRequests()
        #expect(issued.map(\.query) == ["Dana", "Eve", "Finn"])
        // Finn is deleted before any answer: its request is taken back.
        c.remove(at: 2)
        #expect(c.takeLookupRequests().cancelled == [issued[2].id])
        // Eve is edited (text back into the field): her answer is stale.
        c.edit(at: 1)
        let eveAnswer = c.applyLookup(issued[1].id, contacts: [person("e", "Eve Ng", ["eve@ng.example"])])
        #expect(eveAnswer.isEmpty)
        // Dana's answer arrives last but still fits.
        let dana = c.applyLookup(issued[0].id, contacts: [person("d", "Dana Wu", ["dana@wu.example"])])
        #expect(!dana.isEmpty)
        #expect(c.focusedField[0].content.address == "dana@wu.example")
        #expect(c.focusedField[0].contact?.rawValue == "d")
        #expect(!c.focusedField[0].isResolving)
        // A second answer to the same request changes nothing.
        #expect(c.applyLookup(issued[0].id, contacts: []).isEmpty)
        // An answer with two equal matches makes the chip ambiguous.
        c.commit()
        let again = c.takeLookupRequests().issued
        #expect(again.map(\.query) == ["Eve"])
        c.applyLookup(again[0].id, contacts: [person("e1", "Eve Ng", ["e1@x.org"]), person("e2", "Eve Li", ["e2@x.org"])])
        #expect(c.focusedField[1].content.error?.code == "ambiguous")
        #expect(c.focusedField[1].candidates.count == 2)
    }

    @Test func snapshotsKeepContactsSettingsAndLookups() throws {
        var c = composer(.topSuggestion)
        c.remoteLookups = true
        c.type("annie, Zed, ")
        let data = try JSONEncoder().encode(c.snapshot)
        var restored = try Composer(snapshot: JSONDecoder().decode(ComposerSnapshot.self, from: data))
        #expect(restored.resolution == .topSuggestion)
        #expect(restored.remoteLookups)
        #expect(restored.focusedField.chips == c.focusedField.chips)
        #expect(restored.focusedField[0].contact?.rawValue == "ann")
        // The lookup in flight for "Zed" is asked again.
        #expect(restored.takeLookupRequests().issued.map(\.query) == ["Zed"])
        for r in ContactResolution.allCases {
            var d = composer(r)
            d.type("x")
            let again = try Composer(snapshot: JSONDecoder().decode(ComposerSnapshot.self, from: JSONEncoder().encode(d.snapshot)))
            #expect(again.resolution == r)
        }
    }
}
