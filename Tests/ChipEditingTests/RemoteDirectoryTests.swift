import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
import ChipEditing
import ChipTestSupport

private func person(_ id: String, _ name: String?, _ emails: [String]) -> Contact {
    Contact(id: ContactID(id), displayName: name, emails: emails.map { ContactEmail(address: $0) })
}

private let local = ContactDirectory([
    person("ann", "Ann Lee", ["ann@x.org"]),
    person("andy", "Andy Roe", ["andy@x.org"]),
])

/// A server address book's answers, by the text asked about.
private let server = [
    person("r-anna", "Anna Berg", ["anna@corp.example", "a.berg@home.example"]),
    person("r-anders", "Anders Holm", ["anders@corp.example"]),
    person("r-ann", "Ann Lee", ["ann@x.org"]),
    person("r-nadia", "Nadia Ansari", ["nadia@corp.example"]),
    person("r-bo", "Bo Ek", ["bo@corp.example"]),
]

private func requests(_ changes: [ComposerChange]) -> [LookupRequest] {
    changes.compactMap { if case .lookupRequested(let r) = $0.change { r } else { nil } }
}

private func cancellations(_ changes: [ComposerChange]) -> [UInt64] {
    changes.compactMap { if case .lookupCancelled(let id) = $0.change { id } else { nil } }
}

/// A host's remote directory: questions come with the changes of the
/// operation that asked; answers to questions the text left behind are
/// ignored (as AOSP's directory adapter ignores a filter's late results).
@Suite("Remote directories")
struct RemoteDirectoryTests {
    /// A chip's lookup is asked in the changes of the commit that made
    /// the chip, and taken back in those of the deletion.
    @Test func chipLookupsComeWithTheChanges() {
        var c = Composer()
        c.remoteLookups = true
        let typed = c.type("Dana, ")
        let asked = requests(typed)
        #expect(asked.count == 1)
        #expect(asked.first?.chip == c.focusedField[0].id && asked.first?.query == "Dana" && asked.first?.field == .to)
        #expect(asked.first?.isForSuggestions == false)
        #expect(typed.contains { $0.change == .lookupRequested(asked[0]) && $0.field == .to })
        let removed = c.remove(at: 0)
        #expect(cancellations(removed) == [asked[0].id])
        // Polling sees the same, for a host that polls.
        let polled = c.takeLookupRequests()
        #expect(polled.issued == asked && polled.cancelled == [asked[0].id])
    }

    /// Typing asks about each new text and takes back the question about
    /// the text before; a late answer to it is ignored; the answer to the
    /// last question is merged with the local suggestions.
    @Test func suggestionsMergeTheLastAnswer() {
        var c = Composer()
        c.directory = local
        c.remoteSuggestions = true
        let first = requests(c.type("a"))
        #expect(first.map(\.query) == ["a"] && first[0].isForSuggestions && first[0].chip == nil)
        let second = c.type("n")
        #expect(cancellations(second) == [first[0].id])
        #expect(requests(second).map(\.query) == ["an"])
        // Moving the caret changes no text: no question.
        #expect(requests(c.moveLeft()).isEmpty && requests(c.moveRight()).isEmpty)
        // The answer to "a" comes late: stale.
        let late = c.applySuggestionLookup(first[0].id, contacts: server)
        #expect(!late)
        #expect(c.suggestions().map(\.contact.rawValue) == ["andy", "ann"])
        // The answer to "an": Ann Lee is local already (same address).
        let taken = c.applySuggestionLookup(requests(second)[0].id, contacts: server)
        #expect(taken)
        let again = c.applySuggestionLookup(requests(second)[0].id, contacts: [])
        #expect(!again, "a second answer is not taken")
        let merged = c.suggestions()
        #expect(merged.map(\.address) == [
            "andy@x.org", "ann@x.org", "anders@corp.example", "anna@corp.example", "a.berg@home.example", "nadia@corp.example",
        ])
        #expect(!merged.contains { $0.contact.rawValue == "r-ann" }, "an address suggested locally is not repeated")
        #expect(!merged.contains { $0.contact.rawValue == "r-bo" })
        // Local first within a match class.
        for (a, b) in zip(merged, merged.dropFirst()) {
            #expect(a.matchClass <= b.matchClass, "\(a.contact) before \(b.contact)")
        }
        // Narrowing keeps the answer's matches while the next one is out.
        c.type("d")
        #expect(c.suggestions().map(\.contact.rawValue) == ["andy", "r-anders"])
        // Text that does not go on from the answered one shows none of it.
        c.backspace()
        c.backspace()
        #expect(c.suggestions().allSatisfy { !$0.contact.rawValue.hasPrefix("r-") })
    }

    /// Choosing a remote suggestion makes its chip, standing for the
    /// remote contact: its other addresses are its alternates.
    @Test func aChosenRemoteSuggestionKeepsItsContact() throws {
        var c = Composer()
        c.remoteSuggestions = true
        let asked = requests(c.type("anna"))
        c.applySuggestionLookup(asked[0].id, contacts: server)
        let anna = try #require(c.suggestions().first)
        #expect(anna.contact.rawValue == "r-anna")
        let chose = c.choose(anna)
        #expect(c.focusedField[0].content.address == "anna@corp.example")
        #expect(c.focusedField[0].contact?.rawValue == "r-anna")
        #expect(c.alternates(of: c.focusedField[0].id).map(\.address) == ["a.berg@home.example"])
        // The text is gone: the answered question is over, none is open.
        #expect(requests(chose).isEmpty)
        #expect(c.suggestions().isEmpty)
    }

    /// A chip lookup's answer makes an ambiguous chip whose candidates are
    /// remote contacts; resolving it to one keeps that contact.
    @Test func aRemoteCandidateResolvesWithItsContact() throws {
        var c = Composer()
        c.remoteLookups = true
        let asked = requests(c.type("Eve, "))
        c.applyLookup(asked[0].id, contacts: [person("e1", "Eve Ng", ["e1@x.org", "eve@home.example"]),
                                              person("e2", "Eve Li", ["e2@x.org"])])
        let chip = c.focusedField[0]
        #expect(chip.content.error?.code == "ambiguous")
        let ng = try #require(chip.candidates.first { $0.contact.rawValue == "e1" })
        c.resolve(chip.id, to: ng)
        #expect(c.focusedField[0].contact?.rawValue == "e1")
        #expect(c.alternates(of: chip.id).map(\.address) == ["eve@home.example"])
    }

    /// Over seeded sessions, every question is reported once in the
    /// changes and the same as polling gives; at most one suggestion
    /// question is open; a taken answer's suggestions are those a fresh
    /// search of its contacts gives for the text (narrowing = fresh
    /// search), less what is local or chipped.
    @Test func changesAgreeWithPollingAndNarrowingIsAFreshSearch() {
        let seeds = TestScale.count(200, 40, "remote directory sessions")
        let pieces = ["a", "n", "d", "e", "r", "s", " ", "b", "o"]
        for seed in 0..<UInt64(seeds) {
            var random = SplitMix64(seed: 0xD1EC &+ seed)
            var c = Composer()
            c.directory = local
            c.remoteLookups = true
            c.remoteSuggestions = true
            var reported: [LookupRequest] = [], polled: [LookupRequest] = []
            var reportedCancelled: [UInt64] = [], polledCancelled: [UInt64] = []
            var openSuggestion: LookupRequest?
            var answeredText: String?
            var lastAsked: String?
            func words(_ s: String) -> String { s.lowercased().split(separator: " ").joined(separator: " ") }
            for step in 0..<30 {
                let changes: [ComposerChange]
                switch random.below(10) {
                case 0..<5: changes = c.type(random.pick(pieces))
                case 5: changes = c.backspace()
                case 6: changes = c.type(", ")
                case 7: changes = c.undo()
                case 8:
                    if let open = openSuggestion, c.applySuggestionLookup(open.id, contacts: server) {
                        answeredText = open.query
                        openSuggestion = nil
                    }
                    changes = []
                default: changes = c.focusedField.count > 0 ? c.remove(at: 0) : c.redo()
                }
                let asked = requests(changes)
                reported += asked
                reportedCancelled += cancellations(changes)
                let poll = c.takeLookupRequests()
                polled += poll.issued
                polledCancelled += poll.cancelled
                let label = "seed \(seed) step \(step)"
                // Each question in the changes of the operation that asked.
                #expect(asked == poll.issued, "\(label)")
                #expect(cancellations(changes) == poll.cancelled, "\(label)")
                // The last question is about the text as it is now.
                if let s = asked.last(where: \.isForSuggestions) { lastAsked = s.query }
                if !words(c.editingText).isEmpty { #expect(lastAsked == c.editingText, "\(label)") }
                #expect(asked.filter(\.isForSuggestions).count <= 1, "\(label)")
                if let s = asked.last(where: \.isForSuggestions) {
                    #expect(s.query == c.editingText, "\(label)")
                    openSuggestion = s
                }
                if let open = openSuggestion, cancellations(changes).contains(open.id) {
                    openSuggestion = nil
                }
                // The remote part of the suggestions is a fresh search.
                let text = c.editingText
                let shown = c.suggestions(limit: 50)
                let remote = shown.filter { $0.contact.rawValue.hasPrefix("r-") }
                if words(text).isEmpty { answeredText = nil }
                if let answeredText, words(text).hasPrefix(words(answeredText)) {
                    let chipped = Set(c.focusedField.chips.compactMap(\.content.address))
                    let localAddresses = Set(shown.filter { !$0.contact.rawValue.hasPrefix("r-") }.compactMap(\.address))
                    let fresh = Suggestion.matching(server, query: text, limit: 50).filter {
                        !chipped.contains($0.address ?? "") && !localAddresses.contains($0.address ?? "")
                    }
                    #expect(remote == fresh, "\(label): \(text.debugDescription)")
                } else {
                    #expect(remote.isEmpty, "\(label): \(text.debugDescription) shows an answer for other text")
                }
            }
            #expect(reported == polled, "seed \(seed)")
            #expect(reportedCancelled == polledCancelled, "seed \(seed)")
            #expect(Set(reported.map(\.id)).count == reported.count, "seed \(seed): a request reported twice")
        }
    }

    /// The setting is saved; an answer is not (the host asks again).
    @Test func aSnapshotKeepsTheSetting() throws {
        var c = Composer()
        c.remoteSuggestions = true
        #expect(try Composer(snapshot: c.snapshot).remoteSuggestions)
        #expect(try !Composer(snapshot: Composer().snapshot).remoteSuggestions)
    }

    /// A host that builds a suggestion of its own gets the fields it gave.
    @Test func aHostBuiltSuggestion() {
        let s = Suggestion(contact: ContactID("x"), name: "Zoë", address: "zoe@x.org", matchClass: .exact,
                           nameMatches: [0..<2])
        #expect(s.name == "Zoë" && s.address == "zoe@x.org" && s.addressIndex == nil && s.matchClass == .exact)
        #expect(s.nameMatches(in: .utf16) == [0..<2])
        let found = Suggestion.matching(server, query: "nadia")
        #expect(found.map(\.contact.rawValue) == ["r-nadia"])
        #expect(found.first?.addressIndex == 0)
    }
}
