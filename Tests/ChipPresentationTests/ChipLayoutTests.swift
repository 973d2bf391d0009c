import Testing
import ChipSyntax
import ChipRecognition
import ChipOutput
import ChipEditing
import ChipGroups
@testable import ChipPresentation
import ChipTestSupport

/// Chips in wrapped rows and in one row with a count, and incremental
/// layout that equals layout from scratch and reports exactly the rows
/// that differ.
@Suite("Chip layout")
struct ChipLayoutTests {
    static func rows(_ layout: ChipFlowLayout) -> [[Int]] {
        (0..<layout.rowCount).map { Array(layout.chips(inRow: $0)) }
    }

    @Test(arguments: [
        ([], 10, [[Int]]()),
        ([3, 3, 3], 11, [[0, 1, 2]]),           // 3 + 1 + 3 + 1 + 3 = 11: fits exactly
        ([3, 3, 3], 10, [[0, 1], [2]]),
        ([3, 3, 3], 12, [[0, 1, 2]]),
        ([12, 2, 2], 10, [[0], [1, 2]]),        // too wide: a row of its own
        ([2, 12, 2], 10, [[0], [1], [2]]),
        ([5, 5, 5, 5], 10, [[0], [1], [2], [3]]),
    ] as [([Int], Int, [[Int]])])
    func chipsWrapIntoRows(_ widths: [Int], _ lineWidth: Int, _ expected: [[Int]]) {
        let layout = ChipFlowLayout(widths: widths, spacing: 1, lineWidth: lineWidth)
        #expect(Self.rows(layout) == expected)
    }

    @Test func offsetsAreFromTheRowsLeadingEdge() {
        let layout = ChipFlowLayout(widths: [3, 4, 2, 6], spacing: 2, lineWidth: 13)
        #expect(Self.rows(layout) == [[0, 1, 2], [3]])
        #expect(layout.xs == [0, 5, 11, 0])
        #expect(layout.row(ofChip: 2) == 0 && layout.row(ofChip: 3) == 1)
    }

    @Test(arguments: [
        // widths, line width, visible, overflow, xs, +N at
        ([5, 5, 5, 5], 20, 2, 2, [0, 6], 12),
        ([5, 5, 5], 17, 3, 0, [0, 6, 12], nil),
        ([30, 5], 20, 0, 2, [], 0),               // not even the first fits beside +2
        ([30], 20, 1, 0, [0], nil),               // a lone chip is shown, never "+1"
        ([], 20, 0, 0, [], nil),
    ] as [([Int], Int, Int, Int, [Int], Int?)])
    func oneRowWithAnOverflowCount(
        _ widths: [Int], _ lineWidth: Int, _ visible: Int, _ overflow: Int, _ xs: [Int], _ overflowX: Int?
    ) {
        let layout = SingleLineLayout(widths: widths, spacing: 1, lineWidth: lineWidth) { n in
            TerminalWidth().width(of: FieldSummary.moreChipText(count: n)) + 2
        }
        #expect(layout.visibleCount == visible)
        #expect(layout.overflowCount == overflow)
        #expect(layout.xs == xs)
        #expect(layout.overflowX == overflowX)
    }

    @Test func anInsertionInARowChangesOnlyTheRowsUntilTheyLineUp() {
        var layout = ChipFlowLayout(widths: [4, 4, 4, 4, 4, 4, 4, 4], spacing: 1, lineWidth: 13)
        #expect(Self.rows(layout) == [[0, 1], [2, 3], [4, 5], [6, 7]])
        let change = layout.insert(width: 4, at: 3)
        #expect(Self.rows(layout) == [[0, 1], [2, 3], [4, 5], [6, 7], [8]])
        #expect(change == ChipLayoutChange(oldRows: 1..<4, newRows: 1..<5))
        // A chip as wide as a row lines up at once.
        var wide = ChipFlowLayout(widths: [4, 4, 4, 4, 4, 4], spacing: 1, lineWidth: 9)
        let c2 = wide.insert(width: 9, at: 2)
        #expect(Self.rows(wide) == [[0, 1], [2], [3, 4], [5, 6]])
        #expect(c2 == ChipLayoutChange(oldRows: 1..<1, newRows: 1..<2))
        #expect(c2.rowShift == 1)
    }

    @Test func aRowBeforeTheEditThatStaysIsNotReported() {
        var layout = ChipFlowLayout(widths: [4, 4, 4, 4], spacing: 1, lineWidth: 9)
        let change = layout.insert(width: 9, at: 2)   // at the start of row 1; row 0 cannot take it
        #expect(Self.rows(layout) == [[0, 1], [2], [3, 4]])
        #expect(change == ChipLayoutChange(oldRows: 1..<1, newRows: 1..<2))
        let removal = layout.remove(at: 2)
        #expect(Self.rows(layout) == [[0, 1], [2, 3]])
        #expect(removal == ChipLayoutChange(oldRows: 1..<2, newRows: 1..<1))
    }

    /// One random insertion, removal or replacement at a time into random
    /// lists: the result equals layout from scratch, and the reported rows
    /// are exactly those that differ, by chip identity and offset.
    @Test(arguments: [UInt64(1), 2, 3, 0xC0FFEE])
    func incrementalLayoutEqualsLayoutFromScratch(_ seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for round in 0..<300 {
            let n = random.below(60)
            let lineWidth = 10 + random.below(40)
            let spacing = random.below(3)
            var widths = (0..<n).map { _ in 1 + random.below(lineWidth + 4) }
            var ids = Array(0..<n)
            var nextID = n
            var layout = ChipFlowLayout(widths: widths, spacing: spacing, lineWidth: lineWidth)
            for step in 0..<8 {
                let before = layout
                let beforeIDs = ids
                let change: ChipLayoutChange
                let kind = widths.isEmpty ? 0 : random.below(3)
                if kind == 0 {
                    let at = random.below(widths.count + 1)
                    let w = 1 + random.below(lineWidth + 4)
                    widths.insert(w, at: at)
                    ids.insert(nextID, at: at)
                    nextID += 1
                    change = layout.insert(width: w, at: at)
                } else if kind == 1 {
                    let at = random.below(widths.count)
                    widths.remove(at: at)
                    ids.remove(at: at)
                    change = layout.remove(at: at)
                } else {
                    let lo = random.below(widths.count)
                    let hi = lo + random.below(min(3, widths.count - lo) + 1)
                    let new = (0..<random.below(3)).map { _ in 1 + random.below(lineWidth + 4) }
                    widths.replaceSubrange(lo..<hi, with: new)
                    ids.replaceSubrange(lo..<hi, with: (0..<new.count).map { nextID + $0 })
                    nextID += new.count
                    change = layout.replace(lo..<hi, with: new)
                }
                let context = "seed \(seed), round \(round), step \(step)"
                let scratch = ChipFlowLayout(widths: widths, spacing: spacing, lineWidth: lineWidth)
                #expect(layout == scratch, "\(context)")
                // Rows as (chip identity, offset): equal rows draw the same.
                func drawn(_ l: ChipFlowLayout, _ ids: [Int]) -> [[[Int]]] {
                    (0..<l.rowCount).map { r in l.chips(inRow: r).map { [ids[$0], l.xs[$0]] } }
                }
                let old = drawn(before, beforeIDs)
                let new = drawn(layout, ids)
                var prefix = 0
                while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
                var suffix = 0
                while suffix < old.count - prefix && suffix < new.count - prefix
                    && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
                let expected = ChipLayoutChange(
                    oldRows: prefix..<(old.count - suffix), newRows: prefix..<(new.count - suffix))
                #expect(change == expected, "\(context): \(old) -> \(new)")
                if change != expected || layout != scratch { return }
            }
        }
    }
}

extension ChipLayoutTests {
    /// Bounded work: an insertion near the start of 10,000 chips lays out
    /// only the rows until they line up again (a few dozen, of about 1,850), not
    /// all those after.
    @Test(arguments: [10, 5_000, 9_990])
    func anInsertionLaysOutAFewRowsWhereverItIs(_ at: Int) {
        var random = SplitMix64(seed: 11)
        let widths = (0..<10_000).map { _ in 6 + random.below(30) }
        var layout = ChipFlowLayout(widths: widths, spacing: 1, lineWidth: 120)
        let change = layout.insert(width: 20, at: at)
        #expect(change.newRows.count <= 64 && change.newRows.count * 20 < layout.rowCount, "\(change) of \(layout.rowCount) rows")
        #expect(layout == ChipFlowLayout(widths: layout.widths, spacing: 1, lineWidth: 120))
    }
}
