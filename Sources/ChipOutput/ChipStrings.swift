import ChipSyntax
import ChipRecognition

/// The words of accessibility labels and field summaries, in the host's
/// language: templates with named `{placeholders}`, filled in one pass
/// (a name that contains `{count}` stays as it is).
///
/// Every property has an English default (``english``); a host loads its
/// own from its localization files and sets what it translates. Messages
/// for errors and warnings are looked up by their stable code
/// (`missing-domain`, `likely-typo`) and fall back to the English ones.
///
/// Invariants:
/// 1. Filling a template inserts each value once and never reads
///    placeholders inside the values.
public struct ChipStrings: Sendable, Hashable {
    /// A chip with a name: `{name}`, `{address}`.
    public var nameAndAddress = "{name}, {address}"
    /// A chip in error: `{text}` (what was typed), `{reason}`.
    public var invalid = "{text}, invalid address: {reason}"
    /// One warning of a valid chip: `{reason}`.
    public var warning = "warning: {reason}"
    /// The reason of a `likely-typo` warning when the common domain meant
    /// is known: `{reason}` (the warning's words), `{domain}`.
    public var likelyTypo = "{reason}: did you mean {domain}?"
    /// A selected chip, or a choice or filter chip that is on.
    public var selected = "selected"
    /// Said for radio and toggle chips, whose state is always told.
    public var notSelected = "not selected"
    /// A chip that cannot be used now.
    public var disabled = "disabled"
    /// A committed chip of the editor: no longer editable.
    public var sent = "sent"
    /// A chip whose contact a remote directory is looking up.
    public var resolving = "looking up contact"
    /// An action chip whose action is running.
    public var busy = "in progress"
    /// An action chip whose action has finished (its confirmation).
    public var done = "done"
    /// A group that shows its state and ignores taps.
    public var readOnly = "read only"
    /// `{position}` (from 1) and `{count}`.
    public var position = "{position} of {count}"
    /// Between the parts of an accessibility label.
    public var separator = ", "
    /// The roles, said only when a host asks (platforms announce roles themselves).
    public var radioRole = "radio button"
    /// The role of a chip of a multiple-selection group, which turns on and off.
    public var toggleRole = "toggle button"
    /// The role of an action chip.
    public var buttonRole = "button"
    /// Reasons by error code, overriding ``ChipError/message``.
    public var errorMessages: [String: String] = [:]
    /// The words of every other reason a host may show (refusals, send
    /// blocks, import problems, snapshot and group errors), by code: a
    /// template whose `{placeholders}` name the reason's values. A code
    /// not here is said in English (``ChipReason/englishTemplate``).
    public var reasonMessages: [String: String] = [:]
    /// Reasons by warning code, overriding the English sentences of ``ChipWarnings/messages``.
    public var warningMessages: [String: String] = [:]

    /// Between the names of a summary: `Ann, Bob`.
    public var listSeparator = ", "
    /// Before the last name when all are shown: `Ann, Bob and Cy`.
    public var lastSeparator = " and "
    /// Names and a count of the rest: `{names}`, `{count}`.
    public var namesAndMore = "{names} and {count} more"
    /// The overflow chip, and the summary when not even one name fits: `{count}`.
    public var moreChip = "+{count}"

    /// The English words; a host then sets those it translates.
    public init() {}

    /// The English strings.
    public static let english = ChipStrings()

    /// A reason in these words, its values filled in: the host's template
    /// for its code, else the English one. A chip's error (``ChipError``)
    /// is looked up in ``errorMessages`` too.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is the template's length and *m*
    ///   the length of the values.
    public func message(for reason: some ChipReason) -> String {
        let template = reasonMessages[reason.code] ?? errorMessages[reason.code] ?? reason.englishTemplate
        return ReasonTemplate.fill(template, reason.values)
    }

    /// The reason for one warning (a single bit), as said.
    public func message(forWarning code: String) -> String {
        warningMessages[code] ?? ChipWarnings.englishMessage(code: code)
    }

    /// `template` with each `{key}` replaced by its value; an unknown
    /// placeholder is kept as written.
    ///
    /// - Complexity: O(*n* + *p* · *k* + *m*), where *n* is the template's
    ///   length, *p* the number of its placeholders, *k* the number of
    ///   values, and *m* the length of the values inserted.
    public static func fill(_ template: String, _ values: KeyValuePairs<String, String>) -> String {
        ReasonTemplate.fill(template) { key in values.first(where: { $0.key == key })?.value }
    }
}

extension ChipWarnings {
    /// Each warning in the set as an English sentence, in ``codes`` order,
    /// for people (a screen reader, a tooltip). Kept in the output layer:
    /// recognition names warnings by code only.
    ///
    /// - Complexity: O(*n*), where *n* is the number of warning kinds.
    public var messages: [String] { codes.map(ChipWarnings.englishMessage(code:)) }

    static func englishMessage(code: String) -> String {
        switch code {
        case "obsolete-syntax": "the address uses obsolete syntax"
        case "missing-angle-brackets": "the address was read as if it were in angle brackets"
        case "mailto-prefix": "a mailto: prefix was removed"
        case "duplicate": "this address is already in the list"
        case "undecoded-encoded-word": "part of the name could not be decoded"
        case "domain-missing-dot": "the domain has no dot"
        case "numeric-tld": "the domain ends in a number"
        case "display-name-spoof": "the name holds a different address"
        case "mixed-script": "the name or domain mixes alphabets"
        case "likely-typo": "the domain may be misspelled"
        case "bidi-control": "the name holds characters that reorder text"
        case "hidden-character": "the name holds an invisible character"
        case "full-width-at": "a full-width at sign was read as @"
        case "mailto-fields-dropped": "the link's subject and other fields were left out"
        case "unquoted-comma": "the name holds a comma"
        default: code
        }
    }
}
