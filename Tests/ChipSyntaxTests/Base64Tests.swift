import Testing
@testable import ChipSyntax
import ChipTestSupport

/// Base64 (RFC 4648 §4) decoded into memory, by selects, is the decoder
/// that calls back per byte: the same bytes, and a refusal for the same
/// texts (bad digits, `=` before the end, a truncated final byte; padding
/// may be missing).
@Suite("Base64 into memory")
struct Base64Tests {
    static func reference(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        let ok = text.withUnsafeBufferPointer { Base64.decode($0) { out.append($0) } }
        return ok ? out : nil
    }

    static func intoMemory(_ text: [UInt8]) -> [UInt8]? {
        text.withUnsafeBufferPointer { p -> [UInt8]? in
            let out = UnsafeMutablePointer<UInt8>.allocate(capacity: max(p.count, 1))
            defer { out.deallocate() }
            guard let n = Base64.decode(p, into: out) else { return nil }
            return Array(UnsafeBufferPointer(start: out, count: n))
        }
    }

    @Test(arguments: [
        ("", [UInt8]()), ("QQ==", Array("A".utf8)), ("QQ", Array("A".utf8)), ("QUI=", Array("AB".utf8)),
        ("QUJD", Array("ABC".utf8)), ("Wm/DqyBTw7hyZW5zZW4=", Array("Zoë Sørensen".utf8)), ("+/+/", [0xFB, 0xFF, 0xBF]),
        ("QQ=A", nil), ("Q", nil), ("QUJDR", nil), ("QQ==QQ==", nil), ("QU-D", nil), ("QU_D", nil), ("QU D", nil),
    ] as [(String, [UInt8]?)])
    func rfc4648Cases(_ text: String, _ expected: [UInt8]?) {
        let got = Self.intoMemory(Array(text.utf8))
        #expect(got == expected, "\(text)")
        #expect(got == Self.reference(Array(text.utf8)), "\(text)")
    }

    /// The look-up tables the fast decoders use hold each byte's value as
    /// the switches give it.
    @Test func tablesHoldEveryBytesValue() {
        for b in 0...255 {
            let byte = UInt8(b)
            #expect(Base64.hexValues[byte] == Base64.hexValue(byte) ?? 0xFF, "\(b)")
            #expect(Base64.digitValues[byte] == (b == 0x3D ? 0x40 : Base64.digitValue(byte) ?? 0xFF), "\(b)")
        }
    }

    /// Every byte value in every place of random texts of digits.
    @Test func agreesWithTheByteByByteDecoder() {
        let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var rng = SplitMix64(seed: 71)
        var refused = 0
        for _ in 0..<20_000 {
            var text = (0..<rng.below(20)).map { _ in rng.pick(digits) }
            if rng.chance(perMille: 300) { text += [UInt8](repeating: UInt8(ascii: "="), count: rng.between(1...2)) }
            if rng.chance(perMille: 200), !text.isEmpty { text[rng.below(text.count)] = UInt8(rng.below(256)) }
            let got = Self.intoMemory(text)
            #expect(got == Self.reference(text), "\(text)")
            if got == nil { refused += 1 }
        }
        #expect(refused > 1_000 && refused < 19_000)
    }
}
