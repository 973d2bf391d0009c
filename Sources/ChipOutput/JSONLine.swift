import ChipRecognition
import ChipSyntax

/// The JSON line of a chip of the simple lane, written in one go: the
/// room for the whole line is reserved once, and every piece is stored
/// through a local cursor, with no check of capacity and no reload of the
/// buffer's count between pieces. Strings that need no escape (most) are
/// copied whole; the others are escaped in the room reserved for them.
///
/// Writes exactly what ``ChipRecordWriter``'s general JSON writer writes
/// for such a chip (a valid mailbox, perhaps in a group, perhaps with a
/// suggested domain; tested byte for byte against it on the corpora,
/// random lists and a table of every number width).
enum JSONLine {
    /// The longest warning code (`"missing-angle-brackets"` and its
    /// neighbours), with its quotes and comma, rounded up.
    static let roomPerWarning = 40

    /// The line's bytes besides its strings and its warnings, with room
    /// for each number's store.
    static let fixedRoom = 200 + 4 * ByteBuffer.Storage.decimalRoom

    /// A string of the line: its bytes, whether they need no escape
    /// (``JSON/isPlain(wellFormedUTF8:)``), and whether they are known to
    /// be well-formed UTF-8 (the chip's own bytes, which the lane took
    /// only so), which ``JSON/writeString(wellFormedUTF8:at:)`` escapes
    /// sixteen bytes a step.
    struct Text {
        var bytes: UnsafeBufferPointer<UInt8>
        var plain: Bool
        var wellFormed = false

        /// The most bytes a string takes in the line beyond six a byte
        /// (each escaped as `\uXXXX`): its quotes, and the sixteen that the
        /// escaper of well-formed text may store past its end.
        static let slack = 18
    }

    /// Writes the line. `name` is empty for a chip without one (`null`);
    /// `group` and `suggestion` are written when given.
    ///
    /// - Complexity: O(*n*) in the strings' lengths.
    static func write(
        record: Int?, index: Int, name: Text, address: Text, group: Text?, raw: Text,
        start: Int, end: Int, warnings: ChipWarnings, suggestion: Text?, to out: ByteBuffer.Storage
    ) {
        // An upper bound found without a branch a string: every string as
        // if escaped whole, every bit of the warnings a warning.
        let strings = name.bytes.count + address.bytes.count + raw.bytes.count + (group?.bytes.count ?? 0)
            + (suggestion?.bytes.count ?? 0)
        out.reserve(fixedRoom + 6 * strings + 5 * Text.slack + roomPerWarning * ChipWarnings.RawValue.bitWidth)
        var c = Cursor(out.base + out.count)
        if let record {
            c.put("{\"record\":")
            c.putDecimal(record)
            c.put(",\"chip\":")
        } else {
            c.put("{\"chip\":")
        }
        c.putDecimal(index + 1)
        c.put(",\"kind\":\"mailbox\",\"state\":\"valid\",\"name\":")
        if name.bytes.isEmpty {
            c.put("null")
        } else {
            c.put(name, in: out)
        }
        c.put(",\"address\":")
        c.put(address, in: out)
        if let group {
            c.put(",\"group\":")
            c.put(group, in: out)
        }
        c.put(",\"raw\":")
        c.put(raw, in: out)
        c.put(",\"start\":")
        c.putDecimal(start)
        c.put(",\"end\":")
        c.putDecimal(end)
        if warnings.isEmpty {
            c.put(",\"error\":null,\"warnings\":[]")
        } else {
            c.put(",\"error\":null,\"warnings\":[")
            var first = true
            warnings.forEachCode { code in
                c.put(first ? "\"" : ",\"")
                c.put(code)
                c.put("\"")
                first = false
            }
            c.put("]")
        }
        if let suggestion {
            c.put(",\"suggestion\":")
            c.put(suggestion, in: out)
        }
        c.put("}\n")
        out.count = c.p - out.base
    }

    /// Where the next byte goes, in room already reserved.
    struct Cursor {
        var p: UnsafeMutablePointer<UInt8>

        init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

        /// A constant piece: its length is known where this is inlined,
        /// so the copy is a few stores of words.
        @inline(__always)
        mutating func put(_ s: StaticString) {
            copy(s.utf8Start, s.utf8CodeUnitCount)
        }

        /// A string of the line, copied or (when it needs escapes) written
        /// by the general escaper into the room reserved for it in `out`,
        /// which holds this cursor's bytes.
        @inline(__always)
        mutating func put(_ text: Text, in out: ByteBuffer.Storage) {
            if text.plain {
                putQuoted(text.bytes)
            } else if text.wellFormed {
                p = JSON.writeString(wellFormedUTF8: text.bytes, at: p)
            } else {
                out.count = p - out.base
                JSON.appendString(text.bytes, to: out)
                p = out.base + out.count
            }
        }

        @inline(__always)
        mutating func putQuoted(_ text: UnsafeBufferPointer<UInt8>) {
            p.pointee = ASCII.quote
            p += 1
            if let base = text.baseAddress { copy(base, text.count) }
            p.pointee = ASCII.quote
            p += 1
        }

        /// Copies `n` bytes (``ByteBuffer/Storage/copy(_:to:_:)``).
        @inline(__always)
        mutating func copy(_ source: UnsafePointer<UInt8>, _ n: Int) {
            ByteBuffer.Storage.copy(source, to: p, n)
            p += n
        }

        /// `value` in decimal (``ByteBuffer/Storage/storeDecimal(_:at:)``,
        /// whose room ``fixedRoom`` counts).
        @inline(__always)
        mutating func putDecimal(_ value: Int) {
            p += ByteBuffer.Storage.storeDecimal(value, at: p)
        }
    }
}
