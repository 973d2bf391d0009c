/// Modifier keys held with an arrow key, as a terminal reports them.
struct KeyModifiers: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let shift = KeyModifiers(rawValue: 1)
    static let alt = KeyModifiers(rawValue: 2)
    static let control = KeyModifiers(rawValue: 4)

    /// The modifiers of an xterm parameter (`1;2` is Shift, `1;3` Alt,
    /// `1;5` Control: one plus the sum of 1, 2 and 4).
    init(xtermParameter p: Int) { rawValue = UInt8(truncatingIfNeeded: max(0, p - 1) & 7) }
    init(rawValue: UInt8) { self.rawValue = rawValue }
}

/// One key (or one paste) of a compose session, decoded from a terminal's bytes.
enum ComposeKey: Hashable, Sendable {
    /// Printable text typed, possibly several keys that came at once (UTF-8,
    /// or bytes that are not, which the composer turns into error chips).
    case text([UInt8])
    /// The text of a bracketed paste, exactly as pasted.
    case paste([UInt8])
    case enter, tab, backTab, backspace, delete, escape, home, end
    case left(KeyModifiers), right(KeyModifiers), up(KeyModifiers), down(KeyModifiers)
    /// Control with a letter: `control(UInt8(ascii: "s"))` for Ctrl-S.
    case control(UInt8)
    /// Alt (Meta) with a printable key, sent as Escape then the key.
    case alt(UInt8)
    /// A sequence this decoder does not know: ignored, never typed.
    case unknown([UInt8])
}

/// Turns a terminal's bytes into keys, in pieces as they arrive.
///
/// Invariants:
/// 1. Every byte fed ends up in exactly one key, or is held in `held`
///    until more bytes (or ``flush()``) decide what it is.
/// 2. The keys do not depend on how the bytes were split into reads,
///    except for a lone Escape at the end of a read, which waits for
///    ``flush()`` (the shell calls it when no byte follows shortly):
///    that is the one ambiguity of the protocol (Escape vs Alt-key).
struct KeyDecoder: Sendable {
    /// Bytes of a sequence not yet complete.
    private(set) var held: [UInt8] = []
    /// Inside a bracketed paste: the text so far.
    private var paste: [UInt8]?

    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Decodes what it can of `bytes` (after what is held); an incomplete
    /// sequence at the end is held for the next call.
    ///
    /// - Complexity: O(*n*) in the bytes fed and held.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ComposeKey] {
        held.append(contentsOf: bytes)
        var keys: [ComposeKey] = []
        var i = 0
        while i < held.count {
            guard let (key, used) = decodeOne(at: i, final: false) else { break }
            if let key { append(key, to: &keys) }
            i += used
        }
        held.removeFirst(i)
        return keys
    }

    /// Decides what the held bytes are when no more come: a lone Escape is
    /// the Escape key, a partial sequence its bytes as an unknown key, a
    /// partial UTF-8 character its bytes as text. An unfinished paste stays
    /// open (its end may still come).
    mutating func flush() -> [ComposeKey] {
        var keys: [ComposeKey] = []
        var i = 0
        while i < held.count {
            guard let (key, used) = decodeOne(at: i, final: true) else { break }
            if let key { append(key, to: &keys) }
            i += used
        }
        held.removeFirst(i)
        return keys
    }

    /// Runs of typed text come as one key, so a burst is one composer call.
    private func append(_ key: ComposeKey, to keys: inout [ComposeKey]) {
        if case .text(let more) = key, case .text(let before)? = keys.last {
            keys[keys.count - 1] = .text(before + more)
        } else {
            keys.append(key)
        }
    }

    /// The key at `i` and the bytes it took, or nil when more bytes are
    /// needed. A nil key consumed bytes without making one (paste text).
    private mutating func decodeOne(at i: Int, final: Bool) -> (ComposeKey?, Int)? {
        let b = held[i]
        if paste != nil {
            // Inside a paste only its end sequence means anything.
            if b == 0x1B {
                let rest = held[i...]
                if rest.starts(with: KeyDecoder.pasteEnd) {
                    let text = paste!
                    paste = nil
                    return (.paste(text), KeyDecoder.pasteEnd.count)
                }
                if KeyDecoder.pasteEnd.starts(with: rest) { return nil }  // maybe its start
            }
            paste!.append(b)
            return (nil, 1)
        }
        switch b {
        case 0x1B: return decodeEscape(at: i, final: final)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x00: return (.unknown([0]), 1)
        case 0x01...0x1A: return (.control(b + 0x60), 1)
        case 0x1C...0x1F: return (.unknown([b]), 1)
        case 0x20..<0x80: return (.text([b]), 1)
        default:
            let n = KeyDecoder.utf8Length(b)
            if i + n > held.count {
                // Wait for the rest, unless what is there is already wrong.
                let tail = held[(i + 1)...]
                if !final && tail.allSatisfy({ $0 & 0xC0 == 0x80 }) { return nil }
            }
            var used = 1
            while used < n && i + used < held.count && held[i + used] & 0xC0 == 0x80 { used += 1 }
            return (.text(Array(held[i..<(i + used)])), used)
        }
    }

    /// The length a UTF-8 lead byte announces (1 for a stray byte).
    static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }

    private mutating func decodeEscape(at i: Int, final: Bool) -> (ComposeKey?, Int)? {
        guard i + 1 < held.count else { return final ? (.escape, 1) : nil }
        let next = held[i + 1]
        switch next {
        case UInt8(ascii: "["):
            // CSI: parameters and intermediates, then a final byte 0x40–0x7E.
            var j = i + 2
            while j < held.count && !(0x40...0x7E).contains(held[j]) {
                guard (0x20...0x3F).contains(held[j]) else {
                    return (.unknown(Array(held[i..<j])), j - i)  // broken: give it up
                }
                j += 1
            }
            guard j < held.count else { return final ? (.unknown(Array(held[i...])), held.count - i) : nil }
            let parameters = String(decoding: held[(i + 2)..<j], as: UTF8.self)
            return (csiKey(parameters, final: held[j], raw: Array(held[i...j])), j + 1 - i)
        case UInt8(ascii: "O"):
            guard i + 2 < held.count else { return final ? (.alt(next), 2) : nil }
            let key: ComposeKey
            switch held[i + 2] {
            case UInt8(ascii: "A"): key = .up([])
            case UInt8(ascii: "B"): key = .down([])
            case UInt8(ascii: "C"): key = .right([])
            case UInt8(ascii: "D"): key = .left([])
            case UInt8(ascii: "H"): key = .home
            case UInt8(ascii: "F"): key = .end
            default: key = .unknown(Array(held[i..<(i + 3)]))
            }
            return (key, 3)
        case 0x1B:
            // Escape before a sequence: Alt with that key (how some
            // terminals send Alt-Left), or Escape pressed twice.
            guard i + 2 < held.count else { return final ? (.escape, 1) : nil }
            guard held[i + 2] == UInt8(ascii: "[") || held[i + 2] == UInt8(ascii: "O") else { return (.escape, 1) }
            var inner = KeyDecoder()
            inner.held = Array(held[(i + 1)...])
            guard let (key, used) = inner.decodeEscape(at: 0, final: final) else { return nil }
            return (KeyDecoder.withAlt(key), used + 1)
        case 0x7F: return (.unknown([0x1B, 0x7F]), 2)
        case 0x20..<0x7F: return (.alt(next), 2)
        default: return (.escape, 1)
        }
    }

    private static func withAlt(_ key: ComposeKey?) -> ComposeKey? {
        switch key {
        case .left(let m): .left(m.union(.alt))
        case .right(let m): .right(m.union(.alt))
        case .up(let m): .up(m.union(.alt))
        case .down(let m): .down(m.union(.alt))
        default: key
        }
    }

    /// The key of a CSI sequence; nil for the start of a paste, which
    /// makes no key of its own.
    private mutating func csiKey(_ parameters: String, final: UInt8, raw: [UInt8]) -> ComposeKey? {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let modifiers = numbers.count > 1 ? KeyModifiers(xtermParameter: numbers[1] ?? 1) : []
        switch final {
        case UInt8(ascii: "A"): return .up(modifiers)
        case UInt8(ascii: "B"): return .down(modifiers)
        case UInt8(ascii: "C"): return .right(modifiers)
        case UInt8(ascii: "D"): return .left(modifiers)
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"):
            switch numbers.first ?? nil {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 200:
                paste = []
                return nil
            default: return .unknown(raw)
            }
        default: return .unknown(raw)
        }
    }
}
