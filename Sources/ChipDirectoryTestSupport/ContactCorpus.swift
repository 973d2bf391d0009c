import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipTestSupport

/// A seeded generator of realistic address books, and writers of the
/// formats `ContactImporter` reads: vCard 4.0, 3.0 and 2.1 (quoted-printable
/// UTF-8 for what is not ASCII), and the CSV of Google Contacts, Outlook and
/// Thunderbird, quoted as those exporters quote.
///
/// People have names in 18 scripts and languages with their real letters
/// (ß, ł, ø, å, ı, İ, Vietnamese tones, Greek, Cyrillic, Armenian, Arabic,
/// Hebrew, Chinese, Japanese, Korean), up to three addresses with types
/// and preferences, nicknames, organizations and categories; some entries
/// are organizations, and about 2 % are lists whose members are earlier
/// contacts. Values hold what writers must escape or quote: commas,
/// semicolons, quotes and backslashes.
///
/// The same seed gives the same contacts and bytes on every machine
/// (``SplitMix64`` only). A contact without `UID` has an empty
/// ``Contact/id``; the importer derives one.
public enum ContactCorpus {
    /// The formats the writers write.
    public enum Format: String, CaseIterable, Sendable {
        case vcard40, vcard30, vcard21, google, outlook, thunderbird

        /// The name of the committed sample under `Corpus/contacts/`.
        public var sampleName: String {
            switch self {
            case .vcard40: "sample.vcf"
            case .vcard30: "sample-3.0.vcf"
            case .vcard21: "sample-2.1.vcf"
            case .google: "google.csv"
            case .outlook: "outlook.csv"
            case .thunderbird: "thunderbird.csv"
            }
        }

        public var isVCard: Bool { self == .vcard40 || self == .vcard30 || self == .vcard21 }
    }

    /// A written file.
    public struct File: Sendable {
        public var bytes: [UInt8]
        /// The indexes (in the generated contacts) of the contacts written,
        /// in order: CSV has no place for lists, which are left out.
        public var written: [Int]
        /// The 1-based line each written record starts on.
        public var lines: [Int]
    }

    // MARK: - Generating

    /// `count` contacts from `seed`.
    ///
    /// - Complexity: O(`count`).
    public static func contacts(count: Int, seed: UInt64) -> [Contact] {
        var rng = SplitMix64(seed: seed)
        var out: [Contact] = []
        out.reserveCapacity(count)
        for index in 0..<count {
            let roll = rng.below(1000)
            if roll < 20 && index >= 8 {
                out.append(list(&rng, index: index, earlier: out))
            } else if roll < 32 {
                out.append(organization(&rng, index: index))
            } else {
                out.append(person(&rng, index: index))
            }
        }
        return out
    }

    static func person(_ rng: inout SplitMix64, index: Int) -> Contact {
        let locale = NameData.locales[rng.below(NameData.locales.count)]
        let given = locale.given[rng.below(locale.given.count)]
        var family = [locale.family[rng.below(locale.family.count)]]
        if locale.twoFamilyNames && rng.chance(perMille: 300) {
            family.append(locale.family[rng.below(locale.family.count)])
        }
        var additional: [NameData.Name] = []
        if rng.chance(perMille: locale.additionalPerMille) {
            let pool = locale.additional.isEmpty ? locale.given : locale.additional
            additional.append(pool[rng.below(pool.count)])
        }
        var name = StructuredName(family: family.map(\.native), given: [given.native], additional: additional.map(\.native))
        if locale.order == .western {
            if rng.chance(perMille: 80) { name.prefixes = [NameData.prefixes[rng.below(NameData.prefixes.count)]] }
            if rng.chance(perMille: 40) { name.suffixes = [NameData.suffixes[rng.below(NameData.suffixes.count)]] }
            if rng.chance(perMille: 30) { name.additional.append(NameData.locales[0].given[rng.below(8)].native) }
        }
        var nicknames: [String] = []
        let nicknameRoll = rng.below(1000)
        if nicknameRoll < 300 { nicknames.append(NameData.nicknames[rng.below(NameData.nicknames.count)]) }
        if nicknameRoll < 60 {
            let second = NameData.nicknames[rng.below(NameData.nicknames.count)]
            if !nicknames.contains(second) { nicknames.append(second) }
        }
        var displayName: String
        switch locale.order {
        case .western: displayName = name.formatted
        case .eastern: displayName = name.family.joined() + name.given.joined()
        case .familyFirst: displayName = (name.family + name.additional + name.given).joined(separator: " ")
        }
        let variant = rng.below(1000)
        if variant < 40, let nickname = nicknames.first, !nickname.contains("\"") {
            displayName = "\(given.native) \"\(nickname)\" \(family[0].native)"
        } else if variant < 80 {
            displayName = "\(family.map(\.native).joined(separator: " ")), \(given.native)"
        }
        let organization = rng.chance(perMille: 350) ? NameData.organizations[rng.below(NameData.organizations.count)] : nil
        var categories: [String] = []
        if rng.chance(perMille: 350) {
            for _ in 0..<(1 + rng.below(3)) {
                let category = NameData.categories[rng.below(NameData.categories.count)]
                if !categories.contains(category) { categories.append(category) }
            }
        }
        let emailRoll = rng.below(100)
        let emailCount = emailRoll < 4 ? 0 : emailRoll < 64 ? 1 : emailRoll < 89 ? 2 : 3
        var emails: [ContactEmail] = []
        for k in 0..<emailCount {
            var address = localPart(&rng, given: given.ascii, family: family[0].ascii, k: k) + "@"
                + (rng.chance(perMille: 600) ? locale.domains[rng.below(locale.domains.count)]
                    : NameData.domains[rng.below(NameData.domains.count)])
            if rng.chance(perMille: 15) { address = given.native.lowercased() + "@" + NameData.internationalDomains[rng.below(NameData.internationalDomains.count)] }
            if emails.contains(where: { $0.address == address }) { continue }
            emails.append(ContactEmail(address: address, types: NameData.typeSets[rng.below(NameData.typeSets.count)]))
        }
        assignPreferences(&rng, &emails)
        return Contact(
            id: uid(&rng), displayName: displayName, name: name, nicknames: nicknames, organization: organization,
            categories: categories, emails: emails)
    }

    static func organization(_ rng: inout SplitMix64, index: Int) -> Contact {
        let name = NameData.organizations[rng.below(NameData.organizations.count)]
        let domain = NameData.domains[rng.below(NameData.domains.count)]
        return Contact(
            id: uid(&rng), kind: .org, displayName: name, organization: name,
            emails: [ContactEmail(address: "info\(index)@\(domain)", types: ["work"])])
    }

    static func list(_ rng: inout SplitMix64, index: Int, earlier: [Contact]) -> Contact {
        let name = NameData.listNames[rng.below(NameData.listNames.count)] + " \(index)"
        var members: [String] = []
        for _ in 0..<(2 + rng.below(5)) {
            let member = earlier[rng.below(earlier.count)]
            guard member.kind != .group else { continue }
            let reference: String
            if !member.id.rawValue.isEmpty && rng.chance(perMille: 700) {
                reference = member.id.rawValue
            } else if let address = member.preferredEmail?.address {
                reference = "mailto:" + address
            } else {
                continue
            }
            if !members.contains(reference) { members.append(reference) }
        }
        let emails = rng.chance(perMille: 300) ? [ContactEmail(address: "list-\(index)@lists.example.org")] : []
        return Contact(id: uid(&rng), kind: .group, displayName: name, emails: emails, members: members)
    }

    static func localPart(_ rng: inout SplitMix64, given: String, family: String, k: Int) -> String {
        switch rng.below(6) {
        case 0: "\(given).\(family)"
        case 1: "\(given.prefix(1))\(family)"
        case 2: "\(family)\(rng.below(100))"
        case 3: "\(given)_\(family)"
        case 4: "\(given)+\(["news", "shop", "work", "lists"][rng.below(4)])"
        default: k == 0 ? given : "\(given).\(family)\(k)"
        }
    }

    /// About half of the contacts with several addresses rank them (4.0's
    /// PREF 1–100); a few with one address mark it preferred.
    static func assignPreferences(_ rng: inout SplitMix64, _ emails: inout [ContactEmail]) {
        if emails.count >= 2 && rng.chance(perMille: 500) {
            let values = [1, 1, 2, 3, 5, 10, 20, 50, 100]
            for k in emails.indices where rng.chance(perMille: 700) { emails[k].pref = values[rng.below(values.count)] }
        } else if emails.count == 1 && rng.chance(perMille: 100) {
            emails[0].pref = 1
        }
    }

    /// `urn:uuid:` and a random version-4 UUID for 85 % of the contacts,
    /// none for the rest.
    static func uid(_ rng: inout SplitMix64) -> ContactID {
        let a = rng.next(), b = rng.next()
        guard rng.chance(perMille: 850) else { return ContactID("") }
        let digits: StaticString = "0123456789abcdef"
        var bytes: [UInt8] = Array("urn:uuid:".utf8)
        bytes.reserveCapacity(45)
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { bytes.append(ASCII.hyphen) }
            let word = i < 16 ? a : b
            let nibble = Int((word >> UInt64(60 - 4 * (i % 16))) & 0xF)
            // The version (4) and variant (a) digits of a random UUID (RFC 9562 §5.4).
            bytes.append(i == 12 ? UInt8(ascii: "4") : i == 16 ? UInt8(ascii: "a") : digits.utf8Start[nibble])
        }
        return ContactID(String(decoding: bytes, as: UTF8.self))
    }

    // MARK: - What a format carries

    /// What importing `format` must give for each written contact (in the
    /// order of ``File/written``), identity and line aside: the fields the
    /// format has a place for, as the importer reads them.
    public static func carried(_ contact: Contact, by format: Format, googleLegacy: Bool = true) -> Contact {
        var c = Contact(
            id: ContactID(""), kind: contact.kind, displayName: contact.displayName, name: contact.name,
            nicknames: contact.nicknames, organization: contact.organization, categories: contact.categories,
            emails: contact.emails, members: contact.members)
        let preferred = contact.emails.contains { $0.pref != nil } ? contact.preferredEmailIndex : nil
        func onlyPreferred() {
            for k in c.emails.indices { c.emails[k].pref = k == preferred ? 1 : nil }
        }
        func joinedParts() -> StructuredName {
            func one(_ parts: [String]) -> [String] { parts.isEmpty ? [] : [parts.joined(separator: " ")] }
            return StructuredName(family: one(contact.name.family), given: one(contact.name.given),
                                  additional: one(contact.name.additional), prefixes: one(contact.name.prefixes),
                                  suffixes: one(contact.name.suffixes))
        }
        switch format {
        case .vcard40:
            c.source = .vCard40
            c.declaredVersion = "4.0"
        case .vcard30:
            c.source = .vCard30
            c.declaredVersion = "3.0"
            onlyPreferred()
            if c.kind == .org { c.kind = .individual }
        case .vcard21:
            c.source = .vCard21
            c.declaredVersion = "2.1"
            c.name = joinedParts()
            onlyPreferred()
            if c.kind == .org { c.kind = .individual }
        case .google, .outlook, .thunderbird:
            c.source = .csv
            c.kind = .individual
            c.members = []
            c.name = joinedParts()
            c.nicknames = Array(contact.nicknames.prefix(1))
            switch format {
            case .google:
                onlyPreferred()
                for k in c.emails.indices { c.emails[k].types = googleLabel(c.emails[k].types).map { [$0.lowercased()] } ?? [] }
                if !googleLegacy { c.displayName = c.name.isEmpty ? nil : c.name.formatted }
            case .outlook:
                c.emails = c.emails.prefix(3).map { ContactEmail(address: $0.address) }
                c.displayName = !c.name.isEmpty ? c.name.formatted : c.emails.isEmpty ? nil : contact.displayName
            default:
                c.emails = c.emails.prefix(2).map { ContactEmail(address: $0.address) }
                c.name = StructuredName(family: c.name.family, given: c.name.given)
                c.categories = []
            }
        }
        return c
    }

    /// Google's label of an address: its first type other than `internet`.
    static func googleLabel(_ types: [String]) -> String? {
        guard let type = types.first(where: { $0 != "internet" }) else { return nil }
        return type.prefix(1).uppercased() + type.dropFirst()
    }

    // MARK: - Writing

    /// Writes `contacts` in `format`; `seed` varies what writers of the
    /// format vary (parameter styles, delimiters, encodings, layouts).
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public static func write(_ contacts: [Contact], as format: Format, seed: UInt64) -> File {
        var writer = Writer(seed: seed, count: contacts.count)
        switch format {
        case .vcard40, .vcard30, .vcard21:
            for k in contacts.indices {
                writer.written.append(k)
                writer.lines.append(writer.line)
                writer.vCard(contacts[k], format)
            }
        case .google: writer.google(contacts, legacy: isGoogleLegacy(seed: seed))
        case .outlook: writer.outlook(contacts)
        case .thunderbird: writer.thunderbird(contacts)
        }
        return File(bytes: writer.finished(format), written: writer.written, lines: writer.lines)
    }

    /// Whether `write(_:as:seed:)` writes Google's older layout (`Name`,
    /// `Given Name`, `Group Membership`) for this seed; even seeds write
    /// the newer one (`First Name`, `Labels`), which has no display name.
    public static func isGoogleLegacy(seed: UInt64) -> Bool { seed % 2 == 1 }

    /// Which encoding and delimiter Outlook's writer uses for a seed.
    public static func outlookStyle(seed: UInt64) -> (utf16: Bool, delimiter: UInt8) {
        (seed % 3 == 1, seed % 4 == 2 ? ASCII.semicolon : ASCII.comma)
    }

    struct Writer {
        var rng: SplitMix64
        let seed: UInt64
        var out: [UInt8] = []
        var line = 1
        var written: [Int] = []
        var lines: [Int] = []
        var property: [UInt8] = []

        init(seed: UInt64, count: Int) {
            self.seed = seed
            rng = SplitMix64(seed: seed ^ 0x5DEE_CE66_D1CE_5EED)
            // Generous: a 2.1 card is about 410 bytes, and growing the buffer
            // of a million cards copied it and faulted in its pages again.
            out.reserveCapacity(count * 450)
            written.reserveCapacity(count)
            lines.reserveCapacity(count)
        }

        mutating func finished(_ format: Format) -> [UInt8] {
            guard format == .outlook && ContactCorpus.outlookStyle(seed: seed).utf16 else { return out }
            // UTF-8 (well formed: this writer wrote it) to UTF-16LE after a
            // byte order mark; each UTF-8 byte gives at most two bytes.
            return [UInt8](unsafeUninitializedCapacity: 2 + out.count * 2) { d, count in
                d[0] = 0xFF
                d[1] = 0xFE
                var k = 2
                func unit(_ u: UInt32) {
                    d[k] = UInt8(truncatingIfNeeded: u)
                    d[k + 1] = UInt8(truncatingIfNeeded: u >> 8)
                    k += 2
                }
                var i = 0
                let n = out.count
                while i < n {
                    let b0 = UInt32(out[i])
                    if b0 < 0x80 {
                        unit(b0)
                        i += 1
                    } else if b0 < 0xE0 {
                        unit((b0 & 0x1F) << 6 | UInt32(out[i + 1] & 0x3F))
                        i += 2
                    } else if b0 < 0xF0 {
                        unit((b0 & 0x0F) << 12 | UInt32(out[i + 1] & 0x3F) << 6 | UInt32(out[i + 2] & 0x3F))
                        i += 3
                    } else {
                        let v = (b0 & 0x07) << 18 | UInt32(out[i + 1] & 0x3F) << 12 | UInt32(out[i + 2] & 0x3F) << 6
                            | UInt32(out[i + 3] & 0x3F)
                        unit(0xD800 + ((v - 0x10000) >> 10))
                        unit(0xDC00 + ((v - 0x10000) & 0x3FF))
                        i += 4
                    }
                }
                count = k
            }
        }

        mutating func crlf() {
            out.append(ASCII.carriageReturn)
            out.append(ASCII.lineFeed)
            line += 1
        }

        // MARK: vCard

        mutating func vCard(_ c: borrowing Contact, _ format: Format) {
            let v4 = format == .vcard40, v21 = format == .vcard21
            raw("BEGIN:VCARD")
            raw(v4 ? "VERSION:4.0" : v21 ? "VERSION:2.1" : "VERSION:3.0")
            if c.kind == .group { raw(v4 ? "KIND:group" : "X-ADDRESSBOOKSERVER-KIND:group") }
            if c.kind == .org && v4 { raw("KIND:org") }
            // Half write UID first, the others last, as exporters differ.
            let uidFirst = rng.chance(perMille: 500)
            if !c.id.rawValue.isEmpty && uidFirst { raw("UID:" + c.id.rawValue) }
            text("FN", c.displayName ?? "", format)
            if !c.name.isEmpty || !v4 { structuredName(c.name, format) }
            if !c.nicknames.isEmpty { textList("NICKNAME", c.nicknames, format) }
            if let org = c.organization { organization(org, format) }
            if !c.categories.isEmpty { textList("CATEGORIES", c.categories, format) }
            if !c.id.rawValue.isEmpty && c.kind != .group && rng.chance(perMille: 100) {
                raw("TEL;TYPE=cell:+33 6 12 34 56 \(rng.below(90) + 10)")
            }
            let preferred = c.emails.contains { $0.pref != nil } ? c.preferredEmailIndex : nil
            for (k, email) in c.emails.enumerated() {
                self.email(email, isPreferred: k == preferred, item: k + 1, format)
            }
            for member in c.members { raw((v4 ? "MEMBER:" : "X-ADDRESSBOOKSERVER-MEMBER:") + member) }
            noise(format)
            if !c.id.rawValue.isEmpty && !uidFirst { raw("UID:" + c.id.rawValue) }
            raw("END:VCARD")
        }

        /// A property written as given, folded if long.
        mutating func raw(_ s: String) {
            property.removeAll(keepingCapacity: true)
            property.append(contentsOf: s.utf8)
            emitFolded()
        }

        mutating func noise(_ format: Format) {
            let roll = rng.below(100)
            if roll < 15 {
                if format == .vcard21 {
                    raw("NOTE;ENCODING=QUOTED-PRINTABLE:Met at the conference=0D=0Asecond day")
                } else {
                    raw("NOTE:Met at the conference\\, second day\\nBrussels")
                }
            } else if roll < 30 {
                raw("ADR;TYPE=home:;;12 rue de la Paix;Paris;;75002;France and a rather long address line that folds")
            } else if roll < 33 {
                var photo = format == .vcard21 ? "PHOTO;ENCODING=BASE64;TYPE=JPEG:" : "PHOTO;ENCODING=b;TYPE=JPEG:"
                for _ in 0..<4 { photo += "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8U" }
                raw(photo)
                if format == .vcard21 { crlf() }  // 2.1 ends a base64 value with a blank line
            }
        }

        mutating func email(_ e: ContactEmail, isPreferred: Bool, item: Int, _ format: Format) {
            property.removeAll(keepingCapacity: true)
            switch format {
            case .vcard40:
                property.append(contentsOf: "EMAIL".utf8)
                if !e.types.isEmpty {
                    switch rng.below(3) {
                    case 0: property.append(contentsOf: ";TYPE=\(e.types.joined(separator: ","))".utf8)
                    case 1: property.append(contentsOf: ";TYPE=\"\(e.types.joined(separator: ","))\"".utf8)
                    default: for t in e.types { property.append(contentsOf: ";TYPE=\(t)".utf8) }
                    }
                }
                if let pref = e.pref { property.append(contentsOf: ";PREF=\(pref)".utf8) }
                property.append(UInt8(ascii: ":"))
                appendEscaped(e.address, list: false, version21: false)
                emitFolded()
            case .vcard30:
                if e.types == ["other"] {
                    // Apple's way: a grouped address and its label.
                    property.append(contentsOf: "item\(item).EMAIL\(isPreferred ? ";type=pref" : ""):".utf8)
                    appendEscaped(e.address, list: false, version21: false)
                    emitFolded()
                    raw("item\(item).X-ABLabel:_$!<Other>!$_")
                    return
                }
                var types = e.types.map { rng.chance(perMille: 500) ? $0.uppercased() : $0 }
                if isPreferred { types.append("pref") }
                property.append(contentsOf: (rng.chance(perMille: 200) ? "email" : "EMAIL").utf8)
                if !types.isEmpty {
                    if rng.chance(perMille: 500) {
                        property.append(contentsOf: ";TYPE=\(types.joined(separator: ","))".utf8)
                    } else {
                        for t in types { property.append(contentsOf: ";type=\(t)".utf8) }
                    }
                }
                property.append(UInt8(ascii: ":"))
                appendEscaped(e.address, list: false, version21: false)
                emitFolded()
            default:
                var head = "EMAIL"
                for t in e.types { head += ";" + t.uppercased() }
                if isPreferred { head += ";PREF" }
                text21(head, e.address)
            }
        }

        /// A text property (FN): escaped; in 2.1, quoted-printable when not ASCII.
        mutating func text(_ name: String, _ value: String, _ format: Format) {
            if format == .vcard21 {
                text21(name, value)
                return
            }
            property.removeAll(keepingCapacity: true)
            property.append(contentsOf: name.utf8)
            property.append(UInt8(ascii: ":"))
            appendEscaped(value, list: false, version21: false)
            emitFolded()
        }

        /// A comma list (NICKNAME, CATEGORIES).
        mutating func textList(_ name: String, _ items: [String], _ format: Format) {
            if format == .vcard21 {
                var value: [UInt8] = []
                for (k, item) in items.enumerated() {
                    if k > 0 { value.append(ASCII.comma) }
                    value += escaped21(item, list: true)
                }
                text21(name, escapedValue: value)
                return
            }
            property.removeAll(keepingCapacity: true)
            property.append(contentsOf: name.utf8)
            property.append(UInt8(ascii: ":"))
            for (k, item) in items.enumerated() {
                if k > 0 { property.append(ASCII.comma) }
                appendEscaped(item, list: true, version21: false)
            }
            emitFolded()
        }

        /// `N`: five parts separated by `;`, each a comma list in 3.0 and 4.0
        /// and one text (its items joined by spaces) in 2.1.
        mutating func structuredName(_ n: StructuredName, _ format: Format) {
            if format == .vcard21 {
                var value: [UInt8] = []
                value.reserveCapacity(96)
                for (k, part) in [n.family, n.given, n.additional, n.prefixes, n.suffixes].enumerated() {
                    if k > 0 { value.append(ASCII.semicolon) }
                    value += escaped21(part.joined(separator: " "), list: false)
                }
                text21("N", escapedValue: value)
                return
            }
            property.removeAll(keepingCapacity: true)
            property.append(contentsOf: "N:".utf8)
            namePart(n.family)
            property.append(ASCII.semicolon)
            namePart(n.given)
            property.append(ASCII.semicolon)
            namePart(n.additional)
            property.append(ASCII.semicolon)
            namePart(n.prefixes)
            property.append(ASCII.semicolon)
            namePart(n.suffixes)
            emitFolded()
        }

        mutating func namePart(_ items: [String]) {
            for k in items.indices {
                if k > 0 { property.append(ASCII.comma) }
                appendEscaped(items[k], list: true, version21: false)
            }
        }

        /// `ORG` with one part, the organization's name.
        mutating func organization(_ name: String, _ format: Format) {
            if format == .vcard21 {
                text21("ORG", escapedValue: escaped21(name, list: false))
                return
            }
            property.removeAll(keepingCapacity: true)
            property.append(contentsOf: "ORG:".utf8)
            appendEscaped(name, list: false, version21: false)
            emitFolded()
        }

        mutating func appendEscaped(_ s: String, list: Bool, version21: Bool) {
            var s = s
            s.withUTF8 { p in
                // Most values need no escape: one copy.
                guard p.contains(where: { $0 == ASCII.backslash || $0 == ASCII.comma || $0 == ASCII.semicolon || $0 == ASCII.lineFeed }) else {
                    property.append(contentsOf: p)
                    return
                }
                for b in p {
                    switch b {
                    case ASCII.backslash: property.append(contentsOf: [ASCII.backslash, ASCII.backslash])
                    case ASCII.comma: property.append(contentsOf: [ASCII.backslash, ASCII.comma])
                    case ASCII.semicolon: property.append(contentsOf: [ASCII.backslash, ASCII.semicolon])
                    case ASCII.lineFeed: property.append(contentsOf: [ASCII.backslash, UInt8(ascii: "n")])
                    default: property.append(b)
                    }
                }
            }
        }

        /// 2.1 escapes `\` and `;`, and `,` inside list items.
        func escaped21(_ s: String, list: Bool) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(s.utf8.count + 8)
            for b in s.utf8 {
                if b == ASCII.backslash || b == ASCII.semicolon || (list && b == ASCII.comma) { out.append(ASCII.backslash) }
                out.append(b)
            }
            return out
        }

        mutating func text21(_ head: String, _ value: String) {
            text21(head, escapedValue: escaped21(value, list: false))
        }

        /// A 2.1 property: ASCII as it is (folded at spaces, RFC 822 style),
        /// anything else as quoted-printable UTF-8 with soft line breaks.
        mutating func text21(_ head: String, escapedValue value: [UInt8]) {
            property.removeAll(keepingCapacity: true)
            property.append(contentsOf: head.utf8)
            guard value.contains(where: { $0 >= 0x80 }) else {
                property.append(UInt8(ascii: ":"))
                property += value
                emitFolded822()
                return
            }
            property.append(contentsOf: ";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:".utf8)
            out += property
            var column = property.count
            let hex = Array("0123456789ABCDEF".utf8)
            for b in value {
                let literal = b > 0x20 && b < 0x7F && b != UInt8(ascii: "=")
                let width = literal ? 1 : 3
                if column + width > 75 {
                    out.append(UInt8(ascii: "="))
                    crlf()
                    column = 0
                }
                if literal {
                    out.append(b)
                } else {
                    out.append(UInt8(ascii: "="))
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 0xF)])
                }
                column += width
            }
            crlf()
        }

        /// Writes `property` as lines of at most 75 octets, continued after
        /// CRLF and a space (RFC 6350 §3.2), never inside a UTF-8 sequence.
        mutating func emitFolded() {
            var start = 0
            var limit = 75
            let n = property.count
            while n - start > limit {
                var cut = start + limit
                while cut > start + 1 && property[cut] & 0xC0 == 0x80 { cut -= 1 }
                out += property[start..<cut]
                crlf()
                out.append(ASCII.space)
                start = cut
                limit = 74
            }
            out += property[start..<n]
            crlf()
        }

        /// RFC 822 folding for 2.1: a line break goes before a space, which
        /// stays; a line without a space where it could break stays long.
        mutating func emitFolded822() {
            var start = 0
            let n = property.count
            while n - start > 75 {
                var cut = start + 75
                while cut > start + 20 && property[cut] != ASCII.space { cut -= 1 }
                guard property[cut] == ASCII.space else { break }
                out += property[start..<cut]
                crlf()
                start = cut
            }
            out += property[start..<n]
            crlf()
        }

        // MARK: CSV

        // Rows are written field by field, without arrays of fields.
        var delimiter = ASCII.comma
        var quoteAll = false
        var rowStarted = false

        mutating func field(_ s: String) {
            if rowStarted { out.append(delimiter) }
            rowStarted = true
            var s = s
            s.withUTF8 { p in
                let needsQuotes = quoteAll || p.first == ASCII.space || p.last == ASCII.space
                    || p.contains { $0 == delimiter || $0 == ASCII.quote || ByteClass.isLineBreak($0) }
                guard needsQuotes else {
                    out.append(contentsOf: p)
                    return
                }
                out.append(ASCII.quote)
                for b in p {
                    if b == ASCII.quote { out.append(ASCII.quote) }
                    if b == ASCII.lineFeed { line += 1 }
                    out.append(b)
                }
                out.append(ASCII.quote)
            }
        }

        mutating func fields(_ values: String...) {
            for v in values { field(v) }
        }

        mutating func empty(_ n: Int) {
            for _ in 0..<n { field("") }
        }

        mutating func endRow(crlf: Bool) {
            if crlf { out.append(ASCII.carriageReturn) }
            out.append(ASCII.lineFeed)
            line += 1
            rowStarted = false
        }

        /// A part of a structured name as one CSV field: its items joined by spaces.
        func spaced(_ parts: [String]) -> String {
            parts.count == 1 ? parts[0] : parts.joined(separator: " ")
        }

        mutating func note() -> String {
            switch rng.below(10) {
            case 0: "Met at the conference,\nsecond day"
            case 1: "Prefers \"Ann\"; call after 6"
            default: ""
            }
        }

        mutating func google(_ contacts: [Contact], legacy: Bool) {
            delimiter = ASCII.comma
            quoteAll = false
            // Each address is one cell, or with the next of the same label one
            // cell joined by ` ::: `, as Google writes them. Three pairs of
            // columns hold every contact's (at most three addresses).
            let widest = 3
            let header = legacy
                ? ["Name", "Given Name", "Additional Name", "Family Name", "Yomi Name", "Given Name Yomi",
                   "Additional Name Yomi", "Family Name Yomi", "Name Prefix", "Name Suffix", "Initials", "Nickname",
                   "Short Name", "Maiden Name", "Birthday", "Gender", "Location", "Billing Information",
                   "Directory Server", "Mileage", "Occupation", "Hobby", "Sensitivity", "Priority", "Subject", "Notes",
                   "Language", "Photo", "Group Membership"]
                : ["First Name", "Middle Name", "Last Name", "Phonetic First Name", "Phonetic Middle Name",
                   "Phonetic Last Name", "Name Prefix", "Name Suffix", "Nickname", "File As", "Organization Name",
                   "Organization Title", "Organization Department", "Birthday", "Notes", "Photo", "Labels"]
            for name in header { field(name) }
            for k in 1...widest { fields("E-mail \(k) - \(legacy ? "Type" : "Label")", "E-mail \(k) - Value") }
            if legacy {
                fields("Phone 1 - Type", "Phone 1 - Value", "Organization 1 - Type", "Organization 1 - Name",
                       "Organization 1 - Yomi Name", "Organization 1 - Title")
            } else {
                fields("Phone 1 - Label", "Phone 1 - Value")
            }
            endRow(crlf: false)
            for index in contacts.indices where contacts[index].kind != .group {
                written.append(index)
                lines.append(line)
                googleRow(contacts[index], legacy: legacy, widest: widest)
            }
        }

        mutating func googleRow(_ c: borrowing Contact, legacy: Bool, widest: Int) {
            let n = c.name
            var groups = "* myContacts"
            for category in c.categories { groups += " ::: " + category }
            if legacy {
                fields(c.displayName ?? "", spaced(n.given), spaced(n.additional), spaced(n.family))
                empty(4)
                fields(spaced(n.prefixes), spaced(n.suffixes), "", c.nicknames.first ?? "")
                empty(13)
                field(note())
                empty(2)
                field(groups)
            } else {
                fields(spaced(n.given), spaced(n.additional), spaced(n.family))
                empty(3)
                fields(spaced(n.prefixes), spaced(n.suffixes), c.nicknames.first ?? "", "", c.organization ?? "")
                empty(3)
                fields(note(), "", groups)
            }
            let preferred = c.emails.contains { $0.pref != nil } ? c.preferredEmailIndex : nil
            var cells = 0
            var k = 0
            while k < c.emails.count {
                var label = ContactCorpus.googleLabel(c.emails[k].types) ?? ""
                if k == preferred { label = "* " + label }
                var value = c.emails[k].address
                if k + 1 < c.emails.count && k + 1 != preferred
                    && ContactCorpus.googleLabel(c.emails[k + 1].types) == ContactCorpus.googleLabel(c.emails[k].types)
                    && rng.chance(perMille: 500)
                {
                    value += " ::: " + c.emails[k + 1].address
                    k += 1
                }
                fields(label, value)
                cells += 1
                k += 1
            }
            empty(2 * (widest - cells))
            fields("Mobile", "+49 170 \(rng.below(9_000_000) + 1_000_000)")
            if legacy { fields("", c.organization ?? "", "", "") }
            endRow(crlf: false)
        }

        mutating func outlook(_ contacts: [Contact]) {
            delimiter = ContactCorpus.outlookStyle(seed: seed).delimiter
            quoteAll = true
            for name in ["Title", "First Name", "Middle Name", "Last Name", "Suffix", "Nickname", "Company",
                         "Department", "Job Title", "Business Street", "Business City", "Business Postal Code",
                         "Business Country/Region", "Home Phone", "Mobile Phone", "Categories", "E-mail Address",
                         "E-mail Type", "E-mail Display Name", "E-mail 2 Address", "E-mail 2 Type",
                         "E-mail 2 Display Name", "E-mail 3 Address", "E-mail 3 Type", "E-mail 3 Display Name", "Notes"] {
                field(name)
            }
            endRow(crlf: true)
            for index in contacts.indices where contacts[index].kind != .group {
                written.append(index)
                lines.append(line)
                outlookRow(contacts[index])
            }
        }

        mutating func outlookRow(_ c: borrowing Contact) {
            let n = c.name
            fields(spaced(n.prefixes), spaced(n.given), spaced(n.additional), spaced(n.family), spaced(n.suffixes),
                   c.nicknames.first ?? "", c.organization ?? "")
            empty(8)
            field(c.categories.joined(separator: ";"))
            for k in 0..<3 {
                if k < c.emails.count {
                    let address = c.emails[k].address
                    fields(address, "SMTP", "\(c.displayName ?? address) (\(address))")
                } else {
                    empty(3)
                }
            }
            field(note())
            endRow(crlf: true)
        }

        mutating func thunderbird(_ contacts: [Contact]) {
            let header = "First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email,Screen Name,Work Phone,Home Phone,Fax Number,Pager Number,Mobile Number,Home Address,Home Address 2,Home City,Home State,Home ZipCode,Home Country,Work Address,Work Address 2,Work City,Work State,Work ZipCode,Work Country,Job Title,Department,Organization,Web Page 1,Web Page 2,Birth Year,Birth Month,Birth Day,Custom 1,Custom 2,Custom 3,Custom 4,Notes,"
            out += Array(header.utf8)
            out.append(ASCII.lineFeed)
            line += 1
            delimiter = ASCII.comma
            quoteAll = false
            for index in contacts.indices where contacts[index].kind != .group {
                written.append(index)
                lines.append(line)
                thunderbirdRow(contacts[index])
            }
        }

        mutating func thunderbirdRow(_ c: borrowing Contact) {
            fields(spaced(c.name.given), spaced(c.name.family), c.displayName ?? "", c.nicknames.first ?? "",
                   c.emails.count > 0 ? c.emails[0].address : "", c.emails.count > 1 ? c.emails[1].address : "")
            empty(20)
            field(c.organization ?? "")
            empty(9)
            fields(note(), "")
            endRow(crlf: false)
        }
    }
}

/// The names, words and domains the generator draws from.
enum NameData {
    struct Name {
        var native: String
        /// For addresses: an ASCII spelling.
        var ascii: String
    }

    enum Order { case western, eastern, familyFirst }

    struct Locale {
        var given: [Name]
        var family: [Name]
        var additional: [Name] = []
        var order = Order.western
        var domains: [String]
        var additionalPerMille = 150
        var twoFamilyNames = false
    }

    /// `native/ascii` pairs separated by spaces.
    static func names(_ s: String) -> [Name] {
        s.split(separator: " ").map { pair in
            let parts = pair.split(separator: "/")
            return Name(native: String(parts[0]), ascii: String(parts[1]))
        }
    }

    static let locales: [Locale] = [
        Locale(given: names("Ann/ann Robert/robert Elizabeth/elizabeth Michael/michael Sarah/sarah David/david Emily/emily James/james"),
               family: names("Smith/smith O'Neil/oneil Johnson/johnson Lee/lee Brown/brown Taylor/taylor McDonald/mcdonald Wright/wright"),
               domains: ["example.com", "mail.co.uk", "post.example.org"]),
        Locale(given: names("Amélie/amelie François/francois Hélène/helene Jérôme/jerome Zoé/zoe Céline/celine Noël/noel Gaëlle/gaelle"),
               family: names("Lefèvre/lefevre Dubois/dubois Béranger/beranger Moreau/moreau Château/chateau Lévêque/leveque Garçon/garcon Roussel/roussel"),
               domains: ["orange.fr", "free.fr", "laposte.net"]),
        Locale(given: names("José/jose María/maria Íñigo/inigo Begoña/begona Sofía/sofia Julián/julian Ramón/ramon Lucía/lucia"),
               family: names("Muñoz/munoz Peña/pena Ibáñez/ibanez García/garcia Núñez/nunez Cortés/cortes Gómez/gomez Ortiz/ortiz"),
               domains: ["telefonica.es", "correo.es", "empresa.es"], twoFamilyNames: true),
        Locale(given: names("João/joao Conceição/conceicao Gonçalo/goncalo Inês/ines Luís/luis Mário/mario Lúcia/lucia Sebastião/sebastiao"),
               family: names("Magalhães/magalhaes Gonçalves/goncalves Simões/simoes Araújo/araujo Brandão/brandao Guimarães/guimaraes Assunção/assuncao Falcão/falcao"),
               domains: ["uol.com.br", "sapo.pt", "empresa.com.br"], twoFamilyNames: true),
        Locale(given: names("Jürgen/juergen Jörg/joerg Käthe/kaethe Günther/guenther Björn/bjoern Lena/lena Ursula/ursula Maximilian/maximilian"),
               family: names("Groß/gross Müller/mueller Weiß/weiss Schäfer/schaefer Strauß/strauss Köhler/koehler Bäcker/baecker Fuß/fuss"),
               domains: ["web.de", "gmx.de", "firma.de"]),
        Locale(given: names("Łukasz/lukasz Małgorzata/malgorzata Wojciech/wojciech Zofia/zofia Paweł/pawel Jędrzej/jedrzej Agnieszka/agnieszka Michał/michal"),
               family: names("Wróbel/wrobel Łęcki/lecki Kowalczyk/kowalczyk Żółkiewski/zolkiewski Błaszczykowski/blaszczykowski Wiśniewska/wisniewska Dąbrowski/dabrowski Król/krol"),
               domains: ["wp.pl", "onet.pl", "firma.pl"]),
        Locale(given: names("Søren/soren Åsa/asa Bjørn/bjorn Linnéa/linnea Øystein/oystein Märta/marta Ingrid/ingrid Håkon/hakon"),
               family: names("Ørsted/orsted Sørensen/sorensen Åberg/aberg Lindström/lindstrom Kjær/kjaer Bråten/braten Hægeland/haegeland Nyström/nystrom"),
               domains: ["telia.se", "online.no", "mail.dk"]),
        Locale(given: names("Jiří/jiri Kateřina/katerina Tomáš/tomas Zdeněk/zdenek Věra/vera Radek/radek Šárka/sarka Lubomír/lubomir"),
               family: names("Dvořák/dvorak Novák/novak Černý/cerny Svoboda/svoboda Procházka/prochazka Kříž/kriz Růžička/ruzicka Šťastný/stastny"),
               domains: ["seznam.cz", "centrum.cz", "firma.cz"]),
        Locale(given: names("Işıl/isil İbrahim/ibrahim Çağla/cagla Gökhan/gokhan Şule/sule Ümit/umit Ayşe/ayse Oğuz/oguz"),
               family: names("Yılmaz/yilmaz Öztürk/ozturk Çelik/celik Şahin/sahin Aydın/aydin Doğan/dogan Kılıç/kilic Güneş/gunes"),
               domains: ["ttmail.com.tr", "sirket.com.tr", "posta.tr"]),
        Locale(given: names("An/an Hương/huong Dũng/dung Thảo/thao Phúc/phuc Ngọc/ngoc Tuấn/tuan Linh/linh"),
               family: names("Nguyễn/nguyen Trần/tran Lê/le Phạm/pham Hoàng/hoang Đặng/dang Bùi/bui Võ/vo"),
               additional: names("Văn/van Thị/thi Đức/duc Minh/minh"), order: .familyFirst,
               domains: ["vnn.vn", "fpt.vn", "congty.vn"], additionalPerMille: 800),
        Locale(given: names("Γιώργος/giorgos Ελένη/eleni Δημήτρης/dimitris Αικατερίνη/aikaterini Νίκος/nikos Σοφία/sofia Παναγιώτης/panagiotis Μαρία/maria"),
               family: names("Παπαδόπουλος/papadopoulos Οικονόμου/oikonomou Γεωργίου/georgiou Καραγιάννη/karagianni Νικολάου/nikolaou Αθανασίου/athanasiou Βλάχος/vlachos Μαυρίδης/mavridis"),
               domains: ["otenet.gr", "forthnet.gr", "etairia.gr"]),
        Locale(given: names("Александр/aleksandr Наталья/natalya Дмитрий/dmitry Ольга/olga Сергей/sergey Екатерина/ekaterina Юрий/yuri Татьяна/tatyana"),
               family: names("Иванов/ivanov Смирнова/smirnova Кузнецов/kuznetsov Попова/popova Соколов/sokolov Лебедева/lebedeva Козлов/kozlov Новикова/novikova"),
               additional: names("Сергеевич/sergeevich Ивановна/ivanovna Петрович/petrovich Андреевна/andreevna"),
               domains: ["mail.ru", "yandex.ru", "kompania.ru"], additionalPerMille: 600),
        Locale(given: names("Արամ/aram Անի/ani Տիգրան/tigran Նարե/nare Դավիթ/davit Մարիամ/mariam Հայկ/hayk Լիլիթ/lilit"),
               family: names("Պետրոսյան/petrosyan Հովհաննիսյան/hovhannisyan Սարգսյան/sargsyan Գրիգորյան/grigoryan Կարապետյան/karapetyan Մկրտչյան/mkrtchyan Ավետիսյան/avetisyan Հակոբյան/hakobyan"),
               domains: ["mail.am", "arminco.com", "yandex.am"]),
        Locale(given: names("محمد/mohammed فاطمة/fatima أحمد/ahmed ليلى/layla يوسف/youssef مريم/maryam عمر/omar نور/nour"),
               family: names("الحسيني/alhusseini العلي/alali الخطيب/alkhatib منصور/mansour حداد/haddad الزهراني/alzahrani عبدالله/abdullah القاسم/alqasim"),
               domains: ["mail.sa", "sharika.ae", "maktoob.com"]),
        Locale(given: names("נועה/noa דוד/david שירה/shira יוסף/yosef מיכל/michal אברהם/avraham תמר/tamar אורי/uri"),
               family: names("כהן/cohen לוי/levi מזרחי/mizrahi פרץ/peretz ביטון/biton אברהמי/avrahami שפירא/shapira פרידמן/friedman"),
               domains: ["walla.co.il", "netvision.net.il", "hevra.co.il"]),
        Locale(given: names("伟/wei 芳/fang 秀英/xiuying 敏/min 静/jing 强/qiang 磊/lei 洋/yang"),
               family: names("王/wang 李/li 张/zhang 刘/liu 陈/chen 杨/yang 黄/huang 赵/zhao"),
               order: .eastern, domains: ["qq.com", "163.com", "gongsi.cn"], additionalPerMille: 0),
        Locale(given: names("太郎/taro 花子/hanako 健/ken 美咲/misaki 翔太/shota さくら/sakura 大輔/daisuke 由美/yumi"),
               family: names("山田/yamada 佐藤/sato 鈴木/suzuki 高橋/takahashi 田中/tanaka 渡辺/watanabe 伊藤/ito 中村/nakamura"),
               order: .eastern, domains: ["yahoo.co.jp", "docomo.ne.jp", "kaisha.co.jp"], additionalPerMille: 0),
        Locale(given: names("민준/minjun 서연/seoyeon 지훈/jihoon 수빈/subin 현우/hyunwoo 지민/jimin 도윤/doyun 하은/haeun"),
               family: names("김/kim 이/lee 박/park 최/choi 정/jung 강/kang 조/cho 윤/yoon"),
               order: .eastern, domains: ["naver.com", "daum.net", "hoesa.co.kr"], additionalPerMille: 0),
    ]

    static let prefixes = ["Dr.", "Mr.", "Ms.", "Prof.", "Mme", "Herr"]
    static let suffixes = ["Jr.", "PhD", "III", "M.D."]
    static let nicknames = [
        "Pepe", "Zizou", "Bubu", "Šárka", "Sasha", "Мишка", "小王", "Ali", "Jo, the Great", "\"Doc\"", "Ana;Bela",
        "Kiki", "Ğ-man", "Lulu", "Nando", "Tata", "B\\B",
    ]
    static let organizations = [
        "ACME, Inc.", "Müller & Söhne GmbH", "R&D; Labs", "Société Générale", "トヨタ株式会社", "Ελληνικά Πετρέλαια",
        "ООО «Ромашка»", "Nordisk A/S", "Empresa, S.A.", "\"Quoted\" Ltd", "back\\slash Corp", "Đại học Quốc gia",
        "Uniwersytet Łódzki", "İstanbul Teknik", "Børnehaven Solsikken", "서울대학교",
    ]
    static let categories = [
        "Friends", "Family", "Work", "Book Club", "Chorale Sainte-Cécile", "Ομάδα", "Коллеги", "同事", "VIP",
        "Amigos, viejos", "Nachbarn", "Wspólnota", "Ev işleri",
    ]
    static let listNames = ["Team", "Équipe", "Familie Groß", "家族", "Book Club", "Πάρτι", "Команда", "Vänner"]
    static let domains = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "hotmail.co.uk", "aol.com"]
    static let internationalDomains = ["müller.de", "例え.jp", "ørsted.dk", "xn--bcher-kva.example"]
    static let typeSets: [[String]] = [
        ["home"], ["work"], ["home"], ["work"], [], [], ["other"], ["internet", "home"], ["internet", "work"],
        ["home", "work"], ["x-school"], ["internet"],
    ]
}
