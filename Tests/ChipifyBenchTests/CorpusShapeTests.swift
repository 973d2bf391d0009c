import Testing
import ChipKit
@testable import chipify_bench

/// A corpus of one shape (`chipify-bench corpus --shape`) holds that shape
/// alone, every chip of it, valid; the same seed gives the same bytes.
@Suite("Corpus shapes")
struct CorpusShapeTests {
    static func corpus(_ shape: CorpusShape, seed: UInt64 = 3, size: Int = 40_000) -> [UInt8] {
        var g = CorpusGenerator(seed: seed, shape: shape)
        var out: [UInt8] = []
        g.generate(byteCount: size) { out.append(contentsOf: $0) }
        return out
    }

    /// What every chip of a shape's corpus must show.
    static func holds(_ shape: CorpusShape, _ chip: ParsedChip) -> Bool {
        let raw = chip.rawText
        switch shape {
        case .plain: return chip.isValid && raw.utf8.allSatisfy { $0 < 0x80 } && !raw.contains("\"") && !raw.contains("(")
        case .utf8Names: return chip.isValid && (chip.displayName?.utf8.contains { $0 >= 0x80 } ?? false)
        case .quoted: return chip.isValid && raw.hasPrefix("\"")
        case .comments: return chip.isValid && raw.contains("(")
        case .idn: return chip.isValid && (chip.address?.utf8.contains { $0 >= 0x80 } ?? false)
        case .punycode: return chip.isValid && (chip.domain?.contains("xn--") ?? false)
        // Encoded words in quotes stay as written (RFC 2047 §5); the others are decoded.
        case .encoded: return chip.isValid && raw.contains("=?") && (raw.hasPrefix("\"") || !(chip.displayName?.contains("=?") ?? true))
        case .groups: return chip.group != nil || chip.isEmptyGroup
        case .outlook: return chip.isValid && (chip.displayName?.contains(", ") ?? false)
        }
    }

    @Test(arguments: CorpusShape.allCases)
    func aShapesCorpusHoldsThatShapeAlone(_ shape: CorpusShape) {
        let bytes = Self.corpus(shape)
        var chips = 0
        for line in bytes.split(separator: 0x0A) {
            for chip in AddressList.parse(Array(line)) {
                chips += 1
                #expect(Self.holds(shape, chip), "\(shape): \(chip.rawText.debugDescription)")
            }
        }
        #expect(chips > 200, "\(shape): \(chips) chips")
        #expect(Self.corpus(shape) == bytes, "\(shape): the same seed, other bytes")
        #expect(Self.corpus(shape, seed: 4) != bytes)
    }
}
