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

    /// The words the bytes' reading gives a name, or nil when it leaves
    /// the name to the scalars' reading.
    static func bytesWords(_ bytes: [UInt8], smtpUTF8: Bool = false) -> [String]? {
        var scratch = HeaderRenderer.PhraseScratch()
        guard bytes.withUnsafeBufferPointer({ HeaderRenderer.phraseBytes($0, smtpUTF8: smtpUTF8, &scratch) }) else {
            return nil
        }
        return scratch.out.words
    }

    static func bytesWords(_ name: String, smtpUTF8: Bool = false) -> [String]? {
        bytesWords(Array(name.utf8), smtpUTF8: smtpUTF8)
    }

    /// A name is read on its bytes; it gets the words the general reading,
    /// by scalars, gives it: atoms, one quoted string split at its spaces,
    /// or encoded words (beyond ASCII without SMTPUTF8, or a word too long
    /// to fold around), with controls and runs of spaces folded to one.
    @Test(arguments: [
        ("Ann Lee", false, ["Ann", "Lee"]),
        ("  Ann   Lee ", false, ["Ann", "Lee"]),
        ("Aaron M. Ucko", false, ["\"Aaron", "M.", "Ucko\""]),
        ("Lee, Ann", false, ["\"Lee,", "Ann\""]),
        ("say \"hi\" \\o/", false, ["\"say", "\\\"hi\\\"", "\\\\o/\""]),
        ("=?utf-8?q?x?=", false, ["=?UTF-8?B?PT91dGYtOD9xP3g/PQ==?="]),
        ("Ann =?utf-8?q?x?= Lee", true, ["=?UTF-8?B?QW5uID0/dXRmLTg/cT94Pz0gTGVl?="]),
        ("a= ?b", false, ["a=", "?b"]),
        ("", false, []),
        ("   ", false, []),
        ("a\tb\u{7F}c\u{85}d\u{2028}e", false, ["a", "b", "c", "d", "e"]),
        ("Jos\u{E9}", false, ["=?UTF-8?B?Sm9zw6k=?="]),
        ("Ren\u{E9}e Smithson", false, ["=?UTF-8?Q?Ren=C3=A9e_Smithson?="]),
        ("\u{418}\u{432}\u{430}\u{43D} \u{41F}\u{451}\u{442}\u{440}", true, ["\u{418}\u{432}\u{430}\u{43D}", "\u{41F}\u{451}\u{442}\u{440}"]),
        ("Jos\u{E9}", true, ["Jos\u{E9}"]),
        ("Jos\u{E9} (work)", true, ["\"Jos\u{E9}", "(work)\""]),
        ("\u{4F8B}\u{5B50}", false, ["=?UTF-8?B?5L6L5a2Q?="]),
        ("\u{1F600}\u{A0}x", true, ["\u{1F600}\u{A0}x"]),
        (String(repeating: "x", count: 70), false, [String(repeating: "x", count: 70)]),
        (String(repeating: "x", count: 71), true, [
            "=?UTF-8?Q?" + String(repeating: "x", count: 63) + "?=", "=?UTF-8?Q?xxxxxxxx?=",
        ]),
    ])
    func namesAreReadOnTheirBytes(_ row: (String, Bool, [String])) {
        let options = HeaderOptions(smtpUTF8: row.1)
        #expect(Self.bytesWords(row.0, smtpUTF8: row.1) == row.2)
        #expect(HeaderRenderer.phraseWordsOfScalars(row.0, options) == row.2)
        #expect(HeaderRenderer.phraseWords(row.0, options) == row.2)
    }

    /// What the bytes leave to the scalars: ill-formed UTF-8 (read as the
    /// replacement character by `String`), and under SMTPUTF8 a name whose
    /// space a mark or a prepended letter joins.
    @Test func namesTheBytesLeaveGoToTheScalars() {
        for bytes: [UInt8] in [[0x41, 0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80]] {
            #expect(Self.bytesWords(bytes) == nil, "\(bytes)")
            #expect(Self.bytesWords(bytes, smtpUTF8: true) == nil, "\(bytes)")
        }
        // `=?` goes out as encoded words in every mode, whatever is beside it.
        #expect(Self.bytesWords("\u{E9}=?x", smtpUTF8: true) == ["=?UTF-8?B?w6k9P3g=?="])
        #expect(Self.bytesWords("\u{E9}=?x", smtpUTF8: false) == ["=?UTF-8?B?w6k9P3g=?="])
        #expect(Self.bytesWords("a=?x", smtpUTF8: true) == ["=?UTF-8?Q?a=3D=3Fx?="])
        #expect(HeaderRenderer.phraseWords("\u{E9}=?\u{301}", HeaderOptions(smtpUTF8: true)) == ["=?UTF-8?B?w6k9P8yB?="])
        // A space a mark joins, or a prepended letter (U+0600) before it,
        // is no place to split a name for the scalars' reading.
        for name in ["a \u{301}b", "\u{E9} \u{200D}x", "\u{600} x"] {
            #expect(Self.bytesWords(name, smtpUTF8: true) == nil, "\(Array(name.unicodeScalars))")
            #expect(Self.bytesWords(name, smtpUTF8: false) != nil, "\(Array(name.unicodeScalars))")
        }
        #expect(HeaderRenderer.phraseWords("a \u{301}b", HeaderOptions(smtpUTF8: true)) == ["\"a \u{301}b\""])
    }

    /// Seeded random names of ASCII specials, spaces, controls, letters of
    /// one to four bytes, marks and separators beyond ASCII, in both
    /// modes: the bytes' reading equals the scalars' whenever it answers.
    @Test func byteReadingEqualsTheGeneralReading() {
        var rng = SplitMix64(seed: 2047)
        let ascii = Array("aZ09 .,;:<>@\"\\()[]=?!#$%&'*+-/^_`{|}~".utf8).map { String(UnicodeScalar($0)) }
        let wide = ["\u{E9}", "\u{301}", "\u{A0}", "\u{85}", "\u{2028}", "\u{4F8B}", "\u{1F600}", "\t", "\u{7F}", "\u{1}",
                    "\u{FF20}", "\u{200B}", "\u{416}", "\u{200D}", "\u{600}", "\u{903}", "\u{FE0F}"]
        var answered = [0, 0]
        for _ in 0..<20_000 {
            let length = rng.below(3) == 0 ? rng.below(90) : rng.below(20)
            var name = ""
            for _ in 0..<length {
                switch rng.below(8) {
                case 0, 1: name += " "
                case 2: name += wide[rng.below(wide.count)]
                default: name += ascii[rng.below(ascii.count)]
                }
            }
            for smtpUTF8 in [false, true] {
                guard let fast = Self.bytesWords(name, smtpUTF8: smtpUTF8) else { continue }
                answered[smtpUTF8 ? 1 : 0] += 1
                let general = HeaderRenderer.phraseWordsOfScalars(name, HeaderOptions(smtpUTF8: smtpUTF8))
                #expect(fast == general, "\(Array(name.unicodeScalars)) smtpUTF8=\(smtpUTF8)")
                if fast != general { return }
            }
        }
        // Without SMTPUTF8 every well-formed name; with it, all but the
        // names a mark joins to a space (a sixth of these, a few real ones).
        #expect(answered[0] == 20_000)
        #expect(answered[1] > 16_000)
    }

    /// The header writer's three ways in: the general reading (each name
    /// by scalars, each address by IDNA and a check), a chip as a value
    /// (``HeaderWriter/add(_:)``), and a chip's bytes (a record writer's
    /// call). The same value, folds and omissions, for seeded lists of
    /// chips whose names and addresses take every branch (surely carried
    /// or not, A-labels of their own or not, groups, errors, undecoded
    /// encoded words), under both modes and narrow and wide folds.
    @Test(arguments: 0..<100)
    func writerOnBytesEqualsTheGeneralReading(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 9_001)
        let names = ["", "Ann Lee", "  Lee,  Ann ", "Jos\u{E9} M\u{FC}ller", "\"quoted\"", "=?x?q?a?=", "a\tb",
                     String(repeating: "w", count: 75), "\u{4F8B}\u{5B50} \u{1F600}", "O'Brien (work)", "a=?b", "\u{E9}=?x",
                     "=?koi8-u?q?=E6?= Lee", "Ann =?x-unknown?B?QQ==?=", "a \u{301}b"]
        let addresses = ["ann@x.org", "A.B@Ex-Ample.COM", "x@y", "ann@x.org", "A.B@Ex-Ample.COM", "x@y", "\"a b\"@x.org", "ann@b\u{FC}cher.de", "ann@xn--bcher-kva.de",
                         "a@[1.2.3.4]", "j\u{F6}rg@x.org", "a..b@x.org", "ann@x.org.", "ann@-x.org", "ann@ab--c.org", "",
                         "a@" + String(repeating: "l", count: 64) + ".org", "a\u{85}b@x.org", "a@b@c"]
        var chips: [ParsedChip] = []
        for _ in 0..<(1 + rng.below(12)) {
            let name = names[rng.below(names.count)]
            let address = addresses[rng.below(addresses.count)]
            var warnings = ChipWarnings()
            if rng.below(3) == 0 { warnings.insert(.undecodedEncodedWord) }
            let group: String? = rng.below(5) == 0 ? ["Team", "", "Lee, Ann"][rng.below(3)] : nil
            let error: ChipError? = rng.below(10) == 0 ? .invalidCharacter : nil
            let domain = address.split(separator: "@").last.map { String($0) } ?? ""
            let asciiDomain = [nil, nil, String(decoding: domain.utf8.map(ByteClass.lowercased), as: UTF8.self), "else.example"][rng.below(4)]
            let kind: ListItem.Kind = rng.below(15) == 0 ? .emptyGroup : .mailbox
            chips.append(ParsedChip(
                kind: kind, byteRange: 0..<0, raw: [], displayName: name.isEmpty ? nil : name,
                address: address.isEmpty ? nil : address, asciiDomain: asciiDomain, group: group, error: error,
                warnings: warnings))
        }
        for smtpUTF8 in [false, true] {
            for foldAt in [20, 78, 998] {
                let options = HeaderOptions(smtpUTF8: smtpUTF8, foldAt: foldAt, firstLineUsed: rng.below(10))
                var general = HeaderWriter(options: options), onChips = general
                var generalPlain = general, onBytes = general
                for chip in chips {
                    let a = general.add(chip, onBytes: false)
                    #expect(onChips.add(chip) == a)
                    if !a { #expect(onChips.lastOmission == general.lastOmission) }
                    // A record writer's chips carry no A-labels of their own.
                    var plain = chip
                    plain.asciiDomain = nil
                    let b = generalPlain.add(plain, onBytes: false)
                    let name = Array((chip.displayName ?? "").utf8), address = Array((chip.address ?? "").utf8)
                    let c = name.withUnsafeBufferPointer { n in
                        address.withUnsafeBufferPointer { d in
                            onBytes.add(kind: chip.kind, error: chip.error, group: chip.group, name: n, address: d,
                                        warnings: chip.warnings)
                        }
                    }
                    #expect(b == c)
                    if !b { #expect(onBytes.lastOmission == generalPlain.lastOmission) }
                }
                for var (reference, writer) in [(general, onChips), (generalPlain, onBytes)] {
                    reference.finish()
                    writer.finish()
                    #expect(reference.text == writer.text, "\(chips.map { ($0.displayName, $0.address) }) \(options)")
                    let taken = writer.take()
                    #expect(taken == reference.take() && writer.text.isEmpty)
                    if !taken.isEmpty { expectSafe(taken, foldAt: nil) }
                }
            }
        }
    }

    /// A writer maps each domain once and keeps its form (at most 4,096,
    /// then it starts again): every chip of a list of 6,000 on 4,200
    /// distinct domains, in both modes, is written as it is alone, and a
    /// domain that cannot be mapped is left out each time it comes.
    @Test func aDomainMappedOnceIsWrittenAlikeEachTime() {
        var rng = SplitMix64(seed: 6532)
        let labels = ["b\u{FC}cher", "\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}", "xn--bcher-kva", "\u{FF58}", "x\u{3002}org",
                      "a\u{200D}b", "xn--a", "ex-ample", "\u{4F8B}\u{5B50}"]
        let tops = ["de", "\u{440}\u{444}", "org", "com"]
        var domains: [String] = []
        for k in 0..<4_200 { domains.append("\(labels[k % labels.count])\(k / labels.count).\(tops[k % tops.count])") }
        domains += ["xn--a.org", "a\u{200D}b.org"]
        let chips = (0..<6_000).map { k in
            Self.chip(k % 3 == 0 ? "Lee" : nil, "u\(k)@" + domains[rng.below(domains.count)])
        }
        for smtpUTF8 in [false, true] {
            let options = HeaderOptions(smtpUTF8: smtpUTF8, foldAt: 998)
            var writer = HeaderWriter(options: options)
            var omitted = 0
            for chip in chips {
                var alone = HeaderWriter(options: options)
                let expected = alone.add(chip)
                alone.finish()
                #expect(writer.add(chip) == expected)
                writer.finish()
                if expected { #expect(writer.take() == alone.take(), "\(chip.address!)") } else { omitted += 1 }
                #expect(writer.lastOmission == alone.lastOmission || expected)
                writer.reset()
            }
            #expect(omitted > 0 && omitted < chips.count / 2)
        }
    }

    /// A word that starts `=?` but is no encoded word a phrase may hold
    /// (a byte its encoding does not allow in a phrase, a bad escape, a
    /// broken base64 group, a charset with a special) is text: it goes out
    /// as encoded words of that text, never as it came, which would end a
    /// reader's list early or lose the mailboxes after it. Every `=?` of
    /// the value then starts a well-formed encoded word, and the value
    /// reads back as the same mailboxes and names.
    @Test(arguments: [
        "a@x.org (=?utf-8?Q?Jo=\"rg?=), b@y.org",
        "a@x.org (=?x-unknown?q?a\"b?=), b@y.org",
        "=?utf-8?Q?a=ZZb?= <a@x.org>, b@y.org",
        "=?utf-8?B?QQ=Q?= <a@x.org>",
        "=?utf-8?B?QQ?= <a@x.org>",
        "a@x.org (=?ut,f-8?Q?a?=), b@y.org",
        "=?x-unknown?Q?a.b?= <a@x.org>",
        "\"=?\" <a@x.org>, \"a=?b?c?=d\" <b@y.org>",
        "\"Ann =?x-unknown?q?a\\\\b?= Lee\" <a@x.org>, c@z.org",
    ])
    func textThatLooksLikeAnEncodedWordGoesOutEncoded(_ input: String) {
        let chips = AddressList.parse(input)
        let allValid = chips.allSatisfy { $0.isValid }
        #expect(allValid, "\(chips.map(\.error))")
        for smtpUTF8 in [false, true] {
            let value = HeaderRenderer.render(chips, options: HeaderOptions(smtpUTF8: smtpUTF8)).text
            for word in value.split(whereSeparator: { $0 == " " || $0 == "\r" || $0 == "\n" }) {
                guard let start = word.firstRange(of: "=?") else { continue }
                let encoded = word[start.lowerBound...].prefix { $0 != ">" && $0 != "," && $0 != ";" && $0 != ":" }
                #expect(HeaderRenderer.isEncodedWord(Substring(encoded)), "\(encoded) in \(value)")
            }
            let back = AddressList.parse(value)
            #expect(back.map(\.address) == chips.map(\.address), "\(value)")
            #expect(back.map(\.displayName) == chips.map(\.displayName), "\(value)")
        }
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
        ("=?UTF-8?Q?fake?=", "f@x.org", "=?UTF-8?B?PT9VVEYtOD9RP2Zha2U/PQ==?= <f@x.org>"),
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

    /// The bytes an encoded word of ours carries (UTF-8, B or Q).
    static func decodeWord(_ word: String) -> [UInt8] {
        let b = Array(word.utf8)
        let text = Array(b[10..<(b.count - 2)])
        var out: [UInt8] = []
        if b[8] == UInt8(ascii: "B") {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
            var bits: UInt32 = 0, count = 0
            for c in text where c != UInt8(ascii: "=") {
                bits = bits << 6 | UInt32(alphabet.firstIndex(of: c)!)
                count += 6
                if count >= 8 {
                    count -= 8
                    out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
                }
            }
        } else {
            var i = 0
            while i < text.count {
                if text[i] == UInt8(ascii: "=") {
                    out.append(UInt8(String(decoding: text[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)!)
                    i += 3
                } else {
                    out.append(text[i] == UInt8(ascii: "_") ? ASCII.space : text[i])
                    i += 1
                }
            }
        }
        return out
    }

    /// A text too long for one encoded word is split between characters
    /// (as `String` reads them), after the word's last space when it holds
    /// one: seeded random names of combining sequences, conjuncts, emoji
    /// sequences, flags, Hangul and letters. The words are at most 75
    /// bytes, carry the text whole, in order, each a run of whole
    /// characters, and each but the last ends with a space or holds none.
    @Test func encodedWordsSplitBetweenCharactersAndAfterSpaces() {
        var rng = SplitMix64(seed: 2231)
        let pieces = ["n\u{303}", "\u{915}\u{94D}\u{937}\u{93F}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
                      "\u{1F1E9}\u{1F1EA}", "\u{D55C}", "\u{1100}\u{1161}\u{11A8}", "a", "Z", " ", " ", "\u{E9}",
                      "\u{434}", "e\u{301}\u{302}\u{303}", "\u{1F44D}\u{1F3FD}", "=", "?", "_"]
        for _ in 0..<2_000 {
            var name = "x"
            while name.utf8.count < 40 + rng.below(400) { name += pieces[rng.below(pieces.count)] }
            name += "y"
            let words = HeaderRenderer.encodedWords(name)
            var bytes: [UInt8] = []
            var ends: [Int] = []
            for (k, word) in words.enumerated() {
                #expect(word.utf8.count <= 75)
                let piece = Self.decodeWord(word)
                bytes += piece
                ends.append(bytes.count)
                if k < words.count - 1 {
                    let text = String(decoding: piece, as: UTF8.self)
                    #expect(piece.last == ASCII.space || !text.contains(" "), "\(word) of \(name)")
                }
            }
            #expect(bytes == Array(name.utf8), "\(name)")
            var boundaries = Set<Int>()
            var index = name.startIndex
            while index < name.endIndex {
                boundaries.insert(name.utf8.distance(from: name.startIndex, to: index))
                index = name.index(after: index)
            }
            boundaries.insert(name.utf8.count)
            #expect(ends.allSatisfy(boundaries.contains), "\(name): \(words)")
        }
    }

    /// A character longer than a word (a run of 40 marks on one letter)
    /// is split between its scalars, the only place left.
    @Test func aCharacterLongerThanAWordIsSplitBetweenScalars() {
        let name = "a" + String(repeating: "\u{301}", count: 40)
        let words = HeaderRenderer.encodedWords(name)
        #expect(words.count == 2 && words.allSatisfy { $0.utf8.count <= 75 })
        #expect(words.flatMap(Self.decodeWord) == Array(name.utf8))
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
