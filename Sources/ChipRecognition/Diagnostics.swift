import ChipSyntax

/// Why a chip is in error: a stable, kebab-case reason code.
///
/// A struct over a private kind, so reasons can be added without breaking
/// code that switches over the existing ones by comparing values.
public struct ChipError: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Kind: UInt8, Sendable, CaseIterable {
        // Ordered by precedence: when a chip has several problems, the one
        // listed first is reported, since it explains the others.
        case tooLong
        case invalidUTF8
        case invalidCharacter
        case invisibleCharacter
        case unterminatedQuote
        case unbalancedComment
        case unterminatedDomainLiteral
        case unterminatedAngle
        case notAnAddress
        case emptyAddress
        case missingAt
        case multipleAt
        case emptyLocalPart
        case missingDomain
        case leadingDot
        case trailingDot
        case consecutiveDots
        case invalidDisplayName
        case invalidLocalPart
        case unnecessaryQuotes
        case commentNotAllowed
        case obsoleteSyntax
        case invalidDomainLiteral
        case invalidDomainCharacter
        case invalidDomainLabel
        case invalidInternationalDomain
        case domainMissingDot
        case numericTopLevelDomain
        case localPartTooLong
        case domainLabelTooLong
        case domainTooLong
        case addressTooLong
        /// Not recognition's: a name that several contacts match equally well.
        case ambiguous
        /// Text that holds only comments (`(call Bob first)`), where a
        /// mailbox should be. Last, so that earlier codes keep their rank.
        case commentOnly

        var staticCode: StaticString {
            switch self {
            case .tooLong: "too-long"
            case .invalidUTF8: "invalid-utf8"
            case .invalidCharacter: "invalid-character"
            case .invisibleCharacter: "invisible-character"
            case .unterminatedQuote: "unterminated-quote"
            case .unbalancedComment: "unbalanced-comment"
            case .unterminatedDomainLiteral: "unterminated-domain-literal"
            case .unterminatedAngle: "unterminated-angle"
            case .notAnAddress: "not-an-address"
            case .emptyAddress: "empty-address"
            case .missingAt: "missing-at"
            case .multipleAt: "multiple-at"
            case .emptyLocalPart: "empty-local-part"
            case .missingDomain: "missing-domain"
            case .leadingDot: "leading-dot"
            case .trailingDot: "trailing-dot"
            case .consecutiveDots: "consecutive-dots"
            case .invalidDisplayName: "invalid-display-name"
            case .invalidLocalPart: "invalid-local-part"
            case .unnecessaryQuotes: "unnecessary-quotes"
            case .commentNotAllowed: "comment-not-allowed"
            case .obsoleteSyntax: "obsolete-syntax"
            case .invalidDomainLiteral: "invalid-domain-literal"
            case .invalidDomainCharacter: "invalid-domain-character"
            case .invalidDomainLabel: "invalid-domain-label"
            case .invalidInternationalDomain: "invalid-idn"
            case .domainMissingDot: "domain-missing-dot"
            case .numericTopLevelDomain: "numeric-tld"
            case .localPartTooLong: "local-part-too-long"
            case .domainLabelTooLong: "domain-label-too-long"
            case .domainTooLong: "domain-too-long"
            case .addressTooLong: "address-too-long"
            case .ambiguous: "ambiguous"
            case .commentOnly: "comment-only"
            }
        }

        var message: String {
            switch self {
            case .tooLong: "the text is longer than a chip may be"
            case .invalidUTF8: "the text is not valid UTF-8"
            case .invalidCharacter: "a character that is not allowed here"
            case .invisibleCharacter: "the address holds an invisible character (zero-width, bidi control, BOM)"
            case .unterminatedQuote: "a quoted string is not closed with \""
            case .unbalancedComment: "parentheses do not balance"
            case .unterminatedDomainLiteral: "a domain literal is not closed with ]"
            case .unterminatedAngle: "an address in <…> is not closed with >"
            case .notAnAddress: "this is not an address"
            case .emptyAddress: "<> holds no address"
            case .missingAt: "the address has no @"
            case .multipleAt: "the address has more than one @"
            case .emptyLocalPart: "nothing before the @"
            case .missingDomain: "nothing after the @"
            case .leadingDot: "a part starts with a dot"
            case .trailingDot: "a part ends with a dot"
            case .consecutiveDots: "two dots in a row"
            case .invalidDisplayName: "the name needs quotes around it"
            case .invalidLocalPart: "the part before the @ is malformed"
            case .unnecessaryQuotes: "the part before the @ is quoted without need"
            case .commentNotAllowed: "comments are not allowed by this policy"
            case .obsoleteSyntax: "obsolete syntax is not allowed by this policy"
            case .invalidDomainLiteral: "the domain literal is not an IPv4 or IPv6 address"
            case .invalidDomainCharacter: "the domain has a character a host name cannot have"
            case .invalidDomainLabel: "a domain label starts or ends with a hyphen"
            case .invalidInternationalDomain: "an international domain label that IDNA does not allow"
            case .domainMissingDot: "the domain has no dot"
            case .numericTopLevelDomain: "the top-level domain is all digits"
            case .localPartTooLong: "the part before the @ is longer than 64 bytes"
            case .domainLabelTooLong: "a domain label is longer than 63 bytes"
            case .domainTooLong: "the domain is longer than 255 bytes"
            case .addressTooLong: "the address is longer than 254 bytes"
            case .ambiguous: "several contacts match this name: choose one"
            case .commentOnly: "only a comment, with no address: write the address, or remove the comment"
            }
        }
    }

    @usableFromInline
    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// The stable reason code, e.g. `missing-domain`.
    public var code: String { "\(kind.staticCode)" }
    /// The reason code without allocating, for writers on hot paths.
    public var staticCode: StaticString { kind.staticCode }
    /// A short explanation in English, for people.
    public var message: String { kind.message }
    public var description: String { code }

    /// The reason's rank: 0 for the reason reported first when several
    /// apply. Also its index in ``allReasons``.
    public var precedence: Int { Int(kind.rawValue) }

    /// Every reason, in order of precedence.
    public static var allReasons: [ChipError] { Kind.allCases.map(ChipError.init) }

    /// The reason with this code, if there is one.
    public init?(code: String) {
        guard let kind = Kind.allCases.first(where: { "\($0.staticCode)" == code }) else { return nil }
        self.kind = kind
    }

    public static let tooLong = ChipError(.tooLong)
    public static let invalidUTF8 = ChipError(.invalidUTF8)
    public static let invalidCharacter = ChipError(.invalidCharacter)
    public static let invisibleCharacter = ChipError(.invisibleCharacter)
    public static let unterminatedQuote = ChipError(.unterminatedQuote)
    public static let unbalancedComment = ChipError(.unbalancedComment)
    public static let unterminatedDomainLiteral = ChipError(.unterminatedDomainLiteral)
    public static let unterminatedAngle = ChipError(.unterminatedAngle)
    public static let notAnAddress = ChipError(.notAnAddress)
    public static let emptyAddress = ChipError(.emptyAddress)
    public static let missingAt = ChipError(.missingAt)
    public static let multipleAt = ChipError(.multipleAt)
    public static let emptyLocalPart = ChipError(.emptyLocalPart)
    public static let missingDomain = ChipError(.missingDomain)
    public static let leadingDot = ChipError(.leadingDot)
    public static let trailingDot = ChipError(.trailingDot)
    public static let consecutiveDots = ChipError(.consecutiveDots)
    public static let invalidDisplayName = ChipError(.invalidDisplayName)
    public static let invalidLocalPart = ChipError(.invalidLocalPart)
    public static let unnecessaryQuotes = ChipError(.unnecessaryQuotes)
    public static let commentNotAllowed = ChipError(.commentNotAllowed)
    public static let obsoleteSyntax = ChipError(.obsoleteSyntax)
    public static let invalidDomainLiteral = ChipError(.invalidDomainLiteral)
    public static let invalidDomainCharacter = ChipError(.invalidDomainCharacter)
    public static let invalidDomainLabel = ChipError(.invalidDomainLabel)
    public static let invalidInternationalDomain = ChipError(.invalidInternationalDomain)
    public static let domainMissingDot = ChipError(.domainMissingDot)
    public static let numericTopLevelDomain = ChipError(.numericTopLevelDomain)
    public static let localPartTooLong = ChipError(.localPartTooLong)
    public static let domainLabelTooLong = ChipError(.domainLabelTooLong)
    public static let domainTooLong = ChipError(.domainTooLong)
    public static let addressTooLong = ChipError(.addressTooLong)
    /// A typed name that several contacts match equally well (set by the
    /// editing engine, never by recognition); the chip lists them.
    public static let ambiguous = ChipError(.ambiguous)
    /// Text that holds only comments and white space where a mailbox
    /// should be (`a@x.org, (call Bob first)`). RFC 5322's obsolete list
    /// syntax (§4.4) reads it as an empty element, but it is something a
    /// person wrote: it stays a chip, in error, so that nothing vanishes.
    /// A group whose whole content is comments (`Team: (nobody);`) is an
    /// empty group, not this.
    public static let commentOnly = ChipError(.commentOnly)
}

extension ChipError: ChipReason {
    /// None: an error's words name no value.
    public var values: [String: String] { [:] }
    public var englishTemplate: String { kind.message }
}

/// Things worth telling a person about a chip that is still sendable.
public struct ChipWarnings: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Obsolete RFC 5322 syntax (§4) was accepted: a route, white space or
    /// comments inside the address, a dot in an unquoted name, a local part
    /// mixing quoted and unquoted words.
    public static let obsoleteSyntax = ChipWarnings(rawValue: 1 << 0)
    /// A name followed by a bare address, `Ann Lee ann@x.org`, read as if
    /// the address had been put in `<…>`.
    public static let missingAngleBrackets = ChipWarnings(rawValue: 1 << 1)
    /// A `mailto:` prefix was dropped.
    public static let mailtoPrefix = ChipWarnings(rawValue: 1 << 2)
    /// The same address occurs earlier in the list (domain compared
    /// and local part without ASCII case, unless `comparesLocalPartsExactly`).
    public static let duplicate = ChipWarnings(rawValue: 1 << 3)
    /// An encoded word (RFC 2047) in the name could not be decoded (unknown
    /// charset or bad encoding) and is shown as written.
    public static let undecodedEncodedWord = ChipWarnings(rawValue: 1 << 4)

    /// The domain has no dot (`ann@localhost`): valid RFC 5322, but rarely
    /// what a person meant to send to.
    public static let domainMissingDot = ChipWarnings(rawValue: 1 << 5)
    /// The top-level label is all digits (`ann@192.168.1.1`): an IP address
    /// should be written as a literal, `ann@[192.168.1.1]`.
    public static let numericTopLevelDomain = ChipWarnings(rawValue: 1 << 6)

    /// Every warning with its code; the k-th is the bit `1 << k`.
    /// The name holds an address other than the chip's
    /// (`"ceo@company.com" <x@elsewhere.example>`).
    public static let displayNameSpoof = ChipWarnings(rawValue: 1 << 7)
    /// A domain label or a word of the name mixes Latin with Cyrillic or Greek.
    public static let mixedScript = ChipWarnings(rawValue: 1 << 8)
    /// The domain is one or two edits from a common mail domain; the chip's
    /// `suggestedDomain` says which.
    public static let likelyTypo = ChipWarnings(rawValue: 1 << 9)
    /// The name holds a bidirectional control (U+202A–U+202E, U+2066–U+2069,
    /// LRM, RLM, ALM), which can show its text in another order than it is
    /// (Unicode TR #36 §2.1): `Ann\u{202E}gro.x` reads as "Annx.org".
    public static let bidiControl = ChipWarnings(rawValue: 1 << 10)
    /// The name holds an invisible character (zero-width space or joiner,
    /// word joiner, soft hyphen, BOM) that can make two names look alike.
    public static let hiddenCharacter = ChipWarnings(rawValue: 1 << 11)

    /// A full-width `＠` (U+FF20), as Chinese and Japanese input methods
    /// type it, was read as `@`.
    public static let fullWidthAt = ChipWarnings(rawValue: 1 << 12)

    /// The header fields of a `mailto:` link (`?subject=…`, RFC 6068) were
    /// left out: a chip is a recipient, not a message.
    public static let mailtoFieldsDropped = ChipWarnings(rawValue: 1 << 13)

    /// The name holds a comma that is not quoted, as Outlook writes
    /// `Lee, Ann <ann@x.org>` in a list separated by `;`: read as one name,
    /// which the header writer quotes.
    public static let unquotedComma = ChipWarnings(rawValue: 1 << 14)

    static let table: [(ChipWarnings, StaticString)] = (0..<15).map {
        (ChipWarnings(rawValue: 1 << UInt32($0)), code(ofIndex: $0))
    }

    /// The stable kebab-case codes of the warnings in this set, in a fixed order.
    public var codes: [String] {
        ChipWarnings.table.compactMap { contains($0.0) ? "\($0.1)" : nil }
    }

    /// Calls `body` with each code in ``codes`` order, without allocating.
    public func forEachCode(_ body: (StaticString) -> Void) {
        forEachIndex { body(ChipWarnings.code(ofIndex: $0)) }
    }

    /// Calls `body` with the index (in ``all``) of each warning in the set.
    /// Each warning is the bit `1 << index`.
    @inline(__always)
    public func forEachIndex(_ body: (Int) -> Void) {
        var bits = rawValue
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
    }

    static func code(ofIndex index: Int) -> StaticString {
        switch index {
        case 0: "obsolete-syntax"
        case 1: "missing-angle-brackets"
        case 2: "mailto-prefix"
        case 3: "duplicate"
        case 4: "undecoded-encoded-word"
        case 5: "domain-missing-dot"
        case 6: "numeric-tld"
        case 7: "display-name-spoof"
        case 8: "mixed-script"
        case 9: "likely-typo"
        case 10: "bidi-control"
        case 11: "hidden-character"
        case 12: "full-width-at"
        case 13: "mailto-fields-dropped"
        case 14: "unquoted-comma"
        default: "unknown"
        }
    }

    /// Every single warning with its code, in ``codes`` order.
    public static var all: [(warning: ChipWarnings, code: String)] {
        table.map { ($0.0, "\($0.1)") }
    }

    /// The warning with this code, if there is one.
    public init?(code: String) {
        guard let entry = ChipWarnings.table.first(where: { "\($0.1)" == code }) else { return nil }
        self = entry.0
    }
}
