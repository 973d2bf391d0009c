// A host that imports only ChipKit and calls every layer, as an app
// would. It prints what it checked and exits 1 on the first wrong answer,
// so CI fails when a layer breaks for hosts (or when the library needs a
// library the toolchain does not link by default, such as libm).
import ChipKit

/// The C library's `exit`, declared here because importing Glibc would
/// also link libm (its module map says so) and hide the very dependency
/// this host exists to catch.
@_silgen_name("exit")
func exit(_ status: Int32) -> Never

var failures = 0

@MainActor func check(_ what: String, _ ok: Bool, _ got: @autoclosure () -> String = "") {
    if ok {
        print("ok    \(what)")
    } else {
        print("WRONG \(what): got \(got())")
        failures += 1
    }
}

// Syntax and recognition: a list as people paste it.
let chips = AddressList.parse("\"Lee, Ann\" <ann@x.org>, bob@", policy: .standard)
check("parse: two chips", chips.count == 2, "\(chips.count)")
check("parse: display name", chips.first?.displayName == "Lee, Ann", "\(String(describing: chips.first?.displayName))")
check("parse: missing domain", chips.last?.error?.code == "missing-domain", "\(String(describing: chips.last?.error?.code))")

// Directory: contacts imported from a vCard, ranked by decayed use.
let vcard = """
    BEGIN:VCARD\r
    VERSION:3.0\r
    FN:José Ortiz\r
    EMAIL:jose@example.org\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    FN:John Smith\r
    EMAIL;TYPE=work:john@example.com\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    FN:Mary Jones\r
    EMAIL:mary@example.net\r
    END:VCARD\r

    """
let imported = ContactImporter.import(Array(vcard.utf8))
check("import: three contacts", imported.contacts.count == 3, "\(imported.contacts.count)")
check("import: no problems", imported.problems.isEmpty, "\(imported.problems)")
var book = ContactDirectory(imported.contacts)
let john = imported.contacts.first { $0.displayName == "John Smith" }
if let john {
    // A recent use ranks John first among the "jo" matches; scoring the
    // use decays it by 2^(−age/halfLife).
    let now = 1_000_000_000.0
    book = book.recordingUse(of: john.id, at: now)
    let usage = ContactUsage().recordingUse(at: now)
    let halfLater = usage.score(at: now + ContactUsage.defaultHalfLife)
    check("usage: one half-life halves a use", abs(halfLater - 0.5) < 1e-12, "\(halfLater)")
}
let found = book.suggestions(for: "jo")
check(
    "suggest: John, José and Mary (Jones) for \"jo\"",
    Set(found.compactMap(\.name)) == ["John Smith", "José Ortiz", "Mary Jones"], "\(found.map { $0.name ?? "" })")
check("suggest: the used contact first", found.first?.name == "John Smith", "\(found.map { $0.name ?? "" })")

// Editing: a composer typing key by key, pasting, choosing a suggestion.
var composer = Composer()
composer.directory = book
for key in "ann@x.org, " { _ = composer.type(String(key)) }
_ = composer.paste("\"Doe, Jane\" <j@x.io>, Ann <a@y.org>, bo")
let to = composer.field(.to)
check("compose: typed and pasted chips", to?.chips.count == 3, "\(to?.chips.count ?? -1)")
check("compose: tail pending", to?.pendingText == "bo", "\(to?.pendingText ?? "")")
_ = composer.type("b@z.org")
_ = composer.commit()
_ = composer.type("mar")
if let mary = composer.suggestions().first {
    _ = composer.choose(mary)
}
check(
    "compose: chose Mary",
    composer.field(.to)?.chips.last?.content.address == "mary@example.net",
    "\(String(describing: composer.field(.to)?.chips.last?.content.address))")

// Editing by identity: the ⓧ of a Cc chip while typing in To.
_ = composer.focus(.cc)
_ = composer.paste("extra@x.org, ")
let extra = composer.field(.cc)?.chips.first?.id
_ = composer.focus(.to)
_ = composer.type("half")
if let extra { _ = composer.remove(extra) }
check("compose: a Cc chip removed by identity", composer.field(.cc)?.count == 0, "\(composer.field(.cc)?.count ?? -1)")
check("compose: To's typing untouched", composer.focusedFieldID == .to && composer.focusedField.pendingText == "half",
      composer.focusedField.pendingText)
for _ in 0..<4 { _ = composer.backspace() }

// Text in the host's units: a UTF-16 text view autocorrects a word.
_ = composer.type("Zoë 😀 h@x.orgg")
_ = composer.replacePending(13..<15, in: .utf16, with: "g")
check("text: UTF-16 replacement", composer.editingText == "Zoë 😀 h@x.org", composer.editingText)
check("text: caret in UTF-16", composer.pendingSelection(in: .utf16) == 14..<14, "\(composer.pendingSelection(in: .utf16))")
_ = composer.selectPendingText(0..<composer.editingText.utf16.count, in: .utf16)
_ = composer.backspace()
check("text: selection deleted", composer.editingText.isEmpty, composer.editingText)

// A remote directory: the question comes with the changes of the keystroke.
composer.remoteSuggestions = true
let asked = composer.type("ren").compactMap { change -> LookupRequest? in
    if case .lookupRequested(let r) = change.change { return r } else { return nil }
}
check("remote: asked about the text", asked.map(\.query) == ["ren"] && asked.first?.isForSuggestions == true, "\(asked)")
let renee = Contact(id: ContactID("srv-renee"), displayName: "Renée Faure", emails: [ContactEmail(address: "renee@corp.example")])
let took = asked.first.map { composer.applySuggestionLookup($0.id, contacts: [renee]) } ?? false
check("remote: answer merged", took && composer.suggestions().contains { $0.contact == renee.id },
      "\(composer.suggestions().map(\.contact))")
composer.remoteSuggestions = false
for _ in 0..<3 { _ = composer.backspace() }

// The Send button: enabled from `readiness` after every change (it does
// not grow with the chips); `sendability` says why, when asked.
_ = composer.type("bob@")
let blocked = composer.sendability()
check("send: pending text blocks", !composer.readiness().canSend && blocked.fieldsWithPendingText == [.to],
      "\(composer.readiness()) \(blocked)")
for _ in 0..<4 { _ = composer.backspace() }
check("send: nothing blocks", composer.readiness().canSend && composer.sendability().canSend,
      "\(composer.readiness()) \(composer.sendability())")
// A refusal in the host's words, by code.
var words = ChipStrings.english
words.reasonMessages["duplicate"] = "schon Empfänger: {text}"
composer.duplicatePolicy = .reject
let refused = composer.type("bob@z.org, ").compactMap { change -> Refusal? in
    if case .refused(let r) = change.change { return r } else { return nil }
}
check("reasons: a refusal by code, in the host's words",
      refused.first.map { words.message(for: $0) } == "schon Empfänger: bob@z.org", "\(refused)")
composer.duplicatePolicy = .warn
if !composer.editingText.isEmpty {
    _ = composer.selectPendingText(0..<composer.editingText.utf16.count, in: .utf16)
    _ = composer.backspace()
}

// Output: what goes in the To: header.
let report = composer.send(smtpUTF8: false)
check("send: sent", report.sent, "\(report)")
let header = report.headers.first { $0.field == .to }?.value ?? ""
// Folded at 78 characters, at a space.
check(
    "send: header value",
    header == "ann@x.org, \"Doe, Jane\" <j@x.io>, Ann <a@y.org>, bob@z.org, Mary Jones\r\n <mary@example.net>",
    header)

// Output: the record writer writes what `chipify --format jsonl` writes.
var writer = ChipRecordWriter(format: .jsonl)
writer.write(record: 1, Array("Ann <ann@x.org>, bob@".utf8))
let lines = String(decoding: writer.output.bytes, as: UTF8.self).split(separator: "\n")
check("writer: a line per chip", lines.count == 2, "\(lines)")
check("writer: valid then error", lines.first?.contains("\"ann@x.org\"") == true
    && lines.last?.contains("missing-domain") == true, "\(lines)")

// Many lists: a file's lines, each written where it lies (a slice), by one
// writer; chips as values by one parser. Duplicates are found within a
// list, never across lists.
let file = Array("Ann <ann@x.org>, ann@x.org\nann@x.org, Bob <bob@gmial.com>\n".utf8)
var counts = ChipRecordWriter(format: .jsonl, summarize: true)
var parser = AddressList.Parser()
var duplicates = 0, suggested: [String] = []
for (k, line) in file.split(separator: 0x0A).enumerated() {
    counts.write(record: k + 1, line)
    for chip in parser.parse(line) {
        if chip.warnings.contains(.duplicate) { duplicates += 1 }
        if let domain = chip.suggestedDomain { suggested.append(domain) }
    }
}
check("many lists: counted", counts.summary.records == 2 && counts.summary.chips == 4, "\(counts.summary)")
check("many lists: one duplicate", duplicates == 1 && counts.summary.warningsByKind.reduce(0, +) >= 1)
check("many lists: a typo's domain", suggested == ["gmail.com"], "\(suggested)")

// Groups: a single, required choice.
do {
    var sizes = try ChipGroup<Never>(
        options: ["S", "M", "L"].map { ChipOption(id: ChipOptionID($0), label: $0) },
        configuration: GroupConfiguration(isSingleSelection: true, isSelectionRequired: true), checked: ["M"])
    check("group: choosing another replaces", sizes.tap("L").selectedID == "L")
    check("group: the last one stays", sizes.tap("L").refusal?.reason == .selectionRequired)
    // A reason in the host's words, by its code.
    var words = ChipStrings.english
    words.reasonMessages["selection-required"] = "Eine Größe bleibt gewählt ({option})"
    let said = sizes.tap("L").refusal.map { words.message(for: $0) }
    check("group: refusal in the host's words", said == "Eine Größe bleibt gewählt (L)", "\(said ?? "none")")
    _ = sizes.add(ChipOption(id: "XL", label: "XL"))
    check("group: add", sizes.options.count == 4, "\(sizes.options.count)")
} catch {
    check("group: configuration", false, "\(error)")
}

if failures > 0 {
    print("\(failures) wrong")
    exit(1)
}
print("all layers answered as expected")
