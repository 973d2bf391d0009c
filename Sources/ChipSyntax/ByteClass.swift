// Byte classes for RFC 5322 address syntax, as tables indexed by byte.
//
// All delimiters are ASCII, and an ASCII byte never occurs inside a
// multi-byte UTF-8 sequence, so classifying raw bytes is exact.

/// A 256-entry table indexed by byte, built once and never changed or freed.
///
/// Hot loops on several threads read these tables for every byte. A global
/// `[UInt8]` would be retained and released around each use, and those
/// atomic updates of one shared reference count stop threads from scaling;
/// a plain pointer costs nothing to share.
@frozen @usableFromInline package struct ByteTable: @unchecked Sendable {
    // `@unchecked Sendable` is safe: the storage is written only in `init`,
    // before the value can be shared, and is never written or freed after.
    @usableFromInline package let base: UnsafePointer<UInt8>

    package init(_ value: (Int) -> UInt8) {
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 { storage[b] = value(b) }
        base = UnsafePointer(storage)
    }

    @inlinable @inline(__always)
    package subscript(_ byte: UInt8) -> UInt8 { base[Int(byte)] }
}

/// What a byte means to the list scanner at the top level of a chip.
///
/// Every byte that does not change the scanner's state is `plain`, so the
/// hot loop can skip runs of them with one table look-up per byte.
package enum ScanClass: UInt8, Sendable {
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
    /// 0xEF: the first byte of a BOM (EF BB BF) or of a full-width `＠`
    /// (EF BC A0), both of which matter where they stand.
    case leadEF
}

package let scanClassTable = ByteTable { b in
    let cls: ScanClass
    switch UInt8(b) {
    case ASCII.space, ASCII.tab: cls = .space
    case ASCII.carriageReturn, ASCII.lineFeed: cls = .lineBreak
    case UInt8(ascii: ","): cls = .comma
    case UInt8(ascii: ";"): cls = .semicolon
    case UInt8(ascii: "\""): cls = .quote
    case UInt8(ascii: "("): cls = .openParen
    case UInt8(ascii: "<"): cls = .openAngle
    case UInt8(ascii: ">"): cls = .closeAngle
    case UInt8(ascii: "@"): cls = .at
    case UInt8(ascii: ":"): cls = .colon
    case UInt8(ascii: "["): cls = .openBracket
    case 0xEF: cls = .leadEF
    default: cls = .plain
    }
    return cls.rawValue
}

/// The bytes that end a run of plain text inside each nested context of
/// the list scanner, as bits of one table: everything else is skipped in a
/// tight loop. Line breaks stop every context (they may end the chip).
package enum ScanStop {
    package static let quote: UInt8 = 1
    package static let comment: UInt8 = 2
    package static let literal: UInt8 = 4
    package static let angle: UInt8 = 8
    /// `,` and `;`: looked at inside a construct only until the first one
    /// after its opener, where an unclosed construct's chip would end.
    package static let separator: UInt8 = 16

    package static let table = ByteTable { b in
        switch UInt8(b) {
        case UInt8(ascii: ","), UInt8(ascii: ";"): separator
        case ASCII.lineFeed, ASCII.carriageReturn: quote | comment | literal | angle
        case UInt8(ascii: "\\"): quote | comment | literal
        case UInt8(ascii: "\""): quote | angle
        case UInt8(ascii: "("): comment | angle
        case UInt8(ascii: ")"): comment
        case UInt8(ascii: "]"): literal
        case UInt8(ascii: ">"), UInt8(ascii: "["): angle
        default: 0
        }
    }
}

/// Character classes of RFC 5322 §3.2.3, extended to UTF-8 by RFC 6532 §3.2.
@usableFromInline package enum ByteClass {
    /// `atext` (RFC 5322 §3.2.3): letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    /// Bytes 0x80–0xFF are treated as `atext` here (RFC 6532 `UTF8-non-ascii`);
    /// whether they form valid UTF-8 is checked separately.
    /// Non-zero for `atext`.
    package static let atext = ByteTable { b in
        if b >= 0x80 || isLetterOrDigit(UInt8(b)) { return 1 }
        return "!#$%&'*+-/=?^_`{|}~".utf8.contains(UInt8(b)) ? 1 : 0
    }

    @inlinable @inline(__always)
    package static func isControl(_ b: UInt8) -> Bool {
        (b < 0x20 && b != ASCII.tab && b != ASCII.lineFeed && b != ASCII.carriageReturn) || b == 0x7F
    }

    @inlinable @inline(__always)
    package static func isSpace(_ b: UInt8) -> Bool { b == ASCII.space || b == ASCII.tab }

    @inlinable @inline(__always)
    package static func isLineBreak(_ b: UInt8) -> Bool { b == ASCII.lineFeed || b == ASCII.carriageReturn }

    @inlinable @inline(__always)
    package static func isLetterOrDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | ASCII.caseBit) >= 0x61 && (b | ASCII.caseBit) <= 0x7A)
    }

    @inlinable @inline(__always)
    package static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inlinable @inline(__always)
    package static func lowercased(_ b: UInt8) -> UInt8 {
        (b >= 0x41 && b <= 0x5A) ? b | ASCII.caseBit : b
    }
}

/// UTF-8 well-formedness (RFC 3629), checked on raw bytes.
@usableFromInline package enum UTF8Bytes {
    /// The length of the well-formed UTF-8 sequence starting at `i`, or 0
    /// if the bytes there are not one (overlong forms, surrogates and code
    /// points above U+10FFFF are rejected).
    @inlinable @inline(__always)
    package static func sequenceLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int {
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

    /// The scalar of a multi-byte sequence (its lead byte 0xC0 or above)
    /// in bytes known to be well-formed UTF-8, and its length.
    @inlinable @inline(__always)
    package static func decodeWellFormed(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: UInt32, length: Int) {
        let b0 = p[i]
        if b0 < 0xE0 { return (UInt32(b0 & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F), 2) }
        if b0 < 0xF0 {
            return (UInt32(b0 & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F), 3)
        }
        let high = UInt32(b0 & 0x07) << 18 | UInt32(p[i + 1] & 0x3F) << 12
        return (high | UInt32(p[i + 2] & 0x3F) << 6 | UInt32(p[i + 3] & 0x3F), 4)
    }
}
