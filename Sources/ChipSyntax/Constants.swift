// The numbers the standards fix, each written once. Computed and
// inlinable, so a use in a hot loop across modules is a constant.

/// Named ASCII bytes: the delimiters and white space of RFC 5322.
@usableFromInline package enum ASCII {
    @inlinable package static var tab: UInt8 { 0x09 }
    @inlinable package static var lineFeed: UInt8 { 0x0A }
    @inlinable package static var carriageReturn: UInt8 { 0x0D }
    @inlinable package static var space: UInt8 { 0x20 }
    @inlinable package static var quote: UInt8 { 0x22 }
    @inlinable package static var openParen: UInt8 { 0x28 }
    @inlinable package static var closeParen: UInt8 { 0x29 }
    @inlinable package static var comma: UInt8 { 0x2C }
    @inlinable package static var hyphen: UInt8 { 0x2D }
    @inlinable package static var semicolon: UInt8 { 0x3B }
    @inlinable package static var openAngle: UInt8 { 0x3C }
    @inlinable package static var closeAngle: UInt8 { 0x3E }
    @inlinable package static var equals: UInt8 { 0x3D }
    @inlinable package static var question: UInt8 { 0x3F }
    @inlinable package static var backslash: UInt8 { 0x5C }
    @inlinable package static var delete: UInt8 { 0x7F }
    /// The bit that tells an ASCII letter's cases apart.
    @inlinable package static var caseBit: UInt8 { 0x20 }
}

/// RFC 5321 §4.5.3.1 size limits, in octets, with the RFC 3696 erratum
/// for the address: a path of 256 octets less its angle brackets.
@usableFromInline package enum SMTPLimits {
    @inlinable package static var maxLocalPartBytes: Int { 64 }
    @inlinable package static var maxDomainBytes: Int { 255 }
    @inlinable package static var maxLabelBytes: Int { 63 }
    @inlinable package static var maxAddressBytes: Int { 254 }
}

/// RFC 2047 §2: an encoded word is at most 75 characters; RFC 5322 §2.1.1:
/// a line is at most 998 characters and should be at most 78.
@usableFromInline package enum HeaderLimits {
    @inlinable package static var maxEncodedWordBytes: Int { 75 }
    @inlinable package static var maxLineBytes: Int { 998 }
    @inlinable package static var foldAtBytes: Int { 78 }
}

/// The `mailto:` scheme (RFC 6068) that people paste before an address.
@usableFromInline package enum MailtoScheme {
    /// The scheme's name, lower case.
    package static let name: StaticString = "mailto"
    /// `mailto` without its colon.
    @inlinable package static var nameBytes: Int { 6 }
    /// `mailto:` with its colon.
    @inlinable package static var prefixBytes: Int { 7 }
}
