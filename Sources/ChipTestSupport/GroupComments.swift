/// Where the white space and comments at the start of `gap` end, before
/// the first `,`, `;` or line break outside a comment.
public func endOfGroupComments(_ bytes: [UInt8], _ gap: Range<Int>) -> Int {
    var k = gap.lowerBound
    var depth = 0
    while k < gap.upperBound {
        let b = bytes[k]
        if depth > 0 {
            switch b {
            case UInt8(ascii: "\\"): k += 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            default: break
            }
        } else {
            switch b {
            case UInt8(ascii: "("): depth = 1
            case 0x20, 0x09: break
            case 0x0D where k + 1 < gap.upperBound && bytes[k + 1] == 0x0A:
                break  // the LF decides
            case 0x0A, 0x0D:
                // Only folding white space: a space or tab follows.
                guard k + 1 < gap.upperBound, bytes[k + 1] == 0x20 || bytes[k + 1] == 0x09 else { return k }
            default: return k
            }
        }
        k += 1
    }
    return k
}
