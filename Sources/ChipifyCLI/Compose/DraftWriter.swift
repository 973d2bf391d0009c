import ChipKit

/// Writes a composer's snapshot as a draft's JSON, by hand: what a save
/// runs. The snapshot's `Codable` form writes the same bytes through an
/// `Encoder`, but with a container, an existential and a coding key per
/// value: a save of 100,000 chips took 1.1–1.7 s that way (streamed
/// straight into the buffer), 0.21 s this way (`chipify-bench
/// compose/draft-save/100000`).
///
/// Invariants:
/// 1. The bytes are those the snapshot's `Codable` form writes through
///    ``JSONValueEncoder``: the same keys in the same order, absent
///    optionals left out, strings escaped by the one JSON escaper, text
///    that is not UTF-8 under the `…Escaped` keys of ``SavedBytes``, and
///    the same refusal of an integer too large for a draft (a test
///    compares the two on random drafts of hostile text, so a key added
///    to a `Codable` form and not here fails it).
/// 2. A draft is read back by the `Codable` form alone
///    (``ComposeDraft/load(_:)``): nothing here is needed to restore one.
struct DraftWriter {
    private(set) var out: ByteBuffer

    /// The snapshot's JSON, or why an integer in it cannot be saved.
    ///
    /// - Complexity: O(*n*) in the chips and bytes of text.
    static func encode(_ s: ComposerSnapshot, capacity: Int = 1 << 16) throws(JSONCodingError) -> ByteBuffer {
        var w = DraftWriter(out: ByteBuffer(capacity: capacity))
        try w.snapshot(s)
        return w.out
    }

    private mutating func snapshot(_ s: ComposerSnapshot) throws(JSONCodingError) {
        out.append("{\"version\":")
        try integer(s.version)
        out.append(",\"fields\":[")
        for (k, field) in s.fields.enumerated() {
            if k > 0 { out.append(",") }
            try self.field(field)
        }
        out.append("],\"focus\":")
        string(s.focus.name)
        out.append(",\"duplicatePolicy\":")
        string(s.duplicatePolicy.rawValue)
        if let policy = s.policy {
            out.append(",\"policy\":")
            string(policy)
        }
        if let limits = s.limits {
            out.append(",\"limits\":")
            try self.limits(limits)
        }
        if let resolution = s.resolution {
            out.append(",\"resolution\":")
            string(resolution.rawValue)
        }
        if let remote = s.remoteLookups {
            out.append(remote ? ",\"remoteLookups\":true" : ",\"remoteLookups\":false")
        }
        if let remote = s.remoteSuggestions {
            out.append(remote ? ",\"remoteSuggestions\":true" : ",\"remoteSuggestions\":false")
        }
        if let steps = s.maxUndoSteps {
            out.append(",\"maxUndoSteps\":")
            out.appendString(String(steps))
        }
        out.append("}")
    }

    private mutating func field(_ f: FieldSnapshot) throws(JSONCodingError) {
        out.append("{\"name\":")
        string(f.name.name)
        if let policy = f.policy {
            out.append(",\"policy\":")
            try self.policy(policy)
        }
        if let limits = f.limits {
            out.append(",\"limits\":")
            try self.limits(limits)
        }
        out.append(",\"chips\":[")
        for (k, chip) in f.chips.enumerated() {
            if k > 0 { out.append(",") }
            try self.chip(chip)
        }
        out.append("],")
        bytes(f.pending, key: "\"pending\":", escapedKey: "\"pendingEscaped\":")
        out.append(",\"caret\":")
        try integer(f.caret)
        out.append(",\"insertionIndex\":")
        try integer(f.insertionIndex)
        out.append(",\"selection\":[")
        for (k, id) in f.selection.enumerated() {
            if k > 0 { out.append(",") }
            try integer(id.rawValue)
        }
        out.append("],\"nextSerial\":")
        try integer(f.nextSerial)
        out.append("}")
    }

    private mutating func limits(_ l: FieldLimits) throws(JSONCodingError) {
        out.append("{\"maxChips\":")
        try integer(l.maxChips)
        out.append(",\"maxPendingBytes\":")
        try integer(l.maxPendingBytes)
        out.append("}")
    }

    private mutating func policy(_ p: ValidationPolicy) throws(JSONCodingError) {
        // The preset the policy names and what differs from it, as its
        // `Codable` form writes it.
        let base = ValidationPolicy(named: p.name) ?? .standard
        out.append("{\"name\":")
        string(p.name)
        func differing(_ key: StaticString, _ value: Bool, _ preset: Bool) {
            if value != preset { flag(key, value) }
        }
        differing(",\"allowsObsoleteSyntax\":", p.allowsObsoleteSyntax, base.allowsObsoleteSyntax)
        differing(",\"allowsComments\":", p.allowsComments, base.allowsComments)
        differing(",\"allowsUnnecessaryQuotes\":", p.allowsUnnecessaryQuotes, base.allowsUnnecessaryQuotes)
        differing(",\"allowsMissingAngleBrackets\":", p.allowsMissingAngleBrackets, base.allowsMissingAngleBrackets)
        differing(",\"checksGrammar\":", p.checksGrammar, base.checksGrammar)
        differing(",\"requiresHostName\":", p.requiresHostName, base.requiresHostName)
        differing(",\"requiresDottedDomain\":", p.requiresDottedDomain, base.requiresDottedDomain)
        differing(",\"enforcesLengthLimits\":", p.enforcesLengthLimits, base.enforcesLengthLimits)
        if p.maxChipBytes != base.maxChipBytes {
            out.append(",\"maxChipBytes\":")
            try integer(p.maxChipBytes)
        }
        differing(",\"checksLookalikes\":", p.checksLookalikes, base.checksLookalikes)
        if p.commonDomains != base.commonDomains {
            out.append(",\"commonDomains\":[")
            for (k, domain) in p.commonDomains.enumerated() {
                if k > 0 { out.append(",") }
                string(domain)
            }
            out.append("]")
        }
        differing(",\"comparesLocalPartsExactly\":", p.comparesLocalPartsExactly, base.comparesLocalPartsExactly)
        differing(",\"allowsUnquotedCommaInName\":", p.allowsUnquotedCommaInName, base.allowsUnquotedCommaInName)
        out.append("}")
    }

    private mutating func chip(_ c: Chip) throws(JSONCodingError) {
        out.append("{\"id\":")
        try integer(c.id.rawValue)
        switch c.state {
        case .valid: out.append(",\"state\":\"valid\",\"content\":")
        case .error: out.append(",\"state\":\"error\",\"content\":")
        case .committed: out.append(",\"state\":\"committed\",\"content\":")
        }
        try content(c.content)
        if let contact = c.contact {
            out.append(",\"contact\":")
            string(contact.rawValue)
        }
        if !c.candidates.isEmpty {
            out.append(",\"candidates\":[")
            for (k, s) in c.candidates.enumerated() {
                if k > 0 { out.append(",") }
                try suggestion(s)
            }
            out.append("]")
        }
        if c.isResolving { out.append(",\"resolving\":true") }
        out.append("}")
    }

    private mutating func content(_ p: ParsedChip) throws(JSONCodingError) {
        out.append(p.kind == .mailbox ? "{\"kind\":\"mailbox\",\"start\":" : "{\"kind\":\"group\",\"start\":")
        try integer(p.byteRange.lowerBound)
        out.append(",\"end\":")
        try integer(p.byteRange.upperBound)
        out.append(",")
        bytes(p.raw, key: "\"raw\":", escapedKey: "\"rawEscaped\":")
        optional(",\"displayName\":", p.displayName)
        optional(",\"address\":", p.address)
        optional(",\"localPart\":", p.localPart)
        optional(",\"domain\":", p.domain)
        optional(",\"asciiDomain\":", p.asciiDomain)
        optional(",\"unicodeDomain\":", p.unicodeDomain)
        optional(",\"group\":", p.group)
        if let error = p.error {
            out.append(",\"error\":")
            string(error.code)
        }
        if let offset = p.errorOffset {
            out.append(",\"errorOffset\":")
            try integer(offset)
        }
        out.append(",\"warnings\":[")
        var first = true
        p.warnings.forEachCode { code in
            if !first { out.append(",") }
            first = false
            JSON.appendString(UnsafeBufferPointer(start: code.utf8Start, count: code.utf8CodeUnitCount), to: out.uniqueStorage)
        }
        out.append("]")
        optional(",\"suggestedDomain\":", p.suggestedDomain)
        out.append("}")
    }

    private mutating func suggestion(_ s: Suggestion) throws(JSONCodingError) {
        out.append("{\"contact\":")
        string(s.contact.rawValue)
        optional(",\"name\":", s.name)
        optional(",\"address\":", s.address)
        if let index = s.addressIndex {
            out.append(",\"addressIndex\":")
            try integer(index)
        }
        out.append(",\"matchClass\":")
        try integer(s.matchClass.rawValue)
        out.append(",\"nameMatches\":")
        try ranges(s.nameMatches)
        out.append(",\"addressMatches\":")
        try ranges(s.addressMatches)
        out.append("}")
    }

    private mutating func ranges(_ rs: [Range<Int>]) throws(JSONCodingError) {
        out.append("[")
        for (k, r) in rs.enumerated() {
            out.append(k > 0 ? ",[" : "[")
            try integer(r.lowerBound)
            out.append(",")
            try integer(r.upperBound)
            out.append("]")
        }
        out.append("]")
    }

    // MARK: Values

    private mutating func string(_ s: String) {
        Contacts.appendJSON(s, &out)
    }

    private mutating func optional(_ key: StaticString, _ s: String?) {
        guard let s else { return }
        out.append(key)
        Contacts.appendJSON(s, &out)
    }

    private mutating func flag(_ key: StaticString, _ value: Bool) {
        out.append(key)
        out.append(value ? "true" : "false")
    }

    /// Text as ``SavedBytes`` saves it: as a string under `key` when it is
    /// UTF-8 (ASCII, the common case, without making a `String`), else
    /// escaped under `escapedKey`.
    private mutating func bytes(_ b: [UInt8], key: StaticString, escapedKey: StaticString) {
        let ascii = b.withUnsafeBufferPointer { p in p.allSatisfy { $0 < 0x80 } }
        if ascii {
            out.append(key)
            JSON.appendString(b, to: &out)
            return
        }
        let (text, exact) = SavedBytes.encode(b)
        out.append(exact ? key : escapedKey)
        Contacts.appendJSON(text, &out)
    }

    /// An integer, refused as the `Codable` form refuses it: a draft's
    /// numbers are read back as `Double`, exact below 2^53.
    private mutating func integer(_ value: Int) throws(JSONCodingError) {
        guard value.magnitude < DraftWriter.integerLimit else {
            throw JSONCodingError(description: "integer \(value) too large for a draft")
        }
        if value >= 0 { out.appendDecimal(value) } else { out.appendString(String(value)) }
    }

    private mutating func integer(_ value: UInt64) throws(JSONCodingError) {
        guard value < DraftWriter.integerLimit else {
            throw JSONCodingError(description: "integer \(value) too large for a draft")
        }
        out.appendDecimal(Int(value))
    }

    static let integerLimit: UInt = 9_000_000_000_000_000
}
