import ChipSyntax

/// A chip left out of a header value, and why: nothing is dropped without
/// a reason a host can show.
public struct HeaderOmission: Sendable, Hashable {
    /// The chip's index among the chips rendered.
    public var index: Int
    /// Why the chip was left out.
    public var reason: Reason

    /// The chip at `index` left out for `reason`.
    public init(index: Int, reason: Reason) {
        self.index = index
        self.reason = reason
    }

    /// Why a chip cannot go in a header: a stable ``code`` (see
    /// ``ChipReason``). Kept beside recognition, below the editing layer,
    /// so that a send report can carry it.
    public struct Reason: Error, ChipReason {
        enum Kind: Sendable, Hashable, CaseIterable {
            case inError, needsSMTPUTF8, invalidIDN, controlCharacter, notAnAddrSpec, tooLong
        }
        let kind: Kind
        /// The chip's error, for `in-error`.
        public let error: ChipError?

        init(_ kind: Kind, error: ChipError? = nil) {
            self.kind = kind
            self.error = error
        }

        /// The chip is in error (`{error}`: its error's code).
        public static func inError(_ error: ChipError?) -> Reason { Reason(.inError, error: error) }
        /// A UTF-8 local part, without SMTPUTF8.
        public static let needsSMTPUTF8 = Reason(.needsSMTPUTF8)
        /// A domain without an A-label form.
        public static let invalidIDN = Reason(.invalidIDN)
        /// A control or line separator in the address.
        public static let controlCharacter = Reason(.controlCharacter)
        /// Text a lenient policy let through that is not an RFC 5322
        /// addr-spec, so it would not read back the same.
        public static let notAnAddrSpec = Reason(.notAnAddrSpec)
        /// An address longer than a header line holds.
        public static let tooLong = Reason(.tooLong)
        /// One reason of each kind (`in-error` without an error).
        ///
        /// - Complexity: O(*n*), where *n* is the number of reasons.
        public static var allReasons: [Reason] { Kind.allCases.map { Reason($0) } }

        /// `in-error` (see ``error``), `needs-smtputf8`, `invalid-idn`,
        /// `control-character`, `not-an-addr-spec`, `too-long`.
        /// `invalid-idn` and `too-long` name the same faults as
        /// ``ChipError``'s codes of the same name, on purpose.
        public var code: String {
            switch kind {
            case .inError: "in-error"
            case .needsSMTPUTF8: "needs-smtputf8"
            case .invalidIDN: "invalid-idn"
            case .controlCharacter: "control-character"
            case .notAnAddrSpec: "not-an-addr-spec"
            case .tooLong: "too-long"
            }
        }

        /// `error`: the chip's error code, for `in-error`.
        public var values: [String: String] { kind == .inError ? ["error": error?.code ?? ""] : [:] }

        /// The English words; `{error}` is the chip's error code.
        public var englishTemplate: String {
            switch kind {
            case .inError: "the address is in error ({error})"
            case .needsSMTPUTF8: "the address has a UTF-8 local part, which needs SMTPUTF8"
            case .invalidIDN: "the domain has no ASCII (A-label) form"
            case .controlCharacter: "the address holds a control character or line separator"
            case .notAnAddrSpec: "the text is not an address a message can carry"
            case .tooLong: "the address is longer than a header line may be"
            }
        }

        /// Whether sending with SMTPUTF8 would let the chip through.
        public var needsSMTPUTF8: Bool { kind == .needsSMTPUTF8 }

        /// The code, as logs and tests show it.
        public var description: String { code }
    }
}
