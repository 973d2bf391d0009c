import ChipSyntax

/// How demanding recognition is: a value, so one policy can be passed
/// around, stored and compared rather than flags scattered through code.
///
/// Three presets cover what hosts need; each rule can also be set alone.
/// Whatever the policy, text that cannot be sent at all is an error:
/// invalid UTF-8, control characters, unterminated quotes, comments,
/// brackets or domain literals, a missing `@`, or nothing on either side of it.
public struct ValidationPolicy: Sendable, Hashable {
    /// The preset's name (`strict`, `standard`, `lenient`, or `custom`).
    public var name: String
    /// Accept RFC 5322 §4 obsolete forms (routes, white space around dots,
    /// dots in unquoted names). When false they are errors.
    public var allowsObsoleteSyntax: Bool
    /// Accept comments `( … )`. When false they are errors.
    public var allowsComments: Bool
    /// Accept a quoted local part whose content would be valid unquoted.
    public var allowsUnnecessaryQuotes: Bool
    /// Accept `Ann Lee ann@x.org` as if written `Ann Lee <ann@x.org>`.
    public var allowsMissingAngleBrackets: Bool
    /// Check the local part, domain and display name against the RFC 5322
    /// grammar. When false, any text without a lexical error is accepted on
    /// each side of the one `@`.
    public var checksGrammar: Bool
    /// Require the domain to be a host name: LDH labels (RFC 5321 §4.1.2,
    /// RFC 1123) or UTF-8 labels (RFC 6531) without a hyphen at either end;
    /// domain literals must hold an IPv4 or IPv6 address.
    public var requiresHostName: Bool
    /// Require at least one dot in the domain and a top-level label that is
    /// not all digits (RFC 3696 §2). When false, a domain without a dot or
    /// with a numeric top-level label gets a warning instead.
    public var requiresDottedDomain: Bool
    /// Enforce RFC 5321 §4.5.3.1 limits: local part ≤ 64 octets, domain ≤
    /// 255, label ≤ 63, address ≤ 254.
    public var enforcesLengthLimits: Bool
    /// A chip longer than this many bytes is a `too-long` error without
    /// further parsing. Bounds the work and memory spent on one chip.
    public var maxChipBytes: Int
    /// Add the look-alike warnings (`display-name-spoof`, `mixed-script`,
    /// `likely-typo`) to valid chips.
    public var checksLookalikes = true
    /// Whether two addresses are the same recipient only when their local
    /// parts are equal to the letter (RFC 5321 §2.4 lets a server tell
    /// `Ann` from `ann`). Off by default: the big providers, and people,
    /// treat `ANN@x.org` and `ann@x.org` as one mailbox, so duplicates
    /// compare local parts without ASCII case. Domains never have case.
    public var comparesLocalPartsExactly = false
    /// Accept an unquoted comma between the words of a name, as Outlook
    /// writes `Lee, Ann <ann@x.org>` (with the warning `unquoted-comma`).
    /// When false it is an `invalid-display-name` error. The list scanner
    /// makes such a chip only in a list that uses `;` between mailboxes.
    public var allowsUnquotedCommaInName = true
    /// The domains `likely-typo` compares with; replace it with the
    /// domains your users write to.
    public var commonDomains: [String] = ValidationPolicy.defaultCommonDomains


    /// The rules the grammar reads, without the policy's name and domain
    /// list: the parser keeps this plain copy, so no reference is retained
    /// and released for each chip.
    package var grammarRules: GrammarRules {
        GrammarRules(
            allowsObsoleteSyntax: allowsObsoleteSyntax, allowsComments: allowsComments,
            allowsUnnecessaryQuotes: allowsUnnecessaryQuotes, allowsMissingAngleBrackets: allowsMissingAngleBrackets,
            checksGrammar: checksGrammar, requiresHostName: requiresHostName, requiresDottedDomain: requiresDottedDomain,
            enforcesLengthLimits: enforcesLengthLimits, allowsUnquotedCommaInName: allowsUnquotedCommaInName)
    }

    /// What a careful sender accepts: RFC 5322 without obsolete syntax or
    /// comments, quotes in the local part only when needed, a dotted host
    /// name, and the RFC 5321 limits.
    public static let strict: ValidationPolicy = {
        var p = ValidationPolicy(
            name: "strict", allowsObsoleteSyntax: false, allowsComments: false,
            allowsUnnecessaryQuotes: false, allowsMissingAngleBrackets: false,
            checksGrammar: true, requiresHostName: true, requiresDottedDomain: true,
            enforcesLengthLimits: true, maxChipBytes: 65_536)
        p.allowsUnquotedCommaInName = false
        return p
    }()

    /// The default: what a compose field should accept. RFC 5322 including
    /// the obsolete forms real headers carry (with a warning), comments,
    /// RFC 6531/6532 UTF-8, a host name (a single label such as `localhost`
    /// or a numeric top-level label is accepted with a warning), the RFC 5321
    /// limits, and a name typed before a bare address.
    public static let standard = ValidationPolicy(
        name: "standard", allowsObsoleteSyntax: true, allowsComments: true,
        allowsUnnecessaryQuotes: true, allowsMissingAngleBrackets: true,
        checksGrammar: true, requiresHostName: true, requiresDottedDomain: false,
        enforcesLengthLimits: true, maxChipBytes: 65_536)

    /// Anything with one `@` and text on both sides that has no lexical error.
    public static let lenient = ValidationPolicy(
        name: "lenient", allowsObsoleteSyntax: true, allowsComments: true,
        allowsUnnecessaryQuotes: true, allowsMissingAngleBrackets: true,
        checksGrammar: false, requiresHostName: false, requiresDottedDomain: false,
        enforcesLengthLimits: false, maxChipBytes: 65_536)

    /// A `custom` policy with each rule given; the look-alike checks, unquoted
    /// commas in names, case-blind local parts and the default common domains
    /// are as in ``standard`` until set.
    public init(
        name: String = "custom", allowsObsoleteSyntax: Bool, allowsComments: Bool,
        allowsUnnecessaryQuotes: Bool, allowsMissingAngleBrackets: Bool,
        checksGrammar: Bool, requiresHostName: Bool, requiresDottedDomain: Bool,
        enforcesLengthLimits: Bool, maxChipBytes: Int
    ) {
        self.name = name
        self.allowsObsoleteSyntax = allowsObsoleteSyntax
        self.allowsComments = allowsComments
        self.allowsUnnecessaryQuotes = allowsUnnecessaryQuotes
        self.allowsMissingAngleBrackets = allowsMissingAngleBrackets
        self.checksGrammar = checksGrammar
        self.requiresHostName = requiresHostName
        self.requiresDottedDomain = requiresDottedDomain
        self.enforcesLengthLimits = enforcesLengthLimits
        self.maxChipBytes = maxChipBytes
    }

    /// The preset with this name.
    public init?(named name: String) {
        switch name {
        case "strict": self = .strict
        case "standard": self = .standard
        case "lenient": self = .lenient
        default: return nil
        }
    }
}

/// The grammar's rules of a ``ValidationPolicy``: plain flags, meant
/// to be copied freely (see ``ValidationPolicy/grammarRules``).
package struct GrammarRules: Sendable {
    package var allowsObsoleteSyntax: Bool
    package var allowsComments: Bool
    package var allowsUnnecessaryQuotes: Bool
    package var allowsMissingAngleBrackets: Bool
    package var checksGrammar: Bool
    package var requiresHostName: Bool
    package var requiresDottedDomain: Bool
    package var enforcesLengthLimits: Bool
    package var allowsUnquotedCommaInName: Bool
}
