// Tables derived from RFC 5321 (SMTP) §4.1.2 (Domain, Local-part), §4.1.3
// (address literals), §4.5.3.1 (size limits), RFC 1035 §2.3.4 (label
// length) and RFC 6531 §3.3 / RFC 6532 §3.2 (UTF-8 addresses).

import ChipRecognition

/// A domain of exactly `octets` octets: 63-octet labels of "a", then a last,
/// alphabetic label of "b" (so the top-level label is never numeric).
public func rfcDomain(octets: Int) -> String {
    var labels: [String] = []
    var remaining = octets
    while remaining > 63 {
        let take = min(63, remaining - 2)
        labels.append(rfcRepeat("a", take))
        remaining -= take + 1
    }
    labels.append(rfcRepeat("b", remaining))
    return labels.joined(separator: ".")
}

public enum RFC5321Tables {
    // §4.1.2: Domain = sub-domain *("." sub-domain); sub-domain = Let-dig [Ldh-str].
    // The host-name rules apply in strict and standard; lenient checks none.
    public static let domains: [RFCRow] = [
        // RFC 5891 §4.2.3.1: `--` in the 3rd and 4th places only in A-labels;
        // an A-label must decode (RFC 5890 §2.3.2.1).
        rfc("5891 §4.2.3.1 reserved hyphens", "ann@ab--cd.test", .standard, "invalid-idn"),
        rfc("5891 §4.2.3.1 reserved hyphens", "ann@ab--cd.test", .strict, "invalid-idn"),
        rfc("5890 §2.3.2.1 A-label that decodes", "ann@xn--bcher-kva.test", .strict, .valid),
        rfc("5890 §2.3.2.1 A-label that does not", "ann@xn--abc!.test", .lenient, .valid),
        rfc("5892 disallowed symbol in a U-label", "ann@☃.test", .standard, "invalid-idn"),
        rfc("5321 §4.1.2 Domain", "ann@x.test", .strict, .valid, domain: "x.test"),
        rfc("5321 §4.1.2 Let-dig: upper case", "ann@MAIL.X.TEST", .strict, .valid, domain: "MAIL.X.TEST"),
        rfc("5321 §4.1.2 Ldh-str: inner hyphen", "ann@a-b.test", .strict, .valid),
        rfc("5321 §4.1.2 Ldh-str: two inner hyphens", "ann@a--b.test", .strict, .valid),
        rfc("5321 §4.1.2 Let-dig: leading digit (RFC 1123 §2.1)", "ann@1a.test", .strict, .valid),
        rfc("5321 §4.1.2 all-digit inner label", "ann@123.test", .strict, .valid),
        rfc("5321 §4.1.2 A-label is LDH", "ann@xn--bcher-kva.test", .strict, .valid, address: "ann@xn--bcher-kva.test"),
        rfc("5321 §4.1.2 sub-domain starts with Let-dig", "ann@-x.test", .strict, "invalid-domain-label"),
        rfc("5321 §4.1.2 Ldh-str ends with Let-dig", "ann@x-.test", .standard, "invalid-domain-label"),
        rfc("5321 §4.1.2 Ldh-str ends with Let-dig", "ann@x.test-", .standard, "invalid-domain-label"),
        rfc("5321 §4.1.2 underscore not permitted", "ann@x_y.test", .strict, "invalid-domain-character"),
        rfc("5321 §4.1.2 underscore not permitted", "ann@x_y.test", .standard, "invalid-domain-character"),
        rfc("5321 §4.1.2 only letters, digits, hyphen", "ann@x!y.test", .standard, "invalid-domain-character"),
        rfc("5321 §4.1.2 only letters, digits, hyphen", "ann@x+y.test", .strict, "invalid-domain-character"),
        rfc("5322 §3.4.1 dot-atom domain (no host-name rules)", "ann@x_y.test", .lenient, .valid,
            address: "ann@x_y.test"),
        rfc("policy: a dotted host name", "ann@localhost", .strict, "domain-missing-dot"),
        rfc("RFC 3696 §2: TLD not all-numeric", "ann@x.123", .strict, "numeric-tld"),
        rfc("policy: lenient takes any domain", "ann@localhost", .lenient, .valid, address: "ann@localhost"),
        rfc("RFC 3696 §2: an IPv4 address needs brackets", "ann@192.0.2.1", .strict, "numeric-tld"),
        rfc("5321 §4.1.2 Dot-string", "ann.lee@x.test", .strict, .valid),
    ]

    // §4.1.3 IPv4-address-literal = Snum 3("." Snum); Snum = 1*3DIGIT, 0–255.
    public static let ipv4Valid = ["192.0.2.1", "0.0.0.0", "255.255.255.255", "1.2.3.4", "001.002.003.004", "10.0.0.255"]
    public static let ipv4Invalid = [
        "256.0.0.1", "1.2.3.256", "1.2.3", "1.2.3.4.5", "1.2.3.", ".1.2.3", "1..2.3", "1234.1.1.1",
        "0x1.2.3.4", "-1.2.3.4", "1.2.3.4a", "a.b.c.d", "", "1.2.3.999",
    ]

    // §4.1.3 IPv6-address-literal = "IPv6:" IPv6-addr.
    public static let ipv6Valid = [
        "IPv6:2001:db8:0:0:0:0:0:1",  // IPv6-full: 8 groups
        "IPv6:0001:0002:0003:0004:0005:0006:0007:0008",  // 1*4HEXDIG, leading zeros
        "IPv6:ffff:FFFF:abcd:ABCD:0:0:0:1",  // HEXDIG in either case
        "IPv6:2001:db8::1",  // IPv6-comp
        "IPv6:::1",
        "IPv6:::",  // "::" alone: both sides empty
        "IPv6:1::",
        "IPv6:1:2:3:4:5:6::",  // 6 groups before "::"
        "IPv6:::1:2:3:4:5:6",  // 6 groups after "::"
        "IPv6:1:2:3::4:5:6",  // 6 groups around "::"
        "IPv6:1:2:3:4:5:6:192.0.2.1",  // IPv6v4-full
        "IPv6:::192.0.2.1",  // IPv6v4-comp
        "IPv6:::ffff:192.0.2.1",
        "IPv6:1:2:3:4::192.0.2.1",  // 4 groups + "::" + IPv4
        "IPv6:1:2::3:4:192.0.2.1",
        "IPv6:1::2:3:4:192.0.2.1",
    ]
    public static let ipv6Invalid = [
        "IPv6:1:2:3:4:5:6:7",  // 7 groups, no "::"
        "IPv6:1:2:3:4:5:6:7:8:9",  // 9 groups
        "IPv6:1:2:3:4:5:6:7::",  // "::" with 7 groups: more than 6
        "IPv6:::1:2:3:4:5:6:7",
        "IPv6:1:2:3:4::5:6:7",
        "IPv6:1::2::3",  // two "::"
        "IPv6:1:::2",
        "IPv6:12345::1",  // 5 hex digits
        "IPv6:g::1",  // not HEXDIG
        "IPv6::1",  // a single ":" to start
        "IPv6:1:",  // a single ":" to end
        "IPv6:",  // nothing after the tag
        "IPv6:1:2:3:4:5:192.0.2.1",  // IPv6v4-full needs 6 groups
        "IPv6:1:2:3:4:5:6:7:192.0.2.1",
        "IPv6:1:2:3:4:5::192.0.2.1",  // IPv6v4-comp: more than 4 groups
        "IPv6:::256.1.1.1",  // bad IPv4 part
        "IPv6:::1.2.3",
        "::1",  // no tag
        "2001:db8::1",  // no tag
        "IPv4:192.0.2.1",  // not a tag for IPv4
        "x400:c=us;a=b",  // General-address-literal: strict and standard take IPv4/IPv6 only
    ]

    public static let literals: [RFCRow] = {
        var rows: [RFCRow] = []
        for lit in ipv4Valid {
            rows.append(rfc("5321 §4.1.3 IPv4-address-literal", "ann@[\(lit)]", .standard, .valid,
                            address: .equals("ann@[\(lit)]"), domain: .equals("[\(lit)]")))
        }
        for lit in ipv4Invalid {
            rows.append(rfc("5321 §4.1.3 Snum 3(\".\" Snum), 0-255", "ann@[\(lit)]", .standard,
                            lit.isEmpty ? .invalid : "invalid-domain-literal"))
        }
        for lit in ipv6Valid {
            rows.append(rfc("5321 §4.1.3 IPv6-addr", "ann@[\(lit)]", .standard, .valid,
                            address: .equals("ann@[\(lit)]")))
        }
        for lit in ipv6Invalid {
            rows.append(rfc("5321 §4.1.3 IPv6-addr", "ann@[\(lit)]", .standard, "invalid-domain-literal"))
        }
        rows += [
            rfc("5321 §4.1.3 IPv4 literal", "ann@[192.0.2.1]", .strict, .valid, address: "ann@[192.0.2.1]"),
            rfc("5321 §4.1.3 IPv6 literal", "Ann <ann@[IPv6:2001:db8::1]>", .strict, .valid,
                name: "Ann", address: "ann@[IPv6:2001:db8::1]"),
            rfc("5321 §4.1.3 literal checked in strict", "ann@[300.1.1.1]", .strict, "invalid-domain-literal"),
            rfc("5322 §3.4.1 domain-literal = \"[\" *dtext \"]\"", "ann@[300.1.1.1]", .lenient, .valid,
                address: "ann@[300.1.1.1]"),
            rfc("5322 §3.4.1 domain-literal: dtext", "ann@[x400:c=us;a=b]", .lenient, .valid),
            rfc("5322 §3.4.1 domain-literal closed by \"]\"", "ann@[192.0.2.1", .standard, "unterminated-domain-literal"),
            rfc("5322 §3.4.1 domain-literal closed by \"]\"", "ann@[192.0.2.1", .lenient, "unterminated-domain-literal"),
            rfc("5322 §4.4 obs-dtext: quoted-pair in a literal", #"ann@[a\]b]"#, .lenient, .valid,
                address: #"ann@[a\]b]"#),
            rfc("5321 §4.1.3 RFC 5234 §2.3: \"IPv6:\" is case-insensitive", "ann@[ipv6:2001:db8::1]", .standard, .valid),
        ]
        return rows
    }()

    // §4.5.3.1.1 local-part ≤ 64 octets; §4.5.3.1.2 domain ≤ 255 octets;
    // §4.5.3.1.3 path ≤ 256 octets with "<" and ">", so an address ≤ 254;
    // RFC 1035 §2.3.4 label ≤ 63 octets.
    public static let limits: [RFCRow] = {
        let l64 = rfcRepeat("l", 64)
        return [
            rfc("5321 §4.5.3.1.1 local-part 64 octets", l64 + "@x.test", .strict, .valid, address: .equals(l64 + "@x.test")),
            rfc("5321 §4.5.3.1.1 local-part 64 octets", l64 + "@x.test", .standard, .valid),
            rfc("5321 §4.5.3.1.1 local-part 65 octets", l64 + "l@x.test", .standard, "local-part-too-long"),
            rfc("5321 §4.5.3.1.1 local-part 65 octets", l64 + "l@x.test", .strict, "local-part-too-long"),
            rfc("lenient: no length limits", l64 + "l@x.test", .lenient, .valid),
            rfc("5321 §4.1.2 Local-part = Quoted-string, 64 octets with DQUOTEs",
                "\"" + rfcRepeat("a", 30) + " " + rfcRepeat("b", 31) + "\"@x.test", .standard, .valid),
            rfc("5321 §4.1.2 Local-part = Quoted-string, 65 octets with DQUOTEs",
                "\"" + rfcRepeat("a", 30) + " " + rfcRepeat("b", 32) + "\"@x.test", .standard, "local-part-too-long"),
            rfc("RFC 1035 §2.3.4 label 63 octets", "ann@" + rfcRepeat("a", 63) + ".test", .strict, .valid),
            rfc("RFC 1035 §2.3.4 label 64 octets", "ann@" + rfcRepeat("a", 64) + ".test", .strict, "domain-label-too-long"),
            rfc("RFC 1035 §2.3.4 label 64 octets", "ann@" + rfcRepeat("a", 64) + ".test", .standard, "domain-label-too-long"),
            rfc("RFC 1035 §2.3.4 top-level label 63 octets", "ann@x." + rfcRepeat("t", 63), .standard, .valid),
            rfc("RFC 1035 §2.3.4 top-level label 64 octets", "ann@x." + rfcRepeat("t", 64), .standard, "domain-label-too-long"),
            rfc("lenient: no length limits", "ann@" + rfcRepeat("a", 64) + ".test", .lenient, .valid),
            rfc("5321 §4.5.3.1.3 address 253 octets", l64 + "@" + rfcDomain(octets: 188), .standard, .valid),
            rfc("5321 §4.5.3.1.3 address 254 octets", l64 + "@" + rfcDomain(octets: 189), .standard, .valid),
            rfc("5321 §4.5.3.1.3 address 254 octets", l64 + "@" + rfcDomain(octets: 189), .strict, .valid),
            rfc("5321 §4.5.3.1.3 address 255 octets", l64 + "@" + rfcDomain(octets: 190), .standard, "address-too-long"),
            rfc("5321 §4.5.3.1.3 address 255 octets", l64 + "@" + rfcDomain(octets: 190), .strict, "address-too-long"),
            rfc("5321 §4.5.3.1.3 address 254 octets (short local-part)", "a@" + rfcDomain(octets: 252), .standard, .valid),
            rfc("5321 §4.5.3.1.3 address 255 octets (short local-part)", "a@" + rfcDomain(octets: 253), .standard,
                "address-too-long"),
            rfc("5321 §4.5.3.1.2 domain 255 octets, address 257", "a@" + rfcDomain(octets: 255), .standard,
                "address-too-long"),
            rfc("5321 §4.5.3.1.2 domain 256 octets", "a@" + rfcDomain(octets: 256), .standard, "domain-too-long"),
            rfc("lenient: no length limits", l64 + "@" + rfcDomain(octets: 190), .lenient, .valid),
            rfc("5321 §4.5.3.1.3 limit is on the address, not the name",
                "\"" + rfcRepeat("N", 300) + "\" <" + l64 + "@" + rfcDomain(octets: 189) + ">", .strict, .valid),
        ]
    }()

    // RFC 6531 §3.3 (atext, qtextSMTP, sub-domain =/ U-label) and RFC 6532
    // §3.2 (VCHAR, atext, qtext, ctext =/ UTF8-non-ascii); RFC 6532 §3.1 and
    // RFC 3629: the text must be valid UTF-8.
    public static let utf8: [RFCRow] = {
        // "ü" + 55 × "a": 57 octets of UTF-8, A-label "xn--" + 59 = 63 octets.
        let label63 = "ü" + rfcRepeat("a", 55)
        // "ü" + 56 × "a": 58 octets of UTF-8, A-label 64 octets.
        let label64 = "ü" + rfcRepeat("a", 56)
        // 40 × "ü": 80 octets of UTF-8, A-label "xn--tda" + 39 × "a" = 46 octets.
        let label80 = rfcRepeat("ü", 40)
        return [
            rfc("6531 §3.3 atext =/ UTF8-non-ascii, U-label", "jöran@bücher.test", .strict, .valid,
                address: "jöran@bücher.test", domain: "bücher.test"),
            rfc("6531 §3.3 U-labels (CJK)", "用户@例子.广告", .strict, .valid, address: "用户@例子.广告"),
            rfc("6531 §3.3 4-octet UTF-8 in local-part", "😀@x.test", .strict, .valid, address: "😀@x.test"),
            rfc("6531 §3.3 qtextSMTP =/ UTF8-non-ascii", "\"jöran doe\"@x.test", .strict, .valid),
            rfc("6532 §3.2 atext in a display name", "Jöran Bücher <j@x.test>", .strict, .valid,
                name: "Jöran Bücher", address: "j@x.test"),
            rfc("6532 §3.2 qtext in a display name", "\"Bücher, Jöran\" <j@x.test>", .strict, .valid,
                name: "Bücher, Jöran"),
            rfc("6532 §3.2 ctext =/ UTF8-non-ascii", "j@x.test (Jöran)", .standard, .valid, name: "Jöran"),
            rfc("6532 §3.2 group name", "Équipe: j@x.test;", .strict, .valid, group: "Équipe"),
            rfc("5321 §4.1.2 U-label hyphen rule", "a@-bücher.test", .strict, "invalid-domain-label"),
            rfc("5321 §4.1.2 U-label hyphen rule", "a@bücher-.test", .standard, "invalid-domain-label"),
            rfc("6531 §3.3 U-label, A-label 63 octets", "a@" + label63 + ".test", .strict, .valid),
            rfc("6531 §3.3 U-label, A-label 64 octets", "a@" + label64 + ".test", .strict, "domain-label-too-long"),
            rfc("6531 §3.3 U-label of 80 octets, A-label 46", "a@" + label80 + ".test", .standard, .valid),
            rfc("5321 §4.5.3.1.1 64 octets of UTF-8", rfcRepeat("é", 32) + "@x.test", .strict, .valid),
            rfc("5321 §4.5.3.1.1 65 octets of UTF-8", rfcRepeat("é", 32) + "a@x.test", .strict, "local-part-too-long"),
            rfc("5321 §4.5.3.1.1 33 characters, 66 octets", rfcRepeat("é", 33) + "@x.test", .standard,
                "local-part-too-long"),
            // Invalid UTF-8 (RFC 3629 §3, §4) in every policy.
            rfc("3629 stray continuation octet", bytes: Array("ann".utf8) + [0x80] + Array("@x.test".utf8), .standard,
                "invalid-utf8"),
            rfc("3629 truncated sequence", bytes: Array("ann".utf8) + [0xC3] + Array("@x.test".utf8), .lenient,
                "invalid-utf8"),
            rfc("3629 overlong \"/\"", bytes: Array("a".utf8) + [0xC0, 0xAF] + Array("@x.test".utf8), .strict,
                "invalid-utf8"),
            rfc("3629 surrogate", bytes: Array("a".utf8) + [0xED, 0xA0, 0x80] + Array("@x.test".utf8), .standard,
                "invalid-utf8"),
            rfc("3629 above U+10FFFF", bytes: Array("a".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("@x.test".utf8),
                .lenient, "invalid-utf8"),
            rfc("3629 0xFF", bytes: Array("ann@x".utf8) + [0xFF] + Array(".test".utf8), .standard, "invalid-utf8"),
            rfc("3629 invalid UTF-8 in a display name", bytes: Array("Ann ".utf8) + [0xFE] + Array(" <a@x.test>".utf8),
                .lenient, "invalid-utf8"),
            rfc("6532 §3.2: valid UTF-8 as bytes", bytes: Array("jöran@bücher.test".utf8), .strict, .valid,
                address: "jöran@bücher.test"),
        ]
    }()

    public static let all: [RFCRow] = domains + literals + limits + utf8
}

/// Rows where the implementation disagrees with the policy as specified
/// (see the report): standard, like strict, requires a dotted host name.
/// RFC 5321 §2.3.5 wants fully-qualified domains in SMTP and RFC 3696 §2
/// says a top-level domain is never all digits, but both forms are valid
/// RFC 5322: the project's choice is an error under strict and a warning
/// under standard (a compose field should not refuse `ann@localhost`).
public enum RFC5321Disputed {
    public static let rows: [RFCRow] = [
        rfc("5321 §2.3.5 FQDN; strict", "ann@localhost", .strict, "domain-missing-dot"),
        rfc("RFC 3696 §2 TLD not all-numeric; strict", "ann@x.123", .strict, "numeric-tld"),
        rfc("5321 §2.3.5 FQDN; standard warns", "ann@localhost", .standard, .valid, warn: ["domain-missing-dot"]),
        rfc("RFC 3696 §2 TLD not all-numeric; standard warns", "ann@x.123", .standard, .valid, warn: ["numeric-tld"]),

    ]
}
