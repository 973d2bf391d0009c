import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

/// What a chip is, for comparing fields with parsed lists.
struct ChipSummary: Equatable, CustomStringConvertible {
    var raw: String
    var name: String?
    var address: String?
    var error: String?
    var group: String?

    init(_ c: ParsedChip) {
        raw = c.rawText
        name = c.displayName
        address = c.address
        error = c.error?.code
        group = c.group
    }

    var description: String { "\(raw.debugDescription)→\(address ?? "nil")\(error.map { " !" + $0 } ?? "")" }
}

func typeKeys(_ field: inout ChipField, _ text: String) {
    for ch in text { field.insert(String(ch)) }
}

@Suite("Chip field")
struct ChipFieldTests {
    @Test func typingASeparatorMakesAChip() {
        var f = ChipField(name: "to")
        typeKeys(&f, "ann@x.org")
        #expect(f.count == 0)
        #expect(f.pendingText == "ann@x.org")
        let changes = f.insert(",")
        #expect(f.count == 1)
        #expect(f[0].content.address == "ann@x.org")
        #expect(f.pendingText == "")
        #expect(changes.contains(.inserted(f[0].id, at: 0)))
        #expect(changes.contains(.pendingChanged))
    }

    /// A line break that ends a paste is a separator: the last chip is
    /// made, and a group left open closes, nothing stays pending.
    @Test(arguments: [
        ("a@x.org\nb@x.org\r\n", [nil, nil]), ("a@x.org\nb@x.org\n", [nil, nil]),
        ("a@x.org\r\nb@x.org\r", [nil, nil]), ("a@x.org, b@x.org \n", [nil, nil]),
        ("Team: a@x.org, b@x.org\r\n", ["Team", "Team"]),
    ] as [(String, [String?])])
    func aPastesTrailingLineBreakMakesTheLastChip(_ text: String, _ groups: [String?]) {
        var f = ChipField(name: "to")
        f.insert(text)
        #expect(f.chips.map(\.content.address) == ["a@x.org", "b@x.org"], "\(text.debugDescription)")
        #expect(f.chips.map(\.content.group) == groups)
        #expect(f.pendingText == "")
        // What is typed next starts a new chip, outside the group.
        f.insert("c@x.org,")
        #expect(f.chips.map(\.content.group) == groups + [nil])
    }

    /// A space or tab typed right after such a break folds it (RFC 5322
    /// §3.2.2), as in the list read whole: the chip is reopened.
    @Test(arguments: ["Ann\r\n", "Ann\r", "Ann\n"])
    func aSpaceAfterThePastedBreakFoldsIt(_ text: String) {
        var f = ChipField(name: "to")
        f.insert(text)
        #expect(f.count == 1 && f.pendingText == "")
        if text.hasSuffix("\r") { f.insert("\n") }
        typeKeys(&f, " <a@x.org>")
        f.commit()
        let whole = text.hasSuffix("\r") ? text + "\n" : text
        #expect(f.chips.map(\.content.rawText) == [whole + " <a@x.org>"])
        #expect(f.chips.map(\.content.address) == ["a@x.org"])
    }

    /// Seeded pastes of lists ending in a line break: the field's chips
    /// are the list's, at once, with no pending text.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func pastesEndingInALineBreakLeaveNothingPending(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let breaks = ["\n", "\r\n", "\r", " \r\n", ",\n", ";\r\n"]
        let shapes = ["%", "Ann <%>", "% (Ann)", "\"Lee, Ann\" <%>", "Team: %", "Team: %;"]
        for _ in 0..<50 {
            var text = ""
            for k in 0..<(Int(rng.next() % 4) + 1) {
                let shape = shapes[Int(rng.next() % UInt64(shapes.count))]
                text += String(shape.map { $0 == "%" ? "p\(k)@x.org" : String($0) }.joined())
                text += breaks[Int(rng.next() % UInt64(breaks.count))]
            }
            var f = ChipField(name: "to")
            f.insert(text)
            let expected = AddressList.parse(text)
            #expect(f.pendingText == "", "seed \(seed): \(text.debugDescription)")
            #expect(f.chips.map { ChipSummary($0.content) } == expected.map { ChipSummary($0) },
                    "seed \(seed): \(text.debugDescription)")
        }
    }

    @Test func commaInsideQuotesOrCommentsDoesNotCommit() {
        var f = ChipField(name: "to")
        typeKeys(&f, "\"Doe, Jane\" <j@x.io> (a, b), Ann <a@y.org>")
        #expect(f.count == 1)
        #expect(f[0].content.displayName == "Doe, Jane")
        #expect(f.pendingText == "Ann <a@y.org>")
    }

    @Test func pasteMakesManyChipsAndLeavesTheTailPending() {
        var f = ChipField(name: "to")
        let changes = f.insert("\"Doe, Jane\" <j@x.io>, Ann <a@y.org>, bo")
        #expect(f.chips.map(\.content.address) == ["j@x.io", "a@y.org"])
        #expect(f.pendingText == "bo")
        #expect(changes.filter { if case .inserted = $0 { true } else { false } }.count == 2)
    }

    @Test func compositionNeverCommits() {
        var f = ChipField(name: "to")
        f.insert("a@x.org")
        f.compositionUpdate("，")  // a full-width comma being composed
        #expect(f.count == 0)
        #expect(f.markedText == "，")
        f.compositionUpdate(", ")
        #expect(f.count == 0)
        f.compositionEnd(", ")
        #expect(f.count == 1)
        #expect(f.markedText == "")
    }

    @Test func commitTurnsPendingTextIntoChipsAndIgnoresEmptyText() {
        var f = ChipField(name: "to")
        #expect(f.commit().isEmpty)
        f.insert("a@x.org b")
        #expect(f.count == 1)
        f.commit()
        #expect(f.chips.map(\.content.rawText) == ["a@x.org", "b"])
        #expect(f[1].state == .error)
        #expect(f[1].content.error == .missingAt)
        #expect(f.commit().isEmpty)
    }

    @Test func backspaceSelectsThenDeletes() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, b@y.org, ")
        let select = f.backspace()
        #expect(select == [.selectionChanged])
        #expect(f.isSelected(f[1].id))
        #expect(f.count == 2)
        let id = f[1].id
        let delete = f.backspace()
        #expect(f.count == 1)
        #expect(delete.contains(.removed(id, at: 1)))
        #expect(f.selection.isEmpty)
    }

    @Test func forwardDeleteMirrorsBackspace() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, b@y.org, ")
        f.moveCaret(toChipIndex: 0)
        f.deleteForward()
        #expect(f.isSelected(f[0].id))
        f.deleteForward()
        #expect(f.chips.map(\.content.address) == ["b@y.org"])
    }

    @Test(arguments: [
        ("ab👨‍👩‍👧‍👦", "ab"),          // a family emoji is one cluster
        ("cafe\u{301}", "caf"),       // e + combining acute accent
        ("x🇫🇷", "x"),                  // a flag: two regional indicators
        ("abc", "ab"),
    ])
    func backspaceDeletesOneGraphemeCluster(_ typed: String, _ left: String) {
        var f = ChipField(name: "to")
        f.insert(typed)
        f.backspace()
        #expect(f.pendingText == left)
    }

    @Test func backspaceOnInvalidUTF8DeletesOneByte() {
        var f = ChipField(name: "to")
        f.insert([0x61, 0xFF, 0xFE])
        f.backspace()
        #expect(f.pending == [0x61, 0xFF])
    }

    @Test func typingBetweenChips() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, c@z.org, ")
        f.moveCaret(toChipIndex: 1)
        typeKeys(&f, "b@y.org,")
        #expect(f.chips.map(\.content.address) == ["a@x.org", "b@y.org", "c@z.org"])
        #expect(f.insertionIndex == 2)
    }

    @Test func typingInsideThePendingTextRescansIt() {
        var f = ChipField(name: "to")
        f.insert("a@x.orgb@y.org")
        for _ in 0..<7 { f.moveLeft() }
        #expect(f.caret == 7)
        f.insert(", ")
        #expect(f.chips.map(\.content.address) == ["a@x.org"])
        #expect(f.pendingText == "b@y.org")
        #expect(f.caret == 0)
    }

    @Test func selectionRangesAndToggles() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, b@x.org, c@x.org, d@x.org, ")
        f.select(1)
        f.select(3, extend: true)
        #expect(f.selection == Set([f[1].id, f[2].id, f[3].id]))
        f.select(2, toggle: true)
        #expect(f.selection == Set([f[1].id, f[3].id]))
        f.backspace()
        #expect(f.chips.map(\.content.address) == ["a@x.org", "c@x.org"])
    }

    @Test func editKeepsIdentityWhenStillOneChip() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, bob@y, c@z.org, ")
        let id = f[1].id
        #expect(f[1].content.error == nil)  // single-label domains warn only
        f.edit(at: 1)
        #expect(f.count == 2)
        #expect(f.pendingText == "bob@y")
        #expect(f.insertionIndex == 1)
        f.insert(".org")
        f.commit()
        #expect(f.count == 3)
        #expect(f[1].id == id)
        #expect(f[1].content.address == "bob@y.org")
        #expect(f.chips.map(\.content.address) == ["a@x.org", "bob@y.org", "c@z.org"])
    }

    @Test func editThatBecomesTwoChipsKeepsIdentityOnTheFirst() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, ")
        let id = f[0].id
        f.edit(at: 0)
        f.insert(", b@y.org")
        f.commit()
        #expect(f.chips.map(\.content.address) == ["a@x.org", "b@y.org"])
        #expect(f[0].id == id)
        #expect(f[1].id != id)
    }

    @Test func reorderKeepsIdentities() {
        var f = ChipField(name: "to")
        f.insert("a@x.org, b@x.org, c@x.org, ")
        let ids = f.chips.map(\.id)
        let changes = f.move(from: 0, to: 2)
        #expect(changes == [.moved(ids[0], from: 0, to: 2)])
        #expect(f.chips.map(\.id) == [ids[1], ids[2], ids[0]])
        f.select(1)
        f.select(2, extend: true)
        f.moveSelection(to: 0)
        #expect(f.chips.map(\.id) == [ids[2], ids[0], ids[1]])
    }

    @Test func limitsRefuseInsteadOfCrashing() {
        var f = ChipField(name: "to", limits: FieldLimits(maxChips: 2, maxPendingBytes: 10))
        let tooLong = f.insert("\"this is more than ten bytes")
        #expect(tooLong == [.refused(Refusal(.pendingTooLong))])
        #expect(f.pendingText == "")
        f.insert("a@x.org, b@x.org, ")
        #expect(f.count == 2)
        let third = f.insert("c@x.org, ")
        #expect(third == [.refused(Refusal(.tooManyChips))])
        #expect(f.count == 2)
    }

    @Test func groupsTypedInAFieldKeepTheirName() {
        var f = ChipField(name: "to")
        typeKeys(&f, "Team: a@x.org, b@y.org; c@z.org,")
        #expect(f.chips.map(\.content.group) == ["Team", "Team", nil])
        var g = ChipField(name: "to")
        typeKeys(&g, "undisclosed-recipients:;")
        #expect(g.count == 1)
        #expect(g[0].content.kind == .emptyGroup)
    }
}

@Suite("Chip field: typing equals parsing")
struct FieldDifferentialTests {
    static let pieces = [
        "ann@example.com", "Ann Lee <ann@x.org>", "\"Lee, Ann\" <l@y.org>", "b@", "Team: t@z.org, u@z.org;",
        "c@d.org (C)", ", ", "; ", " ", "\n", "é", "<x@y.org", "\"q", "(", ")", "@", "x", ".", "mailto:m@n.org",
        "=?UTF-8?Q?Andr=C3=A9?= <a@b.org>", "undisclosed-recipients:;",
    ]

    /// Typed key by key, pasted in random pieces, or both: the chips after
    /// a commit are those of parsing the same text at once.
    @Test(arguments: 0..<300)
    func typingInPiecesGivesTheSameChips(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 31)
        var text = ""
        for _ in 0..<(1 + rng.below(12)) { text += Self.pieces[rng.below(Self.pieces.count)] }
        let bytes = Array(text.utf8)
        var f = ChipField(name: "to")
        var i = 0
        while i < bytes.count {
            let n = rng.below(3) == 0 ? 1 + rng.below(12) : 1
            let end = min(bytes.count, i + n)
            f.insert(Array(bytes[i..<end]))
            i = end
        }
        f.commit()
        let expected = AddressList.parse(bytes).map(ChipSummary.init)
        #expect(f.chips.map { ChipSummary($0.content) } == expected, "seed \(seed): \(text.debugDescription)")
    }

    /// Pieces that cannot leave a quote, comment or bracket open.
    static let closedPieces = pieces.filter { !["<x@y.org", "\"q", "(", ")"].contains($0) }

    /// Random operations: whatever happens, identities stay unique, the
    /// caret stays in range, and the field's own text parses back to its
    /// chips (whenever no chip holds an unterminated quote, comment or
    /// bracket, which would swallow the text after it).
    @Test(arguments: 0..<200)
    func randomEditsKeepTheFieldConsistent(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 977)
        var f = ChipField(name: "to")
        for _ in 0..<60 {
            switch rng.below(12) {
            case 0, 1, 2: f.insert(Self.closedPieces[rng.below(Self.closedPieces.count)])
            case 3: f.backspace()
            case 4: f.deleteForward()
            case 5: f.moveLeft()
            case 6: f.moveRight()
            case 7: if f.count > 0 { f.edit(at: rng.below(f.count)) }
            case 8: f.commit()
            case 9: if f.count > 0 { f.select(rng.below(f.count), extend: rng.below(2) == 0) }
            case 10: if f.count > 1 { f.move(from: rng.below(f.count), to: rng.below(f.count)) }
            default: f.moveCaret(toChipIndex: rng.below(f.count + 1))
            }
            #expect(f.insertionIndex >= 0 && f.insertionIndex <= f.count, "seed \(seed)")
            #expect(f.caret >= 0 && f.caret <= f.pending.count, "seed \(seed)")
        }
        f.commit()
        #expect(Set(f.chips.map(\.id)).count == f.count, "seed \(seed)")
        let open: Set<ChipError> = [.unterminatedQuote, .unbalancedComment, .unterminatedAngle,
                                    .unterminatedDomainLiteral, .tooLong]
        if f.chips.contains(where: { $0.content.error.map(open.contains) ?? false }) { return }
        let reparsed = AddressList.parse(f.renderedText).map(ChipSummary.init)
        #expect(f.chips.map { ChipSummary($0.content) } == reparsed,
                "seed \(seed): \(String(decoding: f.renderedText, as: UTF8.self).debugDescription)")
    }
}

@Suite("Chip field: work per keystroke")
struct FieldWorkTests {
    /// Typing the next address key by key scans only what is typed, in a
    /// field of 10, 1,000 or 100,000 chips alike.
    @Test(arguments: [10, 1_000, 100_000])
    func bytesScannedPerKeystrokeDoNotGrowWithChips(chips: Int) {
        var f = ChipField(name: "to")
        var list: [UInt8] = []
        for k in 0..<chips { list += Array("user\(k)@example.com, ".utf8) }
        f.insert(list)
        #expect(f.count == chips)
        let before = f.bytesScanned
        let next = "Next Person <next.person@example.org>, "
        typeKeys(&f, next)
        #expect(f.count == chips + 1)
        #expect(f.bytesScanned - before == next.utf8.count)
    }

    @Test(arguments: [10, 100_000])
    func editingInsideTextRescansOnlyThePendingText(chips: Int) {
        var f = ChipField(name: "to")
        var list: [UInt8] = []
        for k in 0..<chips { list += Array("u\(k)@example.com, ".utf8) }
        f.insert(list)
        f.insert("abc@example.org")
        f.moveLeft()
        let before = f.bytesScanned
        f.insert("d")
        // The whole pending text, "abc@example.ordg", is scanned again, and nothing else.
        #expect(f.pendingText == "abc@example.ordg")
        #expect(f.bytesScanned - before == "abc@example.ordg".utf8.count)
    }
}
