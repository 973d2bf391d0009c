@testable import ChipDirectory
import ChipSyntax
import ChipRecognition
import ChipTestSupport
import Testing

/// The one rule for what an e-mail value of an address book holds
/// (`EmailValue`): the forms exporters and people write, and the fast path
/// held to the general reading.
@Suite struct EmailValueTests {
    struct Case: CustomStringConvertible, Sendable {
        var value: String
        var addresses: [String]
        var name: String? = nil
        var rejected: Int = 0
        var description: String { value }
    }

    static let cases: [Case] = [
        Case(value: "john@example.com", addresses: ["john@example.com"]),
        Case(value: "  john@example.com\t", addresses: ["john@example.com"]),
        Case(value: "John Smith <john@example.com>", addresses: ["john@example.com"], name: "John Smith"),
        Case(value: "\"Smith, John\" <john@example.com>", addresses: ["john@example.com"], name: "Smith, John"),
        Case(value: "mailto:john@example.com", addresses: ["john@example.com"]),
        Case(value: "MAILTO:john@example.com", addresses: ["john@example.com"]),
        Case(value: "mailto:john%40example.com?subject=hi", addresses: ["john@example.com"]),
        Case(value: "mailto:a@x.org,b@x.org", addresses: ["a@x.org", "b@x.org"]),
        Case(value: "SMTP:john@example.com", addresses: ["john@example.com"]),
        Case(value: "smtp: John <john@example.com>", addresses: ["john@example.com"], name: "John"),
        Case(value: "a@x.org, b@x.org", addresses: ["a@x.org", "b@x.org"]),
        Case(value: "a@x.org; b@x.org", addresses: ["a@x.org", "b@x.org"]),
        Case(value: "a@x.org, a@x.org", addresses: ["a@x.org"]),
        Case(value: "ann@localhost", addresses: ["ann@localhost"]),
        Case(value: "jürgen@bücher.de", addresses: ["jürgen@bücher.de"]),
        Case(value: "SMTP", addresses: [], rejected: 1),
        Case(value: "EX", addresses: [], rejected: 1),
        Case(value: "+49 30 1234567", addresses: [], rejected: 1),
        Case(value: "(030) 123-4567", addresses: [], rejected: 1),
        Case(value: "/o=ExchangeLabs/ou=Exchange Administrative Group (FYDIBOHF23SPDLT)/cn=Recipients/cn=4a1b-john",
             addresses: [], rejected: 1),
        Case(value: "/O=CONTOSO/OU=EXCHANGE ADMINISTRATIVE GROUP/CN=RECIPIENTS/CN=JSMITH", addresses: [], rejected: 1),
        Case(value: "john(at)example.com", addresses: [], rejected: 1),
        Case(value: "a@x.org, not an address", addresses: ["a@x.org"], rejected: 1),
        Case(value: "", addresses: []),
        Case(value: "   ", addresses: []),
    ]

    @Test(arguments: cases)
    func reads(_ c: Case) {
        let v = EmailValue(c.value)
        #expect(v.addresses == c.addresses)
        #expect(v.displayName == c.name)
        #expect(v.rejected.count == c.rejected)
        #expect((v.rejection() != nil) == (c.rejected > 0))
    }

    @Test func exchangePathsAreNamedInTheWarning() {
        let v = EmailValue("/o=ExchangeLabs/ou=Exchange Administrative Group/cn=Recipients/cn=abc")
        #expect(v.rejection()?.0 == .valueExchangeAddress)
        #expect(v.rejection(onEmailLine: 4)?.0 == .emailExchangeAddress)
        #expect(v.rejection(onEmailLine: 4)?.1["line"] == "4")
    }

    /// Fast path = general path: every value the plain-address test takes
    /// is read by the address list reading as exactly that one address, and
    /// every value it declines that the list reading takes as one bare
    /// valid address is one the fast path could not prove plain.
    @Test func plainAddressFastPathAgreesWithTheListReading() {
        var rng = SplitMix64(seed: 33)
        let alphabet = Array("abcXYZ019.-_+!#@%'*/=?^`{|}~ <>,;:\"()[]\\ä".utf8)
        var taken = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            let length = Int(rng.next() % 14) + 3
            for _ in 0..<length { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            // Half the inputs are address-shaped, so the fast path is exercised.
            if rng.next() % 2 == 0 {
                bytes = Array("ab".utf8) + bytes.filter { $0 != UInt8(ascii: "@") && $0 < 0x80 && $0 > 0x20 }.prefix(5)
                    + Array("@ex-\(rng.next() % 10).org".utf8)
            }
            let plain = bytes.withUnsafeBufferPointer { EmailValue.isPlainAddress($0) }
            guard plain else { continue }
            taken += 1
            let chips = AddressList.parse(bytes, policy: .standard)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(chips.count == 1 && chips[0].isValid && chips[0].address == text && chips[0].warnings.isEmpty,
                    "\(text)")
        }
        #expect(taken > 250)
    }
}
