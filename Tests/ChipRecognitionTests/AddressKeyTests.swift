import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

@Suite("Duplicate keys")
struct AddressKeyTests {
    func key(_ s: String, exact: Bool = false) -> UInt64 { AddressKey.hash(Array(s.utf8), exactLocalPart: exact) }

    /// By default local parts compare without ASCII case, as the big
    /// providers treat them; exactly under `comparesLocalPartsExactly`.
    @Test(arguments: [
        // (a, b, same by default, same exactly)
        ("ann@x.org", "ANN@x.org", true, false),
        ("Ann.Lee@x.org", "ann.lee@X.ORG", true, false),
        ("\"ann\"@x.org", "ann@X.org", true, true),
        ("josé@x.org", "JOSÉ@x.org", false, false),   // only ASCII letters fold
        ("josé@x.org", "JOSé@x.org", true, false),
        ("ann@x.org", "anne@x.org", false, false),
        ("ann@x.org", "ann@x.org", true, true),
    ])
    func localPartsFoldCaseUnlessExact(_ a: String, _ b: String, _ folded: Bool, _ exact: Bool) {
        #expect((key(a) == key(b)) == folded, "\(a) vs \(b)")
        #expect((key(a, exact: true) == key(b, exact: true)) == exact, "\(a) vs \(b), exact")
    }

    @Test(arguments: [
        ("ann@example.com", "ann@EXAMPLE.com", true),
        ("ann@example.com", "ann@Example.COM", true),
        ("ann@example.com", "Ann@example.com", true),  // local parts fold ASCII case by default
        ("\"ann\"@example.com", "ann@example.com", true),  // quotes around a plain local part
        ("\"a\\\"b\"@x.org", "\"a\\\"b\"@X.ORG", true),
        ("ann@example.com", "ann@example.co", false),
        ("a@b.c", "a@b.c\u{0}", false),
        ("averyveryverylonglocalpart@sub.example.com", "averyveryverylonglocalpart@SUB.EXAMPLE.COM", true),
        ("averyveryverylonglocalpart@sub.example.com", "averyveryverylonglocalparT@sub.example.com", true),
        ("averyveryverylonglocalpart@sub.example.com", "averyveryverylonglocalpars@sub.example.com", false),
        ("x@münchen.de", "x@MÜNCHEN.de", false),  // only ASCII case is folded here
        ("x@münchen.de", "x@MüNCHEN.DE", true),
    ])
    func equalAddressesShareAKey(_ a: String, _ b: String, _ same: Bool) {
        #expect((key(a) == key(b)) == same, "\(a) vs \(b)")
    }

    /// The eight-bytes-at-once lower-casing agrees with the byte rule for
    /// every byte value in every position.
    @Test func wordLowercasingMatchesBytewise() {
        for position in 0..<8 {
            for value in 0..<256 {
                let w = UInt64(value) << (8 * UInt64(position)) | 0x4100_0000_0000_005A & ~(0xFF << (8 * UInt64(position)))
                let got = SWAR.lowercased(w)
                var expected: UInt64 = 0
                for k in 0..<8 {
                    let b = UInt8(truncatingIfNeeded: w >> (8 * UInt64(k)))
                    expected |= UInt64(ByteClass.lowercased(b)) << (8 * UInt64(k))
                }
                #expect(got == expected, "byte \(value) at \(position)")
            }
        }
    }

    /// A run of up to 16 bytes loaded as two whole words (`readsPast`,
    /// when the bytes after it may be read) hashes as when it is read
    /// within its bounds, whatever the bytes after it are; so does a
    /// longer run, which is always read within them. The form that notes
    /// whether lower-casing changed a byte notes it exactly when the run
    /// holds a capital.
    @Test func shortRunsLoadedWholeHashTheSame() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<20_000 {
            let bytes = (0..<80).map { _ in UInt8(truncatingIfNeeded: rng.below(256)) }
            let count = rng.between(1...28)
            bytes.withUnsafeBufferPointer { p in
                let base = p.baseAddress!
                #expect(AddressKey.domainHash(base, count, readsPast: true) == AddressKey.domainHash(base, count))
                // The same hash noting whether a capital was folded.
                let capital = p.prefix(count).contains { $0 >= 0x41 && $0 <= 0x5A }
                for readsPast in [false, true] {
                    let (hash, folded) = AddressKey.domainHashNotingCase(base, count, readsPast: readsPast)
                    #expect(hash == AddressKey.domainHash(base, count) && folded == capital, "\(count) \(readsPast)")
                }
                for exact in [false, true] {
                    #expect(AddressKey.hash(local: base, count, domain: 7, exactLocalPart: exact, readsPast: true)
                            == AddressKey.hash(local: base, count, domain: 7, exactLocalPart: exact))
                }
            }
        }
    }

    @Test func distinctAddressesRarelyCollide() {
        var seen = Set<UInt64>()
        for i in 0..<50_000 { seen.insert(key("user\(i)@example\(i % 7).com")) }
        #expect(seen.count == 50_000)
        // Near neighbours of every length from a byte to past two words,
        // on both sides of the `@`.
        var rng = SplitMix64(seed: 5_321)
        var keys = Set<UInt64>(), addresses = Set<String>()
        for _ in 0..<50_000 {
            let local = String((0..<rng.between(1...24)).map { _ in rng.pick(Array("ab0.")) })
            let domain = String((0..<rng.between(1...24)).map { _ in rng.pick(Array("xy1.")) })
            let address = local + "@" + domain
            if addresses.insert(address).inserted { keys.insert(key(address)) }
        }
        #expect(keys.count == addresses.count)
    }

    @Test func seenSetFindsRepeatsAndRespectsItsLimit() {
        var set = AddressSeenSet()
        let k = { (i: Int) in UInt64(i) &* 0x9E37_79B9_7F4A_7C15 }
        var fresh = 0
        for i in 1...1_000 where set.insert(k(i), limit: 500) { fresh += 1 }
        #expect(fresh == 1_000)
        let repeatFound = !set.insert(k(3), limit: 500)
        #expect(repeatFound)
        // Past the limit nothing new is remembered, so a repeat is not found.
        let lateRepeatFound = !set.insert(k(900), limit: 500)
        #expect(!lateRepeatFound)
        set.removeAll()
        let afterReset = set.insert(k(3), limit: 500)
        #expect(afterReset)
    }

    /// The set against a model (a `Set` that stops taking new hashes at
    /// the limit), on seeded random lists of 0 to 40 hashes drawn from a
    /// few (so repeats are common), under limits around the four kept in
    /// fields and beyond, with the set reused from list to list: the four
    /// fields, the move to the table at the fifth, its growth and its
    /// clearing all answer as the model does.
    @Test func seenSetAnswersAsASetWithALimit() {
        var rng = SplitMix64(seed: 4_404)
        var set = AddressSeenSet()
        for round in 0..<3_000 {
            let limit = rng.pick([0, 1, 2, 3, 4, 5, 6, 8, 17, 1_000])
            let pool = (0..<rng.between(1...48)).map { _ in rng.next() }
            var model = Set<UInt64>()
            for step in 0..<rng.between(0...40) {
                // 0 and 1 are one key to the set (0 marks an empty slot).
                let h = rng.below(20) == 0 ? UInt64(rng.below(2)) : rng.pick(pool)
                let key = h == 0 ? 1 : h
                let expected = !model.contains(key)
                if expected && model.count < limit { model.insert(key) }
                let fresh = set.insert(h, limit: limit)
                #expect(fresh == expected, "round \(round), step \(step), limit \(limit)")
                if fresh != expected { return }
            }
            set.removeAll()
        }
    }

    /// Every byte counts, in parts of every length (the last bytes of a
    /// part are read as the top of its last eight), and a known last `@`
    /// gives the same key as one looked for.
    @Test func everyByteOfEveryLengthCountsAndAKnownAtChangesNothing() {
        var rng = SplitMix64(seed: 12)
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789.-_+".utf8)
        for localLength in 1...20 {
            for domainLength in 1...20 {
                let local = (0..<localLength).map { _ in rng.pick(letters) }
                let domain = (0..<domainLength).map { _ in rng.pick(letters) }
                let address = local + [0x40] + domain
                let h = address.withUnsafeBufferPointer { AddressKey.hash($0) }
                #expect(address.withUnsafeBufferPointer { AddressKey.hash($0, lastAt: localLength) } == h)
                for k in address.indices where k != localLength {
                    var changed = address
                    changed[k] = changed[k] == 0x7A ? 0x79 : 0x7A
                    #expect(changed.withUnsafeBufferPointer { AddressKey.hash($0) } != h, "byte \(k) of \(String(decoding: address, as: UTF8.self))")
                }
            }
        }
    }

    /// A domain's hash (the key of the look-alike verdicts, and half of an
    /// address's key) reads every byte but ignores ASCII case, and does not
    /// depend on where the bytes are held.
    @Test func theDomainHashSeesEveryByteButCase() {
        var rng = SplitMix64(seed: 9)
        for count in 0..<40 {
            let bytes = (0..<count).map { _ in UInt8(rng.below(256)) }
            let shifted = [0x55] + bytes
            let h = bytes.withUnsafeBufferPointer { AddressKey.domainHash($0.baseAddress, $0.count) }
            #expect(shifted.withUnsafeBufferPointer { AddressKey.domainHash($0.baseAddress! + 1, count) } == h)
            let flipped = bytes.map { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x61 && $0 <= 0x7A ? $0 ^ 0x20 : $0 }
            #expect(flipped.withUnsafeBufferPointer { AddressKey.domainHash($0.baseAddress, $0.count) } == h)
            for i in 0..<count {
                var changed = bytes
                repeat { changed[i] = UInt8(rng.below(256)) } while changed[i] | 0x20 == bytes[i] | 0x20
                    && (bytes[i] | 0x20 >= 0x61 && bytes[i] | 0x20 <= 0x7A || changed[i] == bytes[i])
                #expect(changed.withUnsafeBufferPointer { AddressKey.domainHash($0.baseAddress, $0.count) } != h,
                        "byte \(i) of \(count)")
            }
            if count > 0 {
                let longer = bytes + [0]
                #expect(longer.withUnsafeBufferPointer { AddressKey.domainHash($0.baseAddress, $0.count) } != h)
            }
        }
    }
}
