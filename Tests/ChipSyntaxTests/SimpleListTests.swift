import Testing
@testable import ChipSyntax
import ChipTestSupport

/// The structural index (``SimpleList``) answers for the simple lists most
/// records are, and then gives exactly the scanner's segments; it refuses
/// everything the scanner reads with more rules.
@Suite("Structural index: simple lists")
struct SimpleListTests {
    func simple(_ text: String) -> [Segment]? {
        var out: [Segment] = [Segment(.groupClose, 0..<0)]  // appends after what is there
        let bytes = Array(text.utf8)
        let answered = bytes.withUnsafeBufferPointer { SimpleList.segments($0, into: &out) }
        if !answered { #expect(out.count == 1, "a refused record appended segments") }
        return answered ? Array(out.dropFirst()) : nil
    }

    @Test(arguments: [
        "", "a@x.org", "a@x.org, b@y.org", "Ann Lee <a@x.org>", " Ann  Lee <a@x.org> ,b@y.org ", ",,a@x.org,,",
        "<a@x.org>", "José Müller <j@x.de>", "a@b@c.org", "Dr. M. Ucko <u@d.org>,  <v@d.org>",
        String(repeating: "abcdefgh@example.org, ", count: 40), "O'Neil <o@x.ie>", "a@x.org,", "A <a@x.org> ",
        "Ann <a b@x.org>", "a@x", "@", "x<@>", "\"Ann\" <a@x.org>", "a@x.org; b@y.org", "a@x.org;;b@y.org;",
        "\"Lee, Ann\" <a@x.org>, \"Ray; Bob\" <b@y.org>", "\"a@b <c>, (d) [e] :f;\" <g@h.org>", "\"Ann\" Lee <a@x.org>",
        "\"\" <a@x.org>", "Ann \"the\" Lee <a@x.org>; b@y.org, c@z.org",
        "\"" + String(repeating: "long, name ", count: 9) + "\" <a@x.org>, b@y.org",
        String(repeating: "\"Q, \" <q@x.org>, ", count: 20),
        // Comments, groups and escapes.
        "a@x.org (Ann)", "a@x.org(Ann)", "a@x.org (Ann) (Lee) ,b@y.org", "a@x.org (Ann (the) Lee), b@y.org",
        "Ann (work) <a@x.org>", "(work) <a@x.org>", "Ann <a@x.org> (work)", "Ann <a@x.org>(w), b@y.org (x, y; z <@>)",
        "a@x.org (\u{00E9}t\u{00E9})", "a@ (x)", "a@x.org. (x)", "a@x.org ()",
        "team: a@x.org;", "Team: a@x.org, Ann <b@y.org>; c@z.org", "undisclosed-recipients:;", "a:;b:;", "T:a@x.org",
        "\"My Team\": a@x.org", "T: a@x.org", "x@y.org, T: a@x.org;, U:;", "T: a@x.org (c);", "Team:a@x.org",
        "\"Ann\\\" Lee\" <a@x.org>", "\"a\\\\\" <a@x.org>", "\"a\\,b\" <a@x.org>, c@d.org", "\"\\\\\\\"\" <a@x.org>",
        // Words where an address should be: a chip of their own, unless
        // the scanner holds the `,` after them (below).
        "Ann", "a@x.org; Ann; b@y.org", "a@x.org, lars at wp.pl", "a@x.org, b.example.org, c@z.org", "Ann;",
        "T: Ann, b@y.org;", "a@x.org, Ann;", ",Ann", "a@x.org, Ann B, Cy <c@z.org>",
        // 0xEF bytes the scanner reads as letters (an emoji's variation
        // selector, the replacement character, a lone byte).
        "\u{2764}\u{FE0F} Mom <m@x.org>", "\u{FFFD}nn <a@x.org>", "a\u{FE0F}@x.org",
        // A quoted string, comment or `<…>` open at the record's end, with
        // no `,` or `;` after its opener, runs to it, trailing spaces as its
        // text: one chip, for the general path.
        "\"Ann <a@x.org>", "a@x.org (Ann", "Ann <a@x.org", "\"" + String(repeating: "x", count: 70) + " <a@x.org>",
        "Ann <a@x.org> (work", "<", "\"",
        "T: a@x.org, \"Ann", "b@y.org; Ann <a@x.org  ", "\"A\" \"B", " \"Ann   ",
        "a@x.org (c (d) e", "Ann <a@x.org>(c", "x@y.org;<a@", "\"a\\\" b", "a@x.org, <",
        // Outlook's `Last, First <…>`: one chip when a `;` ends it (or the
        // record's end, in a list that used `;`), two at a `,` or at the
        // end of a list that did not; never held in a group or after a
        // `,` ended a chip (unless a `;` did since).
        "Lee, Ann <a@x.org>; Ray, Bob <b@y.org>", "Lee, Ann <a@x.org>;", "Lee, Ann <a@x.org>", "Lee, Ann <a@x.org>, b@y.org",
        "a@x.org; Lee, Ann <b@y.org>", "a@x.org; Lee, Ann <b@y.org>, c@z.org", "a@x.org, Lee, Ann <b@y.org>; c@z.org",
        " Lee , Ann  Q <a@x.org> ;", "Lee,Ann<a@x.org>;", "T: Lee, Ann <a@x.org>;", "T: a@x.org; Lee, Ann <b@y.org>",
        "Lee, Ann <a@x.org>; Ray, Bob <b@y.org>, c@z.org", "Lee, Ann <a@x.org>;;Ray, Bob <b@y.org>", "O'Neil, J. R. <j@x.ie>;",
        "Müller, Jörg <j@x.de>; Lee, Ann <>;", "Lee, Ann <a@x.org>  ;  Ray, Bob <a@b@x.org>",
        // Comments before a bare address (and after it): one chip.
        "(c) a@x.org", "(c)a@x.org", "(c) (d (e)) a@x.org (f) (g), b@y.org", " (home) a@x.org;(x)b@y.org", "(a@b) c@x.org",
        "(c) a@b@x.org", "Ann (c) Lee (d) <a@x.org>", "(c) Ann (d) <a@x.org> (e)", "(c) @", "(c) a@x.org.",
    ])
    func answersAsTheScannerDoes(_ text: String) {
        #expect(simple(text) == segments(of: Array(text.utf8)), "\(text.debugDescription)")
    }

    /// A construct open at the record's end with a `,` or `;` after its
    /// opener: the scanner ends its chip before that separator and reads
    /// the rest again, which the index leaves to it (it declines).
    @Test(arguments: [
        "a@x.org, \"Lee, Ann <b@y.org>, c@z.org", "a@x.org (c) (d, e", "Ann Lee \"the, one", "Ann <a@x.org, b@y.org",
        "\"Lee, Ann\" <a@x.org; b@y.org", "T: (x; y", "a@x.org, \"Ann; ",
    ])
    func declinesWhatRecoveryReadsAgain(_ text: String) {
        #expect(simple(text) == nil, "\(text.debugDescription)")
        #expect(segments(of: Array(text.utf8)).count >= 2, "\(text.debugDescription)")
    }

    @Test(arguments: [
        "Ann a@x.org", "a@x.org b@y.org",
        "a@x.org\r\nb@y.org", "\"a b\"@x.org",
        // Comments, groups and escapes the scanner reads by rules of its own.
        "a@x.org (Ann) b", "a@x.org (c) b@y.org", "(c) Ann a@x.org", "a@(c)x.org", "a@x.org (c) x (d)", "a(c)@x.org",
        "(c) a@x.org b@y.org", "(c) a@x.org (d) b", "(c) a @x.org", "(c) a@x.org (d", "a@x.org (c) b (d)",
        "<a@x.org (c)>", "Ann <a@x.org> (c) x", "a@x.org (\"c)", "a@x.org (c\\))", "a@x.org)", "Ann (c) a@x.org",
        "a@x.org :", ": a@x.org", "T: U: a@x.org", "a@x.org: b@y.org", "mailto:a@x.org", "MailTo:a@x.org",
        "Ann (c): a@x.org", "<a@x.org>: b@y.org", "a\\b@x.org", "\\\"a\" <a@x.org>", "\"a\"\\ <a@x.org>",
        "<a@x.org> \"Ann\"", "Ann <\"a\"@x.org>", "\"Ann\"", "\"Ann\", b@y.org", "\"Ann\r\n\" <a@x.org>",
        "\"Ann\tLee\" <a@x.org>",
        "<a;b@x.org>", "a@x.org\tb", "\u{FEFF}a@x.org", "a＠x.org",
        "Ann <a@x.org> x", "<a@x.org><b@y.org>", "<a,b@x.org>", "a>b@x.org", "Ann@x <a@x.org>", "mailto:a@x.org",
        "Ann <a@[1.2.3.4]>", String(repeating: "a@x.org,", count: 600),
        // A construct open at the record's end, after what the scanner
        // ends a chip at, or after words and a comment.
        "a@x.org \"Ann", "a@x.org b (c", "Ann (c", "(c) Ann \"Lee", "<a@x.org> \"Ann", "Ann <a@x.org> x (c", "(c",
        "a@x.org (c) b (d", "<a, b@x.org", "Ann <a@x.org (c", "Lee, \"Ann", "Lee, Ann <a@x.org",
        // Words before a `,` the scanner holds: the list's first chip, or
        // one of a list that used `;`.
        "Ann, b@y.org", "Lee, Ann", "a@x.org; Ann, b@y.org", "(c) Ann, b@y.org", "\"Ann\" Lee, b@y.org",
        // and then anything but words, one closed `<…>` and spaces.
        "Lee, Ann, Bob <b@y.org>", "Lee, \"Ann\" <a@x.org>", "Lee, a@x.org", "Lee, (c) Ann <a@x.org>", "Lee, <a@x.org>",
        "Lee, Ann <a@x.org> (c);", "Lee, T: a@x.org;", "Lee, Ann <a@x.org> b;", "Lee, Ann;", "Lee, Ann <a@x.org> <b@y.org>;",
        // 0xEF that may begin `＠` (EF BC A0) or a byte order mark, or ends the record.
        "a\u{FF20}x.org", "\u{FEFF}Ann <a@x.org>", "a@x.org \u{FF0C} b@y.org",
    ])
    func refusesWhatNeedsTheScannersRules(_ text: String) {
        #expect(simple(text) == nil, "\(text.debugDescription)")
    }

    /// Every record of the real corpus and seeded random lists: where the
    /// index answers, the segments are the scanner's; it answers for
    /// nearly every real record.
    @Test func agreesWithTheScannerOnTheCorpusAndRandomLists() throws {
        let corpus = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        var records = corpus.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let realCount = records.count
        var rng = SplitMix64(seed: 31)
        for _ in 0..<3_000 { records.append(randomList(&rng, pieces: rng.between(1...8))) }
        // Simple-looking lists with one random byte changed, to walk the edges.
        let shapes = [
            "Ann Lee <ann@x.org>", "b.c@y.org", "<d@z.org>", "José <j@x.de>", "\"Lee, Ann\" <a@x.org>", "\"\" <e@x.org>",
            "f@x.org (Fay (F) Lee)", "Gus (work) <g@y.org> (home)", "Team: h@z.org", "i@x.org;", "\"J\\\"K\\\\\" <j@x.org>",
            "Lee, Ann <l@x.org>", "Ray, Bo B. <r@y.org>;", "(c) m@x.org (M) (n)", "N (n) O <n@x.org> (o)",
        ]
        for _ in 0..<3_500 {
            var bytes = Array((0..<rng.between(1...4)).map { _ in rng.pick(shapes) }.joined(separator: rng.pick([", ", ",", " , ", "; ", ";"])).utf8)
            let at = rng.below(bytes.count)
            bytes[at] = rng.pick(Array(" ,<>@\"();:.a\t\\".utf8) + [0xEF, 0x00, 0xC3])
            records.append(bytes)
        }
        var answered = 0, answeredReal = 0
        for (k, record) in records.enumerated() {
            var got: [Segment] = []
            guard record.withUnsafeBufferPointer({ SimpleList.segments($0, into: &got) }) else { continue }
            answered += 1
            if k < realCount { answeredReal += 1 }
            #expect(got == segments(of: record), "\(String(decoding: record, as: UTF8.self).debugDescription)")
        }
        print("structural index: \(answeredReal) of \(realCount) real records, \(answered - answeredReal) of \(records.count - realCount) random")
        #expect(answeredReal * 100 >= realCount * 95, "answered \(answeredReal) of \(realCount) real records")
        #expect(answered - answeredReal > 1_000)
    }

    /// Lists of words, addresses, names, groups and both separators in
    /// every order: where the scanner holds a `,` after words (Outlook's
    /// `Last, First`) depends on what the list did before, and the index
    /// answers only where it does not, with the scanner's segments.
    @Test func wordsBeforeSeparatorsAsTheScannerHoldsThem() {
        let pieces = [
            "Ann", "Ann Lee", "a@x.org", "Bo <b@y.org>", "\"C, D\" <c@z.org>", "T:", "U: e@x.org", "(c) f@x.org", "",
            "Lee, Ann <l@x.org>", "G <g@x.org> (c)",
        ]
        var rng = SplitMix64(seed: 83)
        var answered = 0, withWords = 0
        for _ in 0..<20_000 {
            var text = ""
            for k in 0..<rng.between(1...6) {
                if k > 0 { text += rng.pick([",", ";", ", ", "; ", " , "]) }
                text += rng.pick(pieces)
            }
            let bytes = Array(text.utf8)
            var got: [Segment] = []
            guard bytes.withUnsafeBufferPointer({ SimpleList.segments($0, into: &got) }) else { continue }
            answered += 1
            let expected = segments(of: bytes)
            #expect(got == expected, "\(text.debugDescription)")
            if text.contains("Ann") { withWords += 1 }
        }
        // The index answers many of these lists, words among them.
        #expect(answered > 5_000 && withWords > 2_000, "answered \(answered), \(withWords) with words")
    }

    /// Stage 1 finds every byte it looks for at every position of a block,
    /// and in the padded last block.
    @Test func everyStructuralByteAtEveryPosition() {
        for length in [1, 5, 63, 64, 65, 127, 128, 200] {
            for position in 0..<length {
                for b in Array(",<>@\"()[:;\r\n\t \\".utf8) + [0xEF, 0x00, 0x01, 0x1F, 0x7F] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes[position] = b
                    var out: [Segment] = []
                    let answered = bytes.withUnsafeBufferPointer { SimpleList.segments($0, into: &out) }
                    // One `@` makes a bare address, a lone space, comma or
                    // semicolon an empty list, a space or `;` words or two;
                    // a `,` after words is held unless nothing stands
                    // before it; a `:` opens a group (of words, or empty
                    // when last) after a name; 0xEF is a letter unless it
                    // is last; DEL and the controls but tab, CR and LF
                    // are letters (recognition's to judge). Anything else
                    // is refused.
                    let last = position == length - 1
                    let expected: Bool
                    switch b {
                    case 0x40, 0x20, 0x3B, 0x7F, 0x00, 0x01, 0x1F: expected = true
                    // A quoted string or `<…>` open to the end: one chip.
                    case 0x22, 0x3C: expected = true
                    case 0x2C: expected = length == 1 || position == 0
                    case 0x3A: expected = position > 0
                    case 0xEF: expected = !last
                    default: expected = false
                    }
                    #expect(answered == expected, "\(b) at \(position) of \(length)")
                    if answered { #expect(out == segments(of: bytes)) }
                }
            }
        }
    }

    /// Quoted names whose quotes stand at every pair of places in and
    /// across 64-byte blocks, holding separators and brackets: the quote
    /// state carried from block to block masks exactly what they hold.
    @Test func quotedStringsAcrossBlocks() {
        for open in 0..<140 {
            for length in [0, 1, 2, 5, 62, 63, 64, 65, 130] {
                var name = [UInt8](repeating: 0x61, count: length)
                for k in stride(from: 1, to: length, by: 7) { name[k] = Array(",;<>@ ".utf8)[k % 6] }
                let bytes = [UInt8](repeating: 0x20, count: open) + [0x22] + name + Array("\" <a@x.org>, b@y.org".utf8)
                var out: [Segment] = []
                let answered = bytes.withUnsafeBufferPointer { SimpleList.segments($0, into: &out) }
                #expect(answered, "quote at \(open), \(length) bytes")
                #expect(out == segments(of: bytes), "quote at \(open), \(length) bytes")
                // Never closed, with separators after it: the index declines
                // (the scanner ends the chip before the first one and reads
                // the rest again); without them it runs to the end, one chip.
                let open = [UInt8](repeating: 0x20, count: open) + [0x22] + name + Array(" <a@x.org>, b@y.org".utf8)
                out = []
                #expect(!open.withUnsafeBufferPointer { SimpleList.segments($0, into: &out) })
                #expect(segments(of: open).count >= 2, "open quote at \(open), \(length) bytes")
                let quiet = [UInt8](repeating: 0x20, count: bytes.firstIndex(of: 0x22)!) + [0x22]
                    + name.map { $0 == 0x2C || $0 == 0x3B ? 0x61 : $0 } + Array(" <a@x.org> b".utf8)
                out = []
                #expect(quiet.withUnsafeBufferPointer { SimpleList.segments($0, into: &out) })
                #expect(out == segments(of: quiet) && out.count == 1, "open quote at \(open), \(length) bytes")
            }
        }
    }

    /// Records read one after another from one buffer, each found by its
    /// terminator (a line feed, or NUL) as the index classifies it, give
    /// what each record read alone gives: the same length, the same
    /// answer and the same entries. The blocks read past a record's end
    /// hold the next records' bytes, which must change nothing.
    @Test(arguments: [UInt8(0x0A), 0x00])
    func recordsReadFromOneBufferAsAlone(terminator: UInt8) throws {
        let corpus = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        var records = corpus.split(separator: 0x0A).prefix(400).map(Array.init)
        var rng = SplitMix64(seed: UInt64(terminator) + 77)
        let shapes = [
            "Ann Lee <ann@x.org>", "b.c@y.org", "\"Lee, Ann\" <a@x.org>", "f@x.org (Fay)", "Team: h@z.org",
            "\"J\\\"K\" <j@x.org>", "\"open", "a@x.org\\", "a@x.org\r", "\t<b@y.org>", "a@x.org (c",
        ]
        for _ in 0..<2_000 {
            switch rng.below(4) {
            case 0: records.append(randomList(&rng, pieces: rng.between(1...6)))
            case 1: records.append([])
            case 2: records.append(Array(String(repeating: "a@x.org, ", count: rng.between(400...600)).utf8))
            default:
                var bytes = Array((0..<rng.between(1...4)).map { _ in rng.pick(shapes) }.joined(separator: ", ").utf8)
                bytes[rng.below(bytes.count)] = rng.pick(Array(" ,<>@\"();:\t\r\n\\".utf8) + [0xEF, 0x00])
                records.append(bytes)
            }
        }
        // Records of about `maxBytes`, whose end falls at or by a block's
        // edge: the longest the index reads, and the first it declines.
        for length in (SimpleList.maxBytes - 66)...(SimpleList.maxBytes + 2) {
            var bytes = Array(String(repeating: "a@x.org, ", count: length / 9 + 1).utf8)[..<length]
            if bytes.last == 0x20 { bytes[bytes.count - 1] = 0x2C }
            records.append(Array(bytes))
        }
        // A record holding the terminator is two records.
        records = records.flatMap { $0.split(separator: terminator, omittingEmptySubsequences: false).map(Array.init) }
        var buffer: [UInt8] = []
        for r in records { buffer += r + [terminator] }
        buffer.removeLast(rng.below(2))  // the last one unterminated, now and then
        let out = UnsafeMutablePointer<SimpleList.Chip>.allocate(capacity: SimpleList.maxChips)
        let alone = UnsafeMutablePointer<SimpleList.Chip>.allocate(capacity: SimpleList.maxChips)
        defer { out.deallocate(); alone.deallocate() }
        var answered = 0, declined = 0
        buffer.withUnsafeBufferPointer { p in
            var pos = 0
            for (k, record) in records.enumerated() where pos < p.count || k < records.count - 1 {
                let read = SimpleList.record(p.baseAddress! + pos, available: p.count - pos, terminator: terminator, into: out)
                #expect(read.length == record.count, "record \(k)")
                #expect(read.terminated == (pos + record.count < p.count), "record \(k)")
                let reference = record.withUnsafeBufferPointer { r in
                    SimpleList.record(r.baseAddress ?? p.baseAddress!, available: r.count, terminator: terminator, into: alone)
                }
                #expect(!reference.terminated && reference.length == record.count)
                #expect(read.count == reference.count, "\(String(decoding: record, as: UTF8.self).debugDescription)")
                if let n = read.count, n == reference.count {
                    answered += 1
                    for i in 0..<n where out[i] != alone[i] {
                        Issue.record("entry \(i) of \(String(decoding: record, as: UTF8.self).debugDescription)")
                    }
                } else {
                    declined += 1
                }
                pos += record.count + 1
            }
        }
        #expect(answered > 1_000 && declined > 300, "answered \(answered), declined \(declined)")
    }
}
