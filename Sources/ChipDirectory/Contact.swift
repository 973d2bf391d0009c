// The people and lists a person types: contacts as an address book holds
// them, independent of the file format they came from.

/// A contact's identity: the card's `UID` when it has one, otherwise one
/// derived from the contact's content, so the same card imported twice gets
/// the same identity.
public struct ContactID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The identity as text: the card's `UID`, or the derived one.
    public let rawValue: String
    /// The identity `rawValue`, taken as it is (no check that it is unique).
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Orders identities by their UTF-8 bytes, the same on every platform and locale.
    ///
    /// - Complexity: O(*n*), where *n* is the length in UTF-8 bytes of the shorter identity.
    public static func < (a: ContactID, b: ContactID) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }
    /// The identity as text, ``rawValue``.
    public var description: String { rawValue }

    /// Decodes an identity from a single string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the identity as a single string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// A structured name (vCard `N`): family names, given names, additional
/// names, honorific prefixes and suffixes, each possibly several.
public struct StructuredName: Hashable, Sendable, Codable {
    /// Family names (surnames), in the card's order.
    public var family: [String]
    /// Given (first) names.
    public var given: [String]
    /// Additional (middle) names.
    public var additional: [String]
    /// Honorific prefixes (`Dr.`).
    public var prefixes: [String]
    /// Honorific suffixes (`Jr.`, `PhD`).
    public var suffixes: [String]

    /// A name with these parts; every part defaults to none.
    public init(
        family: [String] = [], given: [String] = [], additional: [String] = [],
        prefixes: [String] = [], suffixes: [String] = []
    ) {
        self.family = family
        self.given = given
        self.additional = additional
        self.prefixes = prefixes
        self.suffixes = suffixes
    }

    /// Whether no part has any text.
    ///
    /// - Complexity: O(*p*), where *p* is the number of name parts.
    public var isEmpty: Bool {
        [family, given, additional, prefixes, suffixes].allSatisfy { $0.allSatisfy(\.isEmpty) }
    }

    /// The name as it is usually shown, separated by spaces (what a card
    /// without `FN` displays): prefixes, given, additional, family,
    /// suffixes; or, when the given and family names are both written in
    /// Han, kana or Hangul, family first as Japanese, Chinese and Korean
    /// write them (`山田 太郎`, as Japanese Outlook's display name shows).
    ///
    /// - Complexity: O(*n*) in the length of the parts.
    public var formatted: String {
        // Appended in place: the concatenated arrays this replaces were a
        // tenth of the time of reading a CSV row.
        var out = ""
        func add(_ items: [String]) {
            for item in items where !item.isEmpty {
                if !out.isEmpty { out.append(" ") }
                out.append(item)
            }
        }
        add(prefixes)
        if Self.isEastAsian(given) && Self.isEastAsian(family) {
            add(family)
            add(given)
            add(additional)
        } else {
            add(given)
            add(additional)
            add(family)
        }
        add(suffixes)
        return out
    }

    /// Whether `parts` hold a letter and every letter is Han, kana or
    /// Hangul (spaces, the middle dot and the iteration mark allowed).
    /// A Latin first letter answers at once.
    static func isEastAsian(_ parts: [String]) -> Bool {
        var sawLetter = false
        for part in parts {
            for scalar in part.unicodeScalars {
                switch scalar.value {
                case 0x20, 0x3000, 0x30FB, 0xFF65: continue  // spaces, middle dots
                case 0x1100...0x11FF, 0x3005, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF,
                     0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7AF,
                     0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
                    sawLetter = true
                default:
                    return false
                }
            }
        }
        return sawLetter
    }
}

/// One email address of a contact.
public struct ContactEmail: Hashable, Sendable, Codable {
    /// The address as the card wrote it (an addr-spec, without a display
    /// name or `mailto:`).
    public var address: String
    /// Labels, lower-case (`home`, `work`, `internet`, `x-…`), in the order
    /// the card gave them, without `pref`.
    public var types: [String]
    /// The preference, 1 (most preferred) to 100, or `nil` when the card
    /// gave none. vCard 2.1's bare `PREF` and 3.0's `TYPE=pref` are 1.
    public var pref: Int?
    /// The uses of this mailbox (sent to, chosen), kept by the host: they
    /// rank this address's row, beside the contact's own ``Contact/usage``.
    public var usage: ContactUsage {
        get { recorded?.usage ?? ContactUsage() }
        set { recorded = newValue == ContactUsage() ? nil : UsageRecord(newValue) }
    }
    /// Most addresses were never used on their own: a record costs them
    /// one reference, not the record's 32 bytes.
    private var recorded: UsageRecord?

    /// An address with its labels, preference and usage.
    public init(address: String, types: [String] = [], pref: Int? = nil, usage: ContactUsage = ContactUsage()) {
        self.address = address
        self.types = types
        self.pref = pref
        self.usage = usage
    }

    /// Equal when address, labels, preference and usage are equal (the usage
    /// compared by value, not by the record it is shared through).
    public static func == (a: ContactEmail, b: ContactEmail) -> Bool {
        a.address == b.address && a.types == b.types && a.pref == b.pref && a.usage == b.usage
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(address)
        hasher.combine(types)
        hasher.combine(pref)
        hasher.combine(usage)
    }

    enum CodingKeys: String, CodingKey {
        case address, types, pref, usage
    }

    /// Decodes an address; a missing `pref` is no preference and a missing
    /// `usage` is an address never used on its own.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            address: try c.decode(String.self, forKey: .address), types: try c.decode([String].self, forKey: .types),
            pref: try c.decodeIfPresent(Int.self, forKey: .pref),
            usage: try c.decodeIfPresent(ContactUsage.self, forKey: .usage) ?? ContactUsage())
    }

    /// The keys it always had, and `usage` only when there is one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(address, forKey: .address)
        try c.encode(types, forKey: .types)
        try c.encodeIfPresent(pref, forKey: .pref)
        if let recorded { try c.encode(recorded.usage, forKey: .usage) }
    }
}

/// An address's usage, shared by the copies of its ``ContactEmail``
/// (never changed: a new use makes a new record).
final class UsageRecord: Sendable {
    let usage: ContactUsage
    init(_ usage: ContactUsage) { self.usage = usage }
}

/// How often and how lately a contact was used, kept by the host.
///
/// Recorded uses count by how recent they are: a use `halfLife` seconds
/// ago counts half as much as one now (see ``score(at:halfLife:)``).
public struct ContactUsage: Hashable, Sendable, Codable {
    /// How many times the contact was used (sent to, chosen).
    public var count: Int
    /// The frecency accumulated up to ``last``, in units of one use at ``last``.
    public var weight: Double
    /// When the contact was last used, in seconds since 1970, or `nil`.
    public var last: Double?

    /// A record with these values; the defaults are a contact never used.
    public init(count: Int = 0, weight: Double = 0, last: Double? = nil) {
        self.count = count
        self.weight = weight
        self.last = last
    }

    /// The default half-life of a use: 30 days.
    public static let defaultHalfLife: Double = 30 * 24 * 3600

    /// This record with one more use at `time`. A use older than ``last``
    /// (uses recorded out of order, as when merging two devices' records)
    /// counts as old as it is: it adds 2^(−age/halfLife) at ``last``.
    public func recordingUse(at time: Double, halfLife: Double = ContactUsage.defaultHalfLife) -> ContactUsage {
        var next = self
        next.count += 1
        if let last, time < last, weight > 0 {
            next.weight = weight + halving((last - time) / halfLife)
        } else {
            next.weight = score(at: time, halfLife: halfLife) + 1
            next.last = time
        }
        return next
    }

    /// The decayed score's logarithm up to a constant shared by all
    /// records at any one moment: log₂(``weight``) + ``last`` / `halfLife`
    /// (−∞ for no use). Records compare by it as by their scores at any
    /// time, without a clock.
    public func rankingKey(halfLife: Double = ContactUsage.defaultHalfLife) -> Double {
        guard let last, weight > 0 else { return -.infinity }
        return log2Approximation(weight) + last / halfLife
    }

    /// The ranking key of two records' uses together (their scores add):
    /// log₂(2^a + 2^b).
    static func combinedKey(_ a: Double, _ b: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        let high = max(a, b), low = min(a, b)
        return high + log2Approximation(1 + halving(high - low))
    }

    /// The decayed use count at `time`: every use counts 2^(−age/halfLife).
    public func score(at time: Double, halfLife: Double = ContactUsage.defaultHalfLife) -> Double {
        guard let last, weight > 0 else { return 0 }
        let age = max(0, time - last)
        return weight * halving(age / halfLife)
    }
}

/// Where a contact came from, for messages and for `chipify contacts`.
public enum ContactSource: String, Hashable, Sendable, Codable {
    /// A card read by vCard 2.1's rules.
    case vCard21 = "2.1"
    /// A card read by vCard 3.0's rules (RFC 2426).
    case vCard30 = "3.0"
    /// A card read by vCard 4.0's rules (RFC 6350).
    case vCard40 = "4.0"
    /// A row of a CSV file.
    case csv
    /// Made by the host, not imported.
    case host
}

/// A person, organization or list of an address book.
public struct Contact: Hashable, Sendable, Codable {
    /// What the contact is (vCard 4.0 `KIND`); cards without one are individuals.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A person; a list (`KIND:group`) whose ``members`` make its chip; an
        /// organization; a place.
        case individual, group, org, location
    }

    /// The contact's identity, unique in its directory.
    public var id: ContactID
    /// A person, a list (whose ``members`` make its chip), an organization or a place.
    public var kind: Kind
    /// The formatted name (`FN`), or the structured name formatted when the
    /// card had no `FN`; `nil` when the contact has no name at all.
    public var displayName: String?
    /// The structured name (vCard `N`, CSV name columns); empty when the file gave none.
    public var name: StructuredName
    /// Nicknames (vCard `NICKNAME`, and a card's further `FN` values, which
    /// RFC 6350 allows): a query that is one of them is an exact match.
    public var nicknames: [String]
    /// The organization (vCard `ORG`, CSV company column), searched as a name is.
    public var organization: String?
    /// Categories or labels (vCard `CATEGORIES`, CSV groups): kept, not
    /// searched; a CSV import can turn them into lists.
    public var categories: [String]
    /// The addresses in the card's order.
    public var emails: [ContactEmail]
    /// Telephone numbers as the file wrote them (vCard `TEL`, CSV phone
    /// columns): kept so that a contact without an address is still shown
    /// as what it is; never suggested.
    public var phones: [String]
    /// A list's members as the card names them: `mailto:` URIs, `urn:uuid:`
    /// or other references to contacts' ids, or (from CSV) addresses.
    public var members: [String]
    /// How often and how lately the contact was used, kept by the host; it ranks suggestions.
    public var usage: ContactUsage
    /// Where it came from, and the line of the file its record starts on
    /// (1-based; 0 when not imported).
    public var source: ContactSource
    /// The line of the file the record starts on, 1-based; 0 when not imported.
    public var line: Int
    /// A vCard's `VERSION` as the card wrote it (`"3.0"`, `"9.9"`), or
    /// `nil` for a card without one and for contacts not read from a vCard.
    /// ``source`` says which version's rules the card was read by.
    public var declaredVersion: String?

    /// A contact with these fields; everything but the identity defaults to
    /// empty, an individual made by the host.
    public init(
        id: ContactID, kind: Kind = .individual, displayName: String? = nil, name: StructuredName = StructuredName(),
        nicknames: [String] = [], organization: String? = nil, categories: [String] = [],
        emails: [ContactEmail] = [], phones: [String] = [], members: [String] = [],
        usage: ContactUsage = ContactUsage(), source: ContactSource = .host, line: Int = 0,
        declaredVersion: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.displayName = displayName
        self.name = name
        self.nicknames = nicknames
        self.organization = organization
        self.categories = categories
        self.emails = emails
        self.phones = phones
        self.members = members
        self.usage = usage
        self.source = source
        self.line = line
        self.declaredVersion = declaredVersion
    }

    /// Whether choosing the contact can make a chip: it has an address, or
    /// it is a list with members. Only such contacts are suggested or
    /// resolve a typed name.
    public var canBecomeChip: Bool { !emails.isEmpty || (kind == .group && !members.isEmpty) }

    /// The index in ``emails`` of the preferred address: the lowest `pref`,
    /// the first address among equals, the first address when none has a
    /// `pref`; `nil` when the contact has no address.
    ///
    /// - Complexity: O(*e*), where *e* is the number of addresses.
    public var preferredEmailIndex: Int? {
        guard !emails.isEmpty else { return nil }
        var best = 0
        for i in emails.indices.dropFirst() where (emails[i].pref ?? Int.max) < (emails[best].pref ?? Int.max) {
            best = i
        }
        return best
    }

    /// The preferred address (see ``preferredEmailIndex``).
    ///
    /// - Complexity: O(*e*), where *e* is the number of addresses.
    public var preferredEmail: ContactEmail? { preferredEmailIndex.map { emails[$0] } }
}

/// 2^−x, without a math library: whole halvings scale the exponent, and
/// the fraction goes through the exponential series (|x·ln 2| < 0.7, so 20
/// terms are exact to a double's precision). 0 for NaN, ±∞ and x > 1100;
/// +∞ for x < −1100 (2^1100 overflows).
func halving(_ x: Double) -> Double {
    guard x.isFinite else { return 0 }
    let whole = roundedDown(x)
    if whole > 1100 { return 0 }
    if whole < -1100 { return .infinity }
    let y = -(x - whole) * 0.693_147_180_559_945_309_4
    var term = 1.0
    var sum = 1.0
    for k in 1...20 {
        term *= y / Double(k)
        sum += term
    }
    return Double(sign: .plus, exponent: -Int(whole), significand: sum)
}

/// ⌊x⌋, bit for bit what `x.rounded(.down)` gives (±0 kept, ±∞ and NaN
/// returned as they are), from the bits alone. `rounded(.down)` compiles to
/// a call to libm's `floor` on baseline x86-64, which a host that imports
/// only ChipKit does not link: the library promises the standard library
/// only.
func roundedDown(_ x: Double) -> Double {
    let exponent = Int(x.exponentBitPattern) - 1023
    // 2^52 and above (and ±∞, NaN) hold no fraction bits.
    if exponent >= 52 { return x }
    // |x| < 1, subnormals included: −1 below zero, the zero itself at zero.
    if exponent < 0 { return x < 0 ? -1 : (x == 0 ? x : 0) }
    let fractionBits: UInt64 = (1 << UInt64(52 - exponent)) - 1
    guard x.bitPattern & fractionBits != 0 else { return x }
    let truncated = Double(bitPattern: x.bitPattern & ~fractionBits)
    // |truncated| < 2^52, so subtracting 1 is exact.
    return x < 0 ? truncated - 1 : truncated
}
