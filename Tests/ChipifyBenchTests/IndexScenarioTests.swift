import Testing
@testable import chipify_bench
import ChipKit
import ChipTestSupport

/// `batch/index` times the structural index alone; what it counts must be
/// what the index gives for each record taken apart, or the figure would
/// time the wrong work.
@Suite("chipify-bench batch/index")
struct IndexScenarioTests {
    /// The same count, record by record: each line split off and read alone.
    func countedAlone(_ bytes: [UInt8]) -> IndexCount {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        // No record follows the buffer's last line feed, and none is in an empty buffer.
        if bytes.last == 0x0A || bytes.isEmpty { lines.removeLast() }
        var count = IndexCount()
        var start = 0
        for line in lines {
            Array(line).withUnsafeBufferPointer { record in
                withUnsafeTemporaryAllocation(of: SimpleList.Chip.self, capacity: SimpleList.maxChips) { out in
                    let entries = SimpleList.chips(record, into: out.baseAddress!)
                    count.add(start: start, entries.map { UnsafeBufferPointer(rebasing: out[0..<$0]) })
                }
            }
            start += line.count + 1
        }
        return count
    }

    @Test func countsWhatTheIndexGivesEachRecordAlone() throws {
        let real = try #require(readFile(packageRoot() + "/Corpus/real/debian-maintainers.txt"))
        let generated = generateCorpus(size: 300_000, seed: 7)
        // A last record with no line feed, an empty record, and one longer
        // than the index reads (declined).
        let tail = Array("\na@x.org, Ann <b@y.org>\n\n".utf8) + Array(String(repeating: "c@z.org, ", count: 600).utf8)
        for bytes in [real, generated, generated + tail, []] {
            let got = indexRecords(bytes)
            #expect(got == countedAlone(bytes))
            if !bytes.isEmpty {
                // Most records are answered, some declined, none lost.
                #expect(got.answered * 10 >= got.records * 9 && got.entries >= got.answered, "\(got)")
            }
        }
        // After the generated records' last line feed: the empty record,
        // the list, the empty record, the long one.
        #expect(generated.last == 0x0A)
        let withTail = indexRecords(generated + tail), alone = indexRecords(generated)
        #expect(withTail.records == alone.records + 4)
        #expect(withTail.answered == alone.answered + 3 && withTail.entries == alone.entries + 2)
    }
}
