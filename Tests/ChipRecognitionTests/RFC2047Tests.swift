// Tables derived from RFC 2047 (MIME message header extensions): the
// encoded-word syntax of §2, the B and Q encodings of §4, where encoded words
// may appear (§5), how they are displayed (§6) and the examples of §8.

import Testing
import ChipSyntax
import ChipRecognitionTestSupport
@testable import ChipRecognition
import ChipTestSupport




@Suite("RFC 2047 encoded words")
struct RFC2047Tests {
    @Test("§8 example header fields", arguments: RFC2047Tables.section8Lists)
    func section8Lists(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: RFC2047Disputed.rows)
    func disputedRFC2047(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§8 display table, in comments", arguments: RFC2047Tables.section8Comments)
    func section8Comments(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§8 display table, in phrases", arguments: RFC2047Tables.section8Phrases)
    func section8Phrases(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("§2/§4/§5/§6 syntax, encodings, placement", arguments: RFC2047Tables.encodings)
    func encodings(_ row: RFCRow) { verifyRFCRow(row) }

    @Test("legacy charsets of the WHATWG Encoding Standard", arguments: RFC2047Tables.legacyCharsets)
    func legacyCharsets(_ row: RFCRow) { verifyRFCRow(row) }

    /// UTF-8 words are copied a stretch at a time; the bytes that need the
    /// decoder (controls, C1, line separators, ill-formed sequences, a
    /// second space) hand the rest over to it. Both give the same bytes
    /// for random words after any text already written.
    @Test func utf8WordsCopiedAsTheDecoderWritesThem() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("Zoë".utf8), Array("中文".utf8), Array("😀".utf8), [0x20], [0x20, 0x20], [0x09], [0x0A],
            [0x00], [0x7F], [0xC2, 0x85], [0xC2, 0xA0], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9], [0xE2, 0x80, 0xAA],
            [0xEF, 0xBB, 0xBF], [0x80], [0xC0, 0xAF], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98],
            [0xF4, 0x90, 0x80, 0x80], [0xFF],
        ]
        let before: [[UInt8]] = [[], Array("Ann".utf8), Array("Ann ".utf8)]
        var rng = SplitMix64(seed: 47)
        var handedOver = 0
        for _ in 0..<20_000 {
            let word = (0..<rng.between(0...8)).flatMap { _ in rng.pick(pieces) }
            var fast = rng.pick(before)
            var slow = fast
            word.withUnsafeBufferPointer {
                EncodedWord.appendUTF8($0, charset: .utf8, into: &fast)
                EncodedWord.appendDecoded($0, charset: .utf8, into: &slow)
            }
            #expect(fast == slow, "\(word)")
            if word.contains(where: { $0 < 0x20 || $0 == 0x7F || ($0 >= 0x80 && $0 < 0xC2) || $0 >= 0xF5 }) { handedOver += 1 }
        }
        // Many words needed the decoder, and many did not.
        #expect(handedOver > 2_000 && handedOver < 18_000)
    }

    /// Names of many encoded words (charsets mixed, the stateful one among
    /// them, some undecodable, white space between some) decode to the
    /// words' texts joined as §6.2 says: words back to back, or with only
    /// white space between, are joined; other text keeps its space.
    @Test func manyEncodedWordsJoinAsTheRFCSays() {
        // (encoded word, its text, decodable)
        let words: [(String, String, Bool)] = [
            ("=?UTF-8?B?WsO2ZQ==?=", "Zöe", true), ("=?UTF-8?Q?_Lee?=", " Lee", true),
            ("=?ISO-8859-1?Q?Jos=E9?=", "José", true), ("=?iso-8859-7?B?4eLj?=", "αβγ", true),
            ("=?ISO-2022-JP?B?GyRCJUYlOSVIGyhC?=", "テスト", true), ("=?x-unknown?Q?zz?=", "=?x-unknown?Q?zz?=", false),
            ("=?UTF-8?B?not*base64?=", "=?UTF-8?B?not*base64?=", false),
        ]
        var rng = SplitMix64(seed: 53)
        for _ in 0..<2_000 {
            var text = ""
            var expected = ""
            var previousDecoded = false
            for k in 0..<rng.between(1...5) {
                let (word, decoded, ok) = rng.pick(words)
                let plain = rng.between(0...4) == 0
                let spaced = k > 0 && (plain || !ok || !previousDecoded || rng.between(0...1) == 0)
                if k > 0 { text += spaced ? " " : "" }
                if plain {
                    text += "Ann"
                    expected += (k > 0 ? " " : "") + "Ann"
                    previousDecoded = false
                    continue
                }
                if !spaced && k > 0 && !(ok && previousDecoded) {
                    // Glued to text that is not a decoded word: one atom
                    // that is no encoded word, as written.
                    text += " "
                }
                text += word
                let joins = ok && previousDecoded
                expected += (k > 0 && !joins ? " " : "") + decoded
                previousDecoded = ok
            }
            let chip = AddressList.parse(text + " <a@example.com>").first
            let folded = expected.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(chip?.displayName == folded, "\(text)")
        }
    }

    /// Names of encoded words only, decoded by the lane's shortcut
    /// (``EncodedWord/appendSimpleWords(_:_:into:screen:)``), are what the
    /// phrase decoder makes of them, with no warning; random words of
    /// both its charsets and others, both encodings, well- and ill-formed
    /// text, controls, C1, separators, spaces anywhere, bad padding and
    /// digits. The shortcut must take most clean names, or it saves
    /// nothing.
    @Test func simpleWordsDecodeAsThePhraseDecoderDoes() {
        let texts: [[UInt8]] = [
            Array("Ann".utf8), Array("Zoë Lee".utf8), Array("中文".utf8), Array("😀".utf8), [0x20], [0x20, 0x20], [0x09],
            [0x0A], [0x00], [0x7F], [0xC2, 0x85], [0xC2, 0xA0], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9], [0x80], [0xC3],
            [0xE9], [0xFF], [0xA0], Array("a_b=c?d".utf8), Array("@".utf8), [0xF0, 0x9F, 0x98],
            // windows-1252 of U+00A0–00BF (lead C2 in UTF-8), and long.
            [0xAD], [0xB7], [0xA4], [0x41, 0xA0, 0x42], Array(repeating: 0xE9, count: 40),
        ]
        let charsets = ["UTF-8", "utf-8", "ISO-8859-1", "iso-8859-1", "US-ASCII", "windows-1252",
                        "UTF8", "ISO-8859-2", "x-unknown", "utf-8*en", "latin1",
                        // Read by eight bytes: other cases, and labels that
                        // begin as they do.
                        "Utf-8", "iSo-8859-1", "iso-8859-15", "ISO-8859-10", "iso-8859-1*en", "utf-80", "utf-8-x"]
        func base64(_ bytes: [UInt8]) -> String {
            let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
            var out: [UInt8] = []
            var k = 0
            while k < bytes.count {
                let chunk = bytes[k..<min(k + 3, bytes.count)]
                let v = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
                for d in 0..<(chunk.count + 1) { out.append(digits[Int(v >> UInt32(18 - 6 * d) & 63)]) }
                out += [UInt8](repeating: UInt8(ascii: "="), count: 3 - chunk.count)
                k += 3
            }
            return String(decoding: out, as: UTF8.self)
        }
        func q(_ bytes: [UInt8]) -> String {
            bytes.map { b -> String in
                if b == 0x20 { return "_" }
                if ByteClass.isLetterOrDigit(b) { return String(UnicodeScalar(b)) }
                let hex = String(b, radix: 16, uppercase: true)
                return "=" + (hex.count == 1 ? "0" + hex : hex)
            }.joined()
        }
        var rng = SplitMix64(seed: 61)
        var taken = 0, clean = 0, screened = 0
        var recognizer = Recognizer(policy: .standard)
        for _ in 0..<20_000 {
            let charset = rng.chance(perMille: 800) ? rng.pick(Array(charsets.prefix(6))) : rng.pick(charsets)
            var name = ""
            var isClean = true
            for k in 0..<rng.between(1...3) {
                var bytes = (0..<rng.between(0...3)).flatMap { _ in rng.pick(texts) }
                if rng.chance(perMille: 600) { bytes = Array("Jürgen Groß".utf8) }
                if !charset.lowercased().hasPrefix("utf") { bytes = bytes.map { $0 >= 0x80 && rng.chance(perMille: 500) ? 0xE9 : $0 } }
                var text = rng.chance(perMille: 500) ? base64(bytes) : q(bytes)
                let encoding = text.contains("=") && !text.contains("_") && rng.chance(perMille: 100) ? "Q" : (text == q(bytes) ? "Q" : "B")
                switch rng.below(12) {
                case 0: text = String(text.dropLast())
                case 1: text += "="
                case 2: text = String(text.map { $0 == "A" ? "*" : $0 })
                case 3: text += "?"
                default: break
                }
                if k > 0 { name += rng.pick([" ", "", "  "]) }
                name += "=?\(charset)?\(rng.chance(perMille: 200) ? encoding.lowercased() : encoding)?\(text)?="
                if rng.chance(perMille: 30) { name += " x" ; isClean = false }
            }
            if isClean && charsets.prefix(6).contains(charset) { clean += 1 }
            let bytes = Array(name.utf8)
            bytes.withUnsafeBufferPointer { p in
                var fast: [UInt8] = [0x41]
                var slow: [UInt8] = [0x41]
                var screen: FastPath.NameScreen?
                let took = EncodedWord.appendSimpleWords(p, 0..<p.count, into: &fast, screen: &screen)
                let warnings = recognizer.appendPhrase(p, 0..<p.count, into: &slow)
                if took {
                    taken += 1
                    #expect(fast == slow, "\(name)")
                    #expect(warnings.isEmpty, "\(name): \(warnings)")
                    #expect(!fast.contains(UInt8(ascii: "@")), "\(name): a name with an `@` takes the general path")
                    // The screen taken as the words were decoded is the
                    // screen of the text they decoded to, and hides no
                    // invisible character and no mix of scripts.
                    if let screen {
                        screened += 1
                        let decoded = Array(fast.dropFirst())
                        if decoded.count <= 64 {
                            let text = decoded + [UInt8](repeating: 0x20, count: 64)
                            let expected = text.withUnsafeBufferPointer { FastPath.screenName($0, 0..<decoded.count) }
                            #expect(screen == expected, "\(name)")
                        }
                        if !screen.contains(.invisibles) {
                            #expect(Invisibles.warnings(Invisibles.scan(decoded)).isEmpty, "\(name)")
                        }
                        if !screen.contains(.scripts) {
                            #expect(!decoded.withUnsafeBufferPointer { Lookalikes.mixesScripts($0, wellFormed: false) }, "\(name)")
                        }
                    }
                } else {
                    #expect(fast == [0x41], "\(name): appended although it declined")
                }
            }
        }
        #expect(taken > 3_000, "the shortcut took \(taken) of \(clean) names of its charsets")
        #expect(screened > 1_000, "screened \(screened)")
    }
}
