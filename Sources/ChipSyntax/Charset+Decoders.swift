// The decoders of the WHATWG Encoding Standard, in replacement mode, for an
// input that is whole.
//
// The standard writes each decoder as a handler that sees one byte at a
// time and may "restore" bytes to the input, to be read again. With the
// whole input at hand, restoring is stepping the read position back, and
// the standard's end-of-queue is reaching the end: a decoder still waiting
// for bytes there gives one U+FFFD, and the bytes it held are not read
// again. Each decoder below is its handler written that way; the comments
// say where a branch is the standard's "restore".

extension Charset {
    static let replacementCharacter: UInt32 = 0xFFFD

    @inline(__always)
    static func isASCII(_ b: UInt8) -> Bool { b < 0x80 }

    /// The loop the standard's two-byte decoders share (Big5, Shift_JIS,
    /// EUC-KR): a byte that stands alone (`single`: ASCII, half-width
    /// katakana) is its scalar; a byte that is no lead is an error; a
    /// lead at the end is one U+FFFD; a pair `pair` cannot decode is an
    /// error whose trail byte, when ASCII, is read again.
    /// `pair` gives the pair's scalar (and a second one, or 0), or nil.
    @inline(__always)
    static func decodeDoubleByte(
        _ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void,
        single: (UInt8) -> UInt32?, isLead: (UInt8) -> Bool, pair: (UInt8, UInt8) -> (UInt32, UInt32)?
    ) {
        let n = p.count
        var i = 0
        while i < n {
            let leading = p[i]
            i += 1
            if let alone = single(leading) {
                scalar(alone)
                continue
            }
            guard isLead(leading) else {
                scalar(replacementCharacter)
                continue
            }
            guard i < n else {
                scalar(replacementCharacter)
                return
            }
            let byte = p[i]
            if let (first, second) = pair(leading, byte) {
                i += 1
                scalar(first)
                if second != 0 { scalar(second) }
            } else {
                // Restore an ASCII byte; any other byte is part of the error.
                if !isASCII(byte) { i += 1 }
                scalar(replacementCharacter)
            }
        }
    }

    // MARK: UTF-8

    static func decodeUTF8(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        let n = p.count
        var i = 0
        while i < n {
            let b = p[i]
            i += 1
            if b < 0x80 {
                scalar(UInt32(b))
                continue
            }
            var needed: Int
            var codePoint: UInt32
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF:
                needed = 1
                codePoint = UInt32(b & 0x1F)
            case 0xE0...0xEF:
                if b == 0xE0 { lower = 0xA0 }
                if b == 0xED { upper = 0x9F }
                needed = 2
                codePoint = UInt32(b & 0xF)
            case 0xF0...0xF4:
                if b == 0xF0 { lower = 0x90 }
                if b == 0xF4 { upper = 0x8F }
                needed = 3
                codePoint = UInt32(b & 0x7)
            default:
                scalar(replacementCharacter)
                continue
            }
            while true {
                guard i < n else {
                    scalar(replacementCharacter)
                    return
                }
                let c = p[i]
                guard c >= lower && c <= upper else {
                    // Restore `c`: it may start the next sequence.
                    scalar(replacementCharacter)
                    break
                }
                lower = 0x80
                upper = 0xBF
                codePoint = codePoint << 6 | UInt32(c & 0x3F)
                i += 1
                needed -= 1
                if needed == 0 {
                    scalar(codePoint)
                    break
                }
            }
        }
    }

    // MARK: UTF-16BE/LE

    static func decodeUTF16(_ p: UnsafeBufferPointer<UInt8>, bigEndian: Bool, _ scalar: (UInt32) -> Void) {
        let n = p.count
        var i = 0
        var leadingSurrogate: UInt32 = 0  // 0: none
        while i + 1 < n {
            let a = UInt32(p[i]), b = UInt32(p[i + 1])
            let unit = bigEndian ? a << 8 | b : b << 8 | a
            i += 2
            if leadingSurrogate != 0 {
                let leading = leadingSurrogate
                leadingSurrogate = 0
                if unit >= 0xDC00 && unit <= 0xDFFF {
                    scalar(0x10000 + ((leading - 0xD800) << 10) + (unit - 0xDC00))
                } else {
                    // Restore the unit's two bytes.
                    i -= 2
                    scalar(replacementCharacter)
                }
                continue
            }
            switch unit {
            case 0xD800...0xDBFF: leadingSurrogate = unit
            case 0xDC00...0xDFFF: scalar(replacementCharacter)
            default: scalar(unit)
            }
        }
        // A byte left over or a leading surrogate unpaired: one error.
        if i < n || leadingSurrogate != 0 { scalar(replacementCharacter) }
    }

    // MARK: gb18030 (and GBK)

    static func decodeGB18030(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        let n = p.count
        var i = 0
        while i < n {
            let first = p[i]
            i += 1
            if isASCII(first) {
                scalar(UInt32(first))
                continue
            }
            if first == 0x80 {
                scalar(0x20AC)
                continue
            }
            guard first != 0xFF else {
                scalar(replacementCharacter)
                continue
            }
            guard i < n else { return scalar(replacementCharacter) }
            let second = p[i]
            if second >= 0x30 && second <= 0x39 {
                // A four-byte sequence: digit, lead-range byte, digit.
                i += 1
                guard i < n else { return scalar(replacementCharacter) }
                let third = p[i]
                guard third >= 0x81 && third <= 0xFE else {
                    // Restore the second byte and this one.
                    i -= 1
                    scalar(replacementCharacter)
                    continue
                }
                i += 1
                guard i < n else { return scalar(replacementCharacter) }
                let fourth = p[i]
                guard fourth >= 0x30 && fourth <= 0x39 else {
                    // Restore the second, third and fourth bytes.
                    i -= 2
                    scalar(replacementCharacter)
                    continue
                }
                i += 1
                let pointer = (Int(first) - 0x81) * 12600 + (Int(second) - 0x30) * 1260
                    + (Int(third) - 0x81) * 10 + Int(fourth) - 0x30
                let codePoint = gb18030Ranges.codePoint(pointer)
                scalar(codePoint == 0 ? replacementCharacter : codePoint)
                continue
            }
            var codePoint: UInt32 = 0
            if (second >= 0x40 && second <= 0x7E) || (second >= 0x80 && second <= 0xFE) {
                let offset = second < 0x7F ? 0x40 : 0x41
                codePoint = gb18030Index[(Int(first) - 0x81) * 190 + Int(second) - offset]
            }
            if codePoint != 0 {
                i += 1
                scalar(codePoint)
            } else {
                // Restore an ASCII byte; any other byte is part of the error.
                if !isASCII(second) { i += 1 }
                scalar(replacementCharacter)
            }
        }
    }

    // MARK: Big5

    static func decodeBig5(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        decodeDoubleByte(
            p, scalar, single: { isASCII($0) ? UInt32($0) : nil }, isLead: { $0 >= 0x81 && $0 != 0xFF }
        ) { leading, byte in
            guard (byte >= 0x40 && byte <= 0x7E) || (byte >= 0xA1 && byte <= 0xFE) else { return nil }
            let offset = byte < 0x7F ? 0x40 : 0x62
            let pointer = (Int(leading) - 0x81) * 157 + Int(byte) - offset
            // Four pointers decode to a letter and a combining mark, since
            // Unicode has no precomposed form for them.
            switch pointer {
            case 1133, 1135, 1164, 1166:
                return (pointer < 1164 ? 0x00CA : 0x00EA, pointer == 1133 || pointer == 1164 ? 0x0304 : 0x030C)
            default:
                let codePoint = big5Index[pointer]
                return codePoint == 0 ? nil : (codePoint, 0)
            }
        }
    }

    // MARK: EUC-JP

    static func decodeEUCJP(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        let n = p.count
        var i = 0
        while i < n {
            var leading = p[i]
            i += 1
            if isASCII(leading) {
                scalar(UInt32(leading))
                continue
            }
            guard leading == 0x8E || leading == 0x8F || (leading >= 0xA1 && leading <= 0xFE) else {
                scalar(replacementCharacter)
                continue
            }
            guard i < n else {
                scalar(replacementCharacter)
                return
            }
            var byte = p[i]
            if leading == 0x8E && byte >= 0xA1 && byte <= 0xDF {
                // Half-width katakana.
                i += 1
                scalar(0xFF61 - 0xA1 + UInt32(byte))
                continue
            }
            var jis0212 = false
            if leading == 0x8F && byte >= 0xA1 && byte <= 0xFE {
                // JIS X 0212: the next two bytes are the character.
                jis0212 = true
                leading = byte
                i += 1
                guard i < n else {
                    scalar(replacementCharacter)
                    return
                }
                byte = p[i]
            }
            var codePoint: UInt32 = 0
            if leading >= 0xA1 && leading <= 0xFE && byte >= 0xA1 && byte <= 0xFE {
                let pointer = (Int(leading) - 0xA1) * 94 + Int(byte) - 0xA1
                codePoint = jis0212 ? jis0212Index[pointer] : jis0208Index[pointer]
            }
            if codePoint != 0 {
                i += 1
                scalar(codePoint)
            } else {
                // Restore an ASCII byte; any other byte is part of the error.
                if !isASCII(byte) { i += 1 }
                scalar(replacementCharacter)
            }
        }
    }

    // MARK: ISO-2022-JP

    /// The states of the ISO-2022-JP decoder, named as in the standard.
    enum ISO2022JPState {
        case ascii, roman, katakana, leadingByte, trailingByte, escapeStart, escape
    }

    static func decodeISO2022JP(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        let n = p.count
        var i = 0
        var state = ISO2022JPState.ascii
        var outputState = ISO2022JPState.ascii
        var leading: UInt8 = 0
        // Whether the last thing done was an escape sequence: two in a row
        // are an error, as they could hide text from a reader.
        var output = false
        while true {
            guard i < n else {
                // End of input.
                switch state {
                case .ascii, .roman, .katakana, .leadingByte:
                    return
                case .trailingByte:
                    scalar(replacementCharacter)
                    return
                case .escapeStart:
                    output = false
                    state = outputState
                    scalar(replacementCharacter)
                    continue
                case .escape:
                    // Restore the byte after ESC and read it again.
                    i -= 1
                    output = false
                    state = outputState
                    scalar(replacementCharacter)
                    continue
                }
            }
            let byte = p[i]
            i += 1
            switch state {
            case .ascii, .roman:
                if byte == 0x1B {
                    state = .escapeStart
                } else if byte < 0x80 && byte != 0x0E && byte != 0x0F {
                    output = false
                    if state == .roman && byte == 0x5C {
                        scalar(0x00A5)
                    } else if state == .roman && byte == 0x7E {
                        scalar(0x203E)
                    } else {
                        scalar(UInt32(byte))
                    }
                } else {
                    output = false
                    scalar(replacementCharacter)
                }
            case .katakana:
                if byte == 0x1B {
                    state = .escapeStart
                } else if byte >= 0x21 && byte <= 0x5F {
                    output = false
                    scalar(0xFF61 - 0x21 + UInt32(byte))
                } else {
                    output = false
                    scalar(replacementCharacter)
                }
            case .leadingByte:
                if byte == 0x1B {
                    state = .escapeStart
                } else if byte >= 0x21 && byte <= 0x7E {
                    output = false
                    leading = byte
                    state = .trailingByte
                } else {
                    output = false
                    scalar(replacementCharacter)
                }
            case .trailingByte:
                if byte == 0x1B {
                    state = .escapeStart
                    scalar(replacementCharacter)
                } else if byte >= 0x21 && byte <= 0x7E {
                    state = .leadingByte
                    let codePoint = jis0208Index[(Int(leading) - 0x21) * 94 + Int(byte) - 0x21]
                    scalar(codePoint == 0 ? replacementCharacter : codePoint)
                } else {
                    state = .leadingByte
                    scalar(replacementCharacter)
                }
            case .escapeStart:
                if byte == 0x24 || byte == 0x28 {  // "$" or "("
                    leading = byte
                    state = .escape
                } else {
                    // Restore the byte: only the ESC is in error.
                    i -= 1
                    output = false
                    state = outputState
                    scalar(replacementCharacter)
                }
            case .escape:
                let escapeLeading = leading
                leading = 0
                var next: ISO2022JPState?
                switch (escapeLeading, byte) {
                case (0x28, 0x42): next = .ascii        // ESC ( B
                case (0x28, 0x4A): next = .roman        // ESC ( J
                case (0x28, 0x49): next = .katakana     // ESC ( I
                case (0x24, 0x40), (0x24, 0x42): next = .leadingByte  // ESC $ @, ESC $ B
                default: next = nil
                }
                if let next {
                    state = next
                    outputState = next
                    let escapedBefore = output
                    output = true
                    if escapedBefore { scalar(replacementCharacter) }
                } else {
                    // Restore both bytes after ESC.
                    i -= 2
                    output = false
                    state = outputState
                    scalar(replacementCharacter)
                }
            }
        }
    }

    // MARK: Shift_JIS

    static func decodeShiftJIS(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        decodeDoubleByte(
            p, scalar,
            single: { b in
                if b <= 0x80 { return UInt32(b) }
                if b >= 0xA1 && b <= 0xDF { return 0xFF61 - 0xA1 + UInt32(b) }  // half-width katakana
                return nil
            },
            isLead: { $0 <= 0x9F || ($0 >= 0xE0 && $0 <= 0xFC) }
        ) { leading, byte in
            guard (byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFC) else { return nil }
            let offset = byte < 0x7F ? 0x40 : 0x41
            let leadingOffset = leading < 0xA0 ? 0x81 : 0xC1
            let pointer = (Int(leading) - leadingOffset) * 188 + Int(byte) - offset
            // Windows' end-user-defined characters are in Private Use.
            let codePoint = pointer >= 8836 && pointer <= 10715 ? 0xE000 - 8836 + UInt32(pointer) : jis0208Index[pointer]
            return codePoint == 0 ? nil : (codePoint, 0)
        }
    }

    // MARK: EUC-KR

    static func decodeEUCKR(_ p: UnsafeBufferPointer<UInt8>, _ scalar: (UInt32) -> Void) {
        decodeDoubleByte(
            p, scalar, single: { isASCII($0) ? UInt32($0) : nil }, isLead: { $0 >= 0x81 && $0 != 0xFF }
        ) { leading, byte in
            guard byte >= 0x41 && byte <= 0xFE else { return nil }
            let codePoint = eucKRIndex[(Int(leading) - 0x81) * 190 + Int(byte) - 0x41]
            return codePoint == 0 ? nil : (codePoint, 0)
        }
    }
}
