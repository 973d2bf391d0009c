// The CSV that address books export (Google Contacts, Outlook,
// Thunderbird, a list pasted from a spreadsheet), read by its header row
// (see `CSVHeaders.swift`) or, without one, by what its columns hold.

import ChipRecognition
import ChipSyntax

/// Reads RFC 4180 records: fields separated by one delimiter, quoted
/// fields holding delimiters, doubled quotes and line breaks. Fields are
/// unquoted into one scratch buffer; `ends` holds where each ends.
///
/// A quote that never closes must not swallow the rest of the file. A
/// quoted field is taken as *unclosed* when no quote closes it before the
/// end of the text or within ``maxQuotedBytes`` of its opening quote
/// (so a stream never holds more than that waiting for it), or when it holds a line break and its closing quote is
/// followed by something other than white space, the delimiter, a line
/// break or the end (the quote that "closed" it was the opening quote of a
/// later field). The record is then read again from its start with that
/// opening quote taken as an ordinary character and dropped: the field
/// runs to the next delimiter or the end of that physical line, and
/// reading resumes on the next line. ``repairedQuoteLine`` says it
/// happened.
///
/// Invariants: (1) `ends.count` is the number of fields of the last
/// record read; (2) `line` is the 1-based line the next record starts on.
struct CSVRecords: ~Copyable {
    let text: UnsafeBufferPointer<UInt8>
    let delimiter: UInt8
    let strict: Bool
    private(set) var position = 0
    private(set) var line = 1
    private var fields = ScratchBytes()
    private(set) var ends: [Int] = []
    /// The line the last record started on.
    private(set) var recordLine = 0
    /// Why the last record cannot be read, if it cannot.
    private(set) var fault: (reason: ContactImportProblem.Reason, line: Int)?
    /// The line of the first quote of the last record that never closed
    /// (and was read as an ordinary character), if one did not.
    private(set) var repairedQuoteLine: Int?

    /// Whether the text ends the file. When it does not, a record that
    /// reaches its end (no line break after it, or a quote still open) is
    /// not read: ``next()`` returns `false` before it, and ``position`` is
    /// its start (a stream reads it with the next piece).
    let isFinal: Bool
    /// Whether the last ``next()`` stopped before a record the text cuts.
    private(set) var stoppedAtCut = false

    init(text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, strict: Bool, firstLine: Int = 1, isFinal: Bool = true) {
        self.text = text
        self.delimiter = delimiter
        self.strict = strict
        self.isFinal = isFinal
        line = firstLine
    }

    /// The longest quoted field: 1 MiB, far beyond any note an address
    /// book exports (Outlook's notes field, the longest, holds a few
    /// kilobytes in practice).
    static let maxQuotedBytes = 1 << 20

    var count: Int { ends.count }

    /// The bytes of field `k` of the last record (empty past its last field).
    func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
        guard k < ends.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = k == 0 ? 0 : ends[k - 1]
        return UnsafeBufferPointer(rebasing: fields.bytes[start..<ends[k]])
    }

    /// Whether the last record is a line with nothing on it but white space.
    var isBlank: Bool { ends.count == 1 && trimmingSpaces(field(0)).isEmpty }

    /// Whether every field of the last record is empty or white space.
    var isEmpty: Bool { (0..<ends.count).allSatisfy { trimmingSpaces(field($0)).isEmpty } }

    /// Reads the next record; `false` at the end of the text.
    ///
    /// - Complexity: O(*m*) in the record's bytes (a record with an
    ///   unclosed quote is read once more per such quote).
    mutating func next() -> Bool {
        guard position < text.count else { return false }
        let start = position
        let startLine = line
        var literalQuotes: [Int] = []
        repairedQuoteLine = nil
        quoteRanToEnd = false
        while let unclosed = read(from: start, line: startLine, literalQuotes: literalQuotes) {
            if repairedQuoteLine == nil { repairedQuoteLine = unclosed.line }
            literalQuotes.append(unclosed.offset)
        }
        if !isFinal {
            // A record is complete when a line break ends it that the next
            // piece cannot extend (a CR may be the first half of a CRLF),
            // and no quote of it ran to the end of the text.
            let n = text.count
            let ended = position < n || (position > start && text[position - 1] == ASCII.lineFeed)
            if quoteRanToEnd || !ended {
                position = start
                line = startLine
                stoppedAtCut = true
                return false
            }
        }
        if let openLine = repairedQuoteLine, strict, fault == nil {
            fault = (.csvUnclosedQuote, openLine)
        }
        return true
    }

    /// Whether a quoted field of the last record ran to the end of the text.
    private var quoteRanToEnd = false

    /// Reads one record from `start`; the offset and line of a quote that
    /// does not close (see the type's rule) when there is one, after which
    /// the caller reads again with that quote in `literalQuotes`.
    private mutating func read(from start: Int, line startLine: Int, literalQuotes: [Int])
        -> (offset: Int, line: Int)?
    {
        let n = text.count
        fields.removeAll()
        ends.removeAll(keepingCapacity: true)
        fault = nil
        recordLine = startLine
        line = startLine
        var i = start
        while true {
            if i < n && text[i] == ASCII.quote && !literalQuotes.contains(i) {
                let openLine = line
                let open = i
                i += 1
                var closed = false
                var run = i
                let limit = min(n, i + Self.maxQuotedBytes)
                while i < limit {
                    let b = text[i]
                    if b == ASCII.quote {
                        fields.append(UnsafeBufferPointer(rebasing: text[run..<i]))
                        if i + 1 < n && text[i + 1] == ASCII.quote {
                            fields.append(ASCII.quote)
                            i += 2
                            run = i
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    if b == ASCII.lineFeed || (b == ASCII.carriageReturn && !(i + 1 < n && text[i + 1] == ASCII.lineFeed)) {
                        line += 1
                    }
                    i += 1
                }
                guard closed else {
                    // Past the limit the quote is unclosed, whatever follows.
                    if i - (open + 1) < Self.maxQuotedBytes { quoteRanToEnd = true }
                    return (open, openLine)
                }
                if line != openLine {
                    var j = i
                    while j < n && ByteClass.isSpace(text[j]) { j += 1 }
                    if j < n && text[j] != delimiter && !ByteClass.isLineBreak(text[j]) { return (open, openLine) }
                }
                while i < n && text[i] != delimiter && !ByteClass.isLineBreak(text[i]) {
                    if strict && fault == nil && !ByteClass.isSpace(text[i]) {
                        fault = (.csvTextAfterQuote, line)
                    }
                    fields.append(text[i])
                    i += 1
                }
            } else {
                // A quote read as an ordinary character opens no field; it is dropped.
                if i < n && text[i] == ASCII.quote { i += 1 }
                let run = i
                while i < n {
                    let b = text[i]
                    if b == delimiter || ByteClass.isLineBreak(b) { break }
                    if b == ASCII.quote && strict && fault == nil { fault = (.csvQuoteInUnquotedField, line) }
                    i += 1
                }
                fields.append(UnsafeBufferPointer(rebasing: text[run..<i]))
            }
            ends.append(fields.count)
            if i < n && text[i] == delimiter {
                i += 1
                continue
            }
            if i < n {
                i += (text[i] == ASCII.carriageReturn && i + 1 < n && text[i + 1] == ASCII.lineFeed) ? 2 : 1
                line += 1
            }
            break
        }
        position = i
        return nil
    }

    /// The delimiter of a CSV whose first line that is not blank is
    /// `header`: the most frequent of `,` `;` and tab outside quotes (a
    /// comma when none occurs, or on a tie with it).
    static func delimiter(of text: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var i = 0
        let n = text.count
        while i < n && (ByteClass.isSpace(text[i]) || ByteClass.isLineBreak(text[i])) { i += 1 }
        var commas = 0, semicolons = 0, tabs = 0
        var inQuote = false
        while i < n {
            let b = text[i]
            if b == ASCII.quote {
                inQuote.toggle()
            } else if !inQuote {
                if ByteClass.isLineBreak(b) { break }
                if b == ASCII.comma { commas += 1 } else if b == ASCII.semicolon { semicolons += 1 } else if b == ASCII.tab { tabs += 1 }
            }
            i += 1
        }
        if semicolons > commas && semicolons >= tabs { return ASCII.semicolon }
        if tabs > commas && tabs > semicolons { return ASCII.tab }
        return ASCII.comma
    }
}

/// Which columns of a CSV hold which part of a contact.
struct CSVColumns: Sendable {
    enum CategorySeparator { case googleTriple, semicolon }

    struct EmailColumn {
        var value: Int
        /// Google's `E-mail 1 - Type` / `- Label` (`* ` marks the primary
        /// address), or Outlook's `E-mail Type` (`SMTP`, `EX`).
        var type: Int?
        /// Outlook's `E-mail Display Name`.
        var displayName: Int?
    }

    var format: ContactFileFormat
    /// Whether the first record is a header (`false` for a list whose
    /// first row already holds addresses).
    var hasHeaderRow = true
    var displayName: [Int] = []
    var given: Int?
    var additional: Int?
    var family: Int?
    var prefix: Int?
    var suffix: Int?
    var nickname: Int?
    var organization: [Int] = []
    var categories: [Int] = []
    var categorySeparator = CategorySeparator.googleTriple
    var emails: [EmailColumn] = []
    var phones: [Int] = []

    init(format: ContactFileFormat) {
        self.format = format
    }

    /// The columns of a header row, or `nil` when it names neither a name
    /// nor an address column. Names are compared normalized
    /// (``CSVHeaders/normalized(_:)``).
    init?(header raw: [String]) {
        let header = raw.map(CSVHeaders.normalized)
        var index: [String: Int] = [:]
        for (k, name) in header.enumerated() where index[name] == nil { index[name] = k }
        func column(_ names: String...) -> Int? {
            for name in names { if let k = index[name] { return k } }
            return nil
        }
        if header.contains(where: { CSVColumns.googleNumber($0, suffix: " - value") != nil }) {
            format = .googleCSV
            displayName = [column("name")].compactMap { $0 }
            given = column("given name", "first name")
            additional = column("additional name", "middle name")
            family = column("family name", "last name")
            prefix = column("name prefix")
            suffix = column("name suffix")
            nickname = column("nickname")
            organization = [column("organization 1 - name", "organization name")].compactMap { $0 }
            categories = [column("group membership", "labels")].compactMap { $0 }
            categorySeparator = .googleTriple
            for (k, name) in header.enumerated() {
                if let number = CSVColumns.googleNumber(name, suffix: " - value") {
                    emails.append(EmailColumn(
                        value: k, type: index["e-mail \(number) - type"] ?? index["e-mail \(number) - label"]))
                } else if name.hasPrefix("phone "), name.hasSuffix(" - value") {
                    phones.append(k)
                }
            }
            let used = Set(displayName + [given, additional, family, prefix, suffix, nickname].compactMap { $0 }
                + organization + categories + phones + emails.flatMap { [$0.value] + [$0.type].compactMap { $0 } })
            assignNamesTheLayoutLacks(header, isLayoutColumn: { used.contains($0) })
            return
        }
        let thunderbird = header.map { CSVHeaders.thunderbirdLookup[$0] }
        if thunderbird.contains(where: { $0 == .email(1) }) {
            format = .thunderbirdCSV
            assign(thunderbird)
            assignNamesTheLayoutLacks(header, isLayoutColumn: { thunderbird[$0] != nil })
            return
        }
        let outlook = header.map { CSVHeaders.outlookLookup[$0] }
        let outlookCount = outlook.compactMap { $0 }.count
        let hasOutlookAddress = outlook.contains { if case .email = $0 { return true } else { return false } }
        let hasOutlookName = outlook.contains { $0 == .given || $0 == .family }
        if hasOutlookAddress || (hasOutlookName && outlookCount >= 3) {
            format = .outlookCSV
            categorySeparator = .semicolon
            assign(outlook)
            assignNamesTheLayoutLacks(header, isLayoutColumn: { outlook[$0] != nil })
            // A column the table does not know whose name says it holds addresses.
            for (k, name) in header.enumerated() where outlook[k] == nil && CSVColumns.isAddressColumn(name) {
                emails.append(EmailColumn(value: k))
            }
            return
        }
        // Another layout: read by what the column names say.
        format = .genericCSV
        categorySeparator = .semicolon
        guard !header.contains(where: { $0.contains("@") || $0.utf8.count > 64 }) else { return nil }
        let generic = header.map { CSVHeaders.genericLookup[$0] }
        assign(generic)
        for (k, name) in header.enumerated() where generic[k] == nil && CSVColumns.isAddressColumn(name) {
            emails.append(EmailColumn(value: k))
        }
        guard !emails.isEmpty || !displayName.isEmpty || given != nil || family != nil else { return nil }
    }

    /// Sets each column's part from its role (the first column of a role
    /// wins, except phones and e-mail columns, which all count).
    /// A column a known layout's table does not name but whose name says
    /// it holds a name (`Name`, `Full Name`, `Display Name`, `First Name`…,
    /// as a layout of unknown origin reads it), when the layout's own
    /// columns gave no name at all; a nickname or company column when they
    /// gave none of those. A file that mixes an exporter's address column
    /// with a plain `Name` column (made by hand, or by a tool that borrowed
    /// the header) keeps its names.
    private mutating func assignNamesTheLayoutLacks(_ header: [String], isLayoutColumn: (Int) -> Bool) {
        let hadName = !displayName.isEmpty || given != nil || additional != nil || family != nil
        for (k, name) in header.enumerated() where !isLayoutColumn(k) {
            switch CSVHeaders.genericLookup[name] {
            case .displayName?: if !hadName { displayName.append(k) }
            case .given?: if !hadName && given == nil { given = k }
            case .middle?: if !hadName && additional == nil { additional = k }
            case .family?: if !hadName && family == nil { family = k }
            case .nickname?: if nickname == nil { nickname = k }
            case .organization?: if organization.isEmpty { organization.append(k) }
            default: break
            }
        }
    }

    private mutating func assign(_ roles: [CSVRole?]) {
        var byNumber: [Int: (value: Int?, type: Int?, displayName: Int?)] = [:]
        for (k, role) in roles.enumerated() {
            guard let role else { continue }
            switch role {
            case .displayName: displayName.append(k)
            case .given: given = given ?? k
            case .middle: additional = additional ?? k
            case .family: family = family ?? k
            case .prefix: prefix = prefix ?? k
            case .suffix: suffix = suffix ?? k
            case .nickname: nickname = nickname ?? k
            case .organization: organization.append(k)
            case .categories: categories.append(k)
            case .phone: phones.append(k)
            case .email(let n): if byNumber[n]?.value == nil { byNumber[n, default: (nil, nil, nil)].value = k }
            case .emailType(let n): byNumber[n, default: (nil, nil, nil)].type = k
            case .emailDisplayName(let n): byNumber[n, default: (nil, nil, nil)].displayName = k
            }
        }
        for n in byNumber.keys.sorted() {
            guard let entry = byNumber[n], let value = entry.value else { continue }
            emails.append(EmailColumn(value: value, type: entry.type, displayName: entry.displayName))
        }
    }

    /// `N` of Google's `e-mail N - value` (or `- type`).
    static func googleNumber(_ name: String, suffix: String) -> Int? {
        guard name.hasPrefix("e-mail "), name.hasSuffix(suffix) else { return nil }
        return Int(name.dropFirst(7).dropLast(suffix.count))
    }

    /// A column of addresses in a layout of unknown origin: the first or
    /// last word of its name (words split at spaces, hyphens, underscores
    /// and slashes, `e` `mail` joined, trailing digits dropped) is `email`,
    /// `mail`, or the word of a Romance language (`courriel`, `correo`):
    /// `E-mail`, `Email Address`, `E-Mail-Adresse`, `Adresse e-mail`,
    /// `Primary Email`, `email_2`. Names of types, labels and display names
    /// are not (`Email Type`).
    static func isAddressColumn(_ name: String) -> Bool {
        var words: [String] = []
        for word in name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" || $0 == "/" || $0 == ":" }) {
            var w = String(word)
            while let last = w.last, last.isASCII && last.isNumber { w.removeLast() }
            if w == "mail" && words.last == "e" {
                words[words.count - 1] = "email"
            } else if !w.isEmpty {
                words.append(w)
            }
        }
        guard let first = words.first, let last = words.last else { return false }
        let notAddress: Set<String> = ["type", "label", "display", "typ", "name", "angezeigter"]
        if words.contains(where: { notAddress.contains($0) }) { return false }
        let addressWords: Set<String> = ["email", "mail", "courriel", "correo"]
        return addressWords.contains(first) || addressWords.contains(last)
    }

    /// The columns of a CSV found by what they hold, for a file whose
    /// header names no known column or that has no header: `rows` are the
    /// first records (at most 100), the first of them the header when
    /// `hasHeaderRow`.
    ///
    /// - A column is an e-mail column when more than half of its non-empty
    ///   values hold an address (read by ``EmailValue``).
    /// - The name column is the leftmost other column, left of the first
    ///   e-mail column when there is one there, whose non-empty values
    ///   mostly hold a letter and no `@` (the name of a pasted
    ///   `Name,Address` list).
    ///
    /// `nil` when no column holds addresses.
    static func byContent(_ rows: [[String]], hasHeaderRow: Bool) -> CSVColumns? {
        let data = hasHeaderRow ? Array(rows.dropFirst()) : rows
        guard !data.isEmpty else { return nil }
        let width = data.map(\.count).max() ?? 0
        var columns = CSVColumns(format: .genericCSV)
        columns.hasHeaderRow = hasHeaderRow
        columns.categorySeparator = .semicolon
        var namely: [Int] = []
        for k in 0..<width {
            var filled = 0, addresses = 0, names = 0
            for row in data where k < row.count {
                let v = row[k].trimmingSpaces
                guard !v.isEmpty else { continue }
                filled += 1
                if !EmailValue(v).addresses.isEmpty { addresses += 1 }
                if !v.contains("@") && v.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) { names += 1 }
            }
            guard filled > 0 else { continue }
            if addresses * 2 > filled {
                columns.emails.append(EmailColumn(value: k))
            } else if names * 2 > filled {
                namely.append(k)
            }
        }
        guard let firstEmail = columns.emails.first?.value else { return nil }
        if let name = namely.first(where: { $0 < firstEmail }) ?? namely.first {
            columns.displayName = [name]
        }
        return columns
    }

    /// Whether a first record is data rather than a header: one of its
    /// fields is an address (`ann@x.org`, `Ann Lee <ann@x.org>`).
    static func holdsAddress(_ row: [String]) -> Bool {
        row.contains { $0.contains("@") && !EmailValue($0).addresses.isEmpty }
    }
}

/// Reads a CSV address book (UTF-8 text) into contacts.
enum ContactCSVReader {
    /// Whether the first line that is not blank is a header row of a layout
    /// this reader knows by name.
    static func recognizesHeader(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var records = CSVRecords(text: text, delimiter: CSVRecords.delimiter(of: text), strict: false)
        while records.next() {
            if records.isBlank { continue }
            return CSVColumns(header: row(records)) != nil
        }
        return false
    }

    /// The columns of the CSV `text`: by its header row, or when the first
    /// row holds an address or the header names no known column, by what
    /// the columns hold (``CSVColumns/byContent(_:hasHeaderRow:)``); `nil`
    /// when neither finds a name or address column.
    static func layout(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> CSVColumns? {
        var records = CSVRecords(text: text, delimiter: delimiter, strict: false)
        var rows: [[String]] = []
        var hasHeaderRow = true
        while records.next() {
            if records.isBlank { continue }
            let fields = row(records)
            if rows.isEmpty {
                if CSVColumns.holdsAddress(fields) {
                    hasHeaderRow = false
                } else if let found = CSVColumns(header: fields) {
                    return found
                }
            }
            rows.append(fields)
            if rows.count == 100 { break }
        }
        return CSVColumns.byContent(rows, hasHeaderRow: hasHeaderRow)
    }

    /// The fields of the last record as strings.
    static func row(_ records: borrowing CSVRecords) -> [String] {
        (0..<records.count).map { makeString(records.field($0)) }
    }

    /// The contact of one row, or `nil` when it holds no name, address,
    /// phone, organization or nickname. What was repaired or dropped on
    /// the way is added to `notes` (warnings of the row).
    ///
    /// The display name is the first of: a display-name column, the
    /// structured name formatted, the name an address carried (`Ann Lee
    /// <ann@x.org>`, Outlook's `Ann Lee (ann@x.org)`), the organization
    /// (as Google shows a company-only contact), the nickname, the first
    /// phone number.
    static func contact(_ records: borrowing CSVRecords, _ columns: CSVColumns, notes: inout [CSVNote]) -> Contact? {
        var parser = EmailValue.makeParser()
        return contact(records, columns, notes: &notes, parser: &parser)
    }

    /// The contact of one row, reading e-mail cells with a parser kept
    /// from row to row (see ``contact(_:_:notes:)``).
    static func contact(_ records: borrowing CSVRecords, _ columns: CSVColumns, notes: inout [CSVNote],
                        parser: inout AddressList.Parser) -> Contact? {
        func bytes(_ k: Int?) -> UnsafeBufferPointer<UInt8> {
            guard let k else { return UnsafeBufferPointer(start: nil, count: 0) }
            return trimmingSpaces(records.field(k))
        }
        func value(_ k: Int?) -> String? {
            let v = bytes(k)
            return v.isEmpty ? nil : makeString(v)
        }
        func part(_ k: Int?) -> [String] { value(k).map { [$0] } ?? [] }
        let isGoogle = columns.format == .googleCSV
        let name = StructuredName(
            family: part(columns.family), given: part(columns.given), additional: part(columns.additional),
            prefixes: part(columns.prefix), suffixes: part(columns.suffix))
        var emails: [ContactEmail] = []
        var fromExchange: [Bool] = []
        var emailDisplayName: String?
        for column in columns.emails {
            let field = bytes(column.value)
            guard !field.isEmpty else { continue }
            var types: [String] = []
            var primary = false
            var isExchange = false
            var label = bytes(column.type)
            if isGoogle {
                // Google marks the primary address's label with `* ` (just `*`
                // when the address has no label).
                if label.first == UInt8(ascii: "*") {
                    primary = true
                    label = trimmingSpaces(UnsafeBufferPointer(rebasing: label[1...]))
                }
                if !label.isEmpty { types = [lowercased(label)] }
            } else {
                // Outlook's type: `EX` is an entry of an Exchange directory.
                isExchange = asciiCaseInsensitiveIs(label, "EX")
            }
            let shown = value(column.displayName)
            func add(_ address: String) {
                // An Exchange entry and an SMTP one of the same address are one
                // address, an SMTP one.
                if let k = emails.firstIndex(where: { $0.address == address }), fromExchange[k] || isExchange {
                    fromExchange[k] = fromExchange[k] && isExchange
                    return
                }
                emails.append(ContactEmail(address: address, types: types, pref: primary ? 1 : nil))
                fromExchange.append(isExchange)
                primary = false
            }
            func take(_ piece: UnsafeBufferPointer<UInt8>) {
                // Most cells are one address: ASCII (what the list reading
                // gives unchanged), or with UTF-8 in it.
                if EmailValue.isPlainAddress(piece) || ContactCSVReader.isLoneInternationalAddress(piece) {
                    add(makeString(piece))
                    return
                }
                let read = EmailValue(piece, parser: &parser)
                var addresses = read.addresses
                if addresses.isEmpty, isExchange, let first = read.rejected.first, EmailValue.isX500PathString(first),
                   let shown, let address = addressInParentheses(shown)
                {
                    notes.append((.exchangeAddressReplaced, ["text": abbreviated(first), "address": address]))
                    addresses = [address]
                } else if let rejection = read.rejection() {
                    notes.append(rejection)
                }
                for address in addresses { add(address) }
                if emailDisplayName == nil, let found = read.displayName { emailDisplayName = found }
            }
            if isGoogle {
                forEachItem(field, googleTriple: true) { take($0) }
            } else {
                take(field)
            }
            if emailDisplayName == nil, let shown { emailDisplayName = withoutAddressSuffix(shown) }
        }
        // An Exchange entry is never preferred over an SMTP address.
        if let smtp = fromExchange.firstIndex(of: false), fromExchange[..<smtp].contains(true),
           !emails.contains(where: { $0.pref != nil })
        {
            emails[smtp].pref = 1
        }
        var phones: [String] = []
        for k in columns.phones {
            let field = bytes(k)
            guard !field.isEmpty else { continue }
            forEachItem(field, googleTriple: isGoogle, splitting: isGoogle) { item in
                let phone = makeString(item)
                if !phones.contains(phone) { phones.append(phone) }
            }
        }
        var organization: String?
        for k in columns.organization where organization == nil { organization = value(k) }
        let nicknames = part(columns.nickname)
        var displayName: String?
        for k in columns.displayName where displayName == nil { displayName = value(k) }
        if displayName == nil && !name.isEmpty { displayName = name.formatted }
        if displayName == nil { displayName = emailDisplayName }
        if displayName == nil { displayName = organization ?? nicknames.first ?? phones.first }
        guard displayName != nil || !emails.isEmpty else { return nil }
        var categories: [String] = []
        for k in columns.categories {
            forEachItem(bytes(k), googleTriple: columns.categorySeparator == .googleTriple) { item in
                // Google's own labels are marked `* ` (`* myContacts` holds
                // every saved contact, `* starred` the starred ones): none is a
                // list of the person's.
                if isGoogle && item.first == UInt8(ascii: "*") { return }
                let category = makeString(item)
                if !categories.contains(category) { categories.append(category) }
            }
        }
        return Contact(
            id: ContactID(""), displayName: displayName, name: name, nicknames: nicknames,
            organization: organization, categories: categories,
            emails: emails, phones: phones, source: .csv)
    }

    /// Calls `body` with each item of a field, trimmed, empty ones left
    /// out: Google separates items with ` ::: `, Outlook with `;`. With
    /// `splitting` false the field is one item.
    static func forEachItem(
        _ p: UnsafeBufferPointer<UInt8>, googleTriple: Bool, splitting: Bool = true,
        _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard splitting else {
            let item = trimmingSpaces(p)
            if !item.isEmpty { body(item) }
            return
        }
        let n = p.count
        var start = 0
        var i = 0
        while i <= n {
            let atEnd = i == n
            let isSeparator = !atEnd && (googleTriple
                ? p[i] == UInt8(ascii: ":") && i + 2 < n && p[i + 1] == UInt8(ascii: ":") && p[i + 2] == UInt8(ascii: ":")
                : p[i] == ASCII.semicolon)
            if atEnd || isSeparator {
                let item = trimmingSpaces(UnsafeBufferPointer(rebasing: p[start..<i]))
                if !item.isEmpty { body(item) }
                i += googleTriple ? 3 : 1
                start = i
                continue
            }
            i += 1
        }
    }

    /// A label lower-cased: ASCII byte by byte, other text by Unicode's rules.
    static func lowercased(_ p: UnsafeBufferPointer<UInt8>) -> String {
        if p.allSatisfy({ $0 < 0x80 }) {
            // Labels are short and mostly lower-case already (`home`, `work`).
            if !p.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) { return makeString(p) }
            return String(unsafeUninitializedCapacity: p.count) { out in
                for i in 0..<p.count { out[i] = ByteClass.lowercased(p[i]) }
                return p.count
            }
        }
        return makeString(p).lowercased()
    }

    /// Outlook writes `E-mail Display Name` as `Ann Lee (ann@x.org)`; the
    /// name is what comes before the address in parentheses.
    static func withoutAddressSuffix(_ shown: String) -> String? {
        let bytes = Array(shown.utf8)
        if bytes.last == UInt8(ascii: ")"), let open = bytes.lastIndex(of: UInt8(ascii: "(")),
           open > 0, bytes[open - 1] == ASCII.space, bytes[open...].contains(UInt8(ascii: "@"))
        {
            let name = String(decoding: bytes[..<(open - 1)], as: UTF8.self).trimmingSpaces
            return name.isEmpty ? nil : name
        }
        return bytes.contains(UInt8(ascii: "@")) ? nil : shown
    }

    /// The address in the final parentheses of an Outlook display name
    /// (`Ann Lee (ann@x.org)`), when it is one.
    static func addressInParentheses(_ shown: String) -> String? {
        guard shown.hasSuffix(")"), let open = shown.lastIndex(of: "(") else { return nil }
        let inside = String(shown[shown.index(after: open)..<shown.index(before: shown.endIndex)])
        let read = EmailValue(inside)
        return read.addresses.count == 1 && read.rejected.isEmpty ? read.addresses[0] : nil
    }

    /// Whether a cell is one internationalized address alone (`josé@correo.es`,
    /// `用户@例子.广告`): it holds a byte from 0x80, exactly one `@` with
    /// text on both sides and a dot after it, and no white space, control
    /// character, quote, comma, semicolon, colon, backslash, angle bracket,
    /// bracket or parenthesis, and does not start with `/`. Such a cell is
    /// taken as it is written: every reading `EmailValue` adds (a display
    /// name, a list, `mailto:`, an X.500 path, a phone number) needs one of
    /// the characters excluded, and reading it as a list costs a recognizer
    /// set up per value, a third of the import time of a file of such
    /// addresses. ASCII cells take `EmailValue`'s own fast path.
    static func isLoneInternationalAddress(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = p.count
        guard n >= 3, p[0] != UInt8(ascii: "/") else { return false }
        var at = -1
        var nonASCII = false
        var dotAfterAt = false
        for i in 0..<n {
            let b = p[i]
            if b >= 0x80 {
                nonASCII = true
                continue
            }
            switch b {
            case UInt8(ascii: "@"):
                guard at < 0 else { return false }
                at = i
            case UInt8(ascii: "."):
                if at >= 0 && i > at + 1 && i < n - 1 { dotAfterAt = true }
            case 0..<0x21, 0x7F, UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                 UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
                 UInt8(ascii: "("), UInt8(ascii: ")"):
                return false
            default:
                continue
            }
        }
        return nonASCII && at > 0 && at < n - 1 && dotAfterAt
    }

    /// At most 80 characters of `s`, for a warning.
    static func abbreviated(_ s: String) -> String {
        s.count > 80 ? String(s.prefix(77)) + "..." : s
    }
}

extension String {
    /// Without ASCII spaces and tabs at either end.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// A warning of one CSV row: what was repaired or dropped.
typealias CSVNote = (reason: ContactImportProblem.Reason, values: [String: String])
