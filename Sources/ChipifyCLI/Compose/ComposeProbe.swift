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
