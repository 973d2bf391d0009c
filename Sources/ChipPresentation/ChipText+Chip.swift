import ChipOutput
import ChipEditing

extension ChipText {
    /// The label of an editor's chip: that of its content.
    ///
    /// - Complexity: O(*n*) in the chip's length.
    public static func label(of chip: Chip) -> String { label(of: chip.content) }
}
