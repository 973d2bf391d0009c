import Testing
@testable import ChipSyntax
import ChipTestSupport

@Suite("List scanner")
struct ScannerTests {
    /// Every byte that is not in a segment is white space or a separator.
    @Test(arguments: 0..<200)
    func everyByteOutsideSegmentsIsASeparator(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let bytes = randomList(&rng, pieces: 1 + rng.below(40))
        let segs = segments(of: bytes)
        var covered = [Bool](repeating: false, count: bytes.count)
        var previousEnd = 0
        var previous: Segment?
        for s in segs {
            #expect(s.byteRange.lowerBound >= previousEnd, "seed \(seed): segments overlap or go back")
            // Comments a group holds as its own are in no chip: the whole
            // content of a group with no member, and what follows its `;`
            // before the next separator (RFC 5322 §3.4).
            if previous?.kind == .groupOpen && s.kind == .groupClose
                || previous?.kind == .groupClose && previous?.byteRange.isEmpty == false {
                let gap = previousEnd..<s.byteRange.lowerBound
                for i in gap.lowerBound..<endOfGroupComments(bytes, gap) { covered[i] = true }
            }
            previous = s
            previousEnd = max(previousEnd, s.byteRange.upperBound)
            for i in s.byteRange { covered[i] = true }
            if s.kind == .chip {
                #expect(!s.byteRange.isEmpty)
                // (A chip may end in white space only inside an unterminated
                // quote, comment or literal, where it is text.)
                let first = bytes[s.byteRange.lowerBound]
                #expect(first != 0x20 && first != 0x09 && first != 0x0A && first != 0x0D, "seed \(seed)")
            }
        }
        if previous?.kind == .groupClose && previous?.byteRange.isEmpty == false {
            for i in previousEnd..<endOfGroupComments(bytes, previousEnd..<bytes.count) { covered[i] = true }
        }
        let separators: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: ";")]
        var i = 0
        while i < bytes.count {
            // A byte order mark between chips is white space.
            if !covered[i] && i + 2 < bytes.count && bytes[i...(i + 2)].elementsEqual([0xEF, 0xBB, 0xBF])
                && !covered[i + 1] && !covered[i + 2] {
                i += 3
                continue
            }
            if !covered[i] { #expect(separators.contains(bytes[i]), "seed \(seed): byte \(bytes[i]) at \(i) lost") }
            i += 1
        }
    }

    /// The whole input, byte by byte, and random chunks give the same segments.
    @Test(arguments: 0..<200)
    func chunkingDoesNotChangeSegments(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1_000)
        let bytes = randomList(&rng, pieces: 1 + rng.below(60))
        let whole = segments(of: bytes)
        #expect(segments(of: bytes, chunks: [1]) == whole, "seed \(seed): byte by byte differs")
        let sizes = (0..<8).map { _ in 1 + rng.below(17) }
        #expect(segments(of: bytes, chunks: sizes) == whole, "seed \(seed): chunks \(sizes) differ")
    }

    @Test func stateIsASmallValue() {
        // The resumable state must stay small enough to keep per keystroke.
        #expect(MemoryLayout<ListScanner>.size <= 128)
    }

    @Test func retainOffsetCoversTheOpenChip() {
        var scanner = ListScanner()
        var out: [Segment] = []
        scanner.scan(Array("a@x.org, \"Lee, A".utf8)) { out.append($0) }
        #expect(out == [Segment(.chip, 0..<7)])
        #expect(scanner.openChipStart == 9)
        #expect(scanner.retainOffset == 9)
        #expect(scanner.isNested)
        scanner.scan(Array("nn\" <a@y.org>".utf8)) { out.append($0) }
        scanner.finish { out.append($0) }
        #expect(out.last == Segment(.chip, 9..<29))
        #expect(scanner.offset == 29)
    }
}
