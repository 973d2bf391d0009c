// Placeholder until the generated folding tables land: ASCII case only.

package enum SearchFold {
    package static func fold(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], origins: inout [Int32]) {
        for (i, b) in text.enumerated() {
            out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            origins.append(Int32(i))
        }
    }

    package static func fold(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var origins: [Int32] = []
        fold(text, into: &out, origins: &origins)
    }

    package static func fold(_ text: String) -> [UInt8] {
        var text = text
        var out: [UInt8] = []
        text.withUTF8 { fold($0, into: &out) }
        return out
    }

    package static func isSpaceless(_ scalar: UInt32) -> Bool {
        (0x3040...0x30FF).contains(scalar) || (0x3400...0x9FFF).contains(scalar) || (0xAC00...0xD7A3).contains(scalar)
            || (0x0E00...0x0E7F).contains(scalar)
    }

    package static func isWordSeparator(_ scalar: UInt32) -> Bool {
        scalar < 0x80 && !((0x30...0x39).contains(scalar) || (0x41...0x5A).contains(scalar) || (0x61...0x7A).contains(scalar))
    }
}
