// Each rule of a ValidationPolicy, changed alone from the standard policy,
// changes what the grammar makes of a chip that depends on it, and only as
// that rule says (the grammar reads the rules as plain flags copied from
// the policy: a rule copied to the wrong flag, or not at all, fails here,
// even where the presets give two rules the same value).

import Testing
import ChipSyntax
@testable import ChipRecognition

@Suite("Each policy rule reaches the grammar alone")
struct PolicyRuleTests {
    /// What a policy makes of the row's first chip.
    enum Outcome: Sendable, Equatable {
        case valid
        case error(String)
        /// Some error, whichever the grammar meets first.
        case anyError

        func matches(_ error: ChipError?) -> Bool {
            switch self {
            case .valid: return error == nil
            case .error(let code): return error?.code == code
            case .anyError: return error != nil
            }
        }
    }

    struct Row: Sendable, CustomStringConvertible {
        let rule: String
        /// The standard policy with this one rule changed.
        let change: @Sendable (inout ValidationPolicy) -> Void
        let text: String
        /// The first chip under each policy.
        let standard: Outcome
        let changed: Outcome
        /// A warning the valid side carries, if any.
        let warning: ChipWarnings?
        var description: String { "\(rule): \(text.debugDescription)" }
    }

    static let rows: [Row] = [
        // RFC 5322 §4.1: a dot in an unquoted name is obs-phrase.
        Row(rule: "allowsObsoleteSyntax", change: { $0.allowsObsoleteSyntax = false }, text: "Ann M. Lee <ann@x.org>",
            standard: .valid, changed: .error("obsolete-syntax"), warning: .obsoleteSyntax),
        // RFC 5322 §3.2.2: CFWS may hold comments.
        Row(rule: "allowsComments", change: { $0.allowsComments = false }, text: "ann@x.org (Ann Lee)",
            standard: .valid, changed: .error("comment-not-allowed"), warning: nil),
        // A quoted local part that would be a valid dot-atom unquoted.
        Row(rule: "allowsUnnecessaryQuotes", change: { $0.allowsUnnecessaryQuotes = false }, text: "\"ann\"@x.org",
            standard: .valid, changed: .error("unnecessary-quotes"), warning: nil),
        // A name before a bare address, without `<…>`: without the rule no
        // bracket tells the address, and some error stands.
        Row(rule: "allowsMissingAngleBrackets", change: { $0.allowsMissingAngleBrackets = false }, text: "Ann Lee ann@x.org",
            standard: .valid, changed: .anyError, warning: .missingAngleBrackets),
        // RFC 5322 §3.2.3: a dot-atom has no two dots side by side.
        Row(rule: "checksGrammar", change: { $0.checksGrammar = false }, text: "a..b@x.org",
            standard: .error("consecutive-dots"), changed: .valid, warning: nil),
        // RFC 5321 §4.1.2: an Ldh-str ends with a letter or digit.
        Row(rule: "requiresHostName", change: { $0.requiresHostName = false }, text: "ann@x-.test",
            standard: .error("invalid-domain-label"), changed: .valid, warning: nil),
        // RFC 3696 §2: a domain of one label is no Internet domain.
        Row(rule: "requiresDottedDomain", change: { $0.requiresDottedDomain = true }, text: "ann@localhost",
            standard: .valid, changed: .error("domain-missing-dot"), warning: .domainMissingDot),
        // RFC 5321 §4.5.3.1.1: a local part of at most 64 octets.
        Row(rule: "enforcesLengthLimits", change: { $0.enforcesLengthLimits = false },
            text: String(repeating: "a", count: 65) + "@x.org",
            standard: .error("local-part-too-long"), changed: .valid, warning: nil),
        // Outlook's `Last, First` in a list separated by `;`.
        Row(rule: "allowsUnquotedCommaInName", change: { $0.allowsUnquotedCommaInName = false },
            text: "Lee, Ann <ann@x.org>; bo@y.org",
            standard: .valid, changed: .error("invalid-display-name"), warning: .unquotedComma),
    ]

    @Test(arguments: rows)
    func ruleChangesOnlyWhatItSays(_ row: Row) {
        var policy = ValidationPolicy.standard
        row.change(&policy)
        #expect(policy != .standard, "the row changes its rule")
        let before = AddressList.parse(row.text, policy: .standard).first
        let after = AddressList.parse(row.text, policy: policy).first
        guard let before, let after else {
            Issue.record("no chip in \(row.text.debugDescription)")
            return
        }
        #expect(row.standard.matches(before.error), "standard: \(String(describing: before.error))")
        #expect(row.changed.matches(after.error), "changed: \(String(describing: after.error))")
        if let warning = row.warning {
            let valid = before.error == nil ? before : after
            #expect(valid.warnings.contains(warning), "the valid side warns \(warning)")
        }
    }

    /// The flags the grammar reads are the policy's own, rule by rule, for
    /// the presets and for each rule changed alone.
    @Test func grammarRulesCopyEveryRule() {
        var policies: [ValidationPolicy] = [.strict, .standard, .lenient]
        for row in Self.rows {
            var p = ValidationPolicy.standard
            row.change(&p)
            policies.append(p)
        }
        for p in policies {
            let r = p.grammarRules
            #expect(r.allowsObsoleteSyntax == p.allowsObsoleteSyntax)
            #expect(r.allowsComments == p.allowsComments)
            #expect(r.allowsUnnecessaryQuotes == p.allowsUnnecessaryQuotes)
            #expect(r.allowsMissingAngleBrackets == p.allowsMissingAngleBrackets)
            #expect(r.checksGrammar == p.checksGrammar)
            #expect(r.requiresHostName == p.requiresHostName)
            #expect(r.requiresDottedDomain == p.requiresDottedDomain)
            #expect(r.enforcesLengthLimits == p.enforcesLengthLimits)
            #expect(r.allowsUnquotedCommaInName == p.allowsUnquotedCommaInName)
        }
    }
}
