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
    /// - Complexity: O((*k* + log *m*) · log *m*) for the *k* entries
    ///   visited in a range of *m*, plus ``blockSize`` per block opened.
    func forEach(in range: Range<Int>, tree: Int, _ body: (_ entry: Int, _ rank: Int) -> Bool) {
        guard !range.isEmpty else { return }
        let size = RankedEntries.blockSize
        var heap = RankHeap()
        // Blocks wholly inside the range go in as tree nodes, the ends'
        // entries one by one.
        let firstFull = (range.lowerBound + size - 1) / size
        let endFull = range.upperBound / size
        if firstFull >= endFull {
            for i in range { pushEntry(i, tree, &heap) }
        } else {
            for i in range.lowerBound..<firstFull * size { pushEntry(i, tree, &heap) }
            for i in endFull * size..<range.upperBound { pushEntry(i, tree, &heap) }
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
                guard body(index, Int(item >> 32)) else { return }
            } else if index >= blocks {
                let start = (index - blocks) * size
                for i in start..<min(start + size, keys.count) { pushEntry(i, tree, &heap) }
            } else {
                pushNode(2 * index, tree, &heap)
                pushNode(2 * index + 1, tree, &heap)
            }
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

/// A binary min-heap of packed items: rank << 32 | isEntry << 31 | node
/// or entry index.
struct RankHeap {
    var items: [UInt64] = []

    init() { items.reserveCapacity(64) }

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
        var i = 0
        let n = items.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < n && items[l] < items[m] { m = l }
            if r < n && items[r] < items[m] { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return top
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
    ///   *m* postings in the range; a query of several words visits its
    ///   rarest word's rows in rank order, each folded again, until enough
    ///   match every word.
    func rankedHits(
        _ q: SearchQuery, ranges: [Range<Int>], wanted: Int,
        isHidden: (Int32) -> Bool, isUsable: (Int32, UInt64) -> Bool
    ) -> [Hit] {
        // Few rows are taken, so the rows and addresses seen are short
        // arrays, searched in turn. Within one stream rows come in rank
        // order: a row already taken in it is below where it has reached.
        var hits: [Hit] = []
        var shown: [UInt64] = []
        var usable = 0
        func take(_ row: Int32, _ c: MatchClass) {
            let key = addressKey(of: row)
            hits.append(Hit(row: row, matchClass: c, addressKey: key))
            if key == 0 || !shown.contains(key) {
                if key != 0 { shown.append(key) }
                if isUsable(row, key) { usable += 1 }
            }
        }
        // Exact rows, best rank first, as far as they are needed (a short
        // nickname can be the nickname of thousands).
        if q.phraseHash == q.foldedHash {
            for row in exactRows(q.foldedHash) where usable < wanted && !isHidden(row) && isExact(row, q) {
                take(row, .exact)
            }
        } else {
            for hit in allExactHits(q) where usable < wanted && !isHidden(hit.row) { take(hit.row, .exact) }
        }
        guard usable < wanted, !q.words.isEmpty else { return hits }
        /// Calls `body` once for each row of the stream not taken before it.
        func stream(_ tokens: Range<Int>, tree: Int, _ body: (Int32) -> Void) {
            let before = hits.count
            var reached: Int32 = 0
            ranked.forEach(in: postings(tokens), tree: tree) { i, _ in
                let span = rows(ofPosting: i)
                var r = max(span.lowerBound, reached)
                reached = max(reached, span.upperBound)
                while r < span.upperBound && usable < wanted {
                    if !isHidden(r) && !hits[..<before].contains(where: { $0.row == r }) { body(r) }
                    r += 1
                }
                return usable < wanted
            }
        }
        if q.words.count == 1 && !q.words[0].contains(0x20) {
            for (tree, c) in [(1, MatchClass.fullNamePrefix), (2, .firstWord), (3, .otherWord)] where usable < wanted {
                stream(ranges[0], tree: tree) { take($0, c) }
            }
            return hits
        }
        // Several words (or a phrase): rows whose display name starts
        // with the phrase, then the rarest word's rows that match every
        // word, each row's text folded again to check. The first stream
        // holds every row whose display name starts with the phrase's
        // first word, and takes only those the whole phrase starts: a row
        // of a later class it passes comes again in the second, in order.
        var t = RowText()
        stream(range(of: q.phrase, within: ranges[0]), tree: 1) { r in
            if let c = classify(r, q, &t), c == .fullNamePrefix { take(r, c) }
        }
        guard usable < wanted, let rarest = ranges.min(by: { postings($0).count < postings($1).count }) else {
            return hits
        }
        var others: [Hit] = []
        stream(rarest, tree: 0) { r in
            guard let c = classify(r, q, &t) else { return }
            if c == .otherWord { others.append(Hit(row: r, matchClass: c)) } else { take(r, c) }
        }
        // Rows of the last class count only once the stream ran out; then
        // all of them are needed.
        hits += others
        return hits
    }
}
