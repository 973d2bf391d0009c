// The CSV that address books export (Google Contacts, Outlook,
// Thunderbird), read by their header row into contacts.

import ChipSyntax

/// Reads RFC 4180 records: fields separated by one delimiter, quoted
/// fields holding delimiters, doubled quotes and line breaks. Fields are
/// unquoted into one scratch buffer; `ends` holds where each ends.
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
    private(set) var fault: String?

    init(text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, strict: Bool) {
        self.text = text
        self.delimiter = delimiter
        self.strict = strict
    }

    var count: Int { ends.count }

    /// The bytes of field `k` of the last record.
    func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
        let start = k == 0 ? 0 : ends[k - 1]
        return UnsafeBufferPointer(rebasing: fields.bytes[start..<ends[k]])
    }

    /// Whether the last record is a line with nothing on it but white space.
    var isBlank: Bool { ends.count == 1 && trimmingSpaces(field(0)).isEmpty }

    /// Reads the next record; `false` at the end of the text.
    ///
    /// - Complexity: O(*m*) in the record's bytes.
    mutating func next() -> Bool {
        let n = text.count
        guard position < n else { return false }
        fields.removeAll()
        ends.removeAll(keepingCapacity: true)
        fault = nil
        recordLine = line
        var i = position
        while true {
            if i < n && text[i] == ASCII.quote {
                let openLine = line
                i += 1
                var closed = false
                var run = i
                while i < n {
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
                if !closed { fields.append(UnsafeBufferPointer(rebasing: text[run..<i])) }
                if !closed {
                    fault = "the quoted field opened on line \(openLine) is never closed"
                    ends.append(fields.count)
                    position = n
                    return true
                }
                while i < n && text[i] != delimiter && !ByteClass.isLineBreak(text[i]) {
                    if strict && fault == nil && !ByteClass.isSpace(text[i]) {
                        fault = "text after a closing quote on line \(line)"
                    }
                    fields.append(text[i])
                    i += 1
                }
            } else {
                let run = i
                while i < n {
                    let b = text[i]
                    if b == delimiter || ByteClass.isLineBreak(b) { break }
                    if b == ASCII.quote && strict && fault == nil { fault = "a quote inside an unquoted field on line \(line)" }
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
        return true
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
        /// Google's `E-mail 1 - Type` / `- Label` (`* ` marks the primary address).
        var type: Int?
        /// Outlook's `E-mail Display Name`.
        var displayName: Int?
    }

    var format: ContactFileFormat
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

    /// The columns of a header row, or `nil` when it names neither a name
    /// nor an address column. Names are matched without ASCII case and
    /// surrounding white space.
    init?(header: [String]) {
        var index: [String: Int] = [:]
        for (k, name) in header.enumerated() where index[name] == nil { index[name] = k }
        func column(_ names: String...) -> Int? {
            for name in names { if let k = index[name] { return k } }
            return nil
        }
        if index["e-mail 1 - value"] != nil {
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
                guard let number = CSVColumns.googleEmailNumber(name, suffix: " - value") else { continue }
                emails.append(EmailColumn(
                    value: k, type: index["e-mail \(number) - type"] ?? index["e-mail \(number) - label"]))
            }
        } else if index["e-mail address"] != nil {
            format = .outlookCSV
            given = column("first name")
            additional = column("middle name")
            family = column("last name")
            prefix = column("title")
            suffix = column("suffix")
            nickname = column("nickname")
            organization = [column("company")].compactMap { $0 }
            categories = [column("categories")].compactMap { $0 }
            categorySeparator = .semicolon
            emails.append(EmailColumn(value: index["e-mail address"]!, displayName: column("e-mail display name")))
            for number in 2...9 {
                guard let k = index["e-mail \(number) address"] else { continue }
                emails.append(EmailColumn(value: k, displayName: index["e-mail \(number) display name"]))
            }
        } else if index["primary email"] != nil {
            format = .thunderbirdCSV
            displayName = [column("display name")].compactMap { $0 }
            given = column("first name")
            family = column("last name")
            nickname = column("nickname")
            organization = [column("organization")].compactMap { $0 }
            emails = [column("primary email"), column("secondary email")].compactMap { $0 }.map { EmailColumn(value: $0) }
        } else {
            // Another layout: read by what the column names say.
            format = .genericCSV
            guard !header.contains(where: { $0.contains("@") || $0.utf8.count > 64 }) else { return nil }
            displayName = [column("name", "display name", "full name", "formatted name")].compactMap { $0 }
            given = column("first name", "given name", "firstname", "givenname")
            additional = column("middle name", "additional name")
            family = column("last name", "family name", "surname", "lastname", "familyname")
            prefix = column("name prefix", "prefix", "title")
            suffix = column("name suffix", "suffix")
            nickname = column("nickname", "nick name")
            organization = [column("company", "organization", "organisation", "organization name")].compactMap { $0 }
            categories = [column("categories", "groups", "group membership", "labels")].compactMap { $0 }
            categorySeparator = .semicolon
            for (k, name) in header.enumerated() where CSVColumns.isAddressColumn(name) {
                emails.append(EmailColumn(value: k))
            }
            guard !emails.isEmpty || !displayName.isEmpty || given != nil || family != nil else { return nil }
        }
    }

    /// `N` of Google's `e-mail N - value` (or `- type`).
    static func googleEmailNumber(_ name: String, suffix: String) -> Int? {
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
        for word in name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" || $0 == "/" }) {
            var w = String(word)
            while let last = w.last, last.isASCII && last.isNumber { w.removeLast() }
            if w == "mail" && words.last == "e" {
                words[words.count - 1] = "email"
            } else if !w.isEmpty {
                words.append(w)
            }
        }
        guard let first = words.first, let last = words.last else { return false }
        if words.contains(where: { $0 == "type" || $0 == "label" || $0 == "display" }) { return false }
        let addressWords: Set<String> = ["email", "mail", "courriel", "correo"]
        return addressWords.contains(first) || addressWords.contains(last)
    }
}

/// Reads a CSV address book (UTF-8 text) into contacts.
enum ContactCSVReader {
    /// Whether the first line that is not blank is a header row of a layout
    /// this reader knows.
    static func recognizesHeader(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var records = CSVRecords(text: text, delimiter: CSVRecords.delimiter(of: text), strict: false)
        while records.next() {
            if records.isBlank { continue }
            guard records.count >= 1 else { return false }
            return CSVColumns(header: header(records)) != nil
        }
        return false
    }

    /// The header's names, trimmed and lower-cased (ASCII).
    static func header(_ records: borrowing CSVRecords) -> [String] {
        (0..<records.count).map { k in
            String(decoding: trimmingSpaces(records.field(k)).map(ByteClass.lowercased), as: UTF8.self)
        }
    }

    /// Reads every row.
    ///
    /// - Complexity: O(*n*) in the text's size.
    static func read(_ text: UnsafeBufferPointer<UInt8>, options: ContactImportOptions, encoding: String)
        -> ContactImportResult
    {
        var records = CSVRecords(text: text, delimiter: CSVRecords.delimiter(of: text), strict: options.strict)
        var problems: [ContactImportProblem] = []
        var contacts: [Contact] = []
        var columns: CSVColumns?
        var headerCount = 0
        var ids = ContactIDAllocator(expectedCount: text.count / 200)
        var groupOrder: [String] = []
        var groups: [String: (line: Int, members: [String])] = [:]
        while records.next() {
            if records.isBlank { continue }
            guard let layout = columns else {
                guard let found = CSVColumns(header: header(records)) else {
                    return ContactImportResult(
                        problems: [ContactImportProblem(line: records.recordLine, reason: "the CSV header names no name or e-mail column")],
                        format: .unknown, textEncoding: encoding)
                }
                columns = found
                headerCount = records.count
                continue
            }
            let line = records.recordLine
            if let fault = records.fault {
                problems.append(ContactImportProblem(line: line, reason: fault))
                continue
            }
            guard records.count == headerCount else {
                problems.append(ContactImportProblem(
                    line: line, reason: "\(records.count) field\(records.count == 1 ? "" : "s") where the header has \(headerCount)"))
                continue
            }
            guard var contact = contact(records, layout) else {
                problems.append(ContactImportProblem(line: line, reason: "no name and no address"))
                continue
            }
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
        for category in groupOrder {
            let group = groups[category]!
            var h = FNV1a()
            h.add("group")
            h.add(0)
            h.add(category)
            contacts.append(Contact(
                id: ids.unique(h.hex), kind: .group, displayName: category, members: group.members, source: .csv,
                line: group.line))
        }
        return ContactImportResult(
            contacts: contacts, problems: problems, format: columns?.format ?? .unknown, textEncoding: encoding)
    }

    /// The contact of one row, or `nil` when it has no name and no address.
    static func contact(_ records: borrowing CSVRecords, _ columns: CSVColumns) -> Contact? {
        func bytes(_ k: Int?) -> UnsafeBufferPointer<UInt8> {
            guard let k else { return UnsafeBufferPointer(start: nil, count: 0) }
            return trimmingSpaces(records.field(k))
        }
        func value(_ k: Int?) -> String? {
            let v = bytes(k)
            return v.isEmpty ? nil : makeString(v)
        }
        func part(_ k: Int?) -> [String] { value(k).map { [$0] } ?? [] }
        let name = StructuredName(
            family: part(columns.family), given: part(columns.given), additional: part(columns.additional),
            prefixes: part(columns.prefix), suffixes: part(columns.suffix))
        var emails: [ContactEmail] = []
        var emailDisplayName: String?
        for column in columns.emails {
            let field = bytes(column.value)
            guard !field.isEmpty else { continue }
            var types: [String] = []
            var primary = false
            var label = bytes(column.type)
            // Google marks the primary address's label with `* ` (just `*`
            // when the address has no label).
            if label.first == UInt8(ascii: "*") {
                primary = true
                label = trimmingSpaces(UnsafeBufferPointer(rebasing: label[1...]))
            }
            if !label.isEmpty { types = [lowercased(label)] }
            forEachItem(field, googleTriple: true) { address in
                emails.append(ContactEmail(address: makeString(address), types: types, pref: primary ? 1 : nil))
                primary = false
            }
            if emailDisplayName == nil, let shown = value(column.displayName) {
                emailDisplayName = withoutAddressSuffix(shown)
            }
        }
        var displayName: String?
        for k in columns.displayName where displayName == nil { displayName = value(k) }
        if displayName == nil && !name.isEmpty { displayName = name.formatted }
        if displayName == nil { displayName = emailDisplayName }
        guard displayName != nil || !emails.isEmpty else { return nil }
        var categories: [String] = []
        for k in columns.categories {
            forEachItem(bytes(k), googleTriple: columns.categorySeparator == .googleTriple) { item in
                // Google marks its own groups with `* `; `* myContacts` holds every
                // saved contact and names no group of the person's.
                var item = item
                if item.first == UInt8(ascii: "*") {
                    item = trimmingSpaces(UnsafeBufferPointer(rebasing: item[1...]))
                    if item.isEmpty || asciiCaseInsensitiveIs(item, "MYCONTACTS") { return }
                }
                let category = makeString(item)
                if !categories.contains(category) { categories.append(category) }
            }
        }
        var organization: String?
        for k in columns.organization where organization == nil { organization = value(k) }
        return Contact(
            id: ContactID(""), displayName: displayName, name: name, nicknames: part(columns.nickname),
            organization: organization, categories: categories,
            emails: emails, source: .csv)
    }

    /// Calls `body` with each item of a field, trimmed, empty ones left
    /// out: Google separates items with ` ::: `, Outlook with `;`.
    static func forEachItem(
        _ p: UnsafeBufferPointer<UInt8>, googleTriple: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
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
        if p.allSatisfy({ $0 < 0x80 }) { return String(decoding: p.lazy.map(ByteClass.lowercased), as: UTF8.self) }
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
