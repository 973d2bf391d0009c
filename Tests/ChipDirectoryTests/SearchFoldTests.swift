import ChipTestSupport
import Testing

@testable import ChipDirectory

/// The folded text of `text`, as a string.
private func folded(_ text: String) -> String {
    String(decoding: SearchFold.fold(text), as: UTF8.self)
}

/// Folds `bytes`, with origins.
private func foldWithOrigins(_ bytes: [UInt8]) -> (out: [UInt8], origins: [Int32]) {
    var out: [UInt8] = []
    var origins: [Int32] = []
    bytes.withUnsafeBufferPointer { SearchFold.fold($0, into: &out, origins: &origins) }
    return (out, origins)
}

private func fold(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    bytes.withUnsafeBufferPointer { SearchFold.fold($0, into: &out) }
    return out
}

private func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

@Suite("Search folding: case") struct SearchFoldCaseTests {
    @Test(arguments: [
        // Latin, with the full (F) foldings.
        ("HELLO World", "hello world"),
        ("STRASSE Straße", "strasse strasse"),
        ("ẞ", "ss"),
        ("ǄǅǆDŽ", "dzdzdzdz"),
        ("ﬅ ſ", "st s"),
        ("İstanbul", "istanbul"),  // İ folds to i and a combining dot, and the dot is dropped
        ("KELVIN \u{212A} Å", "kelvin k a"),
        // Greek: every sigma is σ, accents on capitals go too.
        ("ΣΟΦΊΑ", "σοφια"),
        ("Σίσυφος", "σισυφοσ"),
        ("Ά Έ Ή Ί Ό Ύ Ώ", "α ε η ι ο υ ω"),
        ("ΐ ΰ", "ι υ"),
        ("ᾼ ᾳ", "αι αι"),
        ("µ", "μ"),
        // Cyrillic: й and ё lose their marks like any accent.
        ("Ёлка", "елка"),
        ("ЙОГУРТ Йошкар", "иогурт иошкар"),
        ("Щука Її", "щука іі"),
        // Armenian, including the ligature և (ech yiwn) that F folds to two letters.
        ("Աշոտ", "աշոտ"),
        ("և", "եւ"),
        // Cherokee: case folding maps the lower-case letters to the upper case.
        ("\u{ABB3}\u{AB83}\u{AB79}", "\u{13E3}\u{13B3}\u{13A9}"),
        ("\u{13E3}\u{13B3}\u{13A9}", "\u{13E3}\u{13B3}\u{13A9}"),
        ("\u{13F8}\u{13FD}", "\u{13F0}\u{13F5}"),
        // Deseret, outside the BMP.
        ("\u{10414}\u{1042F}\u{10445}", "\u{1043C}\u{1042F}\u{10445}"),
    ])
    func caseFoldsAway(_ input: String, _ expected: String) {
        #expect(scalars(folded(input)) == scalars(expected))
    }

    @Test func dotlessIMatchesI() {
        #expect(folded("ı") == "i")
        #expect(folded("Işık") == folded("ISIK"))
    }
}

@Suite("Search folding: accents and letters with strokes") struct SearchFoldAccentTests {
    @Test(arguments: [
        ("Françoise Hélène Gaëlle Noël", "francoise helene gaelle noel"),     // French
        ("Œuvre Cœur", "oeuvre coeur"),
        ("Jürgen Müßig Österreich", "jurgen mussig osterreich"),              // German
        ("José Ñúñez Peña", "jose nunez pena"),                               // Spanish
        ("João Conceição Antônio", "joao conceicao antonio"),                 // Portuguese
        ("Łukasz Żółć Wąsik Dziędzioł", "lukasz zolc wasik dziedziol"),       // Polish
        ("Řehoř Dvořák Kůň", "rehor dvorak kun"),                             // Czech
        ("İsmail Işık Şahin Doğan", "ismail isik sahin dogan"),               // Turkish
        ("Ștefan Țiriac Ş Ţ", "stefan tiriac s t"),                           // Romanian, comma and cedilla
        ("Nguyễn Thị Ánh", "nguyen thi anh"),                                 // Vietnamese
        ("Trần Đức Phương Lê Việt", "tran duc phuong le viet"),
        ("Søren Ærø Åsa", "soren aero asa"),                                  // Danish, Norwegian, Swedish
        ("Þórður Guðmundsdóttir", "thordur gudmundsdottir"),                  // Icelandic
        ("Erdős Ő", "erdos o"),                                               // Hungarian
        ("Lǚ Ǚ", "lu u"),                                                     // Pinyin
        ("Ħal Għargħur", "hal gharghur"),                                     // Maltese
        ("Ŧ ŧ Ǥ ǥ ĸ Ƀ ƀ Ɨ ɨ", "t t g g k b b i i"),                           // the rest of the project's table
        ("Ǿ ǽ", "o ae"),                                                      // decomposes to a letter of the table
    ])
    func accentsAndStrokesFoldAway(_ input: String, _ expected: String) {
        #expect(folded(input) == expected)
    }

    @Test func decomposedTextFoldsAsPrecomposed() {
        #expect(folded("Jose\u{301} N\u{303}u\u{301}n\u{303}ez") == folded("José Ñúñez"))
        #expect(folded("Nguye\u{302}\u{303}n") == "nguyen")
        #expect(folded("\u{304B}\u{3099}") == folded("\u{304C}"))  // か + ゙ is が
    }

    @Test(arguments: [
        ("מֹשֶׁה", "משה"),        // Hebrew niqqud
        ("مُحَمَّد", "محمد"),     // Arabic harakat
    ])
    func pointingOfHebrewAndArabicIsDropped(_ input: String, _ expected: String) {
        #expect(scalars(folded(input)) == scalars(expected))
    }

    @Test(arguments: ["हिन्दी", "सिंह", "สมศักดิ์", "ສົມພອນ", "ព្រះ", "မြန်မာ", "བོད་"])
    func marksThatSpellTheWordAreKept(_ input: String) {
        #expect(scalars(folded(input)) == scalars(input))
    }

    @Test func invisibleFormatCharactersAreDropped() {
        #expect(folded("Ma\u{AD}rie") == "marie")          // soft hyphen
        #expect(folded("a\u{200B}b\u{200D}c\u{FEFF}") == "abc")
        #expect(folded("👍\u{FE0F}") == "👍")
        #expect(folded("x\u{E0041}\u{E0100}") == "x")      // a tag and a variation selector
    }
}

@Suite("Search folding: compatibility forms") struct SearchFoldCompatibilityTests {
    @Test(arguments: [
        ("ＡＢＣ１２３ｘｙｚ", "abc123xyz"),
        ("Ｊｏｓé", "jose"),
        ("ﬁ ﬀ ﬃ ﬄ", "fi ff ffi ffl"),
        ("℡ ™ ℃", "tel tm °c"),
        ("x² H₂O", "x2 h2o"),
        ("Ⅻ ⅻ Ⅳ", "xii xii iv"),
        ("ⓐⒷ①⑴", "ab1(1)"),
        ("𝐀𝔟𝕔", "abc"),
        ("a\u{A0}b\u{3000}c", "a b c"),
        ("¼", "1\u{2044}4"),
    ])
    func compatibilityFormsFoldToPlainLetters(_ input: String, _ expected: String) {
        #expect(scalars(folded(input)) == scalars(expected))
    }

    @Test func halfWidthKatakanaIsFullWidth() {
        #expect(folded("ｶﾀｶﾅ") == "カタカナ")
        #expect(folded("ｶﾞｯｺｳ") == folded("ガッコウ"))
        #expect(folded("ﾊﾟﾝ") == folded("パン"))
        #expect(folded("カ゛") == folded("ガ"))  // a spacing voicing mark typed after the kana
    }

    @Test func halfWidthHangulIsCompatibilityJamo() {
        #expect(folded("\u{FFA1}\u{FFC2}") == "\u{3131}\u{314F}")  // ㄱㅏ stay as typed
        #expect(folded("\u{3131}") == "\u{3131}")
    }
}

@Suite("Search folding: scripts without case") struct SearchFoldUncasedTests {
    @Test(arguments: ["张伟", "山田太郎", "김민준", "やまだ", "ヤマダ", "สมชาย", "محمد", "שלום", "ᏣᎳᎩ", "東京都渋谷区"])
    func writtenAsIs(_ input: String) {
        #expect(folded(input) == input)
    }

    @Test func hiraganaIsNotKatakana() {
        #expect(folded("やまだ") != folded("ヤマダ"))
    }

    @Test func decomposedHangulComposes() {
        let decomposed = "\u{1100}\u{1175}\u{11B7}\u{1106}\u{1175}\u{11AB}\u{110C}\u{116E}\u{11AB}"
        #expect(folded(decomposed) == "김민준")
        // A vowel combines across anything that folds to nothing, as the
        // folded text would on a second folding.
        #expect(folded("\u{1100}\u{301}\u{1161}") == "가")
        #expect(folded("가\u{11A8}") == "각")
        #expect(folded("\u{326E}") == "가")  // circled ㉮
        #expect(folded("\u{1100}\u{1100}") == "\u{1100}\u{1100}")  // nothing to compose
    }

    @Test func decomposedHangulComposesAcrossWritingRounds() {
        // Text that grows when folded (ﷺ by 30 bytes, ŉ by one) is written
        // in several rounds; some count of ŉ ends a round right after the
        // leading jamo, which must still combine in the next round.
        for count in 0..<80 {
            let text = "\u{FDFA}" + String(repeating: "\u{149}", count: count) + "\u{1100}\u{1161}\u{11A8}"
            let result = SearchFold.fold(text)
            #expect(result.suffix(3).elementsEqual("각".utf8), "after \(count) ŉ")
            #expect(result.count == 33 + 3 * count + 3)
        }
    }
}

@Suite("Search folding: origins") struct SearchFoldOriginTests {
    @Test func everyFoldedByteMapsToItsScalar() {
        let text = Array("José Ñúñez".utf8)
        let (out, origins) = foldWithOrigins(text)
        #expect(String(decoding: out, as: UTF8.self) == "jose nunez")
        #expect(origins == [0, 1, 2, 3, 5, 6, 8, 10, 12, 13])
    }

    @Test func aMatchMapsBackToTheOriginalText() {
        let text = Array("José Ñúñez".utf8)
        let (out, origins) = foldWithOrigins(text)
        let needle = Array("nunez".utf8)
        let at = (0...(out.count - needle.count)).first { out[$0..<($0 + needle.count)].elementsEqual(needle) }
        #expect(at == 5)
        guard let at else { return }
        let end = at + needle.count
        let original = Int(origins[at])..<(end < origins.count ? Int(origins[end]) : text.count)
        #expect(String(decoding: text[original], as: UTF8.self) == "Ñúñez")
    }

    @Test func expansionsShareTheirScalarsOrigin() {
        let (out, origins) = foldWithOrigins(Array("Straße ﬃ".utf8))
        #expect(String(decoding: out, as: UTF8.self) == "strasse ffi")
        #expect(origins == [0, 1, 2, 3, 4, 4, 6, 7, 8, 8, 8])
    }

    @Test func composedHangulMapsToItsLeadingJamo() {
        let (out, origins) = foldWithOrigins(Array("a\u{1100}\u{1161}b".utf8))
        #expect(String(decoding: out, as: UTF8.self) == "a가b")
        #expect(origins == [0, 1, 1, 1, 7])
    }

    @Test func foldingAppendsAfterWhatIsThere() {
        var out = Array("x|".utf8)
        var origins: [Int32] = [-1, -1]
        Array("\u{1161}É".utf8).withUnsafeBufferPointer { SearchFold.fold($0, into: &out, origins: &origins) }
        // The vowel does not reach back into bytes that were already there.
        #expect(String(decoding: out, as: UTF8.self) == "x|\u{1161}e")
        #expect(origins == [-1, -1, 0, 0, 0, 3])
    }
}

@Suite("Search folding: invariants") struct SearchFoldInvariantTests {
    @Test func asciiFoldsToItsLowerCase() {
        for b in UInt8(0)..<0x80 {
            let expected: UInt8 = (0x41...0x5A).contains(b) ? b + 0x20 : b
            #expect(fold([b]) == [expected], "byte \(b)")
        }
    }

    @Test func everyScalarFoldsToFoldedText() {
        // All scalars, each followed by a line feed so none combines with
        // the next (jamo would), folded once and then again.
        var text: [UInt8] = []
        text.reserveCapacity(5 * 0x110000)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            text.append(contentsOf: String(scalar).utf8)
            text.append(0x0A)
        }
        let (once, origins) = foldWithOrigins(text)
        let twice = fold(once)
        #expect(String(validating: once, as: UTF8.self) != nil)
        guard once != twice else { return }
        let first = once.indices.first { $0 >= twice.count || once[$0] != twice[$0] } ?? once.count - 1
        let origin = Int(origins[first])
        Issue.record("folding is not idempotent at the scalar at byte \(origin): \(text[origin..<(origin + 4)])")
    }

    @Test func randomTextFoldsToFoldedText() {
        let seed: UInt64 = 0x5EA2C4_F01D
        var rng = SplitMix64(seed: seed)
        let pool: [UInt32] = [
            0x41, 0x61, 0x20, 0x2D, 0xC9, 0xDF, 0x130, 0x131, 0x3A3, 0x3C2, 0x390, 0x301, 0x308, 0x345, 0x1E9E,
            0x1100, 0x1112, 0x1161, 0x1175, 0x11A8, 0x11C2, 0xAC00, 0xAC01, 0x326E, 0x3260, 0x304B, 0x3099,
            0x309B, 0xFF76, 0xFF9E, 0xFDFA, 0xFB03, 0x2121, 0xAD, 0x200D, 0xE0041, 0x10400, 0xAB70, 0x587,
        ]
        for round in 0..<2000 {
            var text = ""
            for _ in 0..<rng.between(0...24) {
                let value = rng.chance(perMille: 700) ? rng.pick(pool) : UInt32(rng.below(0x110000))
                if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
            }
            let bytes = Array(text.utf8)
            let (once, origins) = foldWithOrigins(bytes)
            #expect(fold(once) == once, "seed \(seed), round \(round): \(scalars(text))")
            #expect(fold(bytes) == once, "seed \(seed), round \(round)")
            #expect(origins.count == once.count)
            #expect(zip(origins, origins.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed), round \(round)")
        }
    }

    @Test(arguments: [
        ([0xFF] as [UInt8], [0xFFFD] as [UInt32]),
        ([0x61, 0xC3], [0x61, 0xFFFD]),
        ([0xE2, 0x82, 0x41], [0xFFFD, 0x61]),          // truncated, one replacement
        ([0xED, 0xA0, 0x80], [0xFFFD, 0xFFFD, 0xFFFD]),  // a surrogate: three
        ([0xF0, 0x9F, 0x98], [0xFFFD]),
        ([0xC0, 0xAF], [0xFFFD, 0xFFFD]),              // overlong
        ([0xF4, 0x90, 0x80, 0x80], [0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD]),  // above U+10FFFF
        ([0x80, 0xC3, 0x89], [0xFFFD, 0x65]),  // then é, folded
    ])
    func invalidUTF8BecomesReplacementCharacters(_ bytes: [UInt8], _ expected: [UInt32]) {
        let (out, origins) = foldWithOrigins(bytes)
        #expect(scalars(String(decoding: out, as: UTF8.self)) == expected)
        #expect(zip(origins, origins.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(origins.allSatisfy { $0 >= 0 && Int($0) < bytes.count })
    }

    @Test func invalidUTF8IsReplacedAsTheStandardLibraryReplacesIt() {
        let seed: UInt64 = 0xBAD_0F_F8
        var rng = SplitMix64(seed: seed)
        let interesting: [UInt8] = [0x41, 0x80, 0xBF, 0xC2, 0xC3, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F]
        for round in 0..<3000 {
            let bytes = (0..<rng.between(0...12)).map { _ in
                rng.chance(perMille: 800) ? rng.pick(interesting) : UInt8(truncatingIfNeeded: rng.next())
            }
            let (out, origins) = foldWithOrigins(bytes)
            #expect(out == SearchFold.fold(String(decoding: bytes, as: UTF8.self)), "seed \(seed), round \(round): \(bytes)")
            #expect(zip(origins, origins.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed), round \(round)")
        }
    }

    @Test func emptyTextFoldsToNothing() {
        #expect(SearchFold.fold("").isEmpty)
        let (out, origins) = foldWithOrigins([])
        #expect(out.isEmpty && origins.isEmpty)
    }
}

@Suite("Search folding: word classes") struct SearchFoldWordClassTests {
    @Test(arguments: [
        ("张", true), ("や", true), ("ヤ", true), ("ｶ", true), ("ー", true), ("々", true),
        ("김", true), ("\u{1100}", true), ("ㄱ", true), ("ㄅ", true),
        ("ก", true), ("ລ", true), ("ក", true), ("က", true),
        ("\u{0E31}", false),  // a Thai vowel mark continues its letter
        ("ཀ", false), ("a", false), ("é", false), ("1", false), ("א", false), ("ب", false),
        ("、", false), ("。", false), (" ", false), ("😀", false),
    ])
    func spacelessScripts(_ character: String, _ expected: Bool) {
        #expect(SearchFold.isSpaceless(character.unicodeScalars.first!.value) == expected)
    }

    @Test(arguments: [
        (" ", true), ("\t", true), ("\n", true), ("\u{A0}", true), ("\u{3000}", true), ("\u{2028}", true),
        (",", true), (".", true), ("-", true), ("_", true), ("@", true), ("'", true), ("\u{2019}", true),
        ("(", true), ("\"", true), ("&", true), ("+", true), ("<", true), ("=", true), ("$", true), ("€", true),
        ("^", true), ("、", true), ("。", true), ("・", true), ("་", true), ("«", true),
        ("a", false), ("Z", false), ("0", false), ("é", false), ("\u{301}", false), ("张", false),
        ("😀", false), ("©", false), ("ʼ", false), ("\u{AD}", false),
    ])
    func wordSeparators(_ character: String, _ expected: Bool) {
        #expect(SearchFold.isWordSeparator(character.unicodeScalars.first!.value) == expected)
    }

    @Test func valuesThatAreNotScalarsAreWordCharacters() {
        for value: UInt32 in [0xD800, 0xDFFF, 0x110000, 0xFFFF_FFFF] {
            #expect(!SearchFold.isSpaceless(value))
            #expect(!SearchFold.isWordSeparator(value))
        }
    }
}
