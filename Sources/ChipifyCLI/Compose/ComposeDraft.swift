#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit

/// `--draft FILE`: the composer's snapshot, saved on leaving and restored
/// on start, as JSON (the snapshot's own `Codable` form).
enum ComposeDraft {
    enum Loaded {
        case none
        case restored(Composer)
        case failure(String)
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
                return .failure("\(path): not a draft this version can read (\(error))")
            }
        }
    }

    /// Saves the snapshot; returns why it could not, or nil.
    static func save(_ composer: Composer, to path: String) -> String? {
        let encoder = JSONValueEncoder()
        do {
            try composer.snapshot.encode(to: encoder)
        } catch {
            return "cannot save the draft: \(error)"
        }
        var out = ByteBuffer(capacity: 1 << 12)
        encoder.root.write(to: &out)
        out.append("\n")
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return "cannot save the draft to '\(path)': \(errorText(errno))" }
        var writer = OutputBuffer(fd: fd, capacity: 0)
        writer.buffer = out
        writer.flush()
        close(fd)
        if writer.failed || rename(temporary, path) != 0 {
            unlink(temporary)
            return "cannot save the draft to '\(path)': \(errorText(writer.failed ? writer.writeError : errno))"
        }
        return nil
    }
}
