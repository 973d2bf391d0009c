import Testing
@testable import ChipRecognition
import ChipSyntax
import ChipTestSupport

/// The typo check works on bytes on the stack; this is the same rule
/// written plainly over strings (as it first was), and the two must agree
/// on every domain: the real corpus's, the common ones, their one- and
/// two-edit neighbours, and seeded random ones.
@Suite("Likely typos: the byte version equals the plain one")
struct TypoReferenceTests {
    /// The rule over strings: splits, sets and substring search.
    struct Reference {
        let domains: [[UInt8]]
        /// Each common domain's provider label, worked out once.
        let providers: [String?]

        init(_ commonDomains: [String]) {
            domains = commonDomains.map { Array($0.lowercased().utf8) }.filter { $0.count < 100 }
            providers = domains.map(Reference.providerLabel)
            signatures = domains.map { $0.reduce(UInt64(0)) { $0 | 1 << UInt64($1 & 63) } }
        }

        let signatures: [UInt64]

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

        static func suffix(_ domain: [UInt8], after provider: String) -> String {
            let text = String(decoding: domain, as: UTF8.self)
            guard let r = text.firstRange(of: provider + ".") else { return "" }
            return String(text[r.upperBound...])
        }


        func likelyTypo(_ domain: [UInt8]) -> Int? {
            guard domain.count < 128 else { return nil }
            let near = domains.contains { abs($0.count - domain.count) <= 2 }
            guard near else { return nil }
            if domains.contains(domain) { return nil }
            if let provider = Reference.providerLabel(domain) {
                if Lookalikes.typoSuffixes.contains(Reference.suffix(domain, after: provider)) {
                    var best: (distance: Int, index: Int)?
                    for (index, e) in domains.enumerated() where providers[index] == provider {
                        let d = Lookalikes.editDistance(domain, e, limit: 3)
                        if d <= 3, best == nil || d < best!.distance { best = (d, index) }
                    }
                    if let best { return best.index }
                }
                if ValidationPolicy.countryVariantProviders.contains(provider) { return nil }
            }
            var best: (distance: Int, index: Int)?
            let signature: UInt64 = domain.reduce(0) { $0 | 1 << UInt64($1 & 63) }
            let ownLabel = Reference.providerLabel(domain)?.utf8.count ?? domain.count
            for (index, e) in domains.enumerated() {
                let label = min(ownLabel, providers[index]?.utf8.count ?? e.count)
                let maxEdits = label >= 8 ? 2 : label >= 4 ? 1 : 0
                guard maxEdits > 0, abs(e.count - domain.count) <= maxEdits,
                      (signatures[index] ^ signature).nonzeroBitCount <= 2 * maxEdits else { continue }
                let d = Lookalikes.editDistance(domain, e, limit: maxEdits)
                if d <= maxEdits, best == nil || d < best!.distance { best = (d, index) }
            }
            return best?.index
        }
    }

    /// Domains one or two random edits from `d`.
    static func neighbours(_ d: [UInt8], _ rng: inout SplitMix64, count: Int) -> [[UInt8]] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789.-".utf8)
        return (0..<count).map { _ in
            var v = d
            for _ in 0..<(1 + rng.below(2)) {
                switch rng.below(4) {
                case 0 where !v.isEmpty: v.remove(at: rng.below(v.count))
                case 1: v.insert(rng.pick(letters), at: rng.below(v.count + 1))
                case 2 where !v.isEmpty: v[rng.below(v.count)] = rng.pick(letters)
                case 3 where v.count > 1:
                    let i = rng.below(v.count - 1)
                    v.swapAt(i, i + 1)
                default: break
                }
            }
            return v
        }
    }

    @Test func agreesOnRealCommonNearAndRandomDomains() throws {
        let common = ValidationPolicy.defaultCommonDomains
        let checker = Lookalikes(commonDomains: common)
        let reference = Reference(common)
        var domains: [[UInt8]] = common.map { Array($0.utf8) }
        let text = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        // The corpus's domains: what follows each `@` up to a byte no host
        // name holds (parsing every list would only find the same ones).
        var i = 0
        while i < text.count {
            if text[i] == UInt8(ascii: "@") {
                var j = i + 1
                while j < text.count, !" >,;\n\t\")".utf8.contains(text[j]) { j += 1 }
                domains.append(text[(i + 1)..<j].map(ByteClass.lowercased))
                i = j
            } else {
                i += 1
            }
        }
        var rng = SplitMix64(seed: 46)
        for d in common { domains += Self.neighbours(Array(d.utf8), &rng, count: 20) }
        for suffix in Lookalikes.typoSuffixes {
            domains += ["gmail.", "yahoo.", "mail.yahoo.", "gmail.gmail.", "x.co.", "gmx."].map { Array(($0 + suffix).utf8) }
        }
        let letters = Array("acgilmot.".utf8)
        for _ in 0..<1_500 { domains.append((0..<rng.between(1...14)).map { _ in rng.pick(letters) }) }
        var disagreements: [String] = []
        var flagged = 0
        for d in Set(domains) {
            let got = checker.likelyTypo(d), expected = reference.likelyTypo(d)
            if got != nil { flagged += 1 }
            if got != expected {
                disagreements.append("\(String(decoding: d, as: UTF8.self)): \(got.map { common[$0] } ?? "none"), plainly \(expected.map { common[$0] } ?? "none")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        // The neighbours are mostly typos: the comparison covers both answers.
        #expect(flagged > 1_500, "only \(flagged) flagged")
        #expect(Set(domains).count > 7_000)
    }

    @Test(arguments: [
        ("gmail.com", "gmail"), ("yahoo.co.uk", "yahoo"), ("docomo.ne.jp", "docomo"), ("x.org", "x"),
        ("a.b.example.com", "example"), ("uol.com.br", "uol"), ("co.uk", "co"), (".co.uk", ""), ("a..b", ""),
        ("com", nil), ("", nil), ("a.gov.au", "a"), ("a.org.nz", "a"), ("a.go.jp", "go"), ("x.y.", "y"),
        ("ox.ac.uk", "ox"), ("a.net.au", "a"), ("a.or.jp", "a"), ("a.edu.au", "a"), ("a.com.b", "com"),
        ("a.edu.abc", "edu"), ("a.cox.uk", "cox"), ("a.oc.uk", "oc"),
    ] as [(String, String?)])
    func providerLabelsAsThePlainRuleFindsThem(_ domain: String, _ label: String?) {
        #expect(Lookalikes.providerLabel(Array(domain.utf8)) == label)
        #expect(Reference.providerLabel(Array(domain.utf8)) == label)
    }
}
