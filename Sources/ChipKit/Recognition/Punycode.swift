/// Punycode (RFC 3492), the encoding behind IDNA A-labels (`xn--…`).
public enum Punycode {
    static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    static let initialBias = 72, initialN: UInt32 = 0x80

    /// Encodes Unicode scalars as Punycode (without the `xn--` prefix).
    /// Returns nil on overflow, which RFC 3492 §6.4 makes an error.
    ///
    /// - Complexity: O(*n*²) in the label's length in the worst case, as
    ///   the RFC's algorithm; labels are at most a few dozen scalars.
    public static func encode(_ input: [UInt32]) -> [UInt8]? {
        var output: [UInt8] = []
        for c in input where c < 0x80 { output.append(UInt8(c)) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            var m = UInt32.max
            for c in input where c >= n && c < m { m = c }
            let (product, overflow) = Int(m - n).multipliedReportingOverflow(by: handled + 1)
            if overflow || delta > Int(Int32.max) - product { return nil }
            delta += product
            n = m
            for c in input {
                if c < n {
                    delta += 1
                    if delta > Int(Int32.max) { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(d) + UInt8(ascii: "a") : UInt8(d - 26) + UInt8(ascii: "0")
    }

    static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var d = first ? delta / damp : delta / 2
        d += d / count
        var k = 0
        while d > ((base - tMin) * tMax) / 2 {
            d /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * d / (d + skew)
    }

    /// The length of the A-label (`xn--` plus Punycode) of a UTF-8 label,
    /// or nil when it cannot be encoded.
    static func aLabelLength(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var scalars: [UInt32] = []
        for s in String(decoding: UnsafeBufferPointer(rebasing: p[range]), as: UTF8.self).unicodeScalars {
            scalars.append(s.value)
        }
        guard let encoded = encode(scalars) else { return nil }
        return 4 + encoded.count
    }
}
