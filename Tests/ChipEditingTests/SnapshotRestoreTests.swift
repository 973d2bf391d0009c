import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

/// A snapshot is untrusted input (a draft file anyone may have written):
/// restoring applies every rule that creating applies, and re-derives each
/// chip from its source text instead of trusting the facts saved with it.
@Suite("Snapshots are restored as untrusted input")
struct SnapshotRestoreTests {
    /// Pieces of lists people type: valid, in error, with names, groups,
    /// comments, look-alikes, UTF-8, duplicates.
    static let pieces = [
        "ann@example.org", "Ann Lee <ann@example.org>", "\"Lee, Ann\" <ann@x.org>", "bob@", "a@b",
        "Team: c@example.org, d@example.net;", "undisclosed-recipients:;", "carol@gmial.com",
        "Jiří <jiri@example.cz>", "<x@[127.0.0.1]>", "(boss) e@example.org", "mallory@ex\u{0430}mple.com",
        "李小龍 <li@example.cn>", "no at sign", "=?UTF-8?Q?Ren=C3=A9?= <rene@example.fr>", "ann@example.org",
    ]

    /// A composer with chips typed in every field, by paste and by typing.
    static func typed(_ rng: inout SplitMix64, fields: [String] = ["to", "cc", "bcc"]) -> Composer {
        var c = Composer(fields: fields.map { FieldID($0)! })
        for name in fields {
            _ = c.focus(FieldID(name)!)
            let n = rng.below(6)
            let text = (0..<n).map { _ in pieces[rng.below(pieces.count)] }.joined(separator: ", ")
            if rng.below(2) == 0 { c.paste(text + ", ") } else { c.type(text); c.commit() }
        }
        _ = c.focus(FieldID(fields[rng.below(fields.count)])!)
        if rng.below(2) == 0 { c.type(pieces[rng.below(pieces.count)]) }
        return c
    }

    /// The ways a snapshot's stored facts can lie about a chip.
    enum Lie: String, CaseIterable, Sendable {
        case address, displayName, validity, warnings, kind, localPartAndDomain, asciiDomain
    }

    static func tell(_ lie: Lie, _ content: inout ParsedChip) {
        switch lie {
        case .address: content.address = "evil@attacker.example"
        case .displayName: content.displayName = "Evil\r\nBcc: evil@attacker.example"
        case .validity:
            content.error = content.error == nil ? .missingDomain : nil
            content.errorOffset = nil
        case .warnings:
            // Every warning but `duplicate`, whose place among the copies of
            // an address a draft keeps (see the test of its own lies below).
            let others = content.warnings.subtracting(.duplicate)
            content.warnings = (others.isEmpty ? [.likelyTypo, .displayNameSpoof] : [] as ChipWarnings)
                .union(content.warnings.intersection(.duplicate))
        case .kind: content.kind = content.kind == .mailbox ? .emptyGroup : .mailbox
        case .localPartAndDomain:
            content.localPart = "evil"
            content.domain = "attacker.example"
        case .asciiDomain: content.asciiDomain = "attacker.example"
        }
    }

    static func contents(_ c: Composer) -> [[ParsedChip]] { c.fields.map { $0.chips.map(\.content) } }

    /// Each lie alone, on every chip: the restored chips are the typed ones.
    @Test(arguments: Lie.allCases)
    func storedFactsAreIgnored(_ lie: Lie) throws {
        var rng = SplitMix64(seed: 32)
        let c = Self.typed(&rng)
        var s = c.snapshot
        for k in s.fields.indices {
            for i in s.fields[k].chips.indices { Self.tell(lie, &s.fields[k].chips[i].content) }
        }
        let restored = try Composer(snapshot: s)
        #expect(Self.contents(restored) == Self.contents(c), "lie: \(lie)")
    }

    /// The `duplicate` warnings a draft holds say only which copy of a
    /// repeated address typing left unmarked: whatever they say, every
    /// copy but one is marked, and no address that does not repeat is.
    @Test(arguments: 0..<20)
    func storedDuplicateWarningsMoveTheMarkAtMost(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0xD0B)
        let c = Self.typed(&rng)
        var s = c.snapshot
        for k in s.fields.indices {
            for i in s.fields[k].chips.indices where rng.below(2) == 0 {
                s.fields[k].chips[i].content.warnings.formSymmetricDifference(.duplicate)
            }
        }
        let restored = try Composer(snapshot: s)
        func marked(_ c: Composer) -> [String: Int] {
            var n: [String: Int] = [:]
            for f in c.fields {
                for chip in f.chips where chip.content.warnings.contains(.duplicate) {
                    n[chip.content.address?.lowercased() ?? "", default: 0] += 1
                }
            }
            return n
        }
        #expect(marked(restored) == marked(c), "seed \(seed)")
        // Nothing but the mark moves.
        func unmarked(_ c: Composer) -> [[ParsedChip]] {
            c.fields.map { $0.chips.map { var x = $0.content; x.warnings.remove(.duplicate); return x } }
        }
        #expect(unmarked(restored) == unmarked(c), "seed \(seed)")
    }

    /// Typing marks every copy but the first typed, which may stand in a
    /// later field (Cc typed before To): a restored draft marks the same.
    @Test func theCopyTypedFirstStaysUnmarkedWhereverItStands() throws {
        var c = Composer(fields: [.to, .cc], duplicatePolicy: .warn)
        _ = c.focus(.cc)
        c.paste("ann@example.org, ")
        _ = c.focus(.to)
        c.paste("ann@example.org, ")
        #expect(c.fields[0][0].content.warnings.contains(.duplicate))
        let restored = try Composer(snapshot: c.snapshot)
        #expect(restored.fields.map { $0.chips.map(\.content.warnings) } == c.fields.map { $0.chips.map(\.content.warnings) })
    }

    /// The issue's example: a draft whose address differs from its text
    /// sends the address its text holds.
    @Test func aStoredAddressThatDiffersFromTheTextIsNotSent() throws {
        var c = Composer()
        c.paste("ann@example.org, ")
        var s = c.snapshot
        s.fields[0].chips[0].content.address = "evil@attacker.example"
        let restored = try Composer(snapshot: s)
        #expect(restored.fields[0][0].content.address == "ann@example.org")
    }

    /// Random drafts, random lies: restoring equals typing the raw texts.
    @Test(arguments: 0..<40)
    func restoringEqualsRetypingTheRawTexts(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x32A)
        let c = Self.typed(&rng)
        var s = c.snapshot
        for k in s.fields.indices {
            for i in s.fields[k].chips.indices where rng.below(2) == 0 {
                Self.tell(Lie.allCases[rng.below(Lie.allCases.count)], &s.fields[k].chips[i].content)
            }
        }
        let restored = try Composer(snapshot: s)
        #expect(Self.contents(restored) == Self.contents(c), "seed \(seed)")
        #expect(restored.fields.map(\.pending) == c.fields.map(\.pending), "seed \(seed)")
        #expect(restored.fields.map { $0.chips.map(\.id) } == c.fields.map { $0.chips.map(\.id) }, "seed \(seed)")
    }

    /// Field names become header names: one that could end a header line
    /// or hide in the terminal is refused, as `--fields` refuses it.
    static let badFieldNames = [
        "To\r\nBcc: evil@attacker.example\r\nX-Y", "to\n", "to\r", "to\u{1B}[31m", "to cc", "to:", "", "t\u{7F}",
        "t\u{0}", "t\u{85}", "t\u{9B}1m", "t\u{9}", "tö",
    ]

    @Test(arguments: badFieldNames)
    func aFieldNameOutOfHeaderSyntaxIsRefused(_ name: String) {
        var s = Composer(fields: [.to, .cc]).snapshot
        s.fields[1].name = FieldID(checked: name)
        #expect(throws: SnapshotError.self, "\(name.debugDescription)") { try Composer(snapshot: s) }
    }

    /// A group name is the chip's text too: one that would add a header is
    /// not restored as a header name.
    @Test func aGroupNameWithALineBreakIsNotTrusted() throws {
        var c = Composer()
        c.paste("Team: c@example.org;, ")
        var s = c.snapshot
        s.fields[0].chips[0].content.group = "Team\r\nBcc: evil@attacker.example\r\nX"
        if let restored = try? Composer(snapshot: s) {
            for chip in restored.fields[0].chips {
                #expect(!(chip.content.group ?? "").utf8.contains { $0 == 10 || $0 == 13 })
            }
        }
    }

    /// Numbers a snapshot holds: a bad or huge one is refused with a
    /// message, never a trap or a giant allocation.
    enum BadNumber: String, CaseIterable, Sendable {
        case hugeNextSerial, serialAtTheTop, chipOfNoField, negativeCaret, hugeInsertionIndex
        case hugeMaxChips, hugeMaxPendingBytes, hugeMaxChipBytes, zeroMaxChipBytes, negativeMaxChips
    }

    @Test(arguments: BadNumber.allCases)
    func aBadNumberIsRefused(_ bad: BadNumber) {
        var c = Composer(fields: [.to, .cc])
        c.paste("ann@example.org, bo")
        var s = c.snapshot
        let id = s.fields[0].chips[0].id
        switch bad {
        case .hugeNextSerial: s.fields[0].nextSerial = 1 << 52
        case .serialAtTheTop:
            s.fields[0].chips[0] = Chip(id: ChipID(rawValue: id.rawValue | ChipID.serialMask), content: s.fields[0].chips[0].content)
        case .chipOfNoField:
            s.fields[0].chips[0] = Chip(id: ChipID(rawValue: (99 << 40) | 1), content: s.fields[0].chips[0].content)
        case .negativeCaret: s.fields[0].caret = -1
        case .hugeInsertionIndex: s.fields[0].insertionIndex = Int.max
        case .hugeMaxChips: s.fields[0].limits?.maxChips = Int.max
        case .hugeMaxPendingBytes: s.fields[0].limits?.maxPendingBytes = 1 << 62
        case .hugeMaxChipBytes: s.fields[0].policy?.maxChipBytes = Int.max
        case .zeroMaxChipBytes: s.fields[0].policy?.maxChipBytes = 0
        case .negativeMaxChips: s.fields[0].limits?.maxChips = -1
        }
        #expect(throws: SnapshotError.self, "\(bad)") { try Composer(snapshot: s) }
    }
}
