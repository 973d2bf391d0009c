#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file, or nil when it cannot be opened or read. For tests
/// and benchmark set-up, never for the engine's own I/O.
///
/// - Complexity: O(*n*) in the file's size.
public func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

/// The names in a directory, sorted, without the hidden ones; nil when it
/// cannot be opened (so a caller can tell "missing" from "empty").
public func directoryEntries(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
}

/// The root of the package checkout, found from a source file's path
/// (`#filePath` of a file under `Sources/`, `Tests/` or `Benchmarks/`).
public func packageRoot(from filePath: String = #filePath) -> String {
    for marker in ["/Tests/", "/Sources/", "/Benchmarks/", "/Fuzz/"] {
        if let r = filePath.firstRange(of: marker) { return String(filePath[..<r.lowerBound]) }
    }
    return "."
}
