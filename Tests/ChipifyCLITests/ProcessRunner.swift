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

/// The directory of the built products, found next to the test bundle:
/// on Linux the test binary is the process (`/proc/self/exe`); on macOS a
/// testing helper loads `….xctest/Contents/MacOS/…`, found among the
/// loaded images. The path is cut at its `.xctest`; `CHIPIFY_PRODUCTS`
/// names another directory.
let productsDirectory: String = {
    if let given = getenv("CHIPIFY_PRODUCTS") {
        let path = String(cString: given)
        return path.hasSuffix("/") ? path : path + "/"
    }
    var path = ""
    #if canImport(Darwin)
    for i in 0..<_dyld_image_count() {
        guard let name = _dyld_get_image_name(i) else { continue }
        let image = String(cString: name)
        if image.contains(".xctest/") {
            path = image
            break
        }
    }
    if path.isEmpty {
        var size = UInt32(4096)
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) == 0 { path = String(cString: buffer) }
    }
    #else
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    path = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    #endif
    // .../debug/ChipifyPackageTests.xctest[/Contents/MacOS/ChipifyPackageTests]  →  .../debug/
    if let bundle = path.firstRange(of: ".xctest/") { path = String(path[..<bundle.lowerBound]) + ".xctest" }
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

/// Whether GNU `time` (with `-f`) is installed: the most exact measure of a
/// child's peak memory. Without it, the peak is read from the child's
/// `/proc/PID/status` while it runs (below).
/// `CHIPIFY_TESTS_WITHOUT_GNU_TIME=1` tries the other way where GNU `time` is installed.
let hasGNUTime: Bool = {
    guard getenv("CHIPIFY_TESTS_WITHOUT_GNU_TIME") == nil, access("/usr/bin/time", X_OK) == 0 else { return false }
    return runProcess("/usr/bin/time", ["-f", "%M", "/bin/true"]).status == 0
}()

/// Whether a command is on the PATH (for tests of recipes that use it).
func commandExists(_ name: String) -> Bool {
    runProcess("/bin/sh", ["-c", "command -v \(name) >/dev/null 2>&1"]).status == 0
}

/// Runs `executable` with `arguments`, standard input from the file at
/// `stdinPath` (or /dev/null), capturing both outputs through files so no
/// pipe can fill up and block.
///
/// With `measureMemory`, the child's peak resident memory is measured. Under
/// GNU `time`, which forks a small process of its own: `wait4` on a child
/// started by `posix_spawn` from here would report this test process's peak
/// instead, because the child shares our memory until it calls `exec`.
/// Without GNU `time`, the child's `VmHWM` (its high-water mark, which only
/// grows) is read from `/proc` every half millisecond until it exits: the
/// last reading is its peak but for what it may add in its last moments.
/// Where a child's standard output goes.
enum OutputTarget {
    /// A file the runner reads back (the default).
    case captured
    /// A path such as `/dev/full`, not read back.
    case path(String)
    /// A pipe whose reading end is already closed (as after `| head`).
    case closedPipe
}

func runProcess(
    _ executable: String, _ arguments: [String], stdinPath: String = "/dev/null", measureMemory: Bool = false,
    stdout target: OutputTarget = .captured
) -> ProcessResult {
    if measureMemory && hasGNUTime {
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
    var pipeEnds: [Int32] = [-1, -1]
    switch target {
    case .captured:
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_TRUNC, 0)
    case .path(let path):
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY, 0)
    case .closedPipe:
        precondition(pipe(&pipeEnds) == 0, "pipe")
        close(pipeEnds[0])
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    }
    defer { if pipeEnds[1] >= 0 { close(pipeEnds[1]) } }
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_TRUNC, 0)
    let pid = spawn(executable, arguments, &actions)
    precondition(pid > 0, "cannot start \(executable)")
    var status: Int32 = 0
    var peakKiB = -1
    if measureMemory {
        let statusPath = "/proc/\(pid)/status"
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { break }
            if let hwm = highWaterMarkKiB(statusPath) { peakKiB = max(peakKiB, hwm) }
            usleep(500)
        }
        if peakKiB < 0 { peakKiB = Int.max }  // never read: fail rather than pass
    } else {
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    return ProcessResult(status: exitCode(status), stdout: readFile(outPath) ?? [], stderr: readFile(errPath) ?? [],
                         maxRSSKiB: peakKiB)
}

/// `VmHWM` of a running process, in KiB, from its `/proc/PID/status`.
func highWaterMarkKiB(_ statusPath: String) -> Int? {
    let fd = open(statusPath, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    guard n > 0 else { return nil }
    let bytes = buffer[0..<n]
    for line in bytes.split(separator: 0x0A) where line.starts(with: Array("VmHWM:".utf8)) {
        let digits = line.filter { $0 >= 0x30 && $0 <= 0x39 }
        return Int(String(decoding: digits, as: UTF8.self))
    }
    return nil
}

/// Starts `executable` with `arguments` and `actions`, its environment
/// only `SWIFT_BACKTRACE=enable=no` (a crash must not hang a test in the
/// backtracer): its pid, or 0 when it cannot start.
func spawn(_ executable: String, _ arguments: [String], _ actions: inout posix_spawn_file_actions_t) -> pid_t {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let envp: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no"), nil]
    defer { for p in envp { free(p) } }
    var pid: pid_t = 0
    return posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 ? pid : 0
}

/// A wait status as a shell reports it: the exit code, or 128 + the signal.
func exitCode(_ status: Int32) -> Int32 {
    (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}

/// A child whose standard input and output are pipes held by the test, to
/// talk with it a line at a time.
final class InteractiveProcess {
    let pid: pid_t
    private var input: Int32
    private var output: Int32
    private var pending: [UInt8] = []
    private var status: Int32?

    init?(_ executable: String, _ arguments: [String]) {
        // Close-on-exec, so that children other tests start meanwhile do
        // not hold these pipes open past `finish` (the child's own ends
        // are dup2'd onto 0 and 1, which clears the flag for it). Children
        // of `runProcess` end by themselves, so one that inherits an end
        // in the moment before the flag is set only delays the end of
        // input; `InteractiveProcess` tests run one at a time.
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { return nil }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addclose(&actions, toChild[1])
        posix_spawn_file_actions_addclose(&actions, fromChild[0])
        let child = spawn(executable, arguments, &actions)
        close(toChild[0])
        close(fromChild[1])
        guard child > 0 else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
    }

    /// Writes `text` to the child's standard input.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(input, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Up to `count` lines of the child's output, waiting at most `seconds`
    /// in all for them.
    func readLines(upTo count: Int, seconds: Int) -> [String] {
        var lines: [String] = []
        var waited = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lines.count < count {
            if let newline = pending.firstIndex(of: 0x0A) {
                lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
                continue
            }
            var p = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard waited < seconds * 1_000 else { break }
            if poll(&p, 1, 100) <= 0 { waited += 100; continue }
            let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            pending += buffer[0..<n]
        }
        return lines
    }

    /// Closes the reading end of the child's output, as `| head` does
    /// when it has enough.
    func closeOutput() {
        if output >= 0 { close(output); output = -1 }
    }

    /// The child's exit status if it ends within `seconds` (its input
    /// left open), else nil.
    func exitStatus(within seconds: Int) -> Int32? {
        if let status { return status }
        for _ in 0..<(seconds * 100) {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = exitCode(raw)
                return status
            }
            usleep(10_000)
        }
        return nil
    }

    /// Closes the child's input and waits for it: its exit status.
    @discardableResult
    func finish() -> Int32 {
        if let status { return status }
        if input >= 0 { close(input); input = -1 }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        closeOutput()
        let code = exitCode(raw)
        status = code
        return code
    }
}
