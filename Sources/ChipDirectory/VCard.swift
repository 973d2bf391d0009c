// vCard 2.1 (versit), 3.0 (RFC 2425/2426) and 4.0 (RFC 6350) cards into
// contacts, on bytes.
//
// One pass finds each card's lines and keeps the ranges of the properties
// a contact needs; at END:VCARD, when the card's version is known (it
// decides how folded lines unfold, which escapes exist and whether `N`'s
// parts are lists), those properties are decoded. Properties a contact
// does not use (ADR, PHOTO, NOTE, …) cost one scan of their bytes and no
// allocation.

import ChipSyntax

/// A property of the open card, as a range of the text.
struct VCardProperty {
    enum Name: UInt8 {
        case version, fn, n, nickname, org, categories, uid, email, kind, member, label
        /// `TEL`, Apple's `X-ABUID` (the identity its groups' members may
        /// name), Android's `X-ANDROID-CUSTOM` (nicknames among others).
        case tel, abuid, androidCustom
    }

    var name: Name
    /// The logical line: its first byte, and the end of its last physical
    /// line's content (folds and soft line breaks included).
    var start: Int
    var end: Int
    /// The 1-based line it starts on.
    var line: Int
    /// Whether it spans more than one physical line.
    var isFolded: Bool
    /// Whether a parameter says `QUOTED-PRINTABLE`, so a final `=` continues
    /// the value on the next line.
    var isQuotedPrintable: Bool
    /// Where the parts of an unfolded line are, found when it was scanned
    /// (a folded line is parsed again once unfolded).
    var header: VCardLineHeader
}

/// Why a card cannot be imported.
struct VCardFault: Error {
    var reason: ContactImportProblem.Reason
    var values: [String: String]

    init(_ reason: ContactImportProblem.Reason, _ values: [String: String] = [:]) {
        self.reason = reason
        self.values = values
    }
}

/// Where the parts of a property line are: `[group "."] name *(";" param) ":" value`.
struct VCardLineHeader {
    var groupEnd: Int  // -1 without a group
    var nameStart: Int
    var nameEnd: Int
    var colon: Int
    var isQuotedPrintable: Bool
    var nameIsValid: Bool

    /// Finds the parts of `p`, or `nil` when it has no colon outside a
    /// quoted parameter value. Leading white space is skipped.
    static func parse(_ p: UnsafeBufferPointer<UInt8>) -> VCardLineHeader? {
        let n = p.count
        var i = 0
        while i < n && ByteClass.isSpace(p[i]) { i += 1 }
        var nameStart = i
        var groupEnd = -1
        var valid = true
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: ":") || b == ASCII.semicolon { break }
            if b == UInt8(ascii: ".") {
                if i == nameStart { valid = false }
                groupEnd = i
                nameStart = i + 1
            } else if !(ByteClass.isLetterOrDigit(b) || b == ASCII.hyphen) {
                valid = false
            }
            i += 1
        }
        guard i < n else { return nil }
        let nameEnd = i
        if nameEnd == nameStart { valid = false }
        var isQP = false
        if p[i] == ASCII.semicolon {
            var inQuote = false
            while i < n {
                let b = p[i]
                if b == ASCII.quote {
                    inQuote.toggle()
                } else if !inQuote {
                    if b == UInt8(ascii: ":") { break }
                    if !isQP && (b == ASCII.semicolon || b == UInt8(ascii: "=") || b == ASCII.comma) {
                        var j = i + 1
                        while j < n && ByteClass.isSpace(p[j]) { j += 1 }
                        if asciiCaseInsensitiveEquals(p, &j, "QUOTED-PRINTABLE") { isQP = true }
                    }
                }
                i += 1
            }
            guard i < n else { return nil }
        }
        return VCardLineHeader(groupEnd: groupEnd, nameStart: nameStart, nameEnd: nameEnd, colon: i,
                               isQuotedPrintable: isQP, nameIsValid: valid)
    }
}

/// Reads the cards of a text (UTF-8, or 8-bit whose values name their
/// charsets) into contacts and problems.
///
/// Invariants: (1) every card that starts (`BEGIN:VCARD`) ends as one
/// contact or as one problem that skips it; (2) `properties` holds only the
/// open card's; (3) a value handed out by ``value(_:wantsTypes:)`` stays
/// valid until the next call (each decoding stage writes its own scratch).
struct VCardReader: ~Copyable {
    let text: UnsafeBufferPointer<UInt8>
    let strict: Bool
    /// Whether the file's literal text is already Unicode (a byte order
    /// mark, or UTF-16), so `CHARSET` applies only to encoded values.
    let isUnicode: Bool
    /// The charset of text that names none and is not UTF-8.
    let fallback: Charset

    private(set) var contacts: [Contact] = []
    private(set) var problems: [ContactImportProblem] = []
    /// The identities given so far, carried from piece to piece of a stream.
    private var ids: ContactIDAllocator
    /// The line the text starts on.
    let firstLine: Int
    /// The line after the text's last line break, once ``read()`` is done.
    private(set) var endLine = 0
    /// Reads EMAIL values that are not a plain address.
    private var emailParser = EmailValue.makeParser()

    /// The contacts read, leaving none in the reader (moved, not copied:
    /// a copy retains and releases every string of every contact).
    mutating func takeContacts() -> [Contact] {
        defer { contacts = [] }
        return contacts
    }

    /// The identities given so far, leaving none in the reader.
    mutating func takeIDs() -> ContactIDAllocator {
        defer { ids = ContactIDAllocator() }
        return ids
    }

    /// The `X-ABUID`s read (as ``appleKey(_:)``) and the identities of
    /// their contacts, for a stream to resolve later pieces' groups.
    var appleIdentities: [(key: String, id: ContactID)] {
        appleIDs.map { (VCardReader.appleKey(Substring($0.abuid)), contacts[$0.index].id) }
    }

    // The open card.
    private var properties: [VCardProperty] = []
    private var cardLine = 0
    private var fault: VCardFault?
    private var propertyCount = 0
    private var versionPlace = -1
    /// Whether the open card has a property that holds data beyond its
    /// identity (anything but VERSION, PRODID, UID, REV, KIND and the
    /// properties read into the contact): such a card is kept even without
    /// a name or an address.
    private var hasOtherData = false
    /// Whether the last property was an `AGENT` with an empty value: vCard
    /// 2.1 writes the agent's card on the lines that follow.
    private var agentPending = false
    /// Warnings found while scanning the open card (kept if the card is).
    private var scanProblems: [ContactImportProblem] = []
    /// Apple's `X-ABUID` of each contact that has one, by contact index.
    private var appleIDs: [(index: Int, abuid: String)] = []

    // The card being finished.
    private var version: ContactSource = .vCard30
    private var cardProblems: [ContactImportProblem] = []

    // The last CHARSET named and what it is: 2.1 files name one per value.
    private var lastCharsetLabel: [UInt8] = []
    private var lastCharset: Charset?

    private var unfolded = ScratchBytes()
    private var transfer = ScratchBytes()
    private var decoded = ScratchBytes()
    private var piece = ScratchBytes()

    init(text: UnsafeBufferPointer<UInt8>, options: ContactImportOptions, isUnicode: Bool, fallback: Charset,
         firstLine: Int = 1, ids: consuming ContactIDAllocator? = nil) {
        self.text = text
        strict = options.strict
        self.isUnicode = isUnicode
        self.fallback = fallback
        self.firstLine = firstLine
        contacts.reserveCapacity(text.count / 256)
        self.ids = ids ?? ContactIDAllocator(expectedCount: text.count / 256)
    }

    /// Reads every card.
    ///
    /// - Complexity: O(*n*) in the text's size.
    mutating func read() {
        let n = text.count
        var pos = 0
        var lineNumber = firstLine
        var inCard = false
        while pos < n {
            let start = pos
            let startLine = lineNumber
            let first = physicalLine(text, from: pos)
            pos = first.next
            lineNumber += 1
            if !inCard {
                if isOnly(start, first.contentEnd, "BEGIN", "VCARD") {
                    endStray()
                    endStrayText()
                    open(at: startLine)
                    inCard = true
                } else if looksLikeProperty(start, first.contentEnd) {
                    // Data outside a card (not a stray END): reported, not
                    // silently dropped.
                    endStrayText()
                    if strayStart == 0 { strayStart = startLine }
                    strayLines += 1
                } else if start < first.contentEnd && !ByteClass.isSpace(text[start]) {
                    // Free text (a heading, a pasted address): reported
                    // too; a stray END holds nothing to lose.
                    endStray()
                    if !isOnly(start, first.contentEnd, "END", "VCARD") { noteStrayText(start, first.contentEnd, line: startLine) }
                }
                continue
            }
            var end = first.contentEnd
            var folded = false
            while pos < n && ByteClass.isSpace(text[pos]) {
                let next = physicalLine(text, from: pos)
                end = next.contentEnd
                pos = next.next
                lineNumber += 1
                folded = true
            }
            let logical = UnsafeBufferPointer(rebasing: text[start..<end])
            if trimmingSpaces(logical).isEmpty { continue }  // blank lines are tolerated
            let header: VCardLineHeader?
            if folded {
                unfold(start, end, removingOneSpace: true, quotedPrintable: false)
                header = VCardLineHeader.parse(unfolded.bytes)
            } else {
                header = VCardLineHeader.parse(logical)
            }
            guard let header else {
                agentPending = false
                if strict {
                    if fault == nil { fault = VCardFault(.notAProperty, ["line": "\(startLine)"]) }
                } else {
                    // An editor-wrapped NOTE, a pasted line: the line goes,
                    // the card stays.
                    scanProblems.append(ContactImportProblem(
                        line: startLine, .notAPropertySkipped, ["line": "\(startLine)"],
                        skipsRecord: false))
                }
                continue
            }
            let lineBytes = folded ? unfolded.bytes : logical
            let nameBytes = UnsafeBufferPointer(rebasing: lineBytes[header.nameStart..<header.nameEnd])
            let valueBytes = trimmingSpaces(UnsafeBufferPointer(rebasing: lineBytes[(header.colon + 1)...]))
            if header.groupEnd < 0 && asciiCaseInsensitiveIs(nameBytes, "BEGIN") && asciiCaseInsensitiveIs(valueBytes, "VCARD") {
                if agentPending {
                    // vCard 2.1's AGENT: the agent's card, nested, is not
                    // this contact's; the outer card goes on after its END.
                    // A BEGIN:VCARD that is not an agent's own agent means
                    // the agent's END was lost: the skip stops before it.
                    agentPending = false
                    var depth = 1
                    var afterAgent = false
                    while pos < n && depth > 0 {
                        let next = physicalLine(text, from: pos)
                        if isOnly(pos, next.contentEnd, "BEGIN", "VCARD") {
                            if !afterAgent { break }
                            depth += 1
                        } else if isOnly(pos, next.contentEnd, "END", "VCARD") {
                            depth -= 1
                        }
                        afterAgent = isEmptyAgent(pos, next.contentEnd)
                        pos = next.next
                        lineNumber += 1
                    }
                    hasOtherData = true
                    continue
                }
                if strict {
                    reject(VCardFault(.noEndBeforeBegin, ["line": "\(startLine)"]))
                } else {
                    scanProblems.append(ContactImportProblem(
                        line: cardLine, .noEndBeforeBeginRepaired, ["line": "\(startLine)"],
                        skipsRecord: false))
                    finish()
                }
                open(at: startLine)
                continue
            }
            if header.groupEnd < 0 && asciiCaseInsensitiveIs(nameBytes, "END") && asciiCaseInsensitiveIs(valueBytes, "VCARD") {
                finish()
                inCard = false
                continue
            }
            propertyCount += 1
            agentPending = false
            if !header.nameIsValid {
                if strict && fault == nil {
                    fault = VCardFault(.invalidPropertyName, [
                        "name": makeString(UnsafeBufferPointer(rebasing: lineBytes[..<header.colon])), "line": "\(startLine)",
                    ])
                }
                continue
            }
            if header.isQuotedPrintable {
                // Soft line breaks: a final `=` continues the value on the next
                // line, which need not start with white space.
                while pos < n && end > start && text[end - 1] == UInt8(ascii: "=") {
                    let next = physicalLine(text, from: pos)
                    // A soft break on a card's last line: the END (or the
                    // next card's BEGIN) is not part of the value.
                    if isOnly(pos, next.contentEnd, "END", "VCARD") || isOnly(pos, next.contentEnd, "BEGIN", "VCARD") {
                        break
                    }
                    end = next.contentEnd
                    pos = next.next
                    lineNumber += 1
                    folded = true
                    while pos < n && ByteClass.isSpace(text[pos]) {
                        let fold = physicalLine(text, from: pos)
                        end = fold.contentEnd
                        pos = fold.next
                        lineNumber += 1
                    }
                }
            }
            guard let name = VCardReader.classify(nameBytes) else {
                if asciiCaseInsensitiveIs(nameBytes, "AGENT") {
                    agentPending = valueBytes.isEmpty
                    hasOtherData = hasOtherData || !valueBytes.isEmpty
                } else if !VCardReader.isIdentityOnly(nameBytes) && !valueBytes.isEmpty {
                    hasOtherData = true
                }
                continue
            }
            if name == .version { versionPlace = propertyCount - 1 }
            properties.append(VCardProperty(name: name, start: start, end: end, line: startLine, isFolded: folded,
                                            isQuotedPrintable: header.isQuotedPrintable, header: header))
        }
        endStray()
        endStrayText()
        if inCard {
            if strict {
                reject(VCardFault(.noEndBeforeEndOfFile))
            } else {
                scanProblems.append(ContactImportProblem(
                    line: cardLine, .noEndBeforeEndOfFileRepaired,
                    skipsRecord: false))
                finish()
            }
        }
        if !appleIDs.isEmpty { VCardReader.resolveAppleMembers(&contacts, appleIDs: appleIDs) }
        endLine = lineNumber
    }

    /// The properties that say what a card is, not what it holds.
    static func isIdentityOnly(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiCaseInsensitiveIs(name, "PRODID") || asciiCaseInsensitiveIs(name, "REV")
            || asciiCaseInsensitiveIs(name, "X-ABSHOWAS")
    }

    /// Apple's groups name members by `urn:uuid:` and a card's `UID` or its
    /// `X-ABUID` (`…:ABPerson`): a member that names an `X-ABUID` and no
    /// contact's id is rewritten to `urn:uuid:` and that card's id, so it
    /// resolves as a UID does.
    static func resolveAppleMembers(_ contacts: inout [Contact], appleIDs: [(index: Int, abuid: String)]) {
        let key = appleKey
        var byAppleID: [String: ContactID] = [:]
        for entry in appleIDs where byAppleID[key(Substring(entry.abuid))] == nil {
            byAppleID[key(Substring(entry.abuid))] = contacts[entry.index].id
        }
        var ids: Set<String> = []
        for c in contacts { ids.insert(c.id.rawValue) }
        for k in contacts.indices where contacts[k].kind == .group {
            for m in contacts[k].members.indices {
                let member = contacts[k].members[m]
                guard member.utf8.count > 9, member.prefix(9).lowercased() == "urn:uuid:" else { continue }
                let bare = member.dropFirst(9)
                if ids.contains(member) || ids.contains(String(bare)) { continue }
                if let id = byAppleID[key(bare)] { contacts[k].members[m] = "urn:uuid:" + id.rawValue }
            }
        }
    }

    /// An `X-ABUID` as groups name it: without `:ABPerson`, upper-cased.
    static func appleKey(_ s: Substring) -> String {
        var s = s
        if s.utf8.count > 9 && String(s.suffix(9)).lowercased() == ":abperson" { s = s.dropLast(9) }
        return s.uppercased()
    }

    /// Rewrites the members of `groups` that name an `X-ABUID` of `byAppleID`
    /// (cards of earlier pieces of a stream) and no known identity.
    static func resolveAppleMembers(_ groups: inout [Contact], byAppleID: [String: ContactID],
                                    isKnown: (String) -> Bool) {
        for k in groups.indices where groups[k].kind == .group {
            for m in groups[k].members.indices {
                let member = groups[k].members[m]
                guard member.utf8.count > 9, member.prefix(9).lowercased() == "urn:uuid:" else { continue }
                let bare = member.dropFirst(9)
                if isKnown(member) || isKnown(String(bare)) { continue }
                if let id = byAppleID[appleKey(bare)] { groups[k].members[m] = "urn:uuid:" + id.rawValue }
            }
        }
    }

    /// The first line of a run of property lines outside every card, and
    /// how many there are (0 when none is open).
    private var strayStart = 0
    private var strayLines = 0

    /// Reports the run of property lines outside a card, if one is open.
    private mutating func endStray() {
        guard strayStart > 0 else { return }
        problems.append(ContactImportProblem(
            line: strayStart,
            .propertiesOutsideCard, ["count": "\(strayLines)"]))
        strayStart = 0
        strayLines = 0
    }

    /// The first line of a run of lines of free text outside every card
    /// (0 when none is open), how many, whether one holds an `@`, and the
    /// first one's text (up to 60 bytes).
    private var strayTextStart = 0
    private var strayTextLines = 0
    private var strayTextHoldsAt = false
    private var strayTextFirst = ""

    /// Adds a line of free text outside a card to the run, unless it holds
    /// nothing visible (a control such as an old DOS end-of-file mark).
    private mutating func noteStrayText(_ start: Int, _ end: Int, line: Int) {
        let bytes = UnsafeBufferPointer(rebasing: text[start..<end])
        guard bytes.contains(where: { $0 > 0x20 && $0 != 0x7F }) else { return }
        if strayTextStart == 0 {
            strayTextStart = line
            strayTextFirst = String(decoding: bytes.prefix(60), as: UTF8.self)
        }
        strayTextLines += 1
        if bytes.contains(UInt8(ascii: "@")) { strayTextHoldsAt = true }
    }

    /// Reports the run of free text outside a card, if one is open: a
    /// warning, unless a line holds an `@` (it may be an address that was
    /// not imported).
    private mutating func endStrayText() {
        guard strayTextStart > 0 else { return }
        problems.append(ContactImportProblem(
            line: strayTextStart, .textOutsideCard, ["count": "\(strayTextLines)", "text": strayTextFirst],
            skipsRecord: strayTextHoldsAt))
        strayTextStart = 0
        strayTextLines = 0
        strayTextHoldsAt = false
        strayTextFirst = ""
    }

    /// Whether the line has a content line's shape, `[group.]name` then
    /// `:` or `;` (RFC 6350 §3.3), and is not a BEGIN or END.
    private func looksLikeProperty(_ start: Int, _ end: Int) -> Bool {
        var i = start
        var nameStart = start
        while i < end {
            let b = text[i]
            if ByteClass.isLetterOrDigit(b) || b == UInt8(ascii: "-") {
                i += 1
            } else if b == UInt8(ascii: "."), i > nameStart {
                i += 1
                nameStart = i
            } else {
                break
            }
        }
        guard i > nameStart, i < end, text[i] == UInt8(ascii: ":") || text[i] == UInt8(ascii: ";") else { return false }
        let name = UnsafeBufferPointer(rebasing: text[nameStart..<i])
        var k = 0
        if asciiCaseInsensitiveEquals(name, &k, "BEGIN"), k == name.count { return false }
        k = 0
        if asciiCaseInsensitiveEquals(name, &k, "END"), k == name.count { return false }
        return true
    }

    /// Whether the line `start..<end` is `AGENT:` with no value (2.1's
    /// agent card follows on the next lines).
    private func isEmptyAgent(_ start: Int, _ end: Int) -> Bool {
        let p = trimmingSpaces(UnsafeBufferPointer(rebasing: text[start..<end]))
        var i = 0
        guard asciiCaseInsensitiveEquals(p, &i, "AGENT") else { return false }
        while i < p.count && p[i] != UInt8(ascii: ":") { i += 1 }
        return i + 1 == p.count
    }

    /// Whether the line `start..<end` is `name:value` (any case, spaces around the colon).
    private func isOnly(_ start: Int, _ end: Int, _ name: StaticString, _ value: StaticString) -> Bool {
        let p = trimmingSpaces(UnsafeBufferPointer(rebasing: text[start..<end]))
        var i = 0
        guard asciiCaseInsensitiveEquals(p, &i, name) else { return false }
        while i < p.count && ByteClass.isSpace(p[i]) { i += 1 }
        guard i < p.count && p[i] == UInt8(ascii: ":") else { return false }
        i += 1
        while i < p.count && ByteClass.isSpace(p[i]) { i += 1 }
        guard asciiCaseInsensitiveEquals(p, &i, value) else { return false }
        return i == p.count
    }

    private mutating func open(at line: Int) {
        properties.removeAll(keepingCapacity: true)
        cardLine = line
        fault = nil
        propertyCount = 0
        versionPlace = -1
        hasOtherData = false
        agentPending = false
        scanProblems.removeAll()
    }

    /// Skips the open card: an error when it held a name or an address,
    /// a warning otherwise.
    private mutating func reject(_ fault: VCardFault) {
        problems.append(ContactImportProblem(line: cardLine, fault.reason, fault.values, skipsRecord: true,
                                             isWarning: !holdsNameOrAddress()))
    }

    /// Whether an FN, N or EMAIL of the open card has a value with more
    /// than separators and white space (looked at as written).
    private func holdsNameOrAddress() -> Bool {
        for property in properties where property.name == .fn || property.name == .n || property.name == .email {
            var i = property.start
            while i < property.end && text[i] != UInt8(ascii: ":") { i += 1 }
            while i < property.end {
                let b = text[i]
                if !(ByteClass.isSpace(b) || b == ASCII.semicolon || b == UInt8(ascii: ":") || b == ASCII.comma
                     || b == ASCII.carriageReturn || b == ASCII.lineFeed) { return true }
                i += 1
            }
        }
        return false
    }

    /// The properties a contact is made of; the others are skipped.
    static func classify(_ name: UnsafeBufferPointer<UInt8>) -> VCardProperty.Name? {
        switch name.count {
        case 1: return asciiCaseInsensitiveIs(name, "N") ? .n : nil
        case 2: return asciiCaseInsensitiveIs(name, "FN") ? .fn : nil
        case 3:
            if asciiCaseInsensitiveIs(name, "ORG") { return .org }
            if asciiCaseInsensitiveIs(name, "TEL") { return .tel }
            return asciiCaseInsensitiveIs(name, "UID") ? .uid : nil
        case 4: return asciiCaseInsensitiveIs(name, "KIND") ? .kind : nil
        case 5: return asciiCaseInsensitiveIs(name, "EMAIL") ? .email : nil
        case 6: return asciiCaseInsensitiveIs(name, "MEMBER") ? .member : nil
        case 7:
            if asciiCaseInsensitiveIs(name, "X-ABUID") { return .abuid }
            return asciiCaseInsensitiveIs(name, "VERSION") ? .version : nil
        case 8: return asciiCaseInsensitiveIs(name, "NICKNAME") ? .nickname : nil
        case 9: return asciiCaseInsensitiveIs(name, "X-ABLABEL") ? .label : nil
        case 10: return asciiCaseInsensitiveIs(name, "CATEGORIES") ? .categories : nil
        case 16: return asciiCaseInsensitiveIs(name, "X-ANDROID-CUSTOM") ? .androidCustom : nil
        case 24: return asciiCaseInsensitiveIs(name, "X-ADDRESSBOOKSERVER-KIND") ? .kind : nil
        case 26: return asciiCaseInsensitiveIs(name, "X-ADDRESSBOOKSERVER-MEMBER") ? .member : nil
        default: return nil
        }
    }

    // MARK: - Finishing a card

    private mutating func finish() {
        defer {
            properties.removeAll(keepingCapacity: true)
            cardProblems.removeAll()
            scanProblems.removeAll()
        }
        if let fault {
            reject(fault)
            return
        }
        do {
            guard let contact = try build() else { return }
            contacts.append(contact)
            // The card's own warnings first, then its lines' in order.
            var all = scanProblems + cardProblems
            if all.count > 1 {
                all = all.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
            }
            problems.append(contentsOf: all)
        } catch {
            reject(error)
        }
    }

    /// The open card as a contact, or `nil` when it holds nothing (then
    /// skipped with a warning). Strictly, what the RFCs forbid throws;
    /// leniently, a property that cannot be decoded is dropped with a
    /// warning and the card stays.
    private mutating func build() throws(VCardFault) -> Contact? {
        version = .vCard30
        var hasVersion = false
        var declaredVersion: String?
        for property in properties where property.name == .version {
            guard let decoded = try lenient(property, { (r: inout VCardReader) throws(VCardFault) in try r.value(property) })
            else { break }
            let raw = trimmingSpaces(decoded.value)
            let written = makeString(raw)
            declaredVersion = written
            switch written {
            case "2.1": version = .vCard21
            case "3.0": version = .vCard30
            case "4.0": version = .vCard40
            default:
                if strict { throw VCardFault(.unknownVersion, ["version": written, "line": "\(property.line)"]) }
                // Lenient: the major number decides; anything else reads as 3.0.
                switch raw.first {
                case UInt8(ascii: "2"): version = .vCard21
                case UInt8(ascii: "4"): version = .vCard40
                default: version = .vCard30
                }
                cardProblems.append(ContactImportProblem(
                    line: property.line,
                    .unknownVersionRepaired, ["version": written, "readAs": version.rawValue],
                    skipsRecord: false))
            }
            hasVersion = true
            break
        }
        if strict {
            if !hasVersion { throw VCardFault(.noVersion) }
            if version == .vCard40 && versionPlace != 0 {
                throw VCardFault(.versionNotFirst)
            }
        }

        var formatted: String?
        var hasFN = false
        var hasN = false
        var name = StructuredName()
        var nicknames: [String] = []
        var organization: String?
        var categories: [String] = []
        var uid: String?
        var appleID: String?
        var emails: [ContactEmail] = []
        var emailName: String?
        var phones: [String] = []
        var emailGroups: [(index: Int, group: String)] = []
        var labels: [(group: String, label: String)] = []
        var kind = Contact.Kind.individual
        var hasKind = false
        var members: [String] = []

        for property in properties {
            switch property.name {
            case .version:
                continue
            case .fn:
                guard let v = try lenientValue(property) else { continue }
                guard let first = formatted else {
                    hasFN = true
                    formatted = text(v)
                    continue
                }
                // RFC 6350 allows several FN (another language, a name
                // also used): each further one is kept as a nickname, so
                // it is found, not dropped.
                if let other = text(v), !other.isEmpty, other != first, !nicknames.contains(other) { nicknames.append(other) }
            case .n:
                guard !hasN, let v = try lenientValue(property) else { continue }
                hasN = true
                name = structuredName(v)
            case .nickname:
                guard let v = try lenientValue(property) else { continue }
                list(v, into: &nicknames)
            case .categories:
                guard let v = try lenientValue(property) else { continue }
                list(v, into: &categories)
            case .org:
                guard organization == nil, let v = try lenientValue(property) else { continue }
                var i = 0
                organization = nextPiece(v, &i, semicolons: true, commas: false).piece
            case .uid:
                guard uid == nil, let v = try lenientValue(property) else { continue }
                uid = text(v)
            case .abuid:
                guard appleID == nil, let v = try lenientValue(property) else { continue }
                appleID = text(v)
            case .tel:
                // 4.0 writes a `tel:` URI (RFC 3966); the number is what is shown.
                guard var v = try lenientValue(property) else { continue }
                v = trimmingSpaces(v)
                var i = 0
                if asciiCaseInsensitiveEquals(v, &i, "TEL:") { v = UnsafeBufferPointer(rebasing: v[i...]) }
                if let phone = text(v) { phones.append(phone) }
            case .androidCustom:
                // `vnd.android.cursor.item/nickname;Bobby;1;;…`: the MIME
                // type of Android's data row, then its columns.
                guard let v = try lenientValue(property) else { continue }
                var i = 0
                let (mime, separator) = nextPiece(v, &i, semicolons: true, commas: false)
                guard separator == ASCII.semicolon, mime?.lowercased() == "vnd.android.cursor.item/nickname" else {
                    continue
                }
                if let nickname = nextPiece(v, &i, semicolons: true, commas: false).piece { nicknames.append(nickname) }
            case .kind:
                guard !hasKind, let v = try lenientValue(property) else { continue }
                hasKind = true
                let trimmed = trimmingSpaces(v)
                if asciiCaseInsensitiveIs(trimmed, "GROUP") {
                    kind = .group
                } else if asciiCaseInsensitiveIs(trimmed, "ORG") {
                    kind = .org
                } else if asciiCaseInsensitiveIs(trimmed, "LOCATION") {
                    kind = .location
                }
            case .member:
                guard let v = try lenientValue(property) else { continue }
                if let member = text(v) { members.append(member) }
            case .email:
                guard let decoded = try lenient(property, { (r: inout VCardReader) throws(VCardFault) in
                    try r.value(property, wantsTypes: true)
                }) else { continue }
                let read = emailValue(decoded.value)
                if let (reason, values) = read.rejection(onEmailLine: property.line) {
                    cardProblems.append(ContactImportProblem(line: property.line, reason, values, skipsRecord: false))
                }
                if read.addresses.isEmpty {
                    if strict && read.rejected.isEmpty { throw VCardFault(.emptyEmail, ["line": "\(property.line)"]) }
                    continue
                }
                if emailName == nil { emailName = read.displayName }
                for address in read.addresses {
                    if let group = decoded.group { emailGroups.append((emails.count, group)) }
                    emails.append(ContactEmail(address: address, types: decoded.types, pref: decoded.pref))
                }
            case .label:
                guard let decoded = try lenient(property, { (r: inout VCardReader) throws(VCardFault) in try r.value(property) }),
                      let group = decoded.group, let label = text(decoded.value) else { continue }
                labels.append((group, VCardReader.appleLabel(label)))
            }
        }
        // Apple's labels (`item1.X-ABLabel:_$!<Other>!$_`) name the address of their group.
        for (group, label) in labels where !label.isEmpty {
            for (index, emailGroup) in emailGroups where emailGroup == group && !emails[index].types.contains(label) {
                emails[index].types.append(label)
            }
        }

        // A card without a name shows the name its address carried, its
        // organization, nickname or phone (what a person would look for).
        let displayName = formatted ?? (name.isEmpty ? nil : name.formatted) ?? emailName ?? organization
            ?? nicknames.first ?? phones.first
        if displayName == nil && emails.isEmpty && categories.isEmpty && members.isEmpty && !hasOtherData {
            // Nothing a person would miss: skipped, as a warning.
            problems.append(ContactImportProblem(
                line: cardLine, .emptyCard,
                skipsRecord: true, isWarning: true))
            return nil
        }
        if strict {
            if !hasFN && version != .vCard21 { throw VCardFault(.noFN, ["version": version.rawValue]) }
            if !hasN && version != .vCard40 { throw VCardFault(.noN, ["version": version.rawValue]) }
            if !members.isEmpty && kind != .group {
                throw VCardFault(.memberOutsideGroup)
            }
        }
        let id = ids.unique(uid ?? ContactIDAllocator.derived(
            displayName: displayName, firstAddress: emails.first?.address, source: version))
        if let appleID { appleIDs.append((contacts.count, appleID)) }
        return Contact(
            id: id, kind: kind, displayName: displayName, name: name, nicknames: nicknames, organization: organization,
            categories: categories, emails: emails, phones: phones, members: members, source: version, line: cardLine,
            declaredVersion: declaredVersion)
    }

    /// What `read` gives for `property`; when it fails leniently, `nil`
    /// and a warning that the property was dropped (strictly, the fault).
    private mutating func lenient<T>(
        _ property: VCardProperty, _ read: (inout VCardReader) throws(VCardFault) -> T
    ) throws(VCardFault) -> T? {
        do {
            return try read(&self)
        } catch {
            if strict { throw error }
            cardProblems.append(ContactImportProblem(
                line: property.line, error.reason.dropped, error.values, skipsRecord: false))
            return nil
        }
    }

    private mutating func lenientValue(_ property: VCardProperty) throws(VCardFault) -> UnsafeBufferPointer<UInt8>? {
        try lenient(property, { (r: inout VCardReader) throws(VCardFault) in try r.value(property).value })
    }

    /// An EMAIL value read by the one rule for e-mail values, after its
    /// escapes (`\,` `\;`) are undone.
    private mutating func emailValue(_ v: UnsafeBufferPointer<UInt8>) -> EmailValue {
        if !v.contains(ASCII.backslash) { return EmailValue(v, parser: &emailParser) }
        return EmailValue(text(v) ?? "", parser: &emailParser)
    }

    /// Apple's built-in labels are written `_$!<Other>!$_`; the label is the
    /// word inside, lower-cased like every type.
    static func appleLabel(_ label: String) -> String {
        var s = Substring(label)
        if s.hasPrefix("_$!<") && s.hasSuffix(">!$_") && s.count >= 8 {
            s = s.dropFirst(4).dropLast(4)
        }
        return s.lowercased()
    }

    // MARK: - Values

    struct DecodedValue {
        var value: UnsafeBufferPointer<UInt8>
        /// The group prefix, lower-cased (`item1`), or `nil`.
        var group: String?
        var types: [String] = []
        var pref: Int?
    }

    enum TransferEncoding { case none, quotedPrintable, base64 }

    /// The property's value as UTF-8: unfolded as its version says, its
    /// transfer encoding undone, and decoded from its charset. Escapes are
    /// still in it.
    private mutating func value(_ property: VCardProperty, wantsTypes: Bool = false) throws(VCardFault) -> DecodedValue {
        let line: UnsafeBufferPointer<UInt8>
        let header: VCardLineHeader
        if property.isFolded {
            unfold(property.start, property.end, removingOneSpace: version != .vCard21,
                   quotedPrintable: property.isQuotedPrintable)
            line = unfolded.bytes
            guard let parsed = VCardLineHeader.parse(line) else {
                throw VCardFault(.notAProperty, ["line": "\(property.line)"])
            }
            header = parsed
        } else {
            line = UnsafeBufferPointer(rebasing: text[property.start..<property.end])
            header = property.header
        }
        var result = DecodedValue(value: UnsafeBufferPointer(rebasing: line[(header.colon + 1)...]))
        if header.groupEnd >= 0 {
            var group = ""
            for b in line[..<header.groupEnd] where !ByteClass.isSpace(b) {
                group.unicodeScalars.append(Unicode.Scalar(ByteClass.lowercased(b)))
            }
            result.group = group
        }
        // Parameters: `;NAME=v1,v2` or, in 2.1, a bare value (`;HOME`, `;QUOTED-PRINTABLE`).
        var encoding = TransferEncoding.none
        var charset: UnsafeBufferPointer<UInt8>?
        var prefParameter: Int?
        var typePref = false
        var i = header.nameEnd
        let end = header.colon
        while i < end {
            i += 1  // the `;`
            let start = i
            var equals = -1
            var inQuote = false
            while i < end {
                let b = line[i]
                if b == ASCII.quote {
                    inQuote.toggle()
                } else if !inQuote {
                    if b == ASCII.semicolon { break }
                    if b == UInt8(ascii: "=") && equals < 0 { equals = i }
                }
                i += 1
            }
            if equals < 0 {
                let bare = trimmingSpaces(UnsafeBufferPointer(rebasing: line[start..<i]))
                if bare.isEmpty { continue }
                if asciiCaseInsensitiveIs(bare, "QUOTED-PRINTABLE") {
                    encoding = .quotedPrintable
                } else if asciiCaseInsensitiveIs(bare, "BASE64") {
                    encoding = .base64
                } else if asciiCaseInsensitiveIs(bare, "8BIT") || asciiCaseInsensitiveIs(bare, "7BIT") {
                    encoding = .none
                } else if asciiCaseInsensitiveIs(bare, "PREF") {
                    // A bare parameter is 2.1's form (RFC 2426 and 6350
                    // write `name=value`).
                    if strict && version != .vCard21 {
                        throw VCardFault(.misplacedBarePref, ["line": "\(property.line)"])
                    }
                    typePref = true
                } else if wantsTypes {
                    addTypes(bare, to: &result.types, pref: &typePref)
                }
                continue
            }
            let parameter = trimmingSpaces(UnsafeBufferPointer(rebasing: line[start..<equals]))
            let values = unquoted(trimmingSpaces(UnsafeBufferPointer(rebasing: line[(equals + 1)..<i])))
            if asciiCaseInsensitiveIs(parameter, "TYPE") {
                let wasPref = typePref
                if wantsTypes { addTypes(values, to: &result.types, pref: &typePref) }
                // RFC 6350 replaced 3.0's TYPE=pref by the PREF parameter.
                if strict && version == .vCard40 && typePref && !wasPref {
                    throw VCardFault(.misplacedTypePref, ["line": "\(property.line)"])
                }
            } else if asciiCaseInsensitiveIs(parameter, "PREF") {
                // The PREF parameter is 4.0's (RFC 6350 §5.3).
                if strict && version != .vCard40 {
                    throw VCardFault(.misplacedPrefNumber, ["value": makeString(values), "line": "\(property.line)"])
                }
                prefParameter = try pref(values, line: property.line)
            } else if asciiCaseInsensitiveIs(parameter, "ENCODING") {
                if asciiCaseInsensitiveIs(values, "QUOTED-PRINTABLE") {
                    encoding = .quotedPrintable
                } else if asciiCaseInsensitiveIs(values, "BASE64") || asciiCaseInsensitiveIs(values, "B") {
                    encoding = .base64
                } else if asciiCaseInsensitiveIs(values, "8BIT") || asciiCaseInsensitiveIs(values, "7BIT") {
                    encoding = .none
                } else {
                    throw VCardFault(.unknownEncoding, ["encoding": makeString(values), "line": "\(property.line)"])
                }
            } else if asciiCaseInsensitiveIs(parameter, "CHARSET") {
                charset = values
            }
        }
        result.pref = prefParameter ?? (typePref ? 1 : nil)

        var raw = result.value
        switch encoding {
        case .none: break
        case .quotedPrintable: raw = try decodeQuotedPrintable(raw, line: property.line)
        case .base64: raw = try decodeBase64(raw, line: property.line)
        }
        result.value = try decodeCharset(raw, label: charset, encoded: encoding != .none, property: property)
        return result
    }

    /// A parameter value without its double quotes (RFC 6350 `param-value`).
    private func unquoted(_ p: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if p.count >= 2 && p[0] == ASCII.quote && p[p.count - 1] == ASCII.quote {
            return UnsafeBufferPointer(rebasing: p[1..<(p.count - 1)])
        }
        return p
    }

    /// Adds the comma-separated types in `p`, lower-cased, without repeats;
    /// `pref` among them (3.0's `TYPE=pref`) sets `pref` instead.
    private mutating func addTypes(_ p: UnsafeBufferPointer<UInt8>, to types: inout [String], pref: inout Bool) {
        var i = 0
        while i <= p.count {
            var j = i
            while j < p.count && p[j] != ASCII.comma { j += 1 }
            piece.removeAll()
            var ascii = true
            for b in p[i..<j] where b != ASCII.quote {
                ascii = ascii && b < 0x80
                piece.append(ByteClass.lowercased(b))
            }
            let word = trimmingSpaces(piece.bytes)
            if !word.isEmpty {
                if asciiCaseInsensitiveIs(word, "PREF") {
                    pref = true
                } else {
                    let type = ascii ? makeString(word) : makeString(word).lowercased()
                    if !types.contains(type) { types.append(type) }
                }
            }
            i = j + 1
        }
    }

    /// 4.0's `PREF=1..100`. Out of range is an error in strict mode and
    /// clamped with a warning otherwise; a value that is not a number is an
    /// error in strict mode and ignored with a warning otherwise (the
    /// property is kept: its preference is what was wrong).
    private mutating func pref(_ p: UnsafeBufferPointer<UInt8>, line: Int) throws(VCardFault) -> Int? {
        var n = 0
        var digits = 0
        for b in p {
            guard ByteClass.isDigit(b) else {
                if strict { throw VCardFault(.prefNotANumber, ["value": makeString(p), "line": "\(line)"]) }
                cardProblems.append(ContactImportProblem(
                    line: line, .prefNotANumberIgnored, ["value": makeString(p)], skipsRecord: false))
                return nil
            }
            if n < 1_000_000 { n = n * 10 + Int(b - 0x30) }
            digits += 1
        }
        guard digits > 0 else {
            if strict { throw VCardFault(.emptyPref, ["line": "\(line)"]) }
            cardProblems.append(ContactImportProblem(line: line, .emptyPrefIgnored, skipsRecord: false))
            return nil
        }
        if n < 1 || n > 100 {
            if strict { throw VCardFault(.prefOutOfRange, ["value": makeString(p), "line": "\(line)"]) }
            let clamped = min(max(n, 1), 100)
            cardProblems.append(ContactImportProblem(
                line: line, .prefOutOfRangeClamped, ["value": makeString(p), "clamped": "\(clamped)"], skipsRecord: false))
            return clamped
        }
        return n
    }

    /// Copies the logical line `start..<end` into `unfolded` without its
    /// line breaks. A fold is a line break and one space or tab; RFC 2425
    /// and 6350 drop both, vCard 2.1 (RFC 822 folding) keeps the space. In
    /// quoted-printable values, `=` before a line break is a soft line
    /// break: it goes, with the break and the white space after it (the 2.1
    /// specification's own example indents the continued lines).
    private mutating func unfold(_ start: Int, _ end: Int, removingOneSpace: Bool, quotedPrintable: Bool) {
        unfolded.removeAll()
        var i = start
        while i < end {
            let b = text[i]
            guard b == ASCII.carriageReturn || b == ASCII.lineFeed else {
                unfolded.append(b)
                i += 1
                continue
            }
            i += (b == ASCII.carriageReturn && i + 1 < end && text[i + 1] == ASCII.lineFeed) ? 2 : 1
            if quotedPrintable && unfolded.count > 0 && unfolded.base[unfolded.count - 1] == UInt8(ascii: "=") {
                unfolded.removeLast()
                while i < end && ByteClass.isSpace(text[i]) { i += 1 }
            } else if removingOneSpace && i < end && ByteClass.isSpace(text[i]) {
                i += 1
            }
        }
    }

    private mutating func decodeQuotedPrintable(_ p: UnsafeBufferPointer<UInt8>, line: Int) throws(VCardFault)
        -> UnsafeBufferPointer<UInt8>
    {
        transfer.removeAll()
        var i = 0
        let n = p.count
        while i < n {
            let b = p[i]
            guard b == UInt8(ascii: "=") else {
                transfer.append(b)
                i += 1
                continue
            }
            if i + 1 == n { break }  // a soft line break before the end of the value
            guard i + 2 < n, let high = Base64.hexValue(p[i + 1]), let low = Base64.hexValue(p[i + 2]) else {
                let shown = makeString(UnsafeBufferPointer(rebasing: p[i..<min(n, i + 3)]))
                throw VCardFault(.badQuotedPrintable, ["text": shown, "line": "\(line)"])
            }
            transfer.append(high << 4 | low)
            i += 3
        }
        return transfer.bytes
    }

    private mutating func decodeBase64(_ p: UnsafeBufferPointer<UInt8>, line: Int) throws(VCardFault)
        -> UnsafeBufferPointer<UInt8>
    {
        transfer.removeAll()
        let decoded = Base64.decode(p, skippingWhiteSpace: true, urlSafe: true) { transfer.append($0) }
        if !decoded { throw VCardFault(.badBase64, ["line": "\(line)"]) }
        return transfer.bytes
    }

    /// The value as UTF-8. A `CHARSET` names the charset of encoded values,
    /// and of literal text in files that did not mark their own encoding;
    /// an unknown one is a problem of the property, and its text is read as
    /// UTF-8 with replacement characters. Text that names no charset is
    /// UTF-8 when valid, otherwise in the fallback charset (an error in a
    /// strict 4.0 card, which must be UTF-8).
    private mutating func decodeCharset(
        _ p: UnsafeBufferPointer<UInt8>, label: UnsafeBufferPointer<UInt8>?, encoded: Bool, property: VCardProperty
    ) throws(VCardFault) -> UnsafeBufferPointer<UInt8> {
        if let label, encoded || !isUnicode {
            if !lastCharsetLabel.elementsEqual(label) {
                lastCharsetLabel = Array(label)
                lastCharset = Charset(label: label)
            }
            if let charset = lastCharset, charset != utf8 {
                decoded.removeAll()
                decoded.append(contentsOf: charset.decodeToUTF8(p))
                return decoded.bytes
            }
            if lastCharset == nil {
                // Unknown: valid UTF-8 stays UTF-8, other bytes are read in
                // the import's fallback charset.
                let utf8 = isValidUTF8(p)
                cardProblems.append(ContactImportProblem(
                    line: property.line,
                    utf8 ? .unknownCharsetReadAsUTF8 : .unknownCharsetReadAsFallback, ["charset": makeString(label)],
                    skipsRecord: false))
                if utf8 { return p }
                decoded.removeAll()
                decoded.append(contentsOf: fallback.decodeToUTF8(p))
                return decoded.bytes
            }
            return repairedUTF8(p, property: property)
        }
        if isValidUTF8(p) { return p }
        if isUnicode && !encoded { return repairedUTF8(p, property: property) }
        if strict && version == .vCard40 {
            throw VCardFault(.notUTF8, ["line": "\(property.line)"])
        }
        decoded.removeAll()
        decoded.append(contentsOf: fallback.decodeToUTF8(p))
        return decoded.bytes
    }

    /// Text that must be UTF-8 (its `CHARSET` says so, or the file is
    /// Unicode) with its invalid bytes as U+FFFD, and a warning naming the
    /// line: the bytes replaced are not lost without a word.
    private mutating func repairedUTF8(_ p: UnsafeBufferPointer<UInt8>, property: VCardProperty) -> UnsafeBufferPointer<UInt8> {
        if isValidUTF8(p) { return p }
        cardProblems.append(ContactImportProblem(line: property.line, .invalidUTF8Replaced, skipsRecord: false))
        decoded.removeAll()
        decoded.append(contentsOf: utf8.decodeToUTF8(p))
        return decoded.bytes
    }

    // MARK: - Text

    private var unescapesLikeVersion21: Bool { version == .vCard21 }

    /// The next piece of a text value, unescaped and trimmed (`nil` when
    /// empty), and the separator that ended it (0 at the end). `\,` `\;`
    /// `\\` are escapes in every version; `\n` `\N` (a line break) and `\:`
    /// in 3.0 and 4.0; any other backslash stays.
    private mutating func nextPiece(_ v: UnsafeBufferPointer<UInt8>, _ i: inout Int, semicolons: Bool, commas: Bool)
        -> (piece: String?, separator: UInt8)
    {
        let n = v.count
        // Most pieces have no escape: made from the value's bytes directly.
        var j = i
        while j < n {
            let b = v[j]
            if b == ASCII.backslash || (b == ASCII.semicolon && semicolons) || (b == ASCII.comma && commas) { break }
            j += 1
        }
        if j == n || v[j] != ASCII.backslash {
            let trimmed = trimmingSpaces(UnsafeBufferPointer(rebasing: v[i..<j]))
            let separator = j < n ? v[j] : 0
            i = j < n ? j + 1 : n
            return (trimmed.isEmpty ? nil : makeString(trimmed), separator)
        }
        piece.removeAll()
        var separator: UInt8 = 0
        while i < n {
            let b = v[i]
            if b == ASCII.backslash && i + 1 < n {
                let e = v[i + 1]
                switch e {
                case ASCII.backslash, ASCII.comma, ASCII.semicolon:
                    piece.append(e)
                    i += 2
                case UInt8(ascii: "n"), UInt8(ascii: "N"):
                    if unescapesLikeVersion21 {
                        piece.append(b)
                        i += 1
                    } else {
                        piece.append(ASCII.lineFeed)
                        i += 2
                    }
                case UInt8(ascii: ":"):
                    if unescapesLikeVersion21 {
                        piece.append(b)
                        i += 1
                    } else {
                        piece.append(e)
                        i += 2
                    }
                default:
                    piece.append(b)
                    i += 1
                }
                continue
            }
            if (b == ASCII.semicolon && semicolons) || (b == ASCII.comma && commas) {
                separator = b
                i += 1
                break
            }
            piece.append(b)
            i += 1
        }
        let trimmed = trimmingSpaces(piece.bytes)
        return (trimmed.isEmpty ? nil : makeString(trimmed), separator)
    }

    /// A whole text value, or `nil` when empty; optionally without a
    /// leading `mailto:` (4.0 writers that treat EMAIL as a URI).
    private mutating func text(_ v: UnsafeBufferPointer<UInt8>, strippingMailto: Bool = false) -> String? {
        var i = 0
        var value = v
        if strippingMailto {
            value = trimmingSpaces(v)
            var j = 0
            if asciiCaseInsensitiveEquals(value, &j, "MAILTO:") { value = UnsafeBufferPointer(rebasing: value[j...]) }
        }
        return nextPiece(value, &i, semicolons: false, commas: false).piece
    }

    /// Appends the items of a comma-separated list (NICKNAME, CATEGORIES).
    private mutating func list(_ v: UnsafeBufferPointer<UInt8>, into items: inout [String]) {
        var i = 0
        while true {
            let (item, separator) = nextPiece(v, &i, semicolons: false, commas: true)
            if let item { items.append(item) }
            if separator == 0 { break }
        }
    }

    /// `N`: family; given; additional; prefixes; suffixes. In 3.0 and 4.0
    /// each part is a comma-separated list; in 2.1 a comma is text
    /// (the 2.1 specification's example: `N:Veni, Vidi, Vici;The Restaurant.`).
    private mutating func structuredName(_ v: UnsafeBufferPointer<UInt8>) -> StructuredName {
        var name = StructuredName()
        var part = 0
        var i = 0
        let lists = !unescapesLikeVersion21
        while true {
            let (item, separator) = nextPiece(v, &i, semicolons: true, commas: lists)
            if let item {
                switch part {
                case 0: name.family.append(item)
                case 1: name.given.append(item)
                case 2: name.additional.append(item)
                case 3: name.prefixes.append(item)
                case 4: name.suffixes.append(item)
                default: break
                }
            }
            if separator == ASCII.semicolon { part += 1 }
            if separator == 0 { break }
        }
        return name
    }
}

