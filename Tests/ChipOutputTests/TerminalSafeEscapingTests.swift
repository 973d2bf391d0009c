import Testing
@testable import ChipOutput
import ChipTestSupport

/// Text and TSV output, and the filter's reports on standard error, are read
/// in terminals: no byte that a terminal acts on passes unescaped. C0
/// controls and DEL are escaped, and so are the C1 controls (a terminal may
/// read U+009B as CSI) and the line and paragraph separators, each byte as
/// `\xhh` so a reader gets the bytes back.
@Suite("Escaping for terminals")
struct TerminalSafeEscapingTests {
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ByteBuffer(capacity: 8)
        Escaper.appendEscaped(bytes, to: out.uniqueStorage)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("a\u{85}b", "a\\xc2\\x85b"), ("a\u{9B}31m", "a\\xc2\\x9b31m"), ("x\u{2028}y", "x\\xe2\\x80\\xa8y"),
        ("x\u{2029}y", "x\\xe2\\x80\\xa9y"), ("\u{1B}[2J", "\\x1b[2J"), ("é\u{A0}ü", "é\u{A0}ü"),
        ("\u{2027}\u{202A}", "\u{2027}\u{202A}"),
    ])
    func controlsAndSeparatorsAreEscaped(_ input: String, _ expected: String) {
        #expect(Self.escaped(Array(input.utf8)) == expected)
    }

    /// Seeded: whatever the scalars, the escaped text holds no C0, DEL, C1,
    /// U+2028 or U+2029, and other scalars pass unchanged.
    @Test func noTerminalControlSurvives() {
        var rng = SplitMix64(seed: 32)
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0xFF, 0x2000...0x206F, 0x300...0x3FF]
        for _ in 0..<2_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 12) {
                let r = ranges[Int(rng.next() % UInt64(ranges.count))]
                let v = r.lowerBound + UInt32(rng.next() % UInt64(r.count))
                if let u = Unicode.Scalar(v) { s.unicodeScalars.append(u) }
            }
            let out = Self.escaped(Array(s.utf8))
            let bad = out.unicodeScalars.first {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
            }
            #expect(bad == nil, "seed 32: \(s.debugDescription) → \(out.debugDescription)")
        }
    }
}
