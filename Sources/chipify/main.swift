#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipifyCLI

// A closed pipe downstream (`chipify big.txt | head`) must end the run
// quietly, not kill it with SIGPIPE before buffered output is handled.
signal(SIGPIPE, SIG_IGN)
exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
