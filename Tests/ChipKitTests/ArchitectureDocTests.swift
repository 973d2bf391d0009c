import Foundation
import Testing
import ChipTestSupport

/// `docs/ARCHITECTURE.md` names every target of `Package.swift` with the
/// targets it depends on, no more and no fewer, so the document cannot
/// drift from the build.
@Suite("Architecture document")
struct ArchitectureDocTests {
    /// The package's root, from this file's path (`Tests/ChipKitTests/…`).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/"
    }()

    /// Every target's dependencies as `Package.swift` declares them.
    static func packageTargets(_ text: String) -> [String: Set<String>] {
        var targets: [String: Set<String>] = [:]
        let declarations = text.split(separator: ".target(", omittingEmptySubsequences: false).dropFirst()
            + text.split(separator: ".testTarget(", omittingEmptySubsequences: false).dropFirst()
            + text.split(separator: ".executableTarget(", omittingEmptySubsequences: false).dropFirst()
        for d in declarations {
            // Each piece starts inside one declaration: its name comes first.
            guard let nameStart = d.firstRange(of: "name: \"")?.upperBound,
                  let nameEnd = d[nameStart...].firstIndex(of: "\"") else { continue }
            let name = String(d[nameStart..<nameEnd])
            var deps: Set<String> = []
            let rest = d[nameEnd...]
            let end = [".target(", ".testTarget(", ".executableTarget("]
                .compactMap { rest.firstRange(of: $0)?.lowerBound }.min() ?? rest.endIndex
            if let open = rest[..<end].firstRange(of: "dependencies: [")?.upperBound,
               let close = rest[open...].firstIndex(of: "]") {
                for piece in rest[open..<close].split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                where piece.offset % 2 == 1 {
                    deps.insert(String(piece.element))
                }
            }
            targets[name] = deps
        }
        return targets
    }

    /// The rows of the document's target tables: `| \`Name\` | A, B | …`,
    /// where a layer may be named without its `Chip` prefix.
    static func documentedTargets(_ text: String, known: Set<String>) -> [String: [Set<String>]] {
        var rows: [String: [Set<String>]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(trim)
            guard cells.count >= 3 else { continue }
            let first = String(cells[1])
            guard first.hasPrefix("`"), first.hasSuffix("`"), first.filter({ $0 == "`" }).count == 2 else { continue }
            let name = String(first.dropFirst().dropLast())
            guard known.contains(name) else { continue }
            let listed = String(cells[2])
            var deps: Set<String> = []
            if listed != "—" {
                for short in listed.split(separator: ", ").map(String.init) {
                    deps.insert(known.contains(short) ? short : "Chip" + short)
                }
            }
            rows[name, default: []].append(deps)
        }
        return rows
    }

    @Test func everyTargetIsDocumentedWithItsDependencies() throws {
        let package = try #require(readFile(Self.root + "Package.swift")).stringValue
        let document = try #require(readFile(Self.root + "docs/ARCHITECTURE.md")).stringValue
        let targets = Self.packageTargets(package)
        #expect(targets.count >= 20, "Package.swift read as \(targets.keys.sorted())")
        #expect(targets["ChipEditing"] == ["ChipSyntax", "ChipRecognition", "ChipDirectory", "ChipOutput"])
        let documented = Self.documentedTargets(document, known: Set(targets.keys))
        for (name, deps) in targets.sorted(by: { $0.key < $1.key }) {
            let rows = documented[name] ?? []
            #expect(rows.count == 1, "\(name) has \(rows.count) rows in docs/ARCHITECTURE.md")
            if let row = rows.first {
                #expect(row == deps, "\(name): the document says \(row.sorted()), Package.swift \(deps.sorted())")
            }
        }
    }

    /// The library is the standard library only: `ChipKit` and every target
    /// it depends on import nothing but one another (no Foundation, no C
    /// library, no Dispatch), so a host importing only `ChipKit` links with
    /// the toolchain alone. The command line's target (`ChipifyCLI`),
    /// which reads and writes descriptors with the C library and runs
    /// threads with Dispatch, is no dependency of `ChipKit` and no product
    /// of the package; and no other target under `Sources/` but the
    /// executable's `main` and the tests' file reading imports the C
    /// library, Foundation or Dispatch.
    @Test func theLibraryImportsOnlyTheStandardLibrary() throws {
        let package = try #require(readFile(Self.root + "Package.swift")).stringValue
        let targets = Self.packageTargets(package)
        var library: Set<String> = ["ChipKit"]
        var queue = ["ChipKit"]
        while let next = queue.popLast() {
            for dep in targets[next] ?? [] where !library.contains(dep) {
                library.insert(dep)
                queue.append(dep)
            }
        }
        #expect(library.count >= 8, "\(library.sorted())")
        #expect(!library.contains("ChipifyCLI"))
        let products = package.components(separatedBy: ".library(").dropFirst()
        #expect(products.count == 1 && products.first?.contains("targets: [\"ChipKit\"]") == true,
                "the package's one library product is ChipKit")
        var files = 0
        for target in library.sorted() {
            let directory = Self.root + "Sources/" + target
            let names = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
            for name in names {
                let text = try #require(readFile(directory + "/" + name)).stringValue
                files += 1
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").map(String.init)
                    guard let k = words.firstIndex(of: "import"), words[..<k].allSatisfy({ $0.hasPrefix("@") }),
                          k + 1 < words.count else { continue }
                    let module = words[k + 1]
                    // The compiler's own Clang module of SSE2 intrinsics
                    // (headers only, nothing to link) is the toolchain's.
                    let toolchain = module == "_Builtin_intrinsics.intel"
                    #expect(library.contains(module) || toolchain, "\(target)/\(name) imports \(module)")
                }
            }
        }
        #expect(files > 60, "read \(files) files")
        // The system's modules, anywhere under `Sources/`: only where the
        // command line and the tests need them.
        let system: Set<String> = ["Glibc", "Darwin", "Foundation", "Dispatch", "Musl", "WinSDK"]
        let allowed: Set<String> = ["ChipifyCLI", "chipify", "ChipTestSupport"]
        var users: Set<String> = []
        let sources = Self.root + "Sources"
        for name in try FileManager.default.subpathsOfDirectory(atPath: sources) where name.hasSuffix(".swift") {
            let target = String(name.split(separator: "/")[0])
            let text = try #require(readFile(sources + "/" + name)).stringValue
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let k = words.firstIndex(of: "import"), words[..<k].allSatisfy({ $0.hasPrefix("@") }),
                      k + 1 < words.count, system.contains(words[k + 1]) else { continue }
                users.insert(target)
                #expect(allowed.contains(target), "\(name) imports \(words[k + 1])")
            }
        }
        #expect(users.contains("ChipifyCLI"), "the check saw no import of the system's modules: \(users)")
    }
}

private func trim(_ s: Substring) -> String {
    String(s.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
}

extension Array where Element == UInt8 {
    fileprivate var stringValue: String { String(decoding: self, as: UTF8.self) }
}
