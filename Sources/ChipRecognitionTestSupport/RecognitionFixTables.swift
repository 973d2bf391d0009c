import ChipRecognition

/// Cases other parsers' suites exercise, reasoned from the RFCs. Each row
/// also goes through the invariant verifier (`verifyRFCRow`).
public enum RecognitionFixTables {
    public static let rows: [RFCRow] = [
        // RFC 2047 §5 and RFC 5322 §3.2.2: a decoded control is one space,
        // then white space folds; words never merge.
        rfc("2047 §5", "=?UTF-8?Q?x=0D=0Ay?= <b@y.org>", .standard, .valid, name: "x y"),
        rfc("2047 §5", "=?UTF-8?Q?a=07b?= <b@y.org>", .standard, .valid, name: "a b"),
        rfc("2047 §5", "=?UTF-8?Q?a=C2=85b?= <b@y.org>", .standard, .valid, name: "a b"),
        rfc("2047 §5", "=?UTF-8?Q?a__=09_b?= <b@y.org>", .standard, .valid, name: "a b"),
        rfc("2047 §5", "=?UTF-8?Q?=0D=0Alead?= <b@y.org>", .standard, .valid, name: "lead"),
        rfc("2047 §5", "=?UTF-8?Q?a=E2=80=A8b?= <b@y.org>", .standard, .valid, name: "a b"),
        // RFC 5322 §3.4.1: a domain literal is the whole domain after `@`;
        // a `[` elsewhere is a stray character and the next `,` splits.
        rfcList("5322 §3.4.1", "a[b@x.org, c@y.org", .standard,
                [member(nil, .unchecked, .error("invalid-character")), member(nil, "c@y.org")]),
        rfcList("5322 §3.4.1", "a@x.org[, c@y.org", .standard,
                [member(nil, .unchecked, .error("invalid-character")), member(nil, "c@y.org")]),
        rfcList("5322 §3.4.1", "Ann <a[b@x.org>, c@y.org", .standard,
                [member(.unchecked, .unchecked, .error("invalid-character")), member(nil, "c@y.org")]),
        rfcList("5322 §3.4.1", "[x, y]@x.org, c@y.org", .standard,
                [member(nil, .unchecked, .invalid), member(nil, .unchecked, .invalid), member(nil, "c@y.org")]),
        rfc("5322 §3.4.1", "d@[192.0.2.1]", .standard, .valid, address: "d@[192.0.2.1]"),
        rfc("5322 §3.4.1", "d@ [192.0.2.1]", .standard, .valid, address: "d@[192.0.2.1]"),
        rfc("5322 §3.4.1", "Ann <d@[IPv6:2001:db8::1]>", .standard, .valid, address: "d@[IPv6:2001:db8::1]"),
        // RFC 5322 §3.2.4 qtext and RFC 6532 §3.2: no control in a local
        // part, quoted or not; C1 controls and U+2028/U+2029 included.
        rfc("6532 §3.2", "\u{85}x@y.org", .standard, "invalid-character"),
        rfc("6532 §3.2", "a\u{9F}@y.org", .lenient, "invalid-character"),
        rfc("6532 §3.2", "\"a\u{85}b\"@y.org", .standard, "invalid-character"),
        rfc("6532 §3.2", "\"a\u{2028}b\"@y.org", .standard, "invalid-character"),
        rfc("6532 §3.2", "a\u{2029}b@y.org", .standard, "invalid-character"),
        rfc("6532 §3.2", "\"a\u{A0}b\"@y.org", .standard, .valid),  // NBSP is not a control
        // RFC 5322 §2.2.3, §3.2.4: folding inside a quoted local part or a
        // literal is unfolded: the CRLF goes, the space stays.
        rfc("5322 §3.2.4", "\"a\r\n b\"@x.org", .standard, .valid, address: "\"a b\"@x.org"),
        rfc("5322 §3.2.4", "Ann <\"a\r\n\tb\"@x.org>", .standard, .valid, address: "\"a\tb\"@x.org"),
        rfc("5322 §3.4.1", "c@[192.0.\r\n 2.1]", .lenient, .valid, address: "c@[192.0. 2.1]"),
        // An error chip reports the words that are there, not glued into
        // another mailbox.
        rfc("5322 §3.4.1", "ann lee@x.org", .strict, "invalid-local-part", address: "ann lee@x.org"),
        rfc("5322 §3.4.1", "\"a\" \"b\"@x.org", .strict, "invalid-local-part", address: "\"a\" \"b\"@x.org"),
        rfc("5322 §4.4", "john . smith@x.org", .standard, .valid, address: "john.smith@x.org"),
        // An unquoted name that is another address warns, whatever else is
        // wrong with the chip.
        rfc("5322 §3.4", "ceo@company.com <x@evil.example>", .standard, "invalid-display-name",
            warn: ["display-name-spoof"]),
        rfc("5322 §3.4", "ceo@company.com <x@evil.example>", .strict, .invalid, warn: ["display-name-spoof"]),
        rfc("5322 §3.4", "\"ceo@company.com\" <x@evil.example>", .standard, .valid, warn: ["display-name-spoof"]),
        // Unicode TR #36 §2, TR #39 §3.1: invisible characters inside an
        // address make two that look alike reach different mailboxes.
        rfc("TR 36", "a\u{200B}b@x.org", .standard, "invisible-character"),
        rfc("TR 36", "ann@ex\u{FEFF}ample.com", .standard, "invisible-character"),
        rfc("TR 36", "ann@example.com\u{200D}", .lenient, "invisible-character"),
        rfc("TR 36", "\"a\u{2066}b\"@x.org", .standard, "invisible-character"),
        rfc("TR 36", "\"a\\\u{200B}b\"@x.org", .standard, "invisible-character"),
        rfc("TR 36", "\"a\\\u{0085}b\"@x.org", .lenient, "invalid-character"),
        rfc("TR 36", "a\u{00AD}b@x.org", .standard, "invisible-character"),
        rfc("TR 36", "Ann <a\u{200E}@x.org>", .standard, "invisible-character"),
        rfc("TR 36", "a@[192.0.2.1\u{200B}]", .lenient, "invisible-character"),
        // ... and in a name, a warning that protects the reader.
        rfc("TR 36", "\"Ann \u{202E}gro.x\" <a@x.org>", .standard, .valid, warn: ["bidi-control"]),
        rfc("TR 36", "Ann\u{2067} Lee <a@x.org>", .standard, .valid, warn: ["bidi-control"]),
        rfc("TR 36", "=?UTF-8?Q?Ann=E2=80=AE?= <a@x.org>", .standard, .valid, warn: ["bidi-control"]),
        rfc("TR 36", "Ann\u{200B} Lee <a@x.org>", .standard, .valid, warn: ["hidden-character"]),
        rfc("TR 36", "a@x.org (An\u{2060}n)", .standard, .valid, warn: ["hidden-character"]),
        // UTS #46 §4: the full-width forms input methods produce map to
        // ASCII, and the ideographic full stops separate labels.
        rfc("UTS 46", "ann@\u{FF58}.org", .standard, .valid, domain: "\u{FF58}.org"),
        rfc("UTS 46", "ann@x\u{3002}org", .strict, .valid),
        rfc("UTS 46", "ann@x\u{FF0E}org", .strict, .valid),
        rfc("UTS 46", "ann@x\u{FF61}org", .strict, .valid),
        rfc("UTS 46", "ann@\u{FF25}\u{FF38}.com", .strict, .valid),
        rfc("UTS 46", "ann@x\u{3002}\u{3002}org", .standard, "invalid-idn"),
        rfc("UTS 46", "ann@x\u{3002}", .standard, "invalid-idn"),
        // A full-width at sign is read as `@`, with a warning.
        rfc("UTS 46", "ann\u{FF20}x.org", .standard, .valid, address: "ann@x.org", warn: ["full-width-at"]),
        rfc("UTS 46", "Ann <ann\u{FF20}x.org>", .strict, .valid, address: "ann@x.org", warn: ["full-width-at"]),
        rfc("UTS 46", "ann\u{FF20}\u{FF58}\u{3002}org", .standard, .valid, address: "ann@\u{FF58}\u{3002}org",
            warn: ["full-width-at"]),
        // RFC 6068: `mailto:` links as people paste them. The address is
        // read with the `mailto-prefix` warning; header fields are dropped
        // with `mailto-fields-dropped`.
        rfc("6068 §2", "<mailto:ann@x.org>", .standard, .valid, address: "ann@x.org", warn: ["mailto-prefix"]),
        rfc("6068 §2", "<MailTo:ann@x.org>", .strict, .valid, address: "ann@x.org", warn: ["mailto-prefix"]),
        rfc("6068 §2", "mailto:ann@x.org?subject=hi", .standard, .valid, address: "ann@x.org",
            warn: ["mailto-prefix", "mailto-fields-dropped"]),
        rfc("6068 §2", "mailto:ann@x.org?subject=Hello%20there&body=a%26b", .standard, .valid, address: "ann@x.org",
            warn: ["mailto-prefix", "mailto-fields-dropped"]),
        rfc("6068 §2", "Ann <mailto:ann@x.org?cc=bob@y.org>", .standard, .valid, name: "Ann", address: "ann@x.org",
            warn: ["mailto-prefix", "mailto-fields-dropped"]),
        rfc("6068 §2", "<mailto:ann@x.org?subject=x>", .standard, .valid, address: "ann@x.org",
            warn: ["mailto-prefix", "mailto-fields-dropped"]),
        rfc("6068 §2", "mailto:?subject=x", .standard, "not-an-address"),
        rfc("6068 §2", "ann@x.org?subject=hi", .standard, "invalid-domain-character"),  // no link: no cut
        // A `mailto:` before a group's name is no part of the name.
        rfcList("6068 §2", "mailto:Team: a@x.org, b@y.org;", .standard,
                [member(nil, "a@x.org", group: "Team"), member(nil, "b@y.org", group: "Team")]),
        // A byte order mark where a chip starts is white space, not text.
        rfcList("Unicode §23.8", "\u{FEFF}ann@x.org, \u{FEFF}bob@y.org", .standard,
                [member(nil, "ann@x.org"), member(nil, "bob@y.org")]),
        rfcList("Unicode §23.8", "\u{FEFF}\u{FEFF}\"Lee, A\" <l@y.org>", .standard, [member("Lee, A", "l@y.org")]),
        rfc("Unicode §23.8", "\u{FEFF}", .standard, .valid, kind: .mailbox).withNoChips(),
    ]
}

extension RFCRow {
    /// The same input, expected to give no chip at all.
    public func withNoChips() -> RFCRow {
        var row = self
        row.chips = []
        return row
    }
}
