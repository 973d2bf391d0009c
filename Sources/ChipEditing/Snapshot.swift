import ChipSyntax
import ChipRecognition

/// A field as saved: its chips with identities and states, the pending
/// text, caret and selection.
public struct FieldSnapshot: Sendable, Hashable, Codable {
    public var name: String
    public var chips: [Chip]
    public var pending: [UInt8]
    public var caret: Int
    public var insertionIndex: Int
    public var selection: [ChipID]
    /// The next serial number for new identities in this field.
    public var nextSerial: UInt64
}

/// A whole composer as saved, so a draft survives a restart. The undo
/// history is not saved: a restored draft starts a new history.
public struct ComposerSnapshot: Sendable, Hashable, Codable {
    /// The format's version; a snapshot of another version is refused.
    public var version: Int
    public var fields: [FieldSnapshot]
    public var focus: String
    public var duplicatePolicy: DuplicatePolicy
    public var policy: String
    public var limits: FieldLimits

    public static let currentVersion = 1
}

/// Why a snapshot could not be restored.
public struct SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension Composer {
    /// The state to save.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    public var snapshot: ComposerSnapshot {
        ComposerSnapshot(
            version: ComposerSnapshot.currentVersion, fields: fields.map(\.snapshot),
            focus: fields[focusedIndex].name, duplicatePolicy: duplicatePolicy,
            policy: fields[0].policy.name, limits: fields[0].limits)
    }

    /// Restores a saved composer. Anything inconsistent (unknown version,
    /// repeated field names or identities, indexes out of range, text over
    /// the limits) is refused with a message; nothing in a snapshot can
    /// crash this.
    ///
    /// - Complexity: O(*n*) in the number of chips and pending bytes.
    public init(snapshot s: ComposerSnapshot) throws(SnapshotError) {
        guard s.version == ComposerSnapshot.currentVersion else {
            throw SnapshotError(message: "snapshot version \(s.version) is not \(ComposerSnapshot.currentVersion)")
        }
        guard !s.fields.isEmpty else { throw SnapshotError(message: "a snapshot needs a field") }
        let names = s.fields.map(\.name)
        guard Set(names).count == names.count else { throw SnapshotError(message: "field names repeat") }
        guard let policy = ValidationPolicy(named: s.policy) else {
            throw SnapshotError(message: "unknown policy '\(s.policy)'")
        }
        guard s.limits.maxChips >= 0, s.limits.maxPendingBytes >= 0 else {
            throw SnapshotError(message: "negative limits")
        }
        self.init(fieldNames: names, policy: policy, limits: s.limits, duplicatePolicy: s.duplicatePolicy)
        var used = Set<ChipID>()
        for (k, saved) in s.fields.enumerated() {
            var field = try ChipField(
                restoring: saved, policy: policy, limits: s.limits, idPrefix: UInt64(k + 1), used: &used)
            field.startJournal()
            fields[k] = field
        }
        guard let focus = fieldIndex(named: s.focus) else {
            throw SnapshotError(message: "focus names no field ('\(s.focus)')")
        }
        focusedIndex = focus
        for f in fields {
            for chip in f.chips {
                if let key = Composer.key(of: chip) { remember(chip.id, key) }
            }
        }
    }
}
