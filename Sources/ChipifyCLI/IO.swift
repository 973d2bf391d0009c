#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ChipKit

/// Reports a usage error in the three lines of the house style and returns
/// its exit status, 64: `chipify replay: what is wrong`, the usage line,
/// `See 'chipify replay --help'.` Every message of a command starts with
/// its name (`chipify: ` for the filter), usage errors too.
func usageFailure(_ fd: Int32, _ message: String, usage: String, command: String) -> Int32 {
    writeAll(fd, "\(command): \(message)\n\(usage)\nSee '\(command) --help'.\n")
    return 64
}

/// A subcommand's options, or, when there is nothing more to do, the exit
/// status: 64 after a usage error in the house's three lines, or 0 (1 if
/// the write fails) after writing the help for `--help`.
func subcommandOptions<Options>(
    _ arguments: [String], parse: ([String]) throws(UsageError) -> Options, isHelp: (Options) -> Bool,
    usage: String, help: String, command: String, stdout: Int32, stderr: Int32
) -> (options: Options?, status: Int32) {
    let options: Options
    do {
        options = try parse(arguments)
    } catch {
        return (nil, usageFailure(stderr, error.message, usage: usage, command: "chipify \(command)"))
    }
    if isHelp(options) { return (nil, writeFailureStatus(writeAll(stdout, help), stderr: stderr) ?? 0) }
    return (options, 0)
}

/// A script's bytes from a file, or from standard input for none or `-`
/// (a BOM skipped), or nil after saying on standard error why it cannot be
/// read.
func readScript(_ path: String?, stdin: Int32, stderr: Int32, command: String) -> [UInt8]? {
    switch readWholeInput(path ?? "-", stdin: stdin, skippingBOM: true) {
    case .success(let bytes): return bytes
    case .failure(let failure):
        writeAll(stderr, "\(command): \(failure.message)\n")
        return nil
    }
}
