import Foundation
import Testing
import ChipKit
@testable import ChipEditing
import ChipTestSupport

/// A draft survives a restart with all its settings, in a format a person
/// can read, and drafts saved by the first format still load.
@Suite("Snapshots keep every setting")
struct SnapshotSettingsTests {
    static func roundTrip(_ c: Composer) throws -> (Composer, String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(c.snapshot)
        let restored = try Composer(snapshot: try JSONDecoder().decode(ComposerSnapshot.self, from: data))
        return (restored, String(decoding: data, as: UTF8.self))
    }

    /// A custom policy and a modified preset come back whole, in every field.
    @Test(arguments: ["custom", "modified-standard", "strict"])
    func everyFieldsPolicyAndLimitsSurvive(_ which: String) throws {
        var policy: ValidationPolicy
        switch which {
        case "custom":
            policy = ValidationPolicy(
                allowsObsoleteSyntax: false, allowsComments: true, allowsUnnecessaryQuotes: false,
                allowsMissingAngleBrackets: false, checksGrammar: true, requiresHostName: false,
                requiresDottedDomain: true, enforcesLengthLimits: false, maxChipBytes: 1_000)
            policy.commonDomains = ["corp.example"]
        case "modified-standard":
            policy = .standard
            policy.commonDomains = ["intranet.example", "gmail.com"]
            policy.maxChipBytes = 4_096
            policy.checksLookalikes = false
        default:
            policy = .strict
        }
        let limits = FieldLimits(maxChips: 77, maxPendingBytes: 999)
        var c = Composer(fields: [.to, .cc], policy: policy, limits: limits)
        c.paste("ann@corp.exampel, ")
        let (restored, _) = try Self.roundTrip(c)
        for field in restored.fields {
            #expect(field.policy == policy, "\(which): field \(field.name)")
            #expect(field.limits == limits)
        }
        #expect(restored.snapshot == c.snapshot)
        #expect(restored.focusedField.chips == c.focusedField.chips)
    }

    @Test func theFormatIsReadable() throws {
        var c = Composer()
        c.paste("Ann <ann@x.org>, bob@, undisclosed-recipients:;, ")
        c.type("half")
        let (_, json) = try Self.roundTrip(c)
        for piece in ["\"state\":\"valid\"", "\"state\":\"error\"", "\"kind\":\"mailbox\"", "\"kind\":\"group\"",
                      "\"raw\":\"Ann <ann@x.org>\"", "\"pending\":\"half\"", "\"version\":2", "\"policy\":{",
                      "\"error\":\"missing-domain\"", "\"name\":\"standard\""] {
            #expect(json.contains(piece), "\(piece) not in the snapshot")
        }
        #expect(!json.contains("\"raw\":["), "text saved as numbers")
    }

    /// Bytes that are not UTF-8, in chips and pending text, come back exact.
    @Test func bytesThatAreNotUTF8SurviveEscaped() throws {
        var c = Composer()
        c.paste(bytes: [0x61, 0xFF, 0x5C, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67, 0x2C, 0x20, 0xC3])  // a\xFF\@x.org, \xC3
        let raw = c.focusedField[0].content.raw
        let (restored, json) = try Self.roundTrip(c)
        #expect(json.contains("\"rawEscaped\":\"a\\\\xFF\\\\\\\\@x.org\""), "\(json)")
        #expect(json.contains("\"pendingEscaped\""))
        #expect(restored.focusedField[0].content.raw == raw)
        #expect(restored.focusedField.pending == [0xC3])
        for text in ["a\\xF", "a\\q", "a\\"] {
            #expect(SavedBytes.decodeEscaped(text) == nil, "\(text)")
        }
        var rng = SplitMix64(seed: 5)
        for _ in 0..<200 {
            let bytes = (0..<rng.below(20)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let (text, exact) = SavedBytes.encode(bytes)
            #expect((exact ? Array(text.utf8) : SavedBytes.decodeEscaped(text)) == bytes)
        }
    }

    /// A draft saved in the first format (one policy name, byte arrays,
    /// kinds as numbers) still loads: `Corpus/snapshots/v1-draft.json`.
    @Test func aVersionOneDraftStillLoads() throws {
        let data = try #require(readFile(packageRoot() + "/Corpus/snapshots/v1-draft.json"))
        let s = try JSONDecoder().decode(ComposerSnapshot.self, from: Data(data))
        #expect(s.version == 1)
        let c = try Composer(snapshot: s)
        #expect(c.duplicatePolicy == .merge)
        #expect(c.focusedField.name == "cc")
        #expect(c.fields.allSatisfy { $0.policy == .strict })
        #expect(c.field(.to)!.chips.map(\.content.rawText) == ["\"Lee, Ann\" <ann@x.org>", "bob@", "t@z.org"])
        #expect(c.field(.to)![2].content.group == "Team")
        #expect(c.field(.cc)!.chips.map(\.content.kind) == [.mailbox, .emptyGroup])
        #expect(c.field(.cc)!.pendingText == "dave@")
        #expect(c.field(.cc)!.selection == [c.field(.cc)![0].id])
        // Saved again, it is a version 2 draft with the same chips.
        let (again, json) = try Self.roundTrip(c)
        #expect(json.contains("\"version\":2"))
        #expect(again.fields.map(\.chips) == c.fields.map(\.chips))
    }

    @Test func aStateThatContradictsTheChipIsRefused() throws {
        var c = Composer()
        c.paste("bob@, ")
        let (_, json) = try Self.roundTrip(c)
        let forged = json.replacingOccurrences(of: "\"state\":\"error\"", with: "\"state\":\"valid\"")
        #expect(forged != json)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(ComposerSnapshot.self, from: Data(forged.utf8))
        }
    }
}
