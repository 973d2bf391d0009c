import ChipKit

/// What a compose session shows besides the composer itself: the
/// suggestion list, the other addresses of a contact chip, and the last
/// refusal. Kept by ``ComposeController``; the screen is drawn from it and
/// the composer alone.
struct ComposeUIState: Sendable {
    /// Suggestions for the focused field's pending text, best first.
    var suggestions: [Suggestion] = []
    /// The suggestion Up/Down moved to; Return takes it.
    var highlighted: Int?
    /// The chip whose other addresses are listed (Ctrl-O), and those addresses.
    var alternatesChip: Int?
    var alternates: [ContactEmail] = []
    /// The `ambiguous` chip whose candidates are listed (Ctrl-O, or Return
    /// on the chip selected), and those contacts, best first.
    var candidatesChip: Int?
    var candidates: [Suggestion] = []
    /// Why the last key did nothing, or what it did (shown once).
    var message: String?
    /// Where the draft is kept, as the status line names it (nil: none).
    var draftPath: String?
}

/// How a screen is written: with the terminal's attributes (reverse,
/// bold, underline) or as plain text, and with colours or not (`NO_COLOR`).
struct ComposeStyle: Sendable, Hashable {
    var attributes: Bool
    var colors: Bool

    /// Text only: what `tmux capture-pane -p` reads, and what tests compare.
    static let plain = ComposeStyle(attributes: false, colors: false)
    static let full = ComposeStyle(attributes: true, colors: true)
}

/// Chips' labels and widths, kept between keystrokes so a redraw measures
/// only chips that changed: a memo of a pure function of each chip's
/// content, keyed by identity. Whoever changes the composer hands the
/// changes it reported to ``forget(_:)`` (every chip inserted, updated or
/// removed is measured again), or calls ``forgetAll()``; a test checks that
/// the screens drawn this way equal screens drawn with an empty memo.
struct ChipCells: Sendable {
    struct Cell: Sendable {
        var label: String
        var width: Int
        var isError: Bool
        var hasWarnings: Bool
    }

    private var cells: [ChipID: Cell] = [:]

    /// The cell of the chip `id` of `field`, measured now if it is not known.
    ///
    /// - Complexity: O(1) for a chip known, else O(*c*) in its length.
    mutating func cell(_ id: ChipID, in field: ChipField) -> Cell {
        if let cell = cells[id] { return cell }
        let chip = field.chip(id)!
        let label = ChipText.label(of: chip)
        let cell = Cell(
            label: label, width: TerminalWidth().width(of: label), isError: !chip.content.isValid,
            hasWarnings: !chip.content.warnings.isEmpty)
        cells[id] = cell
        return cell
    }

    /// Forgets the chips these changes inserted, updated or removed.
    ///
    /// - Complexity: O(*k*) in the changes.
    mutating func forget(_ changes: [ComposerChange]) {
        for change in changes {
            switch change.change {
            case .inserted(let id, _), .updated(let id, _), .removed(let id, _): cells[id] = nil
            default: break
            }
        }
    }

    mutating func forgetAll() { cells = [:] }
}

/// A whole screen of a compose session: one string per terminal row (with
/// the style's escape sequences inside) and where the cursor goes. A
/// value drawn from the composer, the session's ``ComposeUIState`` and the
/// terminal size alone, so tests compare it and the terminal shell writes
/// only the rows that differ from the last screen.
///
/// Invariants:
/// 1. `rows.count == height`, and no row is wider than `width` columns
///    (measured without its escape sequences).
/// 2. The cursor is inside the screen.
struct ComposeScreen: Sendable, Hashable {
    var width: Int
    var height: Int
    var rows: [String]
    var cursorRow: Int
    var cursorColumn: Int

    /// Fields narrower than this show unfocused fields as summaries.
    static let summaryBelowWidth = 40
    /// An unfocused field with more rows than this shows its summary.
    static let maxUnfocusedRows = 3
    /// Suggestion (or address) lines shown at most.
    static let maxMenuRows = 5

    /// The screen for this state at this size.
    ///
    /// - Complexity: O(*n*) in the chips of all fields (a dictionary look-up
    ///   each, measured once per change in `cells`), plus the text drawn.
    init(
        composer: Composer, ui: ComposeUIState, width: Int, height: Int, style: ComposeStyle,
        cells: inout ChipCells
    ) {
        self.width = max(1, width)
        self.height = max(1, height)
        let w = self.width, h = self.height
        let prefixWidth = composer.fields.map { ComposeScreen.fieldTitle($0.name).count + 2 }.max() ?? 4
        // Too narrow for a title and a chip: plain rows, cut to the width.
        let tiny = w < prefixWidth + 5
        let paint = Painter(style: tiny ? .plain : style)
        let lineWidth = max(1, w - prefixWidth)
        let indent = prefixWidth <= w ? prefixWidth : 0

        // Each field's drawing, before the rows are cut to the height.
        var blocks: [(rows: [String], caretRow: Int?, caretColumn: Int)] = []
        var focusedRow: (Int) -> String = { _ in "" }
        var focusedRowCount = 0
        for (index, field) in composer.fields.enumerated() {
            let focused = index == composer.focusedIndex
            let title = ComposeScreen.fieldTitle(field.name) + ":"
            let titleText = focused ? paint.bold(title) : title
            let padded = String(repeating: " ", count: max(0, indent - title.count))
            let ids = field.chipIDs
            var cellList: [ChipCells.Cell] = []
            cellList.reserveCapacity(ids.count)
            for id in ids { cellList.append(cells.cell(id, in: field)) }
            if !focused {
                let layout = ChipFlowLayout(
                    widths: cellList.map { min(lineWidth, ComposeScreen.chipWidth($0)) }, spacing: 1,
                    lineWidth: lineWidth)
                if w < ComposeScreen.summaryBelowWidth || layout.rowCount > ComposeScreen.maxUnfocusedRows {
                    let summary = FieldSummary.make(labels: cellList.map(\.label), budget: lineWidth)
                    let text = ChipText.truncate(summary.text, toWidth: lineWidth)
                    blocks.append(([String((titleText + padded + text))], nil, 0))
                } else {
                    var rows: [String] = []
                    for r in 0..<max(1, layout.rowCount) {
                        var line = r == 0 ? titleText + padded : String(repeating: " ", count: indent)
                        if layout.rowCount > 0 {
                            line += ComposeScreen.drawRow(
                                layout, r, lineWidth: lineWidth, paint: paint,
                                item: { paint.chip(cellList[$0], selected: field.isSelected(ids[$0]), lineWidth: lineWidth) })
                        }
                        rows.append(line)
                    }
                    blocks.append((rows, nil, 0))
                }
                continue
            }
            // The focused field: chips with the pending text as one more
            // item at the insertion index, one column wider for the caret.
            // Only the rows in view are drawn, below, once the height left
            // for them is known.
            let insertion = field.insertionIndex
            let (pendingShown, caretColumn) = ComposeScreen.pendingView(field, lineWidth: lineWidth)
            var widths = cellList.map { min(lineWidth, ComposeScreen.chipWidth($0)) }
            widths.insert(min(lineWidth, TerminalWidth().width(of: pendingShown) + 1), at: insertion)
            let layout = ChipFlowLayout(widths: widths, spacing: 1, lineWidth: lineWidth)
            focusedRow = { r in
                var line = r == 0 ? titleText + padded : String(repeating: " ", count: indent)
                line += ComposeScreen.drawRow(layout, r, lineWidth: lineWidth, paint: paint) { item in
                    if item == insertion { return paint.pending(pendingShown) }
                    let chipIndex = item < insertion ? item : item - 1
                    return paint.chip(cellList[chipIndex], selected: field.isSelected(ids[chipIndex]), lineWidth: lineWidth)
                }
                return line
            }
            focusedRowCount = layout.rowCount
            blocks.append(([], layout.row(ofChip: insertion), indent + layout.xs[insertion] + caretColumn))
        }

        // The menu under the focused field: a contact's other addresses, or suggestions.
        var menu: [String] = []
        if ui.candidatesChip != nil, !ui.candidates.isEmpty {
            for (k, s) in ui.candidates.prefix(ComposeScreen.maxMenuRows).enumerated() {
                menu.append(ComposeScreen.suggestionRow(s, highlighted: ui.highlighted == k, width: w, paint: paint))
            }
        } else if ui.alternatesChip != nil, !ui.alternates.isEmpty {
            for (k, email) in ui.alternates.prefix(ComposeScreen.maxMenuRows).enumerated() {
                let text = ChipText.truncate(
                    ChipText.clean(ChipText.displayAddress(email.address))
                        + (email.types.isEmpty ? "" : " (" + ChipText.clean(email.types.joined(separator: ", ")) + ")"),
                    toWidth: w - 2)
                menu.append((ui.highlighted == k ? "> " : "  ") + (ui.highlighted == k ? paint.reverse(text) : text))
            }
        } else {
            for (k, s) in ui.suggestions.prefix(ComposeScreen.maxMenuRows).enumerated() {
                menu.append(ComposeScreen.suggestionRow(s, highlighted: ui.highlighted == k, width: w, paint: paint))
            }
        }

        // Heights: the status line, one row per unfocused field's row, the
        // menu, and the focused field gets the rest (at least one row).
        let focusedIndex = composer.focusedIndex
        let others = blocks.enumerated().filter { $0.offset != focusedIndex }.reduce(0) { $0 + $1.element.rows.count }
        var menuRows = menu.count
        var available = h - 1 - others - menuRows
        if available < 1 {
            menuRows = max(0, menuRows - (1 - available))
            available = h - 1 - others - menuRows
        }
        available = max(1, available)
        let focusedBlock = blocks[focusedIndex]
        let caretRow = focusedBlock.caretRow ?? 0
        let first = caretRow >= available ? caretRow - available + 1 : 0
        var lines: [String] = []
        var cursorRow = 0
        for (index, block) in blocks.enumerated() {
            if index == focusedIndex {
                cursorRow = lines.count + caretRow - first
                for r in first..<min(focusedRowCount, first + available) { lines.append(focusedRow(r)) }
                lines += menu.prefix(menuRows)
            } else {
                lines += block.rows
            }
        }
        if lines.count > h - 1 {
            // A terminal too short for every field: keep the focused one in view.
            let drop = min(lines.count - (h - 1), max(0, cursorRow - (h - 2)))
            lines.removeFirst(drop)
            cursorRow -= drop
            lines = Array(lines.prefix(max(0, h - 1)))
        }
        while lines.count < h - 1 { lines.append("") }
        // Messages quote chips, names and field names: cleaned, as all text shown.
        let status = ChipText.clean(ComposeScreen.statusText(composer: composer, ui: ui))
        lines.append(paint.dim(ChipText.truncate(status, toWidth: w)))
        if h == 1 { lines = [lines.last!] }
        if tiny { lines = lines.map { ComposeScreen.cut($0, toWidth: w) } }
        rows = lines
        self.cursorRow = max(0, min(h - 1, cursorRow))
        self.cursorColumn = max(0, min(w - 1, focusedBlock.caretColumn))
    }

    /// The clusters of plain `text` that fit in `width` columns.
    static func cut(_ text: String, toWidth width: Int) -> String {
        let measure = TerminalWidth()
        guard measure.width(of: text) > width else { return text }
        var out = ""
        var used = 0
        for c in text {
            let w = measure.width(of: String(c))
            if used + w > width { break }
            out.append(c)
            used += w
        }
        return out
    }

    /// `to` → `To`, `reply-to` → `Reply-To`: a field's header name, as
    /// shown (cleaned of control characters like all text on the screen:
    /// a composer made by a host may hold any name).
    static func fieldTitle(_ name: String) -> String {
        ChipText.clean(name).split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// A chip's columns: its label between two brackets, plus a mark
    /// (`!` error, `?` warnings) that reads without colour.
    static func chipWidth(_ cell: ChipCells.Cell) -> Int {
        cell.width + 2 + (cell.isError || cell.hasWarnings ? 1 : 0)
    }

    /// The pending text as shown (its end when it is too long for a line,
    /// after `…`) and the caret's column in it.
    static func pendingView(_ field: ChipField, lineWidth: Int) -> (String, Int) {
        let text = ChipText.clean(field.pendingText + field.markedText)
        let before = ChipText.clean(String(decoding: field.pending[..<field.caret], as: UTF8.self))
        let measure = TerminalWidth()
        if measure.width(of: text) + 1 <= lineWidth { return (text, measure.width(of: before)) }
        // Keep the end, where typing happens.
        var shown = Substring(text)
        while !shown.isEmpty && measure.width(of: shown) + 2 > lineWidth { shown = shown.dropFirst() }
        let result = ChipText.ellipsis + shown
        return (result, measure.width(of: result))
    }

    /// One row of a flow layout: items at their offsets, padded with spaces.
    static func drawRow(
        _ layout: ChipFlowLayout, _ row: Int, lineWidth: Int, paint: Painter, item: (Int) -> String
    ) -> String {
        var line = ""
        var x = 0
        for i in layout.chips(inRow: row) {
            if layout.xs[i] > x { line += String(repeating: " ", count: layout.xs[i] - x) }
            line += item(i)
            x = layout.xs[i] + layout.widths[i]
        }
        return line
    }

    static func suggestionRow(_ s: Suggestion, highlighted: Bool, width: Int, paint: Painter) -> String {
        // Segments of the row with whether each is a matched part.
        var segments: [(String, Bool)] = [(highlighted ? "> " : "  ", false)]
        // Matched ranges are bytes of the text as the contact has it; text
        // that cleaning would change is shown cleaned, without highlights.
        func add(_ raw: String, _ matches: [Range<Int>]) {
            let text = ChipText.clean(raw)
            let bytes = Array(text.utf8)
            var at = 0
            for m in matches.sorted(by: { $0.lowerBound < $1.lowerBound })
            where text == raw && m.lowerBound >= at && m.upperBound <= bytes.count {
                if m.lowerBound > at { segments.append((String(decoding: bytes[at..<m.lowerBound], as: UTF8.self), false)) }
                segments.append((String(decoding: bytes[m], as: UTF8.self), true))
                at = m.upperBound
            }
            if at < bytes.count { segments.append((String(decoding: bytes[at...], as: UTF8.self), false)) }
        }
        if let name = s.name, !name.isEmpty {
            add(name, s.nameMatches)
            if let address = s.address {
                segments.append((" <", false))
                add(address, s.addressMatches)
                segments.append((">", false))
            } else {
                segments.append((" (no address of its own)", false))
            }
        } else {
            add(s.address ?? "(list)", s.addressMatches)
        }
        // A row too wide is cut as a whole, with `…` at its end.
        let measure = TerminalWidth()
        let full = segments.map(\.0).joined()
        let fits = measure.width(of: full) <= width
        var budget = fits ? width : width - measure.width(of: ChipText.ellipsis)
        var line = ""
        for (text, matched) in segments {
            let w = measure.width(of: text)
            if w <= budget {
                line += matched ? paint.match(text) : text
                budget -= w
                continue
            }
            // The clusters that fit; the row's `…` follows them.
            var cut = ""
            for c in text {
                let cw = measure.width(of: String(c))
                if cw > budget { break }
                cut.append(c)
                budget -= cw
            }
            line += cut
            break
        }
        if !fits { line += ChipText.ellipsis }
        return highlighted ? paint.reverse(line) : line
    }

    /// The status line: the last message, else the chip under the caret
    /// (the selected one, or the one just before the caret), else the keys.
    static func statusText(composer: Composer, ui: ComposeUIState) -> String {
        if let message = ui.message { return message }
        let field = composer.focusedField
        var index: Int?
        if !field.selection.isEmpty {
            index = (0..<field.count).first { field.isSelected(field[$0].id) }
        } else if field.pending.isEmpty && field.insertionIndex > 0 {
            index = field.insertionIndex - 1
        }
        if let i = index {
            let label = AccessibilityLabel.inputChip(
                field[i], isSelected: field.isSelected(field[i].id), position: i, count: field.count)
            // Say how to choose, where the chip says there is a choice.
            if field[i].content.error == .ambiguous && !field[i].candidates.isEmpty {
                return label + " · Ctrl-O or Return on the chip: choose one of \(field[i].candidates.count)"
            }
            return label
        }
        let keys = "Ctrl-S send · Ctrl-C quit · Ctrl-N next field · Ctrl-Z undo"
        return ui.draftPath.map { keys + " · draft " + $0 } ?? keys
    }

    // MARK: - Drawing on a terminal

    /// The bytes that turn `previous` (what the terminal shows) into this
    /// screen: every row when there is no previous screen or its size
    /// differs, else only the rows that changed; then the cursor.
    ///
    /// - Complexity: O(*r*) in the rows compared, plus the rows written.
    func drawing(from previous: ComposeScreen?) -> [UInt8] {
        var out = "\u{1B}[?25l"
        let all = previous == nil || previous!.width != width || previous!.height != height
        if all { out += "\u{1B}[H\u{1B}[2J" }
        for (r, row) in rows.enumerated() where all || previous!.rows[r] != row {
            out += "\u{1B}[\(r + 1);1H\u{1B}[0m" + row + "\u{1B}[0m\u{1B}[K"
        }
        out += "\u{1B}[\(cursorRow + 1);\(cursorColumn + 1)H\u{1B}[?25h"
        return Array(out.utf8)
    }
}

/// Wraps text in a style's escape sequences, or leaves it as it is.
struct Painter: Sendable {
    var style: ComposeStyle

    private func sgr(_ codes: String, _ text: String) -> String {
        style.attributes && !text.isEmpty ? "\u{1B}[\(codes)m" + text + "\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { sgr("1", text) }
    func dim(_ text: String) -> String { sgr("2", text) }
    func reverse(_ text: String) -> String { sgr("7", text) }
    func match(_ text: String) -> String { sgr("1;4", text) }
    func pending(_ text: String) -> String { text }

    /// A chip as `[label]`, `[!label]` (error) or `[?label]` (warnings);
    /// selected chips in braces, `{label}`, and in reverse video. Colours:
    /// cyan, red, yellow, unless `NO_COLOR`.
    func chip(_ cell: ChipCells.Cell, selected: Bool, lineWidth: Int) -> String {
        let error = cell.isError
        let warning = !error && cell.hasWarnings
        let mark = error ? "!" : warning ? "?" : ""
        let room = lineWidth - 2 - mark.count
        let label = cell.width <= room ? cell.label : ChipText.truncate(cell.label, toWidth: max(0, room))
        let text = (selected ? "{" : "[") + mark + label + (selected ? "}" : "]")
        guard style.attributes else { return text }
        var codes: [String] = []
        if selected { codes.append("7") }
        if error { codes.append("1") }
        if style.colors { codes.append(error ? "31" : warning ? "33" : "36") }
        return codes.isEmpty ? text : sgr(codes.joined(separator: ";"), text)
    }
}
