import ChipSyntax
import ChipRecognition
import ChipDirectory

/// A chip's identity: stable across every operation but deletion, and
/// unique across the fields of a composer (a moved chip keeps it).
public struct ChipID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The identity as a number: the number of the field that made the chip
    /// (from 1 in a composer) above a 40-bit serial within that field.
    public let rawValue: UInt64
    /// The identity `rawValue`, taken as it is: a restored snapshot's are
    /// checked by ``Composer/init(snapshot:)``.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Orders identities by number: by the field that made them, then oldest first.
    public static func < (a: ChipID, b: ChipID) -> Bool { a.rawValue < b.rawValue }
    /// The number in decimal.
    public var description: String { "\(rawValue)" }

    /// Decodes an identity from a single number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt64.self)
    }

    /// Encodes the identity as a single number.
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
public struct Chip: Sendable, Hashable, Identifiable {
    /// The chip's identity, kept while it exists, whatever edits or moves it.
    public let id: ChipID
    /// What recognition found in the chip's text.
    public var content: ParsedChip
    /// Whether the chip was sent: a committed chip cannot be edited, moved or deleted.
    public var isCommitted: Bool
    /// The contact the chip stands for: chosen from a suggestion, resolved
    /// from a typed name, or the owner of a typed address.
    public var contact: ContactID?
    /// For an `ambiguous` chip: the contacts its text matched equally well.
    public var candidates: [Suggestion]
    /// A remote directory was asked about the chip's text and has not
    /// answered yet.
    public var isResolving: Bool

    /// A chip with this identity and content; by default not sent, standing
    /// for no contact, and not waiting for a remote answer.
    public init(
        id: ChipID, content: ParsedChip, isCommitted: Bool = false, contact: ContactID? = nil,
        candidates: [Suggestion] = [], isResolving: Bool = false
    ) {
        self.id = id
        self.content = content
        self.isCommitted = isCommitted
        self.contact = contact
        self.candidates = candidates
        self.isResolving = isResolving
    }

    /// Committed when sent, else valid or in error as its content is.
    public var state: ChipState {
        if isCommitted { return .committed }
        return content.isValid ? .valid : .error
    }

    /// Whether the chip can still be edited, moved or deleted.
    public var isEditable: Bool { !isCommitted }
}

extension Chip: Codable {
    enum CodingKeys: String, CodingKey {
        case id, state, content, isCommitted, contact, candidates, resolving
    }

    /// Saved with its state by name (`valid`, `error`, `committed`); a
    /// snapshot of version 1 saved `isCommitted` instead.
    ///
    /// A state that contradicts the content (`valid` for a chip in error) is a
    /// decoding error.
    ///
    /// - Complexity: O(*n* + *c*), where *n* is the length of the chip's text
    ///   and *c* the number of candidates.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let content = try c.decode(ParsedChip.self, forKey: .content)
        let committed: Bool
        if let state = try c.decodeIfPresent(ChipState.self, forKey: .state) {
            committed = state == .committed
            if !committed && state != (content.isValid ? .valid : .error) {
                throw DecodingError.dataCorruptedError(
                    forKey: .state, in: c, debugDescription: "state '\(state.rawValue)' contradicts the chip's content")
            }
        } else {
            committed = try c.decode(Bool.self, forKey: .isCommitted)
        }
        self.init(
            id: try c.decode(ChipID.self, forKey: .id), content: content, isCommitted: committed,
            contact: try c.decodeIfPresent(ContactID.self, forKey: .contact),
            candidates: try c.decodeIfPresent([Suggestion].self, forKey: .candidates) ?? [],
            isResolving: try c.decodeIfPresent(Bool.self, forKey: .resolving) ?? false)
    }

    /// Encodes the chip with its state by name; the candidates and the
    /// resolving flag only when there are some.
    ///
    /// - Complexity: O(*n* + *c*), where *n* is the length of the chip's text
    ///   and *c* the number of candidates.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(state, forKey: .state)
        try c.encode(content, forKey: .content)
        try c.encodeIfPresent(contact, forKey: .contact)
        if !candidates.isEmpty { try c.encode(candidates, forKey: .candidates) }
        if isResolving { try c.encode(true, forKey: .resolving) }
    }
}
