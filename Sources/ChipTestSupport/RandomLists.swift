import ChipSyntax

/// Scans `bytes` fed in the given chunk sizes (cycled) and returns the segments.
public func segments(of bytes: [UInt8], chunks: [Int] = []) -> [Segment] {
    var scanner = ListScanner()
    var out: [Segment] = []
    if chunks.isEmpty {
        scanner.scan(bytes) { out.append($0) }
    } else {
        var i = 0, k = 0
        while i < bytes.count {
            let n = min(max(chunks[k % chunks.count], 1), bytes.count - i)
            // The bytes so far are held, as an editor or a reader keeps them.
            bytes.withUnsafeBufferPointer { p in
                scanner.scan(held: UnsafeBufferPointer(rebasing: p[..<(i + n)]), base: 0) { out.append($0) }
            }
            i += n
            k += 1
        }
    }
    scanner.finish(bytes, base: 0) { out.append($0) }
    return out
}

/// Fragments that exercise every state of the scanner when glued at random.
public let fragments: [String] = [
    "ann@example.com", "Ann Lee", " <", ">", "<bob@example.org>", "\"", "\"Lee, Ann\"", "\\",
    "(", ")", "(comment)", "[", "]", "[192.0.2.1]", ",", ";", ":", "Team:", " ", "  ", "\t",
    "\n", "\r\n", "\r\n ", "\n\t", "@", ".", "x", "é", "😀", "=?UTF-8?Q?Andr=C3=A9?=", "mailto:",
    "\u{0}", "\u{7}", "\u{7F}", "\u{FEFF}", "\u{200B}", "\u{202E}", "\u{85}", "undisclosed-recipients:;", "a@b.c d@e.f", "Bob <b@y.org> Carol <c@z.org>",
]

public func randomList(_ rng: inout SplitMix64, pieces: Int) -> [UInt8] {
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
