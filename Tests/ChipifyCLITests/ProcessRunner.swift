#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipTestSupport

/// What a finished process left behind.
struct ProcessResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
    /// Peak resident set size of the process, in KiB, when measured.
    var maxRSSKiB: Int

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// The directory of the built products, found next to the test bundle.
let productsDirectory: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var path = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    // .../debug/ChipifyPackageTests.xctest  →  .../debug
    while !path.isEmpty && !path.hasSuffix("/") { path.removeLast() }
    return path
}()

let chipifyPath = productsDirectory + "chipify"

/// A temporary file holding `bytes`, removed by the caller.
func temporaryFile(_ bytes: [UInt8]) -> String {
    var template = Array("/tmp/chipify-test-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    precondition(fd >= 0, "mkstemp failed")
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            precondition(n > 0, "write failed")
            offset += n
        }
    }
    close(fd)
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Runs `executable` with `arguments`, standard input from the file at
/// `stdinPath` (or /dev/null), capturing both outputs through files so no
/// pipe can fill up and block.
///
/// With `measureMemory`, the process runs under GNU `time`, which forks a
/// small process of its own: `wait4` on a child started by `posix_spawn`
/// from here would report this test process's peak instead, because the
/// child shares our memory until it calls `exec`.
func runProcess(
    _ executable: String, _ arguments: [String], stdinPath: String = "/dev/null", measureMemory: Bool = false
) -> ProcessResult {
    if measureMemory {
        let memPath = temporaryFile([])
        defer { unlink(memPath) }
        var r = runProcess("/usr/bin/time", ["-f", "%M", "-o", memPath, executable] + arguments, stdinPath: stdinPath)
        let text = String(decoding: readFile(memPath) ?? [], as: UTF8.self)
        r.maxRSSKiB = Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? Int.max
        return r
    }
    let outPath = temporaryFile([])
    let errPath = temporaryFile([])
    defer { unlink(outPath); unlink(errPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_TRUNC, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_TRUNC, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let envp: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no"), nil]
    defer { for p in envp { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    precondition(rc == 0, "cannot start \(executable): \(rc)")
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ProcessResult(status: exitStatus, stdout: readFile(outPath) ?? [], stderr: readFile(errPath) ?? [],
                         maxRSSKiB: -1)
}
