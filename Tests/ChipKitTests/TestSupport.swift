@testable import ChipKit

/// A seeded generator (SplitMix64), so a failing randomized case can be
/// replayed from the seed printed with it.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Scans `bytes` fed in the given chunk sizes (cycled) and returns the segments.
func segments(of bytes: [UInt8], chunks: [Int] = []) -> [Segment] {
    var scanner = ListScanner()
    var out: [Segment] = []
    if chunks.isEmpty {
        scanner.scan(bytes) { out.append($0) }
    } else {
        var i = 0, k = 0
        while i < bytes.count {
            let n = min(max(chunks[k % chunks.count], 1), bytes.count - i)
            scanner.scan(bytes[i..<(i + n)]) { out.append($0) }
            i += n
            k += 1
        }
    }
    scanner.finish { out.append($0) }
    return out
}

/// Fragments that exercise every state of the scanner when glued at random.
let fragments: [String] = [
    "ann@example.com", "Ann Lee", " <", ">", "<bob@example.org>", "\"", "\"Lee, Ann\"", "\\",
    "(", ")", "(comment)", "[", "]", "[192.0.2.1]", ",", ";", ":", "Team:", " ", "  ", "\t",
    "\n", "\r\n", "\r\n ", "\n\t", "@", ".", "x", "é", "😀", "=?UTF-8?Q?Andr=C3=A9?=", "mailto:",
    "\u{0}", "\u{7}", "\u{7F}", "undisclosed-recipients:;", "a@b.c d@e.f", "Bob <b@y.org> Carol <c@z.org>",
]

func randomList(_ rng: inout SplitMix64, pieces: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<pieces {
        if rng.below(40) == 0 {
            bytes.append(UInt8(truncatingIfNeeded: rng.next()))  // any byte, invalid UTF-8 included
        } else {
            bytes.append(contentsOf: fragments[rng.below(fragments.count)].utf8)
        }
    }
    return bytes
}
