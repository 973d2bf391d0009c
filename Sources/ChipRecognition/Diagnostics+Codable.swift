// Diagnostics encode as their stable codes, not as numbers, so saved
// drafts and JSON stay readable and survive a renumbering of the kinds.

extension ChipError: Codable {
    /// Decodes an error from its code string; an unknown code is a decoding error.
    ///
    /// - Complexity: O(*n*), where *n* is the number of reasons.
    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let error = ChipError(code: code) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "unknown error code '\(code)'"))
        }
        self = error
    }

    /// Encodes the error as its code string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(code)
    }
}

extension ChipWarnings: Codable {
    /// Encoded as a list of codes, so a snapshot stays readable and stable
    /// if bits are renumbered; an unknown code is a decoding error.
    ///
    /// - Complexity: O(*c* · *n*), where *c* is the number of codes decoded
    ///   and *n* the number of warning kinds.
    public init(from decoder: any Decoder) throws {
        let codes = try decoder.singleValueContainer().decode([String].self)
        var set: ChipWarnings = []
        for code in codes {
            guard let w = ChipWarnings(code: code) else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: decoder.codingPath, debugDescription: "unknown warning code '\(code)'"))
            }
            set.insert(w)
        }
        self = set
    }

    /// Encodes the set as its list of codes, in ``codes`` order.
    ///
    /// - Complexity: O(*n*), where *n* is the number of warning kinds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(codes)
    }
}

