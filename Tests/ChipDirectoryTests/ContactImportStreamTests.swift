@testable import ChipDirectory
import ChipSyntax
import ChipRecognition
import ChipDirectoryTestSupport
import ChipTestSupport
import Testing

/// Reading an address book in pieces gives what reading it whole gives:
/// the same contacts (identities and lines included), problems, format and
/// encoding, however the file is cut into reads and into pieces.
@Suite struct ContactImportStreamTests {
    /// The file fed in reads of random sizes, read in small pieces.
    static func streamed(_ bytes: [UInt8], options: ContactImportOptions = ContactImportOptions(),
                         rng: inout SplitMix64) -> ContactImportResult {
        var stream = ContactImportStream(
            options: options, pieceBytes: 64 + Int(rng.next() % 4096), detectionBytes: 4096 + Int(rng.next() % 4096))
        var contacts: [Contact] = []
        var i = 0
        while i < bytes.count {
            let n = min(bytes.count - i, 1 + Int(rng.next() % (rng.next() % 2 == 0 ? 16 : 3000)))
            stream.feed(Array(bytes[i..<(i + n)]))
            contacts += stream.takeContacts()
            i += n
        }
        stream.finish()
        contacts += stream.takeContacts()
        return ContactImportResult(
            contacts: contacts, problems: stream.takeProblems(), format: stream.format, textEncoding: stream.textEncoding)
    }

    static func expectSame(_ bytes: [UInt8], _ what: String, rng: inout SplitMix64,
                           options: ContactImportOptions = ContactImportOptions()) {
        let whole = ContactImporter.import(bytes, options: options)
        let pieces = streamed(bytes, options: options, rng: &rng)
        #expect(pieces.format == whole.format, "\(what)")
        #expect(pieces.textEncoding == whole.textEncoding, "\(what)")
        #expect(pieces.contacts.count == whole.contacts.count, "\(what)")
        for (a, b) in zip(pieces.contacts, whole.contacts) where a != b {
            Issue.record("\(what): line \(b.line) read as \(a) in pieces, \(b) whole")
            break
        }
        #expect(pieces.problems == whole.problems, "\(what)")
    }

    /// Every generated format, with LF, CRLF and CR line ends and in UTF-16.
    @Test(arguments: ContactCorpus.Format.allCases)
    func piecesGiveTheWhole(_ format: ContactCorpus.Format) {
        var rng = SplitMix64(seed: 0x5EED_0033)
        for seed in 1...3 as ClosedRange<UInt64> {
            let file = ContactCorpus.write(ContactCorpus.contacts(count: 120, seed: seed), as: format, seed: seed)
            Self.expectSame(file.bytes, "\(format) seed \(seed)", rng: &rng)
            let crlf = file.bytes.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
            Self.expectSame(crlf, "\(format) CRLF seed \(seed)", rng: &rng)
            let cr = file.bytes.map { $0 == 0x0A ? 0x0D : $0 }
            Self.expectSame(cr, "\(format) CR seed \(seed)", rng: &rng)
            var utf16: [UInt8] = [0xFF, 0xFE]
            for unit in String(decoding: file.bytes, as: UTF8.self).utf16 {
                utf16.append(UInt8(unit & 0xFF))
                utf16.append(UInt8(unit >> 8))
            }
            Self.expectSame(utf16, "\(format) UTF-16LE seed \(seed)", rng: &rng)
        }
    }

    /// Damaged files: lines dropped, repeated and swapped at random, so
    /// that cards lose their ends, gain stray BEGINs and rows change shape;
    /// the pieces still read as the whole.
    @Test(arguments: ContactCorpus.Format.allCases)
    func damagedPiecesGiveTheWhole(_ format: ContactCorpus.Format) {
        var rng = SplitMix64(seed: 0xDA_3A6E)
        for seed in 1...6 as ClosedRange<UInt64> {
            let file = ContactCorpus.write(ContactCorpus.contacts(count: 60, seed: seed), as: format, seed: seed)
            var lines = file.bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            for _ in 0..<(lines.count / 10) {
                let k = Int(rng.next() % UInt64(lines.count))
                switch rng.next() % 4 {
                case 0: lines.remove(at: k)
                case 1: lines.insert(lines[k], at: Int(rng.next() % UInt64(lines.count)))
                case 2: lines.swapAt(k, Int(rng.next() % UInt64(lines.count)))
                default: lines[k] = Array(lines[k].prefix(Int(rng.next() % UInt64(lines[k].count + 1))))
                }
            }
            let damaged = Array(lines.joined(separator: [0x0A]))
            Self.expectSame(damaged, "\(format) damaged seed \(seed)", rng: &rng)
            Self.expectSame(damaged, "\(format) damaged strict seed \(seed)", rng: &rng,
                            options: ContactImportOptions(strict: true))
        }
    }

    @Test func emptyAndUnknownInput() {
        var rng = SplitMix64(seed: 1)
        for text in ["", "\n\n  \n", "hello\nworld\n", "\u{FEFF}", "BEGIN:VCARD"] {
            Self.expectSame(Array(text.utf8), text.debugDescription, rng: &rng)
        }
    }

    /// An Apple group naming members by `X-ABUID` resolves them wherever
    /// the cards are, before or after the group, in any piece; the groups
    /// follow the other cards in file order.
    @Test(arguments: 0..<12)
    func appleMembersResolveAcrossPieces(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func person(_ n: Int) -> String {
            "BEGIN:VCARD\nVERSION:3.0\nFN:P\(n)\nEMAIL:p\(n)@x.org\nX-ABUID:ABUID-\(n):ABPerson\nEND:VCARD\n"
        }
        let group = "BEGIN:VCARD\nVERSION:3.0\nFN:Team\nX-ADDRESSBOOKSERVER-KIND:group\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:abuid-2\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ABUID-150\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ABUID-299:ABPerson\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:nobody\nEND:VCARD\n"
        var text = ""
        let groupAt = Int(rng.next() % 300)
        for n in 0..<300 {
            if n == groupAt { text += group }
            text += person(n)
        }
        let bytes = Array(text.utf8)
        for result in [ContactImporter.import(bytes), Self.streamed(bytes, rng: &rng)] {
            #expect(result.contacts.count == 301)
            #expect(result.contacts.last?.displayName == "Team", "group at \(groupAt)")
            let idOf = { (n: Int) in "urn:uuid:" + (result.contacts.first { $0.displayName == "P\(n)" }?.id.rawValue ?? "?") }
            #expect(result.contacts.last?.members == [idOf(2), idOf(150), idOf(299), "urn:uuid:nobody"], "group at \(groupAt)")
            #expect(result.contacts.dropLast().map(\.displayName) == (0..<300).map { "P\($0)" })
        }
        Self.expectSame(bytes, "group at \(groupAt)", rng: &rng)
    }

    /// A long file is read as it comes: after most of it was fed, most of
    /// its contacts are out, and the text held is about one piece.
    @Test func readsAsItGoes() {
        let file = ContactCorpus.write(ContactCorpus.contacts(count: 2_000, seed: 5), as: .vcard40, seed: 5)
        var stream = ContactImportStream(options: ContactImportOptions(), pieceBytes: 4096, detectionBytes: 4096)
        let half = file.bytes.count / 2
        stream.feed(Array(file.bytes[..<half]))
        let early = stream.takeContacts().count
        #expect(early > 800)
        stream.feed(Array(file.bytes[half...]))
        stream.finish()
        #expect(early + stream.takeContacts().count == 2_000)
    }
}
