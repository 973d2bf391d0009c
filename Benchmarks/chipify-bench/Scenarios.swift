#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit
import ChipifyCLI

/// Reads a whole file into memory (setup, not timed).
func loadFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n <= 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

/// Generates `size` bytes of corpus with `seed` in memory (setup, not timed).
func generateCorpus(size: Int, seed: UInt64) -> [UInt8] {
    var generator = CorpusGenerator(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(size + 65_536)
    generator.generate(byteCount: size) { out.append(contentsOf: $0) }
    return out
}

/// Scans and recognizes every line of `bytes` with the library alone, no
/// output: the work `chipify --summary` does. Returns a checksum mixing the
/// chip count with every error's reason and position.
func scanAndRecognize(_ bytes: [UInt8], policy: ValidationPolicy = .standard) -> UInt64 {
    var checksum: UInt64 = 0
    bytes.withUnsafeBufferPointer { p in
        var list = ListRecognizer(policy: policy)
        var segments: [Segment] = []
        var start = 0
        let n = p.count
        while start < n {
            var end = start
            if let hit = memchr(p.baseAddress! + start, 0x0A, n - start) {
                end = UnsafeRawPointer(hit) - UnsafeRawPointer(p.baseAddress!)
            } else {
                end = n
            }
            let line = UnsafeBufferPointer(rebasing: p[start..<end])
            var scanner = ListScanner()
            segments.removeAll(keepingCapacity: true)
            scanner.scan(line) { segments.append($0) }
            scanner.finish { segments.append($0) }
            for segment in segments {
                guard let item = list.handle(segment, line, base: 0) else { continue }
                checksum &+= 1
                if let error = item.recognition.error {
                    checksum = (checksum &* 31) &+ UInt64(error.precedence) &+ UInt64(item.recognition.errorOffset)
                }
            }
            list.reset()
            start = end + 1
        }
    }
    return checksum
}

/// Runs `chipify` in process with its output going to /dev/null; returns
/// the exit status mixed with the input's size (the CLI's own counts are
/// checked by its tests).
func runCLI(_ arguments: [String]) -> UInt64 {
    let devnull = open("/dev/null", O_WRONLY)
    defer { close(devnull) }
    let status = CLI.main(arguments, stdin: 0, stdout: devnull, stderr: 2)
    return UInt64(status) &+ 1
}

/// Resident memory of this process in bytes, from /proc/self/statm.
func residentBytes() -> Int {
    guard let bytes = loadFile("/proc/self/statm") else { return 0 }
    let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Memory held per parsed chip (`ParsedChip`, with its raw bytes and
/// strings), measured as the growth of resident memory while `count`
/// chips are kept alive. Lists are parsed 10,000 chips at a time so the
/// transient input copies stay small next to the result.
func bytesPerChip(count: Int) -> Double {
    let kinds = ["ann.lee@example.com", "\"Lee, Ann\" <ann@example.com>", "Bob Ray <bob@example.org>"]
    var batch: [UInt8] = []
    for k in 0..<10_000 {
        batch += Array(kinds[k % kinds.count].utf8)
        batch += Array(", ".utf8)
    }
    var kept: [ParsedChip] = []
    kept.reserveCapacity(count)
    let before = residentBytes()
    while kept.count < count {
        kept += AddressList.parse(batch)
    }
    let after = residentBytes()
    return Double(after - before) / Double(kept.count)
}
