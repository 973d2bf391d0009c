// A libFuzzer target for the scanner, recognizer, renderer and field.
// Built together with ChipKit's sources by Fuzz/run.sh; a broken invariant
// traps, and libFuzzer keeps the input that did it.

#if !CHIPIFY_FUZZ
@testable import ChipKit
#endif

#if CHIPIFY_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let problems = invariantViolations(Array(UnsafeBufferPointer(start: data, count: size)))
    if let first = problems.first { fatalError(first) }
    return 0
}
#endif

/// The invariants every input must keep, as a list of what broke (empty
/// when all hold). Shared by the fuzz target and the regression test.
func invariantViolations(_ bytes: [UInt8]) -> [String] {
    var problems: [String] = []
    func precondition(_ ok: Bool, _ message: String) {
        if !ok && !problems.contains(message) { problems.append(message) }
    }
    // 1. Chunking does not change the segments.
    var whole: [Segment] = []
    var scanner = ListScanner()
    scanner.scan(bytes) { whole.append($0) }
    scanner.finish { whole.append($0) }
    var chunked: [Segment] = []
    var s2 = ListScanner()
    var i = 0
    var step = 1
    while i < bytes.count {
        let n = min(step, bytes.count - i)
        s2.scan(bytes[i..<(i + n)]) { chunked.append($0) }
        i += n
        step = step % 7 + 1
    }
    s2.finish { chunked.append($0) }
    precondition(whole == chunked, "chunking changed the segments")

    // 2. Every byte outside segments is a separator.
    var covered = [Bool](repeating: false, count: bytes.count)
    for seg in whole { for k in seg.byteRange { covered[k] = true } }
    for (k, b) in bytes.enumerated() where !covered[k] {
        precondition(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x2C || b == 0x3B, "a byte was lost")
    }

    // 3. Parsing, under every policy, keeps each chip's exact bytes.
    for policy in [ValidationPolicy.strict, .standard, .lenient] {
        let chips = AddressList.parse(bytes, policy: policy)
        for c in chips {
            precondition(Array(bytes[c.byteRange]) == c.raw || c.kind == .emptyGroup, "raw differs")
            if let name = c.displayName {
                precondition(!name.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "control in a name")
            }
        }
        // 4. Rendering never lets a line break or control through, and what
        //    it renders parses back to the same addresses.
        for smtpUTF8 in [false, true] {
            let value = HeaderRenderer.render(chips, options: HeaderOptions(smtpUTF8: smtpUTF8))
            let out = Array(value.text.utf8)
            for (k, b) in out.enumerated() {
                if b == 0x0D {
                    precondition(k + 2 < out.count && out[k + 1] == 0x0A && out[k + 2] == 0x20, "bare CR")
                } else if b == 0x0A {
                    precondition(k > 0 && out[k - 1] == 0x0D, "bare LF")
                } else {
                    precondition(b >= 0x20 && b != 0x7F, "control byte in a header")
                }
            }
            var unfolded: [UInt8] = []
            var k = 0
            while k < out.count {
                if out[k] == 0x0D && k + 2 < out.count && out[k + 1] == 0x0A { k += 2; continue }
                unfolded.append(out[k])
                k += 1
            }
            let reparsed = AddressList.parse(unfolded, policy: .lenient)
            let kept = chips.enumerated().filter { !value.omitted.contains($0.offset) }.map(\.element)
            precondition(reparsed.count == kept.count, "rendered chips do not parse back one for one")
        }
    }

    // 5. Typing the bytes into a field, in pieces, gives the parsed chips.
    var field = ChipField(name: "to", limits: FieldLimits(maxChips: 1_000_000, maxPendingBytes: 1 << 20))
    var j = 0
    var piece = 1
    while j < bytes.count {
        let n = min(piece, bytes.count - j)
        field.insert(Array(bytes[j..<(j + n)]))
        j += n
        piece = piece % 5 + 1
    }
    field.commit()
    let typed = field.chips.map { $0.content.raw }
    let parsed = AddressList.parse(bytes).map(\.raw)
    precondition(typed == parsed, "typing differs from parsing")
    return problems
}
