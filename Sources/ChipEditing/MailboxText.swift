// A mailbox written from a name and an address, so a host (or a chosen
// suggestion) never quotes a name by hand.

import ChipSyntax

/// The text of a mailbox, `Name <address>`, with the name quoted when RFC
/// 5322 needs it.
package enum MailboxText {
    /// `address` alone without a name; otherwise the name as a phrase of
    /// atoms when it is one (UTF-8 allowed, RFC 6532), else a quoted
    /// string with `"` and `\` escaped. Line breaks and other controls in
    /// the name become spaces, and white space is folded, so the text is
    /// always one chip.
    ///
    /// - Complexity: O(*n*) in the name's and the address's length.
    package static func format(name: String?, address: String) -> String {
        var words: [String] = []
        var current = ""
        for scalar in (name ?? "").unicodeScalars {
            let v = scalar.value
            if v <= 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { words.append(current) }
        guard !words.isEmpty else { return address }
        let phrase = words.joined(separator: " ")
        let plain = words.allSatisfy { word in word.utf8.allSatisfy { ByteClass.atext[$0] != 0 } }
        if plain { return "\(phrase) <\(address)>" }
        var quoted = "\""
        for ch in phrase.unicodeScalars {
            if ch == "\"" || ch == "\\" { quoted.append("\\") }
            quoted.unicodeScalars.append(ch)
        }
        quoted.append("\"")
        return "\(quoted) <\(address)>"
    }
}
