// Address books read in pieces: a file of a million contacts is never held
// whole, nor its decoded copy. What a piece holds is read as soon as the
// records in it are complete.

import ChipRecognition
import ChipSyntax

/// Reads an address book fed in pieces of any size (as `read(2)` returns
/// them), giving the same contacts and problems as
/// ``ContactImporter/import(_:options:)`` on the whole file.
///
/// The encoding and the format are decided from the first 1 MiB of the
/// file (or all of it, when shorter): a byte order mark or UTF-16's NUL
/// pattern, then a first line `BEGIN:VCARD` or a CSV header (see
/// ``ContactImporter``). Then the text is read a record at a time: cards
/// are cut where a line `BEGIN:VCARD` follows a line `END:VCARD`, CSV rows
/// where the reader finds a row's end. What is held is the unread text:
/// about ``pieceBytes`` and the record that crosses it.
///
/// ```swift
/// var stream = ContactImportStream()
/// while let piece = readSomeBytes() {
///     stream.feed(piece)
///     directoryContacts += stream.takeContacts()
/// }
/// stream.finish()
/// directoryContacts += stream.takeContacts()
/// let problems = stream.takeProblems()
/// ```
public struct ContactImportStream: ~Copyable {
    /// How much decoded text is gathered before it is read: large enough
    /// that the per-piece cost vanishes, small enough to keep memory flat.
    public static let pieceBytes = 1 << 20
    /// How much of the file decides its encoding and format.
    public static let detectionBytes = 1 << 20

    private let options: ContactImportOptions
    private let pieceBytes: Int
    private let detectionBytes: Int
    /// Bytes not yet decoded: the file's start while the encoding is not
    /// known, then a code unit or character cut by a piece's end.
    private var raw: [UInt8] = []
    /// Decoded UTF-8 not yet read, from `textStart`.
    private var text: [UInt8] = []
    private var textStart = 0
    /// The 1-based line `text[textStart]` is on.
    private var line = 1
    private var finished = false

    private enum Stage { case detecting, vCard, csv, nothing }
    private var stage = Stage.detecting
    private var decoder = PieceDecoder.utf8

    // The state the readers carry from piece to piece.
    private var ids = ContactIDAllocator()
    /// The identities of cards with an Apple `X-ABUID`, by ``VCardReader/appleKey(_:)``.
    private var appleIDs: [String: ContactID] = [:]
    private var csv: CSVImportState?

    private var contacts: [Contact] = []
    private var problems: [ContactImportProblem] = []

    /// What the file was found to be (`.unknown` until it is known).
    public private(set) var format = ContactFileFormat.unknown
    /// The text encoding read (see ``ContactImportResult/textEncoding``);
    /// `UTF-8` until it is known.
    public private(set) var textEncoding = "UTF-8"

    /// A stream reading by `options`.
    public init(options: ContactImportOptions = ContactImportOptions()) {
        self.init(options: options, pieceBytes: ContactImportStream.pieceBytes,
                  detectionBytes: ContactImportStream.detectionBytes)
    }

    /// A stream reading pieces of `pieceBytes` (tests make them small, so
    /// that small files are cut in many places).
    init(options: ContactImportOptions, pieceBytes: Int, detectionBytes: Int) {
        self.options = options
        self.pieceBytes = pieceBytes
        self.detectionBytes = detectionBytes
    }

    /// The bytes held, not yet read (tests bound them).
    var heldBytes: Int { raw.count + text.count - textStart }

    /// Adds the next bytes of the file and reads every record they complete.
    ///
    /// - Complexity: O(*m*) amortized, where *m* is the number of bytes fed.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(!finished, "feed after finish")
        raw.append(contentsOf: bytes)
        advance()
    }

    /// Adds the next bytes of the file (see ``feed(_:)-(UnsafeBufferPointer<UInt8>)``).
    ///
    /// - Complexity: O(*m*) amortized, where *m* is the number of bytes fed.
    public mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    /// Ends the file: reads what is left, including a record without its
    /// end.
    ///
    /// - Complexity: O(*m*), where *m* is the number of bytes not yet read.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        advance()
    }

    /// The contacts read since the last call, in file order.
    public mutating func takeContacts() -> [Contact] {
        defer { contacts = [] }
        return contacts
    }

    /// The problems found since the last call, in file order.
    public mutating func takeProblems() -> [ContactImportProblem] {
        defer { problems = [] }
        return problems
    }

    // MARK: - Reading

    private mutating func advance() {
        if stage == .detecting {
            guard finished || raw.count >= detectionBytes else { return }
            detect()
        }
        decodeRaw()
        switch stage {
        case .detecting, .nothing:
            text.removeAll()
            textStart = 0
        case .vCard:
            readCards()
            if finished { flushGroups() }
        case .csv:
            readRows()
        }
        compact()
    }

    /// Decides the encoding and the format from the start of the file.
    private mutating func detect() {
        var fallback = windows1252
        var fallbackName = "windows-1252"
        if let label = options.defaultCharset {
            if let named = Charset(label: label) {
                fallback = named
                fallbackName = label
            } else {
                problems.append(ContactImportProblem(
                    line: 0, .unknownDefaultCharset, ["charset": label],
                    skipsRecord: false))
                fallback = utf8
                fallbackName = "UTF-8"
            }
        }
        let head = FileText(raw)
        let marked = head.encodingName != nil
        textEncoding = head.encodingName ?? "UTF-8"
        decoder = PieceDecoder(head: head)
        raw.removeFirst(head.markLength)
        // The format, from the text of the detection prefix.
        decodeRaw()
        let found = text.withUnsafeBufferPointer { p -> ContactImporter.DetectedFormat in
            ContactImporter.detectFormat(UnsafeBufferPointer(rebasing: p[..<completeLines(p)]))
        }
        switch found {
        case .vCard:
            stage = .vCard
            format = .vCard
            vCardIsUnicode = marked
            vCardFallback = fallback
        case .csv:
            stage = .csv
            let utf8Text = marked || text.withUnsafeBufferPointer { p in
                isValidUTF8(UnsafeBufferPointer(rebasing: p[..<completeLines(p)]))
            }
            if !utf8Text {
                // Legacy 8-bit text names no charset: the one given wins,
                // then what the bytes show, then windows-1252 (see
                // `csvCharset`). What was passed on as UTF-8 goes back to
                // bytes and through that charset, a line at a time.
                raw = text + raw
                text.removeAll()
                let (charset, name) = options.defaultCharset == nil
                    ? raw.withUnsafeBufferPointer { csvCharset($0) }
                    : (fallback, fallbackName == "UTF-8" ? fallbackName : "\(fallbackName) (given)")
                decoder = .legacy(charset)
                textEncoding = name
                // Lines of UTF-8 beyond ASCII beside lines that are not
                // (rows appended by another tool, one stray byte): each
                // line is read as what it is, and the first that is not
                // UTF-8 is named, rather than every name garbled.
                if options.defaultCharset == nil, let line = raw.withUnsafeBufferPointer({ firstLineNotUTF8AmongUTF8($0) }) {
                    decoder = .lineByLine(charset)
                    textEncoding = "UTF-8, lines that are not: \(name)"
                    pendingLineProblem = ContactImportProblem(
                        line: line, .csvLinesNotUTF8, ["charset": name], skipsRecord: false)
                }
            }
            csv = CSVImportState(options: options, encoding: textEncoding)
        case .empty:
            stage = .nothing
        case .unknown:
            stage = .nothing
            problems.append(ContactImportProblem(
                line: 1, .notAnAddressBook))
        }
    }

    /// The end of the last complete line of `p` (all of it once the file has ended).
    private func completeLines(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        if finished { return p.count }
        var end = p.count
        while end > 0 && !ByteClass.isLineBreak(p[end - 1]) { end -= 1 }
        return end == 0 ? p.count : end
    }

    private var vCardIsUnicode = false
    private var vCardFallback = windows1252

    /// Moves what can be decoded from `raw` to `text`.
    private mutating func decodeRaw() {
        guard !raw.isEmpty else { return }
        let usable = decoder.decodableCount(raw, atEnd: finished)
        guard usable > 0 else { return }
        raw.withUnsafeBufferPointer { p in
            decoder.decode(UnsafeBufferPointer(rebasing: p[..<usable]), into: &text)
        }
        raw.removeFirst(usable)
    }

    /// Reads the complete cards of `text`.
    private mutating func readCards() {
        let end: Int
        if finished {
            end = text.count
        } else {
            guard text.count - textStart >= pieceBytes else { return }
            guard let cut = lastCardCut() else { return }
            end = cut
        }
        guard end > textStart else { return }
        text.withUnsafeBufferPointer { p in
            let piece = UnsafeBufferPointer(rebasing: p[textStart..<end])
            var reader = VCardReader(
                text: piece, options: options, isUnicode: vCardIsUnicode, fallback: vCardFallback, firstLine: line,
                ids: takeIDs())
            reader.read()
            // Apple groups name members by the X-ABUIDs of cards that may
            // come in any piece, before or after the group.
            for (key, id) in reader.appleIdentities where appleIDs[key] == nil { appleIDs[key] = id }
            ids = reader.takeIDs()
            // Moved, not copied: a copy retains and releases every string
            // and array of every contact.
            var read = reader.takeContacts()
            if read.contains(where: { $0.kind == .group }) {
                groups.append(contentsOf: read.lazy.filter { $0.kind == .group })
                read.removeAll { $0.kind == .group }
            }
            if contacts.isEmpty { contacts = read } else { contacts.append(contentsOf: read) }
            problems.append(contentsOf: reader.problems)
            line = reader.endLine
        }
        textStart = end
    }

    /// Resolves the held groups' Apple members and hands the groups over.
    private mutating func flushGroups() {
        guard !groups.isEmpty else { return }
        if !appleIDs.isEmpty {
            let known = ids
            VCardReader.resolveAppleMembers(&groups, byAppleID: appleIDs, isKnown: { known.contains($0) })
        }
        contacts.append(contentsOf: groups)
        groups = []
    }

    /// A vCard file's groups, held until the file ends: a member named by
    /// an Apple `X-ABUID` may be a card further on. Then they follow the
    /// other cards, in file order, whatever the pieces (as CSV's category
    /// groups follow the rows).
    private var groups: [Contact] = []

    /// The start of the last line `BEGIN:VCARD` of `text` whose previous
    /// line that is not blank is `END:VCARD`, after `textStart`: searched
    /// from the end, line by line (the last card's start is usually a few
    /// hundred bytes back).
    private mutating func lastCardCut() -> Int? {
        let floor = max(searchedTo, textStart)
        let found = text.withUnsafeBufferPointer { p -> (cut: Int?, end: Int) in
            // The end of the last complete line.
            var end = p.count
            while end > textStart && !ByteClass.isLineBreak(p[end - 1]) { end -= 1 }
            var candidate: Int?  // a BEGIN:VCARD line after the current one
            var lineEnd = end
            while lineEnd > textStart {
                // Lines before the last search's end were searched: a cut
                // there would have been found.
                if lineEnd <= floor && candidate == nil { break }
                // The line before `lineEnd`: skip its break, find its start.
                var contentEnd = lineEnd
                while contentEnd > textStart && ByteClass.isLineBreak(p[contentEnd - 1]) {
                    // CRLF is one break, but blank lines between are blank lines either way.
                    contentEnd -= 1
                }
                var start = contentEnd
                while start > textStart && !ByteClass.isLineBreak(p[start - 1]) { start -= 1 }
                let body = trimmingSpaces(UnsafeBufferPointer(rebasing: p[start..<contentEnd]))
                if !body.isEmpty {
                    if let cut = candidate, isVCardEnd(body) { return (cut, end) }
                    candidate = ContactImporter.startsWithBeginVCard(body, at: 0) ? start : nil
                }
                lineEnd = start
            }
            return (nil, end)
        }
        searchedTo = found.end
        return found.cut
    }

    /// The end of the text the last search for a cut looked at.
    private var searchedTo = 0

    private func isVCardEnd(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        guard asciiCaseInsensitiveEquals(p, &i, "END") else { return false }
        while i < p.count && ByteClass.isSpace(p[i]) { i += 1 }
        guard i < p.count && p[i] == UInt8(ascii: ":") else { return false }
        i += 1
        while i < p.count && ByteClass.isSpace(p[i]) { i += 1 }
        guard asciiCaseInsensitiveEquals(p, &i, "VCARD") else { return false }
        return trimmingSpaces(UnsafeBufferPointer(rebasing: p[i...])).isEmpty
    }

    /// Reads the complete rows of `text`.
    /// A problem of one line found while detecting the encoding, reported
    /// when the rows reach it (``readRows()``).
    private var pendingLineProblem: ContactImportProblem?

    private mutating func readRows() {
        guard finished || text.count - textStart >= pieceBytes else { return }
        guard var state = csv.take() else { return }
        text.withUnsafeBufferPointer { p in
            let piece = UnsafeBufferPointer(rebasing: p[textStart...])
            textStart += state.read(piece, firstLine: line, isLast: finished, ids: &ids)
            line = state.nextLine
        }
        // Moved when nothing is waiting, not copied (see `readCards`).
        if contacts.isEmpty { contacts = state.takeContacts() } else { contacts.append(contentsOf: state.takeContacts()) }
        var taken = state.takeProblems()
        // A problem of one line found before the rows were read goes in
        // file order, once the reader has passed its line.
        if let pending = pendingLineProblem, finished || line > pending.line {
            taken.insert(pending, at: taken.firstIndex { $0.line > pending.line } ?? taken.count)
            pendingLineProblem = nil
        }
        problems.append(contentsOf: taken)
        if finished {
            format = state.format
            contacts.append(contentsOf: state.groups(ids: &ids))
            problems.append(contentsOf: state.takeProblems())
            if state.format == .unknown { stage = .nothing }
        } else {
            format = state.format
        }
        csv = state
    }

    /// The identities given so far, leaving none here: the reader that
    /// takes them adds to the only copy (two copies of a million-entry
    /// table would be copied whole by the first insertion).
    private mutating func takeIDs() -> ContactIDAllocator {
        defer { ids = ContactIDAllocator() }
        return ids
    }

    /// Drops the text already read once it is most of the buffer.
    private mutating func compact() {
        guard textStart > 0, textStart * 2 >= text.count || textStart == text.count else { return }
        text.removeFirst(textStart)
        searchedTo = max(0, searchedTo - textStart)
        textStart = 0
    }
}

/// How many lines `p` ends: LFs, and CRs not followed by an LF, as the
/// readers count physical lines.
func lineBreaks(_ p: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    var i = 0
    let n = p.count
    while i < n {
        let b = p[i]
        if b == ASCII.lineFeed {
            count += 1
        } else if b == ASCII.carriageReturn && !(i + 1 < n && p[i + 1] == ASCII.lineFeed) {
            count += 1
        }
        i += 1
    }
    return count
}

/// The 1-based line of the first line that is not UTF-8, when another
/// line of `p` is UTF-8 beyond ASCII; nil when the text is of one kind.
func firstLineNotUTF8AmongUTF8(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
    var sawUTF8 = false
    var firstBad: Int?
    var line = 1
    var start = 0
    while start < p.count {
        var end = start
        var high = false
        while end < p.count && p[end] != ASCII.lineFeed {
            if p[end] >= 0x80 { high = true }
            end += 1
        }
        if high {
            if isValidUTF8(UnsafeBufferPointer(rebasing: p[start..<end])) {
                sawUTF8 = true
            } else if firstBad == nil {
                firstBad = line
            }
            if sawUTF8, let firstBad { return firstBad }
        }
        line += 1
        start = end + 1
    }
    return nil
}

/// Turns a file's bytes into UTF-8 piece by piece, never cutting a
/// character: UTF-8 is passed on whole lines' worth at a time, UTF-16 at
/// a code unit boundary outside a surrogate pair, 8-bit charsets at a line
/// feed (a byte no double-byte charset uses as a trail byte).
enum PieceDecoder {
    case utf8
    case utf16(Charset, littleEndian: Bool)
    case legacy(Charset)
    /// Each line as UTF-8 when it is valid UTF-8, otherwise in the charset.
    case lineByLine(Charset)

    init(head: FileText) {
        switch head.encodingName {
        case "UTF-16LE": self = .utf16(utf16LE, littleEndian: true)
        case "UTF-16BE": self = .utf16(utf16BE, littleEndian: false)
        default: self = .utf8
        }
    }

    /// How many bytes of `raw` can be decoded now.
    func decodableCount(_ raw: [UInt8], atEnd: Bool) -> Int {
        if atEnd { return raw.count }
        switch self {
        case .utf8:
            // Up to the last line break: a UTF-8 sequence never holds one.
            var end = raw.count
            while end > 0 && !ByteClass.isLineBreak(raw[end - 1]) { end -= 1 }
            return end
        case .utf16(_, let littleEndian):
            var end = raw.count & ~1
            if end >= 2 {
                let unit = littleEndian ? UInt16(raw[end - 1]) << 8 | UInt16(raw[end - 2])
                    : UInt16(raw[end - 2]) << 8 | UInt16(raw[end - 1])
                if unit >= 0xD800 && unit < 0xDC00 { end -= 2 }  // a high surrogate waits for its pair
            }
            return end
        case .legacy, .lineByLine:
            var end = raw.count
            while end > 0 && raw[end - 1] != ASCII.lineFeed { end -= 1 }
            return end
        }
    }

    func decode(_ p: UnsafeBufferPointer<UInt8>, into text: inout [UInt8]) {
        switch self {
        case .utf8: text.append(contentsOf: p)
        case .utf16(let charset, _), .legacy(let charset): text.append(contentsOf: charset.decodeToUTF8(p))
        case .lineByLine(let charset):
            var start = 0
            while start < p.count {
                var end = start
                while end < p.count && p[end] != ASCII.lineFeed { end += 1 }
                if end < p.count { end += 1 }
                let line = UnsafeBufferPointer(rebasing: p[start..<end])
                if isValidUTF8(line) { text.append(contentsOf: line) } else { text.append(contentsOf: charset.decodeToUTF8(line)) }
                start = end
            }
        }
    }
}

/// The CSV reader's state from piece to piece of a stream: the layout
/// found from the first piece (its header, or its first 100 rows), the
/// header's field count, and the lists made from categories so far.
struct CSVImportState {
    let options: ContactImportOptions
    let encoding: String
    private(set) var format = ContactFileFormat.unknown
    private var contacts: [Contact] = []
    private var problems: [ContactImportProblem] = []
    private var delimiter: UInt8 = ASCII.comma
    private var layout: CSVColumns?
    /// Set once the first piece was looked at; with no layout, nothing more is read.
    private var started = false
    private var headerCount: Int?
    private var groupOrder: [String] = []
    private var groups: [String: (line: Int, members: [String])] = [:]
    /// Reads e-mail cells that are not a plain address.
    private var emailParser = EmailValue.makeParser()

    init(options: ContactImportOptions, encoding: String) {
        self.options = options
        self.encoding = encoding
    }

    /// Reads the complete rows of `piece`, which starts on `firstLine`;
    /// returns how many bytes were read (every byte when `isLast`).
    ///
    /// - Complexity: O(*m*) in the piece's bytes.
    mutating func read(_ piece: UnsafeBufferPointer<UInt8>, firstLine: Int, isLast: Bool,
                       ids: inout ContactIDAllocator) -> Int {
        if !started {
            started = true
            delimiter = CSVRecords.delimiter(of: piece)
            layout = ContactCSVReader.layout(piece, delimiter: delimiter)
            if layout == nil {
                var records = CSVRecords(text: piece, delimiter: delimiter, strict: false, firstLine: firstLine)
                var line = firstLine
                while records.next() {
                    if records.isBlank { continue }
                    line = records.recordLine
                    break
                }
                problems.append(ContactImportProblem(
                    line: line, .csvHeaderWithoutColumns))
            }
        }
        guard let layout else {
            nextLine = firstLine + lineBreaks(piece)
            return piece.count
        }
        format = layout.format
        var records = CSVRecords(text: piece, delimiter: delimiter, strict: options.strict, firstLine: firstLine,
                                 isFinal: isLast)
        while records.next() {
            if records.isBlank { continue }
            if layout.hasHeaderRow && headerCount == nil {
                headerCount = records.count
                continue
            }
            let line = records.recordLine
            if let fault = records.fault {
                problems.append(ContactImportProblem(line: line, fault.reason, ["line": "\(fault.line)"]))
                continue
            }
            // A row cut short by an unclosed quote keeps its fields; the missing ones are empty.
            if let headerCount, records.count > headerCount || (records.count < headerCount && records.repairedQuoteLine == nil) {
                // A row of nothing but delimiters says nothing, however many.
                if records.isEmpty { continue }
                problems.append(ContactImportProblem(
                    line: line, .csvFieldCount, ["count": "\(records.count)", "header": "\(headerCount)"]))
                continue
            }
            var notes: [CSVNote] = []
            if let openLine = records.repairedQuoteLine {
                notes.append((.csvUnclosedQuoteRepaired, ["line": "\(openLine)"]))
            }
            guard var contact = ContactCSVReader.contact(records, layout, notes: &notes, parser: &emailParser) else {
                // Nothing to keep: an empty row says nothing; a row with some
                // other text is reported, as a warning.
                // What was repaired on the way comes first, then the one
                // problem that skips the row.
                if !records.isEmpty || !notes.isEmpty {
                    for note in notes {
                        problems.append(ContactImportProblem(line: line, note.reason, note.values, skipsRecord: false))
                    }
                    problems.append(ContactImportProblem(
                        line: line, .csvRowWithoutData, skipsRecord: true, isWarning: true))
                }
                continue
            }
            for note in notes { problems.append(ContactImportProblem(line: line, note.reason, note.values, skipsRecord: false)) }
            contact.line = line
            contact.id = ids.unique(ContactIDAllocator.derived(
                displayName: contact.displayName, firstAddress: contact.emails.first?.address, source: .csv))
            if options.groupsFromCategories {
                let member = contact.preferredEmail?.address ?? contact.id.rawValue
                for category in contact.categories {
                    if groups[category] == nil {
                        groupOrder.append(category)
                        groups[category] = (line, [])
                    }
                    groups[category]!.members.append(member)
                }
            }
            contacts.append(contact)
        }
        nextLine = records.line
        return records.position
    }

    /// The line after the bytes the last ``read(_:firstLine:isLast:ids:)``
    /// read, as the records counted them.
    private(set) var nextLine = 1

    mutating func takeContacts() -> [Contact] {
        defer { contacts = [] }
        return contacts
    }

    mutating func takeProblems() -> [ContactImportProblem] {
        defer { problems = [] }
        return problems
    }

    /// The lists made from categories, after the last row.
    mutating func groups(ids: inout ContactIDAllocator) -> [Contact] {
        var lists: [Contact] = []
        for category in groupOrder {
            let group = groups[category]!
            var h = FNV1a()
            h.add("group")
            h.add(0)
            h.add(category)
            lists.append(Contact(
                id: ids.unique(h.hex), kind: .group, displayName: category, members: group.members, source: .csv,
                line: group.line))
        }
        groupOrder = []
        groups = [:]
        return lists
    }
}
