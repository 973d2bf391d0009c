import Foundation
import Testing
import ChipSyntax
import ChipRecognitionTestSupport
@testable import ChipRecognition
import ChipTestSupport

/// How recognition reads lists pasted from other programs (the tables are
/// `PastedListTables`; typing and chunking them is tested in ChipKitTests).
@Suite("Lists pasted from other programs")
struct PastedListsTests {
    @Test(arguments: PastedListTables.outlook)
    func outlook(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: PastedListTables.links)
    func links(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: PastedListTables.fullWidth)
    func fullWidth(_ row: RFCRow) { verifyRFCRow(row) }

    @Test(arguments: PastedListTables.doubledPrefix)
    func doubledPrefix(_ row: RFCRow) { verifyRFCRow(row) }

    /// Recognition of one chip the scanner made from an Outlook list: a
    /// comma between words of a name is read, one at either end is not.
    @Test(arguments: [
        ("Lee, Ann <ann@x.org>", ValidationPolicy.standard, nil as String?, "Lee, Ann" as String?),
        ("Lee , Ann M. <ann@x.org>", .standard, nil, "Lee , Ann M."),
        ("Lee, <ann@x.org>", .standard, "invalid-display-name", nil),
        (", Ann <ann@x.org>", .standard, "invalid-display-name", nil),
        ("Lee, Ann <ann@x.org>", .strict, "invalid-display-name", nil),
        ("Lee, Ann <ann@x.org>", .lenient, nil, "Lee, Ann"),
    ])
    func aCommaBetweenWordsOfAName(_ text: String, _ policy: ValidationPolicy, _ error: String?, _ name: String?) {
        var recognizer = Recognizer(policy: policy)
        let bytes = Array(text.utf8)
        let r = recognizer.recognize(bytes)
        #expect(r.error?.code == error, "\(text)")
        #expect(r.warnings.contains(.unquotedComma) == (error == nil), "\(text)")
        if let name {
            var out: [UInt8] = []
            bytes.withUnsafeBufferPointer { _ = recognizer.appendDisplayName(r, $0, into: &out) }
            #expect(String(decoding: out, as: UTF8.self) == name)
        }
    }

    /// The policy rule is saved and restored with the others.
    @Test func theCommaRuleRoundTrips() throws {
        #expect(ValidationPolicy.standard.allowsUnquotedCommaInName)
        #expect(!ValidationPolicy.strict.allowsUnquotedCommaInName)
        #expect(ValidationPolicy.lenient.allowsUnquotedCommaInName)
        var custom = ValidationPolicy.standard
        custom.allowsUnquotedCommaInName = false
        let data = try JSONEncoder().encode(custom)
        #expect(try JSONDecoder().decode(ValidationPolicy.self, from: data) == custom)
    }
}
