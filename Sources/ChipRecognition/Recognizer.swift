import ChipSyntax

/// What recognition found in one chip's bytes: either a valid mailbox or
/// the reason it is not one, plus the byte ranges of the parts it found.
///
/// Ranges are offsets into the buffer given to ``Recognizer/recognize(_:_:)``.
/// Nothing is copied: names and addresses are materialized on demand with
/// ``Recognizer/appendDisplayName(_:_:into:)`` and ``Recognition/appendAddress(_:into:)``.
///
/// Invariants:
/// 1. `error == nil` implies `localPartRange` and `domainRange` are set.
/// 2. Every range lies inside the recognized chip's range.
public struct Recognition: Sendable, Hashable {
    /// Why the chip is not a valid mailbox, or nil when it is one.
    public package(set) var error: ChipError?
    /// Where the error was found (buffer offset), when there is an error.
    public package(set) var errorOffset: Int = 0
    /// What is worth telling a person about the chip, valid or not.
    public package(set) var warnings: ChipWarnings = []
    /// The display name's source: a phrase, or a comment (parentheses
    /// included) when ``nameIsComment``.
    public package(set) var nameRange: Range<Int>?
    /// The name came from a comment after a bare address (`ann@x.org (Ann Lee)`),
    /// so ``nameRange`` includes the parentheses.
    public package(set) var nameIsComment = false
    /// The local part and domain as typed (comments and folding white
    /// space inside them only when ``addressIsVerbatim`` is false).
    public package(set) var localPartRange: Range<Int>?
    /// The domain as typed, like ``localPartRange``.
    public package(set) var domainRange: Range<Int>?
    /// The address is exactly the bytes from the local part's start to the
    /// domain's end; when false (obsolete white space or comments inside),
    /// ``appendAddress(_:into:)`` leaves those out.
    public package(set) var addressIsVerbatim = true
    /// The chip holds nothing but comments and white space, well formed.
    /// RFC 5322 lets such text stand where an address may be omitted
    /// (`obs-addr-list`, a `group-list` of CFWS, CFWS after a group's `;`),
    /// so a list does not make it a chip.
    public package(set) var isOnlyComments = false
    /// With the `likely-typo` warning: the common domain meant, probably.
    public package(set) var suggestedDomain: String?
    /// The address when it is not bytes of the chip: a `mailto:` link
    /// writes it %-encoded (RFC 6068 §2), `mailto:j%C3%B6rg%40x.org`.
    /// The ranges then cover the encoded bytes.
    public package(set) var decodedAddress: [UInt8]?

    /// Whether the chip is a valid mailbox: no ``error``.
    public var isValid: Bool { error == nil }

    /// The address, `local@domain`, when both parts were found.
    public var addressRange: Range<Int>? {
        guard let l = localPartRange, let d = domainRange else { return nil }
        return l.lowerBound..<d.upperBound
    }

    mutating func fail(_ error: ChipError, at offset: Int) {
        if let current = self.error {
            if error.kind.rawValue >= current.kind.rawValue { return }
        }
        self.error = error
        self.errorOffset = offset
    }

    /// Appends the address, without obsolete white space or comments.
    ///
    /// - Complexity: O(*n*) in the address's length.
    public func appendAddress(_ p: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let range = addressRange else { return }
        if let decodedAddress {
            out.append(contentsOf: decodedAddress)
        } else if addressIsVerbatim {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[range]))
        } else {
            AddressCleaner.appendWithoutCFWS(p, range, into: &out)
        }
    }
}

/// Turns one chip's bytes into a ``Recognition`` under a ``ValidationPolicy``.
///
/// A value with a reusable scratch buffer: recognizing allocates nothing
/// once the buffer has grown to the longest chip seen.
public struct Recognizer: Sendable {
    /// The rules chips are recognized by.
    public package(set) var policy: ValidationPolicy {
        didSet { rules = policy.grammarRules }
    }
    /// The policy's grammar rules, as the parser reads them.
    private(set) var rules: GrammarRules
    var lexemes: [Lexeme] = []
    var scratch: [Lexeme] = []

    /// A recognizer by `policy`, with room for a chip of 64 lexemes before it allocates.
    public init(policy: ValidationPolicy = .standard) {
        self.policy = policy
        rules = policy.grammarRules
        lexemes.reserveCapacity(64)
    }

    /// Recognizes the chip `p[range]`.
    ///
    /// - Complexity: O(*n*) in the chip's length; a chip longer than
    ///   `policy.maxChipBytes` is reported `too-long` in O(1).
    public mutating func recognize(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Recognition {
        if range.count > policy.maxChipBytes {
            var r = Recognition()
            r.fail(.tooLong, at: range.lowerBound)
            return r
        }
        if let simple = FastPath.recognize(
            p, range, allowsObsolete: policy.allowsObsoleteSyntax, lengthLimits: policy.enforcesLengthLimits
        ) { return simple }
        return recognizeInGeneral(p, range)
    }

    /// ``recognize(_:_:)`` keeping what international labels came to in
    /// `labels` (a list recognizer lends its slots), so that each distinct
    /// label is converted once.
    ///
    /// - Complexity: O(*n*) in the range's length.
    package mutating func recognize(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, labels: inout LabelCache
    ) -> Recognition {
        if range.count > policy.maxChipBytes {
            var r = Recognition()
            r.fail(.tooLong, at: range.lowerBound)
            return r
        }
        if let simple = FastPath.recognize(
            p, range, allowsObsolete: policy.allowsObsoleteSyntax, lengthLimits: policy.enforcesLengthLimits
        ) { return simple }
        return recognizeInGeneral(p, range, labels: &labels)
    }

    /// The full grammar, for any chip within the size limit.
    mutating func recognizeInGeneral(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, decodesPercent: Bool = true
    ) -> Recognition {
        var none = LabelCache()
        return recognizeInGeneral(p, range, decodesPercent: decodesPercent, labels: &none)
    }

    mutating func recognizeInGeneral(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, decodesPercent: Bool = true, labels: inout LabelCache
    ) -> Recognition {
        let link = Recognizer.mailtoColon(p, range)
        if decodesPercent, let link, let span = Recognizer.percentEncodedMailto(p, range, colon: link.0) {
            return recognizePercentDecoded(p, range, span)
        }
        var r = Recognition()
        lexemes.removeAll(keepingCapacity: true)
        if let link, let (query, resume) = Recognizer.mailtoQuery(p, range, link: link) {
            // RFC 6068: `mailto:addr?subject=…&body=…`. The header fields
            // are no part of the chip: they are left out, with a warning.
            r.warnings.insert(.mailtoFieldsDropped)
            var problem = ChipLexer.lex(p, range.lowerBound..<query, into: &lexemes)
            if resume < range.upperBound, let more = ChipLexer.lex(p, resume..<range.upperBound, into: &lexemes) {
                problem = problem.map { Problem.pick($0, more) } ?? more
            }
            if let problem { r.fail(problem.error, at: problem.offset) }
        } else if let problem = ChipLexer.lex(p, range, into: &lexemes) {
            r.fail(problem.error, at: problem.offset)
        }
        lexemes.withUnsafeBufferPointer { lx in
            var parser = MailboxParser(p: p, lx: lx, rules: rules)
            // The recognition and the label cache are lent, not copied.
            swap(&parser.r, &r)
            swap(&parser.labels, &labels)
            parser.parse(start: range.lowerBound)
            swap(&parser.labels, &labels)
            swap(&parser.r, &r)
        }
        return r
    }

    /// The address part of a `mailto:` link (after the scheme's `:`, up to
    /// its `?`, `>` or end) when it holds a `%` escape: nil otherwise.
    static func percentEncodedMailto(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, colon: Int) -> Range<Int>? {
        var end = colon + 1
        var escapes = false
        while end < range.upperBound {
            let b = p[end]
            if b == UInt8(ascii: "?") || b == UInt8(ascii: ">") || b == ASCII.quote { break }
            if b == UInt8(ascii: "%"), end + 2 < range.upperBound,
               Base64.hexValue(p[end + 1]) != nil, Base64.hexValue(p[end + 2]) != nil {
                escapes = true
            }
            end += 1
        }
        return escapes ? (colon + 1)..<end : nil
    }

    /// Recognizes a `mailto:` link whose address is %-encoded: the chip
    /// with the escapes of `span` decoded (once: `%2540` is `%40`), its
    /// offsets mapped back to the encoded bytes, and the decoded address
    /// kept in ``Recognition/decodedAddress``.
    mutating func recognizePercentDecoded(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ span: Range<Int>
    ) -> Recognition {
        var decoded: [UInt8] = []
        var origin: [Int] = []  // the chip offset each decoded byte came from
        decoded.reserveCapacity(range.count)
        origin.reserveCapacity(range.count + 1)
        var i = range.lowerBound
        while i < range.upperBound {
            if span.contains(i), p[i] == UInt8(ascii: "%"), i + 2 < span.upperBound,
               let hi = Base64.hexValue(p[i + 1]), let lo = Base64.hexValue(p[i + 2]) {
                decoded.append(hi << 4 | lo)
                origin.append(i)
                i += 3
            } else {
                decoded.append(p[i])
                origin.append(i)
                i += 1
            }
        }
        origin.append(range.upperBound)
        // The link holds an addr-spec: a decoded space is no name break.
        var linkPolicy = policy
        linkPolicy.allowsMissingAngleBrackets = false
        var inner = Recognizer(policy: linkPolicy)
        var r = decoded.withUnsafeBufferPointer { inner.recognizeInGeneral($0, 0..<$0.count, decodesPercent: false) }
        func back(_ x: Range<Int>?) -> Range<Int>? { x.map { origin[$0.lowerBound]..<origin[$0.upperBound] } }
        if r.error != nil { r.errorOffset = origin[min(r.errorOffset, origin.count - 1)] }
        if r.addressRange != nil {
            r.decodedAddress = decoded.withUnsafeBufferPointer { d in
                var out: [UInt8] = []
                r.appendAddress(d, into: &out)
                return out
            }
        }
        r.nameRange = back(r.nameRange)
        r.localPartRange = back(r.localPartRange)
        r.domainRange = back(r.domainRange)
        r.addressIsVerbatim = false
        return r
    }

    /// The `:` of a `mailto:` that starts the chip or follows its `<`, and
    /// whether it follows a `<`: the first `:` (one compare a byte), with
    /// the scheme's name looked for before it.
    static func mailtoColon(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (Int, Bool)? {
        let nameBytes = MailtoScheme.nameBytes
        var colon = range.lowerBound + nameBytes
        while colon < range.upperBound && p[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < range.upperBound else { return nil }
        let i = colon - nameBytes
        let isMailto = MailtoScheme.name.withUTF8Buffer { name in
            (0..<name.count).allSatisfy { ByteClass.lowercased(p[i + $0]) == name[$0] }
        }
        guard isMailto else { return nil }
        var before = i - 1
        while before >= range.lowerBound && (p[before] == ASCII.space || p[before] == ASCII.tab) { before -= 1 }
        let angle = before >= range.lowerBound && p[before] == UInt8(ascii: "<")
        guard angle || before < range.lowerBound else { return nil }
        return (colon, angle)
    }

    /// Where the header fields of a `mailto:` link start (its `?`), and
    /// where reading resumes after them (the `>` of `<mailto:…?…>`, or the
    /// end): nil when the link has none. `link` is what ``mailtoColon(_:_:)``
    /// found: the scheme's `:` and whether the link follows a `<`.
    static func mailtoQuery(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, link: (Int, Bool)) -> (Int, Int)? {
        let (colon, angle) = link
        var q = colon + 1
        while q < range.upperBound && p[q] != UInt8(ascii: "?") {
            // A quoted local part or an angle's end: no query to cut here.
            if p[q] == ASCII.quote || p[q] == UInt8(ascii: ">") { return nil }
            q += 1
        }
        guard q < range.upperBound else { return nil }
        var resume = range.upperBound
        if angle, let close = (q..<range.upperBound).last(where: { p[$0] == UInt8(ascii: ">") }) { resume = close }
        return (q, resume)
    }

    /// Recognizes a chip given as any collection of bytes; ranges in the
    /// result are offsets from the collection's first byte.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public mutating func recognize<C: Collection>(_ bytes: C) -> Recognition where C.Element == UInt8 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { recognize($0, 0..<$0.count) }
    }

    /// Appends the display name of `recognition` (quotes removed, escapes
    /// resolved, encoded words decoded, white space folded), if it has one,
    /// and returns the warnings decoding raised.
    ///
    /// - Complexity: O(*n*) in the name's length.
    @discardableResult
    public mutating func appendDisplayName(
        _ recognition: Recognition, _ p: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]
    ) -> ChipWarnings {
        guard let range = recognition.nameRange else { return [] }
        if recognition.nameIsComment {
            return DisplayName.appendComment(p, range, into: &out)
        }
        return appendPhrase(p, range, into: &out)
    }

    /// Appends a decoded phrase (a display name or a group name).
    ///
    /// - Complexity: O(*n*) in the phrase's length.
    @discardableResult
    public mutating func appendPhrase(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]
    ) -> ChipWarnings {
        if DisplayName.appendPlain(p, range, into: &out) { return [] }
        scratch.removeAll(keepingCapacity: true)
        _ = ChipLexer.lex(p, range, into: &scratch)
        return scratch.withUnsafeBufferPointer { DisplayName.appendPhrase(p, $0, into: &out) }
    }
}

/// The RFC 5322 §3.4 mailbox grammar over lexemes, with the obsolete forms
/// of §4.4 and the policy's extra rules. Iterative, no backtracking beyond
/// a constant number of passes.
struct MailboxParser {
    /// Two words of a local part stood side by side, without a dot.
    var adjacentWords = false
    /// Labels that ideographic full stops inside a lexeme separated.
    var extraLabels = 0
    /// The recognizer's cache of non-ASCII labels, lent for one chip.
    var labels = LabelCache()
    let p: UnsafeBufferPointer<UInt8>
    let lx: UnsafeBufferPointer<Lexeme>
    let rules: GrammarRules
    /// What the parse found: lent by the caller, which swaps it in and
    /// out, so the parser never copies it.
    var r = Recognition()

    init(p: UnsafeBufferPointer<UInt8>, lx: UnsafeBufferPointer<Lexeme>, rules: GrammarRules) {
        self.p = p
        self.lx = lx
        self.rules = rules
    }

    @inline(__always)
    func isCFWS(_ k: Int) -> Bool {
        let kind = lx[k].kind
        return kind == .space || kind == .comment
    }

    @inline(__always)
    func isWord(_ k: Int) -> Bool {
        let kind = lx[k].kind
        return kind == .atom || kind == .quoted
    }

    func first(_ kind: Lexeme.Kind, in range: Range<Int>) -> Int? {
        var k = range.lowerBound
        while k < range.upperBound {
            if lx[k].kind == kind { return k }
            k += 1
        }
        return nil
    }

    /// The range without leading and trailing CFWS.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi && isCFWS(lo) { lo += 1 }
        while hi > lo && isCFWS(hi - 1) { hi -= 1 }
        return lo..<hi
    }

    mutating func obsolete(at offset: Int) {
        if rules.allowsObsoleteSyntax {
            r.warnings.insert(.obsoleteSyntax)
        } else {
            r.fail(.obsoleteSyntax, at: offset)
        }
    }

    mutating func noteComments(in range: Range<Int>) {
        if rules.allowsComments { return }
        for k in range where lx[k].kind == .comment {
            r.fail(.commentNotAllowed, at: lx[k].start)
            return
        }
    }

    mutating func parse(start: Int) {
        var s = 0
        let e = lx.count
        if e == 0 {
            r.fail(.notAnAddress, at: start)
            return
        }
        var onlyCFWS = true
        for k in 0..<e {
            let l = lx[k]
            if l.kind == .space {
                // obs-FWS (§4.2): a folded line of white space only.
                if l.flags.contains(.obsolete) { obsolete(at: l.start) }
            } else if l.kind != .comment {
                onlyCFWS = false
            }
        }
        if onlyCFWS {
            if r.error == nil { r.isOnlyComments = true }
            r.fail(.commentOnly, at: start)
            return
        }
        // A pasted `mailto:` link; some link generators double the prefix
        // (`mailto:mailto:ann@x.org`), so every leading one is dropped.
        while e - s >= 2, lx[s].kind == .atom, lx[s + 1].kind == .colon, isMailto(lx[s]) { s += 2 }
        if s > 0 {
            r.warnings.insert(.mailtoPrefix)
            if s == e {
                r.fail(.notAnAddress, at: lx[1].end)
                return
            }
        }
        if let open = first(.openAngle, in: s..<e) {
            parseNameAddr(s..<e, open: open)
        } else {
            if let stray = first(.closeAngle, in: s..<e) {
                r.fail(.invalidCharacter, at: lx[stray].start)
            }
            if rules.allowsMissingAngleBrackets, let split = nameBeforeBareAddress(s..<e) {
                checkPhrase(s..<split)
                r.warnings.insert(.missingAngleBrackets)
                parseAddrSpec(split..<e, commentName: false, at: lx[split].start)
            } else {
                parseAddrSpec(s..<e, commentName: true, at: lx[s].start)
            }
        }
    }

    func isMailto(_ l: Lexeme) -> Bool {
        guard l.end - l.start == MailtoScheme.nameBytes else { return false }
        return MailtoScheme.name.withUTF8Buffer { name in
            (0..<name.count).allSatisfy { ByteClass.lowercased(p[l.start + $0]) == name[$0] }
        }
    }

    mutating func parseNameAddr(_ range: Range<Int>, open: Int) {
        guard let close = first(.closeAngle, in: (open + 1)..<range.upperBound) else {
            r.fail(.unterminatedAngle, at: lx[open].start)
            checkPhrase(range.lowerBound..<open)
            return
        }
        // After `>` only comments and white space may follow.
        var k = close + 1
        while k < range.upperBound {
            if !isCFWS(k) {
                r.fail(.invalidCharacter, at: lx[k].start)
                break
            }
            k += 1
        }
        noteComments(in: (close + 1)..<range.upperBound)
        checkPhrase(range.lowerBound..<open)
        var inner = trimmed((open + 1)..<close)
        noteComments(in: (open + 1)..<close)
        if inner.isEmpty {
            r.fail(.emptyAddress, at: lx[open].start)
            return
        }
        // A pasted link in angle brackets: `<mailto:ann@x.org>`, the prefix
        // as often as it was written.
        let link = inner.lowerBound
        while inner.count >= 2, lx[inner.lowerBound].kind == .atom, lx[inner.lowerBound + 1].kind == .colon,
              isMailto(lx[inner.lowerBound]) {
            inner = trimmed((inner.lowerBound + 2)..<inner.upperBound)
        }
        if inner.lowerBound != link {
            r.warnings.insert(.mailtoPrefix)
            if inner.isEmpty {
                r.fail(.emptyAddress, at: lx[open].start)
                return
            }
        }
        // obs-route: `@a,@b:` before the address (RFC 5322 §4.4).
        if lx[inner.lowerBound].kind == .at || lx[inner.lowerBound].kind == .comma,
           let colon = first(.colon, in: inner) {
            checkRoute(inner.lowerBound..<colon)
            obsolete(at: lx[inner.lowerBound].start)
            inner = trimmed((colon + 1)..<inner.upperBound)
            if inner.isEmpty {
                r.fail(.emptyAddress, at: lx[open].start)
                return
            }
        }
        parseAddrSpec(inner, commentName: false, at: lx[open].start)
    }

    /// obs-domain-list = *(CFWS / ",") "@" domain *("," [CFWS] ["@" domain])
    mutating func checkRoute(_ range: Range<Int>) {
        guard rules.checksGrammar else { return }
        var k = range.lowerBound
        var expectDomain = false
        while k < range.upperBound {
            let kind = lx[k].kind
            switch kind {
            case .space, .comment, .comma:
                if expectDomain && kind == .comma {
                    r.fail(.missingDomain, at: lx[k].start)
                    return
                }
            case .at:
                expectDomain = true
            case .atom, .literal:
                if !expectDomain {
                    r.fail(.invalidCharacter, at: lx[k].start)
                    return
                }
                // Skip the rest of the domain.
                while k + 1 < range.upperBound,
                      lx[k + 1].kind == .dot || lx[k + 1].kind == .atom {
                    k += 1
                }
                expectDomain = false
            default:
                r.fail(.invalidCharacter, at: lx[k].start)
                return
            }
            k += 1
        }
        if expectDomain {
            r.fail(.missingDomain, at: lx[range.upperBound - 1].end)
        }
    }

    /// Checks a display name (RFC 5322 `phrase`, or `obs-phrase` with dots)
    /// and records its range.
    mutating func checkPhrase(_ range: Range<Int>) {
        noteComments(in: range)
        var firstWord = -1, last = -1
        var k = range.lowerBound
        while k < range.upperBound {
            let l = lx[k]
            switch l.kind {
            case .space, .comment:
                break
            case .atom, .quoted:
                if firstWord < 0 { firstWord = k }
                last = k
            case .dot:
                if firstWord < 0 {
                    if rules.checksGrammar { r.fail(.invalidDisplayName, at: l.start) }
                    firstWord = k
                } else {
                    obsolete(at: l.start)
                }
                last = k
            case .comma where firstWord >= 0 && rules.allowsUnquotedCommaInName:
                // Outlook's `Last, First`: one name (the scanner makes such
                // a chip only in a list separated by `;`).
                r.warnings.insert(.unquotedComma)
                last = k
            default:
                if rules.checksGrammar { r.fail(.invalidDisplayName, at: l.start) }
                if firstWord < 0 { firstWord = k }
                last = k
            }
            k += 1
        }
        if last >= 0 && lx[last].kind == .comma {
            // A comma must be between words.
            r.warnings.remove(.unquotedComma)
            if rules.checksGrammar { r.fail(.invalidDisplayName, at: lx[last].start) }
        }
        if firstWord >= 0 {
            r.nameRange = lx[firstWord].start..<lx[last].end
            r.nameIsComment = false
        }
    }

    /// Finds where a bare address starts after a name typed before it
    /// (`Ann Lee ann@x.org`): the index just after the last white space
    /// that separates two words before the `@`. Nil when the text is not
    /// of that shape.
    func nameBeforeBareAddress(_ range: Range<Int>) -> Int? {
        guard let at = first(.at, in: range) else { return nil }
        // The address must be one run of words and dots, around one `@`.
        var k = at - 1
        while k >= range.lowerBound, !isCFWS(k) {
            let kind = lx[k].kind
            guard kind == .atom || kind == .quoted || kind == .dot else { return nil }
            k -= 1
        }
        guard k >= range.lowerBound, lx[k].kind == .space else { return nil }
        let split = k + 1
        guard split < at, isWord(split) else { return nil }
        // Before the white space: a name ending in a word (not a dot, which
        // would make this an obsolete local part with spaces around dots).
        var before = k - 1
        while before >= range.lowerBound && isCFWS(before) { before -= 1 }
        guard before >= range.lowerBound, isWord(before) else { return nil }
        // After the `@`: one run, then only CFWS.
        let domain = trimmed((at + 1)..<range.upperBound)
        guard !domain.isEmpty else { return nil }
        for d in domain where isCFWS(d) { return nil }
        return split
    }

    mutating func parseAddrSpec(_ whole: Range<Int>, commentName: Bool, at origin: Int) {
        let range = trimmed(whole)
        noteComments(in: whole)
        if commentName && r.nameRange == nil {
            // `addr (Comment Name)`: the last comment with text after the
            // address names it; a comment inside the address does not.
            var k = whole.upperBound - 1
            while k >= whole.lowerBound && isCFWS(k) {
                let l = lx[k]
                if l.kind == .comment, !l.flags.contains(.unterminated),
                   hasText(l.innerRange) {
                    r.nameRange = l.range
                    r.nameIsComment = true
                    break
                }
                k -= 1
            }
        }
        guard !range.isEmpty else {
            r.fail(.notAnAddress, at: origin)
            return
        }
        var at = -1, atCount = 0, secondAt = -1
        for k in range where lx[k].kind == .at {
            atCount += 1
            if at < 0 { at = k } else if secondAt < 0 { secondAt = k }
            if lx[k].flags.contains(.fullWidth) {
                // An input method's `＠`: read as `@`, said so, and the
                // address written with the ASCII one.
                r.warnings.insert(.fullWidthAt)
                r.addressIsVerbatim = false
            }
        }
        if atCount == 0 {
            let (error, offset) = classifyMissingAt(range)
            r.fail(error, at: offset)
            return
        }
        if atCount > 1 {
            r.fail(.multipleAt, at: lx[secondAt].start)
        }
        let local = trimmed(range.lowerBound..<at)
        let domainEnd = secondAt >= 0 ? secondAt : range.upperBound
        let domain = trimmed((at + 1)..<domainEnd)
        if local.isEmpty {
            r.fail(.emptyLocalPart, at: lx[at].start)
        } else {
            r.localPartRange = lx[local.lowerBound].start..<lx[local.upperBound - 1].end
        }
        if domain.isEmpty {
            r.fail(.missingDomain, at: lx[at].end)
        } else {
            r.domainRange = lx[domain.lowerBound].start..<lx[domain.upperBound - 1].end
        }
        if local.isEmpty || domain.isEmpty { return }
        // White space and comments next to the `@` are current syntax
        // (dot-atom = [CFWS] dot-atom-text [CFWS]); inside the local part
        // or domain, around dots, they are obsolete (§4.4).
        for k in local.lowerBound..<domain.upperBound where isCFWS(k) {
            r.addressIsVerbatim = false
            break
        }
        for k in local.indices where isCFWS(k) {
            obsolete(at: lx[k].start)
            break
        }
        for k in domain.indices where isCFWS(k) {
            obsolete(at: lx[k].start)
            break
        }
        let localBytes = checkLocalPart(local)
        let domainBytes = checkDomain(domain)
        // Words with only white space between them (`ann lee@x.org`) are
        // no local part: glued together they would read as another, valid
        // mailbox. An error chip reports what is there.
        if adjacentWords && r.error != nil { r.addressIsVerbatim = true }
        if rules.enforcesLengthLimits {
            if localBytes > SMTPLimits.maxLocalPartBytes {
                r.fail(.localPartTooLong, at: lx[local.lowerBound].start)
            }
            if localBytes + 1 + domainBytes > SMTPLimits.maxAddressBytes {
                r.fail(.addressTooLong, at: lx[local.lowerBound].start)
            }
        }
    }

    func hasText(_ range: Range<Int>) -> Bool {
        for i in range where !ByteClass.isSpace(p[i]) && !ByteClass.isLineBreak(p[i]) { return true }
        return false
    }

    /// Why text without an `@` is not an address: a special character in
    /// it, or (for several words or quoted text) it reads as a name rather
    /// than as a mistyped address.
    func classifyMissingAt(_ range: Range<Int>) -> (ChipError, Int) {
        var name = false
        for k in range {
            switch lx[k].kind {
            case .atom, .dot, .comment: break
            case .space, .quoted: name = true
            default: return (.invalidCharacter, lx[k].start)
            }
        }
        return (name ? .notAnAddress : .missingAt, lx[range.lowerBound].start)
    }

    /// Checks `local-part = dot-atom / quoted-string / obs-local-part` and
    /// returns its length in octets (without CFWS).
    mutating func checkLocalPart(_ range: Range<Int>) -> Int {
        var length = 0
        var words = 0, quoted = 0
        var expectWord = true
        var lastDot = -1
        for k in range {
            let l = lx[k]
            switch l.kind {
            case .space, .comment:
                continue
            case .atom, .quoted:
                length += l.end - l.start
                // What Invisibles finds is never ASCII.
                if l.flags.contains(.nonASCII) {
                    let found = Invisibles.scan(p, l.range)
                    if let bad = found.control { r.fail(.invalidCharacter, at: bad) }
                    if let hidden = found.first { r.fail(.invisibleCharacter, at: hidden) }
                }
                if l.kind == .quoted && AddressCleaner.holdsLineBreak(p, l.range) { r.addressIsVerbatim = false }
                if !expectWord {
                    adjacentWords = true
                    if rules.checksGrammar { r.fail(.invalidLocalPart, at: l.start) }
                }
                expectWord = false
                words += 1
                if l.kind == .quoted { quoted += 1 }
            case .dot:
                length += 1
                if rules.checksGrammar {
                    if words == 0 && lastDot < 0 {
                        r.fail(.leadingDot, at: l.start)
                    } else if expectWord {
                        r.fail(.consecutiveDots, at: l.start)
                    }
                }
                expectWord = true
                lastDot = k
            default:
                length += l.end - l.start
                if rules.checksGrammar { r.fail(.invalidCharacter, at: l.start) }
            }
        }
        if expectWord && lastDot >= 0 && rules.checksGrammar {
            r.fail(.trailingDot, at: lx[lastDot].start)
        }
        if quoted > 0 && words > 1 {
            obsolete(at: lx[range.lowerBound].start)  // obs-local-part
        }
        if quoted == 1 && words == 1 && !rules.allowsUnnecessaryQuotes,
           let k = range.first(where: { lx[$0].kind == .quoted }) {
            let q = lx[k]
            if !q.flags.contains(.unterminated) && isDotAtomText(q.innerRange) && !q.flags.contains(.escapes) {
                r.fail(.unnecessaryQuotes, at: q.start)
            }
        }
        return length
    }

    func isDotAtomText(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        var previousDot = true
        for i in range {
            let b = p[i]
            if b == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else if ByteClass.atext[b] != 0 {
                previousDot = false
            } else {
                return false
            }
        }
        return !previousDot
    }

    /// Checks `domain = dot-atom / domain-literal / obs-domain` and the
    /// host-name rules; returns the length in octets of its ASCII form.
    mutating func checkDomain(_ range: Range<Int>) -> Int {
        let firstLexeme = lx[range.lowerBound]
        for k in range where (lx[k].kind == .atom || lx[k].kind == .literal) && lx[k].flags.contains(.nonASCII) {
            // A C1 control or line separator is no character of a domain
            // in any policy, as in a local part: it could end a header line.
            let found = Invisibles.scan(p, lx[k].range)
            if let bad = found.control { r.fail(.invalidCharacter, at: bad) }
            if let hidden = found.first { r.fail(.invisibleCharacter, at: hidden) }
        }
        if firstLexeme.kind == .literal {
            if AddressCleaner.holdsLineBreak(p, firstLexeme.range) { r.addressIsVerbatim = false }
            if range.count > 1 && rules.checksGrammar {
                r.fail(.invalidCharacter, at: lx[range.lowerBound + 1].start)
            }
            if rules.requiresHostName && !firstLexeme.flags.contains(.unterminated) {
                if !AddressLiteral.isValid(p, firstLexeme.innerRange) {
                    r.fail(.invalidDomainLiteral, at: firstLexeme.start)
                }
            }
            if firstLexeme.flags.contains(.obsolete) { obsolete(at: firstLexeme.start) }
            return firstLexeme.end - firstLexeme.start
        }
        var length = 0
        var labels = 0
        var expectLabel = true
        var lastDot = -1
        var lastLabel = -1
        for k in range {
            let l = lx[k]
            switch l.kind {
            case .space, .comment:
                continue
            case .atom:
                if !expectLabel && rules.checksGrammar {
                    r.fail(.invalidCharacter, at: l.start)
                }
                expectLabel = false
                labels += 1
                lastLabel = k
                length += checkLabel(l)
            case .dot:
                length += 1
                if rules.checksGrammar {
                    if labels == 0 && lastDot < 0 {
                        r.fail(.leadingDot, at: l.start)
                    } else if expectLabel {
                        r.fail(.consecutiveDots, at: l.start)
                    }
                }
                expectLabel = true
                lastDot = k
            case .literal:
                length += l.end - l.start
                if rules.checksGrammar { r.fail(.invalidCharacter, at: l.start) }
            default:
                length += l.end - l.start
                if rules.checksGrammar {
                    r.fail(l.kind == .quoted ? .invalidDomainCharacter : .invalidCharacter, at: l.start)
                }
            }
        }
        if expectLabel && lastDot >= 0 && rules.checksGrammar {
            r.fail(.trailingDot, at: lx[lastDot].start)
        }
        labels += extraLabels
        if labels < 2 {
            dottedDomainProblem(.domainMissingDot, .domainMissingDot, at: firstLexeme.start)
        } else if lastLabel >= 0 {
            let tld = lx[lastLabel]
            var allDigits = true
            for i in tld.range where !ByteClass.isDigit(p[i]) { allDigits = false; break }
            if allDigits {
                dottedDomainProblem(.numericTopLevelDomain, .numericTopLevelDomain, at: tld.start)
            }
        }
        if rules.enforcesLengthLimits && length > SMTPLimits.maxDomainBytes {
            r.fail(.domainTooLong, at: firstLexeme.start)
        }
        return length
    }

    mutating func dottedDomainProblem(_ error: ChipError, _ warning: ChipWarnings, at offset: Int) {
        if rules.requiresDottedDomain {
            r.fail(error, at: offset)
        } else {
            r.warnings.insert(warning)
        }
    }

    /// Checks one label and returns its length in its ASCII (A-label) form.
    mutating func checkLabel(_ l: Lexeme) -> Int {
        var length = l.end - l.start
        if l.flags.contains(.nonASCII) {
            let found = labels.verdict(p, l.range)
            extraLabels += Int(found.pieces) - 1
            if found.asciiLength >= 0 {
                length = Int(found.asciiLength)
            } else if rules.requiresHostName {
                r.fail(.invalidInternationalDomain, at: l.start)
            }
        } else if rules.requiresHostName && length >= 4
                    && p[l.start + 2] == UInt8(ascii: "-") && p[l.start + 3] == UInt8(ascii: "-") {
            // `--` in the third and fourth places: only a valid A-label
            // (its verdict kept with the international labels').
            if labels.verdict(p, l.range).asciiLength < 0 {
                r.fail(.invalidInternationalDomain, at: l.start)
            }
        }
        if rules.requiresHostName {
            for i in l.range {
                let b = p[i]
                if b < 0x80 && !ByteClass.isLetterOrDigit(b) && b != UInt8(ascii: "-") {
                    r.fail(.invalidDomainCharacter, at: i)
                    break
                }
            }
            if p[l.start] == UInt8(ascii: "-") || p[l.end - 1] == UInt8(ascii: "-") {
                r.fail(.invalidDomainLabel, at: p[l.start] == UInt8(ascii: "-") ? l.start : l.end - 1)
            }
        }
        if rules.enforcesLengthLimits && length > SMTPLimits.maxLabelBytes {
            r.fail(.domainLabelTooLong, at: l.start)
        }
        return length
    }
}

/// Rebuilds an address written with obsolete CFWS (`ann . lee @ x . org`)
/// as `ann.lee@x.org`.
enum AddressCleaner {
    /// The address without CFWS between its words, and unfolded: a CRLF
    /// inside a quoted local part or a domain literal is folding white
    /// space (RFC 5322 §2.2.3, §3.2.4), so the line break goes and the
    /// space after it stays.
    static func appendWithoutCFWS(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) {
        var lexemes: [Lexeme] = []
        _ = ChipLexer.lex(p, range, into: &lexemes)
        for l in lexemes where l.kind != .space && l.kind != .comment {
            if l.kind == .quoted || l.kind == .literal {
                for i in l.range where p[i] != ASCII.carriageReturn && p[i] != ASCII.lineFeed { out.append(p[i]) }
            } else if l.kind == .at {
                out.append(UInt8(ascii: "@"))
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[l.range]))
            }
        }
    }

    /// Whether bytes hold a line break (folding white space to unfold).
    static func holdsLineBreak(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.contains { p[$0] == ASCII.carriageReturn || p[$0] == ASCII.lineFeed }
    }
}

/// What non-ASCII domain labels came to (how many labels the ideographic
/// full stops make of one, and the length of its ASCII form, or invalid),
/// so that a recognizer reading many chips converts each distinct label
/// once: lists repeat domains, and the conversion works on strings.
///
/// Slots `base ..< base + count` of `slots`, keyed by a 64-bit hash of the
/// label's bytes: a list recognizer lends the slots after its look-alike
/// verdicts (``Lookalikes/lendLabels()``), so memory stays bounded and a
/// copy of it holds no extra array; an editor's, which keeps no verdicts,
/// lends none (`count` 0: nothing is kept).
package struct LabelCache: Sendable {
    package struct Verdict: Sendable, Hashable {
        package var pieces: Int32
        /// The ASCII form's length in bytes, dots between pieces included;
        /// -1 when a piece is not a valid label.
        package var asciiLength: Int32
    }

    var slots: [Lookalikes.Verdict] = []
    var base = 0
    /// A power of two, or 0.
    var count = 0

    package init() {}

    /// A cache of its own, of `slots` entries (a power of two).
    init(slots: Int) {
        self.slots = [Lookalikes.Verdict](repeating: Lookalikes.Verdict(), count: slots)
        count = slots
    }

    /// What a label holding non-ASCII text comes to: UTS #46 maps the
    /// full-width forms an input method types to ASCII, and the
    /// ideographic full stops to label separators; each piece is then
    /// converted to its A-label.
    ///
    /// - Complexity: O(*n*) in the label's length.
    package static func work(_ text: String) -> Verdict {
        let pieces = IDNA.mapWidth(text).split(separator: ".", omittingEmptySubsequences: false)
        do {
            var total = pieces.count - 1
            for piece in pieces { total += try IDNA.asciiLabel(String(piece)).utf8.count }
            return Verdict(pieces: Int32(pieces.count), asciiLength: Int32(total))
        } catch {
            return Verdict(pieces: Int32(pieces.count), asciiLength: -1)
        }
    }

    /// What a label's bytes come to: ``IDNABytes/verdict(_:)``, or
    /// ``work(_:)`` on the text for the few labels only the `String` form
    /// can judge (ill-formed UTF-8, a scalar the tables' Unicode does not
    /// assign).
    ///
    /// - Complexity: O(*n* + *l*²), *l* the longest piece (Punycode).
    package static func work(bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        IDNABytes.verdict(bytes) ?? work(String(decoding: bytes, as: UTF8.self))
    }

    /// What the international reader of addresses finds of a whole
    /// domain (``FastPath/internationalDomain(_:_:_:labels:)``): its
    /// length in A-labels (-1: the reader refuses it), its count of labels,
    /// and whether a label is international.
    package struct DomainVerdict: Sendable, Hashable {
        package var length: Int32
        package var labels: Int16
        package var international: Bool

        static var invalid: DomainVerdict { DomainVerdict(length: -1, labels: 0, international: false) }

        init(length: Int32, labels: Int16, international: Bool) {
            self.length = length
            self.labels = labels
            self.international = international
        }

        /// The verdict a cache slot holds.
        init(_ slot: Lookalikes.Verdict) {
            self.init(length: slot.typo, labels: slot.pieces, international: slot.mixed)
        }
    }

    /// The verdict on the domain `p[range]`, kept in the slots of the
    /// labels' verdicts under a key of another seed, or worked out by
    /// `work` (which may look labels up in this cache) and kept.
    /// `domainKey`, when the caller has it, is the domain's
    /// ``AddressKey/domainHash(_:_:readsPast:)`` and the domain holds no
    /// ASCII capital, so that the key stands for its very bytes.
    ///
    /// - Complexity: O(*n*) in the domain's length when cached, O(1) with
    ///   `domainKey`.
    @inline(__always)
    mutating func domainVerdict(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, key domainKey: UInt64? = nil,
        work: (inout LabelCache) -> DomainVerdict
    ) -> DomainVerdict {
        guard count > 0 else { return work(&self) }
        let key = Self.domainCacheKey(p, range, key: domainKey)
        if let found = cached(key) { return DomainVerdict(found) }
        let found = work(&self)
        keep(Lookalikes.Verdict(key: key, typo: found.length, mixed: found.international, pieces: found.labels))
        return found
    }

    /// The slot of `key` (in sets of four neighbouring slots, the most
    /// recent first, as the domains' verdicts: a direct-mapped table lets
    /// the few dozen labels of a list drive each other out), moved to its
    /// set's front; nil when the set does not hold it.
    @inline(__always)
    mutating func cached(_ key: UInt64) -> Lookalikes.Verdict? {
        Self.cached(key, in: &slots, base: base, count: count)
    }

    /// ``cached(_:)`` on the slots `base ..< base + count` of `slots`
    /// (a power of two, at least one): the look-alike checker probes the
    /// slots it lends without lending them.
    @inline(__always)
    static func cached(_ key: UInt64, in slots: inout [Lookalikes.Verdict], base: Int, count: Int) -> Lookalikes.Verdict? {
        let ways = min(count, Lookalikes.cacheWays)
        let slot = base + Int(truncatingIfNeeded: key >> 32) & (count - ways)
        for k in 0..<ways where slots[slot + k].key == key {
            let found = slots[slot + k]
            if k > 0 {
                for j in stride(from: k, to: 0, by: -1) { slots[slot + j] = slots[slot + j - 1] }
                slots[slot] = found
            }
            return found
        }
        return nil
    }

    /// The key of the domain `p[range]`'s verdict: `domainKey` (its
    /// duplicates hash, for a domain with no capital) under a seed of its
    /// own, or a hash of its exact bytes.
    @inline(__always)
    static func domainCacheKey(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, key domainKey: UInt64?) -> UInt64 {
        let seed: UInt64 = 0x444F_4D41_494E_5321
        return (domainKey.map { $0 ^ seed }
            ?? AddressKey.mixWords(p.baseAddress! + range.lowerBound, range.count, seed, lowercase: false)) | 1
    }

    /// Puts `entry` at the front of its key's set, the set's last slot
    /// dropped.
    @inline(__always)
    mutating func keep(_ entry: Lookalikes.Verdict) {
        let ways = min(count, Lookalikes.cacheWays)
        let slot = base + Int(truncatingIfNeeded: entry.key >> 32) & (count - ways)
        for j in stride(from: ways - 1, to: 0, by: -1) { slots[slot + j] = slots[slot + j - 1] }
        slots[slot] = entry
    }

    /// The verdict on `p[range]`, from the cache or worked out
    /// (``work(bytes:)``).
    ///
    /// - Complexity: O(*n*) in the label's length when cached.
    @inline(__always)
    mutating func verdict(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Verdict {
        let bytes = UnsafeBufferPointer(rebasing: p[range])
        guard count > 0 else { return Self.work(bytes: bytes) }
        let key = AddressKey.mixWords(bytes.baseAddress, bytes.count, 0x4C41_4245_4C53_2121, lowercase: false) | 1
        if let found = cached(key) { return Verdict(pieces: Int32(found.pieces), asciiLength: found.typo) }
        let found = Self.work(bytes: bytes)
        keep(Lookalikes.Verdict(key: key, typo: found.asciiLength, mixed: false, pieces: Int16(clamping: found.pieces)))
        return found
    }
}
