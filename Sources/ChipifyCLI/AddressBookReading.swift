import ChipKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What reading one address book ended with.
struct AddressBookRead {
    var format: ContactFileFormat
    var textEncoding: String
    /// Whether a problem lost a record holding a name or an address.
    var hadError: Bool
}

/// Reads the address book at `path` (`-`: the descriptor `stdin`) a piece
/// at a time, so that a large file is never held whole: `contacts` is
/// called with each batch of contacts read, `problem` with each problem,
/// as they come.
///
/// - Returns: how the file read, or why it could not be opened or read
///   (the contacts before a failed read have been handed out).
func readAddressBook(
    _ path: String, stdin: Int32?, options: ContactImportOptions,
    contacts: ([Contact]) -> Void, problem: (ContactImportProblem) -> Void
) -> Result<AddressBookRead, InputFailure> {
    let fd: Int32
    if path == "-", let stdin {
        fd = stdin
    } else {
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(InputFailure(message: "cannot open '\(path)': \(errorText(errno))")) }
    }
    defer { if fd != stdin || path != "-" { close(fd) } }
    var stream = ContactImportStream(options: options)
    var hadError = false
    func drain(_ stream: inout ContactImportStream) {
        let batch = stream.takeContacts()
        if !batch.isEmpty { contacts(batch) }
        for p in stream.takeProblems() {
            hadError = hadError || !p.isWarning
            problem(p)
        }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = chunk.withUnsafeMutableBytes { readSome(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            let code = errno
            stream.finish()
            drain(&stream)
            let name = path == "-" ? "standard input" : "'\(path)'"
            return .failure(InputFailure(message: "cannot read \(name): \(errorText(code))"))
        }
        if n == 0 { break }
        chunk.withUnsafeBufferPointer { stream.feed(UnsafeBufferPointer(rebasing: $0[..<n])) }
        drain(&stream)
    }
    stream.finish()
    drain(&stream)
    return .success(AddressBookRead(format: stream.format, textEncoding: stream.textEncoding, hadError: hadError))
}

/// A problem as `chipify contacts` and the commands that load address
/// books report it: `COMMAND: FILE:LINE: reason`, with `warning: ` before
/// the reason of a warning.
func appendProblem(_ p: ContactImportProblem, file: String, command: String, to out: inout ByteBuffer) {
    out.appendString(command)
    out.appendString(": ")
    out.appendString(file)
    if p.line > 0 {
        out.append(UInt8(ascii: ":"))
        out.appendDecimal(p.line)
    }
    out.appendString(p.isWarning ? ": warning: " : ": ")
    out.appendString(p.message)
    out.append(ASCII.lineFeed)
}
