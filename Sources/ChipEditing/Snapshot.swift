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

extension ChipField {
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            name: name, chips: chips, pending: text.pending, caret: text.caret,
            insertionIndex: text.insertionIndex, selection: order.filter { selection.contains($0) },
            nextSerial: nextSerial)
    }
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
        var seen = Set<ChipID>()
        for (k, saved) in s.fields.enumerated() {
            let where_ = "field '\(saved.name)'"
            guard saved.chips.count <= s.limits.maxChips else { throw SnapshotError(message: "\(where_): too many chips") }
            guard saved.pending.count <= s.limits.maxPendingBytes else {
                throw SnapshotError(message: "\(where_): pending text over the limit")
            }
            guard (0...saved.chips.count).contains(saved.insertionIndex) else {
                throw SnapshotError(message: "\(where_): insertion index \(saved.insertionIndex) out of range")
            }
            guard (0...saved.pending.count).contains(saved.caret) else {
                throw SnapshotError(message: "\(where_): caret \(saved.caret) out of range")
            }
            for chip in saved.chips {
                guard seen.insert(chip.id).inserted else {
                    throw SnapshotError(message: "\(where_): chip identity \(chip.id) repeats")
                }
            }
            let ids = Set(saved.chips.map(\.id))
            guard saved.selection.allSatisfy(ids.contains) else {
                throw SnapshotError(message: "\(where_): selection names a chip it does not hold")
            }
            var f = fields[k]
            for chip in saved.chips {
                f.order.append(chip.id)
                f.storage[chip.id] = chip
            }
            f.nextSerial = max(saved.nextSerial, 1)
            // New identities must not collide with restored ones.
            let serials = saved.chips.map(\.id.rawValue).filter { $0 & ~((1 << 40) - 1) == f.idPrefix }
            if let top = serials.map({ $0 & ((1 << 40) - 1) }).max(), top >= f.nextSerial { f.nextSerial = top + 1 }
            f.selection = Set(saved.selection)
            f.anchor = saved.selection.first
            // The pending text is scanned again, as if typed at its place.
            f.text.insertionIndex = saved.insertionIndex
            f.text.pending = saved.pending
            f.text.caret = saved.caret
            var changes: [FieldChange] = []
            f.feed(&changes)
            _ = f.takeJournal()
            fields[k] = f
        }
        guard let focus = fieldIndex(named: s.focus) else {
            throw SnapshotError(message: "focus names no field ('\(s.focus)')")
        }
        focusedIndex = focus
        for f in fields {
            for id in f.order {
                if let key = Composer.key(of: f.storage[id]!) { remember(id, key) }
            }
        }
    }
}
