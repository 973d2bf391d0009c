import Testing
import ChipKit
import ChipRecognition
import ChipSyntax
@testable import chipify_bench

/// Where each shape of list is read: how many of its records the
/// structural index takes (``SimpleList``) and how many of their chips the
/// simple lane recognizes (``ListRecognizer/handleSimple(_:_:offset:)``).
/// A shape the lane declines runs at the general path's speed, so a share
/// that falls is a regression in throughput, caught here without timing.
@Suite("Lane share by shape")
struct LaneShareTests {
    struct Share: CustomStringConvertible {
        var records = 0, indexed = 0, chips = 0, taken = 0
        var description: String { "records \(indexed)/\(records), chips \(taken)/\(chips)" }
    }

    static func share(_ shape: CorpusShape?, seed: UInt64 = 11, size: Int = 60_000) -> Share {
        var g = CorpusGenerator(seed: seed, shape: shape)
        var bytes: [UInt8] = []
        g.generate(byteCount: size) { bytes.append(contentsOf: $0) }
        var s = Share()
        var list = ListRecognizer(policy: .standard)
        var found: [SimpleList.Chip] = []
        for line in bytes.split(separator: 0x0A) {
            let record = Array(line)
            s.records += 1
            record.withUnsafeBufferPointer { p in
                found.removeAll(keepingCapacity: true)
                guard SimpleList.appendChips(p, to: &found) else { return }
                s.indexed += 1
                list.reset()
                for c in found where c.kind == .chip {
                    s.chips += 1
                    if list.handleSimple(c, p, offset: 0) != nil {
                        s.taken += 1
                    } else {
                        _ = list.handle(c.segment, p, base: 0)
                    }
                }
            }
        }
        return s
    }

    /// The least share of records indexed and of their chips taken, in
    /// percent, for each shape: each raised as the lane learns a form.
    static let floors: [CorpusShape: (records: Int, chips: Int)] = [
        .plain: (100, 100), .utf8Names: (100, 100), .quoted: (100, 100), .comments: (100, 100),
        .idn: (100, 100), .punycode: (100, 100), .encoded: (100, 100), .groups: (100, 100), .outlook: (100, 100),
    ]

    @Test(arguments: CorpusShape.allCases)
    func eachShapeTakesTheLane(_ shape: CorpusShape) throws {
        let s = Self.share(shape)
        let floor = try #require(Self.floors[shape])
        print("lane share, \(shape): \(s)")
        #expect(s.indexed * 100 >= s.records * floor.records, "\(shape): \(s)")
        #expect(s.taken * 100 >= s.chips * floor.chips, "\(shape): \(s)")
    }
}

/// `chipify-bench shapes-chart` reads the table `run_shapes.sh` prints and
/// draws a group of bars for each shape.
@Suite("Shapes chart")
struct ShapesChartTests {
    static let table = """
        | shape | --summary MB/s | × GMime | JSON Lines MB/s | × GMime | all cores ÷ one | floor MB/s | × Go net/mail |
        |---|--:|--:|--:|--:|--:|--:|--:|
        | plain | 290.7 | 6.65× | 130.6 | 2.99× | 1.65× | 4708 | 5.13× |
        | idn | 160.2 | 3.40× | 90.1 | 1.91× | 1.60× | 4800 | 2.61× |
        """

    /// A table with JSON Lines to /dev/null: three bars a shape.
    @Test func readsTheColumnOfJSONLinesThrownAway() {
        let table = """
            | shape | --summary MB/s | × GMime | JSON Lines MB/s | × GMime | JSON Lines to /dev/null, × GMime | all cores ÷ one | floor MB/s | × Go net/mail |
            |---|--:|--:|--:|--:|--:|--:|--:|--:|
            | idn | 230.2 | 4.91× | 110.1 | 2.38× | 3.17× | 1.60× | 4800 | 3.61× |
            """
        let rows = ShapesTable.rows(table)
        #expect(rows == [ShapesTable.Row(shape: "idn", summaryTimesGMime: 4.91, jsonlTimesGMime: 2.38, jsonlToNullTimesGMime: 3.17)])
        let svg = ShapesTable.chart(rows)
        for text in ["3.2 ×", "2.4 ×", "4.9 ×", "to /dev/null"] { #expect(svg.contains(text), "\(text)") }
        #expect(!ShapesTable.chart(ShapesTable.rows(Self.table)).contains("/dev/null"))
    }

    @Test func readsEveryShapeAndDrawsItsBars() {
        let rows = ShapesTable.rows(Self.table)
        #expect(rows == [
            ShapesTable.Row(shape: "plain", summaryTimesGMime: 6.65, jsonlTimesGMime: 2.99),
            ShapesTable.Row(shape: "idn", summaryTimesGMime: 3.40, jsonlTimesGMime: 1.91),
        ])
        let svg = ShapesTable.chart(rows)
        #expect(svg.hasPrefix("<svg"))
        for text in ["plain", "idn", "6.7 ×", "1.9 ×", "--summary"] { #expect(svg.contains(text), "\(text)") }
    }
}
