import ChipSyntax

/// One recognized chip of an address list, as reported by ``ListRecognizer``.
public struct ListItem: Sendable {
    /// Whether an item is a mailbox or an empty group.
    public enum Kind: UInt8, Sendable, Hashable {
        /// A mailbox, valid or in error (see ``recognition``).
        case mailbox
        /// A group with no members, such as `undisclosed-recipients:;`.
        case emptyGroup
    }

    /// A mailbox, or a group without members.
    public var kind: Kind
    /// Stream offsets of the chip's text (for an empty group, from the
    /// group's name to its `;`).
    public var byteRange: Range<Int>
    /// What recognition found; its ranges are offsets into the buffer that
    /// was passed to ``ListRecognizer/handle(_:_:base:_:)``.
    public var recognition: Recognition
    /// The decoded name of the group the chip is in, as UTF-8.
    public var group: [UInt8]?
}

/// Recognizes the segments of one address list as ``ListScanner`` reports
/// them: tracks groups, and marks addresses that occur twice.
///
/// Invariants:
/// 1. Every `chip` segment gives exactly one item (one holding only
///    comments is a `comment-only` error); an empty group gives one.
/// 2. Memory is bounded: duplicate tracking remembers at most
///    ``maxTrackedAddresses`` addresses per list.
public struct ListRecognizer: Sendable {
    /// The recognizer each chip goes through; it also decodes names and group names.
    public private(set) var recognizer: Recognizer
    /// How many distinct addresses per list are remembered to find
    /// duplicates; later ones are not checked.
    public var maxTrackedAddresses = 100_000

    @usableFromInline var groupName: [UInt8]?
    @usableFromInline var groupOpenStart = -1
    /// The storage of the last group's name, kept for the next group the
    /// simple lane opens (``handleSimpleGroup(_:_:offset:)``), which then
    /// allocates nothing.
    var spareGroupName: [UInt8] = []
    @usableFromInline var groupMembers = 0
    @usableFromInline var seen = AddressSeenSet()
    var keyScratch: [UInt8] = []
    @usableFromInline var nameScratch: [UInt8] = []
    /// Whether `nameScratch`, a lane chip's decoded name, is known to be
    /// well-formed UTF-8 (``decodedNameIsWellFormed``).
    @usableFromInline var nameScratchIsWellFormed = false
    var lookalikes: Lookalikes
    /// Bytes handed to the recognizer so far: a measure of work, for tests
    /// that bound it by the input's length.
    package internal(set) var bytesRecognized = 0
    /// Whether this recognizer adds the look-alike warnings itself. An
    /// editor turns it off and checks with a ``Lookalikes`` it keeps apart,
    /// so that the copies of this value it saves for undo hold no cache.
    package let checksLookalikes: Bool
    /// Whether duplicates compare local parts exactly (the policy's rule).
    let exactLocalPart: Bool
    /// The fast grammar's byte classes, kept here so that the simple lane
    /// does not pass a lazy global's once-check per chip.
    let fastClasses = FastPath.classes

    /// A recognizer for lists by `policy`, with the look-alike checks when the policy asks for them.
    ///
    /// - Complexity: O(*s* + *d* log *d*), where *s* is the size of the
    ///   look-alike cache (8,448 verdicts, zeroed) and *d* the number of common
    ///   domains when they are not the default ones (whose tables are shared).
    public init(policy: ValidationPolicy = .standard) {
        self.init(policy: policy, checksLookalikes: policy.checksLookalikes)
    }

    /// `cacheSlots`: the look-alike verdicts kept (see ``Lookalikes``); a
    /// recognizer for one short list needs far fewer than one for a corpus.
    package init(policy: ValidationPolicy, checksLookalikes: Bool, cacheSlots: Int = Lookalikes.cacheSize) {
        recognizer = Recognizer(policy: policy)
        self.checksLookalikes = checksLookalikes && policy.checksLookalikes
        self.exactLocalPart = policy.comparesLocalPartsExactly
        lookalikes = Lookalikes(
            commonDomains: self.checksLookalikes ? policy.commonDomains : [], checks: self.checksLookalikes,
            cacheSlots: cacheSlots)
    }

    /// The rules recognition follows, fixed at creation.
    public var policy: ValidationPolicy { recognizer.policy }

    /// The bytes this value holds beyond its own size (tables and caches),
    /// for tests that bound what an editor's undo history keeps.
    package var footprint: Int {
        lookalikes.cacheBytes + seen.table.capacity * 8 + keyScratch.capacity
    }

    /// Forgets the list so far (groups and duplicates): call between lists.
    ///
    /// - Complexity: O(1) amortized: a duplicate table of at most 1,024 slots is cleared, a larger one dropped.
    @inlinable
    public mutating func reset() {
        groupName = nil
        groupOpenStart = -1
        groupMembers = 0
        seen.removeAll()
    }

    /// Handles one segment and returns the chip it completes, if any: a
    /// segment gives at most one. `p` holds the stream's bytes from offset
    /// `base` on and must contain the whole segment, except that a chip
    /// longer than `maxChipBytes` may have been dropped (it is `too-long`).
    ///
    /// - Complexity: O(*n*), where *n* is the segment's length, plus O(*e*)
    ///   for a domain the look-alike cache has not seen, where *e* is the
    ///   number of the policy's common domains.
    public mutating func handle(
        _ segment: Segment, _ p: UnsafeBufferPointer<UInt8>, base: Int
    ) -> ListItem? {
        let range = segment.byteRange
        switch segment.kind {
        case .chip:
            let local = (range.lowerBound - base)..<(range.upperBound - base)
            var r: Recognition
            if local.lowerBound < 0 || local.upperBound > p.count {
                // The caller no longer holds the text: only too long a chip
                // may be dropped.
                r = Recognition()
                r.fail(.tooLong, at: local.lowerBound)
            } else {
                bytesRecognized &+= local.count
                // The look-alike checker lends its slots for the verdicts
                // on international labels (none in an editor's).
                var labels = lookalikes.lendLabels()
                r = recognizer.recognize(p, local, labels: &labels)
                lookalikes.returnLabels(&labels)
            }
            // Decoding a name can add a warning (`undecoded-encoded-word`):
            // found here, the warnings of a chip are complete however it is
            // written out (the summary counts them without decoding names).
            // What the name's bytes hold, read once for every check below.
            let facts = r.nameRange.map { SWAR.scanName(p, $0) }
            if let name = r.nameRange, let facts {
                if facts.hasEncodedWord {
                    nameScratch.removeAll(keepingCapacity: true)
                    r.warnings.formUnion(recognizer.appendDisplayName(r, p, into: &nameScratch))
                    r.warnings.formUnion(Invisibles.warnings(Invisibles.scan(nameScratch)))
                }
                // Invisible characters and bidi controls in the name warn
                // the reader (decoded or as typed); they are never ASCII.
                if facts.hasNonASCII { r.warnings.formUnion(Invisibles.warnings(Invisibles.scan(p, name))) }
            }
            if r.error != nil, recognizer.policy.checksLookalikes, facts?.hasAt == true, r.addressRange != nil {
                // A name that is itself another address deceives whatever
                // else is wrong with the chip (`ceo@company.com <x@evil>`).
                nameScratch.removeAll(keepingCapacity: true)
                _ = recognizer.appendDisplayName(r, p, into: &nameScratch)
                if lookalikes.spoofs(nameScratch, r, p) { r.warnings.insert(.displayNameSpoof) }
            }
            if r.error == nil {
                if isDuplicate(r, p) { r.warnings.insert(.duplicate) }
                if checksLookalikes {
                    // An encoded name was decoded above, into `nameScratch`.
                    lookalikes.check(
                        &r, p, &recognizer, nameFacts: facts, decodedName: facts?.hasEncodedWord == true ? nameScratch : nil)
                }
            }
            if groupOpenStart >= 0 { groupMembers += 1 }
            return ListItem(kind: .mailbox, byteRange: range, recognition: consume r, group: groupName)
        case .groupOpen:
            var name: [UInt8] = []
            var local = (range.lowerBound - base)..<(range.upperBound - 1 - base)
            while local.lowerBound >= 0 && local.upperBound <= p.count && Self.startsWithMailto(p, local) {
                // `mailto:Team: a@x.org;` names the group `Team`, however
                // often the prefix is repeated.
                local = (local.lowerBound + MailtoScheme.prefixBytes)..<local.upperBound
            }
            if local.count <= recognizer.policy.maxChipBytes && local.lowerBound >= 0 && local.upperBound <= p.count {
                recognizer.appendPhrase(p, local, into: &name)
            }
            groupName = name
            groupOpenStart = range.lowerBound
            groupMembers = 0
            return nil
        case .groupClose:
            var item: ListItem?
            if groupOpenStart >= 0 && groupMembers == 0 {
                let whole = groupOpenStart..<range.upperBound
                var r = Recognition()
                if whole.count > recognizer.policy.maxChipBytes {
                    r.fail(.tooLong, at: whole.lowerBound - base)
                }
                item = ListItem(kind: .emptyGroup, byteRange: whole, recognition: r, group: groupName)
            }
            groupName = nil
            groupOpenStart = -1
            groupMembers = 0
            return item
        }
    }

    /// Decodes the phrase `p[range]` into `nameScratch`; returns the
    /// warnings decoding raised.
    ///
    /// - Complexity: O(*n*) in the phrase's length.
    mutating func decodePhrase(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ChipWarnings {
        nameScratch.removeAll(keepingCapacity: true)
        return recognizer.appendPhrase(p, range, into: &nameScratch)
    }

    /// Whether the bytes start with `mailto:` (any case).
    static func startsWithMailto(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count > MailtoScheme.prefixBytes, p[range.lowerBound + MailtoScheme.nameBytes] == UInt8(ascii: ":")
        else { return false }
        return MailtoScheme.name.withUTF8Buffer { name in
            (0..<name.count).allSatisfy { ByteClass.lowercased(p[range.lowerBound + $0]) == name[$0] }
        }
    }

    /// Whether an equal address was seen before in this list: quotes around
    /// a plain local part ignored, ASCII case ignored (in the local part
    /// too unless the policy compares local parts exactly). Compared by a
    /// 64-bit hash.
    mutating func isDuplicate(_ r: Recognition, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let hash: UInt64
        if r.addressIsVerbatim, let range = r.addressRange {
            // The `@` before a domain that is not a literal is the last.
            let domain = r.domainRange!.lowerBound
            let lastAt = domain < p.count && p[domain] != UInt8(ascii: "[") ? domain - 1 - range.lowerBound : nil
            hash = AddressKey.hash(UnsafeBufferPointer(rebasing: p[range]), exactLocalPart: exactLocalPart, lastAt: lastAt)
        } else {
            keyScratch.removeAll(keepingCapacity: true)
            r.appendAddress(p, into: &keyScratch)
            hash = keyScratch.withUnsafeBufferPointer { AddressKey.hash($0, exactLocalPart: exactLocalPart) }
        }
        return !seen.insert(hash, limit: maxTrackedAddresses)
    }
}

/// A set of 64-bit address hashes, tuned for lists of a few addresses:
/// the first four are kept in fields and compared all at once (unused
/// fields hold 0, which no hash is), so a list of one to four addresses
/// (most lists) neither probes nor clears a table; from the fifth on, all
/// are in a table (open addressing, linear probing). The hashes are
/// already mixed, so they index the table directly.
@usableFromInline
struct AddressSeenSet: Sendable {
    @usableFromInline var few: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var table: [UInt64] = []
    @usableFromInline var count = 0

    /// Inserts `hash`; false when it was already there. Stops remembering
    /// new hashes past `limit`.
    @inline(__always)
    mutating func insert(_ hash: UInt64, limit: Int) -> Bool {
        let h = hash == 0 ? 1 : hash  // 0 marks an empty slot
        guard count < 4 else { return insertInTable(h, limit: limit) }
        // Below four, the fourth field is empty.
        if (few.0 == h) || (few.1 == h) || (few.2 == h) { return false }
        if count >= limit { return true }
        withUnsafeMutableBytes(of: &few) { $0.storeBytes(of: h, toByteOffset: 8 &* count, as: UInt64.self) }
        count += 1
        return true
    }

    /// ``insert(_:limit:)`` once four hashes are held: the first time, the
    /// four move to the table.
    @inline(never)
    mutating func insertInTable(_ h: UInt64, limit: Int) -> Bool {
        if count == 4 && few.0 != 0 {
            if table.isEmpty { table = [UInt64](repeating: 0, count: 16) }
            place(few.0)
            place(few.1)
            place(few.2)
            place(few.3)
            few = (0, 0, 0, 0)
        }
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while table[i] != 0 {
            if table[i] == h { return false }
            i = (i + 1) & mask
        }
        if count >= limit { return true }
        table[i] = h
        count += 1
        if count * 2 > table.count { grow() }
        return true
    }

    /// Puts `h`, not yet in the table, in its first free slot.
    mutating func place(_ h: UInt64) {
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while table[i] != 0 { i = (i + 1) & mask }
        table[i] = h
    }

    mutating func grow() {
        let old = table
        table = [UInt64](repeating: 0, count: old.count * 2)
        for h in old where h != 0 { place(h) }
    }

    @inlinable
    mutating func removeAll() {
        // The hashes moved to the table (at the fifth, even when the limit
        // kept the count at four).
        if count >= 4 && few.0 == 0 { clearTable() }
        few = (0, 0, 0, 0)
        count = 0
    }

    @usableFromInline @inline(never)
    mutating func clearTable() {
        if table.count > 1024 {
            table = []
        } else {
            for i in table.indices { table[i] = 0 }
        }
    }
}

/// The comparison key of an address for duplicate detection.
package enum AddressKey {
    /// A 64-bit hash of `address` with its domain lower-cased (ASCII) and
    /// quotes around a local part removed. Deterministic across runs.
    package static func hash(_ address: [UInt8], exactLocalPart: Bool = false) -> UInt64 {
        address.withUnsafeBufferPointer { hash($0, exactLocalPart: exactLocalPart) }
    }

    /// The same hash of an address held in a buffer.
    ///
    /// Word at a time: eight bytes are loaded and mixed with one multiply,
    /// and the domain is lower-cased eight bytes at once (SWAR), so hashing
    /// costs a fraction of a byte-at-a-time hash.
    ///
    /// `lastAt`, when the caller knows it, is the index of the last `@`
    /// (a recognized address's domain, unless a literal, holds none).
    package static func hash(_ address: UnsafeBufferPointer<UInt8>, exactLocalPart: Bool = false, lastAt: Int? = nil) -> UInt64 {
        let n = address.count
        // Split at the last `@` (a quoted local part may hold one).
        var at = n - 1
        if let lastAt, lastAt >= 0, lastAt < n, address[lastAt] == UInt8(ascii: "@") {
            at = lastAt
        } else {
            while at >= 0 && address[at] != UInt8(ascii: "@") { at -= 1 }
        }
        guard let base = address.baseAddress else { return localSeed }
        let localEnd = max(at, 0)
        let domain = at >= 0 ? domainHash(base + at + 1, n - at - 1) : domainSeed
        if localEnd >= 2 && address[0] == UInt8(ascii: "\"") && address[localEnd - 1] == UInt8(ascii: "\"") {
            // A quoted local part compares by its content, escapes resolved.
            var unquoted: [UInt8] = []
            var i = 1
            while i < localEnd - 1 {
                if address[i] == UInt8(ascii: "\\") && i + 1 < localEnd - 1 { i += 1 }
                unquoted.append(address[i])
                i += 1
            }
            return unquoted.withUnsafeBufferPointer {
                hash(local: $0.baseAddress, $0.count, domain: domain, exactLocalPart: exactLocalPart)
            }
        }
        return hash(local: base, localEnd, domain: domain, exactLocalPart: exactLocalPart)
    }

    static let localSeed: UInt64 = 0x243F_6A88_85A3_08D3
    static let domainSeed: UInt64 = 0x1319_8A2E_0370_7344

    /// The hash of a domain's bytes, ASCII case ignored: the half of an
    /// address's key that stands for its domain, and the key of the
    /// look-alike verdicts (``Lookalikes``), so a chip hashes its domain once.
    @inline(__always)
    package static func domainHash(_ p: UnsafePointer<UInt8>?, _ count: Int, readsPast: Bool = false) -> UInt64 {
        mixWords(p, count, domainSeed, lowercase: true, readsPast: readsPast)
    }

    /// ``domainHash(_:_:readsPast:)``, and whether the domain holds an
    /// ASCII capital (whether its bytes are other than those it hashes).
    @inline(__always)
    static func domainHashNotingCase(_ p: UnsafePointer<UInt8>?, _ count: Int, readsPast: Bool) -> (hash: UInt64, folded: Bool) {
        mixWordsNotingCase(p, count, domainSeed, lowercase: true, readsPast: readsPast)
    }

    /// The key of a plain (unquoted) local part and a domain's
    /// ``domainHash(_:_:)``.
    @inline(__always)
    package static func hash(
        local p: UnsafePointer<UInt8>?, _ count: Int, domain: UInt64, exactLocalPart: Bool, readsPast: Bool = false
    ) -> UInt64 {
        var h = mixWords(p, count, localSeed, lowercase: !exactLocalPart, readsPast: readsPast)
        h = mix(h, 0x40)  // the `@`
        h = mix(h, domain)
        // Final avalanche (SplitMix64's), so nearby keys spread in the table.
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }

    @inline(__always)
    static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let m = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
        return m ^ (m >> 29)
    }

    /// Mixes `count` bytes in words of eight, zero-padded to at least two
    /// words, after a seed that holds the length (so `a` and `a\0`
    /// differ). With `readsPast` the caller vouches that the 16 bytes at
    /// `p` may be read however few `count` is, and a run of up to 16 bytes
    /// (most local parts and domains) is loaded as two words, masked, with
    /// no branch on its length: a loop whose count follows the length
    /// mispredicts as lengths change from chip to chip. The same hash
    /// either way.
    @inline(__always)
    static func mixWords(_ p: UnsafePointer<UInt8>?, _ count: Int, _ seed: UInt64, lowercase: Bool, readsPast: Bool = false) -> UInt64 {
        mixWordsNotingCase(p, count, seed, lowercase: lowercase, readsPast: readsPast).hash
    }

    /// ``mixWords(_:_:_:lowercase:readsPast:)``, and whether lower-casing
    /// changed a byte (never, when `lowercase` is false).
    @inline(__always)
    static func mixWordsNotingCase(
        _ p: UnsafePointer<UInt8>?, _ count: Int, _ seed: UInt64, lowercase: Bool, readsPast: Bool = false
    ) -> (hash: UInt64, folded: Bool) {
        let h = mix(seed, UInt64(truncatingIfNeeded: count))
        guard let p, count > 0 else { return (h, false) }
        let raw = UnsafeRawPointer(p)
        if readsPast && count <= 16 {
            var w0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & byteMask(count)
            var w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & byteMask(count - 8)
            var folded = false
            if lowercase {
                let l0 = SWAR.lowercased(w0), l1 = SWAR.lowercased(w1)
                folded = (l0 ^ w0) | (l1 ^ w1) != 0
                w0 = l0
                w1 = l1
            }
            return (mix(mix(h, w0), w1), folded)
        }
        return mixWordsInBounds(raw, count, h, lowercase: lowercase)
    }

    /// ``mixWordsNotingCase(_:_:_:lowercase:readsPast:)`` reading no byte
    /// past `count`: whole words, then the last bytes as the top of the
    /// last eight, shifted down (or byte by byte when there are fewer than
    /// eight).
    static func mixWordsInBounds(
        _ raw: UnsafeRawPointer, _ count: Int, _ seed: UInt64, lowercase: Bool
    ) -> (hash: UInt64, folded: Bool) {
        var h = seed
        var i = 0
        var changed: UInt64 = 0
        while i + 8 <= count {
            var w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if lowercase {
                let l = SWAR.lowercased(w)
                changed |= l ^ w
                w = l
            }
            h = mix(h, w)
            i += 8
        }
        var words = i >> 3
        if i < count {
            var tail: UInt64 = 0
            if count >= 8 {
                tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) >> UInt64(8 * (8 - (count - i)))
            } else {
                var shift: UInt64 = 0
                while i < count {
                    tail |= UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) << shift
                    shift += 8
                    i += 1
                }
            }
            if lowercase {
                let l = SWAR.lowercased(tail)
                changed |= l ^ tail
                tail = l
            }
            h = mix(h, tail)
            words += 1
        }
        // Zero words up to two, as the whole-word form mixes them.
        while words < 2 {
            h = mix(h, 0)
            words += 1
        }
        return (h, changed != 0)
    }

    /// The low `n` bytes of a word set (none for `n` of 0 or less, all
    /// for 8 or more), by a shift rather than a branch.
    @inline(__always)
    static func byteMask(_ n: Int) -> UInt64 {
        let bytes = UInt64(truncatingIfNeeded: min(max(n, 0), 8))
        return UInt64.max >> (64 &- 8 &* bytes)
    }
}
