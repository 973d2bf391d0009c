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
}

/// Why an operation, or part of one, was not done.
public struct Refusal: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The field holds its maximum number of chips.
        case tooManyChips = "too-many-chips"
        /// The pending text would exceed its maximum size.
        case pendingTooLong = "pending-too-long"
        /// The chip was sent and can no longer change.
        case chipCommitted = "chip-committed"
        /// No chip at that index, or no such field.
        case noSuchChip = "no-such-chip"
        case noSuchField = "no-such-field"
        /// A position in the pending text off its boundaries: past its end,
        /// inside a scalar or between the halves of a surrogate pair.
        case invalidTextRange = "invalid-text-range"
        /// Under the `reject` duplicate policy, an address already present.
        case duplicate
        /// Under the `merge` duplicate policy, merged into the first copy.
        case mergedDuplicate = "merged-duplicate"
        /// The suggestion's contact is not in the directory (or none is set).
        case noSuchContact = "no-such-contact"
        /// Only a list's chip expands into members.
        case notAList = "not-a-list"
        /// Choosing the suggestion would make no chip (a list whose members
        /// have no address or are all chips already): the text stays.
        case nothingToChoose = "nothing-to-choose"
    }

    public var reason: Reason
    /// The text concerned, when there is one (a rejected duplicate's raw text).
    public var text: String?

    public init(_ reason: Reason, text: String? = nil) {
        self.reason = reason
        self.text = text
    }

    public var description: String { text.map { "\(reason.rawValue): \($0)" } ?? reason.rawValue }
}
