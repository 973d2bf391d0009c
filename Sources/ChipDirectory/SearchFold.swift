// Search folding: what a person types and what a contact holds are folded
// the same way, so that "jose" finds "José" and "lukasz" finds "Łukasz".
// What is folded, what is not, and why: docs/contacts.md, "Folding".

import ChipSyntax

/// Folds text for matching: case (full Unicode case folding), accents
/// (decomposition, then nonspacing marks dropped in the scripts where they
/// are accents), compatibility forms (full- and half-width, ligatures,
/// circled and superscript forms), letters with strokes (ø, ł, đ, ...),
/// and invisible format characters (soft hyphen, zero-width joiners).
///
/// Each scalar folds on its own, from generated tables (``FoldingTables``),
/// except that conjoining Hangul jamo are composed into syllables, so text
/// in decomposed form (NFD) folds as its precomposed form does.
///
/// Invariants:
/// 1. Folding is idempotent: folding folded text changes nothing.
/// 2. ASCII folds to its lower case and nothing else.
/// 3. Every output byte has an origin: the offset of the first byte of the
///    input scalar it came from; origins never decrease.
/// 4. Output is well-formed UTF-8, whatever the input: an ill-formed
///    sequence (a maximal subpart, as `String(decoding:as:)` counts them)
///    becomes U+FFFD.
package enum SearchFold {
    /// Appends the folded UTF-8 of `text` to `out`, and for each byte appended
    /// the offset in `text` of the first byte of the scalar it came from to `origins`
    /// (so a match in folded text maps back to a byte range of the original, for highlighting).
    /// Invalid UTF-8 sequences are passed through as U+FFFD.
    ///
    /// A match of folded bytes `a..<b` covers the original bytes
    /// `origins[a]..<end`, where `end` is `origins[b]` (`text.count` when
    /// `b` is the end), provided the match starts and ends on scalars.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is `text.count` and *m* the
    ///   number of bytes appended (at most 11*n*).
    package static func fold(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], origins: inout [Int32]) {
        foldAll(text, into: &out, origins: &origins, recordsOrigins: true)
    }

    /// Appends the folded UTF-8 of `text` to `out`.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is `text.count` and *m* the
    ///   number of bytes appended.
    package static func fold(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var unused: [Int32] = []
        foldAll(text, into: &out, origins: &unused, recordsOrigins: false)
    }

    /// The folded UTF-8 of `text`.
    ///
    /// - Complexity: O(*n*), where *n* is the length of `text` in UTF-8.
    package static func fold(_ text: String) -> [UInt8] {
        var text = text
        var out: [UInt8] = []
        text.withUTF8 { fold($0, into: &out) }
        return out
    }

    /// Whether a scalar belongs to a script written without spaces between words
    /// (Han, Hiragana, Katakana incl. half-width, Bopomofo, Hangul syllables
    /// and jamo, Yi, Thai, Lao, Khmer, Myanmar and the Tai scripts), so that
    /// the index treats every character as a word start (substring matching).
    ///
    /// Only letters and numbers are: marks continue the character before
    /// them, and punctuation separates. Tibetan is not spaceless, because its
    /// syllables are already separated by the tsheg, a punctuation mark.
    /// Hangul is, although Korean spaces its words, because a Korean name
    /// is written solid (family name first) and is searched by its given name.
    ///
    /// - Complexity: O(1).
    package static func isSpaceless(_ scalar: UInt32) -> Bool {
        FoldingTables.wordClass(of: foldingTables.entry(scalar)) == .spaceless
    }

    /// Whether the scalar separates words in a name: white space, controls,
    /// punctuation (general categories Z*, Cc, P*) and the math, currency and
    /// modifier symbols (Sm, Sc, Sk: `+ < = > | ~ $ ^` and the like, which
    /// join the parts of addresses and handles). Other symbols (So: emoji,
    /// ©, ★) are word characters, so that an emoji in a nickname can be
    /// typed to find it.
    ///
    /// Meant for scalars of folded text; asked of a scalar that folding
    /// changes, it answers for the scalar itself (the no-break space
    /// separates, and so does the space it folds to).
    ///
    /// - Complexity: O(1).
    package static func isWordSeparator(_ scalar: UInt32) -> Bool {
        FoldingTables.wordClass(of: foldingTables.entry(scalar)) == .separator
    }
}

extension SearchFold {
    /// Room reserved past the input length for each round of writing: the
    /// longest output of one scalar, and the three bytes of a jamo carried
    /// over from the round before, with margin.
    private static var roundSlack: Int { FoldingTables.maxFoldedLength + 32 }

    /// The room ``fold(_:into:origins:capacity:)`` is given for a text of
    /// `count` bytes: enough unless folding more than quadruples it.
    package static func foldCapacity(_ count: Int) -> Int { 4 * count + roundSlack }

    /// Folds `text` into memory the caller holds (no array), recording
    /// origins as ``fold(_:into:origins:)`` does, and returns how many bytes
    /// it wrote, or nil when `capacity` was too small for them (the caller
    /// then folds into arrays).
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    package static func fold(
        _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
        origins: UnsafeMutablePointer<Int32>, capacity: Int
    ) -> Int? {
        guard text.count > 0 else { return 0 }
        var state = RoundState()
        let written = foldRound(text, state: &state, out: out, origins: origins, room: capacity)
        // A round stops early only when it runs out of room; one that read
        // the whole text holds nothing back.
        return state.next == text.count ? written : nil
    }

    /// Calls `body` with `text` folded and the origin of each folded byte,
    /// as ``fold(_:into:origins:)`` makes them: on the stack when folding
    /// at most quadruples the text (a name or an address nearly always),
    /// else in arrays.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    package static func withFolded(
        _ text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Int32>) -> Void
    ) {
        let capacity = foldCapacity(text.count)
        let done: Bool = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { origins in
                guard let n = fold(text, into: out.baseAddress!, origins: origins.baseAddress!, capacity: capacity)
                else { return false }
                body(UnsafeBufferPointer(rebasing: out[..<n]), UnsafeBufferPointer(rebasing: origins[..<n]))
                return true
            }
        }
        guard !done else { return }
        var out: [UInt8] = [], origins: [Int32] = []
        fold(text, into: &out, origins: &origins)
        out.withUnsafeBufferPointer { o in origins.withUnsafeBufferPointer { body(o, $0) } }
    }

    /// Folds all of `text`, writing straight into `out`'s (and `origins`')
    /// spare capacity in rounds. A round reserves the input's remaining
    /// length plus ``roundSlack`` and stops while a scalar's longest output
    /// still fits; text that grows when folded (ligatures of Arabic phrases
    /// grow elevenfold) takes more rounds.
    @inline(__always)
    private static func foldAll(
        _ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], origins: inout [Int32], recordsOrigins: Bool
    ) {
        precondition(text.count <= Int(Int32.max), "SearchFold: text longer than Int32 offsets")
        guard text.count > 0 else { return }
        var state = RoundState()
        while state.next < text.count {
            let room = text.count - state.next + roundSlack
            out.append(addingCapacity: room) { outSpan in
                outSpan.withUnsafeMutableBufferPointer { outBuffer, outCount in
                    if recordsOrigins {
                        origins.append(addingCapacity: room) { originSpan in
                            originSpan.withUnsafeMutableBufferPointer { originBuffer, originCount in
                                outCount = foldRound(
                                    text, state: &state, out: outBuffer.baseAddress!, origins: originBuffer.baseAddress,
                                    room: room)
                                originCount = outCount
                            }
                        }
                    } else {
                        outCount = foldRound(text, state: &state, out: outBuffer.baseAddress!, origins: nil, room: room)
                    }
                }
            }
        }
    }

    /// What carries from one round to the next: where the input continues,
    /// and a jamo (or syllable) that a following scalar may still combine
    /// with, held back from the round that wrote it.
    private struct RoundState {
        var next = 0
        var carried: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var carriedOrigin: Int32 = -1
    }

    /// Folds scalars from `state.next` into `o` (and `g`) while their
    /// output surely fits in `room`; returns the bytes written.
    @inline(__always)
    private static func foldRound(
        _ text: UnsafeBufferPointer<UInt8>, state: inout RoundState, out o: UnsafeMutablePointer<UInt8>,
        origins g: UnsafeMutablePointer<Int32>?, room: Int
    ) -> Int {
        let tables = foldingTables
        let ascii = tables.ascii
        let pool = tables.pool
        let n = text.count
        let p = text.baseAddress!
        var i = state.next
        var w = 0
        if state.carriedOrigin >= 0 {
            (o[0], o[1], o[2]) = state.carried
            g?[0] = state.carriedOrigin
            g?[1] = state.carriedOrigin
            g?[2] = state.carriedOrigin
            w = 3
            state.carriedOrigin = -1
        }
        let limit = room - FoldingTables.maxFoldedLength - 4
        while i < n && w <= limit {
            if p[i] < 0x80 {
                // A run of ASCII, in a loop of its own so that it keeps its
                // few values in registers: one table load per byte.
                let end = min(n, i + (limit - w) + 1)
                repeat {
                    o[w] = ascii[p[i]]
                    g?[w] = Int32(truncatingIfNeeded: i)
                    w &+= 1
                    i &+= 1
                } while i < end && p[i] < 0x80
                continue
            }
            let origin = Int32(truncatingIfNeeded: i)
            let length = UTF8Bytes.sequenceLength(text, at: i, end: n)
            let scalar: UInt32
            if length == 0 {
                i += invalidSequenceLength(text, at: i)
                scalar = 0xFFFD
            } else {
                scalar = decode(p + i, length: length)
                i += length
            }
            // Conjoining jamo: a vowel after a leading consonant, or a
            // trailing consonant after a syllable without one, combine
            // with the scalar last written (whatever folded to nothing in
            // between), as canonical composition would.
            if scalar &- 0x1161 < 21, w >= 3, let l = hangulScalar(o + (w - 3)), l &- 0x1100 < 19 {
                writeHangul(0xAC00 + ((l - 0x1100) * 21 + (scalar - 0x1161)) * 28, at: o + (w - 3))
                continue
            }
            if scalar &- 0x11A8 < 27, w >= 3, let lv = hangulScalar(o + (w - 3)),
                lv &- 0xAC00 < 11172, (lv - 0xAC00) % 28 == 0
            {
                writeHangul(lv + (scalar - 0x11A7), at: o + (w - 3))
                continue
            }
            let entry = tables.entry(scalar)
            if entry & FoldingTables.changedBit != 0 {
                let count = Int(entry >> 3 & 63)
                let source = pool + Int(entry >> 9)
                if count <= 4 {
                    // Most mappings are one to four bytes: copy four, whatever
                    // the length (the pool is padded, and the round has room).
                    let bytes = UnsafeRawPointer(source).loadUnaligned(as: UInt32.self)
                    UnsafeMutableRawPointer(o + w).storeBytes(of: bytes, as: UInt32.self)
                    fillOrigins(g, at: w, with: origin)
                } else {
                    for k in 0..<count {
                        o[w &+ k] = source[k]
                        g?[w &+ k] = origin
                    }
                }
                w &+= count
            } else if length == 0 {
                (o[w], o[w &+ 1], o[w &+ 2]) = (0xEF, 0xBF, 0xBD)
                fillOrigins(g, at: w, with: origin)
                w &+= 3
            } else {
                let start = Int(origin)
                o[w] = p[start]
                o[w &+ 1] = p[start &+ 1]
                if length > 2 { o[w &+ 2] = p[start &+ 2] }
                if length > 3 { o[w &+ 3] = p[start &+ 3] }
                fillOrigins(g, at: w, with: origin)
                w &+= length
            }
        }
        state.next = i
        // A round that stops early holds back a final jamo or open syllable,
        // so the next round can still combine it with what follows.
        if i < n, w >= 3, let last = hangulScalar(o + (w - 3)),
            last &- 0x1100 < 19 || (last &- 0xAC00 < 11172 && (last - 0xAC00) % 28 == 0)
        {
            state.carried = (o[w - 3], o[w - 2], o[w - 1])
            state.carriedOrigin = g?[w - 3] ?? 0
            w -= 3
        }
        return w
    }

    /// Writes `origin` at four places from `w` (a scalar's output is at most
    /// four bytes on the paths that call this; the round has room for more).
    @inline(__always)
    private static func fillOrigins(_ g: UnsafeMutablePointer<Int32>?, at w: Int, with origin: Int32) {
        guard let g else { return }
        g[w] = origin
        g[w &+ 1] = origin
        g[w &+ 2] = origin
        g[w &+ 3] = origin
    }

    /// The scalar of a well-formed multi-byte sequence of `length` bytes.
    @inline(__always)
    private static func decode(_ s: UnsafePointer<UInt8>, length: Int) -> UInt32 {
        switch length {
        case 2: return UInt32(s[0] & 0x1F) << 6 | UInt32(s[1] & 0x3F)
        case 3: return UInt32(s[0] & 0x0F) << 12 | UInt32(s[1] & 0x3F) << 6 | UInt32(s[2] & 0x3F)
        default:
            return UInt32(s[0] & 0x07) << 18 | UInt32(s[1] & 0x3F) << 12 | UInt32(s[2] & 0x3F) << 6
                | UInt32(s[3] & 0x3F)
        }
    }

    /// The length of the maximal subpart of an ill-formed sequence at `i`
    /// (Unicode §3.9, "U+FFFD substitution of maximal subparts"): a lead
    /// byte and the continuation bytes that could still have followed it.
    /// This is how the standard library's decoder counts replacements.
    private static func invalidSequenceLength(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b0 = text[i]
        guard b0 >= 0xC2 && b0 <= 0xF4 else { return 1 }
        let needed = b0 < 0xE0 ? 1 : b0 < 0xF0 ? 2 : 3
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch b0 {
        case 0xE0: low = 0xA0
        case 0xED: high = 0x9F
        case 0xF0: low = 0x90
        case 0xF4: high = 0x8F
        default: break
        }
        guard i + 1 < text.count, text[i + 1] >= low && text[i + 1] <= high else { return 1 }
        var length = 2
        while length <= needed && i + length < text.count && text[i + length] & 0xC0 == 0x80 {
            length += 1
        }
        return length
    }

    /// The scalar encoded by three bytes at `s` if they are a Hangul
    /// jamo or syllable (U+1100..<U+1200, U+AC00..<U+D7A4), else `nil`.
    @inline(__always)
    private static func hangulScalar(_ s: UnsafePointer<UInt8>) -> UInt32? {
        let b0 = s[0]
        guard b0 == 0xE1 || (b0 >= 0xEA && b0 <= 0xED) else { return nil }
        guard s[1] & 0xC0 == 0x80, s[2] & 0xC0 == 0x80 else { return nil }
        return UInt32(b0 & 0x0F) << 12 | UInt32(s[1] & 0x3F) << 6 | UInt32(s[2] & 0x3F)
    }

    @inline(__always)
    private static func writeHangul(_ scalar: UInt32, at s: UnsafeMutablePointer<UInt8>) {
        s[0] = 0xE0 | UInt8(scalar >> 12)
        s[1] = 0x80 | UInt8(scalar >> 6 & 0x3F)
        s[2] = 0x80 | UInt8(scalar & 0x3F)
    }
}
