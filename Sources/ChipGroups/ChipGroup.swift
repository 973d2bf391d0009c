import ChipSyntax

/// How a ``ChipGroup`` selects, and what it shows.
public struct GroupConfiguration: Sendable, Hashable, Codable {
    /// One option at most (choice chips); otherwise any number (filter chips).
    public var isSingleSelection: Bool
    /// The last selected option cannot be deselected, by a tap or by
    /// ``ChipGroup/uncheck(_:)``. A required group may start empty: nothing
    /// is ever selected by itself.
    public var isSelectionRequired: Bool
    /// The group shows its state and ignores the user; programmatic
    /// changes still apply. Not the same as disabled options.
    public var isReadOnly: Bool
    /// A tap only emits a ``GroupRequest``; the state changes when the
    /// owner applies it.
    public var isControlled: Bool
    /// Options shown before the overflow entry ("See all"); at least 1.
    public var maxVisible: Int
    /// In multi-selection mode, the most options taps may select; nil for
    /// no limit, otherwise at least 1.
    public var maxSelected: Int?

    /// A configuration; the defaults are a multi-select group of eight
    /// shown options with no maximum, not required, read-only or controlled.
    public init(
        isSingleSelection: Bool = false, isSelectionRequired: Bool = false, isReadOnly: Bool = false,
        isControlled: Bool = false, maxVisible: Int = 8, maxSelected: Int? = nil
    ) {
        self.isSingleSelection = isSingleSelection
        self.isSelectionRequired = isSelectionRequired
        self.isReadOnly = isReadOnly
        self.isControlled = isControlled
        self.maxVisible = maxVisible
        self.maxSelected = maxSelected
    }
}

/// A group's options or selection that cannot be (repeated identities,
/// two selected options in single mode, …), found when a group is made or
/// restored. Operations on a group never throw: they refuse, with a reason.
public struct GroupConfigurationError: Error, ChipReason {
    /// What is wrong, as a stable code. A struct, not an enum: a reason
    /// added later breaks no host's `switch`.
    public struct Reason: ReasonCode {
        enum Kind: String, Sendable, CaseIterable {
            case maxVisibleOutOfRange = "max-visible-out-of-range"
            case maxSelectedOutOfRange = "max-selected-out-of-range"
            case repeatedOption = "repeated-option"
            case checkedUnknownOption = "checked-unknown-option"
            case checkedAction = "checked-action"
            case checkedTwice = "checked-twice"
            case singleSelectionCheckedSeveral = "single-selection-checked-several"
            case exclusiveCheckedWithOthers = "exclusive-checked-with-others"
            case checkedOverMaximum = "checked-over-maximum"
            case unknownGroupSnapshotVersion = "unknown-group-snapshot-version"

            var englishTemplate: String {
                switch self {
                case .maxVisibleOutOfRange: "maxVisible must be at least 1, not {value}"
                case .maxSelectedOutOfRange: "maxSelected must be at least 1, not {value}"
                case .repeatedOption: "option \"{option}\" appears twice"
                case .checkedUnknownOption: "checked option \"{option}\" is not an option"
                case .checkedAction: "checked option \"{option}\" is an action chip"
                case .checkedTwice: "option \"{option}\" is checked twice"
                case .singleSelectionCheckedSeveral: "a single-selection group with {count} options checked"
                case .exclusiveCheckedWithOthers: "exclusive option \"{option}\" is checked with others"
                case .checkedOverMaximum: "{count} options checked, more than maxSelected ({maximum})"
                case .unknownGroupSnapshotVersion: "snapshot version {version} is not {expected}"
                }
            }
        }

        let kind: Kind
        init(_ kind: Kind) { self.kind = kind }

        /// The stable code, e.g. `repeated-option`.
        public var code: String { kind.rawValue }
        /// Every reason.
        ///
        /// - Complexity: O(*n*), where *n* is the number of reasons.
        public static var allReasons: [Reason] { Kind.allCases.map(Reason.init) }

        /// `maxVisible` below 1 (`{value}`).
        public static let maxVisibleOutOfRange = Reason(.maxVisibleOutOfRange)
        /// `maxSelected` below 1 (`{value}`).
        public static let maxSelectedOutOfRange = Reason(.maxSelectedOutOfRange)
        /// Two options with one identity (`{option}`).
        public static let repeatedOption = Reason(.repeatedOption)
        /// A checked identity that is no option (`{option}`).
        public static let checkedUnknownOption = Reason(.checkedUnknownOption)
        /// An action chip checked (`{option}`).
        public static let checkedAction = Reason(.checkedAction)
        /// An option checked twice (`{option}`).
        public static let checkedTwice = Reason(.checkedTwice)
        /// Several options checked in a single-selection group (`{count}`).
        public static let singleSelectionCheckedSeveral = Reason(.singleSelectionCheckedSeveral)
        /// An exclusive option checked with others (`{option}`).
        public static let exclusiveCheckedWithOthers = Reason(.exclusiveCheckedWithOthers)
        /// More options checked than `maxSelected` (`{count}`, `{maximum}`).
        public static let checkedOverMaximum = Reason(.checkedOverMaximum)
        /// A snapshot of another version (`{version}`, `{expected}`).
        public static let unknownGroupSnapshotVersion = Reason(.unknownGroupSnapshotVersion)
    }

    /// What is wrong.
    public var reason: Reason
    /// The values its words name.
    public var values: [String: String]

    /// An error for `reason` with the values its words name.
    public init(_ reason: Reason, _ values: [String: String] = [:]) {
        self.reason = reason
        self.values = values
    }

    /// The reason's code.
    public var code: String { reason.code }
    /// The reason's English words, whose placeholders ``values`` fill.
    public var englishTemplate: String { reason.kind.englishTemplate }
    /// The English sentence, as ``message``.
    ///
    /// - Complexity: as ``ChipReason/message``.
    public var description: String { message }
}

/// A group of choice, filter and action chips: options in display order,
/// a selection, and the rules that decide what a tap does. Headless: the
/// host draws it and words it; every operation returns the one
/// ``GroupChange`` it made, carrying the state after it.
///
/// What a tap on a checkable option does:
/// - selected: it is deselected, unless the group requires a selection and
///   this is the last one (refused, ``GroupRefusal/Reason/selectionRequired``);
/// - not selected, single mode: it replaces the selection (so a required
///   group's only option can be changed, never emptied);
/// - not selected, multi mode: it joins the selection; an exclusive option
///   ("None") clears all the others, any other option clears a selected
///   exclusive one; past ``GroupConfiguration/maxSelected`` it is refused.
///
/// Taps on an unknown identity, a disabled option, or any option of a
/// read-only group are refused with their reason; a tap on an action chip
/// emits ``GroupEdit/actionTriggered(_:)`` and selects nothing. In a
/// controlled group a tap that would be allowed emits a request instead.
///
/// Programmatic ``check(_:)`` and ``uncheck(_:)`` follow the same selection
/// rules (single replaces, exclusivity, the maximum, the required last
/// option) but ignore read-only and disabled, which are about the user.
/// ``clear()`` and a real change of mode clear everything, required or not.
///
/// Invariants:
/// 1. Identities are unique, and the index table maps each to its display index.
/// 2. Only checkable options are selected.
/// 3. In single mode at most one option is selected.
/// 4. In multi mode a selected exclusive option is the only one selected.
/// 5. No tap or ``check(_:)`` makes the selection larger than `maxSelected`.
/// 6. Once non-empty, a required group's selection is emptied only by
///    ``clear()``, a change of mode, or removing or replacing its options.
/// 7. ``isExpanded`` is true only while there are more options than `maxVisible`.
///
/// Storage: the options in an array, a table from identity to display
/// index, and the selection as a set, so a tap costs O(*k* log *k*) in the
/// *k* selected options (reported in display order) whatever the number
/// of options; adding at the end is O(1), inserting or removing O(*n*).
public struct ChipGroup<Value: Hashable & Sendable>: Sendable, Hashable {
    /// The options, in display order.
    public private(set) var options: [ChipOption<Value>]
    /// The settings; change them with the `set…` operations, which report.
    public private(set) var configuration: GroupConfiguration
    /// Whether the overflow entry was opened to show every option.
    public private(set) var isExpanded = false
    private var indexByID: [ChipOptionID: Int]
    private var selected: Set<ChipOptionID>

    /// Makes a group. `checked` are the pre-selected options, which the
    /// user can deselect like any other.
    ///
    /// - Throws: ``GroupConfigurationError`` for repeated identities, a
    ///   `maxVisible` or `maxSelected` under 1, or a `checked` list the
    ///   rules would not give (unknown or repeated identities, action
    ///   chips, two options in single mode, an exclusive option with
    ///   others, more than `maxSelected`).
    /// - Complexity: O(*n* + *c*), where *n* is the number of options and
    ///   *c* the number of `checked` identities.
    public init(
        options: [ChipOption<Value>], configuration: GroupConfiguration = GroupConfiguration(),
        checked: [ChipOptionID] = []
    ) throws(GroupConfigurationError) {
        try self.init(options: options, configuration: configuration, checked: checked, allowingAboveMaximum: false)
    }

    init(
        options: [ChipOption<Value>], configuration: GroupConfiguration, checked: [ChipOptionID],
        allowingAboveMaximum: Bool
    ) throws(GroupConfigurationError) {
        guard configuration.maxVisible >= 1 else {
            throw GroupConfigurationError(.maxVisibleOutOfRange, ["value": "\(configuration.maxVisible)"])
        }
        if let m = configuration.maxSelected, m < 1 {
            throw GroupConfigurationError(.maxSelectedOutOfRange, ["value": "\(m)"])
        }
        var index: [ChipOptionID: Int] = [:]
        index.reserveCapacity(options.count)
        for (i, o) in options.enumerated() {
            guard index.updateValue(i, forKey: o.id) == nil else {
                throw GroupConfigurationError(.repeatedOption, ["option": o.id.rawValue])
            }
        }
        var chosen: Set<ChipOptionID> = []
        for id in checked {
            guard let i = index[id] else { throw GroupConfigurationError(.checkedUnknownOption, ["option": id.rawValue]) }
            guard options[i].isCheckable else {
                throw GroupConfigurationError(.checkedAction, ["option": id.rawValue])
            }
            guard chosen.insert(id).inserted else { throw GroupConfigurationError(.checkedTwice, ["option": id.rawValue]) }
        }
        if configuration.isSingleSelection && chosen.count > 1 {
            throw GroupConfigurationError(.singleSelectionCheckedSeveral, ["count": "\(chosen.count)"])
        }
        if !configuration.isSingleSelection && chosen.count > 1,
           let e = checked.first(where: { options[index[$0]!].isExclusive }) {
            throw GroupConfigurationError(.exclusiveCheckedWithOthers, ["option": e.rawValue])
        }
        if !configuration.isSingleSelection, !allowingAboveMaximum, let m = configuration.maxSelected, chosen.count > m {
            throw GroupConfigurationError(.checkedOverMaximum, ["count": "\(chosen.count)", "maximum": "\(m)"])
        }
        self.options = options
        self.configuration = configuration
        self.indexByID = index
        self.selected = chosen
    }

    // MARK: - Reading

    /// The number of options.
    public var count: Int { options.count }

    /// The option with this identity.
    ///
    /// - Complexity: O(1).
    public func option(_ id: ChipOptionID) -> ChipOption<Value>? { indexByID[id].map { options[$0] } }

    /// The display index of the option with this identity.
    ///
    /// - Complexity: O(1).
    public func index(of id: ChipOptionID) -> Int? { indexByID[id] }

    /// Whether the option is selected.
    ///
    /// - Complexity: O(1).
    public func isSelected(_ id: ChipOptionID) -> Bool { selected.contains(id) }

    /// The number of selected options.
    public var selectedCount: Int { selected.count }

    /// The selected options in no particular order, for counting.
    var selectedIDsUnordered: Set<ChipOptionID> { selected }

    /// The selected options, in display order.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options.
    public var selectedIDs: [ChipOptionID] { inDisplayOrder(selected) }

    /// In single-selection mode, the selected option; nil when none is,
    /// and always nil in multi-selection mode.
    public var selectedID: ChipOptionID? { configuration.isSingleSelection ? selected.first : nil }

    /// The role a screen reader gives the option: a button for an action
    /// chip, otherwise a radio button in single mode and a checkbox-like
    /// toggle in multi mode.
    ///
    /// - Complexity: O(1).
    public func role(of id: ChipOptionID) -> ChipRole? {
        guard let i = indexByID[id] else { return nil }
        return role(options[i])
    }

    func role(_ o: ChipOption<Value>) -> ChipRole {
        !o.isCheckable ? .button : configuration.isSingleSelection ? .radio : .checkbox
    }

    /// The identities sorted by display index: each index is looked up
    /// once, then integers are sorted (hashing an identity is most of a
    /// tap's cost).
    /// Not generic over the sequence: a generic one ran unspecialized,
    /// looking its types up at run time on every tap.
    func inDisplayOrder(_ ids: Set<ChipOptionID>) -> [ChipOptionID] {
        if ids.count < 2 { return Array(ids) }
        var keyed: [(index: Int, id: ChipOptionID)] = []
        keyed.reserveCapacity(ids.count)
        for id in ids { keyed.append((indexByID[id]!, id)) }
        return sortedByIndex(&keyed)
    }

    func inDisplayOrder(_ ids: [ChipOptionID]) -> [ChipOptionID] {
        if ids.count < 2 { return ids }
        var keyed: [(index: Int, id: ChipOptionID)] = []
        keyed.reserveCapacity(ids.count)
        for id in ids { keyed.append((indexByID[id]!, id)) }
        return sortedByIndex(&keyed)
    }

    // MARK: - The user

    /// A user's tap on an option. See the type's documentation for the rules.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options,
    ///   whatever the number of options.
    public mutating func tap(_ id: ChipOptionID) -> GroupChange {
        userTap(id, controlled: configuration.isControlled)
    }

    /// Applies a controlled group's request: the tap is judged again
    /// against the state now (the option may have been disabled, or the
    /// selection changed, since it was made), as a tap of an uncontrolled
    /// group, so a stale request cannot break the rules. An owner that
    /// wants something else sets it with ``check(_:)`` and ``uncheck(_:)``.
    ///
    /// - Complexity: O(*k* log *k*), as ``tap(_:)``.
    public mutating func apply(_ request: GroupRequest) -> GroupChange {
        userTap(request.id, controlled: false)
    }

    private mutating func userTap(_ id: ChipOptionID, controlled: Bool) -> GroupChange {
        var r = Recorder()
        guard let i = indexByID[id] else { return refused(.unknownOption, id) }
        if configuration.isReadOnly { return refused(.readOnly, id) }
        let o = options[i]
        if o.isDisabled { return refused(.disabled, id) }
        if !o.isCheckable {
            if o.progress == .inProgress { return refused(.actionInProgress, id) }
            r.note(.actionTriggered(id))
            return finish(r)
        }
        switch selected.contains(id) ? planUncheck(id) : planCheck(i) {
        case .refused(let reason):
            return refused(reason, id)
        case .toggle(let off, let on):
            if controlled {
                var proposal = selected
                for x in off { proposal.remove(x) }
                if let on { proposal.insert(on) }
                r.note(.requested(GroupRequest(id: id, proposedIDs: inDisplayOrder(proposal))))
            } else {
                perform(off, on, &r)
            }
        }
        return finish(r)
    }

    // MARK: - The host

    /// Selects an option, by the selection rules: in single mode it
    /// replaces the selection; an exclusive option clears the others and
    /// any other clears a selected exclusive one; past `maxSelected` it is
    /// refused, as are action chips and unknown identities. Disabled
    /// options and read-only groups do not stop it. Checking a selected
    /// option does nothing.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options.
    public mutating func check(_ id: ChipOptionID) -> GroupChange {
        guard let i = indexByID[id] else { return refused(.unknownOption, id) }
        var r = Recorder()
        switch planCheck(i) {
        case .refused(let reason): return refused(reason, id)
        case .toggle(let off, let on): perform(off, on, &r)
        }
        return finish(r)
    }

    /// Deselects an option; the last selected option of a required group
    /// is refused (``clear()`` empties it). Unchecking an option that is
    /// not selected does nothing.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options.
    public mutating func uncheck(_ id: ChipOptionID) -> GroupChange {
        guard indexByID[id] != nil else { return refused(.unknownOption, id) }
        var r = Recorder()
        switch planUncheck(id) {
        case .refused(let reason): return refused(reason, id)
        case .toggle(let off, let on): perform(off, on, &r)
        }
        return finish(r)
    }

    /// Deselects everything, even in a required group (as Material's
    /// `clearCheck`).
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options.
    public mutating func clear() -> GroupChange {
        var r = Recorder()
        clearSelection(&r)
        return finish(r)
    }

    /// Switches between single and multi selection. A real change clears
    /// the selection (what was chosen under one rule means nothing under
    /// the other); setting the mode the group has does nothing.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options.
    public mutating func setSingleSelection(_ single: Bool) -> GroupChange {
        var r = Recorder()
        if single != configuration.isSingleSelection {
            clearSelection(&r)
            configuration.isSingleSelection = single
            r.edit(.modeChanged(single: single))
        }
        return finish(r)
    }

    /// Requires a selection, or not. Selects nothing by itself: an empty
    /// group stays empty until something is chosen.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setSelectionRequired(_ required: Bool) -> GroupChange {
        setting(\.isSelectionRequired, required, .required)
    }

    /// Makes the group read-only (taps refused), or not.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setReadOnly(_ readOnly: Bool) -> GroupChange {
        setting(\.isReadOnly, readOnly, .readOnly)
    }

    /// Makes the group controlled (taps emit requests), or not.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setControlled(_ controlled: Bool) -> GroupChange {
        setting(\.isControlled, controlled, .controlled)
    }

    /// Sets the most options taps may select in multi mode (nil: no
    /// limit). Lowering it under the current count deselects nothing:
    /// taps that would add are refused until the selection is under it,
    /// and ``configurationWarnings`` says so.
    ///
    /// - Precondition: `maxSelected` is nil or at least 1.
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setMaxSelected(_ maxSelected: Int?) -> GroupChange {
        precondition(maxSelected.map { $0 >= 1 } ?? true, "maxSelected must be at least 1")
        return setting(\.maxSelected, maxSelected, .maxSelected)
    }

    /// Sets how many options show before the overflow entry. The overflow
    /// closes if no option is hidden any more.
    ///
    /// - Precondition: `maxVisible` is at least 1.
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setMaxVisible(_ maxVisible: Int) -> GroupChange {
        precondition(maxVisible >= 1, "maxVisible must be at least 1")
        var r = Recorder()
        if maxVisible != configuration.maxVisible {
            configuration.maxVisible = maxVisible
            r.edit(.settingChanged(.maxVisible))
            collapseIfNothingHidden(&r)
        }
        return finish(r)
    }

    private mutating func setting<T: Equatable>(
        _ key: WritableKeyPath<GroupConfiguration, T>, _ value: T, _ name: GroupSetting
    ) -> GroupChange {
        var r = Recorder()
        if configuration[keyPath: key] != value {
            configuration[keyPath: key] = value
            r.edit(.settingChanged(name))
        }
        return finish(r)
    }

    /// Opens or closes the overflow entry. Does nothing when no option is hidden.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func toggleOverflow() -> GroupChange {
        var r = Recorder()
        if options.count > configuration.maxVisible {
            isExpanded.toggle()
            r.edit(.overflowToggled(expanded: isExpanded))
        }
        return finish(r)
    }

    /// Adds an option at `index` (the end when nil). A repeated identity is
    /// refused and nothing is added. With `checked`, the new option joins
    /// the selection by the rules of ``check(_:)`` (replacing it in single
    /// mode); if that is refused (an action chip, the maximum), the option
    /// is still added, unselected, and the change carries the refusal.
    ///
    /// - Precondition: `index` is in `0...count`.
    /// - Complexity: O(*n* − `index` + *k* log *k*), where *n* is the number
    ///   of options and *k* the number of selected ones: O(*k* log *k*) at the end.
    public mutating func add(_ option: ChipOption<Value>, checked: Bool = false, at index: Int? = nil) -> GroupChange {
        guard indexByID[option.id] == nil else { return refused(.duplicateID, option.id) }
        let at = index ?? options.count
        precondition(at >= 0 && at <= options.count, "index out of range")
        var r = Recorder()
        options.insert(option, at: at)
        reindex(from: at)
        r.edit(.inserted(option.id, at: at))
        if checked {
            switch planCheck(at) {
            case .refused(let reason): r.note(.refused(GroupRefusal(reason, id: option.id)))
            case .toggle(let off, let on): perform(off, on, &r)
            }
        }
        return finish(r)
    }

    /// Removes an option, selected or not. Removing the last selected
    /// option of a required group is allowed and leaves it empty: options
    /// come and go with the host's data, and nothing is selected by itself
    /// in its place.
    ///
    /// - Complexity: O(*n* + *k* log *k*), where *n* is the number of options
    ///   and *k* the number of selected ones.
    public mutating func remove(_ id: ChipOptionID) -> GroupChange {
        guard let i = indexByID[id] else { return refused(.unknownOption, id) }
        var r = Recorder()
        if selected.remove(id) != nil { r.edit(.unchecked(id)) }
        options.remove(at: i)
        indexByID[id] = nil
        reindex(from: i)
        r.edit(.removed(id, at: i))
        collapseIfNothingHidden(&r)
        return finish(r)
    }

    /// Replaces every option (filter chips whose options follow the
    /// filters chosen), keeping the selection of the identities that
    /// remain checkable. If the new options make a kept exclusive option
    /// share the selection in multi mode, the exclusive one is dropped.
    /// Repeated identities refuse the whole replacement. Nothing new is
    /// selected by itself, even in a required group.
    ///
    /// - Complexity: O(*n* + *m* + *k* log *k*) in the old and new numbers
    ///   of options and the selected ones.
    public mutating func replaceOptions(_ newOptions: [ChipOption<Value>]) -> GroupChange {
        var index: [ChipOptionID: Int] = [:]
        index.reserveCapacity(newOptions.count)
        for (i, o) in newOptions.enumerated() {
            if index.updateValue(i, forKey: o.id) != nil { return refused(.duplicateID, o.id) }
        }
        var r = Recorder()
        guard newOptions != options else { return finish(r) }
        var dropped: [ChipOptionID] = []
        var kept: [ChipOptionID] = []
        for id in selectedIDs {
            if let j = index[id], newOptions[j].isCheckable { kept.append(id) } else { dropped.append(id) }
        }
        if !configuration.isSingleSelection && kept.count > 1 {
            dropped += kept.filter { newOptions[index[$0]!].isExclusive }
            kept.removeAll { newOptions[index[$0]!].isExclusive }
        }
        for id in inDisplayOrder(dropped) {
            selected.remove(id)
            r.edit(.unchecked(id))
        }
        options = newOptions
        indexByID = index
        r.edit(.optionsReplaced)
        collapseIfNothingHidden(&r)
        return finish(r)
    }

    /// Disables or enables an option. A selected option stays selected.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setDisabled(_ disabled: Bool, for id: ChipOptionID) -> GroupChange {
        guard let i = indexByID[id] else { return refused(.unknownOption, id) }
        var r = Recorder()
        if options[i].isDisabled != disabled {
            options[i].isDisabled = disabled
            r.edit(.updated(id))
        }
        return finish(r)
    }

    /// Sets an action chip's state as its action runs (the host calls this:
    /// a tap only triggers). `.disabled` sets ``ChipOption/isDisabled``; the
    /// other states enable the chip and set its ``ActionProgress``. On a
    /// checkable option only enabling and disabling mean anything.
    ///
    /// - Complexity: O(*k* log *k*) in the number of selected options (the change's state).
    public mutating func setActionState(_ state: ActionChipState, for id: ChipOptionID) -> GroupChange {
        guard let i = indexByID[id] else { return refused(.unknownOption, id) }
        var r = Recorder()
        var o = options[i]
        switch state {
        case .disabled: o.isDisabled = true
        case .enabled: (o.isDisabled, o.progress) = (false, .idle)
        case .inProgress: (o.isDisabled, o.progress) = (false, .inProgress)
        case .done: (o.isDisabled, o.progress) = (false, .done)
        }
        if o != options[i] {
            options[i] = o
            r.edit(.updated(id))
        }
        return finish(r)
    }

    // MARK: - Rules

    /// What selecting the option at `i` would do, by the selection rules.
    /// O(1), but for an exclusive option in multi mode: O(*k* log *k*).
    private func planCheck(_ i: Int) -> Plan {
        let o = options[i]
        guard o.isCheckable else { return .refused(.notCheckable) }
        if selected.contains(o.id) { return .toggle(off: [], on: nil) }
        if configuration.isSingleSelection { return .toggle(off: Array(selected), on: o.id) }
        if o.isExclusive { return .toggle(off: selectedIDs, on: o.id) }
        // By invariant 4 a selected exclusive option is alone.
        var off: [ChipOptionID] = []
        if selected.count == 1, let only = selected.first, options[indexByID[only]!].isExclusive { off = [only] }
        if let m = configuration.maxSelected, selected.count - off.count + 1 > m { return .refused(.maxSelected) }
        return .toggle(off: off, on: o.id)
    }

    private func planUncheck(_ id: ChipOptionID) -> Plan {
        guard selected.contains(id) else { return .toggle(off: [], on: nil) }
        if configuration.isSelectionRequired && selected.count == 1 { return .refused(.selectionRequired) }
        return .toggle(off: [id], on: nil)
    }

    private mutating func perform(_ off: [ChipOptionID], _ on: ChipOptionID?, _ r: inout Recorder) {
        for id in off where selected.remove(id) != nil { r.edit(.unchecked(id)) }
        if let on, selected.insert(on).inserted { r.edit(.checked(on)) }
    }

    private mutating func clearSelection(_ r: inout Recorder) {
        for id in selectedIDs { r.edit(.unchecked(id)) }
        selected.removeAll()
    }

    private mutating func reindex(from start: Int) {
        for j in start..<options.count { indexByID[options[j].id] = j }
    }

    private mutating func collapseIfNothingHidden(_ r: inout Recorder) {
        if isExpanded && options.count <= configuration.maxVisible {
            isExpanded = false
            r.edit(.overflowToggled(expanded: false))
        }
    }

    private func finish(_ r: Recorder) -> GroupChange {
        GroupChange(edits: r.edits, changed: r.changed, selectedIDs: selectedIDs, selectedID: selectedID)
    }

    private func refused(_ reason: GroupRefusal.Reason, _ id: ChipOptionID) -> GroupChange {
        var r = Recorder()
        r.note(.refused(GroupRefusal(reason, id: id)))
        return finish(r)
    }

    // MARK: - Checks

    /// What breaks the type's invariants 1–4 and 7, for tests; empty when
    /// all hold.
    ///
    /// - Complexity: O(*n*).
    package func invariantViolations() -> [String] {
        var out: [String] = []
        if indexByID.count != options.count { out.append("index table holds \(indexByID.count) of \(options.count)") }
        for (i, o) in options.enumerated() where indexByID[o.id] != i {
            out.append("option \(o.id) at \(i) indexed at \(indexByID[o.id].map(String.init) ?? "nil")")
        }
        for id in selected {
            guard let i = indexByID[id] else {
                out.append("selected \(id) is not an option")
                continue
            }
            if !options[i].isCheckable { out.append("action chip \(id) is selected") }
            if !configuration.isSingleSelection && options[i].isExclusive && selected.count > 1 {
                out.append("exclusive \(id) selected with others")
            }
        }
        if configuration.isSingleSelection && selected.count > 1 { out.append("\(selected.count) selected in single mode") }
        if isExpanded && options.count <= configuration.maxVisible { out.append("expanded with nothing hidden") }
        return out
    }
}

// Outside the generic type, so using them needs no generic metadata at
// run time (a type nested in `ChipGroup<Value>` is generic over `Value`).

/// What selecting or deselecting would do.
private enum Plan {
    case refused(GroupRefusal.Reason)
    /// Deselect `off` (display order), then select `on`.
    case toggle(off: [ChipOptionID], on: ChipOptionID?)
}

/// The edits of one operation.
private struct Recorder {
    var edits: [GroupEdit] = []
    var changed = false
    /// Something that changed the state.
    mutating func edit(_ e: GroupEdit) {
        edits.append(e)
        changed = true
    }
    /// Something reported that changed no state.
    mutating func note(_ e: GroupEdit) { edits.append(e) }
}

private func sortedByIndex(_ keyed: inout [(index: Int, id: ChipOptionID)]) -> [ChipOptionID] {
    keyed.sort { $0.index < $1.index }
    var out: [ChipOptionID] = []
    out.reserveCapacity(keyed.count)
    for k in keyed { out.append(k.id) }
    return out
}
