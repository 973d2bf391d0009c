import ChipKit

/// The output formats of `chipify`.
public enum OutputFormat: String, Sendable, CaseIterable {
    case text, jsonl, tsv
    /// Each record as an RFC 5322 header value (see ``HeaderWriter``).
    case header
}

/// Everything a format needs to write one chip.
struct ChipRecord {
    var record: Int
    var index: Int
    var item: ListItem
    /// The bytes recognition ranges point into, or nil when the chip's
    /// text is no longer held (a too-long chip).
    var source: UnsafeBufferPointer<UInt8>?
    /// The chip's text, at most `maxChipBytes` of it.
    var raw: UnsafeBufferPointer<UInt8>
    var truncated: Bool
    /// The index in `source` of the chip's first byte.
    var sourceStart: Int
    /// Byte offsets in the record.
    var start: Int
    var end: Int
}

/// Writes chips in one format into an output buffer. Holds the scratch
/// buffers so writing a chip allocates nothing in the steady state.
struct ChipWriter {
    let format: OutputFormat
    /// Count instead of writing chips (`--summary`).
    let summarize: Bool
    /// Write each chip's record number; off (`--no-record-numbers`) for
    /// output that does not depend on where the input was split.
    var recordNumbers = true
    var summary = Summary()
    var out: OutputBuffer
    var names: Recognizer
    var name: [UInt8] = []
    var address: [UInt8] = []
    /// For `header`: the record being rendered.
    var header: HeaderWriter
    var headerOptions = HeaderOptions(lineBreak: "\n")

    init(format: OutputFormat, out: OutputBuffer, policy: ValidationPolicy, summarize: Bool = false,
         smtpUTF8: Bool = false) {
        self.format = format
        self.summarize = summarize
        headerOptions.smtpUTF8 = smtpUTF8
        header = HeaderWriter(options: headerOptions)
        self.out = out
        self.names = Recognizer(policy: policy)
        name.reserveCapacity(256)
        address.reserveCapacity(256)
    }

    mutating func write(_ c: ChipRecord) {
        if summarize {
            summary.count(c.item.recognition)
            return
        }
        name.removeAll(keepingCapacity: true)
        address.removeAll(keepingCapacity: true)
        var warnings = c.item.recognition.warnings
        if let p = c.source {
            if c.item.kind == .mailbox {
                warnings.formUnion(names.appendDisplayName(c.item.recognition, p, into: &name))
            }
            c.item.recognition.appendAddress(p, into: &address)
        }
        switch format {
        case .jsonl: writeJSON(c, warnings)
        case .tsv: writeTSV(c, warnings)
        case .text: writeText(c, warnings)
        case .header: writeHeaderChip(c)
        }
        out.flushIfNeeded()
    }

    /// The end of a record: for `header`, its value is finished.
    mutating func endRecord() {
        guard format == .header && !summarize else { return }
        header.finish()
        out.appendString(header.take())
        out.append(0x0A)
        header = HeaderWriter(options: headerOptions)
        out.flushIfNeeded()
    }

    mutating func writeHeaderChip(_ c: ChipRecord) {
        let r = c.item.recognition
        let chip = ParsedChip(
            kind: c.item.kind, byteRange: c.start..<c.end, raw: [],
            displayName: name.isEmpty ? nil : String(decoding: name, as: UTF8.self),
            address: address.isEmpty ? nil : String(decoding: address, as: UTF8.self),
            localPart: nil, domain: nil, asciiDomain: nil, unicodeDomain: nil,
            group: c.item.group.map { String(decoding: $0, as: UTF8.self) },
            error: r.error,
            errorOffset: nil, warnings: [])
        header.add(chip)
        out.appendString(header.take())
    }

    static func kindName(_ c: ChipRecord) -> StaticString {
        if c.item.recognition.error != nil { return "error" }
        return c.item.kind == .emptyGroup ? "group" : "mailbox"
    }

    // MARK: JSON Lines

    mutating func writeJSON(_ c: ChipRecord, _ warnings: ChipWarnings) {
        let r = c.item.recognition
        if recordNumbers {
            out.append("{\"record\":")
            out.appendDecimal(c.record)
            out.append(",\"index\":")
        } else {
            out.append("{\"index\":")
        }
        out.appendDecimal(c.index)
        out.append(",\"kind\":\"")
        out.append(ChipWriter.kindName(c))
        out.append(r.error == nil ? "\",\"state\":\"valid\",\"name\":" : "\",\"state\":\"error\",\"name\":")
        if name.isEmpty { out.append("null") } else { JSON.appendString(name, to: &out) }
        out.append(",\"address\":")
        if address.isEmpty { out.append("null") } else { JSON.appendString(address, to: &out) }
        if let group = c.item.group {
            out.append(",\"group\":")
            JSON.appendString(group, to: &out)
        }
        out.append(",\"raw\":")
        JSON.appendString(c.raw, to: &out)
        if c.truncated { out.append(",\"truncated\":true") }
        out.append(",\"start\":")
        out.appendDecimal(c.start)
        out.append(",\"end\":")
        out.appendDecimal(c.end)
        if let error = r.error {
            out.append(",\"error\":\"")
            out.append(error.staticCode)
            out.append("\",\"error_at\":")
            out.appendDecimal(c.source == nil ? c.start : c.start + (r.errorOffset - c.sourceStart))
        } else {
            out.append(",\"error\":null")
        }
        out.append(",\"warnings\":[")
        var first = true
        warnings.forEachCode { code in
            out.append(first ? "\"" : ",\"")
            out.append(code)
            out.append("\"")
            first = false
        }
        out.append("]")
        if let suggestion = r.suggestedDomain {
            out.append(",\"suggestion\":")
            JSON.appendString(Array(suggestion.utf8), to: &out)
        }
        out.append("}\n")
    }

    // MARK: TSV

    /// Columns: record, index, kind, state, name, address, group, error,
    /// warnings (comma-separated), start, end, raw. Tabs, line breaks,
    /// backslashes, other control bytes and invalid UTF-8 are escaped
    /// (`\t` `\n` `\r` `\\` `\xHH`), so each chip is one line.
    mutating func writeTSV(_ c: ChipRecord, _ warnings: ChipWarnings) {
        let r = c.item.recognition
        if recordNumbers { out.appendDecimal(c.record) }
        out.append(0x09)
        out.appendDecimal(c.index)
        out.append(0x09)
        out.append(ChipWriter.kindName(c))
        out.append(0x09)
        out.append(r.error == nil ? "valid" : "error")
        out.append(0x09)
        Escaper.appendEscaped(name, to: &out)
        out.append(0x09)
        Escaper.appendEscaped(address, to: &out)
        out.append(0x09)
        if let group = c.item.group { Escaper.appendEscaped(group, to: &out) }
        out.append(0x09)
        if let error = r.error { out.append(error.staticCode) }
        out.append(0x09)
        var first = true
        warnings.forEachCode { code in
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(code)
            first = false
        }
        out.append(0x09)
        out.appendDecimal(c.start)
        out.append(0x09)
        out.appendDecimal(c.end)
        out.append(0x09)
        Escaper.appendEscaped(c.raw, to: &out)
        out.append(0x0A)
    }

    // MARK: Text

    /// The name as a person would write it: in quotes (with `"` and `\`
    /// escaped) when it holds a character that is special in an address.
    mutating func appendNameForText() {
        let needsQuotes = name.contains { b in
            switch b {
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                 UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"):
                true
            default:
                false
            }
        }
        guard needsQuotes else {
            Escaper.appendEscaped(name, to: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        for b in name {
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `1.1  ok     Ann Lee <ann@x.org>` or `1.2  ERROR  bob@  -- missing-domain: …`.
    mutating func writeText(_ c: ChipRecord, _ warnings: ChipWarnings) {
        let r = c.item.recognition
        if recordNumbers {
            out.appendDecimal(c.record)
            out.append(UInt8(ascii: "."))
        }
        out.appendDecimal(c.index + 1)
        if let error = r.error {
            out.append("  ERROR  ")
            Escaper.appendEscaped(c.raw, to: &out)
            if c.truncated { out.append("...") }
            out.append("  -- ")
            out.append(error.staticCode)
            out.append(": ")
            out.appendString(error.message)
        } else {
            out.append("  ok     ")
            if c.item.kind == .emptyGroup {
                out.append("(empty group)")
            } else if name.isEmpty {
                Escaper.appendEscaped(address, to: &out)
            } else {
                appendNameForText()
                out.append(" <")
                Escaper.appendEscaped(address, to: &out)
                out.append(">")
            }
        }
        if let group = c.item.group {
            out.append("  [group: ")
            Escaper.appendEscaped(group, to: &out)
            out.append("]")
        }
        if !warnings.isEmpty {
            out.append("  [warning: ")
            var first = true
            warnings.forEachCode { code in
                if !first { out.append(", ") }
                out.append(code)
                first = false
            }
            if let suggestion = r.suggestedDomain {
                out.append(" -> ")
                out.appendString(suggestion)
            }
            out.append("]")
        }
        out.append(0x0A)
    }
}

/// JSON string escaping that never loses a byte: control characters as
/// `\uXXXX`, and each byte of invalid UTF-8 as a lone surrogate
/// `\udcXX` (U+DC80–U+DCFF, the convention of PEP 383), which a reader
/// can map back to the original byte.
enum JSON {
    /// Bytes that can be copied as they are: printable ASCII but `"` and `\`.
    static let plain = ByteTable { b in
        b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C ? 1 : 0
    }

    static func appendString(_ a: [UInt8], to out: inout OutputBuffer) {
        a.withUnsafeBufferPointer { appendString($0, to: &out) }
    }

    static func appendString(_ p: UnsafeBufferPointer<UInt8>, to out: inout OutputBuffer) {
        out.append(0x22)
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
                case 0x22: out.append("\\\""); i += 1
                case 0x5C: out.append("\\\\"); i += 1
                case 0x0A: out.append("\\n"); i += 1
                case 0x0D: out.append("\\r"); i += 1
                case 0x09: out.append("\\t"); i += 1
                case 0..<0x20, 0x7F:
                    out.append("\\u00")
                    appendHex(b, to: &out)
                    i += 1
                default:
                    let len = UTF8Bytes.sequenceLength(p, at: i, end: p.count)
                    if len == 0 {
                        out.append("\\udc")
                        appendHex(b, to: &out)
                        i += 1
                    } else {
                        out.append(UnsafeBufferPointer(rebasing: p[i..<i + len]))
                        i += len
                    }
                }
            }
        }
        out.append(0x22)
    }

    static func appendHex(_ b: UInt8, to out: inout OutputBuffer) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { d in
            out.append(d[Int(b >> 4)])
            out.append(d[Int(b & 0xF)])
        }
    }
}

/// Escaping for one-line text and TSV fields: `\t` `\n` `\r` `\\` and
/// `\xHH` for other control bytes and for invalid UTF-8.
enum Escaper {
    static func appendEscaped(_ a: [UInt8], to out: inout OutputBuffer) {
        a.withUnsafeBufferPointer { appendEscaped($0, to: &out) }
    }

    static func appendEscaped(_ p: UnsafeBufferPointer<UInt8>, to out: inout OutputBuffer) {
        var i = 0
        while i < p.count {
            let b = p[i]
            switch b {
            case 0x09: out.append("\\t"); i += 1
            case 0x0A: out.append("\\n"); i += 1
            case 0x0D: out.append("\\r"); i += 1
            case 0x5C: out.append("\\\\"); i += 1
            case 0..<0x20, 0x7F:
                out.append("\\x")
                JSON.appendHex(b, to: &out)
                i += 1
            case 0x20..<0x7F:
                out.append(b)
                i += 1
            default:
                let len = UTF8Bytes.sequenceLength(p, at: i, end: p.count)
                if len == 0 {
                    out.append("\\x")
                    JSON.appendHex(b, to: &out)
                    i += 1
                } else {
                    out.append(UnsafeBufferPointer(rebasing: p[i..<i + len]))
                    i += len
                }
            }
        }
    }
}
