import Testing
@testable import ChipifyCLI
import ChipKit
import ChipTestSupport

/// A compose session without a terminal: keys in, plain screens out.
struct ComposeSession {
    var controller: ComposeController

    static let sampleContacts: ContactDirectory = {
        let bytes = contents(packageRoot + "Corpus/contacts/sample.vcf")
        return ContactDirectory(ContactImporter.import(bytes).contacts)
    }()

    init(contacts: Bool = false, fields: [String] = ["to", "cc", "bcc"]) {
        var composer = Composer(fields: fields.map { FieldID($0)! })
        if contacts { composer.directory = ComposeSession.sampleContacts }
        controller = ComposeController(composer: composer)
    }

    /// Feeds the keys a terminal would send for `bytes`.
    @discardableResult
    mutating func keys(_ bytes: String) -> ComposeOutcome {
        var decoder = KeyDecoder()
        var outcome = ComposeOutcome.stay
        for key in decoder.feed(Array(bytes.utf8)) + decoder.flush() {
            outcome = controller.handle(key)
            if outcome != .stay { break }
        }
        return outcome
    }

    /// The screen as text, rows without trailing spaces, and the cursor.
    mutating func screen(width: Int, height: Int = 8) -> String {
        let s = controller.screen(width: width, height: height, style: .plain)
        var rows = s.rows.map { row in String(row.reversed().drop { $0 == " " }.reversed()) }
        rows.append("cursor \(s.cursorRow),\(s.cursorColumn)")
        return rows.joined(separator: "\n")
    }
}

@Suite("compose: screen")
struct ComposeScreenTests {
    static let scenarios: [(String, String, Bool)] = [
        ("valid", "Ann Lee <ann@example.org>, bob@example.com, ", false),
        ("error", "Ann Lee <ann@example.org>, bob@, ", false),
        ("warning", "carol@gmial.com, ", false),
        ("selected", "ann@example.org, bob@example.com, cy@example.net, \u{1B}[1;2D\u{1B}[1;2D", false),
        ("pending", "ann@example.org, Jiří Dvořák <ji", false),
        ("suggestions", "ann@example.org, cél\u{1B}[B", true),
        ("summaries", "Ann Lee <ann@example.org>, Bob Ray <bob@example.com>, Cy Young <cy@example.net>, Dee <dee@example.org>, Eve <eve@example.org>,\t", false),
        ("long field", "Ann Lee <ann@example.org>, Bob Ray <bob@example.com>, Cy Young <cy@example.net>, Dee <dee@example.org>, Eve <eve@example.org>, Fay <fay@example.org>, Gus <gus@example.org>, Hal <hal@example.org>, Ida <ida@example.org>, Jo <jo@example.org>, kim@example.org, lou@example.org, max@example.org, ned@example.org, oz@example.org, pam@example.org, quin@example.org, rob@example.org,\t", false),
    ]

    /// Each state at three widths (and 30, where a summary names one chip).
    /// Rows are compared without trailing spaces, with the cursor's place.
    static let screens: [(String, Int, String)] = [
        ("valid", 20, """
        To:  [Ann Lee]
             [bob@example.…]
        
        Cc:
        Bcc:
        
        bob@example.com, 2…
        cursor 2,5
        """),
        ("valid", 40, """
        To:  [Ann Lee] [bob@example.com]
        Cc:
        Bcc:
        
        
        
        bob@example.com, 2 of 2
        cursor 0,33
        """),
        ("valid", 80, """
        To:  [Ann Lee] [bob@example.com]
        Cc:
        Bcc:
        
        
        
        bob@example.com, 2 of 2
        cursor 0,33
        """),
        ("error", 20, """
        To:  [Ann Lee]
             [!bob@]
        Cc:
        Bcc:
        
        
        bob@, invalid addre…
        cursor 1,13
        """),
        ("error", 40, """
        To:  [Ann Lee] [!bob@]
        Cc:
        Bcc:
        
        
        
        bob@, invalid address: nothing after th…
        cursor 0,23
        """),
        ("error", 80, """
        To:  [Ann Lee] [!bob@]
        Cc:
        Bcc:
        
        
        
        bob@, invalid address: nothing after the @, 2 of 2
        cursor 0,23
        """),
        ("warning", 20, """
        To:  [?carol@gmial…]
        
        Cc:
        Bcc:
        
        
        carol@gmial.com, wa…
        cursor 1,5
        """),
        ("warning", 40, """
        To:  [?carol@gmial.com]
        Cc:
        Bcc:
        
        
        
        carol@gmial.com, warning: the domain ma…
        cursor 0,24
        """),
        ("warning", 80, """
        To:  [?carol@gmial.com]
        Cc:
        Bcc:
        
        
        
        carol@gmial.com, warning: the domain may be misspelled: did you mean gmail.com?…
        cursor 0,24
        """),
        ("selected", 20, """
        To:  [ann@example.…]
             {bob@example.…}
             {cy@example.n…}
        
        Cc:
        Bcc:
        bob@example.com, se…
        cursor 3,5
        """),
        ("selected", 40, """
        To:  [ann@example.org] {bob@example.com}
             {cy@example.net}
        Cc:
        Bcc:
        
        
        bob@example.com, selected, 2 of 3
        cursor 1,22
        """),
        ("selected", 80, """
        To:  [ann@example.org] {bob@example.com} {cy@example.net}
        Cc:
        Bcc:
        
        
        
        bob@example.com, selected, 2 of 3
        cursor 0,58
        """),
        ("pending", 20, """
        To:  [ann@example.…]
             …ří Dvořák <ji
        Cc:
        Bcc:
        
        
        Ctrl-S send · Ctrl-…
        cursor 1,19
        """),
        ("pending", 40, """
        To:  [ann@example.org] Jiří Dvořák <ji
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-C quit · Ctrl-N next…
        cursor 0,38
        """),
        ("pending", 80, """
        To:  [ann@example.org] Jiří Dvořák <ji
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-C quit · Ctrl-N next field · Ctrl-Z undo
        cursor 0,38
        """),
        ("suggestions", 20, """
             cél
        > Céline Dubois <ce…
          Céline Jérôme Mor…
          Céline Noël Lefèv…
        Cc:
        Bcc:
        Ctrl-S send · Ctrl-…
        cursor 0,8
        """),
        ("suggestions", 40, """
        To:  [ann@example.org] cél
        > Céline Dubois <celine.dubois@proton.m…
          Céline Jérôme Moreau <moreau4@hotmail…
          Céline Noël Lefèvre <clefevre@aol.com>
        Cc:
        Bcc:
        Ctrl-S send · Ctrl-C quit · Ctrl-N next…
        cursor 0,26
        """),
        ("suggestions", 80, """
        To:  [ann@example.org] cél
        > Céline Dubois <celine.dubois@proton.me>
          Céline Jérôme Moreau <moreau4@hotmail.co.uk>
          Céline Noël Lefèvre <clefevre@aol.com>
        Cc:
        Bcc:
        Ctrl-S send · Ctrl-C quit · Ctrl-N next field · Ctrl-Z undo
        cursor 0,26
        """),
        ("summaries", 20, """
        To:  +5
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-…
        cursor 1,5
        """),
        ("summaries", 30, """
        To:  Ann Lee and 4 more
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-C quit · C…
        cursor 1,5
        """),
        ("summaries", 40, """
        To:  [Ann Lee] [Bob Ray] [Cy Young]
             [Dee] [Eve]
        Cc:
        Bcc:
        
        
        Ctrl-S send · Ctrl-C quit · Ctrl-N next…
        cursor 2,5
        """),
        ("summaries", 80, """
        To:  [Ann Lee] [Bob Ray] [Cy Young] [Dee] [Eve]
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-C quit · Ctrl-N next field · Ctrl-Z undo
        cursor 1,5
        """),
        ("long field", 20, """
        To:  +18
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-…
        cursor 1,5
        """),
        ("long field", 40, """
        To:  Ann Lee, Bob Ray and 16 more
        Cc:
        Bcc:
        
        
        
        Ctrl-S send · Ctrl-C quit · Ctrl-N next…
        cursor 1,5
        """),
        ("long field", 80, """
        To:  [Ann Lee] [Bob Ray] [Cy Young] [Dee] [Eve] [Fay] [Gus] [Hal] [Ida] [Jo]
             [kim@example.org] [lou@example.org] [max@example.org] [ned@example.org]
             [oz@example.org] [pam@example.org] [quin@example.org] [rob@example.org]
        Cc:
        Bcc:
        
        Ctrl-S send · Ctrl-C quit · Ctrl-N next field · Ctrl-Z undo
        cursor 3,5
        """),
    ]

    @Test(arguments: screens.indices)
    func rendersEachChipStateAtEachWidth(_ k: Int) {
        let (name, width, expected) = Self.screens[k]
        let (keys, contacts) = Self.scenarios.first { $0.0 == name }.map { ($0.1, $0.2) }!
        var s = ComposeSession(contacts: contacts)
        s.keys(keys)
        #expect(s.screen(width: width, height: 7) == expected, "\(name) at \(width)")
    }
}

@Suite("compose: styles and redrawing")
struct ComposeStyleTests {
    @Test func errorChipsAreRedAndBoldAndMarkedWithoutColourToo() {
        var s = ComposeSession()
        s.keys("bob@, ann@example.org, ")
        let colour = s.controller.screen(width: 40, height: 4, style: .full).rows[0]
        #expect(colour.contains("\u{1B}[1;31m[!bob@]\u{1B}[0m"))
        #expect(colour.contains("\u{1B}[36m[ann@example.org]\u{1B}[0m"))
        let noColour = s.controller.screen(width: 40, height: 4, style: ComposeStyle(attributes: true, colors: false)).rows[0]
        #expect(noColour.contains("\u{1B}[1m[!bob@]\u{1B}[0m"))
        #expect(!noColour.contains("\u{1B}[31m") && !noColour.contains("\u{1B}[36m"))
    }

    @Test func selectedChipsAreReversed() {
        var s = ComposeSession()
        s.keys("ann@example.org, \u{1B}[1;2D")
        #expect(s.controller.screen(width: 40, height: 4, style: .full).rows[0].contains("\u{1B}[7;36m{ann@example.org}"))
    }

    @Test func aKeystrokeRedrawsOnlyTheRowsThatChanged() {
        var s = ComposeSession()
        s.keys("ann@example.org, bob@example.org, ")
        let before = s.controller.screen(width: 40, height: 6, style: .plain)
        s.keys("c")
        let after = s.controller.screen(width: 40, height: 6, style: .plain)
        let drawn = String(decoding: after.drawing(from: before), as: UTF8.self)
        // Row 2 (the pending text's row) and the status row, nothing else.
        let rowMoves = drawn.split(separator: "\u{1B}[").filter { $0.hasSuffix(";1H") || $0.contains(";1H") }
        #expect(rowMoves.count == 2, "\(drawn.debugDescription)")
        #expect(drawn.contains("\u{1B}[2;1H"))
        #expect(drawn.contains("\u{1B}[6;1H"))
        // A first drawing clears the screen and writes every row.
        #expect(String(decoding: after.drawing(from: nil), as: UTF8.self).hasPrefix("\u{1B}[?25l\u{1B}[H\u{1B}[2J"))
    }

    @Test(arguments: [1, 2, 5, 20, 80, 200])
    func noRowIsWiderThanTheTerminal(_ width: Int) {
        var s = ComposeSession(contacts: true)
        s.keys("Annabelle Lee-Hargreaves <annabelle@example.org>, 李小龍 <li@example.cn>, bob@, 🙂@example.org, cél")
        for height in [1, 3, 24] {
            let screen = s.controller.screen(width: width, height: height, style: .plain)
            #expect(screen.rows.count == height)
            for row in screen.rows { #expect(TerminalWidth().width(of: row) <= width, "\(row)") }
            #expect(screen.cursorRow < height && screen.cursorColumn < width)
        }
    }
}

@Suite("compose: keys to composer operations")
struct ComposeControllerTests {
    @Test func controlSSendsTheFoldedHeaderBlock() {
        var s = ComposeSession()
        s.keys("Ann Lee <ann@example.org>, Jiří <jiri@example.cz>\t\tcc@example.org\r")
        let outcome = s.keys("\u{13}")
        #expect(outcome == .sent("To: Ann Lee <ann@example.org>, =?UTF-8?B?SmnFmcOt?= <jiri@example.cz>\nCc: cc@example.org\n"))
    }

    @Test func sendIsRefusedWithTheReasonsOnTheStatusLine() {
        var s = ComposeSession()
        #expect(s.keys("\u{13}") == .stay)
        #expect(s.controller.ui.message == "Not sent: no recipient")
        s.keys("bob@, ann@example.org, pend")
        #expect(s.keys("\u{13}") == .stay)
        #expect(s.controller.ui.message == "Not sent: 1 chip in error; text not made a chip in To")
    }

    /// With a draft to keep unsent work, Escape and Ctrl-C leave at once
    /// (without one they ask first: see ComposeLeavingTests).
    @Test func escapeAndControlCLeave() {
        var s = ComposeSession()
        s.controller.keepsDraft = true
        #expect(s.keys("a\u{03}") == .cancelled)
        var t = ComposeSession()
        t.controller.keepsDraft = true
        #expect(t.keys("a\u{1B}") == .cancelled)
    }

    @Test func backspaceSelectsThenDeletesAndUndoBringsItBack() {
        var s = ComposeSession()
        s.keys("ann@example.org, bob@example.org, ")
        s.keys("\u{7F}")
        #expect(s.controller.composer.focusedField.selection.count == 1)
        s.keys("\u{7F}")
        #expect(s.controller.composer.focusedField.count == 1)
        s.keys("\u{1A}")
        #expect(s.controller.composer.focusedField.count == 2)
        s.keys("\u{19}")
        #expect(s.controller.composer.focusedField.count == 1)
    }

    @Test func controlNMovesTheSelectionToTheNextFieldAndFollowsIt() {
        var s = ComposeSession()
        s.keys("ann@example.org, bob@example.org, \u{1B}[1;2D\u{0E}")
        #expect(s.controller.composer.fields[0].chips.map(\.content.address) == ["ann@example.org"])
        #expect(s.controller.composer.fields[1].chips.map(\.content.address) == ["bob@example.org"])
        #expect(s.controller.ui.message == "Moved 1 chip to Cc")
        #expect(s.controller.composer.focusedIndex == 1)
        s.keys("\u{0E}")
        #expect(s.controller.composer.fields[2].chips.map(\.content.address) == ["bob@example.org"])
        #expect(s.controller.composer.fields[1].count == 0)
        #expect(s.controller.composer.focusedField.selection.count == 1)
    }

    @Test func altArrowsReorderTheSelectedChip() {
        var s = ComposeSession()
        s.keys("a@example.org, b@example.org, c@example.org, \u{1B}[1;2D\u{1B}[1;3D\u{1B}[1;3D")
        #expect(s.controller.composer.fields[0].chips.map(\.content.address) == ["c@example.org", "a@example.org", "b@example.org"])
    }

    @Test func controlEEditsTheChipBeforeTheCaret() {
        var s = ComposeSession()
        s.keys("ann@exampel.org, \u{05}")
        #expect(s.controller.composer.focusedField.pendingText == "ann@exampel.org")
        s.keys("\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}le.org\r")
        #expect(s.controller.composer.fields[0].chips.map(\.content.address) == ["ann@example.org"])
    }

    @Test func upAndDownChooseASuggestionAndReturnTakesIt() {
        var s = ComposeSession(contacts: true)
        s.keys("céline")
        #expect(s.controller.ui.suggestions.count >= 2)
        let second = s.controller.ui.suggestions[1]
        s.keys("\u{1B}[B\u{1B}[B\r")
        #expect(s.controller.composer.fields[0].chips.map(\.content.address) == [second.address])
        #expect(s.controller.ui.suggestions.isEmpty)
    }

    @Test func controlOListsAContactsOtherAddressesAndReturnTakesOne() throws {
        var s = ComposeSession(contacts: true)
        s.keys("sarah james")
        let first = try #require(s.controller.ui.suggestions.first)
        s.keys("\u{1B}[B\r")
        #expect(s.controller.composer.fields[0].chips.map(\.content.address) == [first.address])
        s.keys("\u{0F}")
        let others = s.controller.ui.alternates.map(\.address)
        #expect(!others.isEmpty && !others.contains(first.address!))
        #expect(s.screen(width: 80, height: 5).contains("> \(others[0])"))
        s.keys("\r")
        #expect(s.controller.composer.fields[0].chips.map(\.content.address) == [others[0]])
        #expect(s.controller.composer.fields[0][0].content.displayName == first.name)
        #expect(s.controller.ui.alternates.isEmpty)
    }

    @Test func withoutSuggestionsUpAndDownMoveBetweenFields() {
        var s = ComposeSession()
        s.keys("\u{1B}[B")
        #expect(s.controller.composer.focusedIndex == 1)
        s.keys("\u{1B}[B\u{1B}[B")
        #expect(s.controller.composer.focusedIndex == 0)
        s.keys("\u{1B}[Z")
        #expect(s.controller.composer.focusedIndex == 2)
    }

    @Test func aPastedListBecomesChipsInOneUndoStep() {
        var s = ComposeSession()
        s.keys("\u{1B}[200~Ann <ann@example.org>; bob@example.org,\ncy@example.org\u{1B}[201~")
        #expect(s.controller.composer.fields[0].count == 2)
        #expect(s.controller.composer.fields[0].pendingText == "cy@example.org")
        s.keys("\u{1A}")
        #expect(s.controller.composer.fields[0].count == 0)
    }
}

@Suite("compose: the label memo")
struct ComposeMemoTests {
    static let keys: [String] = [
        "ann@example.org, ", "bob@", ", ", "Jiří <j@example.cz>; ", "cél", "carol@gmial.com ", "x", "\u{7F}",
        "\u{1B}[3~", "\u{1B}[D", "\u{1B}[C", "\u{1B}[1;2D", "\u{1B}[1;2C", "\u{1B}[1;3D", "\u{1B}[1;3C", "\u{1A}",
        "\u{19}", "\u{05}", "\u{0E}", "\u{01}", "\u{0F}", "\t", "\u{1B}[Z", "\r", "\u{1B}[A", "\u{1B}[B", "\u{1B}[H",
        "\u{1B}[F", "\u{1B}[200~dee@example.org, eve@, fay@example.org\u{1B}[201~", "\u{13}",
    ]

    /// After every key of seeded random sessions, the screen drawn with
    /// the controller's memo of labels equals one drawn measuring every chip.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func screensWithTheMemoEqualScreensWithout(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var s = ComposeSession(contacts: true)
        for step in 0..<300 {
            let key = Self.keys[Int(rng.next() % UInt64(Self.keys.count))]
            if s.keys(key) != .stay { break }
            let width = [20, 40, 80][step % 3]
            let memo = s.controller.screen(width: width, height: 10, style: .full)
            var fresh = ChipCells()
            let direct = ComposeScreen(
                composer: s.controller.composer, ui: s.controller.ui, width: width, height: 10, style: .full,
                cells: &fresh)
            #expect(memo == direct, "seed \(seed), step \(step), key \(key.debugDescription)")
            if memo != direct { return }
        }
    }
}

/// The compose field says how to use what it shows: an `ambiguous` chip
/// offers its candidates (Ctrl-O, or Return on the chip selected) and the
/// status line says so; a likely typo names the domain meant.
@Suite("Compose explains itself")
struct ComposeExplainsItselfTests {
    @Test func anAmbiguousChipOffersItsCandidatesAndSaysHow() throws {
        var s = ComposeSession(contacts: true)
        s.keys("céli, ")
        let chip = s.controller.composer.fields[0][0]
        #expect(chip.content.error == .ambiguous)
        let n = chip.candidates.count
        #expect(n >= 2)
        #expect(s.screen(width: 140, height: 6).contains("Ctrl-O or Return on the chip: choose one of \(n)"))
        s.keys("\u{0F}")
        #expect(s.controller.ui.candidates == chip.candidates)
        let screen = s.screen(width: 140, height: 8)
        #expect(screen.contains("Several contacts match"))
        #expect(screen.contains("> "), "the first candidate is highlighted: \(screen)")
        s.keys("\u{1B}[B\r")
        let chosen = s.controller.composer.fields[0][0]
        #expect(chosen.content.error == nil)
        #expect(chosen.contact == chip.candidates[1].contact)
        #expect(chosen.content.address == chip.candidates[1].address)
        #expect(s.controller.ui.candidates.isEmpty)
    }

    @Test func returnOnTheSelectedAmbiguousChipOffersItsCandidates() {
        var s = ComposeSession(contacts: true)
        s.keys("céli, ")
        s.keys("\u{7F}")  // selects the chip
        #expect(s.controller.composer.focusedField.selection.count == 1)
        s.keys("\r")
        #expect(!s.controller.ui.candidates.isEmpty)
        s.keys("\u{1B}[A")  // Up from the first row leaves the highlight, Return then closes without choosing
        s.keys("\u{0F}")
        #expect(!s.controller.ui.candidates.isEmpty)
        // A chip that is not ambiguous: Ctrl-O says there is nothing else.
        var t = ComposeSession(contacts: true)
        t.keys("zed@nowhere.example, \u{0F}")
        #expect(t.controller.ui.candidates.isEmpty)
        #expect(t.screen(width: 100, height: 5).contains("This chip has no other address"))
    }

    @Test func aLikelyTypoNamesTheDomainMeant() {
        var s = ComposeSession()
        s.keys("ann@gmial.com, ")
        #expect(s.screen(width: 140, height: 5).contains("the domain may be misspelled: did you mean gmail.com?"))
    }
}
