import ChipSyntax

/// JSON string escaping that never loses a byte: control characters as
/// `\uXXXX`, and each byte of invalid UTF-8 as a lone surrogate
/// `\udcXX` (U+DC80–U+DCFF, the convention of PEP 383), which a reader
/// can map back to the original byte.
package enum JSON {
    /// Bytes that can be copied as they are: printable ASCII but `"` and `\`.
    package static let plain = ByteTable { b in
        b >= 0x20 && b < 0x7F && b != ASCII.quote && b != ASCII.backslash ? 1 : 0
    }

    package static func appendString(_ a: [UInt8], to out: inout ByteBuffer) {
        appendString(a, to: out.uniqueStorage)
    }

    package static func appendString(_ a: [UInt8], to out: ByteBuffer.Storage) {
        a.withUnsafeBufferPointer { appendString($0, to: out) }
    }

    package static func appendString(_ p: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        out.append(ASCII.quote)
        let plain = JSON.plain
        do {
            var i = 0
            let n = p.count
            while i < n {
                var j = i
                while j < n && plain[p[j]] != 0 { j += 1 }
                if j > i { out.append(UnsafeBufferPointer(rebasing: p[i..<j])) }
                i = j
                if i >= n { break }
                let b = p[i]
                switch b {
                case ASCII.quote: out.append("\\\""); i += 1
                case ASCII.backslash: out.append("\\\\"); i += 1
                case ASCII.lineFeed: out.append("\\n"); i += 1
                case ASCII.carriageReturn: out.append("\\r"); i += 1
                case ASCII.tab: out.append("\\t"); i += 1
                case 0..<0x20, 0x7F:
                    out.append("\\u00")
                    appendHex(b, to: out)
                    i += 1
                default:
                    let len = UTF8Bytes.sequenceLength(p, at: i, end: p.count)
                    if len == 0 {
                        out.append("\\udc")
                        appendHex(b, to: out)
                        i += 1
                    } else {
                        out.append(UnsafeBufferPointer(rebasing: p[i..<i + len]))
                        i += len
                    }
                }
            }
        }
        out.append(ASCII.quote)
    }

    package static func appendHex(_ b: UInt8, to out: ByteBuffer.Storage) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { d in
            out.append(d[Int(b >> 4)])
            out.append(d[Int(b & 0xF)])
        }
    }
}

/// Escaping for one-line text and TSV fields: `\t` `\n` `\r` `\\` and
/// `\xHH` for other control bytes and for invalid UTF-8.
package enum Escaper {
    package static func appendEscaped(_ a: [UInt8], to out: ByteBuffer.Storage) {
        a.withUnsafeBufferPointer { appendEscaped($0, to: out) }
    }

    package static func appendEscaped(_ p: UnsafeBufferPointer<UInt8>, to out: ByteBuffer.Storage) {
        var i = 0
        while i < p.count {
            let b = p[i]
            switch b {
            case ASCII.tab: out.append("\\t"); i += 1
            case ASCII.lineFeed: out.append("\\n"); i += 1
            case ASCII.carriageReturn: out.append("\\r"); i += 1
            case ASCII.backslash: out.append("\\\\"); i += 1
            case 0..<0x20, 0x7F:
                out.append("\\x")
                JSON.appendHex(b, to: out)
                i += 1
            case 0x20..<0x7F:
                out.append(b)
                i += 1
            default:
                let len = UTF8Bytes.sequenceLength(p, at: i, end: p.count)
                if len == 0 {
                    out.append("\\x")
                    JSON.appendHex(b, to: out)
                    i += 1
                } else {
                    out.append(UnsafeBufferPointer(rebasing: p[i..<i + len]))
                    i += len
                }
            }
        }
    }
}
