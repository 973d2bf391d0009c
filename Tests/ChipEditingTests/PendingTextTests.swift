import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
import ChipEditing
import ChipTestSupport

/// The text being typed, in a host's units: what UIKit's `UITextInput`,
/// Android's `InputConnection` and the web's `beforeinput` do to it, held
/// to a plain `String` model (seeded), and to deleting and retyping.
@Suite("Pending text in the host's units")
struct PendingTextTests {
    /// Text that never makes a chip: no separator, no `@`, no white space,
    /// no quote or bracket; scalars of every UTF-8 and UTF-16 length, and
    /// clusters of several scalars.
    static let quiet = ["a", "Bz", "é", "e\u{301}", "😀", "👍🏽", "中", "ß", "-", ".", "👩\u{200D}👩\u{200D}👧", "Ω", "\u{10FFFF}"]

    static func words(_ random: inout SplitMix64, _ pieces: [String], _ most: Int) -> String {
        (0..<random.between(0...most)).map { _ in random.pick(pieces) }.joined()
    }

    /// The model: the editing text, the selection and the marked range, in
    /// UTF-16 offsets.
    struct Model {
        var text = ""
        var selection = 0..<0
        var marked: Range<Int>?

        func index(_ utf16: Int) -> String.Index { String.Index(utf16Offset: utf16, in: text) }

        mutating func replace(_ r: Range<Int>, _ s: String) {
            text.replaceSubrange(index(r.lowerBound)..<index(r.upperBound), with: s)
            let caret = r.lowerBound + s.utf16.count
            selection = caret..<caret
            marked = nil
        }

        /// Scalar boundaries, as UTF-16 offsets.
        var boundaries: [Int] { text.unicodeScalars.indices.map { $0.utf16Offset(in: text) } + [text.utf16.count] }
        /// Grapheme cluster boundaries, as UTF-16 offsets.
        var clusters: [Int] { text.indices.map { $0.utf16Offset(in: text) } + [text.utf16.count] }

        func converted(_ r: Range<Int>, _ unit: TextUnit) -> Range<Int> {
            func one(_ o: Int) -> Int {
                let i = index(o)
                switch unit {
                case .utf8: return text.utf8.distance(from: text.startIndex, to: i)
                case .utf16: return o
                case .unicodeScalars: return text.unicodeScalars.distance(from: text.startIndex, to: i)
                }
            }
            return one(r.lowerBound)..<one(r.upperBound)
        }
    }

    /// What the composer shows, against the model, in every unit.
    static func check(_ c: Composer, _ m: Model, _ step: String) {
        #expect(c.editingText == m.text, "\(step)")
        for unit in TextUnit.allCases {
            #expect(c.pendingSelection(in: unit) == m.converted(m.selection, unit), "\(step) in \(unit)")
            #expect(c.markedRange(in: unit) == m.marked.map { m.converted($0, unit) }, "\(step) in \(unit)")
        }
        let field = c.focusedField
        #expect(field.pendingSelectionIndices == m.index(m.selection.lowerBound)..<m.index(m.selection.upperBound), "\(step)")
        #expect(field.markedIndices == m.marked.map { m.index($0.lowerBound)..<m.index($0.upperBound) }, "\(step)")
        #expect(field.caret(in: .utf16) == m.selection.upperBound, "\(step)")
        #expect(field.count == 0, "\(step): a chip was made of \(m.text.debugDescription)")
    }

    /// A random session of replacements, selections, typing, deletions,
    /// caret moves and compositions, in random units, each compared with
    /// the model; each replacement is one undo step, undone and redone.
    @Test func aSessionMatchesAStringModel() {
        let seeds = TestScale.count(400, 80, "pending text sessions")
        for seed in 0..<UInt64(seeds) {
            var random = SplitMix64(seed: 0x7E47 &+ seed)
            var c = Composer()
            var m = Model()
            for step in 0..<40 {
                let unit = random.pick(TextUnit.allCases)
                let b = m.boundaries
                let x = random.pick(b), y = random.pick(b)
                let range = min(x, y)..<max(x, y)
                let s = Self.words(&random, Self.quiet, 3)
                let label = "seed \(seed) step \(step)"
                switch random.below(m.marked == nil ? 11 : 5) {
                case 0, 1:
                    let before = (c.editingText, c.pendingSelection(in: .utf16))
                    let byIndex = random.chance(perMille: 300)
                    let changes = byIndex
                        ? c.replacePending(m.index(range.lowerBound)..<m.index(range.upperBound), with: s)
                        : c.replacePending(m.converted(range, unit), in: unit, with: s)
                    m.replace(range, s)
                    Self.check(c, m, "\(label): replace \(range) by \(s.debugDescription)")
                    let texts = changes.filter { $0.change == FieldChange.pendingChanged }.count
                    #expect(texts <= 1, "\(label): one pendingChanged, not \(texts)")
                    if (c.editingText, c.pendingSelection(in: .utf16)) != before {
                        c.undo()
                        #expect(c.editingText == before.0, "\(label): undo")
                        #expect(c.pendingSelection(in: .utf16) == before.1, "\(label): undo")
                        c.redo()
                        Self.check(c, m, "\(label): redo")
                    }
                case 2:
                    if random.chance(perMille: 300) {
                        c.setCaret(m.converted(range, unit).upperBound, in: unit)
                        m.selection = range.upperBound..<range.upperBound
                    } else {
                        c.selectPendingText(m.converted(range, unit), in: unit)
                        m.selection = range
                    }
                    m.marked = nil
                    Self.check(c, m, "\(label): select \(range)")
                case 3:
                    // Marks a range (Android's setComposingRegion), or ends
                    // the composition, typing the marked text.
                    if m.marked != nil && random.chance(perMille: 500) {
                        c.setMarkedRange(nil)
                        let end = m.marked!.upperBound
                        m.selection = end..<end
                        m.marked = nil
                    } else {
                        c.setMarkedRange(m.converted(range, unit), in: unit)
                        m.marked = range.isEmpty ? nil : range
                        m.selection = range.upperBound..<range.upperBound
                    }
                    Self.check(c, m, "\(label): mark \(range)")
                case 4:
                    // An input method's update replaces the marked text, or
                    // the selection; its end types the final text.
                    let target = m.marked ?? m.selection
                    if random.chance(perMille: 600) {
                        c.compositionUpdate(s)
                        m.replace(target, s)
                        m.marked = s.isEmpty ? nil : target.lowerBound..<(target.lowerBound + s.utf16.count)
                    } else {
                        c.compositionEnd(s)
                        // Ending no composition with nothing types nothing.
                        if !(s.isEmpty && m.marked == nil) { m.replace(target, s) }
                    }
                    Self.check(c, m, "\(label): composition \(s.debugDescription)")
                case 5, 6:
                    c.type(s)
                    if !s.isEmpty { m.replace(m.selection, s) }
                    Self.check(c, m, "\(label): type \(s.debugDescription)")
                case 7:
                    let caret = m.selection.upperBound
                    if !m.selection.isEmpty {
                        c.backspace()
                        m.replace(m.selection, "")
                    } else if caret > 0 {
                        c.backspace()
                        let prefix = String(m.text[..<m.index(caret)])
                        m.replace((caret - prefix.last!.utf16.count)..<caret, "")
                    }
                    Self.check(c, m, "\(label): backspace")
                case 8:
                    let caret = m.selection.upperBound
                    if !m.selection.isEmpty {
                        c.deleteForward()
                        m.replace(m.selection, "")
                    } else if caret < m.text.utf16.count {
                        c.deleteForward()
                        let next = m.text[m.index(caret)...].first!
                        m.replace(caret..<(caret + next.utf16.count), "")
                    }
                    Self.check(c, m, "\(label): delete forward")
                case 9:
                    // Left collapses a selection to its start, or moves a
                    // cluster (at the start it would commit: not here).
                    if !m.selection.isEmpty {
                        c.moveLeft()
                        m.selection = m.selection.lowerBound..<m.selection.lowerBound
                    } else if let to = m.clusters.last(where: { $0 < m.selection.upperBound }) {
                        c.moveLeft()
                        m.selection = to..<to
                    }
                    Self.check(c, m, "\(label): left")
                default:
                    if !m.selection.isEmpty {
                        c.moveRight()
                        m.selection = m.selection.upperBound..<m.selection.upperBound
                    } else if let to = m.clusters.first(where: { $0 > m.selection.upperBound }) {
                        c.moveRight()
                        m.selection = to..<to
                    }
                    Self.check(c, m, "\(label): right")
                }
            }
        }
    }

    /// Pieces of address lists: separators, quotes, comments, brackets.
    static let listPieces = [
        "Ann", " ", "Lee", "<", ">", "a@x.org", "b@y.org", "@", ",", ";", "\"", "(", ")", "é", "😀", ":", "x", ".", "\n",
    ]

    /// A replacement follows the rules of typing: its chips and pending
    /// text are those of deleting the pending text key by key and typing
    /// the text it becomes in one go (typing = pasting is held elsewhere).
    /// Before a commit they agree when the replacement ends the text (the
    /// rules for a key at the end apply to both); after one, always.
    @Test func replacingIsRetypingTheResult() {
        let seeds = TestScale.count(3_000, 600, "replace = retype the result")
        for seed in 0..<UInt64(seeds) {
            var random = SplitMix64(seed: 0x5EED &+ seed)
            let text = Self.words(&random, Self.listPieces, 12)
            var a = ChipField(name: "To")
            a.insert(text)
            let m = Model(text: a.editingText)
            let x = random.pick(m.boundaries), y = random.pick(m.boundaries)
            let range = min(x, y)..<max(x, y)
            let s = Self.words(&random, Self.listPieces, 4)
            let label = "seed \(seed): \(text.debugDescription), \(range) of \(m.text.debugDescription) by \(s.debugDescription)"
            var replaced = a.pending
            replaced.replaceSubrange(TextOffsets.byteRange(of: range, in: .utf16, in: replaced)!, with: Array(s.utf8))
            var b = a
            while !b.pending.isEmpty { b.backspace() }
            #expect(b.chips == a.chips, "\(label): deleting the pending text made a chip")
            b.insert(replaced)
            let changes = a.replacePending(range, in: .utf16, with: s)
            #expect(!changes.contains { if case .refused = $0 { true } else { false } }, "\(label)")
            if range.upperBound == m.text.utf16.count {
                #expect(a.chips.map(\.content.rawText) == b.chips.map(\.content.rawText), "\(label)")
                #expect(a.pendingText == b.pendingText, "\(label)")
            }
            a.commit()
            b.commit()
            #expect(a.chips.map(\.content.rawText) == b.chips.map(\.content.rawText), "\(label)")
            #expect(a.chips.map(\.content.error) == b.chips.map(\.content.error), "\(label)")
            a._checkInvariants()
        }
    }

    /// Positions off the text's boundaries are refused and change nothing.
    @Test(arguments: [
        (0..<3, TextUnit.utf16, "past the end"),
        (1..<1, TextUnit.utf16, "between the halves of a surrogate pair"),
        (0..<2, TextUnit.utf8, "inside a scalar"),
        (-1..<0, TextUnit.unicodeScalars, "before the start"),
    ])
    func offBoundariesIsRefused(_ range: Range<Int>, _ unit: TextUnit, _ label: String) {
        var c = Composer()
        c.type("😀")
        let before = (c.editingText, c.pendingSelection())
        for changes in [
            c.replacePending(range, in: unit, with: "x"), c.selectPendingText(range, in: unit),
            c.setMarkedRange(range, in: unit),
        ] {
            #expect(changes.map(\.change) == [.refused(Refusal(.invalidTextRange))], "\(label)")
        }
        #expect((c.editingText, c.pendingSelection()) == before, "\(label)")
    }

    /// A replacement that would overflow a limit is refused whole.
    @Test func aReplacementOverALimitChangesNothing() {
        var field = ChipField(name: "To", limits: FieldLimits(maxChips: 2, maxPendingBytes: 16))
        field.insert("Ann Lee")
        let before = field.editingText
        #expect(field.replacePending(0..<3, with: String(repeating: "x", count: 20)) == [.refused(Refusal(.pendingTooLong))])
        #expect(field.replacePending(0..<3, with: "a@x, b@x, c@x, d") == [.refused(Refusal(.tooManyChips))])
        #expect(field.editingText == before && field.count == 0)
        // Within the limits, the text the replacement completes makes chips.
        #expect(field.replacePending(0..<7, with: "a@x.org, Bo") != [])
        #expect(field.chips.map(\.content.rawText) == ["a@x.org"])
        #expect(field.editingText == "Bo")
    }

    /// The example of docs/editing.md, as written there.
    @Test func theGuidesExample() {
        var c = Composer()
        c.type("Zoë 😀 ann@x.orgg")
        c.replacePending(15..<17, in: .utf16, with: "g")
        #expect(c.editingText == "Zoë 😀 ann@x.org")
        #expect(c.pendingSelection(in: .utf16) == 16..<16)
        c.undo()
        #expect(c.editingText == "Zoë 😀 ann@x.orgg")
    }

    /// Typing over a selection replaces it; the rules of typing hold at the
    /// end (a space after a whole address makes its chip at once).
    @Test func typingOverASelection() {
        var c = Composer()
        c.type("ann@x.orgg")
        c.selectPendingText(9..<10)
        #expect(c.pendingSelection() == 9..<10)
        c.type(" ")
        #expect(c.focusedField.chips.map(\.content.rawText) == ["ann@x.org"])
        #expect(c.editingText.allSatisfy { $0 == " " })
        c.undo()
        #expect(c.editingText == "ann@x.orgg" && c.pendingSelection() == 9..<10)
    }

    /// The arrows go to the cluster boundaries of the whole pending text,
    /// even from a caret a host put inside a cluster; backspace deletes the
    /// last cluster of the text before the caret, however long the run of
    /// flags or extenders it closes (no bounded look-back is exact).
    @Test(arguments: [
        // text, caret (UTF-16), after left, after right
        ("👩\u{200D}👩\u{200D}👧x", 2, 0, 8),
        ("👩\u{200D}👩\u{200D}👧x", 3, 0, 8),
        ("e\u{301}\u{301}a", 1, 0, 3),
        ("🇺🇸🇬🇧", 2, 0, 4),
        ("🇺🇸🇬🇧", 6, 4, 8),
        (String(repeating: "🇫🇷", count: 17) + "🇫", 68, 64, 70),
        (String(repeating: "🇫🇷", count: 17) + "🇫", 66, 64, 68),
        ("a" + String(repeating: "\u{301}", count: 40), 20, 0, 41),
    ] as [(String, Int, Int, Int)])
    func arrowsGoToTheWholeTextsClusterBoundaries(_ text: String, _ caret: Int, _ left: Int, _ right: Int) {
        var c = Composer()
        c.type(text)
        c.setCaret(caret, in: .utf16)
        c.moveLeft()
        #expect(c.focusedField.caret(in: .utf16) == left, "left")
        c.setCaret(caret, in: .utf16)
        c.moveRight()
        #expect(c.focusedField.caret(in: .utf16) == right, "right")
    }

    /// Backspace after a run of 35 regional indicators deletes one: the
    /// run pairs from its start, and its last flag is unpaired.
    @Test func backspaceCountsFlagsFromTheRunsStart() {
        for count in [32, 33, 34, 35] {
            var c = Composer()
            let text = String(repeating: "\u{1F1EB}", count: count)
            c.type(text)
            c.backspace()
            let gone = count % 2 == 0 ? 2 : 1
            #expect(c.editingText.unicodeScalars.count == count - gone, "\(count) indicators")
        }
    }
}
