import Testing
import ChipKit

/// The README's library example, as written there, with what its
/// comments say checked: a reader who copies it gets what it promises.
@Suite("README's library example")
struct ReadmeExampleTests {
    @Test func theExampleDoesWhatItsCommentsSay() throws {
        let vcardBytes = Array("""
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:John Smith\r
            EMAIL:john@x.org\r
            END:VCARD\r

            """.utf8)

        let chips = AddressList.parse("\"Lee, Ann\" <ann@x.org>, bob@")
        #expect(chips[0].displayName == "Lee, Ann")                       // "Lee, Ann"
        #expect(chips[1].error?.code == "missing-domain")                 // "missing-domain"

        var c = Composer()                         // fields .to, .cc, .bcc
        c.directory = ContactDirectory(ContactImporter.import(vcardBytes).contacts)
        c.type("ann@x.org, jo")                    // one chip, "jo" pending
        #expect(c.focusedField.count == 1 && c.focusedField.pendingText == "jo")
        #expect(c.suggestions().first?.name == "John Smith")  // the best contact for "jo"
        c.commit()                                 // "jo" becomes a contact's chip, or `ambiguous`
        #expect(c.focusedField.chips.map(\.content.address) == ["ann@x.org", "john@x.org"])
        c.move(c.focusedField.chipIDs[0], to: .cc, at: 0)   // by identity, in any field
        #expect(c.field(.cc)?.count == 1)
        c.undo()
        #expect(c.field(.cc)?.count == 0 && c.focusedField.count == 2)
        #expect(c.readiness().canSend)             // the Send button, O(fields)
        let report = c.send()                      // headers, or why not
        #expect(report.headers.map(\.line) == ["To: ann@x.org, John Smith <john@x.org>"])
    }
}
