// The directory a compose field asks for suggestions: an immutable value,
// cheap to copy and to share between threads.

import ChipSyntax

/// One suggestion: a contact's address (or a list) that the query matched.
public struct Suggestion: Sendable, Hashable, Codable {
    /// The contact the suggestion makes a chip of.
    public var contact: ContactID
    /// The name to show: the contact's display name, or nil when it has none.
    public var name: String?
    /// The address, or nil for a list without one (it expands to members).
    public var address: String?
    /// The address's index in the contact's `emails`, or nil.
    public var addressIndex: Int?
    /// How well the query matched, which ranks the suggestion first.
    public var matchClass: MatchClass
    /// Byte ranges of ``name`` the query's words matched, for highlighting.
    public var nameMatches: [Range<Int>]
    /// Byte ranges of ``address`` the query's words matched.
    public var addressMatches: [Range<Int>]

    /// A suggestion as named: for a host that builds one itself (a row of
    /// its own remote directory's answer shown beside the composer's).
    public init(
        contact: ContactID, name: String?, address: String?, addressIndex: Int? = nil,
        matchClass: MatchClass, nameMatches: [Range<Int>] = [], addressMatches: [Range<Int>] = []
    ) {
        self.contact = contact
        self.name = name
        self.address = address
        self.addressIndex = addressIndex
        self.matchClass = matchClass
        self.nameMatches = nameMatches
        self.addressMatches = addressMatches
    }
}

extension Suggestion {
    /// ``nameMatches`` counted in `unit` of ``name``, for a host that
    /// highlights in UTF-16 (`NSRange`, Android spans, the web).
    ///
    /// - Complexity: O(*n*) in the name's length.
    public func nameMatches(in unit: TextUnit) -> [Range<Int>] { Suggestion.convert(nameMatches, name, unit) }

    /// ``addressMatches`` counted in `unit` of ``address``.
    ///
    /// - Complexity: O(*n*) in the address's length.
    public func addressMatches(in unit: TextUnit) -> [Range<Int>] { Suggestion.convert(addressMatches, address, unit) }

    /// ``nameMatches`` as indices of ``name``.
    ///
    /// - Complexity: O(*k*) for *k* matches.
    public var nameMatchIndices: [Range<String.Index>] {
        guard let name else { return [] }
        return nameMatches.compactMap { TextOffsets.range(ofBytes: $0, in: name) }
    }

    /// ``addressMatches`` as indices of ``address``.
    ///
    /// - Complexity: O(*k*) for *k* matches.
    public var addressMatchIndices: [Range<String.Index>] {
        guard let address else { return [] }
        return addressMatches.compactMap { TextOffsets.range(ofBytes: $0, in: address) }
    }

    private static func convert(_ ranges: [Range<Int>], _ text: String?, _ unit: TextUnit) -> [Range<Int>] {
        guard unit != .utf8, let text else { return text == nil ? [] : ranges }
        var cursor = TextOffsets.Cursor(Array(text.utf8))
        return ranges.compactMap { r in
            guard let lower = cursor.offset(ofByte: r.lowerBound, unit: unit),
                  let upper = cursor.offset(ofByte: r.upperBound, unit: unit) else { return nil }
            return lower..<upper
        }
    }
}

/// Contacts with a folding index, ready to suggest as a person types.
///
/// A value: copies share their indexes, which are never changed after they
/// are built, so a directory can be handed to other threads freely. A
/// change makes a new version: the contacts changed since the last full
/// build go into a small second index, and the first hides their old rows.
public struct ContactDirectory: Sendable {
    let base: SearchIndex
    /// The contacts added or changed since `base` was built.
    let overlay: SearchIndex
    /// Positions in `base` of contacts the overlay replaces or that were removed.
    let hidden: Set<Int32>
    /// Recent use counts double every `halfLife` seconds (30 days by
    /// default): the frecency that orders rows of one match class.
    public let halfLife: Double

    /// A directory of `contacts`, indexed for suggestions; when an identity
    /// repeats, the last contact with it wins. A use `halfLife` seconds old
    /// counts half as much as one now.
    ///
    /// - Complexity: O(*n* log *n*) for *n* contacts, plus O(*w*) for the
    ///   *w* word starts of their names, nicknames, organizations and
    ///   addresses and O(*v* log *v*) for their *v* distinct words.
    public init(_ contacts: [Contact], halfLife: Double = ContactUsage.defaultHalfLife) {
        self.halfLife = halfLife
        base = SearchIndex(ContactDirectory.unique(contacts), halfLife: halfLife)
        overlay = SearchIndex([], halfLife: halfLife)
        hidden = []
    }

    init(base: SearchIndex, overlay: SearchIndex, hidden: Set<Int32>, halfLife: Double) {
        self.base = base
        self.overlay = overlay
        self.hidden = hidden
        self.halfLife = halfLife
    }

    /// The last contact of each id wins (an import may repeat one).
    static func unique(_ contacts: [Contact]) -> [Contact] {
        var last: [ContactID: Int] = [:]
        for (i, c) in contacts.enumerated() { last[c.id] = i }
        guard last.count != contacts.count else { return contacts }
        return contacts.indices.filter { last[contacts[$0].id] == $0 }.map { contacts[$0] }
    }

    /// Every contact: those of the last full build not replaced, in their
    /// order, then those added or changed since.
    ///
    /// - Complexity: O(*n*), where *n* is the number of contacts.
    public var contacts: [Contact] {
        base.contacts.indices.filter { !hidden.contains(Int32($0)) }.map { base.contacts[$0] } + overlay.contacts
    }

    /// How many contacts the directory holds, without building ``contacts``.
    public var count: Int { base.contacts.count - hidden.count + overlay.contacts.count }

    /// The heap bytes of the two indexes by part (see
    /// ``SearchIndex/footprint``), for the benchmark.
    ///
    /// - Complexity: O(*n*).
    package var footprint: [(part: String, bytes: Int)] {
        zip(base.footprint, overlay.footprint).map { ($0.part, $0.bytes + $1.bytes) }
            + [("hidden", hidden.capacity * 4 * 4 / 3)]
    }

    /// The contact with this id.
    ///
    /// - Complexity: O(log *n*), where *n* is the number of contacts (a binary
    ///   search of the ids' fingerprints).
    public func contact(_ id: ContactID) -> Contact? {
        if let i = overlay.position(of: id) { return overlay.contacts[Int(i)] }
        if let i = base.position(of: id), !hidden.contains(i) { return base.contacts[Int(i)] }
        return nil
    }

    /// The contact an address belongs to (compared folded: without case),
    /// and the address's index in its `emails`; the most used one when
    /// several share it.
    ///
    /// - Complexity: O(log *r* + *k* · *a*), where *r* is the number of
    ///   addresses and nicknames indexed, *k* the number of rows whose
    ///   fingerprint matches and *a* the address's length in bytes.
    public func contact(forAddress address: String) -> (contact: Contact, addressIndex: Int)? {
        let folded = SearchFold.fold(address)
        let key = SearchIndex.hash(folded)
        var best: (SearchIndex, Int32)?
        for index in [overlay, base] {
            for row in index.exactRows(key) {
                let r = index.rows[Int(row)]
                guard r.email >= 0, index !== base || !hidden.contains(r.contact) else { continue }
                guard SearchFold.fold(index.contacts[Int(r.contact)].emails[Int(r.email)].address) == folded else { continue }
                if let (bi, br) = best, !RowKey.precedes(index.key(row), bi.key(br)) { continue }
                best = (index, row)
            }
        }
        guard let (index, row) = best else { return nil }
        let r = index.rows[Int(row)]
        return (index.contacts[Int(r.contact)], Int(r.email))
    }

    // MARK: - New versions

    /// This directory with `changed` added, or replacing the contacts of
    /// the same ids.
    ///
    /// - Complexity: O(*m* log *m*) for the *m* contacts changed since the
    ///   last full build (a second index of only those); when they and
    ///   the rows they hide pass an eighth of the directory (and 256), a
    ///   full build, O(*n* log *n*), so a run of changes costs O(log *n*)
    ///   amortized per contact.
    public func updating(_ changed: [Contact]) -> ContactDirectory {
        var hidden = self.hidden
        var recent: [ContactID: Contact] = [:]
        var order: [ContactID] = []
        for c in overlay.contacts {
            recent[c.id] = c
            order.append(c.id)
        }
        for c in changed {
            if let i = base.position(of: c.id) { hidden.insert(i) }
            if recent[c.id] == nil { order.append(c.id) }
            recent[c.id] = c
        }
        let pending = order.map { recent[$0]! }
        if isPastFullBuild(hidden: hidden.count, pending: pending.count) {
            return ContactDirectory(contacts.filter { recent[$0.id] == nil } + pending, halfLife: halfLife)
        }
        return ContactDirectory(
            base: base, overlay: SearchIndex(pending, halfLife: halfLife), hidden: hidden, halfLife: halfLife)
    }

    /// Whether a new version with `hidden` rows of the first index hidden
    /// and `pending` contacts in the second is past an eighth of the
    /// directory (and 256): then it is built into one index.
    func isPastFullBuild(hidden: Int, pending: Int) -> Bool {
        hidden + pending > max(256, base.contacts.count / 8)
    }

    /// This directory without the contacts of these ids.
    ///
    /// - Complexity: as ``updating(_:)``.
    public func removing(_ ids: [ContactID]) -> ContactDirectory {
        let gone = Set(ids)
        var hidden = self.hidden
        for id in ids { if let i = base.position(of: id) { hidden.insert(i) } }
        let pending = overlay.contacts.filter { !gone.contains($0.id) }
        // Hidden rows are memory kept and rows a query steps over: past
        // the bound, the contacts left are built afresh.
        if isPastFullBuild(hidden: hidden.count, pending: pending.count) {
            return ContactDirectory(contacts.filter { !gone.contains($0.id) }, halfLife: halfLife)
        }
        return ContactDirectory(
            base: base, overlay: pending.count == overlay.contacts.count ? overlay : SearchIndex(pending, halfLife: halfLife),
            hidden: hidden, halfLife: halfLife)
    }

    /// This directory with one more use of a contact at `time` (seconds
    /// since 1970), as when a message to it is sent.
    ///
    /// - Complexity: as ``updating(_:)``.
    public func recordingUse(of id: ContactID, at time: Double) -> ContactDirectory {
        guard var c = contact(id) else { return self }
        c.usage = c.usage.recordingUse(at: time, halfLife: halfLife)
        return updating([c])
    }

    /// This directory with one more use of a contact's mailbox at `time`,
    /// as when a message to that address is sent or its row is chosen:
    /// the use ranks that address's row (and the contact, by its most used
    /// row). An address the contact does not have (compared folded) is a
    /// use of the contact (``recordingUse(of:at:)``).
    ///
    /// - Complexity: as ``updating(_:)``.
    public func recordingUse(of id: ContactID, address: String, at time: Double) -> ContactDirectory {
        guard var c = contact(id) else { return self }
        let folded = SearchFold.fold(address)
        guard let e = c.emails.firstIndex(where: { SearchFold.fold($0.address) == folded }) else {
            return recordingUse(of: id, at: time)
        }
        c.emails[e].usage = c.emails[e].usage.recordingUse(at: time, halfLife: halfLife)
        return updating([c])
    }

    // MARK: - Suggestions

    /// The best `limit` suggestions for what was typed, best first: by
    /// ``MatchClass``, then more recent use, then name, then id. Addresses in
    /// `excluding` (already chips; compared folded) are left out, and a
    /// mailbox two contacts share is suggested once, with the better row.
    ///
    /// - Complexity: O(log *v*) per query word for *v* distinct words, plus
    ///   O(log *p*) per row examined of *p* that match; rows are examined best rank first
    ///   until `limit` can be shown, so a one-word query examines about
    ///   `limit` rows however many match. A query of several words examines
    ///   its rarest word's rows in rank order until `limit` match every
    ///   word (all of them when fewer do).
    public func suggestions(for query: String, limit: Int = 8, excluding: Set<String> = []) -> [Suggestion] {
        var search = SuggestionSearch(self, limit: limit, excluding: excluding)
        return search.update(query)
    }

    /// The same suggestions by folding and reading every contact, as an
    /// address book without an index does: the baseline the benchmark
    /// compares with.
    ///
    /// - Complexity: O(*n* · *b*) for *n* rows of *b* bytes.
    public func suggestionsByScanning(for query: String, limit: Int = 8, excluding: Set<String> = []) -> [Suggestion] {
        let q = SearchQuery(query)
        guard !q.words.isEmpty, limit > 0 else { return [] }
        var hits: [Located] = []
        var t = RowText()
        for (which, index) in [base, overlay].enumerated() {
            // A contact's rows are consecutive: its name fields are folded
            // once, and each row adds its address.
            var loaded: Int32 = -1
            var nameFields = 0
            for row in index.rows.indices where which == 1 || !hidden.contains(index.rows[row].contact) {
                let r = index.rows[row]
                let contact = index.contacts[Int(r.contact)]
                if r.contact != loaded {
                    loaded = r.contact
                    t.removeAll()
                    t.addNameFields(of: contact)
                    nameFields = t.kinds.count
                } else {
                    t.truncate(fields: nameFields)
                }
                if r.email >= 0 { t.addAddress(contact.emails[Int(r.email)].address) }
                let c: MatchClass? = t.isExact(index, row: Int32(row), q) ? .exact : SearchIndex.classifyAnywhere(t, q)
                if let c { hits.append(Located(which == 1, Hit(row: Int32(row), matchClass: c))) }
            }
        }
        return finish(hits, q, limit: limit, ExcludedAddresses(excluding))
    }

    /// A hit in the base index or the overlay.
    struct Located {
        var inOverlay: Bool
        var hit: Hit
        init(_ inOverlay: Bool, _ hit: Hit) {
            self.inOverlay = inOverlay
            self.hit = hit
        }
    }

    func index(_ l: Located) -> SearchIndex { l.inOverlay ? overlay : base }

    /// Orders hits of both indexes (class, then the rows' keys) and makes
    /// the first `limit` suggestions, leaving out excluded mailboxes and
    /// any mailbox a better row already showed.
    func finish(
        _ hits: [Located], _ q: SearchQuery, limit: Int, _ excluded: ExcludedAddresses,
        excludes: (@Sendable (String) -> Bool)? = nil
    ) -> [Suggestion] {
        let ordered: [Located]
        if let first = hits.first, hits.allSatisfy({ $0.inOverlay == first.inOverlay }) {
            // One index: by class, then rank (the row). The ranked streams
            // give them so nearly always.
            func precedes(_ a: Located, _ b: Located) -> Bool {
                a.hit.matchClass != b.hit.matchClass ? a.hit.matchClass < b.hit.matchClass : a.hit.row < b.hit.row
            }
            ordered = zip(hits, hits.dropFirst()).allSatisfy { precedes($0, $1) } ? hits : hits.sorted(by: precedes)
        } else {
            ordered = hits.sorted { a, b in
                if a.hit.matchClass != b.hit.matchClass { return a.hit.matchClass < b.hit.matchClass }
                if a.inOverlay == b.inOverlay { return a.hit.row < b.hit.row }
                return RowKey.precedes(index(a).key(a.hit.row), index(b).key(b.hit.row))
            }
        }
        var chosen: [Located] = []
        // Sized by what was found, never by the caller's limit alone.
        chosen.reserveCapacity(min(limit, hits.count))
        var shown: [(key: UInt32, at: Located)] = []  // a few addresses: searched in turn
        for l in ordered {
            let idx = index(l)
            let key = idx.addressKey(of: l.hit.row)
            if key != 0 {
                if excluded.contains(key, idx, l.hit.row)
                    || shown.contains(where: { $0.key == key && index($0.at).sameAddress($0.at.hit.row, idx, l.hit.row) })
                {
                    continue
                }
                shown.append((key, l))
                if let excludes, excludes(idx.address(of: l.hit.row)) { continue }
            }
            chosen.append(l)
            if chosen.count == limit { break }
        }
        // A mailbox shown by a row without a name takes the best row of
        // the same mailbox that has one (rows of one mailbox are merged
        // keeping the best name).
        for k in chosen.indices where !named(chosen[k]) {
            if let better = bestNamedRow(sharingAddressWith: chosen[k]) { chosen[k] = better }
        }
        var scratch = SuggestionScratch()
        touch(chosen, &scratch)
        var out: [Suggestion] = []
        out.reserveCapacity(chosen.count)
        for l in chosen { out.append(index(l).suggestion(l.hit, q, &scratch)) }
        return out
    }

    /// Whether the row's contact has a display name.
    func named(_ l: Located) -> Bool { index(l).isNamed(l.hit.row) }

    /// The best-ranked row of another contact with a display name and the
    /// same mailbox as `l` (in either index, not hidden), with `l`'s match
    /// class; nil when there is none.
    ///
    /// - Complexity: O(log *r* + *a*) for *r* exact keys and an address of
    ///   *a* bytes, plus the rows sharing its key.
    func bestNamedRow(sharingAddressWith l: Located) -> Located? {
        let idx = index(l)
        guard idx.rows[Int(l.hit.row)].email >= 0 else { return nil }
        let key = SearchIndex.foldedHash(idx.address(of: l.hit.row))
        var best: Located?
        for (inOverlay, other) in [(false, base), (true, overlay)] {
            for row in other.exactRows(key) {
                let r = other.rows[Int(row)]
                guard r.email >= 0, inOverlay || !hidden.contains(r.contact), other.isNamed(row),
                      idx.sameAddress(l.hit.row, other, row) else { continue }
                if let b = best, !RowKey.precedes(other.key(row), index(b).key(b.hit.row)) { continue }
                best = Located(inOverlay, Hit(row: row, matchClass: l.hit.matchClass))
            }
        }
        return best
    }

    /// Reads a word of each memory block the suggestions of `chosen` will
    /// read (each contact, its addresses, the strings shown), one level
    /// at a time for all of them: the reads of one level do not wait for
    /// each other, so a query whose rows are not in cache waits about
    /// once per level rather than once per block.
    func touch(_ chosen: [Located], _ scratch: inout SuggestionScratch) {
        var sum = 0
        for l in chosen {
            let idx = index(l)
            sum &+= idx.contacts[Int(idx.rows[Int(l.hit.row)].contact)].emails.count
        }
        for l in chosen {
            let idx = index(l)
            let r = idx.rows[Int(l.hit.row)]
            let c = Int(r.contact)
            // Field by field: a copy of the contact would retain all it holds.
            sum &+= Int(idx.contacts[c].id.rawValue.utf8.first ?? 0) &+ Int(idx.contacts[c].displayName?.utf8.first ?? 0)
            if r.email >= 0 { sum &+= Int(idx.contacts[c].emails[Int(r.email)].address.utf8.first ?? 0) }
        }
        scratch.touched = sum
    }
}

/// Suggestions as a person types: each keystroke that extends the query
/// searches only within the previous query's matches (a word's entries
/// hold those of every word it starts), and gives exactly what a fresh
/// search gives.
public struct SuggestionSearch: Sendable {
    /// The directory searched.
    public let directory: ContactDirectory
    /// The most suggestions an update gives.
    public var limit: Int
    /// Addresses already chips, left out of the suggestions (compared folded).
    public var excluding: Set<String> {
        didSet { excluded = ExcludedAddresses(excluding) }
    }
    var excluded: ExcludedAddresses
    /// Another test of addresses to leave out, such as a composer's "is
    /// this already a chip in some field?", which knows its own notion of
    /// equal addresses.
    public var excludes: (@Sendable (String) -> Bool)?
    /// The last query and its words' entry ranges in each index.
    var previous: (query: SearchQuery, base: [Range<Int>], overlay: [Range<Int>])?

    /// A search of `directory` that has seen no query yet.
    public init(_ directory: ContactDirectory, limit: Int = 8, excluding: Set<String> = []) {
        self.directory = directory
        self.limit = limit
        self.excluding = excluding
        excluded = ExcludedAddresses(excluding)
    }

    /// The suggestions for the query as it now stands.
    ///
    /// - Complexity: as ``ContactDirectory/suggestions(for:limit:excluding:)``,
    ///   with each extended word searched within its previous range.
    public mutating func update(_ query: String) -> [Suggestion] {
        let q = SearchQuery(query)
        guard !q.words.isEmpty, limit > 0 else {
            previous = nil
            return []
        }
        let d = directory
        let baseRanges = d.base.ranges(q, after: previous.map { ($0.query, $0.base) })
        // A directory not changed since its build has an empty overlay:
        // nothing to search there.
        let overlayRanges = d.overlay.rows.isEmpty ? [] : d.overlay.ranges(q, after: previous.map { ($0.query, $0.overlay) })
        previous = (q, baseRanges, overlayRanges)
        var hits: [ContactDirectory.Located] =
            overlayRanges.isEmpty ? [] : d.overlay.allHits(q, ranges: overlayRanges).map { .init(true, $0) }
        // Each overlay row can hide at most one base row that shares its
        // address, so the base supplies that many more.
        let excluded = self.excluded
        let excludes = excludes
        let base = d.base
        hits += base.rankedHits(
            q, ranges: baseRanges, wanted: limit.addingReportingOverflow(hits.count).overflow ? Int.max : limit + hits.count,
            isHidden: { !d.hidden.isEmpty && d.hidden.contains(base.rows[Int($0)].contact) },
            isUsable: { row, key in
                key == 0 || (!excluded.contains(key, base, row) && excludes?(base.address(of: row)) != true)
            }
        ).map { .init(false, $0) }
        return d.finish(hits, q, limit: limit, excluded, excludes: excludes)
    }
}

/// Addresses to leave out of suggestions (already chips): each address
/// key with the folded addresses it stands for, so that a row is left out
/// when its address folds to one of them.
struct ExcludedAddresses: Sendable {
    var folded: [UInt32: [[UInt8]]] = [:]

    init(_ addresses: Set<String>) {
        for a in addresses { folded[SearchIndex.addressKey(a), default: []].append(SearchFold.fold(a)) }
    }

    /// Whether the address of `row` of `index`, whose key is `key`, is one
    /// of these.
    ///
    /// - Complexity: O(1) when no excluded address shares its key, else
    ///   O(*a*) for an address of *a* bytes.
    func contains(_ key: UInt32, _ index: SearchIndex, _ row: Int32) -> Bool {
        guard key != 0, !folded.isEmpty, let list = folded[key] else { return false }
        return list.contains(SearchFold.fold(index.address(of: row)))
    }
}

/// What the suggestions of one query share: the last name matched (a
/// contact's next row shows it again) and what the reads before them
/// read.
struct SuggestionScratch {
    /// What ``ContactDirectory/touch(_:_:)`` read, kept so that its reads
    /// are not left out.
    var touched = 0
    /// The last name matched: its index, contact and ranges.
    var lastName: (index: SearchIndex, contact: Int32, anywhere: Bool, matches: [Range<Int>])?
}

extension SearchIndex {
    /// The address of a row ("" for a list without one).
    func address(of row: Int32) -> String {
        let r = rows[Int(row)]
        return r.email >= 0 ? contacts[Int(r.contact)].emails[Int(r.email)].address : ""
    }

    /// The rows the query is exactly (an address or a nickname), best
    /// rank first.
    ///
    /// - Complexity: O(log *r* + *e*) for *e* rows under the query's keys
    ///   (more when its two keys differ: then sorted).
    func allExactHits(_ q: SearchQuery) -> [Hit] {
        var hits = exactRows(q.foldedHash).filter { isExact($0, q) }.map { Hit(row: $0, matchClass: .exact) }
        if q.phraseHash != q.foldedHash {
            // Rows of each key are in rank order; two keys are merged.
            hits += exactRows(q.phraseHash).filter { row in isExact(row, q) && !hits.contains { $0.row == row } }
                .map { Hit(row: $0, matchClass: .exact) }
            hits = sorted(hits)
        }
        return hits
    }

    /// A hit made a suggestion, with the byte ranges each query word
    /// matched in the name and the address. A field of ASCII only is
    /// matched on its own bytes; another is folded again, with where each
    /// byte came from.
    func suggestion(_ hit: Hit, _ q: SearchQuery, _ scratch: inout SuggestionScratch) -> Suggestion {
        let row = rows[Int(hit.row)]
        let c = Int(row.contact)
        let name = contacts[c].displayName
        let address = row.email >= 0 ? contacts[c].emails[Int(row.email)].address : nil
        var nameMatches: [Range<Int>] = []
        var addressMatches: [Range<Int>] = []
        // A match inside a word is highlighted where it stands.
        let anywhere = hit.matchClass == .inWord
        if let last = scratch.lastName, last.index === self, last.contact == row.contact, last.anywhere == anywhere {
            // A contact's rows are consecutive in rank order, so its name
            // is often shown again right after: its matches are the same.
            nameMatches = last.matches
        } else if var name {
            name.withUTF8 {
                SearchIndex.matches(of: q.words, in: $0, .displayName, base: 0, anywhere: anywhere, into: &nameMatches)
            }
            nameMatches = merged(nameMatches)
            scratch.lastName = (self, row.contact, anywhere, nameMatches)
        }
        if var address {
            address.withUTF8 { bytes in
                let at = bytes.lastIndex(of: UInt8(ascii: "@")) ?? bytes.count
                SearchIndex.matches(
                    of: q.words, in: UnsafeBufferPointer(rebasing: bytes[..<at]), .localPart, base: 0,
                    anywhere: anywhere, into: &addressMatches)
                if at < bytes.count {
                    SearchIndex.matches(
                        of: q.words, in: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]), .domain, base: at + 1,
                        anywhere: anywhere, into: &addressMatches)
                }
            }
        }
        return Suggestion(
            contact: contacts[c].id, name: name, address: address,
            addressIndex: row.email >= 0 ? Int(row.email) : nil, matchClass: hit.matchClass,
            nameMatches: nameMatches, addressMatches: merged(addressMatches))
    }

    /// Appends, shifted by `base`, the byte ranges of `field` where a word
    /// starts whose text (to the field's end) starts with one of `words`
    /// (`anywhere`: where any character does, for a match inside a word).
    /// The ranges come word by word; ``merged(_:)`` puts them in order.
    ///
    /// - Complexity: O(*b* · *w* + *c* · *q*) for a field of *b* bytes,
    ///   *w* words, *c* places where a word's first byte stands and *q*
    ///   bytes of words.
    static func matches(
        of words: [[UInt8]], in field: UnsafeBufferPointer<UInt8>, _ kind: FieldKind, base: Int,
        anywhere: Bool = false, into out: inout [Range<Int>]
    ) {
        guard field.count > 0 else { return }
        if isASCII(field) {
            // Saves folding: about 13,000 instructions a query.
            asciiMatches(of: words, in: field, kind, base: base, anywhere: anywhere, into: &out)
            return
        }
        func found(_ first: Int, _ last: Int) {
            let b = field[last]
            let end = last + (b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1)
            out.append((first + base)..<(min(field.count, end) + base))
        }
        SearchFold.withFolded(field) { folded, from in
            foldedMatches(of: words, in: folded, from, kind, original: field, anywhere: anywhere, found)
        }
    }

    /// What the walk of ``normalize(_:_:_:into:_:starts:)`` over a folded
    /// field finds, without writing its text: each place where a word
    /// starts (`anywhere`: any place of the normalized text) and a query
    /// word matches the normalized text from there, reported with the
    /// origins of its first and last bytes. A space of the word stands
    /// for a run of separators with a gap in it; a run of punctuation
    /// alone between two words is passed over, as normalizing leaves it out.
    ///
    /// A word can match only where its first byte stands, so only those
    /// places are examined: a word starts there when the scalar before is
    /// a separator (or there is none), when the scalar is of a script
    /// written without spaces, where a lower-case letter of the `original`
    /// is followed by an upper-case one, or, in a local part, where digits
    /// and letters meet. The first byte of a word is a scalar's lead byte,
    /// never a continuation byte, so every place found is a scalar's start.
    static func foldedMatches(
        of words: [[UInt8]], in folded: UnsafeBufferPointer<UInt8>, _ from: UnsafeBufferPointer<Int32>,
        _ kind: FieldKind, original: UnsafeBufferPointer<UInt8>, anywhere: Bool = false,
        _ found: (_ first: Int, _ last: Int) -> Void
    ) {
        let tables = foldingTables
        let separators = asciiSeparators
        let n = folded.count
        /// The class of the scalar at `i` and its length.
        func scalar(_ i: Int) -> (separator: Bool, gap: Bool, spaceless: Bool, digit: Bool, length: Int) {
            let lead = folded[i]
            if lead < 0x80 {
                let separator = (lead < 64 ? separators.low >> UInt64(lead) : separators.high >> UInt64(lead - 64)) & 1 == 1
                    || (kind == .localPart && (lead == 0x2B || lead == 0x5F || lead == 0x2E || lead == 0x2D))
                return (separator, separator && (lead <= 0x20 || lead == 0x7F), false, lead >= 0x30 && lead <= 0x39, 1)
            }
            let (value, length) = decodeScalar(folded, i)
            let wordClass = FoldingTables.wordClass(of: tables.entry(value))
            let separator = wordClass == .separator
            return (separator, separator && isGap(value), wordClass == .spaceless, false, length)
        }
        /// Whether a word starts at `j`, a scalar's start.
        func startsWord(_ j: Int) -> Bool {
            let c = scalar(j)
            guard !c.separator else { return false }
            guard j > 0, !c.spaceless, !anywhere else { return true }
            var p = j - 1
            while p > 0 && folded[p] & 0xC0 == 0x80 { p -= 1 }  // folded text is well-formed
            let before = scalar(p)
            if before.separator || (kind == .localPart && before.digit != c.digit) { return true }
            return letterCase(original, Int(from[j])) > 0 && from[p] != from[j] && letterCase(original, Int(from[p])) < 0
        }
        /// The end of the run of separators from `j`, and whether it holds a gap.
        func run(_ j: Int) -> (end: Int, gap: Bool) {
            var j = j
            var gap = false
            while j < n {
                let c = scalar(j)
                guard c.separator else { break }
                gap = gap || c.gap
                j += c.length
            }
            return (j, gap)
        }
        /// Where `word` ends in the folded text when matched from byte `j`.
        func match(_ word: [UInt8], from j: Int) -> Int? {
            var j = j
            var w = 0
            while w < word.count {
                if word[w] == 0x20 {
                    guard j < n, scalar(j).separator else { return nil }
                    let (end, gap) = run(j)
                    guard gap, end < n else { return nil }
                    j = end
                    w += 1
                } else {
                    guard j < n else { return nil }
                    if folded[j] & 0xC0 != 0x80, scalar(j).separator {
                        // Punctuation inside a word: passed over, unless
                        // a gap ends the word there.
                        let (end, gap) = run(j)
                        guard !gap, end < n else { return nil }
                        j = end
                    }
                    // Bytes of a word are whole scalars that separate
                    // nothing, so equal bytes from a scalar's start are
                    // equal scalars.
                    guard folded[j] == word[w] else { return nil }
                    j += 1
                    w += 1
                }
            }
            return j
        }
        for word in words {
            guard let first = word.first else { continue }
            var j = 0
            while j < n {
                if folded[j] == first, startsWord(j), let end = match(word, from: j) {
                    found(Int(from[j]), Int(from[end - 1]))
                }
                j += 1
            }
        }
    }

    /// ``matches(of:in:_:base:anywhere:into:)`` of a field of ASCII only,
    /// whose normalized text is its bytes in lower case with each run of
    /// separators with a gap one space, and other runs between words left
    /// out: the places where a word's first byte stands are found on the
    /// bytes, as ``foldedMatches(of:in:_:_:original:anywhere:_:)`` finds them.
    static func asciiMatches(
        of words: [[UInt8]], in field: UnsafeBufferPointer<UInt8>, _ kind: FieldKind, base: Int,
        anywhere: Bool = false, into out: inout [Range<Int>]
    ) {
        let separators = asciiSeparators
        let n = field.count
        func isSeparator(_ b: UInt8) -> Bool {
            (b < 64 ? separators.low >> UInt64(b) : separators.high >> UInt64(b - 64)) & 1 == 1
                || (kind == .localPart && (b == 0x2B || b == 0x5F || b == 0x2E || b == 0x2D))
        }
        func isGap(_ b: UInt8) -> Bool { b <= 0x20 || b == 0x7F }
        func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
        /// The end of the run of separators from `j`, and whether it holds a gap.
        func run(_ j: Int) -> (end: Int, gap: Bool) {
            var j = j
            var gap = false
            while j < n && isSeparator(field[j]) {
                gap = gap || isGap(field[j])
                j += 1
            }
            return (j, gap)
        }
        /// Where `word` ends in the field when matched from byte `j`.
        func match(_ word: [UInt8], from j: Int) -> Int? {
            var j = j
            for w in word {
                guard j < n else { return nil }
                if w == 0x20 {
                    guard isSeparator(field[j]) else { return nil }
                    let (end, gap) = run(j)
                    guard gap, end < n else { return nil }
                    j = end
                } else {
                    if isSeparator(field[j]) {
                        let (end, gap) = run(j)
                        guard !gap, end < n else { return nil }
                        j = end
                    }
                    let b = field[j]
                    guard (b &- 0x41 < 26 ? b | 0x20 : b) == w else { return nil }
                    j += 1
                }
            }
            return j
        }
        for word in words {
            guard let first = word.first else { continue }
            // A word's bytes are in lower case: a letter stands in either
            // case, anything else as it is.
            let caseBit: UInt8 = first &- 0x61 < 26 ? 0x20 : 0
            var j = 0
            while j < n {
                let b = field[j]
                if b | caseBit == first, !isSeparator(b) {
                    let starts = anywhere || j == 0 || isSeparator(field[j - 1])
                        || (kind == .localPart && isDigit(field[j - 1]) != isDigit(b))
                        || (field[j - 1] &- 0x61 < 26 && b &- 0x41 < 26)
                    if starts, let end = match(word, from: j) { out.append((j + base)..<(end + base)) }
                }
                j += 1
            }
        }
    }

    func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        guard ranges.count > 1 else { return ranges }
        // Mostly they come in order and apart: nothing to do.
        if zip(ranges, ranges.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) { return ranges }
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
}

extension RowText {
    /// Whether the query is this row's address (folded) or one of its
    /// nicknames (whose fields hold them folded and normalized, as a
    /// query's phrase is). The text must be the row's, loaded whole.
    mutating func isExact(_ index: SearchIndex, row: Int32, _ q: SearchQuery) -> Bool {
        for f in kinds.indices where kinds[f] == .nickname {
            let s = Int(fieldStarts[f]), e = fieldEnd(f)
            if e - s == q.phrase.count && text[s..<e].elementsEqual(q.phrase) { return true }
        }
        let r = index.rows[Int(row)]
        guard r.email >= 0 else { return false }
        var address = index.contacts[Int(r.contact)].emails[Int(r.email)].address
        folded.removeAll(keepingCapacity: true)
        address.withUTF8 { SearchFold.fold($0, into: &folded) }
        return folded == q.folded
    }
}

extension SuggestionSearch {
    /// Whether `text` is `query` or goes on from it, as the search folds
    /// both (case, marks, white space): the answer for `query` then holds
    /// every match for `text` that it held for `query`.
    ///
    /// - Complexity: O(*n*) in the two texts.
    package static func narrows(_ text: String, from query: String) -> Bool {
        let q = SearchQuery(query).phrase
        return !q.isEmpty && SearchQuery(text).phrase.starts(with: q)
    }

    /// Whether `text` holds a word to search for.
    ///
    /// - Complexity: O(*n*), where *n* is the text's length.
    package static func isQuery(_ text: String) -> Bool {
        !SearchQuery(text).phrase.isEmpty
    }
}

extension Suggestion {
    /// The suggestions a remote directory's contacts make for `query`,
    /// ranked and highlighted by the local rules (match class, use, name),
    /// as if they were a directory of their own: what
    /// ``ContactDirectory/suggestions(for:limit:excluding:)`` would give.
    ///
    /// - Complexity: O(*c* log *c*) in the contacts, to index them.
    public static func matching(_ contacts: [Contact], query: String, limit: Int = 8) -> [Suggestion] {
        ContactDirectory(contacts).suggestions(for: query, limit: limit)
    }
}
