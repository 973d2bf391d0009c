import ChipSyntax
import ChipRecognition

/// One change an operation made to a field, in an order a UI can apply one
/// by one: indexes are those at the moment of the change.
public enum FieldChange: Sendable, Hashable {
    /// A chip appeared at this index.
    case inserted(ChipID, at: Int)
    /// The chip at this index went away (deleted, turned back into text for
    /// editing, or moved to another field).
    case removed(ChipID, at: Int)
    /// The chip at this index changed (content, state or warnings).
    case updated(ChipID, at: Int)
    /// The chip moved within the field.
    case moved(ChipID, from: Int, to: Int)
    /// The text being typed (or the marked text of an input method) changed.
    case pendingChanged
    /// The set of selected chips changed.
    case selectionChanged
    /// The caret moved (a new insertion index or offset in the pending
    /// text), or the selection in the pending text changed.
    case caretMoved
    /// Something asked for was not done, and why.
    case refused(Refusal)
    /// A question for the host's remote directory: send it, and answer
    /// with ``Composer/applyLookup(_:contacts:)`` (a chip's name) or
    /// ``Composer/applySuggestionLookup(_:contacts:)`` (the text being
    /// typed). Reported once, in the changes of the operation that asked.
    case lookupRequested(LookupRequest)
    /// A question asked before is taken back (its chip was deleted or
    /// edited, or the text it asked about changed): the host may cancel
    /// it; its answer would change nothing.
    case lookupCancelled(UInt64)
}

/// Why an operation, or part of one, was not done: a stable code, and the
/// text concerned when there is one (see ``ChipReason``).
public struct Refusal: ChipReason {
    /// Why, as a stable code. A struct, not an enum: a reason added later
    /// breaks no host's `switch`.
    public struct Reason: ReasonCode {
        enum Kind: String, Sendable, CaseIterable {
            case tooManyChips = "too-many-chips"
            case pendingTooLong = "pending-too-long"
            case chipCommitted = "chip-committed"
            case noSuchChip = "no-such-chip"
            case noSuchField = "no-such-field"
            case invalidTextRange = "invalid-text-range"
            case duplicate
            case mergedDuplicate = "merged-duplicate"
            case noSuchContact = "no-such-contact"
            case notAList = "not-a-list"
            case nothingToChoose = "nothing-to-choose"

            var englishTemplate: String {
                switch self {
                case .tooManyChips: "the field is full"
                case .pendingTooLong: "the text is too long"
                case .chipCommitted: "a sent chip cannot change"
                case .noSuchChip: "no chip there"
                case .noSuchField: "no such field"
                case .invalidTextRange: "no such place in the text"
                case .duplicate: "already a recipient: {text}"
                case .mergedDuplicate: "already a recipient, merged: {text}"
                case .noSuchContact: "that contact is gone"
                case .notAList: "not a list"
                case .nothingToChoose: "nothing to add from that contact"
                }
            }
        }

        let kind: Kind
        init(_ kind: Kind) { self.kind = kind }

        /// The stable code, e.g. `too-many-chips`.
        public var code: String { kind.rawValue }
        /// Every reason.
        ///
        /// - Complexity: O(*n*), where *n* is the number of reasons.
        public static var allReasons: [Reason] { Kind.allCases.map(Reason.init) }

        /// The field holds its maximum number of chips.
        public static let tooManyChips = Reason(.tooManyChips)
        /// The pending text would exceed its maximum size.
        public static let pendingTooLong = Reason(.pendingTooLong)
        /// The chip was sent and can no longer change.
        public static let chipCommitted = Reason(.chipCommitted)
        /// No chip at that index or with that identity.
        public static let noSuchChip = Reason(.noSuchChip)
        /// No field with that name.
        public static let noSuchField = Reason(.noSuchField)
        /// A position in the pending text off its boundaries: past its end,
        /// inside a scalar or between the halves of a surrogate pair.
        public static let invalidTextRange = Reason(.invalidTextRange)
        /// Under the `reject` duplicate policy, an address already present.
        public static let duplicate = Reason(.duplicate)
        /// Under the `merge` duplicate policy, merged into the first copy.
        public static let mergedDuplicate = Reason(.mergedDuplicate)
        /// The suggestion's contact is not in the directory (or none is set).
        public static let noSuchContact = Reason(.noSuchContact)
        /// Only a list's chip expands into members.
        public static let notAList = Reason(.notAList)
        /// Choosing the suggestion would make no chip (a list whose members
        /// have no address or are all chips already): the text stays.
        public static let nothingToChoose = Reason(.nothingToChoose)

    }

    /// What was refused, and why.
    public var reason: Reason
    /// The text concerned, when there is one (a rejected duplicate's raw text).
    public var text: String?

    /// A refusal for `reason`, about `text` when there is one.
    public init(_ reason: Reason, text: String? = nil) {
        self.reason = reason
        self.text = text
    }

    /// The reason's code.
    public var code: String { reason.code }
    /// `text`: the text concerned, empty when there is none.
    public var values: [String: String] { text.map { ["text": $0] } ?? ["text": ""] }
    /// The reason's English words; `{text}` is the text concerned.
    public var englishTemplate: String { reason.kind.englishTemplate }
    /// `code: text`, for logs.
    public var description: String { text.map { "\(reason.code): \($0)" } ?? reason.code }
}
