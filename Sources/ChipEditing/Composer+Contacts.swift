import ChipSyntax
import ChipRecognition
import ChipDirectory

/// What a committed name that is not an address becomes, when a directory
/// is set. An address typed in full is never replaced by a suggestion.
public enum ContactResolution: String, Sendable, Hashable, Codable, CaseIterable {
    /// Names stay error chips (`missing-at`).
    case off
    /// The one best match becomes that contact's chip; several that match
    /// equally well (the same ``MatchClass``) make an `ambiguous` error chip
    /// listing them; none leaves the error chip.
    case uniqueMatch
    /// The top suggestion becomes the chip, whatever commits it.
    case topSuggestion
    /// The top suggestion on Return (``Composer/commit(by:)`` with
    /// ``CommitTrigger/returnKey``), as many mail clients do; a separator,
    /// Tab or blur commits as ``uniqueMatch``.
    case topSuggestionOnReturn

    /// The resolution a commit by `trigger` (nil: a separator typed or
    /// pasted) applies.
    func applied(by trigger: CommitTrigger?) -> ContactResolution {
        guard self == .topSuggestionOnReturn else { return self }
        return trigger == .returnKey ? .topSuggestion : .uniqueMatch
    }
}

/// What commits the pending text: it matters to
/// ``ContactResolution/topSuggestionOnReturn``.
public enum CommitTrigger: String, Sendable, Hashable, Codable, CaseIterable {
    /// Return (Enter) was pressed.
    case returnKey
    /// Tab moved on from the field.
    case tab
    /// The field lost the focus.
    case blur
}

/// A question for the host's remote directory (a server address book):
/// which contacts does this text name? Two kinds: a committed name chip to
/// resolve (``chip`` set; answer with ``Composer/applyLookup(_:contacts:)``),
/// or the text being typed in ``field``, to suggest from (``chip`` nil;
/// answer with ``Composer/applySuggestionLookup(_:contacts:)``).
public struct LookupRequest: Sendable, Hashable {
    /// The request's number in its composer, which the answer and a
    /// cancellation name; numbers are never reused.
    public let id: UInt64
    /// The chip whose name this asks about; nil when it asks for
    /// suggestions for the text being typed.
    public let chip: ChipID?
    /// The field of the chip, or of the text being typed.
    public let field: FieldID
    /// The text to look up: the chip's text as typed, or the pending text.
    public let query: String

    /// Whether this asks for suggestions for the text being typed.
    public var isForSuggestions: Bool { chip == nil }
}

/// The remote lookups in flight.
struct Lookups: Sendable {
    var next: UInt64 = 1
    /// Requests not yet taken by the host.
    var issued: [LookupRequest] = []
    /// Requests taken back (their chip was deleted or edited), not yet told.
    var cancelled: [UInt64] = []
    /// Requests issued or taken back during the running operation, to
    /// report with its changes.
    var toReport: [ComposerChange] = []
    /// The open suggestion request: its id, field and text.
    var suggestion: (id: UInt64, field: Int, query: String)?
    /// The last suggestion answer taken: the text it answered, in which
    /// field, and its contacts, searched as a directory of their own.
    var remote: (field: Int, query: String, directory: ContactDirectory)?
    /// Remote contacts that chips stand for (chosen from remote
    /// suggestions, or a chip lookup's answer), so alternates and lists
    /// work for them as for local ones.
    var remoteContacts: [ContactID: Contact] = [:]
    /// Open requests by id, each with the resolution its answer applies
    /// (that of the commit that made its chip), and the open request of
    /// each chip.
    var open: [UInt64: (request: LookupRequest, resolution: ContactResolution)] = [:]
    var byChip: [ChipID: UInt64] = [:]
}

extension Composer {
    // MARK: - Suggestions

    /// Suggestions for the focused field's pending text, best first,
    /// leaving out addresses already chipped in any field. Each call that
    /// extends the previous query narrows within its matches.
    ///
    /// - Complexity: see ``SuggestionSearch/update(_:)``; not O(chips).
    public mutating func suggestions(limit: Int = 8) -> [Suggestion] {
        let text = fields[focusedIndex].pendingText
        var local: [Suggestion] = []
        if let directory {
            if search == nil || search!.limit != limit { search = SuggestionSearch(directory, limit: limit) }
            search!.excludes = chippedTest()
            local = search!.update(text)
        }
        return merged(local, remoteSuggestions(for: text, limit: limit), limit: limit)
    }

    /// The remote answer's suggestions for `text`: searched by the local
    /// rules in the answer's contacts, while `text` is the text it
    /// answered or extends it (narrowing = a fresh search); none once the
    /// text went elsewhere, until the answer for the new text comes.
    ///
    /// - Complexity: O(*r*) in the contacts of the answer.
    func remoteSuggestions(for text: String, limit: Int) -> [Suggestion] {
        guard let remote = lookups.remote, remote.field == focusedIndex,
              SuggestionSearch.narrows(text, from: remote.query) else { return [] }
        var search = SuggestionSearch(remote.directory, limit: limit)
        search.excludes = chippedTest()
        return search.update(text)
    }

    /// Local and remote suggestions in one list: by match class, local
    /// first within a class (as a mail client lists its own address book
    /// before a server's), an address suggested locally not again.
    ///
    /// - Complexity: O((*l* + *r*) log(*l* + *r*)).
    func merged(_ local: [Suggestion], _ remote: [Suggestion], limit: Int) -> [Suggestion] {
        guard !remote.isEmpty else { return local }
        let seen = Set(local.compactMap { $0.address.map { AddressKey.hash(Array($0.utf8), exactLocalPart: false) } })
        let extra = remote.filter { s in
            guard let address = s.address else { return true }
            return !seen.contains(AddressKey.hash(Array(address.utf8), exactLocalPart: false))
        }
        let all = local.map { ($0, 0) } + extra.map { ($0, 1) }
        let ranked = all.enumerated().sorted {
            ($0.element.0.matchClass, $0.element.1, $0.offset) < ($1.element.0.matchClass, $1.element.1, $1.offset)
        }
        return ranked.prefix(max(limit, 0)).map(\.element.0)
    }

    /// A contact a chip may stand for: the directory's, else a remote
    /// one a chip was made from.
    func knownContact(_ id: ContactID) -> Contact? {
        directory?.contact(id) ?? lookups.remoteContacts[id]
    }

    /// Whether an address is already a chip in some field, compared as the
    /// duplicate policy compares.
    func chippedTest() -> @Sendable (String) -> Bool {
        let index = keyIndex
        let exact = fields[0].policy.comparesLocalPartsExactly
        return { address in index[AddressKey.hash(Array(address.utf8), exactLocalPart: exact)] != nil }
    }

    /// Replaces the focused field's pending text with the suggestion's
    /// chip, as one step (one change list, one undo step). A list without
    /// an address becomes its members' chips. A choice that makes no chip
    /// (a list whose members have no address, or are all chips already)
    /// is refused with ``Refusal/Reason/nothingToChoose``: the pending
    /// text stays.
    ///
    /// - Complexity: O(*p*) in the pending text (O(*m*) members for a list).
    @discardableResult
    public mutating func choose(_ suggestion: Suggestion) -> [ComposerChange] {
        let local = directory?.contact(suggestion.contact)
        guard let contact = local ?? lookups.remote?.directory.contact(suggestion.contact) else {
            return [ComposerChange(field: fieldIDs[focusedIndex], change: .refused(Refusal(.noSuchContact)))]
        }
        // A remote contact is kept, so the chip's alternates work.
        if local == nil { lookups.remoteContacts[contact.id] = contact }
        if suggestion.address == nil {
            let chipped = chippedTest()
            let members = memberMailboxes(of: contact).filter { !chipped($0.address) }
            // Never the pending text taken away for no chip.
            guard !members.isEmpty else {
                return [ComposerChange(field: fieldIDs[focusedIndex], change: .refused(Refusal(.nothingToChoose)))]
            }
            let text = members.map { MailboxText.format(name: $0.name, address: $0.address) }.joined(separator: ", ")
            return performTagged(members.map(\.contact)) { $0.replacePendingAndCommit(Array(text.utf8)) }
        }
        guard let address = suggestion.address, !address.isEmpty else {
            return [ComposerChange(field: fieldIDs[focusedIndex], change: .refused(Refusal(.nothingToChoose)))]
        }
        let text = MailboxText.format(name: suggestion.name, address: address)
        return performTagged([contact.id]) { $0.replacePendingAndCommit(Array(text.utf8)) }
    }

    /// Inserts a mailbox made from a name and an address at the focused
    /// field's caret, quoted as RFC 5322 needs (the host never quotes by
    /// hand), replacing any pending text.
    ///
    /// - Complexity: O(*p* + *n*) in the pending text and the mailbox.
    @discardableResult
    public mutating func insertMailbox(name: String?, address: String, contact: ContactID? = nil) -> [ComposerChange] {
        let text = MailboxText.format(name: name, address: address)
        return performTagged([contact]) { $0.replacePendingAndCommit(Array(text.utf8)) }
    }

    /// Runs an operation that inserts chips standing for these contacts,
    /// in order (nil: resolve as usual), as one undo step.
    mutating func performTagged(_ contacts: [ContactID?], _ body: (inout ChipField) -> [FieldChange]) -> [ComposerChange] {
        performTagged(on: focusedIndex, contacts, body)
    }

    /// The same on field `k`, which need not have the focus.
    mutating func performTagged(
        on k: Int, _ contacts: [ContactID?], _ body: (inout ChipField) -> [FieldChange]
    ) -> [ComposerChange] {
        pendingTags = contacts
        defer { pendingTags = nil }
        coalescing = nil
        let changes = perform(on: k, nil, body)
        coalescing = nil
        return changes
    }

    // MARK: - Alternates and lists

    /// The other addresses of the contact of the focused field's chip at
    /// `index` (see ``alternates(of:)``).
    ///
    /// - Complexity: O(*e*) in the contact's addresses.
    public func alternates(at index: Int) -> [ContactEmail] {
        guard (0..<fields[focusedIndex].count).contains(index) else { return [] }
        return alternates(of: fields[focusedIndex][index])
    }

    /// The chip's contact's other addresses (not the one it has), in the
    /// contact's order, in whichever field the chip is.
    ///
    /// - Complexity: O(*f* + *n*) to find the chip, then O(*e*) in the contact's addresses.
    public func alternates(of id: ChipID) -> [ContactEmail] {
        guard let (k, _) = locate(id), let chip = fields[k].chip(id) else { return [] }
        return alternates(of: chip)
    }

    func alternates(of chip: Chip) -> [ContactEmail] {
        guard let id = chip.contact, let contact = knownContact(id) else { return [] }
        let current = chip.content.address.map { SearchFold.fold($0) }
        return contact.emails.filter { SearchFold.fold($0.address) != current }
    }

    /// Replaces the address of the focused field's chip at `index` by its
    /// `choice`-th alternate (see ``chooseAlternate(of:_:)``).
    ///
    /// - Complexity: O(*n*) in the mailbox's length.
    @discardableResult
    public mutating func chooseAlternate(at index: Int, _ choice: Int) -> [ComposerChange] {
        guard (0..<fields[focusedIndex].count).contains(index) else {
            return [ComposerChange(field: fieldIDs[focusedIndex], change: .refused(Refusal(.noSuchChip)))]
        }
        return chooseAlternate(inField: focusedIndex, at: index, choice)
    }

    /// Replaces the chip's address by its `choice`-th alternate, in
    /// whichever field it is, without moving the focus; the chip keeps its
    /// identity, name and contact.
    ///
    /// - Complexity: O(*f* + *n*) to find the chip among *n*, then O(*m*) in the mailbox's length.
    @discardableResult
    public mutating func chooseAlternate(of id: ChipID, _ choice: Int) -> [ComposerChange] {
        guard let (k, i) = locate(id) else { return noSuchChip() }
        return chooseAlternate(inField: k, at: i, choice)
    }

    mutating func chooseAlternate(inField k: Int, at index: Int, _ choice: Int) -> [ComposerChange] {
        let options = alternates(of: fields[k][index])
        let name = fieldIDs[k]
        guard options.indices.contains(choice) else {
            return [ComposerChange(field: name, change: .refused(Refusal(.noSuchChip)))]
        }
        var chip = fields[k][index]
        guard chip.isEditable else { return [ComposerChange(field: name, change: .refused(Refusal(.chipCommitted)))] }
        let displayName = chip.content.displayName ?? knownContact(chip.contact!)?.displayName
        let text = MailboxText.format(name: displayName, address: options[choice].address)
        guard let content = parseOne(text, policy: fields[k].policy) else { return [] }
        chip.content = content
        return perform(on: k, nil) { field in
            var changes: [FieldChange] = []
            field.replaceChip(chip, at: index, &changes)
            return changes
        }
    }

    /// Replaces the focused field's list chip at `index` by its members'
    /// chips (see ``expand(_:)``).
    ///
    /// - Complexity: O(*m*) for *m* members.
    @discardableResult
    public mutating func expand(at index: Int) -> [ComposerChange] {
        guard (0..<fields[focusedIndex].count).contains(index) else {
            return [ComposerChange(field: fieldIDs[focusedIndex], change: .refused(Refusal(.notAList)))]
        }
        return expand(inField: focusedIndex, at: index)
    }

    /// Replaces a list's chip by its members' chips, in whichever field it
    /// is, in one undoable step, leaving out members already chipped in
    /// any field.
    ///
    /// - Complexity: O(*f* + *n*) to find the chip among *n*, then O(*m*) for *m* members.
    @discardableResult
    public mutating func expand(_ id: ChipID) -> [ComposerChange] {
        guard let (k, i) = locate(id) else { return noSuchChip() }
        return expand(inField: k, at: i)
    }

    mutating func expand(inField k: Int, at index: Int) -> [ComposerChange] {
        let name = fieldIDs[k]
        guard let id = fields[k][index].contact, let contact = knownContact(id), contact.kind == .group else {
            return [ComposerChange(field: name, change: .refused(Refusal(.notAList)))]
        }
        guard fields[k][index].isEditable else {
            return [ComposerChange(field: name, change: .refused(Refusal(.chipCommitted)))]
        }
        return replaceByMembers(of: contact, inField: k, at: index)!
    }

    /// Replaces the chip at `index` of field `k` by the list's members'
    /// chips, leaving out members already chipped in any field, as one
    /// step; nil, changing nothing, when no member is left and
    /// `unlessNone` says so.
    mutating func replaceByMembers(
        of contact: Contact, inField k: Int, at index: Int, unlessNone: Bool = false
    ) -> [ComposerChange]? {
        let chipped = chippedTest()
        let members = memberMailboxes(of: contact).filter { !chipped($0.address) }
        if unlessNone && members.isEmpty { return nil }
        let texts = members.map { Array(MailboxText.format(name: $0.name, address: $0.address).utf8) }
        return performTagged(on: k, members.map(\.contact)) { field in
            var changes: [FieldChange] = []
            _ = field.removeChip(at: index, &changes)
            changes += field.insertChips(texts, at: index)
            return changes
        }
    }

    /// Resolves an `ambiguous` chip to one of its ``Chip/candidates``, in
    /// whichever field it is, without moving the focus: the chip keeps its
    /// identity and becomes the candidate's mailbox, standing for its
    /// contact (a list without an address becomes its members' chips, as
    /// choosing it would). One undo step; the duplicate policy applies to
    /// the address it now holds. Refused with `no-such-chip` when the chip
    /// is gone or `suggestion` is not one of its candidates.
    ///
    /// - Complexity: O(*f* + *n*) to find the chip among *n*, then O(*m*) in the mailbox (or members).
    @discardableResult
    public mutating func resolve(_ id: ChipID, to suggestion: Suggestion) -> [ComposerChange] {
        guard let (k, i) = locate(id), let chip = fields[k].chip(id),
              chip.candidates.contains(suggestion) else { return noSuchChip() }
        guard chip.isEditable else {
            return [ComposerChange(field: fieldIDs[k], change: .refused(Refusal(.chipCommitted)))]
        }
        if let address = suggestion.address {
            let text = MailboxText.format(name: suggestion.name, address: address)
            guard let content = parseOne(text, policy: fields[k].policy) else {
                return [ComposerChange(field: fieldIDs[k], change: .refused(Refusal(.nothingToChoose)))]
            }
            return replaceResolved(chip, in: k, at: i, content, contact: suggestion.contact)
        }
        guard let contact = knownContact(suggestion.contact), contact.kind == .group else {
            return [ComposerChange(field: fieldIDs[k], change: .refused(Refusal(.noSuchContact)))]
        }
        return replaceByMembers(of: contact, inField: k, at: i, unlessNone: true)
            ?? [ComposerChange(field: fieldIDs[k], change: .refused(Refusal(.nothingToChoose)))]
    }

    /// The chip, keeping its identity, with new content standing for
    /// `contact`: one undo step, then the duplicate policy on its address.
    mutating func replaceResolved(
        _ chip: Chip, in k: Int, at i: Int, _ content: ParsedChip, contact: ContactID
    ) -> [ComposerChange] {
        var chip = chip
        chip.content = content
        chip.contact = contact
        chip.candidates = []
        chip.isResolving = false
        coalescing = nil
        redoStack.removeAll()
        var fc: [FieldChange] = []
        fields[k].replaceChip(chip, at: i, &fc)
        var changes = fc.map { ComposerChange(field: fieldIDs[k], change: $0) }
        // Now an address: new to the duplicate policy, in the same step.
        changes += applyDuplicatePolicy(after: [ComposerChange(field: fieldIDs[k], change: .inserted(chip.id, at: i))])
        recordTransaction(focusBefore: focusedIndex)
        search = nil
        checkInvariantsInDebug()
        return ComposerChange.coalesced(changes)
    }

    /// A refusal for a chip that is in no field.
    func noSuchChip() -> [ComposerChange] {
        [ComposerChange(field: fieldIDs[focusedIndex], change: .refused(Refusal(.noSuchChip)))]
    }

    /// A list's members as mailboxes: `mailto:` members by address (named
    /// from their contact when there is one), other members by contact
    /// id (`urn:uuid:` prefix or not) with their preferred address.
    func memberMailboxes(of list: Contact) -> [(name: String?, address: String, contact: ContactID?)] {
        var out: [(name: String?, address: String, contact: ContactID?)] = []
        for member in list.members {
            let lower = member.lowercased()
            if lower.hasPrefix("mailto:") || (member.contains("@") && !lower.hasPrefix("urn:")) {
                let address = lower.hasPrefix("mailto:") ? String(member.dropFirst(7)) : member
                let owner = directory?.contact(forAddress: address)
                out.append((owner?.contact.displayName, address, owner?.contact.id))
            } else {
                let bare = lower.hasPrefix("urn:uuid:") ? String(member.dropFirst(9)) : member
                guard let c = directory?.contact(ContactID(member)) ?? directory?.contact(ContactID(bare)),
                      let email = c.preferredEmail else { continue }
                out.append((c.displayName, email.address, c.id))
            }
        }
        return out
    }

    // MARK: - Remote directories

    /// The lookups issued since the last call, and the ids of requests
    /// taken back since (their chip was deleted or edited): the host sends
    /// the first and may cancel the second.
    public mutating func takeLookupRequests() -> (issued: [LookupRequest], cancelled: [UInt64]) {
        defer {
            lookups.issued = []
            lookups.cancelled = []
        }
        return (lookups.issued, lookups.cancelled)
    }

    /// Applies a remote directory's answer: the chip is resolved as a
    /// local match would resolve it (one best → the contact's chip; several
    /// → `ambiguous`; none → the error stays) and is no longer resolving.
    /// An answer to a request that an edit made stale, or that was
    /// cancelled, changes nothing.
    ///
    /// - Complexity: O(*c* log *c*), where *c* is the number of contacts in
    ///   the answer (indexed to be searched), plus O(*f* + *n*) to find the
    ///   chip among the *n* of *f* fields.
    @discardableResult
    public mutating func applyLookup(_ id: UInt64, contacts: [Contact]) -> [ComposerChange] {
        guard let (request, applied) = lookups.open.removeValue(forKey: id) else { return [] }
        guard let asked = request.chip else { return [] }
        lookups.byChip[asked] = nil
        guard let (k, i) = locate(asked), var chip = fields[k].chip(asked), chip.isEditable,
              chip.content.rawText == request.query else { return [] }
        let answer = ContactDirectory(contacts)
        var search = SuggestionSearch(answer, limit: 8)
        search.excludes = chippedTest()
        chip.isResolving = false
        if let change = resolution(of: chip, from: search.update(request.query), policy: fields[k].policy, applied) {
            chip = change
        }
        // The chip's contact, or its candidates, came from the answer:
        // kept, so alternates and choosing a candidate work as for local ones.
        for id in [chip.contact].compactMap({ $0 }) + chip.candidates.map(\.contact) {
            if directory?.contact(id) == nil, let remote = answer.contact(id) { lookups.remoteContacts[id] = remote }
        }
        var fc: [FieldChange] = []
        fields[k].replaceChip(chip, at: i, &fc)
        var changes = fc.map { ComposerChange(field: fieldIDs[k], change: $0) }
        // Resolved, it is a new address for the duplicate policy.
        changes += applyDuplicatePolicy(after: [ComposerChange(field: fieldIDs[k], change: .inserted(chip.id, at: i))])
        // Applied as its own undo step, with what the duplicate policy did:
        // undoing it brings the name back.
        coalescing = nil
        recordTransaction(focusBefore: focusedIndex)
        checkInvariantsInDebug()
        return ComposerChange.coalesced(changes)
    }

    /// Takes a lookup back: the host is told in the operation's changes
    /// and with the next requests.
    mutating func cancelLookup(_ open: UInt64, of chip: ChipID) {
        lookups.byChip[chip] = nil
        if let request = lookups.open.removeValue(forKey: open)?.request { takeBack(open, field: request.field) }
    }

    /// A question asked before is taken back: told in the operation's
    /// changes and with the next requests.
    mutating func takeBack(_ id: UInt64, field: FieldID) {
        lookups.cancelled.append(id)
        lookups.toReport.append(ComposerChange(field: field, change: .lookupCancelled(id)))
    }

    /// A new question, with the next id: told in the operation's changes
    /// (unless `report` is false: a restore has none) and with the next
    /// requests.
    mutating func ask(chip: ChipID?, in k: Int, query: String, report: Bool = true) -> LookupRequest {
        let request = LookupRequest(id: lookups.next, chip: chip, field: fieldIDs[k], query: query)
        lookups.next += 1
        lookups.issued.append(request)
        if report { lookups.toReport.append(ComposerChange(field: request.field, change: .lookupRequested(request))) }
        return request
    }

    /// Asks the remote directory about a chip's text; `report`: in the
    /// running operation's changes (a restore has none).
    mutating func issueLookup(for chip: ChipID, in k: Int, query: String, report: Bool = true) {
        let request = ask(chip: chip, in: k, query: query, report: report)
        lookups.open[request.id] = (request, resolution.applied(by: committingBy))
        lookups.byChip[chip] = request.id
    }

    /// Applies a remote directory's answer to a suggestion request: its
    /// contacts are suggested with the local ones (see ``suggestions(limit:)``)
    /// while the text is the one asked about or goes on from it. An answer
    /// to any request but the last one asked is stale and ignored, as is
    /// one taken back: the text changed since.
    ///
    /// - Returns: whether the answer was taken (the host then asks for
    ///   ``suggestions(limit:)`` again).
    /// - Complexity: O(*c* log *c*) in the answer's contacts, to index them.
    @discardableResult
    public mutating func applySuggestionLookup(_ id: UInt64, contacts: [Contact]) -> Bool {
        guard let open = lookups.suggestion, open.id == id else { return false }
        lookups.suggestion = nil
        lookups.remote = (open.field, open.query, ContactDirectory(contacts))
        return true
    }

    /// After an operation: asks for suggestions for the focused field's
    /// text when it changed (taking back the question about the old
    /// text), then returns the questions asked and taken back during the
    /// operation, as changes.
    ///
    /// - Complexity: O(*p*) in the pending text.
    mutating func lookupChanges() -> [ComposerChange] {
        if remoteSuggestions { updateSuggestionLookup() }
        guard !lookups.toReport.isEmpty else { return [] }
        defer { lookups.toReport = [] }
        return lookups.toReport
    }

    /// One open suggestion question at most, about the focused field's
    /// text as it is now.
    mutating func updateSuggestionLookup() {
        let text = fields[focusedIndex].pendingText
        if let open = lookups.suggestion, open.field == focusedIndex, open.query == text { return }
        if lookups.suggestion == nil, let answered = lookups.remote, answered.field == focusedIndex,
           answered.query == text { return }
        if let open = lookups.suggestion {
            lookups.suggestion = nil
            takeBack(open.id, field: fieldIDs[open.field])
        }
        guard SuggestionSearch.isQuery(text) else {
            lookups.remote = nil
            return
        }
        let request = ask(chip: nil, in: focusedIndex, query: text)
        lookups.suggestion = (request.id, focusedIndex, text)
    }

    // MARK: - Resolution after each operation

    /// Resolves the chips an operation inserted: tags chosen contacts,
    /// names a typed address that belongs to a contact, resolves a typed
    /// name under ``resolution``, asks the remote directory when allowed,
    /// and takes back lookups of chips that are gone.
    mutating func resolveContacts(after changes: [ComposerChange]) -> [ComposerChange] {
        var extra: [ComposerChange] = []
        var tags = pendingTags ?? []
        for c in changes {
            switch c.change {
            case .removed(let id, _):
                if let open = lookups.byChip[id], locate(id) == nil { cancelLookup(open, of: id) }
            case .inserted(let id, let at):
                guard let k = fieldIndex(of: c.field), let original = fields[k].chip(id), original.isEditable else {
                    continue
                }
                var chip = original
                // A chosen contact tags its chip; a chip without one (an
                // inserted mailbox) is resolved as a typed one is.
                let tag = pendingTags == nil || tags.isEmpty ? nil : tags.removeFirst()
                if let tag {
                    chip.contact = tag
                } else if chip.contact == nil {
                    chip = resolved(chip, policy: fields[k].policy)
                }
                if chip.contact == nil, chip.isEditable, ContactResolver.isName(chip.content), remoteLookups,
                   chip.content.error != .ambiguous {
                    // A chip back with its identity (reopened, or edited
                    // and committed in one operation) keeps the question
                    // in flight when its text is the same; else it asks anew.
                    if let open = lookups.byChip[id], lookups.open[open]?.request.query != chip.content.rawText {
                        cancelLookup(open, of: id)
                    }
                    chip.isResolving = true
                    if lookups.byChip[id] == nil { issueLookup(for: id, in: k, query: chip.content.rawText) }
                } else if let open = lookups.byChip[id] {
                    // No longer a name to ask about (an address, a contact).
                    cancelLookup(open, of: id)
                    chip.isResolving = false
                }
                guard chip != original, let i = locate(id, hint: (k, at))?.index else { continue }
                var fc: [FieldChange] = []
                fields[k].replaceChip(chip, at: i, &fc)
                extra += fc.map { ComposerChange(field: fieldIDs[k], change: $0) }
            default:
                continue
            }
        }
        if !extra.isEmpty { search = nil }
        return extra
    }

    /// A new chip with its contact found in the directory.
    func resolved(_ chip: Chip, policy: ValidationPolicy) -> Chip {
        guard let directory else { return chip }
        let resolver = ContactResolver(directory: directory, resolution: resolution.applied(by: committingBy))
        return apply(resolver.resolve(chip.content, policy: policy, excludes: chippedTest()), to: chip)
    }

    /// What a name chip becomes given the suggestions for its text.
    func resolution(of chip: Chip, from s: [Suggestion], policy: ValidationPolicy, _ applied: ContactResolution) -> Chip? {
        guard let r = ContactResolver.resolveName(chip.content, from: s, policy: policy, applied) else { return nil }
        return apply(r, to: chip)
    }

    func apply(_ r: ContactResolver.Resolved, to chip: Chip) -> Chip {
        var chip = chip
        chip.content = r.content
        if let contact = r.contact { chip.contact = contact }
        chip.candidates = r.candidates
        if r.contact != nil || !r.candidates.isEmpty { chip.isResolving = false }
        return chip
    }

    /// The one chip a mailbox text makes under `policy`.
    func parseOne(_ text: String, policy: ValidationPolicy) -> ParsedChip? {
        let chips = AddressList.parse(text, policy: policy)
        guard chips.count == 1 else { return nil }
        return chips[0]
    }
}
