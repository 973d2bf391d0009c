import ChipSyntax
import ChipRecognition
import ChipDirectory

/// What a chip becomes with an address book: a typed address gets its
/// contact (and its name when it had none); a typed name, under a
/// ``ContactResolution``, becomes the one best contact's mailbox, an
/// `ambiguous` error listing the equally good ones, or stays as it was.
/// Used by ``Composer`` and by `chipify --contacts`.
public struct ContactResolver: Sendable {
    /// The address book names and addresses are looked up in.
    public var directory: ContactDirectory
    /// What a typed name becomes.
    public var resolution: ContactResolution

    /// A resolver over `directory`; by default a name becomes a contact only
    /// when one matches best.
    public init(directory: ContactDirectory, resolution: ContactResolution = .uniqueMatch) {
        self.directory = directory
        self.resolution = resolution
    }

    /// A chip's content after resolution, the contact it stands for, and
    /// for an `ambiguous` chip the candidates.
    public struct Resolved: Sendable, Hashable {
        /// The chip as resolved: the contact's mailbox for a resolved name, the
        /// typed address with the contact's name when it had none, else as it was.
        public var content: ParsedChip
        /// The contact the chip stands for, or nil.
        public var contact: ContactID?
        /// For an `ambiguous` chip, the contacts that matched equally well; else empty.
        public var candidates: [Suggestion]
    }

    /// Whether a chip is a name typed without an address (`missing-at`
    /// or `not-an-address`).
    ///
    /// - Complexity: O(*n*), where *n* is the length of the chip's text (it is
    ///   decoded to tell whether it is empty).
    public static func isName(_ content: ParsedChip) -> Bool {
        content.kind == .mailbox && (content.error == .missingAt || content.error == .notAnAddress)
            && !content.rawText.isEmpty
    }

    /// Resolves one chip; `excludes` says which addresses are already
    /// chips (a name is not resolved to one of them).
    ///
    /// - Complexity: as ``ContactDirectory/contact(forAddress:)`` for an
    ///   address; for a name, as ``ContactDirectory/suggestions(for:limit:excluding:)``
    ///   and ``resolveName(_:from:policy:_:)``.
    public func resolve(
        _ content: ParsedChip, policy: ValidationPolicy, excludes: (@Sendable (String) -> Bool)? = nil
    ) -> Resolved {
        var content = content
        if content.isValid, content.kind == .mailbox, let address = content.address {
            // A typed address is kept; its contact names it when it had no name.
            guard let (contact, _) = directory.contact(forAddress: address) else {
                return Resolved(content: content, contact: nil, candidates: [])
            }
            if content.displayName == nil, let name = contact.displayName { content.displayName = name }
            return Resolved(content: content, contact: contact.id, candidates: [])
        }
        guard resolution != .off, ContactResolver.isName(content) else {
            return Resolved(content: content, contact: nil, candidates: [])
        }
        var search = SuggestionSearch(directory, limit: 8)
        search.excludes = excludes
        return ContactResolver.resolveName(content, from: search.update(content.rawText), policy: policy, resolution)
            ?? Resolved(content: content, contact: nil, candidates: [])
    }

    /// What a name becomes given the suggestions for its text: nil when
    /// nothing matched. Rows of one contact (its several addresses) are no
    /// tie: the best row is its preferred address.
    ///
    /// - Complexity: O(*s*² + *m*), where *s* is the number of suggestions and
    ///   *m* the length of the chosen mailbox's text.
    public static func resolveName(
        _ content: ParsedChip, from s: [Suggestion], policy: ValidationPolicy, _ resolution: ContactResolution
    ) -> Resolved? {
        guard let top = s.first else { return nil }
        var tied: [Suggestion] = []
        for x in s where x.matchClass == top.matchClass && !tied.contains(where: { $0.contact == x.contact }) {
            tied.append(x)
        }
        if resolution == .topSuggestion || tied.count == 1 {
            // (`topSuggestionOnReturn` arrives here as what the commit applied.)
            guard let address = top.address else { return nil }  // a list: chosen, not guessed
            let chips = AddressList.parse(MailboxText.format(name: top.name, address: address), policy: policy)
            guard chips.count == 1 else { return nil }
            return Resolved(content: chips[0], contact: top.contact, candidates: [])
        }
        var content = content
        content.error = .ambiguous
        content.errorOffset = content.byteRange.lowerBound  // the whole name
        return Resolved(content: content, contact: nil, candidates: tied)
    }
}
