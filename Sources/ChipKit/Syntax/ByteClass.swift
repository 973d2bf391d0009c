// Byte classes for RFC 5322 address syntax, as tables indexed by byte.
//
// All delimiters are ASCII, and an ASCII byte never occurs inside a
// multi-byte UTF-8 sequence, so classifying raw bytes is exact.

/// What a byte means to the list scanner at the top level of a chip.
///
/// Every byte that does not change the scanner's state is `plain`, so the
/// hot loop can skip runs of them with one table look-up per byte.
@usableFromInline
enum ScanClass: UInt8, Sendable {
    case plain = 0
    case space       // SP, HTAB
    case lineBreak   // CR, LF
    case comma
    case semicolon
    case quote
    case openParen
    case openAngle
    case closeAngle
    case at
    case colon
    case openBracket
}

@usableFromInline
let scanClassTable: [ScanClass] = {
    var table = [ScanClass](repeating: .plain, count: 256)
    table[0x20] = .space
    table[0x09] = .space
    table[0x0D] = .lineBreak
    table[0x0A] = .lineBreak
    table[Int(UInt8(ascii: ","))] = .comma
    table[Int(UInt8(ascii: ";"))] = .semicolon
    table[Int(UInt8(ascii: "\""))] = .quote
    table[Int(UInt8(ascii: "("))] = .openParen
    table[Int(UInt8(ascii: "<"))] = .openAngle
    table[Int(UInt8(ascii: ">"))] = .closeAngle
    table[Int(UInt8(ascii: "@"))] = .at
    table[Int(UInt8(ascii: ":"))] = .colon
    table[Int(UInt8(ascii: "["))] = .openBracket
    return table
}()

/// The bytes that end a run of plain text inside each nested context of
/// the list scanner, as bits of one table: everything else is skipped in a
/// tight loop. Line breaks stop every context (they may end the chip).
enum ScanStop {
    static let quote: UInt8 = 1
    static let comment: UInt8 = 2
    static let literal: UInt8 = 4
    static let angle: UInt8 = 8

    static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        for b in [0x0A, 0x0D] { t[b] = quote | comment | literal | angle }
        t[Int(UInt8(ascii: "\\"))] |= quote | comment | literal
        t[Int(UInt8(ascii: "\""))] |= quote | angle
        t[Int(UInt8(ascii: "("))] |= comment | angle
        t[Int(UInt8(ascii: ")"))] |= comment
        t[Int(UInt8(ascii: "]"))] |= literal
        t[Int(UInt8(ascii: ">"))] |= angle
        t[Int(UInt8(ascii: "["))] |= angle
        return t
    }()
}

/// Character classes of RFC 5322 §3.2.3, extended to UTF-8 by RFC 6532 §3.2.
enum ByteClass {
    /// `atext` (RFC 5322 §3.2.3): letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    /// Bytes 0x80–0xFF are treated as `atext` here (RFC 6532 `UTF8-non-ascii`);
    /// whether they form valid UTF-8 is checked separately.
    static let atext: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(b)] = true }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(b)] = true }
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(b)] = true }
        for b in "!#$%&'*+-/=?^_`{|}~".utf8 { table[Int(b)] = true }
        for b in 0x80...0xFF { table[b] = true }
        return table
    }()

    @inline(__always)
    static func isControl(_ b: UInt8) -> Bool {
        (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F
    }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    @inline(__always)
    static func isLineBreak(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

    @inline(__always)
    static func isLetterOrDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inline(__always)
    static func lowercased(_ b: UInt8) -> UInt8 {
        (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b
    }
}

/// UTF-8 well-formedness (RFC 3629), checked on raw bytes.
public enum UTF8Bytes {
    /// The length of the well-formed UTF-8 sequence starting at `i`, or 0
    /// if the bytes there are not one (overlong forms, surrogates and code
    /// points above U+10FFFF are rejected).
    @inline(__always)
    public static func sequenceLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int {
        let b0 = p[i]
        if b0 < 0x80 { return 1 }
        if b0 < 0xC2 { return 0 }
        if b0 < 0xE0 {
            guard i + 1 < end, p[i + 1] & 0xC0 == 0x80 else { return 0 }
            return 2
        }
        if b0 < 0xF0 {
            guard i + 2 < end else { return 0 }
            let b1 = p[i + 1], b2 = p[i + 2]
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return 0 }
            if b0 == 0xE0 && b1 < 0xA0 { return 0 }   // overlong
            if b0 == 0xED && b1 >= 0xA0 { return 0 }  // surrogates
            return 3
        }
        if b0 < 0xF5 {
            guard i + 3 < end else { return 0 }
            let b1 = p[i + 1], b2 = p[i + 2], b3 = p[i + 3]
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return 0 }
            if b0 == 0xF0 && b1 < 0x90 { return 0 }   // overlong
            if b0 == 0xF4 && b1 >= 0x90 { return 0 }  // above U+10FFFF
            return 4
        }
        return 0
    }

    /// The offset of the first byte that is not part of well-formed UTF-8
    /// in `range`, or nil when all of it is well-formed.
    public static func firstInvalid(_ p: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            if p[i] < 0x80 { i += 1; continue }
            let n = sequenceLength(p, at: i, end: end)
            if n == 0 { return i }
            i += n
        }
        return nil
    }
}
