import ChipSyntax

/// Checks that protect a person from mistakes and deception. They only add
/// warnings: the chip stays sendable, and the host decides how to show them.
///
/// - `display-name-spoof`: the name holds an address other than the chip's.
/// - `mixed-script`: a domain label or a word of the name mixes Latin with
///   Cyrillic or Greek, the mix behind most look-alike deceptions (in the
///   spirit of Unicode TS #39's mixed-script detection); a word or label
///   wholly in one non-Latin script is not flagged.
/// - `likely-typo`: the domain is one or two edits (insertion, deletion,
///   substitution, transposition) from a common mail domain, with the
///   suggestion; one edit only for domains under eight characters.
package struct Lookalikes: Sendable {
    struct Entry: Sendable {
        var domain: [UInt8]
        var signature: UInt64
        /// Its provider label (`gmail` in `gmail.com`; nil for one label),
        /// and that label's length (the domain's for one label).
        var provider: [UInt8]?
        var providerLabelBytes: Int
    }

    /// What was found for a domain: lists repeat domains, so each distinct
    /// one is examined once (a fixed table, so memory stays bounded).
    struct Verdict: Sendable {
        var key: UInt64 = 0
        var typo: Int32 = -1
        var mixed = false
        /// In a slot of the label verdicts (``LabelCache``): how many
        /// labels the text makes; `typo` is then its ASCII length (and, for
        /// a whole domain's verdict, `mixed` whether it is international).
        var pieces: Int16 = 0
    }

    /// Made only by a checker that checks, so a recognizer that never does
    /// (the copies an editor keeps for undo) holds none.
    var cache: [Verdict]
    /// Slots by default, in sets of ``cacheWays`` (most recent first):
    /// 2,048 sets, so the thousands of domains of a large corpus seldom
    /// crowd one set.
    static let cacheSize = 8192
    static let cacheWays = 4
    /// Slots for international labels' verdicts, after the domains'.
    static let labelSlots = 1024
    /// How many of `cache`'s slots hold domains' verdicts.
    let verdictSlots: Int

    /// Lends the label slots to a recognizer for one chip (the array is
    /// moved, not copied); ``returnLabels(_:)`` takes them back.
    @inline(__always)
    package mutating func lendLabels() -> LabelCache {
        var lent = LabelCache()
        guard !cache.isEmpty else { return lent }
        swap(&lent.slots, &cache)
        lent.base = verdictSlots
        lent.count = Lookalikes.labelSlots
        return lent
    }

    @inline(__always)
    package mutating func returnLabels(_ lent: inout LabelCache) {
        guard lent.count > 0 else { return }
        swap(&lent.slots, &cache)
    }

    /// The domain verdict the label slots hold under `key`
    /// (``LabelCache/domainCacheKey(_:_:key:)``), read where it lies: most
    /// chips need nothing else of the slots, and lending them costs more
    /// than the look-up.
    @inline(__always)
    mutating func cachedDomainVerdict(_ key: UInt64) -> LabelCache.DomainVerdict? {
        guard !cache.isEmpty,
              let found = LabelCache.cached(key, in: &cache, base: verdictSlots, count: Lookalikes.labelSlots) else { return nil }
        return LabelCache.DomainVerdict(found)
    }

    /// The bytes the verdict cache holds.
    package var cacheBytes: Int { cache.count * MemoryLayout<Verdict>.stride }

    /// The common domains and what the typo check reads of them, made once
    /// and shared: one reference, so the copies of a recognizer an
    /// editor's history keeps cost one retain, not one per table.
    final class Tables: Sendable {
        let entries: [Entry]
        /// The lengths of the entries, as bits, to skip domains no entry is near.
        let lengths: UInt128
        /// The entries' indices ordered by the length of their domain (then
        /// index), and where each length starts in that order (129 bounds):
        /// the candidates within two edits of a domain are a few lengths.
        let byLength: [Int32]
        let lengthStarts: [Int32]
        /// In that order, each entry's letter signature and its provider
        /// label's length: what rules most candidates out, in two flat arrays.
        let signaturesByLength: [UInt64]
        let providerBytesByLength: [Int32]
        /// ``ValidationPolicy/countryVariantProviders`` as bytes, and
        /// ``typoSuffixes`` packed into integers (each is at most seven bytes),
        /// so a domain is judged without making a string.
        let countryVariants: [[UInt8]]
        let typoSuffixCodes: [UInt64]

        init(commonDomains: [String]) {
            let lowered = commonDomains.map { Array($0.lowercased().utf8) }.filter { $0.count < 100 }
            let entries = lowered.map { d in
                let provider = d.withUnsafeBufferPointer { b in Lookalikes.providerLabelRange(b).map { Array(b[$0]) } }
                return Entry(domain: d, signature: Lookalikes.signature(d[...]), provider: provider,
                             providerLabelBytes: provider?.count ?? d.count)
            }
            self.entries = entries
            var bits: UInt128 = 0
            for d in lowered {
                for n in max(0, d.count - 2)...(d.count + 2) where n < 128 { bits |= 1 << UInt128(n) }
            }
            lengths = bits
            let order = lowered.indices.sorted { (lowered[$0].count, $0) < (lowered[$1].count, $1) }
            byLength = order.map(Int32.init)
            lengthStarts = (0...128).map { n in Int32(order.firstIndex { lowered[$0].count >= n } ?? order.count) }
            signaturesByLength = order.map { entries[$0].signature }
            providerBytesByLength = order.map { Int32(entries[$0].providerLabelBytes) }
            countryVariants = ValidationPolicy.countryVariantProviders.sorted().map { Array($0.utf8) }
            typoSuffixCodes = Lookalikes.typoSuffixes.sorted().map { s in
                Array(s.utf8).withUnsafeBufferPointer { Lookalikes.pack($0, 0..<$0.count) ?? 0 }
            }
        }
    }

    let tables: Tables
    var entries: [Entry] { tables.entries }

    /// `checks`: whether this value will check chips (and so needs its
    /// table of verdicts).
    /// `cacheSlots`: the verdicts kept (a power of two, at least
    /// ``cacheWays``): the default suits a run over a large corpus; a field
    /// a person types into needs far fewer.
    package init(commonDomains: [String], checks: Bool = true, cacheSlots: Int = Lookalikes.cacheSize) {
        verdictSlots = max(cacheSlots, Lookalikes.cacheWays)
        // The international labels' verdicts (``LabelCache``) follow the
        // domains': one array, so a copy of this value (an editor's
        // history holds many) retains no more than before.
        cache = checks ? [Verdict](repeating: Verdict(), count: verdictSlots + Lookalikes.labelSlots) : []
        // Without checks or domains, the tables are the same every time:
        // made once (making them sorts the typo suffixes, which cost more
        // than reading an address book's e-mail value).
        tables = checks || !commonDomains.isEmpty ? Lookalikes.tables(commonDomains) : Lookalikes.uncheckedTables
    }

    /// The tables of a value that checks nothing.
    static let uncheckedTables = Tables(commonDomains: [])
    /// The tables of ``ValidationPolicy/defaultCommonDomains``, made once:
    /// every field, recognizer and `AddressList.parse` of a standard policy
    /// shares them (making them cost more than parsing a short list).
    static let standardTables = Tables(commonDomains: ValidationPolicy.defaultCommonDomains)

    /// The shared tables when `domains` are the default ones (an array
    /// compare that is O(1) when it is the default array itself), else new.
    static func tables(_ domains: [String]) -> Tables {
        domains == ValidationPolicy.defaultCommonDomains ? standardTables : Tables(commonDomains: domains)
    }

    /// Which letters occur, as bits: two strings within two edits differ
    /// in at most four bits, so most candidates are ruled out by a popcount.
    static func signature<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var s: UInt64 = 0
        for b in bytes { s |= 1 << UInt64(b & 63) }
        return s
    }

    /// Adds the warnings of a valid chip to `r`. `nameFacts`: what the
    /// caller already read of the name's bytes (read here when nil);
    /// `decodedName`: the name decoded, when the caller already did it.
    package mutating func check(
        _ r: inout Recognition, _ p: UnsafeBufferPointer<UInt8>, _ recognizer: inout Recognizer,
        nameFacts: SWAR.NameFacts? = nil, decodedName: [UInt8]? = nil
    ) {
        guard let domainRange = r.domainRange, !cache.isEmpty else { return }
        if let nameRange = r.nameRange {
            let found = nameFacts ?? SWAR.scanName(p, nameRange)
            if found.hasAt || found.hasEncodedWord {
                var name: [UInt8]
                if let decodedName {
                    name = decodedName
                } else {
                    name = []
                    recognizer.appendDisplayName(r, p, into: &name)
                }
                if name.contains(UInt8(ascii: "@")) && spoofs(name, r, p) { r.warnings.insert(.displayNameSpoof) }
                if name.withUnsafeBufferPointer({ Lookalikes.mixesScripts($0, wellFormed: false) }) { r.warnings.insert(.mixedScript) }
            } else if found.hasNonASCII, Lookalikes.mixesScripts(UnsafeBufferPointer(rebasing: p[nameRange]), wellFormed: false) {
                // Quotes and escapes are ASCII: the raw text has the name's letters.
                r.warnings.insert(.mixedScript)
            }
        }
        guard p[domainRange.lowerBound] != UInt8(ascii: "[") else { return }
        let (warnings, typo) = judgeDomain(p, domainRange)
        r.warnings.formUnion(warnings)
        if typo >= 0 { r.suggestedDomain = commonDomain(typo) }
    }

    /// The warnings a domain (not a literal) earns, `mixed-script` and
    /// `likely-typo`, and with the latter the index of the common domain
    /// meant (``commonDomain(_:)``), -1 otherwise.
    /// `key`, when the caller has it: the domain's ``AddressKey/domainHash(_:_:)``
    /// (a domain without white space).
    @inline(__always)
    package mutating func judgeDomain(
        _ p: UnsafeBufferPointer<UInt8>, _ domainRange: Range<Int>, key: UInt64? = nil
    ) -> (ChipWarnings, Int32) {
        let verdict = domainVerdict(UnsafeBufferPointer(rebasing: p[domainRange]), key: key)
        var warnings: ChipWarnings = []
        if verdict.mixed { warnings.insert(.mixedScript) }
        if verdict.typo >= 0 { warnings.insert(.likelyTypo) }
        return (warnings, verdict.typo)
    }

    /// The common domain of index `typo` (from ``judgeDomain(_:_:)``).
    package func commonDomain(_ typo: Int32) -> String {
        String(decoding: entries[Int(typo)].domain, as: UTF8.self)
    }

    /// The verdict on a domain, from the cache or worked out: the domain is
    /// hashed eight bytes at a time, case ignored (or its hash is given),
    /// and only when the cache does not hold it lower-cased, without
    /// obsolete white space, into a buffer on the stack, and judged
    /// without allocating unless it is international.
    ///
    /// A domain given by its hash and found in the first slot of its set
    /// (most chips of a list: lists repeat their domains) is answered
    /// here, inline; the rest of the work is apart, so that the common
    /// case costs the caller a few instructions rather than a call.
    @inline(__always)
    mutating func domainVerdict(_ raw: UnsafeBufferPointer<UInt8>, key given: UInt64? = nil) -> Verdict {
        if let given {
            let slot = firstSlot(given)
            if cache[slot].key == given | 1 { return cache[slot] }
        }
        return domainVerdictApart(raw, key: given)
    }

    /// The first of the ``cacheWays`` slots of the set a domain of hash
    /// `h` is kept in.
    @inline(__always)
    func firstSlot(_ h: UInt64) -> Int {
        Int(truncatingIfNeeded: h >> 40) & (verdictSlots - Lookalikes.cacheWays)
    }

    /// ``domainVerdict(_:key:)`` past its first probe.
    @inline(never)
    mutating func domainVerdictApart(_ raw: UnsafeBufferPointer<UInt8>, key given: UInt64?) -> Verdict {
        let h: UInt64
        if let given {
            h = given
        } else {
            h = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count + 8) { scratch in
                let count = Lookalikes.lowerWithoutSpace(raw, into: scratch)
                return AddressKey.domainHash(scratch.baseAddress, count)
            }
        }
        let key = h | 1
        // Four ways: a domain is in one of four neighbouring slots, the
        // most recently used first, so a few domains that share a set do
        // not drive each other out.
        let ways = Lookalikes.cacheWays
        let slot = firstSlot(h)
        if cache[slot].key == key { return cache[slot] }
        for k in 1..<ways where cache[slot + k].key == key {
            let found = cache[slot + k]
            for j in stride(from: k, to: 0, by: -1) { cache[slot + j] = cache[slot + j - 1] }
            cache[slot] = found
            return found
        }
        var verdict = Verdict(key: key)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count + 8) { scratch in
            let count = Lookalikes.lowerWithoutSpace(raw, into: scratch)
            let domain = UnsafeBufferPointer(rebasing: scratch[0..<count])
            let aLabel = Lookalikes.holdsALabel(domain)
            if !aLabel && !IDNABytes.holdsWidthForms(domain) && IDNABytes.isWellFormed(domain) {
                // Its Unicode form is itself: read on its bytes.
                if SWAR.hasNonASCII(domain) { verdict.mixed = Lookalikes.mixesScripts(domain) }
            } else if SWAR.hasNonASCII(domain) || aLabel {
                let text = String(decoding: domain, as: UTF8.self)
                let unicode = (try? IDNA.toUnicode(text)) ?? text
                verdict.mixed = Lookalikes.mixesScripts(Array(unicode.utf8)[...])
            }
            if let typo = likelyTypo(domain) { verdict.typo = Int32(typo) }
        }
        for j in stride(from: ways - 1, to: 0, by: -1) { cache[slot + j] = cache[slot + j - 1] }
        cache[slot] = verdict
        return verdict
    }

    /// Copies `raw` lower-cased (ASCII letters) without spaces, tabs and
    /// line breaks into `out` (room for `raw.count + 8`); returns the
    /// count. Eight bytes at a time while none of them is white space.
    static func lowerWithoutSpace(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var i = 0
        let destination = UnsafeMutableRawPointer(out.baseAddress!)
        while i + 8 <= raw.count {
            let w = SWAR.load(raw, i)
            if SWAR.byte(w, ASCII.space) | SWAR.byte(w, ASCII.tab) | SWAR.byte(w, ASCII.carriageReturn)
                | SWAR.byte(w, ASCII.lineFeed) != 0 {
                break
            }
            destination.storeBytes(of: SWAR.lowercased(w).littleEndian, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        var k = i
        while i < raw.count {
            let b = raw[i]
            i += 1
            if b == ASCII.space || b == ASCII.tab || b == ASCII.carriageReturn || b == ASCII.lineFeed { continue }
            out[k] = ByteClass.lowercased(b)
            k += 1
        }
        return k
    }

    /// Whether some label starts `xn--`: an A-label may hide a mix too.
    static func holdsALabel(_ d: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 3 < d.count {
            if d[i] == UInt8(ascii: "x") && d[i + 1] == UInt8(ascii: "n") && d[i + 2] == ASCII.hyphen
                && d[i + 3] == ASCII.hyphen && (i == 0 || d[i - 1] == UInt8(ascii: ".")) {
                return true
            }
            i += 1
        }
        return false
    }

    /// Whether the name holds an address that is not the chip's.
    func spoofs(_ name: [UInt8], _ r: Recognition, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var own: [UInt8] = []
        r.appendAddress(p, into: &own)
        let ownKey = own.map(ByteClass.lowercased)
        // Address-like runs of the name: text around an `@` up to white
        // space or a bracket, quote or comma.
        let stops: Set<UInt8> = [ASCII.space, ASCII.tab, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("),
                                 UInt8(ascii: ")"), UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ";"),
                                 UInt8(ascii: "'"), UInt8(ascii: "["), UInt8(ascii: "]")]
        var i = 0
        while i < name.count {
            guard name[i] == UInt8(ascii: "@") else { i += 1; continue }
            var lo = i, hi = i + 1
            while lo > 0 && !stops.contains(name[lo - 1]) { lo -= 1 }
            while hi < name.count && !stops.contains(name[hi]) { hi += 1 }
            var candidate = Array(name[lo..<hi])
            while let last = candidate.last, last == UInt8(ascii: ".") || last == UInt8(ascii: ":") {
                candidate.removeLast()
            }
            if candidate.count > i - lo + 1 && i > lo, candidate.map(ByteClass.lowercased) != ownKey {
                return true
            }
            i = hi
        }
        return false
    }

    enum Script { case latin, greek, cyrillic, other }

    static func script(_ s: Unicode.Scalar) -> Script {
        let v = s.value
        switch v {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        default: return .other
        }
    }

    /// Whether a word (or label) of UTF-8 text mixes two of Latin, Greek
    /// and Cyrillic. Words end at spaces and dots. Allocates nothing.
    static func mixesScripts<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var seen: UInt8 = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                if s == " " || s == "." || s == "\t" {
                    seen = 0
                    continue
                }
                switch script(s) {
                case .latin: seen |= 1
                case .greek: seen |= 2
                case .cyrillic: seen |= 4
                case .other: break
                }
                if seen.nonzeroBitCount > 1 { return true }
            case .error:
                continue
            case .emptyInput:
                return false
            }
        }
    }

    /// ``mixesScripts(_:)`` decoded by hand: ASCII bytes cost a compare or
    /// two. Unless `wellFormed` (a name the fast grammar read), each
    /// sequence is checked, and a byte that starts none is skipped, as the
    /// standard library's decoder skips the maximal subpart it reports as
    /// an error (its continuation bytes start none either), so the answer
    /// is the same.
    ///
    /// - Complexity: O(*n*) in the bytes.
    static func mixesScripts(_ p: UnsafeBufferPointer<UInt8>, wellFormed: Bool) -> Bool {
        var seen: UInt8 = 0
        var i = 0
        let n = p.count
        while i < n {
            let b = p[i]
            if b < 0x80 {
                i += 1
                if b == ASCII.space || b == UInt8(ascii: ".") || b == ASCII.tab {
                    seen = 0
                } else if b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z") {
                    seen |= 1
                    if seen != 1 { return true }
                }
                continue
            }
            let length = wellFormed ? (b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4) : UTF8Bytes.sequenceLength(p, at: i, end: n)
            if length == 0 {
                i += 1
                continue
            }
            // Of three-byte scalars only those of leads E1, E2 and EA can be
            // Latin, Greek or Cyrillic letters, and of four-byte ones none:
            // the others (CJK, Thai, Devanagari, …) are passed unread.
            if length >= 3 && (length == 4 || (b != 0xE1 && b != 0xE2 && b != 0xEA)) {
                i += length
                continue
            }
            let (v, _) = UTF8Bytes.decodeWellFormed(p, at: i)
            i += length
            switch script(Unicode.Scalar(v) ?? "\u{FFFD}") {
            case .latin: seen |= 1
            case .greek: seen |= 2
            case .cyrillic: seen |= 4
            case .other: break
            }
            if seen.nonzeroBitCount > 1 { return true }
        }
        return false
    }

    /// ``mixesScripts(_:)`` for well-formed UTF-8.
    ///
    /// - Complexity: O(*n*) in the bytes.
    static func mixesScripts(wellFormed p: UnsafeBufferPointer<UInt8>) -> Bool {
        mixesScripts(p, wellFormed: true)
    }

    /// The index of the common domain this one is likely a typo of, if any.
    ///
    /// - Complexity: O(*e* · |domain|) for *e* common domains, on the stack.
    func likelyTypo(_ domain: UnsafeBufferPointer<UInt8>) -> Int? {
        let t = tables
        let entries = t.entries, lengthStarts = t.lengthStarts, byLength = t.byLength
        let signaturesByLength = t.signaturesByLength, providerBytesByLength = t.providerBytesByLength
        guard domain.count < 128, t.lengths & (1 << UInt128(domain.count)) != 0 else { return nil }
        let signature = Lookalikes.signature(domain)
        // A known domain is no typo, nor a provider's under another country.
        for k in Int(lengthStarts[domain.count])..<Int(lengthStarts[domain.count + 1]) {
            let e = entries[Int(byLength[k])]
            if e.signature == signature && e.domain.elementsEqual(domain) { return nil }
        }
        let providerRange = Lookalikes.providerLabelRange(domain)
        if let providerRange {
            // A known provider with a mistyped suffix (`gmail.con`,
            // `aol.comm`): the provider's domain is meant, however short its
            // name. Any other suffix of a provider with country variants is
            // one of them (`yahoo.es`).
            let provider = UnsafeBufferPointer(rebasing: domain[providerRange])
            if let suffix = Lookalikes.suffix(domain, after: provider),
               let code = Lookalikes.pack(domain, suffix), t.typoSuffixCodes.contains(code) {
                var best: (distance: Int, index: Int)?
                for (index, e) in entries.enumerated() where e.provider?.elementsEqual(provider) == true {
                    let d = Lookalikes.editDistance(domain, e.domain, limit: 3)
                    if d <= 3, best == nil || d < best!.distance { best = (d, index) }
                }
                if let best { return best.index }
            }
            if t.countryVariants.contains(where: { $0.elementsEqual(provider) }) { return nil }
        }
        var best: (distance: Int, index: Int)?
        let ownLabel = providerRange?.count ?? domain.count
        // Entries more than two bytes longer or shorter are more than two
        // edits away: only the lengths near the domain's are read.
        let lo = Int(lengthStarts[max(0, domain.count - 2)])
        let hi = Int(lengthStarts[min(128, domain.count + 3)])
        for k in lo..<hi {
            // The shorter the provider's name, the less an edit says: `arm`
            // is no typo of `aim`. One edit from four letters on, two from
            // eight.
            let label = min(ownLabel, Int(providerBytesByLength[k]))
            let maxEdits = label >= 8 ? 2 : label >= 4 ? 1 : 0
            guard maxEdits > 0, (signaturesByLength[k] ^ signature).nonzeroBitCount <= 2 * maxEdits else { continue }
            let index = Int(byLength[k])
            let e = entries[index]
            guard abs(e.domain.count - domain.count) <= maxEdits else { continue }
            let d = Lookalikes.editDistance(domain, e.domain, limit: maxEdits)
            // The nearest; among equals, the first in the list.
            if d <= maxEdits, best == nil || d < best!.distance || (d == best!.distance && index < best!.index) {
                best = (d, index)
            }
        }
        return best?.index
    }

    /// The index of the common domain `domain` is likely a typo of.
    func likelyTypo(_ domain: [UInt8]) -> Int? {
        domain.withUnsafeBufferPointer { likelyTypo($0) }
    }

    /// Suffixes that are slips of the finger for `com`, `net` or `org`,
    /// not the domains of any real service a person writes to.
    static let typoSuffixes: Set<String> = [
        "con", "cmo", "ocm", "comm", "coom", "cim", "vom", "xom", "cpm", "com.com", "cm", "om", "co",
        "nte", "ne", "nt", "et", "met", "bet", "ogr", "rg", "orgg",
    ]

    /// Up to seven bytes as one integer, their count in the top byte; nil
    /// when longer.
    static func pack(_ d: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
        guard range.count <= 7 else { return nil }
        var v: UInt64 = 0
        for i in range { v = v << 8 | UInt64(d[i]) }
        return v | UInt64(range.count) << 56
    }

    /// What follows the first `provider.` in the domain (`co.uk` in
    /// `yahoo.co.uk`), or nil when there is none.
    static func suffix(_ domain: UnsafeBufferPointer<UInt8>, after provider: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let n = provider.count
        var i = 0
        while i + n < domain.count {
            if domain[i + n] == UInt8(ascii: "."), domain[i..<(i + n)].elementsEqual(provider) {
                return (i + n + 1)..<domain.count
            }
            i += 1
        }
        return nil
    }

    /// The label that names the provider: the one before the public
    /// suffix, read as a country code (`es`), a generic top-level label, or
    /// a country's second level (`co.uk`, `com.au`, `ne.jp`).
    static func providerLabel(_ domain: [UInt8]) -> String? {
        domain.withUnsafeBufferPointer { d in
            providerLabelRange(d).map { String(decoding: UnsafeBufferPointer(rebasing: d[$0]), as: UTF8.self) }
        }
    }

    /// Where ``providerLabel(_:)`` is in the domain.
    static func providerLabelRange(_ d: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        // The last three labels' bounds, found from the end.
        var ends: (Int, Int, Int) = (d.count, -1, -1)  // ends of the last, second-last, third-last label
        var found = 0
        var i = d.count - 1
        while i >= 0 && found < 2 {
            if d[i] == UInt8(ascii: ".") {
                if found == 0 { ends.1 = i } else { ends.2 = i }
                found += 1
            }
            i -= 1
        }
        guard found >= 1 else { return nil }
        let lastStart = ends.1 + 1
        let secondStart = found >= 2 ? ends.2 + 1 : 0
        let second = secondStart..<ends.1
        if found >= 2 && d.count - lastStart == 2 && isSecondLevel(d, second) {
            // The label before the second level.
            var j = ends.2 - 1
            while j >= 0 && d[j] != UInt8(ascii: ".") { j -= 1 }
            return (j + 1)..<ends.2
        }
        return second
    }

    /// `co`, `com`, `net`, `org`, `ne`, `or`, `ac`, `gov`, `edu`.
    static func isSecondLevel(_ d: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count == 2 || r.count == 3 else { return false }
        var v: UInt32 = 0
        for i in r { v = v << 8 | UInt32(d[i]) }
        switch v {
        case 0x636F, 0x6E65, 0x6F72, 0x6163: return r.count == 2          // co ne or ac
        case 0x636F6D, 0x6E6574, 0x6F7267, 0x676F76, 0x656475: return r.count == 3  // com net org gov edu
        default: return false
        }
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without
    /// repeated edits of a substring), stopping early past `limit`. Rows
    /// live on the stack: domains here are under 128 bytes.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in editDistance(a, b, limit: limit) } }
    }

    static func editDistance(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8], limit: Int) -> Int {
        b.withUnsafeBufferPointer { b in editDistance(a, b, limit: limit) }
    }

    static func editDistance(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        let n = a.count, m = b.count
        if abs(n - m) > limit { return limit + 1 }
        if n == 0 || m == 0 { return max(n, m) }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (m + 1)) { rows in
            var previous2 = rows.baseAddress!
            var previous = previous2 + (m + 1)
            var current = previous + (m + 1)
            for j in 0...m {
                previous[j] = j
                previous2[j] = 0
            }
            for i in 1...n {
                current[0] = i
                var rowMin = i
                for j in 1...m {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        v = min(v, previous2[j - 2] + 1)
                    }
                    current[j] = v
                    rowMin = min(rowMin, v)
                }
                if rowMin > limit { return limit + 1 }
                (previous2, previous, current) = (previous, current, previous2)
            }
            return previous[m]
        }
    }
}
