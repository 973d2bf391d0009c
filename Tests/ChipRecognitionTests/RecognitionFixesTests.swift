import Testing
import ChipSyntax
import ChipRecognitionTestSupport
@testable import ChipRecognition
import ChipTestSupport



@Suite("Recognition as other suites test it")
struct RecognitionFixesTests {
    @Test(arguments: RecognitionFixTables.rows)
    func row(_ row: RFCRow) { verifyRFCRow(row) }

    @Test func namesWithoutInvisiblesCarryNoSuchWarning() {
        for text in ["José Müller <j@x.de>", "\"Lee, Ann\" <a@x.org>", "=?UTF-8?Q?Andr=C3=A9?= <a@x.org>", "עִבְרִית <h@x.org>"] {
            let w = AddressList.parse(text)[0].warnings
            #expect(!w.contains(.bidiControl) && !w.contains(.hiddenCharacter), "\(text)")
        }
        // A BOM inside a chip is no white space: it is an invisible character.
        #expect(AddressList.parse("ann\u{FEFF}@x.org")[0].error?.code == "invisible-character")
        // Partial BOMs are text of the chip they start.
        let partial = AddressList.parse([0xEF, 0x61, 0x40, 0x62, 0x2E, 0x63, 0x2C, 0x20, 0xEF, 0xBB, 0x61, 0x40, 0x62, 0x2E, 0x63])
        #expect(partial.map(\.raw.count) == [6, 7])
        #expect(partial.allSatisfy { $0.error?.code == "invalid-utf8" })
    }

    @Test func aCorrectNameIsNoSpoof() {
        let chips = AddressList.parse("ann@x.org <ann@x.org>, ann@x.org <ann@x.or")
        #expect(!chips[0].warnings.contains(.displayNameSpoof))
        #expect(!chips[1].warnings.contains(.displayNameSpoof))  // no address to compare with
    }
}
