import ChipSyntax
import ChipRecognition

/// How to render chips as a header field's value.
public struct HeaderOptions: Sendable, Hashable {
    /// The message goes out with SMTPUTF8 (RFC 6531/6532): UTF-8 stays as
    /// is in names and addresses. Otherwise non-ASCII names become RFC 2047
    /// encoded words and domains their A-labels, and a chip whose local
    /// part is not ASCII cannot be sent and is left out.
    public var smtpUTF8 = false
    /// Lines are folded before this many characters where a fold is allowed.
    public var foldAt = HeaderLimits.foldAtBytes
    /// Characters already on the first line (`To: ` is 4).
    public var firstLineUsed = 0
    /// What folding inserts before the space that starts a continuation line.
    public var lineBreak = "\r\n"

    /// Options as RFC 5322 recommends unless given: no SMTPUTF8, lines folded
    /// before 78 bytes, CRLF line breaks, nothing on the first line yet.
    public init(smtpUTF8: Bool = false, foldAt: Int = HeaderLimits.foldAtBytes, firstLineUsed: Int = 0, lineBreak: String = "\r\n") {
        self.smtpUTF8 = smtpUTF8
        self.foldAt = foldAt
        self.firstLineUsed = firstLineUsed
        self.lineBreak = lineBreak
    }
}

/// A rendered header value and what could not be rendered.
public struct HeaderValue: Sendable, Hashable {
    /// The value, folded with `lineBreak` + space; no other line break,
    /// no NUL or other control character, no line over 998 bytes.
    public var text: String
    /// Each chip left out, in order, and why: nothing is left out without
    /// a reason.
    public var omissions: [HeaderOmission] = []
    /// Indexes of chips left out: chips in error, and without SMTPUTF8,
    /// chips whose local part is not ASCII (the indexes of ``omissions``).
    ///
    /// - Complexity: O(*k*), where *k* is the number of chips left out.
    public var omitted: [Int] { omissions.map(\.index) }
}

/// Chips to an RFC 5322 address-list, safe to put in a header: minimal
/// quoting, encoded words where needed, folding at allowed points only.
///
/// Invariant: whatever the chips hold (hosts may build them), the output
/// cannot end the header early or start another: control characters in
/// names fold to spaces, and a chip whose address holds one is omitted.
public enum HeaderRenderer {
    /// Renders chips in order; consecutive chips of one group share its
    /// `name: …;`, and an empty group renders as `name:;`.
    ///
    /// - Complexity: O(*n*) in the total length of the chips.
    public static func render(_ chips: [ParsedChip], options: HeaderOptions = HeaderOptions()) -> HeaderValue {
        var writer = HeaderWriter(options: options)
        var omissions: [HeaderOmission] = []
        for (index, chip) in chips.enumerated() where !writer.add(chip) {
            omissions.append(HeaderOmission(index: index, reason: writer.lastOmission!))
        }
        writer.finish()
        return HeaderValue(text: writer.text, omissions: omissions)
    }

    /// The longest address written: with `<` `>`, a `;` and a `,` after it
    /// and the space that starts a folded line, it fits a line of 998 bytes.
    static let maxAddressBytes = HeaderLimits.maxLineBytes - 8

    /// The address to send: as typed (without obsolete white space), the
    /// domain mapped (full-width forms and full stops, UTS #46) as A-labels,
    /// or under SMTPUTF8 as U-labels. Why not, when it cannot be sent.
    static func addressText(
        _ chip: ParsedChip, _ options: HeaderOptions, _ checker: inout Recognizer
    ) -> Result<String, HeaderOmission.Reason> {
        var noCache: DomainForms?
        return addressText(chip, options, &checker, domains: &noCache)
    }

    /// The domains a writer has mapped (UTS #46 and A-labels, or back to
    /// U-labels under SMTPUTF8), by the domain as written in the chip:
    /// IDNA's work on `String`s is most of an international address's
    /// cost, and a list names a few domains many times. Nil: not sendable.
    /// At most ``DomainForms/limit`` domains; then it starts again.
    struct DomainForms {
        static let limit = 4_096
        var forms: [String: String?] = [:]
    }

    /// ``addressText(_:_:_:)``, the mapped domain looked up in `domains`
    /// (nil: none kept, as for one chip alone) for a chip that does not
    /// carry its A-labels.
    static func addressText(
        _ chip: ParsedChip, _ options: HeaderOptions, _ checker: inout Recognizer, domains: inout DomainForms?
    ) -> Result<String, HeaderOmission.Reason> {
        guard let address = chip.address, let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) else {
            return .failure(.notAnAddrSpec)
        }
        // Nothing that could break the header, in either part: no C0 or
        // C1 control (CR, LF, NEL among them), no line or paragraph
        // separator (U+2028, U+2029), whatever built the chip.
        for s in address.unicodeScalars where isLineBreakOrControl(s) { return .failure(.controlCharacter) }
        let local = String(address[..<at])
        var domain = String(address[address.index(after: at)...])
        if !options.smtpUTF8, !local.utf8.allSatisfy({ $0 < 0x80 }) { return .failure(.needsSMTPUTF8) }
        // An address literal is neither mapped nor encoded. Any other
        // domain is mapped (UTS #46: full-width forms, full stops, case) in
        // both modes, then written as A-labels, or under SMTPUTF8 as
        // U-labels: `ann@ｘ。org` goes out as `ann@x.org`, never as typed.
        if !domain.hasPrefix("["), !options.smtpUTF8 || !domain.utf8.allSatisfy({ $0 < 0x80 }) {
            let mapped: String?
            if chip.asciiDomain == nil, let known = domains?.forms[domain] {
                mapped = known
            } else {
                mapped = (chip.asciiDomain ?? (try? IDNA.toASCII(domain))).map { ascii in
                    options.smtpUTF8 ? (try? IDNA.toUnicode(ascii)) ?? ascii : ascii
                }
                if chip.asciiDomain == nil, domains != nil {
                    if domains!.forms.count >= DomainForms.limit { domains!.forms.removeAll(keepingCapacity: true) }
                    domains!.forms[domain] = mapped
                }
            }
            guard let mapped else { return .failure(.invalidIDN) }
            domain = mapped
        }
        let text = local + "@" + domain
        guard text.utf8.count <= maxAddressBytes else { return .failure(.tooLong) }
        // Only a well-formed addr-spec goes out: what a lenient policy let
        // through (`a@b,c`) could otherwise read back as something else.
        let bytes = Array(text.utf8)
        let r = checker.recognize(bytes)
        guard r.isValid, r.nameRange == nil, r.warnings.isDisjoint(with: [.mailtoPrefix, .obsoleteSyntax]),
              r.localPartRange?.lowerBound == 0, r.domainRange?.upperBound == bytes.count else {
            return .failure(.notAnAddrSpec)
        }
        return .success(text)
    }

    /// Why a header would leave `chip` out, or nil when it goes in: what
    /// ``HeaderWriter/add(_:)`` decides for one chip. It depends on the
    /// chip and on SMTPUTF8 only, never on the chip's place or the line
    /// length, so an editor can decide it once per chip.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    package static func omission(
        of chip: ParsedChip, smtpUTF8: Bool, _ checker: inout Recognizer
    ) -> HeaderOmission.Reason? {
        guard chip.isValid else { return .inError(chip.error) }
        if chip.kind == .emptyGroup { return nil }
        if case .failure(let reason) = addressText(chip, HeaderOptions(smtpUTF8: smtpUTF8), &checker) { return reason }
        return nil
    }

    /// Whether `address` surely goes in a header with or without SMTPUTF8,
    /// decided in one pass over its bytes: a dot-atom of ASCII `atext`, an
    /// `@`, and a host name of letters, digits and hyphens (no label that
    /// starts `xn--` or has hyphens in its third and fourth places, none at
    /// either end), within the lengths of a header line and of DNS. Such an
    /// address needs no IDNA and is an addr-spec as written, so
    /// ``addressText(_:_:_:)`` takes it as it is. False means "ask
    /// ``omission(of:smtpUTF8:_:)``", not "left out". The debug checks of
    /// the editor compare the two on every chip.
    ///
    /// - Complexity: O(*n*) in the address's length.
    package static func surelyCarried(_ address: String) -> Bool {
        address.utf8.withContiguousStorageIfAvailable(surelyCarried) ?? false
    }

    /// ASCII `atext` (RFC 5322 §3.2.3) as two 64-bit masks, so the test
    /// reads no table.
    private static let atextLow: UInt64 = {
        var m: UInt64 = 0
        for b in 0..<64 where ByteClass.atext[UInt8(b)] != 0 { m |= 1 << UInt64(b) }
        return m
    }()

    @inline(__always)
    private static func isASCIIAtext(_ b: UInt8, low: UInt64) -> Bool {
        if b < 64 { return low >> UInt64(b) & 1 == 1 }
        if b >= 0x80 { return false }
        // 64...127: letters, digits none, and ^ _ ` { | } ~ (not @ [ \ ] DEL).
        let c = b | 0x20
        return (c >= 0x61 && c <= 0x7A) || b == 0x5E || b == 0x5F || b == 0x60 || (b >= 0x7B && b <= 0x7E)
    }

    static func surelyCarried(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let dot = UInt8(ascii: "."), hyphen = UInt8(ascii: "-")
        guard p.count <= maxAddressBytes, let at = p.lastIndex(of: UInt8(ascii: "@")) else { return false }
        // The local part: atoms of ASCII atext joined by single dots.
        guard at > 0, p[0] != dot, p[at - 1] != dot else { return false }
        let low = atextLow
        var previous: UInt8 = 0
        for i in 0..<at {
            let b = p[i]
            if b == dot {
                if previous == dot { return false }
            } else if !isASCIIAtext(b, low: low) {
                return false
            }
            previous = b
        }
        // The domain: LDH labels of 1 to 63 bytes, 253 bytes at most.
        let domain = at + 1
        guard p.count - domain >= 1, p.count - domain <= 253 else { return false }
        var labelStart = domain
        var i = domain
        while i <= p.count {
            if i == p.count || p[i] == dot {
                let n = i - labelStart
                guard n >= 1, n <= 63, p[labelStart] != hyphen, p[i - 1] != hyphen else { return false }
                if n >= 4, p[labelStart + 2] == hyphen, p[labelStart + 3] == hyphen { return false }
                labelStart = i + 1
            } else {
                let b = p[i], c = b | 0x20
                guard (c >= 0x61 && c <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == hyphen else { return false }
            }
            i += 1
        }
        return true
    }

    /// The recognizer ``omission(of:smtpUTF8:_:)`` checks addresses with.
    package static func addrSpecChecker() -> Recognizer { Recognizer(policy: HeaderWriter.addrSpecPolicy) }

    /// C0 and C1 controls, DEL, and the line and paragraph separators:
    /// what may end a line for some reader, and so never goes in a header
    /// except as the folds the writer makes.
    @inline(__always)
    static func isLineBreakOrControl(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029
    }

    /// A display name (or group name) as the words of an RFC 5322 phrase:
    /// atoms when they can be, else a quoted string, else encoded words.
    static func phraseWords(_ name: String, _ options: HeaderOptions, keepingEncodedWords: Bool) -> [String] {
        guard keepingEncodedWords else { return phraseWords(name, options) }
        // An encoded word that was not decoded (a charset this engine does
        // not read) goes out as the encoded word it was, for the reader's
        // client to decode; quoting it would show its code. The words
        // around it are written as any phrase.
        var out: [String] = []
        var run: [Substring] = []
        func flush() {
            if !run.isEmpty { out += phraseWords(run.joined(separator: " "), options) }
            run = []
        }
        for word in name.split(separator: " ") {
            if isEncodedWord(word) {
                flush()
                out.append(String(word))
            } else {
                run.append(word)
            }
        }
        flush()
        return out
    }

    /// Whether a word is an RFC 2047 encoded word a phrase may hold, so
    /// that it goes out as it came: `=?charset?B|Q?text?=`, at most 75
    /// characters, the charset a token (RFC 2047 §2, an RFC 2231
    /// `*language` allowed), and the text what its encoding allows in a
    /// phrase: for Q, letters, digits, `! * + - / _` and `=` before two
    /// hexadecimal digits (§4.2, §5(3)); for B, base64 in groups of four,
    /// `=` only as the last group's padding (§4.1). Anything else that
    /// starts `=?` is text, which a phrase writes as encoded words.
    static func isEncodedWord(_ word: Substring) -> Bool {
        let b = Array(word.utf8)
        guard b.count >= 8, b.count <= HeaderLimits.maxEncodedWordBytes, b.starts(with: [0x3D, 0x3F]),
              b[b.count - 2] == 0x3F, b[b.count - 1] == 0x3D else { return false }
        let inner = b[2..<(b.count - 2)].split(separator: 0x3F, omittingEmptySubsequences: false)
        guard inner.count == 3, !inner[0].isEmpty, inner[1].count == 1, !inner[2].isEmpty else { return false }
        let especials = Array("()<>@,;:\"/[]?.=".utf8)
        guard inner[0].allSatisfy({ $0 > 0x20 && $0 < 0x7F && !especials.contains($0) }) else { return false }
        let text = Array(inner[2])
        let qSafe = Array("!*+-/_".utf8)
        switch inner[1].first! | ASCII.caseBit {
        case UInt8(ascii: "q"):
            var i = 0
            while i < text.count {
                let c = text[i]
                if c == UInt8(ascii: "=") {
                    guard i + 2 < text.count, isHexDigit(text[i + 1]), isHexDigit(text[i + 2]) else { return false }
                    i += 3
                    continue
                }
                guard ByteClass.isLetterOrDigit(c) || qSafe.contains(c) else { return false }
                i += 1
            }
            return true
        case UInt8(ascii: "b"):
            guard text.count % 4 == 0 else { return false }
            let padding = text.reversed().prefix(while: { $0 == UInt8(ascii: "=") }).count
            guard padding <= 2 else { return false }
            return text.dropLast(padding).allSatisfy { ByteClass.isLetterOrDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }
        default:
            return false
        }
    }

    static func isHexDigit(_ b: UInt8) -> Bool {
        ByteClass.isDigit(b) || (b | ASCII.caseBit >= UInt8(ascii: "a") && b | ASCII.caseBit <= UInt8(ascii: "f"))
    }

    static func phraseWords(_ name: String, _ options: HeaderOptions) -> [String] {
        var name = name
        var scratch = PhraseScratch()
        if name.withUTF8({ phraseBytes($0, smtpUTF8: options.smtpUTF8, &scratch) }) { return scratch.out.words }
        return phraseWordsOfScalars(name, options)
    }

    /// The buffers ``phraseBytes(_:smtpUTF8:_:)`` works in, kept by a
    /// writer from name to name.
    struct PhraseScratch {
        /// The words written, one space between each two: no word holds a
        /// space (a quoted string is split at its spaces).
        var out = ByteBuffer(capacity: 256)
        /// The name with its controls and runs of spaces folded to one
        /// space, none at either end.
        var clean = ByteBuffer(capacity: 256)
    }

    /// ``phraseWords(_:_:)`` on a name's bytes, into `scratch.out`: the
    /// words ``phraseWordsOfScalars(_:_:)`` gives. False for the few names
    /// left to that reading: ill-formed UTF-8, and under SMTPUTF8 a name
    /// beyond ASCII that holds a space joined to a letter beside it
    /// (``spaceJoinsALetter(_:)``).
    ///
    /// - Complexity: O(*n*) in the name's length.
    static func phraseBytes(_ name: UnsafeBufferPointer<UInt8>, smtpUTF8: Bool, _ scratch: inout PhraseScratch) -> Bool {
        // Controls (C0, DEL, C1, U+2028, U+2029) and spaces fold to one
        // space between words, as in the scalars' reading. The clean text
        // is never longer than the name.
        let clean = scratch.clean.uniqueStorage
        clean.count = 0
        clean.reserve(name.count)
        var ascii = true, atoms = true, equalsQuestion = false, longWord = false
        var start = -1
        var previous: UInt8 = ASCII.space
        var i = 0
        while i < name.count {
            let b = name[i]
            var length = 1
            let separator: Bool
            if b < 0x80 {
                separator = b <= 0x20 || b == 0x7F
                if !separator {
                    if ByteClass.atext[b] == 0 { atoms = false }
                    if previous == UInt8(ascii: "=") && b == UInt8(ascii: "?") { equalsQuestion = true }
                }
            } else {
                length = UTF8Bytes.sequenceLength(name, at: i, end: name.count)
                guard length > 0 else { return false }
                let v = UTF8Bytes.decodeWellFormed(name, at: i).scalar
                separator = v < 0xA0 || v == 0x2028 || v == 0x2029
                // What the clean text holds decides, not what folded away
                // (without SMTPUTF8 such a text is encoded whatever its atoms).
                if !separator { ascii = false }
            }
            if separator {
                if start >= 0 {
                    if clean.count - start > 70 { longWord = true }
                    start = -1
                }
                previous = ASCII.space
            } else {
                if start < 0 {
                    if clean.count > 0 { clean.append(ASCII.space) }
                    start = clean.count
                }
                if length == 1 { clean.append(b) } else { clean.append(name.baseAddress! + i, count: length) }
                previous = b
            }
            i += length
        }
        if start >= 0 && clean.count - start > 70 { longWord = true }
        let out = scratch.out.uniqueStorage
        out.count = 0
        if clean.count == 0 { return true }
        let text = UnsafeBufferPointer(start: clean.base, count: clean.count)
        // A word too long to fold around would make too long a line: as
        // encoded words (at most 75 bytes each) in every mode, since a
        // quoted string has no place to fold but its spaces.
        // `=?` as encoded words too: a reader that looks for encoded words
        // in quoted strings (against RFC 2047 §5(3)) could read one there.
        if (!ascii && !smtpUTF8) || longWord || equalsQuestion {
            appendEncodedWords(text, to: out)
            return true
        }
        if !ascii && spaceJoinsALetter(text) { return false }
        if atoms {
            out.append(text)
            return true
        }
        // One quoted string, `"` and `\` escaped, split at its spaces
        // (folding white space inside a quoted string unfolds to the same
        // space).
        out.reserve(2 * text.count + 2)
        out.append(ASCII.quote)
        for b in text {
            if b == ASCII.quote || b == ASCII.backslash { out.append(ASCII.backslash) }
            out.append(b)
        }
        out.append(ASCII.quote)
        return true
    }

    /// ``phraseWords(_:_:)`` by its scalars: any name.
    static func phraseWordsOfScalars(_ name: String, _ options: HeaderOptions) -> [String] {
        // Controls fold to spaces; white space runs fold to one space.
        var cleaned: [Unicode.Scalar] = []
        var space = false
        for s in name.unicodeScalars {
            if isLineBreakOrControl(s) || s == " " {
                space = !cleaned.isEmpty
                continue
            }
            if space { cleaned.append(" ") }
            space = false
            cleaned.append(s)
        }
        guard !cleaned.isEmpty else { return [] }
        var text = ""
        text.unicodeScalars.append(contentsOf: cleaned)
        let ascii = cleaned.allSatisfy(\.isASCII)
        if !ascii && !options.smtpUTF8 { return encodedWords(text) }
        let parts = text.split(separator: " ").map(String.init)
        // A word too long to fold around would make too long a line: as
        // encoded words (at most 75 bytes each) in every mode, since a
        // quoted string has no place to fold but its spaces.
        if parts.contains(where: { $0.utf8.count > 70 }) { return encodedWords(text) }
        // `=?` would start an encoded word in an atom, and a reader that
        // looks for encoded words in quoted strings (against RFC 2047
        // §5(3)) could read one there: as encoded words, in every mode.
        if zip(cleaned, cleaned.dropFirst()).contains(where: { $0 == "=" && $1 == "?" }) { return encodedWords(text) }
        let atoms = parts.allSatisfy { part in
            part.unicodeScalars.allSatisfy { s in
                s.isASCII ? ByteClass.atext[UInt8(s.value)] != 0 : options.smtpUTF8
            }
        }
        if atoms { return parts }
        return quotedWords(text)
    }

    /// A quoted string, split at its spaces so it can fold there (folding
    /// white space inside a quoted string unfolds to the same space).
    static func quotedWords(_ text: String) -> [String] {
        var escaped = ""
        for ch in text.unicodeScalars {
            if ch == "\"" || ch == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(ch)
        }
        var parts = escaped.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        parts[0] = "\"" + parts[0]
        parts[parts.count - 1] += "\""
        return parts
    }

    /// Whether a space of `text` (well-formed UTF-8) is not a character of
    /// its own: a mark after it or a prepended letter before it makes one
    /// character with it, which the scalars' reading, splitting at the
    /// space characters, does not split.
    ///
    /// - Complexity: O(*n*) in the text's length.
    static func spaceJoinsALetter(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func scalar(at i: Int) -> Unicode.Scalar {
            let b = text[i]
            return Unicode.Scalar(b < 0x80 ? UInt32(b) : UTF8Bytes.decodeWellFormed(text, at: i).scalar) ?? " "
        }
        func joins(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
            var pair = ""
            pair.unicodeScalars.append(a)
            pair.unicodeScalars.append(b)
            return pair.count == 1
        }
        for i in 0..<text.count where text[i] == ASCII.space {
            // Two ASCII characters never join but CR LF, which the clean
            // text lacks.
            if i + 1 < text.count && text[i + 1] >= 0x80 && joins(" ", scalar(at: i + 1)) { return true }
            if i > 0 && text[i - 1] >= 0x80 {
                var lead = i - 1
                while text[lead] & 0xC0 == 0x80 { lead -= 1 }
                if joins(scalar(at: lead), " ") { return true }
            }
        }
        return false
    }

    /// RFC 2047 encoded words for a phrase, UTF-8, B or Q whichever is
    /// shorter, each at most 75 characters and never splitting a character.
    static func encodedWords(_ text: String) -> [String] {
        var text = text
        let out = ByteBuffer(capacity: 256)
        text.withUTF8 { appendEncodedWords($0, to: out.storage) }
        return out.words
    }

    /// ``encodedWords(_:)`` of well-formed UTF-8, appended to `out` with a
    /// space between each two. A text too long for one word is split
    /// between characters (grapheme clusters, as `String` reads them), after
    /// the word's last space when it holds one: RFC 2047 asks only that no
    /// scalar be split, but a reader that keeps the white space between
    /// encoded words (against its §6.2) then shows an extra space, not a
    /// mark torn from its letter. A character too long for a word on its
    /// own is split between its scalars.
    ///
    /// - Complexity: O(*n*) in the text's length.
    static func appendEncodedWords(_ text: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        var qLength = 0
        for b in text { qLength += isQSafe(b) ? 1 : 3 }
        let useB = (text.count + 2) / 3 * 4 < qLength
        let prefix: StaticString = useB ? "=?UTF-8?B?" : "=?UTF-8?Q?"
        let room = HeaderLimits.maxEncodedWordBytes - prefix.utf8CodeUnitCount - 2
        var first = true
        func write(_ range: Range<Int>) {
            if !first { out.append(ASCII.space) }
            first = false
            out.append(prefix)
            let chunk = UnsafeBufferPointer(rebasing: text[range])
            if useB { appendBase64(chunk, to: out) } else { appendQEncoded(chunk, to: out) }
            out.append("?=")
        }
        func cost(_ range: Range<Int>) -> Int {
            if useB { return (range.count + 2) / 3 * 4 }
            var n = 0
            for k in range { n += isQSafe(text[k]) ? 1 : 3 }
            return n
        }
        if (useB ? (text.count + 2) / 3 * 4 : qLength) <= room {
            write(0..<text.count)
            return
        }
        // Where each character starts, as `String` reads them.
        let string = String(decoding: text, as: UTF8.self)
        var starts: [Int] = []
        var index = string.startIndex
        while index < string.endIndex {
            starts.append(string.utf8.distance(from: string.startIndex, to: index))
            index = string.index(after: index)
        }
        starts.append(text.count)
        var chunkStart = 0
        var lastSpaceEnd = -1
        var k = 0
        while k + 1 < starts.count {
            let character = starts[k]..<starts[k + 1]
            if cost(chunkStart..<character.upperBound) > room {
                if lastSpaceEnd > chunkStart {
                    write(chunkStart..<lastSpaceEnd)
                    chunkStart = lastSpaceEnd
                }
                if cost(chunkStart..<character.upperBound) > room && character.lowerBound > chunkStart {
                    write(chunkStart..<character.lowerBound)
                    chunkStart = character.lowerBound
                }
                // A character longer than a word: its scalars, as many a word as fit.
                while cost(chunkStart..<character.upperBound) > room {
                    var end = chunkStart
                    while end < character.upperBound {
                        let b = text[end]
                        let length = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
                        if cost(chunkStart..<(end + length)) > room { break }
                        end += length
                    }
                    write(chunkStart..<end)
                    chunkStart = end
                }
                lastSpaceEnd = -1
            }
            if text[character.lowerBound] == ASCII.space && character.count == 1 { lastSpaceEnd = character.upperBound }
            k += 1
        }
        if text.count > chunkStart { write(chunkStart..<text.count) }
    }

    /// Bytes a Q-encoded word in a phrase may carry as they are (RFC 2047 §5(3)).
    static func isQSafe(_ b: UInt8) -> Bool {
        ByteClass.isLetterOrDigit(b) || b == UInt8(ascii: "!") || b == UInt8(ascii: "*")
            || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "/") || b == ASCII.space
    }

    static func appendQEncoded(_ bytes: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        let hex: StaticString = "0123456789ABCDEF"
        for b in bytes {
            if b == ASCII.space {
                out.append(UInt8(ascii: "_"))
            } else if isQSafe(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "="))
                out.append(hex.utf8Start[Int(b >> 4)])
                out.append(hex.utf8Start[Int(b & 0xF)])
            }
        }
    }

    static func appendBase64(_ bytes: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let a = alphabet.utf8Start
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let v = b0 << 16 | b1 << 8 | b2
            out.append(a[Int(v >> 18 & 63)])
            out.append(a[Int(v >> 12 & 63)])
            out.append(i + 1 < bytes.count ? a[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? a[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
    }
}

extension ByteBuffer {
    /// What the buffer holds split at its spaces, as strings.
    var words: [String] {
        withUnsafeBytes { raw in
            raw.split(separator: ASCII.space).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}

/// Renders chips one at a time into a header value, in constant memory:
/// what is done so far is in ``text`` (take it with ``take()``), except the
/// last word, which may still get a `,` `;` or `:`.
public struct HeaderWriter: Sendable {
    /// How the chips are rendered, fixed for the writer's life.
    public let options: HeaderOptions
    /// Rendered text not yet taken.
    ///
    /// - Complexity: O(*n*) in its length.
    public var text: String { out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
    /// The bytes of ``text``.
    var out = ByteBuffer(capacity: 1_024)
    /// The last word, held back while `holding`: it may still get a `,`
    /// `;` or `:`.
    var held = ByteBuffer(capacity: 256)
    var holding = false
    var line: Int
    var started = false
    var openGroup: String?
    var needsComma = false
    /// Checks each address is a well-formed addr-spec before it goes out.
    var checker = Recognizer(policy: HeaderWriter.addrSpecPolicy)
    /// What starts a continuation line: `options.lineBreak` and a space.
    let fold: [UInt8]
    /// A word that would take a line past this many bytes starts a new one.
    let foldLimit: Int
    /// Where the name being written is read on its bytes.
    var phrase = HeaderRenderer.PhraseScratch()
    /// The domains mapped so far (optional so that ``HeaderRenderer``'s
    /// one-chip checks can pass none).
    var domains: HeaderRenderer.DomainForms? = HeaderRenderer.DomainForms()

    /// RFC 5322 syntax (RFC 6532 UTF-8 allowed), nothing obsolete, no
    /// comments; no host-name rules or limits, which are the chip's policy's.
    static let addrSpecPolicy: ValidationPolicy = {
        var p = ValidationPolicy.strict
        p.name = "addr-spec"
        p.requiresHostName = false
        p.requiresDottedDomain = false
        p.enforcesLengthLimits = false
        p.allowsUnnecessaryQuotes = true
        p.checksLookalikes = false
        return p
    }()

    /// A writer for one header value, starting `options.firstLineUsed` bytes into its line.
    public init(options: HeaderOptions = HeaderOptions()) {
        self.options = options
        self.line = options.firstLineUsed
        self.fold = Array(options.lineBreak.utf8) + [ASCII.space]
        self.foldLimit = min(options.foldAt, HeaderLimits.maxLineBytes)
    }

    /// Why the last chip ``add(_:)`` refused was left out.
    public private(set) var lastOmission: HeaderOmission.Reason?

    /// Adds a chip; false when it cannot be rendered (an error chip, a
    /// non-ASCII local part without SMTPUTF8, an address with controls…:
    /// ``lastOmission`` says which).
    ///
    /// - Complexity: O(*n*) in the chip's length.
    @discardableResult
    public mutating func add(_ chip: ParsedChip) -> Bool { add(chip, onBytes: true) }

    /// ``add(_:)``; `onBytes`: a mailbox is first offered to
    /// ``addOnBytes(group:name:address:asciiDomain:)``.
    mutating func add(_ chip: ParsedChip, onBytes: Bool) -> Bool {
        guard chip.isValid else {
            lastOmission = .inError(chip.error)
            return false
        }
        if chip.kind == .emptyGroup {
            closeGroup()
            separate()
            var phrase = HeaderRenderer.phraseWords(chip.group ?? "", options)
            if phrase.isEmpty { phrase = ["\"\""] }
            phrase[phrase.count - 1] += ":;"
            for w in phrase { word(w) }
            needsComma = true
            return true
        }
        if onBytes, var address = chip.address, !chip.warnings.contains(.undecodedEncodedWord) {
            var name = chip.displayName ?? ""
            let written = address.withUTF8 { address in
                name.withUTF8 { name in
                    addOnBytes(group: chip.group, name: name, address: address, asciiDomain: chip.asciiDomain)
                }
            }
            if written { return true }
        }
        let address: String
        switch HeaderRenderer.addressText(chip, options, &checker, domains: &domains) {
        case .success(let text): address = text
        case .failure(let reason):
            lastOmission = reason
            return false
        }
        enter(group: chip.group)
        let name = HeaderRenderer.phraseWords(
            chip.displayName ?? "", options, keepingEncodedWords: chip.warnings.contains(.undecodedEncodedWord))
        for w in name { word(w) }
        word(name.isEmpty ? address : "<" + address + ">")
        needsComma = true
        return true
    }

    /// Starts a mailbox of `group` (nil: none): the group open until now
    /// is closed when it is another, and this one's name written.
    mutating func enter(group: String?) {
        guard group != openGroup else {
            separate()
            return
        }
        closeGroup()
        separate()
        if let group {
            var phrase = HeaderRenderer.phraseWords(group, options)
            if phrase.isEmpty { phrase = ["\"\""] }
            phrase[phrase.count - 1] += ":"
            for w in phrase { word(w) }
            openGroup = group
        }
    }

    /// ``add(_:)`` for a chip given as the bytes of its decoded name and
    /// its address, as a record writer holds them: a valid mailbox by
    /// ``addOnBytes(group:name:address:asciiDomain:)`` when it can be,
    /// any other chip through ``add(_:)``.
    /// The same text either way, which a differential test holds.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    package mutating func add(
        kind: ListItem.Kind, error: ChipError?, group: String?, name: UnsafeBufferPointer<UInt8>,
        address: UnsafeBufferPointer<UInt8>, warnings: ChipWarnings
    ) -> Bool {
        if error == nil, kind == .mailbox, !warnings.contains(.undecodedEncodedWord),
           addOnBytes(group: group, name: name, address: address, asciiDomain: nil) {
            return true
        }
        return add(ParsedChip(
            kind: kind, byteRange: 0..<0, raw: [],
            displayName: name.isEmpty ? nil : String(decoding: name, as: UTF8.self),
            address: address.isEmpty ? nil : String(decoding: address, as: UTF8.self),
            group: group, error: error, warnings: warnings), onBytes: false)
    }

    /// Writes a valid mailbox on its bytes when its address is
    /// ``HeaderRenderer/surelyCarried(_:)`` (and a chip's own A-labels, if
    /// it has them, are its domain lower-cased) and
    /// ``HeaderRenderer/phraseBytes(_:smtpUTF8:_:)`` reads its name:
    /// what ``add(_:)``'s general reading writes. False, with nothing
    /// written, for any other.
    mutating func addOnBytes(
        group: String?, name: UnsafeBufferPointer<UInt8>, address: UnsafeBufferPointer<UInt8>, asciiDomain: String?
    ) -> Bool {
        guard HeaderRenderer.surelyCarried(address) else { return false }
        let at = address.lastIndex(of: UInt8(ascii: "@"))!
        let domain = UnsafeBufferPointer(rebasing: address[(at + 1)...])
        if !options.smtpUTF8, let asciiDomain,
           !asciiDomain.utf8.elementsEqual(domain.lazy.map(ByteClass.lowercased)) { return false }
        guard HeaderRenderer.phraseBytes(name, smtpUTF8: options.smtpUTF8, &phrase) else { return false }
        enter(group: group)
        let words = phrase.out.storage
        var k = 0
        while k < words.count {
            var end = k
            while end < words.count && words.base[end] != ASCII.space { end += 1 }
            beginWord()
            held.append(words.base + k, count: end - k)
            k = end + 1
        }
        // A surely carried address is an addr-spec as typed; without
        // SMTPUTF8 its domain goes out as IDNA maps it, lower-cased.
        beginWord()
        let bracket = words.count > 0
        let h = held.uniqueStorage
        h.reserve(address.count + 2)
        if bracket { h.append(UInt8(ascii: "<")) }
        if options.smtpUTF8 {
            h.append(address)
        } else {
            h.append(address.baseAddress!, count: at + 1)
            for b in domain { h.append(ByteClass.lowercased(b)) }
        }
        if bracket { h.append(UInt8(ascii: ">")) }
        needsComma = true
        return true
    }

    /// Ends the value: closes an open group and writes the last word.
    ///
    /// - Complexity: O(*w*), where *w* is the length of the word held back.
    public mutating func finish() {
        closeGroup()
        flushHeld()
    }

    /// Takes the text rendered so far.
    ///
    /// - Complexity: O(*n*) in its length.
    public mutating func take() -> String {
        defer { out.removeAll() }
        return text
    }

    /// Takes the bytes rendered so far into `buffer`.
    ///
    /// - Complexity: O(*n*) in their length.
    package mutating func take(into buffer: inout ByteBuffer) {
        buffer.append(out)
        out.removeAll()
    }

    /// Starts a new value with the same options, keeping the buffers.
    package mutating func reset() {
        out.removeAll()
        holding = false
        line = options.firstLineUsed
        started = false
        openGroup = nil
        needsComma = false
        lastOmission = nil
    }

    mutating func separate() {
        if needsComma && holding { held.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    mutating func closeGroup() {
        if openGroup != nil {
            if holding { held.append(UInt8(ascii: ";")) }
            needsComma = true
        }
        openGroup = nil
    }

    mutating func word(_ w: String) {
        beginWord()
        held.appendString(w)
    }

    /// Writes the word held, and holds a new one, empty, to be appended to.
    @inline(__always)
    mutating func beginWord() {
        flushHeld()
        held.removeAll()
        holding = true
    }

    /// Writes the held word, folding before it when it would pass `foldAt`
    /// (lengths in bytes, so a UTF-8 line is never longer than counted).
    mutating func flushHeld() {
        guard holding else { return }
        holding = false
        let n = held.count
        if !started {
            out.append(held)
            line += n
            started = true
        } else if line + 1 + n > foldLimit && line > 1 {
            out.append(contentsOf: fold)
            out.append(held)
            line = 1 + n
        } else {
            out.append(ASCII.space)
            out.append(held)
            line += 1 + n
        }
    }
}
