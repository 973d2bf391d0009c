/// The overflow entry of a group with more options than it shows: the
/// facts its wording needs. The host words it ("See all", "See selected",
/// "3 selected", "Show fewer").
public struct GroupOverflow: Sendable, Hashable {
    /// What the entry should say, as a fact.
    public enum Prompt: Sendable, Hashable {
        /// No hidden option is selected: "See all".
        case seeAll
        /// Single mode, the selected option is hidden: "See selected".
        case seeSelected
        /// Multi mode, some hidden option is selected: the number of
        /// selected options (all of them, hidden or shown), as the entry
        /// that opens the full list shows it.
        case selectedCount(Int)
        /// The entry is open, every option shows: "Show fewer".
        case showFewer
    }

    /// Options not shown (0 when open).
    public var hiddenCount: Int
    /// Selected options among those not shown (0 when open).
    public var hiddenSelectedCount: Int
    /// Selected options in all.
    public var selectedCount: Int
    /// Whether the entry is open (every option shows).
    public var isExpanded: Bool
    /// What the entry should say.
    public var prompt: Prompt
}

/// What an accessibility label needs of one option ("Large, selected, 3 of 12").
public struct OptionAccessibility: Sendable, Hashable {
    /// The option described.
    public var id: ChipOptionID
    /// The chip's text, to start the label with.
    public var label: String
    /// Whether the option is selected (said for radio and toggle chips either way).
    public var isSelected: Bool
    /// The option ignores taps.
    public var isDisabled: Bool
    /// The whole group ignores taps (it still shows its state).
    public var isReadOnly: Bool
    /// The option's place in display order, from 1.
    public var position: Int
    /// The number of options in the group.
    public var count: Int
    /// What the chip is: radio button, toggle or button.
    public var role: ChipRole
    /// For an action chip, its state.
    public var actionState: ActionChipState?
}

extension ChipGroup {
    /// The options shown: the first `maxVisible`, or all when the overflow
    /// entry is open.
    ///
    /// - Complexity: O(1) (a slice of the options).
    public var visibleOptions: ArraySlice<ChipOption<Value>> {
        isExpanded ? options[...] : options.prefix(configuration.maxVisible)
    }

    /// The overflow entry, or nil when every option fits in `maxVisible`.
    ///
    /// - Complexity: O(*k*), where *k* is the number of selected options.
    public var overflow: GroupOverflow? {
        guard options.count > configuration.maxVisible else { return nil }
        let total = selectedCount
        if isExpanded {
            return GroupOverflow(
                hiddenCount: 0, hiddenSelectedCount: 0, selectedCount: total, isExpanded: true, prompt: .showFewer)
        }
        var hiddenSelected = 0
        for id in selectedIDsUnordered where index(of: id)! >= configuration.maxVisible { hiddenSelected += 1 }
        let prompt: GroupOverflow.Prompt =
            hiddenSelected == 0 ? .seeAll : configuration.isSingleSelection ? .seeSelected : .selectedCount(total)
        return GroupOverflow(
            hiddenCount: options.count - configuration.maxVisible, hiddenSelectedCount: hiddenSelected,
            selectedCount: total, isExpanded: false, prompt: prompt)
    }

    /// What an accessibility label needs of the option with this identity.
    ///
    /// - Complexity: O(1).
    public func accessibility(of id: ChipOptionID) -> OptionAccessibility? {
        guard let i = index(of: id) else { return nil }
        let o = options[i]
        return OptionAccessibility(
            id: id, label: o.label, isSelected: isSelected(id), isDisabled: o.isDisabled,
            isReadOnly: configuration.isReadOnly, position: i + 1, count: options.count, role: role(o),
            actionState: o.actionState)
    }

    /// Configurations the guidelines advise against: a "None" option that
    /// is not exclusive in multi mode, a selection above the maximum, a
    /// maximum in single mode, a single checkable option.
    ///
    /// - Complexity: O(*n* + *b*), where *n* is the number of options and
    ///   *b* the length of the labels and identities read for "None".
    public var configurationWarnings: [GroupWarning] {
        var out: [GroupWarning] = []
        let single = configuration.isSingleSelection
        var checkable = 0
        for o in options {
            if o.isCheckable { checkable += 1 }
            if !single && o.isCheckable && !o.isExclusive && o.looksLikeNone { out.append(.noneNotExclusive(o.id)) }
        }
        if let m = configuration.maxSelected {
            if single {
                out.append(.maxSelectedInSingleMode)
            } else if selectedCount > m {
                out.append(.selectionAboveMaximum(count: selectedCount, maximum: m))
            }
        }
        if checkable == 1 { out.append(.singleOption) }
        return out
    }
}
