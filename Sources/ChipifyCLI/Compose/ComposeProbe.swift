import ChipKit

/// A compose session without a terminal, for `chipify-bench`: the same
/// controller, screen and redraw as `chipify compose`, driven by text keys.
package struct ComposeProbe {
    private var controller: ComposeController
    private var shown: ComposeScreen?
    private let width: Int
    private let height: Int

    /// A session whose To field holds `chips` chips, the caret after them,
    /// drawn at `width`×`height` once.
    package init(chips: Int, width: Int = 80, height: Int = 24) {
        var composer = Composer()
        composer.paste(String(decoding: (0..<chips).flatMap { Array("user\($0)@example.com, ".utf8) }, as: UTF8.self))
        controller = ComposeController(composer: composer)
        self.width = width
        self.height = height
        shown = controller.screen(width: width, height: height, style: .full)
    }

    /// The chips of the focused field.
    package var chipCount: Int { controller.composer.focusedField.count }

    /// One key as the terminal loop handles it: the composer operation,
    /// the new screen, and the bytes that redraw what changed. Returns the
    /// number of bytes written to the terminal.
    ///
    /// - Complexity: O(*n*) look-ups in the chips of the fields, plus the rows written.
    package mutating func keystroke(_ text: String) -> Int {
        _ = controller.handle(.text(Array(text.utf8)))
        let screen = controller.screen(width: width, height: height, style: .full)
        let bytes = screen.drawing(from: shown)
        shown = screen
        return bytes.count
    }
}

/// A compose draft without a session, for `chipify-bench`: a composer of
/// varied chips and the bytes a save of it writes.
package struct DraftProbe {
    private let composer: Composer

    /// A composer whose To field holds `chips` chips: plain addresses,
    /// names, quoted names with commas, UTF-8, errors and groups, typed
    /// as one paste.
    package init(chips: Int) {
        var text: [UInt8] = []
        var k = 0
        var made = 0
        while made < chips {
            let piece: String
            switch k % 6 {
            case 0: piece = "user\(k)@example.com"
            case 1: piece = "Person \(k) <p\(k)@example.org>"
            case 2: piece = "\"Lee, Ann \(k)\" <ann\(k)@x.org>"
            case 3: piece = "Jiří \(k) <jiri\(k)@example.cz>"
            case 4: piece = "bad\(k)@"
            default: piece = "Team \(k): t\(k)@example.net;"
            }
            text += Array(piece.utf8) + Array(", ".utf8)
            k += 1
            made += 1
        }
        var composer = Composer()
        composer.paste(String(decoding: text, as: UTF8.self))
        self.composer = composer
    }

    /// The chips of the To field.
    package var chipCount: Int { composer.focusedField.count }

    /// Encodes the draft as a save does (not written to disk): its size in bytes.
    package func encodedBytes() -> Int {
        guard case .success(let bytes) = ComposeDraft.encode(composer) else { return 0 }
        return bytes.count
    }
}
