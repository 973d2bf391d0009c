import Testing
import ChipKit
import ChipKitTestSupport
import ChipTestSupport

/// The recovery rule (a construct left open ends its chip before the first
/// separator after its opener; see RecoveryTests) through the whole engine.
@Suite("Recovery through the whole engine")
struct RecoveryInvariantTests {
    /// Fragments that open and close constructs, separate and break lines.
    static let fragments = [
        "a@x.org", "Ann <b@y.org>", "<", ">", "\"", "(", ")", "[", "]", ",", ", ", ";", " ", "\n", "\r\n", "\r\n ",
        "Lee, Ann", "\"Lee, Ann\"", "(c, d)", "Team:", "x", "@", "\\", "c@[192.0.2.1]", "é",
    ]

    /// Seeded lists dense in open constructs and separators: parsing,
    /// pasting, typing key by key and in pieces agree, nothing is lost,
    /// and recovery reads text again within its bound (the verifier's
    /// invariants), under every policy.
    @Test(arguments: 0..<120)
    func typingPastingAndParsingAgree(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0xC0FFEE)
        var bytes: [UInt8] = []
        for _ in 0..<(1 + rng.below(16)) { bytes += Array(Self.fragments[rng.below(Self.fragments.count)].utf8) }
        let broken = InvariantVerifier.violations(ofAnyPolicy: bytes)
        #expect(broken == [], "seed \(seed): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
}
