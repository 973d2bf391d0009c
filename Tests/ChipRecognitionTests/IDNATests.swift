import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

@Suite("IDNA")
struct IDNATests {
    /// Letters, digits and hyphens are read on their bytes when no label
    /// needs more than its bytes checked; that reading gives what the
    /// labels' reading gives, on seeded random ASCII domains (empty
    /// labels, edge hyphens, `--` at the third byte, A-labels, long labels
    /// and other bytes among them), and answers for most plain domains.
    @Test func plainDomainsReadOnTheirBytesAsByTheirLabels() {
        var rng = SplitMix64(seed: 5891)
        let alphabet = Array("abcXYZ019-".utf8)
        var answered = 0, plain = 0
        for _ in 0..<20_000 {
            var labels: [String] = []
            for _ in 0..<(1 + rng.below(4)) {
                var label: [UInt8]
                switch rng.below(10) {
                case 0: label = Array("xn--".utf8) + (0..<rng.below(8)).map { _ in alphabet[rng.below(6)] }
                case 1: label = (0..<(60 + rng.below(8))).map { _ in alphabet[rng.below(alphabet.count)] }
                case 2: label = [UInt8(ascii: "_")] + Array("ab".utf8)
                default: label = (0..<rng.below(9)).map { _ in alphabet[rng.below(alphabet.count)] }
                }
                labels.append(String(decoding: label, as: UTF8.self))
            }
            let domain = labels.joined(separator: ".")
            let general = try? IDNA.toASCIIByLabels(domain)
            if general != nil && !domain.contains("--") { plain += 1 }
            guard let fast = IDNA.plainLDHDomain(domain) else { continue }
            answered += 1
            #expect(fast == general, "\(domain)")
            #expect((try? IDNA.toASCII(domain)) == general)
        }
        #expect(plain > 1_000)
        #expect(answered >= plain)
    }

    @Test(arguments: [
        ("bücher.de", "xn--bcher-kva.de"),
        ("BÜCHER.de", "xn--bcher-kva.de"),          // lower-cased first (UTS #46 mapping)
        ("例子.广告", "xn--fsqu00a.xn--4rr70v"),
        ("παράδειγμα.ελ", "xn--hxajbheg2az3al.xn--qxam"),
        ("пример.рф", "xn--e1afmkfd.xn--p1ai"),
        ("example.com", "example.com"),
        ("Example.COM", "example.com"),
    ])
    func unicodeDomainsHaveAnASCIIForm(_ unicode: String, _ ascii: String) throws {
        #expect(try IDNA.toASCII(unicode) == ascii)
        #expect(try IDNA.toUnicode(ascii) == unicode.lowercased())
    }

    @Test(arguments: [
        ("ab--cd.com", IDNA.Failure.reservedHyphens),
        ("xn--.com", .hyphenAtEdge),
        ("xn--abc-.com", .hyphenAtEdge),
        ("xn--abc!.com", .disallowedCharacter("!")),
        ("xn--99999999999.com", .invalidALabel),  // Punycode overflow
        ("xn--a.com", .disallowedCharacter("\u{80}")),  // decodes to a control character
        ("xn--example.com", .invalidALabel),        // decodes to nothing non-ASCII
        ("-bücher.de", .hyphenAtEdge),
        ("☃.com", .disallowedCharacter("☃")),
        ("a b.com", .disallowedCharacter(" ")),
        ("\u{301}a.com", .startsWithCombiningMark),
        ("a..com", .emptyLabel),
    ])
    func forbiddenLabels(_ domain: String, _ failure: IDNA.Failure) {
        #expect(throws: failure) { try IDNA.toASCII(domain) }
    }

    @Test(arguments: [
        ("ann@bücher.de", nil as String?),
        ("ann@xn--bcher-kva.de", nil),
        ("ann@ab--cd.com", "invalid-idn"),
        ("ann@xn--a.com", "invalid-idn"),
        ("ann@☃.com", "invalid-idn"),
        ("ann@bü-.de", "invalid-domain-label"),
    ])
    func recognitionChecksLabels(_ text: String, _ error: String?) {
        for policy in [ValidationPolicy.strict, .standard] {
            let chips = AddressList.parse(text, policy: policy)
            #expect(chips.first?.error?.code == error, "\(text) under \(policy.name)")
        }
        #expect(AddressList.parse(text, policy: .lenient).first?.isValid == true)
    }

    /// A letter, digit or mark that NFKC_Casefold changes is "Unstable",
    /// DISALLOWED by IDNA2008 (RFC 5892 §2.3): a ligature pasted from a
    /// PDF, the long s, digraphs, presentation and compatibility forms,
    /// mathematical digits, modifier letters, a mark with a canonical
    /// replacement. The domain is an error, in Unicode and as an A-label,
    /// never the A-label of a domain no registry can hold.
    @Test(arguments: [
        ("\u{FB01}.example", "\u{FB01}"), ("o\u{FB03}ce.com", "\u{FB03}"), ("\u{17F}.example", "\u{17F}"),
        ("\u{133}.nl", "\u{133}"), ("\u{1C6}.hr", "\u{1C6}"), ("\u{1C4}.hr", "\u{1C6}"), ("\u{149}.example", "\u{149}"),
        ("\u{1FB3}.gr", "\u{1FB3}"), ("a\u{2B0}.example", "\u{2B0}"), ("\u{1D7CE}1.example", "\u{1D7CE}"),
        ("\u{FB50}.example", "\u{FB50}"), ("\u{FF71}.jp", "\u{FF71}"), ("\u{F900}.example", "\u{F900}"),
        ("a\u{340}.example", "\u{340}"),
    ])
    func unstableCharactersAreRefused(_ domain: String, _ scalar: String) throws {
        let s = try #require(scalar.unicodeScalars.first)
        #expect(throws: IDNA.Failure.disallowedCharacter(s)) { try IDNA.toASCII(domain) }
        let label = String(domain.split(separator: ".")[0]).lowercased()
        let aLabel = "xn--" + String(decoding: try #require(Punycode.encode(label.unicodeScalars.map(\.value))), as: UTF8.self)
        #expect(throws: (any Error).self) { try IDNA.toASCII(aLabel + ".example") }
        for text in ["x@" + domain, "x@" + aLabel + ".example"] {
            for policy in [ValidationPolicy.strict, .standard] {
                #expect(AddressList.parse(text, policy: policy).first?.error?.code == "invalid-idn", "\(text)")
            }
        }
    }

    /// IDNA2008's exceptions (RFC 5892 §2.6) stay valid though
    /// NFKC_Casefold changes them, and so do letters it leaves alone.
    @Test(arguments: [
        ("fa\u{DF}.de", "xn--fa-hia.de"), ("\u{3C2}\u{3B1}.gr", "xn--mxa7a.gr"), ("b\u{FC}cher.de", "xn--bcher-kva.de"),
        ("\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}", "xn--e1afmkfd.xn--p1ai"),
        ("\u{4F8B}\u{5B50}.example", "xn--fsqu00a.example"), ("\u{1C90}\u{10D0}.ge", "xn--loda.ge"),
    ])
    func stableLettersStay(_ domain: String, _ ascii: String) throws {
        #expect(try IDNA.toASCII(domain) == ascii)
        #expect(AddressList.parse("x@" + domain).first?.isValid == true)
    }

    @Test func chipsCarryBothForms() throws {
        let a = try #require(AddressList.parse("Jörg <joerg@bücher.de>").first)
        #expect(a.asciiDomain == "xn--bcher-kva.de")
        #expect(a.unicodeDomain == "bücher.de")
        let b = try #require(AddressList.parse("joerg@XN--BCHER-KVA.de").first)
        #expect(b.asciiDomain == "xn--bcher-kva.de")
        #expect(b.unicodeDomain == "bücher.de")
        #expect(b.address == "joerg@XN--BCHER-KVA.de")  // as typed
        let c = try #require(AddressList.parse("x@[192.0.2.1]").first)
        #expect(c.asciiDomain == "[192.0.2.1]")
    }

    @Test func punycodeDecodeRefusesGarbage() {
        #expect(Punycode.decode(Array("99999999999".utf8)) == nil)  // overflow
        #expect(Punycode.decode(Array("a-\u{7F}".utf8)) == nil)     // not a digit
        #expect(Punycode.decode(Array("zz-a!".utf8)) == nil)
        #expect(Punycode.decode(Array("é-a".utf8)) == nil)           // non-ASCII basic code point
        #expect(Punycode.decode(Array("-".utf8)) == [])              // no code points at all
        #expect(Punycode.decode(Array("bcher-kva".utf8)) == "bücher".unicodeScalars.map(\.value))
    }

    /// A recognizer that keeps its verdicts on international labels (as a
    /// list recognizer does) recognizes every chip as one that keeps none,
    /// however often a label comes back and however small its cache (two
    /// slots here, so labels drive each other out).
    @Test func cachedLabelVerdictsChangeNothing() {
        let domains = [
            "bücher.de", "BÜCHER.de", "例子.广告", "пример.рф", "παράδειγμα.ελ", "bü☃cher.de", "bücher。de",
            "ｂüｃｈｅｒ.de", "-bücher.de", "bücher-.de", "\u{0301}bücher.de", String(repeating: "ü", count: 70) + ".de",
            "日本。例え．テスト", "mañana.com", "xn--bcher-kva.de", "xn--bcher-xxx.de",
        ]
        for policy in [ValidationPolicy.strict, .standard, .lenient] {
            var plain = Recognizer(policy: policy)
            var cached = Recognizer(policy: policy)
            var labels = LabelCache(slots: 2)
            for round in 0..<3 {
                for domain in domains {
                    let chip = Array("Ann <ann@\(domain)>".utf8)
                    let expected = plain.recognize(chip)
                    let got = chip.withUnsafeBufferPointer { cached.recognize($0, 0..<$0.count, labels: &labels) }
                    #expect(got == expected, "\(policy.name) round \(round): \(domain)")
                }
            }
            #expect(labels.slots.contains { $0.key != 0 }, "nothing was cached")
        }
    }
}

