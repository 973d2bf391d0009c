import ChipSyntax

/// A valid chip of a simple list (``SimpleList``), recognized as plain
/// data: ranges into the caller's buffer and the warnings, nothing to
/// retain or release, so a stream of them moves at the cost of its words.
///
/// What ``ListRecognizer/handleSimple(_:_:offset:)`` gives where the
/// general path (``ListRecognizer/handle(_:_:base:)``) would give a valid
/// mailbox with these ranges, these warnings and, with `likely-typo`, the
/// common domain ``typo`` names.
@usableFromInline
package struct SimpleItem: Sendable, Hashable {
    /// The display name's bytes (a phrase, or one quoted string with its
    /// quotes, or a comment with its parentheses), or nil.
    @usableFromInline package var nameRange: Range<Int>?
    /// The name is the comment after a bare address (`a@x.org (Ann Lee)`),
    /// whose text between the parentheses is its own decoding.
    package var nameIsComment = false
    /// The name's text is not its bytes, and the lane decoded it
    /// (``ListRecognizer/decodedName``): it holds `=?` (RFC 2047 encoded
    /// words, or text that looks like one), or comments between its words
    /// (`Sven (do not use) Martin`), which decoding drops.
    package var nameIsDecoded = false
    /// The name is one quoted string with no quoted-pair, no `=?` and
    /// single spaces between words: its text is its bytes between the
    /// quotes.
    package var nameIsPlainQuoted = false
    @usableFromInline package var localPartRange: Range<Int>
    @usableFromInline package var domainRange: Range<Int>
    @usableFromInline package var warnings: ChipWarnings
    /// With `likely-typo`: the index of the common domain meant
    /// (``ListRecognizer/commonDomain(_:)``); -1 otherwise.
    @usableFromInline package var typo: Int32

    /// An answer to overwrite: no name, empty ranges.
    @inlinable package static var none: SimpleItem { SimpleItem() }

    /// The address, `local@domain`, as typed.
    @inlinable package var addressRange: Range<Int> { localPartRange.lowerBound..<domainRange.upperBound }
}

extension SimpleItem {
    /// ``none``, made where it is asked for (an extension's initializer,
    /// so that the memberwise one stays).
    @inlinable init() {
        nameRange = nil
        localPartRange = 0..<0
        domainRange = 0..<0
        warnings = []
        typo = -1
    }
}

extension ListRecognizer {
    /// The simple lane: recognizes a chip of a simple list from what the
    /// structural index found (its `<` and `@`), when it is a valid
    /// mailbox the fast grammar reads (`local@domain`, `Name Words
    /// <local@domain>`, `"Quoted Name" <local@domain>`) with a name that
    /// holds no `@`, before decoding or after (an encoded name is decoded
    /// here, for the checks its text needs), or a bare address followed by one
    /// comment of such words (`a@x.org (Ann Lee)`, which names it). Then it does
    /// all ``handle(_:_:base:)`` would (duplicates, look-alikes, invisible
    /// characters) and returns the same verdict as plain data.
    ///
    /// Returns nil, having changed nothing, for any other chip: the caller
    /// hands it to ``handle(_:_:base:)``. `offset` is the index in `p` of
    /// the record's first byte (the chip's offsets count from there).
    ///
    /// - Complexity: O(*n*) in the chip's length.
    @inline(__always)
    package mutating func handleSimple(
        _ chip: SimpleList.Chip, _ p: UnsafeBufferPointer<UInt8>, offset: Int
    ) -> SimpleItem? {
        var item = SimpleItem.none
        return handleSimple(chip, p, offset: offset, into: &item) ? item : nil
    }

    /// ``handleSimple(_:_:offset:)`` writing its answer into `item` (left
    /// as it was when the answer is nil): the hot path's form, so that a
    /// caller in another module reads the fields where they were written
    /// rather than copying the whole answer back from the stack.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    package mutating func handleSimple(
        _ chip: SimpleList.Chip, _ p: UnsafeBufferPointer<UInt8>, offset: Int, into item: inout SimpleItem
    ) -> Bool {
        let lo = offset + Int(chip.lo), hi = offset + Int(chip.hi)
        guard chip.kind == .chip, chip.ats == 1, hi - lo >= 5, hi - lo <= recognizer.policy.maxChipBytes else { return false }
        let t = fastClasses
        let at = offset + Int(chip.at)
        var warnings: ChipWarnings = []
        var nameRange: Range<Int>?
        var nameIsComment = false
        var plainQuoted = false
        var facts = FastPath.PhraseFacts()
        // What a name of UTF-8 may hold, screened when it is read.
        var screen: FastPath.NameScreen = [.invisibles, .scripts]
        // The name's text is in `nameScratch` (comments between its words).
        var nameDecoded = false
        // Set when the international reader hashes the domain.
        var internationalDomainKey: UInt64 = 0
        let local: Range<Int>, domain: Range<Int>
        if chip.comment >= 0 && chip.open < 0 {
            // `a@x.org (Ann Lee)`, `(home) a@x.org (Ann) (work)`: comments
            // before a bare address name nothing; of those after it, the
            // last names it, when its text is its own decoding (single
            // spaces, nested comments kept as text: `(Ann (work), Sales)`)
            // and any before it hold only what the lexer takes; anything
            // else takes the general path. (The index vouches that only
            // spaces stand between comments here and that they nest: in a
            // chip of printable ASCII, there is nothing more to check.)
            guard recognizer.policy.allowsComments else { return false }
            let printable = FastPath.isPrintable(p, lo..<hi)
            var addressLo = lo
            if p[lo] == ASCII.openParen {
                addressLo = FastPath.skipComments(p, lo, at)
                guard printable || FastPath.onlyComments(p, lo..<addressLo) else { return false }
            }
            // The address ends at its first space or `(`. When the chip's
            // first comment follows it, the index has seen only the
            // address's bytes and then spaces before that comment.
            var addressEnd = offset + Int(chip.comment)
            if addressEnd > at {
                while p[addressEnd - 1] == ASCII.space { addressEnd -= 1 }
            } else {
                addressEnd = at
                while addressEnd < hi && p[addressEnd] != ASCII.space && p[addressEnd] != ASCII.openParen { addressEnd += 1 }
            }
            guard let (l, d) = FastPath.indexedAddrSpec(p, addressLo, at: at, addressEnd, t)
                    ?? internationalAddrSpec(p, addressLo, at, addressEnd, domainKey: &internationalDomainKey) else { return false }
            local = l
            domain = d
            if addressEnd < hi {
                // `hi` is just after the last comment's `)`.
                let last = FastPath.lastCommentOpen(p, addressEnd, hi)
                guard last > addressEnd, printable || FastPath.onlyComments(p, addressEnd..<last) else { return false }
                let inner = (last + 1)..<(hi - 1)
                if !inner.isEmpty {
                    guard FastPath.plainCommentText(p, inner)
                            || FastPath.commentText(p, inner, facts: &facts) && !facts.encodedWord && !facts.at else { return false }
                    nameRange = last..<hi
                    nameIsComment = true
                    if facts.nonASCII { screen = Self.screenName(p, last..<hi, warnings: &warnings) }
                } else if FastPath.skipSpaces(p, addressEnd, last) < last {
                    // `a@x.org (Ann) ()`: an earlier comment names it.
                    return false
                }
            }
        } else if chip.open < 0 {
            guard let (l, d) = FastPath.indexedAddrSpec(p, lo, at: at, hi, t) ?? internationalAddrSpec(p, lo, at, hi, domainKey: &internationalDomainKey) else { return false }
            local = l
            domain = d
        } else {
            // `Name <…>`: the index saw one `<`; the `>` ends the chip, or
            // comments and spaces follow it.
            let open = offset + Int(chip.open)
            var close = hi - 1
            var nameLo = lo, nameEnd = open
            var commentsInName = false
            if chip.comment >= 0 {
                // Comments are no part of the name: around it, they are
                // skipped (the grammar reads nothing in them but what the
                // lexer reports); between its words, it is decoded.
                guard recognizer.policy.allowsComments else { return false }
                if p[close] != ASCII.closeAngle {
                    close = at
                    while p[close] != ASCII.closeAngle { close += 1 }
                    let tail = (close + 1)..<hi
                    guard FastPath.isPrintable(p, tail) || FastPath.onlyComments(p, tail) else { return false }
                }
                if offset + Int(chip.comment) < open {
                    guard let found = nameAmidComments(p, lo..<open, warnings: &warnings) else { return false }
                    nameLo = found.lo
                    nameEnd = found.end
                    commentsInName = found.commentsInside
                }
            }
            guard let (l, d) = FastPath.indexedAddrSpec(p, open + 1, at: at, close, t) ?? internationalAddrSpec(p, open + 1, at, close, domainKey: &internationalDomainKey) else {
                return false
            }
            local = l
            domain = d
            while nameEnd > nameLo && p[nameEnd - 1] == ASCII.space { nameEnd -= 1 }
            if commentsInName {
                // `Sven (do not use) Martin <…>`: words of ASCII, each run
                // a phrase, decoded without the comments (in `nameScratch`).
                nameRange = nameLo..<nameEnd
                nameDecoded = true
            } else if nameEnd > nameLo {
                // A name to decode, or holding an `@` (a quoted one), which
                // may spoof an address, takes the general path.
                switch FastPath.indexedPhrase(p, nameLo..<nameEnd, t, allowsDots: recognizer.policy.allowsObsoleteSyntax, facts: &facts) {
                case .simple: break
                case .dotted: warnings.insert(.obsoleteSyntax)
                case .other: return false
                }
                if facts.at { return false }
                if chip.comma >= 0 || facts.comma {
                    // Outlook's `Last, First`: one name, with its warning,
                    // when the policy allows it and the `,` follows a word
                    // (the index vouches for a word after it).
                    let comma = offset + Int(chip.comma)
                    guard chip.comma >= 0, recognizer.policy.allowsUnquotedCommaInName, comma > nameLo, comma < nameEnd,
                          p[comma - 1] != ASCII.space, !facts.encodedWord else { return false }
                    warnings.insert(.unquotedComma)
                }
                if facts.encodedWord {
                    guard let found = encodedNameWarnings(p, nameLo..<nameEnd) else { return false }
                    warnings.formUnion(found)
                }
                nameRange = nameLo..<nameEnd
                plainQuoted = p[nameLo] == ASCII.quote && !facts.escapes && !facts.encodedWord && !facts.unfoldedSpaces
                if facts.nonASCII { screen = Self.screenName(p, nameLo..<nameEnd, warnings: &warnings) }
            }
        }
        // From here on the chip is this lane's: the list's state changes.
        bytesRecognized &+= hi - lo
        let base = p.baseAddress!
        let domainKey = internationalDomainKey != 0 ? internationalDomainKey : AddressKey.domainHash(
            base + domain.lowerBound, domain.count, readsPast: domain.lowerBound + 16 <= p.count)
        let hash = AddressKey.hash(
            local: base + local.lowerBound, local.count, domain: domainKey, exactLocalPart: exactLocalPart,
            readsPast: local.lowerBound + 16 <= p.count)
        if !seen.insert(hash, limit: maxTrackedAddresses) { warnings.insert(.duplicate) }
        var typo: Int32 = -1
        if checksLookalikes {
            // An encoded name's letters were judged as it was decoded.
            if facts.nonASCII, !facts.encodedWord, screen.contains(.scripts), let name = nameRange,
               Lookalikes.mixesScripts(wellFormed: UnsafeBufferPointer(rebasing: p[name])) {
                warnings.insert(.mixedScript)
            }
            let (found, index) = lookalikes.judgeDomain(p, domain, key: domainKey)
            warnings.formUnion(found)
            typo = index
        }
        if groupOpenStart >= 0 { groupMembers += 1 }
        item.nameRange = nameRange
        item.nameIsComment = nameIsComment
        item.nameIsDecoded = facts.encodedWord || nameDecoded
        item.nameIsPlainQuoted = plainQuoted
        item.localPartRange = local
        item.domainRange = domain
        item.warnings = warnings
        item.typo = typo
        return true
    }

    /// A group's name or end the structural index found, taken by the
    /// simple lane when it makes no item: a name of unquoted words (dots
    /// among them where the policy allows them), with no encoded word,
    /// opens the group with its own bytes, which are its decoding; the end
    /// of a group that has members closes it. Returns false, having
    /// changed nothing, for anything else (a quoted or encoded name, the
    /// end of an empty group, which is an item): the caller hands the
    /// segment to ``handle(_:_:base:)``, whose state this leaves as that
    /// would.
    ///
    /// - Complexity: O(*n*) in the name's length; the name's storage is the
    ///   last group's, so nothing is allocated once a group has been read.
    package mutating func handleSimpleGroup(_ chip: SimpleList.Chip, _ p: UnsafeBufferPointer<UInt8>, offset: Int) -> Bool {
        switch chip.kind {
        case .groupOpen:
            let lo = offset + Int(chip.lo)
            let colon = offset + Int(chip.hi) - 1
            // The general path decodes no name longer than a chip.
            guard colon > lo, colon - lo <= recognizer.policy.maxChipBytes, p[lo] != ASCII.quote else { return false }
            var end = colon
            while end > lo && p[end - 1] == ASCII.space { end -= 1 }
            var facts = FastPath.PhraseFacts()
            guard FastPath.indexedPhrase(
                p, lo..<end, fastClasses, allowsDots: recognizer.policy.allowsObsoleteSyntax, facts: &facts) != .other,
                !facts.encodedWord, !facts.comma else { return false }
            var name = spareGroupName
            spareGroupName = []
            name.removeAll(keepingCapacity: true)
            name.append(contentsOf: UnsafeBufferPointer(rebasing: p[lo..<end]))
            groupName = name
            // As the general path keeps it: the segment's own offset.
            groupOpenStart = Int(chip.lo)
            groupMembers = 0
            return true
        case .groupClose:
            guard groupOpenStart < 0 || groupMembers > 0 else { return false }
            keepGroupName()
            groupOpenStart = -1
            groupMembers = 0
            return true
        case .chip:
            return false
        }
    }

    /// Ends the group's name, its storage kept for the next one.
    @inline(__always)
    mutating func keepGroupName() {
        guard var name = groupName else { return }
        groupName = nil
        name.removeAll(keepingCapacity: true)
        spareGroupName = name
    }

    /// The warnings of an encoded name `p[range]`, decoded as the general
    /// path decodes it: those of decoding, of the text it gives (hidden
    /// and bidi characters) and, when look-alikes are checked, mixed
    /// scripts in that text; nil when the text holds an `@`, which may
    /// spoof an address (the general path's business).
    ///
    /// - Complexity: O(*n*) in the name's length.
    @inline(never)
    mutating func encodedNameWarnings(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ChipWarnings? {
        // Most such names are only encoded words, decoded here without the
        // phrase's lexer (and with no warning of decoding, as it gives).
        nameScratch.removeAll(keepingCapacity: true)
        var warnings: ChipWarnings = []
        var screened: FastPath.NameScreen?
        let simple = EncodedWord.appendSimpleWords(p, range, into: &nameScratch, screen: &screened)
        nameScratchIsWellFormed = simple
        if !simple {
            // (Words holding an `@` are among these.)
            warnings = decodePhrase(p, range)
            if nameScratch.contains(UInt8(ascii: "@")) { return nil }
        }
        // The words' text was screened as it was decoded (all of it in
        // windows-1252, up to 64 bytes of UTF-8), so that a name of one
        // script and no invisible character (most) skips both reads.
        let screen: FastPath.NameScreen = simple ? screened ?? [.invisibles, .scripts] : [.invisibles, .scripts]
        if screen.contains(.invisibles) { warnings.formUnion(Invisibles.warnings(Invisibles.scan(nameScratch))) }
        if checksLookalikes && screen.contains(.scripts)
            && nameScratch.withUnsafeBufferPointer({ Lookalikes.mixesScripts($0, wellFormed: false) }) {
            warnings.insert(.mixedScript)
        }
        return warnings
    }

    /// The warnings of a name of ASCII words with comments between them
    /// (`Sven (do not use) Martin`), decoded into `nameScratch` as the
    /// general path decodes it (the comments dropped); nil when a run of
    /// words is not a phrase the fast grammar reads, or the name holds a
    /// byte of 0x80 or more, an `@`, a quote or `=?`, which have checks of
    /// their own (the general path's).
    ///
    /// - Complexity: O(*n*) in the name's length.
    @inline(never)
    mutating func commentedNameWarnings(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ChipWarnings? {
        guard FastPath.holdsNoneOfTheNamesChecks(p, range) else { return nil }
        nameScratchIsWellFormed = true
        var warnings: ChipWarnings = []
        // Each run of words between comments is a phrase whose text is
        // its bytes; the name is the runs joined by single spaces, as the
        // phrase decoder joins words that comments part.
        nameScratch.removeAll(keepingCapacity: true)
        var i = range.lowerBound
        while i < range.upperBound {
            let next = FastPath.nextCommentOpen(p, i, range.upperBound)
            let runEnd = FastPath.trimComments(p, i, next)
            if runEnd > i {
                var facts = FastPath.PhraseFacts()
                switch FastPath.phrase(p, i..<runEnd, fastClasses, allowsDots: recognizer.policy.allowsObsoleteSyntax, facts: &facts) {
                case .simple: break
                case .dotted: warnings.insert(.obsoleteSyntax)
                case .other: return nil
                }
                if facts.comma { return nil }
                if !nameScratch.isEmpty { nameScratch.append(ASCII.space) }
                nameScratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<runEnd]))
            }
            i = FastPath.skipComments(p, next, range.upperBound)
        }
        return warnings
    }

    /// The name among the comments of `p[range]`, the bytes before a
    /// chip's `<` (``FastPath/nameAmidComments(_:_:)``, or the byte walks
    /// where it leaves them the name), with the decoding of a name with
    /// comments between its words put into `nameScratch` and its warnings
    /// into `warnings`; nil when such a name is one for the general path
    /// (``commentedNameWarnings(_:_:)``), or a comment holds what the
    /// lexer reports (``FastPath/commentsReadable(_:_:)``, read only when
    /// the range is not all printable). Apart from the lane's other chips,
    /// whose code it leaves as it was.
    ///
    /// - Complexity: O(*n*) in the range's length.
    @inline(never)
    mutating func nameAmidComments(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, warnings: inout ChipWarnings
    ) -> FastPath.NameAmidComments? {
        var found: FastPath.NameAmidComments
        if let read = FastPath.nameAmidComments(p, range) {
            found = read
        } else {
            let lo = FastPath.skipComments(p, range.lowerBound, range.upperBound)
            let end = FastPath.trimComments(p, lo, range.upperBound)
            found = FastPath.NameAmidComments(
                lo: lo, end: end, commentsInside: FastPath.holdsComment(p, lo..<end), printable: false, decoding: 0)
        }
        guard found.printable || FastPath.commentsReadable(p, range) else { return nil }
        guard found.commentsInside else { return found }
        if found.decoding != 0 {
            decodeCommentedName(p, from: range.lowerBound, found.decoding)
        } else {
            guard let more = commentedNameWarnings(p, found.lo..<found.end) else { return nil }
            warnings.formUnion(more)
        }
        return found
    }

    /// Puts into `nameScratch` the decoding of a name with comments
    /// between its words that ``FastPath/nameAmidComments(_:_:)`` read:
    /// the bytes of `p` from `lo` that `decoding` marks, a space for each
    /// marked `(`. It has no warnings (``commentedNameWarnings(_:_:)``
    /// would find none).
    ///
    /// - Complexity: O(*n*) in the name's length.
    @inline(never)
    mutating func decodeCommentedName(_ p: UnsafeBufferPointer<UInt8>, from lo: Int, _ decoding: UInt64) {
        nameScratchIsWellFormed = true
        // Runs of marked bytes, sixteen at a time where the 64 bytes from
        // `lo` that the reader read hold them: a run is words and single
        // spaces, and perhaps last the first byte of a comment.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64 + 16) { out in
            let to = UnsafeMutableRawPointer(out.baseAddress!), from = p.baseAddress! + lo
            var bits = decoding, count = 0
            while bits != 0 {
                let start = bits.trailingZeroBitCount
                let length = (~(bits >> UInt64(start))).trailingZeroBitCount
                var k = 0
                while k < length {
                    if start + k + 16 <= 64 {
                        to.storeBytes(of: VectorBits.load(from + start + k), toByteOffset: count + k, as: SIMD16<UInt8>.self)
                        k += 16
                    } else {
                        out[count + k] = from[start + k]
                        k += 1
                    }
                }
                count += length
                if out[count - 1] == ASCII.openParen { out[count - 1] = ASCII.space }
                bits &= ~(VectorBits.low(length) << UInt64(start))
            }
            // One call in place of emptying and appending.
            nameScratch.replaceSubrange(nameScratch.indices, with: UnsafeBufferPointer(rebasing: out[..<count]))
        }
    }

    /// Screens the UTF-8 name `p[range]` (``FastPath/screenName(_:_:)``)
    /// and adds the warnings of the invisible characters it holds, read
    /// only when the screen says it may hold one.
    @inline(__always)
    static func screenName(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, warnings: inout ChipWarnings
    ) -> FastPath.NameScreen {
        let screen = FastPath.screenName(p, range)
        if screen.contains(.invisibles) { warnings.formUnion(Invisibles.warnings(Invisibles.scan(p, range))) }
        return screen
    }

    /// The address `p[lo..<hi]` (its only `@` at `at`) when its local part
    /// or its domain is international (``FastPath/internationalAddrSpec(_:_:at:_:_:labels:domainKey:)``),
    /// with the label verdicts the grammar keeps; nil for an address of
    /// ASCII only with no A-label, which the reader refuses from the masks
    /// it reads anyway. Sets `domainKey` to the domain's
    /// ``AddressKey/domainHash(_:_:readsPast:)``, which it takes first.
    @inline(never)
    mutating func internationalAddrSpec(
        _ p: UnsafeBufferPointer<UInt8>, _ lo: Int, _ at: Int, _ hi: Int, domainKey: inout UInt64
    ) -> (Range<Int>, Range<Int>)? {
        guard at >= lo, at < hi, let base = p.baseAddress else { return nil }
        // An address of ASCII with no A-label is refused by the reader
        // itself, from the masks it reads anyway.
        // The domain's key for duplicates, taken here so that its
        // verdict's cache shares it: a domain with no capital is its own
        // lower case, so its bytes are what the key hashes.
        let (key, folded) = AddressKey.domainHashNotingCase(base + at + 1, hi - at - 1, readsPast: at + 17 <= p.count)
        domainKey = key
        let domain = (at + 1)..<hi
        let t = fastClasses
        return FastPath.internationalAddrSpec(p, lo, at: at, hi, t) {
            // Read in place when the slots hold it; the slots are lent
            // only to work a verdict out.
            let cacheKey = LabelCache.domainCacheKey(p, domain, key: folded ? nil : key)
            if let found = lookalikes.cachedDomainVerdict(cacheKey) { return found }
            var labels = lookalikes.lendLabels()
            defer { lookalikes.returnLabels(&labels) }
            return labels.domainVerdict(p, domain, key: folded ? nil : key) { labels in
                FastPath.internationalDomain(p, domain, t, labels: &labels)
            }
        }
    }

    /// The decoded name of the open group, as UTF-8 (what a chip of the
    /// group carries as ``ListItem/group``), nil outside a group.
    @inlinable package var currentGroupName: [UInt8]? { groupOpenStart >= 0 ? groupName : nil }

    /// The text of the last lane chip's name when it is not its bytes (an
    /// encoded name, or one with comments between its words), as decoded
    /// for its checks: valid right after ``handleSimple(_:_:offset:into:)`` gave an
    /// item whose ``SimpleItem/nameIsDecoded``, until the next chip.
    @inlinable package var decodedName: [UInt8] { nameScratch }

    /// Whether ``decodedName`` is known to be well-formed UTF-8 with no
    /// control character: the words of a commented name, or encoded words
    /// the lane's own decoder read (``EncodedWord/appendSimpleWords(_:_:into:screen:)``);
    /// not a name the phrase decoder read, which may be anything. A
    /// writer then escapes it by the faster rules for such text.
    @inlinable package var decodedNameIsWellFormed: Bool { nameScratchIsWellFormed }

    /// The common domain a `likely-typo` warning of the simple lane names.
    package func commonDomain(_ typo: Int32) -> String { lookalikes.commonDomain(typo) }
}
