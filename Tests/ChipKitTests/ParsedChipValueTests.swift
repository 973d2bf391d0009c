import Foundation
import ChipKit
import Testing

/// A parsed chip is recognition's: a host reads it, encodes and decodes
/// it, and cannot build one whose parts disagree.
@Suite("Parsed chips as hosts see them")
struct ParsedChipValueTests {
    /// Every parsed chip has an error exactly when it has an error offset,
    /// and decoding holds that rule: an error without its place is refused.
    @Test func anErrorComesWithItsPlace() throws {
        let chips = AddressList.parse("Ann <ann@x.org>, bob@, \"cy, Team: ;, d@e..f")
        #expect(chips.count >= 4)
        for chip in chips {
            #expect((chip.error == nil) == (chip.errorOffset == nil), "\(chip.raw)")
            let back = try JSONDecoder().decode(ParsedChip.self, from: JSONEncoder().encode(chip))
            #expect(back == chip)
        }
        #expect(chips.contains { $0.isEmptyGroup })
        let bob = try #require(chips.first { $0.error != nil })
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(bob)) as? [String: Any])
        json["errorOffset"] = nil
        let broken = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ParsedChip.self, from: broken) }
        let valid = try #require(chips.first { $0.error == nil })
        json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(valid)) as? [String: Any])
        json["errorOffset"] = 3
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ParsedChip.self, from: JSONSerialization.data(withJSONObject: json))
        }
    }
}
