/// The chips of a whole record in one pass over a structural index, for
/// the lists most records are: mailboxes `local@domain`, `Name <local@domain>`
/// or `"Quoted, Name" <local@domain>` separated by commas or semicolons
/// and spaces, with comments (`a@x.org (Ann)`, `Ann (work) <a@x.org>`),
/// groups (`Team: a@x.org, b@y.org;`) and escapes in quoted strings.
///
/// Stage 1 classifies 64 bytes at a time with vector compares into
/// bitmasks of the bytes that matter here (`,` `;` `<` `>` `@` `"` `(` `)`
/// `:` `\` space, and those that make a record not simple); backslashes
/// escape the byte after them (a run of them escapes by its parity, carried
/// from block to block), quoted strings are found by a prefix XOR of the
/// unescaped quotes' mask (carried from block to block), and what they hold
/// is masked out; stage 2 walks only the set bits, keeping a comment's
/// depth. Other control bytes are letters, as they are to the scanner (a
/// chip holding one is recognition's to judge). A quoted string, comment
/// or `<…>` still open at the record's end runs to it, as the scanner
/// reads it when no `,` or `;` follows it: after what could stand before a
/// closed one, the piece is one chip, for the general path. A record with anything else (a backslash
/// outside a quoted string, a quote or backslash in a comment, a comment
/// inside `<…>`, a domain literal, a line break or tab (the scanner's
/// folding white space), a `0xEF` that may begin a full-width `＠` or a
/// byte order mark, a quote that is not a name before `<…>` nor open at
/// the end after words, a name before a bare address (comments before it
/// are read: `(home) a@x.org`), a `,` the scanner
/// holds after words (Outlook's `Last, First`: the first chip of a list,
/// or one of a list that used `;`) that anything but `First <…>` follows
/// (that is read as the scanner reads it: one chip or two), text after `>`
/// or after a comment, a separator inside `<…>`, a `:` that does not open
/// a group) is refused, and the caller scans it with ``ListScanner``,
/// which stays the reference: where this answers, its segments are
/// exactly the scanner's (tested on the corpora, the RFC tables and
/// random lists).
package enum SimpleList {
    /// Records longer than this are left to the scanner: the record's
    /// spaces are kept as one bit per byte in a small stack buffer. Few
    /// lists are so long.
    package static let maxBytes = 4_096

    /// One entry of a simple list, with what stage 2 learned of it: where
    /// its `<` and its last `@` stand, so that recognition need not look
    /// for them again. Most entries are chips; a group's `name:` and its
    /// end are entries of their own, as the scanner reports them.
    package struct Chip: Sendable, Hashable {
        /// Offsets from the record's first byte: the chip's text, without
        /// the spaces around it (a group's `name:` with its colon, its
        /// closing `;`, or an empty range at the record's end).
        package var lo: Int32
        package var hi: Int32
        /// The `<` of `Name <…>` (or of a bare `<…>`), -1 for a bare address.
        package var open: Int32
        /// The last `@` of the address (inside the brackets for `<…>`),
        /// -1 when there is none there.
        package var at: Int32
        /// How many `@` the address holds (inside the brackets for `<…>`);
        /// -1 for a chip with a quoted string, comment or `<…>` open at the
        /// record's end, which only the general path reads.
        package var ats: Int32
        /// The `(` of the chip's first comment, -1 when it has none. After
        /// a bare address, the chip is the address, spaces, and comments
        /// with only spaces between them up to its end.
        package var comment: Int32
        /// The `,` of Outlook's `Last, First <…>` inside the chip's name
        /// (a `,` the scanner held and then joined), -1 when it has none.
        package var comma: Int32
        /// A chip, or a group's opening or closing.
        package var kind: Segment.Kind

        package init(
            lo: Int, hi: Int, open: Int = -1, at: Int = -1, ats: Int = 0, comment: Int = -1, comma: Int = -1,
            kind: Segment.Kind = .chip
        ) {
            // Offsets within a record of at most `maxBytes` bytes.
            self.lo = Int32(truncatingIfNeeded: lo)
            self.hi = Int32(truncatingIfNeeded: hi)
            self.open = Int32(truncatingIfNeeded: open)
            self.at = Int32(truncatingIfNeeded: at)
            self.ats = Int32(truncatingIfNeeded: ats)
            self.comment = Int32(truncatingIfNeeded: comment)
            self.comma = Int32(truncatingIfNeeded: comma)
            self.kind = kind
        }

        /// Whether the chip holds a comment, which recognition may read as
        /// its name.
        package var commented: Bool { comment >= 0 }

        package var range: Range<Int> { Int(lo)..<Int(hi) }
        package var segment: Segment { Segment(kind, range) }
    }

    /// Appends the chip segments of `record` (offsets from its first byte)
    /// to `segments` and returns true, or returns false and appends nothing.
    ///
    /// - Complexity: O(*n*) in the record's length, 64 bytes per step of
    ///   stage 1 and one step of stage 2 per `,` `<` `>` `@`.
    package static func segments(_ record: UnsafeBufferPointer<UInt8>, into segments: inout [Segment]) -> Bool {
        var found: [Chip] = []
        guard appendChips(record, to: &found) else { return false }
        for c in found { segments.append(c.segment) }
        return true
    }

    /// The same chips as ``segments(_:into:)``, with their `<` and `@`,
    /// appended to `chips` (true), or nothing appended (false). Named
    /// apart from ``chips(_:into:)``, the hot path's form, so that an
    /// array argument never picks one form for the other.
    ///
    /// - Complexity: O(*n*) in the record's length.
    package static func appendChips(_ record: UnsafeBufferPointer<UInt8>, to chips: inout [Chip]) -> Bool {
        withUnsafeTemporaryAllocation(of: Chip.self, capacity: maxChips) { buffer in
            guard let count = self.chips(record, into: buffer.baseAddress!) else { return false }
            chips.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
            return true
        }
    }

    /// The most entries a record the index reads can hold: a chip needs
    /// a byte and a separator, and `x:@;` makes three entries of four bytes.
    package static let maxChips = maxBytes * 3 / 4 + 2

    /// The entries of `record` written to `out` (room for ``maxChips``):
    /// their count, or nil when the record is not simple.
    ///
    /// - Complexity: O(*n*) in the record's length, 64 bytes per step of
    ///   stage 1 and one step of stage 2 per structural byte.
    package static func chips(_ record: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<Chip>) -> Int? {
        guard let base = record.baseAddress else { return 0 }
        // A line feed in the record makes it not simple, as it would end
        // the record here.
        let read = self.record(base, available: record.count, terminator: ASCII.lineFeed, into: out)
        return read.terminated ? nil : read.count
    }

    /// What ``record(_:available:terminator:into:)`` read.
    package struct RecordRead {
        /// The record's length: where its terminator stands from its first
        /// byte, or all the bytes available when none came.
        package var length: Int
        /// Whether a terminator ended the record within the bytes available.
        package var terminated: Bool
        /// How many entries were written, or nil when the record is not simple.
        package var count: Int?
    }

    /// Reads the record that starts at `start` and ends at the first
    /// `terminator` (a line feed or NUL) or after `available` bytes,
    /// whichever comes first: the terminator is found by the same compares
    /// that classify the record, so a buffer of many records is read
    /// without a search for each one's end. The entries go to `out` (room
    /// for ``maxChips``) when the record is simple. The caller keeps one
    /// buffer for every record, so no array is cleared or grown.
    ///
    /// Reads whole blocks of 64 bytes past the record's end while they lie
    /// within `available` (their bytes beyond the terminator are masked
    /// out); the last block of the bytes available is copied to the stack.
    ///
    /// - Complexity: O(*n*) in the record's length, 64 bytes per step of
    ///   stage 1 and one step of stage 2 per structural byte.
    package static func record(
        _ start: UnsafePointer<UInt8>, available: Int, terminator: UInt8, into out: UnsafeMutablePointer<Chip>
    ) -> RecordRead {
        // One word more than `maxBytes` needs: a record of exactly
        // `maxBytes` bytes ends in a block of its own, at its first byte.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: maxBytes / 64 + 1) { spaces -> RecordRead in
            var piece = Piece(spaces: UnsafeBufferPointer(spaces), record: start, out: out)
            // Block by block: stage 1 classifies it, stage 2 walks its
            // special bytes (a piece ends at a separator, so it never
            // needs a block not yet classified), and the first byte that
            // makes the record not simple stops both.
            var at = 0
            // All ones while a quoted string is open at a block's end.
            var inQuote: UInt64 = 0
            // 1 when the block's first byte is escaped by a backslash at
            // the end of the block before.
            var escapeCarry: UInt64 = 0
            while true {
                if at >= available {
                    guard piece.finish(at: available, quoteOpen: inQuote != 0) else {
                        return RecordRead(length: available, terminated: false, count: nil)
                    }
                    return RecordRead(length: available, terminated: false, count: piece.count)
                }
                var m: Masks
                if at + 64 <= available {
                    m = classify(UnsafeRawPointer(start + at), vectors: 4, terminator: terminator, following: available - at)
                } else {
                    // The last bytes available, padded with a plain letter;
                    // only the 16-byte vectors that hold some of them are
                    // compared.
                    var pad = (SIMD16<UInt8>(repeating: 0x61), SIMD16<UInt8>(repeating: 0x61),
                               SIMD16<UInt8>(repeating: 0x61), SIMD16<UInt8>(repeating: 0x61))
                    m = withUnsafeMutableBytes(of: &pad) { raw in
                        raw.baseAddress!.copyMemory(from: start + at, byteCount: available - at)
                        return classify(UnsafeRawPointer(raw.baseAddress!), vectors: (available - at + 15) >> 4,
                                        terminator: terminator, following: available - at)
                    }
                }
                // Where the record ends in this block, if it does: bytes
                // from there on are the next record's.
                var stop = 64
                if m.ends != 0 {
                    stop = m.ends.trailingZeroBitCount
                    let below: UInt64 = (1 << UInt64(stop)) &- 1
                    m.special &= below
                    m.spaces &= below
                    m.quotes &= below
                    m.backslashes &= below
                    m.refused &= below
                }
                guard m.refused == 0, at + stop <= maxBytes else { return declined(start, at, stop, available, terminator) }
                if m.backslashes | escapeCarry != 0 {
                    // Each backslash not itself escaped escapes the byte
                    // after it; an escaped quote opens or closes nothing.
                    var escaped = escapeCarry
                    var active: UInt64 = 0
                    escapeCarry = 0
                    var bits = m.backslashes
                    while bits != 0 {
                        let k = UInt64(bits.trailingZeroBitCount)
                        bits &= bits &- 1
                        if escaped >> k & 1 != 0 { continue }
                        active |= 1 << k
                        if k == 63 { escapeCarry = 1 } else { escaped |= 1 << (k + 1) }
                    }
                    m.quotes &= ~escaped
                    m.backslashes = active
                }
                var inside: UInt64 = 0
                if m.quotes | inQuote != 0 {
                    // From an opening quote up to its closing one: what a
                    // quoted string holds is text, its quotes stay.
                    inside = VectorBits.prefixXor(m.quotes) ^ inQuote
                    m.special &= ~inside | m.quotes
                    m.spaces &= ~inside
                    inQuote = 0 &- (inside >> 63)
                }
                // Outside a quoted string a backslash is a plain byte to
                // the scanner, not an escape: such records are its own.
                if m.backslashes & ~inside != 0 { return declined(start, at, stop, available, terminator) }
                spaces[at >> 6] = m.spaces
                var bits = m.special
                while bits != 0 {
                    let i = at + bits.trailingZeroBitCount
                    bits &= bits &- 1
                    if !piece.step(start[i], at: i) { return declined(start, at, stop, available, terminator) }
                }
                if stop < 64 {
                    // The terminator, perhaps with a quoted string still
                    // open at it (the bit below it inside).
                    let n = at + stop
                    let open = stop == 0 ? inQuote & 1 : inside >> UInt64(stop - 1) & 1
                    guard piece.finish(at: n, quoteOpen: open != 0) else {
                        return RecordRead(length: n, terminated: true, count: nil)
                    }
                    return RecordRead(length: n, terminated: true, count: piece.count)
                }
                at += 64
            }
        }
    }

    /// A record found not simple in the block at `at`: its length, the
    /// terminator found in that block or searched for after it.
    @inline(never)
    static func declined(
        _ start: UnsafePointer<UInt8>, _ at: Int, _ stop: Int, _ available: Int, _ terminator: UInt8
    ) -> RecordRead {
        if stop < 64 { return RecordRead(length: at + stop, terminated: true, count: nil) }
        var i = min(at + 64, available)
        // Eight bytes a time (the lowest byte SWAR flags is the first match).
        while i + 8 <= available {
            let w = UInt64(littleEndian: UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self))
            let hit = SWAR.byte(w, terminator)
            if hit != 0 { return RecordRead(length: i + hit.trailingZeroBitCount >> 3, terminated: true, count: nil) }
            i += 8
        }
        while i < available {
            if start[i] == terminator { return RecordRead(length: i, terminated: true, count: nil) }
            i += 1
        }
        return RecordRead(length: available, terminated: false, count: nil)
    }

    struct Masks {
        var special: UInt64 = 0
        var spaces: UInt64 = 0
        var quotes: UInt64 = 0
        var backslashes: UInt64 = 0
        var refused: UInt64 = 0
        /// The terminators' bits.
        var ends: UInt64 = 0
    }

    /// Stage 1 for 64 bytes (the first `vectors` sixteens of them, up to
    /// the first that holds a terminator; the other bits are left clear): bit *k* of `special` is set when byte *k* is
    /// `,` `;` `<` `>` `@` `"` `(` `)` `:` or `[`; of `quotes`, when it is
    /// `"`; of `backslashes`, when it is `\\`; of `spaces`, when it is a
    /// space; of `ends`, when it is the terminator; of `refused`, when it
    /// makes the record not simple anywhere (CR, LF or tab when it is not
    /// the terminator, and some 0xEF: see
    /// ``gatherRefused(_:vectors:terminator:following:)``). Masks that are
    /// seldom needed are gathered into bits only when some lane is set:
    /// gathering costs more than comparing.
    @inline(__always)
    static func classify(_ p: UnsafeRawPointer, vectors: Int, terminator: UInt8, following: Int) -> Masks {
        var masks = Masks()
        var refused = SIMDMask<SIMD16<Int8>>(repeating: false)
        var backslashes = SIMDMask<SIMD16<Int8>>(repeating: false)
        for k in 0..<vectors {
            let v = p.loadUnaligned(fromByteOffset: 16 * k, as: SIMD16<UInt8>.self)
            // One compare per byte value, the masks or-ed (written apart:
            // one long expression is too much for the type checker).
            let quote = v .== SIMD16<UInt8>(repeating: 0x22)
            backslashes .|= v .== SIMD16<UInt8>(repeating: 0x5C)
            var m = v .== SIMD16<UInt8>(repeating: 0x2C)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3C)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3E)
            m .|= v .== SIMD16<UInt8>(repeating: 0x40)
            m .|= quote
            m .|= v .== SIMD16<UInt8>(repeating: 0x28)
            m .|= v .== SIMD16<UInt8>(repeating: 0x29)
            m .|= v .== SIMD16<UInt8>(repeating: 0x5B)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3A)
            m .|= v .== SIMD16<UInt8>(repeating: 0x3B)
            refused .|= v .== SIMD16<UInt8>(repeating: 0xEF)
            // The terminator and the refused controls, all below 0x20:
            // one compare for the vectors (nearly all) that hold none.
            // Other controls are letters to the scanner (a chip holding
            // one is recognition's to judge): a block holding any control
            // but the terminator is looked at again, exactly, by
            // `gatherRefused`.
            let control = v .< SIMD16<UInt8>(repeating: 0x20)
            let shift = 16 * UInt64(k)
            masks.special |= VectorBits.bits(m) << shift
            if VectorBits.isAnySet(quote) { masks.quotes |= VectorBits.bits(quote) << shift }
            masks.spaces |= VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0x20)) << shift
            if VectorBits.isAnySet(control) {
                let end = v .== SIMD16<UInt8>(repeating: terminator)
                refused .|= control .& .!end
                if VectorBits.isAnySet(end) {
                    // The record ends here: the vectors after are the next one's.
                    masks.ends |= VectorBits.bits(end) << shift
                    break
                }
            }
        }
        if VectorBits.isAnySet(refused) {
            masks.refused = gatherRefused(p, vectors: vectors, terminator: terminator, following: following)
        }
        if VectorBits.isAnySet(backslashes) { masks.backslashes = gatherBackslashes(p) }
        return masks
    }

    /// The refused bytes' mask of 64 bytes, for the few blocks that hold
    /// one: CR, LF and tab but the terminator, and a byte 0xEF that may begin a
    /// full-width form the scanner reads as ASCII (`＠` is EF BC A0) or a
    /// byte order mark (EF BB BF), or that is the last byte of the record
    /// (before the terminator or the end of the `following` bytes
    /// available from `p`). Any other 0xEF, such as the
    /// variation selector after an emoji (EF B8 8F), is a letter to the
    /// scanner and to the index.
    @inline(never)
    static func gatherRefused(_ p: UnsafeRawPointer, vectors: Int, terminator: UInt8, following: Int) -> UInt64 {
        var bits: UInt64 = 0
        var leads: UInt64 = 0
        for k in 0..<vectors {
            let v = p.loadUnaligned(fromByteOffset: 16 * k, as: SIMD16<UInt8>.self)
            var m = v .== SIMD16<UInt8>(repeating: ASCII.tab)
            m .|= v .== SIMD16<UInt8>(repeating: ASCII.lineFeed)
            m .|= v .== SIMD16<UInt8>(repeating: ASCII.carriageReturn)
            m .&= v .!= SIMD16<UInt8>(repeating: terminator)
            bits |= VectorBits.bits(m) << (16 * UInt64(k))
            leads |= VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0xEF)) << (16 * UInt64(k))
        }
        while leads != 0 {
            let k = leads.trailingZeroBitCount
            leads &= leads &- 1
            // Last before the terminator or the end of the bytes: refused
            // alike, so that a record reads the same alone or in a buffer.
            let next = k + 1 < following ? p.load(fromByteOffset: k + 1, as: UInt8.self) : terminator
            if next == 0xBB || next == 0xBC || next == terminator { bits |= 1 << UInt64(k) }
        }
        return bits
    }

    /// The backslashes' mask of 64 bytes, for the few blocks that hold one.
    @inline(never)
    static func gatherBackslashes(_ p: UnsafeRawPointer) -> UInt64 {
        var bits: UInt64 = 0
        for k in 0..<4 {
            let v = p.loadUnaligned(fromByteOffset: 16 * k, as: SIMD16<UInt8>.self)
            bits |= VectorBits.bits(v .== SIMD16<UInt8>(repeating: 0x5C)) << (16 * UInt64(k))
        }
        return bits
    }

    /// The first byte at or after `i` and before `end` that is neither a
    /// space nor in a comment (comments nest; the index vouches that they
    /// close and hold no quote or backslash). The lane reads a chip's
    /// comments with it too.
    ///
    /// - Complexity: O(*n*) in the bytes skipped.
    package static func skipComments(_ bytes: UnsafePointer<UInt8>, from i: Int, to end: Int) -> Int {
        var i = i, depth = 0
        while i < end {
            let b = bytes[i]
            if depth > 0 {
                if b == ASCII.openParen { depth += 1 } else if b == ASCII.closeParen { depth -= 1 }
            } else if b == ASCII.openParen {
                depth = 1
            } else if b != ASCII.space {
                break
            }
            i += 1
        }
        return i
    }

    /// Stage 2: the piece of the record since the last separator, and
    /// whether a group is open.
    struct Piece {
        /// One word per 64 bytes of the record: a bit for each space.
        let spaces: UnsafeBufferPointer<UInt64>
        let record: UnsafePointer<UInt8>
        /// Where the entries go, and how many there are.
        let out: UnsafeMutablePointer<Chip>
        var count = 0
        /// Where the piece begins: just after the last separator.
        var from = 0
        var open = -1
        var close = -1
        var atOutside = 0
        /// A quoted string stood before any `<`.
        var quoted = false
        /// The last `@` and the count of them inside the brackets.
        var lastAt = -1
        var atInside = 0
        /// The depth of the comment being read, 0 outside one.
        var depth = 0
        /// Where the piece's first comment opens, -1 when it has none.
        var firstComment = -1
        /// Just after the piece's `>` or its last comment, whichever came
        /// last; -1 before either. Only spaces and comments may follow.
        var tail = -1
        var inGroup = false
        /// Outlook's `Last, First <…>`: the words before a `,` the scanner
        /// holds (their range, -1 when none is held), and where the bytes
        /// after that `,` begin. The piece then runs on past the `,`.
        var heldLo = -1, heldHi = -1, afterComma = -1
        /// Text stood between two comments before any `<`.
        var textAfterComment = false
        /// A `,` and a `;` have ended a chip outside a group (the
        /// scanner's `Separators`), which decides whether a `,` after
        /// words is held.
        var sawComma = false, sawSemicolon = false

        init(spaces: UnsafeBufferPointer<UInt64>, record: UnsafePointer<UInt8>, out: UnsafeMutablePointer<Chip>) {
            self.spaces = spaces
            self.record = record
            self.out = out
        }

        @inline(__always)
        func isSpace(_ i: Int) -> Bool { spaces[i >> 6] >> UInt64(i & 63) & 1 != 0 }

        /// Whether every byte of `range` is a space.
        func allSpaces(_ range: Range<Int>) -> Bool { !someByte(in: range, isSpace: false) }

        /// Whether some byte of `range` is a space.
        @inline(__always)
        func anySpace(_ range: Range<Int>) -> Bool { someByte(in: range, isSpace: true) }

        /// Whether some byte of `range` is (or, with `isSpace` false, is
        /// not) a space: a word of the spaces' bits at a time.
        @inline(__always)
        func someByte(in range: Range<Int>, isSpace: Bool) -> Bool {
            let flip: UInt64 = isSpace ? 0 : ~0
            var k = range.lowerBound
            while k < range.upperBound {
                let shift = UInt64(k & 63)
                let length = min(64 - Int(shift), range.upperBound - k)
                let wanted: UInt64 = length == 64 ? ~0 : (1 << UInt64(length)) &- 1
                if ((spaces[k >> 6] ^ flip) >> shift) & wanted != 0 { return true }
                k += length
            }
            return false
        }

        /// One structural byte. The bytes of most lists are handled here;
        /// comments, groups and the bytes that decline a record are
        /// handled apart, so that this stays small enough to inline.
        @inline(__always)
        mutating func step(_ b: UInt8, at i: Int) -> Bool {
            if depth > 0 { return stepInComment(b, at: i) }
            switch b {
            case 0x2C:
                if open >= 0 && close < 0 { return false }  // a separator inside `<…>`
                return end(at: i, by: 0x2C)
            case 0x3B:
                if open >= 0 && close < 0 { return false }
                guard end(at: i, by: 0x3B) else { return false }
                if inGroup { closeGroup(at: i) }
                return true
            case 0x22:
                if open >= 0 { return false }  // a quote inside or after `<…>`
                quoted = true
                return true
            case 0x3C:
                if open >= 0 { return false }
                open = i
                return true
            case 0x3E:
                if open < 0 || close >= 0 { return false }
                close = i
                tail = i + 1
                return true
            case 0x40:
                if open < 0 || close >= 0 {
                    atOutside += 1
                    if open < 0 { lastAt = i }
                } else {
                    atInside += 1
                    lastAt = i
                }
                return true
            default:
                return stepRare(b, at: i)
            }
        }

        /// In a comment only nesting matters; a quote there would have
        /// been read by stage 1 as opening a quoted string.
        @inline(never)
        mutating func stepInComment(_ b: UInt8, at i: Int) -> Bool {
            switch b {
            case 0x28: depth += 1
            case 0x29:
                depth -= 1
                if depth == 0 { tail = i + 1 }
            case 0x22: return false
            default: break
            }
            return true
        }

        /// `(` and `:`; `)` and `[` decline the record.
        @inline(never)
        mutating func stepRare(_ b: UInt8, at i: Int) -> Bool {
            switch b {
            case 0x28:
                // A comment: in a name, or after the address or `>` with
                // only spaces since; never inside `<…>`.
                if open >= 0 && close < 0 { return false }
                // Text between comments before `<…>` or an address is
                // judged when the piece ends (``addressAmidComments``).
                if tail >= 0 && !allSpaces(tail..<i) {
                    if open >= 0 { return false }
                    textAfterComment = true
                }
                if firstComment < 0 { firstComment = i }
                depth = 1
                return true
            case 0x3A:
                return openGroup(at: i)
            default:
                return false
            }
        }

        /// The end of a group: its `;`, or an empty range at the record's end.
        @inline(never)
        mutating func closeGroup(at i: Int, empty: Bool = false) {
            out[count] = Chip(lo: i, hi: empty ? i : i + 1, kind: .groupClose)
            count += 1
            inGroup = false
        }

        /// A `:` after words (or a quoted string) and nothing else opens a
        /// group, as the scanner reads it, unless the words are `mailto`.
        mutating func openGroup(at i: Int) -> Bool {
            guard !inGroup, open < 0, atOutside == 0, firstComment < 0, heldHi < 0 else { return false }
            var lo = from
            while lo < i && isSpace(lo) { lo += 1 }
            guard lo < i, !isMailto(lo, i) else { return false }
            out[count] = Chip(lo: lo, hi: i + 1, kind: .groupOpen)
            count += 1
            inGroup = true
            from = i + 1
            quoted = false
            return true
        }

        /// Whether `record[lo..<colon]` is `mailto` in any case.
        func isMailto(_ lo: Int, _ colon: Int) -> Bool {
            guard colon - lo == 6 else { return false }
            let name: [UInt8] = [0x6D, 0x61, 0x69, 0x6C, 0x74, 0x6F]
            for k in 0..<6 where record[lo + k] | 0x20 != name[k] { return false }
            return true
        }

        /// Whether the scanner holds a `,` after words outside a group
        /// (its `Separators`): when no `,` has ended a chip outside a
        /// group yet, or a `;` has.
        var holdsComma: Bool { sawSemicolon || !sawComma }

        /// Notes the separator that ended the chip just written, as the
        /// scanner's `Separators` keep it: only outside a group.
        @inline(__always)
        mutating func noteSeparator(_ separator: UInt8) {
            guard !inGroup else { return }
            if separator == 0x2C { sawComma = true } else if separator == 0x3B { sawSemicolon = true }
        }

        /// Ends the record: its last piece, and an open group at its end.
        /// A quoted string (`quoteOpen`), comment or `<…>` still open at the
        /// end runs to it, as the scanner reads it (what it holds is text,
        /// separators too): when what stands before it in the piece is what
        /// a closed one could follow, the piece is one chip, for the general
        /// path, which reports it unterminated.
        @inline(__always)
        mutating func finish(at n: Int, quoteOpen: Bool) -> Bool {
            let unclosed = quoteOpen || depth > 0 || (open >= 0 && close < 0)
            guard unclosed ? endOpen(at: n, quoteOpen: quoteOpen) : end(at: n, by: 0) else { return false }
            if inGroup { closeGroup(at: n, empty: true) }
            return true
        }

        /// Ends the piece at `stop`, which `separator` ends (a `,` or `;`,
        /// or 0 at the record's end). A piece is a chip when it is `Name
        /// <…>` (no `@` outside the brackets or quotes, nothing but spaces
        /// and comments after the brackets), one bare address with no space
        /// or quote inside, perhaps followed by comments and spaces, or
        /// words with no `@`, quote or comment (an error to recognition)
        /// that the scanner does not hold for Outlook's `Last, First`; an
        /// empty piece is two separators side by side.
        mutating func end(at stop: Int, by separator: UInt8) -> Bool {
            end(at: stop, by: separator, unclosed: false, quoteOpen: false)
        }

        /// Ends the record's last piece, with a quoted string (`quoteOpen`),
        /// comment or `<…>` still open at its end: `Name <…` (the `<`
        /// without its `>`), an address or `Name <…>` and then comments and
        /// spaces, the last comment open, or words and then quoted strings,
        /// the last open. Such a chip is marked for the general path (its
        /// ``Chip/ats`` is -1). Apart from ``end(at:by:)``, which every
        /// piece takes, so that its code stays as small as it was.
        /// A `,` or `;` in the piece declines it: the scanner would end the
        /// open construct's chip before the first one after its opener and
        /// read the rest again (``ListScanner/recoverUnclosed(_:base:_:)``).
        @inline(never)
        mutating func endOpen(at stop: Int, quoteOpen: Bool) -> Bool {
            for k in from..<stop where record[k] == 0x2C || record[k] == 0x3B { return false }
            return end(at: stop, by: 0, unclosed: true, quoteOpen: quoteOpen)
        }

        @inline(__always)
        mutating func end(at stop: Int, by separator: UInt8, unclosed: Bool, quoteOpen: Bool) -> Bool {
            var holds = false
            defer {
                if !holds {
                    from = stop + 1
                    heldLo = -1
                    heldHi = -1
                    afterComma = -1
                    open = -1
                    close = -1
                    atOutside = 0
                    lastAt = -1
                    atInside = 0
                    quoted = false
                    firstComment = -1
                    tail = -1
                    textAfterComment = false
                }
            }
            var lo = from, hi = stop
            while lo < hi && isSpace(lo) { lo += 1 }
            // Spaces at the end of an open construct are its text.
            while hi > lo && !unclosed && isSpace(hi - 1) { hi -= 1 }
            guard lo < hi else { return open < 0 && atOutside == 0 && !unclosed }
            if heldHi >= 0 { return endHeld(lo, hi, by: separator) }
            // What a construct open at the record's end holds runs to it.
            let closedAtEnd = tail == hi || (unclosed && !quoteOpen)
            if open >= 0 {
                // `<…` open only at the record's end (or `Name <…>` with a
                // comment open there).
                guard close >= 0 || unclosed, closedAtEnd, atOutside == 0, !quoteOpen else { return false }
            } else if atOutside == 0 {
                // Words where an address should be: the scanner holds the
                // `,` after them (the first chip of a list, or any of a list
                // that used `;`) to see whether `First <…>;` follows.
                // Words then a quoted string open at the end are one chip.
                guard !quoted || quoteOpen, firstComment < 0, depth == 0 else { return false }
                if separator == 0x2C && !inGroup && holdsComma {
                    // Held: the piece runs on past the `,`.
                    heldLo = lo
                    heldHi = hi
                    afterComma = stop + 1
                    holds = true
                    return true
                }
            } else {
                guard !quoted else { return false }
                var addressLo = lo, addressEnd = hi
                if firstComment >= 0 && (lastAt < firstComment || unclosed) {
                    // The address, then comments and spaces to the end.
                    guard closedAtEnd, lastAt < firstComment, !textAfterComment else { return false }
                    addressEnd = firstComment
                    while addressEnd > lo && isSpace(addressEnd - 1) { addressEnd -= 1 }
                } else if firstComment >= 0 {
                    // Comments and spaces, the address, comments and spaces.
                    guard let bounds = addressAmidComments(lo, hi) else { return false }
                    (addressLo, addressEnd) = bounds
                }
                if anySpace(addressLo..<addressEnd) { return false }
            }
            out[count] = Chip(
                lo: lo, hi: hi, open: open, at: lastAt, ats: unclosed ? -1 : open >= 0 ? atInside : atOutside,
                comment: firstComment)
            count += 1
            noteSeparator(separator)
            return true
        }

        /// The bare address of a piece `p[lo..<hi]` that holds comments
        /// before it (`(home) a@x.org`, and perhaps after it): comments and
        /// spaces, then the address (its last `@` among its bytes, no space
        /// or `(` in it), then only comments and spaces to the end. Nil for
        /// any other piece (a comment inside the address, text after one).
        @inline(never)
        func addressAmidComments(_ lo: Int, _ hi: Int) -> (Int, Int)? {
            let addressLo = skipComments(from: lo, to: hi)
            var i = addressLo
            while i < hi && record[i] != 0x20 && record[i] != 0x28 { i += 1 }
            guard addressLo <= lastAt, lastAt < i, skipComments(from: i, to: hi) == hi else { return nil }
            return (addressLo, i)
        }

        func skipComments(from i: Int, to hi: Int) -> Int { SimpleList.skipComments(record, from: i, to: hi) }

        /// Ends a piece whose first `,` was held (`Lee, Ann <ann@x.org>`),
        /// as the scanner does when words, then one closed `<…>` and only
        /// spaces follow that `,`: one chip when a `;` ends it, or the
        /// record's end in a list that used `;` before; at a `,` or at the
        /// record's end otherwise, two chips, the words before the held
        /// `,` and the mailbox after it. Anything else after a held `,` (a
        /// quote, an `@` or a comment before the `<`, a second `,`, no
        /// `<…>`) declines the record.
        @inline(never)
        mutating func endHeld(_ lo: Int, _ hi: Int, by separator: UInt8) -> Bool {
            guard open >= 0, close >= 0, tail == hi, !quoted, atOutside == 0, firstComment < 0,
                  !allSpaces(afterComma..<open) else { return false }
            if separator == 0x3B || (separator == 0 && sawSemicolon) {
                out[count] = Chip(lo: lo, hi: hi, open: open, at: lastAt, ats: atInside, comma: afterComma - 1)
                count += 1
                noteSeparator(separator)
                return true
            }
            var afterLo = afterComma
            while isSpace(afterLo) { afterLo += 1 }
            out[count] = Chip(lo: heldLo, hi: heldHi)
            out[count + 1] = Chip(lo: afterLo, hi: hi, open: open, at: lastAt, ats: atInside)
            count += 2
            noteSeparator(separator)
            return true
        }
    }
}
