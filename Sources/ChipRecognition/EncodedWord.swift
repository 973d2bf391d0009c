import ChipSyntax

/// RFC 2047 encoded words, `=?charset?encoding?text?=`, as they appear in
/// display names and comments.
enum EncodedWord {
    /// A decoded word: its charset, and where its bytes end in the
    /// ``Pending`` bytes (they start where the word before ends).
    struct Word {
        var charset: Charset
        var end: Int
    }

    /// The decoded bytes of the encoded words a name has not yet turned
    /// into UTF-8, in memory the caller lends (on the stack): no word
    /// allocates. A phrase of *n* bytes needs room for *n* bytes (neither
    /// encoding decodes to more bytes than its text) and *n*/8 + 1 words
    /// (a word takes at least eight bytes, `=?c?b??=`).
    struct Pending {
        let bytes: UnsafeMutablePointer<UInt8>
        let byteCapacity: Int
        let words: UnsafeMutablePointer<Word>
        let wordCapacity: Int
        var byteCount = 0
        var wordCount = 0

        var isEmpty: Bool { wordCount == 0 }

        /// Runs `body` with room for the encoded words of a phrase of
        /// `length` bytes.
        static func with<R>(phraseLength length: Int, _ body: (inout Pending) -> R) -> R {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { bytes in
                withUnsafeTemporaryAllocation(of: Word.self, capacity: length / 8 + 1) { words in
                    var pending = Pending(
                        bytes: bytes.baseAddress!, byteCapacity: bytes.count,
                        words: words.baseAddress!, wordCapacity: words.count)
                    return body(&pending)
                }
            }
        }

        mutating func append(_ byte: UInt8) {
            precondition(byteCount < byteCapacity, "decoded words outgrew their phrase")
            bytes[byteCount] = byte
            byteCount += 1
        }

        /// The bytes of words `from ..< to` (offsets in ``bytes``).
        func run(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: bytes + from, count: to - from)
        }
    }

    enum Outcome {
        /// Not an encoded word at all: ordinary text.
        case notEncoded
        /// Shaped like one, but with an unknown charset or a bad encoding:
        /// left as written.
        case undecodable
        /// Decoded: its words were added to the pending ones.
        case decoded
    }

    /// Decodes an atom that consists of one or more encoded words (several
    /// only when written back to back, which real mail does), adding them
    /// to `pending`; adds nothing unless the outcome is `decoded`.
    ///
    /// - Complexity: O(*n*) in the atom's length.
    static func decode(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into pending: inout Pending) -> Outcome {
        var i = range.lowerBound
        let end = range.upperBound
        guard end - i >= 8, p[i] == UInt8(ascii: "="), p[i + 1] == UInt8(ascii: "?") else {
            return .notEncoded
        }
        let bytesBefore = pending.byteCount, wordsBefore = pending.wordCount
        func fail(_ outcome: Outcome) -> Outcome {
            pending.byteCount = bytesBefore
            pending.wordCount = wordsBefore
            return outcome
        }
        while i < end {
            guard end - i >= 8, p[i] == UInt8(ascii: "="), p[i + 1] == UInt8(ascii: "?") else {
                return fail(pending.wordCount == wordsBefore ? .notEncoded : .undecodable)
            }
            // charset
            var j = i + 2
            let charsetStart = j
            while j < end && p[j] != UInt8(ascii: "?") { j += 1 }
            guard j < end, j > charsetStart else { return fail(.notEncoded) }
            let charsetEnd = j
            j += 1
            guard j + 1 < end, p[j + 1] == UInt8(ascii: "?") else { return fail(.notEncoded) }
            let encoding = ByteClass.lowercased(p[j])
            guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q") else { return fail(.notEncoded) }
            j += 2
            let textStart = j
            while j + 1 < end && !(p[j] == UInt8(ascii: "?") && p[j + 1] == UInt8(ascii: "=")) { j += 1 }
            guard j + 1 < end else { return fail(.notEncoded) }
            let textEnd = j
            i = j + 2
            guard let charset = charset(p, charsetStart..<charsetEnd) else { return fail(.undecodable) }
            let text = UnsafeBufferPointer(rebasing: p[textStart..<textEnd])
            let decoded = encoding == UInt8(ascii: "b") ? base64(text, into: &pending) : quoted(text, into: &pending)
            guard decoded else { return fail(.undecodable) }
            precondition(pending.wordCount < pending.wordCapacity, "encoded words outnumber their phrase's room")
            pending.words[pending.wordCount] = Word(charset: charset, end: pending.byteCount)
            pending.wordCount += 1
        }
        return .decoded
    }

    /// The charset a label names (WHATWG labels; an RFC 2231 language
    /// suffix such as `*en` is ignored).
    ///
    /// The labels the standard maps to its replacement encoding
    /// (`iso-2022-kr`, `hz-gb-2312`, …) count as unknown: decoding would
    /// give one U+FFFD, and sending would then replace the sender's text
    /// with it, whereas a word left as written still reaches a reader whose
    /// client knows the charset.
    static func charset(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Charset? {
        guard let charset = Charset(label: UnsafeBufferPointer(rebasing: p[range])),
              charset != .replacement else { return nil }
        return charset
    }

    /// Appends the bytes of a B word's text (false on bad base64).
    static func base64(_ text: UnsafeBufferPointer<UInt8>, into pending: inout Pending) -> Bool {
        precondition(pending.byteCount + text.count <= pending.byteCapacity, "decoded words outgrew their phrase")
        guard let count = Base64.decode(text, into: pending.bytes + pending.byteCount) else { return false }
        pending.byteCount += count
        return true
    }

    /// Appends the bytes of a Q word's text (false on a bad `=XX`).
    static func quoted(_ text: UnsafeBufferPointer<UInt8>, into pending: inout Pending) -> Bool {
        precondition(pending.byteCount + text.count <= pending.byteCapacity, "decoded words outgrew their phrase")
        guard let count = decodeQ(text, into: pending.bytes + pending.byteCount, onlyPlain: false) else { return false }
        pending.byteCount += count
        return true
    }

    /// Decodes a Q word's text into `out` (room for `text.count` bytes,
    /// which no text outgrows): `_` is a space, `=XX` a byte, any other
    /// byte itself, or, with `onlyPlain`, only a letter, a digit or one of
    /// `!` `*` `+` `-` `/` (RFC 2047 §5 (3)). How many bytes it wrote, or
    /// nil on a bad `=XX` or a byte `onlyPlain` refuses.
    ///
    /// - Complexity: O(*n*) in the text's length.
    @inline(__always)
    static func decodeQ(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, onlyPlain: Bool) -> Int? {
        var i = 0, n = 0
        let hex = Base64.hexValues
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: "_") {
                out[n] = ASCII.space
            } else if c == UInt8(ascii: "=") {
                guard i + 2 < text.count else { return nil }
                let hi = hex[text[i + 1]], lo = hex[text[i + 2]]
                guard hi | lo < 16 else { return nil }
                out[n] = hi << 4 | lo
                i += 2
            } else {
                guard !onlyPlain || ByteClass.isLetterOrDigit(c) || c == UInt8(ascii: "!") || c == UInt8(ascii: "*")
                    || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: "/") else { return nil }
                out[n] = c
            }
            i += 1
            n += 1
        }
        return n
    }

    /// Appends `bytes` in `charset` as UTF-8; what cannot be converted
    /// becomes U+FFFD. Every control character (C0, DEL, C1) and line or
    /// paragraph separator becomes a space, and runs of white space fold to
    /// one, so a decoded name can never smuggle a line break, and the words
    /// around a control stay apart (`x=0D=0Ay` is `x y`).
    ///
    /// UTF-8 text is copied a stretch at a time while it is well-formed
    /// and holds none of those; the first byte that is not goes, with all
    /// after it, through the charset's decoder (``appendDecoded(_:charset:into:)``,
    /// which gives the same for every input: a test compares the two).
    ///
    /// - Complexity: O(*n*) in the bytes.
    static func appendUTF8(_ bytes: UnsafeBufferPointer<UInt8>, charset: Charset, into out: inout [UInt8]) {
        guard charset == .utf8 else { return appendDecoded(bytes, charset: charset, into: &out) }
        let n = bytes.count
        var i = 0
        while i < n {
            let b = bytes[i]
            if b > 0x20 && b < 0x7F {
                i += 1
                continue
            }
            if b == ASCII.space {
                // A space after a space (or after a control that became
                // one) folds away.
                let previous = i > 0 ? bytes[i - 1] : out.last
                if previous != ASCII.space {
                    i += 1
                    continue
                }
            } else if b >= 0xC2 {
                let length = UTF8Bytes.sequenceLength(bytes, at: i, end: n)
                // C1 controls (U+0080–U+009F) and the line and paragraph
                // separators (U+2028, U+2029) become spaces: the decoder's.
                let c1 = b == 0xC2 && length == 2 && bytes[i + 1] < 0xA0
                let separator = b == 0xE2 && length == 3 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
                if length > 0 && !c1 && !separator {
                    i += length
                    continue
                }
            }
            // Anything else: the decoder from here on.
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<i]))
            return appendDecoded(UnsafeBufferPointer(rebasing: bytes[i..<n]), charset: charset, into: &out)
        }
        out.append(contentsOf: bytes)
    }

    /// ``appendUTF8(_:charset:into:)`` scalar by scalar, for any charset.
    ///
    /// - Complexity: O(*n*) in the bytes.
    static func appendDecoded(_ bytes: UnsafeBufferPointer<UInt8>, charset: Charset, into out: inout [UInt8]) {
        charset.decode(bytes) { v in
            if v <= 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029 {
                if out.last != ASCII.space { out.append(ASCII.space) }
            } else {
                appendUTF8Scalar(v, into: &out)
            }
        }
    }
}

extension EncodedWord {
    /// The index of the first `?` in `p[i..<hi]`, or `hi`: eight bytes a
    /// step (an encoded word's text is most of its length).
    @inline(__always)
    static func questionMark(_ p: UnsafeBufferPointer<UInt8>, from i: Int, to hi: Int) -> Int {
        var k = i
        while k + 8 <= hi {
            let found = SWAR.byte(SWAR.load(p, k), UInt8(ascii: "?")) & 0x8080_8080_8080_8080
            // The lowest flag is exact (a borrow runs only upwards).
            if found != 0 { return k + found.trailingZeroBitCount >> 3 }
            k += 8
        }
        while k < hi && p[k] != UInt8(ascii: "?") { k += 1 }
        return k
    }

    /// `=?utf-8?`, `=?iso-88` and `59-1?` as eight or five bytes loaded
    /// little-endian.
    private static var utf8Head: UInt64 { 0x3F38_2D66_7475_3F3D }
    private static var isoHead: UInt64 { 0x3838_2D6F_7369_3F3D }
    private static var isoTail: UInt64 { 0x3F_312D_3935 }

    /// Decodes a name that is only encoded words (most are): each in UTF-8
    /// or in windows-1252 (labelled `iso-8859-1`, `us-ascii` or
    /// `windows-1252`; the same for all), `B`, or `Q` with only letters,
    /// digits, `!` `*` `+` `-` `/` `_` and `=XX`, one space or none between
    /// them, whose text needs nothing of what decoding a name does beyond
    /// the words themselves: well-formed, with no control character, no
    /// line or paragraph separator, no `@` and single spaces between words.
    /// Appends that text to `out` as UTF-8 and returns true; returns false,
    /// appending nothing, for any other name, which
    /// ``Recognizer/appendPhrase(_:_:into:)`` decodes (as it would this
    /// one: adjacent words joined, to the same bytes, with no warning).
    /// It also screens the text it appends where it was decoded, when
    /// that is windows-1252 or UTF-8 of up to 64 bytes: `screen` is then
    /// set (left nil otherwise), to what ``FastPath/screenName(_:_:)``
    /// gives for up to 64 bytes, and for longer windows-1252 to a screen
    /// as sound (its letters are Latin, and only U+00A0–00BF have the lead
    /// of an invisible character).
    ///
    /// - Complexity: O(*n*) in the name's length.
    static func appendSimpleWords(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8], screen: inout FastPath.NameScreen?
    ) -> Bool {
        let hi = range.upperBound
        // Neither encoding decodes to more bytes than its text; 64 more,
        // so that the screen reads vectors past UTF-8 text. windows-1252
        // text is written again as UTF-8 (two bytes at most for one) from
        // `range.count` on, past the decoded bytes.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * range.count + 65) { scratch -> Bool in
            var n = 0
            var i = range.lowerBound
            // Whether the words are in UTF-8 (else windows-1252), nil
            // before the first word.
            var wordsAreUTF8: Bool?
            while true {
                guard hi - i >= 8, p[i] == UInt8(ascii: "="), p[i + 1] == UInt8(ascii: "?") else { return false }
                // `=?utf-8?` and `=?iso-8859-1?` (most words) by eight
                // bytes, their letters' case ignored.
                let head = SWAR.load(p, i) | 0x0000_0020_2020_0000
                var j: Int
                let wordIsUTF8: Bool
                if head == utf8Head {
                    j = i + 7
                    wordIsUTF8 = true
                } else if head == isoHead, hi - i >= 16, SWAR.load(p, i + 8) & 0xFF_FFFF_FFFF == isoTail {
                    j = i + 12
                    wordIsUTF8 = false
                } else {
                    j = i + 2
                    while j < hi && p[j] != UInt8(ascii: "?") { j += 1 }
                    // Only the labels mail uses most are looked at, as the
                    // phrase decoder reads them first.
                    // (Matched by case: `==` of another module's enum is a
                    // call through its conformance.)
                    switch Charset.commonLabel(UnsafeBufferPointer(rebasing: p[(i + 2)..<j])) {
                    case .utf8: wordIsUTF8 = true
                    case .windows1252: wordIsUTF8 = false
                    default: return false
                    }
                }
                guard j + 2 < hi, p[j + 2] == UInt8(ascii: "?") else { return false }
                if let wordsAreUTF8, wordsAreUTF8 != wordIsUTF8 { return false }
                wordsAreUTF8 = wordIsUTF8
                let encoding = p[j + 1] | 0x20
                // The text ends at its first `?`, which must close the word.
                let k = questionMark(p, from: j + 3, to: hi)
                guard k + 1 < hi, p[k + 1] == UInt8(ascii: "=") else { return false }
                let text = UnsafeBufferPointer(rebasing: p[(j + 3)..<k])
                if encoding == UInt8(ascii: "b") {
                    guard let count = Base64.decode(text, into: scratch.baseAddress! + n) else { return false }
                    n += count
                } else if encoding == UInt8(ascii: "q") {
                    guard let count = decodeQ(text, into: scratch.baseAddress! + n, onlyPlain: true) else { return false }
                    n += count
                } else {
                    return false
                }
                i = k + 2
                if i == hi { break }
                // The space between two words is no part of the text.
                if p[i] == ASCII.space { i += 1 }
            }
            // What decoding would leave as it is: printable ASCII but `@`
            // (a name holding one takes the general path) and single
            // spaces inside; of UTF-8 the rest but C1 controls and
            // U+2028/9, of windows-1252 (`iso-8859-1`, `us-ascii`) the
            // letters from U+00A0 on, which it shares with ISO-8859-1.
            let decoded = UnsafeBufferPointer(start: scratch.baseAddress, count: n)
            let isUTF8 = wordsAreUTF8 ?? false
            var k = 0
            var previousSpace = true
            while k < n {
                let b = decoded[k]
                if b == ASCII.space {
                    guard !previousSpace else { return false }
                    previousSpace = true
                    k += 1
                    continue
                }
                previousSpace = false
                if b > 0x20 && b < 0x7F && b != UInt8(ascii: "@") {
                    k += 1
                } else if !isUTF8 {
                    guard b >= 0xA0 else { return false }
                    k += 1
                } else {
                    guard b >= 0xC2 else { return false }
                    let length = UTF8Bytes.sequenceLength(decoded, at: k, end: n)
                    guard length > 0, !(b == 0xC2 && decoded[k + 1] < 0xA0),
                          !(b == 0xE2 && length == 3 && decoded[k + 1] == 0x80
                            && (decoded[k + 2] == 0xA8 || decoded[k + 2] == 0xA9)) else { return false }
                    k += length
                }
            }
            guard !previousSpace || n == 0 else { return false }
            if isUTF8 {
                if n <= 64 {
                    // What the screen reads past the text: spaces, by
                    // four stores (it looks only at the text's lanes).
                    let raw = UnsafeMutableRawPointer(scratch.baseAddress! + n)
                    for k in 0..<4 {
                        raw.storeBytes(of: SIMD16<UInt8>(repeating: 0x20), toByteOffset: 16 * k, as: SIMD16<UInt8>.self)
                    }
                    screen = FastPath.screenName(UnsafeBufferPointer(start: scratch.baseAddress, count: n + 64), 0..<n)
                }
                out.append(contentsOf: decoded)
            } else {
                // As UTF-8, past the decoded bytes. Its screen: the letters
                // are Latin, and U+00A0–00BF (lead C2) the only ones whose
                // lead may start an invisible character.
                let utf8 = scratch.baseAddress! + range.count
                var m = 0
                var c2Lead = false
                for b in decoded {
                    if b < 0x80 {
                        utf8[m] = b
                        m += 1
                    } else {
                        c2Lead = c2Lead || b < 0xC0
                        utf8[m] = 0xC0 | b >> 6
                        utf8[m + 1] = 0x80 | b & 0x3F
                        m += 2
                    }
                }
                screen = c2Lead ? .invisibles : []
                out.append(contentsOf: UnsafeBufferPointer(start: utf8, count: m))
            }
            return true
        }
    }
}
