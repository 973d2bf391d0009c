#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What a signal handler needs to put the terminal back: the descriptor, the
// settings from before raw mode, and the bytes that undo the screen modes,
// all set up before any handler is installed and never changed while one
// may run (they are cleared only after the handlers are removed). A
// handler reads them and calls only write(2), tcsetattr(3), signal(2) and
// raise(3), which are async-signal-safe; it never allocates or locks, so
// these plain globals are safe where a Swift lock or array would not be.
nonisolated(unsafe) private var restoreFD: Int32 = -1
nonisolated(unsafe) private var restoreSettings: UnsafeMutablePointer<termios>?
nonisolated(unsafe) private var restoreBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var restoreByteCount = 0
/// The write end of the pipe SIGWINCH and the terminating signals wake
/// the loop through.
nonisolated(unsafe) private var resizePipeWrite: Int32 = -1
/// The terminating signal received and not yet handled by the loop (0: none).
nonisolated(unsafe) private var pendingSignal: Int32 = 0

/// Undoes what a compose session did to the terminal: bracketed paste off,
/// cursor shown, the main screen back.
private let restoreSequence = Array("\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
/// The alternate screen, bracketed paste on.
private let enterSequence = Array("\u{1B}[?1049h\u{1B}[?2004h".utf8)

/// Signals asking the process to end: the loop is woken, saves the draft,
/// restores the terminal and raises the signal again with its default
/// action (see ``ComposeTerminal/end(bySignal:)``). A second one before
/// the loop has answered the first ends the process at once, as a fault does.
let terminatingSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]

/// Faults: nothing more can safely run, so the handler restores the
/// terminal and raises the signal again with its default action (so the
/// exit status and any core dump are what they would have been).
private let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

private func restoreFromSignal(_ number: Int32) {
    if restoreFD >= 0 {
        if let bytes = restoreBytes { _ = write(restoreFD, bytes, restoreByteCount) }
        if let settings = restoreSettings { _ = tcsetattr(restoreFD, TCSAFLUSH, settings) }
    }
    signal(number, SIG_DFL)
    raise(number)
}

private func wakeOnResize(_ number: Int32) {
    var byte: UInt8 = 1
    if resizePipeWrite >= 0 { _ = write(resizePipeWrite, &byte, 1) }
}

private func wakeOnTerminatingSignal(_ number: Int32) {
    guard pendingSignal == 0, resizePipeWrite >= 0 else { return restoreFromSignal(number) }
    pendingSignal = number
    var byte: UInt8 = 2
    _ = write(resizePipeWrite, &byte, 1)
}

/// The terminal a compose session draws on: `/dev/tty` in raw mode, on
/// the alternate screen, with bracketed paste. Always restored: on
/// ``restore()``, and from a handler on a fatal signal.
struct ComposeTerminal {
    let fd: Int32
    let resizeRead: Int32

    /// Opens `/dev/tty`, or returns why it cannot (no controlling terminal).
    static func openTTY() -> Result<ComposeTerminal, UsageError> {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(UsageError(message: "compose needs a terminal to draw on, and /dev/tty cannot be opened (\(errorText(errno)))"))
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let reason = errorText(errno)
            close(fd)
            return .failure(UsageError(message: "compose needs a terminal to draw on, and /dev/tty is not one (\(reason))"))
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(fd)
            return .failure(UsageError(message: "cannot make a pipe: \(errorText(errno))"))
        }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)

        // Everything a handler reads is in place before the first handler.
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: settings)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: restoreSequence.count)
        bytes.initialize(from: restoreSequence, count: restoreSequence.count)
        restoreSettings = saved
        restoreBytes = bytes
        restoreByteCount = restoreSequence.count
        resizePipeWrite = ends[1]
        restoreFD = fd
        pendingSignal = 0
        for s in fatalSignals { signal(s, restoreFromSignal) }
        for s in terminatingSignals { signal(s, wakeOnTerminatingSignal) }
        signal(SIGWINCH, wakeOnResize)
        // A mask inherited from the parent (a test runner's, say) would
        // keep SIGTERM and SIGWINCH from ever arriving.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in fatalSignals + terminatingSignals + [SIGWINCH] { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)

        var raw = settings
        cfmakeraw(&raw)
        _ = tcsetattr(fd, TCSAFLUSH, &raw)
        let terminal = ComposeTerminal(fd: fd, resizeRead: ends[0])
        terminal.output(enterSequence)
        return .success(terminal)
    }

    /// The size in columns and rows (80×24 when the terminal does not say).
    var size: (width: Int, height: Int) {
        var ws = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    func output(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    enum Input: Equatable {
        case bytes([UInt8])
        case resized
        case quiet
        case closed
        /// A terminating signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT) arrived.
        case signal(Int32)
    }

    /// Waits for input, a resize, or `timeoutMilliseconds` of quiet (-1: forever).
    func next(timeoutMilliseconds: Int32) -> Input {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: resizeRead, events: Int16(POLLIN), revents: 0)]
        let n = poll(&fds, 2, timeoutMilliseconds)
        if n < 0 { return errno == EINTR ? next(timeoutMilliseconds: timeoutMilliseconds) : .closed }
        if n == 0 { return .quiet }
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(resizeRead, &drain, drain.count) > 0 {}
            return pendingSignal != 0 ? .signal(pendingSignal) : .resized
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = read(fd, &buffer, buffer.count)
        if got < 0 && (errno == EINTR || errno == EAGAIN) { return .bytes([]) }
        if got <= 0 { return .closed }
        return .bytes(Array(buffer[0..<got]))
    }

    /// Puts the terminal back as it was and removes the handlers.
    func restore() {
        output(restoreSequence)
        if let settings = restoreSettings { _ = tcsetattr(fd, TCSAFLUSH, settings) }
        for s in fatalSignals + terminatingSignals { signal(s, SIG_DFL) }
        signal(SIGWINCH, SIG_DFL)
        // No handler runs any more: the globals can go.
        restoreFD = -1
        resizePipeWrite = -1
        close(fd)
        close(resizeRead)
    }

    /// Ends the process as `number` would have, after the terminal was
    /// restored and the draft saved: the signal raised again with its
    /// default action, so the status is 128 + `number`.
    static func end(bySignal number: Int32) -> Never {
        signal(number, SIG_DFL)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, number)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        raise(number)
        exit(128 + number)
    }
}
