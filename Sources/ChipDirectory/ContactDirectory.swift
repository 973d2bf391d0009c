// The directory a compose field asks for suggestions: an immutable value,
// cheap to copy and to share between threads.

/// One suggestion: a contact's address (or a list) that the query matched.
public struct Suggestion: Sendable, Hashable {
    public var contact: ContactID
    public var name: String?
    /// The address, or nil for a list without one (it expands to members).
    public var address: String?
    /// The address's index in the contact's `emails`, or nil.
    public var addressIndex: Int?
    public var matchClass: MatchClass
    /// Byte ranges of ``name`` the query's words matched, for highlighting.
    public var nameMatches: [Range<Int>]
    /// Byte ranges of ``address`` the query's words matched.
    public var addressMatches: [Range<Int>]
}

/// Contacts with a folding index, ready to suggest as a person types.
///
/// A value: copies share one index, which is never changed after it is
/// built, so a directory can be handed to other threads freely.
public struct ContactDirectory: Sendable {
    let index: SearchIndex
    /// Recent use counts double every `halfLife` seconds (30 days by
    /// default): the frecency that orders rows of one match class.
    public let halfLife: Double

    /// - Complexity: O(*w* log *w*) for *w* word starts in all the
    ///   contacts' names, nicknames, organizations and addresses.
    public init(_ contacts: [Contact], halfLife: Double = ContactUsage.defaultHalfLife) {
        self.halfLife = halfLife
        index = SearchIndex(contacts, halfLife: halfLife)
    }

    public var contacts: [Contact] { index.contacts }

    /// The best `limit` suggestions for what was typed, best first: by
    /// ``MatchClass``, then more recent use, then name, then id. Addresses in
    /// `excluding` (already chips; compared folded) are left out, and a
    /// mailbox two contacts share is suggested once, with the better row.
    ///
    /// - Complexity: O(log *w*) plus the rows examined: for a query of up to
    ///   three bytes at most a short precomputed list, else every row
    ///   where the query's rarest word starts a word.
    public func suggestions(for query: String, limit: Int = 8, excluding: Set<String> = []) -> [Suggestion] {
        let q = SearchQuery(query)
        guard !q.words.isEmpty, limit > 0 else { return [] }
        let excludedKeys = Set(excluding.map { SearchIndex.hash(SearchFold.fold($0)) })
        var hits: [Hit]? = nil
        if q.words.count == 1, q.words[0].count <= SearchIndex.shortQueryBytes,
           let list = index.shortLists[SearchIndex.shortKey(q.words[0])] {
            hits = shortListHits(q, list, limit: limit, excludedKeys)
        }
        return index.suggestions(hits ?? index.sorted(index.allHits(q)), q, limit: limit, excludedKeys)
    }

    /// The hits of a short query from its precomputed list, or nil when
    /// the list cannot prove it holds the best `limit` rows.
    func shortListHits(
        _ q: SearchQuery, _ list: (rows: [UInt32], truncated: Bool), limit: Int, _ excludedKeys: Set<UInt64>
    ) -> [Hit]? {
        // Exact matches (a one- to three-letter nickname) come first.
        var hits = index.allExactHits(q)
        let exactRows = Set(hits.map(\.row))
        var usable = 0
        var keys: Set<UInt64> = []
        for packed in list.rows {
            let row = Int32(packed & 0x0FFF_FFFF)
            if exactRows.contains(row) { continue }
            let cls = MatchClass(rawValue: Int(packed >> 28))!
            hits.append(Hit(row: row, matchClass: cls))
            let key = index.rows[Int(row)].addressKey
            if key == 0 || (!excludedKeys.contains(key) && keys.insert(key).inserted) { usable += 1 }
        }
        if list.truncated && usable < limit { return nil }
        return hits
    }

    /// The same suggestions by reading every contact, as an address book
    /// without an index does: the baseline the benchmark compares with.
    ///
    /// - Complexity: O(*n* · *f*) for *n* rows of *f* word starts.
    public func suggestionsByScanning(for query: String, limit: Int = 8, excluding: Set<String> = []) -> [Suggestion] {
        let q = SearchQuery(query)
        guard !q.words.isEmpty, limit > 0 else { return [] }
        var hits: [Hit] = []
        for row in index.rows.indices {
            if let c = index.classify(Int32(row), q) { hits.append(Hit(row: Int32(row), matchClass: c)) }
        }
        let excludedKeys = Set(excluding.map { SearchIndex.hash(SearchFold.fold($0)) })
        return index.suggestions(index.sorted(hits), q, limit: limit, excludedKeys)
    }
}

extension SearchIndex {
    /// The first `limit` ordered hits as suggestions, leaving out excluded
    /// mailboxes and any mailbox a better row already showed.
    func suggestions(_ ordered: [Hit], _ q: SearchQuery, limit: Int, _ excludedKeys: Set<UInt64>) -> [Suggestion] {
        var out: [Suggestion] = []
        var shown: Set<UInt64> = []
        for hit in ordered {
            let key = rows[Int(hit.row)].addressKey
            if key != 0 && (excludedKeys.contains(key) || !shown.insert(key).inserted) { continue }
            out.append(suggestion(hit, q))
            if out.count == limit { break }
        }
        return out
    }

    static func shortKey(_ word: [UInt8]) -> ShortKey {
        var key: UInt32 = 0
        for b in word { key = key << 8 | UInt32(b) }
        return ShortKey(bytes: key, count: UInt8(word.count))
    }

    func allExactHits(_ q: SearchQuery) -> [Hit] {
        var rows: [Int32] = []
        for key in [SearchIndex.hash(q.folded), SearchIndex.hash(q.phrase)] {
            for row in exact[key] ?? [] where !rows.contains(row) && isExact(row, q) { rows.append(row) }
        }
        return sorted(rows.map { Hit(row: $0, matchClass: .exact) })
    }

    /// A hit made a suggestion, with the byte ranges each query word
    /// matched in the name and the address.
    func suggestion(_ hit: Hit, _ q: SearchQuery) -> Suggestion {
        let row = rows[Int(hit.row)]
        let contact = contacts[Int(row.contact)]
        let address = row.email >= 0 ? contact.emails[Int(row.email)].address : nil
        var nameMatches: [Range<Int>] = []
        var addressMatches: [Range<Int>] = []
        let localLength = address.map { a in a.utf8.lastIndex(of: UInt8(ascii: "@")).map { a.utf8.distance(from: a.utf8.startIndex, to: $0) } ?? a.utf8.count } ?? 0
        for word in q.words {
            for k in row.entries {
                let e = entries[Int(rowEntries[Int(k)])]
                let field = fields[Int(e.field)]
                guard field.kind == .displayName || field.kind == .localPart || field.kind == .domain,
                      entry(e, startsWith: word) else { continue }
                let original = (field.kind == .displayName ? contact.displayName : address) ?? ""
                let base = field.kind == .domain ? localLength + 1 : 0
                let lo = Int(origins[Int(e.start)]) + base
                let lastByte = Int(e.start) + word.count - 1
                let hiStart = Int(origins[lastByte]) + base
                let hi = min(original.utf8.count, hiStart + SearchIndex.scalarLength(original, at: hiStart))
                if field.kind == .displayName { nameMatches.append(lo..<hi) } else { addressMatches.append(lo..<hi) }
            }
        }
        return Suggestion(
            contact: contact.id, name: contact.displayName, address: address,
            addressIndex: row.email >= 0 ? Int(row.email) : nil, matchClass: hit.matchClass,
            nameMatches: merged(nameMatches), addressMatches: merged(addressMatches))
    }

    func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    static func scalarLength(_ s: String, at offset: Int) -> Int {
        let utf8 = Array(s.utf8)
        guard offset < utf8.count else { return 0 }
        let b = utf8[offset]
        return b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
    }
}
