import ChipRecognition
import ChipOutput
import ChipEditing
import ChipGroups

/// What a screen reader says for a chip: one line of parts joined by
/// ``ChipStrings/separator``, in the host's words.
///
/// - Input chip: `Ann Lee, ann@x.org`, `bob@, invalid address: nothing after
///   the @`, then warnings (`warning: the domain may be misspelled: did you
///   mean gmail.com?`), then
///   state (`selected`, `sent`, `looking up contact`), then `3 of 12`.
/// - Group chip: `Vegetarian, selected, 2 of 5`; radio and toggle chips say
///   `not selected` too, since their state is always told; an action chip
///   in progress says `in progress`, one done says `done`.
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
                var reason = strings.message(forWarning: code)
                if code == "likely-typo", let domain = chip.suggestedDomain {
                    // The domain meant, as the text format's `-> gmail.com` says it.
                    reason = ChipStrings.fill(strings.likelyTypo, ["reason": reason, "domain": ChipText.clean(domain)])
                }
                parts.append(ChipStrings.fill(strings.warning, ["reason": reason]))
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
    ///   - role: radio in a single-selection group, checkbox-like toggle
    ///     in a multiple-selection one, button for an action chip.
    ///   - isReadOnly: the whole group shows its state and ignores taps.
    ///   - actionState: an action chip's state: `in progress` and `done`
    ///     are said, `disabled` as for a disabled chip.
    ///   - announcesRole: say the role too (`radio button`), for a host
    ///     whose platform does not announce it.
    ///   - position: the chip's index in its group, from 0.
    ///
    /// - Complexity: O(*n*) in the label's length.
    public static func groupChip(
        label: String, role: ChipRole, isSelected: Bool, isDisabled: Bool = false, isReadOnly: Bool = false,
        actionState: ActionChipState? = nil, position: Int? = nil, count: Int? = nil,
        announcesRole: Bool = false, strings: ChipStrings = .english
    ) -> String {
        var parts = [ChipText.clean(label)]
        if announcesRole {
            switch role {
            case .radio: parts.append(strings.radioRole)
            case .checkbox: parts.append(strings.toggleRole)
            case .button: parts.append(strings.buttonRole)
            }
        }
        switch role {
        case .radio, .checkbox: parts.append(isSelected ? strings.selected : strings.notSelected)
        case .button: if isSelected { parts.append(strings.selected) }
        }
        if isDisabled || actionState == .disabled { parts.append(strings.disabled) }
        if isReadOnly { parts.append(strings.readOnly) }
        if actionState == .inProgress { parts.append(strings.busy) }
        if actionState == .done { parts.append(strings.done) }
        appendPosition(position, count, strings, to: &parts)
        return parts.joined(separator: strings.separator)
    }

    /// The label of a ``ChipGroup`` option, from its accessibility facts
    /// (``ChipGroup/accessibility(of:)``, whose position counts from 1).
    ///
    /// - Complexity: O(*n*) in the label's length.
    public static func groupChip(
        _ facts: OptionAccessibility, announcesRole: Bool = false, strings: ChipStrings = .english
    ) -> String {
        groupChip(
            label: facts.label, role: facts.role, isSelected: facts.isSelected, isDisabled: facts.isDisabled,
            isReadOnly: facts.isReadOnly, actionState: facts.actionState, position: facts.position - 1,
            count: facts.count, announcesRole: announcesRole, strings: strings)
    }

    static func appendPosition(_ position: Int?, _ count: Int?, _ strings: ChipStrings, to parts: inout [String]) {
        guard let position, let count else { return }
        parts.append(ChipStrings.fill(strings.position, ["position": "\(position + 1)", "count": "\(count)"]))
    }
}
