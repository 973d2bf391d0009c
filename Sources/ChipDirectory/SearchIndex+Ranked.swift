// Best rows first: the postings of a query word's range in the order of
// their ranks, without reading the whole range. A query's top few
// suggestions then cost O(k log n) however many contacts match, where
// sorting every match cost O(m log m) (a common three-letter surname
// matches thousands of rows at 100,000 contacts).

/// For each posting class and for all postings, the lowest rank in each
/// block of ``blockSize`` postings and a tree of minimums over the
/// blocks, so that a range's postings can be listed best rank first.
///
/// Invariants:
/// 1. `keys[i]` is posting `i`'s class (1 first word of the display name,
///    2 other first word, 3 any other word start) in its top two bits,
///    ``contactFlag`` when it stands for all its contact's rows, and its
///    rank (of its row, or of its contact's first row) below.
/// 2. For tree `t` (0 all classes, else one class), node `b + blocks` is
///    the lowest rank of block `b`'s entries in `t`, node `n < blocks` the
///    lower of nodes `2n` and `2n + 1`; `UInt32.max` when there are none.
struct RankedEntries: Sendable {
    static let blockSize = 32
    let keys: [UInt32]
    let blocks: Int
    /// Four trees of `2 · blocks` nodes, back to back.
    let trees: [UInt32]

    static var rankMask: UInt32 { (1 << 29) - 1 }
    static var contactFlag: UInt32 { 1 << 29 }

    init(keys: [UInt32]) {
        self.keys = keys
        let blocks = max(1, (keys.count + RankedEntries.blockSize - 1) / RankedEntries.blockSize)
        self.blocks = blocks
        var trees = [UInt32](repeating: .max, count: 8 * blocks)
        for (i, key) in keys.enumerated() {
            let rank = key & RankedEntries.rankMask
            let leaf = blocks + i / RankedEntries.blockSize
            let all = leaf, own = Int(key >> 30) * 2 * blocks + leaf
            if rank < trees[all] { trees[all] = rank }
            if rank < trees[own] { trees[own] = rank }
        }
        for t in 0..<4 {
            let base = t * 2 * blocks
            var n = blocks - 1
            while n >= 1 {
                trees[base + n] = min(trees[base + 2 * n], trees[base + 2 * n + 1])
                n -= 1
            }
        }
        self.trees = trees
    }

    /// Calls `body` with the entries of `range` of class `tree` (0: every
    /// class) and their ranks, lowest rank first, until it returns false.
    ///
    /// Each token's postings are in rank order, so a block's entries (of
    /// one class) fall into runs of rising rank. Opening a block puts only
    /// the head of each run in the heap; an entry taken from it puts the
    /// next of its run, which cannot come before it. Entries come out in
    /// the order they would if all were put in at once.
    ///
    /// - Complexity: O((*k* + log *m*) · log *m*) for the *k* entries
    ///   visited in a range of *m*, plus ``blockSize`` per block opened.
    func forEach(in range: Range<Int>, tree: Int, _ body: (_ entry: Int, _ rank: Int) -> Bool) {
        guard !range.isEmpty else { return }
        let size = RankedEntries.blockSize
        var heap = RankHeap()
        // Blocks wholly inside the range go in as tree nodes, the ends'
        // entries by their runs.
        let firstFull = (range.lowerBound + size - 1) / size
        let endFull = range.upperBound / size
        if firstFull >= endFull {
            var lo = range.lowerBound
            while lo < range.upperBound {
                let hi = min(range.upperBound, (lo / size + 1) * size)
                pushRunHeads(lo..<hi, tree, &heap)
                lo = hi
            }
        } else {
            pushRunHeads(range.lowerBound..<firstFull * size, tree, &heap)
            pushRunHeads(endFull * size..<range.upperBound, tree, &heap)
            var l = firstFull + blocks, r = endFull + blocks
            while l < r {
                if l & 1 == 1 {
                    pushNode(l, tree, &heap)
                    l += 1
                }
                if r & 1 == 1 {
                    r -= 1
                    pushNode(r, tree, &heap)
                }
                l >>= 1
                r >>= 1
            }
        }
        while let item = heap.pop() {
            let index = Int(item & 0x7FFF_FFFF)
            if item & (1 << 31) != 0 {
                let rank = UInt32(truncatingIfNeeded: item >> 32)
                guard body(index, Int(rank)) else { return }
                // The next entry of this class in the block (and range):
                // the run goes on when its rank does not fall.
                let end = min(range.upperBound, (index / size + 1) * size)
                var j = index + 1
                while j < end {
                    let key = keys[j]
                    if tree == 0 || Int(key >> 30) == tree {
                        if key & RankedEntries.rankMask >= rank { pushEntry(j, tree, &heap) }
                        break
                    }
                    j += 1
                }
            } else if index >= blocks {
                let start = (index - blocks) * size
                pushRunHeads(start..<min(start + size, keys.count), tree, &heap)
            } else {
                pushNode(2 * index, tree, &heap)
                pushNode(2 * index + 1, tree, &heap)
            }
        }
    }

    /// Puts in the heap each entry of `entries` (within one block) of
    /// class `tree` whose rank is below the previous such entry's: the
    /// heads of the runs.
    @inline(__always)
    func pushRunHeads(_ entries: Range<Int>, _ tree: Int, _ heap: inout RankHeap) {
        var last = UInt32.max  // above every rank
        for i in entries {
            let key = keys[i]
            guard tree == 0 || Int(key >> 30) == tree else { continue }
            let rank = key & RankedEntries.rankMask
            if rank < last { pushEntry(i, tree, &heap) }
            last = rank
        }
    }

    @inline(__always)
    func pushEntry(_ i: Int, _ tree: Int, _ heap: inout RankHeap) {
        let key = keys[i]
        guard tree == 0 || Int(key >> 30) == tree else { return }
        heap.push(UInt64(key & RankedEntries.rankMask) << 32 | 1 << 31 | UInt64(i))
    }

    @inline(__always)
    func pushNode(_ n: Int, _ tree: Int, _ heap: inout RankHeap) {
        let rank = trees[tree * 2 * blocks + n]
        if rank != .max { heap.push(UInt64(rank) << 32 | UInt64(n)) }
    }
}

/// A binary min-heap of packed items (for the ranked streams: rank << 32
/// | isEntry << 31 | node or entry index).
struct RankHeap {
    var items: [UInt64] = []

    init() { items.reserveCapacity(64) }

    /// A heap of `items`, in any order.
    ///
    /// - Complexity: O(*n*).
    init(heapifying items: [UInt64]) {
        self.items = items
        var i = items.count / 2
        while i > 0 {
            i -= 1
            siftDown(i)
        }
    }

    mutating func push(_ item: UInt64) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[parent] > items[i] else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> UInt64? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        siftDown(0)
        return top
    }

    mutating func siftDown(_ start: Int) {
        var i = start
        let n = items.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < n && items[l] < items[m] { m = l }
            if r < n && items[r] < items[m] { m = r }
            if m == i { return }
            items.swapAt(i, m)
            i = m
        }
    }
}

extension SearchIndex {
    /// The hits a query's best `wanted` usable rows need: its exact rows,
    /// then rows by class and rank until `wanted` of them could be shown,
    /// so that ordering these hits by class and rank gives what ordering
    /// every match gives, as far as those rows.
    ///
    /// A row is usable when `isUsable` says so of it and its address key
    /// (not excluded) and no row before it had its address. Rows
    /// `isHidden` rejects are not matches.
    ///
    /// - Complexity: O((*k* + log *m*) · log *m*) for *k* rows visited of
    ///   *m* postings in the range. A query of several words costs
    ///   O(*p* + *w* · *r* / 64 + *h* log *h*) for the *p* postings of its
    ///   *w* words, *r* rows and *h* rows that match every word
    ///   (``wordsHits(_:ranges:_:isHidden:isUsable:)``); one with a quoted
    ///   phrase visits its rarest word's rows in rank order, each folded
    ///   again, until enough match every word.
    func rankedHits(
        _ q: SearchQuery, ranges: [Range<Int>], wanted: Int,
        isHidden: (Int32) -> Bool, isUsable: (Int32, UInt32) -> Bool
    ) -> [Hit] {
        var taken = TakenRows(wanted: wanted)
        // Exact rows, best rank first, as far as they are needed (a short
        // nickname can be the nickname of thousands).
        if q.phraseHash == q.foldedHash {
            for row in exactRows(q.foldedHash) where !taken.isFull && !isHidden(row) && isExact(row, q) {
                taken.take(self, row, .exact, isUsable)
            }
        } else {
            for hit in allExactHits(q) where !taken.isFull && !isHidden(hit.row) {
                taken.take(self, hit.row, .exact, isUsable)
            }
        }
        guard !taken.isFull, !q.words.isEmpty else { return taken.hits }
        if q.words.count == 1 && !q.words[0].contains(0x20) {
            for (tree, c) in [(1, MatchClass.fullNamePrefix), (2, .firstWord), (3, .otherWord)] where !taken.isFull {
                stream(ranges[0], tree: tree, &taken, isHidden) { r, taken in taken.take(self, r, c, isUsable) }
            }
            // Every match at a word start is taken by now (else `taken`
            // is full): the rows that hold the word inside one come after.
            if !taken.isFull, let word = q.inWordQuery {
                let tokens = inWordTokens(word)
                if !tokens.isEmpty {
                    streamInWord(tokens, &taken, isHidden, skip: Set(taken.hits.map(\.row))) { r, taken in
                        taken.take(self, r, .inWord, isUsable)
                    }
                }
            }
            return taken.hits
        }
        guard q.words.contains(where: { $0.contains(0x20) }) else {
            // Words that often meet (`j s`) find their rows among the
            // rarest word's first few, each folded to check: tried first,
            // with a budget. Words that seldom meet would fold thousands:
            // their postings are intersected instead.
            var attempt = taken
            attempt.budget = SearchIndex.foldedRowsBudget
            let hits = foldedHits(q, ranges: ranges, &attempt, isHidden: isHidden, isUsable: isUsable)
            if attempt.budget > 0 { return hits }
            wordsHits(q, ranges: ranges, &taken, isHidden: isHidden, isUsable: isUsable)
            return taken.hits
        }
        return foldedHits(q, ranges: ranges, &taken, isHidden: isHidden, isUsable: isUsable)
    }

    /// How many rows a query of several words folds to check before it
    /// intersects its words' postings instead.
    static let foldedRowsBudget = 48

    /// The hits of a query of several words or a quoted phrase, after
    /// `taken` holds its exact rows: rows whose display name starts with
    /// the phrase, then the rarest word's rows that match every word, in
    /// rank order, each row's text folded again to check, until `taken`
    /// is full or its ``TakenRows/budget`` of folded rows is spent. The
    /// first stream holds every row whose display name starts with the
    /// phrase's first word, and takes only those the whole phrase starts:
    /// a row of a later class it passes comes again in the second, in
    /// order.
    ///
    /// - Complexity: O(*k* · *b*) for *k* rows folded of *b* bytes each,
    ///   plus the streams' O(log *m*) per posting.
    func foldedHits(
        _ q: SearchQuery, ranges: [Range<Int>], _ taken: inout TakenRows,
        isHidden: (Int32) -> Bool, isUsable: (Int32, UInt32) -> Bool
    ) -> [Hit] {
        var t = RowText()
        stream(range(of: q.phrase, within: ranges[0]), tree: 1, &taken, isHidden) { r, taken in
            taken.budget -= 1
            if let c = classify(r, q, &t), c == .fullNamePrefix { taken.take(self, r, c, isUsable) }
        }
        guard !taken.isFull, let rarest = ranges.min(by: { postings($0).count < postings($1).count }) else {
            return taken.hits
        }
        var others: [Hit] = []
        stream(rarest, tree: 0, &taken, isHidden) { r, taken in
            taken.budget -= 1
            guard let c = classify(r, q, &t) else { return }
            if c == .otherWord { others.append(Hit(row: r, matchClass: c)) } else { taken.take(self, r, c, isUsable) }
        }
        // Rows of the last class count only once the stream ran out; then
        // all of them are needed.
        return taken.hits + others
    }

    /// Calls `body` once for each row of the postings of `tokens` in tree
    /// `tree`, best rank first, that `isHidden` keeps and that was not
    /// taken before this stream, until `taken` is full.
    func stream(
        _ tokens: Range<Int>, tree: Int, _ taken: inout TakenRows, _ isHidden: (Int32) -> Bool,
        _ body: (Int32, inout TakenRows) -> Void
    ) {
        // Within one stream rows come in rank order: a row already taken
        // in it is below where it has reached.
        let before = taken.hits.count
        var reached: Int32 = 0
        ranked.forEach(in: postings(tokens), tree: tree) { i, _ in
            let span = rows(ofPosting: i)
            var r = max(span.lowerBound, reached)
            reached = max(reached, span.upperBound)
            while r < span.upperBound && !taken.isFull {
                if !isHidden(r) && !taken.hits[..<before].contains(where: { $0.row == r }) { body(r, &taken) }
                r += 1
            }
            return !taken.isFull
        }
    }
}

/// The rows a query has taken, and how many of them could be shown: a
/// row is usable when `isUsable` says so of it and its address key and no
/// row before it had its address. Few rows are taken, so the rows and
/// addresses seen are short arrays, searched in turn.
struct TakenRows {
    var hits: [Hit] = []
    var shown: [(key: UInt32, row: Int32)] = []
    var usable = 0
    let wanted: Int
    /// How many more rows may be folded to check them; none left counts
    /// as full, so that the streams stop.
    var budget = Int.max

    init(wanted: Int) {
        self.wanted = wanted
        // A hint for the usual few rows, never an allocation (or an
        // overflow) sized by a caller's limit alone.
        let room = min(wanted, 256) + 8
        hits.reserveCapacity(room)
        shown.reserveCapacity(room)
    }

    var isFull: Bool { usable >= wanted || budget <= 0 }

    mutating func take(_ index: SearchIndex, _ row: Int32, _ c: MatchClass, _ isUsable: (Int32, UInt32) -> Bool) {
        let key = index.addressKey(of: row)
        hits.append(Hit(row: row, matchClass: c))
        if key != 0 {
            guard !shown.contains(where: { $0.key == key && index.sameAddress($0.row, index, row) }) else { return }
            shown.append((key, row))
        }
        if isUsable(row, key) { usable += 1 }
    }
}
