// The vocabulary of the recognition tables: what a row expects of each
// chip its input gives. The recognition tests check the rows against
// `AddressList.parse`; the engine-wide tests (ChipKitTests) run every
// invariant of the engine on the same inputs.

import ChipRecognition

/// What a row expects of one text field of a chip.
public enum RFCText: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
    CustomStringConvertible
{
    /// Not checked by this row.
    case unchecked
    /// Must be nil.
    case absent
    /// Must equal this string.
    case equals(String)
    /// Must be present, contain every string of `contains` and none of `lacks`.
    case like(contains: [String], lacks: [String])

    public init(stringLiteral value: String) { self = .equals(value) }
    public init(nilLiteral: ()) { self = .absent }

    public func matches(_ actual: String?) -> Bool {
        switch self {
        case .unchecked: return true
        case .absent: return actual == nil
        case .equals(let s): return actual == s
        case .like(let contains, let lacks):
            guard let actual else { return false }
            return contains.allSatisfy { actual.contains($0) } && !lacks.contains { actual.contains($0) }
        }
    }

    public var description: String {
        switch self {
        case .unchecked: "(unchecked)"
        case .absent: "nil"
        case .equals(let s): s.debugDescription
        case .like(let c, let l): "containing \(c), lacking \(l)"
        }
    }
}

/// What a row expects of a chip's validity.
public enum RFCOutcome: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// `error == nil`.
    case valid
    /// Invalid with exactly this error code.
    case error(String)
    /// Invalid with one of these codes (the RFC is broken in more than one way
    /// and which one is reported first is not the RFC's business).
    case oneOf([String])
    /// Invalid, whatever the code.
    case invalid

    public init(stringLiteral value: String) { self = .error(value) }

    public var expectsValid: Bool { self == .valid }

    /// The error codes this outcome names.
    public var codes: [String] {
        switch self {
        case .valid, .invalid: []
        case .error(let c): [c]
        case .oneOf(let cs): cs
        }
    }

    public var description: String {
        switch self {
        case .valid: "valid"
        case .error(let c): c
        case .oneOf(let cs): "one of \(cs)"
        case .invalid: "invalid"
        }
    }
}

/// What a row expects of one chip.
public struct RFCChip: Sendable {
    public var outcome: RFCOutcome
    public var kind: ListItem.Kind = .mailbox
    public var name: RFCText = .unchecked
    public var address: RFCText = .unchecked
    public var group: RFCText = .unchecked
    public var domain: RFCText = .unchecked
    /// Warning codes the chip must carry (others may be present too).
    public var warnings: [String] = []
}

/// One row of a table: an input, a policy, and the chips it must give.
public struct RFCRow: Sendable, CustomStringConvertible {
    /// Where in which RFC the expectation comes from.
    public var ref: String
    public var bytes: [UInt8]
    public var label: String
    public var policy: ValidationPolicy
    public var chips: [RFCChip]

    public var description: String {
        let shown = label.count > 90 ? String(label.prefix(60)) + "…(\(bytes.count) bytes)" : label
        return "[\(ref)] \(policy.name): \(shown)"
    }
}

/// A row for an input that is one chip.
public func rfc(
    _ ref: String, _ input: String, _ policy: ValidationPolicy, _ outcome: RFCOutcome,
    name: RFCText = .unchecked, address: RFCText = .unchecked, group: RFCText = .unchecked,
    domain: RFCText = .unchecked, kind: ListItem.Kind = .mailbox, warn: [String] = []
) -> RFCRow {
    RFCRow(
        ref: ref, bytes: Array(input.utf8), label: input.debugDescription, policy: policy,
        chips: [RFCChip(outcome: outcome, kind: kind, name: name, address: address, group: group,
                        domain: domain, warnings: warn)])
}

/// A row for raw bytes (for instance invalid UTF-8) that are one chip.
public func rfc(
    _ ref: String, bytes: [UInt8], _ policy: ValidationPolicy, _ outcome: RFCOutcome,
    address: RFCText = .unchecked
) -> RFCRow {
    let label = bytes.map { $0 < 0x20 || $0 >= 0x7F ? "\\x" + String($0, radix: 16) : String(UnicodeScalar($0)) }
        .joined()
    return RFCRow(
        ref: ref, bytes: bytes, label: label, policy: policy,
        chips: [RFCChip(outcome: outcome, address: address)])
}

/// A row for a whole address list.
public func rfcList(_ ref: String, _ input: String, _ policy: ValidationPolicy, _ chips: [RFCChip]) -> RFCRow {
    RFCRow(ref: ref, bytes: Array(input.utf8), label: input.debugDescription, policy: policy, chips: chips)
}

/// Short forms for list rows.
public func member(
    _ name: RFCText, _ address: RFCText, group: RFCText = nil, _ outcome: RFCOutcome = .valid,
    warn: [String] = []
) -> RFCChip {
    RFCChip(outcome: outcome, name: name, address: address, group: group, warnings: warn)
}

public func emptyGroup(_ name: String, _ outcome: RFCOutcome = .valid) -> RFCChip {
    RFCChip(outcome: outcome, kind: .emptyGroup, address: nil, group: .equals(name))
}

public func rfcRepeat(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

/// Every row of every recognition table, for the checks that run on all
/// of them (the engine's invariants, in ChipKitTests).
public enum RecognitionTables {
    public static let allRows: [RFCRow] =
        RFC5322Tables.all + RFC5322AppendixA.lists + RFC5322Disputed.rows
        + RFC5321Tables.all + RFC5321Disputed.rows
        + RFC2047Tables.all + RFC2047Disputed.rows
        + RecognitionFixTables.rows
        + PastedListTables.outlook + PastedListTables.links + PastedListTables.doubledPrefix
        + PastedListTables.fullWidth
}
