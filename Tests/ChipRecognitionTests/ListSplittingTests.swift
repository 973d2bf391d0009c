import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

/// How a list splits into chips, as a person expects it to.
@Suite("List splitting")
struct ListSplittingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var input: String
        var chips: [String]
        var groups: [String?]? = nil
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: "", chips: []),
        Case(input: "   ,, ;\n", chips: []),
        Case(input: "ann@x.org", chips: ["ann@x.org"]),
        Case(input: " \t ann@x.org \t , \r\n", chips: ["ann@x.org"]),
        Case(input: "Ann  <a@x.org>  ;", chips: ["Ann  <a@x.org>"]),
        Case(input: "ann@x.org, bob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        Case(input: "ann@x.org;bob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        Case(input: "ann@x.org\nbob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        Case(input: "ann@x.org\r\nbob@y.org", chips: ["ann@x.org", "bob@y.org"]),
        // A space after a complete bare address separates.
        Case(input: "ann@x.org bob@y.org\tcarol@z.org", chips: ["ann@x.org", "bob@y.org", "carol@z.org"]),
        // ... but not before a comment, `<`, a dot or an `@`.
        Case(input: "ann@x.org (Ann Lee) bob@y.org", chips: ["ann@x.org (Ann Lee)", "bob@y.org"]),
        Case(input: "ann@x.org <ann@x.org>", chips: ["ann@x.org <ann@x.org>"]),
        Case(input: "ann @ x . org", chips: ["ann @ x . org"]),
        Case(input: "ann@x .org", chips: ["ann@x .org"]),
        // Names are not split.
        Case(input: "Ann Lee <ann@x.org>", chips: ["Ann Lee <ann@x.org>"]),
        Case(input: "Ann Lee ann@x.org bob@y.org", chips: ["Ann Lee ann@x.org", "bob@y.org"]),
        // A complete name-addr followed by more text starts a new chip.
        Case(input: "Ann <a@x.org> Bob <b@y.org>", chips: ["Ann <a@x.org>", "Bob <b@y.org>"]),
        Case(input: "<a@x.org><b@y.org>", chips: ["<a@x.org>", "<b@y.org>"]),
        Case(input: "Ann <a@x.org> (work) Bob <b@y.org>", chips: ["Ann <a@x.org> (work)", "Bob <b@y.org>"]),
        // Separators inside quotes, comments, brackets and literals are text.
        Case(input: "\"Lee, Ann\" <ann@x.org>, b@y.org", chips: ["\"Lee, Ann\" <ann@x.org>", "b@y.org"]),
        Case(input: "a@x.org (Lee, Ann; x)", chips: ["a@x.org (Lee, Ann; x)"]),
        Case(input: "<@r.example,@s.example:a@x.org>", chips: ["<@r.example,@s.example:a@x.org>"]),
        Case(input: "a@[IPv6:2001:db8::1], b@y.org", chips: ["a@[IPv6:2001:db8::1]", "b@y.org"]),
        Case(input: "\"a\\\"b, c\" <a@x.org>", chips: ["\"a\\\"b, c\" <a@x.org>"]),
        Case(input: "a@x.org ((nested, (deep)) c), b@y.org", chips: ["a@x.org ((nested, (deep)) c)", "b@y.org"]),
        // Folding white space continues a chip; a hard line break ends it.
        Case(input: "\"Ann\r\n Lee\" <a@x.org>", chips: ["\"Ann\r\n Lee\" <a@x.org>"]),
        Case(input: "Ann\r\n Lee <a@x.org>", chips: ["Ann\r\n Lee <a@x.org>"]),
        Case(input: "\"Ann\nb@y.org", chips: ["\"Ann", "b@y.org"]),
        Case(input: "Ann <a@x.org\nb@y.org", chips: ["Ann <a@x.org", "b@y.org"]),
        Case(input: "a@x.org (oops\nb@y.org", chips: ["a@x.org (oops", "b@y.org"]),
        // A construct still open when the list ends: its chip ends before
        // the first `,` or `;` after its opener, and the rest is read again.
        Case(input: "\"Ann, a@x.org, b@y.org", chips: ["\"Ann", "a@x.org", "b@y.org"]),
        Case(input: "Ann <ann@x.org, b@x.org, c@x.org", chips: ["Ann <ann@x.org", "b@x.org", "c@x.org"]),
        Case(input: "Ann <ann@x.org ; b@y.org", chips: ["Ann <ann@x.org", "b@y.org"]),
        Case(input: "a@x.org (oops, b@y.org", chips: ["a@x.org (oops", "b@y.org"]),
        Case(input: "a@[192.0.2.1, b@y.org", chips: ["a@[192.0.2.1", "b@y.org"]),
        Case(input: "x (a, (b, (c, d@x.org", chips: ["x (a", "(b", "(c", "d@x.org"]),
        Case(input: "\"Lee, Ann\" <ann@x.org, b@y.org", chips: ["\"Lee, Ann\" <ann@x.org", "b@y.org"]),
        Case(input: "Ann <ann@x.org", chips: ["Ann <ann@x.org"]),
        Case(input: "\"Ann (x, y\" <a@x.org>, \"Bo, b@y.org", chips: ["\"Ann (x, y\" <a@x.org>", "\"Bo", "b@y.org"]),
        Case(input: "Team: \"Ann, a@x.org; b@y.org", chips: ["\"Ann", "a@x.org", "b@y.org"],
             groups: ["Team", "Team", nil]),
        // Text of only comments is a chip (in error); a group's own
        // comments (its whole content, or after its `;`) are the group's.
        Case(input: "(call Bob first)", chips: ["(call Bob first)"]),
        Case(input: "a@x.org, (call Bob first), b@y.org", chips: ["a@x.org", "(call Bob first)", "b@y.org"]),
        Case(input: "Team: (nobody);", chips: ["Team: (nobody);"], groups: ["Team"]),
        Case(input: "Team: (nobody)", chips: ["Team: (nobody)"], groups: ["Team"]),
        Case(input: "Team: (a), b@y.org;", chips: ["(a)", "b@y.org"], groups: ["Team", "Team"]),
        Case(input: "Team: a@x.org; (end), b@y.org", chips: ["a@x.org", "b@y.org"], groups: ["Team", nil]),
        Case(input: "Team: a@x.org;, (c)", chips: ["a@x.org", "(c)"], groups: ["Team", nil]),
        // Groups.
        Case(input: "Team: a@x.org, b@y.org; c@z.org", chips: ["a@x.org", "b@y.org", "c@z.org"],
             groups: ["Team", "Team", nil]),
        Case(input: "undisclosed-recipients:;", chips: ["undisclosed-recipients:;"],
             groups: ["undisclosed-recipients"]),
        Case(input: "Empty : ; a@x.org", chips: ["Empty : ;", "a@x.org"], groups: ["Empty", nil]),
        Case(input: "Team: a@x.org, b@y.org", chips: ["a@x.org", "b@y.org"], groups: ["Team", "Team"]),
        Case(input: "Team: a@x.org\nb@y.org;", chips: ["a@x.org", "b@y.org"], groups: ["Team", nil]),
        Case(input: "\"The Team\" (x): a@x.org;", chips: ["a@x.org"], groups: ["The Team"]),
        // `mailto:` is a link, not a group.
        Case(input: "mailto:a@x.org", chips: ["mailto:a@x.org"], groups: [nil]),
        Case(input: "MailTo:a@x.org", chips: ["MailTo:a@x.org"], groups: [nil]),
        Case(input: "mail to: a@x.org", chips: ["a@x.org"], groups: ["mail to"]),
        // However often a link generator repeats it.
        Case(input: "mailto:mailto:a@x.org, b@y.org", chips: ["mailto:mailto:a@x.org", "b@y.org"], groups: [nil, nil]),
        Case(input: "MAILTO:mailto:Mailto:a@x.org", chips: ["MAILTO:mailto:Mailto:a@x.org"], groups: [nil]),
        Case(input: "mailto: mailto:a@x.org", chips: ["mailto: mailto:a@x.org"], groups: [nil]),
        Case(input: "mailto:mailto:Team: a@x.org;", chips: ["a@x.org"], groups: ["Team"]),
        // Folding white space (CRLF then a space or tab) is white space
        // wherever a space is: after a complete bare address it separates.
        Case(input: "a@x.org\r\n b@x.org", chips: ["a@x.org", "b@x.org"]),
        Case(input: "a@x.org\n\tb@x.org\r\n \tc@x.org", chips: ["a@x.org", "b@x.org", "c@x.org"]),
        Case(input: "a@x.org\r\n (Ann)", chips: ["a@x.org\r\n (Ann)"]),
        Case(input: "a@x.org\r\n <a@x.org>", chips: ["a@x.org\r\n <a@x.org>"]),
        Case(input: "mailto:\r\n a@x.org", chips: ["mailto:\r\n a@x.org"], groups: [nil]),
        // Junk still becomes chips.
        Case(input: "???, <<>>", chips: ["???", "<<>", ">"]),
        Case(input: ")(", chips: [")("]),
    ]

    @Test(arguments: cases)
    func splitsListsAsAPersonExpects(_ c: Case) {
        let chips = AddressList.parse(c.input)
        #expect(chips.map(\.rawText) == c.chips)
        if let groups = c.groups {
            #expect(chips.map(\.group) == groups)
        }
    }
}
