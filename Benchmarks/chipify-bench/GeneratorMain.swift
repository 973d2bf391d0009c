// `chipify-bench corpus`: writes the deterministic benchmark corpus to standard output.

import Glibc

private let corpusUsage = "Usage: chipify-bench corpus --size SIZE [--seed N] [--shape S]"

/// Runs `chipify-bench corpus` with the arguments after the subcommand name and
/// returns the process exit status: 0, 64 (EX_USAGE) or 74 (EX_IOERR).
func runCorpusCommand(_ args: ArraySlice<String>) -> Int32 {
    let size: Int
    let seed: UInt64
    let shape: CorpusShape?
    switch parseCorpusArguments(args) {
    case .run(let parsedSize, let parsedSeed, let parsedShape):
        size = parsedSize
        seed = parsedSeed
        shape = parsedShape
    case .help:
        writeText(STDOUT_FILENO, """
            \(corpusUsage)

            Writes SIZE bytes (rounded up to a whole record) of generated address lists,
            one per line, to standard output. The same seed gives the same bytes everywhere.

              --size SIZE  bytes: a plain number, or with KB/MB/GB (10^3, 10^6, 10^9)
                           or KiB/MiB/GiB (2^10, 2^20, 2^30)
              --seed N     unsigned 64-bit seed (default 1)
              --shape S    one shape of list only: \(CorpusShape.allCases.map(\.rawValue).joined(separator: ", "))

            """)
        return 0
    case .invalid(let message):
        writeText(STDERR_FILENO, """
            Error: \(message)
            \(corpusUsage)
            See 'chipify-bench --help'.

            """)
        return 64
    }

    var generator = CorpusGenerator(seed: seed, shape: shape)
    var failure: Int32 = 0
    generator.generate(byteCount: size, emitWhile: { chunk in
        failure = writeFully(STDOUT_FILENO, chunk)
        return failure == 0
    })
    guard failure == 0 else {
        writeText(STDERR_FILENO, "Error: cannot write the corpus to standard output: \(String(cString: strerror(failure)))\n")
        return 74
    }
    return 0
}

private enum CorpusArguments {
    case run(size: Int, seed: UInt64, shape: CorpusShape?)
    case help
    case invalid(String)
}

private func parseCorpusArguments(_ args: ArraySlice<String>) -> CorpusArguments {
    var size: Int?
    var seed: UInt64 = 1
    var shape: CorpusShape?
    var remaining = args
    while let argument = remaining.popFirst() {
        if argument == "-h" || argument == "--help" { return .help }

        // Both `--size 10MB` and `--size=10MB` are accepted.
        let name: String
        var value: String?
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            name = String(argument[..<equals])
            value = String(argument[argument.index(after: equals)...])
        } else {
            name = argument
        }
        guard name == "--size" || name == "--seed" || name == "--shape" else {
            return .invalid("unknown argument '\(argument)'.")
        }
        if value == nil { value = remaining.popFirst() }
        guard let value else { return .invalid("missing value for '\(name)'.") }

        if name == "--shape" {
            guard let parsed = CorpusShape(rawValue: value) else {
                return .invalid("unknown shape '\(value)' (expected \(CorpusShape.allCases.map(\.rawValue).joined(separator: ", "))).")
            }
            shape = parsed
        } else if name == "--size" {
            guard let bytes = parseByteSize(value) else {
                return .invalid("invalid size '\(value)' (expected e.g. 500000, 10MB or 64MiB).")
            }
            size = bytes
        } else {
            guard let number = UInt64(value) else {
                return .invalid("invalid seed '\(value)' (expected an unsigned 64-bit integer).")
            }
            seed = number
        }
    }
    guard let size else { return .invalid("missing required option '--size'.") }
    return .run(size: size, seed: seed, shape: shape)
}

/// Parses "1500", "10MB", "64MiB" and the like; suffixes are case-insensitive.
/// Nil for anything else, including values that overflow `Int`.
private func parseByteSize(_ text: String) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let count = Int(digits) else { return nil }
    let multiplier: Int
    switch text[digits.endIndex...].lowercased() {
    case "", "b": multiplier = 1
    case "kb": multiplier = 1_000
    case "mb": multiplier = 1_000_000
    case "gb": multiplier = 1_000_000_000
    case "kib": multiplier = 1 << 10
    case "mib": multiplier = 1 << 20
    case "gib": multiplier = 1 << 30
    default: return nil
    }
    let (bytes, overflow) = count.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : bytes
}

/// Writes all of `bytes`, resuming after partial writes, EINTR, and EAGAIN on a
/// non-blocking descriptor. Returns 0, or the errno of the write that failed.
private func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, base + offset, bytes.count - offset)
        if written > 0 {
            offset += written
            continue
        }
        // write(2) returns 0 only for a zero-length request; treat it as an I/O error
        // rather than spin forever.
        guard written < 0 else { return EIO }
        let error = errno
        switch error {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, -1)
        default:
            return error
        }
    }
    return 0
}

private func writeText(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { _ = writeFully(fd, UnsafeRawBufferPointer($0)) }
}
