/// A reason a host may show a person: why a chip is in error, why an
/// operation was refused, why a draft cannot go, why an address-book
/// record was skipped.
///
/// Each is a stable ``code`` plus the ``values`` its words name, never a
/// sentence alone, so a host words it in its own language: it keys its
/// translations by code and fills them with the values
/// (`ChipStrings.message(for:)` does both, falling back to English).
/// Reasons are structs over a private kind, as swift-nio's errors are: a
/// new reason is a new static member, which breaks no host's `switch`
/// (a `switch` over them needs a `default`), and codes never change
/// meaning. Codes are unique across every reason type of the package.
///
/// ```swift
/// let r = Refusal(.duplicate, text: "ann@x.org")
/// r.code            // "duplicate"
/// r.values          // ["text": "ann@x.org"]
/// r.message         // "already a recipient: ann@x.org"
/// ```
public protocol ChipReason: Sendable, Hashable, CustomStringConvertible {
    /// The stable code, in lower case words joined by `-`.
    var code: String { get }
    /// The values the words name, by placeholder: `"text"` for `{text}`.
    var values: [String: String] { get }
    /// The English words: a template whose `{placeholders}` name ``values``.
    var englishTemplate: String { get }
}

extension ChipReason {
    /// The English sentence, with the values filled in.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is the template's length and *m*
    ///   the length of the values.
    public var message: String { ReasonTemplate.fill(englishTemplate, values) }

    /// The code, then the values in key order: for logs and tests.
    ///
    /// - Complexity: O(*v* log *v* + *n*), where *v* is the number of values
    ///   and *n* the length of the text written.
    public var description: String {
        guard !values.isEmpty else { return code }
        return code + " (" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }
}

/// The code of a reason, as a value of its own type: a struct over a
/// private kind (see ``ChipReason``). Gives ``init(code:)``, the
/// description, and `Codable` as the code string, where a code no reason
/// has is a decoding error.
public protocol ReasonCode: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The stable code, in lower case words joined by `-`.
    var code: String { get }
    /// Every reason of the type.
    static var allReasons: [Self] { get }
}

extension ReasonCode {
    /// The reason with this code, if there is one.
    ///
    /// - Complexity: O(*n*), where *n* is the number of the type's reasons.
    public init?(code: String) {
        guard let found = Self.allReasons.first(where: { $0.code == code }) else { return nil }
        self = found
    }

    /// The code.
    public var description: String { code }

    /// Its code, as a string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(code)
    }

    /// A known code; any other is a decoding error.
    ///
    /// - Complexity: O(*n*), where *n* is the number of the type's reasons.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let code = try c.decode(String.self)
        guard let reason = Self(code: code) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "no \(Self.self) is called \(code)")
        }
        self = reason
    }
}

/// Templates with named `{placeholders}`.
public enum ReasonTemplate {
    /// `template` with each `{key}` replaced by its value, in one pass: a
    /// value is inserted once and never read for placeholders; an unknown
    /// placeholder is kept as written.
    ///
    /// - Complexity: O(*n* + *m*) in the template's and the values' lengths.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        fill(template) { values[String($0)] }
    }

    /// The same with the values given as a function of the key.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is the template's length and
    ///   *m* the length of the values inserted.
    public static func fill(_ template: String, _ value: (Substring) -> String?) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            out += rest[..<open]
            let key = rest[rest.index(after: open)..<close]
            if let v = value(key) {
                out += v
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    /// The placeholders a template names, in order.
    ///
    /// - Complexity: O(*n*), where *n* is the template's length.
    public static func placeholders(_ template: String) -> [String] {
        var keys: [String] = []
        _ = fill(template) { key in
            keys.append(String(key))
            return nil
        }
        return keys
    }
}
