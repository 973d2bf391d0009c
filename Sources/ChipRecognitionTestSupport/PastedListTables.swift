import ChipRecognition

/// Lists as people paste them from other programs: Outlook's `Last, First`
/// names separated by `;`, `mailto:` links with %-escapes (RFC 6068), and
/// bare addresses typed with a full-width `＠`. Every row also goes through
/// the invariant verifier: chunked scanning, typing key by key and pasting
/// give the same chips.
public enum PastedListTables {
    public static let outlook: [RFCRow] = [
        // The shape Outlook writes: `;` between mailboxes, unquoted names.
        rfcList("Outlook", "Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>", .standard, [
            member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
            member("Ray, Bob", "bob@y.org", warn: ["unquoted-comma"]),
        ]),
        rfcList("Outlook", "Lee, Ann <ann@x.org>;", .standard, [member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"])]),
        rfcList("Outlook", "van der Berg, Jan M. <jan@x.nl>; Ørsted, Hans <h@y.dk>; c@z.org", .standard, [
            member("van der Berg, Jan M.", "jan@x.nl", warn: ["unquoted-comma"]),
            member("Ørsted, Hans", "h@y.dk", warn: ["unquoted-comma"]),
            member(nil, "c@z.org"),
        ]),
        // After a `;` has been seen, the last mailbox needs none.
        rfcList("Outlook", "a@x.org; Lee, Ann <ann@x.org>", .standard, [
            member(nil, "a@x.org"), member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
        ]),
        rfcList("Outlook", "Lee, Ann <ann@x.org> (work); Ray, Bob <bob@y.org>", .standard, [
            member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
            member("Ray, Bob", "bob@y.org", warn: ["unquoted-comma"]),
        ]),
        rfcList("Outlook", "Lee, Ann <ann@x.org>;\r\nRay, Bob <bob@y.org>", .standard, [
            member("Lee, Ann", "ann@x.org", warn: ["unquoted-comma"]),
            member("Ray, Bob", "bob@y.org", warn: ["unquoted-comma"]),
        ]),
        // RFC 5322 reads a `,` as a separator everywhere else.
        rfcList("5322 §3.4", "Lee, Ann <ann@x.org>", .standard, [
            member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, Ann <ann@x.org>, Ray, Bob <bob@y.org>", .standard, [
            member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
            member(nil, .unchecked, .error("missing-at")), member("Bob", "bob@y.org"),
        ]),
        rfcList("5322 §3.4", "Ann, Bob, Carol", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, .unchecked, .error("missing-at")),
            member(nil, .unchecked, .error("missing-at")),
        ]),
        rfcList("5322 §3.4", "Lee, ann@x.org; bob@y.org", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, "ann@x.org"), member(nil, "bob@y.org"),
        ]),
        rfcList("5322 §3.4", "Lee, \"Ann\" <ann@x.org>;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, <ann@x.org>;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, Ann, Bo <b@y.org>;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, .unchecked, .error("missing-at")),
            member("Bo", "b@y.org"),
        ]),
        rfcList("5322 §3.4", "x@y.org, Lee, Ann <ann@x.org>", .standard, [
            member(nil, "x@y.org"), member(nil, .unchecked, .error("missing-at")), member("Ann", "ann@x.org"),
        ]),
        rfcList("5322 §3.4", "Lee, Team: a@x.org, b@y.org;", .standard, [
            member(nil, .unchecked, .error("missing-at")),
            member(nil, "a@x.org", group: "Team"), member(nil, "b@y.org", group: "Team"),
        ]),
        rfcList("5322 §3.4", "Lee, mailto:ann@x.org;", .standard, [
            member(nil, .unchecked, .error("missing-at")), member(nil, "ann@x.org", warn: ["mailto-prefix"]),
        ]),
        // Inside a group commas separate members, as RFC 5322 says.
        rfcList("5322 §3.4", "Team: Lee, Ann <ann@x.org>;", .standard, [
            member(nil, .unchecked, group: "Team", .error("missing-at")), member("Ann", "ann@x.org", group: "Team"),
        ]),
        // The strict policy keeps RFC 5322's phrase: no bare comma.
        rfcList("5322 §3.2.5", "Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>", .strict, [
            member(.unchecked, .unchecked, .error("invalid-display-name")),
            member(.unchecked, .unchecked, .error("invalid-display-name")),
        ]),
    ]

    public static let links: [RFCRow] = [
        // RFC 6068 §2: the addr-spec of a link is %-encoded.
        rfc("6068 §2", "mailto:ann%40x.org", .standard, .valid, address: "ann@x.org", warn: ["mailto-prefix"]),
        rfc("6068 §2", "<mailto:j%C3%B6rg@x.org>", .standard, .valid, address: "jörg@x.org", warn: ["mailto-prefix"]),
        rfc("6068 §2", "J <mailto:j%c3%b6rg@x.org?subject=a%20b>", .standard, .valid, name: "J",
            address: "jörg@x.org", warn: ["mailto-prefix", "mailto-fields-dropped"]),
        rfc("6068 §6", "mailto:%22not%40me%22@example.org", .standard, .valid, address: "\"not@me\"@example.org",
            warn: ["mailto-prefix"]),
        rfc("6068 §6", "mailto:user@example.org?subject=caf%C3%A9", .standard, .valid, address: "user@example.org"),
        rfc("6068 §6", "mailto:~jdoe@example.net", .standard, .valid, address: "~jdoe@example.net"),
        // Escapes are decoded once: `%25` is a percent sign.
        rfc("6068 §2", "mailto:a%2540x.org", .standard, "missing-at"),
        rfc("6068 §2", "mailto:a%25b@x.org", .standard, .valid, address: "a%b@x.org"),
        // What decodes to something an address cannot hold is an error.
        rfc("6068 §2", "mailto:ann@x.org%0D%0ABcc:e@y.org", .standard, .invalid),
        rfc("6068 §2", "mailto:%FFann@x.org", .standard, "invalid-utf8"),
        rfc("6068 §2", "mailto:ann%20lee@x.org", .standard, .invalid),
        // A `%` that is no escape is a plain atext character.
        rfc("6068 §2", "mailto:a%zz@x.org", .standard, .valid, address: "a%zz@x.org"),
        // No link, no decoding.
        rfc("5322 §3.2.3", "a%40b@x.org", .standard, .valid, address: "a%40b@x.org"),
    ]

    /// A `mailto:` prefix, however often a link generator repeats it, is a
    /// link's scheme and never a group's name.
    public static let doubledPrefix: [RFCRow] = [
        rfcList("6068 §2", "mailto:mailto:ann@x.org, bob@y.org", .standard, [
            member(nil, "ann@x.org", warn: ["mailto-prefix"]), member(nil, "bob@y.org"),
        ]),
        rfcList("6068 §2", "MAILTO:mailto:Mailto:ann@x.org; bob@y.org", .standard, [
            member(nil, "ann@x.org", warn: ["mailto-prefix"]), member(nil, "bob@y.org"),
        ]),
        rfcList("6068 §2", "Ann <mailto:mailto:ann@x.org>, bob@y.org", .standard, [
            member("Ann", "ann@x.org", warn: ["mailto-prefix"]), member(nil, "bob@y.org"),
        ]),
        rfcList("6068 §2", "mailto:mailto:Team: a@x.org, b@y.org;", .standard, [
            member(nil, "a@x.org", group: "Team"), member(nil, "b@y.org", group: "Team"),
        ]),
    ]

    public static let fullWidth: [RFCRow] = [
        rfcList("UTS 46", "ann\u{FF20}x.org bob\u{FF20}y.org", .standard, [
            member(nil, "ann@x.org", warn: ["full-width-at"]), member(nil, "bob@y.org", warn: ["full-width-at"]),
        ]),
        rfcList("UTS 46", "ann\u{FF20}x.org bob@y.org", .standard, [
            member(nil, "ann@x.org", warn: ["full-width-at"]), member(nil, "bob@y.org"),
        ]),
        rfcList("UTS 46", "\u{FF71}\u{FF9D} ann@x.org bob\u{FF20}y.org", .standard, [
            member("\u{FF71}\u{FF9D}", "ann@x.org", warn: ["missing-angle-brackets"]),
            member(nil, "bob@y.org", warn: ["full-width-at"]),
        ]),
        rfcList("UTS 46", "\u{FF20}x.org b@y.org", .standard, [
            member(nil, .unchecked, .error("empty-local-part")), member(nil, "b@y.org"),
        ]),
        // Full-width letters are no `＠`.
        rfcList("UTS 46", "\u{FF41}\u{FF42} a@x.org", .standard, [member("\u{FF41}\u{FF42}", "a@x.org")]),
    ]
}
