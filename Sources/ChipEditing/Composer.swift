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
    /// The field the change happened in.
    public var field: FieldID
    /// What changed, as the field reports it.
    public var change: FieldChange

    /// The change `change` in field `field`.
    public init(field: FieldID, change: FieldChange) {
        self.field = field
        self.change = change
    }

    /// The field's name, then the change: for logs and tests.
    public var description: String { "\(field): \(change)" }

    /// The changes with one report per chip: an `updated` of a chip the
    /// list already inserted or updated (and did not remove since) is
    /// dropped. A UI reads a chip's content when it handles its change,
    /// after the operation, so the first report shows the final chip, and
    /// dropping an update moves no index.
    ///
    /// - Complexity: O(*c*) in the changes.
    static func coalesced(_ changes: [ComposerChange]) -> [ComposerChange] {
        guard changes.count > 1 else { return changes }
        var reported = Set<ChipID>()
        var out: [ComposerChange] = []
        out.reserveCapacity(changes.count)
        for c in changes {
            switch c.change {
            case .inserted(let id, _):
                reported.insert(id)
            case .updated(let id, _):
                if !reported.insert(id).inserted { continue }
            case .removed(let id, _):
                reported.remove(id)
            default:
                break
            }
            out.append(c)
        }
        return out
    }
}

/// What blocks a send, or that it went, and what to send: the answer of
/// `Composer.send(options:)` and of `Composer.sendability(options:)`.
public struct SendReport: Sendable, Hashable {
    /// A chip that is valid but cannot go out with this transport.
    public struct UnsendableChip: Sendable, Hashable {
        /// The field that holds the chip.
        public var field: FieldID
        /// The chip left out.
        public var id: ChipID
        /// Why the header writer left it out: `needs-smtputf8` (a UTF-8
        /// local part without SMTPUTF8), `invalid-idn` (a domain without an
        /// A-label form), `control-character`, `too-long`, or
        /// `not-an-addr-spec` (text a lenient policy accepted that is not an
        /// RFC 5322 addr-spec, so it would not read back the same).
        public var reason: HeaderOmission.Reason

        /// The chip `id` of `field`, left out for `reason`.
        public init(field: FieldID, id: ChipID, reason: HeaderOmission.Reason) {
            self.field = field
            self.id = id
            self.reason = reason
        }
    }

    /// One header to send: the field and its value as the header writer
    /// renders it (folded for a line that starts with the field's name,
    /// encoded words, no raw CR/LF).
    public struct Header: Sendable, Hashable {
        /// The field the header is for; its ``FieldID/headerName`` names the header.
        public var field: FieldID
        /// The header's value, without the name and the final line break.
        public var value: String

        /// The header of `field` with this value.
        public init(field: FieldID, value: String) {
            self.field = field
            self.value = value
        }

        /// The header's line as a message holds it: `To: ` and the value
        /// (without the final line break).
        ///
        /// - Complexity: O(*n*), where *n* is the length of the value.
        public var line: String { field.headerName + ": " + value }
    }

    /// True when every chip is now committed.
    public var sent: Bool
    /// Chips in error, by field.
    public var errorChips: [FieldID: [ChipID]]
    /// Fields whose pending (or marked) text is not empty.
    public var fieldsWithPendingText: [FieldID]
    /// True when no field holds a mailbox: nobody to send to.
    public var hasNoRecipient: Bool
    /// Valid chips the transport cannot carry, in field order.
    public var unsendableChips: [UnsendableChip]
    /// When nothing blocks (``canSend``), the non-empty fields' header
    /// values, in field order; empty otherwise.
    public var headers: [Header]
    /// The changes a send made (every chip committed); empty when nothing was sent.
    public var changes: [ComposerChange]

    /// Whether nothing blocks a send: no chip in error, no pending text, a
    /// recipient, and every valid chip carried by the transport.
    public var canSend: Bool {
        errorChips.isEmpty && fieldsWithPendingText.isEmpty && !hasNoRecipient && unsendableChips.isEmpty
    }

    /// A report with these parts; by default nothing blocks and nothing was rendered or changed.
    public init(
        sent: Bool, errorChips: [FieldID: [ChipID]] = [:], fieldsWithPendingText: [FieldID] = [],
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

/// Whether a send would go now, and how much blocks it, counted as the
/// chips come and go: what a Send button reads after every change, at a
/// cost that does not grow with the chips. ``Composer/sendability(options:)``
/// says which chips and fields block, when the person asks why.
public struct SendReadiness: Sendable, Hashable {
    /// Chips in error, in every field.
    public var chipsInError: Int
    /// Fields holding text not yet made a chip.
    public var fieldsWithPendingText: Int
    /// Mailboxes, in every field.
    public var recipients: Int
    /// Valid chips the transport cannot carry (see
    /// ``SendReport/unsendableChips``).
    public var unsendableChips: Int

    /// Counts as a host or a test states them (``Composer/readiness(smtpUTF8:)``
    /// counts a draft's).
    public init(chipsInError: Int, fieldsWithPendingText: Int, recipients: Int, unsendableChips: Int) {
        self.chipsInError = chipsInError
        self.fieldsWithPendingText = fieldsWithPendingText
        self.recipients = recipients
        self.unsendableChips = unsendableChips
    }

    /// Whether nothing blocks a send: the same answer as
    /// ``SendReport/canSend`` of ``Composer/sendability(options:)``.
    public var canSend: Bool {
        chipsInError == 0 && fieldsWithPendingText == 0 && recipients > 0 && unsendableChips == 0
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
    /// The fields, in order (`fields[k]` is named `fieldIDs[k]`); changed only
    /// by the composer's operations, so the invariants hold.
    public internal(set) var fields: [ChipField]
    /// The fields' identities, in field order (`fieldIDs[k]` is `fields[k]`).
    public let fieldIDs: [FieldID]
    /// The index in ``fields`` of the field with the focus.
    public internal(set) var focusedIndex = 0
    /// What adding an address some field already holds does; a change applies
    /// to addresses added from then on.
    public var duplicatePolicy: DuplicatePolicy
    /// Undo steps kept; older ones are forgotten (at once when it is lowered).
    public var maxUndoSteps = 1_000 {
        didSet {
            let keep = max(maxUndoSteps, 0)
            if undoStack.count > keep { undoStack.dropOldest(undoStack.count - keep) }
        }
    }

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

    /// The undo steps, oldest first: an array read from `start`, so that
    /// forgetting the oldest step when the history is full costs O(1)
    /// amortized, not a move of every step kept (the array is compacted
    /// when half of it is forgotten steps).
    struct UndoHistory: Sendable {
        private var items: [Transaction] = []
        private var start = 0

        var count: Int { items.count - start }
        var isEmpty: Bool { items.count == start }
        var capacity: Int { items.capacity }
        /// The steps kept, oldest first.
        var transactions: ArraySlice<Transaction> { items[start...] }
        /// The step `i` places from the oldest kept.
        subscript(i: Int) -> Transaction { items[start + i] }

        mutating func append(_ t: Transaction) { items.append(t) }

        mutating func popLast() -> Transaction? { isEmpty ? nil : items.removeLast() }

        mutating func removeLast() -> Transaction { items.removeLast() }

        mutating func removeAll() {
            items.removeAll()
            start = 0
        }

        /// Forgets the `k` oldest steps.
        ///
        /// - Complexity: O(*k*) amortized.
        mutating func dropOldest(_ k: Int) {
            let k = min(k, count)
            for i in start..<(start + k) { items[i].steps = [] }  // what they held goes now
            start += k
            if start >= 32 && start * 2 >= items.count {
                items.removeFirst(start)
                start = 0
            }
        }
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
    /// resolve (``FieldChange/lookupRequested(_:)`` with a chip).
    public var remoteLookups = false
    /// Ask the host's remote directory for suggestions as the person
    /// types: each operation that changes the focused field's text asks
    /// about the new text (``FieldChange/lookupRequested(_:)`` without a
    /// chip) and takes back the question about the old one.
    public var remoteSuggestions = false
    /// The suggestion search kept between keystrokes, to narrow.
    var search: SuggestionSearch?
    var lookups = Lookups()
    /// While an operation inserts chips for chosen contacts: their ids, in
    /// order of insertion.
    var pendingTags: [ContactID?]?

    var undoStack = UndoHistory()
    var redoStack: [Transaction] = []
    var coalescing: Coalescing?
    /// Address key → chips holding it, oldest first.
    var keyIndex: [UInt64: [ChipID]] = [:]
    var chipKeys: [ChipID: UInt64] = [:]

    /// A composer with these fields (they must differ), focused on the first.
    ///
    /// - Complexity: O(*f*), where *f* is the number of fields; O(*f* · *d* log *d*)
    ///   when the policy's *d* common domains are not the default ones (each
    ///   field builds its look-alike tables).
    public init(
        fields ids: [FieldID] = [.to, .cc, .bcc], policy: ValidationPolicy = .standard,
        limits: FieldLimits = FieldLimits(), duplicatePolicy: DuplicatePolicy = .warn
    ) {
        precondition(!ids.isEmpty, "a composer needs a field")
        precondition(Set(ids).count == ids.count, "fields must differ")
        fieldIDs = ids
        fields = ids.enumerated().map {
            var field = ChipField(name: $1.name, policy: policy, limits: limits, idPrefix: UInt64($0 + 1))
            field.startJournal()
            return field
        }
        self.duplicatePolicy = duplicatePolicy
    }

    /// The field with the focus, where typing goes.
    public var focusedField: ChipField { fields[focusedIndex] }
    /// Which field has the focus.
    public var focusedFieldID: FieldID { fieldIDs[focusedIndex] }

    /// The field `id`, or nil when the composer has none.
    ///
    /// - Complexity: O(*f*) in the number of fields.
    public func field(_ id: FieldID) -> ChipField? { fieldIndex(of: id).map { fields[$0] } }

    /// The index of field `id` in ``fields``.
    ///
    /// - Complexity: O(*f*) in the number of fields.
    public func fieldIndex(of id: FieldID) -> Int? { fieldIDs.firstIndex(of: id) }

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
        for t in undoStack.transactions + redoStack[...] {
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
    public mutating func focus(_ id: FieldID) -> [ComposerChange] {
        guard let target = fieldIndex(of: id) else {
            return [ComposerChange(field: id, change: .refused(Refusal(.noSuchField)))]
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
        changes.append(ComposerChange(field: fieldIDs[target], change: .caretMoved))
        changes += lookupChanges()
        checkInvariantsInDebug()
        return changes
    }

    /// Types text at the caret, as one key (or one string of keys).
    ///
    /// - Complexity: as ``ChipField/insert(_:)-([UInt8])``: O(*m* + *p*), where
    ///   *m* is the number of bytes typed and *p* the length of the pending
    ///   text; the chips are never scanned, but each chip made before other
    ///   chips moves their identities.
    @discardableResult
    public mutating func type(_ text: String) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.insert(text) }
    }

    /// Types bytes at the caret (for instance a key of a terminal that
    /// sends raw bytes); bytes that are not UTF-8 end up in error chips.
    ///
    /// - Complexity: as ``type(_:)``.
    @discardableResult
    public mutating func type(bytes: [UInt8]) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.insert(bytes) }
    }

    /// Pastes text: one undo step, however many chips it makes.
    ///
    /// - Complexity: as ``type(_:)``, for the *m* bytes pasted.
    @discardableResult
    public mutating func paste(_ text: String) -> [ComposerChange] {
        perform(nil) { $0.insert(text) + $0.endPastedList() }
    }

    /// Pastes bytes (a file, a clipboard of unknown encoding): one undo
    /// step; bytes that are not UTF-8 end up in error chips, never dropped.
    ///
    /// - Complexity: as ``type(_:)``, for the *m* bytes pasted.
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
    /// - Complexity: as ``type(_:)``.
    @discardableResult
    public mutating func compositionEnd(_ text: String) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.compositionEnd(text) }
    }

    /// The focused field's pending text with the marked text at the caret:
    /// what positions in the host's units are offsets into (see
    /// ``ChipField/editingBytes``).
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    public var editingText: String { focusedField.editingText }

    /// The selection in the focused field's editing text, in `unit`.
    ///
    /// - Complexity: O(1) in bytes; O(*p*) in another unit.
    public func pendingSelection(in unit: TextUnit = .utf8) -> Range<Int> { focusedField.pendingSelection(in: unit) }

    /// The marked text's place in the focused field's editing text, or nil.
    ///
    /// - Complexity: O(1) in bytes; O(*p*) in another unit.
    public func markedRange(in unit: TextUnit = .utf8) -> Range<Int>? { focusedField.markedRange(in: unit) }

    /// Selects a range of the focused field's editing text, or puts the
    /// caret there (see ``ChipField/selectPendingText(_:in:)``).
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func selectPendingText(_ range: Range<Int>, in unit: TextUnit = .utf8) -> [ComposerChange] {
        perform(nil) { $0.selectPendingText(range, in: unit) }
    }

    /// Selects a range of ``editingText`` given as its indices.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func selectPendingText(_ range: Range<String.Index>) -> [ComposerChange] {
        perform(nil) { $0.selectPendingText(range) }
    }

    /// Puts the caret at `offset` of the focused field's editing text.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func setCaret(_ offset: Int, in unit: TextUnit = .utf8) -> [ComposerChange] {
        perform(nil) { $0.setCaret(offset, in: unit) }
    }

    /// Marks a range of the editing text as a composition, or (nil) ends
    /// it (see ``ChipField/setMarkedRange(_:in:)``). Part of the current
    /// typing step.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func setMarkedRange(_ range: Range<Int>?, in unit: TextUnit = .utf8) -> [ComposerChange] {
        perform(.typing(field: focusedIndex)) { $0.setMarkedRange(range, in: unit) }
    }

    /// Replaces a range of the focused field's editing text, as autocorrect,
    /// dictation or select-and-overtype do: one undo step, the same chip
    /// rules as typing (see ``ChipField/replacePending(_:in:with:)``).
    ///
    /// - Complexity: as ``ChipField/replacePending(_:in:with:)``.
    @discardableResult
    public mutating func replacePending(_ range: Range<Int>, in unit: TextUnit = .utf8, with text: String)
        -> [ComposerChange] {
        perform(nil) { $0.replacePending(range, in: unit, with: text) }
    }

    /// Replaces a range of ``editingText`` given as its indices: one undo step.
    ///
    /// - Complexity: as ``ChipField/replacePending(_:in:with:)``.
    @discardableResult
    public mutating func replacePending(_ range: Range<String.Index>, with text: String) -> [ComposerChange] {
        perform(nil) { $0.replacePending(range, with: text) }
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
    /// - Complexity: as ``ChipField/backspace()``: O(*p*) in the pending
    ///   text, or with chips selected as ``removeSelection()``.
    @discardableResult
    public mutating func backspace() -> [ComposerChange] { perform(nil) { $0.backspace() } }

    /// Forward delete in the focused field (see ``ChipField/deleteForward()``).
    ///
    /// - Complexity: as ``backspace()``.
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
    /// - Complexity: as ``ChipField/select(_:extend:toggle:)``.
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
    /// - Complexity: as ``ChipField/removeSelection()``: O((*s* + 1) · *n*)
    ///   for *s* chips removed of the field's *n*.
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
    /// selected, every selected chip) to field `target` at `destination`,
    /// keeping identities and content.
    ///
    /// - Complexity: O(*s* · *n*) for *s* chips moved and *n* chips in the two fields.
    @discardableResult
    public mutating func move(from index: Int, toField target: FieldID, at destination: Int) -> [ComposerChange] {
        moveChips(inField: focusedIndex, from: index, to: target, at: destination)
    }

    // MARK: - Operations on a chip, in any field

    /// Where chip `id` is: its field and its index there, or nil when no
    /// field holds it.
    ///
    /// - Complexity: O(*f* + *n*): a lookup in each of *f* fields, then a
    ///   scan of the *n* identities of the one that holds it (8 bytes each).
    public func location(of id: ChipID) -> (field: FieldID, index: Int)? {
        locate(id).map { (fieldIDs[$0.field], $0.index) }
    }

    /// Deletes chip `id` (not a committed one) from whichever field holds
    /// it, without moving the focus: the ⓧ of a Cc chip while the person
    /// types in To. One undo step.
    ///
    /// - Complexity: O(*f* + *n*) to find it, and the array move.
    @discardableResult
    public mutating func remove(_ id: ChipID) -> [ComposerChange] {
        guard let (k, i) = locate(id) else { return noSuchChip() }
        return perform(on: k, nil) { $0.remove(at: i) }
    }

    /// Turns chip `id` back into text where it is. Typing goes where the
    /// caret is, so when the chip is in another field the focus moves
    /// there first (committing the pending text it leaves, as ``focus(_:)``
    /// does); the edit, the typing and the commit that follow are one undo
    /// step.
    ///
    /// - Complexity: O(*f* + *n* + *c*) for *n* chips and the chip's *c* bytes.
    @discardableResult
    public mutating func edit(_ id: ChipID) -> [ComposerChange] {
        guard let (k, _) = locate(id) else { return noSuchChip() }
        var changes = k == focusedIndex ? [] : focus(fieldIDs[k])
        // The commit of the field left may have changed indexes.
        guard let (now, i) = locate(id), now == focusedIndex else { return changes + noSuchChip() }
        changes += edit(at: i)
        return changes
    }

    /// Selects chip `id` in its field, without moving the focus: alone, as
    /// a range from the last chip selected alone (`extend`), or toggled.
    ///
    /// - Complexity: O(*f* + *n*) to find it.
    @discardableResult
    public mutating func select(_ id: ChipID, extend: Bool = false, toggle: Bool = false) -> [ComposerChange] {
        guard let (k, i) = locate(id) else { return noSuchChip() }
        return perform(on: k, nil) { $0.select(i, extend: extend, toggle: toggle) }
    }

    /// Moves chip `id` (or, when it is selected, every selected chip of its
    /// field, in their order) to field `target` at `destination` (an index
    /// there before the move), keeping identities and content, without
    /// moving the focus. One undo step.
    ///
    /// - Complexity: O(*f* + *n*) to find it, then O(*s* · *n*) for *s* chips moved.
    @discardableResult
    public mutating func move(_ id: ChipID, to target: FieldID, at destination: Int) -> [ComposerChange] {
        guard let (k, i) = locate(id) else { return noSuchChip() }
        return moveChips(inField: k, from: i, to: target, at: destination)
    }

    /// Moves chips from field `source` to field `target`: the chip at
    /// `index`, or every selected chip when it is selected.
    mutating func moveChips(inField source: Int, from index: Int, to targetID: FieldID, at destination: Int) -> [ComposerChange] {
        guard let target = fieldIndex(of: targetID) else {
            return [ComposerChange(field: targetID, change: .refused(Refusal(.noSuchField)))]
        }
        guard (0..<fields[source].count).contains(index) else {
            return [ComposerChange(field: fieldIDs[source], change: .refused(Refusal(.noSuchChip)))]
        }
        if target == source { return perform(on: source, nil) { $0.move(from: index, to: destination) } }
        coalescing = nil
        redoStack.removeAll()
        let picked = fields[source][index].id
        let ids = fields[source].isSelected(picked) ? fields[source].selectedIDs : [picked]
        var changes: [ComposerChange] = []
        var fieldChanges: [FieldChange] = []
        let sourceName = fieldIDs[source], targetName = fieldIDs[target]
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
        recordTransaction(focusBefore: focusedIndex)
        checkInvariantsInDebug()
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
            changes += fields[step.field].apply(inverse).map { ComposerChange(field: fieldIDs[step.field], change: $0) }
        }
        focusedIndex = t.focusBefore
        reindex(changes)
        redoStack.append(t)
        changes += lookupChanges()
        checkInvariantsInDebug()
        return ComposerChange.coalesced(changes)
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
            changes += fields[step.field].apply(step.edits).map { ComposerChange(field: fieldIDs[step.field], change: $0) }
        }
        focusedIndex = t.focusAfter
        reindex(changes)
        undoStack.append(t)
        changes += lookupChanges()
        checkInvariantsInDebug()
        return ComposerChange.coalesced(changes)
    }

    // MARK: - Sending

    /// The draft's errors and pending text: what refuses a send before
    /// the transport is asked about. Used by `send(smtpUTF8:)`.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    package func unsentWork() -> (errors: [FieldID: [ChipID]], pending: [FieldID]) {
        var errors: [FieldID: [ChipID]] = [:]
        var pendingFields: [FieldID] = []
        for (k, f) in fields.enumerated() {
            let bad = f.chips.filter { $0.state == .error }.map(\.id)
            if !bad.isEmpty { errors[fieldIDs[k]] = bad }
            if f.hasUncommittedText { pendingFields.append(fieldIDs[k]) }
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
            changes += fields[k].commitAllChips().map { ComposerChange(field: fieldIDs[k], change: $0) }
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
        perform(on: focusedIndex, coalesce, body)
    }

    /// The same on field `f`, which need not have the focus.
    mutating func perform(
        on f: Int, _ coalesce: Coalescing?, _ body: (inout ChipField) -> [FieldChange]
    ) -> [ComposerChange] {
        let fieldChanges = body(&fields[f])
        var changes = fieldChanges.map { ComposerChange(field: fieldIDs[f], change: $0) }
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
                recordTransaction(focusBefore: focusedIndex)
            }
        }
        coalescing = effective
        if inSession && fields[f].pending.isEmpty && !fields[f].isEditingChip { coalescing = nil }
        changes += lookupChanges()
        checkInvariantsInDebug()
        return ComposerChange.coalesced(changes)
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
        let keep = max(maxUndoSteps, 0)
        if undoStack.count > keep { undoStack.dropOldest(undoStack.count - keep) }
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
            guard let k = fieldIndex(of: c.field) else { continue }
            switch c.change {
            case .removed(let id, _):
                extra += forget(id)
            case .inserted(let id, let insertedAt):
                extra += admit(id, in: k, at: insertedAt)
            case .updated(let id, let at):
                // A chip whose address changed (an alternate chosen, a name
                // resolved) leaves its old address and comes to the new one.
                guard let chip = fields[k].chip(id), chipKeys[id] != key(of: chip) else { continue }
                extra += forget(id)
                extra += admit(id, in: k, at: at)
            default:
                continue
            }
        }
        return extra
    }

    /// A chip with an address comes to the index, under the policy: kept,
    /// marked, merged or refused.
    mutating func admit(_ id: ChipID, in k: Int, at index: Int) -> [ComposerChange] {
        guard let chip = fields[k].chip(id), let key = key(of: chip) else { return [] }
        let holders = keyIndex[key] ?? []
        if holders.isEmpty || duplicatePolicy == .allow {
            remember(id, key)
            // An address that changed may have left the one it repeated.
            if chip.content.warnings.contains(.duplicate) { return setDuplicateWarning(id, false, hint: (k, index)) }
            return []
        }
        switch duplicatePolicy {
        case .allow:
            return []
        case .warn:
            remember(id, key)
            return setDuplicateWarning(id, true, hint: (k, index))
        case .reject, .merge:
            var extra: [ComposerChange] = []
            if duplicatePolicy == .merge, let first = holders.first { extra += mergeName(from: chip, into: first) }
            guard let at = locate(id, hint: (k, index))?.index else { return extra }
            var fc: [FieldChange] = []
            _ = fields[k].removeChip(at: at, &fc)
            let reason: Refusal.Reason = duplicatePolicy == .reject ? .duplicate : .mergedDuplicate
            fc.append(.refused(Refusal(reason, text: chip.content.rawText)))
            return extra + fc.map { ComposerChange(field: fieldIDs[k], change: $0) }
        }
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
        return fc.map { ComposerChange(field: fieldIDs[k], change: $0) }
    }

    mutating func mergeName(from newer: Chip, into firstID: ChipID) -> [ComposerChange] {
        guard let (k, i) = locate(firstID), var first = fields[k].chip(firstID), first.isEditable,
              first.content.displayName == nil, let name = newer.content.displayName else { return [] }
        first.content.displayName = name
        var fc: [FieldChange] = []
        fields[k].replaceChip(first, at: i, &fc)
        return fc.map { ComposerChange(field: fieldIDs[k], change: $0) }
    }

    /// After undo or redo: the index follows the chips that came and went,
    /// by where each is at the end (a chip moved back between fields is
    /// inserted in one and removed from the other, in either order).
    mutating func reindex(_ changes: [ComposerChange]) {
        var touched: [ChipID] = []
        for c in changes {
            switch c.change {
            case .removed(let id, _), .inserted(let id, _), .updated(let id, _): touched.append(id)
            default: continue
            }
        }
        for id in touched {
            // A lookup per field, not a scan: undoing a paste of k chips is O(k · f).
            let now = fields.lazy.compactMap { $0.chip(id) }.first.flatMap { key(of: $0) }
            if let old = chipKeys[id], old != now {
                chipKeys[id] = nil
                keyIndex[old]?.removeAll { $0 == id }
                if keyIndex[old]?.isEmpty == true { keyIndex[old] = nil }
            }
            if let now, chipKeys[id] == nil { remember(id, now) }
        }
    }
}

// MARK: - Invariants

extension Composer {
    /// The composer's invariants and its fields', with what broke: empty
    /// when they hold. Besides each field's: fields and their identities
    /// agree and differ, the focus is a field, chip identities are unique
    /// across fields (invariant 1), the index of addresses the duplicate
    /// policy reads holds exactly the chips with an address, each open
    /// lookup names a chip that is resolving, and the undo history keeps
    /// at most ``maxUndoSteps`` steps.
    ///
    /// - Complexity: O(*n* + *f*) in the chips and fields.
    package func invariantViolations() -> [String] {
        var out: [String] = []
        if fields.count != fieldIDs.count { out.append("\(fields.count) fields but \(fieldIDs.count) identities") }
        if Set(fieldIDs).count != fieldIDs.count { out.append("field identities repeat") }
        for (k, field) in fields.enumerated() where k < fieldIDs.count && field.name != fieldIDs[k].name {
            out.append("field \(k) is named '\(field.name)' but is \(fieldIDs[k])")
        }
        if !fields.indices.contains(focusedIndex) { out.append("the focus \(focusedIndex) is not a field") }
        var seen = Set<ChipID>()
        var keyed = 0
        for (k, field) in fields.enumerated() {
            out += field.invariantViolations().map { "\(k < fieldIDs.count ? fieldIDs[k].name : "?"): \($0)" }
            for id in field.chipIDs {
                guard let chip = field.chip(id) else { continue }
                if !seen.insert(chip.id).inserted { out.append("chip \(chip.id) is in two fields") }
                let key = key(of: chip)
                if let key {
                    keyed += 1
                    if chipKeys[chip.id] != key || keyIndex[key]?.contains(chip.id) != true {
                        out.append("chip \(chip.id) is missing from the address index")
                    }
                } else if chipKeys[chip.id] != nil {
                    out.append("chip \(chip.id) has no address but is in the address index")
                }
            }
        }
        if chipKeys.count != keyed { out.append("the address index holds \(chipKeys.count) chips, \(keyed) have an address") }
        if keyIndex.values.contains(where: \.isEmpty) { out.append("an address in the index has no chip") }
        if keyIndex.values.reduce(0, { $0 + $1.count }) != chipKeys.count { out.append("the two address indexes differ") }
        for (chip, request) in lookups.byChip {
            guard let open = lookups.open[request], open.request.chip == chip else {
                out.append("lookup \(request) of chip \(chip) is not open")
                continue
            }
            if let (k, _) = locate(chip), fields[k].chip(chip)?.isResolving != true {
                out.append("chip \(chip) has a lookup open but is not resolving")
            }
        }
        if undoStack.count > max(maxUndoSteps, 0) { out.append("\(undoStack.count) undo steps, more than \(maxUndoSteps)") }
        return out
    }

    /// Traps when an invariant does not hold (as swift-collections'
    /// `_checkInvariants()` does). Debug builds of the package run it after
    /// every operation on drafts of up to ``ChipField/invariantCheckLimit``
    /// chips.
    ///
    /// - Complexity: O(*n* + *f*) in the chips and fields.
    public func _checkInvariants() {
        let broken = invariantViolations()
        precondition(broken.isEmpty, "Composer: \(broken.joined(separator: "; "))")
    }

    /// After an operation, in debug builds of the package: the invariants,
    /// on drafts small enough that checking does not change the cost of
    /// the tests that type tens of thousands of chips.
    @inline(__always)
    func checkInvariantsInDebug() {
        #if CHIPIFY_INTERNAL_CHECKS
        guard fields.reduce(0, { $0 + $1.count }) <= ChipField.invariantCheckLimit else { return }
        _checkInvariants()
        #endif
    }
}
