import ChipSyntax

// How recognition's values are saved: readable and stable. Names, not
// numbers, for kinds; text as strings, with bytes that are not UTF-8
// escaped so that nothing is lost; every rule of a policy by name. Each
// decoder also reads the first snapshot format (version 1), in which a
// chip's text was an array of byte values and its kind a number.

/// Bytes as JSON-friendly text: a plain string when they are UTF-8, else
/// an escaped string in which `\` is `\\` and each byte that is not part of
/// well-formed UTF-8 is `\xHH`.
package enum SavedBytes {
    /// The text, and whether it is the bytes exactly (else escaped).
    package static func encode(_ bytes: [UInt8]) -> (text: String, exact: Bool) {
        if let s = String(validating: bytes, as: UTF8.self) { return (s, true) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        let hex: StaticString = "0123456789ABCDEF"
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let b = p[i]
                let n = UTF8Bytes.sequenceLength(p, at: i, end: p.count)
                if b == UInt8(ascii: "\\") {
                    out += [b, b]
                    i += 1
                } else if n == 0 {
                    out += [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex.utf8Start[Int(b >> 4)], hex.utf8Start[Int(b & 15)]]
                    i += 1
                } else {
                    out += p[i..<(i + n)]
                    i += n
                }
            }
        }
        return (String(decoding: out, as: UTF8.self), false)
    }

    /// The bytes of an escaped string, or nil when an escape is malformed.
    package static func decodeEscaped(_ text: String) -> [UInt8]? {
        let s = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        while i < s.count {
            guard s[i] == UInt8(ascii: "\\") else {
                out.append(s[i])
                i += 1
                continue
            }
            guard i + 1 < s.count else { return nil }
            if s[i + 1] == UInt8(ascii: "\\") {
                out.append(s[i])
                i += 2
            } else if s[i + 1] == UInt8(ascii: "x"), i + 3 < s.count, let h = hex(s[i + 2]), let l = hex(s[i + 3]) {
                out.append(h << 4 | l)
                i += 4
            } else {
                return nil
            }
        }
        return out
    }

    /// Encodes bytes under `key` (exact) or `escapedKey`.
    package static func encode<K: CodingKey>(
        _ bytes: [UInt8], _ container: inout KeyedEncodingContainer<K>, key: K, escapedKey: K
    ) throws {
        let (text, exact) = encode(bytes)
        try container.encode(text, forKey: exact ? key : escapedKey)
    }

    /// Decodes bytes saved by ``encode(_:_:key:escapedKey:)``, or as the
    /// array of byte values of version 1.
    package static func decode<K: CodingKey>(
        _ container: KeyedDecodingContainer<K>, key: K, escapedKey: K
    ) throws -> [UInt8] {
        if let escaped = try container.decodeIfPresent(String.self, forKey: escapedKey) {
            guard let bytes = decodeEscaped(escaped) else {
                throw DecodingError.dataCorruptedError(
                    forKey: escapedKey, in: container, debugDescription: "malformed escape in '\(escaped)'")
            }
            return bytes
        }
        if let text = try? container.decode(String.self, forKey: key) { return Array(text.utf8) }
        return try container.decode([UInt8].self, forKey: key)
    }
}

extension ListItem.Kind: Codable {
    var savedName: String { self == .mailbox ? "mailbox" : "group" }

    /// Decodes a kind from its name, `mailbox` or `group`, or from the number
    /// version 1 saved; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let name = try? c.decode(String.self) {
            switch name {
            case "mailbox": self = .mailbox
            case "group": self = .emptyGroup
            default:
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown chip kind '\(name)'")
            }
            return
        }
        let raw = try c.decode(UInt8.self)
        guard let kind = ListItem.Kind(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown chip kind \(raw)")
        }
        self = kind
    }

    /// Encodes the kind as its name, `mailbox` or `group`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(savedName)
    }
}

extension ParsedChip: Codable {
    enum CodingKeys: String, CodingKey {
        case kind, start, end, byteRange, raw, rawEscaped, displayName, address, localPart, domain
        case asciiDomain, unicodeDomain, group, error, errorOffset, warnings, suggestedDomain
    }

    /// Decodes a chip as ``encode(to:)`` writes it, or as version 1 did (a
    /// `byteRange` and bytes as numbers); an end before the start, or an error
    /// without its offset (or an offset without an error), is a decoding error.
    ///
    /// - Complexity: O(*n*), where *n* is the length of the chip's text.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let range: Range<Int>
        if let start = try c.decodeIfPresent(Int.self, forKey: .start) {
            let end = try c.decode(Int.self, forKey: .end)
            guard start <= end else {
                throw DecodingError.dataCorruptedError(forKey: .end, in: c, debugDescription: "end before start")
            }
            range = start..<end
        } else {
            range = try c.decode(Range<Int>.self, forKey: .byteRange)  // version 1
        }
        let error = try c.decodeIfPresent(ChipError.self, forKey: .error)
        let errorOffset = try c.decodeIfPresent(Int.self, forKey: .errorOffset)
        // Recognition gives an error its place, and a valid chip none.
        guard (error == nil) == (errorOffset == nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .errorOffset, in: c, debugDescription: "an error and its offset come together")
        }
        self.init(
            kind: try c.decode(ListItem.Kind.self, forKey: .kind), byteRange: range,
            raw: try SavedBytes.decode(c, key: .raw, escapedKey: .rawEscaped),
            displayName: try c.decodeIfPresent(String.self, forKey: .displayName),
            address: try c.decodeIfPresent(String.self, forKey: .address),
            localPart: try c.decodeIfPresent(String.self, forKey: .localPart),
            domain: try c.decodeIfPresent(String.self, forKey: .domain),
            asciiDomain: try c.decodeIfPresent(String.self, forKey: .asciiDomain),
            unicodeDomain: try c.decodeIfPresent(String.self, forKey: .unicodeDomain),
            group: try c.decodeIfPresent(String.self, forKey: .group),
            error: error, errorOffset: errorOffset,
            warnings: try c.decode(ChipWarnings.self, forKey: .warnings),
            suggestedDomain: try c.decodeIfPresent(String.self, forKey: .suggestedDomain))
    }

    /// Encodes the chip's parts by name, its text as a string (`rawEscaped`,
    /// with `\xHH` escapes, when it is not UTF-8) and its range as `start` and `end`.
    ///
    /// - Complexity: O(*n*), where *n* is the length of the chip's text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(byteRange.lowerBound, forKey: .start)
        try c.encode(byteRange.upperBound, forKey: .end)
        try SavedBytes.encode(raw, &c, key: .raw, escapedKey: .rawEscaped)
        try c.encodeIfPresent(displayName, forKey: .displayName)
        try c.encodeIfPresent(address, forKey: .address)
        try c.encodeIfPresent(localPart, forKey: .localPart)
        try c.encodeIfPresent(domain, forKey: .domain)
        try c.encodeIfPresent(asciiDomain, forKey: .asciiDomain)
        try c.encodeIfPresent(unicodeDomain, forKey: .unicodeDomain)
        try c.encodeIfPresent(group, forKey: .group)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(errorOffset, forKey: .errorOffset)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(suggestedDomain, forKey: .suggestedDomain)
    }
}

extension ValidationPolicy: Codable {
    enum CodingKeys: String, CodingKey {
        case name, allowsObsoleteSyntax, allowsComments, allowsUnnecessaryQuotes, allowsMissingAngleBrackets
        case checksGrammar, requiresHostName, requiresDottedDomain, enforcesLengthLimits, maxChipBytes
        case checksLookalikes, commonDomains, comparesLocalPartsExactly, allowsUnquotedCommaInName
    }

    /// Every rule is read; one that is missing takes the value of the
    /// preset the policy names (or of `standard` for another name), so a
    /// policy saved by an older version, with fewer rules, still loads.
    ///
    /// - Complexity: O(*d*), where *d* is the number of common domains.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .name)
        var p = ValidationPolicy(named: name) ?? .standard
        p.name = name
        func read(_ key: CodingKeys, _ value: inout Bool) throws {
            if let v = try c.decodeIfPresent(Bool.self, forKey: key) { value = v }
        }
        try read(.allowsObsoleteSyntax, &p.allowsObsoleteSyntax)
        try read(.allowsComments, &p.allowsComments)
        try read(.allowsUnnecessaryQuotes, &p.allowsUnnecessaryQuotes)
        try read(.allowsMissingAngleBrackets, &p.allowsMissingAngleBrackets)
        try read(.checksGrammar, &p.checksGrammar)
        try read(.requiresHostName, &p.requiresHostName)
        try read(.requiresDottedDomain, &p.requiresDottedDomain)
        try read(.enforcesLengthLimits, &p.enforcesLengthLimits)
        try read(.checksLookalikes, &p.checksLookalikes)
        try read(.comparesLocalPartsExactly, &p.comparesLocalPartsExactly)
        try read(.allowsUnquotedCommaInName, &p.allowsUnquotedCommaInName)
        if let n = try c.decodeIfPresent(Int.self, forKey: .maxChipBytes) {
            guard n > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .maxChipBytes, in: c, debugDescription: "maxChipBytes \(n)")
            }
            p.maxChipBytes = n
        }
        if let domains = try c.decodeIfPresent([String].self, forKey: .commonDomains) { p.commonDomains = domains }
        self = p
    }

    /// Written as the preset it names (``ValidationPolicy/init(named:)``,
    /// else `standard`) and the rules that differ from it: the 275 common
    /// domains are written only when they are not the preset's, so a
    /// one-chip draft is a few hundred bytes, not 12 KB a field. The reader
    /// above takes a missing rule from the same preset, so what is read is
    /// what was written (and a full policy, as older versions wrote it,
    /// still reads the same).
    ///
    /// - Complexity: O(*d*), where *d* is the number of common domains.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let base = ValidationPolicy(named: name) ?? .standard
        try c.encode(name, forKey: .name)
        func write(_ value: Bool, _ preset: Bool, _ key: CodingKeys) throws {
            if value != preset { try c.encode(value, forKey: key) }
        }
        try write(allowsObsoleteSyntax, base.allowsObsoleteSyntax, .allowsObsoleteSyntax)
        try write(allowsComments, base.allowsComments, .allowsComments)
        try write(allowsUnnecessaryQuotes, base.allowsUnnecessaryQuotes, .allowsUnnecessaryQuotes)
        try write(allowsMissingAngleBrackets, base.allowsMissingAngleBrackets, .allowsMissingAngleBrackets)
        try write(checksGrammar, base.checksGrammar, .checksGrammar)
        try write(requiresHostName, base.requiresHostName, .requiresHostName)
        try write(requiresDottedDomain, base.requiresDottedDomain, .requiresDottedDomain)
        try write(enforcesLengthLimits, base.enforcesLengthLimits, .enforcesLengthLimits)
        if maxChipBytes != base.maxChipBytes { try c.encode(maxChipBytes, forKey: .maxChipBytes) }
        try write(checksLookalikes, base.checksLookalikes, .checksLookalikes)
        if commonDomains != base.commonDomains { try c.encode(commonDomains, forKey: .commonDomains) }
        try write(comparesLocalPartsExactly, base.comparesLocalPartsExactly, .comparesLocalPartsExactly)
        try write(allowsUnquotedCommaInName, base.allowsUnquotedCommaInName, .allowsUnquotedCommaInName)
    }
}
