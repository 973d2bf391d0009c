import ChipKit

// A `Codable` bridge to ``JSONReader/Value``, so a draft is read without
// Foundation (whose loading alone would double the CLI's memory), and the
// bytes of a snapshot's `Codable` form are known: ``DraftWriter``, which a
// save uses, is held to them. Only what a composer snapshot uses: objects,
// arrays, strings, booleans, null and integers (exact up to 2^53, which
// chip identities stay below).

/// A node being built: encoders hand out containers that write into it
/// after they are returned, so it is a reference.
final class JSONNode {
    enum Kind { case pending, value(JSONReader.Value), object([(String, JSONNode)]), array([JSONNode]) }
    var kind = Kind.pending

    var value: JSONReader.Value {
        switch kind {
        case .pending: return .null
        case .value(let v): return v
        case .object(let members): return .object(Dictionary(members.map { ($0.0, $0.1.value) }, uniquingKeysWith: { $1 }))
        case .array(let items): return .array(items.map(\.value))
        }
    }

    /// Writes the node as JSON, members in the order they were encoded.
    func write(to out: inout ByteBuffer) {
        switch kind {
        case .pending: out.append("null")
        case .value(let v): JSONNode.write(v, to: &out)
        case .object(let members):
            out.append("{")
            for (k, (key, node)) in members.enumerated() {
                if k > 0 { out.append(",") }
                Contacts.appendJSON(key, &out)
                out.append(":")
                node.write(to: &out)
            }
            out.append("}")
        case .array(let items):
            out.append("[")
            for (k, node) in items.enumerated() {
                if k > 0 { out.append(",") }
                node.write(to: &out)
            }
            out.append("]")
        }
    }

    static func write(_ v: JSONReader.Value, to out: inout ByteBuffer) {
        switch v {
        case .string(let s): Contacts.appendJSON(s, &out)
        case .number(let d):
            if d == d.rounded(), abs(d) < 9.0e15 { out.appendString(String(Int64(d))) } else { out.appendString("\(d)") }
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("null")
        case .array(let items):
            let node = JSONNode()
            node.kind = .array(items.map { let n = JSONNode(); n.kind = .value($0); return n })
            node.write(to: &out)
        case .object(let members):
            let node = JSONNode()
            node.kind = .object(members.sorted { $0.key < $1.key }.map { let n = JSONNode(); n.kind = .value($1); return ($0, n) })
            node.write(to: &out)
        }
    }
}

struct JSONCodingError: Error, CustomStringConvertible {
    var description: String
}

final class JSONValueEncoder: Encoder {
    let root: JSONNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(root: JSONNode = JSONNode()) { self.root = root }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = root.kind {} else { root.kind = .object([]) }
        return KeyedEncodingContainer(KeyedEncoder<Key>(node: root))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = root.kind {} else { root.kind = .array([]) }
        return UnkeyedEncoder(node: root)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleEncoder(node: root) }

    static func encode(_ value: some Encodable, into node: JSONNode) throws {
        switch value {
        case let s as String: node.kind = .value(.string(s))
        case let b as Bool: node.kind = .value(.bool(b))
        default: try value.encode(to: JSONValueEncoder(root: node))
        }
    }

    struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: JSONNode
        var codingPath: [any CodingKey] = []

        func child(_ key: Key) -> JSONNode {
            let child = JSONNode()
            if case .object(var members) = node.kind {
                // Out of the node first, so the array is not shared and
                // the append does not copy it (that copy made saving
                // quadratic in the chips).
                node.kind = .pending
                members.append((key.stringValue, child))
                node.kind = .object(members)
            }
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { child(key).kind = .value(.null) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try JSONValueEncoder.encode(value, into: child(key))
        }
        mutating func nestedContainer<N: CodingKey>(keyedBy: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            JSONValueEncoder(root: child(key)).container(keyedBy: N.self)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONValueEncoder(root: child(key)).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { JSONValueEncoder(root: node) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { JSONValueEncoder(root: child(key)) }
    }

    struct UnkeyedEncoder: UnkeyedEncodingContainer {
        let node: JSONNode
        var codingPath: [any CodingKey] = []
        var count: Int {
            if case .array(let items) = node.kind { return items.count }
            return 0
        }

        func child() -> JSONNode {
            let child = JSONNode()
            if case .array(var items) = node.kind {
                node.kind = .pending  // see KeyedEncoder.child: no shared copy to append to
                items.append(child)
                node.kind = .array(items)
            }
            return child
        }

        mutating func encodeNil() throws { child().kind = .value(.null) }
        mutating func encode(_ value: some Encodable) throws { try JSONValueEncoder.encode(value, into: child()) }
        mutating func nestedContainer<N: CodingKey>(keyedBy: N.Type) -> KeyedEncodingContainer<N> {
            JSONValueEncoder(root: child()).container(keyedBy: N.self)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            JSONValueEncoder(root: child()).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { JSONValueEncoder(root: child()) }
    }

    struct SingleEncoder: SingleValueEncodingContainer {
        let node: JSONNode
        var codingPath: [any CodingKey] = []

        mutating func encodeNil() throws { node.kind = .value(.null) }
        mutating func encode(_ value: Bool) throws { node.kind = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { node.kind = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { node.kind = .value(.number(value)) }
        mutating func encode(_ value: Float) throws { node.kind = .value(.number(Double(value))) }
        mutating func encode<T: BinaryInteger & Encodable>(integer value: T) throws {
            guard let d = Double(exactly: value), abs(d) < 9.0e15 else {
                throw JSONCodingError(description: "integer \(value) too large for a draft")
            }
            node.kind = .value(.number(d))
        }
        mutating func encode(_ value: Int) throws { try encode(integer: value) }
        mutating func encode(_ value: Int8) throws { try encode(integer: value) }
        mutating func encode(_ value: Int16) throws { try encode(integer: value) }
        mutating func encode(_ value: Int32) throws { try encode(integer: value) }
        mutating func encode(_ value: Int64) throws { try encode(integer: value) }
        mutating func encode(_ value: UInt) throws { try encode(integer: value) }
        mutating func encode(_ value: UInt8) throws { try encode(integer: value) }
        mutating func encode(_ value: UInt16) throws { try encode(integer: value) }
        mutating func encode(_ value: UInt32) throws { try encode(integer: value) }
        mutating func encode(_ value: UInt64) throws { try encode(integer: value) }
        mutating func encode(_ value: some Encodable) throws { try JSONValueEncoder.encode(value, into: node) }
    }
}

struct JSONValueDecoder: Decoder {
    let value: JSONReader.Value
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw JSONCodingError(description: "expected an object at \(path)") }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw JSONCodingError(description: "expected an array at \(path)") }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }

    var path: String { codingPath.map(\.stringValue).joined(separator: ".") }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONReader.Value]
        var codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }
        func decoder(_ key: Key) throws -> JSONValueDecoder {
            guard let v = members[key.stringValue] else {
                throw JSONCodingError(description: "no \"\(key.stringValue)\"")
            }
            return JSONValueDecoder(value: v, codingPath: codingPath + [key])
        }
        func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue] == nil || members[key.stringValue] == .null }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).decode(T.self) }
        func nestedContainer<N: CodingKey>(keyedBy: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            try decoder(key).container(keyedBy: N.self)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(key).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { JSONValueDecoder(value: .object(members), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONReader.Value]
        var codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONReader.Value], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        mutating func next() throws -> JSONValueDecoder {
            guard !isAtEnd else { throw JSONCodingError(description: "array too short") }
            defer { currentIndex += 1 }
            return JSONValueDecoder(value: items[currentIndex], codingPath: codingPath)
        }
        mutating func decodeNil() throws -> Bool {
            if !isAtEnd && items[currentIndex] == .null { currentIndex += 1; return true }
            return false
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(T.self) }
        mutating func nestedContainer<N: CodingKey>(keyedBy: N.Type) throws -> KeyedDecodingContainer<N> {
            try next().container(keyedBy: N.self)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONReader.Value
        var codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let b) = value else { throw JSONCodingError(description: "expected a boolean") }
            return b
        }
        func decode(_ type: String.Type) throws -> String {
            guard case .string(let s) = value else { throw JSONCodingError(description: "expected a string") }
            return s
        }
        func number() throws -> Double {
            guard case .number(let d) = value else { throw JSONCodingError(description: "expected a number") }
            return d
        }
        func integer<T: BinaryInteger>(_: T.Type) throws -> T {
            let d = try number()
            guard let v = T(exactly: d) else { throw JSONCodingError(description: "expected an integer, not \(d)") }
            return v
        }
        func decode(_ type: Double.Type) throws -> Double { try number() }
        func decode(_ type: Float.Type) throws -> Float { Float(try number()) }
        func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONValueDecoder(value: value, codingPath: codingPath).decode(T.self) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try Single(value: value, codingPath: codingPath).decode(String.self) as! T
        case is Bool.Type: return try Single(value: value, codingPath: codingPath).decode(Bool.self) as! T
        default: return try T(from: self)
        }
    }
}
