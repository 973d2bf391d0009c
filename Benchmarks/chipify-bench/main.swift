#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// chipify-bench: the benchmark runner. This first version generates the
// benchmark corpus; the timed scenarios come with the benchmark harness.

let arguments = Array(CommandLine.arguments.dropFirst())
let benchUsage = "Usage: chipify-bench corpus --size SIZE [--seed N]"

switch arguments.first {
case "corpus":
    exit(runCorpusCommand(arguments.dropFirst()))
case "-h", "--help":
    print("""
        chipify-bench: benchmarks for Chipify.

        \(benchUsage)
        """)
    exit(0)
default:
    let what = arguments.first.map { "unknown command '\($0)'" } ?? "missing command"
    let message = "Error: \(what)\n\(benchUsage)\nSee 'chipify-bench --help'.\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(64)
}
