import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

/// IDNA on bytes (``IDNABytes``) answers as the `String` form
/// (``LabelCache/work(_:)``, on `lowercased()`, general categories and
/// graphemes) does: its tables agree with the standard library for every
/// scalar they assign, and its verdict with the `String` form's on every
/// label of the corpora and on seeded random labels built from every
/// class of scalar the rules read.
@Suite("IDNA on bytes")
struct IDNABytesTests {
    /// What the `String` form gives, and the byte form (nil when it leaves
    /// the label to the `String` form).
    static func both(_ label: [UInt8]) -> (expected: LabelCache.Verdict, got: LabelCache.Verdict?) {
        let expected = LabelCache.work(String(decoding: label, as: UTF8.self))
        let got = label.withUnsafeBufferPointer { IDNABytes.verdict($0) }
        return (expected, got)
    }

    static func text(_ label: [UInt8]) -> String {
        String(decoding: label, as: UTF8.self).unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
    }

    /// Every scalar the tables assign: its kind, its lower-case mapping and
    /// how it joins a grapheme are the standard library's.
    @Test func tablesAgreeWithTheStandardLibrary() {
        let tables = idnaTables
        let all = Array(UInt32(0)...0x10FFFF).filter { !(0xD800...0xDFFF).contains($0) }
        let scalars = TestScale.sample(all, 120_000, "IDNA tables against the standard library, scalars")
        var assigned = 0, newer = 0
        for value in scalars {
            let s = Unicode.Scalar(value)!
            let info = tables.info(value)
            let kind = info & IDNATables.kindMask
            if kind == IDNATables.Kind.unassigned.rawValue {
                if s.properties.generalCategory != .unassigned { newer += 1 }
                continue
            }
            assigned += 1
            let expectedKind: IDNATables.Kind
            switch s.properties.generalCategory {
            case .lowercaseLetter, .otherLetter, .modifierLetter, .decimalNumber: expectedKind = .valid
            case .nonspacingMark, .spacingMark, .enclosingMark: expectedKind = .mark
            default: expectedKind = .disallowed
            }
            #expect(kind == expectedKind.rawValue, "U+\(String(value, radix: 16)): kind \(kind), not \(expectedKind)")
            let lower = String(s).lowercased().unicodeScalars.map(\.value)
            let mapped = info & IDNATables.mapsBit != 0 ? Array(tables.lowercase(value)) : [value]
            #expect(lower == mapped, "U+\(String(value, radix: 16)) lower-cases to \(lower), the tables say \(mapped)")
            let joinsBefore = ("." + String(s)).count == 1
            let joinsAfter = (String(s) + ".").count == 1
            #expect(joinsBefore == (info & IDNATables.joinsBeforeBit != 0), "U+\(String(value, radix: 16)) joining a `.` before it")
            #expect(joinsAfter == (info & IDNATables.joinsAfterBit != 0), "U+\(String(value, radix: 16)) joining a `.` after it")
        }
        print("IDNA tables: \(assigned) assigned scalars checked; \(newer) assigned only in the standard library's Unicode")
        #expect(assigned > 10_000)
    }

    /// Scalars of every class the rules read.
    static let pieces: [String] = [
        "a", "z", "A", "Z", "0", "9", "-", "--", ".", "_", "!", " ",
        "\u{FF21}", "\u{FF4B}", "\u{FF0E}", "\u{3002}", "\u{FF61}", "\u{FF0D}",         // full-width forms, full stops
        "\u{0301}", "\u{093F}", "\u{20DD}", "\u{0903}",                                  // marks: Mn, Mc, Me
        "\u{0600}", "\u{0D4E}", "\u{110BD}",                                             // prepended
        "\u{200D}", "\u{200C}", "\u{FE0F}", "\u{1F3FB}", "\u{00AD}",                     // joiners, selectors, modifiers
        "À", "Σ", "σ", "ς", "Д", "ǅ", "ǆ", "\u{0130}", "\u{212A}", "\u{2126}", "ß", "\u{1E9E}", "Ⅻ", "Ⓐ",
        "\u{10400}", "\u{03D2}",                                                         // case: upper, title, special
        "ʰ", "日", "ก", "\u{0663}", "ü", "é", "e\u{0301}", "ö", "한",                      // Lm, Lo, Nd, Ll
        "☃", "½", "\u{1F600}", "\u{E000}", "\u{FFFF}", "\u{1C89}", "\u{2FFC}", "\u{FFFD}", // symbols, PUA, newer, unassigned
        "xn--", "XN--", "xn--bcher-kva", "xn--p1ai", "ab--cd", "xn--zca", "xn--a", "xn--99999999999",
    ]

    /// An A-label of random scalars (valid or not), as a punycoder writes it.
    static func aLabel(_ rng: inout SplitMix64) -> String {
        let letters: [UInt32] = [0x61, 0x62, 0x2D, 0xFC, 0xE9, 0x5E74, 0x0430, 0x0301, 0xDF, 0x41, 0x3A3, 0x1C89, 0x5F]
        let scalars = (0..<rng.between(1...6)).map { _ in rng.pick(letters) }
        let code = Punycode.encode(scalars).map { String(decoding: $0, as: UTF8.self) } ?? "x"
        return rng.pick(["xn--", "XN--", "Xn--"]) + (rng.below(4) == 0 ? code.uppercased() : code)
    }

    @Test func randomLabelsAnswerAsTheStringForm() {
        var rng = SplitMix64(seed: 461)
        var answered = 0, checked = 0
        let count = TestScale.isFull ? 60_000 : 12_000
        for _ in 0..<count {
            var text = ""
            for _ in 0..<rng.between(1...5) {
                text += rng.below(5) == 0 ? Self.aLabel(&rng) : rng.pick(Self.pieces)
            }
            let label = Array(text.utf8)
            let (expected, got) = Self.both(label)
            checked += 1
            if let got {
                answered += 1
                #expect(got == expected, "\(Self.text(label)): \(got), the String form \(expected)")
            }
        }
        print("IDNA on bytes: \(answered) of \(checked) random labels answered")
        #expect(answered * 10 >= checked * 8, "answered \(answered) of \(checked)")
    }

    /// Every scalar the tables map, upper-case or title-case, in a label
    /// of its own and among letters, and every assigned scalar (a sample
    /// unless the run is whole) after a `.` and a `-` and before them.
    @Test func everyMappedScalarAndEveryNeighbourOfADot() {
        let tables = idnaTables
        var labels: [[UInt8]] = []
        for k in 0..<IDNATables.mappingCount {
            let s = String(Unicode.Scalar(tables.mappingKeys[k])!)
            labels.append(Array(s.utf8))
            labels.append(Array("ab\(s)ü".utf8))
        }
        let all = Array(UInt32(0x80)...0x10FFFF).filter {
            !(0xD800...0xDFFF).contains($0) && tables.info($0) & IDNATables.kindMask != IDNATables.Kind.unassigned.rawValue
        }
        for value in TestScale.sample(all, 20_000, "IDNA on bytes, neighbours of dots and hyphens") {
            let s = String(Unicode.Scalar(value)!)
            for text in ["ü.\(s)", "\(s).ü", "-\(s)ü", "ü\(s)-", "\(s)", "x\(s)"] { labels.append(Array(text.utf8)) }
        }
        var answered = 0
        for label in labels {
            let (expected, got) = Self.both(label)
            if let got {
                answered += 1
                #expect(got == expected, "\(Self.text(label)): \(got), the String form \(expected)")
            }
        }
        #expect(answered * 10 >= labels.count * 9, "answered \(answered) of \(labels.count)")
    }

    /// Labels of real lists: every non-ASCII or `ab--` label of the corpus
    /// files.
    @Test func everyLabelOfTheCorpusFiles() throws {
        var labels = Set<[UInt8]>()
        for path in ["/Corpus/real/debian-maintainers.txt", "/Corpus/samples/compose.txt"] {
            let bytes = try #require(readFile(packageRoot() + path))
            var label: [UInt8] = []
            for b in bytes + [0x20] {
                if b >= 0x80 || ByteClass.isLetterOrDigit(b) || b == 0x2D {
                    label.append(b)
                } else {
                    if label.contains(where: { $0 >= 0x80 }) || (label.count >= 4 && label[2] == 0x2D && label[3] == 0x2D) {
                        labels.insert(label)
                    }
                    label.removeAll(keepingCapacity: true)
                }
            }
        }
        for label in labels {
            let (expected, got) = Self.both(label)
            #expect(got == nil || got == expected, "\(Self.text(label)): \(String(describing: got)), the String form \(expected)")
        }
        #expect(labels.count > 50, "\(labels.count) labels")
    }

    /// The look-alike check reads a domain's bytes as its Unicode form
    /// when it holds no A-label and nothing the width mapping changes:
    /// then `toUnicode` gives it back as it is.
    @Test func aDomainWithoutALabelsOrWidthFormsIsItsOwnUnicodeForm() {
        var rng = SplitMix64(seed: 907)
        var read = 0
        for _ in 0..<TestScale.count(40_000, 8_000, "domains as their own Unicode form") {
            let text = (0..<rng.between(1...4)).map { _ in
                (0..<rng.between(1...3)).map { _ in rng.below(6) == 0 ? Self.aLabel(&rng) : rng.pick(Self.pieces) }.joined()
            }.joined(separator: ".")
            let bytes = Array(text.lowercased().utf8)
            let own = bytes.withUnsafeBufferPointer {
                !Lookalikes.holdsALabel($0) && !IDNABytes.holdsWidthForms($0) && IDNABytes.isWellFormed($0)
            }
            guard own else { continue }
            read += 1
            let domain = String(decoding: bytes, as: UTF8.self)
            #expect(((try? IDNA.toUnicode(domain)) ?? domain) == domain, "\(Self.text(bytes))")
            #expect(Array(((try? IDNA.toUnicode(domain)) ?? domain).utf8) == bytes, "\(Self.text(bytes))")
        }
        #expect(read > 1_000, "read \(read)")
    }

    /// The international fast path leaves invisible characters and
    /// controls in a domain label to IDNA: every scalar the grammar
    /// reports as one makes a label IDNA refuses.
    @Test func everyInvisibleCharacterMakesALabelInvalid() {
        var found = 0
        for value in UInt32(0x80)...0x10FFFF where !(0xD800...0xDFFF).contains(value) {
            let label = Array("b\(String(Unicode.Scalar(value)!))ü".utf8)
            let scan = label.withUnsafeBufferPointer { Invisibles.scan($0, 0..<$0.count) }
            guard scan.first != nil || scan.control != nil else { continue }
            found += 1
            #expect(LabelCache.work(String(decoding: label, as: UTF8.self)).asciiLength == -1, "U+\(String(value, radix: 16))")
            #expect(label.withUnsafeBufferPointer { LabelCache.work(bytes: $0) }.asciiLength == -1, "U+\(String(value, radix: 16))")
        }
        #expect(found > 40, "\(found) invisible characters")
    }

    /// Punycode (on stack buffers, the arrays' forms wrap them) gives the
    /// sample strings of RFC 3492 §7.1, both ways.
    @Test(arguments: [
        ([0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648, 0x0634, 0x0639, 0x0631,
          0x0628, 0x064A, 0x061F], "egbpdaj6bu4bxfgehfvwxn"),
        ([0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587], "ihqwcrb4cv8a8dqg056pqjye"),
        ([0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F], "3B-ww4c5e180e575a65lsy2b"),
        ([0x5B89, 0x5BA4, 0x5948, 0x7F8E, 0x6075, 0x002D, 0x0077, 0x0069, 0x0074, 0x0068, 0x002D, 0x0053, 0x0055, 0x0050,
          0x0045, 0x0052, 0x002D, 0x004D, 0x004F, 0x004E, 0x004B, 0x0045, 0x0059, 0x0053], "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        ([0x002D, 0x003E, 0x0020, 0x0024, 0x0031, 0x002E, 0x0030, 0x0030, 0x0020, 0x003C, 0x002D], "-> $1.00 <--"),
    ] as [([UInt32], String)])
    func punycodeGivesTheRFCsSamples(_ scalars: [UInt32], _ code: String) {
        #expect(Punycode.encode(scalars) == Array(code.utf8))
        #expect(Punycode.decode(Array(code.utf8)) == scalars)
        #expect(Punycode.decode(Array(code.lowercased().utf8))?.count == scalars.count)
    }
}
