import ChipSyntax
import ChipRecognition
import ChipDirectory

/// The formats a ``ChipRecordWriter`` writes (and `chipify --format` names).
public enum OutputFormat: String, Sendable, CaseIterable {
    /// One line per chip: `1.1  ok     Ann Lee <ann@x.org>`.
    case text
    /// One JSON object per chip and line.
    case jsonl
    /// Tab-separated columns, one line per chip.
    case tsv
    /// Each record as an RFC 5322 header value (see ``HeaderWriter``).
    case header
}

/// Everything a format needs to write one chip, as the streaming reader of
/// the CLI holds it: ranges into its buffer, nothing copied.
package struct ChipRecord {
    package var record: Int
    package var index: Int
    package var item: ListItem
    /// The bytes recognition ranges point into, or nil when the chip's
    /// text is no longer held (a too-long chip).
    package var source: UnsafeBufferPointer<UInt8>?
    /// The chip's text, at most `maxChipBytes` of it.
    package var raw: UnsafeBufferPointer<UInt8>
    package var truncated: Bool
    /// The index in `source` of the chip's first byte.
    package var sourceStart: Int
    /// Byte offsets in the record.
    package var start: Int
    package var end: Int

    package init(
        record: Int, index: Int, item: ListItem, source: UnsafeBufferPointer<UInt8>?,
        raw: UnsafeBufferPointer<UInt8>, truncated: Bool, sourceStart: Int, start: Int, end: Int
    ) {
        self.record = record
        self.index = index
        self.item = item
        self.source = source
        self.raw = raw
        self.truncated = truncated
        self.sourceStart = sourceStart
        self.start = start
        self.end = end
    }
}

/// A chip that `--format header` left out of its record's value
/// (``ChipRecordWriter/omissions``).
public struct OmittedChip: Sendable, Hashable {
    /// The record's number, from 1.
    public var record: Int
    /// The chip's index in the record, from 0.
    public var index: Int
    /// The chip's text, at most `maxChipBytes` of it.
    public var raw: [UInt8]
    /// Whether ``raw`` is only the start of the chip's text.
    public var truncated: Bool
    /// Why the header writer left the chip out.
    public var reason: HeaderOmission.Reason

    /// A chip of `record` left out for `reason`.
    public init(record: Int, index: Int, raw: [UInt8], truncated: Bool, reason: HeaderOmission.Reason) {
        self.record = record
        self.index = index
        self.raw = raw
        self.truncated = truncated
        self.reason = reason
    }
}

/// Writes chips as text, JSON Lines, TSV or header values into a
/// ``ByteBuffer``, or counts them into a ``Summary``: the formats of
/// `chipify`, for a host that wants the same bytes without a process.
///
/// Feed it a whole record with ``write(record:_:)`` (exactly what
/// `chipify` prints for that line), or chips you hold with
/// ``write(_:record:index:)``; end each record with ``endRecord()``; take
/// the bytes from ``output`` whenever you like (``ByteBuffer/removeAll()``
/// after sending them keeps memory flat).
///
/// Holds its scratch buffers, so writing a chip allocates nothing in the
/// steady state.
///
/// Invariants:
/// 1. Each chip is one line in `text`, `jsonl` and `tsv`: line breaks,
///    tabs, other controls and invalid UTF-8 are escaped, never written.
/// 2. For the same record, ``write(record:_:)`` writes the bytes `chipify`
///    writes for it with the same options.
public struct ChipRecordWriter: Sendable {
    /// What the writer writes, fixed at creation.
    public let format: OutputFormat
    /// Count instead of writing chips (`--summary`).
    public let summarize: Bool
    /// Write each chip's record number; off (`--no-record-numbers`) for
    /// output that does not depend on where the input was split.
    public var recordNumbers = true
    /// What was counted, when summarizing (records are counted by the
    /// caller that knows where they end; ``write(record:_:)`` counts its own).
    public var summary = Summary()
    /// With `text`: write each record as one summary line of at most this
    /// many terminal columns, record number included (`1  Ann, Bob and 3
    /// more`, see ``FieldSummary``), instead of a line per chip
    /// (`chipify --width`). Nil: a line per chip.
    public var summaryWidth: Int?
    /// What was written and not yet taken.
    public var output: ByteBuffer
    let policy: ValidationPolicy
    var names: Recognizer
    var name: [UInt8] = []
    var address: [UInt8] = []
    var groupScratch: [UInt8] = []
    /// With `header`: the chips left out of the values written, and why,
    /// not yet taken: a caller reports each (`chipify` on standard error)
    /// and removes them.
    public var omissions: [OmittedChip] = []
    /// For `header`: the record being rendered.
    var header: HeaderWriter
    var headerOptions = HeaderOptions(lineBreak: "\n")
    /// The chips written in the current record, for ``write(record:_:)``.
    var nextIndex = 0
    /// What ``write(record:_:)`` reads records with (``RecordScratch``),
    /// made at the first record; a copy of the writer makes its own.
    var scratch: RecordScratch?
    /// With ``summaryWidth``: the current record's chips' labels, only as
    /// many as can show in the width (the rest are counted), so a record of
    /// any length is summarized in memory bounded by the width.
    var labels: FieldSummary.Names<TerminalWidth>?
    /// With ``summaryWidth``: the current record's number, set by its chips
    /// or by a reader that knows it; one more than the last otherwise, so
    /// a record without chips is numbered too.
    package var currentRecord = 1

    /// A writer of `format`. `smtpUTF8` matters to `header` only: UTF-8
    /// addresses are written as they are rather than left out.
    public init(
        format: OutputFormat, policy: ValidationPolicy = .standard, summarize: Bool = false,
        smtpUTF8: Bool = false, recordNumbers: Bool = true, capacity: Int = 1 << 20
    ) {
        self.format = format
        self.summarize = summarize
        self.recordNumbers = recordNumbers
        self.policy = policy
        headerOptions.smtpUTF8 = smtpUTF8
        header = HeaderWriter(options: headerOptions)
        output = ByteBuffer(capacity: capacity)
        self.names = Recognizer(policy: policy)
        name.reserveCapacity(256)
        address.reserveCapacity(256)
    }

    /// Parses one record (an address list, without its line terminator)
    /// and writes all its chips, then ends the record: what `chipify`
    /// writes for that line. `record` is its number (from 1).
    ///
    /// Reads the record as `chipify` does, at its speed: the structural
    /// index and the lane first, the general path for the chips (or the
    /// records) they leave, with one recognizer kept from record to record.
    /// A record the index can hold (up to 4 KiB) is copied once into a
    /// buffer the writer keeps; a longer one is read where it lies. Any
    /// collection of bytes will do (an `ArraySlice` of a file's lines, a
    /// `String.UTF8View`). Keep one writer and write with it in place: a
    /// copy alive while another writes makes its own recognizer.
    ///
    /// - Complexity: O(*n*) in the record's length (the first record also
    ///   builds the recognizer's tables).
    @inlinable
    public mutating func write<Bytes: Collection<UInt8>>(record: Int, _ bytes: Bytes) {
        // Specialized where it is called: contiguous bytes (an array, a
        // slice of one, a string's UTF-8) are taken as they lie, others
        // gathered into an array first.
        let written: Void? = bytes.withContiguousStorageIfAvailable { writeRecord(record, $0) }
        if written == nil { Array(bytes).withUnsafeBufferPointer { writeRecord(record, $0) } }
    }

    /// ``write(record:_:)`` for bytes that lie in memory.
    @usableFromInline
    mutating func writeRecord(_ record: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
        currentRecord = record
        if !isKnownUniquelyReferenced(&scratch) { scratch = RecordScratch(policy: policy) }
        let scratch = scratch.unsafelyUnwrapped
        let list = scratch.list
        let n = bytes.count
        // A record longer than the index holds is read by the scanner
        // where it lies, never copied; so is one the index declines.
        if n > SimpleList.maxBytes || !writeIndexed(record: record, scratch.hold(bytes), count: n, scratch) {
            var scanner = ListScanner()
            // As `chipify` reads: a construct left open is recovered only
            // within the policy's longest chip (past it, the chip is
            // `too-long` to its end).
            scanner.maxRecoveredChipBytes = policy.maxChipBytes
            var segments: [Segment] = []
            scanner.scan(bytes) { segments.append($0) }
            scanner.finish(bytes, base: 0) { segments.append($0) }
            var index = 0
            for segment in segments where writeGeneral(segment, bytes, record: record, index: index, list) { index += 1 }
        }
        list.pointee.reset()
        summary.records += 1
        summary.bytes += n
        endRecord()
    }

    /// Writes the record of `count` bytes that `scratch` holds (with a
    /// terminator and room after it) by the structural index and the
    /// lane, as `chipify` reads a record that fits its index, and returns
    /// true; or returns false, having written nothing, when the index
    /// declines it (a line break, tab or CR in it, an unclosed construct
    /// the scanner must recover, more than ``SimpleList`` holds).
    mutating func writeIndexed(
        record: Int, _ buffer: UnsafeBufferPointer<UInt8>, count n: Int, _ scratch: RecordScratch
    ) -> Bool {
        let found = scratch.chips
        let read = SimpleList.record(buffer.baseAddress!, available: n + 1, terminator: ASCII.lineFeed, into: found)
        guard read.terminated, read.length == n, let count = read.count else { return false }
        let list = scratch.list
        var index = 0
        var item = SimpleItem.none
        for c in UnsafeBufferPointer(start: found, count: count) {
            guard list.pointee.handleSimple(c, buffer, offset: 0, into: &item) else {
                // A group's name or end (most are the lane's), or a chip
                // for the general path.
                if c.kind != .chip && list.pointee.handleSimpleGroup(c, buffer, offset: 0) { continue }
                if writeGeneral(c.segment, buffer, record: record, index: index, list) { index += 1 }
                continue
            }
            if summarize {
                // Only counted: no text to write, no suggestion or group to fetch.
                countSimple(item)
                index += 1
                continue
            }
            // What the line needs from the recognizer, by its inlinable
            // getters (a package getter called through the pointer made the
            // compiler copy the whole recognizer, twice a chip).
            let suggestion = item.typo >= 0 ? list.pointee.commonDomain(item.typo) : nil
            let group = list.pointee.currentGroupName
            var decodedName: [UInt8]?
            var wellFormed = false
            if item.nameIsDecoded {
                decodedName = list.pointee.decodedName
                wellFormed = list.pointee.decodedNameIsWellFormed
            }
            writeLane(
                item, record: record, index: index, buffer, raw: UnsafeBufferPointer(rebasing: buffer[c.range]),
                start: Int(c.lo), end: Int(c.hi), suggestion: suggestion, group: group, decodedName: decodedName,
                decodedNameIsWellFormed: wellFormed)
            index += 1
        }
        return true
    }

    /// Writes the chip the general path makes of `segment`, if any, and
    /// returns whether there was one.
    mutating func writeGeneral(
        _ segment: Segment, _ p: UnsafeBufferPointer<UInt8>, record: Int, index: Int,
        _ list: UnsafeMutablePointer<ListRecognizer>
    ) -> Bool {
        guard let item = list.pointee.handle(segment, p, base: 0) else { return false }
        let range = item.byteRange
        let hi = min(range.upperBound, range.lowerBound + policy.maxChipBytes)
        let truncated = hi < range.upperBound
        write(ChipRecord(
            record: record, index: index, item: item, source: truncated ? nil : p,
            raw: UnsafeBufferPointer(rebasing: p[range.lowerBound..<hi]), truncated: truncated,
            sourceStart: range.lowerBound, start: range.lowerBound, end: range.upperBound))
        return true
    }

    /// Writes one chip you hold, as chip `index` (from 0) of record
    /// `record` (from 1). Its offsets are those of its ``ParsedChip/byteRange``.
    ///
    /// A chip from ``AddressList/parse(_:policy:)`` is written as `chipify`
    /// writes it, except that a display name holding invalid UTF-8 was
    /// already repaired (U+FFFD) when the chip was made.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public mutating func write(_ chip: ParsedChip, record: Int, index: Int) {
        write(chip, record: record, index: index, contactField: .none)
    }

    /// Writes a chip and the contact it stands for (JSON Lines gains a
    /// `"contact"` key, an id or null; other formats are unchanged).
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public mutating func write(_ chip: ParsedChip, record: Int, index: Int, contact: ContactID?) {
        write(chip, record: record, index: index, contactField: .some(contact?.rawValue))
    }

    mutating func write(_ chip: ParsedChip, record: Int, index: Int, contactField contact: String??) {
        if summarize {
            summary.count(chip)
            return
        }
        name.removeAll(keepingCapacity: true)
        address.removeAll(keepingCapacity: true)
        if let n = chip.displayName { name.append(contentsOf: n.utf8) }
        if let a = chip.address { address.append(contentsOf: a.utf8) }
        if summaryWidth != nil && format == .text {
            appendLabel(labelShows ? ChipText.label(of: chip) : "")
            currentRecord = record
            return
        }
        let group = chip.group.map { Array($0.utf8) }
        let truncated = chip.raw.count < chip.byteRange.count
        var fields = Fields(
            record: record, index: index, isEmptyGroup: chip.kind == .emptyGroup, error: chip.error,
            errorAt: chip.errorOffset ?? chip.byteRange.lowerBound, group: group, raw: UnsafeBufferPointer(start: nil, count: 0),
            truncated: truncated, start: chip.byteRange.lowerBound, end: chip.byteRange.upperBound,
            warnings: chip.warnings, suggestion: chip.suggestedDomain)
        fields.contact = contact
        chip.raw.withUnsafeBufferPointer { raw in
            fields.raw = raw
            switch format {
            case .jsonl: writeJSON(fields)
            case .tsv: writeTSV(fields)
            case .text: writeText(fields)
            case .header:
                writeHeaderChip(
                    kind: chip.kind, error: chip.error, group: chip.group, start: fields.start, end: fields.end,
                    warnings: chip.warnings, record: record, index: index, raw: raw, truncated: truncated)
            }
        }
    }

    /// Writes one chip as the streaming reader holds it.
    package mutating func write(_ c: ChipRecord) {
        if summarize {
            summary.count(c.item.recognition)
            return
        }
        name.removeAll(keepingCapacity: true)
        address.removeAll(keepingCapacity: true)
        let r = c.item.recognition
        var warnings = r.warnings
        if let p = c.source {
            if c.item.kind == .mailbox {
                warnings.formUnion(names.appendDisplayName(r, p, into: &name))
            }
            r.appendAddress(p, into: &address)
        }
        if summaryWidth != nil && format == .text {
            appendLabel(labelShows ? label(of: c) : "")
            currentRecord = c.record
            return
        }
        let fields = Fields(
            record: c.record, index: c.index, isEmptyGroup: c.item.kind == .emptyGroup, error: r.error,
            errorAt: c.source == nil ? c.start : c.start + (r.errorOffset - c.sourceStart),
            group: c.item.group, raw: c.raw, truncated: c.truncated, start: c.start, end: c.end,
            warnings: warnings, suggestion: r.suggestedDomain)
        switch format {
        case .jsonl: writeJSON(fields)
        case .tsv: writeTSV(fields)
        case .text: writeText(fields)
        case .header:
            writeHeaderChip(
                kind: c.item.kind, error: r.error, group: c.item.group.map { String(decoding: $0, as: UTF8.self) },
                start: c.start, end: c.end, warnings: warnings, record: c.record, index: c.index, raw: c.raw,
                truncated: c.truncated)
        }
    }

    /// Writes one valid chip of the simple lane
    /// (``ListRecognizer/handleSimple(_:_:offset:)``), exactly as
    /// ``write(_:)-(ChipRecord)`` writes the chip the general path makes
    /// of the same text: `p` holds the ranges of `item`, `raw` is the
    /// chip's text, `start`/`end` its offsets in the record, `suggestion`
    /// the domain a `likely-typo` warning names, `group` the decoded name
    /// of the group the chip is in (``ListRecognizer/currentGroupName``).
    ///
    /// - Complexity: O(*n*) in the chip's length.
    @inline(__always)
    package mutating func write(
        simple item: SimpleItem, record: Int, index: Int, _ p: UnsafeBufferPointer<UInt8>,
        raw: UnsafeBufferPointer<UInt8>, start: Int, end: Int, suggestion: String?, group: [UInt8]? = nil
    ) {
        writeLane(
            item, record: record, index: index, p, raw: raw, start: start, end: end, suggestion: suggestion, group: group,
            decodedName: nil)
    }

    /// ``write(simple:record:index:_:raw:start:end:suggestion:group:)`` for
    /// a chip whose name is encoded (``SimpleItem/nameIsDecoded``), with
    /// its text as the lane decoded it for its checks
    /// (``ListRecognizer/decodedName``), which is then not decoded
    /// again. `decodedNameIsWellFormed`: the lane knows the text is
    /// well-formed UTF-8 (``ListRecognizer/decodedNameIsWellFormed``).
    /// Apart, so that the other chips' call stays as small as it is.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    @inline(never)
    package mutating func write(
        simple item: SimpleItem, record: Int, index: Int, _ p: UnsafeBufferPointer<UInt8>,
        raw: UnsafeBufferPointer<UInt8>, start: Int, end: Int, suggestion: String?, group: [UInt8]?,
        decodedName: [UInt8], decodedNameIsWellFormed: Bool = false
    ) {
        writeLane(
            item, record: record, index: index, p, raw: raw, start: start, end: end, suggestion: suggestion, group: group,
            decodedName: item.nameIsDecoded ? decodedName : nil, decodedNameIsWellFormed: decodedNameIsWellFormed)
    }

    /// Counts a chip of the simple lane in the summary: all
    /// ``write(simple:record:index:_:raw:start:end:suggestion:group:)``
    /// does when the writer only summarizes (``summarize``), for a caller
    /// that knows it needs no text.
    @inlinable @inline(__always)
    package mutating func countSimple(_ item: SimpleItem) {
        summary.count(error: nil, warnings: item.warnings)
    }

    @inline(__always)
    mutating func writeLane(
        _ item: SimpleItem, record: Int, index: Int, _ p: UnsafeBufferPointer<UInt8>,
        raw: UnsafeBufferPointer<UInt8>, start: Int, end: Int, suggestion: String?, group: [UInt8]?,
        decodedName: [UInt8]?, decodedNameIsWellFormed: Bool = false
    ) {
        if summarize {
            countSimple(item)
            return
        }
        // A comment's name is the text between its parentheses, as is a
        // quoted string's that holds no quoted-pair or `=?`.
        var nameText: Range<Int>?
        var unquoted = true
        if let r = item.nameRange {
            let inner = item.nameIsComment || item.nameIsPlainQuoted
            nameText = inner ? (r.lowerBound + 1)..<(r.upperBound - 1) : r
            unquoted = !item.nameIsDecoded && (inner || p[r.lowerBound] != ASCII.quote)
        }
        if format == .jsonl, summaryWidth == nil {
            writeLaneJSON(
                item, record: record, index: index, p, nameText: nameText, unquoted: unquoted, raw: raw, start: start,
                end: end, suggestion: suggestion, group: group, decodedName: decodedName,
                decodedNameIsWellFormed: decodedNameIsWellFormed)
            return
        }
        name.removeAll(keepingCapacity: true)
        address.removeAll(keepingCapacity: true)
        var warnings = item.warnings
        if let n = nameText {
            if item.nameIsComment || item.nameIsPlainQuoted {
                name.append(contentsOf: UnsafeBufferPointer(rebasing: p[n]))
            } else if item.nameIsDecoded, let decodedName {
                // Its decoding's warnings are the item's already.
                name.append(contentsOf: decodedName)
            } else {
                warnings.formUnion(names.appendPhrase(p, n, into: &name))
            }
        }
        address.append(contentsOf: UnsafeBufferPointer(rebasing: p[item.addressRange]))
        if summaryWidth != nil && format == .text {
            appendLabel(labelShows ? ChipText.label(name: name, address: address, raw: raw) : "")
            currentRecord = record
            return
        }
        let fields = Fields(
            record: record, index: index, isEmptyGroup: false, error: nil, errorAt: start, group: group, raw: raw,
            truncated: false, start: start, end: end, warnings: warnings, suggestion: suggestion)
        switch format {
        case .jsonl: writeJSON(fields)
        case .tsv: writeTSV(fields)
        case .text: writeText(fields)
        case .header:
            writeHeaderChip(
                kind: .mailbox, error: nil, group: group.map { String(decoding: $0, as: UTF8.self) },
                start: start, end: end, warnings: warnings, record: record, index: index, raw: raw, truncated: false)
        }
    }

    /// A lane chip's JSON line (``JSONLine``). An unquoted name of the
    /// lane is its own decoding (plain words, single spaces) unless it
    /// holds `=?`, and so is a comment's; the address is as typed: both
    /// are written from the chip's bytes, which are parts of the raw
    /// text, so that when it needs no escape neither do they. The lane
    /// took only well-formed UTF-8 (the fast grammar checks each sequence
    /// of a name; an address is ASCII), so its bytes of 0x80 and above are
    /// copied. A quoted or encoded name is decoded first.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    mutating func writeLaneJSON(
        _ item: SimpleItem, record: Int, index: Int, _ p: UnsafeBufferPointer<UInt8>, nameText: Range<Int>?,
        unquoted: Bool, raw: UnsafeBufferPointer<UInt8>, start: Int, end: Int, suggestion: String?, group: [UInt8]?,
        decodedName: [UInt8]?, decodedNameIsWellFormed: Bool
    ) {
        let rawPlain = JSON.isPlain(wellFormedUTF8: raw)
        let address = UnsafeBufferPointer(rebasing: p[item.addressRange])
        let addressText = JSONLine.Text(bytes: address, plain: rawPlain || JSON.isPlain(wellFormedUTF8: address), wellFormed: true)
        let rawText = JSONLine.Text(bytes: raw, plain: rawPlain, wellFormed: true)
        var warnings = item.warnings
        let out = output.uniqueStorage
        let numbers = recordNumbers ? record : nil
        // A common domain, for `likely-typo`: seldom.
        let suggested = suggestion.map { Array($0.utf8) }
        // Decoded text may be anything: judged by the strict test.
        func decoded(_ a: [UInt8]?, _ body: (JSONLine.Text?) -> Void) {
            guard let a else { return body(nil) }
            a.withUnsafeBufferPointer { body(JSONLine.Text(bytes: $0, plain: JSON.isPlain($0))) }
        }
        func emit(_ name: JSONLine.Text, _ warnings: ChipWarnings) {
            decoded(group) { group in
                decoded(suggested) { suggestion in
                    JSONLine.write(
                        record: numbers, index: index, name: name, address: addressText, group: group, raw: rawText,
                        start: start, end: end, warnings: warnings, suggestion: suggestion, to: out)
                }
            }
        }
        if unquoted {
            let bytes = nameText.map { UnsafeBufferPointer(rebasing: p[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
            emit(JSONLine.Text(bytes: bytes, plain: rawPlain || JSON.isPlain(wellFormedUTF8: bytes), wellFormed: true), warnings)
            return
        }
        if let decodedName {
            // An encoded name the lane decoded: its warnings are the item's.
            // Well-formed UTF-8 when the lane's own decoder read it.
            decodedName.withUnsafeBufferPointer {
                let wellFormed = decodedNameIsWellFormed
                emit(JSONLine.Text(bytes: $0, plain: wellFormed ? JSON.isPlain(wellFormedUTF8: $0) : JSON.isPlain($0), wellFormed: wellFormed),
                     warnings)
            }
            return
        }
        if let n = nameText, n.count > 2, p[n.lowerBound] == ASCII.quote, p[n.upperBound - 1] == ASCII.quote {
            // A quoted name whose pairs are `\"` and `\\` only: its JSON
            // string is its text between the quotes (no warning).
            let inside = UnsafeBufferPointer(rebasing: p[(n.lowerBound + 1)..<(n.upperBound - 1)])
            if JSON.quotedIsJSON(wellFormedUTF8: inside) {
                emit(JSONLine.Text(bytes: inside, plain: true), warnings)
                return
            }
        }
        name.removeAll(keepingCapacity: true)
        if let n = nameText { warnings.formUnion(names.appendPhrase(p, n, into: &name)) }
        name.withUnsafeBufferPointer { emit(JSONLine.Text(bytes: $0, plain: JSON.isPlain($0)), warnings) }
    }

    /// Ends a record: for `header`, its value is finished and written,
    /// with a line break.
    ///
    /// - Complexity: O(*k*), where *k* is the length of the header value
    ///   finished (`header`) or of the summary line written (`text` with
    ///   ``summaryWidth``); O(1) otherwise.
    @inlinable
    public mutating func endRecord() {
        // Most runs end a record with nothing to write: no call for them.
        guard !summarize && (summaryWidth != nil || format == .header) else { return }
        endRecordWriting()
    }

    /// ``endRecord()`` where a record's end writes something.
    @usableFromInline
    mutating func endRecordWriting() {
        if let width = summaryWidth, format == .text && !summarize {
            writeSummaryLine(width: width)
            return
        }
        guard format == .header && !summarize else { return }
        header.finish()
        header.take(into: &output)
        output.append(ASCII.lineFeed)
        header.reset()
    }

    /// The label of a chip as the streaming reader holds it, from the name
    /// and address just decoded (as ``ChipText/label(of:)-(ParsedChip)``).
    func label(of c: ChipRecord) -> String {
        if c.item.recognition.error == nil {
            if c.item.kind == .emptyGroup, let group = c.item.group {
                return ChipText.clean(String(decoding: group, as: UTF8.self))
            }
            return ChipText.label(name: name, address: address, raw: c.raw)
        }
        return ChipText.label(name: [], address: [], raw: c.raw)
    }

    /// Whether the next chip's label can still show on the summary line:
    /// past the names that fit, a chip is only counted, and its label is
    /// not made.
    var labelShows: Bool {
        guard let labels, labels.widthLimit == summaryWidth ?? 0 else { return true }
        return !labels.isFull
    }

    /// Counts a chip of the summary line, keeping its label while it can
    /// show.
    mutating func appendLabel(_ label: String) {
        let width = summaryWidth ?? 0
        if labels?.widthLimit != width { labels = FieldSummary.Names(widthLimit: width) }
        labels!.append(label)
    }

    /// One record as a summary line: `1  Ann, Bob and 3 more`, the record
    /// number left out when not wanted, nothing after it for no chips.
    mutating func writeSummaryLine(width: Int) {
        var line = recordNumbers ? "\(currentRecord)" : ""
        let prefix = line.isEmpty ? "" : line + "  "
        let budget = width - TerminalWidth().width(of: prefix)
        // A width changed in the middle of a record keeps the names of the
        // width they were taken for.
        let fitted = labels.map { $0.summary(budget: min(budget, $0.widthLimit)) }
            ?? FieldSummary.make(labels: [], budget: budget)
        if !fitted.text.isEmpty { line = prefix + fitted.text }
        output.appendString(line)
        output.append(ASCII.lineFeed)
        labels?.removeAll()
        currentRecord += 1
    }

    /// What one chip's line is made of, whichever way the chip came.
    struct Fields {
        var record: Int
        var index: Int
        var isEmptyGroup: Bool
        var error: ChipError?
        /// The error's offset in the record.
        var errorAt: Int
        var group: [UInt8]?
        var raw: UnsafeBufferPointer<UInt8>
        var truncated: Bool
        var start: Int
        var end: Int
        var warnings: ChipWarnings
        var suggestion: String?
        /// The contact the chip stands for, when contacts were given:
        /// JSON Lines gains `"contact"` (an id or null), the other formats
        /// nothing.
        var contact: String?? = .none

        var kindName: StaticString {
            if error != nil { return "error" }
            return isEmptyGroup ? "group" : "mailbox"
        }
    }

    mutating func writeHeaderChip(
        kind: ListItem.Kind, error: ChipError?, group: String?, start: Int, end: Int, warnings: ChipWarnings,
        record: Int, index: Int, raw: UnsafeBufferPointer<UInt8>, truncated: Bool
    ) {
        let name = self.name, address = self.address
        let added = name.withUnsafeBufferPointer { name in
            address.withUnsafeBufferPointer { address in
                header.add(kind: kind, error: error, group: group, name: name, address: address, warnings: warnings)
            }
        }
        if !added, let reason = header.lastOmission {
            omissions.append(OmittedChip(record: record, index: index, raw: Array(raw), truncated: truncated, reason: reason))
        }
        header.take(into: &output)
    }

    // MARK: JSON Lines

    mutating func writeJSON(_ c: Fields) {
        let out = output.uniqueStorage
        let numbers = recordNumbers
        name.withUnsafeBufferPointer { name in
            address.withUnsafeBufferPointer { address in
                Self.writeJSON(c, name: name, address: address, recordNumbers: numbers, to: out)
            }
        }
    }

    /// One chip's JSON line, its decoded name and address given as bytes
    /// (empty: `null`). The simple lane's chips are written by
    /// ``JSONLine``, which writes what this writes.
    static func writeJSON(
        _ c: Fields, name: UnsafeBufferPointer<UInt8>, address: UnsafeBufferPointer<UInt8>, recordNumbers: Bool,
        to out: ByteBuffer.Storage
    ) {
        if recordNumbers {
            out.append("{\"record\":")
            out.appendDecimal(c.record)
            out.append(",\"chip\":")
        } else {
            out.append("{\"chip\":")
        }
        out.appendDecimal(c.index + 1)
        out.append(",\"kind\":\"")
        out.append(c.kindName)
        out.append(c.error == nil ? "\",\"state\":\"valid\",\"name\":" : "\",\"state\":\"error\",\"name\":")
        // A string, `null` when empty.
        @inline(__always) func appendText(_ text: UnsafeBufferPointer<UInt8>) {
            if text.isEmpty {
                out.append("null")
            } else {
                JSON.appendString(text, to: out)
            }
        }
        appendText(name)
        out.append(",\"address\":")
        appendText(address)
        if let group = c.group {
            out.append(",\"group\":")
            JSON.appendString(group, to: out)
        }
        out.append(",\"raw\":")
        JSON.appendString(c.raw, to: out)
        if c.truncated { out.append(",\"truncated\":true") }
        out.append(",\"start\":")
        out.appendDecimal(c.start)
        out.append(",\"end\":")
        out.appendDecimal(c.end)
        if let error = c.error {
            out.append(",\"error\":\"")
            out.append(error.staticCode)
            out.append("\",\"error_at\":")
            out.appendDecimal(c.errorAt)
        } else {
            out.append(",\"error\":null")
        }
        out.append(",\"warnings\":[")
        var first = true
        c.warnings.forEachCode { code in
            out.append(first ? "\"" : ",\"")
            out.append(code)
            out.append("\"")
            first = false
        }
        out.append("]")
        if let suggestion = c.suggestion {
            out.append(",\"suggestion\":")
            JSON.appendString(Array(suggestion.utf8), to: out)
        }
        if case .some(let contact) = c.contact {
            out.append(",\"contact\":")
            if let contact { JSON.appendString(Array(contact.utf8), to: out) } else { out.append("null") }
        }
        out.append("}\n")
    }

    // MARK: TSV

    /// Columns: record, chip (from 1), kind, state, name, address, group, error,
    /// warnings (comma-separated), start, end, raw. Tabs, line breaks,
    /// backslashes, other control bytes and invalid UTF-8 are escaped
    /// (`\t` `\n` `\r` `\\` `\xHH`), so each chip is one line.
    mutating func writeTSV(_ c: Fields) {
        let out = output.uniqueStorage
        if recordNumbers { out.appendDecimal(c.record) }
        out.append(ASCII.tab)
        out.appendDecimal(c.index + 1)
        out.append(ASCII.tab)
        out.append(c.kindName)
        out.append(ASCII.tab)
        out.append(c.error == nil ? "valid" : "error")
        out.append(ASCII.tab)
        Escaper.appendEscaped(name, to: out)
        out.append(ASCII.tab)
        Escaper.appendEscaped(address, to: out)
        out.append(ASCII.tab)
        if let group = c.group { Escaper.appendEscaped(group, to: out) }
        out.append(ASCII.tab)
        if let error = c.error { out.append(error.staticCode) }
        out.append(ASCII.tab)
        var first = true
        c.warnings.forEachCode { code in
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(code)
            first = false
        }
        out.append(ASCII.tab)
        out.appendDecimal(c.start)
        out.append(ASCII.tab)
        out.appendDecimal(c.end)
        out.append(ASCII.tab)
        Escaper.appendEscaped(c.raw, to: out)
        out.append(ASCII.lineFeed)
    }

    // MARK: Text

    /// The width of the text format's number column, `record.chip`.
    static let textNumberWidth = 7
    /// … and of the chip's number alone (`--no-record-numbers`).
    static let textNumberWidthWithoutRecords = 3

    /// The name as a person would write it: in quotes (with `"` and `\`
    /// escaped) when it holds a character that is special in an address.
    func appendNameForText(to out: ByteBuffer.Storage) {
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
            Escaper.appendEscaped(name, forPeople: true, to: out)
            return
        }
        // In quotes, a `"` is `\"` and every `\` is `\\` (one before the
        // closing quote would read as escaping it); every other byte as the
        // escaper writes it for people (controls and invisible characters
        // escaped).
        out.append(UInt8(ascii: "\""))
        var from = 0
        for (k, b) in name.enumerated() where b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            Escaper.appendEscaped(Array(name[from..<k]), forPeople: true, to: out)
            out.append(b == UInt8(ascii: "\"") ? "\\\"" : "\\\\")
            from = k + 1
        }
        Escaper.appendEscaped(Array(name[from...]), forPeople: true, to: out)
        out.append(UInt8(ascii: "\""))
    }

    /// `1.1      ok     Ann Lee <ann@x.org>` or `1.2      ERROR  bob@  -- missing-domain: …`:
    /// the record and the chip, both from 1, in a column of
    /// ``textNumberWidth`` (``textNumberWidthWithoutRecords`` with
    /// `--no-record-numbers`), so the columns after it line up up to
    /// record 9999 and chip 99 (a longer number pushes its line only).
    mutating func writeText(_ c: Fields) {
        let out = output.uniqueStorage
        let before = out.count
        if recordNumbers {
            out.appendDecimal(c.record)
            out.append(UInt8(ascii: "."))
        }
        out.appendDecimal(c.index + 1)
        let width = recordNumbers ? Self.textNumberWidth : Self.textNumberWidthWithoutRecords
        switch width - (out.count - before) {
        case 1: out.append(" ")
        case 2: out.append("  ")
        case 3: out.append("   ")
        case 4: out.append("    ")
        case 5: out.append("     ")
        case 6: out.append("      ")
        default: break  // the numbers fill the column (or pass it)
        }
        if let error = c.error {
            out.append("  ERROR  ")
            Escaper.appendEscaped(c.raw, forPeople: true, to: out)
            if c.truncated { out.append("...") }
            out.append("  -- ")
            out.append(error.staticCode)
            out.append(": ")
            out.appendString(error.message)
        } else {
            out.append("  ok     ")
            if c.isEmptyGroup {
                out.append("(empty group)")
            } else if name.isEmpty {
                Escaper.appendEscaped(address, forPeople: true, to: out)
            } else {
                appendNameForText(to: out)
                out.append(" <")
                Escaper.appendEscaped(address, forPeople: true, to: out)
                out.append(">")
            }
        }
        if let group = c.group {
            out.append("  [group: ")
            Escaper.appendEscaped(group, forPeople: true, to: out)
            out.append("]")
        }
        if !c.warnings.isEmpty {
            out.append("  [warning: ")
            var first = true
            c.warnings.forEachCode { code in
                if !first { out.append(", ") }
                out.append(code)
                first = false
            }
            if let suggestion = c.suggestion {
                out.append(" -> ")
                out.appendString(suggestion)
            }
            out.append("]")
        }
        out.append(ASCII.lineFeed)
    }
}

/// What ``ChipRecordWriter/write(record:_:)`` reads records with, kept
/// from record to record as `chipify` keeps its own: the recognizer
/// (making one builds tables that cost more than most records; it is reset
/// after each record, so only its caches carry over), the record's bytes
/// copied with a terminator and room after it, and the entries the
/// structural index finds. Scratch only: a writer that finds it shared
/// (a copy of the writer) makes its own, so the writer stays a value.
final class RecordScratch: @unchecked Sendable {
    let list: UnsafeMutablePointer<ListRecognizer>
    let chips: UnsafeMutablePointer<SimpleList.Chip>
    let bytes: UnsafeMutableBufferPointer<UInt8>

    /// Room after a record (its terminator, and 64 bytes) so that the
    /// lane's vector readers, which read up to 64 bytes from a chip's start
    /// when that many lie in the buffer (each checks), take their fast
    /// reading to the record's end, as in `chipify`'s buffer.
    static let slack = 65

    init(policy: ValidationPolicy) {
        list = .allocate(capacity: 1)
        list.initialize(to: ListRecognizer(policy: policy))
        chips = .allocate(capacity: SimpleList.maxChips)
        bytes = .allocate(capacity: SimpleList.maxBytes + Self.slack)
        bytes.initialize(repeating: 0)
    }

    deinit {
        list.deinitialize(count: 1)
        list.deallocate()
        chips.deallocate()
        bytes.deallocate()
    }

    /// `record`, at most ``SimpleList/maxBytes`` long, copied to the start
    /// of the buffer, a line feed (the index's terminator) after it; the
    /// buffer, which lasts until the next call. The buffer never grows.
    ///
    /// - Complexity: O(*n*) in the record's length.
    func hold(_ record: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let n = record.count
        precondition(n + Self.slack <= bytes.count, "a record the index holds")
        if let from = record.baseAddress { bytes.baseAddress!.update(from: from, count: n) }
        bytes[n] = ASCII.lineFeed
        return UnsafeBufferPointer(bytes)
    }
}
