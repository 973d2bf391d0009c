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
        /// The length of its provider label (`gmail` in `gmail.com`).
        var providerLabelBytes: Int
    }

    /// What was found for a domain: lists repeat domains, so each distinct
    /// one is examined once (a fixed table, so memory stays bounded).
    struct Verdict: Sendable {
        var key: UInt64 = 0
        var typo: Int32 = -1
        var mixed = false
    }

    /// Made only by a checker that checks, so a recognizer that never does
    /// (the copies an editor keeps for undo) holds none.
    var cache: [Verdict]
    static let cacheSize = 4096

    /// The bytes the verdict cache holds.
    package var cacheBytes: Int { cache.count * MemoryLayout<Verdict>.stride }

    let entries: [Entry]
    /// The lengths of the entries, as bits, to skip domains no entry is near.
    let lengths: UInt128

    /// `checks`: whether this value will check chips (and so needs its
    /// table of verdicts).
    package init(commonDomains: [String], checks: Bool = true) {
        cache = checks ? [Verdict](repeating: Verdict(), count: Lookalikes.cacheSize) : []
        let lowered = commonDomains.map { Array($0.lowercased().utf8) }.filter { $0.count < 100 }
        entries = lowered.map {
            Entry(domain: $0, signature: Lookalikes.signature($0[...]),
                  providerLabelBytes: Lookalikes.providerLabel($0)?.utf8.count ?? $0.count)
        }
        var bits: UInt128 = 0
        for d in lowered {
            for n in max(0, d.count - 2)...(d.count + 2) where n < 128 { bits |= 1 << UInt128(n) }
        }
        lengths = bits
    }

    /// Which letters occur, as bits: two strings within two edits differ
    /// in at most four bits, so most candidates are ruled out by a popcount.
    static func signature(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var s: UInt64 = 0
        for b in bytes { s |= 1 << UInt64(b & 63) }
        return s
    }

    /// Adds the warnings of a valid chip to `r`.
    package mutating func check(_ r: inout Recognition, _ p: UnsafeBufferPointer<UInt8>, _ recognizer: inout Recognizer) {
        guard let domainRange = r.domainRange, !cache.isEmpty else { return }
        if let nameRange = r.nameRange {
            var hasAt = false, hasEncodedWord = false, hasNonASCII = false
            var i = nameRange.lowerBound
            while i < nameRange.upperBound {
                let b = p[i]
                if b == UInt8(ascii: "@") { hasAt = true }
                if b == UInt8(ascii: "=") && i + 1 < nameRange.upperBound && p[i + 1] == UInt8(ascii: "?") {
                    hasEncodedWord = true
                }
                if b >= 0x80 { hasNonASCII = true }
                i += 1
            }
            if hasAt || hasEncodedWord {
                var name: [UInt8] = []
                recognizer.appendDisplayName(r, p, into: &name)
                if name.contains(UInt8(ascii: "@")) && spoofs(name, r, p) { r.warnings.insert(.displayNameSpoof) }
                if Lookalikes.mixesScripts(name[...]) { r.warnings.insert(.mixedScript) }
            } else if hasNonASCII, Lookalikes.mixesScripts(UnsafeBufferPointer(rebasing: p[nameRange])) {
                // Quotes and escapes are ASCII: the raw text has the name's letters.
                r.warnings.insert(.mixedScript)
            }
        }
        guard p[domainRange.lowerBound] != UInt8(ascii: "[") else { return }
        let verdict = domainVerdict(UnsafeBufferPointer(rebasing: p[domainRange]))
        if verdict.mixed { r.warnings.insert(.mixedScript) }
        if verdict.typo >= 0 {
            r.warnings.insert(.likelyTypo)
            r.suggestedDomain = String(decoding: entries[Int(verdict.typo)].domain, as: UTF8.self)
        }
    }

    /// The verdict on a domain, from the cache or worked out.
    mutating func domainVerdict(_ raw: UnsafeBufferPointer<UInt8>) -> Verdict {
        // Lower-cased, without obsolete white space.
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
        var word: UInt64 = 0
        var k: UInt64 = 0
        for b in raw where b != ASCII.space && b != ASCII.tab && b != ASCII.carriageReturn && b != ASCII.lineFeed {
            word |= UInt64(ByteClass.lowercased(b)) << (8 * k)
            k += 1
            if k == 8 {
                h = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
                h ^= h >> 29
                word = 0
                k = 0
            }
        }
        h = (h ^ word ^ (k << 59)) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 31
        let key = h | 1
        let slot = Int(truncatingIfNeeded: h >> 40) & (cache.count - 1)
        if cache[slot].key == key { return cache[slot] }
        var verdict = Verdict(key: key)
        var domain: [UInt8] = []
        domain.reserveCapacity(raw.count)
        var international = false
        for b in raw where b != ASCII.space && b != ASCII.tab && b != ASCII.carriageReturn && b != ASCII.lineFeed {
            if b >= 0x80 { international = true }
            domain.append(ByteClass.lowercased(b))
        }
        if !international {
            // An A-label (`xn--`) may hide a mix too.
            var i = 0
            while i + 3 < domain.count {
                if domain[i] == UInt8(ascii: "x") && domain[i + 1] == UInt8(ascii: "n") && domain[i + 2] == ASCII.hyphen
                    && domain[i + 3] == ASCII.hyphen && (i == 0 || domain[i - 1] == UInt8(ascii: ".")) {
                    international = true
                    break
                }
                i += 1
            }
        }
        if international {
            let text = String(decoding: domain, as: UTF8.self)
            let unicode = (try? IDNA.toUnicode(text)) ?? text
            verdict.mixed = Lookalikes.mixesScripts(Array(unicode.utf8)[...])
        }
        if let typo = likelyTypo(domain) { verdict.typo = Int32(typo) }
        cache[slot] = verdict
        return verdict
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

    /// The index of the common domain this one is likely a typo of, if any.
    func likelyTypo(_ domain: [UInt8]) -> Int? {
        guard domain.count < 128, lengths & (1 << UInt128(domain.count)) != 0 else { return nil }
        let signature = Lookalikes.signature(domain[...])
        // A known domain is no typo, nor a provider's under another country.
        for e in entries where e.signature == signature && e.domain == domain { return nil }
        if let provider = Lookalikes.providerLabel(domain) {
            // A known provider with a mistyped suffix (`gmail.con`,
            // `aol.comm`): the provider's domain is meant, however short its
            // name. Any other suffix of a provider with country variants is
            // one of them (`yahoo.es`).
            let suffix = Lookalikes.suffix(domain, after: provider)
            if Lookalikes.typoSuffixes.contains(suffix) {
                var best: (distance: Int, index: Int)?
                for (index, e) in entries.enumerated() where Lookalikes.providerLabel(e.domain) == provider {
                    let d = Lookalikes.editDistance(domain, e.domain, limit: 3)
                    if d <= 3, best == nil || d < best!.distance { best = (d, index) }
                }
                if let best { return best.index }
            }
            if ValidationPolicy.countryVariantProviders.contains(provider) { return nil }
        }
        var best: (distance: Int, index: Int)?
        let ownLabel = Lookalikes.providerLabel(domain)?.utf8.count ?? domain.count
        for (index, e) in entries.enumerated() {
            // The shorter the provider's name, the less an edit says: `arm`
            // is no typo of `aim`. One edit from four letters on, two from
            // eight.
            let label = min(ownLabel, e.providerLabelBytes)
            let maxEdits = label >= 8 ? 2 : label >= 4 ? 1 : 0
            guard maxEdits > 0, abs(e.domain.count - domain.count) <= maxEdits,
                  (e.signature ^ signature).nonzeroBitCount <= 2 * maxEdits else { continue }
            let d = Lookalikes.editDistance(domain, e.domain, limit: maxEdits)
            if d <= maxEdits, best == nil || d < best!.distance { best = (d, index) }
        }
        return best?.index
    }

    /// Suffixes that are slips of the finger for `com`, `net` or `org`,
    /// not the domains of any real service a person writes to.
    static let typoSuffixes: Set<String> = [
        "con", "cmo", "ocm", "comm", "coom", "cim", "vom", "xom", "cpm", "com.com", "cm", "om", "co",
        "nte", "ne", "nt", "et", "met", "bet", "ogr", "rg", "orgg",
    ]

    /// What follows the provider label (`co.uk` in `yahoo.co.uk`).
    static func suffix(_ domain: [UInt8], after provider: String) -> String {
        let text = String(decoding: domain, as: UTF8.self)
        guard let r = text.firstRange(of: provider + ".") else { return "" }
        return String(text[r.upperBound...])
    }

    /// The label that names the provider: the one before the public
    /// suffix, read as a country code (`es`), a generic top-level label, or
    /// a country's second level (`co.uk`, `com.au`, `ne.jp`).
    static func providerLabel(_ domain: [UInt8]) -> String? {
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return nil }
        let secondLevels: Set<String> = ["co", "com", "net", "org", "ne", "or", "ac", "gov", "edu"]
        var k = labels.count - 2
        if labels.count >= 3 && labels[labels.count - 1].count == 2
            && secondLevels.contains(String(decoding: labels[k], as: UTF8.self)) {
            k -= 1
        }
        return String(decoding: labels[k], as: UTF8.self)
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without
    /// repeated edits of a substring), stopping early past `limit`. Rows
    /// live on the stack: domains here are under 128 bytes.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
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
