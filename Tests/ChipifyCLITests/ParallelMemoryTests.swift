#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import ChipifyCLI
import ChipTestSupport

/// The memory bound of `-j N`, on the layouts that test it: the peak is at
/// most that of `-j 1` on the same layout plus ``perThreadKiB`` per thread,
/// whatever the format (each of the 2 × N pieces holds at most 256 KiB of
/// input and 1 MiB of output plus the chip being written; see
/// docs/performance.md, which has the peaks of every format).
@Suite("chipify -j: the memory bound", .serialized)
struct ParallelMemoryTests {
    /// What each thread of `-j` may add to the peak of `-j 1`:
    /// `slotsPerJob` × (a piece of input + the output a piece holds, with
    /// the room a growing buffer takes: twice that).
    static let perThreadKiB = ParallelProcessor.slotsPerJob(summarize: false)
        * (256 + 2 * (ParallelProcessor.pieceOutputBytes >> 10))

    /// Short records, and every so often one long record of small chips
    /// (whose output, as JSON Lines, is about twenty times its size).
    static func layout(longRecordBytes: Int, totalBytes: Int) -> [UInt8] {
        var rng = SplitMix64(seed: UInt64(longRecordBytes))
        let short = Array("Ann Lee <ann@example.com>, b@x.org\n".utf8)
        let unit = Array("a@x.org, ".utf8)
        var long: [UInt8] = []
        while long.count < longRecordBytes - 1 { long += unit }
        long = Array(long.prefix(longRecordBytes - 1)) + [0x0A]
        var out: [UInt8] = []
        out.reserveCapacity(totalBytes + longRecordBytes)
        while out.count < totalBytes {
            for _ in 0...rng.below(40) { out += short }
            out += long
        }
        return out
    }

    /// Records just under a piece (they nearly fill one), just over it
    /// (streamed alone), and of four pieces, each among short records:
    /// bytes of input at `-j 2` and `-j 8` (enough records of 255 KiB that
    /// the pieces holding them would pass the bound if each kept its
    /// output, as they once did: 5 MB of JSON Lines each).
    static let layouts: [(name: String, longRecordBytes: Int, totalBytes: Int)] = [
        ("255 KiB records", 255 << 10, 3 << 20), ("256 KiB + 1 records", (256 << 10) + 1, 3 << 19),
        ("1 MiB records", 1 << 20, 3 << 19),
    ]

    /// A piece whose output passes the spill threshold hands it over
    /// before its end: the output is still that of one thread, in order.
    @Test(arguments: [["--format", "jsonl"], ["--format", "header"]])
    func outputHandedOverEarlyIsWrittenInOrder(_ format: [String]) throws {
        let input = Self.layout(longRecordBytes: 255 << 10, totalBytes: 1 << 20)
        let one = CLI.render(input, options: try CLI.parse(format + ["-j", "1"]))
        let three = CLI.render(input, options: try CLI.parse(format + ["-j", "3"]), pieceSize: 256 << 10)
        #expect(one.count > ParallelProcessor.pieceOutputBytes)
        #expect(three.count == one.count, "\(format)")
        // Where they part, not the whole (megabytes: a diff of them would
        // take minutes to print).
        let parting = zip(three, one).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(parting == nil, "\(format): the output parts from one thread's at byte \(parting ?? 0)")
    }

    /// In JSON Lines, whose output is the largest.
    @Test(.enabled(if: hasGNUTime, "needs GNU time (/usr/bin/time -f %M) to read a child's peak memory"),
          arguments: TestScale.sample(0..<3, 1, "-j memory bound, layouts"))
    func thePeakIsThatOfOneThreadPlusABoundPerThread(_ layout: Int) {
        let (name, longRecordBytes, totalBytes) = Self.layouts[layout]
        let format = ["--format", "jsonl"]
        // The peak of -j 1 is reached within a few long records.
        let small = temporaryFile(Self.layout(longRecordBytes: longRecordBytes, totalBytes: 5 << 18))
        let path = temporaryFile(Self.layout(longRecordBytes: longRecordBytes, totalBytes: totalBytes))
        defer { unlink(small); unlink(path) }
        let one = runProcess(chipifyPath, format + ["-j", "1", small], measureMemory: true, stdout: .path("/dev/null"))
        #expect(one.status == 0, "\(name)")
        // The layout the bound was made for at both counts; the others,
        // which stayed under it before, at the larger count (CI time).
        for jobs in layout == 0 ? [2, 8] : [8] {
            let r = runProcess(chipifyPath, format + ["-j", "\(jobs)", path], measureMemory: true, stdout: .path("/dev/null"))
            #expect(r.status == 0, "\(name) -j \(jobs)")
            let bound = one.maxRSSKiB + jobs * Self.perThreadKiB
            print("\(name): -j 1 \(one.maxRSSKiB) KiB, -j \(jobs) \(r.maxRSSKiB) KiB (bound \(bound) KiB)")
            #expect(r.maxRSSKiB <= bound, "\(name) -j \(jobs): \(r.maxRSSKiB) KiB, bound \(bound) KiB")
        }
    }
}
