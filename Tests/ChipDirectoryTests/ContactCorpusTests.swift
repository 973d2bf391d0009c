import Testing
import ChipTestSupport
@testable import ChipDirectory

/// The main differential test of import: generated address books written
/// in every format, imported, and compared field by field with what each
/// format can carry.
@Suite("Contact corpus: write, import, compare")
struct ContactCorpusTests {
    static let seeds = Array(UInt64(1)...20)

    /// The identities an import must give: the written UID, or the FNV-1a of
    /// display name, first address and source; repeats take `-2`, `-3`, ….
    struct ExpectedIDs {
        var used: Set<String> = []

        mutating func next(_ base: String) -> String {
            if used.insert(base).inserted { return base }
            var k = 2
            while !used.insert("\(base)-\(k)").inserted { k += 1 }
            return "\(base)-\(k)"
        }
    }

    static func expected(_ generated: [Contact], _ format: ContactCorpus.Format, _ file: ContactCorpus.File,
                         seed: UInt64) -> (contacts: [Contact], problems: [Int])
    {
        var ids = ExpectedIDs()
        var out: [Contact] = []
        var problemLines: [Int] = []
        var groupOrder: [String] = []
        var groupLines: [String: Int] = [:]
        var groupMembers: [String: [String]] = [:]
        let legacy = ContactCorpus.isGoogleLegacy(seed: seed)
        for (k, index) in file.written.enumerated() {
            var c = ContactCorpus.carried(generated[index], by: format, googleLegacy: legacy)
            c.line = file.lines[k]
            let vCardHoldsData = format.isVCard && Self.addVCardReading(&c, file)
            if c.displayName == nil && c.emails.isEmpty && !vCardHoldsData {
                problemLines.append(c.line)
                continue
            }
            let uid = format.isVCard ? generated[index].id.rawValue : ""
            c.id = ContactID(ids.next(uid.isEmpty
                ? referenceFNV([c.displayName ?? "", c.emails.first?.address ?? "", c.source.rawValue]) : uid))
            for category in c.categories where format == .google || format == .outlook {
                if groupLines[category] == nil {
                    groupOrder.append(category)
                    groupLines[category] = c.line
                }
                groupMembers[category, default: []].append(c.preferredEmail?.address ?? c.id.rawValue)
            }
            out.append(c)
        }
        for category in groupOrder {
            out.append(Contact(
                id: ContactID(ids.next(referenceFNV(["group", category]))), kind: .group, displayName: category,
                members: groupMembers[category]!, source: .csv, line: groupLines[category]!))
        }
        return (out, problemLines)
    }

    @Test(arguments: ContactCorpus.Format.allCases)
    func everyFormatImportsWhatItCarries(_ format: ContactCorpus.Format) {
        for seed in Self.seeds {
            let generated = ContactCorpus.contacts(count: 150 + Int(seed) * 7, seed: seed)
            let file = ContactCorpus.write(generated, as: format, seed: seed)
            let (expected, problemLines) = Self.expected(generated, format, file, seed: seed)
            for strict in [false, true] {
                let result = ContactImporter.import(file.bytes, options: ContactImportOptions(strict: strict))
                #expect(result.problems.map(\.line) == problemLines, "seed \(seed) \(format) strict \(strict): \(described(result.problems))")
                guard result.contacts.count == expected.count else {
                    Issue.record("seed \(seed) \(format) strict \(strict): \(result.contacts.count) contacts, expected \(expected.count)")
                    continue
                }
                for (got, want) in zip(result.contacts, expected) where got != want {
                    Issue.record("seed \(seed) \(format) strict \(strict), line \(want.line):\n got \(got)\nwant \(want)")
                    break
                }
            }
        }
    }

    @Test(arguments: ContactCorpus.Format.allCases)
    func theFormatIsRecognized(_ format: ContactCorpus.Format) {
        for seed: UInt64 in [1, 2, 3, 4] {
            let file = ContactCorpus.write(ContactCorpus.contacts(count: 30, seed: seed), as: format, seed: seed)
            let result = ContactImporter.import(file.bytes)
            let want: ContactFileFormat = switch format {
            case .vcard40, .vcard30, .vcard21: .vCard
            case .google: .googleCSV
            case .outlook: .outlookCSV
            case .thunderbird: .thunderbirdCSV
            }
            #expect(result.format == want, "seed \(seed)")
            if format == .outlook {
                #expect(result.textEncoding == (ContactCorpus.outlookStyle(seed: seed).utf16 ? "UTF-16LE" : "UTF-8"))
            }
        }
    }

    /// Broken files: generated ones with bytes flipped, cut, doubled and
    /// interesting tokens inserted keep the import's invariants.
    @Test(arguments: ContactCorpus.Format.allCases)
    func mutatedFilesKeepTheImportInvariants(_ format: ContactCorpus.Format) {
        let tokens: [[UInt8]] = ["\r\n", "\n", "=", ":", ";", ",", "\"", "\\", " ", "BEGIN:VCARD\r\n", "END:VCARD\r\n",
                                 "VERSION:2.1\r\n", ";ENCODING=QUOTED-PRINTABLE", ";CHARSET=x-bogus", "=\r\n", "item1.",
                                 "\u{FEFF}", "PREF=0", " ::: ", "\"\""].map { Array($0.utf8) } + [[0xFF], [0x00], [0xC3]]
        for seed in UInt64(1)...12 {
            let clean = ContactCorpus.write(ContactCorpus.contacts(count: 12, seed: seed), as: format, seed: seed).bytes
            var rng = SplitMix64(seed: seed &* 7919)
            for round in 0..<40 {
                var bytes = clean
                for _ in 0..<(1 + rng.below(4)) {
                    guard !bytes.isEmpty else { break }
                    let at = rng.below(bytes.count)
                    switch rng.below(4) {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + rng.below(40)))
                    case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + rng.below(60))], at: at)
                    default: bytes.insert(contentsOf: tokens[rng.below(tokens.count)], at: at)
                    }
                }
                let violations = ContactCorpus.importViolations(of: bytes)
                #expect(violations.isEmpty, "seed \(seed) round \(round) \(format): \(violations)")
                if !violations.isEmpty { return }
            }
        }
    }

    @Test func theSameSeedGivesTheSameBytes() {
        for format in ContactCorpus.Format.allCases {
            let a = ContactCorpus.write(ContactCorpus.contacts(count: 200, seed: 9), as: format, seed: 9).bytes
            let b = ContactCorpus.write(ContactCorpus.contacts(count: 200, seed: 9), as: format, seed: 9).bytes
            let c = ContactCorpus.write(ContactCorpus.contacts(count: 200, seed: 10), as: format, seed: 10).bytes
            #expect(a == b, "\(format)")
            #expect(a != c, "\(format)")
        }
    }

    /// The generator draws on every script it promises, and on the values
    /// that writers must escape.
    @Test func theCorpusHoldsEveryScriptAndAwkwardValue() {
        let generated = ContactCorpus.contacts(count: 3_000, seed: 5)
        let text = generated.map { [$0.displayName ?? "", $0.organization ?? ""].joined(separator: "|") + $0.nicknames.joined() }
            .joined(separator: "\n")
        for marker in ["ß", "ł", "ø", "å", "ı", "İ", "ễ", "Γ", "Д", "Ա", "م", "ש", "王", "山", "김", "é", "ñ", "ã", "ř",
                       ",", ";", "\"", "\\"] {
            #expect(text.contains(marker), "\(marker)")
        }
        #expect(generated.contains { $0.kind == .group && !$0.members.isEmpty })
        #expect(generated.contains { $0.kind == .org })
        #expect(generated.contains { $0.emails.count == 3 && $0.emails.contains { $0.pref != nil } })
        #expect(generated.contains { $0.id.rawValue.isEmpty })
    }

    /// The samples under `Corpus/contacts/` are the generator's output for
    /// 50 contacts of seed 1; `chipify-bench contacts` writes them again.
    @Test(arguments: ContactCorpus.Format.allCases)
    func committedSamplesAreTheGeneratorsOutput(_ format: ContactCorpus.Format) {
        let path = ChipTestSupport.packageRoot() + "/Corpus/contacts/" + format.sampleName
        guard let committed = readFile(path) else {
            Issue.record("cannot read \(path)")
            return
        }
        let file = ContactCorpus.write(ContactCorpus.contacts(count: 50, seed: 1), as: format, seed: 1)
        #expect(committed == file.bytes, "regenerate with: chipify-bench contacts --count 50 --format \(format.rawValue) --seed 1")
        let result = ContactImporter.import(committed, options: ContactImportOptions(strict: true))
        #expect(result.problems.isEmpty, "\(described(result.problems))")
        #expect(result.contacts.count >= 50 * 9 / 10)
    }
}

extension ContactCorpusTests {
    /// What a card's lines give beyond the generated contact: its VERSION,
    /// its phone, and, for a card without a name, the organization,
    /// nickname or phone it is shown by. Returns whether the card holds
    /// data beyond its identity (a nameless card that does is a contact).
    static func addVCardReading(_ c: inout Contact, _ file: ContactCorpus.File) -> Bool {
        c.declaredVersion = c.source.rawValue
        var lines: [String] = []
        var line = 1
        var current: [UInt8] = []
        for b in file.bytes {
            if b == 0x0A {
                if line >= c.line {
                    let text = String(decoding: current.last == 0x0D ? current.dropLast() : current[...], as: UTF8.self)
                    if text == "END:VCARD" { break }
                    lines.append(text)
                }
                line += 1
                current.removeAll(keepingCapacity: true)
            } else if line >= c.line {
                current.append(b)
            }
        }
        for text in lines where text.hasPrefix("TEL;TYPE=cell:") { c.phones.append(String(text.dropFirst(14))) }
        if c.displayName == nil { c.displayName = c.organization ?? c.nicknames.first ?? c.phones.first }
        let other = lines.contains { $0.hasPrefix("NOTE") || $0.hasPrefix("ADR") || $0.hasPrefix("PHOTO") }
        return other || !c.phones.isEmpty || !c.categories.isEmpty || !c.members.isEmpty || c.organization != nil
            || !c.nicknames.isEmpty
    }
}
