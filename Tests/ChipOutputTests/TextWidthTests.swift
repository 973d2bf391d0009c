import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
@testable import ChipOutput
import ChipTestSupport

/// Terminal columns of text across scripts and emoji, and truncation that
/// never splits a grapheme cluster. Cluster boundaries are the standard
/// library's `Character`s (the code does not segment text itself), so
/// the tables check the clusters that measuring and cutting get wrong
/// most often rather than replaying GraphemeBreakTest.txt.
@Suite("Text width and truncation")
struct TextWidthTests {
    static let emojiTest = "/usr/share/unicode/emoji/emoji-test.txt"

    @Test(arguments: [
        ("", 0), ("Ann Lee", 7), ("a\tb\n", 2),
        ("日本語", 6), ("한국어", 6), ("ｱｲｳ", 3), ("ＡＢ", 4), ("中a", 3),
        ("e\u{301}", 1), ("é", 1), ("Zoë", 3), ("a\u{20DD}", 1),
        ("\u{1100}\u{1161}\u{11A8}", 2),          // conjoining jamo: one syllable
        ("नमस्ते", 4), ("สวัสดี", 4), ("سارا", 4), ("שָׁלוֹם", 4), ("Ελένη", 5), ("Анна", 4),
        ("\u{200B}\u{200D}\u{2060}\u{FEFF}", 0),  // zero-width characters
        ("\u{2068}سارا\u{2069}", 4),              // isolates take no column
        ("👍", 2), ("👍🏽", 2), ("👩‍💻", 2), ("👨‍👩‍👧‍👦", 2), ("🏳️‍🌈", 2), ("👁️‍🗨️", 2),
        ("🇫🇷", 2), ("🇫🇷🇩🇪", 4), ("🇫", 2), ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", 2),
        ("❤", 1), ("❤️", 2), ("1️⃣", 2), ("#️⃣", 2), ("a\u{FE0F}", 1), ("☺︎", 1),
        ("Ann 👍🏽 Lee", 10), ("✌🏽", 2), ("±§", 2),
    ])
    func terminalColumns(_ text: String, _ columns: Int) {
        #expect(TerminalWidth().width(of: text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test(arguments: [("±", 2), ("§a", 3), ("Ann", 3), ("日", 2), ("\u{F0000}", 2)])
    func ambiguousCharactersAreWideWhenAsked(_ text: String, _ columns: Int) {
        #expect(TerminalWidth(ambiguousIsWide: true).width(of: text) == columns)
    }

    /// Every fully-qualified emoji of the emoji test file is two columns.
    @Test(.enabled(if: readFile(TextWidthTests.emojiTest) != nil,
                   "\(TextWidthTests.emojiTest) is missing: Debian's unicode-data is not installed (.ci/run installs it)"))
    func everyEmojiIsTwoColumns() throws {
        let bytes = try #require(readFile(TextWidthTests.emojiTest))
        var checked = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard !line.hasPrefix("#"), line.contains("; fully-qualified") else { continue }
            let codes = line.prefix { $0 != ";" }.split(separator: " ")
            let scalars = codes.compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            #expect(TerminalWidth().width(of: text) == 2, "\(line)")
            checked += 1
        }
        #expect(checked > 3000)
    }

    @Test func theTablesAreFromTheDataTheyName() {
        #expect(WidthTables.unicodeVersion == "15.0.0")
        #expect(TerminalWidth().width(of: Unicode.Scalar(0x1F600)!) == 2)
        #expect(TerminalWidth().width(of: Unicode.Scalar(0x0301)!) == 0)
    }

    @Test(arguments: [
        ("Ann Lee", 10, "Ann Lee"), ("Ann Lee", 7, "Ann Lee"), ("Ann Lee", 6, "Ann L…"),
        ("Ann Lee", 4, "Ann…"), ("Ann Lee", 5, "Ann…"),   // no space before the ellipsis
        ("Ann Lee", 1, "…"), ("Ann Lee", 0, ""),            // a budget smaller than "…"
        ("日本語テキスト", 5, "日本…"), ("日本語テキスト", 6, "日本…"), ("日本語テキスト", 2, "…"),
        ("e\u{301}e\u{301}e\u{301}e\u{301}", 3, "e\u{301}e\u{301}…"),
        ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 4, "👨‍👩‍👧‍👦…"), ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 2, "…"),
        ("🇫🇷🇩🇪🇮🇹", 4, "🇫🇷…"), ("🇫🇷🇩🇪🇮🇹", 5, "🇫🇷🇩🇪…"), ("👍🏽👍🏽👍🏽", 4, "👍🏽…"),
        ("\u{1100}\u{1161}\u{11A8}\u{1100}\u{1161}\u{11A8}", 3, "\u{1100}\u{1161}\u{11A8}…"),
        ("नमस्ते दुनिया", 5, "नमस्ते…"),
    ])
    func truncationEndsInAnEllipsisAtAClusterBoundary(_ text: String, _ budget: Int, _ expected: String) {
        let cut = ChipText.truncate(text, toWidth: budget)
        #expect(cut == expected)
        #expect(TerminalWidth().width(of: cut) <= budget)
        // Whole clusters only: what is kept is a prefix of the text's Characters.
        let kept = cut.hasSuffix("…") && !text.hasSuffix("…") ? String(cut.dropLast()) : cut
        #expect(Array(text).starts(with: Array(kept)))
    }

    /// A measure that is not additive (a kerned pair) still gets a result
    /// that fits, one cluster shorter.
    @Test func aKernedMeasureStillFits() {
        let kerned = WidthMeasure { text in
            var w = 0
            var previous: Character?
            for c in text {
                w += 10
                if previous == "A" && c == "V" { w += 3 }  // wider together than apart
                previous = c
            }
            return w
        }
        let cut = ChipText.truncate("AVAVAV", toWidth: 40, measure: kerned)
        #expect(kerned.width(of: cut) <= 40)
        #expect(cut == "AV…" || cut == "AVA…")
        #expect(cut == "AV…")
    }

    @Test(arguments: [
        ("Vegetarian", 12, ["Vegetarian"]),
        ("Gluten free options", 12, ["Gluten free", "options"]),
        ("Gluten free options only please", 12, ["Gluten free", "options onl…"]),
        ("Supercalifragilistic", 8, ["Supercal", "ifragil…"]),
        ("日本語のテキストです", 8, ["日本語の", "テキス…"]),
        ("a  b", 1, ["a", "b"]),
    ])
    func choiceChipsWrapToTwoLines(_ text: String, _ width: Int, _ expected: [String]) {
        let lines = ChipText.wrap(text, lineWidth: width)
        #expect(lines == expected)
        #expect(lines.allSatisfy { TerminalWidth().width(of: $0) <= width })
    }

    @Test func oneLineWrapIsTruncation() {
        #expect(ChipText.wrap("Gluten free options", lineWidth: 12, maxLines: 1) == ["Gluten free…"])
    }
}
