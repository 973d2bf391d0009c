import ChipKit

/// Option values more than one command takes, read with one message each.
enum OptionValue {
    /// The most suggestions `--limit` (and replay's `"limit"`) asks for.
    static let maxSuggestionLimit = 10_000

    /// `--limit`: how many suggestions, 1 to ``maxSuggestionLimit``.
    static func suggestionLimit(_ v: String) throws(UsageError) -> Int {
        guard let k = Int(v), k >= 1, k <= maxSuggestionLimit else {
            throw UsageError(message: "bad limit '\(v)' (expected 1 to \(maxSuggestionLimit))")
        }
        return k
    }

    /// `--policy`: a preset's name.
    static func policy(_ v: String) throws(UsageError) -> ValidationPolicy {
        guard let p = ValidationPolicy(named: v) else {
            throw UsageError(message: "unknown policy '\(v)' (expected strict, standard or lenient)")
        }
        return p
    }

    /// `--duplicates`: what a field does with a repeated address.
    static func duplicates(_ v: String) throws(UsageError) -> DuplicatePolicy {
        guard let d = DuplicatePolicy(rawValue: v) else {
            throw UsageError(message: "unknown duplicate policy '\(v)' (expected allow, warn, reject or merge)")
        }
        return d
    }

    /// `--fields`: distinct names, none empty, of printable ASCII without
    /// `:` (each becomes a header name).
    static func fieldNames(_ v: String) throws(UsageError) -> [FieldID] {
        let names = v.split(separator: ",", omittingEmptySubsequences: false).map { FieldID(String($0)) }
        guard !names.isEmpty, names.allSatisfy({ $0 != nil }), Set(names).count == names.count
        else { throw UsageError(message: "bad field list '\(v)' (expected distinct names such as to,cc,bcc)") }
        return names.map { $0! }
    }
}
