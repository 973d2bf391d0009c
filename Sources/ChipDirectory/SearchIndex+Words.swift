// A query of several words: the rows every word starts a word of, found
// from the words' postings alone. Each word's postings mark the ranks
// they stand at; the rarest word's postings are the candidates, and a
// candidate matches when every word marked its contact or its row. Only
// the display name of a row whose name may start with the whole phrase
// is read. Folding each candidate row's text again, as a scan does, cost
// milliseconds when the words seldom meet (`le e`, `b ju`).

/// Where one query word's postings stand, as bit planes over the ranks
/// of an index: a name posting at its contact's first row, an address
/// posting at its row, each also in a plane of first words (classes 1
/// and 2) and, for name postings, one of display names' first words.
///
/// Invariants:
/// 1. Bit `r` of plane ``contactAny`` is set when some posting of the
///    word flagged ``RankedEntries/contactFlag`` has rank `r`; of
///    ``rowAny`` when some posting without the flag has rank `r`.
/// 2. ``contactFirst`` and ``rowFirst`` hold the same for postings of
///    class 1 or 2; ``contactName`` holds the name postings of class 1
///    among those it was given (a word's whole token, for the first word).
struct WordMarks {
    static let contactAny = 0
    static let contactFirst = 1
    static let rowAny = 2
    static let rowFirst = 3
    static let contactName = 4
    static let planes = 5

    /// Five planes of `stride` words, back to back.
    var bits: [UInt64]
    let stride: Int

    /// The marks of the postings `postings` of `index`; plane
    /// ``contactName`` holds the name postings of class 1 among
    /// `namePostings` only.
    ///
    /// - Complexity: O(*p* + *r* / 64) for *p* postings and *r* rows.
    init(_ index: SearchIndex, postings: Range<Int>, namePostings: Range<Int>) {
        let stride = (index.rows.count + 63) >> 6
        self.stride = stride
        bits = [UInt64](repeating: 0, count: WordMarks.planes * stride)
        bits.withUnsafeMutableBufferPointer { b in
            index.ranked.keys.withUnsafeBufferPointer { keys in
                for i in postings {
                    let key = keys[i]
                    let rank = Int(key & RankedEntries.rankMask)
                    let word = rank >> 6
                    let bit = UInt64(1) << UInt64(rank & 63)
                    let c = key >> 30
                    let plane = key & RankedEntries.contactFlag != 0 ? WordMarks.contactAny : WordMarks.rowAny
                    b[plane * stride + word] |= bit
                    if c <= 2 { b[(plane + 1) * stride + word] |= bit }
                }
                for i in namePostings where keys[i] >> 30 == 1 && keys[i] & RankedEntries.contactFlag != 0 {
                    let rank = Int(keys[i] & RankedEntries.rankMask)
                    b[WordMarks.contactName * stride + rank >> 6] |= UInt64(1) << UInt64(rank & 63)
                }
            }
        }
    }

    @inline(__always)
    func has(_ plane: Int, _ rank: Int32) -> Bool {
        bits[plane * stride + Int(rank) >> 6] >> UInt64(rank & 63) & 1 == 1
    }

    /// How the word stands in row `row` of a contact whose first row is
    /// `first`: nil when it starts none of the row's words, else whether
    /// it starts a first word.
    @inline(__always)
    func match(row: Int32, first: Int32) -> Bool? {
        guard has(WordMarks.contactAny, first) || has(WordMarks.rowAny, row) else { return nil }
        return has(WordMarks.contactFirst, first) || has(WordMarks.rowFirst, row)
    }
}

extension SearchIndex {
    /// The hits of a query of several words, none of them a quoted
    /// phrase, after `taken` holds its exact rows: every row each word
    /// starts a word of, by class and rank, taken until `taken` is full.
    /// A row is of class ``MatchClass/fullNamePrefix`` when its display
    /// name starts with the words in order, ``MatchClass/firstWord`` when
    /// some word starts a first word, else ``MatchClass/otherWord``, as
    /// ``classify(_:_:)`` finds from the text.
    ///
    /// - Complexity: O(*p* + *w* · *r* / 64 + *m* log *m*) for *p*
    ///   postings of the *w* words, *r* rows and *m* matching rows, plus
    ///   one display name folded per row whose name starts with the first
    ///   word.
    func wordsHits(
        _ q: SearchQuery, ranges: [Range<Int>], _ taken: inout TakenRows,
        isHidden: (Int32) -> Bool, isUsable: (Int32, UInt32) -> Bool
    ) {
        // A display name starts with the words only where the first is
        // one of its tokens whole: only those rows' names are read.
        let whole = range(of: q.phrase, within: ranges[0])
        let marks = ranges.indices.map {
            WordMarks(self, postings: postings(ranges[$0]), namePostings: $0 == 0 ? postings(whole) : 0..<0)
        }
        guard let rarest = ranges.indices.min(by: { postings(ranges[$0]).count < postings(ranges[$1]).count })
        else { return }
        var seen = [UInt64](repeating: 0, count: marks[0].stride)
        var found: [UInt64] = []  // class << 32 | row
        var starts: [Int32] = []  // scratch for the display names read
        let before = taken.hits.count
        for i in postings(ranges[rarest]) {
            let key = ranked.keys[i]
            let rank = Int32(key & RankedEntries.rankMask)
            let isContact = key & RankedEntries.contactFlag != 0
            let end = isContact ? endOfContact(rank) : rank + 1
            var first = rank
            if !isContact {
                let c = rows[Int(rank)].contact
                while first > 0 && rows[Int(first) - 1].contact == c { first -= 1 }
            }
            var row = rank
            while row < end {
                defer { row += 1 }
                let w = Int(row) >> 6, bit = UInt64(1) << UInt64(row & 63)
                guard seen[w] & bit == 0 else { continue }
                seen[w] |= bit
                var anyFirst = false
                var all = true
                for m in marks {
                    guard let isFirst = m.match(row: row, first: first) else {
                        all = false
                        break
                    }
                    anyFirst = anyFirst || isFirst
                }
                guard all, !isHidden(row), !taken.hits[..<before].contains(where: { $0.row == row }) else { continue }
                var c: MatchClass = anyFirst ? .firstWord : .otherWord
                if marks[0].has(WordMarks.contactName, first), displayNameStarts(row, with: q.phrase, &starts) {
                    c = .fullNamePrefix
                }
                found.append(UInt64(c.rawValue) << 32 | UInt64(row))
            }
        }
        // Best first, as far as needed: a heap, not a sort of every match.
        var heap = RankHeap(heapifying: found)
        while !taken.isFull, let item = heap.pop() {
            let c = MatchClass(rawValue: Int(item >> 32))!
            taken.take(self, Int32(truncatingIfNeeded: item), c, isUsable)
        }
    }

    /// Whether the display name of `row`'s contact, folded and normalized,
    /// starts with `phrase` (its first word starts where its normalized
    /// text does, so this is what the row's text says when its first
    /// field is the display name).
    ///
    /// - Complexity: O(*n*) for a display name of *n* bytes.
    func displayNameStarts(_ row: Int32, with phrase: [UInt8], _ starts: inout [Int32]) -> Bool {
        guard var name = contacts[Int(rows[Int(row)].contact)].displayName else { return false }
        starts.removeAll(keepingCapacity: true)
        var result = false
        name.withUTF8 { bytes in
            SearchIndex.withNormalized(bytes, .displayName, base: 0, starts: &starts) { text, _ in
                result = text.count >= phrase.count && UnsafeBufferPointer(rebasing: text[..<phrase.count]).elementsEqual(phrase)
            }
        }
        return result
    }
}

