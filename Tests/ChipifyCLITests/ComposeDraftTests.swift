#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import ChipifyCLI
@testable import ChipEditing
import ChipKit
import ChipTestSupport

/// Drafts are untrusted input, and saving one is linear in its chips.
@Suite("compose: drafts")
struct ComposeDraftTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/chipify-draft-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    /// Writes a snapshot as a draft file in a new temporary directory, as a
    /// hand-edited or forged draft would be: the directory and the file.
    static func writeDraft(_ s: ComposerSnapshot) throws -> (String, String) {
        let encoder = JSONValueEncoder()
        try s.encode(to: encoder)
        var out = ByteBuffer(capacity: 1 << 12)
        encoder.root.write(to: &out)
        let directory = temporaryDirectory()
        let path = directory + "/draft.json"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var writer = OutputBuffer(fd: fd, capacity: 0)
        writer.buffer = out
        writer.flush()
        close(fd)
        return (directory, path)
    }

    /// Field names as `--fields` takes them and as a draft holds them are
    /// one rule: a name `--fields` refuses, a draft cannot restore.
    @Test(arguments: 0..<8)
    func aDraftsFieldNamesFollowTheFieldsOptionsRule(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0xF1E1D)
        let alphabet: [String] = ["t", "o", "C", "-", "_", "1", ":", " ", "\r", "\n", "\t", "\u{1B}", "\u{7F}", "\u{0}",
                                  "\u{85}", "\u{9B}", "ö", "\u{202E}", ".", "x"]
        for trial in 0..<200 {
            let name = (0..<rng.below(5)).map { _ in alphabet[rng.below(alphabet.count)] }.joined()
            let option = (try? OptionValue.fieldNames(name))?.map(\.name) == [name]
            var s = Composer(fields: [FieldID("first")!, FieldID("second")!]).snapshot
            s.fields[1].name = FieldID(checked: name)
            let restored = (try? Composer(snapshot: s)) != nil
            #expect(option == restored, "seed \(seed), trial \(trial): \(name.debugDescription) --fields \(option), draft \(restored)")
            if option != restored { return }
        }
    }

    /// The issue's draft: a field name that adds a `Bcc:` header is refused
    /// when the file is read, with a message saying why.
    @Test func aDraftWhoseFieldNameHoldsALineBreakIsRefused() throws {
        var c = Composer(fields: [.to])
        c.paste("ann@example.org, ")
        var s = c.snapshot
        s.fields[0].name = FieldID(checked: "To\r\nBcc: evil@attacker.example\r\nX-Y")
        s.focus = s.fields[0].name
        let (directory, path) = try Self.writeDraft(s)
        defer { unlink(path); rmdir(directory) }
        switch ComposeDraft.load(path) {
        case .restored(let restored):
            Issue.record("restored, and would send: \(ComposeController.headerBlock(restored, smtpUTF8: false).debugDescription)")
        case .none: Issue.record("not read")
        case .failure(let message): #expect(message.contains("field name"), "\(message)")
        }
    }

    /// The autosave's debounce: a save is due a second after the last
    /// change, and at the latest ten seconds after the first unsaved one.
    @Test(arguments: [
        ([0], 0, 1_000), ([0], 400, 600), ([0, 900], 1_000, 900), ([0], 1_000, 0),
        (Array(stride(from: 0, through: 9_500, by: 500)), 9_600, 400), ([], 0, -1),
    ] as [([Int64], Int64, Int32)])
    func theAutosaveIsDebounced(_ changes: [Int64], _ now: Int64, _ wait: Int32) {
        var autosave = DraftAutosave(path: "/nonexistent/draft.json")
        for t in changes { autosave.changed(at: t) }
        #expect(autosave.timeout(at: now) == wait, "changes \(changes), now \(now)")
    }

    @Test func aDefaultDraftFollowsTheStateDirectory() {
        let env1: [String: String] = ["XDG_STATE_HOME": "/s", "HOME": "/h"]
        let env2: [String: String] = ["HOME": "/h"]
        let env3: [String: String] = ["XDG_STATE_HOME": "relative", "HOME": "/h"]
        #expect(ComposeDraft.defaultPath { env1[$0] } == "/s/chipify/draft.json")
        #expect(ComposeDraft.defaultPath { env2[$0] } == "/h/.local/state/chipify/draft.json")
        #expect(ComposeDraft.defaultPath { env3[$0] } == "/h/.local/state/chipify/draft.json")
        #expect(ComposeDraft.defaultPath { _ in nil } == nil)
        #expect((try? ComposeCommand.parse(["--no-draft", "--draft", "d.json"])) == nil)
        #expect((try? ComposeCommand.parse(["--no-draft"]))?.noDraft == true)
    }

    /// The message of a refused draft quotes it cleaned: no escape
    /// sequence from the file reaches the terminal through standard error.
    @Test(arguments: ["focus", "policy"])
    func aRefusedDraftsMessageHoldsNoControlCharacters(_ which: String) throws {
        var s = Composer(fields: [.to]).snapshot
        if which == "focus" { s.focus = FieldID(checked: "\u{1B}]0;owned\u{7}\u{1B}[2J") } else { s.policy = "\u{1B}[2J\u{9B}31m"; s.version = 1 }
        let (directory, path) = try Self.writeDraft(s)
        defer { unlink(path); rmdir(directory) }
        guard case .failure(let message) = ComposeDraft.load(path) else {
            Issue.record("\(which): restored")
            return
        }
        #expect(ComposeScreenSafetyTests.badScalars(message).isEmpty, "\(message.debugDescription)")
    }

    /// Text no writer may get wrong: quotes, backslashes, control bytes
    /// (C0, DEL, C1), non-ASCII, the line and paragraph separators, a
    /// character outside the BMP, and what looks like an escape already.
    static let hostile: [String] = [
        "\"", "\\", "\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1B}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9B}",
        "\u{2028}", "\u{2029}", "\u{FEFF}", "ö", "李", "\u{1F600}", "\\u0041", "\\x41", "a", "@", " ", "/", "",
    ]

    static func hostileText(_ rng: inout SplitMix64) -> String {
        (0..<rng.below(6)).map { _ in hostile[rng.below(hostile.count)] }.joined()
    }

    /// A random draft: groups, errors, warnings, names, text that is not
    /// UTF-8, pending text, several fields, candidates; then every string
    /// a draft holds replaced at random by hostile text (the writer must
    /// write whatever a snapshot holds, restorable or not).
    static func randomSnapshot(_ rng: inout SplitMix64) -> ComposerSnapshot {
        let pieces = ["ann@example.org", "Ann Lee <ann@example.org>", "bob@", "Team: c@example.org, d@example.net;",
                      "undisclosed-recipients:;", "carol@gmial.com", "Jiří <jiri@example.cz>", "ann@example.org",
                      "\"Lee, Ann\" <lee@x.org>", "mallory@ex\u{0430}mple.com", "\"a \\\"q\\\" b\" <q@x.org>",
                      "\"back\\\\slash\" <b@x.org>", "x\u{2028}y <s@x.org>", "\"\u{1}\u{7F}\" <c@x.org>", "李 <li@example.cn>"]
        var c = Composer(fields: [.to, .cc, .bcc], duplicatePolicy: DuplicatePolicy.allCases[rng.below(4)])
        for name in ["to", "cc", "bcc"] {
            _ = c.focus(FieldID(name)!)
            c.paste((0..<rng.below(6)).map { _ in pieces[rng.below(pieces.count)] }.joined(separator: ", ") + ", ")
        }
        if rng.below(2) == 0 { _ = c.type(bytes: [0x61, 0xFF, 0x5C, 0x62]) }
        if rng.below(2) == 0 { c.type(Self.hostileText(&rng)) }
        var s = c.snapshot
        if rng.below(2) == 0 { s.resolution = ContactResolution.allCases[rng.below(ContactResolution.allCases.count)] }
        if rng.below(2) == 0 { s.remoteLookups = rng.below(2) == 0 }
        if rng.below(4) == 0 { s.policy = Self.hostileText(&rng) }
        if rng.below(4) == 0 { s.limits = FieldLimits(maxChips: rng.below(1_000), maxPendingBytes: rng.below(1_000)) }
        if rng.below(3) == 0 { s.focus = FieldID(checked: Self.hostileText(&rng)) }
        let suggestions = ContactDirectory([
            Contact(id: ContactID("c1"), displayName: "Ann Lee", emails: [ContactEmail(address: "ann@example.org")]),
            Contact(id: ContactID("c2"), displayName: "Ann Ray", emails: [ContactEmail(address: "ann@example.net")]),
        ]).suggestions(for: "ann")
        for k in s.fields.indices {
            if rng.below(3) == 0 { s.fields[k].name = FieldID(checked: Self.hostileText(&rng)) }
            if rng.below(3) == 0 { s.fields[k].policy?.name = Self.hostileText(&rng) }
            if rng.below(3) == 0 { s.fields[k].policy?.commonDomains.append(Self.hostileText(&rng)) }
            if rng.below(4) == 0 { s.fields[k].policy = nil }
            if rng.below(4) == 0 { s.fields[k].limits = nil }
            if rng.below(3) == 0 { s.fields[k].pending = Array(Self.hostileText(&rng).utf8) + (rng.below(2) == 0 ? [0xC3] : []) }
            for i in s.fields[k].chips.indices {
                func text() -> String? { rng.below(3) == 0 ? nil : Self.hostileText(&rng) }
                var chip = s.fields[k].chips[i]
                switch rng.below(8) {
                case 0: chip.content.displayName = text()
                case 1: chip.content.address = text(); chip.content.localPart = text(); chip.content.domain = text()
                case 2: chip.content.group = text(); chip.content.suggestedDomain = text()
                case 3: chip.content.asciiDomain = text(); chip.content.unicodeDomain = text()
                case 4: chip.content.raw = Array(Self.hostileText(&rng).utf8) + [[], [0x80], [0xE2, 0x80], [0xFF, 0x5C]][rng.below(4)]
                case 5: chip.contact = ContactID(Self.hostileText(&rng))
                case 6:
                    chip.candidates = suggestions.map {
                        var x = $0
                        x.name = text()
                        x.address = text()
                        x.contact = ContactID(Self.hostileText(&rng))
                        return x
                    }
                default: chip.isResolving = true
                }
                if rng.below(8) == 0 { chip.isCommitted = true }
                s.fields[k].chips[i] = chip
            }
        }
        return s
    }

    /// The bytes the snapshot's `Codable` form writes (the reference the
    /// hand-written writer is held to).
    static func codableBytes(_ s: ComposerSnapshot) throws -> [UInt8] {
        let tree = JSONValueEncoder()
        try s.encode(to: tree)
        var out = ByteBuffer(capacity: 1 << 12)
        tree.root.write(to: &out)
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> ComposerSnapshot {
        try ComposerSnapshot(from: JSONValueDecoder(value: .object(try JSONReader.object(bytes, nested: true))))
    }

    /// The writer a save uses writes the bytes the `Codable` form writes,
    /// and they read back as the same snapshot, for random drafts whose
    /// every string may hold quotes, backslashes, control bytes, non-ASCII
    /// and U+2028 (and text that is not UTF-8).
    @Test(arguments: 0..<40)
    func theDraftWriterWritesWhatTheCodableFormWrites(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x57AE)
        let s = Self.randomSnapshot(&rng)
        let expected = try Self.codableBytes(s)
        let written = try DraftWriter.encode(s).bytes
        #expect(written == expected, "seed \(seed)")
        guard written == expected else {
            let k = zip(written, expected).prefix { $0 == $1 }.count
            print("seed \(seed): first difference at byte \(k): \(String(decoding: written[max(0, k - 40)...].prefix(80), as: UTF8.self).debugDescription) against \(String(decoding: expected[max(0, k - 40)...].prefix(80), as: UTF8.self).debugDescription)")
            return
        }
        // Both read back the same, or both are refused (a field name no
        // header can have is a decoding error).
        let back = try? Self.decode(written)
        #expect(back == (try? Self.decode(expected)), "seed \(seed)")
        let badName = s.fields.contains { !FieldID.isValidName($0.name.name) } || !FieldID.isValidName(s.focus.name)
        #expect((back == nil) == badName, "seed \(seed)")
    }

    /// What a save writes is read back by a restore as the composer saved:
    /// the same chips, pending text, caret and focus.
    @Test(arguments: 0..<10)
    func aSavedDraftRestoresTheComposer(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x5A7E)
        var c = Composer(fields: [.to, .cc])
        let pieces = ["\"a \\\"q\\\" b\" <q@x.org>", "x\u{2028}y <s@x.org>", "Jiří <jiri@example.cz>", "bob@",
                      "Team: c@example.org;", "\"\u{1}\" <c@x.org>", "ann@example.org", "ann@example.org"]
        for name in ["to", "cc"] {
            _ = c.focus(FieldID(name)!)
            c.paste((0..<1 + rng.below(5)).map { _ in pieces[rng.below(pieces.count)] }.joined(separator: ", ") + ", ")
        }
        _ = c.type(bytes: [0x61, 0xFF])
        let directory = Self.temporaryDirectory()
        let path = directory + "/draft.json"
        defer { unlink(path); rmdir(directory) }
        #expect(ComposeDraft.save(c, to: path) == nil)
        guard case .restored(let restored) = ComposeDraft.load(path) else {
            Issue.record("seed \(seed): not restored")
            return
        }
        #expect(restored.snapshot == c.snapshot, "seed \(seed)")
    }

    /// A number a draft cannot hold exactly is refused, as the `Codable`
    /// form refuses it, not written rounded.
    @Test func anIntegerTooLargeForADraftIsRefused() throws {
        var s = Composer(fields: [.to]).snapshot
        s.fields[0].caret = 9_000_000_000_000_000
        #expect(throws: JSONCodingError.self) { try DraftWriter.encode(s) }
        #expect(throws: (any Error).self) { try Self.codableBytes(s) }
        s.fields[0].caret = 8_999_999_999_999_999
        #expect(try DraftWriter.encode(s).bytes == Self.codableBytes(s))
    }

    /// A draft holding an address twice restores with the `duplicate`
    /// warning on the copy typing marked (the later one typed, wherever
    /// the fields put it), and deleting the other copy then takes the
    /// warning away, as it does in the session that typed them.
    @Test(arguments: [
        [("to", "ann@example.org, ann@example.org, ")],
        [("to", "ann@example.org, "), ("cc", "ann@example.org, ")],
        [("cc", "ann@example.org, "), ("to", "ann@example.org, ")],
        [("cc", "ann@example.org, "), ("to", "b@x.org, ANN@example.org, "), ("cc", "ann@EXAMPLE.org, ")],
    ])
    func aRestoredDuplicateIsMarkedAsTheTypedOneWas(_ typing: [(String, String)]) throws {
        var c = Composer(fields: [.to, .cc], duplicatePolicy: .warn)
        for (field, text) in typing {
            _ = c.focus(FieldID(field)!)
            c.paste(text)
        }
        func marks(_ c: Composer) -> [[Bool]] { c.fields.map { $0.chips.map { $0.content.warnings.contains(.duplicate) } } }
        let copies = marks(c).joined().count - (typing.count > 2 ? 1 : 0)
        #expect(marks(c).joined().filter { $0 }.count == copies - 1, "typed \(typing)")
        let directory = Self.temporaryDirectory()
        let path = directory + "/draft.json"
        defer { unlink(path); rmdir(directory) }
        #expect(ComposeDraft.save(c, to: path) == nil)
        guard case .restored(var restored) = ComposeDraft.load(path) else {
            Issue.record("not restored")
            return
        }
        #expect(marks(restored) == marks(c), "typed \(typing)")
        // The copy without the warning goes, in both.
        let unmarked = c.fields.indices.lazy.compactMap { k in
            c.fields[k].chips.firstIndex {
                $0.content.address?.lowercased() == "ann@example.org" && !$0.content.warnings.contains(.duplicate)
            }.map { (k, $0) }
        }.first
        let (k, i) = try #require(unmarked)
        _ = c.focus(c.fieldIDs[k])
        _ = c.remove(at: i)
        _ = restored.focus(restored.fieldIDs[k])
        _ = restored.remove(at: i)
        #expect(marks(restored) == marks(c), "typed \(typing), then removed the unmarked copy")
    }

    /// Saving is linear: ten times the chips take about ten times as long
    /// (a quadratic save took 50 s for 100,000 chips), for plain addresses
    /// and for chips with names, quotes, backslashes, non-ASCII and U+2028
    /// (the writer's path for text that is not ASCII). A loose bound, not
    /// a benchmark: 30 times allows for noise and is far below 100.
    @Test(arguments: ["plain", "varied"])
    func savingIsLinearInTheChips(_ kind: String) throws {
        func text(_ k: Int) -> String {
            guard kind == "varied" else { return "u\(k)@example.org" }
            switch k % 4 {
            case 0: return "Jiří \(k) <jiri\(k)@example.cz>"
            case 1: return "\"Lee, \\\"A\\\" \\\\ \(k)\" <a\(k)@x.org>"
            case 2: return "x\u{2028}\(k) <s\(k)@x.org>"
            default: return "bad\(k)@"
            }
        }
        func seconds(_ n: Int) -> Double {
            var c = Composer(fields: [.to])
            c.paste((0..<n).map(text).joined(separator: ", ") + ", ")
            #expect(c.fields[0].count == n)
            let directory = Self.temporaryDirectory()
            defer { unlink(directory + "/d.json"); rmdir(directory) }
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            #expect(ComposeDraft.save(c, to: directory + "/d.json") == nil)
            clock_gettime(CLOCK_MONOTONIC, &end)
            return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        }
        _ = seconds(1_000)  // warm-up
        let n = TestScale.count(10_000, 2_000, "saving a draft, chips (and ten times as many)")
        let small = seconds(n), large = seconds(10 * n)
        print("saving a draft (\(kind)): \(n) chips \(small) s, \(10 * n) chips \(large) s")
        #expect(large < max(small, 0.01) * 30, "\(kind): \(n) chips \(small) s, \(10 * n) chips \(large) s")
    }
}

/// Nothing a contact, a draft or a person typed reaches the terminal as a
/// control character or an escape sequence.
@Suite("compose: the screen shows no control characters")
struct ComposeScreenSafetyTests {
    static let hostile: [String] = [
        "\u{1B}[2J", "\u{1B}]0;title\u{7}", "\r\n", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}31m", "\u{8}", "\t",
        "Ann", "Lee", "ö", "李", " ", "@", "<", ">", ",", "example.org", "\u{202E}",
    ]

    static func hostileText(_ rng: inout SplitMix64, _ n: Int) -> String {
        (0..<1 + rng.below(n)).map { _ in hostile[rng.below(hostile.count)] }.joined()
    }

    /// The bytes no row may hold: C0, DEL, C1 (U+0080–U+009F) and so ESC.
    static func badScalars(_ row: String) -> [Unicode.Scalar] {
        row.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test(arguments: 0..<12)
    func everyRowIsFreeOfControlCharacters(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x5C4EE7)
        let fields = (0..<1 + rng.below(3)).map { k in "f\(k)" + Self.hostileText(&rng, 3) }
        var contacts: [Contact] = []
        for k in 0..<6 {
            contacts.append(Contact(
                id: ContactID("c\(k)"), displayName: "Ann " + Self.hostileText(&rng, 4),
                emails: [ContactEmail(address: "ann\(k)@example.org", types: [Self.hostileText(&rng, 2)]),
                         ContactEmail(address: "ann\(k)@example.net")]))
        }
        var composer = Composer(fields: fields.map { FieldID(checked: $0) })
        composer.directory = ContactDirectory(contacts)
        var controller = ComposeController(composer: composer)
        let keys: [ComposeKey] = [.text(Array("ann".utf8)), .enter, .control(UInt8(ascii: "o")), .down([]),
                                  .control(UInt8(ascii: "n")), .tab, .backTab, .left([]), .left([.shift])]
        for step in 0..<60 {
            let key: ComposeKey = rng.below(3) == 0
                ? .text(Array(Self.hostileText(&rng, 3).utf8)) : keys[rng.below(keys.count)]
            _ = controller.handle(key)
            for width in [12, 40, 80] {
                let screen = controller.screen(width: width, height: 8, style: .plain)
                for row in screen.rows {
                    let bad = Self.badScalars(row)
                    #expect(bad.isEmpty, "seed \(seed), step \(step), width \(width): \(row.debugDescription)")
                    if !bad.isEmpty { return }
                }
            }
        }
    }
}

/// Escape closes what is open first; leaving with unsent work asks, unless
/// a draft keeps the work.
@Suite("compose: leaving")
struct ComposeLeavingTests {
    @Test func escapeWithTheSuggestionsOpenClosesThem() {
        var s = ComposeSession(contacts: true)
        s.keys("cél")
        #expect(!s.controller.ui.suggestions.isEmpty)
        #expect(s.keys("\u{1B}") == .stay)
        #expect(s.controller.ui.suggestions.isEmpty)
        #expect(s.controller.composer.fields[0].pendingText == "cél")
        // Typing opens them again.
        s.keys("i")
        #expect(!s.controller.ui.suggestions.isEmpty)
    }

    @Test func escapeWithTheAlternatesOpenClosesThem() throws {
        var s = ComposeSession(contacts: true)
        s.keys("sarah james")
        s.keys("\u{1B}[B\r\u{0F}")
        #expect(!s.controller.ui.alternates.isEmpty)
        #expect(s.keys("\u{1B}") == .stay)
        #expect(s.controller.ui.alternates.isEmpty)
        #expect(s.controller.composer.fields[0].count == 1)
    }

    /// Without a draft to keep it, unsent work is not dropped by one key.
    @Test(arguments: ["\u{1B}", "\u{03}"])
    func leavingWithUnsentWorkAsksFirst(_ key: String) {
        var s = ComposeSession()
        s.keys("ann@example.org, bo")
        #expect(s.keys(key) == .stay)
        #expect(s.controller.ui.message?.contains("again") == true, "\(s.controller.ui.message ?? "no message")")
        #expect(s.keys(key) == .cancelled)
    }

    @Test(arguments: ["\u{1B}", "\u{03}"])
    func leavingWithNothingTypedIsAtOnce(_ key: String) {
        var s = ComposeSession()
        #expect(s.keys(key) == .cancelled)
    }

    /// Another key between the two cancels the question.
    @Test func anotherKeyTakesTheQuestionBack() {
        var s = ComposeSession()
        s.keys("ann@example.org, ")
        s.keys("\u{1B}")
        s.keys("b")
        #expect(s.keys("\u{1B}") == .stay)
    }
}
