import Testing
#if canImport(Glibc)
import Glibc
#endif
import ChipKit
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

