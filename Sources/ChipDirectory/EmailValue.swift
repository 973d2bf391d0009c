// What an address book's e-mail value holds: the addresses people and
// exporters write there, which are not always one addr-spec.

import ChipRecognition
import ChipSyntax

/// The addresses of one e-mail value (a vCard `EMAIL`, a CSV e-mail
/// column), read by one rule for every format:
///
/// 1. Surrounding white space goes; so does a `mailto:` scheme (RFC 6068:
///    the addresses before `?`, percent-decoded) or Exchange's `SMTP:`
///    proxy prefix.
/// 2. An Exchange/X.500 path (`/o=ExchangeLabs/ou=…/cn=Recipients/cn=…`)
///    names a mailbox inside one organization's directory, not an address:
///    it is rejected.
/// 3. What is left is read as an address list, as a pasted list is read
///    (RFC 5322 with the standard policy): each mailbox that is valid gives
///    its address, the first display name found is kept (for a card that
///    has no name), a group gives its members, and every other piece
///    (a phone number, a type word such as `SMTP`, text without `@`) is
///    rejected.
///
/// A plain `local@domain` (dot-atoms of ASCII letters, digits and the
/// RFC 5322 atext symbols, a host name of letters, digits and hyphens)
/// takes a fast path that gives what the list reading gives.
struct EmailValue: Sendable, Equatable {
    /// The addresses, in the value's order.
    var addresses: [String] = []
    /// The first display name a mailbox of the value carried.
    var displayName: String?
    /// The pieces that are not addresses, as written (for the warning).
    var rejected: [String] = []

    /// Reads `p` (UTF-8).
    ///
    /// - Complexity: O(*n*) in the value's bytes.
    init(_ p: UnsafeBufferPointer<UInt8>) {
        var parser = EmailValue.makeParser()
        self.init(p, parser: &parser)
    }

    /// The parser the list reading uses; an importer makes one and keeps it.
    static func makeParser() -> AddressList.Parser { AddressList.Parser(policy: .standard, checksLookalikes: false) }

    /// Reads `p` (UTF-8) with a parser kept from value to value.
    ///
    /// - Complexity: O(*n*) in the value's bytes.
    init(_ p: UnsafeBufferPointer<UInt8>, parser: inout AddressList.Parser) {
        var value = trimmingSpaces(p)
        guard !value.isEmpty else { return }
        if EmailValue.isPlainAddress(value) {
            addresses.append(makeString(value))
            return
        }
        var i = 0
        var decodedMailto: [UInt8]?
        if asciiCaseInsensitiveEquals(value, &i, "MAILTO:") {
            // RFC 6068: `mailto:` addresses `?` headers; the addresses are
            // percent-encoded.
            var end = i
            while end < value.count && value[end] != UInt8(ascii: "?") { end += 1 }
            decodedMailto = EmailValue.percentDecoded(UnsafeBufferPointer(rebasing: value[i..<end]))
        } else {
            i = 0
            if asciiCaseInsensitiveEquals(value, &i, "SMTP:") {
                value = trimmingSpaces(UnsafeBufferPointer(rebasing: value[i...]))
                if EmailValue.isPlainAddress(value) {
                    addresses.append(makeString(value))
                    return
                }
            }
        }
        if let decodedMailto {
            decodedMailto.withUnsafeBufferPointer { readList(trimmingSpaces($0), &parser) }
        } else {
            readList(value, &parser)
        }
    }

    /// Reads `value` as an address list.
    private mutating func readList(_ value: UnsafeBufferPointer<UInt8>, _ parser: inout AddressList.Parser) {
        guard !value.isEmpty else { return }
        if EmailValue.isPlainAddress(value) {
            addresses.append(makeString(value))
            return
        }
        if EmailValue.isX500Path(value) {
            rejected.append(makeString(value))
            return
        }
        for chip in parser.parse(value) {
            switch chip.kind {
            case .mailbox:
                if chip.isValid, let address = chip.address {
                    if !addresses.contains(address) { addresses.append(address) }
                    if displayName == nil, let name = chip.displayName, !name.isEmpty { displayName = name }
                } else {
                    rejected.append(chip.rawText)
                }
            default:
                continue
            }
        }
    }

    /// Whether `p` is an Exchange/X.500 distinguished name: `/o=` (or
    /// `/O=`) first, as Outlook writes the `EX` addresses of a mailbox in
    /// its organization.
    static func isX500Path(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        p.count >= 3 && p[0] == UInt8(ascii: "/") && (p[1] | ASCII.caseBit) == UInt8(ascii: "o")
            && p[2] == UInt8(ascii: "=")
    }

    /// Whether `p` is `dot-atom@host`: ASCII atext in dot-separated
    /// non-empty atoms, one `@`, then dot-separated labels of letters,
    /// digits and inner hyphens, at most 63 bytes each. What the address
    /// list reading accepts unchanged, as one valid mailbox.
    static func isPlainAddress(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = p.count
        guard n >= 3, n <= 254 else { return false }
        var i = 0
        var atomLength = 0
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: "@") { break }
            if b == UInt8(ascii: ".") {
                guard atomLength > 0 else { return false }
                atomLength = 0
            } else {
                guard isAtext(b) else { return false }
                atomLength += 1
            }
            i += 1
        }
        // One non-empty atom before the `@`, at most 64 bytes of local part.
        guard i < n, atomLength > 0, i <= 64 else { return false }
        i += 1
        var labelLength = 0
        var last: UInt8 = 0
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: ".") {
                guard labelLength > 0, last != ASCII.hyphen else { return false }
                labelLength = 0
            } else if ByteClass.isLetterOrDigit(b) && b < 0x80 {
                labelLength += 1
            } else if b == ASCII.hyphen {
                guard labelLength > 0 else { return false }
                labelLength += 1
            } else {
                return false
            }
            guard labelLength <= 63 else { return false }
            last = b
            i += 1
        }
        // The domain needs a dot and a final label that is not all digits
        // (the list reading warns about those).
        guard labelLength > 0, last != ASCII.hyphen else { return false }
        var k = n - 1
        var digitsOnly = true
        while k >= 0 && p[k] != UInt8(ascii: ".") && p[k] != UInt8(ascii: "@") {
            if !ByteClass.isDigit(p[k]) { digitsOnly = false }
            k -= 1
        }
        return p[k] == UInt8(ascii: ".") && !digitsOnly
    }

    /// RFC 5322 `atext` in ASCII.
    @inline(__always)
    static func isAtext(_ b: UInt8) -> Bool {
        if b >= 0x80 { return false }
        if ByteClass.isLetterOrDigit(b) { return true }
        switch b {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"),
             UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `%XX` sequences decoded (a `%` not followed by two hex digits stays).
    static func percentDecoded(_ p: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(p.count)
        var i = 0
        while i < p.count {
            if p[i] == UInt8(ascii: "%"), i + 2 < p.count, let high = Base64.hexValue(p[i + 1]),
               let low = Base64.hexValue(p[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(p[i])
                i += 1
            }
        }
        return out
    }

    /// The warning for the rejected pieces, naming the first: a vCard
    /// `EMAIL` property's when `line` is given, else a CSV cell's.
    func rejection(onEmailLine line: Int? = nil) -> (ContactImportProblem.Reason, [String: String])? {
        guard let first = rejected.first else { return nil }
        let shown = first.utf8.count > 80 ? String(first.prefix(77)) + "..." : first
        let x500 = EmailValue.isX500PathString(first)
        var values = ["text": shown, "more": "\(rejected.count - 1)"]
        guard let line else { return (x500 ? .valueExchangeAddress : .valueNotAnAddress, values) }
        values["line"] = "\(line)"
        return (x500 ? .emailExchangeAddress : .emailNotAnAddress, values)
    }

    static func isX500PathString(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isX500Path($0) }
    }
}

extension EmailValue {
    /// Reads a string value (tests, hosts' own rows).
    init(_ s: String) {
        var s = s
        self = s.withUTF8 { EmailValue($0) }
    }

    /// Reads a string value with a kept parser. A plain address is kept
    /// as the string it is (no second copy).
    init(_ s: String, parser: inout AddressList.Parser) {
        var s = s
        if s.withUTF8({ EmailValue.isPlainAddress($0) }) {
            addresses = [s]
            return
        }
        self = s.withUTF8 { EmailValue($0, parser: &parser) }
    }
}
