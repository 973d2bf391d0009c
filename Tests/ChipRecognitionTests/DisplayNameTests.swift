import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

@Suite("Display names")
struct DisplayNameTests {
    @Test(arguments: [
        ("Ann Lee <a@x.org>", "Ann Lee"),
        ("  Ann   Lee  <a@x.org>", "Ann Lee"),
        ("\"Lee,  Ann\" <a@x.org>", "Lee, Ann"),                    // white space folded inside quotes too
        ("\"A \\\"B\\\" C\" <a@x.org>", "A \"B\" C"),               // escapes resolved
        ("Ann (work) Lee <a@x.org>", "Ann Lee"),                    // comments in a phrase are dropped
        ("Ann\r\n Lee <a@x.org>", "Ann Lee"),                       // unfolded
        ("=?UTF-8?Q?Andr=C3=A9?= =?UTF-8?Q?_Pirard?= <a@x.org>", "André Pirard"),  // adjacent words joined
        ("=?UTF-8?B?w6k=?= x <a@x.org>", "é x"),
        ("\"=?UTF-8?Q?x?=\" <a@x.org>", "=?UTF-8?Q?x?="),           // not decoded inside quotes
        ("Dr. Ann <a@x.org>", "Dr. Ann"),
        ("ann@x.org (Ann Lee)", "Ann Lee"),                         // a trailing comment names a bare address
        ("ann@x.org (=?UTF-8?Q?Jos=C3=A9?=)", "José"),              // and may hold encoded words
        ("test.(comment)test@iana.org", nil),                       // a comment inside the address does not
        ("(comment)test@iana.org", nil),
        ("test@(comment)iana.org", nil),
        ("\"\" <a@x.org>", nil),
        ("<a@x.org>", nil),
    ] as [(String, String?)])
    func decodedNames(_ text: String, _ name: String?) {
        let chip = AddressList.parse(text).first
        #expect(chip?.displayName == name, "\(text)")
        #expect(chip?.isValid == true, "\(text): \(chip?.error?.code ?? "")")
    }
}

/// Most names skip the lexer (``DisplayName/appendPlain``); where that
/// path answers, it must give exactly the bytes the lexer's path gives,
/// on seeded random phrases built from the bytes that matter and on every
/// name of the real and generated corpora.
@Suite("Display names: the plain path equals the lexer's")
struct PlainDisplayNameTests {
    func viaLexer(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { p in
            var lexemes: [Lexeme] = []
            _ = ChipLexer.lex(p, 0..<p.count, into: &lexemes)
            var out: [UInt8] = [0x78]  // appends after what is there
            _ = lexemes.withUnsafeBufferPointer { DisplayName.appendPhrase(p, $0, into: &out) }
            return out
        }
    }

    func viaPlain(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { p in
            var out: [UInt8] = [0x78]
            let taken = DisplayName.appendPlain(p, 0..<p.count, into: &out)
            if !taken { #expect(out == [0x78], "a refused phrase appended bytes") }
            return taken ? out : nil
        }
    }

    @Test(arguments: [
        ("Ann Lee", "Ann Lee"), ("  Ann \t  Lee ", "Ann Lee"), ("Dr. Ann", "Dr. Ann"), ("\"Lee, Ann\"", "Lee, Ann"),
        ("\" Lee ,  Ann \"", "Lee , Ann"), ("José Ortiz", "José Ortiz"), ("\"\"", ""), ("", ""),
        ("a=b", "a=b"), ("\"=?x?=\"", "=?x?="),
        // Quoted-pairs of printable bytes lose their backslash.
        ("\"A \\\"B\\\"\"", "A \"B\""), ("\"a\\\\b\"", "a\\b"), ("\" \\(x\\)  y \"", "(x) y"),
    ])
    func plainNames(_ text: String, _ decoded: String) {
        let got = viaPlain(Array(text.utf8))
        #expect(got.map { String(decoding: $0.dropFirst(), as: UTF8.self) } == decoded, "\(text)")
        #expect(got == viaLexer(Array(text.utf8)))
    }

    @Test(arguments: ["=?UTF-8?Q?x?=", "a=?b", "Ann (x) Lee", "Ann\r\n Lee", "a\u{1}b", "\"a\" \"b\"",
                      // Quoted-pairs of a space, a tab, a byte of 0x80 or
                      // more, and a backslash escaping the closing quote.
                      "\"a\\ b\"", "\"a\\\tb\"", "\"\\é\"", "\"a\\\"",
                      "Ann \"Lee\"", "a\\b", "[x]", "a<b", "a,b", "a:b", "\"a\u{7F}\""])
    func namesThatNeedTheLexer(_ text: String) {
        #expect(viaPlain(Array(text.utf8)) == nil, "\(text)")
    }

    @Test(arguments: [1, 2, 3])
    func randomPhrasesAgree(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pieces: [[UInt8]] = ["a", "Zo", ".", " ", "\t", "\"", "\\", "(", ")", "=", "?", "=?", "é", "\u{3000}", ",", "@",
                                 "<", "[", "\u{1}", "\r\n", "O'N", "-", "\u{FF}", "\\\"", "\\\\", "\\x", "\\ "].map { Array($0.utf8) }
            + [[0xC3], [0x80], [0x5C, 0xC3, 0xA9]]
        var taken = 0, unescaped = 0
        for _ in 0..<4_000 {
            var bytes: [UInt8] = []
            let quoted = rng.chance(perMille: 300)
            if quoted { bytes.append(0x22) }
            for _ in 0..<rng.between(0...8) { bytes += rng.pick(pieces) }
            if quoted { bytes.append(0x22) }
            if let plain = viaPlain(bytes) {
                taken += 1
                if quoted && bytes.contains(0x5C) { unescaped += 1 }
                #expect(plain == viaLexer(bytes), "\(bytes)")
            }
        }
        #expect(taken > 400, "only \(taken) phrases took the plain path")
        #expect(unescaped > 20, "only \(unescaped) quoted phrases with escapes took the plain path")
    }

    @Test func everyCorpusNameAgrees() throws {
        var inputs = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        var rng = SplitMix64(seed: 5)
        for _ in 0..<3_000 { inputs += [0x0A] + randomList(&rng, pieces: 6) }
        var compared = 0
        for line in inputs.split(separator: 0x0A) {
            let bytes = Array(line)
            bytes.withUnsafeBufferPointer { p in
                var scanner = ListScanner()
                var segments: [Segment] = []
                scanner.scan(p) { segments.append($0) }
                scanner.finish { segments.append($0) }
                var recognizer = Recognizer()
                for s in segments where s.kind == .chip {
                    let r = recognizer.recognize(p, s.byteRange)
                    guard let name = r.nameRange, !r.nameIsComment else { continue }
                    let phrase = Array(p[name])
                    if let plain = viaPlain(phrase) {
                        compared += 1
                        #expect(plain == viaLexer(phrase), "\(String(decoding: phrase, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(compared > 10_000)
    }
}
