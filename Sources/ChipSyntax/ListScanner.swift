/// A piece of an address list found by ``ListScanner``.
///
/// The scanner partitions its input into segments and the bytes between
/// them (white space and the separators `,` `;` and line breaks), so the
/// segments plus those bytes reproduce the input exactly.
public struct Segment: Sendable, Hashable {
    /// What a segment's bytes are: a chip, or a group's opening or end.
    public enum Kind: UInt8, Sendable, Hashable {
        /// The text of one chip: a mailbox, or something that should have
        /// been one (recognition decides which). Never starts or ends with
        /// white space.
        case chip
        /// The opening of a group, `display-name ":"`, colon included.
        case groupOpen
        /// The end of a group: the `;` that closes it, or an empty range
        /// where the group ends without one (at a line break or the end).
        case groupClose
    }

    /// Whether the bytes are a chip, or a group's opening or end.
    public var kind: Kind
    /// Byte offsets in the scanned stream (the first byte ever fed is 0).
    public var byteRange: Range<Int>

    /// A segment of `kind` over `byteRange`, offsets in the scanned stream.
    @inlinable
    public init(_ kind: Kind, _ byteRange: Range<Int>) {
        self.kind = kind
        self.byteRange = byteRange
    }
}

/// A resumable scanner that splits an RFC 5322 address list, as a person
/// types or pastes it, into chip-sized segments.
///
/// Feed it bytes in chunks of any size with ``scan(_:_:)`` and call
/// ``finish(_:)`` at the end of the field or record; the segments are the
/// same however the input was chunked. The whole state between chunks is
/// this small value, so a field can keep it after every keystroke.
///
/// Separators are `,` and `;` and a line break that is not folding (a line
/// break followed by a space or tab is folding white space, RFC 5322 §3.2.2).
/// Inside a quoted string, comment, domain literal or `<…>` a separator is
/// text, except an unfolded line break, which ends the chip there (the chip
/// is then reported as unterminated by recognition). A chip also ends:
/// - at white space after a complete bare address (`a@x.org b@y.org`),
///   unless what follows is `<`, `(`, `.` or `@`;
/// - after a complete `<…>` when more text follows (`A <a@x> B <b@y>`),
///   except a trailing comment.
///
/// Outlook writes `Lee, Ann <ann@x.org>; Ray, Bob <bob@y.org>`: names as
/// `Last, First`, unquoted, and `;` between mailboxes. A `,` after a chip
/// that is only words (no `@`, quotes, brackets) is therefore held: when
/// words and a closed `<…>` follow and the chip ends with `;` (or, in a
/// list that already used `;`, ends otherwise), the two parts are one chip;
/// anything else (an `@` or a quote before the `<`, a second `,`, a `,`
/// after the `<…>`) splits at the comma, as RFC 5322 reads it. Only the
/// first chip of a list, or any chip of a list that used `;`, is held, so a
/// list of names typed with commas makes its chips at each comma after the
/// first.
///
/// Invariants:
/// 1. Segments come in input order, do not overlap, and `chip` segments are
///    non-empty and neither start nor end with white space.
/// 2. Feeding the same bytes in any chunking gives the same segments.
/// 3. Each byte is looked at a bounded number of times: work is linear in
///    the input, and the state does not grow with it (comment depth is a
///    counter, never a stack).
public struct ListScanner: Sendable, Hashable {
    @usableFromInline
    enum Context: UInt8, Sendable {
        case top, quote, comment, literal
    }

    var commentDepth = 0
    /// Offset of the next byte to be fed.
    public private(set) var offset: Int
    /// Start of the current chip, or -1.
    var tokenStart = -1
    /// End of the last significant byte of the current chip.
    var tokenEnd = -1
    /// A byte order mark may be starting where a chip could start: its
    /// offset and how many of its bytes (EF BB BF) were seen, or -1. A
    /// whole BOM there is white space (an editor or exporter wrote it before
    /// the list); anything else makes its bytes the start of a chip.
    var bomStart = -1
    /// Start of a line break whose meaning (folding or separator) depends on
    /// the next byte, or -1.
    var pendingBreak = -1
    /// The first bytes of the chip, lower-cased, to recognize `mailto:`.
    var head: UInt64 = 0
    /// Start of the open group's `display-name ":"`, while no chip of the
    /// group has been reported (an empty group is reported from there).
    var groupStart = -1
    /// A `,` after a `Last` name is held: the end of that name, or -1.
    var heldCommaEnd = -1
    /// The start of the words after a held `,`, or -1 before the first.
    var afterCommaStart = -1
    var context: Context = .top
    var inAngle = false
    var escaped = false
    var inGroup = false
    /// Count of `@` at the top level outside `<…>`, saturating at 2.
    var atCount: UInt8 = 0
    /// The last byte at the top level that was not white space.
    var lastSignificant: UInt8 = 0
    /// A `<…>` was closed in this chip.
    var afterAngle = false
    var bomMatched: UInt8 = 0
    /// The last byte inside `<…>` that was not white space, so that `[`
    /// opens a domain literal there only right after the `@`.
    var angleLast: UInt8 = 0
    /// White space followed a complete bare address; the next byte decides
    /// whether the chip ends there.
    var tentativeSplit = false
    var pendingBreakAfterCR = false
    var headCount: UInt8 = 0
    /// How many bytes of a full-width `＠` (EF BC A0) were just seen at the
    /// top level, 0 when none: a whole one counts as an `@` for the
    /// bare-address rules (`ann＠x.org bob＠y.org` is two chips).
    var wideAtMatched: UInt8 = 0
    /// The chip so far is only words and white space (no `@`, quote,
    /// comment, bracket or colon): it may be an Outlook `Last` name.
    var phraseOnly = false
    /// The open chip's words (or, before any, the next chip's) follow a `,`
    /// that was held and then split, as an editor learned from its copy of
    /// the scanner (``neverHoldInOpenChip()``): a `,` after them ends the
    /// chip, as the second `,` after held words does in a list read whole.
    var holdForbidden = false
    /// The first `,` or `;` after the opener of the quoted string,
    /// comment, domain literal or `<…>` still open (the outermost), or -1:
    /// where that construct's chip ends if the list ends with it open.
    var cut = -1
    /// The longest chip recovery ends (``recoverUnclosed(_:base:_:)``): a
    /// reader that keeps at most this much of a chip sets it, so that what
    /// it recovers does not depend on how much it happened to read at once.
    public var maxRecoveredChipBytes = Int.max
    /// A group's `;` came last: comments before the next separator are
    /// the group's (``endChip(_:)``).
    var trailsGroup = false
    /// What the list has shown about its separators (kept across chips).
    package var separators = Separators()

    /// What a list has shown about its separators, which decides whether
    /// a `,` after a name may be Outlook's `Last, First`.
    package struct Separators: Sendable, Hashable {
        /// A `;` ended a mailbox outside a group.
        package var semicolon = false
        /// A `,` ended a chip outside a group.
        package var comma = false
        /// A bare address was just ended at the white space after it
        /// (``splitAfterCompleteBareAddress(_:)``, as an editor ends it at
        /// once), and nothing but white space has come since: a `,` or `;`
        /// now is the separator that ended it, as in the list read whole,
        /// where the chip stays open until that separator.
        package var afterSplit = false
        package init() {}

        /// Whether a `,` after words is held.
        var holdsComma: Bool { semicolon || !comma }
    }

    /// Creates a scanner whose first byte will be at `startOffset`.
    public init(startOffset: Int = 0) {
        self.offset = startOffset
    }

    /// A scanner at `startOffset`, between chips, inside a group (after its
    /// `name:` and at least one member) when `inGroup`: the state from which
    /// text typed at that point is scanned again.
    public init(startOffset: Int, inGroup: Bool) {
        self.offset = startOffset
        self.inGroup = inGroup
    }

    /// A scanner at `startOffset`, between chips, in a list whose earlier
    /// chips showed `separators`: the state from which text typed at that
    /// point is scanned again.
    package init(startOffset: Int, inGroup: Bool, separators: Separators) {
        self.offset = startOffset
        self.inGroup = inGroup
        self.separators = separators
    }

    /// The earliest offset whose bytes a caller must still hold to read the
    /// segments not yet reported: the start of the current chip, or
    /// ``offset`` when no chip is open.
    public var retainOffset: Int {
        let chip = tokenStart >= 0 ? tokenStart : (pendingBreak >= 0 ? pendingBreak : (bomStart >= 0 ? bomStart : offset))
        return groupStart >= 0 ? min(groupStart, chip) : chip
    }

    /// The start of the chip being read, if one is open.
    public var openChipStart: Int? { tokenStart >= 0 ? tokenStart : nil }

    /// The start of an open group's name while none of its chips has been
    /// reported (an empty group would be reported from there).
    public var openGroupStart: Int? { groupStart >= 0 ? groupStart : nil }

    /// Whether the scanner is inside a quoted string, comment, domain
    /// literal or angle brackets, where a `,` does not end a chip.
    package var isNested: Bool { context != .top || inAngle }

    /// Whether the scanner is between the `:` and the end of a group.
    public var isInGroup: Bool { inGroup }

    /// Whether white space followed a complete bare address (`bob@y.org `):
    /// the chip ends there unless the next significant byte is `(`, `<`,
    /// `.` or `@`.
    public var endsAfterCompleteBareAddress: Bool { tentativeSplit && tokenStart >= 0 }

    /// Ends the chip at a pending split after a complete bare address now,
    /// as the next significant byte would if it did not continue it. An
    /// open group stays open.
    public mutating func splitAfterCompleteBareAddress(_ emit: (Segment) -> Void) {
        guard endsAfterCompleteBareAddress else { return }
        tentativeSplit = false
        endChip(emit)
        separators.afterSplit = true
    }

    /// Where the words after a held `,` (Outlook's `Last, First`) begin: the
    /// start of a second chip, should the `,` split; nil when no `,` is
    /// held or no word has come after it. A reader that drops the bytes of
    /// a chip too long to hold keeps the first bytes from here too.
    package var heldSplitStart: Int? { heldCommaEnd >= 0 && afterCommaStart >= 0 ? afterCommaStart : nil }

    /// The words before a `,` the scanner holds (Outlook's `Last,`), while
    /// nothing but white space follows the comma: their range. An editor
    /// can show them as a chip at once (``splitAtHeldComma(_:)``) and keep
    /// a copy of the scanner to learn whether they join what follows.
    package var heldChipWithNothingAfter: Range<Int>? {
        heldCommaEnd >= 0 && afterCommaStart < 0 && tokenStart >= 0 ? tokenStart..<heldCommaEnd : nil
    }

    /// Tells the scanner that the words it has seen or will see up to the
    /// end of the next chip came after a `,` that was held and then split
    /// (an editor that showed the held words as a chip at once learns this
    /// from its copy of the scanner, before or after it feeds the words
    /// that follow): a `,` after them ends the chip rather than being held,
    /// as in the list read whole, where that `,` is the second after the
    /// held words.
    package mutating func neverHoldInOpenChip() {
        holdForbidden = true
    }

    /// Ends the held words as a chip now, as a comma after them would in a
    /// list that is not Outlook's.
    package mutating func splitHeldChip(_ emit: (Segment) -> Void) {
        guard heldChipWithNothingAfter != nil else { return }
        splitAtHeldComma(emit)
    }

    /// Whether the last byte fed was a line break whose meaning the next
    /// byte would decide (folding white space or a separator).
    package var endsWithPendingBreak: Bool { pendingBreak >= 0 }

    /// Reads a pending line break as a separator now, as a byte other than
    /// a space or tab after it would: the chip before it ends, and so does
    /// an open group. An editor calls it when a paste ends with a line
    /// break, which nothing typed later can fold.
    package mutating func endAtPendingBreak(
        held: UnsafeBufferPointer<UInt8>, base: Int, _ emit: (Segment) -> Void
    ) {
        guard pendingBreak >= 0 else { return }
        separators.afterSplit = false
        // The break is the last thing fed: the group ends after it, where
        // the byte after it would have ended it (an empty group's text
        // holds its line break, as in the list read whole).
        let at = offset
        let lineBreak = pendingBreak
        pendingBreak = -1
        pendingBreakAfterCR = false
        if unclosedCut != nil {
            recover(held, base: base, upTo: lineBreak, emit)
            if bomStart >= 0 { startChipAtPartialBOM() }
            offset = at
        }
        if inGroup { dropCommentsOnlyGroupContent() }
        endChip(emit)
        if inGroup {
            inGroup = false
            groupStart = -1
            emit(Segment(.groupClose, at..<at))
        }
    }

    /// Whether `b`, fed next, would make the pending line break folding
    /// white space (a space or tab) or finish its CRLF.
    package func pendingBreakFolds(before b: UInt8) -> Bool {
        pendingBreak >= 0
            && (b == ASCII.space || b == ASCII.tab || (pendingBreakAfterCR && b == ASCII.lineFeed))
    }

    /// White space at the top level, a space, a tab or folding white space:
    /// a complete bare address before it may end there.
    @inline(__always)
    mutating func noteTopLevelSpace() {
        guard tokenStart >= 0 && !(heldCommaEnd >= 0 && afterCommaStart < 0) else { return }
        // `mail to:` is not `mailto:`; white space right after a `mailto:`
        // leaves the next word to be looked at.
        if headCount > 0 { headCount = UInt8(MailtoScheme.prefixBytes) }
        if isCompleteBareAddress { tentativeSplit = true }
    }

    /// Whether some text of an unfinished chip has been seen.
    public var hasOpenChip: Bool { tokenStart >= 0 }

    /// Scans a chunk of bytes, calling `emit` for each segment completed.
    ///
    /// - Complexity: O(*n*) in the chunk's length.
    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (Segment) -> Void) {
        scanChunk(bytes, scanClassTable, ScanStop.table, held: bytes, heldBase: offset, emit)
    }

    /// Scans the bytes of `held` from ``offset`` to its end; `held` holds
    /// the stream from offset `base` on, at least from ``retainOffset``.
    /// What a line break recovers (an unclosed construct's chip ending
    /// before its first separator, ``recoverUnclosed(_:base:_:)``) needs the
    /// chip's earlier bytes: scanned so, the segments are the same however
    /// the input was chunked. ``scan(_:_:)`` gives the chunk alone, which
    /// holds them only when the chip started in it.
    ///
    /// - Complexity: O(*n*) in the bytes scanned (and those a line break
    ///   reads again, at most ``maxRecoveryRereads`` times the chip's).
    public mutating func scan(held: UnsafeBufferPointer<UInt8>, base: Int, _ emit: (Segment) -> Void) {
        precondition(offset >= base && offset <= base + held.count, "the held bytes start after the offset or end before it")
        scanChunk(UnsafeBufferPointer(rebasing: held[(offset - base)...]), scanClassTable, ScanStop.table,
                  held: held, heldBase: base, emit)
    }

    /// Scans a chunk of bytes given as any collection.
    ///
    /// - Complexity: O(*n*) in the chunk's length.
    public mutating func scan<C: Collection>(_ bytes: C, _ emit: (Segment) -> Void) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ scan($0, emit) }) {
            return done
        }
        let copy = Array(bytes)
        copy.withUnsafeBufferPointer { scan($0, emit) }
    }

    /// Ends the input: reports the last chip and closes an open group.
    /// The scanner can then be reused for a new list starting at ``offset``.
    ///
    /// - Complexity: O(1).
    public mutating func finish(_ emit: (Segment) -> Void) {
        if bomStart >= 0 { startChipAtPartialBOM() }
        if pendingBreak >= 0 {
            pendingBreak = -1
            pendingBreakAfterCR = false
        }
        if inGroup { dropCommentsOnlyGroupContent() }
        endChip(emit)
        if inGroup {
            inGroup = false
            emit(Segment(.groupClose, offset..<offset))
        }
        let end = offset
        let limit = maxRecoveredChipBytes
        self = ListScanner(startOffset: end)
        maxRecoveredChipBytes = limit
    }

    /// Ends the list as ``finish(_:)`` does, first recovering from a
    /// quoted string, comment, domain literal or `<…>` left open: its chip
    /// ends before the first `,` or `;` after its opener, and the text from
    /// that separator on is read again as a list (``recoverUnclosed(_:base:_:)``).
    /// `bytes` holds the stream from offset `base` on, at least from
    /// ``retainOffset`` to ``offset``.
    ///
    /// - Complexity: O(*n*) for *n* bytes after ``retainOffset``, times at
    ///   most ``maxRecoveryRereads``.
    public mutating func finish(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, _ emit: (Segment) -> Void) {
        recoverUnclosed(bytes, base: base, emit)
        finish(emit)
    }

    /// Ends an array's list as ``finish(_:base:_:)`` does.
    ///
    /// - Complexity: as ``finish(_:base:_:)``.
    public mutating func finish(_ bytes: [UInt8], base: Int, _ emit: (Segment) -> Void) {
        bytes.withUnsafeBufferPointer { finish($0, base: base, emit) }
    }

    /// How many times, at most, the text after a recovered chip's
    /// separator is read again at one end of a list, altogether as a
    /// multiple of the list's unfinished text: only text with many unclosed
    /// constructs, each followed by a separator, reaches it.
    public static let maxRecoveryRereads = 4

    /// Where the chip being read would end if the list ended now: the first
    /// `,` or `;` after the opener of the quoted string, comment, domain
    /// literal or `<…>` still open (the outermost), if one followed it.
    public var unclosedCut: Int? {
        cut >= 0 && tokenStart >= 0 && (context != .top || inAngle) ? cut : nil
    }

    /// The list ends (end of a record, a commit, a blur, the end of a
    /// paste) with a quoted string, comment, domain literal or `<…>` open:
    /// such a construct could be repaired by its closer until then, but no
    /// longer. Its chip ends at the last byte before the first `,` or `;`
    /// after its opener (``unclosedCut``) that is not white space, and the
    /// text from that separator on is read again as a list, as if the
    /// construct had been closed just before it, so the chips after it are
    /// kept (`Ann <ann@x.org, b@x.org` is `Ann <ann@x.org`, in error, then
    /// `b@x.org`). What is read again may leave another construct open: it
    /// is recovered the same way. The last chip stays open, as at the end
    /// of any text: ``finish(_:)`` ends it.
    ///
    /// Nothing happens when no separator followed the opener (the chip
    /// runs to the end, as before), or when `bytes` no longer holds the
    /// chip's start (a chip longer than its caller keeps is `too-long`
    /// whole). Bytes read again are at most ``maxRecoveryRereads`` times
    /// the unfinished text; past that, the rest stays in the open chip.
    ///
    /// Returns the number of bytes read again (for tests that bound it).
    ///
    /// - Complexity: O(*n*) for *n* bytes after ``retainOffset``, times at
    ///   most ``maxRecoveryRereads``.
    @discardableResult
    public mutating func recoverUnclosed(
        _ bytes: UnsafeBufferPointer<UInt8>, base: Int, _ emit: (Segment) -> Void
    ) -> Int {
        recover(bytes, base: base, upTo: offset, emit)
    }

    /// The recovery loop: while a construct is open with a separator after
    /// its opener, its chip ends before that separator and `held`'s bytes
    /// from the separator to `end` are read again. Leaves ``offset`` at `end`.
    @discardableResult
    mutating func recover(
        _ held: UnsafeBufferPointer<UInt8>, base: Int, upTo end: Int, _ emit: (Segment) -> Void
    ) -> Int {
        var reread = 0
        var budget = ListScanner.maxRecoveryRereads * max(end - tokenStart, 0)
        while let c = unclosedCut, tokenStart >= base, end <= base + held.count, c < end, end - c <= budget,
              end - tokenStart <= maxRecoveredChipBytes {
            budget -= end - c
            // The chip's text without the white space before the separator.
            var e = c
            while e > tokenStart + 1 {
                let b = held[e - 1 - base]
                guard b == ASCII.space || b == ASCII.tab || b == ASCII.lineFeed || b == ASCII.carriageReturn else { break }
                e -= 1
            }
            tokenEnd = e
            // The chip holds an opener: never only comments.
            if lastSignificant == 0 { lastSignificant = ASCII.delete }
            context = .top
            inAngle = false
            escaped = false
            commentDepth = 0
            cut = -1
            pendingBreak = -1
            pendingBreakAfterCR = false
            reread += end - c
            offset = c
            scanChunk(UnsafeBufferPointer(rebasing: held[(c - base)..<(end - base)]), scanClassTable, ScanStop.table,
                      held: held, heldBase: base, emit)
        }
        return reread
    }

    /// `Team: (nobody);`: a group whose only content is comments is an
    /// empty group (RFC 5322 §3.4: a `group-list` may be CFWS). Before the
    /// group ends, a chip of only comments that is the group's first is
    /// dropped: the group's end reports the text from its name on.
    mutating func dropCommentsOnlyGroupContent() {
        if groupStart >= 0 && commentsOnlySoFar { tokenStart = -1 }
    }

    /// Whether the open chip holds only comments and white space: every
    /// other byte at the top level sets `lastSignificant`, and an open
    /// construct is not done.
    var commentsOnlySoFar: Bool {
        tokenStart >= 0 && lastSignificant == 0 && context == .top && !inAngle && heldCommaEnd < 0
    }

    // MARK: - The state machine

    /// The bytes of a BOM candidate turned out to be text: the chip starts
    /// with them.
    mutating func startChipAtPartialBOM() {
        let start = bomStart
        let matched = Int(bomMatched)
        bomStart = -1
        bomMatched = 0
        startChipIfNeeded(at: start)
        noteHead(0xEF)
        if matched > 1 { noteHead(0xBB) }
        lastSignificant = matched > 1 ? 0xBB : 0xEF
        tokenEnd = start + matched
        if matched == 1 { wideAtMatched = 1 }  // perhaps a `＠` after all
    }

    @inline(__always)
    mutating func startChipIfNeeded(at i: Int) {
        if tokenStart < 0 {
            tokenStart = i
            head = 0
            headCount = 0
            phraseOnly = true
        }
    }

    mutating func endChip(_ emit: (Segment) -> Void) {
        if trailsGroup {
            // `Team: a@x.org; (end)`: comments right after a group's `;`
            // are the group's own trailing CFWS (RFC 5322 §3.4), as its
            // `;` is: no chip.
            trailsGroup = false
            if commentsOnlySoFar { tokenStart = -1 }
        }
        if heldCommaEnd >= 0 {
            // A held `Last, First <…>`: one chip in a list that uses `;`.
            if afterAngle && separators.semicolon {
                heldCommaEnd = -1
                afterCommaStart = -1
            } else {
                splitAtHeldComma(emit)
            }
        }
        if tokenStart >= 0 {
            emit(Segment(.chip, tokenStart..<tokenEnd))
            groupStart = -1
        }
        tokenStart = -1
        tokenEnd = -1
        holdForbidden = false
        atCount = 0
        lastSignificant = 0
        afterAngle = false
        tentativeSplit = false
        wideAtMatched = 0
        context = .top
        inAngle = false
        escaped = false
        commentDepth = 0
        cut = -1
    }

    /// Reports the words before a held `,` as a chip of their own; the
    /// words after it, if any, become the chip being read.
    mutating func splitAtHeldComma(_ emit: (Segment) -> Void) {
        emit(Segment(.chip, tokenStart..<heldCommaEnd))
        groupStart = -1
        tokenStart = afterCommaStart
        if afterCommaStart < 0 {
            tokenEnd = -1
            lastSignificant = 0
        }
        heldCommaEnd = -1
        afterCommaStart = -1
    }

    /// Records the first bytes of a chip to spot a `mailto:` prefix.
    @inline(__always)
    mutating func noteHead(_ b: UInt8) {
        if headCount < MailtoScheme.prefixBytes {
            head |= UInt64(ByteClass.lowercased(b)) << (8 * UInt64(headCount))
            headCount += 1
        }
    }

    static let mailtoHead: UInt64 = {
        var h: UInt64 = 0
        MailtoScheme.name.withUTF8Buffer { name in
            for (k, b) in name.enumerated() { h |= UInt64(b) << (8 * UInt64(k)) }
        }
        return h
    }()

    /// Whether the chip's bytes so far, all at the top level, are exactly
    /// a complete bare address: an `@` with text after it that does not end
    /// in a dot.
    @inline(__always)
    var isCompleteBareAddress: Bool {
        atCount == 1 && !afterAngle && !inAngle && context == .top
            && lastSignificant != UInt8(ascii: "@") && lastSignificant != UInt8(ascii: ".")
    }

    /// The index of the first byte at or after `i` whose stop bits meet `mask`.
    @inline(__always)
    static func skip(
        _ p: UnsafeBufferPointer<UInt8>, from i: Int, to n: Int, _ stop: ByteTable, _ mask: UInt8
    ) -> Int {
        var j = i
        while j < n && stop[p[j]] & mask == 0 { j += 1 }
        return j
    }

    /// Case 1: the byte after a line break. Returns true when the byte
    /// was consumed (the LF of CRLF, or folding white space); after a hard
    /// break the byte is still to be read.
    mutating func resolvePendingBreak(
        _ b: UInt8, at: Int, held: UnsafeBufferPointer<UInt8>, heldBase: Int, _ emit: (Segment) -> Void
    ) -> Bool {
        if pendingBreakAfterCR && b == ASCII.lineFeed {
            pendingBreakAfterCR = false
            return true
        }
        let lineBreak = pendingBreak
        pendingBreak = -1
        pendingBreakAfterCR = false
        if b == ASCII.space || b == ASCII.tab {
            // Folding white space: the break belongs to whatever context
            // we are in.
            if context != .top || inAngle {
                tokenEnd = at + 1
            } else {
                // At the top level it is white space as a space is: after a
                // complete bare address it may end the chip
                // (`a@x.org\r\n b@y.org` is two chips, not `a@x.orgb@y.org`).
                noteTopLevelSpace()
            }
            return true
        }
        // A hard line break: it ends the chip, whatever is open; a
        // construct left open is recovered first, as at the list's end.
        separators.afterSplit = false
        if unclosedCut != nil {
            let chunkBase = offset
            recover(held, base: heldBase, upTo: lineBreak, emit)
            // A byte order mark begun just before the break is text.
            if bomStart >= 0 { startChipAtPartialBOM() }
            offset = chunkBase
        }
        if inGroup { dropCommentsOnlyGroupContent() }
        endChip(emit)
        if inGroup {
            inGroup = false
            groupStart = -1
            emit(Segment(.groupClose, at..<at))
        }
        return false
    }

    /// Case 3: a byte inside a quoted string, comment or domain literal.
    /// Returns the index of the next byte to read.
    @inline(__always)
    mutating func scanNested(_ p: UnsafeBufferPointer<UInt8>, from i: Int, to n: Int, _ stop: ByteTable) -> Int {
        let b = p[i]
        let base = offset
        let bit: UInt8 = (context == .quote ? ScanStop.quote : context == .comment ? ScanStop.comment : ScanStop.literal)
            | (cut < 0 ? ScanStop.separator : 0)
        if escaped {
            escaped = false
        } else if stop[b] & bit == 0 {
            // A run of plain text.
            let j = ListScanner.skip(p, from: i + 1, to: n, stop, bit)
            tokenEnd = base + j
            return j
        } else if b == UInt8(ascii: "\\") {
            escaped = true
        } else if b == UInt8(ascii: ",") || b == UInt8(ascii: ";") {
            if cut < 0 { cut = base + i }
        } else {
            switch context {
            case .quote:
                if b == UInt8(ascii: "\"") {
                    context = .top
                    if !inAngle {
                        lastSignificant = b
                        cut = -1
                    }
                }
            case .comment:
                if b == UInt8(ascii: "(") {
                    commentDepth += 1
                } else if b == UInt8(ascii: ")") {
                    commentDepth -= 1
                    if commentDepth == 0 {
                        context = .top
                        if !inAngle { cut = -1 }
                    }
                }
            case .literal:
                if b == UInt8(ascii: "]") {
                    context = .top
                    if !inAngle {
                        lastSignificant = b
                        cut = -1
                    }
                }
            case .top:
                break
            }
        }
        tokenEnd = base + i + 1
        return i + 1
    }

    /// Case 4: a byte inside `<…>` at the top level. Returns the index of
    /// the next byte to read.
    @inline(__always)
    mutating func scanInAngle(_ p: UnsafeBufferPointer<UInt8>, from i: Int, to n: Int, _ stop: ByteTable) -> Int {
        let b = p[i]
        let base = offset
        let mask = ScanStop.angle | (cut < 0 ? ScanStop.separator : 0)
        if stop[b] & mask == 0 {
            let j = ListScanner.skip(p, from: i + 1, to: n, stop, mask)
            var k = j - 1
            while k >= i && (p[k] == ASCII.space || p[k] == ASCII.tab) { k -= 1 }
            if k >= i { angleLast = p[k] }
            tokenEnd = base + j
            return j
        }
        tokenEnd = base + i + 1
        switch b {
        case UInt8(ascii: ">"):
            inAngle = false
            afterAngle = true
            lastSignificant = b
            cut = -1
        case UInt8(ascii: ","), UInt8(ascii: ";"):
            if cut < 0 { cut = base + i }
            angleLast = b
        case UInt8(ascii: "\""):
            context = .quote
            angleLast = b
        case UInt8(ascii: "("):
            context = .comment
            commentDepth = 1
        case UInt8(ascii: "["):
            if angleLast == UInt8(ascii: "@") { context = .literal } else { angleLast = b }
        default:
            break
        }
        return i + 1
    }

    /// The state machine, one byte at a time, with runs of bytes that
    /// change nothing skipped in tight loops. Its cases, in the order a
    /// byte meets them:
    /// 1. **A pending line break** (the byte after CR or LF): a space or
    ///    tab makes it folding white space; anything else makes it a hard
    ///    break that ends the chip and an open group
    ///    (``resolvePendingBreak(_:at:_:)``).
    /// 2. **A line break** becomes pending: its meaning depends on the next
    ///    byte, which may be in the next chunk.
    /// 3. **Inside a quoted string, comment or domain literal**: only an
    ///    escape, the closing byte and (in comments) nesting matter
    ///    (``scanNested(_:from:to:_:)``).
    /// 4. **Inside `<…>`**: only `>` and the openers of nested contexts matter
    ///    (``scanInAngle(_:from:to:_:)``).
    /// 5. **At the top level**: white space may mark a complete bare address
    ///    as ending here (decided by the next byte); separators end chips;
    ///    `:` opens a group unless the chip so far is `mailto`; `;` closes
    ///    one; runs of plain bytes are skipped with one table look-up each.
    mutating func scanChunk(
        _ p: UnsafeBufferPointer<UInt8>,
        _ classes: ByteTable,
        _ stop: ByteTable,
        held: UnsafeBufferPointer<UInt8>,
        heldBase: Int,
        _ emit: (Segment) -> Void
    ) {
        let n = p.count
        var i = 0
        let base = offset
        while i < n {
            let b = p[i]
            let at = base + i

            if bomStart >= 0 {
                // The rest of a byte order mark, or the chip it began.
                if b == (bomMatched == 1 ? 0xBB : 0xBF) {
                    bomMatched += 1
                    if bomMatched == 3 {
                        bomStart = -1
                        bomMatched = 0
                    }
                    i += 1
                    continue
                }
                startChipAtPartialBOM()
            }

            if pendingBreak >= 0 && resolvePendingBreak(b, at: at, held: held, heldBase: heldBase, emit) {
                i += 1
                continue
            }

            if b == ASCII.lineFeed || b == ASCII.carriageReturn {
                pendingBreak = at
                pendingBreakAfterCR = b == ASCII.carriageReturn
                i += 1
                continue
            }

            if context != .top {
                i = scanNested(p, from: i, to: n, stop)
                continue
            }

            if inAngle {
                i = scanInAngle(p, from: i, to: n, stop)
                continue
            }

            if wideAtMatched > 0 {
                if b == (wideAtMatched == 1 ? 0xBC : 0xA0) {
                    noteHead(b)
                    tokenEnd = at + 1
                    lastSignificant = b
                    wideAtMatched += 1
                    if wideAtMatched == 3 {
                        wideAtMatched = 0
                        if heldCommaEnd >= 0 { splitAtHeldComma(emit) }
                        if atCount < 2 { atCount += 1 }
                        lastSignificant = UInt8(ascii: "@")
                        phraseOnly = false
                    }
                    i += 1
                    continue
                }
                wideAtMatched = 0
            }

            let cls = ScanClass(rawValue: classes[b]) ?? .plain
            if cls == .space {
                noteTopLevelSpace()
                i += 1
                continue
            }
            // Whether this byte follows a bare address ended at white space.
            let afterSplit = separators.afterSplit
            separators.afterSplit = false

            if tentativeSplit {
                tentativeSplit = false
                switch cls {
                case .openParen, .openAngle:
                    break  // a comment or `<…>` after the address continues it
                case .plain where b == UInt8(ascii: "."):
                    break
                case .at:
                    break
                case .comma, .semicolon:
                    break  // handled below as a separator
                default:
                    endChip(emit)
                }
            } else if afterAngle {
                switch cls {
                case .openParen, .comma, .semicolon:
                    break
                default:
                    endChip(emit)
                }
            } else if heldCommaEnd >= 0 {
                // After a held `,`: words, then `<`, keep it held; a second
                // `,` splits below; anything else splits now.
                switch cls {
                case .plain, .leadEF:
                    if afterCommaStart < 0 { afterCommaStart = at }
                case .openAngle where afterCommaStart >= 0:
                    break
                case .comma:
                    break
                default:
                    splitAtHeldComma(emit)
                }
            }

            switch cls {
            case .leadEF:
                if tokenStart < 0 {
                    // Perhaps a byte order mark where a chip would start.
                    bomStart = at
                    bomMatched = 1
                } else {
                    // Perhaps a full-width `＠`; otherwise a plain letter.
                    noteHead(b)
                    lastSignificant = b
                    tokenEnd = at + 1
                    wideAtMatched = 1
                }
                i += 1
                continue
            case .plain:
                startChipIfNeeded(at: at)
                var j = i
                while j < n && headCount < MailtoScheme.prefixBytes && classes[p[j]] == ScanClass.plain.rawValue {
                    noteHead(p[j])
                    j += 1
                }
                // The hot loop: nothing but the table look-up (plain is 0).
                let table = classes.base
                let bytes = p.baseAddress!
                while j < n && table[Int(bytes[j])] == 0 { j += 1 }
                // A NUL is text; 0 stands for none (``commentsOnlySoFar``).
                let last = p[j - 1]
                lastSignificant = last == 0 ? 1 : last
                tokenEnd = base + j
                i = j
                continue
            case .comma:
                if heldCommaEnd >= 0 {
                    // `Lee, Ann,` or `Lee, Ann <…>,`: a list of commas.
                    splitAtHeldComma(emit)
                    endChip(emit)
                    separators.comma = true
                } else if tokenStart >= 0 && phraseOnly && !inGroup && separators.holdsComma && !holdForbidden {
                    heldCommaEnd = tokenEnd
                    afterCommaStart = -1
                    head = 0
                    headCount = 0
                    lastSignificant = b
                } else {
                    let ended = tokenStart >= 0 || afterSplit
                    endChip(emit)
                    if ended && !inGroup { separators.comma = true }
                }
            case .semicolon:
                if !inGroup && (tokenStart >= 0 || afterSplit) { separators.semicolon = true }
                if inGroup { dropCommentsOnlyGroupContent() }
                endChip(emit)
                if inGroup {
                    inGroup = false
                    groupStart = -1
                    emit(Segment(.groupClose, at..<at + 1))
                    trailsGroup = true
                }
            case .quote:
                startChipIfNeeded(at: at)
                phraseOnly = false
                noteHead(b)
                context = .quote
                tokenEnd = at + 1
            case .openParen:
                startChipIfNeeded(at: at)
                phraseOnly = false
                noteHead(b)
                context = .comment
                commentDepth = 1
                tokenEnd = at + 1
            case .openAngle:
                startChipIfNeeded(at: at)
                phraseOnly = false
                noteHead(b)
                inAngle = true
                angleLast = b
                tokenEnd = at + 1
            case .openBracket:
                startChipIfNeeded(at: at)
                phraseOnly = false
                noteHead(b)
                // A domain literal is the whole domain (RFC 5322 §3.4.1):
                // only right after the `@`. Elsewhere `[` is a stray byte
                // (recognition says so), and a `,` after it still splits.
                if lastSignificant == UInt8(ascii: "@") {
                    context = .literal
                } else {
                    lastSignificant = b
                }
                tokenEnd = at + 1
            case .at:
                startChipIfNeeded(at: at)
                phraseOnly = false
                noteHead(b)
                if atCount < 2 { atCount += 1 }
                lastSignificant = b
                tokenEnd = at + 1
            case .closeAngle:
                startChipIfNeeded(at: at)
                phraseOnly = false
                noteHead(b)
                lastSignificant = b
                tokenEnd = at + 1
            case .colon:
                if tokenStart >= 0 && !inGroup && atCount == 0
                    && !(headCount == MailtoScheme.nameBytes && head == ListScanner.mailtoHead) {
                    emit(Segment(.groupOpen, tokenStart..<at + 1))
                    inGroup = true
                    groupStart = tokenStart
                    tokenStart = -1
                    tokenEnd = -1
                    lastSignificant = 0
                } else {
                    let scheme = tokenStart >= 0 && headCount == MailtoScheme.nameBytes && head == ListScanner.mailtoHead
                    startChipIfNeeded(at: at)
                    phraseOnly = false
                    noteHead(b)
                    lastSignificant = b
                    tokenEnd = at + 1
                    if scheme {
                        // `mailto:` however repeated (`mailto:mailto:ann@x.org`)
                        // is a link's scheme, never a group's name: the bytes
                        // after it are looked at for another one.
                        head = 0
                        headCount = 0
                    }
                }
            case .space, .lineBreak:
                break  // handled above
            }
            i += 1
        }
        offset = base + n
    }
}
