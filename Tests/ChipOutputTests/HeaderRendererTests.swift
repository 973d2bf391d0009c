import Testing
#if canImport(Glibc)
import Glibc
#endif
import ChipSyntax
import ChipRecognition
import ChipDirectory
@testable import ChipOutput
import ChipTestSupport

/// A header value with its folds undone (RFC 5322 §2.2.3).
func unfold(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n ", with: " ")
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

/// What a header value may never hold: a line break that does not fold,
/// NUL or another control character, a line over 998 bytes.
func expectSafe(_ text: String, foldAt: Int? = 78) {
    let bytes = Array(text.utf8)
    for (i, b) in bytes.enumerated() {
        if b == 0x0D {
            #expect(i + 2 < bytes.count && bytes[i + 1] == 0x0A && bytes[i + 2] == 0x20, "bare CR")
        } else if b == 0x0A {
            #expect(i > 0 && bytes[i - 1] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x20, "bare LF")
        } else {
            #expect(b >= 0x20 && b != 0x7F, "control byte \(b)")
        }
    }
    for line in text.components(separatedBy: "\r\n") {
        #expect(line.utf8.count <= 998)
        if let foldAt { #expect(line.utf8.count <= foldAt, "line of \(line.utf8.count): \(line)") }
    }
}

extension String {
    func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let r = rest.firstRange(of: separator) {
            parts.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}

@Suite("Header rendering")
struct HeaderRendererTests {

    /// A plain ASCII name is read on its bytes (most names); it gets the
    /// words the general reading, by scalars, gives it: atoms, one quoted
    /// string split at its spaces, or (nil) the general reading's own
    /// answer for what it alone reads (controls, other scripts, long words).
    @Test(arguments: [
        ("Ann Lee", ["Ann", "Lee"]),
        ("  Ann   Lee ", ["Ann", "Lee"]),
        ("Aaron M. Ucko", ["\"Aaron", "M.", "Ucko\""]),
        ("Lee, Ann", ["\"Lee,", "Ann\""]),
        ("say \"hi\" \\o/", ["\"say", "\\\"hi\\\"", "\\\\o/\""]),
        ("=?utf-8?q?x?=", ["\"=?utf-8?q?x?=\""]),
        ("a= ?b", ["a=", "?b"]),
        ("", []),
        ("   ", []),
    ])
    func plainNamesAreReadOnTheirBytes(_ row: (String, [String])) {
        #expect(HeaderRenderer.plainPhraseWords(row.0) == row.1)
        #expect(HeaderRenderer.phraseWordsOfScalars(row.0, HeaderOptions()) == row.1)
    }

    @Test func namesTheBytesDoNotReadGoToTheScalars() {
        for name in ["Jos\u{E9}", "a\tb", "a\u{7F}b", String(repeating: "x", count: 71), "\u{1F600}"] {
            #expect(HeaderRenderer.plainPhraseWords(name) == nil, "\(name)")
        }
        #expect(HeaderRenderer.plainPhraseWords(String(repeating: "x", count: 70)) != nil)
    }

    /// Seeded random names of ASCII letters, spaces and every special:
    /// the bytes' reading equals the scalars' whenever it answers.
    @Test func plainReadingEqualsTheGeneralReading() {
        var rng = SplitMix64(seed: 2047)
        let alphabet = Array("aZ09 .,;:<>@\"\\()[]=?!#$%&'*+-/^_`{|}~".utf8)
        var answered = 0
        for _ in 0..<20_000 {
            let length = rng.below(3) == 0 ? rng.below(90) : rng.below(20)
            let bytes = (0..<length).map { _ in rng.below(3) == 0 ? UInt8(ascii: " ") : alphabet[rng.below(alphabet.count)] }
            let name = String(decoding: bytes, as: UTF8.self)
            guard let fast = HeaderRenderer.plainPhraseWords(name) else { continue }
            answered += 1
            let general = HeaderRenderer.phraseWordsOfScalars(name, HeaderOptions())
            #expect(fast == general, "\(name)")
            if fast != general { return }
        }
        #expect(answered > 15_000)
    }

    /// What goes out is ASCII (or the mapped U-labels under SMTPUTF8).
    @Test func fullWidthFormsAreSentMapped() {
        let chips = AddressList.parse("ann@\u{FF58}.org, ann\u{FF20}x.org, ann@x\u{3002}org, j@\u{4F8B}\u{5B50}\u{3002}\u{5E7F}\u{544A}")
        #expect(chips.map(\.asciiDomain) == ["x.org", "x.org", "x.org", "xn--fsqu00a.xn--4rr70v"] as [String?])
        #expect(HeaderRenderer.render(Array(chips.prefix(3))).text == "ann@x.org, ann@x.org, ann@x.org")
    }

    /// The header writer quotes an Outlook name, so it reads back as one.
    @Test func outlookNamesGoOutQuoted() {
        let chips = AddressList.parse("Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>")
        let header = HeaderRenderer.render(chips).text
        #expect(header == "\"Lee, Ann\" <ann@x.org>, \"Ray, Bob\" <bob@y.org>")
        #expect(AddressList.parse(header).map(\.displayName) == ["Lee, Ann", "Ray, Bob"])
    }
    static func chip(_ name: String?, _ address: String, group: String? = nil) -> ParsedChip {
        ParsedChip(displayName: name, address: address, group: group)
    }

    @Test(arguments: [
        (nil as String?, "ann@example.com", "ann@example.com"),
        ("Ann Lee", "ann@example.com", "Ann Lee <ann@example.com>"),
        ("Lee, Ann", "a@x.org", "\"Lee, Ann\" <a@x.org>"),
        ("Dr. Ann", "a@x.org", "\"Dr. Ann\" <a@x.org>"),
        ("Bob \"the builder\"", "b@x.org", "\"Bob \\\"the builder\\\"\" <b@x.org>"),
        ("back\\slash", "b@x.org", "\"back\\\\slash\" <b@x.org>"),
        ("Who?", "w@x.org", "Who? <w@x.org>"),
        ("=?UTF-8?Q?fake?=", "f@x.org", "\"=?UTF-8?Q?fake?=\" <f@x.org>"),
        ("José", "j@x.org", "=?UTF-8?B?Sm9zw6k=?= <j@x.org>"),            // B is shorter
        ("Café au lait", "c@x.org", "=?UTF-8?Q?Caf=C3=A9_au_lait?= <c@x.org>"),  // Q is shorter
        ("Σωκράτης", "s@x.org", "=?UTF-8?B?zqPPic66z4HOrM+EzrfPgg==?= <s@x.org>"),
        ("  spaced   out  ", "s@x.org", "spaced out <s@x.org>"),
        ("", "e@x.org", "e@x.org"),
    ])
    func minimalQuotingAndEncodedWords(_ name: String?, _ address: String, _ expected: String) {
        let value = HeaderRenderer.render([Self.chip(name, address)])
        #expect(value.text == expected)
        #expect(value.omitted.isEmpty)
    }

    @Test func groupsAndEmptyGroups() {
        let chips = [
            Self.chip(nil, "a@x.org", group: "Team"),
            Self.chip("B", "b@y.org", group: "Team"),
            ParsedChip(kind: .emptyGroup, group: "undisclosed-recipients"),
            Self.chip(nil, "c@z.org"),
        ]
        #expect(HeaderRenderer.render(chips).text == "Team: a@x.org, B <b@y.org>;, undisclosed-recipients:;, c@z.org")
    }

    @Test func errorChipsAndUnsendableAddressesAreOmitted() {
        let chips = [
            Self.chip(nil, "a@x.org"),
            ParsedChip(raw: Array("b@".utf8), error: .missingDomain),
            Self.chip(nil, "用户@例子.广告"),
            Self.chip(nil, "ann@bücher.de"),
        ]
        let ascii = HeaderRenderer.render(chips)
        #expect(ascii.text == "a@x.org, ann@xn--bcher-kva.de")
        #expect(ascii.omitted == [1, 2])
        let utf8 = HeaderRenderer.render(chips, options: HeaderOptions(smtpUTF8: true))
        #expect(utf8.text == "a@x.org, 用户@例子.广告, ann@bücher.de")
        #expect(utf8.omitted == [1])
    }

    @Test func foldsAtAllowedPointsOnly() {
        let chips = (0..<20).map { Self.chip("Person Number \($0)", "person.\($0)@example.org") }
        let value = HeaderRenderer.render(chips, options: HeaderOptions(firstLineUsed: 4))
        expectSafe(value.text)
        #expect(value.text.contains("\r\n "))
        let lines = value.text.components(separatedBy: "\r\n")
        #expect(lines[0].utf8.count + 4 <= 78)
        #expect(AddressList.parse(unfold(value.text)).map(\.address) == chips.map(\.address))
    }

    @Test func aLongNameIsSplitIntoEncodedWords() {
        let long = String(repeating: "x", count: 3_000)
        let value = HeaderRenderer.render([Self.chip(long, "l@x.org")])
        expectSafe(value.text)
        let parsed = AddressList.parse(unfold(value.text))
        #expect(parsed.first?.displayName == long)
    }

    /// Names full of what would end a header early: nothing gets through.
    @Test(arguments: [
        "Evil\r\nBcc: victim@x.org", "Evil\nBcc: v@x.org", "Evil\rX", "nul\u{0}byte", "bell\u{7}", "del\u{7F}",
        "c1\u{85}next", "\r\n\r\n", "sep\u{2028}line", "\"\r\n\"", "=?UTF-8?Q?=0D=0ABcc:_v@x.org?=",
    ])
    func hostileNamesCannotInjectHeaders(_ name: String) {
        for smtpUTF8 in [false, true] {
            let options = HeaderOptions(smtpUTF8: smtpUTF8)
            let value = HeaderRenderer.render(
                [Self.chip(name, "a@x.org"), Self.chip(nil, "b@y.org", group: name)], options: options)
            expectSafe(value.text)
            let parsed = AddressList.parse(unfold(value.text))
            #expect(parsed.map(\.address) == ["a@x.org", "b@y.org"], "\(name.debugDescription)")
        }
        // Group names too, and addresses with controls are left out.
        let bad = HeaderRenderer.render([Self.chip(nil, "a\r\n@x.org"), Self.chip(nil, "ok@x.org")])
        #expect(bad.text == "ok@x.org")
        #expect(bad.omitted == [0])
    }

    /// Parsing the rendered value gives back the same chips.
    @Test(arguments: 0..<300)
    func renderThenParseRoundTrips(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 999)
        let nameParts = ["Ann", "Lee", "O'Neil", "Dr.", "Lee, Ann", "\"quoted\"", "back\\slash", "José", "Σωκράτης",
                         "李伟", "😀", "=?x?=", "(paren)", "<angle>", "a@b.c", "tab\there", "new\nline", "Z"]
        let locals = ["ann", "a.b", "x+tag", "\"a b\"", "o'neil", "用户"]
        let domains = ["example.com", "bücher.de", "例子.广告", "x.org", "[192.0.2.1]"]
        var chips: [ParsedChip] = []
        var group: String?
        for _ in 0..<(1 + rng.below(8)) {
            if rng.below(5) == 0 { group = rng.below(2) == 0 ? nil : ["Team", "The Group", "Ωmega"][rng.below(3)] }
            var name: String?
            if rng.below(3) > 0 {
                name = (0..<(1 + rng.below(3))).map { _ in nameParts[rng.below(nameParts.count)] }.joined(separator: " ")
            }
            let address = locals[rng.below(locals.count)] + "@" + domains[rng.below(domains.count)]
            var chip = AddressList.parse(address).first!
            chip.displayName = name
            chip.group = group
            chips.append(chip)
        }
        for smtpUTF8 in [false, true] {
            let options = HeaderOptions(smtpUTF8: smtpUTF8, firstLineUsed: rng.below(20))
            let value = HeaderRenderer.render(chips, options: options)
            expectSafe(value.text, foldAt: nil)
            let kept = chips.enumerated().filter { !value.omitted.contains($0.offset) }.map(\.element)
            let parsed = AddressList.parse(unfold(value.text))
            #expect(parsed.count == kept.count, "seed \(seed): \(value.text.debugDescription)")
            for (p, c) in zip(parsed, kept) {
                #expect(p.isValid, "seed \(seed): \(p.rawText.debugDescription) \(p.error?.code ?? "")")
                #expect(p.displayName == sanitized(c.displayName), "seed \(seed)")
                let expectedDomain = smtpUTF8 ? c.domain : c.asciiDomain
                #expect(p.domain == expectedDomain, "seed \(seed)")
                #expect(p.localPart == c.localPart, "seed \(seed)")
                #expect(p.group == c.group.flatMap(sanitized), "seed \(seed)")
            }
        }
    }

    /// Every record of the sample corpus: its valid chips survive rendering.
    @Test func sampleCorpusRoundTrips() throws {
        let root = String(#filePath).components(separatedBy: "/Tests/")[0]
        let text = String(decoding: try #require(readFile(root + "/Corpus/samples/compose.txt")), as: UTF8.self)
        var checked = 0
        for line in text.split(separator: "\n") {
            let chips = AddressList.parse(String(line))
            for smtpUTF8 in [false, true] {
                let value = HeaderRenderer.render(chips, options: HeaderOptions(smtpUTF8: smtpUTF8))
                expectSafe(value.text, foldAt: nil)
                let kept = chips.enumerated().filter { !value.omitted.contains($0.offset) }.map(\.element)
                let parsed = AddressList.parse(unfold(value.text))
                #expect(parsed.map(\.displayName) == kept.map(\.displayName), "\(line)")
                #expect(parsed.map(\.group) == kept.map(\.group), "\(line)")
                #expect(parsed.map { smtpUTF8 ? $0.unicodeDomain : $0.asciiDomain }
                        == kept.map { smtpUTF8 ? $0.unicodeDomain : $0.asciiDomain }, "\(line)")
                checked += kept.count
            }
        }
        #expect(checked > 40)
    }
}

/// A name as the renderer writes it: controls and white space runs folded.
func sanitized(_ name: String?) -> String? {
    guard let name else { return nil }
    var out = ""
    var space = false
    for s in name.unicodeScalars {
        let v = s.value
        if v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || s == " " || s == "\u{2028}" || s == "\u{2029}" {
            space = !out.isEmpty
            continue
        }
        if space { out += " " }
        space = false
        out.unicodeScalars.append(s)
    }
    return out.isEmpty ? nil : out
}


/// What goes in a header and what is left out, and why: no line separator
/// of any kind, no line over 998 bytes, one domain mapping in both modes,
/// a reason for every chip left out.
@Suite("Header safety rules")
struct HeaderSafetyRuleTests {
    /// (address, SMTPUTF8, the value written, the code of the chip left out).
    @Test(arguments: [
        ("a\u{2028}b@x.org", true, "", "control-character"),
        ("c@x\u{85}y.org", true, "", "control-character"),
        ("d@x.org\u{2029}", true, "", "control-character"),
        ("d@x.org\u{2029}", false, "", "control-character"),
        ("a\r\n@x.org", true, "", "control-character"),
        ("e\u{1}@x.org", false, "", "control-character"),
        ("jörg@x.org", false, "", "needs-smtputf8"),
        ("jörg@x.org", true, "jörg@x.org", nil),
        ("ann@ｘ。org", false, "ann@x.org", nil),
        ("ann@ｘ。org", true, "ann@x.org", nil),
        ("ann@ＢÜCHER．de", true, "ann@bücher.de", nil),
        ("ann@ＢÜCHER．de", false, "ann@xn--bcher-kva.de", nil),
        ("ann@a\u{2603}.org", false, "", "invalid-idn"),
        ("ann@a\u{2603}.org", true, "", "invalid-idn"),
        ("a b@x.org", true, "", "not-an-addr-spec"),
        (String(repeating: "l", count: 1_000) + "@x.org", true, "", "too-long"),
    ] as [(String, Bool, String, String?)])
    func eachAddressIsWrittenMappedOrLeftOutWithItsReason(
        _ address: String, _ smtpUTF8: Bool, _ expected: String, _ code: String?
    ) {
        let value = HeaderRenderer.render(
            [ParsedChip(address: address)], options: HeaderOptions(smtpUTF8: smtpUTF8))
        #expect(value.text == expected, "\(address.debugDescription)")
        #expect(value.omissions.map(\.reason.code) == (code.map { [$0] } ?? []), "\(address.debugDescription)")
        #expect(value.omitted == value.omissions.map(\.index))
    }

    /// A lenient policy accepts much, but never a line separator or C1
    /// control in a domain: the chip is in error, and the header says so.
    @Test(arguments: ["c@x\u{85}y.org", "d@x.org\u{2029}", "e@x\u{2028}y.org", "f@x\u{9F}.org"])
    func lineSeparatorsInADomainAreErrorsInEveryPolicy(_ text: String) {
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            let chips = AddressList.parse(text + ", ok@x.org", policy: policy)
            #expect(chips.first?.error != nil, "\(policy.name): \(text.debugDescription)")
            for smtpUTF8 in [false, true] {
                let value = HeaderRenderer.render(chips, options: HeaderOptions(smtpUTF8: smtpUTF8))
                #expect(value.text == "ok@x.org")
                #expect(value.omissions.map(\.reason.code) == ["in-error"])
            }
        }
    }

    /// A long quoted name or group name folds in every mode: each line is
    /// within 78 bytes, and the name reads back the same.
    @Test(arguments: [
        String(repeating: "ä", count: 1_000), String(repeating: "x", count: 2_000), "Ann " + String(repeating: "李", count: 400),
        "\"" + String(repeating: "q", count: 500) + "\"",
    ])
    func longNamesAndGroupNamesFoldInEveryMode(_ name: String) {
        for smtpUTF8 in [false, true] {
            let value = HeaderRenderer.render(
                [ParsedChip(displayName: name, address: "a@x.org", group: name)],
                options: HeaderOptions(smtpUTF8: smtpUTF8))
            expectSafe(value.text, foldAt: 78)
            let parsed = AddressList.parse(unfold(value.text))
            #expect(parsed.first?.displayName == name)
            #expect(parsed.first?.group == name)
        }
    }

    /// A host's `foldAt` past 998 still gives lines of at most 998 bytes.
    @Test func noLineIsLongerThan998BytesWhateverFoldAtSays() {
        let chips = (0..<200).map { ParsedChip(displayName: "Person \($0)", address: "p\($0)@example.org") }
        let value = HeaderRenderer.render(chips, options: HeaderOptions(foldAt: 100_000))
        expectSafe(value.text, foldAt: 998)
        #expect(AddressList.parse(unfold(value.text)).count == 200)
    }

    /// Random chips full of line separators, controls, long words and
    /// full-width forms, in every mode: every line within 998 bytes (78
    /// when no word is longer), no CR or LF but the folds, no NEL, U+2028
    /// or U+2029 anywhere, each kept chip reads back with its address
    /// mapped, and every chip left out has its reason.
    @Test(arguments: 0..<200)
    func randomChipsGiveSafeHeaders(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 32_032)
        let breaks = ["\r\n", "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "\u{1}", "\u{7F}", "\u{9F}"]
        let words = ["Ann", "Lee", "José", "李伟", "Ｆｕｌｌ", "。", "\"q\"", "a,b", "=?x?=",
                     String(repeating: "w", count: 75), String(repeating: "ö", count: 300)]
        let locals = ["ann", "a.b", "jörg", "\"a b\"", "x+y", String(repeating: "l", count: 60)]
        let domains = ["x.org", "ｘ。org", "ＢÜCHER．de", "例子。广告", "[192.0.2.1]", "bücher.de"]
        func text(_ parts: [String], _ count: Int) -> String {
            var s = ""
            for k in 0..<count {
                if k > 0 { s += rng.below(3) == 0 ? breaks[rng.below(breaks.count)] : " " }
                s += parts[rng.below(parts.count)]
            }
            return s
        }
        var chips: [ParsedChip] = []
        var group: String?
        for _ in 0..<(1 + rng.below(8)) {
            if rng.below(4) == 0 { group = rng.below(2) == 0 ? nil : text(words, 1 + rng.below(4)) }
            var address = locals[rng.below(locals.count)] + "@" + domains[rng.below(domains.count)]
            if rng.below(4) == 0 {
                let at = rng.below(address.unicodeScalars.count + 1)
                var scalars = Array(address.unicodeScalars)
                scalars.insert(contentsOf: breaks[rng.below(breaks.count)].unicodeScalars, at: at)
                address = String(String.UnicodeScalarView(scalars))
            }
            let name = rng.below(3) == 0 ? nil : text(words, 1 + rng.below(6))
            chips.append(ParsedChip(displayName: name, address: address, group: group))
        }
        for smtpUTF8 in [false, true] {
            let options = HeaderOptions(smtpUTF8: smtpUTF8, firstLineUsed: rng.below(20), lineBreak: rng.below(2) == 0 ? "\r\n" : "\n")
            let value = HeaderRenderer.render(chips, options: options)
            let lines = value.text.components(separatedBy: options.lineBreak)
            for (k, line) in lines.enumerated() {
                #expect(line.utf8.count <= 998, "seed \(seed): a line of \(line.utf8.count) bytes")
                // Past 78 only when one word is longer: it cannot fold.
                #expect(line.utf8.count <= 78 || !line.dropFirst().contains(" "), "seed \(seed): \(line.debugDescription)")
                #expect(k == 0 || line.hasPrefix(" "), "seed \(seed)")
                #expect(!line.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "seed \(seed): \(line.debugDescription)")
            }
            #expect(!value.text.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" },
                    "seed \(seed): \(value.text.debugDescription)")
            #expect(value.omitted == value.omissions.map(\.index), "seed \(seed)")
            let kept = chips.indices.filter { !value.omitted.contains($0) }
            let parsed = AddressList.parse(lines.joined())
            #expect(parsed.count == kept.count, "seed \(seed): \(value.text.debugDescription)")
            for (p, k) in zip(parsed, kept) {
                let c = chips[k]
                #expect(p.isValid, "seed \(seed): \(p.rawText.debugDescription)")
                let at = c.address!.lastIndex(of: "@")!
                let domain = String(c.address![c.address!.index(after: at)...])
                let ascii = (try? IDNA.toASCII(domain)) ?? domain
                let mapped = smtpUTF8 && !domain.hasPrefix("[") && !domain.utf8.allSatisfy({ $0 < 0x80 })
                    ? ((try? IDNA.toUnicode(ascii)) ?? ascii) : (smtpUTF8 ? domain : ascii)
                #expect(p.domain == mapped, "seed \(seed): \(c.address!.debugDescription)")
                #expect(p.displayName == sanitized(c.displayName), "seed \(seed)")
                #expect(p.group == c.group.flatMap(sanitized), "seed \(seed)")
            }
            for o in value.omissions {
                let a = chips[o.index].address!
                let hasBreak = a.unicodeScalars.contains(where: HeaderRenderer.isLineBreakOrControl)
                #expect(hasBreak == (o.reason.code == "control-character"), "seed \(seed): \(a.debugDescription) \(o.reason.code)")
                if !hasBreak {
                    #expect(["needs-smtputf8", "not-an-addr-spec"].contains(o.reason.code), "seed \(seed): \(a.debugDescription) \(o.reason.code)")
                    #expect(!smtpUTF8 || o.reason.code != "needs-smtputf8", "seed \(seed)")
                }
            }
        }
    }
}

/// The one-pass test an editor uses to class a chip (`surelyCarried`)
/// never says "carried" of an address a header would leave out: seeded
/// addresses near its edges (numeric, hyphenated and `xn--` labels, long
/// labels and domains, dots, non-ASCII), under every policy.
@Suite("Surely carried")
struct SurelyCarriedTests {
    static let locals = ["ann", "a.b", "a..b", ".a", "a.", "o'neil", "x+tag", "jöran", "a!#$%&*/=?^_`{|}~-b", "\"q\""]
    static let labels = [
        "x", "org", "123", "-a", "a-", "ab--cd", "xn--bcher-kva", "XN--abc", "a-b", "b\u{FC}cher", "a_b",
        String(repeating: "a", count: 63), String(repeating: "b", count: 64), "0", "[192.0.2.1]",
    ]

    @Test(arguments: 0..<40)
    func surelyCarriedAddressesAreCarried(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0xCA11)
        var checker = HeaderRenderer.addrSpecChecker()
        var carried = 0
        for _ in 0..<600 {
            let local = rng.below(8) == 0 ? String(repeating: "l", count: 1 + rng.below(1_000)) : rng.pick(Self.locals)
            var domain = (0..<(1 + rng.below(4))).map { _ in rng.pick(Self.labels) }.joined(separator: ".")
            if rng.below(10) == 0 { domain = (0..<5).map { _ in String(repeating: "d", count: 60) }.joined(separator: ".") }
            let address = local + "@" + domain
            guard HeaderRenderer.surelyCarried(address) else { continue }
            carried += 1
            for policy in [ValidationPolicy.strict, .standard, .lenient] {
                for chip in AddressList.parse(address, policy: policy) where chip.isValid {
                    for smtpUTF8 in [false, true] {
                        let why = HeaderRenderer.omission(of: chip, smtpUTF8: smtpUTF8, &checker)
                        #expect(why == nil, "\(address) under \(policy.name), smtpUTF8 \(smtpUTF8): \(String(describing: why))")
                    }
                }
            }
        }
        #expect(carried > 20, "seed \(seed): too few addresses passed the test to check it")
    }

    @Test(arguments: [
        ("ann@x.org", true), ("a.b@x-y.example", true), ("ann@x.123", true), ("jöran@x.org", false),
        ("ann@bücher.de", false), ("ann@xn--bcher-kva.de", false), ("a..b@x.org", false), ("ann@-x.org", false),
        ("ann@ab--cd.org", false), ("ann@[192.0.2.1]", false), ("ann@x_y.org", false), ("\"q\"@x.org", false),
    ])
    func oneAddressAtATime(_ address: String, _ expected: Bool) {
        #expect(HeaderRenderer.surelyCarried(address) == expected, "\(address)")
    }
}
