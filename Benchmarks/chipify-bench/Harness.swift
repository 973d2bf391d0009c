#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Order statistics of a set of samples.
struct Stats: Equatable {
    var count: Int
    var min: Double
    var median: Double
    var p90: Double
    var p99: Double
    var max: Double

    /// Percentiles by the nearest-rank method: the p-th percentile is the
    /// smallest sample with at least p% of the samples at or below it.
    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            let k = Int((p / 100 * Double(sorted.count)).rounded(.up))
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, k - 1))]
        }
        count = sorted.count
        min = sorted[0]
        median = rank(50)
        p90 = rank(90)
        p99 = rank(99)
        max = sorted[sorted.count - 1]
    }
}

/// A monotonic clock in nanoseconds.
func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One measured scenario: `run` does the work once and returns a checksum
/// of what it computed, so the optimizer cannot remove the work and a
/// reader can see two runs did the same thing.
struct Scenario {
    var name: String
    /// Bytes processed per run (0 when throughput does not apply).
    var bytes: Int
    /// Operations per run, when a run is a batch of small operations
    /// (keystrokes): the statistics are then per operation.
    var operations: Int = 1
    var warmups: Int
    var samples: Int
    var run: () -> UInt64
}

struct Result {
    var name: String
    var unit: String
    var stats: Stats
    var bytes: Int
    var checksum: UInt64
}

/// Runs warm-ups (not recorded), then the samples. Setup happens before
/// this is called and is not timed.
func measure(_ s: Scenario) -> Result {
    var checksum: UInt64 = 0
    for _ in 0..<s.warmups { checksum = s.run() }
    var times: [Double] = []
    times.reserveCapacity(s.samples)
    for _ in 0..<s.samples {
        let t0 = nowNanoseconds()
        let c = s.run()
        let t1 = nowNanoseconds()
        if checksum != 0 && c != checksum && s.warmups > 0 {
            fatalError("\(s.name): checksum changed between runs (\(checksum) then \(c))")
        }
        checksum = c
        times.append(Double(t1 - t0) / Double(s.operations))
    }
    let unit = s.operations > 1 ? "ns/op" : "ns"
    return Result(name: s.name, unit: unit, stats: Stats(times), bytes: s.bytes, checksum: checksum)
}

func formatDouble(_ v: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var text = "\(r)"
    if text.hasSuffix(".0") && decimals == 0 { text.removeLast(2) }
    return text
}

/// Megabytes (10^6 bytes) per second at the median.
func throughput(_ r: Result) -> Double? {
    guard r.bytes > 0, r.stats.median > 0 else { return nil }
    return Double(r.bytes) / r.stats.median * 1_000  // bytes/ns → MB/s
}

func report(_ r: Result, json: Bool) -> String {
    let s = r.stats
    if json {
        var line = "{\"name\":\"\(r.name)\",\"unit\":\"\(r.unit)\",\"samples\":\(s.count)"
        line += ",\"min\":\(formatDouble(s.min, decimals: 1)),\"median\":\(formatDouble(s.median, decimals: 1))"
        line += ",\"p90\":\(formatDouble(s.p90, decimals: 1)),\"p99\":\(formatDouble(s.p99, decimals: 1))"
        line += ",\"max\":\(formatDouble(s.max, decimals: 1)),\"bytes\":\(r.bytes)"
        if let mbs = throughput(r) { line += ",\"mb_per_s\":\(formatDouble(mbs, decimals: 1))" }
        line += ",\"checksum\":\(r.checksum)}"
        return line
    }
    func time(_ ns: Double) -> String {
        if ns >= 1_000_000 { return formatDouble(ns / 1_000_000, decimals: 2) + " ms" }
        if ns >= 1_000 { return formatDouble(ns / 1_000, decimals: 2) + " µs" }
        return formatDouble(ns, decimals: 1) + " ns"
    }
    var line = r.name.padding(20)
    line += " n=\(s.count)  min \(time(s.min))  median \(time(s.median))  p90 \(time(s.p90))"
    line += "  p99 \(time(s.p99))  max \(time(s.max))"
    if let mbs = throughput(r) { line += "  \(formatDouble(mbs, decimals: 1)) MB/s" }
    line += "  checksum \(r.checksum)"
    return line
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
