/// Chips placed in wrapped rows, as ChipGroup lays them out by default:
/// each row takes chips while they fit, `spacing` between two chips of a
/// row; a chip wider than the line gets a row of its own (the host
/// truncates its label to `lineWidth`, e.g. with ``ChipText/truncate(_:toWidth:measure:)``).
///
/// Widths come from the host (its chips' measured labels plus padding and
/// icons), in any integer unit. Positions are from the row's leading edge:
/// a right-to-left host mirrors them.
///
/// **Incremental.** ``replace(_:with:)`` (and ``insert(width:at:)``,
/// ``remove(at:)``) lays out again only what moved: it starts at the row
/// of the chip before the edit (that row may now take a chip from the
/// next) and stops at the first row that starts at the same chip as a row
/// of the old layout, past the edit. Greedy rows depend only on where
/// they start, so every row from there on is the old row, holding the
/// same chips at the same positions; only their indexes shift. The work is
/// the rows from the edit to that point — independent of the rows before
/// it, and of the rows after, except for moving the arrays' tails by the
/// change in count (a `memmove`, no layout).
///
/// Invariants:
/// 1. `rowStarts` is strictly increasing, starts at 0 when there is a
///    chip, and is empty when there is none.
/// 2. Each row holds at least one chip, and either one chip or chips whose
///    widths plus spacing fit `lineWidth`; the next chip would not.
/// 3. `xs[i]` is the offset of chip `i` from its row's leading edge: 0 for
///    the first chip of a row, else the previous chip's offset plus its
///    width plus `spacing`.
/// 4. The layout equals ``init(widths:spacing:lineWidth:)`` of its widths
///    after any sequence of edits (tested with seeded random edits).
public struct ChipFlowLayout: Sendable, Hashable {
    /// Each chip's width, in the host's unit, in chip order.
    public private(set) var widths: [Int]
    /// The gap between two chips of a row.
    public let spacing: Int
    /// The width a row may fill; fixed: another width is a new layout.
    public let lineWidth: Int
    /// The index of each row's first chip.
    public private(set) var rowStarts: [Int]
    /// Each chip's offset from its row's leading edge.
    public private(set) var xs: [Int]

    /// Lays out chips of `widths` in rows of `lineWidth`.
    ///
    /// - Complexity: O(*n*), where *n* is the number of chips.
    public init(widths: [Int], spacing: Int, lineWidth: Int) {
        precondition(spacing >= 0 && lineWidth >= 0, "spacing and line width must not be negative")
        self.widths = widths
        self.spacing = spacing
        self.lineWidth = lineWidth
        rowStarts = []
        xs = [Int](repeating: 0, count: widths.count)
        var s = 0
        while s < widths.count {
            rowStarts.append(s)
            s = layRow(from: s)
        }
    }

    /// The number of chips.
    public var count: Int { widths.count }

    /// The number of rows.
    public var rowCount: Int { rowStarts.count }

    /// The chips of row `row`.
    public func chips(inRow row: Int) -> Range<Int> {
        rowStarts[row]..<(row + 1 < rowStarts.count ? rowStarts[row + 1] : widths.count)
    }

    /// The row that holds chip `index`.
    ///
    /// - Complexity: O(log *r*), where *r* is the number of rows.
    public func row(ofChip index: Int) -> Int {
        precondition(index >= 0 && index < widths.count, "no chip \(index)")
        var lo = 0
        var hi = rowStarts.count  // the answer is in lo..<hi
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if rowStarts[mid] <= index { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// Inserts a chip of `width` before chip `index`.
    ///
    /// - Complexity: as ``replace(_:with:)`` with one new chip.
    @discardableResult
    public mutating func insert(width: Int, at index: Int) -> ChipLayoutChange {
        replace(index..<index, with: [width])
    }

    /// Removes chip `index`.
    ///
    /// - Complexity: as ``replace(_:with:)`` with no new chip.
    @discardableResult
    public mutating func remove(at index: Int) -> ChipLayoutChange {
        replace(index..<index + 1, with: [])
    }

    /// Replaces the chips of `range` by chips of `newWidths` (a label that
    /// changed is a replacement of one by one), and says which rows changed
    /// (none, as empty ranges at the last row, when nothing is replaced).
    ///
    /// - Complexity: O(*k* + *m* + *t*), where *k* is the number of chips in
    ///   the rows laid out again, *m* the number of new chips, and *t* the
    ///   number of chips and rows after them, whose arrays' tails move and
    ///   whose row starts shift by the change in count (none is laid out again).
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with newWidths: [Int]) -> ChipLayoutChange {
        precondition(range.lowerBound >= 0 && range.upperBound <= widths.count, "range \(range) out of the chips")
        let lo = range.lowerBound
        let m = newWidths.count
        let delta = m - range.count
        let oldCount = widths.count
        let oldRowCount = rowStarts.count
        if range.isEmpty && newWidths.isEmpty {
            return ChipLayoutChange(oldRows: oldRowCount..<oldRowCount, newRows: oldRowCount..<oldRowCount)
        }
        // The first row that can change: the one holding the chip before the edit.
        let first = lo == 0 || oldRowCount == 0 ? 0 : row(ofChip: lo - 1)
        let oldEndOfFirst = first + 1 < oldRowCount ? rowStarts[first + 1] : oldCount
        widths.replaceSubrange(range, with: newWidths)
        xs.replaceSubrange(range, with: repeatElement(0, count: m))

        var laid: [Int] = []
        var s = first < oldRowCount ? rowStarts[first] : 0
        var j = first  // the next old row that could line up
        var oldEnd = oldRowCount
        while s < widths.count {
            if s >= lo + m {
                let o = s - delta  // the same chip's index in the old layout
                while j < oldRowCount && rowStarts[j] < o { j += 1 }
                if j < oldRowCount && rowStarts[j] == o {
                    oldEnd = j
                    break
                }
            }
            laid.append(s)
            s = layRow(from: s)
        }
        if s >= widths.count { oldEnd = oldRowCount }

        // The first row laid again is unchanged when it ends before the edit
        // where it ended before (the edit is at the start of the next row).
        var same = 0
        if let start = laid.first, first < oldEnd {
            let newEnd = laid.count > 1 ? laid[1] : (oldEnd < oldRowCount ? rowStarts[oldEnd] + delta : widths.count)
            if start == rowStarts[first] && newEnd == oldEndOfFirst && newEnd <= lo { same = 1 }
        }
        rowStarts.replaceSubrange(first..<oldEnd, with: laid)
        if delta != 0 {
            for r in (first + laid.count)..<rowStarts.count { rowStarts[r] += delta }
        }
        return ChipLayoutChange(
            oldRows: (first + same)..<oldEnd, newRows: (first + same)..<(first + laid.count))
    }

    /// Lays out the row that starts at chip `start`: sets the offsets of
    /// its chips and returns the index after its last.
    private mutating func layRow(from start: Int) -> Int {
        var x = 0
        xs[start] = 0
        var used = widths[start]
        var i = start + 1
        while i < widths.count {
            let next = used + spacing + widths[i]
            if next > lineWidth { break }
            x = used + spacing
            xs[i] = x
            used = next
            i += 1
        }
        return i
    }
}

/// Which rows an edit of a ``ChipFlowLayout`` changed: the old rows
/// `oldRows` were replaced by the new rows `newRows` (both start at the
/// same row). Rows before are untouched; rows after hold the same chips
/// at the same offsets, moved down by `newRows.count - oldRows.count` rows
/// (and their chip indexes by the change in count).
public struct ChipLayoutChange: Sendable, Hashable {
    /// The rows of the layout before the edit that were replaced.
    public var oldRows: Range<Int>
    /// The rows of the layout after the edit that replaced them.
    public var newRows: Range<Int>

    /// A change that replaced `oldRows` by `newRows`.
    public init(oldRows: Range<Int>, newRows: Range<Int>) {
        self.oldRows = oldRows
        self.newRows = newRows
    }

    /// How many rows the rows after the change moved down (negative: up).
    public var rowShift: Int { newRows.count - oldRows.count }
}

/// Chips in one row with an overflow count, as a single-line ChipGroup or
/// Android's compose field shows them: as many chips as fit beside a `+N`
/// chip for the rest.
///
/// Choices where the guidelines are silent: a lone chip is always shown
/// (the host truncates it), never as `+1`; when not even the first chip
/// fits beside `+N`, the row is the `+N` chip alone.
///
/// Invariants:
/// 1. `visibleCount + overflowCount` is the number of chips.
/// 2. `overflowX` is nil exactly when `overflowCount` is 0.
public struct SingleLineLayout: Sendable, Hashable {
    /// The chips shown, from the first.
    public var visibleCount: Int
    /// The chips counted by the `+N` chip.
    public var overflowCount: Int
    /// The offsets of the chips shown.
    public var xs: [Int]
    /// The offset of the `+N` chip.
    public var overflowX: Int?

    /// The most chips of `widths` that fit `lineWidth` with, when some are
    /// left, a `+N` chip of `overflowWidth(N)` after them.
    ///
    /// - Complexity: O(*k*), where *k* is the number of chips that fit the
    ///   line, plus *k* calls of `overflowWidth`.
    public init(widths: [Int], spacing: Int, lineWidth: Int, overflowWidth: (Int) -> Int) {
        let n = widths.count
        var best = n == 1 ? 1 : 0
        var used = 0
        var k = 0
        while k < n {
            let next = used + (k == 0 ? 0 : spacing) + widths[k]
            if next > lineWidth { break }
            used = next
            k += 1
            if k == n || used + spacing + overflowWidth(n - k) <= lineWidth { best = max(best, k) }
        }
        visibleCount = best
        overflowCount = n - best
        var xs: [Int] = []
        xs.reserveCapacity(best)
        var x = 0
        for i in 0..<best {
            xs.append(x)
            x += widths[i] + spacing
        }
        self.xs = xs
        overflowX = overflowCount == 0 ? nil : (best == 0 ? 0 : x)
    }
}
