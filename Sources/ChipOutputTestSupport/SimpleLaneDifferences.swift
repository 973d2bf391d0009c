import ChipDirectory
import ChipOutput
import ChipRecognition
import ChipSyntax

/// How the simple lane (``SimpleList`` chips recognized by
/// ``ListRecognizer/handleSimple(_:_:offset:)`` and written by
/// ``ChipRecordWriter/write(simple:record:index:_:raw:start:end:suggestion:)``)
/// differs from the general path on `records`, each one list: each
/// chip's verdict, and the bytes every format writes. Empty when the
/// two agree (records the index declines are skipped).
public func simpleLaneDifferences(_ records: [[UInt8]], policy: ValidationPolicy) -> [String] {
    var problems: [String] = []
    // Made at the first record the index reads: most inputs of the
    // fuzzer are not simple, and these are not free to make.
    var lane = ListRecognizer(policy: .strict, checksLookalikes: false)
    var general = lane
    var made = false
    let formats: [(OutputFormat, Bool)] = [(.jsonl, false), (.tsv, false), (.text, false), (.header, false), (.jsonl, true)]
    var laneWriters: [ChipRecordWriter] = []
    var generalWriters: [ChipRecordWriter] = []
    var chips: [SimpleList.Chip] = []
    for (number, record) in records.enumerated() {
        record.withUnsafeBufferPointer { p in
            chips.removeAll(keepingCapacity: true)
            guard SimpleList.appendChips(p, to: &chips) else { return }
            if !made {
                lane = ListRecognizer(policy: policy)
                general = ListRecognizer(policy: policy)
                laneWriters = formats.map { ChipRecordWriter(format: $0.0, policy: policy, summarize: $0.1, capacity: 512) }
                generalWriters = laneWriters
                made = true
            }
            lane.reset()
            general.reset()
            let text = String(decoding: record, as: UTF8.self).debugDescription
            var index = 0
            for c in chips {
                let segment = c.segment
                let simple = lane.handleSimple(c, p, offset: 0)
                if c.kind != .chip && simple != nil {
                    problems.append("\(text) \(c.range): the simple lane made a chip of a group's \(c.kind)")
                }
                guard let expected = general.handle(segment, p, base: 0) else {
                    if simple != nil { problems.append("\(text) \(c.range): the simple lane made a chip of only comments") }
                    // A group's name or end the lane takes leaves it as
                    // the general path does (its name is compared with
                    // each chip's group below).
                    if c.kind != .chip && lane.handleSimpleGroup(c, p, offset: 0) {
                        if lane.currentGroupName != general.currentGroupName {
                            problems.append("\(text) \(c.range): the simple lane's group name differs from the general path's")
                        }
                        continue
                    }
                    if lane.handle(segment, p, base: 0) != nil { problems.append("\(text) \(c.range): the lists went apart") }
                    continue
                }
                if c.kind != .chip && lane.handleSimpleGroup(c, p, offset: 0) {
                    problems.append("\(text) \(c.range): the simple lane took a group's end that is an item")
                }
                defer { index += 1 }
                let chip = ChipRecord(
                    record: number + 1, index: index, item: expected, source: p,
                    raw: UnsafeBufferPointer(rebasing: p[c.range]), truncated: false,
                    sourceStart: c.range.lowerBound, start: c.range.lowerBound, end: c.range.upperBound)
                for k in generalWriters.indices { generalWriters[k].write(chip) }
                guard let simple else {
                    _ = lane.handle(segment, p, base: 0)
                    for k in laneWriters.indices { laneWriters[k].write(chip) }
                    continue
                }
                let r = expected.recognition
                if expected.group != lane.currentGroupName {
                    problems.append("\(text) \(c.range): the simple lane's group differs from the general path's")
                }
                if r.error != nil || r.nameRange != simple.nameRange || r.nameIsComment != simple.nameIsComment || !r.addressIsVerbatim
                    || r.localPartRange != simple.localPartRange || r.domainRange != simple.domainRange
                    || r.warnings != simple.warnings || r.decodedAddress != nil
                    || r.suggestedDomain != (simple.typo >= 0 ? lane.commonDomain(simple.typo) : nil) {
                    problems.append("\(text) \(c.range): the simple lane's \(simple) differs from the general path's \(r)")
                }
                for k in laneWriters.indices {
                    let raw = UnsafeBufferPointer(rebasing: p[c.range])
                    let suggestion = simple.typo >= 0 ? lane.commonDomain(simple.typo) : nil
                    if simple.nameIsDecoded {
                        // As chipify writes it: the name the lane decoded.
                        laneWriters[k].write(
                            simple: simple, record: number + 1, index: index, p, raw: raw, start: c.range.lowerBound,
                            end: c.range.upperBound, suggestion: suggestion, group: lane.currentGroupName,
                            decodedName: lane.decodedName, decodedNameIsWellFormed: lane.decodedNameIsWellFormed)
                    } else {
                        laneWriters[k].write(
                            simple: simple, record: number + 1, index: index, p, raw: raw, start: c.range.lowerBound,
                            end: c.range.upperBound, suggestion: suggestion, group: lane.currentGroupName)
                    }
                }
            }
            for k in laneWriters.indices {
                laneWriters[k].endRecord()
                generalWriters[k].endRecord()
                if laneWriters[k].output.bytes != generalWriters[k].output.bytes
                    || laneWriters[k].summary != generalWriters[k].summary {
                    problems.append("\(text): the simple lane writes \(formats[k].0.rawValue)\(formats[k].1 ? " summary" : "") differently")
                }
                laneWriters[k].output.removeAll()
                generalWriters[k].output.removeAll()
            }
        }
    }
    return problems
}
