/// A group as saved: its options, settings, selection and whether the
/// overflow entry is open. `Codable` when the host's value is.
public struct ChipGroupSnapshot<Value: Hashable & Sendable>: Sendable, Hashable {
    /// The version this build writes; restoring refuses any other.
    public static var currentVersion: Int { 1 }

    /// The format's version (``currentVersion`` when written by this build).
    public var version: Int
    /// The options, in display order, with their states.
    public var options: [ChipOption<Value>]
    /// The group's settings.
    public var configuration: GroupConfiguration
    /// The selected options, in display order.
    public var selectedIDs: [ChipOptionID]
    /// Whether the overflow entry was open.
    public var isExpanded: Bool

    /// A snapshot of the given parts (``ChipGroup/snapshot`` makes one of a group).
    public init(
        version: Int = ChipGroupSnapshot.currentVersion, options: [ChipOption<Value>],
        configuration: GroupConfiguration, selectedIDs: [ChipOptionID], isExpanded: Bool
    ) {
        self.version = version
        self.options = options
        self.configuration = configuration
        self.selectedIDs = selectedIDs
        self.isExpanded = isExpanded
    }
}

extension ChipGroupSnapshot: Codable where Value: Codable {}

extension ChipGroup {
    /// The state to save.
    ///
    /// - Complexity: O(*k* log *k*), where *k* is the number of selected
    ///   options (the options are shared, not copied).
    public var snapshot: ChipGroupSnapshot<Value> {
        ChipGroupSnapshot(
            options: options, configuration: configuration, selectedIDs: selectedIDs, isExpanded: isExpanded)
    }

    /// Restores a saved group. Whatever the rules could not give (see
    /// ``init(options:configuration:checked:)``) is refused, except a
    /// selection above `maxSelected`, which a lowered maximum leaves
    /// behind; `isExpanded` is kept only if some option is hidden.
    ///
    /// - Throws: ``GroupConfigurationError``.
    /// - Complexity: O(*n* + *k*), where *n* is the number of options and
    ///   *k* the number of selected ones.
    public init(snapshot s: ChipGroupSnapshot<Value>) throws(GroupConfigurationError) {
        guard s.version == ChipGroupSnapshot<Value>.currentVersion else {
            throw GroupConfigurationError(
                .unknownGroupSnapshotVersion,
                ["version": "\(s.version)", "expected": "\(ChipGroupSnapshot<Value>.currentVersion)"])
        }
        try self.init(
            options: s.options, configuration: s.configuration, checked: s.selectedIDs, allowingAboveMaximum: true)
        if s.isExpanded { _ = toggleOverflow() }
    }
}
