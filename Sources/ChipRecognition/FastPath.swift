import ChipSyntax

/// A single pass over the bytes for the chips most lists are made of:
/// `local@domain`, `Name Words <local@domain>` and `"Quoted Name" <local@domain>`
/// (escapes of printable ASCII allowed in the quoted name)
/// with a plain dot-atom local part and an LDH host name of two or more
/// labels. It answers only when the chip is certainly valid with no warning
/// under every policy, and then exactly as the full grammar would (a test
/// checks this on random and corpus chips); anything else returns nil and
/// takes the general path.
enum FastPath {
    /// Per byte: bit 0 ASCII atext, bit 1 LDH (letter, digit, hyphen),
    /// bit 2 digit, bit 3 plain quoted-string text (printable ASCII but
    /// `"` and `\`), bit 4 ASCII atext but `=` (which may start an
    /// encoded word).
    static let classes = ByteTable { b in
        var c: UInt8 = 0
        if b < 0x80 && ByteClass.atext[UInt8(b)] != 0 { c |= 1 }
        if b < 0x80 && (ByteClass.isLetterOrDigit(UInt8(b)) || b == ASCII.hyphen) { c |= 2 }
        if b >= 0x30 && b <= 0x39 { c |= 4 }
        if b >= 0x20 && b < 0x7F && b != ASCII.quote && b != ASCII.backslash { c |= 8 }
        if b < 0x80 && ByteClass.atext[UInt8(b)] != 0 && b != UInt8(ascii: "=") { c |= 16 }
        return c
    }

    /// With `allowsObsolete` (the policy's ``ValidationPolicy/allowsObsoleteSyntax``),
    /// a name with dots between its words (`Aaron M. Ucko`, RFC 5322
    /// `obs-phrase`) is read too, with the warning the grammar gives it.
    ///
    /// With `lengthLimits` (the policy's ``ValidationPolicy/enforcesLengthLimits``),
    /// an address that breaks only the RFC 5321 length limits is read too:
    /// its error is the one the grammar gives it (the first of local part,
    /// label, domain and address too long; valid where limits are not
    /// enforced). Without, such a chip is left to the grammar.
    static func recognize(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, allowsObsolete: Bool = false, lengthLimits: Bool? = nil
    ) -> Recognition? {
        recognize(p, range, classes, allowsObsolete: allowsObsolete, lengthLimits: lengthLimits)
    }

    @inline(__always)
    static func recognize(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ t: ByteTable, allowsObsolete: Bool, lengthLimits: Bool? = nil
    ) -> Recognition? {
        let end = range.upperBound
        guard end - range.lowerBound >= 5 else { return nil }
        if p[end - 1] != UInt8(ascii: ">") {
            // A bare address.
            guard let (local, domain, over) = addrSpec(p, range, t, lengthLimits: lengthLimits) else { return nil }
            var r = Recognition()
            r.localPartRange = local
            r.domainRange = domain
            if let over { r.fail(over.error, at: over.offset) }
            return r
        }
        // A name-addr: find the `<`, then check the name before it.
        var open = end - 2
        while open > range.lowerBound && p[open] != UInt8(ascii: "<") {
            if p[open] == UInt8(ascii: ">") { return nil }
            open -= 1
        }
        guard p[open] == UInt8(ascii: "<"),
              let (local, domain, over) = addrSpec(p, (open + 1)..<(end - 1), t, lengthLimits: lengthLimits) else { return nil }
        var r = Recognition()
        r.localPartRange = local
        r.domainRange = domain
        if let over { r.fail(over.error, at: over.offset) }
        var nameEnd = open
        while nameEnd > range.lowerBound && (p[nameEnd - 1] == ASCII.space || p[nameEnd - 1] == ASCII.tab) { nameEnd -= 1 }
        if nameEnd == range.lowerBound {
            return open == range.lowerBound ? r : nil
        }
        var facts = PhraseFacts()
        switch phrase(p, range.lowerBound..<nameEnd, t, allowsDots: allowsObsolete, facts: &facts) {
        case .simple: break
        case .dotted: r.warnings.insert(.obsoleteSyntax)
        case .other: return nil
        }
        if facts.comma { return nil }
        r.nameRange = range.lowerBound..<nameEnd
        return r
    }

    enum Phrase { case simple, dotted, other }

    /// What ``phrase(_:_:_:allowsDots:facts:)`` saw on its way.
    struct PhraseFacts {
        /// A byte of 0x80 or more.
        var nonASCII = false
        /// `=?`, which may start an RFC 2047 encoded word.
        var encodedWord = false
        /// An `@` (only a quoted string may hold one).
        var at = false
        /// A quoted-pair (only a quoted string may hold one): the name's
        /// text is not its bytes between the quotes.
        var escapes = false
        /// A quoted string's spaces are not single spaces between words
        /// (decoding trims and folds them).
        var unfoldedSpaces = false
        /// A `,` in an unquoted name (Outlook's `Last, First`), which
        /// only the simple lane reads, for a `,` the index held.
        var comma = false
    }

    /// A phrase of unquoted words separated by white space, or one quoted
    /// string of printable text and quoted-pairs of printable ASCII; UTF-8
    /// must be well-formed. With
    /// `allowsDots`, dots may stand in the unquoted words anywhere but
    /// first (`obs-phrase`): the phrase is then `dotted`.
    @inline(__always)
    static func phrase(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ t: ByteTable, allowsDots: Bool, facts: inout PhraseFacts
    ) -> Phrase {
        var i = range.lowerBound
        let end = range.upperBound
        if p[i] == UInt8(ascii: "\"") {
            guard end - i >= 2, p[end - 1] == UInt8(ascii: "\"") else { return .other }
            i += 1
            var previousSpace = true
            while i < end - 1 {
                let b = p[i]
                if b == ASCII.space {
                    if previousSpace { facts.unfoldedSpaces = true }
                    previousSpace = true
                    i += 1
                    continue
                }
                previousSpace = false
                if t[b] & 16 != 0 {
                    i += 1
                    continue
                }
                if t[b] & 8 != 0 {
                    if b == UInt8(ascii: "=") && p[i + 1] == UInt8(ascii: "?") { facts.encodedWord = true }
                    if b == UInt8(ascii: "@") { facts.at = true }
                    i += 1
                    continue
                }
                if b == ASCII.backslash {
                    // A quoted-pair of printable ASCII (`\"`, `\\`), which
                    // the grammar takes as it stands; not the closing quote.
                    guard i + 2 < end, p[i + 1] >= 0x20 && p[i + 1] < 0x7F else { return .other }
                    // What the facts say of the bytes holds for escaped ones.
                    if p[i + 1] == UInt8(ascii: "@") { facts.at = true }
                    if p[i + 1] == UInt8(ascii: "=") && p[i + 2] == UInt8(ascii: "?") { facts.encodedWord = true }
                    facts.escapes = true
                    i += 2
                    continue
                }
                guard b >= 0x80 else { return .other }
                let n = UTF8Bytes.sequenceLength(p, at: i, end: end - 1)
                if n == 0 { return .other }
                facts.nonASCII = true
                i += n
            }
            if previousSpace && end - range.lowerBound > 2 { facts.unfoldedSpaces = true }
            return .simple
        }
        var previousSpace = true
        var dotted = false
        while i < end {
            let b = p[i]
            if t[b] & 16 != 0 {
                previousSpace = false
                i += 1
            } else if b == ASCII.space || b == ASCII.tab {
                if previousSpace { return .other }
                previousSpace = true
                i += 1
            } else if b == UInt8(ascii: "=") {
                if i + 1 < end && p[i + 1] == UInt8(ascii: "?") { facts.encodedWord = true }
                previousSpace = false
                i += 1
            } else if b >= 0x80 {
                let n = UTF8Bytes.sequenceLength(p, at: i, end: end)
                if n == 0 { return .other }
                facts.nonASCII = true
                previousSpace = false
                i += n
            } else if b == UInt8(ascii: "."), allowsDots, i > range.lowerBound {
                dotted = true
                previousSpace = false
                i += 1
            } else if b == UInt8(ascii: ",") {
                facts.comma = true
                previousSpace = false
                i += 1
            } else {
                return .other
            }
        }
        return dotted ? .dotted : .simple
    }

    /// ``phrase(_:_:_:allowsDots:facts:)`` for the name of a chip the
    /// structural index read, with no space at either end: the same answer,
    /// an unquoted name of up to 64 bytes read sixteen bytes at a time (a
    /// name with a byte of 0x80 or more, a quoted one or a longer one byte
    /// by byte).
    ///
    /// The index vouches that an unquoted name before `<` holds none of `(`
    /// `)` `:` `;` `<` `>` `@` `[`, tab, CR or LF, and no `,` but the one
    /// of Outlook's `Last, First` it held (``SimpleList/Chip/comma``, which
    /// the caller reads: here it is a letter), so of the bytes
    /// outside `atext` only other controls, DEL, `"`, `\`, `]`, the spaces
    /// and the dots are looked for.
    @inline(__always)
    static func indexedPhrase(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ t: ByteTable, allowsDots: Bool, facts: inout PhraseFacts
    ) -> Phrase {
        let lo = range.lowerBound, n = range.count
        guard n <= 64, lo + 64 <= p.count, let base = p.baseAddress, base[lo] != UInt8(ascii: "\"") else {
            return phrase(p, range, t, allowsDots: allowsDots, facts: &facts)
        }
        // Two vectors whatever the length, four past 32 bytes (the bytes
        // are there): a loop whose count follows the length mispredicts.
        var m = phraseMasks(VectorBits.load(base + lo))
        m.add(phraseMasks(VectorBits.load(base + lo + 16)), at: 16)
        if n > 32 {
            m.add(phraseMasks(VectorBits.load(base + lo + 32)), at: 32)
            m.add(phraseMasks(VectorBits.load(base + lo + 48)), at: 48)
        }
        let all = VectorBits.low(n)
        if m.bad & all != 0 {
            // DEL and controls end the phrase; bytes of 0x80 and more are
            // read (and their UTF-8 checked) byte by byte.
            return phrase(p, range, t, allowsDots: allowsDots, facts: &facts)
        }
        let spaces = m.spaces & all, dots = m.dots & all, equals = m.equals & all
        // Single spaces between words (none first: the range is trimmed).
        guard spaces & 1 == 0, spaces & (spaces >> 1) == 0 else { return .other }
        if equals != 0 {
            var bits = equals & ~(1 << UInt64(n - 1))
            while bits != 0 {
                let i = lo + bits.trailingZeroBitCount
                bits &= bits &- 1
                if p[i + 1] == UInt8(ascii: "?") { facts.encodedWord = true }
            }
        }
        if dots == 0 { return .simple }
        guard allowsDots, dots & 1 == 0 else { return .other }
        return .dotted
    }

    /// What ``indexedPhrase(_:_:_:allowsDots:facts:)`` gathers of a name's
    /// bytes, a bit for each.
    struct PhraseMasks {
        /// Controls, DEL, `"`, `\\`, `]` and bytes of 0x80 and above.
        var bad: UInt64
        var spaces: UInt64
        var dots: UInt64
        var equals: UInt64

        @inline(__always)
        mutating func add(_ other: PhraseMasks, at shift: UInt64) {
            bad |= other.bad << shift
            spaces |= other.spaces << shift
            dots |= other.dots << shift
            equals |= other.equals << shift
        }
    }

    @inline(__always)
    static func phraseMasks(_ v: SIMD16<UInt8>) -> PhraseMasks {
        var b = outsideText(v, below: 0x20)
        b .|= v .== SIMD16<UInt8>(repeating: 0x22)
        return PhraseMasks(
            bad: VectorBits.bits(b), spaces: VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0x20)),
            dots: VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0x2E)),
            equals: VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0x3D)))
    }

    /// What a name of well-formed UTF-8 may hold, by its bytes alone.
    struct NameScreen: OptionSet {
        let rawValue: UInt8
        /// A lead byte of an invisible character or a C1 control
        /// (``Invisibles``): C2, D8, E1, E2 or EF.
        static let invisibles = NameScreen(rawValue: 1)
        /// Letters of two of the scripts ``Lookalikes/mixesScripts(_:)``
        /// tells apart, or a lead byte (E1, E2, EA) of some of each.
        static let scripts = NameScreen(rawValue: 2)
    }

    /// Screens the well-formed UTF-8 name `p[range]` (up to 64 bytes, with
    /// 64 bytes readable from its start) in four vectors, so that the
    /// byte-by-byte reads of invisible characters and mixed scripts are
    /// left out for the names that cannot hold them, most of them: a name
    /// of one script has lead bytes of that script only. Latin letters
    /// are ASCII letters or leads C3–C9 (U+00C0–024F), Greek leads CD–CF
    /// (U+0370–03FF), Cyrillic leads D0–D4 (U+0400–052F); the other
    /// ranges ``Lookalikes/script(_:)`` names all have leads E1, E2 or EA.
    /// A longer name, or one too near the buffer's end, is screened as
    /// holding both.
    @inline(__always)
    static func screenName(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> NameScreen {
        let lo = range.lowerBound, n = range.count
        guard n <= 64, lo + 64 <= p.count, let base = p.baseAddress else { return [.invisibles, .scripts] }
        typealias Mask = SIMDMask<SIMD16<Int8>>
        var invisible = Mask(repeating: false), either = Mask(repeating: false)
        var latin = Mask(repeating: false), greek = Mask(repeating: false), cyrillic = Mask(repeating: false)
        let lanes = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        // Two vectors, four past 32 bytes: not a count that follows the length.
        for k in 0..<(n > 32 ? 4 : 2) {
            let v = VectorBits.load(base + lo + 16 * k)
            let inside = lanes .< SIMD16<UInt8>(repeating: UInt8(clamping: n - 16 * k))
            invisible .|= Invisibles.mayStartInvisibleLanes(v) .& inside
            var x = v .== SIMD16<UInt8>(repeating: 0xEA)
            x .|= v .== SIMD16<UInt8>(repeating: 0xE1)
            x .|= v .== SIMD16<UInt8>(repeating: 0xE2)
            either .|= x .& inside
            var l = ((v | SIMD16<UInt8>(repeating: 0x20)) &- SIMD16<UInt8>(repeating: 0x61)) .< SIMD16<UInt8>(repeating: 26)
            l .|= (v &- SIMD16<UInt8>(repeating: 0xC3)) .< SIMD16<UInt8>(repeating: 7)
            latin .|= l .& inside
            greek .|= ((v &- SIMD16<UInt8>(repeating: 0xCD)) .< SIMD16<UInt8>(repeating: 3)) .& inside
            cyrillic .|= ((v &- SIMD16<UInt8>(repeating: 0xD0)) .< SIMD16<UInt8>(repeating: 5)) .& inside
        }
        var screen: NameScreen = []
        if VectorBits.isAnySet(invisible) { screen.insert(.invisibles) }
        let scripts = (VectorBits.isAnySet(latin) ? 1 : 0) + (VectorBits.isAnySet(greek) ? 1 : 0)
            + (VectorBits.isAnySet(cyrillic) ? 1 : 0)
        if VectorBits.isAnySet(either) || scripts > 1 { screen.insert(.scripts) }
        return screen
    }

    /// ``addrSpec(_:_:_:)`` for an address whose only `@` stands at `at`,
    /// as the structural index found it (`SimpleList.Chip`): the same
    /// answer, read sixteen bytes at a time for a local part of up to 32
    /// bytes and a domain of up to 63, byte by byte otherwise.
    ///
    /// The index vouches that the local part holds none of `"` `(` `)`
    /// `,` `:` `;` `<` `>` `@` `[` (each ends, opens or declines a piece),
    /// so of the bytes outside `atext` only controls, space, DEL, `\`, `]`,
    /// bytes of 0x80 and above and the dots are looked for there.
    @inline(__always)
    static func indexedAddrSpec(
        _ p: UnsafeBufferPointer<UInt8>, _ lo: Int, at: Int, _ hi: Int, _ t: ByteTable
    ) -> (Range<Int>, Range<Int>)? {
        let localCount = at - lo, domainCount = hi - at - 1
        guard localCount >= 1, localCount <= 32, domainCount >= 3, domainCount <= 63,
              lo + 32 <= p.count, at + 65 <= p.count, let base = p.baseAddress else {
            return addrSpec(p, lo..<hi, t)
        }
        // A byte of 0x80 or more next to the `@` (most international
        // addresses: `用户@…`, `…@köln.de`) is refused at once, before the
        // vectors are read.
        if (base[at - 1] | base[at + 1]) >= 0x80 { return nil }
        // Local part: atext, single dots, neither first nor last.
        // Two vectors whatever the length (the bytes are there): a loop
        // whose count follows the length mispredicts from chip to chip.
        let v0 = VectorBits.load(base + lo), v1 = VectorBits.load(base + lo + 16)
        let bad = localBad(v0) | localBad(v1) << 16
        var localDots = VectorBits.bits(v0 .== SIMD16<UInt8>(repeating: 0x2E))
            | VectorBits.bits(v1 .== SIMD16<UInt8>(repeating: 0x2E)) << 16
        let localBits = VectorBits.low(localCount)
        localDots &= localBits
        // One test for all (with no dot, the dots' terms are zero): whether
        // a local part has dots changes from chip to chip.
        guard bad & localBits | localDots & 1 | localDots >> UInt64(localCount - 1)
                | localDots & (localDots >> 1) == 0 else { return nil }
        // Domain: LDH labels separated by single dots, at least two (a
        // domain of at most 63 bytes holds no label too long).
        let d = at + 1
        var (ok, dots, hyphens) = hostMasks(base + d)
        if domainCount > 32 {
            let rest = hostMasks(base + d + 32)
            ok |= rest.ok << 32
            dots |= rest.dots << 32
            hyphens |= rest.hyphens << 32
        }
        let domainBits = VectorBits.low(domainCount)
        dots &= domainBits
        hyphens &= domainBits
        let last = UInt64(domainCount - 1)
        // No hyphen first or last in a label, and no `ab--` label (A-labels
        // among them are IDNA's business): with no hyphen these terms are
        // zero, so they are tested with the rest, not apart.
        let starts = dots << 1 | 1
        let ends = dots >> 1 | 1 << last
        guard dots != 0, ~ok & domainBits | dots & 1 | dots >> last | dots & (dots >> 1)
                | hyphens & (starts | ends) | starts << 2 & hyphens & (hyphens >> 1) == 0 else { return nil }
        // The top-level label is not all digits (most end at their first byte).
        var k = d + 64 - dots.leadingZeroBitCount
        while k < hi && t[p[k]] & 4 != 0 { k += 1 }
        guard k < hi else { return nil }
        return (lo..<at, d..<hi)
    }

    /// Bits of the 32 bytes at `p`, a domain's: LDH or dot, dots, hyphens.
    @inline(__always)
    static func hostMasks(_ p: UnsafePointer<UInt8>) -> (ok: UInt64, dots: UInt64, hyphens: UInt64) {
        let w0 = VectorBits.load(p), w1 = VectorBits.load(p + 16)
        let dot = SIMD16<UInt8>(repeating: 0x2E), hyphen = SIMD16<UInt8>(repeating: 0x2D)
        return (VectorBits.bits(VectorBits.hostNameBytes(w0)) | VectorBits.bits(VectorBits.hostNameBytes(w1)) << 16,
                VectorBits.bits(w0 .== dot) | VectorBits.bits(w1 .== dot) << 16,
                VectorBits.bits(w0 .== hyphen) | VectorBits.bits(w1 .== hyphen) << 16)
    }

    /// The lanes of a local part's vector that are none of atext and dot
    /// the index leaves there: controls, space, DEL, `\\`, `]` and bytes of
    /// 0x80 and above.
    @inline(__always)
    static func localBad(_ v: SIMD16<UInt8>) -> UInt64 {
        VectorBits.bits(outsideText(v, below: 0x21))
    }

    /// The lanes below `floor`, of DEL and above, `\\` or `]`: what the
    /// index leaves in an atom or an unquoted word that neither may hold
    /// (ASCII text only; bytes of 0x80 and above are read apart).
    @inline(__always)
    static func outsideText(_ v: SIMD16<UInt8>, below floor: UInt8) -> SIMDMask<SIMD16<Int8>> {
        var b = v .< SIMD16<UInt8>(repeating: floor)
        b .|= v .>= SIMD16<UInt8>(repeating: 0x7F)
        b .|= v .== SIMD16<UInt8>(repeating: 0x5C)
        b .|= v .== SIMD16<UInt8>(repeating: 0x5D)
        return b
    }

    /// `dot-atom "@" host-name`, ASCII, within the RFC 5321 limits, two or
    /// more labels and a top-level label that is not all digits.
    @inline(__always)
    static func addrSpec(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ t: ByteTable
    ) -> (Range<Int>, Range<Int>)? {
        guard let (local, domain, over) = addrSpec(p, range, t, lengthLimits: nil), over == nil else { return nil }
        return (local, domain)
    }

    /// The length limit an address breaks, as the grammar reports it.
    struct OverLimit: Equatable {
        var error: ChipError
        var offset: Int
    }

    /// ``addrSpec(_:_:_:)``, and with `lengthLimits` also an address that
    /// breaks only the length limits: with the error the grammar gives the
    /// first it breaks in the order of ``ChipError/Kind`` (which error a
    /// chip shows), or none when `lengthLimits` is false.
    @inline(__always)
    static func addrSpec(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ t: ByteTable, lengthLimits: Bool?
    ) -> (Range<Int>, Range<Int>, OverLimit?)? {
        var i = range.lowerBound
        let end = range.upperBound
        // Local part: atext runs separated by single dots.
        let localStart = i
        var previousDot = true
        while i < end {
            let b = p[i]
            if t[b] & 1 != 0 {
                previousDot = false
            } else if b == UInt8(ascii: ".") {
                if previousDot { return nil }
                previousDot = true
            } else {
                break
            }
            i += 1
        }
        guard i < end, p[i] == UInt8(ascii: "@"), !previousDot else { return nil }
        let localEnd = i
        i += 1
        // Domain: LDH labels of at least a byte, no hyphen at either end.
        let domainStart = i
        var labels = 0
        var labelStart = i
        var longLabel = -1
        while true {
            while i < end && t[p[i]] & 2 != 0 { i += 1 }
            let length = i - labelStart
            guard length > 0, p[labelStart] != UInt8(ascii: "-"), p[i - 1] != UInt8(ascii: "-") else { return nil }
            if length > SMTPLimits.maxLabelBytes && longLabel < 0 { longLabel = labelStart }
            // `ab--…` labels (A-labels among them) are IDNA's business.
            if length >= 4 && p[labelStart + 2] == UInt8(ascii: "-") && p[labelStart + 3] == UInt8(ascii: "-") {
                return nil
            }
            labels += 1
            if i == end { break }
            guard p[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            labelStart = i
            guard i < end else { return nil }
        }
        // The top-level label is not all digits (it is read again: most
        // end at their first byte).
        var k = labelStart
        while k < end && t[p[k]] & 4 != 0 { k += 1 }
        guard labels >= 2, k < end else { return nil }
        let ranges = (localStart..<localEnd, domainStart..<end)
        // The limits, in the order of the errors' kinds.
        var over: OverLimit?
        if localEnd - localStart > SMTPLimits.maxLocalPartBytes {
            over = OverLimit(error: .localPartTooLong, offset: localStart)
        } else if longLabel >= 0 {
            over = OverLimit(error: .domainLabelTooLong, offset: longLabel)
        } else if end - domainStart > SMTPLimits.maxDomainBytes {
            over = OverLimit(error: .domainTooLong, offset: domainStart)
        } else if end - localStart > SMTPLimits.maxAddressBytes {
            over = OverLimit(error: .addressTooLong, offset: localStart)
        }
        guard let over else { return (ranges.0, ranges.1, nil) }
        switch lengthLimits {
        case nil: return nil
        case true?: return (ranges.0, ranges.1, over)
        case false?: return (ranges.0, ranges.1, nil)
        }
    }

    /// ``commentText(_:_:facts:)`` for the commonest comment, answered
    /// from vectors: true when `p[range]` (up to 64 bytes, 64 readable
    /// from its start) is words of printable ASCII with single spaces
    /// between them and none at either end, with no quote, backslash, `@`
    /// or `?` (so that `commentText` would accept it and note nothing).
    /// False says only "read it byte by byte": a longer comment, one with
    /// UTF-8, or one that needs a closer look. The caller has matched the
    /// comment's parentheses, so those inside it nest.
    ///
    /// - Complexity: O(1).
    static func plainCommentText(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let lo = range.lowerBound, n = range.count
        guard n > 0, n <= 64, lo + 64 <= p.count, let base = p.baseAddress else { return false }
        // One vector for most comments, four past 16 bytes.
        var (odd, spaces) = commentMasks(VectorBits.load(base + lo))
        if n > 16 {
            for k in 1..<4 {
                let (o, s) = commentMasks(VectorBits.load(base + lo + 16 * k))
                odd |= o << UInt64(16 * k)
                spaces |= s << UInt64(16 * k)
            }
        }
        let all = VectorBits.low(n)
        let s = spaces & all
        // No space first or last, no two side by side.
        return odd & all | s & 1 | s >> UInt64(n - 1) | s & (s >> 1) == 0
    }

    /// What ``plainCommentText(_:_:)`` gathers of sixteen bytes of a
    /// comment: controls, DEL, bytes of 0x80 and above, `"`, `\`, `@` and
    /// `?` (which may end `=?`); and the spaces.
    @inline(__always)
    static func commentMasks(_ v: SIMD16<UInt8>) -> (odd: UInt64, spaces: UInt64) {
        // Below 0x20 wraps to 0xE0 and above; DEL and up give 0x5F and up.
        var m = (v &- SIMD16<UInt8>(repeating: 0x20)) .>= SIMD16<UInt8>(repeating: 0x5F)
        m .|= v .== SIMD16<UInt8>(repeating: ASCII.quote)
        m .|= v .== SIMD16<UInt8>(repeating: ASCII.backslash)
        m .|= v .== SIMD16<UInt8>(repeating: UInt8(ascii: "@"))
        m .|= v .== SIMD16<UInt8>(repeating: UInt8(ascii: "?"))
        return (VectorBits.bits(m), VectorBits.bits(v .== SIMD16<UInt8>(repeating: ASCII.space)))
    }

    /// Where the name before a `<` stands among comments, and what it is
    /// (``nameAmidComments(_:_:)``).
    struct NameAmidComments {
        /// The name's first byte and the byte after its last, outside the
        /// comments and spaces around it (both the range's end when it
        /// holds no name).
        var lo: Int
        var end: Int
        /// Whether a comment stands between the name's words.
        var commentsInside: Bool
        /// Whether every byte of the range is printable ASCII or a space
        /// (``isPrintable(_:_:)``).
        var printable: Bool
        /// When comments stand between its words: a bit for each byte of
        /// the range that makes its decoding, each byte of its words and
        /// the first byte of each run of spaces and comments between them
        /// (a space or a `(`), which stands for the single space the
        /// decoder puts there. Zero when the name is to be read byte by
        /// byte (``ListRecognizer/commentedNameWarnings(_:_:)``).
        var decoding: UInt64
    }

    /// The name of `p[range]`, the bytes before a chip's `<` (up to 64,
    /// 64 readable from its start), among comments that do not nest,
    /// read from vectors: what ``SimpleList/skipComments(_:from:to:)``,
    /// ``trimComments(_:_:_:)`` and ``holdsComment(_:_:)`` find, and the
    /// decoding of a name with comments between its words when it is
    /// words of `atext` with single spaces (no dot, no `,`; no `@`, `"`,
    /// `?` or byte of 0x80 and above in it, which have checks of their
    /// own). Nil for a longer range or nested comments, which the caller
    /// reads byte by byte.
    ///
    /// - Complexity: O(1).
    static func nameAmidComments(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> NameAmidComments? {
        let lo = range.lowerBound, n = range.count
        guard n > 0, n <= 64, lo + 64 <= p.count, let base = p.baseAddress else { return nil }
        // Two vectors for most names, four past 32 bytes.
        var m = nameMasks(VectorBits.load(base + lo))
        m.add(nameMasks(VectorBits.load(base + lo + 16)), at: 16)
        if n > 32 {
            m.add(nameMasks(VectorBits.load(base + lo + 32)), at: 32)
            m.add(nameMasks(VectorBits.load(base + lo + 48)), at: 48)
        }
        let all = VectorBits.low(n)
        let opens = m.opens & all, closes = m.closes & all
        // From each `(` up to its `)`, when they alternate `(` `)` `(` `)`
        // (no nesting) and the last is closed: the k-th parenthesis is a
        // `(` when k is odd.
        let inside = VectorBits.prefixXor(opens | closes)
        guard opens & ~inside | closes & inside | inside >> UInt64(n - 1) & 1 == 0 else { return nil }
        let outside = all & ~(inside | closes)
        let words = outside & ~m.spaces
        let printable = m.unprintable & all == 0
        guard words != 0 else {
            return NameAmidComments(lo: range.upperBound, end: range.upperBound, commentsInside: false, printable: printable, decoding: 0)
        }
        let first = words.trailingZeroBitCount, end = 64 - words.leadingZeroBitCount
        let name = VectorBits.low(end) & ~VectorBits.low(first)
        var found = NameAmidComments(lo: lo + first, end: lo + end, commentsInside: opens & name != 0, printable: printable, decoding: 0)
        guard found.commentsInside else { return found }
        let outsideSpaces = m.spaces & outside & name
        if (m.odd & outside | m.alarm) & name | outsideSpaces & (outsideSpaces >> 1) == 0 {
            let gaps = name & ~words
            found.decoding = words | gaps & ~(gaps << 1)
        }
        return found
    }

    /// What ``nameAmidComments(_:_:)`` gathers of a name's bytes, a bit
    /// for each.
    struct NameMasks {
        var opens: UInt64
        var closes: UInt64
        var spaces: UInt64
        /// What is neither `atext` nor a space nor a parenthesis, and the
        /// dot: read byte by byte when outside the comments.
        var odd: UInt64
        /// Controls, DEL, bytes of 0x80 and above, `@`, `"` and `?`: read
        /// byte by byte wherever they are in the name.
        var alarm: UInt64
        /// Controls, DEL and bytes of 0x80 and above.
        var unprintable: UInt64

        @inline(__always)
        mutating func add(_ other: NameMasks, at shift: UInt64) {
            opens |= other.opens << shift
            closes |= other.closes << shift
            spaces |= other.spaces << shift
            odd |= other.odd << shift
            alarm |= other.alarm << shift
            unprintable |= other.unprintable << shift
        }
    }

    @inline(__always)
    static func nameMasks(_ v: SIMD16<UInt8>) -> NameMasks {
        // Below 0x20 wraps to 0xE0 and above; DEL and up give 0x5F and up.
        let unprintable = (v &- SIMD16<UInt8>(repeating: 0x20)) .>= SIMD16<UInt8>(repeating: 0x5F)
        var alarm = unprintable .| (v .== SIMD16<UInt8>(repeating: UInt8(ascii: "@")))
        alarm .|= v .== SIMD16<UInt8>(repeating: ASCII.quote)
        alarm .|= v .== SIMD16<UInt8>(repeating: UInt8(ascii: "?"))
        var odd = v .== SIMD16<UInt8>(repeating: UInt8(ascii: "."))
        odd .|= v .== SIMD16<UInt8>(repeating: UInt8(ascii: ","))
        odd .|= v .== SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
        // `:` `;` `<`, and `[` `\` `]`.
        odd .|= (v &- SIMD16<UInt8>(repeating: 0x3A)) .< SIMD16<UInt8>(repeating: 3)
        odd .|= (v &- SIMD16<UInt8>(repeating: 0x5B)) .< SIMD16<UInt8>(repeating: 3)
        return NameMasks(
            opens: VectorBits.bits(v .== SIMD16<UInt8>(repeating: ASCII.openParen)),
            closes: VectorBits.bits(v .== SIMD16<UInt8>(repeating: ASCII.closeParen)),
            spaces: VectorBits.bits(v .== SIMD16<UInt8>(repeating: ASCII.space)),
            odd: VectorBits.bits(odd), alarm: VectorBits.bits(alarm), unprintable: VectorBits.bits(unprintable))
    }

    /// Whether `p[range]`, the text of one comment between its outer
    /// parentheses, is its own decoding as a name: words of printable
    /// ASCII or well-formed UTF-8 with single spaces between them and none
    /// at either end, any nested comment balanced inside it (kept as
    /// text), no control, quote or backslash. Notes `@`, `=?` and
    /// non-ASCII bytes in `facts`.
    ///
    /// - Complexity: O(*n*) in the range's length.
    static func commentText(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, facts: inout PhraseFacts) -> Bool {
        var depth = 0
        var previousSpace = true
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let b = p[i]
            if b >= 0x80 {
                let n = UTF8Bytes.sequenceLength(p, at: i, end: end)
                guard n > 0 else { return false }
                facts.nonASCII = true
                previousSpace = false
                i += n
                continue
            }
            switch b {
            case ASCII.space:
                if previousSpace { return false }
                previousSpace = true
                i += 1
                continue
            case UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth < 0 { return false }
            case UInt8(ascii: "@"):
                facts.at = true
            case UInt8(ascii: "="):
                if i + 1 < end && p[i + 1] == UInt8(ascii: "?") { facts.encodedWord = true }
            case ASCII.quote, ASCII.backslash:
                return false
            default:
                if b < 0x20 || b == 0x7F { return false }
            }
            previousSpace = false
            i += 1
        }
        return depth == 0 && !previousSpace
    }

    /// Whether every byte of `p[range]` is printable ASCII or a space: no
    /// control, DEL or byte of 0x80 and above, so that the comments of a
    /// chip the structural index has read hold nothing the lexer reports
    /// (the index vouches that they nest, with only spaces between them
    /// where no words may stand). Four vectors for up to 64 bytes with 64
    /// readable from the range's start, eight bytes a step otherwise.
    ///
    /// - Complexity: O(*n*) in the range's length.
    static func isPrintable(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let lo = range.lowerBound, n = range.count
        guard let base = p.baseAddress else { return true }
        if n <= 64 && lo + 64 <= p.count {
            var odd: UInt64 = 0
            for k in 0..<4 {
                // Below 0x20 wraps to 0xE0 and above; DEL and up give 0x5F and up.
                let v = VectorBits.load(base + lo + 16 * k) &- SIMD16<UInt8>(repeating: 0x20)
                odd |= VectorBits.bits(v .>= SIMD16<UInt8>(repeating: 0x5F)) << UInt64(16 * k)
            }
            return odd & VectorBits.low(n) == 0
        }
        var i = lo
        while i + 8 <= range.upperBound {
            guard SWAR.unprintable(SWAR.load(p, i)) == 0 else { return false }
            i += 8
        }
        while i < range.upperBound {
            guard p[i] >= 0x20 && p[i] < 0x7F else { return false }
            i += 1
        }
        return true
    }

    /// Whether `p[range]`, which starts at a `(` the structural index
    /// found, is comments and spaces only, each comment's text free of
    /// what the lexer reports in one (a control character, ill-formed
    /// UTF-8). The index vouches that the comments nest and hold no quote
    /// or backslash.
    ///
    /// - Complexity: O(*n*) in the range's length.
    static func onlyComments(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        readableComments(p, range, wordsBetween: false)
    }

    /// ``SimpleList/skipComments(_:from:to:)`` on a buffer.
    @inline(__always)
    static func skipComments(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        guard let base = p.baseAddress else { return i }
        return SimpleList.skipComments(base, from: i, to: end)
    }

    /// The first byte at or after `i` and before `end` that is not a space.
    static func skipSpaces(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end && p[i] == ASCII.space { i += 1 }
        return i
    }

    /// Where `p[lo..<end]` ends without the spaces and comments at its
    /// end (just after its last byte outside them).
    ///
    /// - Complexity: O(*n*) in the bytes trimmed.
    static func trimComments(_ p: UnsafeBufferPointer<UInt8>, _ lo: Int, _ end: Int) -> Int {
        var e = end
        while e > lo {
            if p[e - 1] == ASCII.space {
                e -= 1
            } else if p[e - 1] == ASCII.closeParen {
                e = lastCommentOpen(p, lo, e)
            } else {
                break
            }
        }
        return e
    }

    /// The `(` that opens the comment whose `)` is `p[end - 1]`, searched
    /// no lower than `lo` (`lo` when it is not found).
    static func lastCommentOpen(_ p: UnsafeBufferPointer<UInt8>, _ lo: Int, _ end: Int) -> Int {
        var depth = 0
        var k = end - 1
        while k >= lo {
            if k - 7 >= lo {
                // Eight bytes a step down to the next parenthesis, found
                // exactly in each byte (no borrow between them): `(` and
                // `)` differ in their lowest bit only.
                let t = (SWAR.load(p, k - 7) & 0xFEFE_FEFE_FEFE_FEFE) ^ 0x2828_2828_2828_2828
                let parens = ~(((t & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | t) & 0x8080_8080_8080_8080
                if parens == 0 {
                    k -= 8
                    continue
                }
                k -= parens.leadingZeroBitCount >> 3
            }
            if p[k] == ASCII.closeParen {
                depth += 1
            } else if p[k] == ASCII.openParen {
                depth -= 1
                if depth == 0 { return k }
            }
            k -= 1
        }
        return lo
    }

    /// Whether `p[range]` holds no byte of 0x80 or more, no `@`, no `"`
    /// and no `=?`, which a name's own checks read (an encoded word, a
    /// quoted string, a spoofed address, UTF-8): four vectors for a name
    /// of up to 64 bytes with 64 readable from its start, byte by byte
    /// otherwise.
    ///
    /// - Complexity: O(*n*) in the range's length.
    static func holdsNoneOfTheNamesChecks(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let lo = range.lowerBound, n = range.count
        if n <= 64, lo + 64 <= p.count, let base = p.baseAddress {
            var bad: UInt64 = 0, equals: UInt64 = 0, questions: UInt64 = 0
            for k in 0..<4 {
                let v = VectorBits.load(base + lo + 16 * k)
                let shift = UInt64(16 * k)
                var m = v .>= SIMD16<UInt8>(repeating: 0x80)
                m .|= v .== SIMD16<UInt8>(repeating: UInt8(ascii: "@"))
                m .|= v .== SIMD16<UInt8>(repeating: ASCII.quote)
                bad |= VectorBits.bits(m) << shift
                equals |= VectorBits.bits(v .== SIMD16<UInt8>(repeating: UInt8(ascii: "="))) << shift
                questions |= VectorBits.bits(v .== SIMD16<UInt8>(repeating: UInt8(ascii: "?"))) << shift
            }
            // `=?` with its `?` inside the range.
            return bad & VectorBits.low(n) | equals & questions >> 1 & VectorBits.low(n - 1) == 0
        }
        var i = lo
        while i < range.upperBound {
            let b = p[i]
            guard b < 0x80, b != UInt8(ascii: "@"), b != ASCII.quote,
                  !(b == UInt8(ascii: "=") && i + 1 < range.upperBound && p[i + 1] == UInt8(ascii: "?")) else { return false }
            i += 1
        }
        return true
    }

    /// The first `(` at or after `i` and before `end`, or `end`.
    static func nextCommentOpen(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end && p[i] != ASCII.openParen { i += 1 }
        return i
    }

    /// Whether `p[range]` holds a `(`.
    static func holdsComment(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.contains { p[$0] == ASCII.openParen }
    }

    /// Whether every comment of `p[range]` (words may stand between them)
    /// holds only what the lexer takes in one: no control character, no
    /// ill-formed UTF-8 (``onlyComments(_:_:)`` for the comments of a name).
    ///
    /// - Complexity: O(*n*) in the range's length.
    static func commentsReadable(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        readableComments(p, range, wordsBetween: true)
    }

    /// Whether every comment of `p[range]` holds only what the lexer takes
    /// in one, and what stands outside them is spaces (or, `wordsBetween`,
    /// anything).
    ///
    /// - Complexity: O(*n*) in the range's length.
    static func readableComments(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, wordsBetween: Bool) -> Bool {
        var depth = 0
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            if (depth != 0 || wordsBetween) && i + 8 <= p.count {
                // Printable ASCII but parentheses changes nothing here:
                // eight bytes a step up to the next other byte.
                var stops = SWAR.commentStops(SWAR.load(p, i))
                if end - i < 8 { stops |= 0x8080_8080_8080_8080 << UInt64(8 * (end - i)) }
                let run = stops == 0 ? 8 : stops.trailingZeroBitCount >> 3
                i += run
                if run == 8 || i == end { continue }
            }
            let b = p[i]
            if b == ASCII.openParen {
                depth += 1
            } else if b == ASCII.closeParen {
                depth -= 1
            } else if depth == 0 {
                guard wordsBetween || b == ASCII.space else { return false }
            } else if b >= 0x80 {
                let n = UTF8Bytes.sequenceLength(p, at: i, end: end)
                guard n > 0 else { return false }
                i += n
                continue
            } else if b < 0x20 || b == ASCII.delete {
                return false
            }
            i += 1
        }
        return depth == 0
    }

    /// A dot-atom local part and a domain of two or more labels, one of
    /// them with bytes of 0x80 and more (RFC 6531 and 6532: UTF-8 in the
    /// local part, or an international domain name), for a chip whose only
    /// `@` stands at `at`, as the grammar reads it when it finds the
    /// address valid under every policy: the local part's atoms ASCII
    /// `atext` or well-formed UTF-8 with no invisible character, each ASCII label LDH
    /// (and no `ab--` one but an A-label IDNA accepts), each other label
    /// one IDNA accepts (so well-formed UTF-8 with no invisible character
    /// or control: IDNA allows none), no ASCII byte but LDH, no hyphen
    /// at either end, one label to IDNA (no ideographic full stop) and an
    /// A-label it converts to (its verdict in `labels`, as the grammar keeps
    /// it); the lengths limits counted in A-labels, and a top-level label
    /// that is not all digits. Nil for anything else.
    ///
    /// - Complexity: O(*n*) in the address's length; a domain not yet in
    ///   `labels` is read label by label once (its verdict is then kept
    ///   whole), and a label not yet there converted once.
    static func internationalAddrSpec(
        _ p: UnsafeBufferPointer<UInt8>, _ lo: Int, at: Int, _ hi: Int, _ t: ByteTable, labels: inout LabelCache,
        domainKey: UInt64? = nil
    ) -> (Range<Int>, Range<Int>)? {
        internationalAddrSpec(p, lo, at: at, hi, t) {
            // The domain's verdict, cached whole: a list names few domains.
            labels.domainVerdict(p, (at + 1)..<hi, key: domainKey) { labels in
                internationalDomain(p, (at + 1)..<hi, t, labels: &labels)
            }
        }
    }

    /// ``internationalAddrSpec(_:_:at:_:_:labels:domainKey:)`` with the
    /// domain's verdict from `domain`, called once the local part is read.
    @inline(__always)
    static func internationalAddrSpec(
        _ p: UnsafeBufferPointer<UInt8>, _ lo: Int, at: Int, _ hi: Int, _ t: ByteTable,
        domain verdict: () -> LabelCache.DomainVerdict
    ) -> (Range<Int>, Range<Int>)? {
        // Local part: atext runs separated by single dots.
        guard at > lo, at - lo <= SMTPLimits.maxLocalPartBytes, hi > at + 1 else { return nil }
        var wideLocal = false, localMayHide = true
        let localCount = at - lo
        if localCount <= 32 && lo + 32 <= p.count, let base = p.baseAddress {
            // Two vectors, as ``indexedAddrSpec(_:_:at:_:_:)`` reads a
            // local part (the index vouches for the same bytes), bytes of
            // 0x80 and above apart: an ASCII local part is read here.
            let v0 = VectorBits.load(base + lo), v1 = VectorBits.load(base + lo + 16)
            let high = VectorBits.bits(v0 .>= SIMD16<UInt8>(repeating: 0x80))
                | VectorBits.bits(v1 .>= SIMD16<UInt8>(repeating: 0x80)) << 16
            let bad = localBad(v0) | localBad(v1) << 16
            var localDots = VectorBits.bits(v0 .== SIMD16<UInt8>(repeating: 0x2E))
                | VectorBits.bits(v1 .== SIMD16<UInt8>(repeating: 0x2E)) << 16
            let localBits = VectorBits.low(localCount)
            localDots &= localBits
            guard bad & ~high & localBits | localDots & 1 | localDots >> UInt64(localCount - 1)
                    | localDots & (localDots >> 1) == 0 else { return nil }
            if high & localBits != 0 {
                // Its UTF-8 is read byte by byte.
                var i = lo
                while i < at {
                    let n = UTF8Bytes.sequenceLength(p, at: i, end: at)
                    guard n > 0 else { return nil }
                    i += n
                }
                wideLocal = true
                // Only a few lead bytes start an invisible character or a
                // C1 control (``Invisibles/mayStartInvisibleLanes(_:)``): with
                // none of them, there is nothing for the scan to find.
                localMayHide = (VectorBits.bits(Invisibles.mayStartInvisibleLanes(v0))
                    | VectorBits.bits(Invisibles.mayStartInvisibleLanes(v1)) << 16) & localBits != 0
            }
        } else {
            var previousDot = true
            var i = lo
            while i < at {
                let b = p[i]
                if t[b] & 1 != 0 {
                    previousDot = false
                    i += 1
                } else if b == UInt8(ascii: ".") && !previousDot {
                    previousDot = true
                    i += 1
                } else if b >= 0x80 {
                    let n = UTF8Bytes.sequenceLength(p, at: i, end: at)
                    guard n > 0 else { return nil }
                    wideLocal = true
                    previousDot = false
                    i += n
                } else {
                    return nil
                }
            }
            guard !previousDot else { return nil }
        }
        if wideLocal && localMayHide {
            // What the grammar reports in an atom of UTF-8 (never ASCII).
            let found = Invisibles.scan(p, lo..<at)
            guard found.first == nil, found.control == nil else { return nil }
        }
        let domain = verdict()
        let length = Int(domain.length)
        guard length >= 0 else { return nil }
        let international = domain.international, labelCount = Int(domain.labels)
        guard international || wideLocal, labelCount >= 2, length <= SMTPLimits.maxDomainBytes,
              at - lo + 1 + length <= SMTPLimits.maxAddressBytes else { return nil }
        return (lo..<at, (at + 1)..<hi)
    }

    /// What ``internationalAddrSpec(_:_:at:_:_:labels:domainKey:)`` finds of the
    /// domain `p[range]`: its length in A-labels, its count of labels and
    /// whether it is international (a label of UTF-8 or an A-label); or
    /// invalid. Depends on the domain's bytes alone, so that it is cached
    /// for the domain (``LabelCache/domainVerdict(_:_:work:)``).
    ///
    /// - Complexity: O(*n*) in the domain's length; a label not yet in
    ///   `labels` is converted once.
    static func internationalDomain(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ t: ByteTable, labels: inout LabelCache
    ) -> LabelCache.DomainVerdict {
        let hi = range.upperBound
        var length = 0, labelCount = 0
        var start = range.lowerBound
        var international = false
        // A domain of up to 64 bytes is classified sixteen bytes at a
        // time: where its dots and its bytes of 0x80 and above stand, and
        // that every other byte is LDH (a loop that tests each byte
        // mispredicts where ASCII and UTF-8 alternate).
        let d = range.lowerBound, domainCount = hi - d
        var dots: UInt64 = 0, wideBits: UInt64 = 0
        let vectors = domainCount <= 64 && d + 64 <= p.count
        if vectors, let base = p.baseAddress {
            var ok: UInt64 = 0
            for k in 0..<4 {
                let v = VectorBits.load(base + d + 16 * k)
                let high = v .>= SIMD16<UInt8>(repeating: 0x80)
                ok |= VectorBits.bits(VectorBits.hostNameBytes(v) .| high) << UInt64(16 * k)
                dots |= VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0x2E)) << UInt64(16 * k)
                wideBits |= VectorBits.bits(high) << UInt64(16 * k)
            }
            let all = VectorBits.low(domainCount)
            guard ~ok & all == 0 else { return .invalid }
            dots &= all
            wideBits &= all
        }
        while true {
            var end = start
            var wide = false
            // Bytes of 0x80 and above are judged by the label's verdict:
            // IDNA allows no ill-formed UTF-8 (read as U+FFFD) and none of
            // the invisible characters and controls the grammar reports
            // (all are format, control or separator characters).
            if vectors {
                let from = UInt64(start - d)
                let after = dots >> from
                end = after == 0 ? hi : start + after.trailingZeroBitCount
                wide = (wideBits >> from) & VectorBits.low(end - start) != 0
            } else {
                while end < hi && p[end] != UInt8(ascii: ".") {
                    let b = p[end]
                    if b < 0x80 {
                        guard t[b] & 2 != 0 else { return .invalid }
                    } else {
                        wide = true
                    }
                    end += 1
                }
            }
            guard end > start, p[start] != UInt8(ascii: "-"), p[end - 1] != UInt8(ascii: "-") else { return .invalid }
            if wide {
                let verdict = labels.verdict(p, start..<end)
                guard verdict.pieces == 1, verdict.asciiLength >= 0, verdict.asciiLength <= SMTPLimits.maxLabelBytes else {
                    return .invalid
                }
                length += Int(verdict.asciiLength)
                international = true
            } else {
                let n = end - start
                guard n <= SMTPLimits.maxLabelBytes else { return .invalid }
                if n >= 4 && p[start + 2] == UInt8(ascii: "-") && p[start + 3] == UInt8(ascii: "-") {
                    // `xn--…`: an A-label IDNA accepts (its verdict kept
                    // in `labels`, as the grammar keeps it); any other
                    // `ab--` label is refused there.
                    let verdict = labels.verdict(p, start..<end)
                    guard verdict.pieces == 1, verdict.asciiLength >= 0 else { return .invalid }
                    international = true
                }
                length += n
            }
            labelCount += 1
            if end == hi {
                // The top-level label is not all digits.
                var k = start
                while k < end && t[p[k]] & 4 != 0 { k += 1 }
                guard k < end else { return .invalid }
                break
            }
            length += 1
            start = end + 1
            guard start < hi else { return .invalid }
        }
        return LabelCache.DomainVerdict(length: Int32(length), labels: Int16(clamping: labelCount), international: international)
    }
}
