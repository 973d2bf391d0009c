// Tables derived from RFC 5322 (Internet Message Format): the productions of
// sections 3.2 to 3.4, the obsolete addressing of section 4 (4.1, 4.2, 4.4)
// and the address lists of Appendix A.1 to A.6.
//
// This file also holds the small table vocabulary (`RFCRow`, `RFCOutcome`,
// `RFCText`, `verifyRFCRow`) that RFC5321And6531Tests.swift and
// RFC2047Tests.swift use as well.

import Testing
import ChipSyntax
import ChipRecognitionTestSupport
@testable import ChipRecognition
import ChipTestSupport

// MARK: - Table vocabulary










/// Parses the row's input and checks every expectation of the row. (The
/// engine's invariants on the same rows are checked in ChipKitTests.)
func verifyRFCRow(_ row: RFCRow) {
    let chips = AddressList.parse(row.bytes, policy: row.policy)
    #expect(
        chips.count == row.chips.count,
        "expected \(row.chips.count) chip(s), got \(chips.count): \(chips.map(\.rawText))")
    for (i, (chip, want)) in zip(chips, row.chips).enumerated() {
        let at = "chip \(i) \(chip.rawText.debugDescription)"
        let got = chip.error?.code ?? "valid"
        switch want.outcome {
        case .valid:
            #expect(chip.error == nil, "\(at): expected valid, got \(got)")
        case .error(let code):
            #expect(chip.error?.code == code, "\(at): expected \(code), got \(got)")
        case .oneOf(let codes):
            #expect(codes.contains(got), "\(at): expected one of \(codes), got \(got)")
        case .invalid:
            #expect(chip.error != nil, "\(at): expected an error, got valid")
        }
        #expect(chip.isValid == want.outcome.expectsValid, "\(at): isValid")
        #expect(chip.kind == want.kind, "\(at): kind \(chip.kind)")
        #expect(want.name.matches(chip.displayName),
                "\(at): displayName \(String(describing: chip.displayName)), expected \(want.name)")
        #expect(want.address.matches(chip.address),
                "\(at): address \(String(describing: chip.address)), expected \(want.address)")
        #expect(want.group.matches(chip.group),
                "\(at): group \(String(describing: chip.group)), expected \(want.group)")
        #expect(want.domain.matches(chip.domain),
                "\(at): domain \(String(describing: chip.domain)), expected \(want.domain)")
        for w in want.warnings {
            #expect(chip.warnings.codes.contains(w), "\(at): expected warning \(w), got \(chip.warnings.codes)")
        }
    }
}


// MARK: - RFC 5322 tables



// MARK: - Appendix A


// MARK: - Disputed


// MARK: - Tests

@Suite("RFC 5322 address syntax")
struct RFC5322Tests {
    @Test("§3.2.3 atext, atom, dot-atom", arguments: RFC5322Tables.atext)
    func atext(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§3.2.1/§3.2.4 quoted-pair, quoted-string", arguments: RFC5322Tables.quotedStrings)
    func quotedStrings(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§3.2.2 FWS, comments, CFWS", arguments: RFC5322Tables.comments)
    func comments(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§3.4 mailbox, name-addr, angle-addr, phrase", arguments: RFC5322Tables.nameAddr)
    func nameAddr(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§3.4 groups and address lists", arguments: RFC5322Tables.groups)
    func groups(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§4.2/§4.4 obsolete forms, standard vs strict", arguments: RFC5322Tables.obsolete)
    func obsolete(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("control characters and bounds", arguments: RFC5322Tables.controls)
    func controls(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("Appendix A address lists", arguments: RFC5322AppendixA.lists)
    func appendixA(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: RFC5322Disputed.rows)
    func disputedRFC5322(_ row: RFCRow) { verifyRFCRow(row) }

    /// Every error code of the API is produced by at least one enabled row,
    /// and every code the tables name exists.
    @Test func everyErrorCodeIsCovered() {
        let rows = RFC5322Tables.all + RFC5322AppendixA.lists + RFC5321Tables.all + RFC2047Tables.all
            + RecognitionFixTables.rows
        let named = Set(rows.flatMap { $0.chips.flatMap(\.outcome.codes) })
        for code in named {
            #expect(ChipError(code: code) != nil, "tables name an unknown code \(code)")
        }
        // `ambiguous` is the composer's, not recognition's (its tests are
        // in ComposerContactsTests).
        for reason in ChipError.allReasons where reason != .ambiguous {
            #expect(named.contains(reason.code), "no table row expects \(reason.code)")
        }
    }

    /// A policy only ever adds errors: whatever strict accepts, standard
    /// accepts, and whatever standard accepts, lenient accepts.
    @Test("policies are nested", arguments: RFC5322Tables.all + RFC5322AppendixA.lists)
    func policiesNest(_ row: RFCRow) {
        let strict = AddressList.parse(row.bytes, policy: .strict)
        let standard = AddressList.parse(row.bytes, policy: .standard)
        let lenient = AddressList.parse(row.bytes, policy: .lenient)
        #expect(strict.count == standard.count && standard.count == lenient.count)
        for (s, (m, l)) in zip(strict, zip(standard, lenient)) {
            if s.isValid { #expect(m.isValid, "strict accepts \(s.rawText) but standard rejects it: \(m.error!)") }
            if m.isValid { #expect(l.isValid, "standard accepts \(m.rawText) but lenient rejects it: \(l.error!)") }
        }
    }
}
