// Tables derived from RFC 2047 (MIME message header extensions): the
// encoded-word syntax of §2, the B and Q encodings of §4, where encoded
// words may appear (§5), how they are displayed (§6) and the examples of §8.

import ChipRecognition

private let undecoded = "undecoded-encoded-word"

public enum RFC2047Tables {
    // §8: the header fields of the first examples, as address lists.
    public static let section8Lists: [RFCRow] = [
        rfcList("2047 §8 From", "=?US-ASCII?Q?Keith_Moore?= <moore@cs.utk.edu>", .standard, [
            member("Keith Moore", "moore@cs.utk.edu"),
        ]),
        rfcList("2047 §8 To", "=?ISO-8859-1?Q?Keld_J=F8rn_Simonsen?= <keld@dkuug.dk>", .standard, [
            member("Keld Jørn Simonsen", "keld@dkuug.dk"),
        ]),
        rfcList("2047 §8 CC", "=?ISO-8859-1?Q?Andr=E9?= Pirard <PIRARD@vm1.ulg.ac.be>", .standard, [
            member("André Pirard", "PIRARD@vm1.ulg.ac.be"),
        ]),
        rfcList("2047 §8 From", "=?ISO-8859-1?Q?Olle_J=E4rnefors?= <ojarnef@admin.kth.se>", .standard, [
            member("Olle Järnefors", "ojarnef@admin.kth.se"),
        ]),
        rfcList("2047 §8 To", "ietf-822@dimacs.rutgers.edu, ojarnef@admin.kth.se", .standard, [
            member(nil, "ietf-822@dimacs.rutgers.edu"), member(nil, "ojarnef@admin.kth.se"),
        ]),
        rfcList("2047 §8 To", "Dave Crocker <dcrocker@mordor.stanford.edu>", .strict, [
            member("Dave Crocker", "dcrocker@mordor.stanford.edu"),
        ]),
        rfcList("2047 §8 Cc", "ietf-822@dimacs.rutgers.edu, paf@comsol.se", .strict, [
            member(nil, "ietf-822@dimacs.rutgers.edu"), member(nil, "paf@comsol.se"),
        ]),
        rfcList("2047 §8 From", "=?ISO-8859-1?Q?Patrik_F=E4ltstr=F6m?= <paf@nada.kth.se>", .strict, [
            member("Patrik Fältström", "paf@nada.kth.se"),
        ]),
        // The comment follows an angle-addr, so it is CFWS, not the name.
        rfcList("2047 §8 From (comment after angle-addr)",
                "Nathaniel Borenstein <nsb@thumper.bellcore.com>\r\n    (=?iso-8859-8?b?7eXs+SDv4SDp7Oj08A==?=)",
                .standard, [member("Nathaniel Borenstein", "nsb@thumper.bellcore.com")]),
        rfcList("2047 §8 To (folded)",
                "Greg Vaudreuil <gvaudre@NRI.Reston.VA.US>, Ned Freed\r\n    <ned@innosoft.com>, Keith Moore <moore@cs.utk.edu>",
                .strict, [
                    member("Greg Vaudreuil", "gvaudre@NRI.Reston.VA.US"),
                    member("Ned Freed", "ned@innosoft.com"),
                    member("Keith Moore", "moore@cs.utk.edu"),
                ]),
    ]

    // §8: the table of encoded forms and how they are displayed, written in a
    // comment (§5 (2)) after a bare address, whose text is the display name.
    public static let section8Comments: [RFCRow] = [
        rfc("2047 §8 (a)", "x@example.test (=?ISO-8859-1?Q?a?=)", .standard, .valid, name: "a", address: "x@example.test"),
        rfc("2047 §8 (a b)", "x@example.test (=?ISO-8859-1?Q?a?= b)", .standard, .valid, name: "a b"),
        rfc("2047 §8 (ab): white space between encoded-words is not displayed",
            "x@example.test (=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=)", .standard, .valid, name: "ab"),
        rfc("2047 §8 (ab): any amount of white space",
            "x@example.test (=?ISO-8859-1?Q?a?=  =?ISO-8859-1?Q?b?=)", .standard, .valid, name: "ab"),
        rfc("2047 §8 (ab): folded white space",
            "x@example.test (=?ISO-8859-1?Q?a?=\r\n    =?ISO-8859-1?Q?b?=)", .standard, .valid, name: "ab"),
        rfc("2047 §8 (a b): \"_\" is a space", "x@example.test (=?ISO-8859-1?Q?a_b?=)", .standard, .valid, name: "a b"),
        rfc("2047 §8 (a b): words in two charsets",
            "x@example.test (=?ISO-8859-1?Q?a?= =?ISO-8859-2?Q?_b?=)", .standard, .valid, name: "a b"),
        // §6.2 lets a reader show a word in a charset it does not know as
        // written.
        rfc("2047 §8/§6.2 unknown charset shown as written",
            "x@example.test (=?ISO-8859-1?Q?a?= =?x-unknown?Q?_b?=)", .standard, .valid,
            name: .like(contains: ["=?x-unknown?Q?_b?="], lacks: ["=?ISO-8859-1?"])),
        // ISO-8859-8 is in visual order: the bytes, and so the decoded
        // text, run left to right.
        rfc("2047 §8 Hebrew comment",
            "nsb@thumper.bellcore.com (=?iso-8859-8?b?7eXs+SDv4SDp7Oj08A==?=)", .standard, .valid,
            name: "םולש ןב ילטפנ"),
        rfc("2047 §5 (2) encoded-word in a comment", "keld@dkuug.dk (=?ISO-8859-1?Q?Keld_J=F8rn_Simonsen?=)",
            .standard, .valid, name: "Keld Jørn Simonsen"),
    ]

    // §8 again, with the words in a display name (§5 (3), phrase).
    public static let section8Phrases: [RFCRow] = [
        rfc("2047 §5 (3) phrase: one word", "=?ISO-8859-1?Q?a?= <x@example.test>", .standard, .valid, name: "a"),
        rfc("2047 §5 (3) phrase: word and atom", "=?ISO-8859-1?Q?a?= b <x@example.test>", .standard, .valid, name: "a b"),
        rfc("2047 §5 (3) phrase: atom and word", "b =?ISO-8859-1?Q?a?= <x@example.test>", .standard, .valid, name: "b a"),
        rfc("2047 §6.2 adjacent words joined", "=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?= <x@example.test>", .standard,
            .valid, name: "ab"),
        rfc("2047 §6.2 adjacent words joined", "=?ISO-8859-1?Q?a?=   =?ISO-8859-1?Q?b?= <x@example.test>", .standard,
            .valid, name: "ab"),
        rfc("2047 §6.2 adjacent words joined across a fold",
            "=?ISO-8859-1?Q?a?=\r\n    =?ISO-8859-1?Q?b?= <x@example.test>", .standard, .valid, name: "ab"),
        rfc("2047 §4.2 (2) \"_\" is a space", "=?ISO-8859-1?Q?a_b?= <x@example.test>", .standard, .valid, name: "a b"),
        rfc("2047 §6.2 words in different charsets",
            "=?ISO-8859-1?Q?J=F8rn?= =?UTF-8?Q?_S=C3=B8?= <x@example.test>", .standard, .valid, name: "Jørn Sø"),
        rfc("2047 §8 Subject words as a name, in two charsets",
            "=?ISO-8859-1?B?SWYgeW91IGNhbiByZWFkIHRoaXMgeW8=?=\r\n    =?ISO-8859-2?B?dSB1bmRlcnN0YW5kIHRoZSBleGFtcGxlLg==?= <x@example.test>",
            .standard, .valid, name: "If you can read this you understand the example."),
        rfc("2047 §8 Subject words as a name, second charset unknown",
            "=?ISO-8859-1?B?SWYgeW91IGNhbiByZWFkIHRoaXMgeW8=?=\r\n    =?x-unknown?B?dSB1bmRlcnN0YW5kIHRoZSBleGFtcGxlLg==?= <x@example.test>",
            .standard, .valid,
            name: .like(contains: ["If you can read this yo", "=?x-unknown?B?dSB1bmRlcnN0YW5kIHRoZSBleGFtcGxlLg==?="],
                        lacks: ["=?ISO-8859-1?"]),
            warn: [undecoded]),
        rfc("2047 §5 (3) encoded-word then quoted-string", #"=?UTF-8?Q?Ann?= "Lee" <a@x.test>"#, .standard, .valid,
            name: "Ann Lee"),
        rfc("2047 §5 (3) decoded in strict too", "=?ISO-8859-1?Q?Keld_J=F8rn_Simonsen?= <keld@dkuug.dk>", .strict,
            .valid, name: "Keld Jørn Simonsen"),
        rfc("2047 §5 (3) group display-name", "=?UTF-8?Q?Caf=C3=A9?=: a@x.test;", .standard, .valid,
            address: "a@x.test", group: "Café"),
    ]

    // §2 syntax, §4 encodings, charsets.
    public static let encodings: [RFCRow] = [
        rfc("2047 §4.1 B encoding", "=?UTF-8?B?QW5u?= <a@x.test>", .standard, .valid, name: "Ann"),
        rfc("2047 §4.1 B encoding, UTF-8", "=?UTF-8?B?5bGx55Sw?= <a@x.test>", .standard, .valid, name: "山田"),
        rfc("2047 §4.1 B encoding, US-ASCII", "=?US-ASCII?B?S2VpdGggTW9vcmU=?= <a@x.test>", .standard, .valid,
            name: "Keith Moore"),
        rfc("2047 §4.1 \"_\" is not special in B", "=?UTF-8?B?YV9i?= <a@x.test>", .standard, .valid, name: "a_b"),
        rfc("2047 §4.2 (1) =XX octets", "=?UTF-8?Q?Andr=C3=A9?= <a@x.test>", .standard, .valid, name: "André"),
        rfc("2047 §4.2 (1) =20 is a space", "=?UTF-8?Q?Ann=20Lee?= <a@x.test>", .standard, .valid, name: "Ann Lee"),
        rfc("2047 §2 charset and encoding are case-independent", "=?utf-8?q?Ann_Lee?= <a@x.test>", .standard, .valid,
            name: "Ann Lee"),
        rfc("2047 §2 charset and encoding are case-independent", "=?utf-8?b?QW5u?= <a@x.test>", .standard, .valid,
            name: "Ann"),
        rfc("charset ISO-8859-1", "=?ISO-8859-1?Q?=A4?= <a@x.test>", .standard, .valid, name: "¤"),
        rfc("charset ISO-8859-15", "=?ISO-8859-15?Q?=A4?= <a@x.test>", .standard, .valid, name: "€"),
        rfc("charset windows-1252", "=?windows-1252?Q?=80_Euro?= <a@x.test>", .standard, .valid, name: "€ Euro"),
        rfc("2047 §6.2 unknown charset shown as written", "=?x-unknown?Q?Ann?= <a@x.test>", .standard, .valid,
            name: "=?x-unknown?Q?Ann?=", warn: [undecoded]),
        rfc("2047 §6.3 (1) \"-\" is not B; still handled", "=?UTF-8?B?QW5u-?= <a@x.test>", .standard, .valid,
            name: "=?UTF-8?B?QW5u-?=", address: "a@x.test", warn: [undecoded]),
        rfc("2047 §6.3 bad Q octet; still handled", "=?UTF-8?Q?=ZZ?= <a@x.test>", .standard, .valid,
            address: "a@x.test", warn: [undecoded]),
        rfc("2047 §6.3 not valid UTF-8 once decoded; still handled", "=?UTF-8?Q?=FF?= <a@x.test>", .standard, .valid,
            address: "a@x.test"),
        rfc("2047 §2 75 characters is an encoded-word", "=?UTF-8?Q?" + rfcRepeat("a", 63) + "?= <a@x.test>", .standard,
            .valid, name: .equals(rfcRepeat("a", 63))),
        // Where an encoded word may not be, it is an ordinary atom or text.
        rfc("2047 §5 not within a quoted-string", #""=?ISO-8859-1?Q?Andr=E9?=" <a@x.test>"#, .standard, .valid,
            name: "=?ISO-8859-1?Q?Andr=E9?="),
        rfc("2047 §5 not in an addr-spec", "=?UTF-8?Q?ann?=@x.test", .strict, .valid,
            name: nil, address: "=?UTF-8?Q?ann?=@x.test"),
        rfc("2047 §5 (3) must be separated by white space", "Ann=?UTF-8?Q?_Lee?= <a@x.test>", .standard, .valid,
            name: "Ann=?UTF-8?Q?_Lee?="),
        rfc("2047 §2 encoded-text has no SPACE", "=?UTF-8?Q?a b?= <a@x.test>", .standard, .valid,
            name: "=?UTF-8?Q?a b?="),
    ]

    // Legacy charsets of the WHATWG Encoding Standard, as real mail labels
    // them.
    public static let legacyCharsets: [RFCRow] = [
        rfc("KOI8-R, B", "=?KOI8-R?B?6dfBziDwxdTSz9c=?= <ivan@example.ru>", .standard, .valid, name: "Иван Петров"),
        rfc("KOI8-R, Q", "=?koi8-r?Q?=E9=D7=C1=CE_=F0=C5=D4=D2=CF=D7?= <ivan@example.ru>", .standard, .valid,
            name: "Иван Петров"),
        rfc("windows-1251", "=?windows-1251?B?xOzo8vDo6SDY7vHy4Oru4uj3?= <dima@example.ru>", .standard, .valid,
            name: "Дмитрий Шостакович"),
        rfc("ISO-8859-2", "=?ISO-8859-2?Q?Anton=EDn_Dvo=F8=E1k?= <dvorak@example.cz>", .standard, .valid,
            name: "Antonín Dvořák"),
        rfc("windows-1250", "=?windows-1250?B?o3VrYXN6IFdy82JlbA==?= <lukasz@example.pl>", .standard, .valid,
            name: "Łukasz Wróbel"),
        rfc("ISO-8859-7", "=?ISO-8859-7?B?0/nq8dz05/I=?= <sokratis@example.gr>", .standard, .valid, name: "Σωκράτης"),
        rfc("windows-1254", "=?windows-1254?Q?=DE=FCkr=FC_I=FE=FDk?= <sukru@example.tr>", .standard, .valid,
            name: "Şükrü Işık"),
        rfc("windows-1256", "=?windows-1256?B?483jzw==?= <m@example.eg>", .standard, .valid, name: "محمد"),
        rfc("windows-874", "=?windows-874?B?ysGq0sI=?= <somchai@example.th>", .standard, .valid, name: "สมชาย"),
        rfc("Shift_JIS", "=?Shift_JIS?B?jlKTY5G+mFk=?= <taro@example.jp>", .standard, .valid, name: "山田太郎"),
        rfc("EUC-JP", "=?EUC-JP?B?urTGo7LWu9I=?= <hanako@example.jp>", .standard, .valid, name: "佐藤花子"),
        // The classic Japanese From line: JIS X 0208 between ESC $ B and
        // ESC ( B.
        rfc("ISO-2022-JP", "=?ISO-2022-JP?B?GyRCOzNFREJATzobKEI=?= <taro@example.jp>", .standard, .valid,
            name: "山田太郎"),
        rfc("ISO-2022-JP, lowercase label", "=?iso-2022-jp?b?GyRCOzNFREJATzobKEI=?= <taro@example.jp>", .standard,
            .valid, name: "山田太郎"),
        // gb2312 is a label of GBK, decoded as gb18030.
        rfc("GB2312", "=?GB2312?B?1cXOsA==?= <zhang@example.cn>", .standard, .valid, name: "张伟"),
        rfc("GBK", "=?GBK?B?wO7QocH6?= <li@example.cn>", .standard, .valid, name: "李小龙"),
        rfc("gb18030", "=?gb18030?B?zfW3vA==?= <wang@example.cn>", .standard, .valid, name: "王芳"),
        rfc("Big5", "=?Big5?B?s6+kaqTl?= <chan@example.tw>", .standard, .valid, name: "陳大文"),
        rfc("EUC-KR", "=?EUC-KR?B?sei5zsHY?= <kim@example.kr>", .standard, .valid, name: "김민준"),
        rfc("ks_c_5601-1987 (EUC-KR)", "=?ks_c_5601-1987?B?wMy8rb+s?= <lee@example.kr>", .standard, .valid,
            name: "이서연"),
        // Words in two charsets, and a Big5 character split across words.
        rfc("2047 §6.2 KOI8-R word then UTF-8 word",
            "=?KOI8-R?B?6dfBzg==?= =?UTF-8?Q?_=D0=9F?= <ivan@example.ru>", .standard, .valid, name: "Иван П"),
        rfc("2047 §6.2 Big5 character split across words", "=?Big5?B?s68=?= =?Big5?B?pGqk5Q==?= <chan@example.tw>",
            .standard, .valid, name: "陳大文"),
        // An undecodable sequence is U+FFFD; the ASCII after it is kept.
        rfc("Shift_JIS bad pair keeps the ASCII byte", "=?Shift_JIS?Q?=85=40Ann?= <a@example.jp>", .standard, .valid,
            name: "\u{FFFD}@Ann"),
        // RFC 1468: every ISO-2022-JP word ends back in ASCII, so adjacent
        // words are decoded one by one (joined, the escape to ASCII and the
        // escape out of it would meet, an error to the decoder).
        rfc("1468 adjacent ISO-2022-JP words",
            "=?ISO-2022-JP?B?GyRCOzNFRBsoQg==?= =?ISO-2022-JP?B?GyRCQkBPOhsoQg==?= <taro@example.jp>", .standard,
            .valid, name: "山田太郎"),
        rfc("1468 adjacent ISO-2022-JP words across a fold",
            "=?ISO-2022-JP?B?GyRCOzNFRBsoQg==?=\r\n =?ISO-2022-JP?B?GyRCQkBPOhsoQg==?= <taro@example.jp>", .standard,
            .valid, name: "山田太郎"),
        // Labels the standard maps to its replacement encoding are shown as
        // written, not as one U+FFFD, and so are sent on as they came.
        rfc("replacement label shown as written", "=?ISO-2022-KR?B?GyQpQw4xaDlOQVgP?= <kim@example.kr>",
            .standard, .valid, name: "=?ISO-2022-KR?B?GyQpQw4xaDlOQVgP?=", warn: [undecoded]),
        rfc("replacement label shown as written", "=?hz-gb-2312?Q?~{UEN0~}?= <zhang@example.cn>",
            .standard, .valid, name: "=?hz-gb-2312?Q?~{UEN0~}?=", warn: [undecoded]),
    ]

    public static let all: [RFCRow] = section8Lists + section8Comments + section8Phrases + encodings + legacyCharsets
}

/// Rows where the implementation disagrees with RFC 2047 or with the
/// specified policy (see the report).
public enum RFC2047Disputed {
    public static let rows: [RFCRow] = [
        // Policy: an encoded word left as written gets the warning, in a
        // comment as in a phrase (the phrase case passes, see `encodings`).
        rfc("2047 §6.2 + policy: warning for an unknown charset in a comment",
            "x@example.test (=?ISO-8859-1?Q?a?= =?x-unknown?Q?_b?=)", .standard, .valid, warn: [undecoded]),
        rfc("2047 §6.2 + policy: warning for an unknown charset in a comment",
            "nsb@thumper.bellcore.com (=?UTF-7?b?7eXs+SDv4SDp7Oj08A==?=)", .standard, .valid, warn: [undecoded]),
        // §2: "An 'encoded-word' may not be more than 75 characters long";
        // the project's choice is to decode longer ones anyway, as mail
        // readers do, since senders exceed the limit and the text is clear.
        rfc("2047 §2 a 76-character word is still decoded (project choice)",
            "=?UTF-8?Q?" + rfcRepeat("a", 64) + "?= <a@x.test>",
            .standard, .valid, name: .equals(rfcRepeat("a", 64))),
    ]
}
