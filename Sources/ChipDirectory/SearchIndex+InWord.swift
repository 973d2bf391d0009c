// Matches inside a word: `smith` in `johnsmith@x.org`, `email` in
// `primaryemail1@…`, found as Thunderbird finds them but ranked after
// every match at a word start. A query word of three letters or more is
// looked for inside the vocabulary's tokens through their trigrams, and
// the rows of the tokens that hold it are taken in rank order.

/// The trigrams inside the vocabulary's tokens: for each distinct three
/// bytes that stand at some token's byte 1 or later, the tokens that hold
/// them there.
///
/// Invariants:
/// 1. `keys` are sorted and distinct, each three bytes big-endian.
/// 2. The tokens of key `k` are `tokens[starts[k]..<starts[k + 1]]`,
///    ascending and distinct: every token (a place in the sorted
///    vocabulary) with those bytes at some offset of at least 1.
struct TokenTrigrams: Sendable {
    let keys: [UInt32]
    let starts: [Int32]
    let tokens: [Int32]

    /// - Complexity: O(*b* log *b*) for the *b* bytes of the vocabulary.
    init(words: [UInt8], wordStarts: [Int32]) {
        var pairs: [UInt64] = []
        pairs.reserveCapacity(max(0, words.count - 3 * (wordStarts.count - 1)))
        for t in 0..<max(0, wordStarts.count - 1) {
            let s = Int(wordStarts[t]), e = Int(wordStarts[t + 1])
            var p = s + 1
            while p + 3 <= e {
                let gram = UInt64(words[p]) << 16 | UInt64(words[p + 1]) << 8 | UInt64(words[p + 2])
                pairs.append(gram << 32 | UInt64(t))
                p += 1
            }
        }
        pairs.sort()
        var keys: [UInt32] = [], starts: [Int32] = [], tokens: [Int32] = []
        tokens.reserveCapacity(pairs.count)
        var last: UInt64 = .max
        for pair in pairs where pair != last {
            let key = UInt32(pair >> 32)
            if keys.last != key {
                keys.append(key)
                starts.append(Int32(tokens.count))
            }
            tokens.append(Int32(truncatingIfNeeded: pair))
            last = pair
        }
        starts.append(Int32(tokens.count))
        self.keys = SearchIndex.shrunk(keys)
        self.starts = SearchIndex.shrunk(starts)
        self.tokens = SearchIndex.shrunk(tokens)
    }

    /// The tokens holding trigram `gram` past their first byte.
    func tokens(of gram: UInt32) -> Range<Int> {
        let k = SearchIndex.lowerBound(keys, gram)
        guard k < keys.count, keys[k] == gram else { return 0..<0 }
        return Int(starts[k])..<Int(starts[k + 1])
    }
}

extension SearchIndex {
    /// The tokens (places in the vocabulary) that hold `word` at some byte
    /// past their first, ascending: found from the rarest of the word's
    /// trigrams, each candidate compared.
    ///
    /// - Complexity: O(*g* log *k* + *c* · *t*) for the *g* trigrams of
    ///   the word among *k*, and *c* candidate tokens of *t* bytes.
    func inWordTokens(_ word: [UInt8]) -> [Int] {
        guard word.count >= 3 else { return [] }
        var best: Range<Int>?
        for i in 0...(word.count - 3) {
            let gram = UInt32(word[i]) << 16 | UInt32(word[i + 1]) << 8 | UInt32(word[i + 2])
            let r = trigrams.tokens(of: gram)
            if best == nil || r.count < best!.count { best = r }
            if r.isEmpty { return [] }
        }
        var out: [Int] = []
        words.withUnsafeBufferPointer { w in
            for i in best! {
                let t = Int(trigrams.tokens[i])
                let s = Int(wordStarts[t]), e = Int(wordStarts[t + 1])
                var p = s + 1
                while p + word.count <= e {
                    var k = 0
                    while k < word.count && w[p + k] == word[k] { k += 1 }
                    if k == word.count {
                        out.append(t)
                        break
                    }
                    p += 1
                }
            }
        }
        return out
    }

    /// Calls `body` once for each row of the postings of `tokens`, best
    /// rank first, that `isHidden` keeps and `skip` does not hold, until
    /// `taken` is full: the tokens' postings merged by a heap of each
    /// token's next posting.
    ///
    /// - Complexity: O((*t* + *k*) log *t*) for *t* tokens and *k*
    ///   postings visited.
    func streamInWord(
        _ tokens: [Int], _ taken: inout TakenRows, _ isHidden: (Int32) -> Bool, skip: Set<Int32>,
        _ body: (Int32, inout TakenRows) -> Void
    ) {
        var cursors = tokens.map { postings($0..<$0 + 1) }
        var items: [UInt64] = []
        items.reserveCapacity(cursors.count)
        for (k, c) in cursors.enumerated() where !c.isEmpty {
            items.append(UInt64(ranked.keys[c.lowerBound] & RankedEntries.rankMask) << 32 | UInt64(k))
        }
        var heap = RankHeap(heapifying: items)
        var reached: Int32 = 0
        while !taken.isFull, let item = heap.pop() {
            let k = Int(truncatingIfNeeded: item & 0xFFFF_FFFF)
            let i = cursors[k].lowerBound
            cursors[k] = (i + 1)..<cursors[k].upperBound
            if !cursors[k].isEmpty {
                heap.push(UInt64(ranked.keys[i + 1] & RankedEntries.rankMask) << 32 | UInt64(k))
            }
            let span = rows(ofPosting: i)
            var r = max(span.lowerBound, reached)
            reached = max(reached, span.upperBound)
            while r < span.upperBound && !taken.isFull {
                if !isHidden(r) && !skip.contains(r) { body(r, &taken) }
                r += 1
            }
        }
    }

    /// Every row the query matches inside a word and at no word start,
    /// given the rows `seen` already matched (which take no part).
    ///
    /// - Complexity: O(*p*) for the *p* postings of the tokens that hold
    ///   the word.
    func allInWordHits(_ q: SearchQuery, seen: inout Set<Int32>) -> [Hit] {
        guard let word = q.inWordQuery else { return [] }
        var hits: [Hit] = []
        for t in inWordTokens(word) {
            for i in postings(t..<t + 1) {
                for row in rows(ofPosting: i) where seen.insert(row).inserted {
                    hits.append(Hit(row: row, matchClass: .inWord))
                }
            }
        }
        return hits
    }
}
