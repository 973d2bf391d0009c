import Foundation
import Testing
import ChipTestSupport
@testable import ChipGroups

/// Random operation sequences on random groups, with the rules checked
/// after every step. A failure names its seed and step, so it replays.
@Suite("Chip groups under random operations")
struct RandomizedGroupTests {
    static func randomGroup(_ rng: inout SplitMix64) -> ChipGroup<Int> {
        let count = rng.between(1...14)
        var setup = Setup(ids: (0..<count).map { ChipOptionID("o\($0)") })
        setup.single = rng.chance(perMille: 400)
        setup.required = rng.chance(perMille: 500)
        setup.readOnly = rng.chance(perMille: 100)
        setup.controlled = rng.chance(perMille: 150)
        setup.maxVisible = rng.between(1...9)
        if rng.chance(perMille: 400) { setup.maxSelected = rng.between(1...4) }
        for id in setup.ids {
            if rng.chance(perMille: 150) { setup.disabled.insert(id) }
            if rng.chance(perMille: 100) { setup.actions.insert(id) }
            if rng.chance(perMille: 100) { setup.exclusive.insert(id) }
        }
        return setup.make()
    }

    /// A random operation; taps most often, and now and then an identity
    /// the group does not hold.
    static func randomOperation(_ rng: inout SplitMix64, _ g: ChipGroup<Int>, serial: inout Int)
        -> (String, isTap: Bool, (inout ChipGroup<Int>) -> GroupChange)
    {
        func someID() -> ChipOptionID {
            g.count == 0 || rng.chance(perMille: 50) ? "missing" : g.options[rng.below(g.count)].id
        }
        let id = someID()
        switch rng.below(100) {
        case 0..<55: return ("tap \(id)", true, { $0.tap(id) })
        case 55..<63: return ("check \(id)", false, { $0.check(id) })
        case 63..<70: return ("uncheck \(id)", false, { $0.uncheck(id) })
        case 70..<72: return ("clear", false, { $0.clear() })
        case 72..<75:
            let b = rng.chance(perMille: 500)
            return ("single \(b)", false, { $0.setSingleSelection(b) })
        case 75..<78:
            let b = rng.chance(perMille: 500)
            return ("required \(b)", false, { $0.setSelectionRequired(b) })
        case 78..<81:
            let m: Int? = rng.chance(perMille: 300) ? nil : rng.between(1...4)
            return ("max \(String(describing: m))", false, { $0.setMaxSelected(m) })
        case 81..<86:
            serial += 1
            let new = ChipOption<Int>(
                id: rng.chance(perMille: 100) ? id : ChipOptionID("n\(serial)"), label: "N",
                isCheckable: !rng.chance(perMille: 100), isExclusive: rng.chance(perMille: 100))
            let checked = rng.chance(perMille: 500)
            return ("add \(new.id) checked \(checked)", false, { $0.add(new, checked: checked) })
        case 86..<89: return ("remove \(id)", false, { $0.remove(id) })
        case 89..<92: return ("toggleOverflow", false, { $0.toggleOverflow() })
        case 92..<94:
            let b = rng.chance(perMille: 500)
            return ("disable \(id) \(b)", false, { $0.setDisabled(b, for: id) })
        case 94..<96:
            let b = rng.chance(perMille: 500)
            return ("controlled \(b)", false, { $0.setControlled(b) })
        default:
            // Filter chips: keep some options, add others.
            var next = g.options.filter { _ in rng.chance(perMille: 700) }
            serial += 1
            if rng.chance(perMille: 500) { next.append(ChipOption(id: ChipOptionID("f\(serial)"), label: "F")) }
            return ("replace (\(next.count))", false, { [next] in $0.replaceOptions(next) })
        }
    }

    @Test(arguments: 1...24)
    func rulesHoldAfterEveryOperation(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var g = Self.randomGroup(&rng)
        var serial = 0
        var changes = 0
        var refusals: Set<GroupRefusal.Reason> = []
        for step in 0..<400 {
            let before = g
            let (name, isTap, op) = Self.randomOperation(&rng, g, serial: &serial)
            let change = op(&g)
            let at = "seed \(seed), step \(step): \(name)"
            if change.changed { changes += 1 }
            if let r = change.refusal { refusals.insert(r.reason) }
            #expect(g.invariantViolations() == [], "\(at)")
            #expect(change.selectedIDs == g.selectedIDs, "\(at): the change carries the state after it")
            #expect(change.selectedID == g.selectedID, "\(at)")
            #expect(change.changed == (g != before), "\(at): changed says whether the state changed")
            #expect(Array(g.selectedIDs) == g.options.map(\.id).filter { g.isSelected($0) }, "\(at): display order")
            if g.configuration.isSingleSelection { #expect(g.selectedCount <= 1, "\(at)") }
            if isTap {
                if before.configuration.isSelectionRequired && before.selectedCount > 0 {
                    #expect(g.selectedCount > 0, "\(at): a tap emptied a required group")
                }
                if let m = g.configuration.maxSelected, !g.configuration.isSingleSelection,
                   g.selectedCount > before.selectedCount {
                    #expect(g.selectedCount <= m, "\(at): a tap went past the maximum")
                }
                if before.configuration.isControlled || before.configuration.isReadOnly {
                    #expect(g == before, "\(at): a controlled or read-only group changed on a tap")
                }
            }
            #expect(try ChipGroup(snapshot: g.snapshot) == g, "\(at): snapshot round trip")
            if step % 50 == 0 {
                let data = try JSONEncoder().encode(g.snapshot)
                let decoded = try JSONDecoder().decode(ChipGroupSnapshot<Int>.self, from: data)
                #expect(try ChipGroup(snapshot: decoded) == g, "\(at): JSON round trip")
            }
        }
        // Not a vacuous run: the state changed often, and rules refused.
        #expect(changes > 50, "seed \(seed): \(changes) changes")
        #expect(refusals.count >= 3, "seed \(seed): \(refusals)")
    }
}
