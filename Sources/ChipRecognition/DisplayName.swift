import ChipSyntax

/// Decoding display names: quotes removed, escapes resolved, RFC 2047
/// encoded words decoded, white space folded to single spaces and trimmed.
/// Control characters never come out (they fold to a space or are dropped),
/// so a decoded name is safe to show and to put back in a header.
enum DisplayName {
    /// Builds a name piece by piece, folding white space and joining
    /// adjacent encoded words (RFC 2047 §6.2: white space between them is
    /// not part of the text).
    struct Writer {
        var out: [UInt8]
        let start: Int
        var pendingSpace = false
        var previousWasEncoded = false
        /// Encoded words decoded and not yet converted to UTF-8.
        var pending: EncodedWord.Pending
        var warnings: ChipWarnings = []

        init(out: consuming [UInt8], pending: EncodedWord.Pending) {
            self.out = out
            self.start = self.out.count
            self.pending = pending
        }

        var hasText: Bool { out.count > start || !pending.isEmpty }

        mutating func space() {
            if hasText { pendingSpace = true }
        }

        mutating func flushEncoded() {
            guard !pending.isEmpty else { return }
            // Words of one charset are joined before conversion, because
            // senders split multi-byte characters across words; except in a
            // stateful charset (ISO-2022-JP), where each word must end back
            // in ASCII (RFC 1468) and joining would put two escape
            // sequences side by side, an error to its decoder. A word's
            // bytes follow the word before's, so a run is a range.
            let first = out.count
            var runStart = 0, runEnd = 0
            var charset = pending.words[0].charset
            for k in 0..<pending.wordCount {
                let word = pending.words[k]
                if word.charset != charset || (charset.isStateful && runEnd > runStart) {
                    EncodedWord.appendUTF8(pending.run(runStart, runEnd), charset: charset, into: &out)
                    runStart = runEnd
                    charset = word.charset
                }
                runEnd = word.end
            }
            EncodedWord.appendUTF8(pending.run(runStart, runEnd), charset: charset, into: &out)
            // A name does not start with a space a word decoded to (a
            // control it held, or its own), whichever charset's run wrote it.
            if first == start && out.count > start && out[start] == ASCII.space { out.remove(at: start) }
            pending.byteCount = 0
            pending.wordCount = 0
        }

        /// Before text that is not encoded: the words pending, then the
        /// space that stood between.
        mutating func beginText() {
            flushEncoded()
            if pendingSpace { out.append(ASCII.space) }
            pendingSpace = false
            previousWasEncoded = false
        }

        /// After an atom's encoded words were added to `pending`: the space
        /// before them, unless they follow encoded words (RFC 2047 §6.2
        /// joins those). Words stay pending only after encoded text, so
        /// after other text there are none to write before the space.
        mutating func beginEncoded() {
            if pendingSpace && !previousWasEncoded { out.append(ASCII.space) }
            pendingSpace = false
            previousWasEncoded = true
        }

        /// Appends literal text, folding white space and dropping controls.
        mutating func text(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, unescape: Bool) {
            var i = range.lowerBound
            var space = false
            while i < range.upperBound {
                var b = p[i]
                if unescape && b == UInt8(ascii: "\\") && i + 1 < range.upperBound {
                    i += 1
                    b = p[i]
                }
                if b == ASCII.space || b == ASCII.tab || b == ASCII.lineFeed || b == ASCII.carriageReturn {
                    space = true
                } else if b < 0x20 || b == 0x7F {
                    // dropped
                } else {
                    if space && out.count > start { out.append(ASCII.space) }
                    space = false
                    out.append(b)
                }
                i += 1
            }
            if space { pendingSpace = out.count > start }
        }

        mutating func atom(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            switch EncodedWord.decode(p, range, into: &pending) {
            case .decoded:
                beginEncoded()
            case .undecodable:
                warnings.insert(.undecodedEncodedWord)
                beginText()
                text(p, range, unescape: false)
            case .notEncoded:
                beginText()
                text(p, range, unescape: false)
            }
        }

        mutating func finish() -> [UInt8] {
            flushEncoded()
            while out.count > start && out[out.count - 1] == ASCII.space { out.removeLast() }
            return out
        }
    }

    /// Appends a phrase that needs no lexing, as ``appendPhrase(_:_:into:)``
    /// would decode it, and returns true; returns false (appending
    /// nothing) for any other. Such a phrase is unquoted words of `atext`,
    /// dots and bytes of 0x80 and above with no `=?` (which may start an
    /// encoded word), or one quoted string of printable text and
    /// quoted-pairs of printable ASCII but space (`\"`, `\\`, whose
    /// backslash goes); white space (space, tab) folds to single spaces
    /// and is trimmed. Most display names are one or the other.
    ///
    /// - Complexity: O(*n*) in the phrase's length.
    static func appendPlain(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        var lo = range.lowerBound, hi = range.upperBound
        let quoted = hi - lo >= 2 && p[lo] == ASCII.quote && p[hi - 1] == ASCII.quote
        if quoted {
            lo += 1
            hi -= 1
        }
        let table = PlainPhrase.table
        // First: is it plain, and is its white space already single spaces
        // between words (then it is appended whole)?
        var folded = true
        var escapes = false
        var previousSpace = true
        var i = lo
        while i < hi {
            let c = p[i]
            if c == ASCII.space || c == ASCII.tab {
                if previousSpace || c == ASCII.tab { folded = false }
                previousSpace = true
                i += 1
                continue
            }
            previousSpace = false
            if quoted && c == ASCII.backslash {
                // A quoted-pair of a printable byte, which stands for that
                // byte (an escaped space or control folds or goes: the
                // lexer's path writes those).
                guard i + 1 < hi, p[i + 1] > 0x20, p[i + 1] < 0x7F else { return false }
                escapes = true
                i += 2
                continue
            }
            let plain = c >= 0x80
                || (quoted ? c >= 0x20 && c != 0x7F && c != ASCII.quote && c != ASCII.backslash
                           : table[c] != 0 && !(c == ASCII.equals && i + 1 < hi && p[i + 1] == ASCII.question))
            guard plain else { return false }
            i += 1
        }
        if previousSpace && hi > lo { folded = false }
        if folded && !escapes {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[lo..<hi]))
            return true
        }
        if folded {
            // Single spaces already: the bytes with each pair's backslash
            // dropped, appended whole and closed up in place (a pair's
            // byte is never a space, and `\\` leaves one backslash).
            let start = out.count
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[lo..<hi]))
            let end = out.withUnsafeMutableBufferPointer { b -> Int in
                var w = start, r = start
                while r < b.count {
                    if b[r] == ASCII.backslash { r += 1 }
                    b[w] = b[r]
                    w += 1
                    r += 1
                }
                return w
            }
            out.removeLast(out.count - end)
            return true
        }
        // Then the words, one space between them.
        let start = out.count
        i = lo
        var pendingSpace = false
        while i < hi {
            if p[i] == ASCII.space || p[i] == ASCII.tab {
                pendingSpace = out.count > start
                i += 1
                continue
            }
            var j = i + 1
            while j < hi && p[j] != ASCII.space && p[j] != ASCII.tab { j += 1 }
            if pendingSpace { out.append(ASCII.space) }
            pendingSpace = false
            if escapes {
                appendUnescaped(p, i..<j, into: &out)
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<j]))
            }
            i = j
        }
        return true
    }

    /// A word of a quoted string whose quoted-pairs are of printable
    /// bytes: each pair's backslash goes, the byte it escapes stays.
    /// The runs between backslashes go in whole (a run starts with the
    /// byte a backslash escapes).
    static func appendUnescaped(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) {
        var run = range.lowerBound, i = range.lowerBound
        while i < range.upperBound {
            if p[i] == ASCII.backslash {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[run..<i]))
                run = i + 1
                i += 2
            } else {
                i += 1
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[run..<range.upperBound]))
    }

    /// The ASCII bytes of an unquoted plain phrase: `atext` and `.`.
    enum PlainPhrase {
        static let table = ByteTable { b in
            b < 0x80 && (ByteClass.atext[UInt8(b)] != 0 || b == 0x2E) ? 1 : 0
        }
    }

    static func appendPhrase(
        _ p: UnsafeBufferPointer<UInt8>, _ lexemes: UnsafeBufferPointer<Lexeme>, into out: inout [UInt8]
    ) -> ChipWarnings {
        let length = lexemes.isEmpty ? 0 : lexemes[lexemes.count - 1].end - lexemes[0].start
        return EncodedWord.Pending.with(phraseLength: length) { pending in
            var w = Writer(out: out, pending: pending)
            out = []
            for l in lexemes {
                switch l.kind {
                case .space, .comment:
                    w.space()
                case .atom:
                    w.atom(p, l.range)
                case .quoted:
                    w.beginText()
                    w.text(p, l.innerRange, unescape: true)
                default:
                    w.beginText()
                    w.text(p, l.range, unescape: false)
                }
            }
            let warnings = w.warnings
            out = w.finish()
            return warnings
        }
    }

    /// Appends the text of a comment (parentheses excluded), decoding
    /// encoded words in it (RFC 2047 §5(2) allows them in comments).
    static func appendComment(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]
    ) -> ChipWarnings {
        EncodedWord.Pending.with(phraseLength: range.count) { pending in
            appendComment(p, range, pending, into: &out)
        }
    }

    static func appendComment(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ pending: EncodedWord.Pending, into out: inout [UInt8]
    ) -> ChipWarnings {
        var w = Writer(out: out, pending: pending)
        out = []
        var lo = range.lowerBound, hi = range.upperBound
        if lo < hi && p[lo] == UInt8(ascii: "(") { lo += 1 }
        if hi > lo && p[hi - 1] == UInt8(ascii: ")") { hi -= 1 }
        // Words are runs of non-white-space; each may be an encoded word.
        var i = lo
        while i < hi {
            let b = p[i]
            if b == ASCII.space || b == ASCII.tab || b == ASCII.lineFeed || b == ASCII.carriageReturn {
                w.space()
                i += 1
                continue
            }
            var j = i
            while j < hi {
                let c = p[j]
                if c == ASCII.space || c == ASCII.tab || c == ASCII.lineFeed || c == ASCII.carriageReturn { break }
                if c == UInt8(ascii: "\\") && j + 1 < hi { j += 1 }
                j += 1
            }
            switch EncodedWord.decode(p, i..<j, into: &w.pending) {
            case .decoded:
                w.beginEncoded()
            case .undecodable:
                w.warnings.insert(.undecodedEncodedWord)
                w.beginText()
                w.text(p, i..<j, unescape: true)
            case .notEncoded:
                w.beginText()
                w.text(p, i..<j, unescape: true)
            }
            i = j
        }
        let warnings = w.warnings
        out = w.finish()
        return warnings
    }
}
