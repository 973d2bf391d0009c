import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
import ChipEditing
import ChipTestSupport

/// A construct left open (`<`, `"`, `(`, `[`) when the list ends (a commit,
/// a blur, the end of a paste, a line break, the end of a record) ends its
/// chip before the first `,` or `;` after its opener, and the rest is read
/// again; text of only comments is a chip in error. Tables of the rule, and
/// seeded lists where typing, pasting and parsing must agree.
@Suite("Recovery from unclosed constructs, and comment-only text")
struct RecoveryTests {
    /// Pasted into an empty field: the chips the paste makes, what stays
    /// pending, and the chips after a commit.
    @Test(arguments: [
        ("Ann <ann@x.org, b@x.org, c@x.org", ["Ann <ann@x.org", "b@x.org"], "c@x.org",
         ["Ann <ann@x.org", "b@x.org", "c@x.org"]),
        ("\"Lee, Ann <ann@x.org>, b@x.org", ["\"Lee", "Ann <ann@x.org>"], "b@x.org",
         ["\"Lee", "Ann <ann@x.org>", "b@x.org"]),
        ("a@x.org (call, b@y.org", ["a@x.org (call"], "b@y.org", ["a@x.org (call", "b@y.org"]),
        // A trailing line break is a separator: the last chip is made too.
        ("Ann <ann@x.org, b@x.org\r\n", ["Ann <ann@x.org", "b@x.org"], "", ["Ann <ann@x.org", "b@x.org"]),
        // A line break ends what is open on its line; the next line is a list.
        ("Ann <ann@x.org, b@x.org\nc@x.org", ["Ann <ann@x.org", "b@x.org"], "c@x.org",
         ["Ann <ann@x.org", "b@x.org", "c@x.org"]),
        // No separator after the opener: it may still be closed.
        ("Ann <ann@x.org", [], "Ann <ann@x.org", ["Ann <ann@x.org"]),
        ("\"Lee, Ann\" <ann@x.org", [], "\"Lee, Ann\" <ann@x.org", ["\"Lee, Ann\" <ann@x.org"]),
        // Comments alone are a chip.
        ("(call Bob first)", [], "(call Bob first)", ["(call Bob first)"]),
        ("a@x.org, (call Bob first), ", ["a@x.org", "(call Bob first)"], "", ["a@x.org", "(call Bob first)"]),
    ])
    func pastingEndsTheList(_ input: String, _ afterPaste: [String], _ pending: String, _ afterCommit: [String]) {
        var c = Composer(fields: [.to])
        c.paste(input)
        #expect(c.focusedField.chips.map { String(decoding: $0.content.raw, as: UTF8.self) } == afterPaste)
        #expect(c.focusedField.pendingText == pending)
        c.commit()
        #expect(c.focusedField.chips.map { String(decoding: $0.content.raw, as: UTF8.self) } == afterCommit)
        #expect(AddressList.parse(input).map(\.rawText) == afterCommit)
    }

    /// Typed key by key, nothing is recovered until the list ends, so the
    /// person can still close what they opened; a commit recovers as the
    /// end of a paste does.
    @Test func typingKeepsTheTextUntilTheListEnds() {
        var c = Composer(fields: [.to])
        for ch in "Ann <ann@x.org, b@x.org" { c.type(String(ch)) }
        #expect(c.focusedField.chips.isEmpty)
        #expect(c.focusedField.pendingText == "Ann <ann@x.org, b@x.org")
        c.type(">")
        c.commit()
        #expect(c.focusedField.chips.count == 1)
        var d = Composer(fields: [.to])
        for ch in "Ann <ann@x.org, b@x.org" { d.type(String(ch)) }
        d.commit()
        #expect(d.focusedField.chips.map { String(decoding: $0.content.raw, as: UTF8.self) } == ["Ann <ann@x.org", "b@x.org"])
        #expect(d.focusedField.chips.map { $0.content.error?.code } == ["unterminated-angle", nil])
    }

    /// `(call Bob first)` typed and committed does not empty the field: it
    /// is a chip whose error says why; a group's own comments are not.
    @Test(arguments: [
        ("(call Bob first)", ["comment-only"]),
        ("a@x.org, (note), b@y.org", [nil, "comment-only", nil]),
        ("(a) (b (nested))", ["comment-only"]),
        ("Team: (nobody);", [nil]),
        ("Team: a@x.org; (end of the group)", [nil]),
        ("Team: (a), b@y.org;", ["comment-only", nil]),
    ])
    func commentOnlyTextIsAChip(_ input: String, _ errors: [String?]) {
        var c = Composer(fields: [.to])
        for ch in input { c.type(String(ch)) }
        c.commit()
        #expect(c.focusedField.chips.map { $0.content.error?.code } == errors, "\(input)")
        #expect(AddressList.parse(input).map { $0.error?.code } == errors, "\(input)")
    }

    /// The bound: many unclosed openers, each followed by a separator, are
    /// read again at most `maxRecoveryRereads` times the text; the chips
    /// past the bound stay in the open chip, never lost.
    @Test func rereadingIsBounded() {
        let text = Array(String(repeating: "(a, ", count: 2_000).utf8) + Array("z@x.org".utf8)
        var scanner = ListScanner()
        var segments: [Segment] = []
        scanner.scan(text) { segments.append($0) }
        let reread = text.withUnsafeBufferPointer { scanner.recoverUnclosed($0, base: 0) { segments.append($0) } }
        #expect(reread > 0)
        #expect(reread <= ListScanner.maxRecoveryRereads * text.count)
        let chips = AddressList.parse(text)
        #expect(chips.count > 1)
        // Lossless: the chips' text and the separators between them are the input.
        var covered = 0
        for chip in chips { covered += chip.raw.count }
        #expect(covered <= text.count && covered >= text.count - 2 * 2_000)
    }
}
