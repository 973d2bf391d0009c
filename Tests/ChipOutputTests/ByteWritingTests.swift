import Testing
@testable import ChipOutput
import ChipRecognition
import ChipSyntax
import ChipTestSupport

/// The writers' fast byte paths (JSON strings eight bytes at a time,
/// numbers two digits at a time, short copies by stores) against the same
/// rules written one byte at a time.
@Suite("Byte writing: the fast paths equal the plain ones")
struct ByteWritingTests {
    /// Well-formed UTF-8 is "plain" for the simple lane exactly when
    /// escaping leaves it alone: no control, DEL, quote or backslash, and
    /// no character the escaper writes as `\uXXXX` (a C1 control, a bidi
    /// control, a hidden character, U+2028, U+2029), though other
    /// characters may share those characters' first bytes (Arabic letters
    /// with U+061C, `–` and `’` with U+200E); then copying it whole writes
    /// what escaping writes. And the escaper of well-formed text (sixteen
    /// bytes a step, then eight, then one) writes what the byte-at-a-time
    /// rules write, the sixteen bytes of room after it aside. Random
    /// strings of every length up to 70, so that every step meets every
    /// kind of character at every offset.
    @Test func wellFormedUTF8IsPlainExactlyWhenEscapingLeavesItAlone() {
        var rng = SplitMix64(seed: 23)
        let scalars: [String] = ["a", " ", "~", "é", "Ж", "€", "中", "😀", "<", "@", "ب", "\u{00A0}", "–", "’", "ᠠ",
                                 "ﻉ", "Ａ", "\u{2065}", "\u{1F469}\u{200D}\u{1F4BB}"]
        let needy: [String] = ["\"", "\\", "\u{7F}", "\u{01}", "\u{1F}", "\t", "\n", "\u{2028}", "\u{0085}", "\u{202E}",
                               "\u{061C}", "\u{00AD}", "\u{180E}", "\u{FEFF}", "\u{2066}", "\u{200B}"]
        var counts = (plain: 0, escaped: 0)
        for length in 0..<70 {
            for _ in 0..<40 {
                var text = (0..<length).map { _ in rng.pick(scalars) }.joined()
                for _ in 0..<rng.pick([0, 0, 1, 3]) where length > 0 {
                    let at = text.index(text.startIndex, offsetBy: rng.below(text.count + 1))
                    text.insert(contentsOf: rng.pick(needy), at: at)
                }
                let bytes = Array(text.utf8)
                let reference = Self.plainJSON(bytes)
                let expected = reference == [0x22] + bytes + [0x22]
                let plain = bytes.withUnsafeBufferPointer { JSON.isPlain(wellFormedUTF8: $0) }
                #expect(plain == expected, "\(text.debugDescription)")
                if plain {
                    var copied = ByteBuffer(capacity: 8)
                    bytes.withUnsafeBufferPointer { ByteWritingTests.copyWhole($0, to: copied.uniqueStorage) }
                    #expect(copied.bytes == reference, "\(text.debugDescription)")
                    counts.plain += 1
                } else {
                    counts.escaped += 1
                }
                let room = 6 * bytes.count + 2 + 16
                let written = [UInt8](unsafeUninitializedCapacity: room) { out, count in
                    count = bytes.withUnsafeBufferPointer { JSON.writeString(wellFormedUTF8: $0, at: out.baseAddress!) - out.baseAddress! }
                }
                #expect(written == reference, "\(text.debugDescription)")
            }
        }
        #expect(counts.plain > 300 && counts.escaped > 1_000, "\(counts)")
    }

    /// A quoted name is written between its own quotes exactly when that
    /// is what decoding it and escaping the decoding write (with no
    /// warning): its pairs `\"` and `\\` are JSON's escapes too, and
    /// nothing else in it changes. Random quoted strings of every length
    /// up to 50 over pairs of every kind, bare quotes and backslashes,
    /// tabs, runs of spaces, characters JSON escapes and characters that
    /// share their first bytes, so that the sixteen-byte steps meet each
    /// at every offset and across steps.
    @Test func quotedNameIsItsJSONExactlyWhenDecodingAndEscapingAgree() {
        var rng = SplitMix64(seed: 41)
        let pieces: [String] = ["a", "Z", "é", "ب", "–", "’", ",", ".", "(x)", "=?", " ", " ", "\\\"", "\\\\", "😀"]
        let needy: [String] = ["\\a", "\\ ", "\\\u{E9}", "\"", "\\", "\t", "  ", "\u{7F}", "\u{01}", "\u{200B}",
                               "\u{00AD}", "\u{2028}", "\u{061C}"]
        var names = Recognizer()
        var counts = (same: 0, other: 0)
        for length in 0..<50 {
            for _ in 0..<60 {
                var text = ""
                while text.utf8.count < length { text += rng.chance(perMille: 60) ? rng.pick(needy) : rng.pick(pieces) }
                var inside = Array(text.utf8)
                // Often without the spaces at its ends, which decoding trims.
                if rng.chance(perMille: 400) {
                    while inside.first == 0x20 { inside.removeFirst() }
                    while inside.last == 0x20 { inside.removeLast() }
                }
                let quoted = [0x22] + inside + [0x22]
                var decoded: [UInt8] = []
                let warnings = quoted.withUnsafeBufferPointer { names.appendPhrase($0, 0..<$0.count, into: &decoded) }
                let expected = warnings.isEmpty && !decoded.isEmpty && Self.plainJSON(decoded) == quoted
                let fast = inside.withUnsafeBufferPointer { JSON.quotedIsJSON(wellFormedUTF8: $0) }
                #expect(fast == expected, "\(text.debugDescription)")
                if expected { counts.same += 1 } else { counts.other += 1 }
            }
        }
        #expect(counts.same > 150 && counts.other > 1_000, "\(counts)")
        // And each thing that breaks it, alone among letters, at every
        // offset of names up to 50 bytes: across the steps as well.
        for n in 3...50 {
            for k in 1..<(n - 2) {
                for (piece, same) in [("  ", false), ("\\\"", true), ("\\\\", true), ("\\a", false), ("\t", false),
                                      ("\"", false), ("\u{200B}", false), ("ب", true)] {
                    var inside = Array(repeating: UInt8(ascii: "a"), count: n)
                    inside.replaceSubrange(k..<(k + piece.utf8.count), with: Array(piece.utf8))
                    let fast = inside.withUnsafeBufferPointer { JSON.quotedIsJSON(wellFormedUTF8: $0) }
                    #expect(fast == same, "\(String(decoding: inside, as: UTF8.self).debugDescription)")
                }
            }
        }
    }

    /// A plain string as the lane's JSON line copies it: quoted, whole.
    static func copyWhole(_ bytes: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        out.reserve(bytes.count + 2)
        var cursor = JSONLine.Cursor(out.base + out.count)
        cursor.putQuoted(bytes)
        out.count = cursor.p - out.base
    }

    /// JSON string escaping as the writer documents it, one byte at a time.
    static func plainJSON(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x22]
        var i = 0
        func hex(_ b: UInt8) -> [UInt8] { Array(String(b, radix: 16).leftPadded(to: 2).utf8) }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x22: out += Array("\\\"".utf8)
            case 0x5C: out += Array("\\\\".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20, 0x7F: out += Array("\\u00".utf8) + hex(b)
            case 0x20..<0x7F: out.append(b)
            default:
                let n = bytes.withUnsafeBufferPointer { UTF8Bytes.sequenceLength($0, at: i, end: bytes.count) }
                if n == 0 {
                    out += Array("\\udc".utf8) + hex(b)
                } else {
                    // What a terminal acts on or hides: C1 controls, U+2028,
                    // U+2029, bidi controls and hidden characters.
                    let v = String(decoding: bytes[i..<(i + n)], as: UTF8.self).unicodeScalars.first!.value
                    let escaped: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x00AD, 0x180E, 0xFEFF, 0x2028, 0x2029]
                    if (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                        || (0x200B...0x200D).contains(v) || (0x2060...0x2064).contains(v) || escaped.contains(v) {
                        out += Array("\\u".utf8) + hex(UInt8(v >> 8)) + hex(UInt8(v & 0xFF))
                    } else {
                        out += bytes[i..<(i + n)]
                    }
                    i += n
                    continue
                }
            }
            i += 1
        }
        return out + [0x22]
    }

    static func fastJSON(_ bytes: [UInt8], after prefix: [UInt8]) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 1)
        buffer.append(contentsOf: prefix)
        JSON.appendString(bytes, to: &buffer)
        return buffer.bytes
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func jsonStringsAgree(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pieces: [[UInt8]] = ["a", "Zo", " ", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{7F}", "é", "€", "😀",
                                 "abcdefgh", "0123456789", "\u{202E}", "\u{200B}", "\u{FEFF}", "\u{85}", "\u{2028}", "\u{AD}", "\u{2027}"]
            .map { Array($0.utf8) } + [[0xC3], [0x80], [0xFF], [0xED, 0xA0, 0x80]]
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.below(12) { bytes += rng.chance(perMille: 200) ? [UInt8(rng.below(256))] : rng.pick(pieces) }
            // Any prefix length, so the eight-byte loads meet every alignment.
            let prefix = [UInt8](repeating: 0x41, count: rng.below(9))
            #expect(Self.fastJSON(bytes, after: prefix) == prefix + Self.plainJSON(bytes), "\(bytes)")
        }
    }

    @Test func everyByteAloneAndInEveryLane() {
        for value in 0...255 {
            let b = UInt8(value)
            for lane in 0..<8 {
                var bytes = [UInt8](repeating: 0x61, count: 8)
                bytes[lane] = b
                #expect(Self.fastJSON(bytes, after: []) == Self.plainJSON(bytes), "\(b) in lane \(lane)")
            }
        }
    }

    @Test func decimalsAgreeWithTheStandardLibrary() {
        // Every number of up to four digits (their own fast path), and edges.
        var values = Array(0..<10_500) + [Int.max, Int.max - 1, Int.min, Int.min + 1, -1, -10, -99, -100]
        var p = 1
        for _ in 0..<18 {
            p *= 10
            values += [p - 1, p, p + 1, -p]
        }
        var rng = SplitMix64(seed: 8)
        for _ in 0..<5_000 { values.append(Int(truncatingIfNeeded: rng.next()) >> rng.below(63)) }
        for v in values {
            var buffer = ByteBuffer(capacity: 1)
            buffer.append(0x7C)
            buffer.appendDecimal(v)
            #expect(buffer.bytes == [0x7C] + Array(String(v).utf8), "\(v)")
        }
    }

    /// The simple lane's JSON line, written in one reservation through a
    /// cursor, is the general writer's line for the same chip: numbers at
    /// every width and edge, with and without record numbers, strings of
    /// every short length (ASCII, UTF-8, bytes to escape, ill-formed
    /// UTF-8), no name, a group or not, a suggestion or not, any set of
    /// warnings.
    @Test func laneLinesAreTheGeneralWritersLines() {
        var rng = SplitMix64(seed: 31)
        let numbers = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 9_999_999, 10_000_000,
                       99_999_999, 100_000_000, 123_456_789_012, Int.max]
        let alphabet = Array("abcXYZ019 .-_<>@,;:()[]!#~".utf8).map { [$0] } + ["é", "中", "😀", "\u{2028}"].map { Array($0.utf8) }
        let needy: [[UInt8]] = [[0x22], [0x5C], [0x0A], [0x01], [0x7F]]
        // A string and whether it is well-formed UTF-8; now and then with
        // bytes to escape or a byte that is not UTF-8.
        func text(_ rng: inout SplitMix64, _ n: Int) -> ([UInt8], Bool) {
            var bytes = (0..<n).flatMap { _ in rng.pick(alphabet) }
            var wellFormed = true
            if n > 0 && rng.chance(perMille: 300) { bytes.insert(contentsOf: rng.pick(needy), at: rng.below(bytes.count)) }
            if n > 0 && rng.chance(perMille: 100) {
                bytes.insert(0xFF, at: rng.below(bytes.count))
                wellFormed = false
            }
            return (bytes, wellFormed)
        }
        func judged(_ b: UnsafeBufferPointer<UInt8>, _ wellFormed: Bool) -> JSONLine.Text {
            JSONLine.Text(bytes: b, plain: wellFormed ? JSON.isPlain(wellFormedUTF8: b) : JSON.isPlain(b))
        }
        let allWarnings = ChipWarnings.all.reduce(into: ChipWarnings()) { $0.formUnion($1.warning) }
        var escaped = 0
        for trial in 0..<6_000 {
            let (name, nameOK) = rng.chance(perMille: 200) ? ([], true) : text(&rng, rng.below(40))
            let (address, addressOK) = text(&rng, 1 + rng.below(70))
            let (raw, rawOK) = text(&rng, 1 + rng.below(120))
            let group = rng.chance(perMille: 300) ? text(&rng, rng.below(30)).0 : nil
            let suggestion = rng.chance(perMille: 200) ? String(decoding: text(&rng, 1 + rng.below(20)).0, as: UTF8.self) : nil
            let warnings = ChipWarnings(rawValue: UInt32(truncatingIfNeeded: rng.next()) & allWarnings.rawValue & (rng.chance(perMille: 500) ? 0 : ~0))
            // A chip is written with its number, index + 1, so an index stops short of Int.max.
            let record = min(rng.pick(numbers), Int.max - 2) + rng.below(3), index = trial < 300 ? trial : min(rng.pick(numbers), Int.max - 1)
            let start = rng.pick(numbers), end = rng.pick(numbers)
            let withNumbers = rng.chance(perMille: 700)
            let lean = ByteBuffer.Storage(capacity: 1), general = ByteBuffer.Storage(capacity: 1)
            let suggested = suggestion.map { Array($0.utf8) } ?? []
            name.withUnsafeBufferPointer { n in
                address.withUnsafeBufferPointer { a in
                    raw.withUnsafeBufferPointer { r in
                        (group ?? []).withUnsafeBufferPointer { g in
                            suggested.withUnsafeBufferPointer { s in
                                let texts = [judged(n, nameOK), judged(a, addressOK), judged(r, rawOK)]
                                if texts.contains(where: { !$0.plain }) { escaped += 1 }
                                JSONLine.write(
                                    record: withNumbers ? record : nil, index: index, name: texts[0], address: texts[1],
                                    group: group == nil ? nil : JSON.isPlain(g) ? .init(bytes: g, plain: true) : .init(bytes: g, plain: false),
                                    raw: texts[2], start: start, end: end, warnings: warnings,
                                    suggestion: suggestion == nil ? nil : judged(s, true), to: lean)
                            }
                        }
                        let fields = ChipRecordWriter.Fields(
                            record: record, index: index, isEmptyGroup: false, error: nil, errorAt: start, group: group,
                            raw: r, truncated: false, start: start, end: end, warnings: warnings, suggestion: suggestion)
                        ChipRecordWriter.writeJSON(fields, name: n, address: a, recordNumbers: withNumbers, to: general)
                    }
                }
            }
            let leanBytes = Array(UnsafeBufferPointer(start: lean.base, count: lean.count))
            let generalBytes = Array(UnsafeBufferPointer(start: general.base, count: general.count))
            #expect(lean.count <= lean.capacity)
            #expect(leanBytes == generalBytes, "\(String(decoding: leanBytes, as: UTF8.self))")
        }
        #expect(escaped > 1_000)
    }

    @Test func copiesOfEveryShortLength() {
        let source = (0..<100).map { UInt8($0) }
        for n in 0...100 {
            for offset in 0..<3 {
                var buffer = ByteBuffer(capacity: 1)
                for _ in 0..<offset { buffer.append(0xEE) }
                source.withUnsafeBufferPointer { buffer.append($0.baseAddress, count: n) }
                #expect(buffer.bytes == [UInt8](repeating: 0xEE, count: offset) + source[0..<n], "\(n) after \(offset)")
            }
        }
    }
}

private extension String {
    func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }

    /// A string is "plain" exactly when escaping leaves it as it is and it
    /// is ASCII; then copying it whole writes what escaping writes. Every
    /// byte value in every lane of strings of every short length.
    @Test func plainStringsAreThoseEscapingLeavesAlone() {
        var rng = SplitMix64(seed: 17)
        for length in 0..<40 {
            for _ in 0..<60 {
                var bytes = (0..<length).map { _ in UInt8(0x20 + rng.below(0x5F)) }
                if length > 0 && rng.below(2) == 0 { bytes[rng.below(length)] = UInt8(rng.below(256)) }
                let expected = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
                let plain = bytes.withUnsafeBufferPointer { JSON.isPlain($0) }
                #expect(plain == expected, "\(bytes)")
                if plain {
                    var copied = ByteBuffer(capacity: 8)
                    bytes.withUnsafeBufferPointer { ByteWritingTests.copyWhole($0, to: copied.uniqueStorage) }
                    #expect(copied.bytes == ByteWritingTests.plainJSON(bytes), "\(bytes)")
                }
            }
        }
    }
}

