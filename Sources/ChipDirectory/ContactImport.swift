// Address books in: the one entry point that tells vCard from the CSV of
// the big exporters, finds the file's text encoding, and hands the text to
// the reader of that format.

import ChipSyntax

/// How ``ContactImporter`` reads a file.
public struct ContactImportOptions: Sendable, Hashable {
    /// Rejects, as problems that skip the card or row, what the standards
    /// forbid but exporters write anyway: a vCard without `VERSION`, a 3.0
    /// or 4.0 card without `FN`, a 2.1 or 3.0 card without `N`, a property
    /// name that is not letters, digits and hyphens, `PREF` outside 1–100,
    /// an empty `EMAIL`, `MEMBER` on a card that is not a group, a 4.0 card
    /// that is not UTF-8 or whose `VERSION` does not follow `BEGIN`, and in
    /// CSV a quote inside an unquoted field or text after a closing quote.
    /// Bare LF line ends are accepted either way (transports rewrite line
    /// ends; rejecting them says nothing about the card).
    public var strict: Bool
    /// The WHATWG label of the charset of text that names none and is not
    /// valid UTF-8 (a CSV file without a byte order mark, a vCard value
    /// without `CHARSET`); when `nil`, a CSV is read as Shift_JIS when its
    /// bytes show it (Japanese Outlook) and otherwise, like vCard text, as
    /// windows-1252, the Windows code page Outlook writes on western
    /// systems. A charset given here wins over that detection (the CSV's
    /// ``ContactImportResult/textEncoding`` says `(given)`, `(detected)` or
    /// `(default)`). Valid UTF-8 is read as UTF-8
    /// whatever this says: legacy text is almost never valid UTF-8 by
    /// accident, while the reverse mistake garbles every non-ASCII letter.
    public var defaultCharset: String?
    /// Whether CSV categories (Google's `Group Membership` and `Labels`,
    /// Outlook's `Categories`) also become one ``Contact/Kind-swift.enum/group``
    /// contact each, listing its members' addresses, after the rows.
    public var groupsFromCategories: Bool

    /// Options as named; the defaults read leniently, fall back to
    /// windows-1252, and make lists of CSV categories.
    public init(strict: Bool = false, defaultCharset: String? = nil, groupsFromCategories: Bool = true) {
        self.strict = strict
        self.defaultCharset = defaultCharset
        self.groupsFromCategories = groupsFromCategories
    }
}

/// Something in a file that was not imported as written: a stable
/// ``Reason`` code, the ``values`` its words name, where it is, and what
/// became of the record.
///
/// ```swift
/// let p = result.problems[0]
/// p.code        // "pref-out-of-range-clamped"
/// p.values      // ["value": "0", "clamped": "1"]
/// p.message     // "PREF=0 is outside 1–100; read as 1"
/// ```
public struct ContactImportProblem: ChipReason {
    /// What was wrong, as a stable code. A struct, not an enum: a reason
    /// added later breaks no host's `switch`.
    public struct Reason: ReasonCode {
        enum Kind: String, Sendable, CaseIterable {
            // The whole import.
            case unknownDefaultCharset = "unknown-default-charset"
            case notAnAddressBook = "not-an-address-book"
            // CSV.
            case csvHeaderWithoutColumns = "csv-header-without-columns"
            case csvUnclosedQuote = "csv-unclosed-quote"
            case csvUnclosedQuoteRepaired = "csv-unclosed-quote-repaired"
            case csvTextAfterQuote = "csv-text-after-quote"
            case csvQuoteInUnquotedField = "csv-quote-in-unquoted-field"
            case csvFieldCount = "csv-field-count"
            case csvRowWithoutData = "csv-row-without-data"
            case csvLinesNotUTF8 = "csv-lines-not-utf8"
            case exchangeAddressReplaced = "exchange-address-replaced"
            case valueNotAnAddress = "value-not-an-address"
            case valueExchangeAddress = "value-exchange-address"
            // vCard.
            case emailNotAnAddress = "email-not-an-address"
            case emailExchangeAddress = "email-exchange-address"
            case notAProperty = "not-a-property"
            case notAPropertySkipped = "not-a-property-skipped"
            case noEndBeforeBegin = "no-end-before-begin"
            case noEndBeforeBeginRepaired = "no-end-before-begin-repaired"
            case noEndBeforeEndOfFile = "no-end-before-end-of-file"
            case noEndBeforeEndOfFileRepaired = "no-end-before-end-of-file-repaired"
            case invalidPropertyName = "invalid-property-name"
            case propertiesOutsideCard = "properties-outside-card"
            case textOutsideCard = "text-outside-card"
            case unknownVersion = "unknown-version"
            case unknownVersionRepaired = "unknown-version-repaired"
            case noVersion = "no-version"
            case versionNotFirst = "version-not-first"
            case emptyEmail = "empty-email"
            case emptyCard = "empty-card"
            case noFN = "no-fn"
            case noN = "no-n"
            case memberOutsideGroup = "member-outside-group"
            case misplacedBarePref = "misplaced-bare-pref"
            case misplacedTypePref = "misplaced-type-pref"
            case misplacedPrefNumber = "misplaced-pref-number"
            case unknownEncoding = "unknown-encoding"
            case prefNotANumber = "pref-not-a-number"
            case prefNotANumberIgnored = "pref-not-a-number-ignored"
            case emptyPref = "empty-pref"
            case emptyPrefIgnored = "empty-pref-ignored"
            case prefOutOfRange = "pref-out-of-range"
            case prefOutOfRangeClamped = "pref-out-of-range-clamped"
            case badQuotedPrintable = "bad-quoted-printable"
            case badBase64 = "bad-base64"
            case unknownCharsetReadAsUTF8 = "unknown-charset-read-as-utf8"
            case unknownCharsetReadAsFallback = "unknown-charset-read-as-fallback"
            case notUTF8 = "vcard-4-not-utf8"
            case invalidUTF8Replaced = "invalid-utf8-replaced"

            /// The English words; those of a count take its plural.
            func englishTemplate(_ values: [String: String]) -> String {
                let one = values["count"] == "1"
                let more: String
                switch values["more"] {
                case nil, "0": more = ""
                case "1": more = " (and {more} more piece)"
                default: more = " (and {more} more pieces)"
                }
                switch self {
                case .unknownDefaultCharset:
                    return "unknown charset '{charset}'; text that is not UTF-8 is read as UTF-8 with replacement characters"
                case .notAnAddressBook:
                    return "not an address book: no BEGIN:VCARD line, and no CSV header row naming a name or e-mail column"
                case .csvHeaderWithoutColumns:
                    return "the CSV header names no name or e-mail column, and no column holds addresses"
                case .csvUnclosedQuote: return "the quoted field opened on line {line} is never closed"
                case .csvUnclosedQuoteRepaired:
                    return "the quoted field opened on line {line} is never closed; its quote was read as text up to the end of the field"
                case .csvTextAfterQuote: return "text after a closing quote on line {line}"
                case .csvQuoteInUnquotedField: return "a quote inside an unquoted field on line {line}"
                case .csvFieldCount: return one ? "{count} field where the header has {header}" : "{count} fields where the header has {header}"
                case .csvRowWithoutData: return "no name, address, phone, organization or nickname"
                case .csvLinesNotUTF8:
                    return "this line is not UTF-8 though others are: such lines are read as {charset}, the others as UTF-8"
                case .exchangeAddressReplaced:
                    return "'{text}' is an Exchange (X.500) address; the address {address} of its display name is used"
                case .valueNotAnAddress: return "'{text}' is not an e-mail address; dropped" + more
                case .valueExchangeAddress:
                    return "'{text}' is an Exchange (X.500) address, not an e-mail address; dropped" + more
                case .emailNotAnAddress: return "EMAIL on line {line}: '{text}' is not an e-mail address; dropped" + more
                case .emailExchangeAddress:
                    return "EMAIL on line {line}: '{text}' is an Exchange (X.500) address, not an e-mail address; dropped" + more
                case .notAProperty: return "line {line} has no ':' (not a property)"
                case .notAPropertySkipped: return "line {line} has no ':' (not a property); skipped"
                case .noEndBeforeBegin: return "no END:VCARD before the BEGIN:VCARD on line {line}"
                case .noEndBeforeBeginRepaired: return "no END:VCARD before the BEGIN:VCARD on line {line}; the card ends there"
                case .noEndBeforeEndOfFile: return "no END:VCARD before the end of the file"
                case .noEndBeforeEndOfFileRepaired: return "no END:VCARD before the end of the file; the card ends there"
                case .invalidPropertyName: return "invalid property name '{name}' on line {line}"
                case .propertiesOutsideCard:
                    return one
                        ? "a property outside BEGIN:VCARD … END:VCARD is not read"
                        : "{count} properties outside BEGIN:VCARD … END:VCARD are not read"
                case .textOutsideCard:
                    return one
                        ? "a line of text outside BEGIN:VCARD … END:VCARD is not read: '{text}'"
                        : "{count} lines of text outside BEGIN:VCARD … END:VCARD are not read, the first '{text}'"
                case .unknownVersion: return "unknown VERSION '{version}' on line {line}"
                case .unknownVersionRepaired: return "unknown VERSION '{version}'; the card is read as vCard {readAs}"
                case .noVersion: return "no VERSION"
                case .versionNotFirst: return "VERSION is not the first property after BEGIN:VCARD (RFC 6350 §6.7.9)"
                case .emptyEmail: return "empty EMAIL on line {line}"
                case .emptyCard: return "no name, address, phone or other data (an empty card); skipped"
                case .noFN: return "no FN (required in vCard {version})"
                case .noN: return "no N (required in vCard {version})"
                case .memberOutsideGroup: return "MEMBER on a card whose KIND is not group (RFC 6350 §6.6.5)"
                case .misplacedBarePref:
                    return "bare PREF on line {line} is vCard 2.1's form (3.0 writes TYPE=pref, 4.0 PREF=1–100)"
                case .misplacedTypePref: return "TYPE=pref on line {line} is vCard 3.0's form (4.0 writes PREF=1–100)"
                case .misplacedPrefNumber:
                    return "PREF={value} on line {line} is vCard 4.0's form (2.1 writes PREF, 3.0 TYPE=pref)"
                case .unknownEncoding: return "unknown ENCODING '{encoding}' on line {line}"
                case .prefNotANumber: return "PREF '{value}' is not a number 1–100 on line {line}"
                case .prefNotANumberIgnored: return "PREF '{value}' is not a number 1–100; ignored"
                case .emptyPref: return "empty PREF on line {line}"
                case .emptyPrefIgnored: return "empty PREF; ignored"
                case .prefOutOfRange: return "PREF={value} is outside 1–100 on line {line}"
                case .prefOutOfRangeClamped: return "PREF={value} is outside 1–100; read as {clamped}"
                case .badQuotedPrintable: return "bad quoted-printable '{text}' on line {line}"
                case .badBase64: return "bad base64 on line {line}"
                case .unknownCharsetReadAsUTF8: return "unknown charset '{charset}'; the value is read as UTF-8"
                case .unknownCharsetReadAsFallback: return "unknown charset '{charset}'; the value is read as the fallback charset"
                case .notUTF8: return "text that is not UTF-8 on line {line} (vCard 4.0 is UTF-8)"
                case .invalidUTF8Replaced:
                    return "bytes that are not UTF-8 in a value that must be UTF-8; read as U+FFFD (replacement characters)"
                }
            }

            /// Whether a lenient import drops the one property with this
            /// fault and keeps its card (the `-dropped` form).
            var isPropertyFault: Bool {
                switch self {
                case .unknownEncoding, .badQuotedPrintable, .badBase64: true
                default: false
                }
            }
        }

        let kind: Kind
        /// The property was dropped and its card kept.
        let dropsProperty: Bool

        init(_ kind: Kind, dropsProperty: Bool = false) {
            self.kind = kind
            self.dropsProperty = dropsProperty
        }

        /// The stable code, e.g. `pref-out-of-range-clamped`; a dropped
        /// property's ends in `-dropped` (`bad-base64-dropped`).
        public var code: String { dropsProperty ? kind.rawValue + "-dropped" : kind.rawValue }

        /// The same fault, when a lenient import dropped the property that
        /// has it and kept the card.
        var dropped: Reason { Reason(kind, dropsProperty: true) }

        /// Every reason, the `-dropped` forms included.
        ///
        /// - Complexity: O(*n*), where *n* is the number of reasons.
        public static var allReasons: [Reason] {
            Kind.allCases.map { Reason($0) } + Kind.allCases.filter(\.isPropertyFault).map { Reason($0, dropsProperty: true) }
        }


        func englishTemplate(_ values: [String: String]) -> String {
            let words = kind.englishTemplate(values)
            return dropsProperty ? words + "; the property is dropped" : words
        }

        /// `unknown-default-charset`: "unknown charset '{charset}'; text that is not UTF-8 is read as UTF-8 with replacement characters".
        public static let unknownDefaultCharset = Reason(.unknownDefaultCharset)
        /// `not-an-address-book`: "not an address book: no BEGIN:VCARD line, and no CSV header row naming a name or e-mail column".
        public static let notAnAddressBook = Reason(.notAnAddressBook)
        /// `csv-header-without-columns`: "the CSV header names no name or e-mail column, and no column holds addresses".
        public static let csvHeaderWithoutColumns = Reason(.csvHeaderWithoutColumns)
        /// `csv-unclosed-quote`: "the quoted field opened on line {line} is never closed".
        public static let csvUnclosedQuote = Reason(.csvUnclosedQuote)
        /// `csv-unclosed-quote-repaired`: "the quoted field opened on line {line} is never closed; its quote was read as text up to the end of the field".
        public static let csvUnclosedQuoteRepaired = Reason(.csvUnclosedQuoteRepaired)
        /// `csv-text-after-quote`: "text after a closing quote on line {line}".
        public static let csvTextAfterQuote = Reason(.csvTextAfterQuote)
        /// `csv-quote-in-unquoted-field`: "a quote inside an unquoted field on line {line}".
        public static let csvQuoteInUnquotedField = Reason(.csvQuoteInUnquotedField)
        /// `csv-field-count`.
        public static let csvFieldCount = Reason(.csvFieldCount)
        /// `csv-row-without-data`: "no name, address, phone, organization or nickname".
        public static let csvRowWithoutData = Reason(.csvRowWithoutData)
        /// `csv-lines-not-utf8`: a CSV whose lines are UTF-8 beyond ASCII
        /// and also not UTF-8: each line is read as what it is; a warning
        /// at the first line that is not UTF-8.
        public static let csvLinesNotUTF8 = Reason(.csvLinesNotUTF8)
        /// `exchange-address-replaced`: "'{text}' is an Exchange (X.500) address; the address {address} of its display name is used".
        public static let exchangeAddressReplaced = Reason(.exchangeAddressReplaced)
        /// `value-not-an-address`: "'{text}' is not an e-mail address; dropped".
        public static let valueNotAnAddress = Reason(.valueNotAnAddress)
        /// `value-exchange-address`: "'{text}' is an Exchange (X.500) address, not an e-mail address; dropped".
        public static let valueExchangeAddress = Reason(.valueExchangeAddress)
        /// `email-not-an-address`: "EMAIL on line {line}: '{text}' is not an e-mail address; dropped".
        public static let emailNotAnAddress = Reason(.emailNotAnAddress)
        /// `email-exchange-address`: "EMAIL on line {line}: '{text}' is an Exchange (X.500) address, not an e-mail address; dropped".
        public static let emailExchangeAddress = Reason(.emailExchangeAddress)
        /// `not-a-property`: "line {line} has no ':' (not a property)".
        public static let notAProperty = Reason(.notAProperty)
        /// `not-a-property-skipped`: "line {line} has no ':' (not a property); skipped".
        public static let notAPropertySkipped = Reason(.notAPropertySkipped)
        /// `no-end-before-begin`: "no END:VCARD before the BEGIN:VCARD on line {line}".
        public static let noEndBeforeBegin = Reason(.noEndBeforeBegin)
        /// `no-end-before-begin-repaired`: "no END:VCARD before the BEGIN:VCARD on line {line}; the card ends there".
        public static let noEndBeforeBeginRepaired = Reason(.noEndBeforeBeginRepaired)
        /// `no-end-before-end-of-file`: "no END:VCARD before the end of the file".
        public static let noEndBeforeEndOfFile = Reason(.noEndBeforeEndOfFile)
        /// `no-end-before-end-of-file-repaired`: "no END:VCARD before the end of the file; the card ends there".
        public static let noEndBeforeEndOfFileRepaired = Reason(.noEndBeforeEndOfFileRepaired)
        /// `invalid-property-name`: "invalid property name '{name}' on line {line}".
        public static let invalidPropertyName = Reason(.invalidPropertyName)
        /// `properties-outside-card`.
        public static let propertiesOutsideCard = Reason(.propertiesOutsideCard)
        /// `text-outside-card`: free text between cards, before the first
        /// or after the last (a heading, a pasted address); a warning
        /// unless a line of it holds an `@`.
        public static let textOutsideCard = Reason(.textOutsideCard)
        /// `unknown-version`: "unknown VERSION '{version}' on line {line}".
        public static let unknownVersion = Reason(.unknownVersion)
        /// `unknown-version-repaired`: "unknown VERSION '{version}'; the card is read as vCard {readAs}".
        public static let unknownVersionRepaired = Reason(.unknownVersionRepaired)
        /// `no-version`: "no VERSION".
        public static let noVersion = Reason(.noVersion)
        /// `version-not-first`: "VERSION is not the first property after BEGIN:VCARD (RFC 6350 §6.7.9)".
        public static let versionNotFirst = Reason(.versionNotFirst)
        /// `empty-email`: "empty EMAIL on line {line}".
        public static let emptyEmail = Reason(.emptyEmail)
        /// `empty-card`: "no name, address, phone or other data (an empty card); skipped".
        public static let emptyCard = Reason(.emptyCard)
        /// `no-fn`: "no FN (required in vCard {version})".
        public static let noFN = Reason(.noFN)
        /// `no-n`: "no N (required in vCard {version})".
        public static let noN = Reason(.noN)
        /// `member-outside-group`: "MEMBER on a card whose KIND is not group (RFC 6350 §6.6.5)".
        public static let memberOutsideGroup = Reason(.memberOutsideGroup)
        /// `misplaced-bare-pref`: "bare PREF on line {line} is vCard 2.1's form (3.0 writes TYPE=pref, 4.0 PREF=1–100)".
        public static let misplacedBarePref = Reason(.misplacedBarePref)
        /// `misplaced-type-pref`: "TYPE=pref on line {line} is vCard 3.0's form (4.0 writes PREF=1–100)".
        public static let misplacedTypePref = Reason(.misplacedTypePref)
        /// `misplaced-pref-number`: "PREF={value} on line {line} is vCard 4.0's form (2.1 writes PREF, 3.0 TYPE=pref)".
        public static let misplacedPrefNumber = Reason(.misplacedPrefNumber)
        /// `unknown-encoding`: "unknown ENCODING '{encoding}' on line {line}".
        public static let unknownEncoding = Reason(.unknownEncoding)
        /// `pref-not-a-number`: "PREF '{value}' is not a number 1–100 on line {line}".
        public static let prefNotANumber = Reason(.prefNotANumber)
        /// `pref-not-a-number-ignored`: "PREF '{value}' is not a number 1–100; ignored".
        public static let prefNotANumberIgnored = Reason(.prefNotANumberIgnored)
        /// `empty-pref`: "empty PREF on line {line}".
        public static let emptyPref = Reason(.emptyPref)
        /// `empty-pref-ignored`: "empty PREF; ignored".
        public static let emptyPrefIgnored = Reason(.emptyPrefIgnored)
        /// `pref-out-of-range`: "PREF={value} is outside 1–100 on line {line}".
        public static let prefOutOfRange = Reason(.prefOutOfRange)
        /// `pref-out-of-range-clamped`: "PREF={value} is outside 1–100; read as {clamped}".
        public static let prefOutOfRangeClamped = Reason(.prefOutOfRangeClamped)
        /// `bad-quoted-printable`: "bad quoted-printable '{text}' on line {line}".
        public static let badQuotedPrintable = Reason(.badQuotedPrintable)
        /// `bad-base64`: "bad base64 on line {line}".
        public static let badBase64 = Reason(.badBase64)
        /// `unknown-charset-read-as-utf8`: "unknown charset '{charset}'; the value is read as UTF-8".
        public static let unknownCharsetReadAsUTF8 = Reason(.unknownCharsetReadAsUTF8)
        /// `unknown-charset-read-as-fallback`: "unknown charset '{charset}'; the value is read as the fallback charset".
        public static let unknownCharsetReadAsFallback = Reason(.unknownCharsetReadAsFallback)
        /// `vcard-4-not-utf8`: "text that is not UTF-8 on line {line} (vCard 4.0 is UTF-8)".
        public static let notUTF8 = Reason(.notUTF8)
        /// `invalid-utf8-replaced`: a value whose `CHARSET` (or the file's
        /// own encoding) says UTF-8 holds other bytes, read as U+FFFD; a
        /// warning at the property's line.
        public static let invalidUTF8Replaced = Reason(.invalidUTF8Replaced)
    }

    /// The 1-based physical line where the card or row starts (for a
    /// problem of one property of a card that was kept: the property's
    /// line); 0 for a problem of the whole import, such as an unknown
    /// ``ContactImportOptions/defaultCharset``.
    public var line: Int
    /// What was wrong.
    public var reason: Reason
    /// The values its words name: `line` (a line inside the record),
    /// `text`, `count`, `value` and the like.
    public var values: [String: String]
    /// Whether the card or row was left out. Every record of a file
    /// becomes either a contact or exactly one problem that skips it.
    public var skipsRecord: Bool
    /// Whether this only says what was repaired or dropped while nothing a
    /// person would miss was lost: a contact kept with a repair, a value
    /// that is not an address dropped, a record with no name, address or
    /// other data skipped. An import whose problems are all warnings
    /// succeeded (`chipify contacts` exits 0 and `--quiet` hides them).
    public var isWarning: Bool

    /// A problem as named: skipping its record unless told otherwise, and a
    /// warning exactly when it does not skip a record, unless told otherwise.
    public init(line: Int, _ reason: Reason, _ values: [String: String] = [:], skipsRecord: Bool = true,
                isWarning: Bool? = nil) {
        self.line = line
        self.reason = reason
        self.values = values
        self.skipsRecord = skipsRecord
        self.isWarning = isWarning ?? !skipsRecord
    }

    /// The reason's code.
    public var code: String { reason.code }
    /// The reason's English words, chosen by the values where number matters
    /// (`1 field`, `2 fields`); ``values`` fill its placeholders.
    public var englishTemplate: String { reason.englishTemplate(values) }
    /// `line: message`.
    ///
    /// - Complexity: as ``ChipReason/message``.
    public var description: String { "\(line): \(message)" }
}

/// The kind of file an import found.
public enum ContactFileFormat: String, Sendable, Hashable {
    /// vCard 2.1, 3.0 or 4.0, one or more cards (each contact's
    /// ``Contact/source`` says which version).
    case vCard = "vcard"
    /// Google Contacts' CSV, the older (`Given Name`, `Group Membership`)
    /// and the newer (`First Name`, `Labels`) layout.
    case googleCSV = "google-csv"
    /// Outlook's CSV (`E-mail Address`, `E-mail 2 Address`, `Categories`),
    /// in English or the other languages Outlook writes its header in
    /// (`E-Mail-Adresse`, `Adresse de messagerie`, `電子メール アドレス`, …).
    case outlookCSV = "outlook-csv"
    /// Thunderbird's CSV (`Primary Email`, `Secondary Email`).
    case thunderbirdCSV = "thunderbird-csv"
    /// A CSV of another layout, read by column names or, without names it
    /// knows, by what its columns hold (see `docs/contacts.md`).
    case genericCSV = "csv"
    /// Empty, or neither vCard nor a CSV with a name or address column.
    case unknown
}

/// What an import made of a file.
public struct ContactImportResult: Sendable, Hashable {
    /// The contacts in file order; for CSV, the groups made from
    /// categories follow the rows.
    public var contacts: [Contact]
    /// The problems in file order.
    public var problems: [ContactImportProblem]
    /// What the file was found to be.
    public var format: ContactFileFormat
    /// The encoding of the file as a whole: `UTF-8` or `UTF-16LE`/`BE` when
    /// a byte order mark or the pattern of NUL bytes says so, otherwise the
    /// name of the charset the text was read in (a vCard's values may name
    /// their own).
    public var textEncoding: String

    /// A result as named.
    public init(contacts: [Contact] = [], problems: [ContactImportProblem] = [], format: ContactFileFormat,
                textEncoding: String) {
        self.contacts = contacts
        self.problems = problems
        self.format = format
        self.textEncoding = textEncoding
    }
}

/// Reads address books: vCard 2.1 (versit), 3.0 (RFC 2426) and 4.0
/// (RFC 6350), and the CSV that Google Contacts, Outlook and Thunderbird
/// export. See `docs/contacts.md`.
public enum ContactImporter {
    /// Imports the contacts of one file.
    ///
    /// The format is found from the text: a first line `BEGIN:VCARD`, a
    /// header row of known columns, or failing both any line `BEGIN:VCARD`.
    /// Malformed cards and rows become ``ContactImportResult/problems`` and
    /// the rest loads; nothing throws.
    ///
    /// Contacts without a `UID` get an identity derived from their content
    /// (see `docs/contacts.md`); identities are unique within one import,
    /// a repeated one taking the suffix `-2`, `-3`, ….
    ///
    /// - Complexity: O(*n*) in the file's size.
    public static func `import`(_ bytes: [UInt8], options: ContactImportOptions = ContactImportOptions())
        -> ContactImportResult
    {
        // One reading for a whole file and a stream: the file is fed as a
        // stream's pieces (each slice's contacts move out as it is read).
        var stream = ContactImportStream(options: options)
        var contacts: [Contact] = []
        bytes.withUnsafeBufferPointer { p in
            var start = 0
            while start < p.count {
                let end = min(p.count, start + ContactImportStream.pieceBytes)
                stream.feed(UnsafeBufferPointer(rebasing: p[start..<end]))
                let read = stream.takeContacts()
                if contacts.isEmpty { contacts = read } else { contacts.append(contentsOf: read) }
                start = end
            }
        }
        stream.finish()
        contacts.append(contentsOf: stream.takeContacts())
        return ContactImportResult(contacts: contacts, problems: stream.takeProblems(), format: stream.format,
                                   textEncoding: stream.textEncoding)
    }

    enum DetectedFormat { case vCard, csv, empty, unknown }

    /// vCard when the first line that is not blank is `BEGIN:VCARD`; CSV
    /// when it is a header row the CSV reader knows; vCard again when any
    /// later line is `BEGIN:VCARD` (text before the cards is ignored).
    static func detectFormat(_ p: UnsafeBufferPointer<UInt8>) -> DetectedFormat {
        var i = 0
        let n = p.count
        while i < n && (ByteClass.isSpace(p[i]) || ByteClass.isLineBreak(p[i])) { i += 1 }
        if i == n { return .empty }
        if startsWithBeginVCard(p, at: i) { return .vCard }
        if ContactCSVReader.recognizesHeader(p) { return .csv }
        while i < n {
            if p[i] == ASCII.lineFeed || p[i] == ASCII.carriageReturn {
                i += 1
                var j = i
                while j < n && ByteClass.isSpace(p[j]) { j += 1 }
                if startsWithBeginVCard(p, at: j) { return .vCard }
                continue
            }
            i += 1
        }
        // No header and no card: a CSV whose columns hold addresses (a list
        // pasted from a spreadsheet).
        return ContactCSVReader.layout(p, delimiter: CSVRecords.delimiter(of: p)) != nil ? .csv : .unknown
    }

    static func startsWithBeginVCard(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + 11 <= p.count else { return false }
        var j = i
        guard asciiCaseInsensitiveEquals(p, &j, "BEGIN") else { return false }
        while j < p.count && ByteClass.isSpace(p[j]) { j += 1 }
        guard j < p.count && p[j] == UInt8(ascii: ":") else { return false }
        j += 1
        while j < p.count && ByteClass.isSpace(p[j]) { j += 1 }
        return asciiCaseInsensitiveEquals(p, &j, "VCARD")
    }
}

// MARK: - Text encoding of a whole file

let utf8 = Charset(label: "utf-8")!
let utf16LE = Charset(label: "utf-16le")!
let utf16BE = Charset(label: "utf-16be")!
let windows1252 = Charset(label: "windows-1252")!
let shiftJIS = Charset(label: "shift_jis")!

/// The charset of a CSV that is not UTF-8 and names none, and how the
/// result reports it: Shift_JIS when ``looksLikeShiftJIS(_:)`` (Japanese
/// Outlook writes its code page 932), otherwise windows-1252, the code page
/// Outlook writes on western systems.
func csvCharset(_ p: UnsafeBufferPointer<UInt8>) -> (Charset, String) {
    looksLikeShiftJIS(p) ? (shiftJIS, "Shift_JIS (detected)") : (windows1252, "windows-1252 (default)")
}

/// Whether bytes that are not UTF-8 read as Japanese Shift_JIS: every byte
/// of 0x80 and above is a valid lead and trail pair (lead 0x81–0x9F or
/// 0xE0–0xFC, trail 0x40–0x7E or 0x80–0xFC) or a half-width katakana
/// (0xA1–0xDF), at least 8 pairs occur, and at least half of the pairs have
/// a lead below 0xA0 or a trail of 0x80 and above (kana and the common
/// kanji do; a western letter of windows-1252 followed by an ASCII letter,
/// which also forms a valid pair, does not).
func looksLikeShiftJIS(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    var pairs = 0
    var japaneseShaped = 0
    var i = 0
    let n = p.count
    while i < n {
        let b = p[i]
        if b < 0x80 || (b >= 0xA1 && b <= 0xDF) {
            i += 1
            continue
        }
        guard (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC), i + 1 < n else { return false }
        let trail = p[i + 1]
        guard (trail >= 0x40 && trail <= 0x7E) || (trail >= 0x80 && trail <= 0xFC) else { return false }
        pairs += 1
        if b < 0xA0 || trail >= 0x80 { japaneseShaped += 1 }
        i += 2
    }
    return pairs >= 8 && japaneseShaped * 2 >= pairs
}

/// A file's bytes and what its first bytes say about their encoding: a
/// UTF-8 or UTF-16 byte order mark, or UTF-16 recognized by its NUL bytes
/// (ASCII text in UTF-16 has a zero in every other byte).
struct FileText {
    let bytes: [UInt8]
    /// The encoding the file declares or shows, or `nil` for 8-bit text
    /// that says nothing about itself.
    let encodingName: String?
    private let utf16: Charset?
    private let bomLength: Int
    /// The length of the byte order mark, 0 without one.
    var markLength: Int { bomLength }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            (encodingName, utf16, bomLength) = ("UTF-8", nil, 3)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            (encodingName, utf16, bomLength) = ("UTF-16LE", utf16LE, 2)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            (encodingName, utf16, bomLength) = ("UTF-16BE", utf16BE, 2)
        } else {
            switch FileText.utf16ByNULs(bytes) {
            case .some(true): (encodingName, utf16, bomLength) = ("UTF-16LE", utf16LE, 0)
            case .some(false): (encodingName, utf16, bomLength) = ("UTF-16BE", utf16BE, 0)
            case nil: (encodingName, utf16, bomLength) = (nil, nil, 0)
            }
        }
    }

    /// `true` for little-endian UTF-16, `false` for big-endian, `nil` when
    /// the first 1,024 bytes do not look like UTF-16: a NUL in at least a
    /// quarter of the byte pairs, always on the same side.
    static func utf16ByNULs(_ bytes: [UInt8]) -> Bool? {
        let n = min(bytes.count, 1024) & ~1
        guard n >= 4 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for i in stride(from: 0, to: n, by: 2) {
            if bytes[i] == 0 { evenZeros += 1 }
            if bytes[i + 1] == 0 { oddZeros += 1 }
        }
        let pairs = n / 2
        if oddZeros * 4 >= pairs && evenZeros * 20 <= oddZeros { return true }
        if evenZeros * 4 >= pairs && oddZeros * 20 <= evenZeros { return false }
        return nil
    }

    /// Calls `body` with the text as UTF-8 (UTF-16 decoded, a byte order
    /// mark left out) and whether the file marked its encoding, so that
    /// its literal text is known to be Unicode.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>, Bool) -> R) -> R {
        if let utf16 {
            let decoded = bytes.withUnsafeBufferPointer { utf16.decodeToUTF8(UnsafeBufferPointer(rebasing: $0[bomLength...])) }
            return decoded.withUnsafeBufferPointer { body($0, true) }
        }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[bomLength...]), encodingName != nil) }
    }
}

// MARK: - Shared byte helpers

/// Whether `p` is well-formed UTF-8 (RFC 3629).
///
/// - Complexity: O(*n*) in the number of bytes.
func isValidUTF8(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = p.count
    while i < n {
        // Eight ASCII bytes at a time: the common case of every value.
        while i + 8 <= n {
            let word = UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        if i >= n { break }
        if p[i] < 0x80 {
            i += 1
            continue
        }
        let length = UTF8Bytes.sequenceLength(p, at: i, end: n)
        if length == 0 { return false }
        i += length
    }
    return true
}

/// Whether the bytes at `i` spell `word` (upper-case ASCII) in any case;
/// moves `i` past them when they do.
@inline(__always)
func asciiCaseInsensitiveEquals(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard i + count <= p.count else { return false }
    let w = word.utf8Start
    for k in 0..<count {
        let expected = w[k]
        let isLetter = expected >= 0x41 && expected <= 0x5A
        if isLetter ? (p[i + k] & ~ASCII.caseBit) != expected : p[i + k] != expected { return false }
    }
    i += count
    return true
}

/// Whether `p` spells `word` (upper-case ASCII) in any case, and nothing else.
@inline(__always)
func asciiCaseInsensitiveIs(_ p: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    guard p.count == word.utf8CodeUnitCount else { return false }
    var i = 0
    return asciiCaseInsensitiveEquals(p, &i, word)
}

/// `p` without ASCII spaces and tabs at either end.
@inline(__always)
func trimmingSpaces(_ p: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0, end = p.count
    while start < end && (ByteClass.isSpace(p[start]) || ByteClass.isLineBreak(p[start])) { start += 1 }
    while end > start && (ByteClass.isSpace(p[end - 1]) || ByteClass.isLineBreak(p[end - 1])) { end -= 1 }
    return UnsafeBufferPointer(rebasing: p[start..<end])
}

/// A string of UTF-8 bytes already known to be well-formed (or repaired
/// with U+FFFD by the standard library's decoding when not).
@inline(__always)
func makeString(_ p: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: p, as: UTF8.self)
}

// MARK: - Identities

/// Makes the identities of one import unique, and derives the identity of
/// a contact without `UID`.
struct ContactIDAllocator {
    // The identities used so far, found by their FNV-1a hash: hashing eight
    // bytes instead of a 45-byte UID made this a tenth of the cost of
    // importing a card. Two identities with one hash are told apart by the
    // few in `sharingAHash`.
    private var byHash: [UInt64: String] = [:]
    private var sharingAHash: Set<String> = []

    init(expectedCount: Int = 0) {
        byHash.reserveCapacity(expectedCount)
    }

    /// `base`, or when an earlier contact of this import has it, `base-2`,
    /// `base-3`, … (the first not yet used).
    mutating func unique(_ base: String) -> ContactID {
        if insert(base) { return ContactID(base) }
        var k = 2
        while true {
            let candidate = "\(base)-\(k)"
            if insert(candidate) { return ContactID(candidate) }
            k += 1
        }
    }

    /// Whether an earlier contact of this import has `id`.
    func contains(_ id: String) -> Bool {
        var h = FNV1a()
        h.add(id)
        guard let earlier = byHash[h.value] else { return false }
        return earlier == id || sharingAHash.contains(id)
    }

    /// Adds `id`; `false` when it was there.
    private mutating func insert(_ id: String) -> Bool {
        var h = FNV1a()
        h.add(id)
        guard let earlier = byHash[h.value] else {
            byHash[h.value] = id
            return true
        }
        if earlier == id { return false }
        return sharingAHash.insert(id).inserted
    }

    /// The identity of a contact without one: 16 lower-case hex digits of
    /// the 64-bit FNV-1a hash of the display name, a NUL, the first
    /// address, a NUL and the source (`2.1`, `3.0`, `4.0` or `csv`), so the
    /// same card imported twice gets the same identity.
    static func derived(displayName: String?, firstAddress: String?, source: ContactSource) -> String {
        var h = FNV1a()
        h.add(displayName ?? "")
        h.add(0)
        h.add(firstAddress ?? "")
        h.add(0)
        h.add(source.rawValue)
        return h.hex
    }
}

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): tiny, fully specified, and
/// the same on every machine, which a stored identity needs.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { for b in $0 { add(b) } }
    }

    /// The hash as 16 lower-case hex digits.
    var hex: String {
        let digits: StaticString = "0123456789abcdef"
        var v = value
        // 16 ASCII bytes fit a small string: no allocation.
        return String(unsafeUninitializedCapacity: 16) { out in
            for k in (0..<16).reversed() {
                out[k] = digits.utf8Start[Int(v & 0xF)]
                v >>= 4
            }
            return 16
        }
    }
}

// MARK: - Scratch memory

/// Growable bytes in raw memory, reused from value to value so that
/// decoding a property costs no allocation in the steady state. Handing out
/// ``bytes`` is safe until the next append: each stage of decoding writes
/// its own scratch and only reads the previous stage's.
///
/// Invariant: `count <= capacity`, and the first `count` bytes are the contents.
struct ScratchBytes: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ b: UInt8) {
        if count == capacity { grow(count + 1) }
        base[count] = b
        count += 1
    }

    mutating func append(_ p: UnsafeBufferPointer<UInt8>) {
        guard let source = p.baseAddress, p.count > 0 else { return }
        if count + p.count > capacity { grow(count + p.count) }
        (base + count).update(from: source, count: p.count)
        count += p.count
    }

    mutating func append(contentsOf a: [UInt8]) {
        a.withUnsafeBufferPointer { append($0) }
    }

    /// Drops the last byte.
    mutating func removeLast() {
        precondition(count > 0, "removeLast() on empty scratch")
        count -= 1
    }

    private mutating func grow(_ needed: Int) {
        let next = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: next)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = next
    }
}

/// Whether the 8 bytes of `word` include `byte` (the classic zero-byte test
/// on `word` XOR `byte` repeated).
@inline(__always)
func wordContains(_ word: UInt64, _ byte: UInt8) -> Bool {
    let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
}

/// The end of the physical line starting at `start` (the offset of its
/// CR, LF or the end of `p`) and where the next line starts. A line ends
/// with CRLF, LF, or a CR alone.
@inline(__always)
func physicalLine(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (contentEnd: Int, next: Int) {
    var i = start
    let n = p.count
    while i + 8 <= n {
        let word = UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: UInt64.self)
        if wordContains(word, ASCII.lineFeed) || wordContains(word, ASCII.carriageReturn) { break }
        i += 8
    }
    while i < n {
        let b = p[i]
        if b == ASCII.lineFeed { return (i, i + 1) }
        if b == ASCII.carriageReturn { return (i, i + 1 < n && p[i + 1] == ASCII.lineFeed ? i + 2 : i + 1) }
        i += 1
    }
    return (n, n)
}
