#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipKit
import ChipTestSupport

/// What a field holds per chip, its undo history included: `count` short
/// addresses (`u17@x.org, `) typed key by key into a composer's field,
/// one typing step, as a person (or `chipify replay`'s `type` op) types
/// them. Reports, once each:
/// - `memory/field/N`: resident bytes per chip, the field, the composer's
///   duplicate index and the undo history together;
/// - `memory/field-history/N`: what the history adds per chip (the same
///   keys typed into a composer that keeps no undo step), next to the
///   bytes the history counts itself;
/// - `memory/field-peak/N`: the peak while typing, per chip;
/// - `memory/paste/1mb`: the peak of one 1 MB paste into an empty composer
///   (one undo step), per chip it makes.
/// Printed as text lines, or as results with `--json`. Run before any
/// other scenario's setup, as `memory/chip` is: freed pages are given
/// back first (`trimHeap`), and the peak is reset through
/// `/proc/self/clear_refs` where Linux allows it.
func fieldMemoryScenario(count: Int) -> (results: [Result], lines: [String]) {
    var lines: [String] = []
    // With the history, then the same keys with none kept (no undo step):
    // the difference is what the history holds.
    trimHeap()
    let base = residentBytes()
    let peakWasReset = resetPeakResident()
    var composer: Composer? = typedComposer(count: count, undoSteps: 1_000)
    let peak = peakWasReset ? peakResidentBytes() : nil
    trimHeap()
    let typed = residentBytes() - base
    let counted = composer!.historyFootprint
    let checksum = UInt64(composer!.focusedField.count)
    composer = nil
    trimHeap()
    let bare = residentBytes()
    composer = typedComposer(count: count, undoSteps: 0)
    precondition(!composer!.canUndo)
    trimHeap()
    let withoutHistory = residentBytes() - bare
    composer = nil

    let perChip = Double(typed) / Double(count)
    let history = Double(typed - withoutHistory) / Double(count)
    let peakPerChip = peak.map { Double($0 - base) / Double(count) }
    lines.append("memory/field/\(count): \(formatDouble(perChip, decimals: 0)) bytes per chip typed key by key "
        + "(field, duplicate index and undo history), of which the history "
        + "\(formatDouble(history, decimals: 0)) (counted: \(formatDouble(Double(counted) / Double(count), decimals: 0))); "
        + "peak while typing \(peakPerChip.map { formatDouble($0, decimals: 0) } ?? "not measured")")
    var results = [
        Result(name: "memory/field/\(count)", unit: "bytes/chip", stats: Stats([perChip]), bytes: 0, checksum: checksum),
        Result(
            name: "memory/field-history/\(count)", unit: "bytes/chip", stats: Stats([history]), bytes: 0,
            checksum: UInt64(counted)),
    ]
    if let peakPerChip {
        results.append(Result(
            name: "memory/field-peak/\(count)", unit: "bytes/chip", stats: Stats([peakPerChip]), bytes: 0,
            checksum: checksum))
    }

    // One 1 MB paste: one undo step of every chip it makes.
    var paste: [UInt8] = []
    var chips = 0
    while paste.count < 1_000_000 {
        paste += Array("user\(chips)@example.org, ".utf8)
        chips += 1
    }
    trimHeap()
    let pasteBase = residentBytes()
    let pastePeakWasReset = resetPeakResident()
    var pasted: Composer? = Composer()
    pasted!.paste(bytes: paste)
    precondition(pasted!.focusedField.count == chips)
    let pastePeak = pastePeakWasReset ? peakResidentBytes() : nil
    trimHeap()
    let pasteKept = residentBytes()
    pasted = nil
    let keptPerChip = Double(pasteKept - pasteBase) / Double(chips)
    let pastePeakPerChip = pastePeak.map { Double($0 - pasteBase) / Double(chips) }
    lines.append("memory/paste/1mb: \(chips) chips; \(formatDouble(keptPerChip, decimals: 0)) bytes per chip kept, "
        + "peak \(pastePeak.map { formatDouble(Double($0 - pasteBase) / 1e6, decimals: 1) + " MB" } ?? "not measured")")
    results.append(Result(
        name: "memory/paste/1mb", unit: "bytes/chip", stats: Stats([pastePeakPerChip ?? keptPerChip]),
        bytes: 0, checksum: UInt64(chips)))
    return (results, lines)
}

/// A composer whose focused field had `count` short addresses typed into
/// it key by key, keeping at most `undoSteps` undo steps (0: none).
func typedComposer(count: Int, undoSteps: Int) -> Composer {
    var composer = Composer()
    composer.maxUndoSteps = undoSteps
    var key: [UInt8] = [0]
    for k in 0..<count {
        for b in "u\(k)@x.org, ".utf8 {
            key[0] = b
            composer.type(bytes: key)
        }
    }
    precondition(composer.focusedField.count == count && composer.undoStackCount == min(undoSteps, 1), "one typing step")
    return composer
}

/// Resets the peak resident memory (`VmHWM`) to the current one, where
/// Linux allows it (writing 5 to `/proc/self/clear_refs`); false where it
/// does not, and then no peak is reported.
func resetPeakResident() -> Bool {
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return write(fd, "5", 1) == 1
}

/// The peak resident memory (`VmHWM`) in bytes, or nil where it cannot be
/// read.
func peakResidentBytes() -> Int? {
    guard let bytes = readFile("/proc/self/status") else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.dropFirst(6).filter { $0 != " " && $0 != "\t" }.dropLast(2)  // "kB"
        return Int(digits).map { $0 * 1024 }
    }
    return nil
}
