// swift-tools-version: 6.2
import PackageDescription

// A host that uses ChipKit as an app would: it depends on Chipify by path,
// imports only ChipKit, and has no settings of its own (no linker flags),
// so it links with nothing but the toolchain. CI copies this package out of
// the repository, points the path at the checkout, builds it in release
// and runs it.
let package = Package(
    name: "ChipKitHost",
    dependencies: [
        .package(name: "Chipify", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ChipKitHost",
            dependencies: [.product(name: "ChipKit", package: "Chipify")]
        )
    ]
)
