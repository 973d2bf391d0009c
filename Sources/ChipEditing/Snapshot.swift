import ChipSyntax
import ChipRecognition

/// A field as saved: its rules and limits, its chips with identities and
/// states, the pending text, caret and selection.
public struct FieldSnapshot: Sendable, Hashable {
    /// The field's name, unique among the composer's fields.
    public var name: FieldID
    /// The field's rules, every one of them (nil only in a version 1
    /// snapshot, which kept one policy name for all fields).
    public var policy: ValidationPolicy?
    /// The field's limits (nil only in a version 1 snapshot).
    public var limits: FieldLimits?
    /// The chips in order, with their identities and states; restoring types
    /// each chip's text again.
    public var chips: [Chip]
    /// The text typed and not yet a chip, as bytes (which may not be UTF-8).
    public var pending: [UInt8]
    /// The caret, a byte offset in ``pending``.
    public var caret: Int
    /// How many chips stand before the pending text.
    public var insertionIndex: Int
    /// The identities of the selected chips.
    public var selection: [ChipID]
    /// The next serial number for new identities in this field.
    public var nextSerial: UInt64

    /// A field as saved, each part given.
    public init(
        name: FieldID, policy: ValidationPolicy?, limits: FieldLimits?, chips: [Chip], pending: [UInt8],
        caret: Int, insertionIndex: Int, selection: [ChipID], nextSerial: UInt64
    ) {
        self.name = name
        self.policy = policy
        self.limits = limits
        self.chips = chips
        self.pending = pending
        self.caret = caret
        self.insertionIndex = insertionIndex
        self.selection = selection
        self.nextSerial = nextSerial
    }
}

extension FieldSnapshot: Codable {
    enum CodingKeys: String, CodingKey {
        case name, policy, limits, chips, pending, pendingEscaped, caret, insertionIndex, selection, nextSerial
    }

    /// Decodes a field as ``encode(to:)`` writes it, or as version 1 did (no
    /// policy or limits, text as byte values). What the values mean is checked
    /// by ``Composer/init(snapshot:)``.
    ///
    /// - Complexity: O(*b* + *p*), where *b* is the length of the chips'
    ///   text and *p* that of the pending text.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(FieldID.self, forKey: .name),
            policy: try c.decodeIfPresent(ValidationPolicy.self, forKey: .policy),
            limits: try c.decodeIfPresent(FieldLimits.self, forKey: .limits),
            chips: try c.decode([Chip].self, forKey: .chips),
            pending: try SavedBytes.decode(c, key: .pending, escapedKey: .pendingEscaped),
            caret: try c.decode(Int.self, forKey: .caret),
            insertionIndex: try c.decode(Int.self, forKey: .insertionIndex),
            selection: try c.decode([ChipID].self, forKey: .selection),
            nextSerial: try c.decode(UInt64.self, forKey: .nextSerial))
    }

    /// Encodes each part under its name, the pending text as a string
    /// (`pendingEscaped`, with `\xHH` escapes, when it is not UTF-8).
    ///
    /// - Complexity: O(*b* + *p*), where *b* is the length of the chips'
    ///   text and *p* that of the pending text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(policy, forKey: .policy)
        try c.encodeIfPresent(limits, forKey: .limits)
        try c.encode(chips, forKey: .chips)
        try SavedBytes.encode(pending, &c, key: .pending, escapedKey: .pendingEscaped)
        try c.encode(caret, forKey: .caret)
        try c.encode(insertionIndex, forKey: .insertionIndex)
        try c.encode(selection, forKey: .selection)
        try c.encode(nextSerial, forKey: .nextSerial)
    }
}

/// A whole composer as saved, so a draft survives a restart with all its
/// settings. The undo history is not saved: a restored draft starts a new
/// history.
///
/// Version 2 saves each field's full policy and limits, chip text as
/// strings (bytes that are not UTF-8 escaped, see `rawEscaped`), kinds and
/// states by name. Version 1 (one policy name and one set of limits for
/// all fields, text as byte arrays) still loads.
public struct ComposerSnapshot: Sendable, Hashable, Codable {
    /// The format's version (``currentVersion`` when made here).
    public var version: Int
    /// The fields in the composer's order.
    public var fields: [FieldSnapshot]
    /// The field that had the focus.
    public var focus: FieldID
    /// What an address that is already a recipient does.
    public var duplicatePolicy: DuplicatePolicy
    /// Version 1 only: the policy's name, for every field.
    public var policy: String?
    /// Version 1 only: the limits of every field.
    public var limits: FieldLimits?
    /// How committed names become contacts, and whether a remote directory
    /// is asked (absent in older snapshots: the defaults).
    public var resolution: ContactResolution?
    /// Whether the remote directory is asked about names the local one cannot
    /// resolve (absent in older snapshots: no).
    public var remoteLookups: Bool?
    /// Whether the remote directory is asked for suggestions (absent in
    /// older snapshots: no).
    public var remoteSuggestions: Bool?
    /// The undo steps kept (absent in older snapshots: the default, 1,000).
    public var maxUndoSteps: Int?

    /// A snapshot of these fields; the settings older snapshots lack stay nil
    /// (their defaults when restored).
    public init(
        version: Int = ComposerSnapshot.currentVersion, fields: [FieldSnapshot], focus: FieldID,
        duplicatePolicy: DuplicatePolicy, policy: String? = nil, limits: FieldLimits? = nil
    ) {
        self.version = version
        self.fields = fields
        self.focus = focus
        self.duplicatePolicy = duplicatePolicy
        self.policy = policy
        self.limits = limits
    }

    /// The version ``Composer/snapshot`` writes.
    public static let currentVersion = 2
    /// The versions ``Composer/init(snapshot:)`` restores.
    public static let readableVersions = 1...2
}

/// Why a snapshot could not be restored: a stable code and the values its
/// words name (`field`, and the value out of range), see ``ChipReason``.
public struct SnapshotError: Error, ChipReason {
    /// What is wrong, as a stable code. A struct, not an enum: a reason
    /// added later breaks no host's `switch`.
    public struct Reason: ReasonCode {
        enum Kind: String, Sendable, CaseIterable {
            case unreadableVersion = "unreadable-snapshot-version"
            case noField = "snapshot-without-fields"
            case invalidFieldName = "invalid-field-name"
            case repeatedFieldNames = "repeated-field-names"
            case tooManyFields = "too-many-fields"
            case unknownPolicy = "unknown-policy"
            case noPolicy = "field-without-policy"
            case noLimits = "field-without-limits"
            case limitsOutOfRange = "limits-out-of-range"
            case maxChipBytesOutOfRange = "max-chip-bytes-out-of-range"
            case invalidCommonDomain = "invalid-common-domain"
            case focusNamesNoField = "focus-names-no-field"
            case undoStepsOutOfRange = "undo-steps-out-of-range"
            case chipsOverLimit = "chips-over-limit"
            case pendingOverLimit = "pending-over-limit"
            case insertionIndexOutOfRange = "insertion-index-out-of-range"
            case caretOutOfRange = "caret-out-of-range"
            case serialOutOfRange = "serial-out-of-range"
            case invalidChipIdentity = "invalid-chip-identity"
            case repeatedChipIdentity = "repeated-chip-identity"
            case selectionNamesNoChip = "selection-names-no-chip"
            case chipNotOneChip = "chip-not-one-chip"

            var englishTemplate: String {
                switch self {
                case .unreadableVersion: "snapshot version {version} is not one of {readable}"
                case .noField: "a snapshot needs a field"
                case .invalidFieldName: "field name {field} is not a header name (visible ASCII but ':' and ',')"
                case .repeatedFieldNames: "field names repeat"
                case .tooManyFields: "{count} fields are too many"
                case .unknownPolicy: "unknown policy {policy}"
                case .noPolicy: "field '{field}': no policy"
                case .noLimits: "field '{field}': no limits"
                case .limitsOutOfRange:
                    "field '{field}': limits {maxChips} chips, {maxPendingBytes} pending bytes out of range"
                case .maxChipBytesOutOfRange: "field '{field}': maxChipBytes {value} out of range"
                case .invalidCommonDomain: "field '{field}': common domain {domain} is not a domain"
                case .focusNamesNoField: "focus names no field ({field})"
                case .undoStepsOutOfRange: "maxUndoSteps {value} out of range (0...{maximum})"
                case .chipsOverLimit: "field '{field}': too many chips"
                case .pendingOverLimit: "field '{field}': pending text over the limit"
                case .insertionIndexOutOfRange: "field '{field}': insertion index {value} out of range"
                case .caretOutOfRange: "field '{field}': caret {value} out of range"
                case .serialOutOfRange: "field '{field}': next serial number {value} out of range"
                case .invalidChipIdentity: "field '{field}': chip identity {chip} names no field or serial number"
                case .repeatedChipIdentity: "field '{field}': chip identity {chip} repeats"
                case .selectionNamesNoChip: "field '{field}': selection names a chip it does not hold"
                case .chipNotOneChip: "field '{field}': chip {position}'s text {text} is not one chip when typed again"
                }
            }
        }

        let kind: Kind
        init(_ kind: Kind) { self.kind = kind }

        /// The stable code, e.g. `caret-out-of-range`.
        public var code: String { kind.rawValue }
        /// Every reason.
        ///
        /// - Complexity: O(*n*), where *n* is the number of reasons.
        public static var allReasons: [Reason] { Kind.allCases.map(Reason.init) }

        /// `unreadable-snapshot-version`: "snapshot version {version} is not one of {readable}".
        public static let unreadableVersion = Reason(.unreadableVersion)
        /// `snapshot-without-fields`: "a snapshot needs a field".
        public static let noField = Reason(.noField)
        /// `invalid-field-name`: "field name {field} is not a header name (visible ASCII but ':' and ',')".
        public static let invalidFieldName = Reason(.invalidFieldName)
        /// `repeated-field-names`: "field names repeat".
        public static let repeatedFieldNames = Reason(.repeatedFieldNames)
        /// `too-many-fields`: "{count} fields are too many".
        public static let tooManyFields = Reason(.tooManyFields)
        /// `unknown-policy`: "unknown policy {policy}".
        public static let unknownPolicy = Reason(.unknownPolicy)
        /// `field-without-policy`: "field '{field}': no policy".
        public static let noPolicy = Reason(.noPolicy)
        /// `field-without-limits`: "field '{field}': no limits".
        public static let noLimits = Reason(.noLimits)
        /// `limits-out-of-range`: "field '{field}': limits {maxChips} chips, {maxPendingBytes} pending bytes out of range".
        public static let limitsOutOfRange = Reason(.limitsOutOfRange)
        /// `max-chip-bytes-out-of-range`: "field '{field}': maxChipBytes {value} out of range".
        public static let maxChipBytesOutOfRange = Reason(.maxChipBytesOutOfRange)
        /// `invalid-common-domain`: "field '{field}': common domain {domain} is not a domain".
        public static let invalidCommonDomain = Reason(.invalidCommonDomain)
        /// `focus-names-no-field`: "focus names no field ({field})".
        public static let focusNamesNoField = Reason(.focusNamesNoField)
        /// `undo-steps-out-of-range`: "maxUndoSteps {value} out of range (0...{maximum})".
        public static let undoStepsOutOfRange = Reason(.undoStepsOutOfRange)
        /// `chips-over-limit`: "field '{field}': too many chips".
        public static let chipsOverLimit = Reason(.chipsOverLimit)
        /// `pending-over-limit`: "field '{field}': pending text over the limit".
        public static let pendingOverLimit = Reason(.pendingOverLimit)
        /// `insertion-index-out-of-range`: "field '{field}': insertion index {value} out of range".
        public static let insertionIndexOutOfRange = Reason(.insertionIndexOutOfRange)
        /// `caret-out-of-range`: "field '{field}': caret {value} out of range".
        public static let caretOutOfRange = Reason(.caretOutOfRange)
        /// `serial-out-of-range`: "field '{field}': next serial number {value} out of range".
        public static let serialOutOfRange = Reason(.serialOutOfRange)
        /// `invalid-chip-identity`: "field '{field}': chip identity {chip} names no field or serial number".
        public static let invalidChipIdentity = Reason(.invalidChipIdentity)
        /// `repeated-chip-identity`: "field '{field}': chip identity {chip} repeats".
        public static let repeatedChipIdentity = Reason(.repeatedChipIdentity)
        /// `selection-names-no-chip`: "field '{field}': selection names a chip it does not hold".
        public static let selectionNamesNoChip = Reason(.selectionNamesNoChip)
        /// `chip-not-one-chip`: "field '{field}': chip {position}'s text {text} is not one chip when typed again".
        public static let chipNotOneChip = Reason(.chipNotOneChip)
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

extension Composer {
    /// The state to save.
    ///
    /// - Complexity: O(*n*) in the number of chips.
    public var snapshot: ComposerSnapshot {
        var s = ComposerSnapshot(
            fields: fields.indices.map { k in
                var field = fields[k].snapshot
                field.name = fieldIDs[k]
                return field
            },
            focus: fieldIDs[focusedIndex], duplicatePolicy: duplicatePolicy)
        s.resolution = resolution
        s.remoteLookups = remoteLookups
        s.remoteSuggestions = remoteSuggestions
        s.maxUndoSteps = maxUndoSteps
        return s
    }

    /// The largest limits and chip length a snapshot may ask for: ten
    /// times the defaults' order, and far below what would exhaust memory.
    public static let maxRestoredChips = 10_000_000
    /// The most pending bytes a restored field's limits may allow.
    public static let maxRestoredPendingBytes = 1 << 24
    /// The largest `maxChipBytes` a restored field's policy may have.
    public static let maxRestoredChipBytes = 1 << 24
    /// The most undo steps a snapshot may ask to keep.
    public static let maxRestoredUndoSteps = 1_000_000

    /// Refuses a field's settings that no field could have been made with,
    /// or that would make restoring unbounded.
    static func checkRestored(_ policy: ValidationPolicy, _ limits: FieldLimits, field: String) throws(SnapshotError) {
        guard (0...Composer.maxRestoredChips).contains(limits.maxChips),
              (0...Composer.maxRestoredPendingBytes).contains(limits.maxPendingBytes) else {
            throw SnapshotError(.limitsOutOfRange, [
                "field": field, "maxChips": "\(limits.maxChips)", "maxPendingBytes": "\(limits.maxPendingBytes)",
            ])
        }
        guard (1...Composer.maxRestoredChipBytes).contains(policy.maxChipBytes) else {
            throw SnapshotError(.maxChipBytesOutOfRange, ["field": field, "value": "\(policy.maxChipBytes)"])
        }
        for domain in policy.commonDomains
        where domain.utf8.isEmpty || domain.utf8.count > 255 || domain.unicodeScalars.contains(where: {
            $0.value <= 0x20 || (0x7F...0xA0).contains($0.value)
        }) {
            throw SnapshotError(.invalidCommonDomain, ["field": field, "domain": domain.debugDescription])
        }
    }

    /// Restores a saved composer, as untrusted input: every rule that
    /// creating a composer and typing apply holds for what is restored.
    /// Refused with a message, never a trap: an unknown version, a field
    /// name ``FieldID/isValidName(_:)`` refuses, repeated field names or
    /// identities, an index, caret, identity or serial number out of
    /// range, limits or a chip length that are negative or over
    /// ``maxRestoredChips``, ``maxRestoredPendingBytes`` and
    /// ``maxRestoredChipBytes``, common domains with control characters or
    /// white space, text over the limits, and a chip whose text typed
    /// again is not one chip. Each chip is its source text typed again
    /// (stored addresses, names, states and warnings are ignored), and
    /// the duplicate policy is applied again: every copy of a repeated
    /// address is marked but one, the first saved without the `duplicate`
    /// warning (the first typed, which may stand in a later field), else
    /// the first in field order.
    ///
    /// - Complexity: O(*n*) in the number of chips and bytes of text.
    public init(snapshot s: ComposerSnapshot) throws(SnapshotError) {
        guard ComposerSnapshot.readableVersions.contains(s.version) else {
            throw SnapshotError(.unreadableVersion, ["version": "\(s.version)", "readable": "\(ComposerSnapshot.readableVersions)"])
        }
        guard !s.fields.isEmpty else { throw SnapshotError(.noField) }
        // A decoded name was checked then; a snapshot made in memory is
        // checked again here.
        let names = s.fields.map(\.name)
        for name in names where !FieldID.isValidName(name.name) {
            throw SnapshotError(.invalidFieldName, ["field": name.name.debugDescription])
        }
        guard Set(names).count == names.count else { throw SnapshotError(.repeatedFieldNames) }
        guard names.count < 1 << 20 else { throw SnapshotError(.tooManyFields, ["count": "\(names.count)"]) }
        // Version 1 kept one policy name and one set of limits for all.
        var sharedPolicy: ValidationPolicy?
        if let name = s.policy {
            guard let p = ValidationPolicy(named: name) else { throw SnapshotError(.unknownPolicy, ["policy": name.debugDescription]) }
            sharedPolicy = p
        }
        var settings: [(ValidationPolicy, FieldLimits)] = []
        for saved in s.fields {
            guard let policy = saved.policy ?? sharedPolicy else {
                throw SnapshotError(.noPolicy, ["field": saved.name.name])
            }
            guard let limits = saved.limits ?? s.limits else {
                throw SnapshotError(.noLimits, ["field": saved.name.name])
            }
            try Composer.checkRestored(policy, limits, field: saved.name.name)
            settings.append((policy, limits))
        }
        self.init(fields: names, policy: settings[0].0, limits: settings[0].1, duplicatePolicy: s.duplicatePolicy)
        var used = Set<ChipID>()
        for (k, saved) in s.fields.enumerated() {
            fields[k] = try ChipField(
                restoring: saved, policy: settings[k].0, limits: settings[k].1, idPrefix: UInt64(k + 1),
                fieldCount: names.count, used: &used)
        }
        guard let focus = fieldIndex(of: s.focus) else {
            throw SnapshotError(.focusNamesNoField, ["field": s.focus.name.debugDescription])
        }
        focusedIndex = focus
        resolution = s.resolution ?? .uniqueMatch
        remoteLookups = s.remoteLookups ?? false
        remoteSuggestions = s.remoteSuggestions ?? false
        if let steps = s.maxUndoSteps {
            guard (0...Composer.maxRestoredUndoSteps).contains(steps) else {
                throw SnapshotError(.undoStepsOutOfRange, ["value": "\(steps)", "maximum": "\(Composer.maxRestoredUndoSteps)"])
            }
            maxUndoSteps = steps
        }
        // The copy of each repeated address that typing left unmarked: the
        // first saved without the `duplicate` warning, else the first in
        // field order. Typing marks every copy but the first typed, which
        // need not be the first in field order (Cc typed before To); the
        // saved warning says which it was, and is only a hint: whether an
        // address repeats, and so how many copies are marked, comes from
        // the texts typed again.
        var firstCopy: [UInt64: (id: ChipID, savedMarked: Bool)] = [:]
        for k in fields.indices {
            for (i, chip) in fields[k].chips.enumerated() {
                guard let key = key(of: chip) else { continue }
                let savedMarked = s.fields[k].chips[i].content.warnings.contains(.duplicate)
                if let first = firstCopy[key], !first.savedMarked || savedMarked { continue }
                firstCopy[key] = (chip.id, savedMarked)
            }
        }
        for (key, first) in firstCopy { remember(first.id, key) }
        for k in fields.indices {
            for (i, chip) in fields[k].chips.enumerated() {
                if let key = key(of: chip), firstCopy[key]?.id != chip.id {
                    // A later copy is marked as typing marks it (no copy is
                    // dropped: a draft loses nothing).
                    if duplicatePolicy != .allow { _ = setDuplicateWarning(chip.id, true, hint: (k, i)) }
                    remember(chip.id, key)
                }
                // A lookup that was in flight is asked again.
                if chip.isResolving { issueLookup(for: chip.id, in: k, query: chip.content.rawText, report: false) }
            }
            fields[k].startJournal()
        }
        checkInvariantsInDebug()
    }
}
