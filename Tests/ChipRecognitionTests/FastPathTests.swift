import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

@Suite("Fast path")
struct FastPathTests {
    /// The full grammar's answer, bypassing the fast path.
    func general(_ bytes: [UInt8], _ policy: ValidationPolicy) -> Recognition {
        var recognizer = Recognizer(policy: policy)
        return bytes.withUnsafeBufferPointer { recognizer.recognizeInGeneral($0, 0..<$0.count) }
    }

    func fast(_ bytes: [UInt8], allowsObsolete: Bool = false) -> Recognition? {
        bytes.withUnsafeBufferPointer { FastPath.recognize($0, 0..<$0.count, allowsObsolete: allowsObsolete) }
    }

    /// Names with dots (`obs-phrase`) take the fast path only where the
    /// policy allows obsolete syntax, with its warning, as the grammar says.
    @Test(arguments: [
        "Aaron M. Ucko <ucko@debian.org>", "Dr. Ann <a@x.org>", "J.R.R. Tolkien <t@x.org>", "Ann . Lee <a@x.org>",
        "Ann Lee. <a@x.org>", "M.\tUcko <a@x.org>", "José M. Ortiz <j@x.org>",
    ])
    func dottedNamesTakeTheFastPathWhereObsoleteSyntaxIsAllowed(_ text: String) throws {
        let bytes = Array(text.utf8)
        #expect(fast(bytes) == nil)
        let r = try #require(fast(bytes, allowsObsolete: true))
        #expect(r.warnings == [.obsoleteSyntax])
        for policy in [ValidationPolicy.standard, .lenient] {
            #expect(r == general(bytes, policy), "\(policy.name)")
        }
        #expect(general(bytes, .strict).error != nil)
    }

    /// A dot first is an error of the grammar, and a dot by a quoted word
    /// is a form the one pass does not read: both are left to the grammar.
    @Test(arguments: [".Ann <a@x.org>", ". <a@x.org>", ". Ann <a@x.org>", "\"A.\" . <a@x.org>", "Ann .\"B\" <a@x.org>"])
    func dotsTheFastPathLeavesToTheGrammar(_ text: String) {
        #expect(fast(Array(text.utf8), allowsObsolete: true) == nil, "\(text)")
    }

    @Test(arguments: [
        "ann@example.com", "ann.lee+tag@mail.example.co.uk", "Ann Lee <ann@example.com>",
        "\"Lee, Ann\" <ann@example.com>", "<ann@example.com>", "José Müller <jose@example.de>",
        "=?UTF-8?B?SsO8cmdlbg==?= <j@example.de>", "Who? <one@y.test>", "\"\" <a@b.cd>", "Ann\tLee <a@x.org>",
        "\"A\\\"B\" <a@x.org>", "\"Lee, Ann \\\"Nan\\\"\" <a@x.org>", "\"\\\\\" <a@x.org>", "\"\\ \" <a@x.org>",
    ])
    func commonChipsTakeTheFastPath(_ text: String) {
        let bytes = Array(text.utf8)
        let r = fast(bytes)
        #expect(r != nil)
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            #expect(r == general(bytes, policy), "\(policy.name)")
        }
    }

    @Test(arguments: [
        "ann@localhost", "ann@x.123", "ann..lee@x.org", ".ann@x.org", "ann.@x.org", "ann@-x.org", "ann@x-.org",
        "ann@x..org", "ann@x.org.", "\"ann\"@x.org", "ann@[1.2.3.4]", "Dr. Ann <a@x.org>", "Ann  <a@x.org>x",
        "Ann <a@x.org> (c)", "mailto:a@x.org", "a@b@c.org", "ann@exa_mple.com",
        "ann lee@x.org", "<a@x.org><b@y.org>", "üser@x.org", "a@ü.org",
        "\"A\\\" <a@x.org>", "\"A\\\u{1}B\" <a@x.org>", "\"A\\\tB\" <a@x.org>", "\"A\\é\" <a@x.org>",
    ])
    func unusualChipsTakeTheGeneralPath(_ text: String) {
        // A warning, an error, an answer that depends on the policy, or a
        // form the one pass does not read (literals, escapes, UTF-8 in the
        // address): the fast path must decline it.
        let bytes = Array(text.utf8)
        #expect(fast(bytes) == nil, "\(text) took the fast path")
    }

    @Test func limitsAreExactOnTheFastPath() {
        let local64 = String(repeating: "a", count: 64)
        #expect(fast(Array("\(local64)@x.org".utf8)) != nil)
        #expect(fast(Array("\(local64)a@x.org".utf8)) == nil)
        let label63 = String(repeating: "b", count: 63)
        #expect(fast(Array("a@\(label63).org".utf8)) != nil)
        #expect(fast(Array("a@\(label63)b.org".utf8)) == nil)
        // 254 octets in all is the most an address may have.
        let domain = [String](repeating: String(repeating: "d", count: 61), count: 4).joined(separator: ".")  // 247
        #expect(fast(Array("abcdef@\(domain)".utf8)) != nil)  // 6 + 1 + 247 = 254
        #expect(fast(Array("abcdefg@\(domain)".utf8)) == nil)  // 255
    }

    /// Addresses near and over the RFC 5321 limits (local part 64, label
    /// 63, domain 255, address 254 octets), bare and in angle brackets,
    /// breaking one limit or several: told the policy's limits, the fast
    /// path answers them, valid or with the grammar's error, exactly as the
    /// grammar does under every policy (limits enforced or not).
    @Test func overLongAddressesAnswerAsTheGrammar() {
        var rng = SplitMix64(seed: 61)
        var loose = ValidationPolicy.standard
        loose.enforcesLengthLimits = false
        var errors: [String: Int] = [:]
        for _ in 0..<3_000 {
            let local = (0..<rng.between(1...3)).map { _ in String(repeating: "l", count: rng.between(1...30)) }.joined(separator: ".")
            let longLocal = rng.below(4) == 0 ? String(repeating: "m", count: rng.between(60...70)) : local
            let labels = (0..<rng.between(2...8)).map { _ in
                String(repeating: "d", count: rng.below(3) == 0 ? rng.between(58...68) : rng.between(1...40))
            }
            let text = "\(longLocal)@\(labels.joined(separator: ".")).org"
            let chip = rng.below(2) == 0 ? text : "Ann Lee <\(text)>"
            let bytes = Array(chip.utf8)
            for policy in [ValidationPolicy.strict, .standard, .lenient, loose] {
                let expected = general(bytes, policy)
                let r = bytes.withUnsafeBufferPointer {
                    FastPath.recognize($0, 0..<$0.count, allowsObsolete: policy.allowsObsoleteSyntax, lengthLimits: policy.enforcesLengthLimits)
                }
                #expect(r == expected, "\(policy.name): \(chip)")
                if let code = expected.error?.code, r != nil, policy.enforcesLengthLimits { errors[code, default: 0] += 1 }
            }
        }
        // Each limit was broken, and answered, many times.
        for code in ["local-part-too-long", "domain-label-too-long", "domain-too-long", "address-too-long"] {
            #expect(errors[code, default: 0] > 50, "\(code): \(errors)")
        }
    }

    /// The same reader's local parts (ASCII read sixteen bytes at a time,
    /// UTF-8 byte by byte, past 32 bytes all byte by byte) answer as the
    /// grammar does, under every policy, beside the bytes a local part
    /// the structural index vouches for may hold.
    @Test func internationalLocalPartsAnswerAsTheGrammar() {
        var rng = SplitMix64(seed: 71)
        let pieces = ["a", "Z", "0", "!", "~", ".", "..", "ñ", "δοκιμή", "\u{200B}", "\u{85}", "\u{202E}", " ", "\\", "]",
                      "\u{7F}", "\u{1}", String(repeating: "x", count: 20), String(repeating: "ñ", count: 12)]
        var answered = 0
        for _ in 0..<8_000 {
            let local = (0..<rng.between(1...4)).map { _ in rng.pick(pieces) }.joined()
            let text = local + "@" + rng.pick(["köln.de", "example.org", "xn--kln-sna.de"])
            let bytes = Array(text.utf8)
            let at = bytes.lastIndex(of: UInt8(ascii: "@"))!
            // Padding after the address, as a record's buffer holds more.
            let padded = bytes + Array(repeating: 0x20, count: 40)
            var cache = LabelCache(slots: 64)
            let found = padded.withUnsafeBufferPointer {
                FastPath.internationalAddrSpec($0, 0, at: at, bytes.count, FastPath.classes, labels: &cache)
            }
            guard let (local, domain) = found else { continue }
            answered += 1
            for policy in [ValidationPolicy.strict, .standard, .lenient] {
                let r = general(bytes, policy)
                #expect(r.error == nil && r.warnings.isEmpty, "\(policy.name): \(text.debugDescription)")
                #expect(r.localPartRange == local && r.domainRange == domain, "\(policy.name): \(text.debugDescription)")
            }
        }
        #expect(answered > 1_000, "read \(answered)")
    }

    /// The reader of international domains answers only for addresses
    /// the grammar finds valid, with no warning, under every policy, and
    /// with the grammar's ranges; and it reads most well-formed ones.
    @Test func internationalDomainsAnswerAsTheGrammar() {
        var rng = SplitMix64(seed: 67)
        let pieces = [
            "köln", "例え", "bücher", "ab", "x", "1", "a-b", "-", "ö-", "-ö", "ä\u{200B}", "\u{3002}", "xn--kln-sna", "ab--c",
            "k_ö", "\u{2665}", "ß", "\u{0430}", "٣", String(repeating: "ü", count: 30), "123",
            "ö\u{00AD}", "\u{200E}ö", "ö\u{2060}", "\u{200D}", "ö\u{0085}",
        ]
        var answered = 0
        for _ in 0..<6_000 {
            let labels = (0..<rng.between(1...4)).map { _ in (0..<rng.between(1...2)).map { _ in rng.pick(pieces) }.joined() }
            let text = "ann.lee@" + labels.joined(separator: ".")
            let bytes = Array(text.utf8)
            let at = 7
            var cache = LabelCache(slots: 64)
            let found = bytes.withUnsafeBufferPointer {
                FastPath.internationalAddrSpec($0, 0, at: at, $0.count, FastPath.classes, labels: &cache)
            }
            guard let (local, domain) = found else { continue }
            answered += 1
            for policy in [ValidationPolicy.strict, .standard, .lenient] {
                let r = general(bytes, policy)
                #expect(r.error == nil && r.warnings.isEmpty, "\(policy.name): \(text)")
                #expect(r.localPartRange == local && r.domainRange == domain, "\(policy.name): \(text)")
            }
        }
        #expect(answered > 200, "read \(answered)")
    }

    /// A domain's verdict, kept whole in the label cache, is the verdict
    /// worked out without a cache: domains valid and not, read again and
    /// again through caches of every size (four slots: one set, so domains
    /// and labels drive each other out), beside local parts that pass and
    /// fail, so that the reader stops before the domain too.
    @Test(arguments: [4, 64, 1_024])
    func cachedDomainVerdictsAreWorkedOutOnes(slots: Int) {
        var rng = SplitMix64(seed: 83 &+ UInt64(slots))
        let good = ["köln", "例え", "bücher", "x", "a-b", "xn--kln-sna", "ß", "ab", "Köln", "XN--KLN-SNA", "aB"]
        let bad = ["1", "-", "ä\u{200B}", "ab--c", "123", "ö-", "a_b"]
        // Most valid, some not (a bad label anywhere, or one label).
        let domains = (0..<40).map { k in
            (0..<rng.between(1...3)).map { _ in k % 4 == 0 && rng.chance(perMille: 500) ? rng.pick(bad) : rng.pick(good) }
                .joined(separator: ".") + (k % 8 == 1 ? "" : rng.pick([".de", ".org", ".рф", ".xn--p1ai"]))
        }
        var cache = LabelCache(slots: slots)
        // And as the lane calls it, through the look-alike checker's slots
        // (read in place when they hold the verdict, lent otherwise).
        var lane = ListRecognizer(policy: .standard)
        var valid = 0
        for _ in 0..<4_000 {
            let text = rng.pick(["ann", "jürgen", "jürgen", "a..b", "ö\u{200B}"]) + "@" + rng.pick(domains)
            // Room to read the domain in vectors, or not.
            let bytes = Array(text.utf8) + (rng.chance(perMille: 500) ? [UInt8](repeating: 0x20, count: 64) : [])
            let end = text.utf8.count
            let at = bytes.lastIndex(of: UInt8(ascii: "@"))!
            var none = LabelCache()
            let keyed = rng.chance(perMille: 500)
            let (cached, fresh) = bytes.withUnsafeBufferPointer { p in
                // As the recognizer calls it: keyed by the domain's key
                // for duplicates when the domain holds no capital.
                let (key, folded) = AddressKey.domainHashNotingCase(
                    p.baseAddress! + at + 1, end - at - 1, readsPast: at + 17 <= p.count)
                return (FastPath.internationalAddrSpec(
                            p, 0, at: at, end, FastPath.classes, labels: &cache, domainKey: keyed && !folded ? key : nil),
                        FastPath.internationalAddrSpec(p, 0, at: at, end, FastPath.classes, labels: &none))
            }
            #expect(cached?.0 == fresh?.0 && cached?.1 == fresh?.1, "\(text)")
            var domainKey: UInt64 = 0
            let viaLane = bytes.withUnsafeBufferPointer { p in lane.internationalAddrSpec(p, 0, at, end, domainKey: &domainKey) }
            #expect(viaLane?.0 == fresh?.0 && viaLane?.1 == fresh?.1, "\(text)")
            let expectedKey = bytes.withUnsafeBufferPointer { AddressKey.domainHash($0.baseAddress! + at + 1, end - at - 1) }
            #expect(domainKey == expectedKey, "\(text)")
            if fresh != nil { valid += 1 }
        }
        #expect(valid > 500 && valid < 3_900, "\(valid) valid")
        // Each domain's verdict alone, cached and not, for the invalid too.
        for text in domains {
            let bytes = Array(text.utf8)
            var none = LabelCache()
            let (cached, fresh) = bytes.withUnsafeBufferPointer { p in
                (cache.domainVerdict(p, 0..<p.count) { FastPath.internationalDomain(p, 0..<p.count, FastPath.classes, labels: &$0) },
                 FastPath.internationalDomain(p, 0..<p.count, FastPath.classes, labels: &none))
            }
            #expect(cached == fresh, "\(text)")
        }
    }

    /// Printable ASCII by vectors (up to 64 bytes, 64 readable), or by
    /// words of eight and then bytes: exactly the ranges with no byte
    /// below 0x20 or of 0x7F and above, whatever stands past them.
    @Test func printableRangesByVectorsAndWords() {
        var rng = SplitMix64(seed: 103)
        let bytes: [UInt8] = [0x20, 0x21, 0x41, 0x7E, 0x28, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x09]
        var counts = [false: 0, true: 0]
        for _ in 0..<20_000 {
            let n = rng.pick([rng.between(0...16), rng.between(0...100)])
            let text = (0..<n).map { _ in rng.chance(perMille: 980) ? UInt8(0x20 + rng.below(0x5F)) : rng.pick(bytes) }
            let after = (0..<rng.pick([0, 5, 64])).map { _ in rng.pick(bytes) }
            let lo = rng.below(3)
            let padded = [UInt8](repeating: 0x01, count: lo) + text + after
            let got = padded.withUnsafeBufferPointer { FastPath.isPrintable($0, lo..<(lo + n)) }
            let expected = text.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            #expect(got == expected, "\(text) then \(after)")
            counts[expected, default: 0] += 1
        }
        #expect(counts[true]! > 4_000 && counts[false]! > 4_000, "\(counts)")
    }

    /// Comments read eight bytes a step up to the next parenthesis,
    /// control, DEL or byte of 0x80 and above give the byte loop's answer,
    /// with the bytes after the range readable or not, whatever they are;
    /// so does the search for the last comment's `(` from the end down.
    @Test func commentsReadByWordsAreReadByBytes() {
        func byBytes(_ p: [UInt8], wordsBetween: Bool) -> Bool {
            var depth = 0
            var i = 0
            while i < p.count {
                let b = p[i]
                if b == ASCII.openParen {
                    depth += 1
                } else if b == ASCII.closeParen {
                    depth -= 1
                } else if depth == 0 {
                    guard wordsBetween || b == ASCII.space else { return false }
                } else if b >= 0x80 {
                    let n = p.withUnsafeBufferPointer { UTF8Bytes.sequenceLength($0, at: i, end: p.count) }
                    guard n > 0 else { return false }
                    i += n
                    continue
                } else if b < 0x20 || b == ASCII.delete {
                    return false
                }
                i += 1
            }
            return depth == 0
        }
        var rng = SplitMix64(seed: 97)
        let pieces: [[UInt8]] = [[0x28], [0x29], [0x20], Array("a".utf8), Array("do not use".utf8), Array("é".utf8),
                                 Array("日本".utf8), [0x01], [0x7F], [0x09], [0xC3], [0xFF], Array("work".utf8), [0x28, 0x29]]
        var counts = [false: 0, true: 0]
        for _ in 0..<20_000 {
            let text = (0..<rng.between(0...10)).flatMap { _ in rng.pick(pieces) }
            let wordsBetween = rng.chance(perMille: 500)
            let after = (0..<rng.pick([0, 3, 16])).map { _ in rng.pick([0x28, 0x29, 0x20, 0x61, 0x01, 0xFF] as [UInt8]) }
            let got = (text + after).withUnsafeBufferPointer {
                FastPath.readableComments($0, 0..<text.count, wordsBetween: wordsBetween)
            }
            let expected = byBytes(text, wordsBetween: wordsBetween)
            #expect(got == expected, "\(text) wordsBetween \(wordsBetween)")
            counts[expected, default: 0] += 1
            // The `(` that opens the last comment, searched from the end
            // down to a lower bound, eight bytes a step.
            let lo = rng.between(0...text.count)
            var depth = 0, open = lo
            for k in stride(from: text.count - 1, through: lo, by: -1) {
                if text[k] == ASCII.closeParen { depth += 1 }
                if text[k] == ASCII.openParen {
                    depth -= 1
                    if depth == 0 { open = k; break }
                }
            }
            let found = (text + after).withUnsafeBufferPointer { FastPath.lastCommentOpen($0, lo, text.count) }
            #expect(found == open, "\(text) from \(lo)")
        }
        #expect(counts[true]! > 2_000 && counts[false]! > 2_000, "\(counts)")
    }

    /// A comment's text read from vectors is accepted only where the byte
    /// walk accepts it and notes nothing (no `@`, `=?` or UTF-8), and it
    /// is accepted wherever that holds for up to 64 bytes with no `?`;
    /// whatever follows the text in the buffer.
    @Test func plainCommentTextIsTheByteWalkNotingNothing() {
        var rng = SplitMix64(seed: 131)
        let pieces: [[UInt8]] = [Array("Ann".utf8), Array("do".utf8), [0x20], [0x20, 0x20], Array("(x)".utf8),
                                 Array("(a (b))".utf8), Array("()".utf8), Array("@".utf8), Array("=?".utf8),
                                 Array("=".utf8), Array("?".utf8), [0x22], [0x5C], [0x01], [0x7F], [0x09],
                                 Array("é".utf8), Array("x.y,z:<>[]".utf8), Array("Elizabeth Taylor".utf8)]
        var counts = (taken: 0, declined: 0)
        for _ in 0..<20_000 {
            let text = (0..<rng.between(1...8)).flatMap { _ in rng.chance(perMille: 800) ? rng.pick(Array(pieces.prefix(3))) : rng.pick(pieces) }
            let before = (0..<rng.pick([0, 1, 7])).map { _ in UInt8(ascii: "x") }
            let after = (0..<rng.pick([0, 2, 64])).map { _ in rng.pick([0x20, 0x3F, 0x40, 0x01, 0xFF] as [UInt8]) }
            let bytes = before + text + after
            let range = before.count..<(before.count + text.count)
            var facts = FastPath.PhraseFacts()
            let walked = bytes.withUnsafeBufferPointer { FastPath.commentText($0, range, facts: &facts) }
            let expected = walked && !facts.at && !facts.encodedWord && !facts.nonASCII
            let got = bytes.withUnsafeBufferPointer { FastPath.plainCommentText($0, range) }
            if got { #expect(expected, "\(text)") }
            if expected && text.count <= 64 && range.lowerBound + 64 <= bytes.count && !text.contains(UInt8(ascii: "?")) {
                #expect(got, "\(text)")
            }
            if got { counts.taken += 1 } else if expected { counts.declined += 1 }
        }
        #expect(counts.taken > 1_000, "\(counts)")
    }

    /// The name before a `<` among comments, read from vectors, is where
    /// the byte walks put it (`skipComments`, `trimComments`,
    /// `holdsComment`), its bytes are printable as a byte check says, and
    /// its decoding is the one the byte-by-byte
    /// reader of a commented name gives, with no warning; what it leaves
    /// to that reader (nested comments, dots, two spaces, `?`…) is left
    /// for a reason. Seeded, at several offsets, with other bytes after.
    @Test func nameAmidCommentsByVectorsIsTheByteWalk() {
        var rng = SplitMix64(seed: 137)
        let words: [[UInt8]] = [Array("Ann".utf8), Array("Sven".utf8), Array("Martin".utf8), Array("x=y".utf8),
                                Array("a?b".utf8), Array("J.".utf8), Array("a,b".utf8), Array("x]".utf8),
                                Array("a:b".utf8), Array("é".utf8), Array("a@b".utf8), Array("\"q\"".utf8),
                                Array("O'Neil".utf8), Array("=?utf-8?q?x?=".utf8), [0x01], [0x7F]]
        let comments: [[UInt8]] = [Array("(home)".utf8), Array("(do not use)".utf8), Array("()".utf8),
                                   Array("(a (b) c)".utf8), Array("(Dept. X)".utf8), Array("(é)".utf8),
                                   Array("(a@b)".utf8), Array("(q?)".utf8)]
        let spaces: [[UInt8]] = [[], [0x20], [0x20], [0x20], [0x20], [0x20, 0x20]]
        var counts = (decoded: 0, byBytes: 0, noComment: 0, declined: 0)
        for _ in 0..<20_000 {
            var text: [UInt8] = []
            for _ in 0..<rng.between(1...6) {
                text += rng.chance(perMille: 350) ? rng.pick(rng.chance(perMille: 600) ? Array(comments.prefix(2)) : comments) : rng.chance(perMille: 80) ? rng.pick(words) : rng.pick(Array(words.prefix(3)))
                text += rng.pick(spaces)
            }
            let before = (0..<rng.pick([0, 3, 9])).map { _ in rng.pick([0x28, 0x29, 0x61] as [UInt8]) }
            let after = (0..<rng.pick([2, 64, 64])).map { _ in rng.pick([0x28, 0x29, 0x20, 0x61, 0xFF] as [UInt8]) }
            let bytes = before + text + after
            let range = before.count..<(before.count + text.count)
            bytes.withUnsafeBufferPointer { p in
                let nameLo = FastPath.skipComments(p, range.lowerBound, range.upperBound)
                let nameEnd = FastPath.trimComments(p, nameLo, range.upperBound)
                let inside = FastPath.holdsComment(p, nameLo..<nameEnd)
                guard let found = FastPath.nameAmidComments(p, range) else {
                    // Only a long range, or comments that nest.
                    #expect(text.count > 64 || range.lowerBound + 64 > p.count || text.contains(Array("(b)".utf8)),
                            "\(String(decoding: text, as: UTF8.self))")
                    counts.declined += 1
                    return
                }
                #expect(found.lo == nameLo && found.end == nameEnd && found.commentsInside == inside,
                        "\(String(decoding: text, as: UTF8.self)): \(found) against \(nameLo)..<\(nameEnd) \(inside)")
                #expect(found.printable == text.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(text)")
                guard inside else {
                    #expect(found.decoding == 0)
                    counts.noComment += 1
                    return
                }
                var walked = ListRecognizer(policy: .standard)
                let warnings = walked.commentedNameWarnings(p, nameLo..<nameEnd)
                if found.decoding != 0 {
                    var lane = ListRecognizer(policy: .standard)
                    lane.decodeCommentedName(p, from: range.lowerBound, found.decoding)
                    #expect(warnings == [] && lane.decodedName == walked.decodedName,
                            "\(String(decoding: text, as: UTF8.self)): \(String(decoding: lane.decodedName, as: UTF8.self))")
                    counts.decoded += 1
                } else {
                    // Left to the byte walk for something it reads apart.
                    let name = Array(p[nameLo..<nameEnd])
                    let apart = name.contains { Array(".,:;<>[]\\@\"?".utf8).contains($0) || $0 >= 0x7F || $0 < 0x20 }
                        || name.indices.dropFirst().contains { name[$0] == 0x20 && name[$0 - 1] == 0x20 }
                    #expect(apart, "\(String(decoding: text, as: UTF8.self))")
                    counts.byBytes += 1
                }
            }
        }
        #expect(counts.decoded > 1_000 && counts.byBytes > 500 && counts.noComment > 1_000 && counts.declined > 100,
                "\(counts)")
    }

    /// The screen of a commented name's bytes by vectors (64 readable
    /// bytes) gives the byte loop's answer (the same bytes with nothing
    /// after them): `@`, `"`, bytes of 0x80 and above, `=?` inside the
    /// name and `=` last with a `?` just past it, in every lane.
    @Test func commentedNameScreenByVectorsIsTheByteLoop() {
        var rng = SplitMix64(seed: 89)
        let pieces = ["Sven", " ", "(x)", "@", "\"", "=", "?", "=?", "é", "a", "(do not use)"]
        var refused = 0
        for _ in 0..<6_000 {
            let name = Array((0..<rng.between(1...12)).map { _ in rng.pick(pieces) }.joined().utf8.prefix(64))
            let after: [UInt8] = rng.chance(perMille: 500) ? Array("?".utf8) : Array("x".utf8)
            let padded = name + after + [UInt8](repeating: 0x3F, count: 64)
            let byVectors = padded.withUnsafeBufferPointer { FastPath.holdsNoneOfTheNamesChecks($0, 0..<name.count) }
            let byBytes = name.withUnsafeBufferPointer { FastPath.holdsNoneOfTheNamesChecks($0, 0..<name.count) }
            #expect(byVectors == byBytes, "\(String(decoding: name, as: UTF8.self))")
            if !byBytes { refused += 1 }
        }
        #expect(refused > 1_000 && refused < 5_900)
    }

    /// Whenever the fast path answers, the full grammar agrees, under every
    /// policy: valid-looking chips, mutated at random.
    @Test(arguments: 0..<40)
    func fastPathAgreesWithTheGrammar(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 77)
        let atoms = ["ann", "lee", "x", "1", "a-b", "o'neil", "+tag", "_", "Z9", "{q}", "=?"]
        let labels = ["example", "com", "x", "1", "a-b", "-", "org", "123", "co", "ü", "b_c"]
        let names = [
            "Ann", "Lee", "\"Lee, Ann\"", "José", "Who?", "Dr.", "=?UTF-8?Q?a?=", "\"\"", "(c)", "M.", ".", "J.R.",
            "\"A\\\"B\"", "\"a\\\\\"", "\"\\x\\ y\"",
        ]
        let noise: [UInt8] = Array(" .@<>\"()[]\\,;:-\t".utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        var agreed = 0
        for _ in 0..<500 {
            var local = (0..<(1 + rng.below(3))).map { _ in atoms[rng.below(atoms.count)] }.joined(separator: ".")
            if rng.below(10) == 0 { local = String(repeating: "l", count: 60 + rng.below(8)) }
            let domain = (0..<(1 + rng.below(4))).map { _ in labels[rng.below(labels.count)] }.joined(separator: ".")
            var bytes = Array("\(local)@\(domain)".utf8)
            if rng.below(2) == 0 {
                let name = (0..<(1 + rng.below(3))).map { _ in names[rng.below(names.count)] }.joined(separator: " ")
                bytes = Array("\(name) <".utf8) + bytes + [UInt8(ascii: ">")]
            }
            for _ in 0..<rng.below(3) {
                let at = rng.below(bytes.count + 1)
                switch rng.below(3) {
                case 0: bytes.insert(noise[rng.below(noise.count)], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = noise[rng.below(noise.count)] }
                }
            }
            if let r = fast(bytes, allowsObsolete: true) {
                for policy in [ValidationPolicy.standard, .lenient] {
                    #expect(r == general(bytes, policy), "seed \(seed), obsolete allowed: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                }
            }
            guard let r = fast(bytes) else { continue }
            agreed += 1
            for policy in [ValidationPolicy.strict, .standard, .lenient] {
                #expect(r == general(bytes, policy), "seed \(seed): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        #expect(agreed > 10, "seed \(seed): the generator rarely reached the fast path (\(agreed))")
    }

    /// The address reader that knows the `@` (sixteen bytes at a time)
    /// answers as the byte-by-byte one on seeded random addresses: lengths
    /// around the vectors' 16, 32, 48 and 64 bytes, every byte class at every
    /// place, the text at the very end of the buffer and with bytes after.
    @Test func indexedAddressReaderAnswersAsTheByteReader() {
        var rng = SplitMix64(seed: 5_321)
        // The bytes the index leaves in an address: no `"(),:;<>@[`.
        let alphabet = Array("abcXYZ09-.._+=!#$%&'*/?^`{|}~".utf8) + [0x20, 0x00, 0x1F, 0x7F, 0x5C, 0x5D, 0x80, 0xC3, 0xFF]
        let plain = Array("abcdxyz0189-".utf8)
        var mismatches = 0, accepted = 0
        for _ in 0..<60_000 {
            // Now and then an odd byte, or (half the time) seldom one and
            // fewer dots, so that long valid addresses come too.
            let quiet = rng.below(2) == 0
            let noise = quiet ? 300 : 8, dotRate = quiet ? 12 : 6
            func part(_ n: Int) -> [UInt8] {
                (0..<n).map { _ in rng.below(noise) == 0 ? rng.pick(alphabet) : rng.below(dotRate) == 0 ? 0x2E : rng.pick(plain) }
            }
            let local = part(rng.between(0...40))
            var domain = part(rng.between(0...70))
            if rng.below(3) == 0, domain.count > 5 { domain.replaceSubrange((domain.count - 3)..., with: [UInt8(0x2E), 0x6F, 0x72]) }
            if rng.below(8) == 0, domain.count > 8 { domain[2] = 0x2D; domain[3] = 0x2D }
            let before = (0..<rng.below(3)).map { _ in UInt8(0x3C) }
            let after = rng.below(3) == 0 ? [] : (0..<rng.between(1...80)).map { _ in rng.pick(alphabet) }
            let bytes = before + local + [0x40] + domain + after
            let lo = before.count, at = lo + local.count, hi = at + 1 + domain.count
            bytes.withUnsafeBufferPointer { p in
                let t = FastPath.classes
                let fast = FastPath.indexedAddrSpec(p, lo, at: at, hi, t)
                let reference = FastPath.addrSpec(p, lo..<hi, t)
                if fast?.0 != reference?.0 || fast?.1 != reference?.1 {
                    mismatches += 1
                    Issue.record("\(String(decoding: bytes[lo..<hi], as: UTF8.self).debugDescription)")
                }
                if reference != nil { accepted += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(accepted > 3_000, "\(accepted) valid addresses")
    }

    /// The simple lane's screen of a UTF-8 name never leaves out a name
    /// that holds an invisible character or a C1 control, or whose words
    /// mix Latin, Greek and Cyrillic: seeded random names of letters from
    /// every range the two checks read (the extended Greek, Latin and
    /// Cyrillic blocks among them), invisible characters and others,
    /// followed by random bytes the screen must not count.
    @Test func nameScreenLeavesOutOnlyWhatCannotBeThere() {
        var rng = SplitMix64(seed: 6_532)
        let scalars: [UInt32] = [
            0x61, 0x5A, 0x41, 0x7A, 0x30, 0x2D, 0xE9, 0xC0, 0xD6, 0xD7, 0xF6, 0xF8, 0x17F, 0x24F, 0x250, 0x1E9E, 0x1EFF,
            0x370, 0x3B1, 0x3A9, 0x3FF, 0x1F00, 0x1FFF, 0x400, 0x416, 0x44F, 0x52F, 0x530, 0x1C80, 0x1C8F, 0x2DE0,
            0xA640, 0xA69F, 0xA720, 0x5D0, 0x627, 0x61C, 0x4E2D, 0x915, 0xAC00, 0x1F44D, 0x301, 0x2665, 0xFE0F,
            0xAD, 0x85, 0x9F, 0x180E, 0x200B, 0x200D, 0x200E, 0x202E, 0x2028, 0x2060, 0x2066, 0xFEFF,
        ]
        // Names of one script, and of all.
        let pools: [[UInt32]] = [
            scalars, [0x61, 0x62, 0x20, 0x2E, 0xE9, 0x17F], [0x416, 0x44F, 0x20, 0x2E], [0x3B1, 0x3A9, 0x20],
            [0x4E2D, 0x5D0, 0x627, 0x20, 0x915],
        ]
        var withoutInvisibles = 0, withoutMixing = 0
        for _ in 0..<40_000 {
            var name: [UInt8] = []
            let pool = rng.pick(pools)
            while name.count < rng.between(1...70) {
                let scalar = Unicode.Scalar(rng.below(12) == 0 ? rng.pick(scalars) : rng.pick(pool))!
                name.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            let after = (0..<rng.between(64...80)).map { _ in UInt8(truncatingIfNeeded: rng.below(256)) }
            let bytes = name + after
            bytes.withUnsafeBufferPointer { p in
                let screen = FastPath.screenName(p, 0..<name.count)
                let found = Invisibles.scan(p, 0..<name.count)
                let label = String(decoding: name, as: UTF8.self).debugDescription
                if !screen.contains(.invisibles) {
                    withoutInvisibles += 1
                    #expect(found.first == nil && found.control == nil && !found.bidi && !found.hidden, "\(label)")
                }
                if !screen.contains(.scripts) {
                    withoutMixing += 1
                    #expect(!Lookalikes.mixesScripts(wellFormed: UnsafeBufferPointer(rebasing: p[0..<name.count])), "\(label)")
                }
            }
        }
        #expect(withoutInvisibles > 5_000 && withoutMixing > 5_000, "\(withoutInvisibles) \(withoutMixing)")
    }

    /// The name reader of the simple lane (sixteen bytes at a time)
    /// answers as the byte-by-byte one, facts included, with and without
    /// dots allowed, on seeded random trimmed names of the bytes the index
    /// leaves before a `<`.
    @Test func indexedNameReaderAnswersAsTheByteReader() {
        var rng = SplitMix64(seed: 2_047)
        let alphabet = Array("abcXYZ09-_+=?!#'.\"\\]".utf8) + [0x20, 0x20, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0x80, 0xE2, 0xFF]
        // Letters of UTF-8, and the sequences at the edges of table 3-7
        // (overlong, surrogate, past U+10FFFF, cut short, stray).
        let sequences: [[UInt8]] = [
            [0xC3, 0xA9], [0xD0, 0x96], [0xE4, 0xB8, 0xAD], [0xF0, 0x9F, 0x91, 0x8D], [0xC2, 0x80], [0xDF, 0xBF],
            [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xC0, 0x80], [0xC1, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xE4, 0xB8], [0xF0, 0x9F, 0x91], [0xBF], [0xC3],
        ]
        let plain = Array("abcdefghxyz Ann Lee".utf8)
        // A quoted string's text may hold `@`, `=?` and spaces anywhere.
        let quotedText = alphabet + Array("@=?  ".utf8)
        var checked = 0, quotedChecked = 0, utf8Checked = 0
        for _ in 0..<60_000 {
            var name: [UInt8]
            if rng.below(3) == 0 {
                // A quoted name (now and then without its closing quote).
                name = [0x22] + (0..<rng.between(0...66)).map { _ in rng.below(5) == 0 ? rng.pick(quotedText) : rng.pick(plain) }
                if rng.below(20) != 0 { name.append(0x22) }
            } else {
                name = (0..<rng.between(1...72)).map { _ in rng.below(6) == 0 ? rng.pick(alphabet) : rng.pick(plain) }
                if rng.below(2) == 0 {
                    // Letters of UTF-8, now and then one that is not.
                    for _ in 0..<rng.between(1...6) {
                        let at = rng.below(name.count + 1)
                        let sequence = rng.below(8) == 0 ? rng.pick(sequences) : rng.pick(Array(sequences[0..<4]))
                        name.insert(contentsOf: sequence, at: at)
                    }
                }
                while name.first == 0x20 { name.removeFirst() }
                while name.last == 0x20 { name.removeLast() }
            }
            guard !name.isEmpty else { continue }
            let after = rng.below(3) == 0 ? [] : (0..<rng.between(1...80)).map { _ in rng.pick(alphabet) }
            let bytes = name + after
            for dots in [false, true] {
                bytes.withUnsafeBufferPointer { p in
                    var fastFacts = FastPath.PhraseFacts(), referenceFacts = FastPath.PhraseFacts()
                    let fast = FastPath.indexedPhrase(p, 0..<name.count, FastPath.classes, allowsDots: dots, facts: &fastFacts)
                    let reference = FastPath.phrase(p, 0..<name.count, FastPath.classes, allowsDots: dots, facts: &referenceFacts)
                    #expect(fast == reference, "\(String(decoding: name, as: UTF8.self).debugDescription)")
                    if reference != .other {
                        checked += 1
                        if name[0] == 0x22 { quotedChecked += 1 } else if referenceFacts.nonASCII { utf8Checked += 1 }
                        #expect(fastFacts.encodedWord == referenceFacts.encodedWord && fastFacts.nonASCII == referenceFacts.nonASCII
                                && fastFacts.at == referenceFacts.at && fastFacts.escapes == referenceFacts.escapes
                                && fastFacts.unfoldedSpaces == referenceFacts.unfoldedSpaces,
                                "\(String(decoding: name, as: UTF8.self).debugDescription)")
                    }
                }
            }
        }
        #expect(checked > 10_000 && quotedChecked > 3_000 && utf8Checked > 3_000,
                "\(checked) names read, \(quotedChecked) quoted, \(utf8Checked) unquoted with UTF-8")
    }
}
