import Testing
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
}

@Suite struct HalvingTests {
    @Test(arguments: [(0.0, 1.0), (1, 0.5), (2, 0.25), (0.5, 0.707_106_781_186_547_5), (10.25, 0.000_821_187_905_521_205_6), (2000, 0)])
    func halvingIsTwoToTheMinus(_ x: Double, _ expected: Double) {
        #expect(abs(halving(x) - expected) <= 1e-15 * max(1, expected))
    }
}
