import ChipRecognition
import ChipEditing

/// What a group chip is to assistive technology.
public enum GroupChipRole: String, Sendable, Hashable, CaseIterable {
    /// A choice chip of a single-selection group.
    case radio
    /// A filter chip, or a choice chip of a multiple-selection group.
    case toggle
    /// An action chip.
    case button
}

/// Whether an action chip's action is running.
public enum GroupChipActionState: String, Sendable, Hashable, CaseIterable {
    case idle
    case busy
}

/// What a screen reader says for a chip: one line of parts joined by
/// ``ChipStrings/separator``, in the host's words.
///
/// - Input chip: `Ann Lee, ann@x.org`, `bob@, invalid address: nothing after
///   the @`, then warnings (`warning: the domain may be misspelled`), then
///   state (`selected`, `sent`, `looking up contact`), then `3 of 12`.
/// - Group chip: `Vegetarian, selected, 2 of 5`; radio and toggle chips say
///   `not selected` too, since their state is always told; a busy action
///   chip says `in progress`.
///
/// Names and texts are cleaned (``ChipText/clean(_:)``), so a label is one
/// line with no bidirectional controls. A name is not repeated as its
/// address (`ann@x.org <ann@x.org>` says the address once).
public enum AccessibilityLabel {
    /// The label of an input chip.
    ///
    /// - Parameters:
    ///   - position: the chip's index in its field, from 0; said as `{position + 1} of {count}`
    ///     when `count` is given too.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public static func inputChip(
        _ chip: ParsedChip, isSelected: Bool = false, isDisabled: Bool = false, isCommitted: Bool = false,
        isResolving: Bool = false, position: Int? = nil, count: Int? = nil, strings: ChipStrings = .english
    ) -> String {
        var parts: [String] = []
        if let error = chip.error {
            let text = ChipText.clean(String(decoding: chip.raw, as: UTF8.self))
            parts.append(ChipStrings.fill(strings.invalid, ["text": text, "reason": strings.message(for: error)]))
        } else {
            let label = ChipText.label(of: chip)
            let address = chip.address.map { ChipText.clean(ChipText.displayAddress($0)) } ?? ""
            if !address.isEmpty && label != address && chip.kind == .mailbox {
                parts.append(ChipStrings.fill(strings.nameAndAddress, ["name": label, "address": address]))
            } else {
                parts.append(label)
            }
            for code in chip.warnings.codes {
                parts.append(ChipStrings.fill(strings.warning, ["reason": strings.message(forWarning: code)]))
            }
        }
        if isSelected { parts.append(strings.selected) }
        if isCommitted { parts.append(strings.sent) }
        if isDisabled { parts.append(strings.disabled) }
        if isResolving { parts.append(strings.resolving) }
        appendPosition(position, count, strings, to: &parts)
        return parts.joined(separator: strings.separator)
    }

    /// The label of an editor's chip: its content, whether it was sent or
    /// is being looked up, and what the caller knows of its place.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public static func inputChip(
        _ chip: Chip, isSelected: Bool = false, isDisabled: Bool = false, position: Int? = nil, count: Int? = nil,
        strings: ChipStrings = .english
    ) -> String {
        inputChip(
            chip.content, isSelected: isSelected, isDisabled: isDisabled, isCommitted: chip.isCommitted,
            isResolving: chip.isResolving, position: position, count: count, strings: strings)
    }

    /// The label of a choice, filter or action chip, from plain facts (so
    /// any group model can call it).
    ///
    /// - Parameters:
    ///   - label: the chip's text; cleaned here.
    ///   - announcesRole: say the role too (`radio button`), for a host
    ///     whose platform does not announce it.
    ///   - position: the chip's index in its group, from 0.
    ///
    /// - Complexity: O(*n*) in the label's length.
    public static func groupChip(
        label: String, role: GroupChipRole, isSelected: Bool, isDisabled: Bool = false,
        actionState: GroupChipActionState = .idle, position: Int? = nil, count: Int? = nil,
        announcesRole: Bool = false, strings: ChipStrings = .english
    ) -> String {
        var parts = [ChipText.clean(label)]
        if announcesRole {
            switch role {
            case .radio: parts.append(strings.radioRole)
            case .toggle: parts.append(strings.toggleRole)
            case .button: parts.append(strings.buttonRole)
            }
        }
        switch role {
        case .radio, .toggle: parts.append(isSelected ? strings.selected : strings.notSelected)
        case .button: if isSelected { parts.append(strings.selected) }
        }
        if isDisabled { parts.append(strings.disabled) }
        if actionState == .busy { parts.append(strings.busy) }
        appendPosition(position, count, strings, to: &parts)
        return parts.joined(separator: strings.separator)
    }

    static func appendPosition(_ position: Int?, _ count: Int?, _ strings: ChipStrings, to parts: inout [String]) {
        guard let position, let count else { return }
        parts.append(ChipStrings.fill(strings.position, ["position": "\(position + 1)", "count": "\(count)"]))
    }
}
