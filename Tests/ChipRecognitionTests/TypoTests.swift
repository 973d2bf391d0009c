import Testing
import ChipSyntax
@testable import ChipRecognition
import ChipTestSupport

/// `likely-typo`: real mistypes are caught, real domains are left alone.
@Suite("Likely typos")
struct TypoTests {
    /// Mistypes of the big providers' domains, as people make them: a
    /// letter dropped, doubled, swapped or hit next to it, a wrong TLD.
    static let typos: [(String, String)] = [
        ("gmial.com", "gmail.com"), ("gmal.com", "gmail.com"), ("gmaill.com", "gmail.com"), ("gamil.com", "gmail.com"),
        ("gnail.com", "gmail.com"), ("gmail.con", "gmail.com"), ("gmail.cm", "gmail.com"), ("gmai.com", "gmail.com"),
        ("gmsil.com", "gmail.com"), ("gmail.comm", "gmail.com"), ("gmail.co", "gmail.com"), ("gmali.com", "gmail.com"),
        ("googlemial.com", "googlemail.com"),
        ("hotmial.com", "hotmail.com"), ("hotmal.com", "hotmail.com"), ("hotnail.com", "hotmail.com"),
        ("hotmai.com", "hotmail.com"), ("hotmail.con", "hotmail.com"), ("hotmaill.com", "hotmail.com"),
        ("hotamil.com", "hotmail.com"),
        ("yaho.com", "yahoo.com"), ("yahooo.com", "yahoo.com"), ("yahho.com", "yahoo.com"), ("yhoo.com", "yahoo.com"),
        ("yahoo.cm", "yahoo.com"), ("yahoo.comm", "yahoo.com"),
        ("outlok.com", "outlook.com"), ("outllok.com", "outlook.com"), ("outloo.com", "outlook.com"),
        ("outlook.con", "outlook.com"), ("otulook.com", "outlook.com"),
        ("iclod.com", "icloud.com"), ("icluod.com", "icloud.com"), ("icloud.con", "icloud.com"), ("iclud.com", "icloud.com"),
        ("protonmial.com", "protonmail.com"), ("protonmal.com", "protonmail.com"), ("protnmail.com", "protonmail.com"),
        ("comcat.net", "comcast.net"), ("comcast.ne", "comcast.net"), ("verizn.net", "verizon.net"),
        ("sbcgloabl.net", "sbcglobal.net"), ("bellsouht.net", "bellsouth.net"), ("earthlnk.net", "earthlink.net"),
        ("mail.ry", "mail.ru"), ("yandex.ry", "yandex.ru"), ("fastmial.com", "fastmail.com"),
        ("btinternt.com", "btinternet.com"), ("libreo.it", "libero.it"), ("orange.fe", "orange.fr"),
        ("aol.con", "aol.com"), ("live.con", "live.com"), ("me.con", "me.com"),
    ]

    /// Real domains that earlier versions flagged: never a typo.
    static let realDomains = [
        "yahoo.es", "yahoo.it", "yahoo.no", "hotmail.it", "hotmail.se", "outlook.dk", "live.at", "fastmail.fm",
        "foxmail.com", "email.com", "50mail.com", "arm.com", "pobox.com", "mailoo.org", "teclib.com", "pop.com.br",
        "debian.org", "kernel.org", "gnome.org", "ubuntu.com", "redhat.com", "suse.de", "gmx.at", "web.de",
    ]

    func typo(_ domain: String) -> String? {
        let chip = AddressList.parse("user@\(domain)")[0]
        return chip.warnings.contains(.likelyTypo) ? chip.suggestedDomain : nil
    }

    @Test func mostRealTyposAreCaughtWithTheRightSuggestion() {
        var caught = 0
        for (mistyped, meant) in Self.typos {
            let got = typo(mistyped)
            if got == meant { caught += 1 }
            #expect(got == nil || got == meant, "\(mistyped): suggested \(got!), meant \(meant)")
        }
        let rate = Double(caught) / Double(Self.typos.count)
        print("likely-typo: \(caught) of \(Self.typos.count) typos caught (\(Int(rate * 100)) %)")
        #expect(rate >= 0.9, "only \(caught) of \(Self.typos.count) typos caught")
    }

    @Test(arguments: realDomains)
    func aRealDomainIsNeverATypo(_ domain: String) {
        #expect(typo(domain) == nil, "\(domain) flagged as \(typo(domain) ?? "")")
    }

    @Test func everyCommonDomainIsItselfNoTypo() {
        for d in ValidationPolicy.defaultCommonDomains { #expect(typo(d) == nil, "\(d)") }
    }

    /// On 14,188 real addresses of Debian maintainers, well under one chip
    /// in a thousand is flagged.
    @Test func theFlagRateOnRealListsIsWellUnderOneInAThousand() throws {
        let text = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        var chips = 0, flagged = 0
        for line in text.split(separator: 0x0A) {
            for chip in AddressList.parse(Array(line)) {
                chips += 1
                if chip.warnings.contains(.likelyTypo) { flagged += 1 }
            }
        }
        print("likely-typo on Corpus/real: \(flagged) of \(chips) chips")
        #expect(chips > 14_000)
        #expect(flagged * 1_000 < chips / 2, "\(flagged) of \(chips) flagged")
    }

    @Test func providerLabels() {
        let cases = [("gmail.com", "gmail"), ("yahoo.co.uk", "yahoo"), ("docomo.ne.jp", "docomo"), ("x.org", "x"),
                     ("a.b.example.com", "example"), ("uol.com.br", "uol")]
        for (domain, label) in cases { #expect(Lookalikes.providerLabel(Array(domain.utf8)) == label, "\(domain)") }
    }
}
