// The folding index behind suggestions: the distinct folded words of
// every field, sorted, each with its rows in rank order, so that a query
// word's matches are one contiguous range found by binary search and
// listed best first.

/// How well a suggestion matched the query, best first.
public enum MatchClass: Int, Sendable, Hashable, Comparable, Codable {
    /// The query is a contact's address or one of its nicknames.
    case exact = 0
    /// The query starts the display name (`jose o` for "José Ortiz").
    case fullNamePrefix = 1
    /// A query word starts the first word of a field: a name, nickname,
    /// organization or the address's local part.
    case firstWord = 2
    /// Every query word starts some word of the contact.
    case otherWord = 3
    /// The query, one word of three letters or more, stands inside a word
    /// of a field (`smith` in `johnsmith@x.org`), and starts none.
    case inWord = 4

    /// Better matches first: `exact` precedes every other class.
    public static func < (a: MatchClass, b: MatchClass) -> Bool { a.rawValue < b.rawValue }
}

/// What a field of a row holds.
enum FieldKind: UInt8 {
    case displayName, namePart, nickname, organization, localPart, domain
}

/// A row's order among equals of a match class: more (decayed) use of
/// its contact first, then the display name, then the contact's id, then
/// the row's place among its contact's rows. A total order.
///
/// A contact's use is that of its most used row, and a row's use is the
/// contact's own record and its address's together (see
/// ``emailOrder(_:halfLife:)``): the rows of one contact stay together,
/// its most used address first.
struct RowKey: Sendable {
    /// The contact's best row's ``ContactUsage/rankingKey(halfLife:)``:
    /// the order of two contacts by score never changes as time passes.
    var usage: Double
    var name: [UInt8]
    var id: ContactID
    /// The row's place in ``emailOrder(_:halfLife:)`` (0 for a list
    /// without an address).
    var email: Int32

    static func precedes(_ a: RowKey, _ b: RowKey) -> Bool {
        if a.usage != b.usage { return a.usage > b.usage }
        if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
        if a.id != b.id { return a.id < b.id }
        return a.email < b.email
    }

    /// The ranking key of a contact's address `e`: its own uses and the
    /// contact's together.
    static func usage(_ contact: Contact, email e: Int, halfLife: Double) -> Double {
        ContactUsage.combinedKey(
            contact.usage.rankingKey(halfLife: halfLife), contact.emails[e].usage.rankingKey(halfLife: halfLife))
    }

    /// The indices of a contact's addresses in row order: more use of the
    /// address first, then the preferred one, then the others as the
    /// contact lists them. Without uses of single addresses, the preferred
    /// address first and the others in order.
    static func emailOrder(_ contact: Contact, halfLife: Double) -> [Int] {
        let preferred = contact.preferredEmailIndex ?? 0
        guard contact.emails.contains(where: { $0.usage.last != nil && $0.usage.weight > 0 }) else {
            guard preferred > 0 else { return Array(contact.emails.indices) }
            return [preferred] + contact.emails.indices.filter { $0 != preferred }
        }
        let keys = contact.emails.indices.map { usage(contact, email: $0, halfLife: halfLife) }
        return contact.emails.indices.sorted { a, b in
            if keys[a] != keys[b] { return keys[a] > keys[b] }
            if (a == preferred) != (b == preferred) { return a == preferred }
            return a < b
        }
    }

    /// The key of a contact's rows given their order: the first row's use.
    init(_ contact: Contact, order: [Int], place: Int32, halfLife: Double) {
        if let first = order.first {
            usage = RowKey.usage(contact, email: first, halfLife: halfLife)
        } else {
            usage = contact.usage.rankingKey(halfLife: halfLife)
        }
        name = SearchFold.fold(contact.displayName ?? "")
        id = contact.id
        email = place
    }

    /// The key of the row of address `email` (−1: none) of `contact`.
    init(_ contact: Contact, email: Int32, halfLife: Double) {
        let order = RowKey.emailOrder(contact, halfLife: halfLife)
        let place = email < 0 ? 0 : Int32(order.firstIndex(of: Int(email)) ?? 0)
        self.init(contact, order: order, place: place, halfLife: halfLife)
    }
}

/// log₂ without a math library, exact enough to order weights (the
/// exponent plus a series for the significand).
func log2Approximation(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : x }
    let e = Double(x.exponent)
    let m = x.significand  // in [1, 2)
    // ln(m) = 2 atanh((m−1)/(m+1)), a fast series for m in [1, 2).
    let t = (m - 1) / (m + 1)
    let t2 = t * t
    var term = t
    var sum = 0.0
    var k = 1.0
    for _ in 0..<12 {
        sum += term / k
        term *= t2
        k += 2
    }
    return e + 2 * sum / 0.693_147_180_559_945_309_4
}

/// One suggestion row: a contact and one of its addresses (or a list
/// without one). Rows are stored in rank order: a row's index is its rank.
struct Row: Sendable {
    var contact: Int32
    /// The index in the contact's `emails`, or -1 for a list with none.
    var email: Int32
    /// The address key (see ``SearchIndex/addressKey(of:)``), beside the
    /// row so that reaching a row reaches its key.
    var addressKey: UInt32 = 0
}

/// An immutable index of some contacts. Built once; shared by reference.
///
/// Invariants:
/// 1. `rows` are in ``RowKey`` order, so a row's index is its rank, and
///    the rows of one contact are consecutive.
/// 2. The vocabulary is every distinct token once, sorted by its bytes: a
///    token is a field's folded, normalized text from a word start to the
///    next space or the field's end (so a query word matches a word start
///    exactly when it starts one of the tokens).
/// 3. Token `t`'s postings are `ranked.keys[postingStarts[t]..<postingStarts[t + 1]]`,
///    in rank order: a posting of a name field (display name, name part,
///    nickname, organization) stands for every row of its contact and is
///    flagged ``RankedEntries/contactFlag``; one of an address stands for
///    its row. A contact has at most one posting per token (its best
///    class) and a row no posting its contact's already covers as well.
/// 4. `exactKeys` are sorted; each `exactTargets` entry is a row's rank
///    (an address) or a contact's first rank (a nickname) shifted left by
///    one, with the low bit set for a contact.
final class SearchIndex: Sendable {
    let contacts: [Contact]
    /// Fingerprints of the contacts' ids, sorted, and the position in
    /// `contacts` of each.
    let idKeys: [UInt32]
    let idPositions: [Int32]
    let rows: [Row]
    let halfLife: Double
    /// The vocabulary's bytes, token after token in sorted order; token
    /// `t` is `words[wordStarts[t]..<wordStarts[t + 1]]`.
    let words: [UInt8]
    let wordStarts: [Int32]
    /// The first eight bytes of each token, big-endian and zero-padded:
    /// what a search compares first.
    let wordPrefixes: [UInt64]
    /// Where each token's postings start in `ranked.keys`, and their end.
    let postingStarts: [Int32]
    /// The postings (class, contact flag, rank) with their trees of
    /// minimums, for listing a range best rank first.
    let ranked: RankedEntries
    /// Fingerprints of the folded addresses and the normalized nicknames,
    /// sorted, and what each names (see invariant 4).
    let exactKeys: [UInt32]
    let exactTargets: [UInt32]
    /// The trigrams inside the tokens, for matches inside a word.
    let trigrams: TokenTrigrams

    /// - Complexity: O(*n* log *n*) to order *n* contacts, plus O(*w*) for
    ///   their *w* word starts and O(*v* log *v*) to sort the *v* distinct
    ///   tokens.
    init(_ contacts: [Contact], halfLife: Double) {
        self.contacts = contacts
        self.halfLife = halfLife
        var ids = contacts.enumerated().map { UInt64(SearchIndex.fingerprint(SearchIndex.hash(Array($0.element.id.rawValue.utf8)))) << 32 | UInt64($0.offset) }
        ids.sort()
        idKeys = ids.map { UInt32($0 >> 32) }
        idPositions = ids.map { Int32(truncatingIfNeeded: $0) }

        // Rows in rank order: contacts by key, each one's rows by address.
        let orders = contacts.map { RowKey.emailOrder($0, halfLife: halfLife) }
        let keys = contacts.indices.map { RowKey(contacts[$0], order: orders[$0], place: 0, halfLife: halfLife) }
        let order = contacts.indices.sorted { RowKey.precedes(keys[$0], keys[$1]) }

        var rows: [Row] = []
        var vocabulary = Vocabulary()
        var postingTokens: [Int32] = []
        var postingKeys: [UInt32] = []
        var exact: [UInt64] = []
        var t = RowText()
        var contactTokens: [(token: Int32, best: UInt32)] = []
        var rowTokens: [(token: Int32, best: UInt32)] = []

        /// The tokens of fields `fields` of `t`, each with its best class.
        func collect(_ fields: Range<Int>, into list: inout [(token: Int32, best: UInt32)]) {
            list.removeAll(keepingCapacity: true)
            for k in t.starts(of: fields) {
                let s = Int(t.starts[k])
                let f = Int(t.startFields[k])
                let kind = t.kinds[f]
                let first = s == Int(t.fieldStarts[f])
                let c: UInt32 = kind == .displayName && first ? 1 : (first && kind != .domain ? 2 : 3)
                let end = t.tokenEnd(s, field: f)
                let token = t.text.withUnsafeBufferPointer {
                    vocabulary.intern(UnsafeBufferPointer(rebasing: $0[s..<end]))
                }
                if let i = list.firstIndex(where: { $0.token == token }) {
                    list[i].best = min(list[i].best, c)
                } else {
                    list.append((token, c))
                }
            }
        }

        // A contact that cannot become a chip (no address, and not a list
        // with members) has no rows: choosing a row must make a chip.
        for c in order where contacts[c].canBecomeChip {
            let contact = contacts[c]
            let first = UInt32(rows.count)
            t.removeAll()
            t.addNameFields(of: contact)
            let nameFields = t.kinds.count
            collect(0..<nameFields, into: &contactTokens)
            for (token, best) in contactTokens {
                postingTokens.append(token)
                postingKeys.append(best << 30 | RankedEntries.contactFlag | first)
            }
            for f in 0..<nameFields where t.kinds[f] == .nickname {
                let key = t.text.withUnsafeBufferPointer {
                    SearchIndex.hash(UnsafeBufferPointer(rebasing: $0[Int(t.fieldStarts[f])..<t.fieldEnd(f)]))
                }
                exact.append(UInt64(SearchIndex.fingerprint(key)) << 32 | UInt64(first) << 1 | 1)
            }
            for e in contact.emails.isEmpty ? [-1] : orders[c] {
                let rank = UInt32(rows.count)
                rows.append(Row(contact: Int32(c), email: Int32(e)))
                guard e >= 0 else { continue }
                t.truncate(fields: nameFields)
                t.addAddress(contact.emails[e].address)
                collect(nameFields..<t.kinds.count, into: &rowTokens)
                for (token, best) in rowTokens
                where !contactTokens.contains(where: { $0.token == token && $0.best <= best }) {
                    postingTokens.append(token)
                    postingKeys.append(best << 30 | rank)
                }
                let key = SearchIndex.foldedHash(contact.emails[e].address)
                exact.append(UInt64(SearchIndex.fingerprint(key)) << 32 | UInt64(rank) << 1)
                rows[rows.count - 1].addressKey = SearchIndex.addressKey(hash: key)
            }
        }
        precondition(rows.count <= Int(RankedEntries.rankMask), "SearchIndex: too many rows")

        // The vocabulary sorted, and the postings placed by their token's
        // place in it (a counting sort: each token's postings were made in
        // rank order and stay so).
        let sorted = vocabulary.sortedOrder()
        var place = [Int32](repeating: 0, count: sorted.count)
        var words: [UInt8] = []
        var wordStarts: [Int32] = []
        words.reserveCapacity(vocabulary.bytes.count)
        wordStarts.reserveCapacity(sorted.count + 1)
        for (p, token) in sorted.enumerated() {
            place[Int(token)] = Int32(p)
            wordStarts.append(Int32(words.count))
            words += vocabulary.token(token)
        }
        wordStarts.append(Int32(words.count))
        var counts = [Int32](repeating: 0, count: sorted.count + 1)
        for token in postingTokens { counts[Int(place[Int(token)]) + 1] += 1 }
        for p in 0..<sorted.count { counts[p + 1] += counts[p] }
        let postingStarts = counts
        var next = counts
        var placed = [UInt32](repeating: 0, count: postingKeys.count)
        for (i, token) in postingTokens.enumerated() {
            let p = Int(place[Int(token)])
            placed[Int(next[p])] = postingKeys[i]
            next[p] += 1
        }
        self.words = words
        self.wordStarts = wordStarts
        wordPrefixes = sorted.map { vocabulary.prefix($0) }
        trigrams = TokenTrigrams(words: words, wordStarts: wordStarts)
        self.postingStarts = postingStarts
        ranked = RankedEntries(keys: placed)
        self.rows = SearchIndex.shrunk(rows)
        exact.sort()
        exactKeys = exact.map { UInt32($0 >> 32) }
        exactTargets = exact.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The position in `contacts` of the contact with this id.
    ///
    /// - Complexity: O(log *n*).
    func position(of id: ContactID) -> Int32? {
        let key = SearchIndex.fingerprint(SearchIndex.hash(Array(id.rawValue.utf8)))
        var i = SearchIndex.lowerBound(idKeys, key)
        while i < idKeys.count && idKeys[i] == key {
            if contacts[Int(idPositions[i])].id == id { return idPositions[i] }
            i += 1
        }
        return nil
    }

    /// The rows whose folded address or normalized nickname may hash to
    /// `key` (fingerprints can collide: the caller compares the text), in
    /// rank order.
    ///
    /// - Complexity: O(log *r*) for *r* keys, plus the rows returned.
    func exactRows(_ key: UInt64) -> [Int32] {
        let fp = SearchIndex.fingerprint(key)
        var i = SearchIndex.lowerBound(exactKeys, fp)
        var out: [Int32] = []
        var next: Int32 = 0
        while i < exactKeys.count && exactKeys[i] == fp {
            let target = exactTargets[i]
            let rank = Int32(target >> 1)
            let end = target & 1 == 1 ? endOfContact(rank) : rank + 1
            // A contact's nickname may already have given this row.
            var r = max(rank, next)
            while r < end {
                out.append(r)
                r += 1
            }
            next = max(next, end)
            i += 1
        }
        return out
    }

    /// The first rank after the rows of the contact of row `rank`.
    func endOfContact(_ rank: Int32) -> Int32 {
        let c = rows[Int(rank)].contact
        var e = Int(rank) + 1
        while e < rows.count && rows[e].contact == c { e += 1 }
        return Int32(e)
    }

    /// The rows a posting stands for: its row, or its contact's rows.
    func rows(ofPosting i: Int) -> Range<Int32> {
        let key = ranked.keys[i]
        let rank = Int32(key & RankedEntries.rankMask)
        return rank..<(key & RankedEntries.contactFlag != 0 ? endOfContact(rank) : rank + 1)
    }

    /// The postings of tokens `tokens` (a range of the vocabulary).
    func postings(_ tokens: Range<Int>) -> Range<Int> {
        Int(postingStarts[tokens.lowerBound])..<Int(postingStarts[tokens.upperBound])
    }

    /// Whether the row's contact has a display name.
    func isNamed(_ row: Int32) -> Bool { !(contacts[Int(rows[Int(row)].contact)].displayName ?? "").isEmpty }

    /// A row's order key, made when rows of two indexes meet.
    func key(_ row: Int32) -> RowKey {
        let r = rows[Int(row)]
        return RowKey(contacts[Int(r.contact)], email: r.email, halfLife: halfLife)
    }

    /// A row's address key: a 32-bit fingerprint of its folded address,
    /// never 0, or 0 when it has none. Rows of one mailbox share a key;
    /// rows that share a key are of one mailbox when ``sameAddress(_:_:_:)``
    /// says so (fingerprints can collide).
    /// Merging rows of one mailbox and leaving out chipped ones compare
    /// these keys, without reaching the contact.
    func addressKey(of row: Int32) -> UInt32 { rows[Int(row)].addressKey }

    /// The address key of a folded address's hash.
    static func addressKey(hash: UInt64) -> UInt32 { max(1, fingerprint(hash)) }

    /// The address key of an address.
    ///
    /// - Complexity: O(*a*) for an address of *a* bytes.
    static func addressKey(_ address: String) -> UInt32 { addressKey(hash: foldedHash(address)) }

    /// Whether a row of this index and a row of `other` reach the same
    /// mailbox: their addresses fold to the same text.
    ///
    /// - Complexity: O(*a*) for addresses of *a* bytes.
    func sameAddress(_ row: Int32, _ other: SearchIndex, _ otherRow: Int32) -> Bool {
        SearchIndex.foldedEqual(address(of: row), other.address(of: otherRow))
    }

    /// Whether two texts fold to the same bytes.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func foldedEqual(_ a: String, _ b: String) -> Bool { folds(a, to: SearchFold.fold(b)) }
}

extension SearchIndex {
    /// `hash(SearchFold.fold(text))`, without a folded copy when the text
    /// is ASCII (which folds to its lower case).
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func foldedHash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes in
            guard isASCII(bytes) else {
                var folded: [UInt8] = []
                SearchFold.fold(bytes, into: &folded)
                return hash(folded)
            }
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for b in bytes {
                h ^= UInt64(b &- 0x41 < 26 ? b | 0x20 : b)
                h &*= 0x0000_0100_0000_01B3
            }
            return h == 0 ? 1 : h
        }
    }
}

/// Distinct tokens while an index is built: their bytes back to back and
/// an open-addressing table of their numbers by hash.
struct Vocabulary {
    var bytes: [UInt8] = []
    var starts: [Int32] = [0]
    var hashes: [UInt64] = []
    var slots = [Int32](repeating: -1, count: 1024)

    var count: Int { starts.count - 1 }

    func token(_ t: Int32) -> ArraySlice<UInt8> { bytes[Int(starts[Int(t)])..<Int(starts[Int(t) + 1])] }

    /// The number of this token, added when new.
    ///
    /// - Complexity: O(*k*) for a token of *k* bytes, amortized.
    mutating func intern(_ token: UnsafeBufferPointer<UInt8>) -> Int32 {
        let h = SearchIndex.hash(token)
        var mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] >= 0 {
            let t = Int(slots[i])
            if hashes[t] == h && self.token(Int32(t)).elementsEqual(token) { return Int32(t) }
            i = (i + 1) & mask
        }
        let t = Int32(count)
        bytes.append(contentsOf: token)
        starts.append(Int32(bytes.count))
        hashes.append(h)
        slots[i] = t
        if count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (k, h) in hashes.enumerated() {
                var j = Int(truncatingIfNeeded: h) & mask
                while slots[j] >= 0 { j = (j + 1) & mask }
                slots[j] = Int32(k)
            }
        }
        return t
    }

    /// A token's first eight bytes, big-endian and zero-padded.
    func prefix(_ t: Int32) -> UInt64 {
        var key: UInt64 = 0
        let s = Int(starts[Int(t)]), e = Int(starts[Int(t) + 1])
        for k in 0..<8 { key = key << 8 | (s + k < e ? UInt64(bytes[s + k]) : 0) }
        return key
    }

    /// The tokens' numbers in the order of their bytes.
    ///
    /// - Complexity: O(*v* log *v*) for *v* tokens (most compared by their
    ///   first eight bytes).
    func sortedOrder() -> [Int32] {
        let prefixes = (0..<Int32(count)).map { prefix($0) }
        return bytes.withUnsafeBufferPointer { b in
            (0..<Int32(count)).sorted { x, y in
                if prefixes[Int(x)] != prefixes[Int(y)] { return prefixes[Int(x)] < prefixes[Int(y)] }
                let c = SearchIndex.compare(
                    b, Int(starts[Int(x)])..<Int(starts[Int(x) + 1]), Int(starts[Int(y)])..<Int(starts[Int(y) + 1]))
                return c < 0
            }
        }
    }
}

/// A row's fields folded and normalized as the index folds them, made on
/// demand for the few rows a query checks or shows (the index keeps no
/// folded text but its vocabulary's). Reused between rows, so its arrays
/// are allocated once.
struct RowText {
    /// The fields' normalized text, back to back.
    var text: [UInt8] = []
    /// For each byte of `text`, the offset in its field's own bytes of the
    /// scalar it came from (a space takes the next byte's).
    var origins: [Int32] = []
    var fieldStarts: [Int32] = []
    var kinds: [FieldKind] = []
    /// Every word start, in text order, and its field.
    var starts: [Int32] = []
    var startFields: [Int32] = []
    /// Where the address's domain starts in the address (after its last
    /// `@`), and where its local part ends.
    var localLength = 0
    /// Scratch for folding an address (``isExact(_:row:_:)``).
    var folded: [UInt8] = []
    /// The contact whose name fields the text holds after ``load(_:row:)``,
    /// and how many fields they are.
    var loaded: (index: SearchIndex, contact: Int32, nameFields: Int)?

    init() {}

    /// The text of `row`: its contact's name fields, then its address.
    init(_ index: SearchIndex, row: Int32) {
        load(index, row: row)
    }

    mutating func load(_ index: SearchIndex, row: Int32) {
        let r = index.rows[Int(row)]
        if let l = loaded, l.index === index, l.contact == r.contact {
            // A contact's rows are consecutive: its name fields stay, and
            // only the address changes.
            truncate(fields: l.nameFields)
            localLength = 0
        } else {
            removeAll()
            addNameFields(of: index.contacts[Int(r.contact)])
            loaded = (index, r.contact, kinds.count)
        }
        if r.email >= 0 { addAddress(index.contacts[Int(r.contact)].emails[Int(r.email)].address) }
    }

    mutating func removeAll() {
        loaded = nil
        text.removeAll(keepingCapacity: true)
        origins.removeAll(keepingCapacity: true)
        fieldStarts.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        startFields.removeAll(keepingCapacity: true)
        localLength = 0
    }

    /// Keeps the first `fields` fields.
    mutating func truncate(fields: Int) {
        guard fields < kinds.count else { return }
        let end = Int(fieldStarts[fields])
        text.removeSubrange(end...)
        origins.removeSubrange(end...)
        fieldStarts.removeSubrange(fields...)
        kinds.removeSubrange(fields...)
        while let last = startFields.last, Int(last) >= fields {
            startFields.removeLast()
            starts.removeLast()
        }
    }

    /// The display name, the structured name's parts, the nicknames and
    /// the organization, in that order.
    mutating func addNameFields(of contact: Contact) {
        if let name = contact.displayName { add(name, .displayName) }
        for part in contact.name.given { add(part, .namePart) }
        for part in contact.name.additional { add(part, .namePart) }
        for part in contact.name.family { add(part, .namePart) }
        for nick in contact.nicknames { add(nick, .nickname) }
        if let org = contact.organization { add(org, .organization) }
    }

    /// The local part (before the last `@`) and the domain.
    mutating func addAddress(_ address: String) {
        var address = address
        address.withUTF8 { bytes in
            let at = bytes.lastIndex(of: UInt8(ascii: "@")) ?? bytes.count
            localLength = at
            add(UnsafeBufferPointer(rebasing: bytes[..<at]), .localPart)
            if at < bytes.count { add(UnsafeBufferPointer(rebasing: bytes[(at + 1)...]), .domain) }
        }
    }

    mutating func add(_ value: String, _ kind: FieldKind) {
        var value = value
        value.withUTF8 { add($0, kind) }
    }

    /// Folds and normalizes one field; a field with no word is left out.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, _ kind: FieldKind) {
        let start = text.count
        let firstStart = starts.count
        SearchIndex.withNormalized(bytes, kind, base: start, starts: &starts) { normalized, normalizedOrigins in
            text.append(contentsOf: normalized)
            origins.append(contentsOf: normalizedOrigins)
        }
        guard text.count > start else { return }
        let field = Int32(kinds.count)
        fieldStarts.append(Int32(start))
        kinds.append(kind)
        for _ in firstStart..<starts.count { startFields.append(field) }
    }

    func fieldEnd(_ f: Int) -> Int { f + 1 < fieldStarts.count ? Int(fieldStarts[f + 1]) : text.count }

    /// The word starts of fields `fields`.
    func starts(of fields: Range<Int>) -> Range<Int> {
        guard !fields.isEmpty else { return 0..<0 }
        var lo = 0
        while lo < startFields.count && Int(startFields[lo]) < fields.lowerBound { lo += 1 }
        var hi = lo
        while hi < startFields.count && Int(startFields[hi]) < fields.upperBound { hi += 1 }
        return lo..<hi
    }

    /// Where the token starting at `s` of field `f` ends: at the next
    /// space or the field's end.
    func tokenEnd(_ s: Int, field f: Int) -> Int {
        let end = fieldEnd(f)
        var i = s
        while i < end && text[i] != 0x20 { i += 1 }
        return i
    }

    /// Whether the text from word start `k` to its field's end starts
    /// with `word`.
    func start(_ k: Int, startsWith word: [UInt8]) -> Bool {
        let s = Int(starts[k])
        let end = fieldEnd(Int(startFields[k]))
        guard end - s >= word.count else { return false }
        for i in 0..<word.count where text[s + i] != word[i] { return false }
        return true
    }

    /// Whether some field's normalized text holds `word` (which has no
    /// space, so never across two fields' words).
    func contains(_ word: [UInt8]) -> Bool {
        guard let first = word.first, text.count >= word.count else { return false }
        var i = 0
        let last = text.count - word.count
        while i <= last {
            if text[i] == first {
                var k = 1
                while k < word.count && text[i + k] == word[k] { k += 1 }
                // Within one field: fields meet without a space between.
                if k == word.count && fieldOf(i) == fieldOf(i + word.count - 1) { return true }
            }
            i += 1
        }
        return false
    }

    /// The field holding byte `i` of the text.
    func fieldOf(_ i: Int) -> Int {
        var f = 0
        while f + 1 < fieldStarts.count && Int(fieldStarts[f + 1]) <= i { f += 1 }
        return f
    }

    /// The class of a single word's match at word start `k`.
    func matchClass(_ k: Int) -> MatchClass {
        let f = Int(startFields[k])
        let first = starts[k] == fieldStarts[f]
        if kinds[f] == .displayName && first { return .fullNamePrefix }
        return first && kinds[f] != .domain ? .firstWord : .otherWord
    }
}

extension SearchIndex {
    /// Appends a field's folded text with every run of separators made one
    /// space (none at either end), and to `starts` the offset in `text` of
    /// each word's start. Words start after a separator, at every
    /// character of a script written without spaces, and (in a local part)
    /// where letters and digits meet: `john.smith2024` has three.
    static func normalize(
        _ folded: [UInt8], _ from: [Int32], _ kind: FieldKind,
        into text: inout [UInt8], _ origins: inout [Int32], starts: inout [Int32]
    ) {
        let base = text.count
        folded.withUnsafeBufferPointer { f in
            from.withUnsafeBufferPointer { o in
                writeNormalized(count: f.count, into: &text, &origins) { out, outOrigins in
                    normalizeScalars(f, o.baseAddress!, kind, out, outOrigins, base: base, starts: &starts)
                }
            }
        }
    }

    /// Calls `body` with a field folded and normalized as
    /// ``normalize(_:_:_:into:_:starts:)`` makes it, and the origins of its
    /// bytes, appending its word starts (offset by `base`) to `starts`.
    /// The text is made on the stack when it fits (a name or an address
    /// nearly always does), else in arrays.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func withNormalized(
        _ bytes: UnsafeBufferPointer<UInt8>, _ kind: FieldKind, base: Int, starts: inout [Int32],
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Int32>) -> Void
    ) {
        SearchFold.withFolded(bytes) { folded, from in
            // The normalized text is never longer than the folded.
            let room = max(1, folded.count)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { text in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: room) { origins in
                    let m = folded.isEmpty ? 0 : normalizeScalars(
                        folded, from.baseAddress!, kind, text.baseAddress!, origins.baseAddress!, base: base,
                        starts: &starts, original: bytes)
                    body(UnsafeBufferPointer(rebasing: text[..<m]), UnsafeBufferPointer(rebasing: origins[..<m]))
                }
            }
        }
    }

    /// Reserves `count` more bytes of text and origins (a field's
    /// normalized text is never longer than its folded text, nor folded
    /// ASCII than the ASCII) and lets `body` write them, returning how many
    /// it wrote.
    @inline(__always)
    static func writeNormalized(
        count: Int, into text: inout [UInt8], _ origins: inout [Int32],
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<Int32>) -> Int
    ) {
        guard count > 0 else { return }
        text.append(addingCapacity: count) { textSpan in
            textSpan.withUnsafeMutableBufferPointer { textBuffer, textCount in
                origins.append(addingCapacity: count) { originSpan in
                    originSpan.withUnsafeMutableBufferPointer { originBuffer, originCount in
                        textCount = body(textBuffer.baseAddress!, originBuffer.baseAddress!)
                        originCount = textCount
                    }
                }
            }
        }
    }

    /// The walk of ``normalize(_:_:_:into:_:starts:)`` over folded UTF-8,
    /// writing to `out` and `outOrigins`; `base` is the text's length
    /// before, for the word starts. Returns the bytes written.
    ///
    /// A run of separators with white space or a control in it (a *gap*)
    /// becomes one space; a run of punctuation or symbols alone between
    /// two words (`O'Brien`, `Jean-Luc`, `john.smith`) is left out, so the
    /// words join (`obrien`), and the word after it still starts a word.
    /// With the `original` text (whose offsets `from` holds), a lower-case
    /// letter followed by an upper-case one starts a word there too
    /// (`PrimaryEmail1`: `primary`, `email1`, and `1` in a local part).
    static func normalizeScalars(
        _ folded: UnsafeBufferPointer<UInt8>, _ from: UnsafePointer<Int32>, _ kind: FieldKind,
        _ out: UnsafeMutablePointer<UInt8>, _ outOrigins: UnsafeMutablePointer<Int32>, base: Int,
        starts: inout [Int32], original: UnsafeBufferPointer<UInt8>? = nil
    ) -> Int {
        let tables = foldingTables
        let separators = asciiSeparators
        var i = 0
        var n = 0
        var pendingSpace = false
        var pendingJoin = false
        var previousDigit: Bool?
        var previousLower = false
        var previousOrigin: Int32 = -1
        while i < folded.count {
            let (scalar, length) = decodeScalar(folded, i)
            let wordClass: FoldingTables.WordClass = scalar < 0x80
                ? ((scalar < 64 ? separators.low >> UInt64(scalar) : separators.high >> UInt64(scalar - 64)) & 1 == 1
                    ? .separator : .word)
                : FoldingTables.wordClass(of: tables.entry(scalar))
            if wordClass == .separator
                || (kind == .localPart && (scalar == 0x2B || scalar == 0x5F || scalar == 0x2E || scalar == 0x2D)) {
                if isGap(scalar) { pendingSpace = n > 0 } else if n > 0 { pendingJoin = true }
                previousDigit = nil
                previousLower = false
                i += length
                continue
            }
            let digit = scalar >= 0x30 && scalar <= 0x39
            var begins = n == 0 || pendingSpace || pendingJoin || wordClass == .spaceless
            if kind == .localPart, let previousDigit, previousDigit != digit { begins = true }
            if let original, from[i] != previousOrigin {
                let c = letterCase(original, Int(from[i]))
                if previousLower && c > 0 { begins = true }
                previousLower = c < 0
                previousOrigin = from[i]
            }
            if pendingSpace {
                out[n] = 0x20
                outOrigins[n] = from[i]
                n += 1
            }
            pendingSpace = false
            pendingJoin = false
            if begins { starts.append(Int32(base + n)) }
            for k in 0..<length {
                out[n] = folded[i + k]
                outOrigins[n] = from[i]
                n += 1
            }
            previousDigit = digit
            i += length
        }
        return n
    }

    /// Whether a separator is a gap between words (white space, a control,
    /// a format character) rather than punctuation or a symbol, which
    /// joins the words on either side when nothing else stands between.
    @inline(__always)
    static func isGap(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return scalar <= 0x20 || scalar == 0x7F }
        guard let s = Unicode.Scalar(scalar) else { return true }
        switch s.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format: return true
        default: return false
        }
    }

    /// The case of the scalar starting at byte `i` of UTF-8 text: −1 a
    /// lower-case letter, 1 an upper-case one, 0 neither. Only the Latin
    /// letters (to U+024F, two bytes at most) are asked: camel case is
    /// written in them, and a name in Cyrillic or Greek would otherwise
    /// pay a look-up of its properties per letter at every keystroke.
    @inline(__always)
    static func letterCase(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = text[i]
        if b < 0x80 { return b &- 0x61 < 26 ? -1 : (b &- 0x41 < 26 ? 1 : 0) }
        guard b >= 0xC3 && b <= 0xC9, i + 1 < text.count else { return 0 }
        let v = UInt32(b & 0x1F) << 6 | UInt32(text[i + 1] & 0x3F)
        guard v >= 0xC0, let s = Unicode.Scalar(v) else { return 0 }
        return s.properties.isLowercase ? -1 : (s.properties.isUppercase ? 1 : 0)
    }

    /// The scalar at `i` of UTF-8 bytes and its length (U+FFFD and 1 for a
    /// byte that starts no valid sequence).
    @inline(__always)
    static func decodeScalar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
        let lead = b[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, i + length <= b.count else { return (0xFFFD, 1) }
        var v = UInt32(lead) & (0xFF >> UInt32(length + 1))
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            v = v << 6 | UInt32(c & 0x3F)
        }
        return (v, length)
    }

    /// Orders two byte ranges of `t` as strings.
    static func compare(_ t: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Int {
        let n = min(a.count, b.count)
        var i = 0
        while i < n {
            let x = t[a.lowerBound + i], y = t[b.lowerBound + i]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// A copy of `array` with no spare capacity (an array grown by
    /// appending holds up to twice its count).
    static func shrunk<T>(_ array: [T]) -> [T] {
        guard array.capacity > array.count else { return array }
        return [T](unsafeUninitializedCapacity: array.count) { buffer, count in
            _ = buffer.initialize(from: array)
            count = array.count
        }
    }

    /// The first position in `sorted` whose value is not below `key`.
    static func lowerBound<T: Comparable>(_ sorted: [T], _ key: T) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The 32 bits of a hash that the sorted key arrays hold.
    static func fingerprint(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32 ^ hash) }

    /// Whether every byte is ASCII, eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        var any: UInt64 = 0
        while i + 8 <= bytes.count {
            any |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            any |= UInt64(base[i])
            i += 1
        }
        return any & 0x8080_8080_8080_8080 == 0
    }

    /// `SearchFold.fold(_:into:origins:)`, with ASCII (which folds to its
    /// lower case, each byte its own origin) written without the tables.
    ///
    /// - Complexity: O(*n*) for *n* bytes (more appended when folding
    ///   lengthens the text).
    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into folded: inout [UInt8], origins: inout [Int32]) {
        guard isASCII(bytes) else {
            SearchFold.fold(bytes, into: &folded, origins: &origins)
            return
        }
        writeNormalized(count: bytes.count, into: &folded, &origins) { out, outOrigins in
            for (i, b) in bytes.enumerated() {
                out[i] = b &- 0x41 < 26 ? b | 0x20 : b
                outOrigins[i] = Int32(i)
            }
            return bytes.count
        }
    }

    /// Which ASCII bytes separate words, as bits (the folding tables' word
    /// classes of the first 128 scalars).
    static let asciiSeparators: (low: UInt64, high: UInt64) = {
        var low: UInt64 = 0, high: UInt64 = 0
        for b in 0..<64 where SearchFold.isWordSeparator(UInt32(b)) { low |= 1 << UInt64(b) }
        for b in 64..<128 where SearchFold.isWordSeparator(UInt32(b)) { high |= 1 << UInt64(b - 64) }
        return (low, high)
    }()

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01B3
        }
        return h == 0 ? 1 : h
    }

    /// A query or nickname folded and normalized as names are: words
    /// separated by one space.
    static func normalizedQuery(_ text: String) -> [UInt8] {
        var folded: [UInt8] = []
        var from: [Int32] = []
        var t = text
        t.withUTF8 { SearchFold.fold($0, into: &folded, origins: &from) }
        var out: [UInt8] = []
        var ignored: [Int32] = [], starts: [Int32] = []
        normalize(folded, from, .displayName, into: &out, &ignored, starts: &starts)
        return out
    }

    /// The tokens that a query word matches, a contiguous range of the
    /// vocabulary, looked for within `bounds` (a word's range holds the
    /// ranges of all its extensions, so a query narrowed by a keystroke
    /// searches only the previous range). A word of several (a quoted
    /// phrase) can only start where its first word is a whole token: its
    /// range is that token, and its rows are checked against their text.
    ///
    /// - Complexity: O(log *v*) for *v* tokens, and O(|word|) per
    ///   comparison past a word's first eight bytes.
    func range(of word: [UInt8], within bounds: Range<Int>? = nil) -> Range<Int> {
        let limits = bounds ?? 0..<wordPrefixes.count
        let space = word.firstIndex(of: 0x20)
        let q = space.map { Array(word[..<$0]) } ?? word
        var low: UInt64 = 0, high: UInt64 = 0
        for k in 0..<8 {
            let b: UInt64? = k < q.count ? UInt64(q[k]) : nil
            low = low << 8 | (b ?? 0)
            high = high << 8 | (b ?? 0xFF)
        }
        func first(_ above: (Int) -> Bool, _ range: Range<Int>) -> Int {
            var lo = range.lowerBound, hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) / 2
                if above(mid) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        var lo = first({ wordPrefixes[$0] >= low }, limits)
        var hi = first({ wordPrefixes[$0] > high }, lo..<limits.upperBound)
        if q.count > 8 {
            // The first eight bytes agree within lo..<hi; compare the rest.
            words.withUnsafeBufferPointer { w in
                func order(_ t: Int) -> Int {
                    let s = Int(wordStarts[t]), e = Int(wordStarts[t + 1])
                    for i in 8..<q.count {
                        if s + i >= e { return -1 }
                        if w[s + i] != q[i] { return w[s + i] < q[i] ? -1 : 1 }
                    }
                    return 0
                }
                lo = first({ order($0) >= 0 }, lo..<hi)
                hi = first({ order($0) > 0 }, lo..<hi)
            }
        }
        guard space != nil else { return lo..<hi }
        // The whole token, if any, sorts first among its extensions.
        guard lo < hi, Int(wordStarts[lo + 1] - wordStarts[lo]) == q.count else { return lo..<lo }
        return lo..<lo + 1
    }
}

/// A parsed query: its words, folded and normalized (a quoted phrase is
/// one word with its spaces), and the whole query folded for exact matches.
struct SearchQuery: Sendable, Hashable {
    var words: [[UInt8]]
    /// The query's words joined by one space.
    var phrase: [UInt8]
    /// The query folded as typed (for an exact address).
    var folded: [UInt8]
    /// Their hashes, for the exact look-ups.
    var foldedHash: UInt64 = 0
    var phraseHash: UInt64 = 0

    init(_ text: String) {
        var words: [[UInt8]] = []
        var folded: [UInt8] = []
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x22 }) {
            // ASCII without quotes, as most keystrokes make it: folded is
            // lower case, and the words are the runs between separators.
            let separators = SearchIndex.asciiSeparators
            var lo = text.utf8.startIndex, hi = text.utf8.endIndex
            while lo < hi && (text.utf8[lo] == 0x20 || text.utf8[lo] == 0x09) { lo = text.utf8.index(after: lo) }
            while hi > lo, case let b = text.utf8[text.utf8.index(before: hi)], b == 0x20 || b == 0x09 {
                hi = text.utf8.index(before: hi)
            }
            folded.reserveCapacity(text.utf8.distance(from: lo, to: hi))
            var word: [UInt8] = []
            var gap = false
            for b in text.utf8[lo..<hi] {
                let lower = b &- 0x41 < 26 ? b | 0x20 : b
                folded.append(lower)
                if (b < 64 ? separators.low >> UInt64(b) : separators.high >> UInt64(b - 64)) & 1 == 1 {
                    // White space ends a word; punctuation joins its two sides.
                    if b <= 0x20 || b == 0x7F { gap = true }
                } else {
                    if gap && !word.isEmpty {
                        words.append(word)
                        word.removeAll()
                    }
                    gap = false
                    word.append(lower)
                }
            }
            if !word.isEmpty { words.append(word) }
            self.init(words: words, folded: folded)
        } else {
            self.init(folding: text)
        }
    }

    /// The query parsed by folding and normalizing with the tables, as
    /// any text: the reference the ASCII path is tested against.
    init(folding text: String) {
        var text = text
        var words: [[UInt8]] = []
        var folded: [UInt8] = []
        text.withUTF8 { bytes in
            var lo = 0, hi = bytes.count
            while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
            while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
            SearchFold.fold(UnsafeBufferPointer(rebasing: bytes[lo..<hi]), into: &folded)
            // The words between quotes (an ASCII byte, never inside a
            // longer sequence) are one phrase.
            var starts: [Int32] = []
            var quoted = false
            var start = 0
            func flush(_ end: Int) {
                SearchIndex.withNormalized(UnsafeBufferPointer(rebasing: bytes[start..<end]), .displayName, base: 0, starts: &starts) {
                    out, _ in
                    guard !out.isEmpty else { return }
                    if quoted {
                        words.append(Array(out))
                    } else {
                        words.append(contentsOf: out.split(separator: 0x20).map(Array.init))
                    }
                }
            }
            for i in 0..<bytes.count where bytes[i] == 0x22 {
                flush(i)
                quoted.toggle()
                start = i + 1
            }
            flush(bytes.count)
        }
        self.init(words: words, folded: folded)
    }

    /// The word a match inside a word is looked for: the query's one
    /// word, when it has no space and three letters or more (scalars
    /// other than the ASCII digits: `281` is looked for at word starts
    /// only, as it would match inside thousands of numbered addresses).
    var inWordQuery: [UInt8]? {
        guard words.count == 1, !words[0].contains(0x20) else { return nil }
        var letters = 0
        for b in words[0] where b & 0xC0 != 0x80 && !(b >= 0x30 && b <= 0x39) {
            letters += 1
            if letters >= 3 { return words[0] }
        }
        return nil
    }

    init(words: [[UInt8]], folded: [UInt8]) {
        self.folded = folded
        self.words = words
        phrase = words.count == 1 ? words[0] : Array(words.joined(separator: [0x20]))
        foldedHash = SearchIndex.hash(folded)
        phraseHash = SearchIndex.hash(phrase)
    }
}

/// A row that matched, before it becomes a ``Suggestion``.
struct Hit: Sendable {
    var row: Int32
    var matchClass: MatchClass
}

extension SearchIndex {
    /// The class of the row's match with every word of the query, or nil
    /// when some word starts none of its words. (Whether the row is exact
    /// is the caller's to know: ``allExactHits(_:)``.)
    ///
    /// - Complexity: O(*b* + *s* · *q*) for a row of *b* bytes and *s* word
    ///   starts, and *q* bytes of query: the row is folded again.
    func classify(_ row: Int32, _ q: SearchQuery, _ t: inout RowText) -> MatchClass? {
        t.load(self, row: row)
        return SearchIndex.classify(t, q)
    }

    /// The class of a row's text's match with the query, inside words
    /// too: what the scan finds.
    static func classifyAnywhere(_ t: RowText, _ q: SearchQuery) -> MatchClass? {
        if let c = classify(t, q) { return c }
        guard let word = q.inWordQuery else { return nil }
        return t.contains(word) ? .inWord : nil
    }

    /// The class of a row's text's match with every word of the query.
    static func classify(_ t: RowText, _ q: SearchQuery) -> MatchClass? {
        var best = MatchClass.otherWord
        for word in q.words {
            var found: MatchClass?
            for k in t.starts.indices where t.start(k, startsWith: word) {
                let c = t.matchClass(k)
                found = min(found ?? c, c)
            }
            guard let found else { return nil }
            if found == .firstWord || found == .fullNamePrefix { best = min(best, .firstWord) }
        }
        if !q.phrase.isEmpty, let k = t.starts.indices.first,
           t.kinds[Int(t.startFields[k])] == .displayName, t.start(k, startsWith: q.phrase) {
            best = .fullNamePrefix
        }
        return best
    }

    /// Whether the query is the row's address (folded) or one of its
    /// nicknames (folded and normalized as a query's phrase is).
    ///
    /// Only the address and the nicknames are read (ASCII compared as it
    /// is read, without a copy), not the rest of the row.
    ///
    /// - Complexity: O(*b*) for an address and nicknames of *b* bytes.
    func isExact(_ row: Int32, _ q: SearchQuery) -> Bool {
        let r = rows[Int(row)]
        let contact = contacts[Int(r.contact)]
        if r.email >= 0, SearchIndex.folds(contact.emails[Int(r.email)].address, to: q.folded) { return true }
        return !q.phrase.isEmpty && contact.nicknames.contains { SearchIndex.normalizes($0, to: q.phrase) }
    }

    /// Whether `text` folds to `folded`.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func folds(_ text: String, to folded: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { x in
            guard isASCII(x) else {
                var f: [UInt8] = []
                SearchFold.fold(x, into: &f)
                return f == folded
            }
            guard x.count == folded.count else { return false }
            for i in 0..<x.count where (x[i] &- 0x41 < 26 ? x[i] | 0x20 : x[i]) != folded[i] { return false }
            return true
        }
    }

    /// Whether a name, folded and normalized as a query is (each run of
    /// separators one space, none at the ends), is `phrase`.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func normalizes(_ name: String, to phrase: [UInt8]) -> Bool {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return normalizedQuery(name) == phrase }
        let separators = asciiSeparators
        var j = 0
        var pendingSpace = false
        for b in name.utf8 {
            if (b < 64 ? separators.low >> UInt64(b) : separators.high >> UInt64(b - 64)) & 1 == 1 {
                // Punctuation between words joins them: only a gap is a space.
                if j > 0 && (b <= 0x20 || b == 0x7F) { pendingSpace = true }
                continue
            }
            if pendingSpace {
                guard j < phrase.count, phrase[j] == 0x20 else { return false }
                j += 1
                pendingSpace = false
            }
            guard j < phrase.count, phrase[j] == (b &- 0x41 < 26 ? b | 0x20 : b) else { return false }
            j += 1
        }
        return j == phrase.count
    }

    /// The vocabulary range of each query word, searched within `previous`
    /// where the word extends the previous query's word at the same place.
    func ranges(_ q: SearchQuery, after previous: (query: SearchQuery, ranges: [Range<Int>])?) -> [Range<Int>] {
        q.words.enumerated().map { i, word in
            if let previous, i < previous.query.words.count, word.starts(with: previous.query.words[i]) {
                return range(of: word, within: previous.ranges[i])
            }
            return range(of: word)
        }
    }

    /// Every matching row, with its class, given the vocabulary range of
    /// each query word.
    ///
    /// - Complexity: O(*m* · *b*) for *m* rows with a token of the query's
    ///   rarest word, of *b* bytes each.
    func allHits(_ q: SearchQuery, ranges: [Range<Int>]) -> [Hit] {
        guard !q.words.isEmpty, let rarest = ranges.min(by: { postings($0).count < postings($1).count }) else { return [] }
        // (A query word that starts no token may still stand inside one.)
        // An exact address or nickname may match where no word starts (a
        // nickname with punctuation need not start one).
        var hits = allExactHits(q)
        var seen = Set(hits.map(\.row))
        var t = RowText()
        for i in postings(rarest) {
            for row in rows(ofPosting: i) where seen.insert(row).inserted {
                if let c = classify(row, q, &t) { hits.append(Hit(row: row, matchClass: c)) }
            }
        }
        // Rows of the rarest word's postings that no word start matched
        // may still hold the word inside one.
        seen = Set(hits.map(\.row))
        return hits + allInWordHits(q, seen: &seen)
    }

    /// Orders hits: class, then row rank.
    func sorted(_ hits: [Hit]) -> [Hit] {
        hits.sorted { a, b in a.matchClass != b.matchClass ? a.matchClass < b.matchClass : a.row < b.row }
    }
}

extension SearchIndex {
    /// The bytes each part of the index holds on the heap, by name:
    /// arrays by capacity and stride. The contacts themselves are the
    /// caller's and not counted.
    ///
    /// - Complexity: O(1).
    package var footprint: [(part: String, bytes: Int)] {
        func array<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride + (a.capacity > 0 ? 32 : 0) }
        return [
            ("ids", array(idKeys) + array(idPositions)),
            ("rows", array(rows)),
            ("vocabulary", array(words) + array(wordStarts) + array(wordPrefixes)),
            ("postings", array(postingStarts) + array(ranked.keys)),
            ("trees", array(ranked.trees)),
            ("exact", array(exactKeys) + array(exactTargets)),
            ("trigrams", array(trigrams.keys) + array(trigrams.starts) + array(trigrams.tokens)),
        ]
    }
}
