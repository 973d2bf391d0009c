// Tables derived from RFC 5322 (Internet Message Format): the productions of
// sections 3.2 to 3.4, the obsolete addressing of section 4 (4.1, 4.2, 4.4)
// and the address lists of Appendix A.1 to A.6.

import ChipRecognition

/// Shorthands used in the tables.
private let obs = "obsolete-syntax"

public enum RFC5322Tables {
    // §3.2.3: atext, atom, dot-atom-text; §3.4.1: local-part = dot-atom.
    public static let atext: [RFCRow] = {
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
    public static let quotedStrings: [RFCRow] = [
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
    public static let comments: [RFCRow] = [
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
    public static let nameAddr: [RFCRow] = [
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
    public static let groups: [RFCRow] = [
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
    public static let obsolete: [RFCRow] = [
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
    public static let controls: [RFCRow] = [
        rfc("5321 §4.1.2 no control characters", "ann\u{07}@x.test", .standard, "invalid-character"),
        rfc("5321 §4.1.2 no control characters", "ann\u{07}@x.test", .lenient, "invalid-character"),
        rfc("5321 §4.1.2 no control characters", "ann@x\u{7F}.test", .strict, "invalid-character"),
        rfc("5322 §4.1 NUL is no longer allowed", "ann\u{00}@x.test", .lenient, "invalid-character"),
        rfc("5321 §4.1.2 qtextSMTP has no controls", "\"ann\u{01}\"@x.test", .standard, "invalid-character"),
        rfc("implementation bound: maxChipBytes", rfcRepeat("a", 70_000) + "@x.test", .standard, "too-long"),
    ]

    public static let all: [RFCRow] = atext + quotedStrings + comments + nameAddr + groups + obsolete + controls
}

public enum RFC5322AppendixA {
    public static let lists: [RFCRow] = [
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

/// Rows where the implementation disagrees with RFC 5322 (see the report).
public enum RFC5322Disputed {
    public static let rows: [RFCRow] = [
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
