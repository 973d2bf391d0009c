import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

@Suite("Look-alike warnings")
struct LookalikeTests {
    /// The warnings of the one valid chip `text` must give; anything else
    /// is a failure of its own, so a row cannot pass for want of a chip.
    func warnings(_ text: String, policy: ValidationPolicy = .standard) -> [String] {
        let chips = AddressList.parse(text, policy: policy)
        #expect(chips.count == 1, "\(text.debugDescription) gives \(chips.count) chips")
        #expect(chips.first?.isValid == true, "\(text.debugDescription): \(String(describing: chips.first?.error))")
        return chips.first?.warnings.codes ?? []
    }

    @Test(arguments: [
        ("\"ceo@company.com\" <x@evil.example>", true),
        ("ceo at company <x@evil.example>", false),
        ("\"ann@x.org\" <ann@x.org>", false),                 // the same address: fine
        ("\"ANN@X.ORG\" <ann@x.org>", false),                 // case does not deceive here
        ("\"Ann (ann@x.org)\" <ann@x.org>", false),
        ("\"Ann (ann@x.org)\" <bob@x.org>", true),
        ("=?UTF-8?Q?ceo=40company=2Ecom?= <x@evil.example>", true),  // hidden in an encoded word
        ("\"@\" <x@y.org>", false),                           // no address in it
        ("x@evil.example (ceo@company.com)", true),           // a comment that names it
    ])
    func displayNameSpoof(_ text: String, _ warned: Bool) {
        #expect(warnings(text).contains("display-name-spoof") == warned, "\(text)")
    }

    @Test(arguments: [
        ("a@аpple.com", true),           // Cyrillic а in a Latin label
        ("a@xn--pple-43d.com", true),    // the same, as an A-label
        ("a@пример.рф", false),          // wholly Cyrillic
        ("a@παράδειγμα.ελ", false),      // wholly Greek
        ("a@bücher.de", false),          // Latin with diacritics is Latin
        ("Аpple <a@x.org>", true),       // in the name
        ("Иван Petrov <a@x.org>", false),   // two words, each in one script
        ("Ωmega <a@x.org>", true),
    ])
    func mixedScript(_ text: String, _ warned: Bool) {
        #expect(warnings(text).contains("mixed-script") == warned, "\(text)")
    }

    @Test(arguments: [
        ("a@gmial.com", "gmail.com"), ("a@gmail.con", "gmail.com"), ("a@hotmial.com", "hotmail.com"),
        ("a@yaho.com", "yahoo.com"), ("a@outlok.com", "outlook.com"), ("a@GMIAL.COM", "gmail.com"),
        ("a@icloud.co", "icloud.com"),
    ])
    func likelyTypoSuggestsTheDomain(_ text: String, _ suggestion: String) throws {
        let chip = try #require(AddressList.parse(text).first)
        #expect(chip.warnings.contains(.likelyTypo))
        #expect(chip.suggestedDomain == suggestion)
        #expect(chip.isValid)
    }

    @Test(arguments: ["a@gmail.com", "a@example.com", "a@me.com", "a@mac.com", "a@web.de", "a@gmx.at", "a@x.org",
                      "a@mit.edu", "a@[192.0.2.1]"])
    func realDomainsAreNotTypos(_ text: String) {
        #expect(!warnings(text).contains("likely-typo"), "\(text)")
    }

    @Test func theDomainListIsAValue() throws {
        var policy = ValidationPolicy.standard
        policy.commonDomains = ["corp.example"]
        let chip = try #require(AddressList.parse("a@crop.example", policy: policy).first)
        #expect(chip.suggestedDomain == "corp.example")
        #expect(AddressList.parse("a@gmial.com", policy: policy).first?.warnings.contains(.likelyTypo) == false)
        policy.checksLookalikes = false
        #expect(AddressList.parse("\"ceo@x.com\" <a@crop.example>", policy: policy).first?.warnings == [])
    }

    @Test(arguments: [
        ("gmail.com", "gmial.com", 1), ("abc", "abc", 0), ("abc", "acb", 1), ("abc", "", 3), ("", "ab", 2),
        ("kitten", "sitting", 3), ("ca", "abc", 3),
    ])
    func editDistance(_ a: String, _ b: String, _ d: Int) {
        #expect(Lookalikes.editDistance(Array(a.utf8), Array(b.utf8), limit: 5) == d)
    }

    /// The script check for well-formed names (the simple lane's) agrees
    /// with the general one on random words mixing Latin, Greek, Cyrillic,
    /// other scripts, digits and separators.
    @Test func theWellFormedScriptCheckAgreesWithTheGeneralOne() {
        let pieces = ["a", "Z", "é", "ł", "ǅ", "ḁ", "α", "Ω", "ῼ", "д", "Я", "ӿ", "ꙁ", "ᲀ", "中", "😀", "1", " ", ".", "\t", "-", "'",
                      "\u{2DE0}", "€", "ก", "\u{A69F}", "\u{A6A0}", "\u{1C8F}", "\u{1C90}"]
        var rng = SplitMix64(seed: 23)
        for _ in 0..<20_000 {
            let text = (0..<rng.between(1...8)).map { _ in rng.pick(pieces) }.joined()
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { Lookalikes.mixesScripts(wellFormed: $0) }
            #expect(fast == Lookalikes.mixesScripts(bytes[...]), "\(text.debugDescription)")
        }
    }

    /// The checking form agrees with the general one on any bytes: random
    /// pieces of the scripts, cut sequences, stray continuation and lead
    /// bytes, overlong forms and surrogates.
    @Test func theCheckingScriptCheckAgreesWithTheGeneralOneOnAnyBytes() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("α".utf8), Array("д".utf8), Array("中".utf8), Array("😀".utf8),
            Array(" ".utf8), Array(".".utf8), [0x80], [0xBF], [0xC0, 0xAF], [0xC3], [0xCE], [0xD0], [0xE0, 0x80],
            Array("\u{2DE0}".utf8), Array("ꙁ".utf8), Array("ḁ".utf8), [0xE1, 0xB8], [0xEA, 0x99], [0xE2],
            [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xF0, 0x9F], [0xF4, 0x90, 0x80, 0x80], [0xF8], [0xFF],
        ]
        var rng = SplitMix64(seed: 29)
        var mixed = 0
        for _ in 0..<20_000 {
            let bytes = (0..<rng.between(1...10)).flatMap { _ in rng.pick(pieces) }
            let checked = bytes.withUnsafeBufferPointer { Lookalikes.mixesScripts($0, wellFormed: false) }
            let general = Lookalikes.mixesScripts(bytes[...])
            #expect(checked == general, "\(bytes)")
            if general { mixed += 1 }
        }
        // Both answers occur.
        #expect(mixed > 1_000 && mixed < 19_000)
    }

    /// However small the verdict cache (one set of four slots here, so
    /// domains drive each other out), every verdict is the one worked out
    /// afresh.
    @Test func aCrowdedVerdictCacheChangesNoVerdict() {
        let domains = ["gmial.com", "gmail.com", "yaho.com", "x.org", "раураl.com", "xn--pypal-4ve.com", "hotmial.com",
                       "outlok.com", "example.org", "gmai.com", "debian.org", "gmx.dee"]
        var small = Lookalikes(commonDomains: ValidationPolicy.defaultCommonDomains, cacheSlots: 4)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let domain = Array(rng.pick(domains).utf8)
            var fresh = Lookalikes(commonDomains: ValidationPolicy.defaultCommonDomains, cacheSlots: 4)
            let expected = domain.withUnsafeBufferPointer { fresh.domainVerdict($0) }
            let got = domain.withUnsafeBufferPointer { small.domainVerdict($0) }
            #expect(got.typo == expected.typo && got.mixed == expected.mixed && got.key == expected.key,
                    "\(String(decoding: domain, as: UTF8.self))")
        }
    }
}

