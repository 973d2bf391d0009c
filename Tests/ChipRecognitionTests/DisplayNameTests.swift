import Testing
import ChipKit
@testable import ChipRecognition
import ChipTestSupport

@Suite("Display names")
struct DisplayNameTests {
    @Test(arguments: [
        ("Ann Lee <a@x.org>", "Ann Lee"),
        ("  Ann   Lee  <a@x.org>", "Ann Lee"),
        ("\"Lee,  Ann\" <a@x.org>", "Lee, Ann"),                    // white space folded inside quotes too
        ("\"A \\\"B\\\" C\" <a@x.org>", "A \"B\" C"),               // escapes resolved
        ("Ann (work) Lee <a@x.org>", "Ann Lee"),                    // comments in a phrase are dropped
        ("Ann\r\n Lee <a@x.org>", "Ann Lee"),                       // unfolded
        ("=?UTF-8?Q?Andr=C3=A9?= =?UTF-8?Q?_Pirard?= <a@x.org>", "André Pirard"),  // adjacent words joined
        ("=?UTF-8?B?w6k=?= x <a@x.org>", "é x"),
        ("\"=?UTF-8?Q?x?=\" <a@x.org>", "=?UTF-8?Q?x?="),           // not decoded inside quotes
        ("Dr. Ann <a@x.org>", "Dr. Ann"),
        ("ann@x.org (Ann Lee)", "Ann Lee"),                         // a trailing comment names a bare address
        ("ann@x.org (=?UTF-8?Q?Jos=C3=A9?=)", "José"),              // and may hold encoded words
        ("test.(comment)test@iana.org", nil),                       // a comment inside the address does not
        ("(comment)test@iana.org", nil),
        ("test@(comment)iana.org", nil),
        ("\"\" <a@x.org>", nil),
        ("<a@x.org>", nil),
    ] as [(String, String?)])
    func decodedNames(_ text: String, _ name: String?) {
        let chip = AddressList.parse(text).first
        #expect(chip?.displayName == name, "\(text)")
        #expect(chip?.isValid == true, "\(text): \(chip?.error?.code ?? "")")
    }
}
