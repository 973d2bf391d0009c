import Testing
import ChipTestSupport
import ChipDirectoryTestSupport
@testable import chipify_bench

@Suite("chipify-bench contacts")
struct ContactsCommandTests {
    @Test(arguments: [
        (["--count", "50", "--format", "vcard21"], ContactsCommand.run(ContactsArguments(count: 50, format: .vcard21))),
        (["--count=7", "--format=google", "--seed=9"], .run(ContactsArguments(count: 7, format: .google, seed: 9))),
        (["--format", "outlook", "--seed", "3", "--count", "0"], .run(ContactsArguments(count: 0, format: .outlook, seed: 3))),
        (["--help"], .help),
        (["--format", "vcard40"], .invalid("missing required option '--count'")),
        (["--count", "5"], .invalid("missing required option '--format'")),
        (["--count", "-1", "--format", "vcard40"], .invalid("bad count '-1' (expected 0 to 100000000)")),
        (["--count", "5", "--format", "ldif"],
         .invalid("unknown format 'ldif' (expected vcard40, vcard30, vcard21, google, outlook or thunderbird)")),
        (["--count", "5", "--format", "vcard40", "--seed", "x"], .invalid("bad seed 'x' (expected an unsigned 64-bit integer)")),
        (["--count"], .invalid("option '--count' needs a value")),
        (["--size", "5"], .invalid("unknown argument '--size'")),
    ] as [([String], ContactsCommand)])
    func argumentsParse(_ arguments: [String], _ expected: ContactsCommand) {
        #expect(parseContactsArguments(arguments[...]) == expected)
    }

    /// The import scenario's checksum sees every contact and address.
    @Test func theImportChecksumCountsContactsAndAddresses() {
        let generated = ContactCorpus.contacts(count: 40, seed: 2)
        let bytes = ContactCorpus.write(generated, as: .vcard40, seed: 2).bytes
        #expect(importContacts(bytes) == importContacts(bytes))
        #expect(importContacts(bytes) != importContacts(Array(bytes.dropLast(400))))
    }
}
