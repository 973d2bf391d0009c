import Testing
import ChipKit
import ChipKitTestSupport
import ChipRecognitionTestSupport

/// Every input of the recognition tables (RFC 5322, 5321, 6531, 2047, the
/// pasted lists and the fixes), checked for every invariant of the engine:
/// scanning whole and in chunks, typing key by key, pasting and typing in
/// pieces into a composer give the chips parsing gives, headers stay safe.
/// The tables' own expectations are checked in ChipRecognitionTests.
@Suite("The engine's invariants on the recognition tables")
struct RecognitionTableInvariantTests {
    @Test(arguments: RecognitionTables.allRows)
    func invariantsHold(_ row: RFCRow) {
        #expect(InvariantVerifier(policy: row.policy).violations(of: row.bytes) == [])
    }

}
