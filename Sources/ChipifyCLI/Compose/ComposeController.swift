import ChipKit

/// What a key asks of the session.
enum ComposeOutcome: Sendable, Equatable {
    /// Keep composing.
    case stay
    /// Sent: the header block to print (`To: …` lines, folded).
    case sent(String)
    /// Left without sending (Ctrl-C, Escape): with nothing unsent, with
    /// a draft that keeps what was, or asked and confirmed.
    case cancelled
}

/// Maps keys to ``Composer`` operations and keeps what the screen shows
/// besides the composer. No terminal here: tests feed keys and compare
/// ``screen(width:height:style:)``.
///
/// Invariants:
/// 1. `ui.suggestions` are the composer's suggestions for the focused
///    field's pending text after the last key (empty without contacts or
///    pending text).
/// 2. `ui.highlighted` indexes the menu shown, or is nil.
/// 3. Leaving never drops unsent work silently: with a draft
///    (`keepsDraft`) the session saves it; without one, the first Escape
///    or Ctrl-C asks and only a second one in a row leaves.
struct ComposeController: Sendable {
    var composer: Composer
    var ui = ComposeUIState()
    var smtpUTF8: Bool
    /// Whether leaving keeps unsent work in a draft (so it needs no question).
    var keepsDraft = false
    /// Counts the keys that changed the composer (what a draft saves).
    private(set) var revision = 0
    /// The last key asked whether to leave without the unsent work.
    private var askedToLeave = false
    /// The end of a Shift-Left/Right selection: the chip it grows from.
    private var selectionHead: Int?
    private var cells = ChipCells()

    init(composer: Composer, smtpUTF8: Bool = false) {
        self.composer = composer
        self.smtpUTF8 = smtpUTF8
    }

    /// The screen for the current state at this size.
    ///
    /// - Complexity: see ``ComposeScreen/init(composer:ui:width:height:style:cells:)``.
    mutating func screen(width: Int, height: Int, style: ComposeStyle) -> ComposeScreen {
        ComposeScreen(composer: composer, ui: ui, width: width, height: height, style: style, cells: &cells)
    }

    /// Applies one key.
    mutating func handle(_ key: ComposeKey) -> ComposeOutcome {
        ui.message = nil
        let asked = askedToLeave
        askedToLeave = false
        var changes: [ComposerChange] = []
        var pendingMayChange = true
        let menuCount = ui.candidatesChip != nil ? ui.candidates.count
            : ui.alternatesChip != nil ? ui.alternates.count : ui.suggestions.count
        let menuOpen = menuCount > 0
        switch key {
        case .text(let bytes):
            closeAlternates()
            changes = composer.type(bytes: bytes)
        case .paste(let bytes):
            closeAlternates()
            changes = composer.paste(bytes: bytes)
        case .enter:
            if let k = ui.highlighted, let chip = ui.candidatesChip, ui.candidates.indices.contains(k),
               chip < composer.focusedField.count {
                changes = composer.resolve(composer.focusedField[chip].id, to: ui.candidates[k])
                closeAlternates()
            } else if ui.highlighted == nil, ui.alternatesChip == nil, ui.candidatesChip == nil,
                      composer.focusedField.pending.isEmpty, let i = selectedAmbiguousChip() {
                // Return on a selected `ambiguous` chip: its candidates.
                openCandidates(of: i)
            } else if let k = ui.highlighted, let chip = ui.alternatesChip {
                changes = composer.chooseAlternate(at: chip, k)
                closeAlternates()
            } else if let k = ui.highlighted, ui.suggestions.indices.contains(k) {
                changes = composer.choose(ui.suggestions[k])
            } else {
                closeAlternates()
                changes = composer.commit()
            }
        case .tab:
            closeAlternates()
            if composer.focusedField.pending.isEmpty { changes = focusField(by: 1) } else { changes = composer.commit(by: .tab) }
        case .backTab:
            closeAlternates()
            changes = focusField(by: -1)
        case .up(let m), .down(let m):
            let down: Bool
            if case .down = key { down = true } else { down = false }
            if menuOpen && m.isEmpty {
                let k = ui.highlighted.map { $0 + (down ? 1 : -1) } ?? (down ? 0 : nil)
                ui.highlighted = k.flatMap { $0 < 0 ? nil : min($0, min(menuCount, ComposeScreen.maxMenuRows) - 1) }
                return .stay
            }
            closeAlternates()
            changes = focusField(by: down ? 1 : -1)
        case .left(let m), .right(let m):
            closeAlternates()
            let right: Bool
            if case .right = key { right = true } else { right = false }
            if m.contains(.alt) {
                changes = reorderSelection(by: right ? 1 : -1)
            } else if m.contains(.shift) {
                changes = extendSelection(by: right ? 1 : -1)
            } else {
                changes = right ? composer.moveRight() : composer.moveLeft()
                selectionHead = nil
            }
        case .home:
            changes = composer.moveCaret(toChipIndex: 0)
        case .end:
            changes = composer.moveCaret(toChipIndex: composer.focusedField.count)
        case .backspace:
            closeAlternates()
            changes = composer.backspace()
        case .delete:
            closeAlternates()
            changes = composer.deleteForward()
        case .escape:
            // What is open closes first; Escape leaves only from the field.
            if ui.alternatesChip != nil || ui.candidatesChip != nil {
                closeAlternates()
                return .stay
            }
            if !ui.suggestions.isEmpty {
                ui.suggestions = []
                ui.highlighted = nil
                return .stay
            }
            return leave(asked: asked)
        case .control(let c):
            switch c {
            case UInt8(ascii: "c"): return leave(asked: asked)
            case UInt8(ascii: "s"): return send()
            case UInt8(ascii: "z"):
                changes = composer.undo()
                cells.forgetAll()  // rare; no need to trust each restored chip's report
            case UInt8(ascii: "y"):
                changes = composer.redo()
                cells.forgetAll()
            case UInt8(ascii: "a"): changes = composer.selectAll()
            case UInt8(ascii: "e"):
                if let i = chipUnderCaret() { changes = composer.edit(at: i) }
            case UInt8(ascii: "n"): changes = moveToNextField()
            case UInt8(ascii: "o"): changes = openAlternates()
            default: pendingMayChange = false
            }
        case .alt, .unknown:
            pendingMayChange = false
        }
        cells.forget(changes)
        if !changes.isEmpty { revision &+= 1 }
        if !(changes.isEmpty && ui.message != nil) { report(changes) }
        if pendingMayChange { refreshSuggestions() }
        return .stay
    }

    // MARK: - Operations

    /// Whether anything typed is not sent: a chip not sent, or pending text.
    ///
    /// - Complexity: O(*n*) in the chips.
    var hasUnsentWork: Bool {
        composer.fields.contains { f in !f.pending.isEmpty || (0..<f.count).contains { !f[$0].isCommitted } }
    }

    /// Escape or Ctrl-C from the field: leaves at once when nothing is
    /// unsent or a draft keeps it; else asks, and leaves on the second.
    private mutating func leave(asked: Bool) -> ComposeOutcome {
        if asked || keepsDraft || !hasUnsentWork { return .cancelled }
        askedToLeave = true
        ui.message = "Not sent and no draft: Escape or Ctrl-C again leaves without it, Ctrl-S sends"
        return .stay
    }

    private mutating func focusField(by step: Int) -> [ComposerChange] {
        let n = composer.fields.count
        let target = (composer.focusedIndex + step + n) % n
        selectionHead = nil
        return composer.focus(composer.fieldIDs[target])
    }

    /// The chip a chip command applies to: the first selected one, else
    /// the one just before the caret when no text is pending.
    func chipUnderCaret() -> Int? {
        let field = composer.focusedField
        if !field.selection.isEmpty { return (0..<field.count).first { field.isSelected(field[$0].id) } }
        if field.pending.isEmpty && field.insertionIndex > 0 { return field.insertionIndex - 1 }
        return nil
    }

    private mutating func extendSelection(by step: Int) -> [ComposerChange] {
        var changes: [ComposerChange] = []
        if composer.focusedField.selection.isEmpty || selectionHead == nil {
            if !composer.focusedField.pending.isEmpty { changes += composer.commit(by: .blur) }
            let at = composer.focusedField.insertionIndex + (step < 0 ? -1 : 0)
            guard (0..<composer.focusedField.count).contains(at) else { return changes }
            selectionHead = at
            return changes + composer.select(at)
        }
        let head = max(0, min(composer.focusedField.count - 1, selectionHead! + step))
        selectionHead = head
        return changes + composer.select(head, extend: true)
    }

    private mutating func reorderSelection(by step: Int) -> [ComposerChange] {
        let field = composer.focusedField
        let selected = (0..<field.count).filter { field.isSelected(field[$0].id) }
        guard let first = selected.first else {
            ui.message = "Select a chip (Shift-Left/Right) to move it"
            return []
        }
        let changes = composer.moveSelection(to: first + step)
        if let head = selectionHead { selectionHead = max(0, min(composer.focusedField.count - 1, head + step)) }
        return changes
    }

    /// Ctrl-N: the selected chips (or the chip before the caret) go to the
    /// end of the next field, To → Cc → Bcc → To. The focus follows them
    /// and they stay selected, so Ctrl-N again moves them on (To to Bcc is
    /// Ctrl-N twice).
    private mutating func moveToNextField() -> [ComposerChange] {
        guard let index = chipUnderCaret() else {
            ui.message = "No chip to move: select one, or put the caret after it"
            return []
        }
        let n = composer.fields.count
        let targetID = composer.fieldIDs[(composer.focusedIndex + 1) % n]
        let start = composer.field(targetID)!.count
        var changes = composer.move(from: index, toField: targetID, at: start)
        let moved = changes.filter { if case .inserted = $0.change { $0.field == targetID } else { false } }.count
        changes += composer.focus(targetID)
        if moved > 0 {
            changes += composer.select(start)
            if moved > 1 { changes += composer.select(start + moved - 1, extend: true) }
            selectionHead = start + moved - 1
            ui.message = "Moved \(moved == 1 ? "1 chip" : "\(moved) chips") to \(ComposeScreen.fieldTitle(targetID.name))"
        }
        return changes
    }

    /// Ctrl-O: the candidates of an `ambiguous` chip under the caret, the
    /// other addresses of a contact chip, or a list's members in its place.
    private mutating func openAlternates() -> [ComposerChange] {
        guard let index = chipUnderCaret() else {
            ui.message = "No chip here to expand"
            return []
        }
        if openCandidates(of: index) { return [] }
        let expanded = composer.expand(at: index)
        if !expanded.contains(where: { if case .refused = $0.change { true } else { false } }) { return expanded }
        let options = composer.alternates(at: index)
        guard !options.isEmpty else {
            ui.message = "This chip has no other address"
            return []
        }
        ui.alternatesChip = index
        ui.alternates = options
        ui.highlighted = 0
        return []
    }

    /// Lists the candidates of the chip at `index` when it is `ambiguous`
    /// and has some; says how to choose. False for any other chip.
    @discardableResult
    private mutating func openCandidates(of index: Int) -> Bool {
        let field = composer.focusedField
        guard index < field.count, field[index].content.error == .ambiguous, !field[index].candidates.isEmpty else {
            return false
        }
        ui.candidatesChip = index
        ui.candidates = field[index].candidates
        ui.highlighted = 0
        ui.message = "Several contacts match: Up/Down and Return choose one, Escape keeps the text"
        return true
    }

    /// The one selected chip of the focused field, when it is `ambiguous`.
    private func selectedAmbiguousChip() -> Int? {
        let field = composer.focusedField
        guard field.selection.count == 1 else { return nil }
        let i = (0..<field.count).first { field.isSelected(field[$0].id) }
        return i.flatMap { field[$0].content.error == .ambiguous ? $0 : nil }
    }

    private mutating func closeAlternates() {
        if ui.alternatesChip != nil || ui.candidatesChip != nil {
            ui.alternatesChip = nil
            ui.alternates = []
            ui.candidatesChip = nil
            ui.candidates = []
            ui.highlighted = nil
        }
    }

    private mutating func refreshSuggestions() {
        guard ui.alternatesChip == nil, ui.candidatesChip == nil else { return }
        let previous = ui.suggestions
        ui.suggestions = composer.focusedField.pending.isEmpty ? [] : composer.suggestions(limit: ComposeScreen.maxMenuRows)
        if ui.suggestions != previous { ui.highlighted = nil }
    }

    /// Ctrl-S: the header block when the draft can go, else why not.
    private mutating func send() -> ComposeOutcome {
        let report = composer.send(smtpUTF8: smtpUTF8)
        cells.forget(report.changes)
        guard report.sent else {
            var reasons: [String] = []
            let errors = report.errorChips.values.reduce(0) { $0 + $1.count }
            if errors > 0 { reasons.append(errors == 1 ? "1 chip in error" : "\(errors) chips in error") }
            if !report.fieldsWithPendingText.isEmpty {
                reasons.append("text not made a chip in " + report.fieldsWithPendingText.map { ComposeScreen.fieldTitle($0.name) }.joined(separator: ", "))
            }
            if report.hasNoRecipient { reasons.append("no recipient") }
            if !report.unsendableChips.isEmpty {
                let utf8 = report.unsendableChips.contains { $0.reason.needsSMTPUTF8 }
                reasons.append("\(report.unsendableChips.count) address(es) this transport cannot carry"
                    + (utf8 ? " (try --smtputf8)" : ""))
            }
            ui.message = "Not sent: " + reasons.joined(separator: "; ")
            return .stay
        }
        return .sent(ComposeController.headerBlock(composer, smtpUTF8: smtpUTF8))
    }

    /// Every non-empty field as a header line, folded as the header writer
    /// folds (lines of at most 78 bytes, continued with a space).
    static func headerBlock(_ composer: Composer, smtpUTF8: Bool) -> String {
        var block = ""
        for field in composer.fields where field.count > 0 {
            let title = fieldTitle(field.name) + ": "
            var writer = HeaderWriter(options: HeaderOptions(
                smtpUTF8: smtpUTF8, firstLineUsed: title.utf8.count, lineBreak: "\n"))
            for i in 0..<field.count { writer.add(field[i].content) }
            writer.finish()
            block += title + writer.take() + "\n"
        }
        return block
    }

    private static func fieldTitle(_ name: String) -> String { ComposeScreen.fieldTitle(name) }

    /// Puts the operation's refusals on the status line.
    private mutating func report(_ changes: [ComposerChange]) {
        for change in changes {
            guard case .refused(let refusal) = change.change else { continue }
            ui.message = ComposeController.sentence(for: refusal)
        }
    }

    /// The refusal in ChipStrings' words, its text cleaned and cut to fit
    /// the status line, with a capital.
    static func sentence(for refusal: Refusal) -> String {
        var shown = refusal
        shown.text = refusal.text.map { ChipText.truncate(ChipText.clean($0), toWidth: 40) }
        let words = ChipStrings.english.message(for: shown)
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
