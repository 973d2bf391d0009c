// Character encodings, found by label as the WHATWG Encoding Standard finds
// them, and decoded to Unicode scalars as its decoders decode them.

/// A character encoding that text can be decoded from: every encoding of
/// the WHATWG Encoding Standard.
///
/// Labels are matched as the standard matches them: ASCII
/// case-insensitively, after trimming ASCII white space, so `latin1`,
/// `ISO-8859-1` and `us-ascii` all name windows-1252, and `gb2312` names
/// GBK, as they do in every browser and in most mail clients. The labels,
/// names and indexes are generated from the standard's data
/// (`CharsetTables.swift`, by `Scripts/generate-charset-tables.py`).
///
/// Invariants:
/// 1. Every label of the standard names exactly one case, and no other
///    string names any.
/// 2. Each single-byte encoding (IBM866 … x-mac-cyrillic) has a
///    ``singleByteSlot``; no other case has one.
package enum Charset: Sendable, Hashable, CaseIterable {
    case utf8
    // Legacy single-byte encodings.
    case ibm866
    case iso8859_2
    case iso8859_3
    case iso8859_4
    case iso8859_5
    case iso8859_6
    case iso8859_7
    case iso8859_8
    /// ISO-8859-8 in logical order: decodes exactly as ``iso8859_8``.
    case iso8859_8i
    case iso8859_10
    case iso8859_13
    case iso8859_14
    case iso8859_15
    case iso8859_16
    case koi8R
    case koi8U
    case macintosh
    case windows874
    case windows1250
    case windows1251
    case windows1252
    case windows1253
    case windows1254
    case windows1255
    case windows1256
    case windows1257
    case windows1258
    case xMacCyrillic
    // Legacy multi-byte encodings.
    /// Decodes as ``gb18030`` (the standard's GBK differs only in encoding).
    case gbk
    case gb18030
    case big5
    case eucJP
    case iso2022JP
    case shiftJIS
    case eucKR
    // Legacy miscellaneous encodings.
    /// The labels of encodings that were used in attacks
    /// (`iso-2022-kr`, `hz-gb-2312`, …): any non-empty input decodes to
    /// one U+FFFD.
    case replacement
    case utf16BE
    case utf16LE
    /// Bytes 0x80–0xFF to the Private Use code points U+F780–U+F7FF.
    case xUserDefined

    /// The encoding a label names, or `nil` for a label the standard does
    /// not know. An RFC 2231 language suffix (`utf-8*en`) is ignored.
    ///
    /// - Complexity: O(*n*) in the label's length.
    package init?(label: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var end = label.count
        if let star = label.firstIndex(of: UInt8(ascii: "*")) { end = star }
        while start < end && Charset.isLabelSpace(label[start]) { start += 1 }
        while end > start && Charset.isLabelSpace(label[end - 1]) { end -= 1 }
        guard end > start, end - start <= Charset.longestLabel else { return nil }
        if let common = Charset.commonLabel(UnsafeBufferPointer(rebasing: label[start..<end])) {
            self = common
            return
        }
        // At most `longestLabel` bytes: short enough that the lowered copy
        // is usually a small string, stored without allocating.
        let lowered = String(unsafeUninitializedCapacity: end - start, initializingUTF8With: { buffer in
            for i in start..<end { buffer[i - start] = ByteClass.lowercased(label[i]) }
            return end - start
        })
        guard let found = Charset.byLabel(lowered) else { return nil }
        self = found
    }

    /// The encoding a label names (see ``init(label:)-(UnsafeBufferPointer<UInt8>)``).
    package init?(label: String) {
        var label = label
        guard let found = label.withUTF8({ Charset(label: $0) }) else { return nil }
        self = found
    }

    /// Whether the meaning of a byte depends on escape sequences before it.
    ///
    /// Only ISO-2022-JP: text in it must return to ASCII at its end, so
    /// two texts cannot be joined before decoding (an escape to ASCII
    /// followed at once by an escape out of it is an error there).
    package var isStateful: Bool { self == .iso2022JP }

    /// The labels mail uses most (`utf-8`, `iso-8859-1`, `us-ascii`,
    /// `windows-1252`, `iso-8859-15`), matched on their bytes, case
    /// ignored, before the table's switch over strings; nil for others.
    package static func commonLabel(_ label: UnsafeBufferPointer<UInt8>) -> Charset? {
        func matches(_ name: StaticString) -> Bool {
            guard label.count == name.utf8CodeUnitCount else { return false }
            let bytes = name.utf8Start
            for i in 0..<label.count where ByteClass.lowercased(label[i]) != bytes[i] { return false }
            return true
        }
        switch label.count {
        case 5: return matches("utf-8") ? .utf8 : nil
        case 8: return matches("us-ascii") ? .windows1252 : nil
        case 10: return matches("iso-8859-1") ? .windows1252 : nil
        case 11: return matches("iso-8859-15") ? .iso8859_15 : nil
        case 12: return matches("windows-1252") ? .windows1252 : nil
        default: return nil
        }
    }

    static func isLabelSpace(_ b: UInt8) -> Bool {
        b == ASCII.space || b == ASCII.tab || b == ASCII.lineFeed || b == ASCII.carriageReturn || b == 0x0C
    }

    /// Decodes `bytes`, calling `scalar` with each Unicode scalar value in
    /// order. A byte sequence the encoding does not define gives U+FFFD, as
    /// the standard's decoders do in replacement mode, and the bytes the
    /// standard puts back after an error (an ASCII byte after a lead byte,
    /// for one) are decoded again, so nothing readable is swallowed. The
    /// input is taken as whole: an incomplete sequence at its end is one
    /// U+FFFD.
    ///
    /// - Complexity: O(*n*) in the number of bytes. The first use of a
    ///   legacy encoding expands its index, once per process.
    package func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        switch self {
        case .utf8: Charset.decodeUTF8(bytes, scalar)
        case .gbk, .gb18030: Charset.decodeGB18030(bytes, scalar)
        case .big5: Charset.decodeBig5(bytes, scalar)
        case .eucJP: Charset.decodeEUCJP(bytes, scalar)
        case .iso2022JP: Charset.decodeISO2022JP(bytes, scalar)
        case .shiftJIS: Charset.decodeShiftJIS(bytes, scalar)
        case .eucKR: Charset.decodeEUCKR(bytes, scalar)
        case .replacement: if !bytes.isEmpty { scalar(0xFFFD) }
        case .utf16BE: Charset.decodeUTF16(bytes, bigEndian: true, scalar)
        case .utf16LE: Charset.decodeUTF16(bytes, bigEndian: false, scalar)
        case .xUserDefined:
            for b in bytes { scalar(b < 0x80 ? UInt32(b) : 0xF780 + UInt32(b - 0x80)) }
        default:
            // Invariant 2: every other case is single-byte.
            let table = singleByteIndexes.table(slot: singleByteSlot!)
            for b in bytes { scalar(UInt32(table[Int(b)])) }
        }
    }

    /// Decodes `bytes` to UTF-8 (see ``decode(_:_:)``).
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package func decodeToUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        decode(bytes) { appendUTF8Scalar($0, into: &out) }
        return out
    }
}

/// Appends a code point as UTF-8 (surrogates and out-of-range values
/// become U+FFFD).
package func appendUTF8Scalar(_ value: UInt32, into out: inout [UInt8]) {
    var v = value
    if (v >= 0xD800 && v < 0xE000) || v > 0x10FFFF { v = 0xFFFD }
    switch v {
    case 0..<0x80:
        out.append(UInt8(v))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | (v >> 6)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | (v >> 12)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    default:
        out.append(UInt8(0xF0 | (v >> 18)))
        out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    }
}
