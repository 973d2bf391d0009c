import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipTestSupport

extension ContactCorpus {
    /// What must hold for any input to `ContactImporter`, however broken,
    /// and the broken ones found (empty when all hold):
    ///
    /// 1. Import returns (no trap), leniently and strictly.
    /// 2. Identities are unique within one import.
    /// 3. Every contact has a name or an address, except a vCard card that
    ///    held other data (a NOTE, an ADR): such a card is kept, nameless.
    /// 4. Lines are within the text: contacts of a vCard file and all
    ///    problems come in file order (CSV lists follow their rows).
    /// 5. What strict mode keeps, lenient mode keeps the same (identities,
    ///    and group members rewritten to them, aside: they depend on what
    ///    else was kept).
    ///
    /// Used by the randomized import tests and by the fuzz target.
    ///
    /// - Complexity: O(*n*) in the input's size, plus the contacts' count
    ///   times log of it.
    public static func importViolations(of bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let lenient = ContactImporter.import(bytes)
        let strict = ContactImporter.import(bytes, options: ContactImportOptions(strict: true))
        // Lines end as the importers end them: LF, CRLF or a lone CR.
        var lineCount = 1
        for (i, b) in bytes.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
            lineCount += 1
        }
        if lenient.textEncoding.hasPrefix("UTF-16") { lineCount = bytes.count / 2 + 1 }
        for (mode, result) in [("lenient", lenient), ("strict", strict)] {
            if Set(result.contacts.map(\.id)).count != result.contacts.count {
                problems.append("\(mode): identities repeat")
            }
            for c in result.contacts where c.displayName == nil && c.emails.isEmpty && result.format != .vCard {
                problems.append("\(mode): a contact on line \(c.line) has no name and no address")
            }
            for c in result.contacts where c.line < 1 || c.line > lineCount {
                problems.append("\(mode): a contact on line \(c.line) of \(lineCount)")
            }
            for p in result.problems where p.line < 0 || p.line > lineCount {
                problems.append("\(mode): a problem on line \(p.line) of \(lineCount)")
            }
            if result.format == .vCard && !zip(result.contacts, result.contacts.dropFirst()).allSatisfy({ $0.line < $1.line }) {
                problems.append("\(mode): contacts out of file order")
            }
            if !zip(result.problems, result.problems.dropFirst()).allSatisfy({ $0.line <= $1.line }) {
                problems.append("\(mode): problems out of file order")
            }
        }
        var lenientByLine: [Int: Contact] = [:]
        for c in lenient.contacts where c.kind != .group || lenient.format == .vCard { lenientByLine[c.line] = c }
        for var c in strict.contacts where c.kind != .group || strict.format == .vCard {
            guard var other = lenientByLine[c.line] else {
                problems.append("strict keeps the contact on line \(c.line), lenient does not")
                continue
            }
            c.id = ContactID("")
            other.id = ContactID("")
            // A group's members that name an Apple X-ABUID are rewritten to
            // the id of the card that has it, when that card was kept.
            c.members = c.members.map { $0.hasPrefix("urn:uuid:") ? "urn:uuid:" : $0 }
            other.members = other.members.map { $0.hasPrefix("urn:uuid:") ? "urn:uuid:" : $0 }
            if c != other { problems.append("strict and lenient read line \(c.line) differently") }
        }
        return problems
    }
}
