/// A field of a composer, named as its header is: `.to`, `.cc`, `.bcc`, or
/// a name of the host's (`Reply-To`), checked once when it is made.
///
/// A name is one or more visible ASCII characters (U+0021 to U+007E) other
/// than `:` (which ends a header's name) and `,` (which separates the names
/// of `chipify --fields`), so no white space, line break, control character
/// or escape sequence reaches a header or a terminal through it. Names
/// compare as header names do (RFC 5322 §1.2.2): without ASCII case, so
/// `FieldID("CC")` is ``cc``; the spelling given is kept for display.
public struct FieldID: Hashable, Sendable, CustomStringConvertible {
    /// The name as given.
    public let name: String
    /// The name in ASCII lower case: what identity compares.
    let key: String

    /// The `To` field.
    public static let to = FieldID(checked: "to")
    /// The `Cc` field.
    public static let cc = FieldID(checked: "cc")
    /// The `Bcc` field.
    public static let bcc = FieldID(checked: "bcc")

    /// A field named `name`, or nil when it cannot name a header (see
    /// ``isValidName(_:)``).
    ///
    /// - Complexity: O(*n*) in the name's UTF-8 length.
    public init?(_ name: String) {
        guard FieldID.isValidName(name) else { return nil }
        self.init(checked: name)
    }

    /// The field a standalone ``ChipField`` of any name saves itself as:
    /// `name` when it can name a header; otherwise `name` with each byte
    /// it may not hold (and each `%`) written as `%XX` in hex (`To:` →
    /// `To%3A`), or `field` for an empty name.
    ///
    /// - Complexity: O(*n*) in the name's UTF-8 length.
    init(naming name: String) {
        if FieldID.isValidName(name) {
            self.init(checked: name)
            return
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in name.utf8 {
            if b > 0x20 && b < 0x7F && b != UInt8(ascii: ":") && b != UInt8(ascii: ",") && b != UInt8(ascii: "%") {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        self.init(checked: out.isEmpty ? "field" : String(decoding: out, as: UTF8.self))
    }

    init(checked name: String) {
        self.name = name
        var lower = Array(name.utf8)
        for k in lower.indices where lower[k] >= 0x41 && lower[k] <= 0x5A { lower[k] |= 0x20 }
        key = String(decoding: lower, as: UTF8.self)
    }

    /// Whether `name` can name a field: one or more visible ASCII
    /// characters other than `:` and `,`.
    ///
    /// - Complexity: O(*n*) in the name's UTF-8 length.
    public static func isValidName(_ name: String) -> Bool {
        !name.utf8.isEmpty
            && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ",") }
    }

    /// The name as a header writes it: `To`, `Cc`, `Bcc`, and otherwise
    /// each word between hyphens with a capital first letter
    /// (`reply-to` → `Reply-To`), as RFC 5322 spells its fields.
    ///
    /// - Complexity: O(*n*), where *n* is the name's length in bytes.
    public var headerName: String {
        var out: [UInt8] = []
        var start = true
        for byte in key.utf8 {
            out.append(start && byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
            start = byte == UInt8(ascii: "-")
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The name as given.
    public var description: String { name }

    /// Equal when the names are, without ASCII case.
    public static func == (a: FieldID, b: FieldID) -> Bool { a.key == b.key }
    /// Hashes the name without ASCII case, as ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

extension FieldID: Codable {
    /// Decoded from its name; a name that cannot name a header is a
    /// decoding error, so a snapshot never holds one.
    ///
    /// - Complexity: O(*n*), where *n* is the name's length in bytes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let name = try c.decode(String.self)
        guard let id = FieldID(name) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "field name \(name.debugDescription) is not a header name (visible ASCII but ':' and ',')")
        }
        self = id
    }

    /// Encodes the field as its name, spelled as given.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(name)
    }
}
