import ChipSyntax
import ChipRecognition
import ChipEditing

extension Composer {
    /// Sends, if the draft can go out on a transport with (or without)
    /// SMTPUTF8. Refused, with every reason, when a chip is in error, text
    /// is pending, no field holds a mailbox, or a valid chip cannot be
    /// carried (a UTF-8 local part without SMTPUTF8, or text that is not an
    /// addr-spec). On success every chip becomes committed and the report
    /// holds the header value of each non-empty field, as the header writer
    /// renders it: what to put in `To:`, `Cc:` and `Bcc:`.
    ///
    /// - Complexity: O(*n*) in the total length of the chips.
    public mutating func send(smtpUTF8: Bool = false) -> SendReport {
        let (errors, pending) = unsentWork()
        let options = HeaderOptions(smtpUTF8: smtpUTF8)
        var unsendable: [SendReport.UnsendableChip] = []
        var headers: [SendReport.Header] = []
        var recipients = 0
        for field in fields {
            let chips = field.chips
            recipients += chips.filter { $0.content.kind == .mailbox }.count
            guard !chips.isEmpty else { continue }
            let value = HeaderRenderer.render(chips.map(\.content), options: options)
            for omission in value.omissions where chips[omission.index].state != .error {
                unsendable.append(SendReport.UnsendableChip(
                    field: field.name, id: chips[omission.index].id, reason: omission.reason.code))
            }
            headers.append(SendReport.Header(field: field.name, value: value.text))
        }
        guard errors.isEmpty, pending.isEmpty, recipients > 0, unsendable.isEmpty else {
            return SendReport(
                sent: false, errorChips: errors, fieldsWithPendingText: pending, hasNoRecipient: recipients == 0,
                unsendableChips: unsendable)
        }
        let changes = commitForSending()
        return SendReport(sent: true, headers: headers, changes: changes)
    }
}
