import Testing
@testable import ChipGroups

/// A group of plain options named by their identities, for the tables.
struct Setup: Sendable, CustomStringConvertible {
    var ids: [ChipOptionID] = ["a", "b", "c", "d"]
    var single = false
    var required = false
    var readOnly = false
    var controlled = false
    var checked: [ChipOptionID] = []
    var disabled: Set<ChipOptionID> = []
    var actions: Set<ChipOptionID> = []
    var exclusive: Set<ChipOptionID> = []
    var maxSelected: Int?
    var maxVisible = 8
    /// Labels other than the identity in capitals.
    var labels: [ChipOptionID: String] = [:]

    var description: String {
        var parts = [single ? "single" : "multi"]
        if required { parts.append("required") }
        if readOnly { parts.append("read-only") }
        if controlled { parts.append("controlled") }
        if !checked.isEmpty { parts.append("checked \(checked)") }
        if !disabled.isEmpty { parts.append("disabled \(disabled.sorted())") }
        if !actions.isEmpty { parts.append("actions \(actions.sorted())") }
        if !exclusive.isEmpty { parts.append("exclusive \(exclusive.sorted())") }
        if let maxSelected { parts.append("max \(maxSelected)") }
        return parts.joined(separator: ", ")
    }

    func make() -> ChipGroup<Int> {
        let options = ids.enumerated().map { k, id in
            ChipOption<Int>(
                id: id, label: labels[id] ?? id.rawValue.uppercased(), value: k, isDisabled: disabled.contains(id),
                isCheckable: !actions.contains(id), isExclusive: exclusive.contains(id))
        }
        let configuration = GroupConfiguration(
            isSingleSelection: single, isSelectionRequired: required, isReadOnly: readOnly, isControlled: controlled,
            maxVisible: maxVisible, maxSelected: maxSelected)
        return try! ChipGroup(options: options, configuration: configuration, checked: checked)
    }
}

/// One operation of a table's script.
enum Op: Sendable, CustomStringConvertible {
    case tap(ChipOptionID), check(ChipOptionID), uncheck(ChipOptionID), clear
    case single(Bool), required(Bool), maxSelected(Int?)
    case add(ChipOptionID, checked: Bool), remove(ChipOptionID)

    var description: String {
        switch self {
        case .tap(let id): "tap \(id)"
        case .check(let id): "check \(id)"
        case .uncheck(let id): "uncheck \(id)"
        case .clear: "clear"
        case .single(let b): "single \(b)"
        case .required(let b): "required \(b)"
        case .maxSelected(let m): "max \(m.map(String.init) ?? "none")"
        case .add(let id, let checked): "add \(id)\(checked ? " checked" : "")"
        case .remove(let id): "remove \(id)"
        }
    }

    func apply(_ g: inout ChipGroup<Int>) -> GroupChange {
        switch self {
        case .tap(let id): g.tap(id)
        case .check(let id): g.check(id)
        case .uncheck(let id): g.uncheck(id)
        case .clear: g.clear()
        case .single(let b): g.setSingleSelection(b)
        case .required(let b): g.setSelectionRequired(b)
        case .maxSelected(let m): g.setMaxSelected(m)
        case .add(let id, let checked):
            g.add(ChipOption(id: id, label: id.rawValue), checked: checked)
        case .remove(let id): g.remove(id)
        }
    }
}

/// A script and what it must leave: the selection in display order, and
/// the last operation's refusal (nil: none) and whether it changed anything.
struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var setup: Setup
    var ops: [Op]
    var selected: [ChipOptionID]
    var refusal: GroupRefusal.Reason? = nil
    var changed: Bool = true

    var testDescription: String { name }
}

@Suite("Chip group selection")
struct SelectionTests {
    static let userCases: [Case] = [
        Case(name: "multi: taps add in display order", setup: Setup(), ops: [.tap("c"), .tap("a")], selected: ["a", "c"]),
        Case(name: "multi: a tap on a selected option deselects it",
             setup: Setup(checked: ["a", "b"]), ops: [.tap("a")], selected: ["b"]),
        Case(name: "single: choosing another replaces", setup: Setup(single: true), ops: [.tap("a"), .tap("b")],
             selected: ["b"]),
        Case(name: "single: a pre-selected chip is deselected by a tap",
             setup: Setup(single: true, checked: ["a"]), ops: [.tap("a")], selected: []),
        Case(name: "single: a pre-selected chip is deselected by choosing another",
             setup: Setup(single: true, checked: ["a"]), ops: [.tap("c")], selected: ["c"]),
        Case(name: "required single: the last selected chip stays",
             setup: Setup(single: true, required: true, checked: ["a"]), ops: [.tap("a")], selected: ["a"],
             refusal: .selectionRequired, changed: false),
        Case(name: "required single: choosing another still replaces",
             setup: Setup(single: true, required: true, checked: ["a"]), ops: [.tap("b")], selected: ["b"]),
        Case(name: "required multi: only the last deselect is blocked",
             setup: Setup(required: true, checked: ["a", "b"]), ops: [.tap("a"), .tap("b")], selected: ["b"],
             refusal: .selectionRequired, changed: false),
        Case(name: "required: may start empty and selects nothing by itself",
             setup: Setup(single: true, required: true), ops: [.required(true)], selected: [], changed: false),
        Case(name: "required set later selects nothing", setup: Setup(), ops: [.required(true)], selected: []),
        Case(name: "disabled: a tap is refused", setup: Setup(disabled: ["b"]), ops: [.tap("b")], selected: [],
             refusal: .disabled, changed: false),
        Case(name: "disabled: a pre-selected disabled chip cannot be deselected by the user",
             setup: Setup(checked: ["b"], disabled: ["b"]), ops: [.tap("b")], selected: ["b"], refusal: .disabled,
             changed: false),
        Case(name: "read-only: taps are refused", setup: Setup(readOnly: true, checked: ["a"]), ops: [.tap("a")],
             selected: ["a"], refusal: .readOnly, changed: false),
        Case(name: "exclusive: choosing None clears the others",
             setup: Setup(ids: ["a", "b", "none"], checked: ["a", "b"], exclusive: ["none"]), ops: [.tap("none")],
             selected: ["none"]),
        Case(name: "exclusive: choosing another clears None",
             setup: Setup(ids: ["a", "b", "none"], checked: ["none"], exclusive: ["none"]), ops: [.tap("b")],
             selected: ["b"]),
        Case(name: "exclusive + required: None alone stays",
             setup: Setup(ids: ["a", "none"], required: true, checked: ["none"], exclusive: ["none"]),
             ops: [.tap("none")], selected: ["none"], refusal: .selectionRequired, changed: false),
        Case(name: "exclusive + max 1: another replaces None",
             setup: Setup(ids: ["a", "none"], checked: ["none"], exclusive: ["none"], maxSelected: 1),
             ops: [.tap("a")], selected: ["a"]),
        Case(name: "max: a tap past it is refused", setup: Setup(maxSelected: 2),
             ops: [.tap("a"), .tap("b"), .tap("c")], selected: ["a", "b"], refusal: .maxSelected, changed: false),
        Case(name: "max: deselecting is still allowed", setup: Setup(checked: ["a", "b"], maxSelected: 2),
             ops: [.tap("a"), .tap("c")], selected: ["b", "c"]),
        Case(name: "max: ignored in single mode", setup: Setup(single: true, maxSelected: 1),
             ops: [.tap("a"), .tap("b")], selected: ["b"]),
        Case(name: "action chip: a tap selects nothing", setup: Setup(actions: ["d"]), ops: [.tap("d")],
             selected: [], changed: false),
        Case(name: "unknown identity: refused", setup: Setup(), ops: [.tap("zz")], selected: [],
             refusal: .unknownOption, changed: false),
    ]

    static let hostCases: [Case] = [
        Case(name: "check: in single mode replaces", setup: Setup(single: true, checked: ["a"]), ops: [.check("c")],
             selected: ["c"]),
        Case(name: "check: applies to a read-only group and a disabled option",
             setup: Setup(readOnly: true, disabled: ["b"]), ops: [.check("b")], selected: ["b"]),
        Case(name: "check: an action chip is refused", setup: Setup(actions: ["d"]), ops: [.check("d")], selected: [],
             refusal: .notCheckable, changed: false),
        Case(name: "check: past the maximum is refused", setup: Setup(checked: ["a"], maxSelected: 1),
             ops: [.check("b")], selected: ["a"], refusal: .maxSelected, changed: false),
        Case(name: "check: a selected option does nothing", setup: Setup(checked: ["a"]), ops: [.check("a")],
             selected: ["a"], changed: false),
        Case(name: "check: exclusive rules hold",
             setup: Setup(ids: ["a", "b", "none"], checked: ["a", "b"], exclusive: ["none"]),
             ops: [.check("none"), .check("a")], selected: ["a"]),
        Case(name: "uncheck: the last of a required group is refused",
             setup: Setup(required: true, checked: ["c"]), ops: [.uncheck("c")], selected: ["c"],
             refusal: .selectionRequired, changed: false),
        Case(name: "uncheck: applies to a read-only group", setup: Setup(readOnly: true, checked: ["a", "c"]),
             ops: [.uncheck("c")], selected: ["a"]),
        Case(name: "uncheck: an unselected option does nothing", setup: Setup(), ops: [.uncheck("a")], selected: [],
             changed: false),
        Case(name: "clear: empties even a required group",
             setup: Setup(required: true, checked: ["a", "b"]), ops: [.clear], selected: []),
        Case(name: "clear: nothing to clear changes nothing", setup: Setup(), ops: [.clear], selected: [],
             changed: false),
        Case(name: "mode: a real change clears the selection",
             setup: Setup(required: true, checked: ["a", "b"]), ops: [.single(true)], selected: []),
        Case(name: "mode: the same mode does nothing", setup: Setup(checked: ["a", "b"]), ops: [.single(false)],
             selected: ["a", "b"], changed: false),
        Case(name: "add: checked joins the selection", setup: Setup(checked: ["a"]), ops: [.add("e", checked: true)],
             selected: ["a", "e"]),
        Case(name: "add: checked replaces it in single mode", setup: Setup(single: true, checked: ["a"]),
             ops: [.add("e", checked: true)], selected: ["e"]),
        Case(name: "add: a repeated identity is refused", setup: Setup(checked: ["a"]), ops: [.add("b", checked: true)],
             selected: ["a"], refusal: .duplicateID, changed: false),
        Case(name: "add: checked past the maximum is added unselected", setup: Setup(checked: ["a"], maxSelected: 1),
             ops: [.add("e", checked: true)], selected: ["a"], refusal: .maxSelected, changed: true),
        Case(name: "remove: the selected option of a required group leaves it empty",
             setup: Setup(single: true, required: true, checked: ["b"]), ops: [.remove("b")], selected: []),
        Case(name: "remove: an unknown identity is refused", setup: Setup(), ops: [.remove("zz")], selected: [],
             refusal: .unknownOption, changed: false),
        Case(name: "max lowered under the count deselects nothing, refuses adding",
             setup: Setup(checked: ["a", "b", "c"]), ops: [.maxSelected(2), .tap("d")], selected: ["a", "b", "c"],
             refusal: .maxSelected, changed: false),
        Case(name: "max lowered: deselect to get under it, then add",
             setup: Setup(checked: ["a", "b", "c"]),
             ops: [.maxSelected(2), .tap("a"), .tap("b"), .tap("d")], selected: ["c", "d"]),
    ]

    static func run(_ c: Case) -> (ChipGroup<Int>, GroupChange?) {
        var g = c.setup.make()
        var last: GroupChange?
        for op in c.ops {
            last = op.apply(&g)
            #expect(last?.selectedIDs == g.selectedIDs, "\(op): the change carries the state after it")
            #expect(last?.selectedID == g.selectedID, "\(op)")
            #expect(g.invariantViolations() == [], "\(op)")
        }
        return (g, last)
    }

    @Test(arguments: userCases + hostCases)
    func selectionFollowsTheRules(_ c: Case) {
        let (g, last) = Self.run(c)
        #expect(g.selectedIDs == c.selected, "\(c.setup)")
        #expect(last?.refusal?.reason == c.refusal, "\(c.setup)")
        #expect(last?.changed == c.changed, "\(c.setup)")
    }

    @Test func tapsReportTheirEditsInOrder() {
        var g = Setup(ids: ["a", "b", "none"], checked: ["a", "b"], exclusive: ["none"]).make()
        #expect(g.tap("none").edits == [.unchecked("a"), .unchecked("b"), .checked("none")])
        var s = Setup(single: true, checked: ["b"]).make()
        let change = s.tap("a")
        #expect(change.edits == [.unchecked("b"), .checked("a")])
        #expect(change.selectedID == "a")
        #expect(change.selectedIDs == ["a"])
        var m = Setup().make()
        #expect(m.tap("a").selectedID == nil, "no single selection in multi mode")
        #expect(m.tap("zz").edits == [.refused(GroupRefusal(.unknownOption, id: "zz"))])
    }

    @Test func aModeChangeReportsTheUnchecksThenTheMode() {
        var g = Setup(checked: ["c", "a"]).make()
        #expect(g.setSingleSelection(true).edits == [.unchecked("a"), .unchecked("c"), .modeChanged(single: true)])
        #expect(g.setSingleSelection(true).edits == [])
    }

    @Test func removingAndInsertingKeepsIndexes() {
        var g = Setup(checked: ["c"]).make()
        #expect(g.remove("a").edits == [.removed("a", at: 0)])
        #expect(g.index(of: "c") == 1)
        #expect(g.add(ChipOption(id: "z", label: "Z"), at: 0).edits == [.inserted("z", at: 0)])
        #expect(g.options.map(\.id) == ["z", "b", "c", "d"])
        #expect(g.index(of: "d") == 3)
        #expect(g.invariantViolations() == [])
    }
}

@Suite("Controlled chip groups")
struct ControlledTests {
    @Test func aTapOnlyEmitsTheRequest() {
        var g = Setup(single: true, controlled: true, checked: ["a"]).make()
        let change = g.tap("b")
        #expect(change.changed == false)
        #expect(change.request == GroupRequest(id: "b", proposedIDs: ["b"]))
        #expect(g.selectedIDs == ["a"])
        let applied = g.apply(change.request!)
        #expect(applied.changed)
        #expect(applied.edits == [.unchecked("a"), .checked("b")])
        #expect(g.selectedIDs == ["b"])
    }

    @Test func refusedTapsEmitNoRequest() {
        var g = Setup(required: true, controlled: true, checked: ["a"], disabled: ["b"]).make()
        #expect(g.tap("a").refusal?.reason == .selectionRequired)
        #expect(g.tap("b").refusal?.reason == .disabled)
        #expect(g.tap("a").request == nil)
    }

    /// A request applied late is judged against the state then.
    @Test func aStaleRequestIsJudgedAgain() {
        var g = Setup(controlled: true).make()
        let request = g.tap("b").request!
        _ = g.setDisabled(true, for: "b")
        #expect(g.apply(request).refusal?.reason == .disabled)
        #expect(g.selectedIDs == [])
    }

    @Test func programmaticChangesApplyAtOnce() {
        var g = Setup(controlled: true).make()
        #expect(g.check("c").changed)
        #expect(g.selectedIDs == ["c"])
    }
}

@Suite("Action chips")
struct ActionChipTests {
    @Test(arguments: [
        (ActionChipState.enabled, nil as GroupRefusal.Reason?),
        (.disabled, .disabled),
        (.inProgress, .actionInProgress),
        (.done, nil),
    ])
    func aTapTriggersOrIsRefusedByState(_ state: ActionChipState, _ refusal: GroupRefusal.Reason?) {
        var g = Setup(actions: ["d"]).make()
        _ = g.setActionState(state, for: "d")
        #expect(g.option("d")?.actionState == state)
        let change = g.tap("d")
        #expect(change.refusal?.reason == refusal)
        #expect(change.edits.contains(.actionTriggered("d")) == (refusal == nil))
        #expect(!change.changed)
        #expect(g.selectedIDs == [])
    }

    @Test func settingTheSameStateChangesNothing() {
        var g = Setup(actions: ["d"]).make()
        #expect(g.setActionState(.inProgress, for: "d").edits == [.updated("d")])
        #expect(g.setActionState(.inProgress, for: "d").edits == [])
        #expect(g.option("a")?.actionState == nil, "a checkable option has no action state")
    }
}

@Suite("Chip group examples")
struct ExampleTests {
    /// The README's example, as written there.
    @Test func theReadmeExampleHolds() throws {
        var sizes = try ChipGroup<Never>(
            options: ["S", "M", "L"].map { ChipOption(id: ChipOptionID($0), label: $0) },
            configuration: GroupConfiguration(isSingleSelection: true, isSelectionRequired: true), checked: ["M"])
        #expect(sizes.tap("L").selectedID == "L")
        #expect(sizes.tap("L").refusal?.reason == .selectionRequired)
    }

    /// The guide's example: a "None" that is not exclusive, and a maximum.
    @Test func theGuideExampleHolds() throws {
        let sizes = ["S", "M", "L", "None"].map { ChipOption<String>(id: ChipOptionID($0), label: $0, value: $0) }
        var group = try ChipGroup(options: sizes, configuration: GroupConfiguration(maxSelected: 2), checked: ["M"])
        #expect(group.configurationWarnings == [.noneNotExclusive("None")])
        #expect(group.tap("S").selectedIDs == ["S", "M"])
        #expect(group.tap("L").refusal?.reason == .maxSelected)
        let a = group.accessibility(of: "M")!
        #expect(a.isSelected && a.position == 2 && a.count == 4 && a.role == .checkbox)
    }
}
