import Testing
import ChipTestSupport
@testable import ChipDirectory

@Suite struct ContactTests {
    @Test(arguments: [
        ([nil, nil, nil] as [Int?], 0),
        ([nil, 2, 1], 2),
        ([3, 1, 1], 1),
        ([100, nil], 0),
    ])
    func thePreferredAddressHasTheLowestPref(_ prefs: [Int?], _ expected: Int) {
        let contact = Contact(
            id: ContactID("c"), emails: prefs.enumerated().map { ContactEmail(address: "a\($0.offset)@x.org", pref: $0.element) })
        #expect(contact.preferredEmailIndex == expected)
    }

    @Test func aContactWithoutAddressesHasNoPreferred() {
        #expect(Contact(id: ContactID("c")).preferredEmailIndex == nil)
    }

    @Test func usesDecayWithTheHalfLife() {
        let day = 24.0 * 3600
        var usage = ContactUsage()
        #expect(usage.score(at: 0) == 0)
        usage = usage.recordingUse(at: 0, halfLife: day)
        usage = usage.recordingUse(at: day, halfLife: day)  // 0.5 + 1
        #expect(usage.count == 2)
        #expect(abs(usage.score(at: day, halfLife: day) - 1.5) < 1e-9)
        #expect(abs(usage.score(at: 3 * day, halfLife: day) - 0.375) < 1e-9)
        // A use recorded out of order never moves `last` back.
        let late = usage.recordingUse(at: 0, halfLife: day)
        #expect(late.last == day)
    }

    @Test func aStructuredNameFormatsInReadingOrder() {
        let name = StructuredName(family: ["Ortiz"], given: ["José"], additional: ["Luis"], prefixes: ["Dr."], suffixes: ["Jr."])
        #expect(name.formatted == "Dr. José Luis Ortiz Jr.")
        #expect(!name.isEmpty)
        #expect(StructuredName(family: [""]).isEmpty)
    }

    /// Family first only when both the given and the family name are
    /// written in Han, kana or Hangul; any Latin letter keeps reading order.
    @Test(arguments: [
        (["山田"], ["太郎"], [String](), "山田 太郎"),
        (["やまだ"], ["たろう"], [], "やまだ たろう"),
        (["ヤマダ"], ["ﾀﾛｳ"], [], "ヤマダ ﾀﾛｳ"),
        (["王"], ["小明"], [], "王 小明"),
        (["김"], ["민준"], [], "김 민준"),
        (["佐々木"], ["𠮷男"], [], "佐々木 𠮷男"),
        (["山田"], ["Taro"], [], "Taro 山田"),
        (["Yamada"], ["太郎"], [], "太郎 Yamada"),
        (["山田"], [], [], "山田"),
        ([], ["太郎"], [], "太郎"),
        (["Lee"], ["Ann"], ["May"], "Ann May Lee"),
        (["山田"], ["太郎"], ["一"], "山田 太郎 一"),
        (["Ortiz"], ["José"], [], "José Ortiz"),
    ])
    func eastAsianNamesPutTheFamilyFirst(_ family: [String], _ given: [String], _ additional: [String], _ want: String) {
        #expect(StructuredName(family: family, given: given, additional: additional).formatted == want)
    }
}

@Suite struct HalvingTests {
    @Test(arguments: [(0.0, 1.0), (1, 0.5), (2, 0.25), (0.5, 0.707_106_781_186_547_5), (10.25, 0.000_821_187_905_521_205_6), (2000, 0)])
    func halvingIsTwoToTheMinus(_ x: Double, _ expected: Double) {
        #expect(abs(halving(x) - expected) <= 1e-15 * max(1, expected))
    }

    /// The rule: library code uses no libm function, so its floor is
    /// integer arithmetic on the bits, and it must equal what libm gives
    /// for every double.
    @Test(arguments: [
        0.0, -0.0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2.999_999_999, -2.000_000_001, 0x1p52, -0x1p52, 0x1p52 - 0.5,
        -(0x1p52 - 0.5), 0x1p51 + 0.5, -(0x1p51 + 0.5), 0x1p53, 1e300, -1e300, Double.leastNonzeroMagnitude,
        -Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, -Double.leastNormalMagnitude,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
        1 - Double.ulpOfOne / 2, -(1 - Double.ulpOfOne / 2),
    ])
    func roundedDownIsLibmFloor(_ x: Double) {
        #expect(Self.same(roundedDown(x), x.rounded(.down)), "x = \(x)")
    }

    @Test func roundedDownIsLibmFloorOnSeededDoubles() {
        let seed: UInt64 = 0x5EED_F100
        var random = SplitMix64(seed: seed)
        for i in 0..<100_000 {
            // Every bit pattern (NaNs, infinities, subnormals, huge values,
            // negatives), then values near the integers where the fraction
            // bits run out.
            let x = i % 2 == 0
                ? Double(bitPattern: random.next())
                : Double(Int64(bitPattern: random.next()) >> (random.next() % 64)) + Double(random.next() % 8) / 8
            guard Self.same(roundedDown(x), x.rounded(.down)) else {
                Issue.record("roundedDown(\(x)) = \(roundedDown(x)), libm says \(x.rounded(.down)); seed \(seed), case \(i)")
                return
            }
        }
    }

    /// Halving kept its values: the same as before for every finite x it
    /// could take, and +∞ (not a trap) below −2^63.
    @Test func halvingGivesWhatTheLibmVersionGave() {
        func before(_ x: Double) -> Double {
            guard x.isFinite else { return 0 }
            let whole = x.rounded(.down)
            if whole > 1100 { return 0 }
            let y = -(x - whole) * 0.693_147_180_559_945_309_4
            var term = 1.0
            var sum = 1.0
            for k in 1...20 {
                term *= y / Double(k)
                sum += term
            }
            return Double(sign: .plus, exponent: -Int(whole), significand: sum)
        }
        let seed: UInt64 = 0x4A1F
        var random = SplitMix64(seed: seed)
        for i in 0..<50_000 {
            let x = Double(Int64(bitPattern: random.next()) % 3_000_000) / 1000 + (i % 3 == 0 ? 0 : 0.000_1)
            guard Self.same(halving(x), before(x)) else {
                Issue.record("halving(\(x)) = \(halving(x)), was \(before(x)); seed \(seed), case \(i)")
                return
            }
        }
        #expect(halving(-1e300) == .infinity)
        #expect(halving(.nan) == 0 && halving(.infinity) == 0 && halving(-.infinity) == 0)
    }

    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
}
