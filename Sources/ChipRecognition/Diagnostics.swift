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
    /// The code, as logs and tests show it.
    public var description: String { code }

    /// The reason's rank: 0 for the reason reported first when several
    /// apply. Also its index in ``allReasons``.
    public var precedence: Int { Int(kind.rawValue) }

    /// Every reason, in order of precedence.
    ///
    /// - Complexity: O(*n*), where *n* is the number of reasons.
    public static var allReasons: [ChipError] { Kind.allCases.map(ChipError.init) }

    /// The reason with this code, if there is one.
    ///
    /// - Complexity: O(*n*), where *n* is the number of reasons.
    public init?(code: String) {
        guard let kind = Kind.allCases.first(where: { "\($0.staticCode)" == code }) else { return nil }
        self.kind = kind
    }

    /// `too-long`: the chip is longer than the policy's `maxChipBytes` (or a
    /// reader no longer holds its text), so it is not parsed at all.
    public static let tooLong = ChipError(.tooLong)
    /// `invalid-utf8`: the chip's bytes are not well-formed UTF-8.
    public static let invalidUTF8 = ChipError(.invalidUTF8)
    /// `invalid-character`: a byte that cannot stand where it is: a control
    /// character, a stray `>`, `]`, `\` or `[`, text after the `<…>`, or a
    /// special character in text that has no `@`.
    public static let invalidCharacter = ChipError(.invalidCharacter)
    /// `invisible-character`: the local part or domain holds a zero-width
    /// character, bidi control or BOM, which would make the address look like another.
    public static let invisibleCharacter = ChipError(.invisibleCharacter)
    /// `unterminated-quote`: a `"` opens a quoted string the chip never closes.
    public static let unterminatedQuote = ChipError(.unterminatedQuote)
    /// `unbalanced-comment`: a `(` the chip never closes, or a `)` that closes nothing.
    public static let unbalancedComment = ChipError(.unbalancedComment)
    /// `unterminated-domain-literal`: a `[` after the `@` the chip never closes with `]`.
    public static let unterminatedDomainLiteral = ChipError(.unterminatedDomainLiteral)
    /// `unterminated-angle`: a `<` with no `>` after it.
    public static let unterminatedAngle = ChipError(.unterminatedAngle)
    /// `not-an-address`: nothing reads as an address: an empty chip, a
    /// `mailto:` prefix alone, or several words or quoted text without an `@`
    /// (a name, not a mistyped address).
    public static let notAnAddress = ChipError(.notAnAddress)
    /// `empty-address`: `<>` holds nothing (or only a `mailto:` prefix or a route).
    public static let emptyAddress = ChipError(.emptyAddress)
    /// `missing-at`: one word without an `@`, as a mistyped address reads.
    public static let missingAt = ChipError(.missingAt)
    /// `multiple-at`: a second `@` outside quotes.
    public static let multipleAt = ChipError(.multipleAt)
    /// `empty-local-part`: nothing before the `@`.
    public static let emptyLocalPart = ChipError(.emptyLocalPart)
    /// `missing-domain`: nothing after the `@` (or after an `@` of an obsolete route).
    public static let missingDomain = ChipError(.missingDomain)
    /// `leading-dot`: the local part or the domain starts with a dot
    /// (`.ann@x.org`), under a policy that checks the grammar.
    public static let leadingDot = ChipError(.leadingDot)
    /// `trailing-dot`: the local part or the domain ends with a dot
    /// (`ann.@x.org`), under a policy that checks the grammar.
    public static let trailingDot = ChipError(.trailingDot)
    /// `consecutive-dots`: two dots with nothing between them in the local
    /// part or the domain (`ann..lee@x.org`), under a policy that checks the grammar.
    public static let consecutiveDots = ChipError(.consecutiveDots)
    /// `invalid-display-name`: the name is not an RFC 5322 phrase: it starts
    /// with a dot, holds an unquoted special character (`@`, `:`, a comma the
    /// policy does not allow), or ends with a comma; under a policy that
    /// checks the grammar.
    public static let invalidDisplayName = ChipError(.invalidDisplayName)
    /// `invalid-local-part`: two words of the local part stand side by side
    /// without a dot (`ann lee@x.org`), under a policy that checks the grammar.
    public static let invalidLocalPart = ChipError(.invalidLocalPart)
    /// `unnecessary-quotes`: the local part is one quoted string that would be
    /// valid unquoted (`"ann"@x.org`), under a policy that does not allow it (`strict`).
    public static let unnecessaryQuotes = ChipError(.unnecessaryQuotes)
    /// `comment-not-allowed`: a comment `(…)`, under a policy without comments (`strict`).
    public static let commentNotAllowed = ChipError(.commentNotAllowed)
    /// `obsolete-syntax`: RFC 5322 §4 syntax (a route, white space or comments
    /// inside the address, a dot in an unquoted name, quoted and unquoted words
    /// mixed, a line of white space only) under a policy that does not accept
    /// it; the others accept it with the warning of the same code.
    public static let obsoleteSyntax = ChipError(.obsoleteSyntax)
    /// `invalid-domain-literal`: a domain literal that holds no IPv4 or IPv6
    /// address, under a policy that requires a host name.
    public static let invalidDomainLiteral = ChipError(.invalidDomainLiteral)
    /// `invalid-domain-character`: a quoted string in the domain, or, under a
    /// policy that requires a host name, an ASCII byte other than a letter,
    /// digit or `-` in a label.
    public static let invalidDomainCharacter = ChipError(.invalidDomainCharacter)
    /// `invalid-domain-label`: a label starts or ends with `-`, under a policy
    /// that requires a host name.
    public static let invalidDomainLabel = ChipError(.invalidDomainLabel)
    /// `invalid-idn`: a label with non-ASCII text that has no A-label, or one
    /// with `--` in its third and fourth places that is no valid A-label, under
    /// a policy that requires a host name.
    public static let invalidInternationalDomain = ChipError(.invalidInternationalDomain)
    /// `domain-missing-dot`: the domain is one label (`ann@localhost`), under a
    /// policy that requires a dotted domain; the others warn with the same code.
    public static let domainMissingDot = ChipError(.domainMissingDot)
    /// `numeric-tld`: the last label is all digits (`ann@192.168.1.1`), under a
    /// policy that requires a dotted domain; the others warn with the same code.
    public static let numericTopLevelDomain = ChipError(.numericTopLevelDomain)
    /// `local-part-too-long`: the local part is over 64 bytes (RFC 5321), under
    /// a policy that enforces the length limits.
    public static let localPartTooLong = ChipError(.localPartTooLong)
    /// `domain-label-too-long`: a label is over 63 bytes in its ASCII form,
    /// under a policy that enforces the length limits.
    public static let domainLabelTooLong = ChipError(.domainLabelTooLong)
    /// `domain-too-long`: the domain is over 255 bytes in its ASCII form, under
    /// a policy that enforces the length limits.
    public static let domainTooLong = ChipError(.domainTooLong)
    /// `address-too-long`: `local@domain` is over 254 bytes, under a policy
    /// that enforces the length limits.
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
    /// The ``message``: an error's words name no value.
    public var englishTemplate: String { kind.message }
}

/// Things worth telling a person about a chip that is still sendable.
public struct ChipWarnings: OptionSet, Sendable, Hashable {
    /// The warnings as bits: the k-th of ``all`` is `1 << k`.
    public let rawValue: UInt32
    /// The set whose bits are `rawValue`; bits no warning has are kept, and have no code.
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
    ///
    /// - Complexity: O(*n*), where *n* is the number of warning kinds.
    public var codes: [String] {
        ChipWarnings.table.compactMap { contains($0.0) ? "\($0.1)" : nil }
    }

    /// Calls `body` with each code in ``codes`` order, without allocating.
    ///
    /// - Complexity: O(*k*), where *k* is the number of warnings in the set.
    public func forEachCode(_ body: (StaticString) -> Void) {
        forEachIndex { body(ChipWarnings.code(ofIndex: $0)) }
    }

    /// Calls `body` with the index (in ``all``) of each warning in the set.
    /// Each warning is the bit `1 << index`.
    ///
    /// - Complexity: O(*k*), where *k* is the number of warnings in the set.
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
    ///
    /// - Complexity: O(*n*), where *n* is the number of warning kinds.
    public static var all: [(warning: ChipWarnings, code: String)] {
        table.map { ($0.0, "\($0.1)") }
    }

    /// The warning with this code, if there is one.
    ///
    /// - Complexity: O(*n*), where *n* is the number of warning kinds.
    public init?(code: String) {
        guard let entry = ChipWarnings.table.first(where: { "\($0.1)" == code }) else { return nil }
        self = entry.0
    }
}
