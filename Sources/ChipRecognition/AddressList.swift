import ChipSyntax

/// A chip parsed from an address list, with everything recognition knows,
/// as owned values.
public struct ParsedChip: Sendable, Hashable {
    /// What the scanner found: a mailbox or an empty group. The engine's;
    /// a host asks ``isEmptyGroup``.
    package var kind: ListItem.Kind
    /// Whether the chip is a group with no members (`Team: ;`): it shows
    /// the group's name.
    public var isEmptyGroup: Bool { kind == .emptyGroup }
    /// Byte offsets of the chip's text in the list.
    public package(set) var byteRange: Range<Int>
    /// The chip's exact source bytes (may be invalid UTF-8).
    public package(set) var raw: [UInt8]
    /// The display name, decoded; nil when there is none.
    public package(set) var displayName: String?
    /// The address as typed (`local@domain`), without obsolete white space
    /// or comments; nil when none could be found.
    public package(set) var address: String?
    /// The local part as typed, obsolete white space and comments included
    /// (decoded for a %-encoded `mailto:` link); nil when none was found.
    public package(set) var localPart: String?
    /// The domain as typed, like ``localPart``; nil when none was found.
    public package(set) var domain: String?
    /// The domain's ASCII form (A-labels), for sending and length checks;
    /// nil when the chip has no usable domain.
    public package(set) var asciiDomain: String?
    /// The domain's Unicode form (A-labels decoded), for display.
    public package(set) var unicodeDomain: String?
    /// The name of the group the chip is in (or, for an empty group, its name).
    public package(set) var group: String?
    /// Why the chip is in error; nil when it is valid.
    public package(set) var error: ChipError?
    /// Where in the list the error was found.
    public package(set) var errorOffset: Int?
    /// Where in the chip's own text (``raw``) the error was found: what a
    /// UI that underlines the place in a chip uses.
    public var errorOffsetInChip: Int? {
        errorOffset.map { min(max($0 - byteRange.lowerBound, 0), raw.count) }
    }
    /// ``errorOffsetInChip`` counted in `unit` of the chip's text as a
    /// string shows it (`String(decoding: raw, as: UTF8.self)`); an offset
    /// inside a scalar counts from the scalar's start.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public func errorOffsetInChip(in unit: TextUnit) -> Int? {
        guard let offset = errorOffsetInChip else { return nil }
        var cursor = TextOffsets.Cursor(raw)
        return cursor.offset(ofByteRoundingDown: offset, unit: unit)
    }
    /// What is worth telling a person about the chip, valid or not.
    public package(set) var warnings: ChipWarnings
    /// With the `likely-typo` warning: the common domain meant, probably.
    public package(set) var suggestedDomain: String?

    /// A chip as recognition makes it. Not for hosts: only recognition
    /// knows which parts agree (an error always has its offset).
    package init(
        kind: ListItem.Kind = .mailbox, byteRange: Range<Int> = 0..<0, raw: [UInt8] = [],
        displayName: String? = nil, address: String? = nil, localPart: String? = nil, domain: String? = nil,
        asciiDomain: String? = nil, unicodeDomain: String? = nil, group: String? = nil,
        error: ChipError? = nil, errorOffset: Int? = nil, warnings: ChipWarnings = [],
        suggestedDomain: String? = nil
    ) {
        self.suggestedDomain = suggestedDomain
        self.kind = kind
        self.byteRange = byteRange
        self.raw = raw
        self.displayName = displayName
        self.address = address
        self.localPart = localPart
        self.domain = domain
        self.asciiDomain = asciiDomain
        self.unicodeDomain = unicodeDomain
        self.group = group
        self.error = error
        self.errorOffset = errorOffset
        self.warnings = warnings
    }

    /// Whether the chip has no ``error``: a mailbox that can be sent to, or an empty group.
    public var isValid: Bool { error == nil }
    /// The source text, with invalid UTF-8 shown as U+FFFD.
    ///
    /// - Complexity: O(*n*), where *n* is the length of ``raw`` in bytes.
    public var rawText: String { String(decoding: raw, as: UTF8.self) }
}

/// Parsing a whole address list at once.
public enum AddressList {
    /// Parses an address list into chips. For many lists, one after
    /// another, a ``Parser`` made once is about twice as fast: this makes
    /// its recognizers for each call.
    ///
    /// - Complexity: O(*n*) in the list's length, plus the recognizers'
    ///   tables.
    public static func parse<C: Collection>(
        _ bytes: C, policy: ValidationPolicy = .standard
    ) -> [ParsedChip] where C.Element == UInt8 {
        let array = Array(bytes)
        // A verdict slot for every 16 bytes or so: a short list does not
        // zero the 128 KiB a corpus run keeps.
        var slots = 64
        while slots < Lookalikes.cacheSize && slots * 16 < array.count { slots *= 2 }
        var parser = Parser(policy: policy, checksLookalikes: policy.checksLookalikes, cacheSlots: slots)
        return array.withUnsafeBufferPointer { parser.parse($0) }
    }

    /// Parses many lists, one after another, with recognizers made once:
    /// making them builds tables and learns each domain's look-alike and
    /// typo verdicts, which costs more than parsing most lists. Each list
    /// is parsed on its own (duplicates are found within a list, never
    /// across lists), so the chips are those ``AddressList/parse(_:policy:)``
    /// gives for the same list.
    ///
    /// ```swift
    /// var parser = AddressList.Parser()
    /// for line in lines {
    ///     for chip in parser.parse(line) { … }
    /// }
    /// ```
    ///
    /// A value: a copy parses on its own (on another task, say).
    public struct Parser: Sendable {
        private var list: ListRecognizer
        private var names: Recognizer

        /// A parser by `policy`.
        ///
        /// - Complexity: O(*t*), the size of the recognizers' tables.
        public init(policy: ValidationPolicy = .standard) {
            self.init(policy: policy, checksLookalikes: policy.checksLookalikes)
        }

        /// A parser by `policy`, with or without the look-alike and typo
        /// checks (an address book's import leaves them out: an imported
        /// address is what its owner saved).
        package init(policy: ValidationPolicy, checksLookalikes: Bool, cacheSlots: Int = Lookalikes.cacheSize) {
            list = ListRecognizer(policy: policy, checksLookalikes: checksLookalikes, cacheSlots: cacheSlots)
            names = Recognizer(policy: policy)
        }

        /// The chips of one list, as ``AddressList/parse(_:policy:)`` gives them.
        ///
        /// - Complexity: O(*n*) in the list's length.
        public mutating func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [ParsedChip] {
            if let chips = bytes.withContiguousStorageIfAvailable({ parse($0) }) { return chips }
            return Array(bytes).withUnsafeBufferPointer { parse($0) }
        }

        /// The chips of one list given as a string.
        ///
        /// - Complexity: O(*n*) in the text's UTF-8 length.
        public mutating func parse(_ text: String) -> [ParsedChip] {
            var text = text
            return text.withUTF8 { parse($0) }
        }

        /// The chips of one list in memory.
        ///
        /// - Complexity: O(*n*) in the list's length.
        package mutating func parse(_ p: UnsafeBufferPointer<UInt8>) -> [ParsedChip] {
            list.reset()
            var scanner = ListScanner()
            var segments: [Segment] = []
            scanner.scan(p) { segments.append($0) }
            scanner.finish(p, base: 0) { segments.append($0) }
            var chips: [ParsedChip] = []
            for segment in segments {
                if let item = list.handle(segment, p, base: 0) {
                    chips.append(AddressList.materialize(item, p, &names))
                }
            }
            return chips
        }
    }

    /// Parses an address list given as a string.
    ///
    /// - Complexity: O(*n*) in the text's UTF-8 length.
    public static func parse(_ text: String, policy: ValidationPolicy = .standard) -> [ParsedChip] {
        parse(Array(text.utf8), policy: policy)
    }

    static func localPart(_ address: String) -> String {
        address.utf8.lastIndex(of: UInt8(ascii: "@")).map { String(address[..<$0]) } ?? address
    }

    static func domain(_ address: String) -> String {
        address.utf8.lastIndex(of: UInt8(ascii: "@")).map { String(address[address.utf8.index(after: $0)...]) } ?? ""
    }

    /// Makes the owned chip of an item; `p` holds the stream from offset `base`.
    package static func materialize(
        _ item: ListItem, _ p: UnsafeBufferPointer<UInt8>, _ recognizer: inout Recognizer, base: Int = 0
    ) -> ParsedChip {
        let r = item.recognition
        func string(_ range: Range<Int>?) -> String? {
            guard let range else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: p[range]), as: UTF8.self)
        }
        var warnings = r.warnings
        var name: String?
        if r.nameRange != nil {
            var bytes: [UInt8] = []
            warnings.formUnion(recognizer.appendDisplayName(r, p, into: &bytes))
            if !bytes.isEmpty { name = String(decoding: bytes, as: UTF8.self) }
        }
        var address: String?
        var addressBytes: [UInt8] = []
        if r.addressRange != nil {
            r.appendAddress(p, into: &addressBytes)
            address = String(decoding: addressBytes, as: UTF8.self)
        }
        let lo = max(0, item.byteRange.lowerBound - base)
        let hi = min(p.count, max(lo, item.byteRange.upperBound - base))
        let raw = Array(UnsafeBufferPointer(rebasing: p[lo..<hi]))
        // Both forms of the domain, from the address without obsolete CFWS
        // (well-formed UTF-8: the chip is valid), read on its bytes.
        var asciiDomain: String?
        var unicodeDomain: String?
        // The domain's bytes and text in the address.
        var domainBytes: ArraySlice<UInt8> = []
        var domainText: String?
        if r.error == nil, address != nil, let at = addressBytes.lastIndex(of: UInt8(ascii: "@")) {
            let d = addressBytes[(at + 1)...]
            let text = String(decoding: d, as: UTF8.self)
            domainBytes = d
            domainText = text
            if d.first == UInt8(ascii: "[") {
                asciiDomain = text
                unicodeDomain = text
            } else if IDNA.isPlainASCII(d) {
                // The common case, without IDNA's work: only lower-casing
                // (most domains are lower case already: one string for both).
                let lower = !d.contains { $0 != ByteClass.lowercased($0) }
                asciiDomain = lower ? text : String(decoding: d.map(ByteClass.lowercased), as: UTF8.self)
                unicodeDomain = text
            } else {
                asciiDomain = try? IDNA.toASCII(text)
                unicodeDomain = (try? IDNA.toUnicode(text)) ?? text
            }
        }
        // The domain as written: most often the address's own text, and
        // then one string holds both.
        var domain: String?
        if r.decodedAddress == nil, let range = r.domainRange {
            let written = UnsafeBufferPointer(rebasing: p[range])
            domain = domainText != nil && written.elementsEqual(domainBytes) ? domainText : string(range)
        }
        return ParsedChip(
            kind: item.kind, byteRange: item.byteRange, raw: raw,
            displayName: name, address: address,
            localPart: r.decodedAddress == nil ? string(r.localPartRange) : address.map(Self.localPart),
            domain: r.decodedAddress == nil ? domain : address.map(Self.domain),
            asciiDomain: asciiDomain, unicodeDomain: unicodeDomain,
            group: item.group.map { String(decoding: $0, as: UTF8.self) },
            error: r.error, errorOffset: r.error == nil ? nil : r.errorOffset,
            warnings: warnings, suggestedDomain: r.suggestedDomain)
    }
}
