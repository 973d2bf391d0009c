import ChipSyntax
import ChipRecognition
import ChipOutput

/// Limits of one field, as values: reaching one gives a refusal, never a crash.
public struct FieldLimits: Sendable, Hashable, Codable {
    /// Most chips a field holds.
    public var maxChips: Int
    /// Most bytes of text being typed (not yet chips).
    public var maxPendingBytes: Int

    /// Limits that a person typing never reaches, yet that bound what pasted
    /// or restored text can make a field hold.
    public init(maxChips: Int = 1_000_000, maxPendingBytes: Int = 65_536) {
        self.maxChips = maxChips
        self.maxPendingBytes = maxPendingBytes
    }
}

/// One recipient field ("To"): ordered chips, the text being typed at the
/// caret, and a selection.
///
/// The caret sits between two chips (``insertionIndex`` chips before it),
/// inside the pending text at byte offset ``caret``. Typing inserts at the
/// caret; the same resumable ``ListScanner`` that reads files turns text
/// into chips as soon as a separator ends one, so what is left pending is
/// only the chip being typed.
///
/// Every operation returns the ``FieldChange``s it made.
///
/// Invariants:
/// 1. `0 <= insertionIndex <= count` and `0 <= caret <= pending.count`.
/// 2. The pending text never holds a complete chip followed by a separator.
/// 3. Chip identities are unique and survive every operation but deletion.
/// 4. Typing at the end of the pending text scans only the new bytes; any
///    other edit rescans at most the pending text: the work of a keystroke
///    does not depend on the number of chips.
public struct ChipField: Sendable {
    /// The field's name; in a composer, its ``FieldID``'s name as given.
    public let name: String
    /// The rules chips are recognized with, fixed for the field's life:
    /// changing them under existing chips would silently change which
    /// chips can be sent. A host that wants other rules makes a new field
    /// (or composer) and types or restores the text into it.
    public let policy: ValidationPolicy
    /// Limits checked by each operation; a change applies from the next one.
    public var limits: FieldLimits

    // The state is private to this file: the composer goes through the
    // small API at the end of it, which keeps the caret, the selection,
    // the journal and the reported changes right in one place.
    private var order: [ChipID] = []
    /// Each chip in a box of its own, shared with the undo history: a
    /// dictionary slot is 16 bytes whatever a chip's size (a ``Chip`` is
    /// over 200), and an edit that keeps a chip keeps a reference.
    private var storage: [ChipID: Shared<Chip>] = [:]
    /// What a send needs to know of the chips, counted as they come and
    /// go (each chip's ``SendClass`` is kept in its box), so a Send button
    /// reads it in O(1) whatever the number of chips.
    package private(set) var sendTally = SendTally()
    /// Checks whether a chip's address can go in a header (its class).
    private var addrSpecChecker = HeaderRenderer.addrSpecChecker()
    private var text = TextState()
    /// The selected chips, changed only by the field's operations.
    public private(set) var selection: Set<ChipID> = []
    private var anchor: ChipID?
    private var names: Recognizer
    /// The look-alike checks, with their cache of verdicts on domains:
    /// kept out of ``TextState``, which undo saves whole, so the history
    /// holds no copy of the cache.
    private var lookalikes: Lookalikes
    private var idPrefix: UInt64
    private var nextSerial: UInt64 = 1
    /// Primitive edits since the composer last took them, for undo.
    private var journal: [FieldEdit] = []
    /// Whether edits are journaled: on in a ``Composer``, which takes them
    /// after each operation; off in a field used alone, so nothing grows.
    private var recordsEdits = false
    /// The chip a space made at once (`bob@y.org ` typed), and the text as
    /// it was before, while the next significant key may still show the
    /// address going on (`(`, `<`, `.`, `@`): then the chip is reopened in
    /// that keystroke. Any other operation makes the chip final.
    private var provisional: Provisional?

    /// Bytes a key may scan again because a provisional chip is reopened:
    /// white space typed after a chip a space made at once, or the words
    /// and comma of a held `Last,` (for tests that bound the work of a key).
    package var provisionalSpaceBytes: Int {
        (provisional?.spaces.count ?? 0) + (provisional?.held.map { $0.range.count + 1 } ?? 0)
    }

    struct Provisional: Sendable {
        var id: ChipID
        var text: TextState
        /// White space typed since (a separator now, text if reopened).
        var spaces: [UInt8] = []
        /// For the words before a held comma (Outlook's `Last,`): the
        /// scanner as it was, fed every byte typed since, which tells when
        /// the words end up joined to what follows (`Last, First <…>;`:
        /// reopen) or alone (the chip stays); and those bytes.
        var held: HeldComma?
        /// For chips a line break at the end of an insert made at once:
        /// how many (0 when it only closed a group). A space or tab typed
        /// next makes the break folding white space after all: the chips go
        /// and the text returns, as in the list read whole.
        var lineBreakChips: Int?
    }

    struct HeldComma: Sendable {
        var shadow: ListScanner
        var range: Range<Int>
        var typed: [UInt8] = []
    }
    /// Bytes fed to the scanner so far: a measure of work, for tests and
    /// benchmarks that bound the cost of a keystroke.
    package private(set) var bytesScanned = 0

    /// Everything about the text being typed. Saved whole for undo: it is
    /// bounded by `maxPendingBytes`, whatever the number of chips.
    struct TextState: Sendable {
        var pending: [UInt8] = []
        /// Scanner offset of `pending[0]`.
        var pendingBase = 0
        /// The caret, a byte offset in `pending`: the end of the selection
        /// in the pending text. Setting it collapses the selection, so every
        /// edit that moves the caret ends a selection.
        var caret: Int {
            get { caretOffset }
            set {
                caretOffset = newValue
                selectionStart = newValue
            }
        }
        fileprivate var caretOffset = 0
        /// Where the selection in the pending text starts: it is
        /// `selectionStart..<caret`, empty when nothing is selected.
        fileprivate(set) var selectionStart = 0
        var pendingSelection: Range<Int> { selectionStart..<caretOffset }
        mutating func selectPending(_ range: Range<Int>) {
            caretOffset = range.upperBound
            selectionStart = range.lowerBound
        }
        var insertionIndex = 0
        var marked: [UInt8] = []
        var scanner = ListScanner()
        /// Bytes of `pending` the scanner has seen.
        var scanned = 0
        var list: ListRecognizer
        /// The scanner and list state at `pending[0]`, to rescan from.
        var baseInGroup = false
        var baseSeparators = ListScanner.Separators()
        var baseList: ListRecognizer
        /// The chip being edited: the first chip its text gives keeps its
        /// identity and group.
        var editing: ChipID?
        var editingGroup: String?

        init(policy: ValidationPolicy = .standard) {
            // No look-alike cache here: the field checks with its own.
            list = ListRecognizer(policy: policy, checksLookalikes: false)
            baseList = list
        }

        /// The bytes this state holds beyond its own size.
        var footprint: Int {
            pending.capacity + marked.capacity + list.footprint + baseList.footprint
        }

        func sameVisibleState(as other: TextState) -> Bool {
            pending == other.pending && caret == other.caret && selectionStart == other.selectionStart
                && insertionIndex == other.insertionIndex
                && marked == other.marked && pendingBase == other.pendingBase && scanner == other.scanner
                && editing == other.editing
        }
    }

    /// Creates an empty field. `idPrefix` keeps identities unique across
    /// the fields of a composer.
    ///
    /// - Complexity: O(*d* log *d*), where *d* is the number of the policy's
    ///   common domains when they are not the default ones (whose look-alike
    ///   tables are shared); O(1) otherwise.
    public init(name: String, policy: ValidationPolicy = .standard, limits: FieldLimits = FieldLimits(),
                idPrefix: UInt64 = 0) {
        self.name = name
        self.policy = policy
        self.limits = limits
        self.names = Recognizer(policy: policy)
        self.lookalikes = Lookalikes(
            commonDomains: policy.checksLookalikes ? policy.commonDomains : [], checks: policy.checksLookalikes,
            cacheSlots: 1024)
        self.idPrefix = ChipID.prefix(field: idPrefix)
        self.text = TextState(policy: policy)
        // The composer applies the duplicate policy across fields; the
        // list recognizer need not remember addresses.
        self.text.list.maxTrackedAddresses = 0
        self.text.baseList = self.text.list
    }

    // MARK: - Reading

    /// The number of chips.
    public var count: Int { order.count }

    /// The chips in order.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    public var chips: [Chip] { order.map { storage[$0]!.value } }

    /// The chips' identities in order: what a host that keeps its own
    /// per-chip drawing (keyed by identity, dropped on the changes each
    /// operation reports) reads on every redraw, without copying chips.
    ///
    /// - Complexity: O(1); the array is shared until the field changes.
    public var chipIDs: [ChipID] { order }

    /// The chip at `index`.
    ///
    /// - Complexity: O(1).
    public subscript(index: Int) -> Chip { storage[order[index]]!.value }

    /// The chip with this identity, if the field holds it.
    public func chip(_ id: ChipID) -> Chip? { storage[id]?.value }

    /// The index of the chip with this identity.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    public func index(of id: ChipID) -> Int? { order.firstIndex(of: id) }

    /// Whether the chip is selected.
    public func isSelected(_ id: ChipID) -> Bool { selection.contains(id) }

    /// The text being typed, as bytes.
    public var pending: [UInt8] { text.pending }
    /// The text being typed, invalid UTF-8 shown as U+FFFD.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the pending text.
    public var pendingText: String { String(decoding: text.pending, as: UTF8.self) }
    /// The marked (uncommitted) text of an input method.
    ///
    /// - Complexity: O(*k*), where *k* is the length of the marked text.
    public var markedText: String { String(decoding: text.marked, as: UTF8.self) }
    /// Chips before the caret.
    public var insertionIndex: Int { text.insertionIndex }
    /// Byte offset of the caret in the pending text.
    public var caret: Int { text.caret }

    /// The field as text: chips' source text (group members inside their
    /// group's `name: …;`), joined by `, `, with the pending text at the caret.
    ///
    /// - Complexity: O(*n*) in the text's length.
    public var renderedText: [UInt8] {
        var out: [UInt8] = []
        var openGroup: String?
        var needsSeparator = false
        func closeGroup() {
            if openGroup != nil {
                out.append(UInt8(ascii: ";"))
                needsSeparator = true
            }
            openGroup = nil
        }
        func separate() {
            if needsSeparator { out += Array(", ".utf8) }
            needsSeparator = false
        }
        for k in 0...order.count {
            if k == text.insertionIndex && !text.pending.isEmpty {
                closeGroup()
                separate()
                out += text.pending
                needsSeparator = true
            }
            guard k < order.count else { break }
            let c = storage[order[k]]!.value.content
            if c.kind == .emptyGroup {
                closeGroup()
                separate()
                out += c.raw
                needsSeparator = true
                continue
            }
            if c.group != openGroup {
                closeGroup()
                separate()
                if let g = c.group {
                    out += Array("\(g): ".utf8)
                    openGroup = g
                }
            } else {
                separate()
            }
            out += c.raw
            needsSeparator = true
        }
        closeGroup()
        return out
    }

    // MARK: - Typing

    /// Takes a provisional chip back into text: the chip goes and the text
    /// state from before it was made returns, as one change.
    private mutating func reopen(_ p: Provisional, _ changes: inout [FieldChange]) {
        let before = text
        if let made = p.lineBreakChips {
            // The chips a line break made; the caller checked they stand
            // before the insertion point.
            for _ in 0..<made { removeChipKeepingText(at: text.insertionIndex - 1, &changes) }
        } else if text.insertionIndex > 0 && order[text.insertionIndex - 1] == p.id {
            removeChipKeepingText(at: text.insertionIndex - 1, &changes)
        }
        let index = text.insertionIndex
        text = p.text
        text.insertionIndex = index
        finishTextChange(from: before, &changes)
    }

    /// Inserts text at the caret, as typed or pasted. Complete chips become
    /// chips at once; the rest stays pending.
    ///
    /// - Complexity: O(*m* + *p*), where *m* is the number of bytes inserted
    ///   and *p* the length of the pending text (copied, as the state before
    ///   the edit is kept); at its end only the new bytes are scanned. The
    ///   chips are never scanned, but each chip made before other chips
    ///   moves their identities in the array (8 bytes a chip).
    @discardableResult
    public mutating func insert(_ bytes: [UInt8]) -> [FieldChange] {
        guard !bytes.isEmpty else { return [] }
        // Typed over a selection in the pending text: a replacement.
        if !text.pendingSelection.isEmpty { return replacePendingBytes(text.pendingSelection, with: bytes) }
        var changes: [FieldChange] = []
        var bytes = bytes
        if let p = provisional, let made = p.lineBreakChips {
            provisional = nil
            if text.pending.isEmpty && text.marked.isEmpty, let b = bytes.first,
               p.text.scanner.pendingBreakFolds(before: b), text.insertionIndex >= made {
                reopen(p, &changes)
            }
        } else if let p = provisional, let held = p.held {
            // Words before a held comma, shown as a chip: the copy of the
            // scanner that still holds them decides.
            if text.caret != text.pending.count || !text.marked.isEmpty {
                provisional = nil
            } else {
                var shadow = held.shadow
                var joined: Bool?
                shadow.scan(bytes) { segment in
                    if segment.kind == .chip && segment.byteRange.lowerBound == held.range.lowerBound {
                        joined = segment.byteRange.upperBound != held.range.upperBound
                    }
                }
                switch joined {
                case nil:
                    provisional?.held?.shadow = shadow
                    provisional?.held?.typed += bytes
                case false?:
                    // Alone after all: the chip stays, and the list now
                    // knows what the copy learned about its separators.
                    provisional = nil
                    text.scanner.separators = shadow.separators
                    // The words typed after the comma can no longer be a
                    // held `Last` of their own (`Lee, Ann, Bob <b@x>`).
                    text.scanner.neverHoldInOpenChip()
                case true?:
                    // `Last, First <…>`: reopen the chip, as one change.
                    provisional = nil
                    reopen(p, &changes)
                    bytes = held.typed + bytes
                }
            }
        } else if let p = provisional {
            let atEndOfSpaces = text.caret == text.pending.count && text.marked.isEmpty
                && text.pending.allSatisfy { $0 == ASCII.space || $0 == ASCII.tab }
            let significant = bytes.first { $0 != ASCII.space && $0 != ASCII.tab }
            if !atEndOfSpaces {
                provisional = nil
            } else if significant == nil {
                provisional?.spaces += bytes
            } else if let b = significant {
                provisional = nil
                if b == UInt8(ascii: "(") || b == UInt8(ascii: "<") || b == UInt8(ascii: ".") || b == UInt8(ascii: "@") {
                    // The address goes on: reopen its chip, as one change.
                    let spaces = p.spaces + text.pending
                    reopen(p, &changes)
                    bytes = spaces + bytes
                }
            }
        }
        let before = text
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        let atEnd = text.caret == text.pending.count && text.scanned == text.pending.count
        // Refuse what would overflow a limit, before changing anything. A
        // chip takes at least a byte and the pending text can only shrink,
        // so a keystroke far from the limits needs no dry run.
        let total = text.pending.count + bytes.count
        if total > limits.maxPendingBytes || order.count + total > limits.maxChips {
            var trial = atEnd ? text.scanner : ListScanner(startOffset: text.pendingBase, inGroup: text.baseInGroup, separators: text.baseSeparators)
            var produced = 0
            let count = { (segment: Segment) in if segment.kind != .groupOpen { produced += 1 } }
            if atEnd {
                trial.scan(bytes, count)
            } else {
                trial.scan(text.pending[..<text.caret], count)
                trial.scan(bytes, count)
                trial.scan(text.pending[text.caret...], count)
            }
            if trial.offset - trial.retainOffset > limits.maxPendingBytes {
                changes.append(.refused(Refusal(.pendingTooLong)))
                return changes
            }
            if order.count + produced > limits.maxChips {
                changes.append(.refused(Refusal(.tooManyChips)))
                return changes
            }
        }
        text.pending.insert(contentsOf: bytes, at: text.caret)
        text.caret += bytes.count
        if !atEnd { resetScanner() }
        feed(&changes)
        // A line break that ends what was inserted is a separator: the
        // chip before it is made now (`a@x.org\nb@x.org\r\n` makes two),
        // and an open group closes. A space or tab typed next would fold
        // it (RFC 5322 §3.2.2): then the chip is reopened in that key.
        if text.scanner.endsWithPendingBreak && text.caret == text.pending.count && text.marked.isEmpty
            && provisional == nil {
            let saved = text
            let count = order.count
            var segments: [Segment] = []
            text.pending.withUnsafeBufferPointer { p in
                text.scanner.endAtPendingBreak(held: p, base: text.pendingBase) { segments.append($0) }
            }
            emit(segments, &changes)
            dropCompletedText(force: true)
            // The identity is the space rule's; these chips are counted.
            provisional = Provisional(id: ChipID(rawValue: 0), text: saved, lineBreakChips: order.count - count)
        }
        // Words before a held comma make their chip at once too; the
        // copy of the scanner kept with it says later whether to reopen it.
        if let range = text.scanner.heldChipWithNothingAfter, text.caret == text.pending.count,
           text.marked.isEmpty, provisional == nil {
            let saved = text
            let shadow = text.scanner
            let count = order.count
            var segments: [Segment] = []
            text.scanner.splitHeldChip { segments.append($0) }
            emit(segments, &changes)
            dropCompletedText(force: true)
            if order.count == count + 1 && text.insertionIndex > 0 {
                provisional = Provisional(
                    id: order[text.insertionIndex - 1], text: saved, held: HeldComma(shadow: shadow, range: range))
            }
        }
        // A space after a complete bare address makes its chip at once; a
        // key that continues the address will reopen it.
        if text.scanner.endsAfterCompleteBareAddress && text.caret == text.pending.count && text.marked.isEmpty
            && provisional == nil {
            let saved = text
            let count = order.count
            var segments: [Segment] = []
            text.scanner.splitAfterCompleteBareAddress { segments.append($0) }
            emit(segments, &changes)
            dropCompletedText(force: true)
            if order.count == count + 1 && text.insertionIndex > 0 {
                provisional = Provisional(id: order[text.insertionIndex - 1], text: saved)
            }
        }
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Inserts a string at the caret.
    ///
    /// - Complexity: as ``insert(_:)-([UInt8])``.
    @discardableResult
    public mutating func insert(_ string: String) -> [FieldChange] { insert(Array(string.utf8)) }

    /// Shows an input method's marked text. It is never scanned, so it
    /// never makes chips.
    ///
    /// - Complexity: O(*k*) in the marked text.
    @discardableResult
    public mutating func compositionUpdate(_ marked: String) -> [FieldChange] {
        let bytes = Array(marked.utf8)
        guard bytes != text.marked || !text.pendingSelection.isEmpty else { return [] }
        let before = text
        if !text.pendingSelection.isEmpty {
            // The composition replaces the selection; nothing is scanned
            // until it ends.
            let r = text.pendingSelection
            text.pending.removeSubrange(r)
            text.caret = r.lowerBound
            resetScanner()
        }
        text.marked = bytes
        var changes: [FieldChange] = []
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Ends a composition: the final text is typed at the caret.
    ///
    /// - Complexity: O(*m* + *p*), as ``insert(_:)-(String)``.
    @discardableResult
    public mutating func compositionEnd(_ final: String) -> [FieldChange] {
        var changes: [FieldChange] = []
        if !text.marked.isEmpty {
            let before = text
            text.marked = []
            finishTextChange(from: before, &changes)
        }
        changes += insert(Array(final.utf8))
        return changes
    }

    /// Turns all pending text into chips (blur, Return, Tab). Marked text
    /// is committed first. Does nothing when there is no text.
    ///
    /// - Complexity: O(*p*) in the pending text.
    @discardableResult
    public mutating func commit() -> [FieldChange] {
        var changes: [FieldChange] = []
        if let p = provisional, let held = p.held, text.marked.isEmpty {
            // The end decides for words before a held comma too.
            var shadow = held.shadow
            var joined = false
            shadow.finish { segment in
                if segment.kind == .chip && segment.byteRange.lowerBound == held.range.lowerBound {
                    joined = segment.byteRange.upperBound != held.range.upperBound
                }
            }
            if joined {
                reopen(p, &changes)
                text.pending += held.typed
                text.caret = text.pending.count
            }
        }
        provisional = nil
        if !text.marked.isEmpty {
            let marked = text.marked
            let before = text
            text.marked = []
            finishTextChange(from: before, &changes)
            changes += insert(marked)
        }
        // A group still open (`Team: a@x.org, ` pasted) closes here too, so
        // that nothing typed or inserted later joins a group out of sight.
        guard !text.pending.isEmpty || text.scanner.hasOpenChip || text.scanner.isInGroup else { return changes }
        let before = text
        if order.count + 1 > limits.maxChips && text.scanner.hasOpenChip {
            changes.append(.refused(Refusal(.tooManyChips)))
            return changes
        }
        if order.count + text.pending.count > limits.maxChips && wouldOverflowChips(ending: true) {
            changes.append(.refused(Refusal(.tooManyChips)))
            return changes
        }
        feed(&changes)
        var segments: [Segment] = []
        text.pending.withUnsafeBufferPointer { p in
            text.scanner.finish(p, base: text.pendingBase) { segments.append($0) }
        }
        emit(segments, &changes)
        text.pendingBase = text.scanner.offset
        text.pending = []
        text.caret = 0
        text.scanned = 0
        text.list.reset()
        text.baseInGroup = false
        text.baseSeparators = ListScanner.Separators()
        text.baseList = text.list
        text.editing = nil
        text.editingGroup = nil
        finishTextChange(from: before, &changes)
        return changes
    }

    /// The end of a paste ends the list it brought: a quoted string,
    /// comment, domain literal or `<…>` it left open, with a `,` or `;`
    /// after its opener, is recovered as at a commit
    /// (``ListScanner/recoverUnclosed(_:base:_:)``): its chip is made in
    /// error, and the chips after it too; the text after the last separator
    /// stays pending. Only when the caret ends the pending text.
    ///
    /// - Complexity: O(*p*) in the pending text.
    mutating func endPastedList() -> [FieldChange] {
        guard text.scanner.unclosedCut != nil, text.caret == text.pending.count,
              text.scanned == text.pending.count, text.marked.isEmpty else { return [] }
        var changes: [FieldChange] = []
        if wouldOverflowChips(ending: false) {
            changes.append(.refused(Refusal(.tooManyChips)))
            return changes
        }
        provisional = nil
        let before = text
        var segments: [Segment] = []
        text.pending.withUnsafeBufferPointer { p in
            _ = text.scanner.recoverUnclosed(p, base: text.pendingBase) { segments.append($0) }
        }
        emit(segments, &changes)
        dropCompletedText(force: !segments.isEmpty)
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Whether the chips the pending text would make now (all of them when
    /// `ending`, else those a recovery makes) overflow `maxChips`.
    private func wouldOverflowChips(ending: Bool) -> Bool {
        var trial = text.scanner
        var produced = 0
        let count = { (segment: Segment) in if segment.kind != .groupOpen { produced += 1 } }
        text.pending.withUnsafeBufferPointer { p in
            trial.scan(UnsafeBufferPointer(rebasing: p[text.scanned...]), count)
            if ending {
                trial.finish(p, base: text.pendingBase, count)
            } else {
                trial.recoverUnclosed(p, base: text.pendingBase, count)
            }
        }
        return order.count + produced > limits.maxChips
    }

    // MARK: - The pending text in the host's units

    /// What a host's text view shows after the chips before the caret: the
    /// pending text with the input method's marked text at the caret.
    /// Every position the methods below take or give is an offset in it,
    /// in the unit the host counts (UTF-16 for UIKit, AppKit, Android and
    /// the web); with no marked text it is the pending text.
    ///
    /// - Complexity: O(*p*) in the pending and marked text.
    public var editingBytes: [UInt8] {
        guard !text.marked.isEmpty else { return text.pending }
        return Array(text.pending[..<text.caret]) + text.marked + text.pending[text.caret...]
    }

    /// ``editingBytes`` as a string (ill-formed UTF-8 shown as U+FFFD).
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    public var editingText: String { String(decoding: editingBytes, as: UTF8.self) }

    /// The selection in the editing text, `start..<caret`: empty at the
    /// caret when nothing is selected, and at the marked text's end while
    /// there is marked text (a composition replaces what was selected).
    ///
    /// - Complexity: O(1) in bytes; O(*p*) in another unit.
    public func pendingSelection(in unit: TextUnit = .utf8) -> Range<Int> {
        let r = text.marked.isEmpty
            ? text.pendingSelection : (text.caret + text.marked.count)..<(text.caret + text.marked.count)
        return units(of: r, unit)
    }

    /// The caret in the editing text: the selection's end.
    ///
    /// - Complexity: O(1) in bytes; O(*p*) in another unit.
    public func caret(in unit: TextUnit) -> Int { pendingSelection(in: unit).upperBound }

    /// Where the marked text stands in the editing text, or nil when there
    /// is none.
    ///
    /// - Complexity: O(1) in bytes; O(*p*) in another unit.
    public func markedRange(in unit: TextUnit = .utf8) -> Range<Int>? {
        guard !text.marked.isEmpty else { return nil }
        return units(of: text.caret..<(text.caret + text.marked.count), unit)
    }

    /// The selection as indices of ``editingText``.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    public var pendingSelectionIndices: Range<String.Index> { indices(of: pendingSelection(in: .utf16)) }

    /// The marked text as indices of ``editingText``, or nil.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    public var markedIndices: Range<String.Index>? { markedRange(in: .utf16).map(indices(of:)) }

    /// Selects `range` of the editing text (empty: puts the caret there),
    /// as a tap, a drag or a host's `setSelection` does. It deselects
    /// chips and ends a composition: the marked text stays, as typed text.
    /// A range off the text's boundaries is refused (`invalid-text-range`).
    ///
    /// - Complexity: O(*p*) in the pending text.
    @discardableResult
    public mutating func selectPendingText(_ range: Range<Int>, in unit: TextUnit = .utf8) -> [FieldChange] {
        guard let r = editingByteRange(range, unit) else { return [.refused(Refusal(.invalidTextRange))] }
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        let before = text
        foldMarkedText()
        text.selectPending(r)
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Selects a range of ``editingText``, given as its indices.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func selectPendingText(_ range: Range<String.Index>) -> [FieldChange] {
        guard let r = utf16Range(of: range) else { return [.refused(Refusal(.invalidTextRange))] }
        return selectPendingText(r, in: .utf16)
    }

    /// Puts the caret at `offset` of the editing text.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func setCaret(_ offset: Int, in unit: TextUnit = .utf8) -> [FieldChange] {
        selectPendingText(offset..<offset, in: unit)
    }

    /// Marks `range` of the editing text as an input method's composition
    /// (Android's `setComposingRegion`): its text becomes the marked text,
    /// which is not scanned, so it makes no chip, and the caret stands
    /// before it. A range already marked is unmarked first, as typed text.
    /// `nil` ends the composition: the marked text is typed, as
    /// ``compositionEnd(_:)`` does.
    ///
    /// - Complexity: O(*p*), where *p* is the length of the editing text.
    @discardableResult
    public mutating func setMarkedRange(_ range: Range<Int>?, in unit: TextUnit = .utf8) -> [FieldChange] {
        guard let range else {
            let marked = text.marked
            return ChipField.oneTextChangeEach(compositionEnd("") + insert(marked))
        }
        guard let r = editingByteRange(range, unit) else { return [.refused(Refusal(.invalidTextRange))] }
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        let before = text
        foldMarkedText()
        text.marked = Array(text.pending[r])
        text.pending.removeSubrange(r)
        text.caret = r.lowerBound
        resetScanner()
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Replaces `range` of the editing text with `replacement`, as
    /// autocorrect, dictation, select-and-overtype or an input method's
    /// replacement do; the caret ends after it. The result follows the
    /// rules of typing: chips the text now completes are made, and a
    /// replacement that only types at the caret is typing. Ends a
    /// composition (the marked text is part of the text replaced in).
    /// Refused, changing nothing, when a limit would overflow or the range
    /// is off the text's boundaries.
    ///
    /// - Complexity: O(*m* + *p*), where *m* is the number of bytes replaced
    ///   in and *p* the length of the pending text; the chips are never
    ///   scanned, but each chip made before other chips moves their
    ///   identities, as ``insert(_:)-([UInt8])`` does.
    @discardableResult
    public mutating func replacePending(_ range: Range<Int>, in unit: TextUnit = .utf8, with replacement: String)
        -> [FieldChange] {
        guard let r = editingByteRange(range, unit) else { return [.refused(Refusal(.invalidTextRange))] }
        return replacePendingBytes(r, with: Array(replacement.utf8))
    }

    /// Replaces a range of ``editingText``, given as its indices.
    ///
    /// - Complexity: as ``replacePending(_:in:with:)``.
    @discardableResult
    public mutating func replacePending(_ range: Range<String.Index>, with replacement: String) -> [FieldChange] {
        guard let r = utf16Range(of: range) else { return [.refused(Refusal(.invalidTextRange))] }
        return replacePending(r, in: .utf16, with: replacement)
    }

    /// Replaces a byte range of the editing text with bytes (ill-formed
    /// UTF-8 ends in an error chip, never dropped).
    ///
    /// - Complexity: as ``replacePending(_:in:with:)``.
    @discardableResult
    public mutating func replacePending(_ range: Range<Int>, with bytes: [UInt8]) -> [FieldChange] {
        guard let r = editingByteRange(range, .utf8) else { return [.refused(Refusal(.invalidTextRange))] }
        return replacePendingBytes(r, with: bytes)
    }

    private mutating func replacePendingBytes(_ r: Range<Int>, with bytes: [UInt8]) -> [FieldChange] {
        if text.marked.isEmpty && text.pendingSelection.isEmpty && r == text.caret..<text.caret {
            return insert(bytes)
        }
        let editing = editingBytes
        var proposed = editing
        proposed.replaceSubrange(r, with: bytes)
        if let refusal = limitRefusal(forPending: proposed) { return [.refused(refusal)] }
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        let before = text
        var kept = editing
        kept.removeSubrange(r)
        text.pending = kept
        text.marked = []
        text.caret = r.lowerBound
        resetScanner()
        if bytes.isEmpty { feed(&changes) }
        finishTextChange(from: before, &changes)
        if !bytes.isEmpty { changes += insert(bytes) }
        return ChipField.oneTextChangeEach(changes)
    }

    /// Why pending text `proposed` (from the pending text's start) would
    /// overflow a limit, or nil.
    ///
    /// - Complexity: O(1) far from the limits, else O(*p*).
    private func limitRefusal(forPending proposed: [UInt8]) -> Refusal? {
        let total = proposed.count
        guard total > limits.maxPendingBytes || order.count + total > limits.maxChips else { return nil }
        var trial = ListScanner(startOffset: text.pendingBase, inGroup: text.baseInGroup, separators: text.baseSeparators)
        var produced = 0
        trial.scan(proposed) { segment in if segment.kind != .groupOpen { produced += 1 } }
        if trial.offset - trial.retainOffset > limits.maxPendingBytes { return Refusal(.pendingTooLong) }
        if order.count + produced > limits.maxChips { return Refusal(.tooManyChips) }
        return nil
    }

    /// Keeps the last of each `pendingChanged` and `caretMoved` of an
    /// operation made of several steps: a UI reads the text once.
    static func oneTextChangeEach(_ changes: [FieldChange]) -> [FieldChange] {
        let lastPending = changes.lastIndex(of: .pendingChanged)
        let lastCaret = changes.lastIndex(of: .caretMoved)
        return changes.indices.compactMap { k in
            switch changes[k] {
            case .pendingChanged: k == lastPending ? changes[k] : nil
            case .caretMoved: k == lastCaret ? changes[k] : nil
            default: changes[k]
            }
        }
    }

    /// The marked text becomes pending text at the caret, not yet scanned
    /// (the next edit or commit scans it), the caret after it.
    private mutating func foldMarkedText() {
        guard !text.marked.isEmpty else { return }
        text.pending.insert(contentsOf: text.marked, at: text.caret)
        text.caret += text.marked.count
        text.marked = []
        resetScanner()
    }

    /// A range of the editing text in bytes, or nil when an end is off the
    /// text's boundaries.
    private func editingByteRange(_ range: Range<Int>, _ unit: TextUnit) -> Range<Int>? {
        let bytes = editingBytes
        guard range.lowerBound >= 0, range.upperBound <= bytes.count * 2 else { return nil }
        return TextOffsets.byteRange(of: range, in: unit, in: bytes)
    }

    /// A byte range of the editing text in `unit` (an end inside a scalar,
    /// which raw bytes typed one by one can leave, rounds down).
    private func units(of r: Range<Int>, _ unit: TextUnit) -> Range<Int> {
        if unit == .utf8 { return r }
        var cursor = TextOffsets.Cursor(editingBytes)
        let lower = cursor.offset(ofByteRoundingDown: r.lowerBound, unit: unit)
        return lower..<max(lower, cursor.offset(ofByteRoundingDown: r.upperBound, unit: unit))
    }

    /// UTF-16 offsets as indices of ``editingText``.
    private func indices(of r: Range<Int>) -> Range<String.Index> {
        let s = editingText
        return String.Index(utf16Offset: r.lowerBound, in: s)..<String.Index(utf16Offset: r.upperBound, in: s)
    }

    /// Indices of ``editingText`` as UTF-16 offsets, or nil when one is not
    /// on a scalar boundary.
    private func utf16Range(of range: Range<String.Index>) -> Range<Int>? {
        let s = editingText
        guard range.lowerBound >= s.startIndex, range.upperBound <= s.endIndex,
              let lower = range.lowerBound.samePosition(in: s.unicodeScalars),
              let upper = range.upperBound.samePosition(in: s.unicodeScalars) else { return nil }
        return lower.utf16Offset(in: s)..<upper.utf16Offset(in: s)
    }

    // MARK: - Deleting

    /// Backspace: deletes the selection; else the grapheme cluster before
    /// the caret; else selects the chip before the caret (a second
    /// backspace then deletes it).
    ///
    /// - Complexity: O(*p*), where *p* is the length of the pending text;
    ///   with chips selected, as ``removeSelection()``.
    @discardableResult
    public mutating func backspace() -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { return removeSelection() }
        if !text.pendingSelection.isEmpty { return replacePendingBytes(text.pendingSelection, with: []) }
        if text.caret > 0 {
            let before = text
            let n = ChipField.lastClusterLength(text.pending[..<text.caret])
            text.pending.removeSubrange((text.caret - n)..<text.caret)
            text.caret -= n
            resetScanner()
            feed(&changes)
            finishTextChange(from: before, &changes)
        } else if text.insertionIndex > 0 {
            let id = order[text.insertionIndex - 1]
            setSelection([id], anchor: id, &changes)
        }
        return changes
    }

    /// Forward delete: the mirror of ``backspace()``.
    ///
    /// - Complexity: as ``backspace()``.
    @discardableResult
    public mutating func deleteForward() -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { return removeSelection() }
        if !text.pendingSelection.isEmpty { return replacePendingBytes(text.pendingSelection, with: []) }
        if text.caret < text.pending.count {
            let before = text
            let n = ChipField.firstClusterLength(text.pending[text.caret...])
            text.pending.removeSubrange(text.caret..<(text.caret + n))
            resetScanner()
            feed(&changes)
            finishTextChange(from: before, &changes)
        } else if text.insertionIndex < order.count {
            let id = order[text.insertionIndex]
            setSelection([id], anchor: id, &changes)
        }
        return changes
    }

    /// Deletes the chip at `index` (not a committed one).
    ///
    /// - Complexity: O(*n*) in the number of chips, for the array remove (8 bytes a chip).
    @discardableResult
    public mutating func remove(at index: Int) -> [FieldChange] {
        provisional = nil
        guard order.indices.contains(index) else { return [.refused(Refusal(.noSuchChip))] }
        guard storage[order[index]]!.value.isEditable else { return [.refused(Refusal(.chipCommitted))] }
        var changes: [FieldChange] = []
        _ = removeChip(at: index, &changes)
        return changes
    }

    /// Deletes the selected chips (committed ones stay, with a refusal).
    ///
    /// - Complexity: O((*s* + 1) · *n*), where *n* is the number of chips and
    ///   *s* the number removed: a scan of the chips, then an array move for
    ///   each chip removed (8 bytes a chip).
    @discardableResult
    public mutating func removeSelection() -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        let before = text
        let selected = selection
        setSelection([], anchor: nil, &changes)
        var refusedAny = false
        // From the end, so each index is right when applied in order.
        for index in order.indices.reversed() where selected.contains(order[index]) {
            if !storage[order[index]]!.value.isEditable {
                refusedAny = true
                continue
            }
            // One text change for the whole removal, reported at the end.
            removePrimitive(at: index, &changes)
            if index < text.insertionIndex { text.insertionIndex -= 1 }
        }
        if refusedAny { changes.append(.refused(Refusal(.chipCommitted))) }
        finishTextChange(from: before, &changes)
        return changes
    }

    // MARK: - Caret and selection

    /// Moves the caret one grapheme cluster left, or past the chip before it.
    /// Clusters are those of the whole pending text: a caret a host put
    /// inside one moves to its start.
    /// Leaving pending text commits it first, as a blur would.
    ///
    /// - Complexity: O(*p*) in the pending text it commits.
    @discardableResult
    public mutating func moveLeft() -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        if !text.pendingSelection.isEmpty {
            // A selection collapses to its start.
            let before = text
            text.caret = text.selectionStart
            finishTextChange(from: before, &changes)
            return changes
        }
        if text.caret > 0 {
            let before = text
            text.caret = ChipField.clusterBoundary(before: text.caret, in: text.pending)
            finishTextChange(from: before, &changes)
            return changes
        }
        changes += commit()
        if text.insertionIndex > 0 {
            let before = text
            text.insertionIndex -= 1
            resetScannerForNewPlace()
            finishTextChange(from: before, &changes)
        }
        return changes
    }

    /// Moves the caret one grapheme cluster right, or past the chip after it.
    /// From inside a cluster it moves to the cluster's end.
    ///
    /// - Complexity: O(*p*) in the pending text it commits.
    @discardableResult
    public mutating func moveRight() -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        if !text.pendingSelection.isEmpty {
            // A selection collapses to its end.
            let before = text
            text.caret = text.caret
            finishTextChange(from: before, &changes)
            return changes
        }
        if text.caret < text.pending.count {
            let before = text
            text.caret = ChipField.clusterBoundary(after: text.caret, in: text.pending)
            finishTextChange(from: before, &changes)
            return changes
        }
        let hadText = !text.pending.isEmpty
        changes += commit()
        if text.insertionIndex < order.count && !hadText {
            let before = text
            text.insertionIndex += 1
            resetScannerForNewPlace()
            finishTextChange(from: before, &changes)
        }
        return changes
    }

    /// Puts the caret before the chip at `index` (or at the end).
    ///
    /// - Complexity: O(*p*) in the pending text it commits.
    @discardableResult
    public mutating func moveCaret(toChipIndex index: Int) -> [FieldChange] {
        provisional = nil
        var changes = commit()
        let target = max(0, min(index, order.count))
        if target != text.insertionIndex {
            let before = text
            text.insertionIndex = target
            resetScannerForNewPlace()
            finishTextChange(from: before, &changes)
        }
        return changes
    }

    /// Selects the chip at `index`: alone, or extending a range from the
    /// last chip selected alone (shift), or toggling it (command).
    ///
    /// - Complexity: O(1) alone; O(*s*) toggled, where *s* is the number of
    ///   selected chips (the selection is copied for undo); O(*n*) in a
    ///   range, where *n* is the number of chips.
    @discardableResult
    public mutating func select(_ index: Int, extend: Bool = false, toggle: Bool = false) -> [FieldChange] {
        guard order.indices.contains(index) else { return [.refused(Refusal(.noSuchChip))] }
        var changes: [FieldChange] = []
        let id = order[index]
        if extend, let a = anchor, let from = order.firstIndex(of: a) {
            let range = min(from, index)...max(from, index)
            setSelection(Set(order[range]), anchor: a, &changes)
        } else if toggle {
            var s = selection
            if s.contains(id) { s.remove(id) } else { s.insert(id) }
            setSelection(s, anchor: id, &changes)
        } else {
            setSelection([id], anchor: id, &changes)
        }
        return changes
    }

    /// Selects every chip.
    ///
    /// - Complexity: O(*n*), where *n* is the number of chips.
    @discardableResult
    public mutating func selectAll() -> [FieldChange] {
        var changes: [FieldChange] = []
        setSelection(Set(order), anchor: order.first, &changes)
        return changes
    }

    /// Selects nothing.
    @discardableResult
    public mutating func clearSelection() -> [FieldChange] {
        var changes: [FieldChange] = []
        setSelection([], anchor: nil, &changes)
        return changes
    }

    // MARK: - Editing and moving chips

    /// Turns the chip at `index` back into pending text at its place, its
    /// exact source text, caret at the end. Committing it again keeps its
    /// identity (and group) if it is still one chip.
    ///
    /// - Complexity: O(*n* + *c*) for *n* chips (the array remove) and the chip's *c* bytes.
    @discardableResult
    public mutating func edit(at index: Int) -> [FieldChange] {
        provisional = nil
        guard order.indices.contains(index) else { return [.refused(Refusal(.noSuchChip))] }
        guard storage[order[index]]!.value.isEditable else { return [.refused(Refusal(.chipCommitted))] }
        let id = order[index]
        var changes = commit()
        guard let at = order.firstIndex(of: id) else { return changes }
        let before = text
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        let chip = storage[id]!.value
        removePrimitive(at: at, &changes)
        text.insertionIndex = at
        text.pending = chip.content.raw
        text.caret = chip.content.raw.count
        text.editing = id
        text.editingGroup = chip.content.group
        text.list.reset()
        text.baseList = text.list
        text.baseInGroup = false
        text.baseSeparators = ListScanner.Separators()
        resetScanner()
        feed(&changes)
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Moves the chip at `index` to `destination` (its index afterwards).
    ///
    /// - Complexity: O(*n*) in the number of chips, for the array moves.
    @discardableResult
    public mutating func move(from index: Int, to destination: Int) -> [FieldChange] {
        provisional = nil
        guard order.indices.contains(index) else { return [.refused(Refusal(.noSuchChip))] }
        guard storage[order[index]]!.value.isEditable else { return [.refused(Refusal(.chipCommitted))] }
        let to = max(0, min(destination, order.count - 1))
        guard to != index else { return [] }
        var changes: [FieldChange] = []
        let before = text
        movePrimitive(from: index, to: to, &changes)
        // The caret keeps its side of every other chip; a chip landing
        // right at the caret stays on the side it came from.
        var ins = text.insertionIndex
        let wasBefore = index < ins
        if wasBefore { ins -= 1 }
        if to < ins || (to == ins && wasBefore) { ins += 1 }
        text.insertionIndex = ins
        finishTextChange(from: before, &changes)
        return changes
    }

    /// Moves the selected chips, in their order, so the first lands at
    /// `destination` in the field without them.
    ///
    /// - Complexity: O(*s* · *n*) for *s* selected chips in *n*.
    @discardableResult
    public mutating func moveSelection(to destination: Int) -> [FieldChange] {
        let ids = order.filter { selection.contains($0) && storage[$0]!.value.isEditable }
        guard !ids.isEmpty else { return [] }
        var changes: [FieldChange] = []
        let target = max(0, min(destination, order.count - ids.count))
        // Gather them at the end, in order, then move them into place: the
        // first lands at `target` in the field as it is without them.
        for id in ids {
            changes += move(from: order.firstIndex(of: id)!, to: order.count - 1)
        }
        let first = order.count - ids.count
        for k in ids.indices {
            changes += move(from: first + k, to: target + k)
        }
        return changes
    }

    // MARK: - Internals

    /// The number of bytes of the last grapheme cluster of `bytes`, as
    /// `String` counts the clusters of those bytes alone (one byte when
    /// they are not valid UTF-8). Backspace deletes it.
    ///
    /// - Complexity: O(*p*) in `bytes`: a run of regional indicators or of
    ///   extenders is counted from its start, so no window is exact.
    static func lastClusterLength(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let s = String(validating: bytes, as: UTF8.self), let last = s.last else { return bytes.isEmpty ? 0 : 1 }
        return last.utf8.count
    }

    /// The number of bytes of the first grapheme cluster of `bytes` (one
    /// byte when they are not valid UTF-8). Forward delete deletes it.
    ///
    /// - Complexity: O(*p*) in `bytes`.
    static func firstClusterLength(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let s = String(validating: bytes, as: UTF8.self), let first = s.first else { return bytes.isEmpty ? 0 : 1 }
        return first.utf8.count
    }

    /// The cluster boundary of the whole of `bytes` nearest before `offset`:
    /// where the left arrow goes, also from a caret a host put inside a
    /// cluster (to that cluster's start).
    ///
    /// - Complexity: O(*p*) in `bytes`.
    static func clusterBoundary(before offset: Int, in bytes: [UInt8]) -> Int {
        guard offset > 0 else { return 0 }
        guard let s = String(validating: bytes, as: UTF8.self) else { return offset - 1 }
        let i = s.utf8.index(s.startIndex, offsetBy: offset)
        // `index(after:)` rounds an index inside a cluster down to the
        // cluster's start before it steps: stepping back from there gives
        // the start of the cluster holding `i` (`i` itself on a boundary).
        if i < s.endIndex {
            let start = s.index(before: s.index(after: i))
            if start < i { return s.utf8.distance(from: s.startIndex, to: start) }
        }
        return s.utf8.distance(from: s.startIndex, to: s.index(before: i))
    }

    /// The cluster boundary of the whole of `bytes` nearest after `offset`:
    /// where the right arrow goes, also from inside a cluster (to its end).
    ///
    /// - Complexity: O(*p*) in `bytes`.
    static func clusterBoundary(after offset: Int, in bytes: [UInt8]) -> Int {
        guard offset < bytes.count else { return bytes.count }
        guard let s = String(validating: bytes, as: UTF8.self) else { return offset + 1 }
        let i = s.utf8.index(s.startIndex, offsetBy: offset)
        return s.utf8.distance(from: s.startIndex, to: s.index(after: i))
    }

    private mutating func makeID() -> ChipID {
        defer { nextSerial += 1 }
        return ChipID(rawValue: idPrefix | nextSerial)
    }

    /// Rescans the pending text from its start (after an edit inside it).
    private mutating func resetScanner() {
        text.scanner = ListScanner(startOffset: text.pendingBase, inGroup: text.baseInGroup, separators: text.baseSeparators)
        text.scanned = 0
        text.list = text.baseList
    }

    /// A fresh scanning context for an empty pending text at a new place.
    private mutating func resetScannerForNewPlace() {
        text.pendingBase = text.scanner.offset
        text.scanner = ListScanner(startOffset: text.pendingBase)
        text.scanned = 0
        text.list.reset()
        text.baseList = text.list
        text.baseInGroup = false
        text.baseSeparators = ListScanner.Separators()
    }

    /// Scans the pending bytes not yet seen; chips completed become chips
    /// at the caret, and their text leaves the pending text.
    private mutating func feed(_ changes: inout [FieldChange]) {
        var segments: [Segment] = []
        let from = text.scanned
        bytesScanned += text.pending.count - from
        text.pending.withUnsafeBufferPointer { p in
            text.scanner.scan(held: p, base: text.pendingBase) { segments.append($0) }
        }
        text.scanned = text.pending.count
        emit(segments, &changes)
        dropCompletedText(force: !segments.isEmpty)
    }

    /// Drops the text of completed chips and separators from the pending
    /// text, and keeps the state to rescan from at its new start.
    private mutating func dropCompletedText(force: Bool) {
        let retain = text.scanner.retainOffset
        let drop = min(max(retain - text.pendingBase, 0), text.pending.count)
        if drop > 0 {
            text.pending.removeFirst(drop)
            text.caret = max(0, text.caret - drop)
            text.scanned -= drop
            text.pendingBase += drop
        }
        if drop > 0 || force {
            // The state to rescan from is the one at the new pending start.
            let groupOpenerPending = text.scanner.openGroupStart == text.pendingBase
            text.baseInGroup = text.scanner.isInGroup && !groupOpenerPending
            text.baseSeparators = text.scanner.separators
            text.baseList = text.list
            if groupOpenerPending { text.baseList.reset() }
        }
    }

    /// Makes chips of scanned segments, inserted at the caret.
    private mutating func emit(_ segments: [Segment], _ changes: inout [FieldChange]) {
        guard !segments.isEmpty else { return }
        text.pending.withUnsafeBufferPointer { p in
            for segment in segments {
                guard var item = text.list.handle(segment, p, base: text.pendingBase) else { continue }
                if policy.checksLookalikes && item.kind == .mailbox && item.recognition.error == nil {
                    lookalikes.check(&item.recognition, p, &names)
                }
                var content = AddressList.materialize(item, p, &names, base: text.pendingBase)
                let start = item.byteRange.lowerBound - text.pendingBase
                content.byteRange = 0..<content.raw.count
                if let offset = content.errorOffset { content.errorOffset = offset - (start) }
                content.warnings.remove(.duplicate)  // the composer's policy decides
                var id: ChipID
                if let editing = text.editing {
                    id = editing
                    if content.group == nil { content.group = text.editingGroup }
                    text.editing = nil
                    text.editingGroup = nil
                } else {
                    id = makeID()
                }
                if storage[id] != nil { id = makeID() }
                insertPrimitive(Chip(id: id, content: content), at: text.insertionIndex, &changes)
                text.insertionIndex += 1
            }
        }
    }

    /// A chip in a box of its own, with its send class.
    private mutating func box(_ chip: Chip) -> Shared<Chip> {
        Shared(chip, tag: SendClass(of: chip, &addrSpecChecker).rawValue)
    }

    private mutating func insertPrimitive(_ chip: Chip, at index: Int, _ changes: inout [FieldChange]) {
        let box = box(chip)
        order.insert(chip.id, at: index)
        storage[chip.id] = box
        sendTally.count(box, 1)
        if recordsEdits { journal.append(.insert(box, at: index)) }
        changes.append(.inserted(chip.id, at: index))
    }

    private mutating func removePrimitive(at index: Int, _ changes: inout [FieldChange]) {
        let id = order.remove(at: index)
        let box = storage.removeValue(forKey: id)!
        sendTally.count(box, -1)
        // A chip toggled off stays the anchor; gone, it anchors nothing
        // (an extended selection from it selects alone, as it did).
        if anchor == id { anchor = nil }
        if recordsEdits { journal.append(.remove(box, at: index)) }
        changes.append(.removed(id, at: index))
    }

    private mutating func replacePrimitive(_ chip: Chip, at index: Int, _ changes: inout [FieldChange]) {
        let old = storage[order[index]]!
        guard old.value != chip else { return }
        let new = box(chip)
        storage[chip.id] = new
        sendTally.count(old, -1)
        sendTally.count(new, 1)
        if recordsEdits { journal.append(.replace(old: old, new: new, at: index)) }
        changes.append(.updated(chip.id, at: index))
    }

    private mutating func movePrimitive(from: Int, to: Int, _ changes: inout [FieldChange]) {
        let id = order.remove(at: from)
        order.insert(id, at: to)
        if recordsEdits { journal.append(.move(from: from, to: to)) }
        changes.append(.moved(id, from: from, to: to))
    }

    private mutating func setSelection(_ new: Set<ChipID>, anchor newAnchor: ChipID?, _ changes: inout [FieldChange]) {
        guard new != selection || newAnchor != anchor else { return }
        if recordsEdits {
            journal.append(.selection(old: selection, oldAnchor: anchor, new: new, newAnchor: newAnchor))
        }
        let changed = new != selection
        selection = new
        anchor = newAnchor
        if changed { changes.append(.selectionChanged) }
    }

    /// Records a change of the text state for undo and reports it.
    private mutating func finishTextChange(from before: TextState, _ changes: inout [FieldChange]) {
        guard !before.sameVisibleState(as: text) else { return }
        if recordsEdits { journal.append(.text(old: Shared(before), new: Shared(text))) }
        if before.pending != text.pending || before.marked != text.marked { changes.append(.pendingChanged) }
        if before.caret != text.caret || before.selectionStart != text.selectionStart
            || before.insertionIndex != text.insertionIndex {
            changes.append(.caretMoved)
        }
    }
}

/// An immutable value in a box of its own, shared by reference: what a
/// field and its undo history both hold (a chip, a saved text state) is
/// kept once, and an edit that holds it is a few words, not a copy.
final class Shared<Value: Sendable>: Sendable {
    let value: Value
    /// A byte of facts derived from the value once (a chip's
    /// ``SendClass``), kept with it for as long as the box lives.
    let tag: UInt8
    init(_ value: Value, tag: UInt8 = 0) {
        self.value = value
        self.tag = tag
    }
}

/// A primitive, invertible edit of a field, the unit of undo.
///
/// Chips and text states are held in shared boxes (the field's own, for
/// chips), so an edit is 24 bytes whatever it holds: the history of a
/// typed chip is its `insert`, one reference to the chip the field holds.
enum FieldEdit: Sendable {
    case insert(Shared<Chip>, at: Int)
    case remove(Shared<Chip>, at: Int)
    indirect case replace(old: Shared<Chip>, new: Shared<Chip>, at: Int)
    case move(from: Int, to: Int)
    case text(old: Shared<ChipField.TextState>, new: Shared<ChipField.TextState>)
    indirect case selection(old: Set<ChipID>, oldAnchor: ChipID?, new: Set<ChipID>, newAnchor: ChipID?)

    var inverse: FieldEdit {
        switch self {
        case .insert(let c, let at): .remove(c, at: at)
        case .remove(let c, let at): .insert(c, at: at)
        case .replace(let old, let new, let at): .replace(old: new, new: old, at: at)
        case .move(let from, let to): .move(from: to, to: from)
        case .text(let old, let new): .text(old: new, new: old)
        case .selection(let o, let oa, let n, let na): .selection(old: n, oldAnchor: na, new: o, newAnchor: oa)
        }
    }
}

extension ChipField {
    /// Applies primitive edits (for undo: the inverses, in reverse order)
    /// without journaling them, and returns the changes.
    mutating func apply(_ edits: [FieldEdit]) -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        for edit in edits {
            switch edit {
            case .insert(let box, let at):
                order.insert(box.value.id, at: at)
                storage[box.value.id] = box
                sendTally.count(box, 1)
                changes.append(.inserted(box.value.id, at: at))
            case .remove(let box, let at):
                order.remove(at: at)
                if let gone = storage.removeValue(forKey: box.value.id) { sendTally.count(gone, -1) }
                changes.append(.removed(box.value.id, at: at))
            case .replace(_, let new, let at):
                if let old = storage[new.value.id] { sendTally.count(old, -1) }
                storage[new.value.id] = new
                sendTally.count(new, 1)
                changes.append(.updated(new.value.id, at: at))
            case .move(let from, let to):
                let id = order.remove(at: from)
                order.insert(id, at: to)
                changes.append(.moved(id, from: from, to: to))
            case .text(let oldBox, let newBox):
                let old = oldBox.value, new = newBox.value
                text = new
                if old.pending != new.pending || old.marked != new.marked { changes.append(.pendingChanged) }
                if old.caret != new.caret || old.insertionIndex != new.insertionIndex { changes.append(.caretMoved) }
            case .selection(_, _, let new, let newAnchor):
                selection = new
                anchor = newAnchor
                changes.append(.selectionChanged)
            }
        }
        return changes
    }

    /// Takes the journal (primitive edits since the last call).
    mutating func takeJournal() -> [FieldEdit] {
        defer { journal = [] }
        return journal
    }
}

// MARK: - For the composer

// The whole of what ``Composer`` uses of a field besides its public API.
// Each operation keeps the invariants (caret, selection, journal) and
// reports its changes.
extension ChipField {
    /// Starts journaling edits for undo.
    mutating func startJournal() { recordsEdits = true }

    /// Whether edits were journaled since the journal was last taken.
    var hasJournal: Bool { !journal.isEmpty }

    /// Whether the text being typed, or an input method's marked text, is
    /// not empty.
    var hasUncommittedText: Bool { !text.pending.isEmpty || !text.marked.isEmpty }

    /// Whether a chip is being edited (its text is pending).
    var isEditingChip: Bool { text.editing != nil }

    /// The identities of the selected chips, in field order.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    var selectedIDs: [ChipID] { selection.isEmpty ? [] : order.filter { selection.contains($0) } }

    /// The bytes the field's saved text states would pin in an undo
    /// history: what one ``FieldEdit/text(old:new:)`` holds.
    var textFootprint: Int { text.footprint }

    /// Inserts a chip that keeps its identity (moved from another field) at
    /// `index`. The caret stays after the chips it was after; a chip
    /// landing at the caret goes before it when no text is pending.
    ///
    /// - Complexity: O(*n*) in the number of chips, for the array insert.
    mutating func insertChip(_ chip: Chip, at index: Int, _ changes: inout [FieldChange]) {
        provisional = nil
        let before = text
        insertPrimitive(chip, at: index, &changes)
        if index < text.insertionIndex || (index == text.insertionIndex && text.pending.isEmpty) {
            text.insertionIndex += 1
        }
        finishTextChange(from: before, &changes)
    }

    /// Removes the chip at `index` and returns it: out of the selection,
    /// the caret kept beside the same chips, the changes reported.
    ///
    /// - Complexity: O(*n*) in the number of chips, for the array remove.
    mutating func removeChip(at index: Int, _ changes: inout [FieldChange]) -> Chip {
        let id = order[index]
        if selection.contains(id) {
            var s = selection
            s.remove(id)
            setSelection(s, anchor: anchor == id ? nil : anchor, &changes)
        }
        let chip = storage[id]!.value
        removeChipKeepingText(at: index, &changes)
        return chip
    }

    /// Removes the chip at `index` (already out of the selection).
    private mutating func removeChipKeepingText(at index: Int, _ changes: inout [FieldChange]) {
        let before = text
        removePrimitive(at: index, &changes)
        if index < text.insertionIndex { text.insertionIndex -= 1 }
        finishTextChange(from: before, &changes)
    }

    /// Replaces the chip at `index` by `chip`, which has its identity.
    mutating func replaceChip(_ chip: Chip, at index: Int, _ changes: inout [FieldChange]) {
        precondition(order[index] == chip.id, "a replacement keeps the chip's identity")
        replacePrimitive(chip, at: index, &changes)
    }

    /// Replaces the pending text (and any marked text) with `bytes` and
    /// commits it: what choosing a suggestion does, as one operation.
    ///
    /// - Complexity: O(*p* + *m*) for the pending and the new text.
    mutating func replacePendingAndCommit(_ bytes: [UInt8]) -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        let before = text
        text.marked = []
        text.pending = bytes
        text.caret = bytes.count
        resetScanner()
        finishTextChange(from: before, &changes)
        changes += commit()
        return changes
    }

    /// Inserts one new chip per mailbox text at `index` (a list's members).
    ///
    /// - Complexity: O(*m* + *n*) for *m* bytes of text and *n* chips.
    mutating func insertChips(_ texts: [[UInt8]], at index: Int) -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        var at = index
        for text in texts {
            for content in AddressList.parse(text, policy: policy) {
                insertChip(Chip(id: makeID(), content: content), at: at, &changes)
                at += 1
            }
        }
        return changes
    }

    /// Sending: every chip becomes committed, the selection is cleared, and
    /// nothing of it can be undone (the journal is dropped).
    ///
    /// - Complexity: O(*n*) in the number of chips.
    mutating func commitAllChips() -> [FieldChange] {
        provisional = nil
        var changes: [FieldChange] = []
        for (i, id) in order.enumerated() where !storage[id]!.value.isCommitted {
            var chip = storage[id]!.value
            chip.isCommitted = true
            replacePrimitive(chip, at: i, &changes)
        }
        if !selection.isEmpty { setSelection([], anchor: nil, &changes) }
        journal = []
        return changes
    }

    /// The bytes an undo history holding `edits` keeps alive: the array of
    /// edits, the saved text states (boxed, with what they hold), and the
    /// chips this field no longer holds (boxed, with their text); a chip
    /// the field holds is shared with it and costs the edit nothing more.
    ///
    /// - Complexity: O(*e*) in the edits.
    func footprint(of edits: [FieldEdit]) -> Int {
        func pinned(_ box: Shared<Chip>) -> Int {
            storage[box.value.id] === box ? 0 : Self.boxHeader + MemoryLayout<Chip>.size + box.value.footprint
        }
        var total = edits.capacity * MemoryLayout<FieldEdit>.stride
        for edit in edits {
            switch edit {
            case .text(let old, let new):
                total += 2 * (Self.boxHeader + MemoryLayout<TextState>.size) + old.value.footprint + new.value.footprint
            case .insert(let box, _), .remove(let box, _):
                total += pinned(box)
            case .replace(let old, let new, _):
                total += Self.boxHeader + 3 * MemoryLayout<Int>.size + pinned(old) + pinned(new)
            case .selection(let old, _, let new, _):
                total += Self.boxHeader + 2 * MemoryLayout<Set<ChipID>>.size + 2 * MemoryLayout<ChipID?>.size
                    + (old.capacity + new.capacity) * MemoryLayout<ChipID>.stride
            case .move:
                break
            }
        }
        return total
    }

    /// A heap object's header (metadata and reference counts), before its
    /// stored properties.
    static let boxHeader = 16
}

extension Chip {
    /// The heap bytes a chip's text holds beyond its own size: the raw
    /// text, and strings too long to be stored inline (over 15 bytes).
    var footprint: Int {
        func heap(_ s: String?) -> Int {
            guard let n = s?.utf8.count, n > 15 else { return 0 }
            return ChipField.boxHeader + 16 + n
        }
        let c = content
        return ChipField.boxHeader + 16 + c.raw.capacity + heap(c.displayName) + heap(c.address) + heap(c.localPart)
            + heap(c.domain) + heap(c.asciiDomain) + heap(c.unicodeDomain) + heap(c.group) + heap(c.suggestedDomain)
    }
}

// MARK: - Saving

extension ChipField {
    /// The field as saved; ``init(snapshot:)`` reads a standalone field
    /// back, ``Composer/init(snapshot:)`` a composer's. A standalone field
    /// whose name cannot name a header (its name is free-form: `To:`) is
    /// saved under that name made one, each byte it may not hold (and each
    /// `%`) as `%XX` (`To%3A`), so the saved field is always read back.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            name: FieldID(naming: name), policy: policy, limits: limits, chips: chips, pending: text.pending, caret: text.caret,
            insertionIndex: text.insertionIndex, selection: selectedIDs, nextSerial: nextSerial)
    }

    /// A standalone field (not a composer's) restored from its
    /// ``snapshot``, with every check a composer's restore makes: each chip
    /// is its text typed again with the saved rules, and a snapshot the
    /// field could not have written (an identity that repeats, an index out
    /// of range, settings out of bounds) is refused with the reason. Its
    /// name is the saved name.
    ///
    /// - Complexity: O(*n* + *b*) in the chips and the bytes of their text
    ///   and the pending text.
    public init(snapshot saved: FieldSnapshot) throws(SnapshotError) {
        let policy = saved.policy ?? .standard
        let limits = saved.limits ?? FieldLimits()
        try Composer.checkRestored(policy, limits, field: saved.name.name)
        var used = Set<ChipID>()
        try self.init(restoring: saved, policy: policy, limits: limits, idPrefix: 0, fieldCount: 0, used: &used)
    }

    /// A field restored from a snapshot. Each chip is its source text typed
    /// again with the field's rules (inside `group: …;` for a group's
    /// member), so no fact saved with it (address, name, state, warnings)
    /// is trusted; what it keeps is its identity, whether it was sent, and
    /// its contact. The pending text is scanned again, as if typed at its
    /// place. `used` holds the identities other fields already restored;
    /// `fieldCount` is the composer's number of fields (an identity names
    /// the field that made it).
    ///
    /// Refused: more chips or pending bytes than the limits allow, an
    /// index, caret or identity out of range, an identity that repeats, a
    /// selection of chips the field does not hold, and a chip whose text
    /// typed again is not one chip with that text (and group).
    ///
    /// - Complexity: O(*n* + *b*) in the chips and the bytes of their text
    ///   and the pending text.
    init(
        restoring saved: FieldSnapshot, policy: ValidationPolicy, limits: FieldLimits, idPrefix: UInt64,
        fieldCount: Int, used: inout Set<ChipID>
    ) throws(SnapshotError) {
        let place = saved.name.name
        guard saved.chips.count <= limits.maxChips else { throw SnapshotError(.chipsOverLimit, ["field": place]) }
        guard saved.pending.count <= limits.maxPendingBytes else {
            throw SnapshotError(.pendingOverLimit, ["field": place])
        }
        guard (0...saved.chips.count).contains(saved.insertionIndex) else {
            throw SnapshotError(.insertionIndexOutOfRange, ["field": place, "value": "\(saved.insertionIndex)"])
        }
        guard (0...saved.pending.count).contains(saved.caret) else {
            throw SnapshotError(.caretOutOfRange, ["field": place, "value": "\(saved.caret)"])
        }
        guard saved.nextSerial < ChipID.serialMask else {
            throw SnapshotError(.serialOutOfRange, ["field": place, "value": "\(saved.nextSerial)"])
        }
        for chip in saved.chips {
            let field = chip.id.fieldPrefix >> ChipID.serialBits
            // A standalone field (no composer: `fieldCount` 0) may hold
            // identities of any field (its own `idPrefix`, or chips moved
            // from a composer's field); new ones cannot collide with them
            // (`nextSerial` below).
            guard fieldCount == 0 || (1...UInt64(fieldCount)).contains(field), chip.id.serial >= 1,
                  chip.id.serial < ChipID.serialMask else {
                throw SnapshotError(.invalidChipIdentity, ["field": place, "chip": "\(chip.id)"])
            }
            guard used.insert(chip.id).inserted else {
                throw SnapshotError(.repeatedChipIdentity, ["field": place, "chip": "\(chip.id)"])
            }
        }
        let ids = Set(saved.chips.map(\.id))
        guard saved.selection.allSatisfy(ids.contains) else {
            throw SnapshotError(.selectionNamesNoChip, ["field": place])
        }
        self.init(name: saved.name.name, policy: policy, limits: limits, idPrefix: idPrefix)
        for (k, chip) in saved.chips.enumerated() {
            let content = chip.content
            var typed = content.raw
            // A group's member is typed inside its group; an empty group
            // (the only chip whose text ends with the `;` that closes a
            // group) is its own text. Decided by the text, not the kind.
            if let group = content.group, content.raw.last != UInt8(ascii: ";") {
                typed = Array(group.utf8) + Array(": ".utf8) + typed + [UInt8(ascii: ";")]
            }
            _ = replacePendingAndCommit(typed)
            guard order.count == k + 1, text.pending.isEmpty, let typedBox = storage.removeValue(forKey: order[k]),
                  case var made = typedBox.value,
                  made.content.raw == content.raw, made.content.group == content.group
            else {
                let text = String(decoding: typed.prefix(80), as: UTF8.self).debugDescription
                throw SnapshotError(.chipNotOneChip, ["field": place, "position": "\(k + 1)", "text": text])
            }
            made = Chip(
                id: chip.id, content: made.content, isCommitted: chip.isCommitted, contact: chip.contact,
                isResolving: chip.isResolving)
            order[k] = chip.id
            sendTally.count(typedBox, -1)
            let box = box(made)
            storage[chip.id] = box
            sendTally.count(box, 1)
        }
        nextSerial = max(saved.nextSerial, 1)
        // New identities must not collide with restored ones.
        let own = saved.chips.map(\.id).filter { $0.fieldPrefix == self.idPrefix }
        if let top = own.map(\.serial).max(), top >= nextSerial { nextSerial = top + 1 }
        selection = Set(saved.selection)
        anchor = saved.selection.first
        // The pending text is scanned again, as if typed at its place.
        text.insertionIndex = saved.insertionIndex
        text.pending = saved.pending
        text.caret = saved.caret
        var changes: [FieldChange] = []
        feed(&changes)
    }
}

// MARK: - Invariants

extension ChipField {
    /// The invariants listed on the type that its state shows, with what
    /// broke: empty when they hold. (Invariant 2, no complete chip left in
    /// the pending text, and 4, bounded work, are held by the typing-equals-
    /// parsing and work-per-keystroke tests.)
    ///
    /// - Complexity: O(*n* + *s*) in the chips and the selection.
    package func invariantViolations() -> [String] {
        var out: [String] = []
        var checker = HeaderRenderer.addrSpecChecker()
        var tally = SendTally()
        for id in order {
            guard let box = storage[id] else { continue }
            let fresh = SendClass(of: box.value, &checker, fastPath: false)
            if fresh.rawValue != box.tag {
                out.append("chip \(id)'s send class is \(box.tag), its content gives \(fresh.rawValue)")
            }
            tally.count(Shared(box.value, tag: fresh.rawValue), 1)
        }
        if tally != sendTally { out.append("send tally \(sendTally), the chips give \(tally)") }
        if !(0...order.count).contains(text.insertionIndex) {
            out.append("insertion index \(text.insertionIndex) outside 0...\(order.count)")
        }
        if !(0...text.pending.count).contains(text.caret) {
            out.append("caret \(text.caret) outside 0...\(text.pending.count)")
        }
        if !(0...text.caret).contains(text.selectionStart) {
            out.append("the pending selection starts at \(text.selectionStart), after the caret \(text.caret)")
        }
        if !text.marked.isEmpty && text.selectionStart != text.caret {
            out.append("text is both marked and selected")
        }
        let ids = Set(order)
        if ids.count != order.count { out.append("an identity repeats in the order") }
        if storage.count != order.count || !order.allSatisfy({ storage[$0] != nil }) {
            out.append("the order (\(order.count)) and the chips held (\(storage.count)) differ")
        }
        for (id, box) in storage where box.value.id != id { out.append("chip \(box.value.id) held as \(id)") }
        if !selection.isSubset(of: ids) { out.append("the selection names chips the field does not hold") }
        if let anchor, !ids.contains(anchor) { out.append("the selection's anchor \(anchor) is not a chip") }
        if let editing = text.editing, ids.contains(editing) { out.append("chip \(editing) is edited and still a chip") }
        return out
    }

    /// Traps when an invariant does not hold (as swift-collections'
    /// `_checkInvariants()` does). Debug builds of the package run it after
    /// every composer operation on drafts of up to ``invariantCheckLimit``
    /// chips; tests and the invariant verifier call it directly.
    ///
    /// - Complexity: O(*n* + *s*) in the chips and the selection.
    public func _checkInvariants() {
        let broken = invariantViolations()
        precondition(broken.isEmpty, "ChipField '\(name)': \(broken.joined(separator: "; "))")
    }

    /// The most chips a debug build checks after every operation: beyond
    /// it the check (linear in the chips, hashing each address) would make
    /// the tests that type thousands of chips key by key quadratic.
    public static let invariantCheckLimit = 256
}

/// What a send needs to know of one chip, decided once when the chip is
/// boxed (see ``HeaderRenderer/omission(of:smtpUTF8:_:)``).
package struct SendClass: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The chip is in error and not sent: it blocks the send.
    package static let inError = SendClass(rawValue: 1)
    /// The chip is a mailbox: a recipient.
    package static let mailbox = SendClass(rawValue: 2)
    /// Not in error, yet a header without SMTPUTF8 would leave it out.
    package static let blocked = SendClass(rawValue: 4)
    /// Not in error, yet a header with SMTPUTF8 would leave it out.
    package static let blockedWithSMTPUTF8 = SendClass(rawValue: 8)

    /// Decided in one pass over the address when it is surely carried
    /// (``HeaderRenderer/surelyCarried(_:)``), else as a header decides;
    /// `fastPath: false` always asks the header (the debug checks compare).
    ///
    /// - Complexity: O(*n*) in the chip's length.
    package init(of chip: Chip, _ checker: inout Recognizer, fastPath: Bool = true) {
        var c: SendClass = []
        let valid = chip.content.error == nil
        let inError = !valid && !chip.isCommitted
        let mailbox = chip.content.kind == .mailbox
        if inError { c.insert(.inError) }
        if mailbox { c.insert(.mailbox) }
        if fastPath, valid, mailbox, let address = chip.content.address, HeaderRenderer.surelyCarried(address) {
            // Valid and carried either way: nothing more to know.
        } else if !inError {
            if HeaderRenderer.omission(of: chip.content, smtpUTF8: false, &checker) != nil { c.insert(.blocked) }
            if HeaderRenderer.omission(of: chip.content, smtpUTF8: true, &checker) != nil {
                c.insert(.blockedWithSMTPUTF8)
            }
        }
        self = c
    }
}

/// A field's chips counted by ``SendClass``: what decides, in O(1),
/// whether a send would go (``Composer/readiness(smtpUTF8:)``).
package struct SendTally: Sendable, Equatable, CustomStringConvertible {
    package var inError = 0
    package var mailboxes = 0
    package var blocked = 0
    package var blockedWithSMTPUTF8 = 0

    mutating func count(_ box: Shared<Chip>, _ sign: Int) {
        let c = SendClass(rawValue: box.tag)
        if c.contains(.inError) { inError += sign }
        if c.contains(.mailbox) { mailboxes += sign }
        if c.contains(.blocked) { blocked += sign }
        if c.contains(.blockedWithSMTPUTF8) { blockedWithSMTPUTF8 += sign }
    }

    package var description: String {
        "{in error \(inError), mailboxes \(mailboxes), blocked \(blocked), with SMTPUTF8 \(blockedWithSMTPUTF8)}"
    }
}
