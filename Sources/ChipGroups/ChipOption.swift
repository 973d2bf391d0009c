/// The stable identity of an option in a ``ChipGroup``, chosen by the host
/// (a product code, a filter key): it survives reordering, relabelling and
/// replacing the options, so a selection can be kept across them.
public struct ChipOptionID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The host's identity text, compared as Swift strings compare (canonically
    /// equivalent texts are the same identity; no case folding).
    public var rawValue: String

    /// An identity from the host's text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// An identity written as a literal: `"large"`.
    public init(stringLiteral value: String) { rawValue = value }

    /// The host's identity text.
    public var description: String { rawValue }
    /// Orders identities as their texts compare, for a stable order in
    /// sets and logs; display order is the group's.
    ///
    /// - Complexity: O(*n*), where *n* is the length of the shorter identity.
    public static func < (a: ChipOptionID, b: ChipOptionID) -> Bool { a.rawValue < b.rawValue }

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

/// How far an action chip's action has come, as the host reports it: the
/// model never starts or finishes an action by itself.
public enum ActionProgress: String, Sendable, Hashable, Codable {
    /// Not running: a tap triggers the action.
    case idle
    /// Running: taps are refused (``GroupRefusal/Reason/actionInProgress``),
    /// so a double tap does not start it twice.
    case inProgress = "in-progress"
    /// Finished, showing its confirmation; a tap triggers it again.
    case done
}

/// The four states of an action chip (Material: "trigger an action or show
/// progress and confirmation"), as one value for hosts that draw them.
/// Stored as ``ChipOption/isDisabled`` plus ``ActionProgress``, so
/// "disabled" means the same for every kind of chip.
public enum ActionChipState: String, Sendable, Hashable, Codable, CaseIterable {
    /// `enabled`: a tap triggers the action; `disabled`: taps are refused
    /// (``ChipOption/isDisabled``).
    case enabled, disabled
    /// The action is running: taps are refused.
    case inProgress = "in-progress"
    /// The action finished, showing its confirmation.
    case done
}

/// The accessibility role of a chip: what a screen reader announces.
public enum ChipRole: String, Sendable, Hashable, Codable {
    /// A choice chip in a single-selection group: one of a set, like a radio button.
    case radio
    /// A chip in a multi-selection group: a toggle, like a checkbox.
    case checkbox
    /// An action chip: it is pressed, never selected.
    case button
}

/// One option of a ``ChipGroup``: what it shows and how it takes taps.
///
/// `Value` is the host's own value for the option (a model object, an
/// enum case), carried untouched.
public struct ChipOption<Value: Hashable & Sendable>: Sendable, Hashable {
    /// The option's identity, unique in its group.
    public var id: ChipOptionID
    /// The chip's text.
    public var label: String
    /// Optional supporting text shown with the option.
    public var description: String?
    /// The host's value for this option.
    public var value: Value?
    /// Shown, but taps are refused (``GroupRefusal/Reason/disabled``);
    /// programmatic `check` and `uncheck` still apply.
    public var isDisabled: Bool
    /// False for an action chip: it is never selected, a tap triggers it.
    public var isCheckable: Bool
    /// Choosing it clears every other option, and choosing any other clears
    /// it (a "None" or "Any" option). Only matters in multi-selection mode.
    public var isExclusive: Bool
    /// For an action chip, how far its action has come.
    public var progress: ActionProgress

    /// A checkable option (choice or filter chip) unless `isCheckable` is false.
    public init(
        id: ChipOptionID, label: String, description: String? = nil, value: Value? = nil,
        isDisabled: Bool = false, isCheckable: Bool = true, isExclusive: Bool = false,
        progress: ActionProgress = .idle
    ) {
        self.id = id
        self.label = label
        self.description = description
        self.value = value
        self.isDisabled = isDisabled
        self.isCheckable = isCheckable
        self.isExclusive = isExclusive
        self.progress = progress
    }

    /// An action chip (never selected).
    public static func action(id: ChipOptionID, label: String, value: Value? = nil) -> ChipOption {
        ChipOption(id: id, label: label, value: value, isCheckable: false)
    }

    /// The action chip's state, or nil for a checkable option.
    public var actionState: ActionChipState? {
        guard !isCheckable else { return nil }
        if isDisabled { return .disabled }
        switch progress {
        case .idle: return .enabled
        case .inProgress: return .inProgress
        case .done: return .done
        }
    }

    /// Whether the label (or identity) says "None": such an option in a
    /// multi-selection group should be exclusive (see
    /// ``GroupWarning/noneNotExclusive(_:)``). ASCII case and surrounding
    /// white space are ignored; a host that localizes "None" marks the
    /// option exclusive anyway, which silences the warning.
    var looksLikeNone: Bool {
        func isNone(_ s: String) -> Bool {
            let bytes = Array(s.utf8).drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = bytes.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            return trimmed.count == 4 && zip(trimmed, "none".utf8).allSatisfy { $0 | 0x20 == $1 }
        }
        return isNone(label) || isNone(id.rawValue)
    }
}

extension ChipOption: Codable where Value: Codable {}
