// Tables derived from RFC 5322 (Internet Message Format): the productions of
// sections 3.2 to 3.4, the obsolete addressing of section 4 (4.1, 4.2, 4.4)
// and the address lists of Appendix A.1 to A.6.
//
// This file also holds the small table vocabulary (`RFCRow`, `RFCOutcome`,
// `RFCText`, `verifyRFCRow`) that RFC5321And6531Tests.swift and
// RFC2047Tests.swift use as well.

import Testing
import ChipKit
@testable import ChipRecognition
import ChipTestSupport

// MARK: - Table vocabulary

/// What a row expects of one text field of a chip.
enum RFCText: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
    CustomStringConvertible
{
    /// Not checked by this row.
    case unchecked
    /// Must be nil.
    case absent
    /// Must equal this string.
    case equals(String)
    /// Must be present, contain every string of `contains` and none of `lacks`.
    case like(contains: [String], lacks: [String])

    init(stringLiteral value: String) { self = .equals(value) }
    init(nilLiteral: ()) { self = .absent }

    func matches(_ actual: String?) -> Bool {
        switch self {
        case .unchecked: return true
        case .absent: return actual == nil
        case .equals(let s): return actual == s
        case .like(let contains, let lacks):
            guard let actual else { return false }
            return contains.allSatisfy { actual.contains($0) } && !lacks.contains { actual.contains($0) }
        }
    }

    var description: String {
        switch self {
        case .unchecked: "(unchecked)"
        case .absent: "nil"
        case .equals(let s): s.debugDescription
        case .like(let c, let l): "containing \(c), lacking \(l)"
        }
    }
}

/// What a row expects of a chip's validity.
enum RFCOutcome: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// `error == nil`.
    case valid
    /// Invalid with exactly this error code.
    case error(String)
    /// Invalid with one of these codes (the RFC is broken in more than one way
    /// and which one is reported first is not the RFC's business).
    case oneOf([String])
    /// Invalid, whatever the code.
    case invalid

    init(stringLiteral value: String) { self = .error(value) }

    var expectsValid: Bool { self == .valid }

    /// The error codes this outcome names.
    var codes: [String] {
        switch self {
        case .valid, .invalid: []
        case .error(let c): [c]
        case .oneOf(let cs): cs
        }
    }

    var description: String {
        switch self {
        case .valid: "valid"
        case .error(let c): c
        case .oneOf(let cs): "one of \(cs)"
        case .invalid: "invalid"
        }
    }
}

/// What a row expects of one chip.
struct RFCChip: Sendable {
    var outcome: RFCOutcome
    var kind: ListItem.Kind = .mailbox
    var name: RFCText = .unchecked
    var address: RFCText = .unchecked
    var group: RFCText = .unchecked
    var domain: RFCText = .unchecked
    /// Warning codes the chip must carry (others may be present too).
    var warnings: [String] = []
}

/// One row of a table: an input, a policy, and the chips it must give.
struct RFCRow: Sendable, CustomTestStringConvertible {
    /// Where in which RFC the expectation comes from.
    var ref: String
    var bytes: [UInt8]
    var label: String
    var policy: ValidationPolicy
    var chips: [RFCChip]

    var testDescription: String {
        let shown = label.count > 90 ? String(label.prefix(60)) + "…(\(bytes.count) bytes)" : label
        return "[\(ref)] \(policy.name): \(shown)"
    }
}

/// A row for an input that is one chip.
func rfc(
    _ ref: String, _ input: String, _ policy: ValidationPolicy, _ outcome: RFCOutcome,
    name: RFCText = .unchecked, address: RFCText = .unchecked, group: RFCText = .unchecked,
    domain: RFCText = .unchecked, kind: ListItem.Kind = .mailbox, warn: [String] = []
) -> RFCRow {
    RFCRow(
        ref: ref, bytes: Array(input.utf8), label: input.debugDescription, policy: policy,
        chips: [RFCChip(outcome: outcome, kind: kind, name: name, address: address, group: group,
                        domain: domain, warnings: warn)])
}

/// A row for raw bytes (for instance invalid UTF-8) that are one chip.
func rfc(
    _ ref: String, bytes: [UInt8], _ policy: ValidationPolicy, _ outcome: RFCOutcome,
    address: RFCText = .unchecked
) -> RFCRow {
    let label = bytes.map { $0 < 0x20 || $0 >= 0x7F ? "\\x" + String($0, radix: 16) : String(UnicodeScalar($0)) }
        .joined()
    return RFCRow(
        ref: ref, bytes: bytes, label: label, policy: policy,
        chips: [RFCChip(outcome: outcome, address: address)])
}

/// A row for a whole address list.
func rfcList(_ ref: String, _ input: String, _ policy: ValidationPolicy, _ chips: [RFCChip]) -> RFCRow {
    RFCRow(ref: ref, bytes: Array(input.utf8), label: input.debugDescription, policy: policy, chips: chips)
}

/// Short forms for list rows.
func member(
    _ name: RFCText, _ address: RFCText, group: RFCText = nil, _ outcome: RFCOutcome = .valid,
    warn: [String] = []
) -> RFCChip {
    RFCChip(outcome: outcome, name: name, address: address, group: group, warnings: warn)
}

func emptyGroup(_ name: String, _ outcome: RFCOutcome = .valid) -> RFCChip {
    RFCChip(outcome: outcome, kind: .emptyGroup, address: nil, group: .equals(name))
}

/// Parses the row's input and checks every expectation of the row, and
/// every invariant of the engine on it (``InvariantVerifier``).
func verifyRFCRow(_ row: RFCRow) {
    let broken = InvariantVerifier(policy: row.policy).violations(of: row.bytes)
    #expect(broken == [], "invariants broken")
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

func rfcRepeat(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

// MARK: - RFC 5322 tables

/// Shorthands used in the tables.
private let obs = "obsolete-syntax"

enum RFC5322Tables {
    // §3.2.3: atext, atom, dot-atom-text; §3.4.1: local-part = dot-atom.
    static let atext: [RFCRow] = {
        var rows: [RFCRow] = [
            rfc("5322 §3.2.3 atext", "!#$%&'*+-/=?^_`{|}~@x.test", .strict, .valid,
                name: nil, address: "!#$%&'*+-/=?^_`{|}~@x.test"),
            rfc("5322 §3.2.3 ALPHA DIGIT", "Ann.Lee-1999@Example.TEST", .strict, .valid,
                address: "Ann.Lee-1999@Example.TEST"),
            rfc("5322 §3.2.3 dot-atom-text", "a.b.c.d@x.test", .strict, .valid, address: "a.b.c.d@x.test"),
            rfc("5322 §3.2.3 dot-atom-text: 1*atext first", ".ann@x.test", .strict, "leading-dot"),
            rfc("5322 §3.2.3 dot-atom-text: 1*atext first", ".ann@x.test", .standard, "leading-dot"),
            rfc("5322 §3.2.3 dot-atom-text: 1*atext last", "ann.@x.test", .strict, "trailing-dot"),
            rfc("5322 §4.4 obs-local-part = word *(\".\" word)", "ann.@x.test", .standard, "trailing-dot"),
            rfc("5322 §3.2.3 dot-atom-text: no empty atom", "ann..lee@x.test", .strict, "consecutive-dots"),
            rfc("5322 §4.4 obs-local-part has no empty word", "ann..lee@x.test", .standard, "consecutive-dots"),
            rfc("5322 §3.4.1 domain dot-atom", "ann@.x.test", .standard, "leading-dot"),
            rfc("5322 §3.4.1 domain dot-atom", "ann@x.test.", .standard, "trailing-dot"),
            rfc("5322 §3.4.1 domain dot-atom", "ann@x..test", .standard, "consecutive-dots"),
            rfc("5322 §3.4.1 domain dot-atom", "ann@x..test", .strict, "consecutive-dots"),
            // specials (§3.2.3) cannot appear unquoted in an atom.
            rfc("5322 §3.2.3 specials: \"\\\"\"", #"an"n@x.test"#, .standard, "unterminated-quote"),
            rfc("5322 §3.2.3 specials: \"(\"", "an(n@x.test", .standard, "unbalanced-comment"),
            rfc("5322 §3.2.3 specials: \")\"", "an)n@x.test", .standard, .oneOf(["unbalanced-comment", "invalid-character"])),
            rfc("5322 §3.2.3 specials: \"[\"", "an[n@x.test", .standard,
            .oneOf(["unterminated-domain-literal", "invalid-character"])),
            rfc("5322 §3.2.3 specials: \"<\"", "an<n@x.test", .standard, "unterminated-angle"),
            rfc("5322 §3.2.3 specials: \">\"", "an>n@x.test", .standard, .invalid),
            rfc("5322 §3.2.3 specials: \"]\"", "an]n@x.test", .standard, .invalid),
            rfc("5322 §3.2.3 specials: \"\\\\\"", #"an\n@x.test"#, .standard, .invalid),
            rfc("5322 §3.4.1 one \"@\"", "ann@lee@x.test", .standard, "multiple-at"),
            rfc("5322 §3.4.1 one \"@\"", "ann@lee@x.test", .lenient, "multiple-at"),
            rfc("5322 §3.4.1 local-part required", "@x.test", .standard, "empty-local-part"),
            rfc("5322 §3.4.1 local-part required", "@x.test", .lenient, "empty-local-part"),
            rfc("5322 §3.4.1 domain required", "ann@", .standard, "missing-domain"),
            rfc("5322 §3.4.1 domain required", "ann@", .lenient, "missing-domain"),
            rfc("5322 §3.4.1 addr-spec needs \"@\"", "ann.x.test", .standard, "missing-at"),
            rfc("5322 §3.4 a phrase alone is no mailbox", "Ann Lee", .standard, "not-an-address"),
            // §4.4 obs-addr-list reads CFWS alone as an empty element; a
            // person wrote it, so it is a chip, in error, never dropped.
            rfc("5322 §4.4 CFWS alone is no mailbox", "(call Bob first)", .standard, "comment-only"),
            rfc("5322 §4.4 CFWS alone is no mailbox", "(a (nested) one) (and another)", .lenient, "comment-only"),
            // lenient checks no grammar beyond lexical errors.
            rfc("lenient: grammar not checked", "ann..lee@x.test", .lenient, .valid, address: "ann..lee@x.test"),
            rfc("lenient: grammar not checked", ".ann.@x", .lenient, .valid, address: ".ann.@x"),
        ]
        // Every atext character on its own, between two letters, in strict.
        for c in "!#$%&'*+-/=?^_`{|}~" {
            rows.append(rfc("5322 §3.2.3 atext \(c)", "a\(c)b@x.test", .strict, .valid, address: .equals("a\(c)b@x.test")))
        }
        return rows
    }()

    // §3.2.1 quoted-pair, §3.2.4 quoted-string, §3.4.1 local-part = quoted-string,
    // §4.4 obs-local-part = word *("." word).
    static let quotedStrings: [RFCRow] = [
        rfc("5322 §3.2.4 qtext and space", #""ann lee"@x.test"#, .strict, .valid, address: #""ann lee"@x.test"#),
        rfc("5322 §3.2.1 quoted-pair DQUOTE", #""ann\"lee"@x.test"#, .strict, .valid, address: #""ann\"lee"@x.test"#),
        rfc("5322 §3.2.1 quoted-pair \\", #""ann\\lee"@x.test"#, .strict, .valid, address: #""ann\\lee"@x.test"#),
        rfc("5322 §3.2.1 quoted-pair WSP", #""ann\ lee"@x.test"#, .strict, .valid),
        rfc("5322 §3.2.4 \"@\" in qtext", #""ann@lee"@x.test"#, .strict, .valid, address: #""ann@lee"@x.test"#),
        rfc("5322 §3.2.4 \",\" in qtext (no separator)", #""lee,ann"@x.test"#, .strict, .valid, address: #""lee,ann"@x.test"#),
        rfc("5322 §3.2.4 \";\" in qtext (no separator)", #""lee;ann"@x.test"#, .strict, .valid, address: #""lee;ann"@x.test"#),
        rfc("5322 §3.2.4 \":\" in qtext (no group)", #""lee:ann"@x.test"#, .strict, .valid, address: #""lee:ann"@x.test"#),
        rfc("5322 §3.2.4 \"<>()[]\" in qtext", #""<a>(b)[c]"@x.test"#, .strict, .valid, address: #""<a>(b)[c]"@x.test"#),
        rfc("5322 §3.4.1 quotes needed for \"..\"", #""john..doe"@x.test"#, .strict, .valid, address: #""john..doe"@x.test"#),
        rfc("5322 §3.4.1 quotes needed for leading \".\"", #"".ann"@x.test"#, .strict, .valid),
        rfc("5322 §3.2.4 *([FWS] qcontent): empty", #"""@x.test"#, .strict, .valid, address: #"""@x.test"#),
        rfc("5322 §3.2.4 FWS (HTAB) in quoted-string", "\"ann\tlee\"@x.test", .strict, .valid),
        rfc("5322 §3.2.4 folding in quoted-string", "\"ann\r\n lee\"@x.test", .standard, .valid),
        rfc("5322 §3.4.1 dot-atom SHOULD be used", #""ann"@x.test"#, .strict, "unnecessary-quotes"),
        rfc("5322 §3.4.1 dot-atom SHOULD be used", #""ann.lee"@x.test"#, .strict, "unnecessary-quotes"),
        rfc("5322 §3.4.1 quoted-string form still valid", #""ann"@x.test"#, .standard, .valid, address: #""ann"@x.test"#),
        rfc("5322 §3.4.1 quoted-string form still valid", #""ann"@x.test"#, .lenient, .valid),
        rfc("5322 §3.2.4 closing DQUOTE", #""ann@x.test"#, .strict, "unterminated-quote"),
        rfc("5322 §3.2.4 closing DQUOTE", #""ann@x.test"#, .lenient, "unterminated-quote"),
        rfc("5322 §3.2.1 escaped DQUOTE does not close", #""ann\"@x.test"#, .standard, "unterminated-quote"),
        rfc("5322 §4.4 obs-local-part (quoted words)", #""ann"."lee"@x.test"#, .standard, .valid,
            address: #""ann"."lee"@x.test"#, warn: [obs]),
        rfc("5322 §4.4 obs-local-part (quoted words)", #""ann"."lee"@x.test"#, .strict, .error(obs)),
        rfc("5322 §4.4 obs-local-part (quoted + atom)", #""ann".lee@x.test"#, .standard, .valid, warn: [obs]),
        rfc("5322 §4.4 obs-local-part (quoted + atom)", #""ann".lee@x.test"#, .strict, .error(obs)),
        rfc("5322 §4.4 obs-local-part (atom + quoted)", #"ann."lee"@x.test"#, .standard, .valid, warn: [obs]),
        rfc("5322 §4.4 obs-local-part (atom + quoted)", #"ann."lee"@x.test"#, .strict, .error(obs)),
        rfc("5322 §4.4 obs-local-part needs \".\" between words", #""ann"lee@x.test"#, .standard, "invalid-local-part"),
        rfc("5322 §4.4 obs-local-part needs \".\" between words", #""ann"lee@x.test"#, .strict, "invalid-local-part"),
    ]

    // §3.2.2 FWS, comment, CFWS.
    static let comments: [RFCRow] = [
        rfc("5322 §3.4 note: comment after addr-spec", "ann@x.test (Ann Lee)", .standard, .valid,
            name: "Ann Lee", address: "ann@x.test"),
        rfc("5322 §3.2.2 comment", "ann@x.test (Ann Lee)", .strict, "comment-not-allowed"),
        rfc("5322 §3.2.2 quoted-pair \")\" in comment", #"ann@x.test (Ann \) Lee)"#, .standard, .valid,
            name: "Ann ) Lee", address: "ann@x.test"),
        rfc("5322 §3.2.2 quoted-pair \"(\" in comment", #"ann@x.test (Ann \( Lee)"#, .standard, .valid,
            name: "Ann ( Lee"),
        rfc("5322 §3.2.2 comments nest", "ann@x.test (Ann (the) Lee)", .standard, .valid,
            name: "Ann (the) Lee", address: "ann@x.test"),
        rfc("5322 §3.2.2 comment without text", "ann@x.test ()", .standard, .valid, name: nil, address: "ann@x.test"),
        rfc("5322 §3.2.2 comment is CFWS, no space needed", "ann@x.test(Ann)", .standard, .valid,
            name: "Ann", address: "ann@x.test"),
        rfc("5322 §3.2.2 folded before comment", "ann@x.test\r\n (Ann)", .standard, .valid,
            name: "Ann", address: "ann@x.test"),
        rfc("5322 §3.2.3 dot-atom [CFWS] before", "(c)ann@x.test", .standard, .valid, address: "ann@x.test"),
        rfc("5322 §3.2.3 dot-atom [CFWS] after local-part", "ann(c)@x.test", .standard, .valid, address: "ann@x.test"),
        rfc("5322 §3.2.3 dot-atom [CFWS] before domain", "ann@(c)x.test", .standard, .valid, address: "ann@x.test"),
        rfc("5322 §3.2.3 CFWS in addr-spec", "ann(c)@x.test", .strict, "comment-not-allowed"),
        rfc("5322 §3.2.2 unclosed comment", "ann@x.test (Ann", .standard, "unbalanced-comment"),
        rfc("5322 §3.2.2 unclosed comment", "ann@x.test (Ann", .lenient, "unbalanced-comment"),
        rfc("5322 §3.2.2 unclosed nested comment", "ann@x.test (Ann (Lee)", .standard, "unbalanced-comment"),
        rfc("5322 §3.2.2 stray \")\"", "ann@x.test (Ann))", .standard, .oneOf(["unbalanced-comment", "invalid-character"])),
        rfc("5322 §3.2.2 CFWS in phrase is not part of the name", "Ann (Nan) Lee <ann@x.test>", .standard, .valid,
            name: "Ann Lee", address: "ann@x.test"),
        rfc("5322 §3.4 angle-addr [CFWS] after \">\"", "Ann <ann@x.test> (work)", .standard, .valid,
            name: "Ann", address: "ann@x.test"),
        rfc("5322 §3.4 angle-addr [CFWS] after \">\"", "Ann <ann@x.test> (work)", .strict, "comment-not-allowed"),
        rfc("5322 §3.2.2 comment in display name", "Ann (Nan) Lee <ann@x.test>", .strict, "comment-not-allowed"),
    ]

    // §3.4 mailbox, name-addr, angle-addr, display-name; §3.2.5 phrase; §4.1 obs-phrase.
    static let nameAddr: [RFCRow] = [
        rfc("5322 §3.4 name-addr", "Ann Lee <ann@x.test>", .strict, .valid, name: "Ann Lee", address: "ann@x.test", group: nil),
        rfc("5322 §3.4 name-addr without display-name", "<ann@x.test>", .strict, .valid, name: nil, address: "ann@x.test"),
        rfc("5322 §3.4 angle-addr [CFWS] is optional", "Ann<ann@x.test>", .strict, .valid, name: "Ann", address: "ann@x.test"),
        rfc("5322 §3.2.5 phrase: several atoms", "  Ann   Q   Lee   <ann@x.test>", .strict, .valid, name: "Ann Q Lee"),
        rfc("5322 §3.2.5 phrase: quoted-string word", #""Lee, Ann" <ann@x.test>"#, .strict, .valid,
            name: "Lee, Ann", address: "ann@x.test"),
        rfc("5322 §3.2.5 phrase: quoted-string then atom", #""Ann" Lee <ann@x.test>"#, .strict, .valid, name: "Ann Lee"),
        rfc("5322 §3.2.1 quoted-pair in display name", #""Ann \"Nan\" Lee" <ann@x.test>"#, .strict, .valid,
            name: #"Ann "Nan" Lee"#),
        rfc("5322 §3.2.1 quoted-pair \\ in display name", #""Ann\\Lee" <ann@x.test>"#, .strict, .valid, name: #"Ann\Lee"#),
        rfc("5322 §3.2.4 folding inside quoted display name", "\"Ann\r\n Lee\" <ann@x.test>", .strict, .valid,
            name: "Ann Lee"),
        rfc("5322 §3.2.2 folding between phrase and angle-addr", "Ann\r\n <ann@x.test>", .strict, .valid,
            name: "Ann", address: "ann@x.test"),
        rfc("5322 §3.2.2 folding with HTAB", "Ann Lee\r\n\t<ann@x.test>", .strict, .valid, name: "Ann Lee"),
        rfc("5322 §3.2.3 \"?\" is atext (A.1.2 note)", "Who? <one@y.test>", .strict, .valid, name: "Who?", address: "one@y.test"),
        rfc("5322 §3.4 angle-addr: \"<\" addr-spec \">\"", "Ann <>", .standard, "empty-address"),
        rfc("5322 §3.4 angle-addr: closing \">\"", "Ann <ann@x.test", .standard, "unterminated-angle"),
        rfc("5322 §3.4 angle-addr: closing \">\"", "<ann@x.test", .lenient, "unterminated-angle"),
        rfc("5322 §4.1 obs-phrase starts with a word", ".Ann <ann@x.test>", .standard, "invalid-display-name"),
        rfc("5322 §4.1 obs-phrase: \".\" in a phrase", "Joe Q. Public <john.q.public@example.com>", .standard, .valid,
            name: "Joe Q. Public", address: "john.q.public@example.com", warn: [obs]),
        rfc("5322 §4.1 obs-phrase: \".\" in a phrase", "Joe Q. Public <john.q.public@example.com>", .strict, .error(obs)),
        rfc("5322 §3.2.5 phrase: \".\" quoted", #""Joe Q. Public" <john.q.public@example.com>"#, .strict, .valid,
            name: "Joe Q. Public"),
        rfc("5322 §3.4 mailbox = name-addr / addr-spec", "Ann Lee ann@x.test", .standard, .valid,
            name: "Ann Lee", address: "ann@x.test", warn: ["missing-angle-brackets"]),
        rfc("5322 §3.4 mailbox = name-addr / addr-spec", "Ann Lee ann@x.test", .strict, .invalid),
        rfc("5322 §3.4.1 addr-spec", "ann@x.test", .strict, .valid, name: nil, address: "ann@x.test", group: nil,
            domain: "x.test"),
        rfc("5322 §3.2.3 dot-atom = [CFWS] … [CFWS] inside angle-addr", "< ann@x.test >", .strict, .valid,
            address: "ann@x.test"),
        rfc("5322 §3.2.3 dot-atom [CFWS] inside angle-addr", "Ann <ann@x.test >", .strict, .valid, address: "ann@x.test"),
    ]

    // §3.4 group, group-list, display-name; §4.4 obs-group-list, obs-mbox-list.
    static let groups: [RFCRow] = [
        rfcList("5322 §3.4 group", "Team: ann@x.test, Bob <bob@y.test>;", .strict, [
            member(nil, "ann@x.test", group: "Team"),
            member("Bob", "bob@y.test", group: "Team"),
        ]),
        rfcList("5322 §3.4 group: empty group-list", "Team:;", .strict, [emptyGroup("Team")]),
        rfcList("5322 §3.4 group: empty group-list", "undisclosed-recipients:;", .standard, [
            emptyGroup("undisclosed-recipients"),
        ]),
        rfcList("5322 §3.4 group-list = CFWS (FWS only)", "Team:   ;", .strict, [emptyGroup("Team")]),
        rfcList("5322 §3.4 group display-name quoted", #""Team, A": ann@x.test;"#, .strict, [
            member(nil, "ann@x.test", group: "Team, A"),
        ]),
        rfcList("5322 §3.2.2 comment in group display-name", "Team (dev): ann@x.test;", .standard, [
            member(nil, "ann@x.test", group: "Team"),
        ]),
        rfcList("5322 §3.4 group ends at \";\"", "Team: ann@x.test; bob@y.test", .standard, [
            member(nil, "ann@x.test", group: "Team"),
            member(nil, "bob@y.test", group: nil),
        ]),
        rfcList("5322 §3.4 address-list of group and mailbox", "Team: ann@x.test;, Bob <bob@y.test>", .strict, [
            member(nil, "ann@x.test", group: "Team"),
            member("Bob", "bob@y.test", group: nil),
        ]),
        rfcList("5322 §3.4 two groups", "A: a@x.test;B: b@y.test, c@z.test;", .strict, [
            member(nil, "a@x.test", group: "A"),
            member(nil, "b@y.test", group: "B"),
            member(nil, "c@z.test", group: "B"),
        ]),
        rfcList("5322 §4.4 obs-group-list", "Team: , ,;", .standard, [emptyGroup("Team")]),
        rfcList("5322 §4.4 obs-mbox-list in a group", "Team: , ann@x.test, ;", .standard, [
            member(nil, "ann@x.test", group: "Team"),
        ]),
        rfcList("5322 §3.2.4 \":\" quoted is no group", #""Mary Smith: Personal Account" <smith@home.example>"#,
                .strict, [member("Mary Smith: Personal Account", "smith@home.example", group: nil)]),
        rfcList("5322 §4.4 obs-addr-list null members", ", ann@x.test,, bob@y.test ,", .standard, [
            member(nil, "ann@x.test"), member(nil, "bob@y.test"),
        ]),
        rfcList("5322 §3.4 address-list", "ann@x.test, Bob <bob@y.test>, \"C, D\" <cd@z.test>", .strict, [
            member(nil, "ann@x.test"), member("Bob", "bob@y.test"), member("C, D", "cd@z.test"),
        ]),
        rfcList("5322 §2.2.3 folding is no line break", "ann@x.test,\r\n bob@y.test,\r\n\tcarol@z.test", .strict, [
            member(nil, "ann@x.test"), member(nil, "bob@y.test"), member(nil, "carol@z.test"),
        ]),
    ]

    // §4.4 obsolete addressing (routes, CFWS between dot-separated parts) and
    // §4.2 obs-FWS: accepted with a warning in standard, errors in strict.
    static let obsolete: [RFCRow] = [
        rfc("5322 §4.4 obs-route", "Mary Smith <@node.test:mary@example.net>", .standard, .valid,
            name: "Mary Smith", address: "mary@example.net", warn: [obs]),
        rfc("5322 §4.4 obs-route", "Mary Smith <@node.test:mary@example.net>", .strict, .error(obs)),
        rfc("5322 §4.4 obs-route SHOULD be ignored", "<@a.test,@b.test:mary@example.net>", .standard, .valid,
            name: nil, address: "mary@example.net", domain: "example.net", warn: [obs]),
        rfc("5322 §4.4 obs-domain-list null members", "<,@a.test,,@b.test:mary@example.net>", .standard, .valid,
            address: "mary@example.net"),
        rfc("5321 §4.1.2 A-d-l source route", "<@a.test,@b.test:mary@example.net>", .strict, .error(obs)),
        rfc("5322 §4.4 obs-domain: CFWS around \".\"", "jdoe@test  . example", .standard, .valid,
            address: "jdoe@test.example", warn: [obs]),
        rfc("5322 §4.4 obs-domain: CFWS around \".\"", "jdoe@test  . example", .strict, .error(obs)),
        rfc("5322 §4.4 obs-local-part: CFWS around \".\"", "ann . lee@x.test", .standard, .valid,
            address: "ann.lee@x.test", warn: [obs]),
        rfc("5322 §4.4 obs-local-part: CFWS around \".\"", "ann . lee@x.test", .strict, .error(obs)),
        rfc("5322 §4.4 obs-domain with comment", "John Doe <jdoe@machine(comment).  example>", .standard, .valid,
            name: "John Doe", address: "jdoe@machine.example", warn: [obs]),
        rfc("5322 §4.4 obs-domain with comment", "John Doe <jdoe@machine(comment).  example>", .strict,
            .oneOf(["comment-not-allowed", obs])),
        rfc("5322 A.6.3 obs-local-part and obs-domain", "<1234   @   local(blah)  .machine .example>", .standard, .valid,
            address: "1234@local.machine.example", warn: [obs]),
        rfc("5322 A.6.3 obs-local-part and obs-domain", "<1234   @   local(blah)  .machine .example>", .strict,
            .oneOf(["comment-not-allowed", obs])),
        rfc("5322 §4.2 obs-FWS: a line of white space only", "Mary Smith\r\n  \r\n      <mary@example.net>", .standard,
            .valid, name: "Mary Smith", address: "mary@example.net"),
    ]

    // RFC 5322 §3.5 / RFC 5321 §4.1.2: control characters. RFC 5322 §4.1 lets
    // a receiver parse obs-NO-WS-CTL, but RFC 5321 §4.1.2 forbids them in
    // mailbox names, so no policy accepts them.
    static let controls: [RFCRow] = [
        rfc("5321 §4.1.2 no control characters", "ann\u{07}@x.test", .standard, "invalid-character"),
        rfc("5321 §4.1.2 no control characters", "ann\u{07}@x.test", .lenient, "invalid-character"),
        rfc("5321 §4.1.2 no control characters", "ann@x\u{7F}.test", .strict, "invalid-character"),
        rfc("5322 §4.1 NUL is no longer allowed", "ann\u{00}@x.test", .lenient, "invalid-character"),
        rfc("5321 §4.1.2 qtextSMTP has no controls", "\"ann\u{01}\"@x.test", .standard, "invalid-character"),
        rfc("implementation bound: maxChipBytes", rfcRepeat("a", 70_000) + "@x.test", .standard, "too-long"),
    ]

    static let all: [RFCRow] = atext + quotedStrings + comments + nameAddr + groups + obsolete + controls
}

// MARK: - Appendix A

enum RFC5322AppendixA {
    static let lists: [RFCRow] = [
        // A.1.1
        rfcList("5322 A.1.1 From", "John Doe <jdoe@machine.example>", .strict, [
            member("John Doe", "jdoe@machine.example"),
        ]),
        rfcList("5322 A.1.1 Sender", "Michael Jones <mjones@machine.example>", .strict, [
            member("Michael Jones", "mjones@machine.example"),
        ]),
        rfcList("5322 A.1.1 To", "Mary Smith <mary@example.net>", .strict, [member("Mary Smith", "mary@example.net")]),
        // A.1.2
        rfcList("5322 A.1.2 From", #""Joe Q. Public" <john.q.public@example.com>"#, .strict, [
            member("Joe Q. Public", "john.q.public@example.com"),
        ]),
        rfcList("5322 A.1.2 To", "Mary Smith <mary@x.test>, jdoe@example.org, Who? <one@y.test>", .strict, [
            member("Mary Smith", "mary@x.test"),
            member(nil, "jdoe@example.org"),
            member("Who?", "one@y.test"),
        ]),
        rfcList("5322 A.1.2 Cc", #"<boss@nil.test>, "Giant; \"Big\" Box" <sysservices@example.net>"#, .strict, [
            member(nil, "boss@nil.test"),
            member(#"Giant; "Big" Box"#, "sysservices@example.net"),
        ]),
        // A.1.3
        rfcList("5322 A.1.3 From", "Pete <pete@silly.example>", .strict, [member("Pete", "pete@silly.example")]),
        rfcList("5322 A.1.3 To", "A Group:Ed Jones <c@a.test>,joe@where.test,John <jdoe@one.test>;", .strict, [
            member("Ed Jones", "c@a.test", group: "A Group"),
            member(nil, "joe@where.test", group: "A Group"),
            member("John", "jdoe@one.test", group: "A Group"),
        ]),
        rfcList("5322 A.1.3 Cc", "Undisclosed recipients:;", .strict, [emptyGroup("Undisclosed recipients")]),
        // A.2
        rfcList("5322 A.2 Reply-To", #""Mary Smith: Personal Account" <smith@home.example>"#, .strict, [
            member("Mary Smith: Personal Account", "smith@home.example"),
        ]),
        rfcList("5322 A.2 To", "John Doe <jdoe@machine.example>", .strict, [member("John Doe", "jdoe@machine.example")]),
        // A.3
        rfcList("5322 A.3 Resent-From", "Mary Smith <mary@example.net>", .strict, [member("Mary Smith", "mary@example.net")]),
        rfcList("5322 A.3 Resent-To", "Jane Brown <j-brown@other.example>", .strict, [
            member("Jane Brown", "j-brown@other.example"),
        ]),
        // A.4
        rfcList("5322 A.4 From", "John Doe <jdoe@node.example>", .strict, [member("John Doe", "jdoe@node.example")]),
        rfcList("5322 A.4 Received: for <…>", "<mary@example.net>", .strict, [member(nil, "mary@example.net")]),
        // A.5: comments and folding white space, legal in the current syntax.
        rfcList("5322 A.5 From", #"Pete(A nice \) chap) <pete(his account)@silly.test(his host)>"#, .standard, [
            member("Pete", "pete@silly.test"),
        ]),
        rfcList("5322 A.5 From (no comments in strict)",
                #"Pete(A nice \) chap) <pete(his account)@silly.test(his host)>"#, .strict, [
            member(.unchecked, .unchecked, group: .unchecked, "comment-not-allowed"),
        ]),
        // A.6.1: obsolete addressing.
        rfcList("5322 A.6.1 From", "Joe Q. Public <john.q.public@example.com>", .standard, [
            member("Joe Q. Public", "john.q.public@example.com", warn: [obs]),
        ]),
        rfcList("5322 A.6.1 From", "Joe Q. Public <john.q.public@example.com>", .strict, [
            member(.unchecked, .unchecked, group: .unchecked, .error(obs)),
        ]),
        rfcList("5322 A.6.1 To", "Mary Smith <@node.test:mary@example.net>, , jdoe@test  . example", .standard, [
            member("Mary Smith", "mary@example.net", warn: [obs]),
            member(nil, "jdoe@test.example", warn: [obs]),
        ]),
        rfcList("5322 A.6.1 To", "Mary Smith <@node.test:mary@example.net>, , jdoe@test  . example", .strict, [
            member(.unchecked, .unchecked, group: .unchecked, .error(obs)),
            member(.unchecked, .unchecked, group: .unchecked, .error(obs)),
        ]),
        // A.6.3: obsolete white space and comments ("__" in the RFC is two spaces).
        rfcList("5322 A.6.3 From", "John Doe <jdoe@machine(comment).  example>", .standard, [
            member("John Doe", "jdoe@machine.example", warn: [obs]),
        ]),
        rfcList("5322 A.6.3 To", "Mary Smith\r\n  \r\n          <mary@example.net>", .standard, [
            member("Mary Smith", "mary@example.net"),
        ]),
        rfcList("5322 A.6.3 From", "John Doe <jdoe@machine(comment).  example>", .strict, [
            member(.unchecked, .unchecked, group: .unchecked, .oneOf(["comment-not-allowed", obs])),
        ]),
    ]
}

// MARK: - Disputed

/// Rows where the implementation disagrees with RFC 5322 (see the report).
enum RFC5322Disputed {
    static let rows: [RFCRow] = [
        // §3.4: group-list = mailbox-list / CFWS / obs-group-list, so a
        // group holding only a comment is an empty group.
        rfcList("5322 §3.4 group-list = CFWS", "Team: (nobody) ;", .standard, [emptyGroup("Team")]),
        rfcList("5322 A.5 Cc", "(Empty list)(start)Hidden recipients  :(nobody(that I know))  ;", .standard, [
            emptyGroup("Hidden recipients"),
        ]),
        // §3.2.3 dot-atom = [CFWS] dot-atom-text [CFWS] and §3.4.1
        // local-part "@" domain: white space around "@" is current syntax
        // ("SHOULD NOT be used"), not the obsolete syntax of §4.4.
        rfc("5322 §3.4.1 FWS around \"@\" is not obsolete", "<ann @ x.test>", .strict, .valid, address: "ann@x.test"),
        // §3.2.2: CFWS "MUST NOT be inserted in such a way that any line of
        // a folded header field is made up entirely of WSP characters";
        // only §4.2 obs-FWS allows it (A.6.3), so strict rejects it.
        rfc("5322 §3.2.2/§4.2 obs-FWS: a line of white space only", "Mary Smith\r\n  \r\n      <mary@example.net>",
            .strict, .error(obs)),
        // §3.4: group = display-name ":" [group-list] ";" [CFWS]; the CFWS
        // after ";" belongs to the group and is no chip of its own.
        rfcList("5322 §3.4 group [CFWS] after \";\"", "Team: ann@x.test; (end)", .standard, [
            member(nil, "ann@x.test", group: "Team"),
        ]),
        rfcList("5322 A.5 To",
                "A Group(Some people)\r\n     :Chris Jones <c@(Chris's host.)public.example>,\r\n"
                + "         joe@example.org,\r\n  John <jdoe@one.test> (my dear friend); (the end of the group)",
                .standard, [
            member("Chris Jones", "c@public.example", group: "A Group"),
            member(nil, "joe@example.org", group: "A Group"),
            member("John", "jdoe@one.test", group: "A Group"),
        ]),
    ]
}

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
