import Testing
@testable import ChipifyCLI

@Suite("compose: key decoding")
struct ComposeKeyDecoderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var keys: [ComposeKey]
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ keys: [ComposeKey]) {
            self.name = name
            bytes = Array(text.utf8)
            self.keys = keys
        }

        init(_ name: String, bytes: [UInt8], _ keys: [ComposeKey]) {
            self.name = name
            self.bytes = bytes
            self.keys = keys
        }
    }

    static let cases: [Case] = [
        Case("arrows", "\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [.up([]), .down([]), .right([]), .left([])]),
        Case("application-mode arrows", "\u{1B}OA\u{1B}OD", [.up([]), .left([])]),
        Case("shift arrows", "\u{1B}[1;2D\u{1B}[1;2C", [.left(.shift), .right(.shift)]),
        Case("alt arrows, xterm form", "\u{1B}[1;3D\u{1B}[1;3C", [.left(.alt), .right(.alt)]),
        Case("alt arrows, escape-prefix form", "\u{1B}\u{1B}[D\u{1B}\u{1B}[C", [.left(.alt), .right(.alt)]),
        Case("control and shift-alt arrows", "\u{1B}[1;5C\u{1B}[1;4A", [.right(.control), .up([.shift, .alt])]),
        Case("home, end, delete", "\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~", [.home, .end, .home, .end, .delete]),
        Case("shift-tab", "\u{1B}[Z", [.backTab]),
        Case("return, tab, backspace", "\r\n\t\u{7F}\u{08}", [.enter, .enter, .tab, .backspace, .backspace]),
        Case("control letters", "\u{13}\u{03}\u{1A}\u{19}\u{05}\u{0E}", [
            .control(UInt8(ascii: "s")), .control(UInt8(ascii: "c")), .control(UInt8(ascii: "z")),
            .control(UInt8(ascii: "y")), .control(UInt8(ascii: "e")), .control(UInt8(ascii: "n")),
        ]),
        Case("typed text comes as one key", "ann@x.org, ", [.text(Array("ann@x.org, ".utf8))]),
        Case("UTF-8 names", "Jiří 李 🙂", [.text(Array("Jiří 李 🙂".utf8))]),
        Case("alt with a letter", "\u{1B}b", [.alt(UInt8(ascii: "b"))]),
        Case("escape then escape", bytes: [0x1B, 0x1B, 0x61], [.escape, .alt(UInt8(ascii: "a"))]),
        Case("bracketed paste keeps every byte", "\u{1B}[200~Ann <a@x.org>,\n\u{1B}[Abob@y\u{1B}[201~x", [
            .paste(Array("Ann <a@x.org>,\n\u{1B}[Abob@y".utf8)), .text([UInt8(ascii: "x")]),
        ]),
        Case("invalid UTF-8 is text, not dropped", bytes: [0x61, 0xFF, 0x62], [.text([0x61, 0xFF, 0x62])]),
        Case("unknown sequences are not typed", "\u{1B}[15~a", [.unknown(Array("\u{1B}[15~".utf8)), .text([0x61])]),
    ]

    @Test(arguments: cases)
    func wholeInput(_ c: Case) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(c.bytes) + decoder.flush() == c.keys)
    }

    /// Bytes split anywhere give the same keys (but for the coalescing of
    /// text, which splitting may cut into several text keys).
    @Test(arguments: cases)
    func byteByByte(_ c: Case) {
        var decoder = KeyDecoder()
        var keys: [ComposeKey] = []
        for b in c.bytes { keys += decoder.feed([b]) }
        keys += decoder.flush()
        #expect(Self.joiningText(keys) == Self.joiningText(c.keys))
    }

    static func joiningText(_ keys: [ComposeKey]) -> [ComposeKey] {
        var out: [ComposeKey] = []
        for k in keys {
            if case .text(let b) = k, case .text(let a)? = out.last { out[out.count - 1] = .text(a + b) } else { out.append(k) }
        }
        return out
    }

    @Test func loneEscapeWaitsForFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
    }

    @Test func escapeFollowedBySequenceInNextReadIsTheSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed(Array("[1;2D".utf8)) == [.left(.shift)])
    }

    @Test func partialUTF8WaitsThenCompletes() {
        var decoder = KeyDecoder()
        let bytes = Array("ř".utf8)
        #expect(decoder.feed([bytes[0]]).isEmpty)
        #expect(decoder.feed([bytes[1]]) == [.text(bytes)])
    }

    @Test func unfinishedPasteStaysOpenOverFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~a, b".utf8)).isEmpty)
        #expect(decoder.flush().isEmpty)
        #expect(decoder.feed(Array("\u{1B}[201~".utf8)) == [.paste(Array("a, b".utf8))])
    }
}
