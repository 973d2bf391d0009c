import ChipKit
import ChipTestSupport
import Testing

/// Every range the engine gives a host, in the host's units: suggestion
/// highlights, error places in a chip, chips' places in a pasted list.
@Suite("Ranges in the host's units")
struct HostUnitsTests {
    @Test func suggestionHighlightsInUTF16AndIndices() throws {
        let book = ContactDirectory([
            Contact(id: ContactID("z"), displayName: "Zoë 😀 Örtiz", emails: [ContactEmail(address: "zoë@örtiz.example")]),
        ])
        let s = try #require(book.suggestions(for: "ört").first)
        let name = try #require(s.name), address = try #require(s.address)
        #expect(!s.nameMatches.isEmpty && !s.addressMatches.isEmpty)
        for (bytes, utf16, indices, text) in [
            (s.nameMatches, s.nameMatches(in: .utf16), s.nameMatchIndices, name),
            (s.addressMatches, s.addressMatches(in: .utf16), s.addressMatchIndices, address),
        ] {
            #expect(bytes.count == utf16.count && bytes.count == indices.count)
            for (b, (u, i)) in zip(bytes, zip(utf16, indices)) {
                let byByte = String(decoding: Array(text.utf8)[b], as: UTF8.self)
                #expect(String(text[i]) == byByte)
                let u16 = Array(text.utf16)[u]
                #expect(String(decoding: u16, as: UTF16.self) == byByte)
                #expect(byByte.lowercased().hasPrefix("ört") || byByte.lowercased().hasPrefix("ort"), "\(byByte)")
            }
        }
        // "Zoë 😀 " is 9 UTF-16 units before Örtiz (the emoji counts two).
        #expect(s.nameMatches(in: .utf16).first?.lowerBound == 7)
        #expect(s.nameMatches(in: .unicodeScalars).first?.lowerBound == 6)
    }

    /// The error's place in the chip, in every unit, and each chip's place
    /// in the pasted list, walked with one cursor.
    @Test(arguments: [
        ("😀 <ann@x..org>", "😀 <ann@x..org>"),
        ("Zoë <zoë@örtiz.example", "Zoë <zoë@örtiz.example"),
        ("a@x.org, \"Ünal <u@x", "\"Ünal <u@x"),
    ])
    func errorPlacesAndChipPlaces(_ list: String, _ erring: String) throws {
        let chips = AddressList.parse(list)
        let chip = try #require(chips.first { $0.rawText == erring })
        let offset = try #require(chip.errorOffsetInChip)
        #expect((0...chip.raw.count).contains(offset))
        let text = chip.rawText
        let prefix = String(decoding: chip.raw[..<offset], as: UTF8.self)
        #expect(chip.errorOffsetInChip(in: .utf16) == prefix.utf16.count)
        #expect(chip.errorOffsetInChip(in: .unicodeScalars) == prefix.unicodeScalars.count)
        #expect(text.hasPrefix(prefix))
        var cursor = TextOffsets.Cursor(Array(list.utf8))
        for c in chips {
            let r = try #require(TextOffsets.range(ofBytes: c.byteRange, in: list))
            #expect(String(list[r]) == c.rawText)
            let lower = cursor.offset(ofByte: c.byteRange.lowerBound, unit: .utf16)
            #expect(lower == r.lowerBound.utf16Offset(in: list))
        }
    }
}
