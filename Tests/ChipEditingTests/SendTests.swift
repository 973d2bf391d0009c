import Testing
import ChipSyntax
import ChipRecognition
import ChipDirectory
import ChipOutput
@testable import ChipEditing
import ChipTestSupport

/// Send means sendable: a draft goes out only when every chip can be
/// carried by the transport, and the report holds the header values.
@Suite("Sending")
struct SendTests {
    @Test(arguments: ["", "undisclosed-recipients:;, "])
    func aDraftWithNoRecipientIsRefused(_ text: String) {
        var c = Composer()
        c.paste(text)
        let report = c.send()
        #expect(!report.sent)
        #expect(report.hasNoRecipient)
        #expect(report.headers.isEmpty && report.changes.isEmpty)
        #expect(c.fields.allSatisfy { $0.chips.allSatisfy { $0.state != .committed } })
    }

    @Test func aUTF8LocalPartNeedsSMTPUTF8() {
        var c = Composer()
        c.paste("josé@example.org, ann@x.org, ")
        let refused = c.send(smtpUTF8: false)
        #expect(!refused.sent)
        #expect(refused.unsendableChips == [
            SendReport.UnsendableChip(field: .to, id: c.focusedField[0].id, reason: .needsSMTPUTF8)])
        #expect(!refused.hasNoRecipient && refused.errorChips.isEmpty)
        let sent = c.send(smtpUTF8: true)
        #expect(sent.sent)
        #expect(sent.headers == [SendReport.Header(field: .to, value: "josé@example.org, ann@x.org")])
        #expect(c.focusedField.chips.allSatisfy { $0.state == .committed })
    }

    /// What compose and replay's `send` write follows the header rules: a
    /// full-width domain is mapped in both modes, a line separator in an
    /// address makes an error chip under every policy (never a header line).
    @Test(arguments: [false, true])
    func sendMapsFullWidthDomainsAndRefusesLineSeparators(_ smtpUTF8: Bool) {
        var c = Composer(policy: .lenient)
        c.paste("Ann <ann@ｘ。org>, ")
        let sent = c.send(smtpUTF8: smtpUTF8)
        #expect(sent.headers == [SendReport.Header(field: .to, value: "Ann <ann@x.org>")])
        for separator in ["\u{85}", "\u{2028}", "\u{2029}"] {
            var d = Composer(policy: .lenient)
            d.paste("b@x\(separator)y.org, ")
            #expect(d.focusedField[0].state == .error, "\(separator.debugDescription)")
            #expect(!d.send(smtpUTF8: smtpUTF8).sent)
        }
    }

    @Test func aLenientChipThatIsNotAnAddrSpecIsRefused() {
        var c = Composer(policy: .lenient)
        c.paste("ann..lee@x.org, ")
        #expect(c.focusedField[0].state == .valid)
        let report = c.send(smtpUTF8: true)
        #expect(!report.sent)
        #expect(report.unsendableChips.map(\.reason) == [.notAnAddrSpec])
    }

    /// The headers are the header writer's values of each non-empty field:
    /// encoded words for names, A-labels for domains without SMTPUTF8.
    @Test func theReportHoldsTheHeaderValuesOfEachField() {
        var c = Composer()
        c.paste("José Müller <jose@bücher.de>, \"Lee, Ann\" <ann@x.org>, ")
        c.focus(.bcc)
        c.paste("Team: t@z.org, u@z.org;, ")
        let chips = c.fields.map { $0.chips.map(\.content) }
        let report = c.send()
        #expect(report.sent)
        #expect(report.headers.map(\.field) == [.to, .bcc])
        #expect(report.headers[0].value == HeaderRenderer.render(chips[0]).text)
        #expect(report.headers[0].value.contains("=?UTF-8?") && report.headers[0].value.contains("xn--bcher-kva.de"))
        #expect(report.headers[1].value == "Team: t@z.org, u@z.org;")
        #expect(!c.canUndo)
    }

    @Test func errorsAndPendingTextAreAllReported() {
        var c = Composer()
        c.paste("bob@, ann@x.org, ")
        c.focus(.cc)
        c.type("half")
        let report = c.send()
        #expect(!report.sent)
        #expect(report.errorChips == [.to: [c.field(.to)![0].id]])
        #expect(report.fieldsWithPendingText == [.cc])
        #expect(!report.hasNoRecipient)
    }
}

/// An encoded word this engine cannot decode goes out as it was, for the
/// reader's client to decode: never inside quotes, where no client would.
@Suite("Undecodable names survive")
struct UndecodableNameTests {
    @Test(arguments: [
        // UTF-7 is no charset of the WHATWG Encoding Standard.
        ("=?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>", "=?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>"),
        ("Ivan =?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>", "Ivan =?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>"),
        // A label of the standard's replacement encoding: not turned into U+FFFD.
        ("=?ISO-2022-KR?B?GyQpQw4xaDlOQVgP?= <a@x.org>", "=?ISO-2022-KR?B?GyQpQw4xaDlOQVgP?= <a@x.org>"),
        ("\"Lee, A\" =?x-unknown?q?abc?= <a@x.org>", "\"Lee, A\" =?x-unknown?q?abc?= <a@x.org>"),
        // Text that looks like an encoded word goes out encoded: a reader
        // that decodes inside quotes (against RFC 2047 §5(3)) reads it right.
        ("\"=?x?Q?not?=\" <a@x.org>", "=?UTF-8?B?PT94P1E/bm90Pz0=?= <a@x.org>"),
        ("=?UTF-8?Q?Andr=C3=A9?= <a@x.org>", "=?UTF-8?B?QW5kcsOp?= <a@x.org>"),  // decoded, encoded again (B is shorter)
        ("=?KOI8-R?B?8NLJ18XU?= <a@x.org>", "=?UTF-8?B?0J/RgNC40LLQtdGC?= <a@x.org>"),  // decoded, sent as UTF-8
    ])
    func theHeaderKeepsTheEncodedWord(_ input: String, _ header: String) {
        let chips = AddressList.parse(input)
        let value = HeaderRenderer.render(chips).text
        #expect(value == header)
        // And it reads back as the same name.
        #expect(AddressList.parse(value).map(\.displayName) == chips.map(\.displayName))
    }

    @Test func theFilterWritesTheSame() {
        var writer = ChipRecordWriter(format: .header)
        writer.write(record: 1, Array("=?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>".utf8))
        #expect(String(decoding: writer.output.bytes, as: UTF8.self) == "=?UTF-7?B?K0JCOEVRQVE0QkRJRU5RUkMt?= <a@x.org>\n")
    }
}

/// A Send button asks without sending; the headers are folded for the line
/// their field's name starts.
@Suite("Sendability and header lines")
struct SendabilityTests {
    static let pieces = ["ann@x.org", "\"Lee, Ann\" <lee@x.org>", "bob@", "josé@example.org", "Jiří Novák <jiri@example.cz>",
                         "Team: c@example.org, d@example.net;", "undisclosed-recipients:;", "ann..lee@x.org",
                         "A Very Long Display Name Of Someone <someone.with.a.long.address@subdomain.example.org>",
                         "=?UTF-8?Q?Ren=C3=A9_Fran=C3=A7ois_Lef=C3=A8vre?= <rene@example.fr>"]

    static func draft(_ rng: inout SplitMix64) -> Composer {
        let reply = FieldID("Reply-To")!
        var c = Composer(fields: [.to, .cc, .bcc, reply], policy: [.strict, .standard, .lenient][rng.below(3)])
        for field in c.fieldIDs where rng.below(3) != 0 {
            c.focus(field)
            c.paste((0..<rng.below(7)).map { _ in pieces[rng.below(pieces.count)] }.joined(separator: ", ") + ", ")
        }
        if rng.below(4) == 0 { c.type("pend") }
        return c
    }

    /// Asking changes nothing, and says what `send` would: the same
    /// refusal, or the same headers when it sends.
    @Test(arguments: 0..<TestScale.count(200, 60, "sendability against send, seeds"))
    func sendabilityIsWhatSendWouldDo(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x5E4D)
        var c = Self.draft(&rng)
        let options = HeaderOptions(smtpUTF8: rng.below(2) == 0)
        let before = c.snapshot, undo = c.undoStackCount
        let asked = c.sendability(options: options)
        #expect(c.snapshot == before && c.undoStackCount == undo, "seed \(seed)")
        #expect(!asked.sent && asked.changes.isEmpty)
        let sent = c.send(options: options)
        #expect(sent.sent == asked.canSend, "seed \(seed)")
        #expect(sent.headers == asked.headers, "seed \(seed)")
        #expect(sent.errorChips == asked.errorChips && sent.fieldsWithPendingText == asked.fieldsWithPendingText)
        #expect(sent.unsendableChips == asked.unsendableChips && sent.hasNoRecipient == asked.hasNoRecipient)
        if !sent.sent { #expect(c.snapshot == before, "seed \(seed): a refused send changed the draft") }
    }

    /// Every line of `Name: value` fits in 78 bytes wherever the value has
    /// a place to fold, for every field name's length.
    @Test(arguments: 0..<TestScale.count(200, 60, "header lines, seeds"))
    func headerLinesFitWithTheirName(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0xF01D)
        var c = Self.draft(&rng)
        c.commit()
        let report = c.sendability(options: HeaderOptions(smtpUTF8: true))
        for header in report.headers {
            #expect(header.line.hasPrefix(header.field.headerName + ": "))
            for line in header.line.split(separator: "\r\n", omittingEmptySubsequences: false) {
                // A line over the limit has no place to fold: one word.
                let words = line.split(separator: " ").count
                #expect(line.utf8.count <= 78 || words <= 2, "seed \(seed) \(header.field): \(line.utf8.count) bytes: \(line)")
            }
        }
    }

    @Test func theFirstLineCountsTheFieldsName() {
        var c = Composer(fields: [.to, FieldID("Reply-To")!])
        let list = "ann@x.org, \"Doe, Jane\" <j@x.io>, Ann <a@y.org>, bob@z.org, Mary Jones <mary@example.net>, "
        c.paste(list)
        c.focus(FieldID("reply-to")!)
        c.paste(list)
        let headers = c.send().headers
        #expect(headers.map(\.line) == [
            "To: ann@x.org, \"Doe, Jane\" <j@x.io>, Ann <a@y.org>, bob@z.org, Mary Jones\r\n <mary@example.net>",
            // 79 bytes to "Jones": folded in the name, as RFC 5322 allows.
            "Reply-To: ann@x.org, \"Doe, Jane\" <j@x.io>, Ann <a@y.org>, bob@z.org, Mary\r\n Jones <mary@example.net>",
        ])
        var d = Composer()
        d.paste(list)
        #expect(d.send(options: HeaderOptions(foldAt: 40, lineBreak: "\n")).headers.first?.line.split(separator: "\n").allSatisfy {
            $0.utf8.count <= 40
        } == true)
    }
}
