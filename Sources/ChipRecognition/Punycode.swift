import ChipSyntax

/// Punycode (RFC 3492), the encoding behind IDNA A-labels (`xn--…`).
package enum Punycode {
    static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    static let initialBias = 72, initialN: UInt32 = 0x80

    /// Encodes Unicode scalars as Punycode (without the `xn--` prefix).
    /// Returns nil on overflow, which RFC 3492 §6.4 makes an error.
    ///
    /// - Complexity: O(*n*²) in the label's length in the worst case, as
    ///   the RFC's algorithm; labels are at most a few dozen scalars.
    package static func encode(_ input: [UInt32]) -> [UInt8]? {
        input.withUnsafeBufferPointer { scalars in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxEncodedBytes(scalars.count)) { out in
                encode(scalars, into: out).map { Array(out[0..<$0]) }
            }
        }
    }

    /// Decodes Punycode (without the `xn--` prefix) to Unicode scalars, or
    /// nil when it is not valid Punycode (RFC 3492 §6.2).
    ///
    /// - Complexity: O(*n*²) in the label's length in the worst case.
    package static func decode(_ input: [UInt8]) -> [UInt32]? {
        input.withUnsafeBufferPointer { code in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(code.count, 1)) { out in
                decode(code, into: out).map { Array(out[0..<$0]) }
            }
        }
    }

    /// The most bytes ``encode(_:into:)`` writes for `count` scalars: each
    /// scalar is one basic byte or at most eight digits (a delta below
    /// 2³¹ in base 36 with thresholds of at least 1), and one delimiter.
    static func maxEncodedBytes(_ count: Int) -> Int { 8 * count + 1 }

    /// ``encode(_:)`` into a buffer of ``maxEncodedBytes(_:)`` or more:
    /// the count written, or nil on overflow.
    ///
    /// - Complexity: O(*n*²) in the label's length in the worst case.
    static func encode(_ input: UnsafeBufferPointer<UInt32>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var count = 0
        for c in input where c < 0x80 {
            output[count] = UInt8(c)
            count += 1
        }
        let basicCount = count
        var handled = basicCount
        if basicCount > 0 {
            output[count] = UInt8(ascii: "-")
            count += 1
        }
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
                        output[count] = digit(t + (q - t) % (base - t))
                        count += 1
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output[count] = digit(q)
                    count += 1
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return count
    }

    /// ``decode(_:)`` into a buffer of `input.count` scalars or more (each
    /// scalar takes a byte of Punycode at least): the count written, or
    /// nil when the bytes are not valid Punycode.
    ///
    /// - Complexity: O(*n*²) in the label's length in the worst case.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt32>) -> Int? {
        var count = 0
        var basicEnd = 0
        var lastDelimiter = input.count - 1
        while lastDelimiter >= 0 && input[lastDelimiter] != UInt8(ascii: "-") { lastDelimiter -= 1 }
        if lastDelimiter >= 0 {
            for k in 0..<lastDelimiter {
                guard input[k] < 0x80 else { return nil }
                output[count] = UInt32(input[k])
                count += 1
            }
            basicEnd = lastDelimiter + 1
        }
        var n = Int(initialN)
        var i = 0
        var bias = initialBias
        var pos = basicEnd
        while pos < input.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard pos < input.count, let d = digitValue(input[pos]) else { return nil }
                pos += 1
                let (product, o1) = d.multipliedReportingOverflow(by: w)
                guard !o1, i <= Int(Int32.max) - product else { return nil }
                i += product
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                let (nw, o2) = w.multipliedReportingOverflow(by: base - t)
                guard !o2, nw <= Int(Int32.max) else { return nil }
                w = nw
                k += base
            }
            bias = adapt(i - oldI, count + 1, oldI == 0)
            guard i / (count + 1) <= Int(Int32.max) - n else { return nil }
            n += i / (count + 1)
            i %= count + 1
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n), count < output.count else { return nil }
            var j = count
            while j > i {
                output[j] = output[j - 1]
                j -= 1
            }
            output[i] = UInt32(n)
            count += 1
            i += 1
        }
        return count
    }

    static func digitValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(b - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(b - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0")) + 26
        default: nil
        }
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

}
