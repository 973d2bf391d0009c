// Tables derived from the WHATWG Encoding Standard: its label table, its
// indexes (index-*.txt: the code point of a pointer) and its decoder
// algorithms, including what each does with bytes it cannot decode.

import Testing
@testable import ChipSyntax
import ChipTestSupport

/// The scalars `charset` decodes `bytes` to.
private func scalars(_ charset: Charset, _ bytes: [UInt8]) -> [UInt32] {
    var out: [UInt32] = []
    bytes.withUnsafeBufferPointer { buffer in charset.decode(buffer) { out.append($0) } }
    return out
}

private func text(_ charset: Charset, _ bytes: [UInt8]) -> String {
    let utf8 = bytes.withUnsafeBufferPointer { charset.decodeToUTF8($0) }
    return String(decoding: utf8, as: UTF8.self)
}

private func hex(_ values: [UInt32]) -> String {
    values.map { "U+" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
}

private let fffd: UInt32 = 0xFFFD

@Suite("Charsets of the WHATWG Encoding Standard")
struct CharsetTests {
    // MARK: Labels

    /// Several labels of each encoding, as mail and vCard files write them:
    /// any ASCII case, surrounded by ASCII white space.
    static let labels: [(String, Charset?)] = [
        ("utf-8", .utf8), (" UTF8 ", .utf8), ("unicode-1-1-utf-8", .utf8), ("\tUnicode20UTF8\n", .utf8),
        ("x-unicode20utf8", .utf8),
        ("866", .ibm866), ("CP866", .ibm866), ("csIBM866", .ibm866),
        ("latin2", .iso8859_2), ("ISO_8859-2:1987", .iso8859_2), ("l2", .iso8859_2), ("iso-ir-101", .iso8859_2),
        ("Latin3", .iso8859_3), ("iso-ir-109", .iso8859_3),
        ("latin4", .iso8859_4), ("ISO8859-4", .iso8859_4),
        ("cyrillic", .iso8859_5), ("ISO-8859-5", .iso8859_5), ("csisolatincyrillic", .iso8859_5),
        ("arabic", .iso8859_6), ("ASMO-708", .iso8859_6), ("iso-8859-6-i", .iso8859_6), ("ecma-114", .iso8859_6),
        ("greek", .iso8859_7), ("sun_eu_greek", .iso8859_7), ("ELOT_928", .iso8859_7), ("greek8", .iso8859_7),
        ("hebrew", .iso8859_8), ("visual", .iso8859_8), ("iso-8859-8-e", .iso8859_8), ("ISO_8859-8", .iso8859_8),
        ("logical", .iso8859_8i), ("ISO-8859-8-I", .iso8859_8i), ("csiso88598i", .iso8859_8i),
        ("latin6", .iso8859_10), ("iso885910", .iso8859_10),
        ("iso-8859-13", .iso8859_13), ("iso885914", .iso8859_14),
        ("l9", .iso8859_15), ("ISO-8859-15", .iso8859_15), ("csisolatin9", .iso8859_15),
        ("ISO-8859-16", .iso8859_16),
        ("koi", .koi8R), ("KOI8_R", .koi8R), ("cskoi8r", .koi8R), ("koi8", .koi8R),
        ("koi8-ru", .koi8U), ("KOI8-U", .koi8U),
        ("mac", .macintosh), ("x-mac-roman", .macintosh), ("csmacintosh", .macintosh),
        ("tis-620", .windows874), ("iso-8859-11", .windows874), ("DOS-874", .windows874),
        ("cp1250", .windows1250), ("x-cp1251", .windows1251), ("Windows-1251", .windows1251),
        ("latin1", .windows1252), ("US-ASCII", .windows1252), ("ansi_x3.4-1968", .windows1252),
        ("iso-8859-1", .windows1252), ("cp819", .windows1252),
        ("cp1253", .windows1253),
        ("iso-8859-9", .windows1254), ("latin5", .windows1254), ("ISO_8859-9:1989", .windows1254),
        ("cp1255", .windows1255), ("windows-1256", .windows1256), ("x-cp1257", .windows1257),
        ("CP1258", .windows1258),
        ("x-mac-cyrillic", .xMacCyrillic), ("x-mac-ukrainian", .xMacCyrillic),
        ("gb2312", .gbk), ("chinese", .gbk), ("GB_2312-80", .gbk), ("x-gbk", .gbk), ("csiso58gb231280", .gbk),
        ("GBK", .gbk), ("GB18030", .gb18030),
        ("big5-hkscs", .big5), ("x-x-big5", .big5), ("cn-big5", .big5), ("BIG5", .big5),
        ("cseucpkdfmtjapanese", .eucJP), ("x-euc-jp", .eucJP), ("EUC-JP", .eucJP),
        ("csiso2022jp", .iso2022JP), ("ISO-2022-JP", .iso2022JP),
        ("sjis", .shiftJIS), ("windows-31j", .shiftJIS), ("MS_Kanji", .shiftJIS), ("Shift-JIS", .shiftJIS),
        ("shift_jis", .shiftJIS), ("ms932", .shiftJIS),
        ("ks_c_5601-1987", .eucKR), ("korean", .eucKR), ("windows-949", .eucKR), ("EUC-KR", .eucKR),
        ("iso-2022-kr", .replacement), ("HZ-GB-2312", .replacement), ("iso-2022-cn-ext", .replacement),
        ("replacement", .replacement), ("csiso2022kr", .replacement),
        ("utf-16", .utf16LE), ("ucs-2", .utf16LE), ("UTF-16LE", .utf16LE), ("unicode", .utf16LE),
        ("unicodefffe", .utf16BE), ("UTF-16BE", .utf16BE),
        ("x-user-defined", .xUserDefined),
        // RFC 2231 §5: a language after "*" is not part of the charset.
        ("utf-8*en", .utf8), ("iso-8859-2*cs", .iso8859_2), ("KOI8-R*ru-RU", .koi8R), (" big5 *zh", .big5),
        // White space is the standard's ASCII white space only.
        ("\u{0C}gbk\r", .gbk), ("\u{0B}gbk", nil), ("\u{A0}gbk", nil),
        // Not labels of the standard, though other software knows some.
        ("utf-7", nil), ("latin9", nil), ("latin-9", nil), ("iso-8859-12", nil), ("utf 8", nil), ("x-unknown", nil),
        ("shift_jisx0213", nil), ("euc-tw", nil), ("ucs-4", nil), ("utf-32", nil), ("iso-2022-jp-2", nil),
        ("", nil), ("   ", nil), ("*en", nil),
        // ASCII case-insensitive only: Unicode's case mappings do not apply
        // (U+212A KELVIN SIGN lowercases to "k"; U+0130 to "i" and a dot).
        ("\u{212A}oi8-r", nil), ("LAT\u{0130}N1", nil), ("ütf-8", nil),
        // Longer than any label.
        ("unicode-1-1-utf-8-and-then-some", nil),
    ]

    @Test(arguments: labels)
    func labelNamesItsEncoding(_ label: String, _ expected: Charset?) {
        #expect(Charset(label: label) == expected, "label \(label.debugDescription)")
        // The byte form agrees with the String form.
        var copy = label
        let fromBytes = copy.withUTF8 { Charset(label: $0) }
        #expect(fromBytes == expected, "label bytes \(label.debugDescription)")
    }

    /// The standard: ASCII-lowercasing an encoding's name yields one of its
    /// labels; and names are distinct.
    /// The labels matched on bytes before the table agree with the table
    /// in any case, and their near misses are left to it.
    @Test func commonLabelsAgreeWithTheTable() {
        var rng = SplitMix64(seed: 5)
        for label in ["utf-8", "us-ascii", "iso-8859-1", "iso-8859-15", "windows-1252"] {
            for _ in 0..<20 {
                let mixed = String(label.map { rng.below(2) == 0 ? Character($0.uppercased()) : $0 })
                #expect(Charset(label: mixed) == Charset.byLabel(label), "\(mixed)")
                #expect(Array(mixed.utf8).withUnsafeBufferPointer { Charset.commonLabel($0) } == Charset.byLabel(label))
            }
            var near = Array(label.utf8)
            near[near.count - 1] ^= 1
            #expect(near.withUnsafeBufferPointer { Charset.commonLabel($0) } == nil)
            #expect(Charset(label: String(decoding: near, as: UTF8.self)) == Charset.byLabel(String(decoding: near, as: UTF8.self)))
        }
    }

    @Test(arguments: Charset.allCases)
    func nameIsALabel(_ charset: Charset) {
        #expect(Charset(label: charset.name) == charset)
        #expect(Charset(label: charset.name.uppercased()) == charset)
        #expect(Charset.allCases.filter { $0.name == charset.name } == [charset])
    }

    @Test func everyEncodingOfTheStandardIsHere() {
        // 40 encodings: UTF-8, 28 single-byte, 7 multi-byte CJK, replacement,
        // UTF-16BE and LE, x-user-defined.
        #expect(Charset.allCases.count == 40)
        #expect(Charset.allCases.filter { $0.singleByteSlot != nil }.count == 28)
        #expect(Charset.iso8859_8.singleByteSlot == Charset.iso8859_8i.singleByteSlot)
    }

    // MARK: Single-byte encodings

    /// Spot values of each index single-byte (the standard's
    /// index-<name>.txt; pointer = byte − 0x80), with bytes the index leaves
    /// out giving U+FFFD.
    static let singleByteRows: [(Charset, [(UInt8, UInt32)])] = [
        (.ibm866, [(0x80, 0x0410), (0xA0, 0x0430), (0xB0, 0x2591), (0xF0, 0x0401), (0xFF, 0x00A0)]),
        (.iso8859_2, [(0x80, 0x0080), (0xA1, 0x0104), (0xA9, 0x0160), (0xF8, 0x0159), (0xFF, 0x02D9)]),
        (.iso8859_3, [(0xA1, 0x0126), (0xA5, fffd), (0xD5, 0x0120), (0xFD, 0x016D), (0xFF, 0x02D9)]),
        (.iso8859_4, [(0xA2, 0x0138), (0xA7, 0x00A7), (0xBD, 0x014A), (0xF2, 0x014D), (0xFE, 0x016B)]),
        (.iso8859_5, [(0xA1, 0x0401), (0xB0, 0x0410), (0xD0, 0x0430), (0xF0, 0x2116), (0xFD, 0x00A7)]),
        (.iso8859_6, [(0xA1, fffd), (0xAC, 0x060C), (0xBF, 0x061F), (0xC7, 0x0627), (0xF2, 0x0652), (0xFF, fffd)]),
        (.iso8859_7, [(0xA1, 0x2018), (0xA4, 0x20AC), (0xAE, fffd), (0xC1, 0x0391), (0xF9, 0x03C9), (0xFF, fffd)]),
        (.iso8859_8, [(0xAA, 0x00D7), (0xBF, fffd), (0xDF, 0x2017), (0xE0, 0x05D0), (0xFA, 0x05EA), (0xFD, 0x200E),
                      (0xFF, fffd)]),
        (.iso8859_8i, [(0xAA, 0x00D7), (0xBF, fffd), (0xE0, 0x05D0), (0xFE, 0x200F)]),
        (.iso8859_10, [(0xA1, 0x0104), (0xBD, 0x2015), (0xDE, 0x00DE), (0xF0, 0x00F0), (0xFF, 0x0138)]),
        (.iso8859_13, [(0xA1, 0x201D), (0xC2, 0x0100), (0xD0, 0x0160), (0xF0, 0x0161), (0xFF, 0x2019)]),
        (.iso8859_14, [(0xA1, 0x1E02), (0xD0, 0x0174), (0xDE, 0x0176), (0xF7, 0x1E6B), (0xFE, 0x0177)]),
        (.iso8859_15, [(0xA4, 0x20AC), (0xA6, 0x0160), (0xBC, 0x0152), (0xBE, 0x0178), (0xFF, 0x00FF)]),
        (.iso8859_16, [(0xA1, 0x0104), (0xA4, 0x20AC), (0xAA, 0x0218), (0xDE, 0x021A), (0xFE, 0x021B)]),
        (.koi8R, [(0x80, 0x2500), (0xA3, 0x0451), (0xB3, 0x0401), (0xC1, 0x0430), (0xFF, 0x042A)]),
        (.koi8U, [(0xA4, 0x0454), (0xA6, 0x0456), (0xAD, 0x0491), (0xB4, 0x0404), (0xBD, 0x0490)]),
        (.macintosh, [(0x80, 0x00C4), (0x8E, 0x00E9), (0xA5, 0x2022), (0xDB, 0x20AC), (0xF0, 0xF8FF), (0xFF, 0x02C7)]),
        (.windows874, [(0x80, 0x20AC), (0x85, 0x2026), (0x81, 0x0081), (0xA1, 0x0E01), (0xDB, fffd), (0xFB, 0x0E5B)]),
        (.windows1250, [(0x80, 0x20AC), (0x81, 0x0081), (0x8A, 0x0160), (0xA3, 0x0141), (0xF8, 0x0159)]),
        (.windows1251, [(0x80, 0x0402), (0x88, 0x20AC), (0x98, 0x0098), (0xA8, 0x0401), (0xFF, 0x044F)]),
        (.windows1252, [(0x80, 0x20AC), (0x81, 0x0081), (0x8D, 0x008D), (0x9F, 0x0178), (0xE9, 0x00E9)]),
        (.windows1253, [(0x80, 0x20AC), (0xA2, 0x0386), (0xAA, fffd), (0xC1, 0x0391), (0xFF, fffd)]),
        (.windows1254, [(0x80, 0x20AC), (0xD0, 0x011E), (0xDD, 0x0130), (0xFD, 0x0131), (0xFE, 0x015F)]),
        (.windows1255, [(0xA4, 0x20AA), (0xC0, 0x05B0), (0xD9, fffd), (0xE0, 0x05D0), (0xFD, 0x200E), (0xFF, fffd)]),
        (.windows1256, [(0x81, 0x067E), (0x8D, 0x0686), (0xC7, 0x0627), (0xE1, 0x0644), (0xFF, 0x06D2)]),
        (.windows1257, [(0x80, 0x20AC), (0xA1, fffd), (0xA8, 0x00D8), (0xC0, 0x0104), (0xFF, 0x02D9)]),
        (.windows1258, [(0x80, 0x20AC), (0xC3, 0x0102), (0xCC, 0x0300), (0xD2, 0x0309), (0xDE, 0x0303), (0xF5, 0x01A1)]),
        (.xMacCyrillic, [(0x80, 0x0410), (0xA2, 0x0490), (0xDD, 0x0401), (0xDF, 0x044F), (0xFF, 0x20AC)]),
    ]

    @Test(arguments: singleByteRows)
    func singleByteSpotValues(_ charset: Charset, _ rows: [(UInt8, UInt32)]) {
        for (byte, codePoint) in rows {
            #expect(scalars(charset, [byte]) == [codePoint], "\(charset.name) 0x\(String(byte, radix: 16))")
        }
        // The same bytes in one string decode the same, in order.
        #expect(scalars(charset, rows.map(\.0)) == rows.map(\.1))
    }

    /// How many of bytes 0x80–0xFF each index leaves out (128 less the
    /// lines of its index-<name>.txt); every other encoding maps all 128.
    static let unmappedCounts: [Charset: Int] = [
        .iso8859_3: 7, .iso8859_6: 45, .iso8859_7: 3, .iso8859_8: 36, .iso8859_8i: 36,
        .windows874: 8, .windows1253: 3, .windows1255: 10, .windows1257: 2,
    ]

    @Test(arguments: Charset.allCases.filter { $0.singleByteSlot != nil })
    func singleByteDecoderKeepsASCIIAndMapsEveryByte(_ charset: Charset) {
        let ascii = (0..<0x80).map { UInt8($0) }
        #expect(scalars(charset, ascii) == ascii.map { UInt32($0) })
        let high = (0x80...0xFF).map { UInt8($0) }
        let decoded = scalars(charset, high)
        #expect(decoded.count == 128)
        #expect(decoded.allSatisfy { $0 >= 0x80 && !(0xD800...0xDFFF).contains($0) })
        #expect(decoded.filter { $0 == fffd }.count == CharsetTests.unmappedCounts[charset, default: 0])
    }

    // MARK: Names in legacy encodings

    /// Names as their own legacy encodings write them. Expected bytes were
    /// produced with Python's codecs and checked against the standard's
    /// indexes, which they match for these names.
    static let names: [(Charset, [UInt8], String)] = [
        (.koi8R, [0xE9, 0xD7, 0xC1, 0xCE, 0x20, 0xF0, 0xC5, 0xD4, 0xD2, 0xCF, 0xD7], "Иван Петров"),
        (.koi8U, [0xB7, 0xD6, 0xC1, 0xCB, 0x20, 0xBD, 0xD5, 0xC4, 0xDA, 0xD8], "Їжак Ґудзь"),
        (.windows1251, [0xC4, 0xEC, 0xE8, 0xF2, 0xF0, 0xE8, 0xE9, 0x20, 0xD8, 0xEE, 0xF1, 0xF2, 0xE0, 0xEA, 0xEE, 0xE2,
                        0xE8, 0xF7], "Дмитрий Шостакович"),
        (.ibm866, [0x8D, 0xA0, 0xE2, 0xA0, 0xAB, 0xEC, 0xEF], "Наталья"),
        (.iso8859_5, [0xA1, 0xDB, 0xDA, 0xD8, 0xDD], "Ёлкин"),
        (.xMacCyrillic, [0x9E, 0xF0, 0xE8, 0xE9], "Юрий"),
        (.iso8859_7, [0xD3, 0xF9, 0xEA, 0xF1, 0xDC, 0xF4, 0xE7, 0xF2], "Σωκράτης"),
        (.windows1253, [0xA2, 0xED, 0xED, 0xE1, 0x20, 0xD0, 0xE1, 0xF0, 0xE1, 0xE4, 0xEF, 0xF0, 0xEF, 0xFD, 0xEB, 0xEF,
                        0xF5], "Άννα Παπαδοπούλου"),
        (.iso8859_2, [0x41, 0x6E, 0x74, 0x6F, 0x6E, 0xED, 0x6E, 0x20, 0x44, 0x76, 0x6F, 0xF8, 0xE1, 0x6B], "Antonín Dvořák"),
        (.windows1250, [0xA3, 0x75, 0x6B, 0x61, 0x73, 0x7A, 0x20, 0x57, 0x72, 0xF3, 0x62, 0x65, 0x6C], "Łukasz Wróbel"),
        (.iso8859_2, [0x5A, 0x61, 0xBF, 0xF3, 0xB3, 0xE6, 0x20, 0x47, 0xEA, 0xB6, 0x6C, 0xB1], "Zażółć Gęślą"),
        (.windows1254, [0xDE, 0xFC, 0x6B, 0x72, 0xFC, 0x20, 0x49, 0xFE, 0xFD, 0x6B], "Şükrü Işık"),
        (.windows1254, [0xDD, 0x6C, 0x6B, 0x6E, 0x75, 0x72, 0x20, 0x44, 0x6F, 0xF0, 0x61, 0x6E], "İlknur Doğan"),
        (.windows1255, [0xF9, 0xEC, 0xE5, 0xED], "שלום"),
        (.iso8859_8, [0xE3, 0xE5, 0xE3, 0x20, 0xEC, 0xE5, 0xE9], "דוד לוי"),
        (.iso8859_8i, [0xE3, 0xE5, 0xE3, 0x20, 0xEC, 0xE5, 0xE9], "דוד לוי"),
        (.windows1256, [0xE3, 0xCD, 0xE3, 0xCF], "محمد"),
        (.iso8859_6, [0xE5, 0xCD, 0xE5, 0xCF], "محمد"),
        (.windows874, [0xCA, 0xC1, 0xAA, 0xD2, 0xC2], "สมชาย"),
        // Vietnamese in windows-1258 writes most tones as combining marks:
        // ê (0xEA) then U+0303 COMBINING TILDE (0xDE).
        (.windows1258, [0x4E, 0x67, 0x75, 0x79, 0xEA, 0xDE, 0x6E, 0x20, 0x56, 0xE2, 0x6E], "Nguy\u{EA}\u{0303}n V\u{E2}n"),
        (.windows1257, [0xC0, 0xFE, 0x75, 0x6F, 0x6C, 0x61, 0x73, 0x20, 0xD0, 0x69, 0x6D, 0x6B, 0x75, 0x73], "Ąžuolas Šimkus"),
        (.iso8859_13, [0x4A, 0xE2, 0x6E, 0x69, 0x73, 0x20, 0x42, 0xE7, 0x72, 0x7A, 0x69, 0xF2, 0xF0], "Jānis Bērziņš"),
        (.iso8859_4, [0xD3, 0xBA, 0x6E, 0x69, 0xF1, 0xB9], "Ķēniņš"),
        (.iso8859_10, [0xDE, 0xF3, 0x72, 0xF0, 0x75, 0x72, 0x20, 0xAF], "Þórður Ŋ"),
        (.iso8859_3, [0xD5, 0x75, 0xBF, 0x65, 0x70, 0x70, 0x69, 0x20, 0xA1, 0x61, 0x62, 0x69, 0x62], "Ġużeppi Ħabib"),
        (.iso8859_14, [0xD0, 0x79, 0x6E, 0x20, 0xDE], "Ŵyn Ŷ"),
        (.iso8859_16, [0xAA, 0x74, 0x65, 0x66, 0x61, 0x6E, 0x20, 0xDE, 0x75, 0x72, 0x63, 0x61, 0x6E, 0x75], "Ștefan Țurcanu"),
        (.iso8859_15, [0xBC, 0x75, 0x76, 0x72, 0x65, 0x20, 0x35, 0xA4], "Œuvre 5€"),
        (.macintosh, [0x43, 0x61, 0x66, 0x8E, 0x20, 0x4D, 0x9F, 0x6C, 0x6C, 0x65, 0x72], "Café Müller"),
        (.windows1252, [0x5A, 0x6F, 0xEB, 0x20, 0x93, 0x41, 0x6E, 0x6E, 0x94, 0x20, 0x8C], "Zoë “Ann” Œ"),
        (.shiftJIS, [0x8E, 0x52, 0x93, 0x63, 0x91, 0xBE, 0x98, 0x59], "山田太郎"),
        (.shiftJIS, [0x97, 0xE9, 0x96, 0xD8, 0x20, 0x88, 0xEA, 0x98, 0x59, 0x20, 0xB1, 0xB2], "鈴木 一郎 ｱｲ"),
        (.eucJP, [0xBB, 0xB3, 0xC5, 0xC4, 0xC2, 0xC0, 0xCF, 0xBA], "山田太郎"),
        (.eucJP, [0xBA, 0xB4, 0xC6, 0xA3, 0x20, 0xB2, 0xD6, 0xBB, 0xD2], "佐藤 花子"),
        (.eucJP, [0x8E, 0xB1, 0x8E, 0xB2], "ｱｲ"),
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x3B, 0x33, 0x45, 0x44, 0x1B, 0x28, 0x42, 0x20, 0x1B, 0x24, 0x42, 0x42, 0x40,
                      0x4F, 0x3A, 0x1B, 0x28, 0x42], "山田 太郎"),
        (.gbk, [0xD5, 0xC5, 0xCE, 0xB0], "张伟"),
        (.gbk, [0xC0, 0xEE, 0xD0, 0xA1, 0xC1, 0xFA], "李小龙"),
        (.gb18030, [0xCD, 0xF5, 0xB7, 0xBC], "王芳"),
        // A name outside the BMP: U+20000 is four bytes in gb18030.
        (.gb18030, [0xB3, 0xC2, 0x95, 0x32, 0x82, 0x36], "陈\u{20000}"),
        (.big5, [0xB3, 0xAF, 0xA4, 0x6A, 0xA4, 0xE5], "陳大文"),
        (.big5, [0xA4, 0xFD, 0xA4, 0x70, 0xA9, 0xFA], "王小明"),
        (.eucKR, [0xB1, 0xE8, 0xB9, 0xCE, 0xC1, 0xD8], "김민준"),
        // 똠 is not in KS X 1001: Unified Hangul Code gives it 0x8C 0x63.
        (.eucKR, [0xC0, 0xCC, 0xBC, 0xAD, 0xBF, 0xAC, 0x20, 0x8C, 0x63, 0xB9, 0xE6], "이서연 똠방"),
        (.utf16LE, [0x71, 0x5C, 0x30, 0x75, 0x3D, 0xD8, 0x00, 0xDE], "山田😀"),
        (.utf16BE, [0x5C, 0x71, 0x75, 0x30, 0xD8, 0x3D, 0xDE, 0x00], "山田😀"),
        (.utf8, [0xE5, 0xB1, 0xB1, 0xE7, 0x94, 0xB0], "山田"),
    ]

    @Test(arguments: names)
    func nameDecodes(_ charset: Charset, _ bytes: [UInt8], _ expected: String) {
        #expect(text(charset, bytes) == expected, "\(charset.name)")
        #expect(scalars(charset, bytes) == expected.unicodeScalars.map(\.value), "\(charset.name)")
    }

    // MARK: Error handling and the edges of each decoder

    /// Rows from the decoder algorithms: what is an error, and which byte
    /// the standard puts back to be read again after one.
    static let decoderRows: [(Charset, [UInt8], [UInt32])] = [
        // UTF-8: a truncated sequence at the end is one error; a byte that
        // cannot continue one ends it and is read again.
        (.utf8, [0xC3], [fffd]),
        (.utf8, [0xE2, 0x82], [fffd]),
        (.utf8, [0xF0, 0x9F, 0x98], [fffd]),
        (.utf8, [0xF0, 0x9F, 0x98, 0x80], [0x1F600]),
        (.utf8, [0xE2, 0x82, 0x41], [fffd, 0x41]),
        (.utf8, [0xE0, 0x80, 0x41], [fffd, fffd, 0x41]),        // overlong: 0x80 is not a continuation of E0
        (.utf8, [0xED, 0xA0, 0x80], [fffd, fffd, fffd]),        // a surrogate
        (.utf8, [0xF4, 0x90, 0x80, 0x80], [fffd, fffd, fffd, fffd]),  // above U+10FFFF
        (.utf8, [0xC0, 0xAF], [fffd, fffd]),
        (.utf8, [0xEF, 0xBB, 0xBF, 0x41], [0xFEFF, 0x41]),     // a BOM is not the decoder's business
        // UTF-16: an odd byte or an unpaired surrogate at the end is one
        // error; a unit that does not pair is read again.
        (.utf16LE, [0x41], [fffd]),
        (.utf16LE, [0x41, 0x00, 0x42], [0x41, fffd]),
        (.utf16LE, [0x3D, 0xD8], [fffd]),
        (.utf16LE, [0x3D, 0xD8, 0x41], [fffd]),
        (.utf16LE, [0x3D, 0xD8, 0x41, 0x00], [fffd, 0x41]),
        (.utf16LE, [0x3D, 0xD8, 0x3D, 0xD8, 0x00, 0xDE], [fffd, 0x1F600]),
        (.utf16LE, [0x00, 0xDE, 0x41, 0x00], [fffd, 0x41]),
        (.utf16BE, [0xD8, 0x3D, 0x00, 0x41], [fffd, 0x41]),
        (.utf16BE, [0xFE, 0xFF, 0x00, 0x41], [0xFEFF, 0x41]),
        // Shift_JIS: WHATWG's is Windows' (windows-31j), not JIS X 0208 alone.
        (.shiftJIS, [0x81, 0x41], [0x3001]),                    // a valid pair whose trail is ASCII "A"
        (.shiftJIS, [0x81, 0x60], [0xFF5E]),                    // FULLWIDTH TILDE, where Python's shift_jis has U+301C
        (.shiftJIS, [0x87, 0x40], [0x2460]),                    // NEC extension: ①
        (.shiftJIS, [0xED, 0x40], [0x7E8A]),                    // NEC-selected IBM extension
        (.shiftJIS, [0xFA, 0x40], [0x2170]),                    // IBM extension: ⅰ
        (.shiftJIS, [0xF0, 0x40], [0xE000]),                    // end-user-defined area: Private Use
        (.shiftJIS, [0xF9, 0xFC], [0xE000 + 10715 - 8836]),
        (.shiftJIS, [0x5C, 0x7E, 0x80], [0x5C, 0x7E, 0x80]),
        (.shiftJIS, [0xA0, 0xFD, 0xFE, 0xFF], [fffd, fffd, fffd, fffd]),
        (.shiftJIS, [0xB1, 0xDF], [0xFF71, 0xFF9F]),
        (.shiftJIS, [0x81], [fffd]),
        (.shiftJIS, [0x81, 0x20], [fffd, 0x20]),                // the ASCII byte is not eaten
        (.shiftJIS, [0x85, 0x40], [fffd, 0x40]),                // a pair the index leaves out: "@" stays
        (.shiftJIS, [0x81, 0x7F], [fffd, 0x7F]),
        (.shiftJIS, [0x81, 0xFD], [fffd]),                      // a non-ASCII byte is part of the error
        (.shiftJIS, [0x81, 0x81, 0x41], [0xFF1D, 0x41]),
        // EUC-JP: 0x8E half-width katakana, 0x8F JIS X 0212.
        (.eucJP, [0x8E, 0xDF], [0xFF9F]),
        (.eucJP, [0x8E, 0xE0], [fffd]),
        (.eucJP, [0x8E, 0x41], [fffd, 0x41]),
        (.eucJP, [0x8F, 0xB0, 0xA1], [0x4E02]),
        (.eucJP, [0x8F, 0xA2, 0xAF], [0x02D8]),
        (.eucJP, [0x8F, 0xA1, 0xA1], [fffd]),                   // JIS X 0212 row 1 is empty
        (.eucJP, [0x8F, 0xB0], [fffd]),
        (.eucJP, [0x8F, 0xB0, 0x41], [fffd, 0x41]),
        (.eucJP, [0x8F, 0x41], [fffd, 0x41]),
        (.eucJP, [0xA1, 0xC1], [0xFF5E]),
        (.eucJP, [0xA4], [fffd]),
        (.eucJP, [0xA4, 0x20], [fffd, 0x20]),
        (.eucJP, [0x80, 0xA0, 0xFF], [fffd, fffd, fffd]),
        // ISO-2022-JP: escapes switch sets; ESC ( B returns to ASCII.
        (.iso2022JP, [0x41, 0x1B, 0x28, 0x42, 0x42], [0x41, 0x42]),
        (.iso2022JP, [0x1B, 0x28, 0x4A, 0x5C, 0x7E, 0x41], [0xA5, 0x203E, 0x41]),   // ESC ( J: JIS X 0201 Roman
        (.iso2022JP, [0x1B, 0x28, 0x49, 0x31, 0x5F], [0xFF71, 0xFF9F]),            // ESC ( I: katakana
        (.iso2022JP, [0x1B, 0x24, 0x40, 0x30, 0x6C], [0x4E00]),                    // ESC $ @ as ESC $ B
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x30, 0x6C, 0x1B, 0x28, 0x42, 0x5C, 0x7E], [0x4E00, 0x5C, 0x7E]),
        // An unknown escape is one error, and its bytes are read again.
        (.iso2022JP, [0x1B, 0x28, 0x43, 0x78], [fffd, 0x28, 0x43, 0x78]),
        (.iso2022JP, [0x1B, 0x24, 0x41, 0x78], [fffd, 0x24, 0x41, 0x78]),
        (.iso2022JP, [0x1B, 0x78], [fffd, 0x78]),
        (.iso2022JP, [0x1B], [fffd]),
        (.iso2022JP, [0x1B, 0x28], [fffd, 0x28]),
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x1B, 0x24], [fffd, fffd]),  // "$" read again as a lead byte, then cut short
        // Two escapes in a row, with no text between, are an error.
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x1B, 0x28, 0x42], [fffd]),
        (.iso2022JP, [0x1B, 0x28, 0x42, 0x41], [0x41]),          // the first escape of the text is fine
        // Bytes in the wrong state.
        (.iso2022JP, [0x0E, 0x0F, 0x80, 0x41], [fffd, fffd, fffd, 0x41]),
        (.iso2022JP, [0x1B, 0x28, 0x49, 0x60, 0x20], [fffd, fffd]),
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x0A], [fffd]),          // no line break inside JIS X 0208
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x30], [fffd]),          // a lead byte at the end
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x30, 0x0A, 0x30, 0x6C], [fffd, 0x4E00]),
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x30, 0x1B, 0x28, 0x42, 0x41], [fffd, 0x41]),
        (.iso2022JP, [0x1B, 0x24, 0x42, 0x22, 0x2F], [fffd]),    // a pair the index leaves out
        // gb18030 and GBK: four-byte sequences through the ranges index.
        (.gb18030, [0x81, 0x30, 0x81, 0x30], [0x0080]),
        (.gb18030, [0x84, 0x31, 0xA4, 0x39], [0xFFFF]),
        (.gb18030, [0x84, 0x31, 0xA5, 0x30], [fffd]),            // pointer 39420: nothing until 189000
        (.gb18030, [0x90, 0x30, 0x81, 0x30], [0x10000]),
        (.gb18030, [0xE3, 0x32, 0x9A, 0x35], [0x10FFFF]),
        (.gb18030, [0xE3, 0x32, 0x9A, 0x36], [fffd]),
        (.gb18030, [0x81, 0x35, 0xF4, 0x37], [0xE7C7]),           // the standard's one exception
        (.gb18030, [0x81, 0x30, 0x89, 0x37], [0x00DE]),           // pointer 87: in the range from 81 (U+00D8)
        (.gbk, [0x81, 0x30, 0x81, 0x30], [0x0080]),               // GBK decodes as gb18030
        (.gb18030, [0x80], [0x20AC]),
        (.gb18030, [0xFF], [fffd]),
        (.gb18030, [0x81, 0x40], [0x4E02]),
        (.gb18030, [0xA1, 0xA1], [0x3000]),
        (.gb18030, [0xA6, 0xD9], [0xFE10]),                       // GB18030-2022: no longer Private Use
        (.gb18030, [0xFE, 0x59], [0x9FB4]),
        (.gb18030, [0xFE, 0x51], [0xE816]),                       // still Private Use
        (.gb18030, [0x81], [fffd]),
        (.gb18030, [0x81, 0x30], [fffd]),
        (.gb18030, [0x81, 0x30, 0x81], [fffd]),
        (.gb18030, [0x81, 0x30, 0x41], [fffd, 0x30, 0x41]),       // the digit and the ASCII byte are read again
        (.gb18030, [0x81, 0x30, 0x81, 0x41], [fffd, 0x30, 0x4E04]),
        (.gb18030, [0x81, 0x7F], [fffd, 0x7F]),
        (.gb18030, [0x81, 0x20, 0x41], [fffd, 0x20, 0x41]),
        (.gb18030, [0x81, 0xFF], [fffd]),
        // Big5: four pointers are two code points; some are above U+FFFF.
        (.big5, [0x88, 0x62], [0x00CA, 0x0304]),
        (.big5, [0x88, 0x64], [0x00CA, 0x030C]),
        (.big5, [0x88, 0xA3], [0x00EA, 0x0304]),
        (.big5, [0x88, 0xA5], [0x00EA, 0x030C]),
        (.big5, [0x88, 0x62, 0x41], [0x00CA, 0x0304, 0x41]),
        (.big5, [0x87, 0x45], [0x27267]),
        (.big5, [0xA4, 0x40], [0x4E00]),
        (.big5, [0xA1, 0x40], [0x3000]),
        (.big5, [0x81, 0x40], [fffd, 0x40]),                      // below the index's first pointer
        (.big5, [0xA4], [fffd]),
        (.big5, [0xA4, 0x30], [fffd, 0x30]),
        (.big5, [0xA4, 0x80], [fffd]),
        (.big5, [0x80, 0xFF], [fffd, fffd]),
        // EUC-KR: KS X 1001 and the Unified Hangul Code.
        (.eucKR, [0xB0, 0xA1], [0xAC00]),
        (.eucKR, [0x81, 0x41], [0xAC02]),
        (.eucKR, [0xC9, 0xA1], [fffd]),                           // user-defined area, not in the index
        (.eucKR, [0xB0], [fffd]),
        (.eucKR, [0xB0, 0x30], [fffd, 0x30]),
        (.eucKR, [0x80, 0xFF], [fffd, fffd]),
        // replacement: one U+FFFD for any input but the empty one.
        (.replacement, [], []),
        (.replacement, [0x41], [fffd]),
        (.replacement, [0x1B, 0x24, 0x29, 0x43, 0x41, 0x42], [fffd]),
        // x-user-defined: the high half to U+F780–U+F7FF.
        (.xUserDefined, [0x41, 0x80, 0xC0, 0xFF], [0x41, 0xF780, 0xF7C0, 0xF7FF]),
        // Empty input is empty output everywhere.
        (.iso2022JP, [], []), (.gb18030, [], []), (.utf16LE, [], []),
    ]

    @Test(arguments: decoderRows)
    func decoderFollowsTheStandard(_ charset: Charset, _ bytes: [UInt8], _ expected: [UInt32]) {
        let got = scalars(charset, bytes)
        #expect(got == expected, "\(charset.name) \(bytes): got \(hex(got)), expected \(hex(expected))")
    }

    // MARK: The generated indexes

    /// Mapped pointers and the sum of their code points, per index, counted
    /// from the standard's index-<name>.txt: a check that every entry of
    /// the generated tables expands to the standard's value.
    static let indexTotals: [(String, CodePointIndex, Int, Int)] = [
        ("big5", big5Index, 18590, 749_556_282),
        ("euc-kr", eucKRIndex, 17048, 721_484_297),
        ("gb18030", gb18030Index, 23940, 775_028_624),
        ("jis0208", jis0208Index, 7724, 223_985_720),
        ("jis0212", jis0212Index, 6067, 176_974_738),
    ]

    @Test func generatedIndexesMatchTheStandardsCounts() {
        for (name, index, mapped, sum) in CharsetTests.indexTotals {
            var count = 0
            var total = 0
            for pointer in (index.first - 200)..<(index.first + index.count + 200) {
                let codePoint = index[pointer]
                if codePoint != 0 {
                    count += 1
                    total += Int(codePoint)
                }
            }
            #expect(count == mapped, "\(name)")
            #expect(total == sum, "\(name)")
        }
    }

    /// index gb18030 ranges: the first and last pointer of a few ranges.
    @Test(arguments: [
        (0, 0x0080), (35, 0x00A3), (36, 0x00A5), (819, 0x0450), (7456, 0x1E3E), (7457, 0xE7C7), (7458, 0x1E40),
        (19043, 0x9FA6), (39394, 0xFFE6), (39419, 0xFFFF), (39420, 0), (188_999, 0), (189_000, 0x10000),
        (1_237_575, 0x10FFFF), (1_237_576, 0),
    ])
    func gb18030RangesCodePoint(_ pointer: Int, _ codePoint: UInt32) {
        #expect(gb18030Ranges.codePoint(pointer) == codePoint, "pointer \(pointer)")
    }

    // MARK: Random input

    /// Bytes that matter to some decoder (escapes, digits, lead and trail
    /// ranges) come up often; any byte can.
    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        let interesting: [UInt8] = [0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x30, 0x39, 0x0E, 0x80, 0x81, 0x8E,
                                    0x8F, 0xA1, 0xD8, 0xDC, 0xFE, 0xFF, 0x41, 0x7E]
        return (0..<rng.below(40)).map { _ in
            rng.chance(perMille: 400) ? rng.pick(interesting) : UInt8(truncatingIfNeeded: rng.next())
        }
    }

    @Test(arguments: Charset.allCases)
    func randomBytesDecodeToValidScalarsWithinBounds(_ charset: Charset) {
        let seed: UInt64 = 0xC4A5_E7 &+ UInt64(Charset.allCases.firstIndex(of: charset)!)
        var rng = SplitMix64(seed: seed)
        for round in 0..<1000 {
            let bytes = CharsetTests.randomBytes(&rng)
            let decoded = scalars(charset, bytes)
            let valid = decoded.allSatisfy { $0 <= 0x10FFFF && !(0xD800...0xDFFF).contains($0) }
            #expect(valid, "seed \(seed) round \(round): \(charset.name) \(bytes) gave \(hex(decoded))")
            // Every scalar or U+FFFD consumes at least one byte of its own,
            // even in ISO-2022-JP, whose errors for held state (a lead byte,
            // an escape cut short) each consume the ESC or the lead byte;
            // Big5's pairs of code points take two bytes.
            #expect(decoded.count <= bytes.count, "seed \(seed) round \(round): \(charset.name) \(bytes)")
            if charset.singleByteSlot != nil || charset == .xUserDefined {
                #expect(decoded.count == bytes.count, "seed \(seed) round \(round)")
            }
            if charset == .replacement {
                #expect(decoded == (bytes.isEmpty ? [] : [fffd]), "seed \(seed) round \(round)")
            }
            // decodeToUTF8 is the same scalars, as valid UTF-8.
            let utf8 = bytes.withUnsafeBufferPointer { charset.decodeToUTF8($0) }
            let string = String(validating: utf8, as: UTF8.self)
            #expect(string?.unicodeScalars.map(\.value) == decoded, "seed \(seed) round \(round)")
        }
    }

    /// ASCII-compatible decoders pass ASCII through, and in those whose
    /// trail bytes are never ASCII (EUC-JP) every ASCII byte survives any
    /// garbage around it.
    @Test(arguments: Charset.allCases.filter { ![.utf16BE, .utf16LE, .replacement, .iso2022JP].contains($0) })
    func asciiPassesThrough(_ charset: Charset) {
        let seed: UInt64 = 0xA5C1 &+ UInt64(Charset.allCases.firstIndex(of: charset)!)
        var rng = SplitMix64(seed: seed)
        for round in 0..<200 {
            let ascii = (0..<rng.below(30)).map { _ in UInt8(rng.below(0x80)) }
            #expect(scalars(charset, ascii) == ascii.map { UInt32($0) }, "seed \(seed) round \(round)")
            if charset == .eucJP || charset == .utf8 {
                let bytes = CharsetTests.randomBytes(&rng)
                let asciiIn = bytes.filter { $0 < 0x80 }.map { UInt32($0) }
                let asciiOut = scalars(charset, bytes).filter { $0 < 0x80 }
                #expect(asciiOut == asciiIn, "seed \(seed) round \(round): \(bytes)")
            }
        }
    }
}
