import ChipSyntax
import ChipRecognition

/// A chip's identity: stable across every operation but deletion, and
/// unique across the fields of a composer (a moved chip keeps it).
public struct ChipID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: ChipID, b: ChipID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "\(rawValue)" }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

extension ChipID {
    // Layout: the field's number (from 1 in a composer) above a 40-bit
    // serial, so identities stay unique across fields and a moved chip
    // keeps its own.
    static let serialBits: UInt64 = 40
    static let serialMask: UInt64 = (1 << serialBits) - 1

    /// The high bits of the identities a field makes.
    static func prefix(field: UInt64) -> UInt64 { field << serialBits }

    /// The high bits: which field made the chip.
    var fieldPrefix: UInt64 { rawValue & ~ChipID.serialMask }

    /// The low bits: the chip's serial number in the field that made it.
    var serial: UInt64 { rawValue & ChipID.serialMask }
}

/// Where a chip stands. Selection is separate (``ChipField/isSelected(_:)``).
public enum ChipState: String, Sendable, Hashable, Codable {
    /// A mailbox (or empty group) that can be sent.
    case valid
    /// Text that is not a sendable address; ``Chip/content`` says why.
    case error
    /// Sent: no longer editable, movable or deletable.
    case committed
}

/// One chip of a field: an identity, what recognition found, and whether
/// it was sent.
public struct Chip: Sendable, Hashable, Identifiable, Codable {
    public let id: ChipID
    public var content: ParsedChip
    public var isCommitted: Bool

    public init(id: ChipID, content: ParsedChip, isCommitted: Bool = false) {
        self.id = id
        self.content = content
        self.isCommitted = isCommitted
    }

    public var state: ChipState {
        if isCommitted { return .committed }
        return content.isValid ? .valid : .error
    }

    /// Whether the chip can still be edited, moved or deleted.
    public var isEditable: Bool { !isCommitted }
}
