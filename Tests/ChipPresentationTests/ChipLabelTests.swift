import Testing
import ChipSyntax
import ChipRecognition
@testable import ChipOutput
import ChipEditing
import ChipGroups
@testable import ChipPresentation
import ChipTestSupport

/// What a chip shows, what a screen reader says, and the summary of a
/// field that is not focused.
@Suite("Labels and summaries")
struct ChipLabelTests {
    static func chip(_ text: String) -> ParsedChip {
        let chips = AddressList.parse(text)
        #expect(chips.count == 1, "\(text) is \(chips.count) chips")
        return chips.first ?? ParsedChip(kind: .mailbox, byteRange: 0..<0, raw: [])
    }

    @Test(arguments: [
        ("Ann Lee <ann@x.org>", "Ann Lee"),
        ("ann@x.org", "ann@x.org"),
        ("<ann@x.org>", "ann@x.org"),
        ("ann@xn--bcher-kva.example", "ann@bücher.example"),
        ("ann@bücher.example", "ann@bücher.example"),
        ("\"Ann\u{202E}gro.x\" <a@x.org>", "Anngro.x"),         // bidi controls never leak
        ("\"  Ann   Lee \" <a@x.org>", "Ann Lee"),
        ("\"\u{200B}\" <a@x.org>", "a@x.org"),                    // a name of nothing shows the address
        ("bob@", "bob@"),
        ("Team: ;", "Team"),
        ("\"سارا\" <sara@x.org>", "سارا"),
    ])
    func aChipShowsItsNameElseItsAddressElseItsText(_ text: String, _ label: String) {
        #expect(ChipText.label(of: Self.chip(text)) == label)
    }

    /// A name from an encoded word or a contact can hold what typing cannot.
    @Test func lineBreaksAndControlsInANameBecomeOneSpace() {
        let chip = ParsedChip(
            displayName: "Ann\r\n\tLee\u{2029}\u{85}Jr", address: "a@x.org", localPart: "a", domain: "x.org")
        #expect(ChipText.label(of: chip) == "Ann Lee Jr")
        #expect(AccessibilityLabel.inputChip(chip) == "Ann Lee Jr, a@x.org")
    }

    @Test func theWritersBytesGiveTheSameLabel() {
        let raw: [UInt8] = Array("x".utf8)
        raw.withUnsafeBufferPointer { raw in
            #expect(ChipText.label(name: Array("Ann\u{2066}".utf8), address: [], raw: raw) == "Ann")
            #expect(ChipText.label(name: [], address: Array("a@XN--BCHER-KVA.example".utf8), raw: raw) == "a@bücher.example")
            #expect(ChipText.label(name: [], address: [], raw: raw) == "x")
        }
    }

    @Test(arguments: [
        ("Ann Lee <ann@x.org>", false, nil, nil, "Ann Lee, ann@x.org"),
        ("ann@x.org", false, nil, nil, "ann@x.org"),
        ("bob@", false, nil, nil, "bob@, invalid address: nothing after the @"),
        ("Ann Lee <ann@x.org>", true, 2, 12, "Ann Lee, ann@x.org, selected, 3 of 12"),
        ("ann@gmial.com", false, nil, nil, "ann@gmial.com, warning: the domain may be misspelled: did you mean gmail.com?"),
        ("\"Ann\u{202E}Lee\" <ann@xn--bcher-kva.example>", false, 0, 1,
         "AnnLee, ann@bücher.example, warning: the name holds characters that reorder text, 1 of 1"),
    ] as [(String, Bool, Int?, Int?, String)])
    func inputChipLabels(_ text: String, _ selected: Bool, _ position: Int?, _ count: Int?, _ expected: String) {
        #expect(AccessibilityLabel.inputChip(Self.chip(text), isSelected: selected, position: position, count: count) == expected)
    }

    @Test func aDisabledSentChipSaysSo() {
        let label = AccessibilityLabel.inputChip(Self.chip("ann@x.org"), isDisabled: true, isCommitted: true)
        #expect(label == "ann@x.org, sent, disabled")
    }

    @Test(arguments: [
        (ChipRole.radio, true, false, ActionChipState?.none, false, "Small, selected, 1 of 3"),
        (.radio, false, false, nil, false, "Small, not selected, 1 of 3"),
        (.checkbox, true, true, nil, false, "Small, selected, disabled, 1 of 3"),
        (.button, false, false, .inProgress, false, "Small, in progress, 1 of 3"),
        (.button, false, false, .done, false, "Small, done, 1 of 3"),
        (.button, false, false, .disabled, false, "Small, disabled, 1 of 3"),
        (.button, false, false, .enabled, true, "Small, button, 1 of 3"),
        (.radio, true, false, nil, true, "Small, radio button, selected, 1 of 3"),
    ])
    func groupChipLabels(
        _ role: ChipRole, _ selected: Bool, _ disabled: Bool, _ action: ActionChipState?, _ announces: Bool,
        _ expected: String
    ) {
        let label = AccessibilityLabel.groupChip(
            label: "Small\u{200F}\n", role: role, isSelected: selected, isDisabled: disabled, actionState: action,
            position: 0, count: 3, announcesRole: announces)
        #expect(label == expected)
    }

    /// A group's options, labelled from the model's own facts: roles by
    /// mode, positions from 1, read-only and disabled said, action states.
    @Test func groupOptionsAreLabelledFromTheModel() throws {
        // A mode change clears the selection: "Large" is no longer selected.
        let options = [
            ChipOption<Never>(id: "s", label: "Small"), ChipOption(id: "m", label: "Medium", isDisabled: true),
            ChipOption(id: "l", label: "Large"),
        ]
        var sizes = try ChipGroup(
            options: options, configuration: GroupConfiguration(isSingleSelection: true), checked: ["l"])
        let labels = ["s", "m", "l"].map { AccessibilityLabel.groupChip(sizes.accessibility(of: ChipOptionID($0))!) }
        #expect(labels == ["Small, not selected, 1 of 3", "Medium, not selected, disabled, 2 of 3", "Large, selected, 3 of 3"])
        _ = sizes.setSingleSelection(false)
        #expect(AccessibilityLabel.groupChip(sizes.accessibility(of: "s")!, announcesRole: true)
                == "Small, toggle button, not selected, 1 of 3")
        _ = sizes.setReadOnly(true)
        #expect(AccessibilityLabel.groupChip(sizes.accessibility(of: "l")!) == "Large, not selected, read only, 3 of 3")
    }

    @Test func theHostSuppliesTheWords() {
        var s = ChipStrings()
        s.invalid = "{text} — adresse invalide : {reason}"
        s.errorMessages["missing-domain"] = "rien après le @"
        s.position = "{position} sur {count}"
        s.selected = "sélectionné"
        let label = AccessibilityLabel.inputChip(Self.chip("bob@"), isSelected: true, position: 0, count: 2, strings: s)
        #expect(label == "bob@ — adresse invalide : rien après le @, sélectionné, 1 sur 2")
        // A value is inserted once, never read as a template.
        #expect(ChipStrings.fill("{a} {b}", ["a": "{b}", "b": "x"]) == "{b} x")
        #expect(ChipStrings.fill("{a} {unknown} {", ["a": "1"]) == "1 {unknown} {")
    }

    @Test func everyWarningHasASentence() {
        for (warning, code) in ChipWarnings.all {
            #expect(warning.messages.count == 1)
            #expect(warning.messages[0] != code, "\(code)")
        }
    }

    @Test(arguments: [
        ([], 20, ""),
        (["Ann"], 20, "Ann"),
        (["Ann", "Bob"], 20, "Ann and Bob"),
        (["Ann", "Bob", "Cy"], 20, "Ann, Bob and Cy"),
        (["Ann", "Bob", "Cy", "Dee", "Eve"], 20, "Ann, Bob and 3 more"),
        (["Ann", "Bob", "Cy", "Dee", "Eve"], 18, "Ann and 4 more"),
        (["Ann", "Bob", "Cy", "Dee", "Eve"], 10, "+5"),            // not even one name fits
        (["Ann", "Bob", "Cy", "Dee", "Eve"], 1, "+5"),             // nor "+5": shown anyway
        (["Annabelle Lee-Hargreaves", "Bob"], 20, "+2"),
        (["日本太郎", "Bob", "Cy"], 20, "日本太郎, Bob and Cy"), (["日本太郎", "Bob", "Cy"], 19, "日本太郎 and 2 more"),
        (["سارا", "Bob", "Cy"], 22, "\u{2068}سارا\u{2069}, Bob and Cy"),
    ] as [([String], Int, String)])
    func summariesShowTheNamesThatFit(_ labels: [String], _ budget: Int, _ expected: String) {
        let s = FieldSummary.make(labels: labels, budget: budget)
        #expect(s.text == expected)
        #expect(s.shownCount + s.hiddenCount == labels.count)
        #expect(s.width == TerminalWidth().width(of: s.text))
        #expect(s.fits == (s.width <= budget))
    }

    @Test func summariesUseTheHostsWords() {
        var s = ChipStrings()
        s.namesAndMore = "{names} et {count} autres"
        s.lastSeparator = " et "
        s.moreChip = "+{count} autres"
        #expect(FieldSummary.make(labels: ["Ann", "Bob", "Cy", "Dee"], budget: 18, strings: s).text == "Ann et 3 autres")
        #expect(FieldSummary.make(labels: ["Ann", "Bob"], budget: 18, strings: s).text == "Ann et Bob")
        #expect(FieldSummary.make(labels: ["Ann", "Bob"], budget: 5, strings: s).text == "+2 autres")
        #expect(FieldSummary.moreChipText(count: 7) == "+7")
    }
}

extension ChipLabelTests {
    /// The examples of docs/presentation.md, so the guide stays true.
    @Test func theGuidesExamples() {
        let chips = AddressList.parse("Ann Lee <ann@x.org>, bob@, cy@xn--bcher-kva.example")
        #expect(ChipText.label(of: chips[2]) == "cy@bücher.example")
        #expect(AccessibilityLabel.inputChip(chips[1], position: 1, count: 3)
            == "bob@, invalid address: nothing after the @, 2 of 3")
        let labels = chips.map(ChipText.label(of:))
        #expect(FieldSummary.make(labels: labels, budget: 20).text == "Ann Lee and 2 more")
        #expect(ChipText.truncate("Annabelle Lee-Hargreaves", toWidth: 10) == "Annabelle…")
        let widths = labels.map { TerminalWidth().width(of: $0) + 4 }
        var layout = ChipFlowLayout(widths: widths, spacing: 1, lineWidth: 30)
        let change = layout.insert(width: 12, at: 1)
        #expect(change.newRows.lowerBound == 0)
    }
}

/// The rule that lets a summary line stream: a summary needs only the
/// names up to the first whose run with those before it exceeds the
/// width, and the count of all; the rest are counted and dropped, so a
/// record of any number of chips is summarized in memory bounded by the
/// width.
@Suite("Summaries keep only the names that can show")
struct SummaryNamesTests {
    /// The summary by its definition, from every label: all names when
    /// they fit, else the most names that fit with "and N more", else +N.
    static func reference(_ labels: [String], budget: Int) -> String {
        let n = labels.count
        guard n > 0 else { return "" }
        let measure = TerminalWidth()
        let names = labels.map { TerminalWidth.containsRightToLeft($0[...]) ? "\u{2068}\($0)\u{2069}" : $0 }
        let all = FieldSummary.allNames(names, .english)
        if measure.width(of: all) <= budget { return all }
        // k names hold k - 1 separators of 2 columns: more than
        // budget/2 + 1 cannot fit, whatever the names.
        for k in stride(from: min(n - 1, max(1, budget / 2 + 2)), through: 1, by: -1) {
            let text = ChipStrings.fill(
                ChipStrings.english.namesAndMore, ["names": names[0..<k].joined(separator: ", "), "count": "\(n - k)"])
            if measure.width(of: text) <= budget { return text }
        }
        return FieldSummary.moreChipText(count: n)
    }

    static let words = ["Ann", "Bob", "Cy", "日本太郎", "سارا", "Annabelle Lee-Hargreaves", "x", "e\u{301}mile", "👩‍👩‍👧", ""]

    @Test(arguments: [
        (0, 80), (1, 80), (5, 20), (40, 80), (1_000, 80), (1_000, 1), (1_000, 0), (10, 500),
    ] as [(Int, Int)])
    func theKeptNamesAreBoundedByTheWidthAndTheSummaryIsTheSame(_ count: Int, _ width: Int) {
        let labels = (0..<count).map { Self.words[$0 % Self.words.count] + "\($0 % 7 == 0 ? "" : " \($0)")" }
        var names = FieldSummary.Names<TerminalWidth>(widthLimit: width)
        for l in labels { names.append(l) }
        // A separator is 2 columns: at most width/2 + 1 names fit, and one more is kept.
        #expect(names.names.count <= width / 2 + 2)
        #expect(names.count == count)
        for budget in [width, width - 3, width / 2] where budget <= width {
            #expect(names.summary(budget: budget).text == Self.reference(labels, budget: budget), "budget \(budget)")
            #expect(FieldSummary.make(labels: labels, budget: budget).text == Self.reference(labels, budget: budget))
        }
    }

    @Test func seededLabelsGiveTheSummaryOfEveryLabel() {
        let seed: UInt64 = 0x5_0AA1
        var random = SplitMix64(seed: seed)
        for round in 0..<300 {
            let count = random.below(60)
            let labels = (0..<count).map { _ in Self.words[random.below(Self.words.count)] }
            let width = random.below(90)
            var names = FieldSummary.Names<TerminalWidth>(widthLimit: width)
            for l in labels { names.append(l) }
            let budget = width - random.below(8)
            let got = names.summary(budget: budget).text
            let expected = Self.reference(labels, budget: budget)
            guard got == expected, names.names.count <= width / 2 + 2 else {
                Issue.record("seed \(seed), round \(round): \(labels) in \(budget): \(got) ≠ \(expected), kept \(names.names.count)")
                return
            }
        }
    }

    /// The writer's `--width` line keeps the same bounded names: a record
    /// of 20,000 chips holds at most width/2 + 2 labels.
    @Test func theWritersSummaryLineHoldsOnlyTheNamesThatCanShow() {
        var writer = ChipRecordWriter(format: .text)
        writer.summaryWidth = 80
        var record: [UInt8] = []
        var labels: [String] = []
        for k in 0..<20_000 {
            record += Array("P\(k) <p\(k)@example.org>, ".utf8)
            labels.append("P\(k)")
        }
        var most = 0
        for chip in AddressList.parse(String(decoding: record, as: UTF8.self)) {
            writer.write(chip, record: 1, index: 0)
            most = max(most, writer.labels?.names.count ?? 0)
        }
        writer.endRecord()
        #expect(most <= 80 / 2 + 2, "kept \(most) labels")
        let line = String(decoding: writer.output.bytes, as: UTF8.self)
        #expect(line == "1  " + Self.reference(labels, budget: 80 - 3) + "\n")
    }
}
