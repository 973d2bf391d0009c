import ChipKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `chipify --contacts FILE`: records as usual, with each chip resolved
/// against the address books. A typed address gets its contact (and its
/// name when it had none); a typed name becomes its one best contact, or
/// the error `ambiguous`. JSON Lines gains `"contact"`.
///
/// Records are read whole (a line at a time), then recognized and
/// resolved: a slower path than the streaming one, which knows no contacts.
struct ContactRecords {
    var resolver: ContactResolver
    var policy: ValidationPolicy
    var terminator: UInt8

    /// Processes one input; returns the errno of a failed read, or nil.
    func run(fd: Int32, writer: inout ChipWriter, totals: inout RunTotals) -> Int32? {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var atStart = true
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { break }
            pending += chunk[0..<n]
            if atStart && pending.count >= 3 {
                if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
                atStart = false
            }
            var start = 0
            while let end = pending[start...].firstIndex(of: terminator) {
                handle(Array(pending[start..<end]), writer: &writer, totals: &totals)
                start = end + 1
                if writer.failed { return nil }
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty { handle(pending, writer: &writer, totals: &totals) }
        return nil
    }

    func handle(_ record: [UInt8], writer: inout ChipWriter, totals: inout RunTotals) {
        totals.records += 1
        var seen: Set<String> = []
        let chips = AddressList.parse(record, policy: policy)
        for (index, chip) in chips.enumerated() {
            var resolved = resolver.resolve(chip, policy: policy, excludes: { [seen] in seen.contains($0.lowercased()) })
            // What was typed, and where, stays: a resolved name keeps its raw text.
            resolved.content.raw = chip.raw
            resolved.content.byteRange = chip.byteRange
            if let address = resolved.content.address, resolved.content.isValid { seen.insert(address.lowercased()) }
            totals.chips += 1
            if !resolved.content.isValid { totals.errors += 1 }
            writer.records.write(resolved.content, record: totals.records, index: index, contact: resolved.contact)
        }
        writer.records.currentRecord = totals.records
        writer.endRecord()
    }
}
