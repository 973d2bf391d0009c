import ChipSyntax

/// Domain literals of RFC 5321 §4.1.3: `[192.0.2.1]` and `[IPv6:…]`.
enum AddressLiteral {
    /// Whether the inside of a literal (brackets excluded, folding white
    /// space around it allowed) is an IPv4 or IPv6 address literal.
    ///
    /// General address literals (`tag:content`) are syntactically allowed
    /// by RFC 5321 but no tag other than `IPv6` is registered, so no mail
    /// can be delivered to one; they are rejected here.
    static func isValid(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi && isFWS(p[lo]) { lo += 1 }
        while hi > lo && isFWS(p[hi - 1]) { hi -= 1 }
        let bytes = Array(UnsafeBufferPointer(rebasing: p[lo..<hi]))
        if bytes.count > 5, bytes[0..<5].map(ByteClass.lowercased) == Array("ipv6:".utf8) {
            return isIPv6(bytes[5...])
        }
        return isIPv4(bytes[...])
    }

    static func isFWS(_ b: UInt8) -> Bool {
        ByteClass.isSpace(b) || ByteClass.isLineBreak(b)
    }

    /// `Snum 3("." Snum)`, each Snum 1–3 digits worth at most 255.
    static func isIPv4(_ s: ArraySlice<UInt8>) -> Bool {
        var parts = 0
        var digits = 0
        var value = 0
        for b in s {
            if ByteClass.isDigit(b) {
                digits += 1
                value = value * 10 + Int(b - 0x30)
                if digits > 3 || value > 255 { return false }
            } else if b == UInt8(ascii: ".") {
                if digits == 0 { return false }
                parts += 1
                digits = 0
                value = 0
            } else {
                return false
            }
        }
        return digits > 0 && parts == 3
    }

    /// RFC 5321's IPv6-full, IPv6-comp, IPv6v4-full and IPv6v4-comp.
    static func isIPv6(_ s: ArraySlice<UInt8>) -> Bool {
        let colon = UInt8(ascii: ":")
        // Split at "::" (at most one).
        var compressAt: Int?
        var i = s.startIndex
        while i + 1 < s.endIndex {
            if s[i] == colon && s[i + 1] == colon {
                if compressAt != nil { return false }
                compressAt = i
                i += 2
                continue
            }
            i += 1
        }
        var hexGroups = 0
        var hasIPv4 = false
        func parseSide(_ side: ArraySlice<UInt8>, allowIPv4: Bool) -> Bool {
            if side.isEmpty { return true }
            let groups = side.split(separator: colon, omittingEmptySubsequences: false)
            for (n, g) in groups.enumerated() {
                if g.isEmpty { return false }
                if n == groups.count - 1 && allowIPv4 && g.contains(UInt8(ascii: ".")) {
                    if !isIPv4(g) { return false }
                    hasIPv4 = true
                    continue
                }
                if g.count > 4 { return false }
                for b in g where !isHex(b) { return false }
                hexGroups += 1
            }
            return true
        }
        if let c = compressAt {
            guard parseSide(s[s.startIndex..<c], allowIPv4: false),
                  parseSide(s[(c + 2)...], allowIPv4: true) else { return false }
            return hasIPv4 ? hexGroups <= 4 : hexGroups <= 6
        }
        guard parseSide(s, allowIPv4: true) else { return false }
        return hasIPv4 ? hexGroups == 6 : hexGroups == 8
    }

    static func isHex(_ b: UInt8) -> Bool {
        ByteClass.isDigit(b) || (ByteClass.lowercased(b) >= 0x61 && ByteClass.lowercased(b) <= 0x66)
    }
}
