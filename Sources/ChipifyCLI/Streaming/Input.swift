#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole of the file at `path` (`-`: the descriptor `stdin`, when
/// given), or why not, as the end of a message: `cannot open 'F': reason`,
/// `cannot read 'F': reason`, `cannot read standard input: reason`.
package func readWholeInput(_ path: String, stdin: Int32?, skippingBOM: Bool) -> Result<[UInt8], InputFailure> {
    if path == "-", let stdin {
        guard let bytes = readAllBytes(stdin, skippingBOM: skippingBOM) else {
            return .failure(InputFailure(message: "cannot read standard input: \(errorText(errno))"))
        }
        return .success(bytes)
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return .failure(InputFailure(message: "cannot open '\(path)': \(errorText(errno))")) }
    let bytes = readAllBytes(fd, skippingBOM: skippingBOM)
    let readError = errno
    close(fd)
    guard let bytes else { return .failure(InputFailure(message: "cannot read '\(path)': \(errorText(readError))")) }
    return .success(bytes)
}

/// Why an input could not be read (see ``readWholeInput(_:stdin:skippingBOM:)``).
package struct InputFailure: Error {
    package var message: String

    package init(message: String) { self.message = message }
}

/// Reads a file descriptor to its end; nil (with `errno`) when a read
/// fails, as on a directory (EISDIR), so a script is never taken as empty.
/// A byte order mark at the start is not part of the script, unless the
/// caller reads the mark itself (`skippingBOM: false`).
package func readAllBytes(_ fd: Int32, skippingBOM: Bool = true) -> [UInt8]? {
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { readSome(fd, $0.baseAddress!, $0.count) }
        if n < 0 { return nil }
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    if skippingBOM && out.starts(with: [0xEF, 0xBB, 0xBF]) { out.removeFirst(3) }
    return out
}
