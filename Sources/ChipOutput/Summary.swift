import ChipRecognition

/// Counts for `chipify --summary`: what a run found, without the chips.
/// A ``ChipRecordWriter`` that summarizes keeps one; hosts can fill one
/// with ``count(_:)-(ParsedChip)``.
public struct Summary: Sendable, Equatable {
    /// Records (lines, or lists) read.
    public var records = 0
    /// Chips counted, valid or not.
    public var chips = 0
    /// Chips without an error.
    public var valid = 0
    /// Chips in error; ``errorsByReason`` says why.
    public var errors = 0
    /// Error chips by reason, indexed by `ChipError.precedence`.
    public var errorsByReason = [Int](repeating: 0, count: ChipError.allReasons.count)
    /// Chips carrying each warning, in `ChipWarnings.all` order.
    public var warningsByKind = [Int](repeating: 0, count: ChipWarnings.all.count)
    /// Input bytes read.
    public var bytes = 0

    /// A summary with every count at zero.
    ///
    /// - Complexity: O(*r* + *w*), where *r* is the number of reasons and *w*
    ///   the number of warning kinds.
    public init() {}

    /// Counts one chip of a record.
    ///
    /// - Complexity: O(*k*), where *k* is the number of the chip's warnings.
    public mutating func count(_ chip: ParsedChip) { count(error: chip.error, warnings: chip.warnings) }

    @inline(__always)
    package mutating func count(_ r: Recognition) { count(error: r.error, warnings: r.warnings) }

    /// A valid chip with no warning (most) is counted here, inline, by
    /// the caller in any module; the rest apart.
    @inlinable
    mutating func count(error: ChipError?, warnings: ChipWarnings) {
        chips += 1
        guard error != nil || !warnings.isEmpty else {
            valid += 1
            return
        }
        countApart(error: error, warnings: warnings)
    }

    @usableFromInline
    mutating func countApart(error: ChipError?, warnings: ChipWarnings) {
        if let error {
            errors += 1
            errorsByReason[error.precedence] += 1
        } else {
            valid += 1
        }
        warnings.forEachIndex { warningsByKind[$0] += 1 }
    }

    /// Adds another summary's counts (for parallel runs).
    ///
    /// - Complexity: O(*r* + *w*), where *r* is the number of reasons and *w*
    ///   the number of warning kinds.
    public mutating func add(_ other: Summary) {
        records += other.records
        chips += other.chips
        valid += other.valid
        errors += other.errors
        bytes += other.bytes
        for k in errorsByReason.indices { errorsByReason[k] += other.errorsByReason[k] }
        for k in warningsByKind.indices { warningsByKind[k] += other.warningsByKind[k] }
    }

    /// One text block: a `name: value` line per count, reasons and warnings
    /// indented below their totals, zero counts left out.
    ///
    /// - Complexity: O(*r* + *w*), where *r* is the number of reasons and *w*
    ///   the number of warning kinds.
    public var text: String {
        var lines = [
            "records: \(records)", "chips: \(chips)", "valid: \(valid)", "errors: \(errors)",
        ]
        for (k, reason) in ChipError.allReasons.enumerated() where errorsByReason[k] > 0 {
            lines.append("  \(reason.code): \(errorsByReason[k])")
        }
        lines.append("warnings: \(warningsByKind.reduce(0, +))")
        for (k, entry) in ChipWarnings.all.enumerated() where warningsByKind[k] > 0 {
            lines.append("  \(entry.code): \(warningsByKind[k])")
        }
        lines.append("bytes: \(bytes)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object on one line; every reason and warning is present,
    /// zero or not, so the keys are stable.
    ///
    /// - Complexity: O(*r* + *w*), where *r* is the number of reasons and *w*
    ///   the number of warning kinds.
    public var json: String {
        var s = "{\"records\":\(records),\"chips\":\(chips),\"valid\":\(valid),\"errors\":\(errors)"
        s += ",\"errors_by_reason\":{"
        s += ChipError.allReasons.enumerated().map { "\"\($1.code)\":\(errorsByReason[$0])" }.joined(separator: ",")
        s += "},\"warnings\":{"
        s += ChipWarnings.all.enumerated().map { "\"\($1.code)\":\(warningsByKind[$0])" }.joined(separator: ",")
        s += "},\"bytes\":\(bytes)}\n"
        return s
    }
}
