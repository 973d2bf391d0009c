extension ValidationPolicy {
    /// Widely used mail domains: the big providers, their country variants,
    /// and the national and regional providers seen in real address lists.
    /// `likely-typo` compares a domain with these; a domain that is one of
    /// them is never a typo. A host replaces the list with the domains its
    /// users write to.
    public static let defaultCommonDomains: [String] = [
        // Google, Microsoft, Apple, Yahoo, AOL, Proton and other global ones.
        "gmail.com", "googlemail.com",
        "outlook.com", "hotmail.com", "live.com", "msn.com", "windowslive.com", "passport.com",
        "outlook.fr", "outlook.de", "outlook.es", "outlook.it", "outlook.jp", "outlook.com.br",
        "hotmail.co.uk", "hotmail.fr", "hotmail.de", "hotmail.es", "hotmail.it", "hotmail.nl", "hotmail.be",
        "hotmail.ca", "hotmail.com.br", "hotmail.com.ar", "hotmail.com.mx", "hotmail.co.jp", "hotmail.se",
        "hotmail.no", "hotmail.dk", "hotmail.fi", "hotmail.ch", "hotmail.gr", "hotmail.com.au",
        "live.co.uk", "live.fr", "live.de", "live.nl", "live.it", "live.ca", "live.com.au", "live.be", "live.se",
        "icloud.com", "me.com", "mac.com",
        "yahoo.com", "ymail.com", "rocketmail.com", "yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.es", "yahoo.it",
        "yahoo.ca", "yahoo.co.jp", "yahoo.co.in", "yahoo.com.au", "yahoo.com.br", "yahoo.com.ar", "yahoo.com.mx",
        "yahoo.com.sg", "yahoo.com.tw", "yahoo.com.hk", "yahoo.co.id", "yahoo.gr", "yahoo.se", "yahoo.no",
        "yahoo.dk", "yahoo.ie", "yahoo.in", "yahoo.com.ph", "yahoo.com.vn", "yahoo.co.nz", "yahoo.co.kr",
        "aol.com", "aim.com", "aol.co.uk", "aol.fr", "aol.de",
        "protonmail.com", "protonmail.ch", "proton.me", "pm.me",
        "mail.com", "email.com", "usa.com", "post.com", "consultant.com", "engineer.com", "techie.com",
        "zoho.com", "zohomail.com", "zohomail.eu", "fastmail.com", "fastmail.fm", "fastmail.net", "fastmail.org",
        "messagingengine.com", "hey.com", "tutanota.com", "tutanota.de", "tuta.io", "tutamail.com",
        "mailbox.org", "posteo.de", "posteo.net", "runbox.com", "disroot.org", "riseup.net", "gmx.com", "gmx.us",
        "inbox.com", "lavabit.com", "hushmail.com", "mailfence.com", "50mail.com", "yopmail.com",
        // Europe.
        "gmx.de", "gmx.net", "gmx.at", "gmx.ch", "gmx.fr", "gmx.co.uk", "web.de", "t-online.de", "freenet.de",
        "arcor.de", "online.de", "1und1.de", "kabelmail.de", "vodafone.de",
        "orange.fr", "wanadoo.fr", "free.fr", "sfr.fr", "laposte.net", "neuf.fr", "club-internet.fr", "bbox.fr",
        "libero.it", "virgilio.it", "tiscali.it", "alice.it", "tin.it", "fastwebnet.it", "email.it", "inwind.it",
        "telefonica.net", "terra.es", "ya.com", "movistar.es",
        "btinternet.com", "virginmedia.com", "sky.com", "talktalk.net", "ntlworld.com", "blueyonder.co.uk",
        "tiscali.co.uk", "o2.co.uk", "bt.com",
        "planet.nl", "ziggo.nl", "kpnmail.nl", "home.nl", "xs4all.nl", "telenet.be", "skynet.be", "proximus.be",
        "bluewin.ch", "hispeed.ch", "sunrise.ch", "a1.net", "aon.at", "chello.at",
        "seznam.cz", "centrum.cz", "email.cz", "wp.pl", "o2.pl", "onet.pl", "interia.pl", "op.pl", "gazeta.pl",
        "telia.com", "spray.se", "bredband.net", "online.no", "telenet.no", "eunet.fi", "welho.com", "kolumbus.fi",
        "sapo.pt", "netcabo.pt", "clix.pt", "otenet.gr", "freemail.hu", "citromail.hu", "abv.bg", "mail.bg",
        // Russia and its neighbours.
        "mail.ru", "inbox.ru", "list.ru", "bk.ru", "yandex.ru", "yandex.com", "ya.ru", "yandex.ua", "rambler.ru",
        "ukr.net", "i.ua", "meta.ua", "tut.by",
        // Asia and Oceania.
        "qq.com", "foxmail.com", "163.com", "126.com", "yeah.net", "sina.com", "sina.cn", "sohu.com",
        "aliyun.com", "139.com", "189.cn", "21cn.com", "tom.com",
        "naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com",
        "docomo.ne.jp", "ezweb.ne.jp", "softbank.ne.jp", "nifty.com", "biglobe.ne.jp", "ocn.ne.jp",
        "rediffmail.com", "sify.com", "vsnl.net",
        "bigpond.com", "bigpond.net.au", "optusnet.com.au", "iinet.net.au", "tpg.com.au", "xtra.co.nz",
        // The Americas.
        "comcast.net", "verizon.net", "att.net", "sbcglobal.net", "bellsouth.net", "cox.net", "charter.net",
        "earthlink.net", "optonline.net", "frontier.com", "windstream.net", "juno.com", "netzero.net",
        "centurylink.net", "roadrunner.com", "twc.com", "mindspring.com", "q.com",
        "shaw.ca", "rogers.com", "sympatico.ca", "videotron.ca", "telus.net", "bell.net",
        "uol.com.br", "bol.com.br", "terra.com.br", "ig.com.br", "globo.com", "prodigy.net.mx",
    ]

    /// Providers that run the same service under many country domains
    /// (`yahoo.es`, `hotmail.it`): a domain whose provider part is one of
    /// these is never a typo, whatever its country code.
    public static let countryVariantProviders: Set<String> = [
        "yahoo", "hotmail", "outlook", "live", "msn", "aol", "gmx", "yandex", "orange", "tiscali", "telenet",
        "rediffmail", "bigpond", "sapo", "terra",
    ]
}
