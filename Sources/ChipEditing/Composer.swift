import ChipSyntax
import ChipRecognition
import ChipDirectory

/// What to do when an address is added that some field already holds.
/// Addresses compare without ASCII case, in the domain and (unless the policy
/// says `comparesLocalPartsExactly`) in the local part.
public enum DuplicatePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Keep both, say nothing.
    case allow
    /// Keep both; the later copy gets the `duplicate` warning (until the
    /// earlier one goes away).
    case warn
    /// Do not add the later copy; the changes carry a `duplicate` refusal.
    case reject
    /// Keep the first; it takes the later copy's name if it had none.
    case merge
}

/// A change in one of a composer's fields.
public struct ComposerChange: Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var change: FieldChange
    public var description: String { "\(field): \(change)" }
}

/// Why ``Composer/send(smtpUTF8:)`` refused, or that it sent, and what to
/// send.
public struct SendReport: Sendable, Hashable {
    /// A chip that is valid but cannot go out with this transport.
    public struct UnsendableChip: Sendable, Hashable {
        public var field: String
        public var id: ChipID
        /// Why the header writer left it out (its code): `needs-smtputf8`
        /// (a UTF-8 local part without SMTPUTF8), `invalid-idn` (a domain
        /// without an A-label form), `control-character`, `too-long`, or
        /// `not-an-addr-spec` (text a lenient policy accepted that is not an
        /// RFC 5322 addr-spec, so it would not read back the same).
        public var reason: String

        public init(field: String, id: ChipID, reason: String) {
            self.field = field
            self.id = id
            self.reason = reason
        }
    }

    /// One header to send: the field's name and its value as the header
    /// writer renders it (folded, encoded words, no raw CR/LF).
    public struct Header: Sendable, Hashable {
        public var field: String
        public var value: String

        public init(field: String, value: String) {
            self.field = field
            self.value = value
        }
    }

    /// True when every chip is now committed.
    public var sent: Bool
    /// Chips in error, by field name.
    public var errorChips: [String: [ChipID]]
    /// Fields whose pending (or marked) text is not empty.
    public var fieldsWithPendingText: [String]
    /// True when no field holds a mailbox: nobody to send to.
    public var hasNoRecipient: Bool
    /// Valid chips the transport cannot carry, in field order.
    public var unsendableChips: [UnsendableChip]
    /// On success, the non-empty fields' header values, in field order.
    public var headers: [Header]
    public var changes: [ComposerChange]

    public init(
        sent: Bool, errorChips: [String: [ChipID]] = [:], fieldsWithPendingText: [String] = [],
        hasNoRecipient: Bool = false, unsendableChips: [UnsendableChip] = [], headers: [Header] = [],
        changes: [ComposerChange] = []
    ) {
        self.sent = sent
        self.errorChips = errorChips
        self.fieldsWithPendingText = fieldsWithPendingText
        self.hasNoRecipient = hasNoRecipient
        self.unsendableChips = unsendableChips
        self.headers = headers
        self.changes = changes
    }
}

/// Several named fields (by default `to`, `cc`, `bcc`), the focus, moves
/// between fields, a duplicate policy across all of them, undo and redo as
/// transactions, and sending.
///
/// Invariants:
/// 1. Chip identities are unique across fields; a chip moved to another
///    field keeps its identity and content.
/// 2. Undo of any operation restores the exact previous state; redo
///    restores the state after it. A new edit clears redo.
/// 3. The work of an operation does not depend on the number of chips in
///    the fields, except operations on all chips (send, select all).
public struct Composer: Sendable {
    public internal(set) var fields: [ChipField]
    public internal(set) var focusedIndex = 0
    public var duplicatePolicy: DuplicatePolicy
    /// Undo steps kept; older ones are forgotten.
    public var maxUndoSteps = 1_000

    /// The edits of one field in one undo step.
    ///
    /// Invariants:
    /// 1. At most one edit is a text edit (at `textIndex`): it goes from
    ///    the text state before the step's first text edit to the one
    ///    after its last. Chip edits never read the text state, so undo
    ///    and redo end in the same state as with every text edit kept.
    /// 2. No chip is inserted by one edit and removed by the next.
    struct Step: Sendable {
        var field: Int
        var edits: [FieldEdit] = []
        var textIndex: Int?

        init(field: Int) { self.field = field }

        /// Appends edits. Every text edit folds into the step's one, so a
        /// long typing step keeps two text states, not one per key or per
        /// chip; a chip removed right after it was inserted (a chip made
        /// at once and reopened) cancels out. A typed chip costs the step
        /// one `insert`, 24 bytes.
        ///
        /// - Complexity: O(*e*) in the edits appended.
        mutating func append(_ more: [FieldEdit]) {
            for edit in more {
                switch edit {
                case .text(_, let new):
                    if let k = textIndex, case .text(let old, _) = edits[k] {
                        edits[k] = .text(old: old, new: new)
                    } else {
                        textIndex = edits.count
                        edits.append(edit)
                    }
                case .remove(let removed, let at):
                    if case .insert(let inserted, let insertedAt)? = edits.last, inserted === removed, insertedAt == at {
                        edits.removeLast()
                    } else {
                        edits.append(edit)
                    }
                default:
                    edits.append(edit)
                }
            }
        }
    }

    struct Transaction: Sendable {
        var steps: [Step] = []
        var focusBefore: Int
        var focusAfter: Int
    }

    enum Coalescing: Equatable {
        case typing(field: Int)
        case editSession(field: Int)
    }

    /// The address book suggestions and typed names are resolved from.
    /// Not part of a snapshot: the host hands it over again.
    public var directory: ContactDirectory? {
        didSet { search = nil }
    }
    /// What a committed name that is not an address becomes.
    public var resolution: ContactResolution = .uniqueMatch
    /// While ``commit(by:)`` runs: what commits.
    var committingBy: CommitTrigger?
    /// Ask the host's remote directory about names the local one cannot
    /// resolve (see ``takeLookupRequests()``).
    public var remoteLookups = false
    /// The suggestion search kept between keystrokes, to narrow.
    var search: SuggestionSearch?
    var lookups = Lookups()
    /// While an operation inserts chips for chosen contacts: their ids, in
    /// order of insertion.
    var pendingTags: [ContactID?]?

    var undoStack: [Transaction] = []
    var redoStack: [Transaction] = []
    var coalescing: Coalescing?
    /// Address key → chips holding it, oldest first.
    var keyIndex: [UInt64: [ChipID]] = [:]
    var chipKeys: [ChipID: UInt64] = [:]

    /// A composer with these fields (names must differ), focused on the first.
    ///
    /// - Complexity: O(*f*) in the number of fields.
    public init(
        fieldNames: [String] = ["to", "cc", "bcc"], policy: ValidationPolicy = .standard,
        limits: FieldLimits = FieldLimits(), duplicatePolicy: DuplicatePolicy = .warn
    ) {
        precondition(!fieldNames.isEmpty, "a composer needs a field")
        precondition(Set(fieldNames).count == fieldNames.count, "field names must differ")
        fields = fieldNames.enumerated().map {
            var field = ChipField(name: $1, policy: policy, limits: limits, idPrefix: UInt64($0 + 1))
            field.startJournal()
            return field
        }
        self.duplicatePolicy = duplicatePolicy
    }

    /// The field with the focus, where typing goes.
    public var focusedField: ChipField { fields[focusedIndex] }

    /// The field with this name. - Complexity: O(fields).
    public func field(named name: String) -> ChipField? { fields.first { $0.name == name } }

    /// The index of the field with this name. - Complexity: O(fields).
    public func fieldIndex(named name: String) -> Int? { fields.firstIndex { $0.name == name } }

    /// Whether there is a step to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// The number of undo steps held.
    package var undoStackCount: Int { undoStack.count }

    /// The bytes the undo and redo history keeps alive: its arrays of
    /// steps and edits, the saved text states, and the chips no field
    /// holds any more (a chip a field holds is shared, not copied).
    /// Bounded by the steps kept times the size of what each step changed,
    /// never by a cache.
    ///
    /// - Complexity: O(*e*) in the edits held.
    package var historyFootprint: Int {
        var total = (undoStack.capacity + redoStack.capacity) * MemoryLayout<Transaction>.stride
        for t in undoStack + redoStack {
            total += t.steps.capacity * MemoryLayout<Step>.stride
            for step in t.steps { total += fields[step.field].footprint(of: step.edits) }
        }
        return total
    }
    /// Whether there is an undone step to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    // MARK: - Operations on the focused field

    /// Moves the focus; the field left is blurred (its text committed).
    ///
    /// - Complexity: O(*f* + *p*) for *f* fields and *p* pending bytes committed.
    @discardableResult
    public mutating func focus(_ name: String) -> [ComposerChange] {
        guard let target = fieldIndex(named: name) else {
            return [ComposerChange(field: name, change: .refused(Refusal(.noSuchField)))]
        }
        guard target != focusedIndex else { return [] }
        committingBy = .blur
        var changes = perform(nil) { $0.commit() }
        committingBy = nil
        let before = focusedIndex
        focusedIndex = target
        if var last = undoStack.popLast() {
            // The focus move belongs to the step that committed, if any.
            if last.focusAfter == before && !changes.isEmpty { last.focusAfter = target }
            undoStack.append(last)
        }
        changes.append(ComposerChange(field: name, change: .caretMoved))
        return changes
    }

    /// Types text at the caret, as one key (or one string of keys).
    ///
    /// - Complexity: O(*m*) for *m* bytes typed at the end of the pending text, else O(*m* + *p*) for *p* pending bytes; never O(chips).
    @discardableResult
    public mutating func type(_ text: String) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.insert(text) }
    }

    /// Types bytes at the caret (for instance a key of a terminal that
    /// sends raw bytes); bytes that are not UTF-8 end up in error chips.
    ///
    /// - Complexity: O(*m*) for *m* bytes typed at the end of the pending
    ///   text, else O(*m* + *p*) for *p* pending bytes; never O(chips).
    @discardableResult
    public mutating func type(bytes: [UInt8]) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.insert(bytes) }
    }

    /// Pastes text: one undo step, however many chips it makes.
    ///
    /// - Complexity: O(*m* + *p*) for *m* bytes pasted and *p* pending bytes.
    @discardableResult
    public mutating func paste(_ text: String) -> [ComposerChange] {
        perform(nil) { $0.insert(text) + $0.endPastedList() }
    }

    /// Pastes bytes (a file, a clipboard of unknown encoding): one undo
    /// step; bytes that are not UTF-8 end up in error chips, never dropped.
    ///
    /// - Complexity: O(*m* + *p*) for *m* bytes pasted and *p* pending bytes.
    @discardableResult
    public mutating func paste(bytes: [UInt8]) -> [ComposerChange] {
        perform(nil) { $0.insert(bytes) + $0.endPastedList() }
    }

    /// Shows an input method's marked text in the focused field; it never
    /// makes chips. Part of the current typing step.
    ///
    /// - Complexity: O(*k*) in the marked text.
    @discardableResult
    public mutating func compositionUpdate(_ text: String) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.compositionUpdate(text) }
    }

    /// Types the final text of a composition.
    ///
    /// - Complexity: O(*m*) in the text, as ``type(_:)``.
    @discardableResult
    public mutating func compositionEnd(_ text: String) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.compositionEnd(text) }
    }

    /// Return, Tab or blur (`trigger`): commits the pending text. Ends an
    /// edit session. The trigger matters only to
    /// ``ContactResolution/topSuggestionOnReturn``.
    ///
    /// - Complexity: O(*p*) in the pending text.
    @discardableResult
    public mutating func commit(by trigger: CommitTrigger = .returnKey) -> [ComposerChange] {
        committingBy = trigger
        defer { committingBy = nil }
        let changes = perform(nil) { $0.commit() }
        coalescing = nil
        return changes
    }

    /// Backspace in the focused field (see ``ChipField/backspace()``).
    ///
    /// - Complexity: O(*p*) in the pending text, or O(*s*) for *s* selected chips
    ///   removed; not O(chips).
    @discardableResult
    public mutating func backspace() -> [ComposerChange] { perform(nil) { $0.backspace() } }

    /// Forward delete in the focused field (see ``ChipField/deleteForward()``).
    ///
    /// - Complexity: O(*p*) in the pending text, or O(*n*) when it deletes a selection.
    @discardableResult
    public mutating func deleteForward() -> [ComposerChange] { perform(nil) { $0.deleteForward() } }

    /// Moves the caret left; leaving the pending text commits it.
    ///
    /// - Complexity: O(*p*) in the pending text it commits.
    @discardableResult
    public mutating func moveLeft() -> [ComposerChange] { perform(nil) { $0.moveLeft() } }

    /// Moves the caret right; leaving the pending text commits it.
    ///
    /// - Complexity: O(*p*) in the pending text it commits.
    @discardableResult
    public mutating func moveRight() -> [ComposerChange] { perform(nil) { $0.moveRight() } }

    /// Selects a chip of the focused field: alone, as a range from the last
    /// chip selected alone (`extend`), or toggled (`toggle`).
    ///
    /// - Complexity: O(1) alone or toggled; O(chips) to find a range's anchor.
    @discardableResult
    public mutating func select(_ index: Int, extend: Bool = false, toggle: Bool = false) -> [ComposerChange] {
        perform(nil) { $0.select(index, extend: extend, toggle: toggle) }
    }

    /// Selects every chip of the focused field.
    ///
    /// - Complexity: O(*n*) in the field's chips.
    @discardableResult
    public mutating func selectAll() -> [ComposerChange] { perform(nil) { $0.selectAll() } }

    /// Selects nothing in the focused field.
    @discardableResult
    public mutating func clearSelection() -> [ComposerChange] { perform(nil) { $0.clearSelection() } }

    /// Deletes the selected chips of the focused field (committed ones
    /// stay, with a refusal): one undo step.
    ///
    /// - Complexity: O(*n*) in the field's chips.
    @discardableResult
    public mutating func removeSelection() -> [ComposerChange] { perform(nil) { $0.removeSelection() } }

    /// Puts the caret of the focused field before the chip at `index` (or
    /// at the end), committing pending text first.
    ///
    /// - Complexity: O(*p*) in the pending text committed.
    @discardableResult
    public mutating func moveCaret(toChipIndex index: Int) -> [ComposerChange] {
        perform(nil) { $0.moveCaret(toChipIndex: index) }
    }

    /// Moves the selected chips of the focused field, in their order, so
    /// the first lands at `destination`: one undo step.
    ///
    /// - Complexity: O(*s* · *n*) for *s* selected chips in *n*.
    @discardableResult
    public mutating func moveSelection(to destination: Int) -> [ComposerChange] {
        perform(nil) { $0.moveSelection(to: destination) }
    }

    /// Deletes the chip at `index` of the focused field (not a committed one).
    ///
    /// - Complexity: O(chips) for the array move (8 bytes a chip; about 7 µs
    ///   at 100,000 chips).
    @discardableResult
    public mutating func remove(at index: Int) -> [ComposerChange] { perform(nil) { $0.remove(at: index) } }

    /// Turns a chip back into text; the edit, the typing and the commit
    /// that follow are one undo step.
    ///
    /// - Complexity: O(*n* + *c*) for *n* chips and the chip's *c* bytes.
    @discardableResult
    public mutating func edit(at index: Int) -> [ComposerChange] {
        coalescing = nil
        let changes = perform(nil) { $0.edit(at: index) }
        if fields[focusedIndex].isEditingChip {
            coalescing = .editSession(field: focusedIndex)
        }
        return changes
    }

    /// Moves a chip within the focused field.
    ///
    /// - Complexity: O(*n*) in the field's chips, for the array move.
    @discardableResult
    public mutating func move(from index: Int, to destination: Int) -> [ComposerChange] {
        perform(nil) { $0.move(from: index, to: destination) }
    }

    /// Moves the chip at `index` of the focused field (or, when it is
    /// selected, every selected chip) to field `name` at `destination`,
    /// keeping identities and content.
    ///
    /// - Complexity: O(*s* · *n*) for *s* chips moved and *n* chips in the two fields.
    @discardableResult
    public mutating func move(from index: Int, toField name: String, at destination: Int) -> [ComposerChange] {
        guard let target = fieldIndex(named: name) else {
            return [ComposerChange(field: name, change: .refused(Refusal(.noSuchField)))]
        }
        let source = focusedIndex
        guard (0..<fields[source].count).contains(index) else {
            return [ComposerChange(field: fields[source].name, change: .refused(Refusal(.noSuchChip)))]
        }
        if target == source { return move(from: index, to: destination) }
        coalescing = nil
        redoStack.removeAll()
        let picked = fields[source][index].id
        let ids = fields[source].isSelected(picked) ? fields[source].selectedIDs : [picked]
        var changes: [ComposerChange] = []
        var fieldChanges: [FieldChange] = []
        let sourceName = fields[source].name, targetName = fields[target].name
        if !fields[source].selection.isEmpty {
            fieldChanges += fields[source].clearSelection()
        }
        var at = max(0, min(destination, fields[target].count))
        for id in ids {
            guard let from = fields[source].index(of: id), fields[source][from].isEditable else {
                fieldChanges.append(.refused(Refusal(.chipCommitted)))
                continue
            }
            if fields[target].count >= fields[target].limits.maxChips {
                fieldChanges.append(.refused(Refusal(.tooManyChips)))
                break
            }
            let chip = fields[source].removeChip(at: from, &fieldChanges)
            var targetChanges: [FieldChange] = []
            fields[target].insertChip(chip, at: at, &targetChanges)
            changes += fieldChanges.map { ComposerChange(field: sourceName, change: $0) }
            changes += targetChanges.map { ComposerChange(field: targetName, change: $0) }
            fieldChanges = []
            at += 1
        }
        changes += fieldChanges.map { ComposerChange(field: sourceName, change: $0) }
        recordTransaction(focusBefore: source)
        return changes
    }

    // MARK: - Undo and redo

    /// Undoes the last step; returns its changes (indexes as they apply).
    ///
    /// - Complexity: O(*e*) in the edits of the step undone (an array move each where chips come or go).
    @discardableResult
    public mutating func undo() -> [ComposerChange] {
        coalescing = nil
        guard let t = undoStack.popLast() else { return [] }
        var changes: [ComposerChange] = []
        for step in t.steps.reversed() {
            let inverse = step.edits.reversed().map(\.inverse)
            changes += fields[step.field].apply(inverse).map { ComposerChange(field: fields[step.field].name, change: $0) }
        }
        focusedIndex = t.focusBefore
        reindex(changes)
        redoStack.append(t)
        return changes
    }

    /// Redoes the last undone step.
    ///
    /// - Complexity: O(*e*) in the edits of the step redone.
    @discardableResult
    public mutating func redo() -> [ComposerChange] {
        coalescing = nil
        guard let t = redoStack.popLast() else { return [] }
        var changes: [ComposerChange] = []
        for step in t.steps {
            changes += fields[step.field].apply(step.edits).map { ComposerChange(field: fields[step.field].name, change: $0) }
        }
        focusedIndex = t.focusAfter
        reindex(changes)
        undoStack.append(t)
        return changes
    }

    // MARK: - Sending

    /// The draft's errors and pending text: what refuses a send before
    /// the transport is asked about. Used by `send(smtpUTF8:)`.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    package func unsentWork() -> (errors: [String: [ChipID]], pending: [String]) {
        var errors: [String: [ChipID]] = [:]
        var pendingFields: [String] = []
        for f in fields {
            let bad = f.chips.filter { $0.state == .error }.map(\.id)
            if !bad.isEmpty { errors[f.name] = bad }
            if f.hasUncommittedText { pendingFields.append(f.name) }
        }
        return (errors, pendingFields)
    }

    /// Marks every chip committed (sent): no longer editable, movable or
    /// deletable. Sending cannot be undone, so the undo history is cleared.
    /// The checks that decide whether a draft may be sent are the output
    /// layer's (`send(smtpUTF8:)`), which knows what a header can carry.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    package mutating func commitForSending() -> [ComposerChange] {
        var changes: [ComposerChange] = []
        for k in fields.indices {
            changes += fields[k].commitAllChips().map { ComposerChange(field: fields[k].name, change: $0) }
        }
        undoStack.removeAll()
        redoStack.removeAll()
        coalescing = nil
        return changes
    }

    // MARK: - Internals

    /// Runs an operation on the focused field, applies the duplicate
    /// policy to what it added or removed, and records the undo step
    /// (merged into the open one when `coalesce` continues it).
    mutating func perform(_ coalesce: Coalescing?, _ body: (inout ChipField) -> [FieldChange]) -> [ComposerChange] {
        let f = focusedIndex
        let fieldChanges = body(&fields[f])
        var changes = fieldChanges.map { ComposerChange(field: fields[f].name, change: $0) }
        changes += resolveContacts(after: changes)
        changes += applyDuplicatePolicy(after: changes)
        let touched = fields.indices.filter { fields[$0].hasJournal }
        // An edit session swallows everything on its field until it ends.
        let inSession = coalescing == .editSession(field: f)
        let effective = inSession ? coalescing : coalesce
        if !touched.isEmpty {
            redoStack.removeAll()
            if let effective, effective == coalescing, !undoStack.isEmpty {
                var last = undoStack.removeLast()
                for k in touched {
                    let edits = fields[k].takeJournal()
                    if let s = last.steps.indices.last, last.steps[s].field == k {
                        last.steps[s].append(edits)
                    } else {
                        var step = Step(field: k)
                        step.append(edits)
                        last.steps.append(step)
                    }
                }
                last.focusAfter = focusedIndex
                undoStack.append(last)
            } else {
                recordTransaction(focusBefore: f)
            }
        }
        coalescing = effective
        if inSession && fields[f].pending.isEmpty && !fields[f].isEditingChip { coalescing = nil }
        return changes
    }

    mutating func recordTransaction(focusBefore: Int) {
        var t = Transaction(focusBefore: focusBefore, focusAfter: focusedIndex)
        for k in fields.indices where fields[k].hasJournal {
            var step = Step(field: k)
            step.append(fields[k].takeJournal())
            t.steps.append(step)
        }
        guard !t.steps.isEmpty else { return }
        undoStack.append(t)
        if undoStack.count > maxUndoSteps { undoStack.removeFirst(undoStack.count - maxUndoSteps) }
    }

    /// The duplicate key of a chip, under the fields' policy (whether local
    /// parts compare exactly).
    func key(of chip: Chip) -> UInt64? {
        guard chip.content.kind == .mailbox, chip.content.isValid, let address = chip.content.address else { return nil }
        return AddressKey.hash(Array(address.utf8), exactLocalPart: fields[0].policy.comparesLocalPartsExactly)
    }

    /// Applies the duplicate policy to chips the changes inserted, and
    /// keeps the address index in step with insertions and removals.
    mutating func applyDuplicatePolicy(after changes: [ComposerChange]) -> [ComposerChange] {
        var extra: [ComposerChange] = []
        for c in changes {
            guard let k = fieldIndex(named: c.field) else { continue }
            switch c.change {
            case .removed(let id, _):
                extra += forget(id)
            case .inserted(let id, let insertedAt):
                guard let chip = fields[k].chip(id), let key = key(of: chip) else { continue }
                let holders = keyIndex[key] ?? []
                if holders.isEmpty || duplicatePolicy == .allow {
                    remember(id, key)
                    continue
                }
                switch duplicatePolicy {
                case .allow:
                    break
                case .warn:
                    remember(id, key)
                    extra += setDuplicateWarning(id, true, hint: (k, insertedAt))
                case .reject, .merge:
                    if duplicatePolicy == .merge, let first = holders.first { extra += mergeName(from: chip, into: first) }
                    guard let at = locate(id, hint: (k, insertedAt))?.index else { continue }
                    var fc: [FieldChange] = []
                    _ = fields[k].removeChip(at: at, &fc)
                    let reason: Refusal.Reason = duplicatePolicy == .reject ? .duplicate : .mergedDuplicate
                    fc.append(.refused(Refusal(reason, text: chip.content.rawText)))
                    extra += fc.map { ComposerChange(field: fields[k].name, change: $0) }
                }
            default:
                continue
            }
        }
        return extra
    }

    mutating func remember(_ id: ChipID, _ key: UInt64) {
        keyIndex[key, default: []].append(id)
        chipKeys[id] = key
    }

    /// Drops a chip from the index; under `warn`, a copy left alone loses
    /// its warning.
    mutating func forget(_ id: ChipID) -> [ComposerChange] {
        guard let key = chipKeys.removeValue(forKey: id) else { return [] }
        keyIndex[key]?.removeAll { $0 == id }
        if keyIndex[key]?.isEmpty == true { keyIndex[key] = nil }
        var extra: [ComposerChange] = []
        if duplicatePolicy == .warn, let holders = keyIndex[key], let first = holders.first {
            extra += setDuplicateWarning(first, false)
        }
        return extra
    }

    /// Where a chip is. O(1) when `hint` is right (the index an insertion
    /// just reported); otherwise a scan of the field that holds it.
    func locate(_ id: ChipID, hint: (field: Int, index: Int)? = nil) -> (field: Int, index: Int)? {
        if let (k, i) = hint, (0..<fields[k].count).contains(i), fields[k][i].id == id { return (k, i) }
        for k in fields.indices where fields[k].chip(id) != nil {
            if let i = fields[k].index(of: id) { return (k, i) }
        }
        return nil
    }

    mutating func setDuplicateWarning(
        _ id: ChipID, _ on: Bool, hint: (field: Int, index: Int)? = nil
    ) -> [ComposerChange] {
        guard let (k, i) = locate(id, hint: hint), var chip = fields[k].chip(id), chip.isEditable else { return [] }
        if on { chip.content.warnings.insert(.duplicate) } else { chip.content.warnings.remove(.duplicate) }
        var fc: [FieldChange] = []
        fields[k].replaceChip(chip, at: i, &fc)
        return fc.map { ComposerChange(field: fields[k].name, change: $0) }
    }

    mutating func mergeName(from newer: Chip, into firstID: ChipID) -> [ComposerChange] {
        guard let (k, i) = locate(firstID), var first = fields[k].chip(firstID), first.isEditable,
              first.content.displayName == nil, let name = newer.content.displayName else { return [] }
        first.content.displayName = name
        var fc: [FieldChange] = []
        fields[k].replaceChip(first, at: i, &fc)
        return fc.map { ComposerChange(field: fields[k].name, change: $0) }
    }

    /// After undo or redo: the index follows the chips that came and went.
    mutating func reindex(_ changes: [ComposerChange]) {
        for c in changes {
            switch c.change {
            case .removed(let id, _):
                if let key = chipKeys.removeValue(forKey: id) {
                    keyIndex[key]?.removeAll { $0 == id }
                    if keyIndex[key]?.isEmpty == true { keyIndex[key] = nil }
                }
            case .inserted(let id, _):
                if let k = fieldIndex(named: c.field), let chip = fields[k].chip(id),
                   let key = key(of: chip), chipKeys[id] == nil {
                    remember(id, key)
                }
            default:
                continue
            }
        }
    }
}
