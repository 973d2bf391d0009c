#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ChipKit

/// The draft of a compose session: the composer's snapshot as JSON (the
/// snapshot's own `Codable` form, written by hand by ``DraftWriter``),
/// restored on start, saved while the person types and on leaving,
/// removed once the headers are written.
///
/// A draft is untrusted input: ``load(_:)`` restores it through
/// ``Composer/init(snapshot:)``, which applies every rule typing applies.
enum ComposeDraft {
    enum Loaded {
        case none
        case restored(Composer)
        case failure(String)
    }

    /// Where the draft lives without `--draft`: `$XDG_STATE_HOME/chipify/draft.json`,
    /// else `~/.local/state/chipify/draft.json` (nil without either variable,
    /// or when they are not absolute paths, as the XDG rules require).
    static func defaultPath(environment: (String) -> String?) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/chipify/draft.json" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.local/state/chipify/draft.json" }
        return nil
    }

    static func load(_ path: String) -> Loaded {
        guard access(path, F_OK) == 0 else { return .none }
        switch readWholeInput(path, stdin: nil, skippingBOM: true) {
        case .failure(let failure): return .failure(failure.message)
        case .success(let bytes):
            do {
                let value = JSONReader.Value.object(try JSONReader.object(bytes, nested: true))
                let snapshot = try ComposerSnapshot(from: JSONValueDecoder(value: value))
                return .restored(try Composer(snapshot: snapshot))
            } catch {
                // The reason may quote the file: shown cleaned, on one line.
                return .failure("\(path): not a draft this version can read (\(ChipText.clean("\(error)")))")
            }
        }
    }

    /// The draft's bytes, or why they cannot be made.
    ///
    /// - Complexity: O(*n*) in the chips and bytes of text.
    static func encode(_ composer: Composer) -> Result<[UInt8], DraftError> {
        do {
            var out = try DraftWriter.encode(composer.snapshot)
            out.append("\n")
            return .success(out.bytes)
        } catch {
            return .failure(DraftError(message: "cannot save the draft: \(error)"))
        }
    }

    /// Writes `bytes` to `path` so that a crash at any moment leaves the
    /// old draft or the new one, never a part: a temporary file beside it,
    /// `fsync`, `rename`. Makes the directories on the way (mode 0700).
    /// Returns why it could not, or nil.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        makeDirectories(for: path)
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot save the draft to '\(path)': \(errorText(errno))" }
        var writer = OutputBuffer(fd: fd, capacity: 0)
        writer.buffer.append(contentsOf: bytes)
        writer.flush()
        var failure = writer.failed ? writer.writeError : 0
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            return "cannot save the draft to '\(path)': \(errorText(failure))"
        }
        return nil
    }

    /// Saves the composer to `path`; returns why it could not, or nil.
    static func save(_ composer: Composer, to path: String) -> String? {
        switch encode(composer) {
        case .failure(let error): return error.message
        case .success(let bytes): return write(bytes, to: path)
        }
    }

    /// `mkdir -p` of the draft's directory, private to its owner.
    private static func makeDirectories(for path: String) {
        var prefix = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (k, part) in parts.enumerated() {
            prefix += (k == 0 ? "" : "/") + part
            if !prefix.isEmpty { mkdir(prefix, 0o700) }
        }
    }
}

struct DraftError: Error {
    var message: String
}

/// Saves drafts while the person types, off the thread that reads keys:
/// the snapshot is encoded where the composer is (O(*n*)), and the write,
/// `fsync` and `rename` run on a serial queue, so a slow disk never delays
/// a keystroke and saves land in order.
///
/// Debounced: a change is saved once keys have been quiet for
/// ``quietMilliseconds``, or at the latest ``maxDelayMilliseconds`` after
/// it while typing goes on.
struct DraftAutosave {
    static let quietMilliseconds: Int64 = 1_000
    static let maxDelayMilliseconds: Int64 = 10_000

    let path: String
    private let queue = DispatchQueue(label: "chipify.compose.draft")
    /// When the oldest change not yet saved was made (ms, monotonic), or nil.
    private(set) var dirtySince: Int64?
    private(set) var lastChange: Int64 = 0
    /// Saves started (for tests and the status of a session).
    private(set) var saves = 0

    init(path: String) { self.path = path }

    static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000 + Int64(t.tv_nsec) / 1_000_000
    }

    mutating func changed(at time: Int64 = DraftAutosave.now()) {
        if dirtySince == nil { dirtySince = time }
        lastChange = time
    }

    /// How long the loop may wait for a key before a save is due (-1: no save pending).
    func timeout(at time: Int64 = DraftAutosave.now()) -> Int32 {
        guard let since = dirtySince else { return -1 }
        let due = min(lastChange + DraftAutosave.quietMilliseconds, since + DraftAutosave.maxDelayMilliseconds)
        return Int32(clamping: max(0, due - time))
    }

    /// Starts a save in the background when one is due.
    mutating func saveIfDue(_ composer: Composer, at time: Int64 = DraftAutosave.now()) {
        guard dirtySince != nil, timeout(at: time) == 0 else { return }
        dirtySince = nil
        guard case .success(let bytes) = ComposeDraft.encode(composer) else { return }
        saves += 1
        let path = self.path
        queue.async { _ = ComposeDraft.write(bytes, to: path) }
    }

    /// Waits for the saves under way, then runs `body` on the same queue
    /// (so nothing written in the background can land after it).
    func finally<T: Sendable>(_ body: @Sendable () -> T) -> T {
        queue.sync(execute: body)
    }
}
