import ChipKit
import ChipTestSupport

/// One user tap in a multi-select group of `count` options (three of them
/// pre-selected, at most five): each sample taps an option drawn from a
/// seeded list, and the next sample taps it again, so the selection stays
/// small and the cost seen is that of the group's size. The change each
/// tap returns (edits and the selection after it) is part of the work.
func groupTapScenario(options count: Int, samples: Int) -> Result {
    let options = (0..<count).map { ChipOption<Never>(id: ChipOptionID("option-\($0)"), label: "Option \($0)") }
    var group = try! ChipGroup(
        options: options, configuration: GroupConfiguration(maxSelected: 5), checked: options.prefix(3).map(\.id))
    var rng = SplitMix64(seed: 5)
    let draws = (0..<1024).map { _ in options[rng.below(count)].id }
    var k = 0
    var again: ChipOptionID?
    let (stats, checksum) = sampleOperations(samples: samples, warmups: 200) {
        let id: ChipOptionID
        if let a = again {
            id = a
            again = nil
        } else {
            id = draws[k & 1023]
            k += 1
            again = id
        }
        let change = group.tap(id)
        return UInt64(change.edits.count &* 8 &+ change.selectedIDs.count)
    }
    return Result(name: "group/tap/\(count)", unit: "ns/tap", stats: stats, bytes: 0,
                  checksum: checksum &+ UInt64(group.selectedCount))
}
