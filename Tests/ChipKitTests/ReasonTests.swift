import Foundation
import Testing
import ChipKit

/// One idiom for every reason a host may show: a stable code, unique
/// across the package, plus values its words name; words from
/// `ChipStrings` in the host's language; codes that survive encoding.
@Suite("Reasons: one idiom")
struct ReasonTests {
    /// A host's own words, keyed by code, replace the English ones, with
    /// the same values.
    @Test func aHostWordsAProblemByItsCode() {
        let result = ContactImporter.import(Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann\r\nEMAIL;PREF=0:ann@x.org\r\nEND:VCARD\r\n".utf8))
        let p = result.problems.first { $0.reason == .prefOutOfRangeClamped }
        #expect(p?.message == "PREF=0 is outside 1–100; read as 1")
        var strings = ChipStrings.english
        strings.reasonMessages["pref-out-of-range-clamped"] = "PREF={value} liegt nicht in 1–100; als {clamped} gelesen"
        #expect(p.map { strings.message(for: $0) } == "PREF=0 liegt nicht in 1–100; als 1 gelesen")
        #expect(p.map { ChipStrings.english.message(for: $0) } == p?.message)
    }

    /// Every reason of every type, as (type, code, English template, the
    /// value keys its constructors give).
    static var everyReason: [(type: String, code: String, template: String, keys: Set<String>)] {
        var all: [(String, String, String, Set<String>)] = []
        for r in ChipError.allReasons { all.append(("ChipError", r.code, r.englishTemplate, Set(r.values.keys))) }
        for r in Refusal.Reason.allReasons {
            let v = Refusal(r, text: "ann@x.org")
            all.append(("Refusal", v.code, v.englishTemplate, Set(v.values.keys)))
        }
        for r in GroupRefusal.Reason.allReasons {
            let v = GroupRefusal(r, id: "a")
            all.append(("GroupRefusal", v.code, v.englishTemplate, Set(v.values.keys)))
        }
        for r in HeaderOmission.Reason.allReasons { all.append(("HeaderOmission", r.code, r.englishTemplate, Set(r.values.keys))) }
        for r in SnapshotError.Reason.allReasons {
            let v = SnapshotError(r)
            all.append(("SnapshotError", v.code, v.englishTemplate, []))
        }
        for r in GroupConfigurationError.Reason.allReasons {
            let v = GroupConfigurationError(r)
            all.append(("GroupConfigurationError", v.code, v.englishTemplate, []))
        }
        for r in ContactImportProblem.Reason.allReasons {
            let v = ContactImportProblem(line: 1, r)
            all.append(("ContactImportProblem", v.code, v.englishTemplate, []))
        }
        return all
    }

    /// Codes are lower-case words joined by `-`, and no two reasons share
    /// one, but for the two faults a header and a chip name alike
    /// (`invalid-idn`, `too-long`).
    @Test func codesAreUniqueAndKebabCase() {
        let all = Self.everyReason
        for r in all {
            let words = r.code.split(separator: "-", omittingEmptySubsequences: false)
            let ok = !words.isEmpty && words.allSatisfy { w in
                !w.isEmpty && w.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
            #expect(ok, "\(r.type): \(r.code)")
            #expect(!r.template.isEmpty, "\(r.type): \(r.code) has no words")
        }
        var byCode: [String: [String]] = [:]
        for r in all { byCode[r.code, default: []].append(r.type) }
        let shared = byCode.filter { $0.value.count > 1 }
        #expect(shared.mapValues { $0.sorted() } == [
            "invalid-idn": ["ChipError", "HeaderOmission"], "too-long": ["ChipError", "HeaderOmission"],
        ])
    }

    /// The words of a reason whose values come from one constructor name
    /// only those values; a template names nothing a reason cannot give.
    @Test func templatesNameOnlyGivenValues() {
        for r in Self.everyReason where !r.keys.isEmpty || ["ChipError", "HeaderOmission"].contains(r.type) {
            let missing = Set(ReasonTemplate.placeholders(r.template)).subtracting(r.keys)
            #expect(missing.isEmpty, "\(r.type) \(r.code): \(missing)")
        }
    }

    /// A host's words replace the English ones by code, filled with the
    /// same values; a code it has no words for is said in English.
    @Test func aHostWordsReasonsByCode() {
        var german = ChipStrings.english
        german.reasonMessages["duplicate"] = "schon Empfänger: {text}"
        german.reasonMessages["max-selected"] = "höchstens so viele: {option}"
        german.errorMessages["missing-at"] = "kein @"
        let duplicate = Refusal(.duplicate, text: "ann@x.org")
        #expect(german.message(for: duplicate) == "schon Empfänger: ann@x.org")
        #expect(ChipStrings.english.message(for: duplicate) == duplicate.message)
        #expect(duplicate.message == "already a recipient: ann@x.org")
        #expect(german.message(for: GroupRefusal(.maxSelected, id: "L")) == "höchstens so viele: L")
        #expect(german.message(for: Refusal(.tooManyChips)) == "the field is full")
        let missingAt = ChipError(code: "missing-at")!
        #expect(german.message(for: missingAt) == "kein @")
        // A value is inserted once, never read as a template.
        #expect(german.message(for: Refusal(.duplicate, text: "{text}")) == "schon Empfänger: {text}")
    }

    /// A host switches over reasons by value, with a `default` for those
    /// added later; the codes are what it stores and sends.
    @Test func aHostSwitchesWithADefault() {
        func words(_ r: Refusal.Reason) -> String {
            switch r {
            case .duplicate, .mergedDuplicate: "already there"
            case .tooManyChips: "full"
            default: "other: \(r.code)"
            }
        }
        #expect(words(.duplicate) == "already there")
        #expect(words(.noSuchChip) == "other: no-such-chip")
    }

    /// Reasons encode as their codes and decode back; an unknown code is a
    /// decoding error, not a made-up reason.
    @Test func reasonsEncodeAsTheirCodes() throws {
        let refusals = Refusal.Reason.allReasons
        let data = try JSONEncoder().encode(refusals)
        #expect(String(decoding: data, as: UTF8.self) == "[" + refusals.map { "\"\($0.code)\"" }.joined(separator: ",") + "]")
        #expect(try JSONDecoder().decode([Refusal.Reason].self, from: data) == refusals)
        let groups = GroupRefusal.Reason.allReasons
        #expect(try JSONDecoder().decode([GroupRefusal.Reason].self, from: JSONEncoder().encode(groups)) == groups)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Refusal.Reason].self, from: Data("[\"no-such-thing\"]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([GroupRefusal.Reason].self, from: Data("[\"duplicate\"]".utf8)) }
        for r in refusals { #expect(Refusal.Reason(code: r.code) == r) }
        for r in ContactImportProblem.Reason.allReasons { #expect(ContactImportProblem.Reason(code: r.code) == r) }
        #expect(Refusal.Reason(code: "Duplicate") == nil)
    }
}
