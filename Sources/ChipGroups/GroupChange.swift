import ChipSyntax

/// The one notification an operation on a ``ChipGroup`` returns: what it
/// did, in order, and the state after it. A user's tap and a programmatic
/// change report alike, so a host has one place to react.
public struct GroupChange: Sendable, Hashable {
    /// What happened, in the order it happened (unchecks before the check
    /// that caused them).
    public var edits: [GroupEdit]
    /// Whether the group's state changed. False for a refusal, a request
    /// of a controlled group, an action chip's trigger, or an operation
    /// that found nothing to do.
    public var changed: Bool
    /// The selected options after the operation, in display order.
    public var selectedIDs: [ChipOptionID]
    /// In single-selection mode, the selected option after the operation;
    /// nil when none is, and always nil in multi-selection mode.
    public var selectedID: ChipOptionID?

    /// A change as a group reports it (hosts and tests may build their own to compare).
    public init(edits: [GroupEdit], changed: Bool, selectedIDs: [ChipOptionID], selectedID: ChipOptionID?) {
        self.edits = edits
        self.changed = changed
        self.selectedIDs = selectedIDs
        self.selectedID = selectedID
    }

    /// The refusal, when the operation (or part of it) was refused.
    ///
    /// - Complexity: O(*e*), where *e* is the number of edits.
    public var refusal: GroupRefusal? {
        for case .refused(let r) in edits { return r }
        return nil
    }

    /// The request a tap on a controlled group emitted.
    ///
    /// - Complexity: O(*e*), where *e* is the number of edits.
    public var request: GroupRequest? {
        for case .requested(let r) in edits { return r }
        return nil
    }
}

/// One thing an operation did to a group.
public enum GroupEdit: Sendable, Hashable {
    /// The option became selected.
    case checked(ChipOptionID)
    /// The option stopped being selected.
    case unchecked(ChipOptionID)
    /// An option was added at this display index.
    case inserted(ChipOptionID, at: Int)
    /// The option at this display index was removed.
    case removed(ChipOptionID, at: Int)
    /// The option's state changed (disabled, action progress).
    case updated(ChipOptionID)
    /// The whole list of options was replaced (filter chips).
    case optionsReplaced
    /// The selection mode changed (and with it the selection was cleared).
    case modeChanged(single: Bool)
    /// Another setting of the group changed.
    case settingChanged(GroupSetting)
    /// The overflow entry was toggled.
    case overflowToggled(expanded: Bool)
    /// An action chip was tapped: the host runs its action.
    case actionTriggered(ChipOptionID)
    /// A controlled group's tap: nothing changed; the owner decides.
    case requested(GroupRequest)
    /// Something asked for was not done, and why.
    case refused(GroupRefusal)
}

/// The settings a ``GroupEdit/settingChanged(_:)`` names.
public enum GroupSetting: String, Sendable, Hashable, Codable {
    /// ``GroupConfiguration/isSelectionRequired``, ``GroupConfiguration/isReadOnly``,
    /// ``GroupConfiguration/isControlled``, ``GroupConfiguration/maxSelected`` and
    /// ``GroupConfiguration/maxVisible``, by the code a change reports.
    case required, readOnly = "read-only", controlled, maxSelected = "max-selected", maxVisible = "max-visible"
}

/// What a tap on a controlled group asks for: the option tapped and the
/// selection the tap would give. The owner applies it with
/// ``ChipGroup/apply(_:)`` (or sets a selection of its own choosing).
public struct GroupRequest: Sendable, Hashable {
    /// The option tapped.
    public var id: ChipOptionID
    /// The selection the tap would give, in display order at the time of the tap.
    public var proposedIDs: [ChipOptionID]

    /// A request for the tap on `id`, proposing `proposedIDs`.
    public init(id: ChipOptionID, proposedIDs: [ChipOptionID]) {
        self.id = id
        self.proposedIDs = proposedIDs
    }
}

/// Why a tap or an operation was not done: a stable code and the option
/// concerned, for the host to word (see ``ChipReason``).
public struct GroupRefusal: ChipReason {
    /// Why, as a stable code. A struct, not an enum: a reason added later
    /// breaks no host's `switch`.
    public struct Reason: ReasonCode {
        enum Kind: String, Sendable, CaseIterable {
            case disabled
            case readOnly = "read-only"
            case selectionRequired = "selection-required"
            case maxSelected = "max-selected"
            case notCheckable = "not-checkable"
            case actionInProgress = "action-in-progress"
            case unknownOption = "unknown-option"
            case duplicateID = "duplicate-id"

            var englishTemplate: String {
                switch self {
                case .disabled: "{option} is disabled"
                case .readOnly: "the group is read only"
                case .selectionRequired: "one option must stay selected"
                case .maxSelected: "no more options can be selected"
                case .notCheckable: "{option} is an action, not a choice"
                case .actionInProgress: "{option} is still running"
                case .unknownOption: "no option {option}"
                case .duplicateID: "there is already an option {option}"
                }
            }
        }

        let kind: Kind
        init(_ kind: Kind) { self.kind = kind }

        /// The stable code, e.g. `selection-required`.
        public var code: String { kind.rawValue }
        /// Every reason.
        ///
        /// - Complexity: O(*n*), where *n* is the number of reasons.
        public static var allReasons: [Reason] { Kind.allCases.map(Reason.init) }

        /// The option is disabled (taps only).
        public static let disabled = Reason(.disabled)
        /// The group is read-only (taps only).
        public static let readOnly = Reason(.readOnly)
        /// The group requires a selection and this is its last selected option.
        public static let selectionRequired = Reason(.selectionRequired)
        /// The multi-selection group holds its maximum.
        public static let maxSelected = Reason(.maxSelected)
        /// An action chip cannot be selected.
        public static let notCheckable = Reason(.notCheckable)
        /// The action chip's action is running.
        public static let actionInProgress = Reason(.actionInProgress)
        /// No option has this identity.
        public static let unknownOption = Reason(.unknownOption)
        /// An option with this identity is already in the group.
        public static let duplicateID = Reason(.duplicateID)

    }

    /// Why it was refused.
    public var reason: Reason
    /// The option concerned.
    public var id: ChipOptionID?

    /// A refusal for `reason`, about the option `id`.
    public init(_ reason: Reason, id: ChipOptionID? = nil) {
        self.reason = reason
        self.id = id
    }

    /// The reason's code.
    public var code: String { reason.code }
    /// `option`: the option's identity (a host words it with its label).
    public var values: [String: String] { ["option": id?.rawValue ?? ""] }
    /// The reason's English words, whose placeholders ``values`` fill.
    public var englishTemplate: String { reason.kind.englishTemplate }
    /// `code: id`, for logs.
    public var description: String { id.map { "\(reason.code): \($0)" } ?? reason.code }
}

/// A configuration the guidelines advise against, reported, not refused.
public enum GroupWarning: Sendable, Hashable {
    /// A "None" option in a multi-selection group that is not exclusive:
    /// users could select "None" along with other options.
    case noneNotExclusive(ChipOptionID)
    /// More options are selected than ``GroupConfiguration/maxSelected``
    /// allows (the maximum was lowered, or a snapshot said so): nothing is
    /// deselected by itself; taps that would add are refused until the
    /// selection is under the maximum.
    case selectionAboveMaximum(count: Int, maximum: Int)
    /// A maximum is set on a single-selection group, where it means nothing.
    case maxSelectedInSingleMode
    /// A group of choice chips with a single checkable option (Material:
    /// choice and filter chips should not present only one option).
    case singleOption
}
