// The folding index behind suggestions: every word start of every field,
// as the folded text from there to the field's end, sorted, so that a
// query word's matches are one contiguous range found by binary search.

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

    public static func < (a: MatchClass, b: MatchClass) -> Bool { a.rawValue < b.rawValue }
}

/// What a field of a row holds.
enum FieldKind: UInt8 {
    case displayName, namePart, nickname, organization, localPart, domain
}

/// A row's order among equals of a match class: more (decayed) use first,
/// then the display name, then the contact's id, then the address's
/// position in the contact. A total order.
struct RowKey: Sendable {
    /// log₂ of the usage weight plus `last / halfLife`: the decayed score's
    /// logarithm up to a constant shared by all rows at any one moment, so
    /// the order of two contacts by score never changes as time passes.
    var usage: Double
    var name: [UInt8]
    var id: ContactID
    var email: Int32

    static func precedes(_ a: RowKey, _ b: RowKey) -> Bool {
        if a.usage != b.usage { return a.usage > b.usage }
        if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
        if a.id != b.id { return a.id < b.id }
        return a.email < b.email
    }

    init(_ contact: Contact, email: Int32, halfLife: Double) {
        if let last = contact.usage.last, contact.usage.weight > 0 {
            usage = log2Approximation(contact.usage.weight) + last / halfLife
        } else {
            usage = -.infinity
        }
        name = SearchFold.fold(contact.displayName ?? "")
        id = contact.id
        self.email = email
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
/// without one).
struct Row: Sendable {
    /// Hash of the normalized address (0 when none), to merge rows that
    /// reach the same mailbox.
    var addressKey: UInt64
    var contact: Int32
    /// The index in the contact's `emails`, or -1 for a list with none.
    var email: Int32
    /// The row's position in ``RowKey`` order within its index.
    var rank: Int32
    /// Where this row's word starts begin in ``SearchIndex/rowStarts``
    /// (they end where the next row's begin).
    var firstEntry: Int32
    /// The row's first field (its fields end where the next row's begin).
    var firstField: Int32
}

/// A field's folded text: where it starts in the index's text (it ends
/// where the next field starts), its row and its kind.
struct Field: Sendable {
    var start: Int32
    /// The row shifted left by three bits, and the kind.
    var packed: UInt32

    init(row: Int32, kind: FieldKind, start: Int32) {
        self.start = start
        packed = UInt32(row) << 3 | UInt32(kind.rawValue)
    }

    var row: Int32 { Int32(packed >> 3) }
    var kind: FieldKind { FieldKind(rawValue: UInt8(packed & 7))! }
}

/// A word start: the folded text of `field` from `start` to the field's end.
struct Entry: Sendable {
    var field: Int32
    var start: Int32
}

/// A sorted word start: its text from `start` to its field's `end`, all a
/// search reads.
struct EntryText: Sendable {
    var start: Int32
    var end: Int32
}

/// An immutable index of some contacts. Built once; shared by reference.
final class SearchIndex: Sendable {
    let contacts: [Contact]
    /// The hashes of the contacts' ids, sorted, and the position in
    /// `contacts` of each.
    let idHashes: [UInt64]
    let idPositions: [Int32]
    let rows: [Row]
    let halfLife: Double
    /// Every field, in text order, and one more that starts where the
    /// text ends.
    let fields: [Field]
    /// The folded, normalized text of every field, back to back. (Where
    /// each byte came from is found again for the few rows shown.)
    let text: [UInt8]
    /// Every word start, sorted by the text from there to its field's end
    /// (ties by rank); ``ranked`` holds each one's class and rank.
    let entries: [EntryText]
    /// For each row, the indices in `entries` of its word starts.
    /// For each row in turn, the text offsets of its word starts in text
    /// order: what classifying a row reads, next to its fields and text,
    /// rather than entries all over the sorted array.
    let rowStarts: [Int32]
    /// The hashes of the rows' folded addresses and folded nicknames,
    /// sorted, and the row of each.
    let exactKeys: [UInt64]
    let exactRows: [Int32]
    /// The entries' classes and ranks, for listing a range best first.
    let ranked: RankedEntries
    /// The row of each rank: a ranked entry's row without reading the
    /// entry or its field.
    let rowByRank: [Int32]
    /// The first eight bytes (big-endian, zero-padded) of every
    /// ``sampleStride``-th entry's text: a small array that a search reads
    /// first, so that only a window of entries is read through `fields`.
    let samples: [UInt64]
    static let sampleStride = 32

    /// - Complexity: O(*w* log *w*) for *w* word starts (a few per field).
    init(_ contacts: [Contact], halfLife: Double) {
        self.contacts = contacts
        let ids = contacts.map { SearchIndex.hash(Array($0.id.rawValue.utf8)) }
        let idOrder = ids.indices.sorted { ids[$0] < ids[$1] }
        idHashes = idOrder.map { ids[$0] }
        idPositions = idOrder.map { Int32($0) }
        var rows: [Row] = []
        var keys: [RowKey] = []  // for the ranks only
        var fields: [Field] = []
        var text: [UInt8] = []
        var discarded: [Int32] = []
        var entries: [Entry] = []
        var exact: [(key: UInt64, row: Int32)] = []
        var rowStarts: [Int32] = []
        var scratch: [UInt8] = []
        var scratchOrigins: [Int32] = []

        func addField(_ value: String, _ kind: FieldKind, row: Int32) {
            guard !value.isEmpty else { return }
            scratch.removeAll(keepingCapacity: true)
            scratchOrigins.removeAll(keepingCapacity: true)
            var value = value
            value.withUTF8 { SearchFold.fold($0, into: &scratch, origins: &scratchOrigins) }
            let start = Int32(text.count)
            let fieldIndex = Int32(fields.count)
            discarded.removeAll(keepingCapacity: true)
            SearchIndex.normalize(scratch, scratchOrigins, kind, into: &text, &discarded) { wordStart, _ in
                entries.append(Entry(field: fieldIndex, start: Int32(wordStart)))
                rowStarts.append(Int32(wordStart))
            }
            guard Int32(text.count) > start else { return }
            fields.append(Field(row: row, kind: kind, start: start))
        }

        for (c, contact) in contacts.enumerated() {
            let emailIndices: [Int] = contact.emails.isEmpty ? [-1] : Array(contact.emails.indices)
            for e in emailIndices {
                let row = Int32(rows.count)
                let entryStart = Int32(rowStarts.count)
                let fieldStart = Int32(fields.count)
                if let name = contact.displayName { addField(name, .displayName, row: row) }
                for part in contact.name.given + contact.name.additional + contact.name.family {
                    addField(part, .namePart, row: row)
                }
                for nick in contact.nicknames {
                    addField(nick, .nickname, row: row)
                    let key = SearchIndex.hash(SearchIndex.normalizedQuery(nick))
                    exact.append((key, row))
                }
                if let org = contact.organization { addField(org, .organization, row: row) }
                var addressKey: UInt64 = 0
                if e >= 0 {
                    let address = contact.emails[e].address
                    let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) ?? address.utf8.endIndex
                    addField(String(address[..<at]), .localPart, row: row)
                    if at < address.utf8.endIndex {
                        addField(String(address[address.utf8.index(after: at)...]), .domain, row: row)
                    }
                    addressKey = SearchIndex.hash(SearchFold.fold(address))
                    exact.append((addressKey, row))
                }
                rows.append(Row(addressKey: addressKey, contact: Int32(c), email: Int32(e), rank: 0, firstEntry: entryStart, firstField: fieldStart))
                keys.append(RowKey(contact, email: Int32(e), halfLife: halfLife))
            }
        }
        // Ranks: the rows in key order.
        let order = rows.indices.sorted { RowKey.precedes(keys[$0], keys[$1]) }
        for (rank, r) in order.enumerated() { rows[r].rank = Int32(rank) }
        rowByRank = order.map { Int32($0) }

        keys = []
        fields.append(Field(row: 0, kind: .displayName, start: Int32(text.count)))
        // Entries sorted by their text (ties by row rank, so equal words
        // list their best rows first). Each
        // entry's first eight bytes, big-endian, decide most comparisons.
        let prefixes: [UInt64] = entries.map { e in
            let end = Int(fields[Int(e.field) + 1].start)
            var key: UInt64 = 0
            for k in 0..<8 {
                let at = Int(e.start) + k
                key = key << 8 | (at < end ? UInt64(text[at]) : 0)
            }
            return key
        }
        let sortOrder: [Int] = text.withUnsafeBufferPointer { t in
            entries.indices.sorted { i, j in
                if prefixes[i] != prefixes[j] { return prefixes[i] < prefixes[j] }
                let a = entries[i], b = entries[j]
                let ea = fields[Int(a.field) + 1].start, eb = fields[Int(b.field) + 1].start
                let c = SearchIndex.compare(t, Int(a.start)..<Int(ea), Int(b.start)..<Int(eb))
                if c != 0 { return c < 0 }
                return rows[Int(fields[Int(a.field)].row)].rank < rows[Int(fields[Int(b.field)].row)].rank
            }
        }
        let sortedEntries = sortOrder.map { entries[$0] }
        self.entries = sortedEntries.map { EntryText(start: $0.start, end: fields[Int($0.field) + 1].start) }
        samples = stride(from: 0, to: sortOrder.count, by: SearchIndex.sampleStride).map { prefixes[sortOrder[$0]] }

        // Arrays grown by appending hold up to twice their count; the
        // index keeps copies of their own size.
        self.rows = SearchIndex.shrunk(rows)
        self.halfLife = halfLife
        self.fields = SearchIndex.shrunk(fields)
        self.text = SearchIndex.shrunk(text)
        self.rowStarts = SearchIndex.shrunk(rowStarts)
        // The rows of one key in rank order, so the best come first.
        exact.sort { $0.key != $1.key ? $0.key < $1.key : rows[Int($0.row)].rank < rows[Int($1.row)].rank }
        exactKeys = exact.map(\.key)
        exactRows = exact.map(\.row)
        ranked = RankedEntries(keys: sortedEntries.map { e in
            let field = fields[Int(e.field)]
            let first = e.start == field.start
            let c: UInt32 = field.kind == .displayName && first ? 1 : (first && field.kind != .domain ? 2 : 3)
            return c << 30 | UInt32(rows[Int(field.row)].rank)
        })
    }

    /// The position in `contacts` of the contact with this id.
    ///
    /// - Complexity: O(log *n*).
    func position(of id: ContactID) -> Int32? {
        let key = SearchIndex.hash(Array(id.rawValue.utf8))
        var i = lowerBound(idHashes, key)
        while i < idHashes.count && idHashes[i] == key {
            if contacts[Int(idPositions[i])].id == id { return idPositions[i] }
            i += 1
        }
        return nil
    }

    /// The rows whose folded address or nickname hashes to `key`.
    ///
    /// - Complexity: O(log *r*) for *r* rows.
    func exactRows(_ key: UInt64) -> ArraySlice<Int32> {
        let lo = lowerBound(exactKeys, key)
        var hi = lo
        while hi < exactKeys.count && exactKeys[hi] == key { hi += 1 }
        return exactRows[lo..<hi]
    }

    /// The row's word starts, with their fields, in text order.
    func entries(ofRow row: Int32) -> RowEntries {
        let r = rows[Int(row)]
        let next = Int(row) + 1
        let end = next < rows.count ? Int(rows[next].firstEntry) : rowStarts.count
        return RowEntries(starts: rowStarts, fields: fields, k: Int(r.firstEntry), end: end, field: Int(r.firstField))
    }

    /// A row's word starts, each found its field by walking the row's
    /// fields alongside (both are in text order).
    struct RowEntries: Sequence, IteratorProtocol {
        let starts: [Int32]
        let fields: [Field]
        var k: Int
        let end: Int
        var field: Int

        mutating func next() -> Entry? {
            guard k < end else { return nil }
            let start = starts[k]
            k += 1
            while fields[field + 1].start <= start { field += 1 }
            return Entry(field: Int32(field), start: start)
        }
    }

    /// Where an entry's field ends in `text`.
    func end(_ e: Entry) -> Int { Int(fields[Int(e.field) + 1].start) }

    /// Whether the entry is its field's first word.
    func isFirst(_ e: Entry) -> Bool { e.start == fields[Int(e.field)].start }

    /// A row's order key, made when rows of two indexes meet.
    func key(_ row: Int32) -> RowKey {
        let r = rows[Int(row)]
        return RowKey(contacts[Int(r.contact)], email: r.email, halfLife: halfLife)
    }
}

extension SearchIndex {
    /// Appends a field's folded text with every run of separators made one
    /// space (none at either end), calling `wordStart` with the offset in
    /// `text` of each word's start. Words start after a separator, at every
    /// character of a script written without spaces, and (in a local part)
    /// where letters and digits meet: `john.smith2024` has three.
    static func normalize(
        _ folded: [UInt8], _ from: [Int32], _ kind: FieldKind,
        into text: inout [UInt8], _ origins: inout [Int32], _ wordStart: (Int, Bool) -> Void
    ) {
        var i = 0
        var pendingSpace = false
        var atStart = true
        var previousDigit: Bool?
        var first = true
        let base = text.count
        while i < folded.count {
            let (scalar, length) = decodeScalar(folded, i)
            let separator = SearchFold.isWordSeparator(scalar)
                || (kind == .localPart && (scalar == 0x2B || scalar == 0x5F || scalar == 0x2E || scalar == 0x2D))
            if separator {
                pendingSpace = text.count > base
                previousDigit = nil
                i += length
                continue
            }
            let digit = scalar >= 0x30 && scalar <= 0x39
            var starts = atStart || pendingSpace || SearchFold.isSpaceless(scalar)
            if kind == .localPart, let previousDigit, previousDigit != digit { starts = true }
            if pendingSpace {
                text.append(0x20)
                origins.append(from[i])
                pendingSpace = false
            }
            if starts {
                wordStart(text.count, first)
                first = false
            }
            for k in 0..<length {
                text.append(folded[i + k])
                origins.append(from[i])
            }
            atStart = false
            previousDigit = digit
            i += length
        }
    }

    /// The scalar at `i` of UTF-8 bytes and its length (U+FFFD and 1 for a
    /// byte that starts no valid sequence).
    static func decodeScalar(_ b: [UInt8], _ i: Int) -> (UInt32, Int) {
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
    func lowerBound(_ sorted: [UInt64], _ key: UInt64) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
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
        var ignored: [Int32] = []
        normalize(folded, from, .displayName, into: &out, &ignored) { _, _ in }
        return out
    }

    /// The entries whose text starts with `word`: a contiguous range,
    /// looked for within `bounds` (a word's range holds the ranges of all
    /// its extensions, so a query narrowed by a keystroke searches only
    /// the previous range).
    ///
    /// - Complexity: O(log *m* · |word|) for *m* entries in `bounds`.
    func range(of word: [UInt8], within bounds: Range<Int>? = nil) -> Range<Int> {
        text.withUnsafeBufferPointer { t in
            word.withUnsafeBufferPointer { q in
                // How the entry's text compares with the word as a prefix.
                func order(_ e: EntryText) -> Int {
                    let end = Int(e.end)
                    var i = 0
                    var at = Int(e.start)
                    while i < q.count {
                        if at >= end { return -1 }
                        let x = t[at], y = q[i]
                        if x != y { return x < y ? -1 : 1 }
                        i += 1
                        at += 1
                    }
                    return 0
                }
                let limits = bounds ?? 0..<entries.count
                // The samples bound where the range can start and end: an
                // entry before it has a prefix at most `low`, one in it
                // between `low` and `high`, one after it at least `high`.
                var low: UInt64 = 0, high: UInt64 = 0
                for k in 0..<8 {
                    let b: UInt64? = k < q.count ? UInt64(q[k]) : nil
                    low = low << 8 | (b ?? 0)
                    high = high << 8 | (b ?? 0xFF)
                }
                func firstSample(_ above: (UInt64) -> Bool) -> Int {
                    var lo = 0, hi = samples.count
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if above(samples[mid]) { hi = mid } else { lo = mid + 1 }
                    }
                    return lo
                }
                let stride = SearchIndex.sampleStride
                let a = firstSample { $0 >= low }, b = firstSample { $0 > low }, c = firstSample { $0 > high }
                var lo = max(limits.lowerBound, (a - 1) * stride)
                var hi = min(limits.upperBound, b * stride)
                lo = min(lo, hi)
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if order(entries[mid]) < 0 { lo = mid + 1 } else { hi = mid }
                }
                lo = max(lo, limits.lowerBound)
                var end = lo, top = max(lo, min(limits.upperBound, c * stride))
                while end < top {
                    let mid = (end + top) / 2
                    if order(entries[mid]) <= 0 { end = mid + 1 } else { top = mid }
                }
                return lo..<end
            }
        }
    }

    /// Whether the entry's text starts with `word`.
    func entry(_ e: Entry, startsWith word: [UInt8]) -> Bool {
        let end = self.end(e)
        guard end - Int(e.start) >= word.count else { return false }
        for i in 0..<word.count where text[Int(e.start) + i] != word[i] { return false }
        return true
    }

    /// The class of a single word's match at an entry.
    func matchClass(_ e: Entry) -> MatchClass {
        let kind = fields[Int(e.field)].kind
        let first = isFirst(e)
        if kind == .displayName && first { return .fullNamePrefix }
        return first && kind != .domain ? .firstWord : .otherWord
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
            var scratch: [UInt8] = [], from: [Int32] = [], out: [UInt8] = [], unused: [Int32] = []
            var quoted = false
            var start = 0
            func flush(_ end: Int) {
                scratch.removeAll(keepingCapacity: true)
                from.removeAll(keepingCapacity: true)
                out.removeAll(keepingCapacity: true)
                SearchFold.fold(UnsafeBufferPointer(rebasing: bytes[start..<end]), into: &scratch, origins: &from)
                SearchIndex.normalize(scratch, from, .displayName, into: &out, &unused) { _, _ in }
                guard !out.isEmpty else { return }
                if quoted {
                    words.append(out)
                } else {
                    words.append(contentsOf: out.split(separator: 0x20).map(Array.init))
                }
            }
            for i in 0..<bytes.count where bytes[i] == 0x22 {
                flush(i)
                quoted.toggle()
                start = i + 1
            }
            flush(bytes.count)
        }
        self.folded = folded
        self.words = words
        phrase = Array(words.joined(separator: [0x20]))
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
    /// when some word starts none of its words.
    func classify(_ row: Int32, _ q: SearchQuery) -> MatchClass? {
        if exactRows(q.foldedHash).contains(row) || exactRows(q.phraseHash).contains(row),
           isExact(row, q) {
            return .exact
        }
        var best = MatchClass.otherWord
        for word in q.words {
            var found: MatchClass?
            for e in entries(ofRow: row) {
                if entry(e, startsWith: word) {
                    let c = matchClass(e)
                    found = min(found ?? c, c)
                }
            }
            guard let found else { return nil }
            if found == .firstWord || found == .fullNamePrefix { best = min(best, .firstWord) }
        }
        if startsDisplayName(row, q.phrase) { best = .fullNamePrefix }
        return best
    }

    /// Whether the query is the row's address or one of its nicknames
    /// (hashes can collide: compare the text). A nickname is compared with
    /// its field's text in the index, which is the nickname folded and
    /// normalized as a query's phrase is; an address is folded only when
    /// its hash is the query's.
    func isExact(_ row: Int32, _ q: SearchQuery) -> Bool {
        let r = rows[Int(row)]
        if r.email >= 0, r.addressKey == q.foldedHash,
           SearchFold.fold(contacts[Int(r.contact)].emails[Int(r.email)].address) == q.folded {
            return true
        }
        let next = Int(row) + 1
        let end = next < rows.count ? Int(rows[next].firstField) : fields.count - 1
        for f in Int(r.firstField)..<end where fields[f].kind == .nickname {
            let start = Int(fields[f].start), stop = Int(fields[f + 1].start)
            if stop - start == q.phrase.count && text[start..<stop].elementsEqual(q.phrase) { return true }
        }
        return false
    }

    func startsDisplayName(_ row: Int32, _ phrase: [UInt8]) -> Bool {
        guard !phrase.isEmpty else { return false }
        for e in entries(ofRow: row) {
            if isFirst(e) && fields[Int(e.field)].kind == .displayName { return entry(e, startsWith: phrase) }
        }
        return false
    }

    /// The ranges of each query word, searched within `previous` where
    /// the word extends the previous query's word at the same place.
    func ranges(_ q: SearchQuery, after previous: (query: SearchQuery, ranges: [Range<Int>])?) -> [Range<Int>] {
        q.words.enumerated().map { i, word in
            if let previous, i < previous.query.words.count, word.starts(with: previous.query.words[i]) {
                return range(of: word, within: previous.ranges[i])
            }
            return range(of: word)
        }
    }

    /// Every matching row, with its class, given the entry range of each
    /// query word.
    ///
    /// - Complexity: O(*m* · *f*) for *m* entries that start with the query's
    ///   rarest word and *f* word starts per row.
    func allHits(_ q: SearchQuery, ranges: [Range<Int>]) -> [Hit] {
        guard !q.words.isEmpty, let rarest = ranges.min(by: { $0.count < $1.count }) else { return [] }
        var seen: Set<Int32> = []
        var hits: [Hit] = []
        for i in rarest {
            let row = rowByRank[Int(ranked.keys[i] & RankedEntries.rankMask)]
            guard seen.insert(row).inserted, let c = classify(row, q) else { continue }
            hits.append(Hit(row: row, matchClass: c))
        }
        // An exact address or nickname may match where no word starts
        // (`ann@x.org` typed whole is words `ann`, `x`, `org` anyway, but a
        // nickname with punctuation need not be).
        hits += allExactHits(q).filter { !seen.contains($0.row) }
        return hits
    }

    /// Orders hits: class, then row rank.
    func sorted(_ hits: [Hit]) -> [Hit] {
        hits.sorted { a, b in
            a.matchClass != b.matchClass ? a.matchClass < b.matchClass : rows[Int(a.row)].rank < rows[Int(b.row)].rank
        }
    }
}

extension SearchIndex {
    /// The bytes each part of the index holds on the heap, by name:
    /// arrays by capacity and stride. The contacts themselves are the
    /// caller's and not counted.
    ///
    /// - Complexity: O(*n*) for *n* contacts (the ids are looked at).
    package var footprint: [(part: String, bytes: Int)] {
        func array<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride + (a.capacity > 0 ? 32 : 0) }
        return [
            ("ids", array(idHashes) + array(idPositions)),
            ("rows", array(rows)),
            ("fields", array(fields)),
            ("text", array(text)),
            ("entries", array(entries)),
            ("rowStarts", array(rowStarts)),
            ("exact", array(exactKeys) + array(exactRows)),
            ("ranked", array(ranked.keys) + array(ranked.trees) + array(rowByRank)),
        ]
    }
}
