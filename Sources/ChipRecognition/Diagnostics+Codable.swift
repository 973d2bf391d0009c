// Diagnostics encode as their stable codes, not as numbers, so saved
// drafts and JSON stay readable and survive a renumbering of the kinds.

extension ChipError: Codable {
    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let error = ChipError(code: code) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "unknown error code '\(code)'"))
        }
        self = error
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(code)
    }
}

extension ChipWarnings: Codable {
    /// Encoded as a list of codes, so a snapshot stays readable and stable
    /// if bits are renumbered.
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

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(codes)
    }
}

