import Foundation
import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
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

/// A snapshot writes a policy as its preset and what differs, keeps every
/// setting, and reads what each earlier version wrote.
@Suite("Snapshots: compact policies and every version")
struct SnapshotVersionTests {
    /// Seeded random policies: any rule changed, the domains changed or
    /// not, named after a preset or not. What is written reads back equal,
    /// and the full form older versions wrote reads the same.
    @Test(arguments: 0..<TestScale.count(200, 80, "compact policies, seeds"))
    func aPolicyReadsBackAsWritten(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x9011C)
        var p = [ValidationPolicy.strict, .standard, .lenient][rng.below(3)]
        if rng.below(4) == 0 { p.name = ["strict", "standard", "lenient", "mine", ""][rng.below(5)] }
        func flip(_ v: inout Bool) { if rng.below(4) == 0 { v.toggle() } }
        flip(&p.allowsObsoleteSyntax); flip(&p.allowsComments); flip(&p.allowsUnnecessaryQuotes)
        flip(&p.allowsMissingAngleBrackets); flip(&p.checksGrammar); flip(&p.requiresHostName)
        flip(&p.requiresDottedDomain); flip(&p.enforcesLengthLimits); flip(&p.checksLookalikes)
        flip(&p.comparesLocalPartsExactly); flip(&p.allowsUnquotedCommaInName)
        if rng.below(4) == 0 { p.maxChipBytes = 1 + rng.below(5_000) }
        if rng.below(4) == 0 { p.commonDomains = Array(p.commonDomains.prefix(rng.below(5))) + ["example.org"] }
        let data = try JSONEncoder().encode(p)
        #expect(try JSONDecoder().decode(ValidationPolicy.self, from: data) == p, "seed \(seed)")
        let full = Self.fullForm(p)
        #expect(try JSONDecoder().decode(ValidationPolicy.self, from: Data(full.utf8)) == p, "seed \(seed)")
        if p == ValidationPolicy(named: p.name) {
            #expect(String(decoding: data, as: UTF8.self) == "{\"name\":\"\(p.name)\"}")
        }
    }

    /// Every rule written out, as versions before the compact form did.
    static func fullForm(_ p: ValidationPolicy) -> String {
        let domains = p.commonDomains.map { "\"\($0)\"" }.joined(separator: ",")
        return "{\"name\":\"\(p.name)\",\"allowsObsoleteSyntax\":\(p.allowsObsoleteSyntax),\"allowsComments\":\(p.allowsComments),"
            + "\"allowsUnnecessaryQuotes\":\(p.allowsUnnecessaryQuotes),\"allowsMissingAngleBrackets\":\(p.allowsMissingAngleBrackets),"
            + "\"checksGrammar\":\(p.checksGrammar),\"requiresHostName\":\(p.requiresHostName),"
            + "\"requiresDottedDomain\":\(p.requiresDottedDomain),\"enforcesLengthLimits\":\(p.enforcesLengthLimits),"
            + "\"maxChipBytes\":\(p.maxChipBytes),\"checksLookalikes\":\(p.checksLookalikes),\"commonDomains\":[\(domains)],"
            + "\"comparesLocalPartsExactly\":\(p.comparesLocalPartsExactly),\"allowsUnquotedCommaInName\":\(p.allowsUnquotedCommaInName)}"
    }

    @Test func aOneChipDraftIsSmall() throws {
        var c = Composer()
        c.paste("ann@example.org, ")
        let data = try JSONEncoder().encode(c.snapshot)
        #expect(data.count < 1_200, "\(data.count) bytes")
    }

    /// The undo steps kept are a setting a draft keeps.
    @Test func theUndoLimitIsKept() throws {
        var c = Composer()
        c.maxUndoSteps = 7
        let back = try Composer(snapshot: JSONDecoder().decode(
            ComposerSnapshot.self, from: JSONEncoder().encode(c.snapshot)))
        #expect(back.maxUndoSteps == 7)
        var s = c.snapshot
        s.maxUndoSteps = -1
        #expect(throws: SnapshotError.self) { try Composer(snapshot: s) }
        s.maxUndoSteps = nil
        #expect(try Composer(snapshot: s).maxUndoSteps == 1_000)
    }

    /// `Corpus/snapshots/v2-draft.json`: a draft as version 2 wrote it
    /// before policies were compact (every rule and the 275 domains in each
    /// field, one field's policy and limits changed). It loads whole, and
    /// saved again it is the same composer in a fraction of the bytes.
    @Test func aVersionTwoDraftOfTheFullFormStillLoads() throws {
        let data = try #require(readFile(packageRoot() + "/Corpus/snapshots/v2-draft.json"))
        let s = try JSONDecoder().decode(ComposerSnapshot.self, from: Data(data))
        #expect(s.version == 2)
        let c = try Composer(snapshot: s)
        #expect(c.duplicatePolicy == .merge && c.resolution == .topSuggestion && c.remoteLookups)
        #expect(c.focusedFieldID == .cc)
        #expect(c.field(.to)!.chips.map(\.content.rawText) == ["\"Lee, Ann\" <ann@x.org>", "bob@", "t@z.org"])
        #expect(c.field(.cc)!.chips.map(\.content.rawText) == ["Jiří <jiri@example.cz>", "undisclosed-recipients:;"])
        #expect(c.field(.cc)!.pendingText == "dave@")
        #expect(c.field(.cc)!.selection == [c.field(.cc)![0].id])
        #expect(c.field(.to)!.policy == .standard && c.field(.cc)!.policy == .standard)
        var bcc = ValidationPolicy.standard
        bcc.allowsComments = false
        #expect(c.field(.bcc)!.policy == bcc)
        #expect(c.field(.bcc)!.limits == FieldLimits(maxChips: 50, maxPendingBytes: 4096))
        let again = try JSONEncoder().encode(c.snapshot)
        #expect(again.count * 4 < data.count, "\(again.count) bytes against \(data.count)")
        let reread = try Composer(snapshot: JSONDecoder().decode(ComposerSnapshot.self, from: again))
        #expect(reread.snapshot == c.snapshot)
    }
}
