// Deterministic corpus of compose-field / To: / Cc: address lists, one record per line.
//
// The corpus mixes well-formed addresses in every shape a recipient field sees with the
// malformed input a chip recognizer has to survive. Every choice is drawn from one
// SplitMix64 stream through helpers defined here, and every word comes from built-in
// tables, so a seed names the same bytes on every machine and every toolchain.

import ChipKit
import ChipTestSupport

// The generator is ChipTestSupport.SplitMix64, shared with the tests.

/// One shape of recipient text, for a corpus of that shape alone
/// (`chipify-bench corpus --shape`): what a benchmark by shape times, each
/// against the same peers. Without a shape the corpus is the mix.
enum CorpusShape: String, CaseIterable, Sendable {
    /// Bare addresses and `Name <address>`, ASCII.
    case plain
    /// UTF-8 display names.
    case utf8Names = "utf8-names"
    /// `"Last, First" <…>`, some with escapes.
    case quoted
    /// Comments anywhere a mailbox may hold one: after the address, before
    /// it, inside the name, between the name and `<`, several.
    case comments
    /// IDN domains in Unicode (`bücher.de`), and UTF-8 local parts.
    case idn
    /// IDN domains as A-labels (`xn--bcher-kva.de`).
    case punycode
    /// RFC 2047 encoded names in several charsets.
    case encoded
    /// Groups: `Team: a@x.org, b@y.org;`.
    case groups
    /// Outlook's lists: `Last, First <…>; Last, First <…>`.
    case outlook
}

// MARK: - Generator

struct CorpusGenerator {
    /// Output is handed over in blocks of exactly this size (only the last is shorter),
    /// so a consumer writing to a pipe or file always issues page-multiple writes.
    static let chunkSize = 64 * 1024

    /// Room past `chunkSize` for the record that crosses the chunk boundary. Records are
    /// a few KiB at the very most; appends are bounds-checked in case that ever changes.
    static let recordSlack = 32 * 1024

    private var rng: SplitMix64
    private let tables: CorpusTables
    /// The one shape written, or nil for the mix.
    let shape: CorpusShape?
    /// The IDN domains as A-labels, for `.punycode`.
    private let punycodeDomains: [[UInt8]]

    init(seed: UInt64, shape: CorpusShape? = nil) {
        rng = SplitMix64(seed: seed)
        tables = corpusTables
        self.shape = shape
        punycodeDomains = shape == .punycode
            ? tables.idnDomains.compactMap { d in (try? IDNA.toASCII(String(decoding: d, as: UTF8.self))).map { Array($0.utf8) } }
            : []
    }

    /// Emits whole records until at least `byteCount` bytes were produced. The overshoot
    /// is below one record, so the total is within 1% of any multi-megabyte request.
    mutating func generate(byteCount: Int, emit: (UnsafeRawBufferPointer) -> Void) {
        generate(byteCount: byteCount, emitWhile: { chunk in
            emit(chunk)
            return true
        })
    }

    /// Same as `generate(byteCount:emit:)`, but `emit` may return false (say, a failed
    /// write) to stop early instead of formatting output nobody will see.
    /// Returns false if it stopped early.
    @discardableResult
    mutating func generate(byteCount: Int, emitWhile emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard byteCount > 0 else { return true }
        let capacity = Self.chunkSize + Self.recordSlack
        let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 64)
        defer { storage.deallocate() }
        var sink = ByteSink(base: storage, capacity: capacity)
        var produced = 0
        while produced < byteCount {
            let before = sink.count
            writeRecord(&sink)
            produced += sink.count - before
            if sink.count >= Self.chunkSize {
                guard emit(UnsafeRawBufferPointer(start: storage, count: Self.chunkSize)) else {
                    return false
                }
                sink.removeFirst(Self.chunkSize)
            }
        }
        if sink.count > 0 {
            return emit(UnsafeRawBufferPointer(start: storage, count: sink.count))
        }
        return true
    }

    // MARK: Records

    private mutating func writeRecord(_ out: inout ByteSink) {
        let itemCount = self.itemCount()
        // Pasted text often carries a stray leading blank.
        if rng.chance(perMille: 10) { out.append(" ") }
        var swallowsRest = false
        for index in 0..<itemCount {
            if index > 0 { writeSeparator(&out) }
            swallowsRest = writeItem(&out, isLast: index == itemCount - 1)
        }
        // Compose fields often keep the separator typed after the last recipient.
        // Outlook ends its lists with `;`, which a list of one needs to show
        // its style (else `Last, First <…>` is two chips, as RFC 5322 reads it).
        if shape == .outlook {
            if itemCount == 1 || rng.chance(perMille: 500) { out.append(";") }
        } else if !swallowsRest && rng.chance(perMille: 20) {
            out.append(", ")
        }
        out.append("\n")
    }

    /// 1...12 items, mean about 3.3: most fields hold a handful of recipients.
    private mutating func itemCount() -> Int {
        let roll = rng.below(100)
        var count = 1
        for threshold in Self.itemCountCumulative {
            if roll < threshold { return count }
            count += 1
        }
        return count
    }

    private static let itemCountCumulative = [30, 52, 67, 77, 83, 88, 91, 94, 96, 98, 99, 100]

    private mutating func writeSeparator(_ out: inout ByteSink) {
        if shape == .outlook {
            out.append(rng.chance(perMille: 900) ? "; " : ";")
            return
        }
        switch rng.below(100) {
        case ..<82: out.append(", ")
        case ..<88: out.append(",")
        case ..<92: out.append("; ")
        case ..<96: out.append(";")
        default: out.append(" ,")
        }
    }

    /// Writes one item; returns true when the item leaves something open (a quote, an
    /// angle, a comment, a group) that swallows whatever follows, so it must end the record.
    private mutating func writeItem(_ out: inout ByteSink, isLast: Bool) -> Bool {
        if let shape {
            switch shape {
            case .plain: if rng.chance(perMille: 500) { writeBare(&out) } else { writePlainNamed(&out) }
            case .utf8Names: writeInternationalName(&out)
            case .quoted: writeQuotedName(&out)
            case .comments: writeCommentsAnywhere(&out)
            case .idn: writeInternationalAddress(&out)
            case .punycode: writePunycodeAddress(&out)
            case .encoded: writeEncodedWordName(&out)
            case .groups: return writeGroup(&out, isLast: isLast)
            case .outlook: writeOutlookName(&out)
            }
            return false
        }
        switch rng.below(1000) {
        case ..<350: writeBare(&out)
        case ..<650: writeNamed(&out)
        case ..<730: writeQuotedName(&out)
        case ..<770: writeCommented(&out)
        case ..<810: return writeGroup(&out, isLast: isLast)
        case ..<890: writeInternationalName(&out)
        case ..<920: writeInternationalAddress(&out)
        case ..<950: writeEncodedWordName(&out)
        case ..<999: return writeMalformed(&out, isLast: isLast)
        default: writeInvalidUTF8(&out)
        }
        return false
    }

    // MARK: Names and addresses

    private struct Person {
        var given: Int
        var family: Int
    }

    private mutating func randomPerson() -> Person {
        Person(given: rng.below(tables.givenNames.count), family: rng.below(tables.familyNames.count))
    }

    private mutating func writeLocalPart(_ out: inout ByteSink, for person: Person) {
        let cased = rng.chance(perMille: 60)
        let given = cased ? tables.givenLocalCased[person.given] : tables.givenLocal[person.given]
        let family = cased ? tables.familyLocalCased[person.family] : tables.familyLocal[person.family]
        switch rng.below(10) {
        case 0, 1, 2:
            out.append(given); out.append("."); out.append(family)
        case 3:
            out.append(given[0]); out.append(family)
        case 4:
            out.append(given); out.append("_"); out.append(family)
            out.append("+"); out.append(rng.pick(tables.tags))
        case 5:
            out.append(given); writeNumberSuffix(&out)
        case 6:
            out.append(given)
        case 7:
            out.append(family); out.append("."); out.append(given)
        case 8:
            out.append(given); out.append("-"); out.append(family)
        default:
            out.append(given); out.append("."); out.append(family); writeNumberSuffix(&out)
        }
    }

    /// Digits as people really add them: a birth year or a short counter.
    private mutating func writeNumberSuffix(_ out: inout ByteSink) {
        if rng.chance(perMille: 500) {
            out.appendDecimal(rng.between(1950...2012))
        } else {
            out.appendDecimal(rng.below(100))
        }
    }

    private mutating func writeAddress(_ out: inout ByteSink, for person: Person) {
        writeLocalPart(&out, for: person)
        out.append("@")
        out.append(rng.pick(tables.domains))
    }

    private mutating func writeFullName(_ out: inout ByteSink, for person: Person) {
        out.append(tables.givenNames[person.given])
        out.append(" ")
        out.append(tables.familyNames[person.family])
    }

    private mutating func writeInitial(_ out: inout ByteSink) {
        out.append(UInt8(ascii: "A") + UInt8(rng.below(26)))
    }

    /// Opens the angle-addr after a display name; a few mailers and users omit the blank.
    private mutating func openAngle(_ out: inout ByteSink) {
        if rng.chance(perMille: 50) { out.append("<") } else { out.append(" <") }
    }

    // MARK: Well-formed items

    private mutating func writeBare(_ out: inout ByteSink) {
        let person = randomPerson()
        if rng.chance(perMille: 60) {
            out.append("<"); writeAddress(&out, for: person); out.append(">")
        } else {
            writeAddress(&out, for: person)
        }
    }

    private mutating func writeNamed(_ out: inout ByteSink) {
        let person = randomPerson()
        switch rng.below(100) {
        case ..<60:
            writeFullName(&out, for: person)
        case ..<70:
            out.append(tables.givenNames[person.given]); out.append(" ")
            writeInitial(&out); out.append(". ")
            out.append(tables.familyNames[person.family])
        case ..<80:
            out.append("\""); writeFullName(&out, for: person); out.append("\"")
        case ..<87:
            out.append(tables.givenNames[person.given])
        case ..<92:
            out.append("Dr. "); writeFullName(&out, for: person)
        default:
            let role = rng.below(tables.roleNames.count)
            out.append(tables.roleNames[role])
            openAngle(&out)
            out.append(tables.roleLocals[role]); out.append("@"); out.append(rng.pick(tables.domains))
            out.append(">")
            return
        }
        openAngle(&out)
        // Usually the mailbox matches the name; sometimes it is a shared or old one.
        let owner = rng.chance(perMille: 750) ? person : randomPerson()
        writeAddress(&out, for: owner)
        out.append(">")
    }

    /// `"Last, First" <…>`: the comma inside the quotes is the classic splitting trap.
    private mutating func writeQuotedName(_ out: inout ByteSink) {
        let person = randomPerson()
        out.append("\"")
        out.append(tables.familyNames[person.family]); out.append(", ")
        out.append(tables.givenNames[person.given])
        switch rng.below(100) {
        case ..<65:
            break
        case ..<80:
            out.append(" "); writeInitial(&out); out.append(".")
        case ..<92:
            out.append(" \\\""); out.append(rng.pick(tables.givenNames)); out.append("\\\"")
        case ..<97:
            out.append(" ("); out.append(rng.pick(tables.departments)); out.append(")")
        default:
            out.append(" \\\\ "); out.append(rng.pick(tables.departments))
        }
        out.append("\" <")
        writeAddress(&out, for: person)
        out.append(">")
    }

    private mutating func writeCommented(_ out: inout ByteSink) {
        let person = randomPerson()
        writeAddress(&out, for: person)
        out.append(" (")
        switch rng.below(100) {
        case ..<70:
            writeFullName(&out, for: person)
        case ..<85:
            writeFullName(&out, for: person); out.append(", "); out.append(rng.pick(tables.departments))
        case ..<95:
            out.append(tables.givenNames[person.given]); out.append(" (")
            out.append(rng.pick(tables.commentNotes)); out.append(")")
        default:
            break
        }
        out.append(")")
    }

    /// `Name <address>` with an ASCII name and no quotes.
    private mutating func writePlainNamed(_ out: inout ByteSink) {
        let person = randomPerson()
        writeFullName(&out, for: person)
        out.append(" <"); writeAddress(&out, for: person); out.append(">")
    }

    /// A comment anywhere RFC 5322 lets a mailbox hold one (CFWS around
    /// the address, in the phrase, before `<`), one or several.
    private mutating func writeCommentsAnywhere(_ out: inout ByteSink) {
        let person = randomPerson()
        func comment(_ out: inout ByteSink, _ rng: inout SplitMix64, _ tables: CorpusTables) {
            out.append("("); out.append(rng.pick(tables.commentNotes)); out.append(")")
        }
        switch rng.below(6) {
        case 0:  // a@x.org (Ann Lee)
            writeCommented(&out)
        case 1:  // (work) a@x.org
            comment(&out, &rng, tables); out.append(" "); writeAddress(&out, for: person)
        case 2:  // Ann (work) Lee <a@x.org>
            out.append(tables.givenNames[person.given]); out.append(" ")
            comment(&out, &rng, tables); out.append(" "); out.append(tables.familyNames[person.family])
            out.append(" <"); writeAddress(&out, for: person); out.append(">")
        case 3:  // Ann Lee (work) <a@x.org>
            writeFullName(&out, for: person); out.append(" "); comment(&out, &rng, tables)
            out.append(" <"); writeAddress(&out, for: person); out.append(">")
        case 4:  // Ann Lee <a@x.org> (work)
            writeFullName(&out, for: person)
            out.append(" <"); writeAddress(&out, for: person); out.append("> "); comment(&out, &rng, tables)
        default:  // a@x.org (Ann) (work)
            writeAddress(&out, for: person); out.append(" (")
            out.append(tables.givenNames[person.given]); out.append(") "); comment(&out, &rng, tables)
        }
    }

    /// An address at an IDN domain written as A-labels, bare or named.
    private mutating func writePunycodeAddress(_ out: inout ByteSink) {
        let person = randomPerson()
        let named = rng.chance(perMille: 500)
        if named { writeFullName(&out, for: person); out.append(" <") }
        writeLocalPart(&out, for: person)
        out.append("@"); out.append(rng.pick(punycodeDomains))
        if named { out.append(">") }
    }

    /// `Last, First <address>` as Outlook writes it: the name unquoted.
    private mutating func writeOutlookName(_ out: inout ByteSink) {
        let person = randomPerson()
        out.append(tables.familyNames[person.family]); out.append(", ")
        out.append(tables.givenNames[person.given])
        out.append(" <"); writeAddress(&out, for: person); out.append(">")
    }

    /// `Team: a@x, b@y;`. Only a final group may leave out its `;`, since it would
    /// otherwise absorb the following recipients.
    private mutating func writeGroup(_ out: inout ByteSink, isLast: Bool) -> Bool {
        let leftOpen = isLast && rng.chance(perMille: 350)
        if rng.chance(perMille: 250) {
            out.append(rng.pick(tables.emptyGroups))
        } else {
            out.append(rng.pick(tables.groupNames)); out.append(":")
            if !rng.chance(perMille: 100) { out.append(" ") }
            let members = rng.between(1...4)
            for index in 0..<members {
                if index > 0 { out.append(", ") }
                if rng.chance(perMille: 600) { writeBare(&out) } else { writeNamed(&out) }
            }
        }
        if !leftOpen { out.append(";") }
        return leftOpen
    }

    private mutating func writeInternationalDisplayName(_ out: inout ByteSink) {
        let script = rng.below(tables.internationalNames.count)
        let name = rng.pick(tables.internationalNames[script])
        if rng.chance(perMille: 250) {
            out.append("\""); out.append(name); out.append("\"")
        } else {
            out.append(name)
        }
    }

    private mutating func writeInternationalName(_ out: inout ByteSink) {
        writeInternationalDisplayName(&out)
        openAngle(&out)
        writeAddress(&out, for: randomPerson())
        out.append(">")
    }

    /// RFC 6531 territory: IDN domains with Unicode labels and UTF-8 local parts.
    private mutating func writeInternationalAddress(_ out: inout ByteSink) {
        // 0..<40 bare IDN, 40..<60 named IDN, 60..<80 bare UTF-8 local part, 80..<100 named.
        let roll = rng.below(100)
        let unicodeLocalPart = roll >= 60
        let named = (40..<60).contains(roll) || roll >= 80
        if named {
            if rng.chance(perMille: 500) {
                writeFullName(&out, for: randomPerson())
            } else {
                writeInternationalDisplayName(&out)
            }
            openAngle(&out)
        }
        if !unicodeLocalPart {
            writeLocalPart(&out, for: randomPerson())
            out.append("@"); out.append(rng.pick(tables.idnDomains))
        } else {
            out.append(rng.pick(tables.utf8LocalParts)); out.append("@")
            out.append(rng.chance(perMille: 500) ? rng.pick(tables.idnDomains) : rng.pick(tables.domains))
        }
        if named { out.append(">") }
    }

    /// RFC 2047 display names. The encoded forms are computed once from the name tables.
    private mutating func writeEncodedWordName(_ out: inout ByteSink) {
        let encoded: [UInt8]
        switch rng.below(100) {
        case ..<45:
            let table = tables.encodedUTF8Base64
            encoded = rng.pick(table[rng.below(table.count)])
        case ..<65:
            let table = tables.encodedUTF8Quoted
            encoded = rng.pick(table[rng.below(table.count)])
        case ..<95:
            encoded = rng.pick(tables.encodedLatin1Quoted)
        default:
            encoded = rng.pick(tables.encodedLatin1Base64)
        }
        // Quoting an encoded-word breaks RFC 2047, but some clients do it and readers cope.
        if rng.chance(perMille: 50) {
            out.append("\""); out.append(encoded); out.append("\"")
        } else {
            out.append(encoded)
        }
        out.append(" <")
        writeAddress(&out, for: randomPerson())
        out.append(">")
    }

    // MARK: Malformed items

    /// The kinds that leave a delimiter open come last: they swallow the rest of the
    /// field, so they are only drawn for the final item.
    private enum Malformation: Int {
        case missingAt, missingDomain, emptyLocalPart, consecutiveDots
        case longLocalPart, longDomainLabel, longDomain, invalidCharacter
        case dotlessDomain, junk
        case unterminatedQuote, unterminatedAngle, unbalancedComment

        static let anywhereCount = unterminatedQuote.rawValue
        static let count = unbalancedComment.rawValue + 1
    }

    private mutating func writeMalformed(_ out: inout ByteSink, isLast: Bool) -> Bool {
        let bound = isLast ? Malformation.count : Malformation.anywhereCount
        let kind = Malformation(rawValue: rng.below(bound))!
        let person = randomPerson()
        switch kind {
        case .missingAt:
            let angled = rng.chance(perMille: 300)
            if angled { writeFullName(&out, for: person); out.append(" <") }
            writeLocalPart(&out, for: person)
            if rng.chance(perMille: 150) { out.append(" at ") } else { out.append(".") }
            out.append(rng.pick(tables.domains))
            if angled { out.append(">") }
        case .missingDomain:
            let angled = rng.chance(perMille: 300)
            if angled { writeFullName(&out, for: person); out.append(" <") }
            writeLocalPart(&out, for: person); out.append("@")
            if angled { out.append(">") }
        case .emptyLocalPart:
            let angled = rng.chance(perMille: 300)
            if angled { writeFullName(&out, for: person); out.append(" <") }
            out.append("@"); out.append(rng.pick(tables.domains))
            if angled { out.append(">") }
        case .consecutiveDots:
            writeDotError(&out, for: person)
        case .longLocalPart:
            let target = rng.between(65...100)
            let start = out.count
            while out.count - start < target {
                if out.count > start { out.append(".") }
                out.append(rng.chance(perMille: 500) ? rng.pick(tables.givenLocal) : rng.pick(tables.familyLocal))
            }
            out.append("@"); out.append(rng.pick(tables.domains))
        case .longDomainLabel:
            writeLocalPart(&out, for: person); out.append("@")
            let target = rng.between(64...90)
            let start = out.count
            while out.count - start < target { out.append(rng.pick(tables.domainWords)) }
            out.append("."); out.append(rng.pick(tables.topLevelDomains))
        case .longDomain:
            writeLocalPart(&out, for: person); out.append("@")
            let base = rng.pick(tables.domains)
            let target = rng.between(256...320)
            let start = out.count
            while out.count - start + base.count < target {
                out.append(rng.pick(tables.domainWords)); out.append(".")
            }
            out.append(base)
        case .invalidCharacter:
            writeInvalidCharacter(&out, for: person)
        case .dotlessDomain:
            let angled = rng.chance(perMille: 300)
            if angled { writeFullName(&out, for: person); out.append(" <") }
            writeLocalPart(&out, for: person); out.append("@"); out.append(rng.pick(tables.dotlessHosts))
            if angled { out.append(">") }
        case .junk:
            out.append(rng.pick(tables.junk))
        case .unterminatedQuote:
            out.append("\"")
            if rng.chance(perMille: 500) {
                out.append(tables.familyNames[person.family]); out.append(", ")
                out.append(tables.givenNames[person.given])
            } else {
                writeFullName(&out, for: person)
            }
            out.append(" <"); writeAddress(&out, for: person); out.append(">")
        case .unterminatedAngle:
            writeFullName(&out, for: person); out.append(" <")
            writeAddress(&out, for: person)
        case .unbalancedComment:
            writeAddress(&out, for: person); out.append(" (")
            if rng.chance(perMille: 500) {
                writeFullName(&out, for: person)
            } else {
                out.append(rng.pick(tables.commentNotes))
            }
        }
        return kind.rawValue >= Malformation.anywhereCount
    }

    private mutating func writeDotError(_ out: inout ByteSink, for person: Person) {
        switch rng.below(4) {
        case 0:
            out.append(tables.givenLocal[person.given]); out.append("..")
            out.append(tables.familyLocal[person.family])
            out.append("@"); out.append(rng.pick(tables.domains))
        case 1:
            writeLocalPart(&out, for: person); out.append("@")
            var doubled = false
            for byte in rng.pick(tables.domains) {
                out.append(byte)
                if byte == UInt8(ascii: ".") && !doubled {
                    out.append(byte)
                    doubled = true
                }
            }
        case 2:
            out.append("."); writeAddress(&out, for: person)
        default:
            writeLocalPart(&out, for: person); out.append(".@"); out.append(rng.pick(tables.domains))
        }
    }

    private mutating func writeInvalidCharacter(_ out: inout ByteSink, for person: Person) {
        let roll = rng.below(100)
        if roll < 35 {
            // Legal in an RFC 5322 dot-atom but not in a host name.
            writeLocalPart(&out, for: person); out.append("@")
            let domain = rng.pick(tables.domains)
            let start = out.count
            out.append(domain)
            let firstLabelLength = domain.firstIndex(of: UInt8(ascii: ".")) ?? domain.count
            out.insert(rng.pick(tables.hostSymbols), at: start + 1 + rng.below(firstLabelLength))
        } else {
            let start = out.count
            writeLocalPart(&out, for: person)
            let length = out.count - start
            let offset = length > 1 ? 1 + rng.below(length - 1) : length
            let byte = roll < 85 ? rng.pick(tables.controlBytes) : UInt8(ascii: "\\")
            out.insert(byte, at: start + offset)
            out.append("@"); out.append(rng.pick(tables.domains))
        }
    }

    /// Mis-encoded text as it arrives from old clients and bad copy-paste.
    private mutating func writeInvalidUTF8(_ out: inout ByteSink) {
        let bad = rng.pick(tables.invalidUTF8)
        let person = randomPerson()
        switch rng.below(10) {
        case ..<4:
            out.append(tables.givenNames[person.given]); out.append(bad); out.append(" ")
            out.append(tables.familyNames[person.family]); out.append(" <")
            writeAddress(&out, for: person); out.append(">")
        case ..<8:
            writeLocalPart(&out, for: person); out.append(bad)
            out.append("@"); out.append(rng.pick(tables.domains))
        default:
            writeLocalPart(&out, for: person); out.append("@")
            out.append(bad); out.append(rng.pick(tables.domains))
        }
    }
}

// MARK: - Output buffer

/// A fixed block of memory the generator formats into. Each append is bounds-checked,
/// so a record that ever outgrew the slack would trap instead of overrunning the block.
private struct ByteSink {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "corpus record outgrew the buffer slack")
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= capacity - count, "corpus record outgrew the buffer slack")
        if let source = bytes.baseAddress {
            (base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes a non-negative integer in decimal without going through `String`.
    mutating func appendDecimal(_ value: Int) {
        precondition(value >= 0)
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        precondition(digits <= capacity - count, "corpus record outgrew the buffer slack")
        var remaining = value
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            base.storeBytes(of: UInt8(ascii: "0") + UInt8(remaining % 10), toByteOffset: position, as: UInt8.self)
            remaining /= 10
        }
        count += digits
    }

    mutating func insert(_ byte: UInt8, at offset: Int) {
        precondition(offset >= 0 && offset <= count && count < capacity)
        (base + offset + 1).copyMemory(from: base + offset, byteCount: count - offset)
        base.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
        count += 1
    }

    /// Drops the first `n` bytes, moving what follows to the front.
    mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count)
        base.copyMemory(from: base + n, byteCount: count - n)
        count -= n
    }
}

// MARK: - Tables

private let corpusTables = CorpusTables()

/// Every word the generator uses, as UTF-8 bytes, with the derived forms (local-part
/// spellings, RFC 2047 encodings) computed once so the hot loop only copies bytes.
private struct CorpusTables {
    let givenNames: [[UInt8]]
    let familyNames: [[UInt8]]
    let givenLocal: [[UInt8]]
    let familyLocal: [[UInt8]]
    let givenLocalCased: [[UInt8]]
    let familyLocalCased: [[UInt8]]
    let domainWords: [[UInt8]]
    let roleNames: [[UInt8]]
    let roleLocals: [[UInt8]]
    let groupNames: [[UInt8]]
    let emptyGroups: [[UInt8]]
    let departments: [[UInt8]]
    let commentNotes: [[UInt8]]
    let tags: [[UInt8]]
    let domains: [[UInt8]]
    let idnDomains: [[UInt8]]
    let utf8LocalParts: [[UInt8]]
    let dotlessHosts: [[UInt8]]
    let topLevelDomains: [[UInt8]]
    let junk: [[UInt8]]
    let hostSymbols: [UInt8]
    let controlBytes: [UInt8]
    let invalidUTF8: [[UInt8]]
    /// Grouped by script so each script is equally likely however long its lists are.
    let internationalNames: [[[UInt8]]]
    let encodedUTF8Base64: [[[UInt8]]]
    let encodedUTF8Quoted: [[[UInt8]]]
    let encodedLatin1Quoted: [[UInt8]]
    let encodedLatin1Base64: [[UInt8]]

    init() {
        func bytes(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

        givenNames = bytes(Words.given)
        familyNames = bytes(Words.family)
        givenLocal = Words.given.map { localSpelling($0, lowercased: true) }
        familyLocal = Words.family.map { localSpelling($0, lowercased: true) }
        givenLocalCased = Words.given.map { localSpelling($0, lowercased: false) }
        familyLocalCased = Words.family.map { localSpelling($0, lowercased: false) }
        domainWords = (Words.given + Words.family + Words.hostWords).map(hostSpelling)
        roleNames = bytes(Words.roles.map(\.name))
        roleLocals = bytes(Words.roles.map(\.local))
        groupNames = bytes(Words.groups)
        emptyGroups = bytes(Words.emptyGroups)
        departments = bytes(Words.departments)
        commentNotes = bytes(Words.commentNotes)
        tags = bytes(Words.tags)
        domains = bytes(Words.domains)
        idnDomains = bytes(Words.idnDomains)
        utf8LocalParts = bytes(Words.utf8LocalParts)
        dotlessHosts = bytes(Words.dotlessHosts)
        topLevelDomains = bytes(Words.topLevelDomains)
        junk = bytes(Words.junk)
        hostSymbols = Array("!#$%&'*+/=?^_`{|}~".utf8)
        // C0 controls minus TAB, LF, VT, FF, CR and FS...US, which line-splitting tools
        // (Python's str.splitlines among them) treat as line breaks; plus DEL.
        controlBytes = Array(0x01...0x08) + Array(0x0E...0x1B) + [0x7F]
        invalidUTF8 = Words.invalidUTF8

        let names = Words.scripts.map(\.fullNames)
        internationalNames = names.map(bytes)
        encodedUTF8Base64 = names.map { $0.compactMap { encodedWords($0, charset: .utf8, encoding: .base64) } }
        encodedUTF8Quoted = names.map { $0.compactMap { encodedWords($0, charset: .utf8, encoding: .quoted) } }
        // Only names whose every character exists in ISO-8859-1 survive the compactMap.
        let latinNames = names.joined()
        encodedLatin1Quoted = latinNames.compactMap { encodedWords($0, charset: .latin1, encoding: .quoted) }
        encodedLatin1Base64 = latinNames.compactMap { encodedWords($0, charset: .latin1, encoding: .base64) }
    }
}

/// A name as it shows up in a local part: spaces dropped ("van der Berg" becomes
/// "vanderberg"), apostrophes and hyphens kept because real mailboxes have them.
private func localSpelling(_ name: String, lowercased: Bool) -> [UInt8] {
    var result: [UInt8] = []
    for byte in name.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            result.append(lowercased ? byte + 32 : byte)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "'"), UInt8(ascii: "-"):
            result.append(byte)
        default:
            continue
        }
    }
    precondition(!result.isEmpty, "name \(name) has no local-part spelling")
    return result
}

/// A word usable as a host-name label: lowercase letters and digits only, so the
/// over-long-label and over-long-domain cases carry no second, unintended error.
private func hostSpelling(_ word: String) -> [UInt8] {
    localSpelling(word, lowercased: true).filter { $0 != UInt8(ascii: "'") && $0 != UInt8(ascii: "-") }
}

// MARK: - RFC 2047 encoded-words

private enum Charset {
    case utf8, latin1

    var label: String {
        switch self {
        case .utf8: "UTF-8"
        case .latin1: "ISO-8859-1"
        }
    }

    /// The character's bytes in this charset, or nil if it has no encoding in it.
    func encode(_ character: Character) -> [UInt8]? {
        switch self {
        case .utf8:
            return Array(character.utf8)
        case .latin1:
            var result: [UInt8] = []
            for scalar in character.unicodeScalars {
                guard scalar.value <= 0xFF else { return nil }
                result.append(UInt8(scalar.value))
            }
            return result
        }
    }
}

private enum WordEncoding {
    case base64, quoted

    var letter: String {
        switch self {
        case .base64: "B"
        case .quoted: "Q"
        }
    }

    func encode(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .base64: base64Encoding(bytes)
        case .quoted: qEncoding(bytes)
        }
    }

    func encodedLength(of bytes: [UInt8]) -> Int {
        switch self {
        case .base64: (bytes.count + 2) / 3 * 4
        case .quoted: qEncoding(bytes).count
        }
    }
}

/// `name` as one or more RFC 2047 encoded-words separated by a space. A word may be at
/// most 75 characters, so long names are split, always between grapheme clusters so no
/// word holds half a character. Nil when the charset cannot represent the name.
private func encodedWords(_ name: String, charset: Charset, encoding: WordEncoding) -> [UInt8]? {
    let prefix = Array("=?\(charset.label)?\(encoding.letter)?".utf8)
    let suffix = Array("?=".utf8)
    let budget = 75 - prefix.count - suffix.count
    var pieces: [[UInt8]] = []
    var current: [UInt8] = []
    for character in name {
        guard let bytes = charset.encode(character) else { return nil }
        if !current.isEmpty && encoding.encodedLength(of: current + bytes) > budget {
            pieces.append(current)
            current = []
        }
        current += bytes
    }
    if !current.isEmpty { pieces.append(current) }

    var result: [UInt8] = []
    for (index, piece) in pieces.enumerated() {
        if index > 0 { result.append(UInt8(ascii: " ")) }
        result += prefix + encoding.encode(piece) + suffix
    }
    return result
}

private func base64Encoding(_ bytes: [UInt8]) -> [UInt8] {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let available = min(3, bytes.count - index)
        var group: UInt32 = 0
        for offset in 0..<3 {
            group <<= 8
            if offset < available { group |= UInt32(bytes[index + offset]) }
        }
        for sextet in 0..<4 {
            if sextet <= available {
                result.append(alphabet[Int((group >> (18 - 6 * UInt32(sextet))) & 0x3F)])
            } else {
                result.append(UInt8(ascii: "="))
            }
        }
        index += 3
    }
    return result
}

/// The "Q" encoding as restricted for display names (RFC 2047 section 5 rule 3): only
/// letters, digits and `!*+-/` stay literal, a space becomes `_`, all else is `=XX`.
private func qEncoding(_ bytes: [UInt8]) -> [UInt8] {
    let hexDigits = Array("0123456789ABCDEF".utf8)
    var result: [UInt8] = []
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"):
            result.append(byte)
        case UInt8(ascii: " "):
            result.append(UInt8(ascii: "_"))
        default:
            result.append(UInt8(ascii: "="))
            result.append(hexDigits[Int(byte >> 4)])
            result.append(hexDigits[Int(byte & 0x0F)])
        }
    }
    return result
}

// MARK: - Word lists

private struct ScriptNames {
    let fullNames: [String]

    /// Every given/family combination, in the order the script's culture writes them.
    init(given: [String], family: [String], familyFirst: Bool = false, separator: String = " ") {
        var names: [String] = []
        for givenName in given {
            for familyName in family {
                names.append(familyFirst ? familyName + separator + givenName : givenName + separator + familyName)
            }
        }
        fullNames = names
    }

    /// Names that are not a given/family pair (teams, nicknames with emoji).
    init(fullNames: [String]) {
        self.fullNames = fullNames
    }
}

private enum Words {
    static let given = [
        "Ann", "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda",
        "David", "Elizabeth", "William", "Susan", "Richard", "Jessica", "Joseph", "Sarah",
        "Thomas", "Karen", "Charles", "Nancy", "Daniel", "Lisa", "Matthew", "Emily", "Anthony",
        "Priya", "Wei", "Hiroshi", "Fatima", "Olga", "Lars", "Ingrid", "Kwame", "Aisha",
        "Diego", "Mei", "Raj", "Chloe", "Noah", "Liam", "Mia", "Sven", "Yuki",
    ]

    static let family = [
        "Lee", "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
        "Rodriguez", "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Taylor", "Thomas",
        "Moore", "Jackson", "Martin", "Thompson", "White", "Harris", "Clark", "Lewis", "Walker",
        "Young", "King", "Wright", "Scott", "Nguyen", "Patel", "Kim", "Chen", "Wang", "Singh",
        "Okafor", "Novak", "Kowalski", "Schmidt", "O'Brien", "Smith-Jones", "McDonald",
        "van der Berg",
    ]

    static let hostWords = [
        "mail", "smtp", "mx", "eu", "us", "west", "internal", "corp", "dept", "research",
        "relay", "secure", "cloud", "staging",
    ]

    static let roles: [(name: String, local: String)] = [
        ("Support Team", "support"), ("No Reply", "noreply"), ("Billing Department", "billing"),
        ("IT Helpdesk", "helpdesk"), ("Sales", "sales"), ("Customer Service", "service"),
        ("HR", "hr"), ("Newsletter", "newsletter"), ("Jenkins CI", "jenkins"),
        ("Notifications", "notifications"), ("Postmaster", "postmaster"),
    ]

    static let groups = [
        "Engineering", "Project Phoenix", "Board of Directors", "All Staff", "Book Club",
        "Family", "Marketing Team", "Release Managers", "Ski Trip 2024", "Reviewers",
    ]

    static let emptyGroups = ["undisclosed-recipients:", "Undisclosed recipients:", "recipient list not shown:"]

    static let departments = ["Sales", "Engineering", "Legal", "HR", "Finance", "Marketing", "Ops"]

    static let commentNotes = ["work", "home", "old", "personal", "oops", "do not use", "assistant"]

    static let tags = ["news", "work", "shopping", "lists", "spam", "2024", "github", "bank"]

    static let domains = [
        "example.com", "example.org", "example.net", "mail.example.org", "gmail.com",
        "googlemail.com", "yahoo.com", "yahoo.co.uk", "outlook.com", "hotmail.com", "live.com",
        "icloud.com", "me.com", "aol.com", "protonmail.com", "proton.me", "fastmail.com",
        "gmx.de", "web.de", "t-online.de", "orange.fr", "free.fr", "libero.it", "mail.ru",
        "yandex.ru", "qq.com", "163.com", "naver.com", "yahoo.co.jp", "rediffmail.com",
        "uol.com.br", "bigpond.com", "shaw.ca", "xs4all.nl", "seznam.cz", "wp.pl", "acme.com",
        "corp.acme.com", "eu.acme-corp.com", "initech.com", "globex.co", "umbrella-corp.net",
        "cs.stanford.edu", "mit.edu", "ox.ac.uk", "u-tokyo.ac.jp", "sales.contoso.com",
        "mail.contoso.com", "lists.debian.org", "users.noreply.github.com", "fabrikam.io",
        "northwind.dev",
    ]

    static let idnDomains = [
        "münchen.de", "mail.münchen.de", "köln.de", "zürich.ch", "bücher.example", "straße.de",
        "ñandú.es", "évian.fr", "пример.рф", "почта.рф", "испытание.рф", "δοκιμή.gr", "例え.jp",
        "日本語.jp", "中国.cn", "한국.kr", "مثال.إختبار", "דוגמה.ישראל", "उदाहरण.भारत",
        "ตัวอย่าง.ไทย",
    ]

    static let utf8LocalParts = [
        "josé", "zoë.müller", "françois", "søren", "jürgen.groß", "ñandú", "иван.петров",
        "почта", "δοκιμή", "用户", "山田太郎", "김민준", "संपर्क", "ทดสอบ", "mañana", "ünal.çelik",
    ]

    static let dotlessHosts = ["localhost", "intranet", "mailhost", "example", "corp", "exchange01"]

    static let topLevelDomains = ["com", "org", "net", "de", "io", "co.uk"]

    static let junk = [
        "???", "<<>>", "<>", "@", "@@", "ann@@example.com", "a@b@c.example", "...", "\"\"",
        "()", "<@>", "!!!", "-", "<<ann@example.com>>",
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0xC3, 0x28],             // lead byte followed by ASCII
        [0xFF],                   // never valid
        [0xFE],
        [0x80],                   // lone continuation byte
        [0xE2, 0x82],             // truncated three-byte sequence
        [0xC0, 0xAF],             // overlong '/'
        [0xED, 0xA0, 0x80],       // UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
        [0xE9],                   // Latin-1 'é' pasted as-is
    ]

    static let scripts: [ScriptNames] = [
        ScriptNames(
            given: ["José", "François", "Zoë", "Søren", "Łukasz", "Jürgen", "Ömer", "Ágnes",
                    "Björn", "Siân", "Renée", "Iñaki", "Maël", "Dagný"],
            family: ["García", "Müller", "Dvořák", "Núñez", "Øberg", "Wójcik", "Çelik",
                     "Ștefănescu", "Lefèvre", "Groß", "Þórsson", "Sørensen"]),
        ScriptNames(
            given: ["Γιώργος", "Μαρία", "Νίκος", "Ελένη", "Δημήτρης", "Σοφία"],
            family: ["Παπαδόπουλος", "Γεωργίου", "Νικολάου", "Οικονόμου", "Καραγιάννης"]),
        ScriptNames(
            given: ["Иван", "Мария", "Алексей", "Ольга", "Дмитрий", "Анна", "Сергій"],
            family: ["Петров", "Иванова", "Смирнов", "Кузнецова", "Шевченко", "Попов"]),
        ScriptNames(
            given: ["伟", "芳", "娜", "秀英", "敏", "静", "丽", "强"],
            family: ["王", "李", "张", "刘", "陈", "杨"],
            familyFirst: true, separator: ""),
        ScriptNames(
            given: ["太郎", "花子", "健", "さくら", "翔太", "美咲"],
            family: ["山田", "佐藤", "鈴木", "高橋", "田中", "渡辺"],
            familyFirst: true),
        ScriptNames(
            given: ["민준", "서연", "지훈", "하은", "도윤"],
            family: ["김", "이", "박", "최", "정"],
            familyFirst: true, separator: ""),
        ScriptNames(
            given: ["محمد", "فاطمة", "أحمد", "مريم", "علي", "ليلى"],
            family: ["العلي", "حسن", "الخطيب", "منصور", "السيد"]),
        ScriptNames(
            given: ["דוד", "שרה", "יוסף", "רחל", "משה", "נועה"],
            family: ["כהן", "לוי", "מזרחי", "פרץ", "ביטון"]),
        ScriptNames(
            given: ["राहुल", "प्रिया", "अमित", "सुनीता", "विकास", "अनीता"],
            family: ["शर्मा", "वर्मा", "गुप्ता", "सिंह", "पटेल"]),
        ScriptNames(
            given: ["สมชาย", "สมศรี", "ประเสริฐ", "มาลี", "วิชัย"],
            family: ["ใจดี", "ศรีสุข", "รักไทย", "สุขสวัสดิ์", "วงศ์ใหญ่"]),
        ScriptNames(fullNames: [
            "🎉 Party Committee", "Ann 🌸 Lee", "🚀 Launch Crew", "Dev Team 👩‍💻", "🇯🇵 Tokyo Office",
            "❤️ Mom", "Pat 👍🏽", "☕ Coffee Club", "Grandpa 👴", "🏳️‍🌈 Pride Network",
        ]),
    ]
}
