import Testing
@testable import ChipOutput
@testable import ChipRecognition
import ChipSyntax
import ChipTestSupport
import ChipOutputTestSupport

/// The simple lane (the structural index's chips recognized as plain data
/// and written without a ``ChipRecord``) is a shortcut, never a second
/// opinion: where it answers, every chip's verdict and every format's
/// bytes are the general path's.
@Suite("Simple lane: plain data for simple lists")
struct SimpleLaneTests {
    static let policies: [ValidationPolicy] = {
        var small = ValidationPolicy.standard
        small.maxChipBytes = 24
        var exact = ValidationPolicy.standard
        exact.comparesLocalPartsExactly = true
        var quiet = ValidationPolicy.standard
        quiet.checksLookalikes = false
        return [.strict, .standard, .lenient, small, exact, quiet]
    }()

    /// Lists that walk each rule of the lane: names it reads or declines,
    /// duplicates by case, look-alikes, invisible characters, typos, the
    /// size limit and the fast grammar's edges.
    @Test(arguments: [
        "a@x.org", "Ann Lee <ann@x.org>, ANN@X.ORG, ann@x.org", "Ann <A@x.org>, a@X.org",
        "Aaron M. Ucko <ucko@debian.org>", "J. Doe <j@x.org>", ".Ann <a@x.org>",
        "José Müller <j@x.de>, Jоhn <john@x.org>", "Ann\u{200B}Lee <a@x.org>", "Ann\u{202E}eeL <a@x.org>",
        "bob@gmial.com, b@gmai.com, c@yaho.com", "a@раураl.com, b@xn--pypal-4ve.com",
        "=?utf-8?q?Ann?= <a@x.org>", "Ann@x.org <b@y.org>", "a@b@c.org", "<a@x.org>", "A <a@x>", "a@1.2.3.4",
        "a..b@x.org", "a.@x.org", "a@-x.org", "a@x-.org", "a@xn--ab.org", "a@ab--cd.org", "ab@x.123",
        "averyveryverylongname@example.org, Short <s@x.org>", String(repeating: "u@example.org, ", count: 30),
        "Ann Lee <ann@x.org> , <b@y.org>,,c@z.org", "Ann <ann@x.org>, Ann <ann@x.org>", "\u{00C0}nn <a@x.org>",
        "Ann <a@x.org>, ann@x.org.", "a@x.org, a@x.org.", "Ann  Lee <a@x.org>", "Ann <a@" + String(repeating: "x", count: 64) + ".org>",
        // Groups (the lane's chips carry the group's name) and comments
        // (left to the general path, which may read one as the name).
        "Team: Ann <a@x.org>, b@y.org; c@z.org", "\"Q\\\"T\" =?utf-8?q?x?=: a@x.org;", "T: a@x.org (c), Ann (w) <b@y.org>;",
        "undisclosed-recipients:;, a@x.org", "a@x.org (Ann Lee), (Bob) <b@y.org>, c@z.org ()", "T:;U: a@x.org",
        "\"Lee\\, Ann\" <a@x.org>, Team: \"R\\\\\" <r@y.org>",
        // Group names the lane opens itself (words, dots where allowed,
        // UTF-8, spaces before the colon) and those it leaves to the
        // general path (quoted, encoded, doubled spaces, longer than a chip).
        "Dr. Who Fans: a@x.org, b@y.org;", "Zoë's Team : Ann <a@x.org>;", "A: a@x.org; B: b@y.org;, C:;",
        "Ann  Lee: a@x.org;", "\"Q\": a@x.org;", "=?utf-8?q?T?=: a@x.org;", "Team\u{200B}: a@x.org;",
        "A very long group name here: a@x.org, b@y.org;", "T: a@x.org; T: a@x.org;", "Ops: a@x.org", "O.: a@x.org;",
        // Quoted names with no quoted-pair or `=?`, written from their
        // bytes between the quotes (spaces kept as they stand).
        "\"Ann Lee\" <a@x.org>", "\"Lee, Ann\" <a@x.org>", "\"Ann  Lee\" <a@x.org>", "\"\" <a@x.org>",
        "\" Ann \" <a@x.org>", "\"Zoë (x)\" <a@x.org>", "\"Ann\u{200B}\" <a@x.org>", "\"A=B?\" <a@x.org>",
        // Escapes in a quoted name: the lane reads them, and what they
        // escape counts as what it is (`@`, `=?`).
        "\"A\\\"B\\\\\" <a@x.org>", "\"A\\@B\" <a@x.org>", "\"A\\=?B\" <a@x.org>", "\"A=\\?B\" <a@x.org>",
        "\"\\\u{1}\" <a@x.org>", "\"Zo\\\u{00EB}\" <a@x.org>", "\"A\\\" <a@x.org>",
        // Encoded names: decoded by the lane for their checks (hidden and
        // bidi characters, mixed scripts, a decoded `@`, undecodable words).
        "=?UTF-8?Q?Ann=E2=80=8BLee?= <a@x.org>", "=?UTF-8?Q?Ann=E2=80=AE?= <a@x.org>", "=?UTF-8?B?0JDQvWFu?= <a@x.org>",
        "=?UTF-8?Q?ceo=40x=2Ecom?= <a@x.org>", "=?x-unknown?Q?Ann?= <a@x.org>", "=?UTF-8?Q?A?= =?UTF-8?Q?nn?= Lee <a@x.org>",
        "Dr. =?ISO-8859-1?Q?Jos=E9?= <j@x.org>", "\"=?UTF-8?Q?Ann?=\" <a@x.org>", "Ann=?x <a@x.org>", "=?UTF-8?Q?=0D=0A?= <a@x.org>",
        "=?UTF-8?B?QW5u?= <a@gmial.com>, =?UTF-8?B?QW5u?= <A@GMIAL.COM>",
        // Decoded text screened by its bytes: one script, two, invisible.
        "=?UTF-8?Q?=CE=91nn?= <a@x.org>", "=?UTF-8?Q?=EA=B9=80=EB=AF=BC=EC=A4=80?= <a@x.org>", "=?UTF-8?Q?Zo=C3=AB?= <a@x.org>",
        "=?UTF-8?Q?=D0=90=D0=BD=D0=BD=D0=B0?= <a@x.org>", "=?UTF-8?Q?A=EF=BB=BFnn?= <a@x.org>", "=?UTF-8?Q?=E1=83=90nn?= <a@x.org>",
        "=?ISO-8859-1?Q?J=F6rg?= <a@x.org>", "=?UTF-8?B?" + "QW5u" + "?= =?UTF-8?Q?=D0=90?= <a@x.org>",
        // International domains: read by the lane when every label is one
        // IDNA converts, as the grammar reads them.
        "a@köln.de", "Ann <a@例え.jp>, A@KÖLN.DE, a@köln.de", "a@ex\u{200B}ample.de", "a@-köln.de", "a@köln-.de",
        "a@köln.123", "a@köln", "a@köln\u{3002}de", "a@k_öln.de", "a@a\u{2665}.de", "a@p\u{0430}ypal.com",
        "a@" + String(repeating: "ö", count: 40) + ".de", "a@xn--kln-sna.de, a@köln.de", "(c) <a@köln.de>",
        "a@köln.de (Ann)", "a@\u{0435}xample.com", "a@köln.\u{0434}\u{0435}",
        "a@kö\u{00AD}ln.de", "a@kö\u{200E}ln.de", "a@kö\u{2060}ln.de", "a@kö\u{200D}ln.de", "a@kö\u{0085}ln.de",
        // UTF-8 local parts (RFC 6531, 6532): read by the lane when every
        // atom is well-formed UTF-8 with nothing the grammar reports in it.
        "δοκιμή@köln.de", "Wei <김민준@wp.pl>", "mañana@x.org, MAÑANA@X.ORG, mañana@x.org", "jürgen.groß@web.de (J)",
        "a\u{200B}b@x.org", "ab\u{0085}@x.org", "a\u{00AD}@x.org", "a\u{202E}b@x.org", ".ñ@x.org", "ñ.@x.org", "ñ..a@x.org",
        "é@x", "é@x.123", String(repeating: "ñ", count: 32) + "@x.org", String(repeating: "ñ", count: 33) + "@x.org",
        "\u{FFFD}@x.org", "ǅ@x.org", "é@xn--kln-sna.de", "\u{0430}@x.org", "é@p\u{0430}ypal.com", "Ann <é@gmial.com>",
        "\"é\"@x.org", "é@[1.2.3.4]", "é@x.org. ", "Ann <ñ@x.org>, ñ@x.org", "é\u{0301}@x.org", "\u{1F600}@x.org",
        // Comments after a name's words (the lane's when they hold only
        // what the lexer takes), and others (the general path's).
        "Laszlo Boszormenyi (GCS) <gcs@debian.org>", "ChangZhuo Chen (陳昌倬) <czchen@debian.org>", "Ann (x)(y) <a@x.org>",
        "Ann (x) Lee <a@x.org>", "(x) <a@x.org>", "Ann (x\u{1}) <a@x.org>", "Ann (x\u{7F}) <a@x.org>", "Ann (a@b.com) <a@x.org>",
        "Ann (=?utf-8?q?x?=) <a@x.org>", "Ann (x (y)) <a@x.org>", "Ann ( ) <a@x.org>", "Ann(x)<a@x.org>", "Ann (x) (y) <a@x.org>",
        "Ann (\u{0430}) <a@x.org>", "\"Ann\" (x) <a@x.org>", "Dr. Ann (x) <a@x.org>", "Ann (x) <a@x.org> (y)",
        "=?utf-8?q?Ann?= (x) <a@x.org>", "Ann Lee (x) <ann@x.org>, ann lee (y) <ANN@x.org>",
        "s@x.org (Susan Johnson, Legal)", "l@x.org (Liam (work))", "a@x.org (())", "a@x.org (A)(B)", "a@x.org (x ( y ))",
        "a@x.org (a,b;c:d<e>f[g]!)", "a@x.org (x@y.z)", "a@x.org (Zoë (née X))", "a@x.org (\u{0430}b)", "a@x.org ((x) y)",
        "a@x.org (x (y) )", "a@x.org (x\u{7F})", "a@x.org (Ann (=?utf-8?q?B?=))", "a@x.org (x\u{2028}y)", "a@x.org (x  y)", "a@x.org (x (y)  z)",
        // A comment after a bare address names it.
        "richard@shaw.ca (Richard Garcia), a@x.org (Richard Garcia)", "b@y.org (Bo  Lee)", "c@z.org (Dr. C. Z)",
        "d@x.org (A) (B)", "f@x.org (=?utf-8?q?F?=)", "h@x.org (H (I) J)", "i@x.org (\u{00DC}nal)", "j@x.org (j@k.org)",
        "k@x.org ( K)", "l@x.org (L )", "m@x.org(.M)", "n@x.org (J\u{043E}hn Smith)", "o@x.org (O\u{200B}P)",
        "p@gmial.com (P), P@GMIAL.COM (Q)", "q@x.org (q.r), r@x.org (Ann O'Neil-Smith)", "s@xn--pypal-4ve.com (S)",
        // A-labels: the lane's when IDNA accepts each (its verdict kept
        // with the international labels'), in any case.
        "a@xn--kln-sna.de, A@XN--KLN-SNA.DE", "Ann <a@xn--kln-sna.xn--p1ai>", "a@xn--.de", "a@xn--a.de", "a@xn--kln-sna-.de",
        "a@xn--zca.de", "a@xn--bcher-kva.xn--bcher-xxx.de", "a@xn--BCHER-KVA.de", "a@xn--80ak6aa92e.com", "a@ab--.de",
        "a@xn--bcher-kva.123", "a@xn--bcher-kva", "Ann (w) <a@xn--bcher-kva.de>", "a@xn--bcher-kva.de (A)",
        "a@" + String(repeating: "xn--bcher-kva.", count: 17) + "de",
        // Outlook's `Last, First <…>;` (the name with its `unquoted-comma`
        // warning), and the same split at a `,`.
        "Walker, Noah <noah.walker@yandex.ru>; Jackson, Robert <rj@ox.ac.uk>", "Lee, Ann <a@x.org>;", "Lee, Ann <a@x.org>",
        "Lee, Ann <a@x.org>, b@y.org", "Müller, Jörg <j@x.de>; O'Neil, J. R. <o@x.ie>;", "Lee, Ann <a@gmial.com>;",
        "Lee, =?utf-8?q?Ann?= <a@x.org>;", "Lee, Ann\u{200B} <a@x.org>;", "Lee, A\u{0430}n <a@x.org>;", "Lee,  Ann <a@x.org>;",
        "Lee, Ann <ann@x.org>; LEE, ANN <ANN@X.ORG>;", "Lee, Ann <a@köln.de>;", "Lee, Ann <a@xn--kln-sna.de>;",
        // Comments anywhere a mailbox may hold one: before a bare address
        // (naming nothing), several after it (the last with text names it),
        // after `>`, and around and between a name's words (dropped from
        // its decoding).
        "(home) a@x.org", "(home)a@x.org (Ann)", "(a) (b (c)) a@x.org (A) (B)", "a@x.org (A) ()", "a@x.org () (B)",
        "a@x.org (A)(B)", "(x\u{1}) a@x.org", "a@x.org (x\u{1}) (B)", "(c) a@köln.de (Zoë)", "(a@b.com) c@x.org",
        "Ann <a@x.org> (work)", "Ann <a@x.org> (w) (x)", "Ann <a@x.org>(w)", "Ann <a@x.org> (w\u{7F})", "<a@x.org> (c)",
        "Sven (do not use) Martin <s@x.org>", "Sven(x)Martin <s@x.org>", "(a) Ann <a@x.org>", "(a) Ann (b) Lee (c) <a@x.org>",
        "(x) <a@x.org>", "Ann (x) Lee <a@x.org> (y)", "Ann (a@b.com) Lee <a@x.org>", "Ann (=?utf-8?q?x?=) Lee <a@x.org>",
        "Dr. (x) Ann <a@x.org>", "Ann (x) .Lee <a@x.org>", "Ann (x) Lee. <a@x.org>", "Zoë (x) Lee <a@x.org>",
        "Ann (\u{0430}) Lee <a@x.org>", "Ann (x) \"Lee\" <a@x.org>", "Ann  (x)  Lee <a@x.org>", "Ann (x\u{1}) Lee <a@x.org>",
        "Ann (x) Lee <a@gmial.com>, ann (y) lee <A@GMIAL.COM>", "T: (c) a@x.org, Ann (x) Lee <b@y.org> (z);",
        "J.R. (x) Doe <a@x.org>", "A (x) B (y) C <a@x.org>", "Ann(x)(y)Lee <a@x.org>", "Ann (x (y)) Lee <a@x.org>", "A.(x)B <a@x.org>",
    ])
    func agreesOnEachRule(_ text: String) {
        for policy in Self.policies {
            let problems = simpleLaneDifferences([Array(text.utf8)], policy: policy)
            #expect(problems.isEmpty, "\(policy.name) \(text.debugDescription): \(problems)")
        }
    }

    /// Groups with a name of plain words are opened and closed by the lane
    /// (the general path makes no item of them); an empty group, a quoted
    /// or an encoded name are not.
    @Test func takesGroupsOfPlainNames() {
        let cases: [(String, [Bool])] = [
            ("Team: a@x.org, b@y.org;", [true, true]), ("Dr. Who: a@x.org;", [true, true]),
            ("Zoë : a@x.org", [true, true]), ("T:;", [true, false]), ("\"T\": a@x.org;", [false, true]),
            ("=?utf-8?q?T?=: a@x.org;", [false, true]), ("Ann  Lee: a@x.org;", [false, true]),
        ]
        for (text, expected) in cases {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { p in
                var chips: [SimpleList.Chip] = []
                #expect(SimpleList.appendChips(p, to: &chips), "\(text)")
                var list = ListRecognizer(policy: .standard)
                var taken: [Bool] = []
                for c in chips {
                    if c.kind == .chip {
                        if list.handleSimple(c, p, offset: 0) == nil { _ = list.handle(c.segment, p, base: 0) }
                        continue
                    }
                    let lane = list.handleSimpleGroup(c, p, offset: 0)
                    taken.append(lane)
                    if !lane { _ = list.handle(c.segment, p, base: 0) }
                }
                #expect(taken == expected, "\(text): \(taken)")
            }
        }
    }

    /// A control, DEL or UTF-8 (well-formed or not) put inside a comment
    /// anywhere makes the lane read the comments' text, which it leaves
    /// out for a chip of printable ASCII; it agrees with the general path
    /// either way.
    @Test func commentsAreReadUnlessTheChipIsPrintable() {
        let shapes = ["(c) n@x.org (N) (o)", "Ny (w) Lee <n@y.org> (h)", "(a) Oz <o@x.org>", "e@x.org (Eve)",
                      "Ki (K) <k@x.org>", "m@x.org (M (m), N)", "Ann Lee <a@x.org>", "(x) (y) p@q.org",
                      "Charles McDonald <charles.mcdonald@sales.contoso.com> (assistant) (do not use)"]
        let odd: [[UInt8]] = [[0x01], [0x7F], [0x1F], [0x0B], [0x80], [0xC3, 0xA9], [0xFF], [0xE2, 0x80, 0x8B]]
        var rng = SplitMix64(seed: 101)
        var records: [[UInt8]] = []
        var chips = 0, taken = 0
        for _ in 0..<3_000 {
            var bytes = Array((0..<rng.between(1...3)).map { _ in rng.pick(shapes) }.joined(separator: ", ").utf8)
            if rng.chance(perMille: 700) {
                // Into a comment: just after one of its `(`, or a byte on.
                let opens = bytes.indices.filter { bytes[$0] == ASCII.openParen }
                if let k = opens.isEmpty ? nil : rng.pick(opens) { bytes.insert(contentsOf: rng.pick(odd), at: k + 1 + rng.below(2)) }
            } else {
                // Printable: the lane takes every chip, its comments unread.
                bytes.withUnsafeBufferPointer { p in
                    var found: [SimpleList.Chip] = []
                    guard SimpleList.appendChips(p, to: &found) else { return }
                    var list = ListRecognizer(policy: .standard)
                    for c in found where c.kind == .chip {
                        chips += 1
                        if list.handleSimple(c, p, offset: 0) != nil { taken += 1 }
                    }
                }
            }
            records.append(bytes)
        }
        #expect(chips > 1_000 && taken == chips, "the lane took \(taken) of \(chips) printable chips")
        for policy in Self.policies {
            let problems = simpleLaneDifferences(records, policy: policy)
            #expect(problems.isEmpty, "\(policy.name): \(problems.prefix(10))")
        }
    }

    /// Every real record and seeded random and mutated lists, under every
    /// policy; and the lane takes nearly every chip of the real lists.
    @Test func agreesOnTheCorpusAndRandomLists() throws {
        let corpus = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        var records = corpus.split(separator: 0x0A).map(Array.init)
        let realCount = records.count
        var rng = SplitMix64(seed: 47)
        for _ in 0..<1_000 { records.append(randomList(&rng, pieces: rng.between(1...8))) }
        let shapes = [
            "Ann Lee <ann@x.org>", "b.c@y.org", "<d@z.org>", "José <j@x.de>", "M. Ucko <u@gmial.com>", "e@x.org (Eve)",
            "Team: f@y.org", "g@z.org;", "\"H\\\"I\" <h@x.org>", "=?UTF-8?Q?K=C3=B6_L?= <k@x.org>", "Jo <j@köln.de>", "Ki (K) <k@x.org>", "m@x.org (M (m), N)",
            "\"Lee, Ann B\" <l@x.org>", "ñandú@x.org", "Zoë <δοκιμή@köln.de>",
            "(c) n@x.org (N) (o)", "Ny (w) Lee <n@y.org> (h)", "(a) Oz <o@x.org>", "Lee, Ann <l@x.org>",
        ]
        for _ in 0..<2_000 {
            var bytes = Array((0..<rng.between(1...4)).map { _ in rng.pick(shapes) }.joined(separator: rng.pick([", ", ","])).utf8)
            let at = rng.below(bytes.count)
            bytes[at] = rng.pick(Array(" ,<>@.-_=?aA0();:\\\"".utf8) + [0xD0, 0x80, 0xC3, 0xE2])
            records.append(bytes)
        }
        let checked = TestScale.sample(records.indices, 2_500, "simple lane against the general path, records")
            .map { records[$0] }
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            let problems = simpleLaneDifferences(checked, policy: policy)
            #expect(problems.isEmpty, "\(policy.name): \(problems.prefix(10))")
        }
        // How much of the real corpus the lane takes.
        var chips = 0, taken = 0
        var list = ListRecognizer(policy: .standard)
        for record in records.prefix(realCount) {
            record.withUnsafeBufferPointer { p in
                var found: [SimpleList.Chip] = []
                guard SimpleList.appendChips(p, to: &found) else { return }
                list.reset()
                for c in found {
                    chips += 1
                    if list.handleSimple(c, p, offset: 0) != nil {
                        taken += 1
                    } else {
                        _ = list.handle(c.segment, p, base: 0)
                    }
                }
            }
        }
        print("simple lane: \(taken) of \(chips) chips of simple real records")
        #expect(taken * 100 >= chips * 90, "the lane took \(taken) of \(chips)")
    }
}
