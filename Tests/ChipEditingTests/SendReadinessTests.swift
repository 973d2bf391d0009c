import Testing
import ChipSyntax
import ChipRecognition
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

/// `readiness(smtpUTF8:)`, counted as chips come and go, agrees with
/// `sendability(options:)`, which renders every field: by table, and
/// after every operation of seeded sessions across fields (typing,
/// pasting, edits, moves, undo and redo, sending).
@Suite("Send readiness")
struct SendReadinessTests {
    /// What the counts must be, from the full report.
    static func expected(_ c: Composer, smtpUTF8: Bool) -> SendReadiness {
        let report = c.sendability(options: HeaderOptions(smtpUTF8: smtpUTF8))
        let recipients = c.fieldIDs.reduce(0) { sum, id in
            sum + c.field(id)!.chips.filter { $0.content.kind == .mailbox }.count
        }
        return SendReadiness(
            chipsInError: report.errorChips.values.reduce(0) { $0 + $1.count },
            fieldsWithPendingText: report.fieldsWithPendingText.count,
            recipients: recipients, unsendableChips: report.unsendableChips.count)
    }

    static func check(_ c: Composer, _ context: @autoclosure () -> String) {
        for smtpUTF8 in [false, true] {
            let got = c.readiness(smtpUTF8: smtpUTF8)
            let want = expected(c, smtpUTF8: smtpUTF8)
            #expect(got == want, "\(context()) smtpUTF8 \(smtpUTF8)")
            #expect(got.canSend == c.sendability(options: HeaderOptions(smtpUTF8: smtpUTF8)).canSend,
                    "\(context()) smtpUTF8 \(smtpUTF8)")
        }
    }

    /// Drafts, what readiness says without and with SMTPUTF8.
    @Test(arguments: [
        ("", ValidationPolicy.standard, false, false),
        ("ann@x.org, ", .standard, true, true),
        ("ann@x.org, bob@", .standard, false, false),  // pending text
        ("ann@x.org, bob@, ", .standard, false, false),  // a chip in error
        ("jöran@x.org, ", .standard, false, true),  // a UTF-8 local part
        ("ann@bücher.de, ", .standard, true, true),  // an IDN domain goes as A-labels
        ("Team: ;", .standard, false, false),  // no mailbox, only an empty group
        ("Team: ann@x.org;", .standard, true, true),
        ("ann@x.org (c), ", .lenient, true, true),
    ])
    func draftsAsASendButtonSeesThem(_ text: String, _ policy: ValidationPolicy, _ plain: Bool, _ utf8: Bool) {
        var c = Composer(policy: policy)
        c.paste(text)
        if text.hasSuffix(";") { c.commit() }
        #expect(c.readiness().canSend == plain, "\(text)")
        #expect(c.readiness(smtpUTF8: true).canSend == utf8, "\(text)")
        Self.check(c, text)
    }

    /// The example of docs/editing.md.
    @Test func theGuidesExample() {
        var c = Composer()
        c.type("ann@x.org, jöran@x.org, ")
        #expect(!c.readiness().canSend)
        #expect(c.readiness().unsendableChips == 1 && c.readiness().recipients == 2)
        #expect(c.readiness(smtpUTF8: true).canSend)
        #expect(c.sendability().unsendableChips.map(\.reason.code) == ["needs-smtputf8"])
    }

    /// Fragments that make valid, broken, UTF-8, grouped and lenient chips.
    static let fragments = [
        "ann@x.org", "Bob <b@y.org>", "jöran@x.org", "ann@bücher.de", "bad@", "@", "Team:", ";", ", ", " ", ",",
        "\"Lee, A\" <l@z.org>", "x", "a@b,c", "(c)", "<", "ann@[192.0.2.1]", "ü@ü.de",
    ]

    @Test(arguments: 0..<60)
    func readinessAgreesWithTheReportAfterEveryOperation(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x5E4D)
        let policies: [ValidationPolicy] = [.strict, .standard, .lenient]
        var c = Composer(policy: policies[seed % 3])
        for step in 0..<60 {
            let op = rng.below(14)
            switch op {
            case 0, 1, 2: c.type(rng.pick(Self.fragments))
            case 3: c.paste((0..<(1 + rng.below(4))).map { _ in rng.pick(Self.fragments) }.joined(separator: ", "))
            case 4: c.commit()
            case 5: c.backspace()
            case 6: c.focus(rng.pick(c.fieldIDs))
            case 7: if c.focusedField.count > 0 { c.remove(at: rng.below(c.focusedField.count)) }
            case 8: if c.focusedField.count > 0 { c.edit(at: rng.below(c.focusedField.count)) }
            case 9:
                if c.focusedField.count > 0 {
                    c.move(from: rng.below(c.focusedField.count), toField: rng.pick(c.fieldIDs), at: rng.below(3))
                }
            case 10: c.undo()
            case 11: c.redo()
            case 12: c.selectAll(); if rng.below(2) == 0 { c.removeSelection() }
            default: if rng.below(4) == 0 { _ = c.send() }
            }
            Self.check(c, "seed \(seed) step \(step) op \(op)")
        }
    }
}
