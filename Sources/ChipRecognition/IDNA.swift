import ChipSyntax

/// Internationalized domain names: the ASCII form (A-labels, `xn--…`) used
/// to send and to measure lengths, and the Unicode form shown to people.
///
/// Follows IDNA2008 (RFC 5891/5892) in what matters to a compose field:
/// labels are lower-cased (the mapping of UTS #46), must be letters, marks,
/// digits or hyphens that NFKC_Casefold leaves as they are (no `ﬁ`, `ſ`
/// or presentation forms: "Unstable", but ß and ς), must not start with a
/// combining mark or start or end with a hyphen, and an ASCII label with
/// `--` in its third and fourth places must be a valid A-label. Not checked: NFC normalization (the
/// standard library has no normalizer), the Bidi rule and the contextual
/// rules for joiners.
public enum IDNA {
    /// Why a domain cannot be converted.
    public enum Failure: Error, Sendable, Hashable {
        /// A label with nothing in it (`a..org`, or a dot at either end).
        case emptyLabel
        /// A label that starts or ends with `-`.
        case hyphenAtEdge
        /// `--` in the third and fourth places of a label that is not a valid A-label.
        case reservedHyphens
        /// An `xn--` label that is not valid Punycode, or that decodes to
        /// something that should not have been encoded.
        case invalidALabel
        /// A character IDNA does not allow (symbols, punctuation, spaces…).
        case disallowedCharacter(Unicode.Scalar)
        /// A label whose first character is a combining mark.
        case startsWithCombiningMark
        /// A label whose A-label is over 63 bytes.
        case labelTooLong
    }

    /// Whether a domain is ASCII with no A-label, so that its ASCII form is
    /// itself lower-cased and its Unicode form itself.
    static func isPlainASCII<Bytes: Sequence<UInt8>>(_ domain: Bytes) -> Bool {
        var previous: UInt8 = UInt8(ascii: ".")
        var utf8 = domain.makeIterator()
        var window: UInt32 = 0
        var atLabelStart = true
        while let b = utf8.next() {
            if b >= 0x80 { return false }
            window = window << 8 | UInt32(ByteClass.lowercased(b))
            if atLabelStart && previous == UInt8(ascii: ".") { window = UInt32(ByteClass.lowercased(b)) }
            atLabelStart = b == UInt8(ascii: ".")
            if window == 0x786E_2D2D { return false }  // "xn--" at a label start
            previous = b
        }
        return true
    }

    /// The ASCII form of a domain: each non-ASCII label as `xn--` +
    /// Punycode, ASCII lower-cased.
    ///
    /// - Complexity: O(*n* + *l*²), where *n* is the domain's length and *l*
    ///   that of its longest non-ASCII label: Punycode is quadratic in a
    ///   label, and the 63-byte limit is checked on the label encoded.
    public static func toASCII(_ domain: String) throws(Failure) -> String {
        if let lower = plainLDHDomain(domain) { return lower }
        return try toASCIIByLabels(domain)
    }

    /// The ASCII form of a domain of letters, digits and hyphens whose
    /// labels need no checks beyond their bytes (1 to 63 bytes, no hyphen
    /// at either end, none at the third and fourth byte: no A-label): the
    /// domain lower-cased, what ``toASCII(_:)`` gives it, read on its
    /// bytes. Nil for any other domain, which ``toASCIIByLabels(_:)``
    /// reads (and may refuse).
    ///
    /// - Complexity: O(*n*) in the domain's length.
    static func plainLDHDomain(_ domain: String) -> String? {
        var domain = domain
        return domain.withUTF8 { p -> String? in
            var out = [UInt8](repeating: 0, count: p.count)
            var start = 0
            for i in 0...p.count {
                let b = i < p.count ? p[i] : UInt8(ascii: ".")
                if b == UInt8(ascii: ".") {
                    let n = i - start
                    guard n >= 1, n <= SMTPLimits.maxLabelBytes, p[start] != ASCII.hyphen, p[i - 1] != ASCII.hyphen,
                          n < 4 || p[start + 2] != ASCII.hyphen || p[start + 3] != ASCII.hyphen else { return nil }
                    if i < p.count { out[i] = b }
                    start = i + 1
                } else {
                    guard ByteClass.isLetterOrDigit(b) || b == ASCII.hyphen else { return nil }
                    out[i] = ByteClass.lowercased(b)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// ``toASCII(_:)`` label by label: any domain.
    static func toASCIIByLabels(_ domain: String) throws(Failure) -> String {
        var labels: [String] = []
        for label in mapWidth(domain).split(separator: ".", omittingEmptySubsequences: false) {
            let a = try asciiLabel(String(label))
            guard a.utf8.count <= SMTPLimits.maxLabelBytes else { throw .labelTooLong }
            labels.append(a)
        }
        return labels.joined(separator: ".")
    }

    /// The Unicode form of a domain: each valid A-label decoded.
    ///
    /// - Complexity: O(*n* + *l*²), where *n* is the domain's length and *l*
    ///   that of its longest A-label (Punycode is quadratic in a label).
    public static func toUnicode(_ domain: String) throws(Failure) -> String {
        var labels: [String] = []
        for label in mapWidth(domain).split(separator: ".", omittingEmptySubsequences: false) {
            let lower = label.lowercased()
            if lower.hasPrefix("xn--") {
                labels.append(try decodeALabel(String(lower)))
            } else {
                labels.append(String(label))
            }
        }
        return labels.joined(separator: ".")
    }

    /// The width mapping of UTS #46 §4 for what input methods type: the
    /// full-width ASCII forms (U+FF01–U+FF5E) as ASCII, and the ideographic
    /// and full-width full stops (U+3002, U+FF0E, U+FF61) as `.`, the label
    /// separators of IDNA2008 (RFC 5890 §2.3.2.3 via UTS #46).
    ///
    /// - Complexity: O(*n*) in the text; ASCII text is returned as it is.
    static func mapWidth(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0xE3 }) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0xFF01...0xFF5E: out.append(Unicode.Scalar(s.value - 0xFEE0)!)
            case 0x3002, 0xFF0E, 0xFF61: out.append(".")
            default: out.append(s)
            }
        }
        return String(out)
    }

    static func asciiLabel(_ label: String) throws(Failure) -> String {
        guard !label.isEmpty else { throw .emptyLabel }
        let lower = mapWidth(label).lowercased()
        if lower.unicodeScalars.allSatisfy(\.isASCII) {
            try checkHyphens(lower)
            for s in lower.unicodeScalars where !(ByteClass.isLetterOrDigit(UInt8(s.value)) || s == "-") {
                throw .disallowedCharacter(s)
            }
            if lower.count >= 4 && Array(lower.utf8)[2...3] == [ASCII.hyphen, ASCII.hyphen] {
                guard lower.hasPrefix("xn--") else { throw .reservedHyphens }
                _ = try decodeALabel(lower)
            }
            return lower
        }
        try checkUnicodeLabel(lower)
        guard let code = Punycode.encode(lower.unicodeScalars.map(\.value)) else { throw .invalidALabel }
        return "xn--" + String(decoding: code, as: UTF8.self)
    }

    /// Decodes an A-label and checks that it is what encoding would give.
    static func decodeALabel(_ label: String) throws(Failure) -> String {
        let code = Array(label.utf8.dropFirst(4))
        guard !code.isEmpty, let scalars = Punycode.decode(code), !scalars.isEmpty else { throw .invalidALabel }
        var u = ""
        for v in scalars {
            guard let s = Unicode.Scalar(v) else { throw .invalidALabel }
            u.unicodeScalars.append(s)
        }
        // An A-label must stand for a non-ASCII U-label that is itself valid.
        guard !u.unicodeScalars.allSatisfy(\.isASCII), u == u.lowercased() else { throw .invalidALabel }
        try checkUnicodeLabel(u)
        guard let again = Punycode.encode(scalars), again == code.map(ByteClass.lowercased) else { throw .invalidALabel }
        return u
    }

    static func checkHyphens(_ label: String) throws(Failure) {
        if label.hasPrefix("-") || label.hasSuffix("-") { throw .hyphenAtEdge }
    }

    /// A letter, digit or mark that NFKC_Casefold changes: a ligature
    /// (`ﬁ`), the long s, a presentation or compatibility form, a
    /// mathematical digit. IDNA2008 disallows them (RFC 5892 §2.3,
    /// "Unstable"), but ß and ς (§2.6); UTS #46 would map them, as it maps
    /// `㎏` and `ℌ`, which this engine also refuses: a domain holding one
    /// is an error the person sees, never an A-label of a domain that
    /// cannot exist. Read from the generated tables (the standard library
    /// has no normalizer).
    static func isUnstable(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x80 && idnaTables.info(s.value) & IDNATables.unstableBit != 0
    }

    /// Letters, marks, digits and hyphens only; no combining mark first.
    static func checkUnicodeLabel(_ label: String) throws(Failure) {
        try checkHyphens(label)
        var first = true
        for s in label.unicodeScalars {
            let category = s.properties.generalCategory
            switch category {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                if first { throw .startsWithCombiningMark }
                if isUnstable(s) { throw .disallowedCharacter(s) }
            case .lowercaseLetter, .otherLetter, .modifierLetter, .decimalNumber:
                if isUnstable(s) { throw .disallowedCharacter(s) }
            default:
                if s != "-" { throw .disallowedCharacter(s) }
            }
            first = false
        }
    }
}
