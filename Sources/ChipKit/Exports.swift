// ChipKit is the engine's umbrella: one `import ChipKit` brings every
// layer. Each layer is its own target, so the compiler holds the one
// direction of flow (Syntax → Recognition → Directory → Output → Editing →
// Presentation, with Groups beside Editing): a lower layer cannot import a
// higher one.
@_exported import ChipSyntax
@_exported import ChipRecognition
@_exported import ChipDirectory
@_exported import ChipOutput
@_exported import ChipEditing
@_exported import ChipGroups
@_exported import ChipPresentation
