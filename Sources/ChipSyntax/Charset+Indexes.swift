// The Encoding Standard's indexes as the decoders read them: expanded once,
// on first use, from the compact text of `CharsetTables.swift` into tables
// indexed by pointer.
//
// Each table is a global `let`, which Swift initialises once, thread-safely,
// the first time it is read, so an encoding nobody uses costs no memory.
// The tables live in memory that is never written after it is filled and
// never freed: decoders on several threads read them for every character,
// and a global `Array` would be retained and released around each use, one
// shared reference count updated atomically by every thread.

/// A multi-byte index in the compact form the generator writes: the code
/// points of pointers `first ..< first + count`, as base64 digits (see
/// `Scripts/generate-charset-tables.py`, `compact()`).
struct CompactIndex: Sendable {
    let first: Int
    let count: Int
    let digits: StaticString
}

/// An index, expanded: the code point of each pointer, 0 where the index
/// has none (no index maps a pointer to U+0000).
///
/// Invariants:
/// 1. `base` holds `count` code points, for pointers `first ..< first + count`.
/// 2. The storage is never written after `init` and never freed.
struct CodePointIndex: @unchecked Sendable {
    // `@unchecked Sendable` is safe: by invariant 2 the pointer is only
    // ever read once the value exists, from any thread.
    let base: UnsafePointer<UInt32>
    let first: Int
    let count: Int

    init(_ compact: CompactIndex) {
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: compact.count)
        var filled = 0
        var previous: UInt32 = 0
        var pendingRun = false
        compact.digits.forEachCompactNumber { n in
            if pendingRun {
                // A run of `n` unmapped pointers.
                precondition(filled + n <= compact.count, "index longer than declared")
                (storage + filled).initialize(repeating: 0, count: n)
                filled += n
                pendingRun = false
            } else if n == 0 {
                pendingRun = true
            } else {
                // Zigzag: even numbers step up, odd numbers step down.
                let z = UInt32(n - 1)
                previous = z & 1 == 0 ? previous &+ z >> 1 : previous &- (z + 1) >> 1
                precondition(filled < compact.count, "index longer than declared")
                storage[filled] = previous
                filled += 1
            }
        }
        precondition(filled == compact.count && !pendingRun, "index shorter than declared")
        base = UnsafePointer(storage)
        first = compact.first
        count = compact.count
    }

    /// The index code point for `pointer`, or 0 if there is none.
    @inline(__always)
    subscript(_ pointer: Int) -> UInt32 {
        let k = pointer &- first
        return k >= 0 && k < count ? base[k] : 0
    }
}

extension StaticString {
    /// Calls `body` with each number of the generator's base64-digit
    /// encoding: five bits a digit, least significant first, 0x20 set on
    /// every digit but a number's last. White space is skipped.
    fileprivate func forEachCompactNumber(_ body: (Int) -> Void) {
        withUTF8Buffer { text in
            var value = 0
            var shift = 0
            for c in text {
                if c == ASCII.space || c == ASCII.lineFeed { continue }
                guard let d = Base64.digitValue(c) else {
                    preconditionFailure("not a base64 digit in a generated index")
                }
                let digit = Int(d)
                value |= (digit & 0x1F) << shift
                shift += 5
                if digit & 0x20 == 0 {
                    body(value)
                    value = 0
                    shift = 0
                }
            }
        }
    }

    /// Calls `body` with each white-space-separated number, the first of
    /// every `radices.count` in `radices[0]`, the next in `radices[1]`, …
    fileprivate func forEachNumber(radices: [Int], _ body: (Int) -> Void) {
        withUTF8Buffer { text in
            var value = 0
            var inNumber = false
            var k = 0
            for c in text {
                if c == ASCII.space || c == ASCII.lineFeed {
                    if inNumber {
                        body(value)
                        k = (k + 1) % radices.count
                    }
                    value = 0
                    inNumber = false
                    continue
                }
                let digit: Int
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(c - UInt8(ascii: "0"))
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(c - UInt8(ascii: "A")) + 10
                default: digit = 99
                }
                precondition(digit < radices[k], "not a digit in a generated table")
                value = value * radices[k] + digit
                inNumber = true
            }
            if inNumber { body(value) }
        }
    }
}

/// Index single-byte of every single-byte encoding, extended to all 256
/// bytes: ASCII bytes map to themselves and bytes the index leaves unmapped
/// to U+FFFD, so decoding is one look-up per byte.
///
/// Invariants:
/// 1. `base` holds 256 code points per slot of ``CharsetTables/singleByte``.
/// 2. The storage is never written after `init` and never freed.
struct SingleByteIndexes: @unchecked Sendable {
    // `@unchecked Sendable` is safe: see invariant 2.
    let base: UnsafePointer<UInt16>

    init(_ slots: [StaticString]) {
        let storage = UnsafeMutablePointer<UInt16>.allocate(capacity: slots.count * 256)
        for (slot, text) in slots.enumerated() {
            let table = storage + slot * 256
            for b in 0..<0x80 { table[b] = UInt16(b) }
            var b = 0x80
            text.forEachNumber(radices: [16]) { codePoint in
                precondition(b < 0x100, "a single-byte index has 128 pointers")
                table[b] = codePoint == 0 ? 0xFFFD : UInt16(codePoint)
                b += 1
            }
            precondition(b == 0x100, "a single-byte index has 128 pointers")
        }
        base = UnsafePointer(storage)
    }

    /// The 256 code points of one slot.
    func table(slot: Int) -> UnsafePointer<UInt16> { base + slot * 256 }
}

let singleByteIndexes = SingleByteIndexes(CharsetTables.singleByte)
let big5Index = CodePointIndex(CharsetTables.big5)
let eucKRIndex = CodePointIndex(CharsetTables.eucKR)
let gb18030Index = CodePointIndex(CharsetTables.gb18030)
let jis0208Index = CodePointIndex(CharsetTables.jis0208)
let jis0212Index = CodePointIndex(CharsetTables.jis0212)

/// The index gb18030 ranges code point of each pointer below 39420 (the
/// four-byte sequences of the Basic Multilingual Plane), expanded from the
/// ranges so that a look-up is one read.
///
/// Invariant: the storage holds 39420 code points and is never written
/// after `init` and never freed.
struct GB18030Ranges: @unchecked Sendable {
    // `@unchecked Sendable` is safe: see the invariant.
    let base: UnsafePointer<UInt16>
    static let bmpPointers = 39420

    init(_ text: StaticString) {
        var starts: [(pointer: Int, codePoint: Int)] = []
        var pendingPointer: Int?
        // Pairs of a decimal pointer and a hexadecimal code point.
        text.forEachNumber(radices: [10, 16]) { n in
            if let p = pendingPointer {
                starts.append((p, n))
                pendingPointer = nil
            } else {
                pendingPointer = n
            }
        }
        precondition(pendingPointer == nil && starts.first?.pointer == 0, "malformed gb18030 ranges")
        let storage = UnsafeMutablePointer<UInt16>.allocate(capacity: GB18030Ranges.bmpPointers)
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].pointer : GB18030Ranges.bmpPointers
            for p in start.pointer..<end { storage[p] = UInt16(start.codePoint + p - start.pointer) }
        }
        base = UnsafePointer(storage)
    }

    /// The index gb18030 ranges code point for `pointer`, or 0 for none.
    @inline(__always)
    func codePoint(_ pointer: Int) -> UInt32 {
        if pointer < GB18030Ranges.bmpPointers {
            // The standard's one exception to the ranges (0x81 0x35 0xF4 0x37).
            return pointer == 7457 ? 0xE7C7 : UInt32(base[pointer])
        }
        if pointer >= 189000 && pointer <= 1237575 { return 0x10000 + UInt32(pointer - 189000) }
        return 0
    }
}

let gb18030Ranges = GB18030Ranges(CharsetTables.gb18030Ranges)
