import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipTestSupport

extension ContactCorpus {
    /// Contacts made from arbitrary bytes, one a line: fields split at `|`
    /// are the display name, a nickname, an organization, then addresses
    /// (bytes that are not UTF-8 become U+FFFD, as a host's strings would
    /// hold them). Uses grow with the line number, so ranks differ.
    public static func contacts(fromLines bytes: [UInt8]) -> [Contact] {
        var contacts: [Contact] = []
        for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            func field(_ k: Int) -> String? { k < fields.count && !fields[k].isEmpty ? fields[k] : nil }
            let name = field(0)
            let words = (name ?? "").split(separator: " ").map(String.init)
            contacts.append(Contact(
                id: ContactID("c\(n)"), displayName: name,
                name: StructuredName(family: words.suffix(1), given: words.dropLast().prefix(1).map { $0 }),
                nicknames: field(1).map { [$0] } ?? [], organization: field(2),
                emails: fields.count > 3 ? fields[3...].filter { !$0.isEmpty }.map { ContactEmail(address: $0) } : [],
                usage: ContactUsage(count: n % 3, weight: Double(n % 3), last: n % 3 == 0 ? nil : Double(n) * 3600)))
        }
        return contacts
    }

    /// What must hold for the suggestions of any directory and query, and
    /// the broken ones found (empty when all hold): the index suggests
    /// exactly what reading every contact suggests, for prefixes of the
    /// contacts' own words, pairs of them, and the text itself, at several
    /// limits, with some addresses left out, and on a version with a
    /// changed and a removed contact; and typing a query key by key gives
    /// at every key what a fresh search gives.
    ///
    /// Used by the fuzz target and the suggestion tests.
    ///
    /// - Complexity: O(*q* · *n*) for *q* queries and *n* contacts (the
    ///   scan answers each query).
    public static func suggestionViolations(of contacts: [Contact], extraQueries: [String] = []) -> [String] {
        var problems: [String] = []
        var book = ContactDirectory(contacts)
        var words: [String] = []
        for c in contacts {
            for text in [c.displayName ?? ""] + c.nicknames + c.emails.map(\.address) {
                words += text.split(whereSeparator: { $0 == " " || $0 == "." || $0 == "@" }).map(String.init)
            }
        }
        var queries = extraQueries
        for (k, w) in words.prefix(6).enumerated() {
            for length in [1, 2, 4] { queries.append(String(w.prefix(length))) }
            queries.append(String(w.prefix(2)) + " " + String(words[(k * 7 + 3) % words.count].prefix(1)))
            queries.append("\"" + w + "\"")
        }
        queries += contacts.prefix(5).flatMap { c in c.emails.map(\.address) + c.nicknames }
        let excluded = Set(contacts.prefix(3).flatMap { $0.emails.prefix(1).map { $0.address.uppercased() } })
        for version in 0..<2 {
            if version == 1 {
                guard contacts.count >= 2 else { break }
                var changed = contacts[0]
                changed.displayName = (changed.displayName ?? "") + " Zed"
                changed.usage = ContactUsage(count: 5, weight: 5, last: 1e9)
                book = book.updating([changed]).removing([contacts[1].id])
            }
            for q in queries {
                for limit in [1, 3] {
                    let index = book.suggestions(for: q, limit: limit, excluding: limit == 3 ? excluded : [])
                    let scan = book.suggestionsByScanning(for: q, limit: limit, excluding: limit == 3 ? excluded : [])
                    if index != scan { problems.append("version \(version): \(q.debugDescription) limit \(limit): index and scan differ") }
                }
            }
            for q in queries.prefix(5) {
                var search = SuggestionSearch(book, limit: 5)
                var typed = ""
                for ch in q {
                    typed.append(ch)
                    if search.update(typed) != book.suggestions(for: typed, limit: 5) {
                        problems.append("version \(version): typing \(typed.debugDescription) differs from searching afresh")
                    }
                }
            }
        }
        return problems
    }
}
