import ChipSyntax
import ChipRecognition
import ChipOutput

extension Composer {
    /// What ``send(options:)`` would do now, without doing it: for a Send
    /// button, and for a host that shows why a draft cannot go. The report
    /// says what blocks (chips in error, pending text by field, no
    /// recipient, valid chips the transport cannot carry) and, when
    /// nothing does, holds the headers; ``SendReport/sent`` is false and
    /// nothing changes.
    ///
    /// - Complexity: O(*n*) in the total length of the chips (each field's
    ///   header value is rendered).
    public func sendability(options: HeaderOptions = HeaderOptions()) -> SendReport {
        let (errors, pending) = unsentWork()
        var unsendable: [SendReport.UnsendableChip] = []
        var headers: [SendReport.Header] = []
        var recipients = 0
        for (k, field) in fields.enumerated() {
            let chips = field.chips
            recipients += chips.filter { $0.content.kind == .mailbox }.count
            guard !chips.isEmpty else { continue }
            // Folded where the value starts: after the field's name and ": ".
            var fieldOptions = options
            fieldOptions.firstLineUsed = fieldIDs[k].headerName.utf8.count + 2
            let value = HeaderRenderer.render(chips.map(\.content), options: fieldOptions)
            for omission in value.omissions where chips[omission.index].state != .error {
                unsendable.append(SendReport.UnsendableChip(
                    field: fieldIDs[k], id: chips[omission.index].id, reason: omission.reason))
            }
            headers.append(SendReport.Header(field: fieldIDs[k], value: value.text))
        }
        let canSend = errors.isEmpty && pending.isEmpty && recipients > 0 && unsendable.isEmpty
        return SendReport(
            sent: false, errorChips: errors, fieldsWithPendingText: pending, hasNoRecipient: recipients == 0,
            unsendableChips: unsendable, headers: canSend ? headers : [])
    }

    /// Whether a send with (or without) SMTPUTF8 would go now, and how
    /// much blocks it: for a Send button, read after every change. Each
    /// field counts its chips by what a send needs to know as they come
    /// and go, so this agrees with ``sendability(options:)`` without
    /// rendering anything.
    ///
    /// - Complexity: O(*f*) in the number of fields, whatever the number
    ///   of chips.
    public func readiness(smtpUTF8: Bool = false) -> SendReadiness {
        var r = SendReadiness(chipsInError: 0, fieldsWithPendingText: 0, recipients: 0, unsendableChips: 0)
        for field in fields {
            let t = field.sendTally
            r.chipsInError += t.inError
            r.recipients += t.mailboxes
            r.unsendableChips += smtpUTF8 ? t.blockedWithSMTPUTF8 : t.blocked
            if field.hasUncommittedText { r.fieldsWithPendingText += 1 }
        }
        return r
    }

    /// Sends, if the draft can go out on a transport with (or without)
    /// SMTPUTF8: ``send(options:)`` with the default line length.
    ///
    /// - Complexity: O(*n*) in the total length of the chips.
    public mutating func send(smtpUTF8: Bool = false) -> SendReport {
        send(options: HeaderOptions(smtpUTF8: smtpUTF8))
    }

    /// Sends, if the draft can go out with these header options (SMTPUTF8,
    /// the length lines fold at, the line break). Refused, with every
    /// reason, when a chip is in error, text is pending, no field holds a
    /// mailbox, or a valid chip cannot be carried (a UTF-8 local part
    /// without SMTPUTF8, or text that is not an addr-spec): the report is
    /// ``sendability(options:)``'s and nothing changes. On success every
    /// chip becomes committed and the report holds each non-empty field's
    /// header value, folded for its line (`Header.line` is `To: ` and the
    /// value; `options.firstLineUsed` is taken from the field's name).
    ///
    /// - Complexity: O(*n*) in the total length of the chips.
    public mutating func send(options: HeaderOptions) -> SendReport {
        var report = sendability(options: options)
        guard report.canSend else { return report }
        report.changes = commitForSending()
        report.sent = true
        return report
    }
}
