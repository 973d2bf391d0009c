import ChipKit
import ChipOutputTestSupport
import ChipTestSupport

/// The invariants every input must keep, checked in one place for the RFC
/// tables, the sample corpus, the seeded random tests and the fuzzer.
///
/// In the spirit of a byte-to-message decoder verifier: the same input is
/// fed whole, byte by byte and in seeded random chunks, typed key by key and
/// pasted into a ``Composer``, and everything must agree. For one input and
/// one policy it checks:
/// 1. **Chunking independence**: the scanner's segments are the same whole,
///    byte by byte, and in random chunks.
/// 2. **Lossless**: segments come in order without overlap; every byte
///    outside them is white space, a separator, a byte order mark or a
///    comment a group holds as its own (the whole content of a group with
///    no member, or right after its `;`); every chip's `raw` is its
///    exact source bytes (a `too-long` chip's is the first `maxChipBytes`
///    bytes of them).
/// 3. **Safe headers**: rendering the chips never lets a bare CR, LF or any
///    control byte through, and the header parses back one chip for each
///    chip it kept.
/// 4. **Typing equals parsing**: typing the input key by key (one Unicode
///    scalar, or one byte where the UTF-8 is invalid), pasting it at once,
///    and typing it in random pieces, each into a composer, give chips equal
///    to ``AddressList/parse(_:policy:)`` in every field: kind, raw, name,
///    address, parts, both forms of the domain, group, error and its offset
///    (relative to the chip), warnings and suggestion.
/// 5. **Bounded work per key**: a key typed at the end of the pending text
///    scans at most the key's bytes plus the pending text (with the white
///    space typed after a chip a space made at once), however many chips
///    the field holds.
/// 6. **Bounded recovery**: a quoted string, comment, domain literal or
///    `<…>` left open when the list ends is recovered by reading the text
///    after its first separator again, at most
///    ``ListScanner/maxRecoveryRereads`` times the unfinished text, and
///    the pasted, typed and parsed chips above agree on the result.
///
/// The result is the list of what broke, empty when all holds, so a test
/// shows every broken invariant of a row at once and the fuzzer traps on
/// the first.
public struct InvariantVerifier: Sendable {
    /// The policy the input is recognized with.
    public var policy: ValidationPolicy
    /// Seeds of the random chunkings and piece sizes; one run per seed.
    public var seeds: [UInt64] = [1, 2]
    /// Inputs longer than this are typed key by key only up to here, then
    /// pasted, so one long row costs milliseconds rather than seconds; the
    /// paste and piece runs still cover every byte.
    public var maxKeyByKeyBytes = 8_192

    public init(policy: ValidationPolicy = .standard) {
        self.policy = policy
    }

    /// What broke for `bytes` under every preset policy, with these seeds.
    public static func violations(ofAnyPolicy bytes: [UInt8], seeds: [UInt64] = [1, 2]) -> [String] {
        [ValidationPolicy.strict, .standard, .lenient].flatMap {
            var verifier = InvariantVerifier(policy: $0)
            verifier.seeds = seeds
            return verifier.violations(of: bytes)
        }
    }

    /// What broke for `bytes`, as messages; empty when every invariant holds.
    ///
    /// - Complexity: O(*n* · *k*) for *n* bytes and *k* seeds, plus the
    ///   key-by-key typing of at most ``maxKeyByKeyBytes`` bytes.
    public func violations(of bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        func check(_ ok: Bool, _ message: @autoclosure () -> String) {
            if !ok {
                let m = "\(policy.name): \(message())"
                if !problems.contains(m) { problems.append(m) }
            }
        }

        // 1. Chunking independence.
        let whole = segments(of: bytes)
        check(segments(of: bytes, chunks: [1]) == whole, "byte-by-byte scanning changed the segments")
        for seed in seeds {
            var rng = SplitMix64(seed: seed ^ UInt64(bytes.count))
            let sizes = (0..<8).map { _ in 1 + rng.below(17) }
            check(segments(of: bytes, chunks: sizes) == whole, "chunks \(sizes) changed the segments")
        }
        // Recovery from a construct left open at the end reads text again,
        // at most `maxRecoveryRereads` times the unfinished text, and only
        // when a separator followed the opener.
        var scanner = ListScanner()
        scanner.scan(bytes) { _ in }
        let unfinished = scanner.offset - scanner.retainOffset
        let cut = scanner.unclosedCut
        let reread = bytes.withUnsafeBufferPointer { scanner.recoverUnclosed($0, base: 0) { _ in } }
        check(reread <= ListScanner.maxRecoveryRereads * unfinished,
              "recovery read \(reread) bytes again for \(unfinished) unfinished")
        check(cut != nil || reread == 0, "recovery read text again with no separator after the opener")
        // The structural index answers for simple lists only, and then
        // exactly as the scanner.
        var simple: [Segment] = []
        if bytes.withUnsafeBufferPointer({ SimpleList.segments($0, into: &simple) }) {
            check(simple == whole, "the structural index's segments differ from the scanner's")
            for problem in simpleLaneDifferences([bytes], policy: policy) { check(false, problem) }
        }

        // 2. Lossless.
        var position = 0
        // Comments a group holds as its own (RFC 5322 §3.4), in no chip:
        // the whole content of a group with no member (`Team: (nobody);`)
        // and what follows its `;` before the next separator.
        func checkGap(_ gap: Range<Int>, groupComments: Bool = false) {
            var k = gap.lowerBound
            if groupComments { k = endOfGroupComments(bytes, gap) }
            while k < gap.upperBound {
                if k + 3 <= gap.upperBound && bytes[k] == 0xEF && bytes[k + 1] == 0xBB && bytes[k + 2] == 0xBF {
                    k += 3  // a byte order mark between chips is white space
                    continue
                }
                check(Self.isSeparator(bytes[k]), "byte \(k) (0x\(String(bytes[k], radix: 16))) is in no segment")
                k += 1
            }
        }
        var previous: Segment?
        for segment in whole {
            let r = segment.byteRange
            check(r.lowerBound >= position && r.upperBound <= bytes.count && !r.isEmpty || segment.kind == .groupClose,
                  "segment \(r) out of order or empty")
            if r.lowerBound >= position && r.upperBound <= bytes.count {
                let emptyGroup = previous?.kind == .groupOpen && segment.kind == .groupClose
                let afterGroup = previous?.kind == .groupClose && previous?.byteRange.isEmpty == false
                checkGap(position..<r.lowerBound, groupComments: emptyGroup || afterGroup)
                position = r.upperBound
            }
            previous = segment
        }
        if position <= bytes.count {
            checkGap(position..<bytes.count, groupComments: previous?.kind == .groupClose && previous?.byteRange.isEmpty == false)
        }
        let parsed = AddressList.parse(bytes, policy: policy)
        for chip in parsed {
            let r = chip.byteRange
            guard r.lowerBound >= 0, r.upperBound <= bytes.count else {
                check(false, "chip range \(r) outside the input")
                continue
            }
            let source = Array(bytes[r])
            if chip.error?.code == "too-long" {
                check(source.starts(with: chip.raw), "a too-long chip's raw is not a prefix of its text")
            } else {
                check(source == chip.raw, "chip \(r) raw differs from its source bytes")
            }
        }

        // 3. Safe headers.
        for smtpUTF8 in [false, true] {
            let value = HeaderRenderer.render(parsed, options: HeaderOptions(smtpUTF8: smtpUTF8))
            let out = Array(value.text.utf8)
            var unfolded: [UInt8] = []
            var k = 0
            while k < out.count {
                let b = out[k]
                if b == 0x0D {
                    check(k + 2 < out.count && out[k + 1] == 0x0A && (out[k + 2] == 0x20 || out[k + 2] == 0x09),
                          "a CR in a header that is not folding")
                    k += 2
                    continue
                }
                check(b != 0x0A, "a bare LF in a header")
                check(b >= 0x20 && b != 0x7F, "control byte 0x\(String(b, radix: 16)) in a header")
                unfolded.append(b)
                k += 1
            }
            // No line separator of any kind (NEL, U+2028, U+2029), no line
            // over 998 bytes (a chip left out has its reason by construction:
            // `omitted` is read from `omissions`).
            check(!value.text.unicodeScalars.contains { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" },
                  "a line separator in a header")
            check(value.text.utf8.split(separator: 0x0A).allSatisfy { $0.count <= 999 }, "a header line over 998 bytes")
            let kept = parsed.indices.filter { !value.omitted.contains($0) }
            let reparsed = AddressList.parse(unfolded, policy: .lenient)
            check(reparsed.count == kept.count,
                  "the header (smtputf8: \(smtpUTF8)) parses back to \(reparsed.count) chips, not \(kept.count)")
        }

        // 4 and 5. Typing equals parsing; bounded work per key.
        let expected = parsed.map(Self.relativeToChip)
        let keys = Self.keys(of: bytes.prefix(maxKeyByKeyBytes))
        var typed = makeComposer()
        for key in keys {
            // White space after a chip a space made at once is text again
            // if the key reopens it: it counts as pending here.
            let pendingBefore = typed.focusedField.pending.count + typed.focusedField.provisionalSpaceBytes
            let scannedBefore = typed.focusedField.bytesScanned
            typed.type(bytes: key)
            let scanned = typed.focusedField.bytesScanned - scannedBefore
            check(scanned <= key.count + pendingBefore,
                  "a \(key.count)-byte key scanned \(scanned) bytes with \(pendingBefore) pending")
        }
        if bytes.count > maxKeyByKeyBytes { typed.paste(bytes: Array(bytes[maxKeyByKeyBytes...])) }
        typed.commit()
        compare(typed, expected, "typing key by key", &problems)

        var pasted = makeComposer()
        pasted.paste(bytes: bytes)
        pasted.commit()
        compare(pasted, expected, "pasting", &problems)

        for seed in seeds {
            var rng = SplitMix64(seed: seed &+ 0x5eed)
            var pieces = makeComposer()
            var i = 0
            while i < bytes.count {
                let n = min(1 + rng.below(12), bytes.count - i)
                pieces.type(bytes: Array(bytes[i..<(i + n)]))
                i += n
            }
            pieces.commit()
            compare(pieces, expected, "typing in pieces (seed \(seed))", &problems)
        }
        return problems
    }

    // MARK: - Helpers

    func makeComposer() -> Composer {
        Composer(
            fields: [.to], policy: policy,
            limits: FieldLimits(maxChips: 10_000_000, maxPendingBytes: 1 << 24), duplicatePolicy: .warn)
    }

    func compare(_ composer: Composer, _ expected: [ParsedChip], _ how: String, _ problems: inout [String]) {
        // The composer's and the field's own invariants (`_checkInvariants()`).
        for broken in composer.invariantViolations() {
            let message = "\(policy.name): \(how): \(broken)"
            if !problems.contains(message) { problems.append(message) }
        }
        let got = composer.focusedField.chips.map(\.content)
        guard got != expected else { return }
        var message = "\(policy.name): \(how) gave \(got.count) chips, parsing \(expected.count)"
        if let k = (0..<min(got.count, expected.count)).first(where: { got[$0] != expected[$0] }) {
            message += "; chip \(k) differs: typed \(Self.describe(got[k])) parsed \(Self.describe(expected[k]))"
        }
        if !composer.focusedField.pending.isEmpty { message += "; text left pending" }
        if !problems.contains(message) { problems.append(message) }
    }

    static func describe(_ c: ParsedChip) -> String {
        "{raw \(c.rawText.debugDescription), name \(String(describing: c.displayName)), "
            + "address \(String(describing: c.address)), group \(String(describing: c.group)), "
            + "error \(c.error?.code ?? "none") at \(String(describing: c.errorOffset)), "
            + "warnings \(c.warnings.codes), suggestion \(String(describing: c.suggestedDomain))}"
    }

    /// A parsed chip as a field holds it: its range and error offset
    /// counted from the chip's first byte.
    public static func relativeToChip(_ chip: ParsedChip) -> ParsedChip {
        var c = chip
        let start = chip.byteRange.lowerBound
        c.byteRange = 0..<chip.raw.count
        if let offset = c.errorOffset { c.errorOffset = offset - start }
        return c
    }

    static func isSeparator(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: ",") || b == UInt8(ascii: ";")
    }

    /// The keys a person would type: one Unicode scalar each, or one byte
    /// where the bytes are not valid UTF-8.
    public static func keys<C: Collection>(of bytes: C) -> [[UInt8]] where C.Element == UInt8 {
        let b = Array(bytes)
        var keys: [[UInt8]] = []
        var i = 0
        while i < b.count {
            var n = 1
            let lead = b[i]
            let want = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 1
            if want > 1, i + want <= b.count, b[(i + 1)..<(i + want)].allSatisfy({ $0 & 0xC0 == 0x80 }),
               String(validating: b[i..<(i + want)], as: UTF8.self) != nil {
                n = want
            }
            keys.append(Array(b[i..<(i + n)]))
            i += n
        }
        return keys
    }
}
