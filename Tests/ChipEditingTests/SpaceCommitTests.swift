import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

/// A space after a complete address makes the chip at once, as a person
/// expects; a key that shows the address going on reopens it in the same
/// keystroke; and typing still gives what pasting gives.
@Suite("A space commits at once")
struct SpaceCommitTests {
    static func type(_ text: String, into c: inout Composer) -> [[ComposerChange]] {
        text.unicodeScalars.map { c.type(String($0)) }
    }

    @Test func theChipIsMadeOnTheSpace() {
        var c = Composer()
        let keys = Self.type("bob@y.org ", into: &c)
        #expect(c.focusedField.chips.map(\.content.address) == ["bob@y.org"])
        #expect(c.focusedField.pending.isEmpty)
        #expect(keys.last!.contains { if case .inserted = $0.change { true } else { false } })
        #expect(keys.dropLast().allSatisfy { !$0.contains { if case .inserted = $0.change { true } else { false } } })
    }

    @Test(arguments: ["(Bob)", "<bob@y.org>", ". org", "@z.org"])
    func aKeyThatContinuesTheAddressReopensItsChip(_ rest: String) {
        var c = Composer()
        _ = Self.type("bob@y.org ", into: &c)
        let id = c.focusedField[0].id
        let reopening = c.type(String(rest.unicodeScalars.first!))
        #expect(reopening.contains(ComposerChange(field: .to, change: .removed(id, at: 0))), "\(rest)")
        #expect(reopening.contains { $0.change == .pendingChanged })
        #expect(c.focusedField.count == 0)
        #expect(c.focusedField.pendingText == "bob@y.org " + String(rest.unicodeScalars.first!))
        _ = Self.type(String(rest.unicodeScalars.dropFirst()), into: &c)
        c.commit()
        let parsed = AddressList.parse("bob@y.org " + rest).map(\.raw)
        #expect(c.focusedField.chips.map(\.content.raw) == parsed, "\(rest)")
    }

    @Test func moreSpacesKeepTheChipOpenToReopening() {
        var c = Composer()
        _ = Self.type("jdoe@test   . example", into: &c)
        c.commit()
        #expect(c.focusedField.chips.map(\.content.rawText) == ["jdoe@test   . example"])
        var d = Composer()
        _ = Self.type("a@x.org  b@y.org ", into: &d)
        #expect(d.focusedField.chips.map(\.content.address) == ["a@x.org", "b@y.org"])
    }

    @Test func aGroupStaysOpenAcrossTheSpace() {
        var c = Composer()
        _ = Self.type("Team: a@x.org b@y.org; c@z.org ", into: &c)
        c.commit()
        #expect(c.focusedField.chips.map(\.content.group) == ["Team", "Team", nil])
    }

    @Test func anyOtherOperationMakesTheChipFinal() {
        var c = Composer()
        _ = Self.type("bob@y.org ", into: &c)
        c.moveLeft()
        c.moveRight()
        _ = Self.type("(x)z@q.org", into: &c)
        c.commit()
        #expect(c.focusedField.chips.map(\.content.rawText) == ["bob@y.org", "(x)z@q.org"])
        c.undo()
        #expect(c.focusedField.count == 1)
    }

    /// Seeded lists typed key by key equal the same lists parsed.
    @Test(arguments: 0..<30)
    func typingEqualsParsing(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 606)
        let words = ["a@x.org", " ", "  ", "(c)", "<b@y.org>", ".", "@", "z.org", ",", "Ann", "\"Q\"", "Team:", ";"]
        let text = (0..<(1 + rng.below(12))).map { _ in rng.pick(words) }.joined()
        var c = Composer()
        _ = Self.type(text, into: &c)
        c.commit()
        #expect(c.focusedField.chips.map(\.content) == AddressList.parse(text).map {
            var chip = $0
            let start = chip.byteRange.lowerBound
            chip.byteRange = 0..<chip.raw.count
            if let e = chip.errorOffset { chip.errorOffset = e - start }
            return chip
        }, "seed \(seed): \(text.debugDescription)")
    }
}
