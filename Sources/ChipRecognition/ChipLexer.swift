import ChipSyntax

/// The lexical units of one chip's text (RFC 5322 §3.2).
struct Lexeme: Sendable, Hashable {
    enum Kind: UInt8, Sendable {
        case atom       // 1*atext (UTF-8 allowed, RFC 6532)
        case quoted     // "…", quotes included
        case comment    // (…), parentheses included, nesting resolved
        case literal    // […], brackets included
        case space      // a run of WSP and line breaks
        case dot, at, openAngle, closeAngle, comma, colon, semicolon
        case other      // a byte that cannot start any unit
    }

    struct Flags: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        /// Holds a quoted-pair (`\x`).
        static let escapes = Flags(rawValue: 1 << 0)
        /// Not closed before the end of the chip.
        static let unterminated = Flags(rawValue: 1 << 1)
        /// Holds bytes ≥ 0x80.
        static let nonASCII = Flags(rawValue: 1 << 2)
        /// Holds a line break (folding).
        static let lineBreak = Flags(rawValue: 1 << 3)
        /// Holds an obsolete form (quoted-pair in a literal).
        static let obsolete = Flags(rawValue: 1 << 4)
        /// A full-width `＠` (U+FF20) that an input method typed for `@`.
        static let fullWidth = Flags(rawValue: 1 << 5)
    }

    var kind: Kind
    var flags: Flags
    var start: Int
    var end: Int

    var range: Range<Int> { start..<end }
    /// The inside of a quoted string, comment or literal (empty for any
    /// other lexeme).
    var innerRange: Range<Int> {
        guard kind == .quoted || kind == .comment || kind == .literal, end > start else { return end..<end }
        let closed = !flags.contains(.unterminated)
        return (start + 1)..<max(start + 1, closed ? end - 1 : end)
    }
}

/// The first problem found while lexing, by precedence then position.
struct Problem: Sendable, Hashable {
    var error: ChipError
    /// Byte offset of the problem within the scanned bytes.
    var offset: Int

    /// Keeps the more important of two problems: the one of higher
    /// precedence, or at the same precedence the earlier one.
    static func pick(_ a: Problem?, _ b: Problem) -> Problem {
        guard let a else { return b }
        if b.error.kind.rawValue < a.error.kind.rawValue { return b }
        return a
    }
}

/// Splits one chip's bytes into lexemes. Iterative: nested comments are a
/// depth counter, so no input can grow the stack.
enum ChipLexer {
    /// The kind of the last lexeme that is not white space or a comment.
    @inline(__always)
    static func lastSignificant(_ lexemes: [Lexeme]) -> Lexeme.Kind? {
        var k = lexemes.count - 1
        while k >= 0 && (lexemes[k].kind == .space || lexemes[k].kind == .comment) { k -= 1 }
        return k >= 0 ? lexemes[k].kind : nil
    }

    /// Whether the bytes at `i` are U+FF20 FULLWIDTH COMMERCIAL AT.
    @inline(__always)
    static func isFullWidthAt(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Bool {
        i + 2 < end && p[i + 1] == 0xBC && p[i + 2] == 0xA0
    }

    /// Appends the lexemes of `p[range]` to `out` and returns the most
    /// important lexical problem, if any.
    ///
    /// - Complexity: O(*n*) in the length of the range.
    static func lex(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Lexeme]
    ) -> Problem? {
        var problem: Problem?
        var i = range.lowerBound
        let end = range.upperBound
        let atext = ByteClass.atext
        do {
            while i < end {
                let b = p[i]
                let start = i
                if b == 0xEF && isFullWidthAt(p, i, end) {
                    out.append(Lexeme(kind: .at, flags: [.fullWidth], start: i, end: i + 3))
                    i += 3
                    continue
                }
                if atext[b] != 0 {
                    var flags: Lexeme.Flags = []
                    while i < end {
                        let c = p[i]
                        if c < 0x80 {
                            if atext[c] == 0 { break }
                            i += 1
                        } else {
                            if c == 0xEF && isFullWidthAt(p, i, end) { break }
                            flags.insert(.nonASCII)
                            let n = UTF8Bytes.sequenceLength(p, at: i, end: end)
                            if n == 0 {
                                problem = Problem.pick(problem, Problem(error: .invalidUTF8, offset: i))
                                i += 1
                            } else {
                                i += n
                            }
                        }
                    }
                    out.append(Lexeme(kind: .atom, flags: flags, start: start, end: i))
                    continue
                }
                switch b {
                case ASCII.space, ASCII.tab, ASCII.carriageReturn, ASCII.lineFeed:
                    var flags: Lexeme.Flags = []
                    // 0: no line break yet; 1: just after one; 2: after one
                    // and white space, so a second break means a line of
                    // white space only (obs-FWS, RFC 5322 §4.2).
                    var lineState = 0
                    while i < end {
                        let c = p[i]
                        if c == ASCII.space || c == ASCII.tab {
                            if lineState == 1 { lineState = 2 }
                            i += 1
                        } else if c == ASCII.carriageReturn || c == ASCII.lineFeed {
                            flags.insert(.lineBreak)
                            if lineState == 2 { flags.insert(.obsolete) }
                            if !(c == ASCII.lineFeed && i > start && p[i - 1] == ASCII.carriageReturn) { lineState = 1 }
                            i += 1
                        } else {
                            break
                        }
                    }
                    out.append(Lexeme(kind: .space, flags: flags, start: start, end: i))
                case UInt8(ascii: "\""):
                    i += 1
                    var flags: Lexeme.Flags = [.unterminated]
                    while i < end {
                        let c = p[i]
                        if c == UInt8(ascii: "\"") {
                            i += 1
                            flags.remove(.unterminated)
                            break
                        }
                        i = inspectEnclosed(p, at: i, end: end, flags: &flags, problem: &problem)
                    }
                    if flags.contains(.unterminated) {
                        problem = Problem.pick(problem, Problem(error: .unterminatedQuote, offset: start))
                    }
                    out.append(Lexeme(kind: .quoted, flags: flags, start: start, end: i))
                case UInt8(ascii: "("):
                    i += 1
                    var depth = 1
                    var flags: Lexeme.Flags = [.unterminated]
                    while i < end {
                        let c = p[i]
                        if c == UInt8(ascii: "(") {
                            depth += 1
                            i += 1
                        } else if c == UInt8(ascii: ")") {
                            depth -= 1
                            i += 1
                            if depth == 0 {
                                flags.remove(.unterminated)
                                break
                            }
                        } else {
                            i = inspectEnclosed(p, at: i, end: end, flags: &flags, problem: &problem)
                        }
                    }
                    if flags.contains(.unterminated) {
                        problem = Problem.pick(problem, Problem(error: .unbalancedComment, offset: start))
                    }
                    out.append(Lexeme(kind: .comment, flags: flags, start: start, end: i))
                case UInt8(ascii: "[") where ChipLexer.lastSignificant(out) == .at:
                    // A domain literal is the whole domain: only after `@`
                    // (CFWS between allowed). Elsewhere `[` is a stray byte.
                    i += 1
                    var flags: Lexeme.Flags = [.unterminated]
                    while i < end {
                        let c = p[i]
                        if c == UInt8(ascii: "]") {
                            i += 1
                            flags.remove(.unterminated)
                            break
                        }
                        if c == UInt8(ascii: "[") {
                            problem = Problem.pick(problem, Problem(error: .invalidCharacter, offset: i))
                            i += 1
                            continue
                        }
                        if c == UInt8(ascii: "\\") { flags.insert(.obsolete) }
                        i = inspectEnclosed(p, at: i, end: end, flags: &flags, problem: &problem)
                    }
                    if flags.contains(.unterminated) {
                        problem = Problem.pick(problem, Problem(error: .unterminatedDomainLiteral, offset: start))
                    }
                    out.append(Lexeme(kind: .literal, flags: flags, start: start, end: i))
                default:
                    let kind: Lexeme.Kind
                    switch b {
                    case UInt8(ascii: "."): kind = .dot
                    case UInt8(ascii: "@"): kind = .at
                    case UInt8(ascii: "<"): kind = .openAngle
                    case UInt8(ascii: ">"): kind = .closeAngle
                    case UInt8(ascii: ","): kind = .comma
                    case UInt8(ascii: ":"): kind = .colon
                    case UInt8(ascii: ";"): kind = .semicolon
                    default:
                        kind = .other
                        // `)`, `]`, `[` not after `@`, `\` and control characters.
                        let error: ChipError = b == UInt8(ascii: ")") ? .unbalancedComment : .invalidCharacter
                        problem = Problem.pick(problem, Problem(error: error, offset: i))
                    }
                    i += 1
                    out.append(Lexeme(kind: kind, flags: [], start: start, end: i))
                }
            }
        }
        return problem
    }

    /// Steps over one unit inside a quoted string, comment or literal:
    /// a quoted-pair, a UTF-8 sequence, or a byte; notes problems.
    @inline(__always)
    static func inspectEnclosed(
        _ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int,
        flags: inout Lexeme.Flags, problem: inout Problem?
    ) -> Int {
        let c = p[i]
        if c == UInt8(ascii: "\\") {
            flags.insert(.escapes)
            guard i + 1 < end else { return i + 1 }
            let d = p[i + 1]
            if d < 0x80 {
                if ByteClass.isControl(d) || ByteClass.isLineBreak(d) {
                    problem = Problem.pick(problem, Problem(error: .invalidCharacter, offset: i + 1))
                }
                return i + 2
            }
            flags.insert(.nonASCII)
            let n = UTF8Bytes.sequenceLength(p, at: i + 1, end: end)
            if n == 0 {
                problem = Problem.pick(problem, Problem(error: .invalidUTF8, offset: i + 1))
                return i + 2
            }
            return i + 1 + n
        }
        if c < 0x80 {
            if ByteClass.isControl(c) {
                problem = Problem.pick(problem, Problem(error: .invalidCharacter, offset: i))
            } else if ByteClass.isLineBreak(c) {
                flags.insert(.lineBreak)
            }
            return i + 1
        }
        flags.insert(.nonASCII)
        let n = UTF8Bytes.sequenceLength(p, at: i, end: end)
        if n == 0 {
            problem = Problem.pick(problem, Problem(error: .invalidUTF8, offset: i))
            return i + 1
        }
        return i + n
    }
}
