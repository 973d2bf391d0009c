// Plain SVG charts of the benchmark's own measurements (`--svg DIR`), so the
// README can show throughput against the peers and the spread of keystroke
// latency without a plotting tool.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChipTestSupport

/// SVG text for two kinds of chart: grouped horizontal bars and lines.
enum SVG {
    /// The palette, one color per series (colorblind-safe, Okabe–Ito).
    static let colors = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]

    /// Text made safe inside an element or an attribute.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A number with at most `decimals` decimals, no trailing zeros.
    static func number(_ v: Double, decimals: Int = 1) -> String {
        var text = formatDouble(v, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// One row of a bar chart: a label and a value per series (nil: not
    /// measured, drawn as a dash).
    struct Bar {
        var label: String
        var values: [Double?]
    }

    /// Horizontal bars, one group per row and one bar per series, scaled
    /// to the largest value; each bar carries its value.
    static func barChart(title: String, unit: String, series: [String], bars: [Bar], note: String = "") -> String {
        let labelWidth = 330, plotWidth = 330, barHeight = 14, gap = 10
        let rowHeight = series.count * barHeight + gap
        let top = 56
        let height = top + bars.count * rowHeight + 40
        let width = labelWidth + plotWidth + 90
        let largest = bars.flatMap { $0.values.compactMap { $0 } }.max() ?? 1
        let scale = largest > 0 ? Double(plotWidth) / largest : 0
        var svg = header(width: width, height: height, title: title)
        // Legend.
        var x = labelWidth
        for (k, name) in series.enumerated() {
            svg += "<rect x=\"\(x)\" y=\"30\" width=\"12\" height=\"12\" fill=\"\(colors[k % colors.count])\"/>"
            svg += "<text x=\"\(x + 16)\" y=\"40\">\(escape(name))</text>\n"
            x += 24 + 8 * name.count
        }
        for (row, bar) in bars.enumerated() {
            let y0 = top + row * rowHeight
            let labelY = y0 + series.count * barHeight / 2 + 4
            svg += "<text x=\"\(labelWidth - 8)\" y=\"\(labelY)\" text-anchor=\"end\">\(escape(bar.label))</text>\n"
            for (k, value) in bar.values.enumerated() {
                let y = y0 + k * barHeight
                guard let value else {
                    svg += "<text class=\"missing\" x=\"\(labelWidth + 4)\" y=\"\(y + barHeight - 3)\">—</text>\n"
                    continue
                }
                let w = value * scale
                svg += "<rect class=\"bar\" x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(number(w, decimals: 2))\" height=\"\(barHeight - 2)\" fill=\"\(colors[k % colors.count])\"/>"
                svg += "<text x=\"\(number(Double(labelWidth) + w + 4, decimals: 2))\" y=\"\(y + barHeight - 3)\">\(number(value)) \(escape(unit))</text>\n"
            }
        }
        if !note.isEmpty {
            svg += "<text class=\"note\" x=\"10\" y=\"\(height - 12)\">\(escape(note))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// Lines through points (x linear, y logarithmic when `logY`), with
    /// ticks on both axes.
    static func lineChart(
        title: String, xLabel: String, yLabel: String, series: [(name: String, points: [(x: Double, y: Double)])],
        xTicks: [Double], logY: Bool, note: String = ""
    ) -> String {
        let left = 70, right = 30, top = 56, plotWidth = 600, plotHeight = 300
        let width = left + plotWidth + right, height = top + plotHeight + 70
        let xs = series.flatMap { $0.points.map(\.x) }, ys = series.flatMap { $0.points.map(\.y) }.filter { !logY || $0 > 0 }
        let xMin = xs.min() ?? 0, xMax = xs.max() ?? 1
        var yMin = ys.min() ?? 1, yMax = ys.max() ?? 2
        if logY {
            // From the power of ten at or below the least value to the one
            // at or above the largest.
            yMin = power10(floorLog10(yMin))
            let k = floorLog10(yMax)
            yMax = power10(power10(k) < yMax ? k + 1 : k)
        } else {
            yMin = 0
        }
        if yMax <= yMin { yMax = yMin + 1 }
        func px(_ x: Double) -> Double { Double(left) + (xMax > xMin ? (x - xMin) / (xMax - xMin) : 0) * Double(plotWidth) }
        func py(_ y: Double) -> Double {
            let t = logY ? (log10(y) - log10(yMin)) / (log10(yMax) - log10(yMin)) : (y - yMin) / (yMax - yMin)
            return Double(top + plotHeight) - t * Double(plotHeight)
        }
        var svg = header(width: width, height: height, title: title)
        svg += "<rect class=\"frame\" x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
        // Y ticks: each power of ten (and 2 and 5 times it) in range.
        var yTicks: [Double] = []
        if logY {
            var p = yMin
            while p <= yMax * 1.000_001 {
                for m in [1.0, 2.0, 5.0] where p * m <= yMax * 1.000_001 { yTicks.append(p * m) }
                p *= 10
            }
        } else {
            yTicks = (0...4).map { yMin + (yMax - yMin) * Double($0) / 4 }
        }
        for t in yTicks {
            let y = number(py(t), decimals: 2)
            svg += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(left + plotWidth)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(number(t, decimals: 2))</text>\n"
        }
        for t in xTicks {
            let x = number(px(t), decimals: 2)
            svg += "<text x=\"\(x)\" y=\"\(top + plotHeight + 16)\" text-anchor=\"middle\">\(number(t))</text>\n"
        }
        svg += "<text x=\"\(left + plotWidth / 2)\" y=\"\(top + plotHeight + 36)\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        svg += "<text x=\"14\" y=\"\(top + plotHeight / 2)\" transform=\"rotate(-90 14 \(top + plotHeight / 2))\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"
        var legendX = left
        for (k, s) in series.enumerated() {
            let color = colors[k % colors.count]
            let points = s.points.filter { !logY || $0.y > 0 }
                .map { "\(number(px($0.x), decimals: 2)),\(number(py($0.y), decimals: 2))" }.joined(separator: " ")
            svg += "<polyline class=\"series\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
            svg += "<rect x=\"\(legendX)\" y=\"30\" width=\"12\" height=\"12\" fill=\"\(color)\"/>"
            svg += "<text x=\"\(legendX + 16)\" y=\"40\">\(escape(s.name))</text>\n"
            legendX += 24 + 8 * s.name.count
        }
        if !note.isEmpty {
            svg += "<text class=\"note\" x=\"10\" y=\"\(height - 12)\">\(escape(note))</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func header(width: Int, height: Int, title: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
        font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="10" y="18" font-size="14" font-weight="bold">\(escape(title))</text>

        """
    }

    static func floorLog10(_ v: Double) -> Int {
        var k = 0
        var x = v
        while x >= 10 { x /= 10; k += 1 }
        while x < 1 { x *= 10; k -= 1 }
        return k
    }

    static func power10(_ k: Int) -> Double {
        var v = 1.0
        if k >= 0 { for _ in 0..<k { v *= 10 } } else { for _ in 0..<(-k) { v /= 10 } }
        return v
    }
}

/// The rows of a table written by `Benchmarks/peers/run_peers.sh` (its
/// `build/peers-table.md`): each peer run on the full corpus, with MB/s.
enum PeersTable {
    static func rows(_ text: String) -> [(tool: String, mbPerSecond: Double)] {
        var rows: [(String, Double)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmed(" ") }
            // | tool | input | median s | min–max s | MB/s | found | valid | ratio |
            guard cells.count >= 7, cells[2] == "full", let mbs = Double(cells[5]) else { continue }
            let tool = cells[1].without("`")
            if tool.hasPrefix("chipify") || tool.hasPrefix("floor") { continue }
            rows.append((shortened(tool), mbs))
        }
        return rows
    }
}

/// A tool's name short enough for a chart's label column: a long one
/// loses its parenthesized details.
func shortened(_ tool: String, limit: Int = 46) -> String {
    guard tool.count > limit, let paren = tool.firstIndex(of: "(") else { return tool }
    return String(tool[..<paren]).trimmingSpaces()
}

extension String {
    func trimmingSpaces() -> String { self[...].trimmed(" ") }
}

extension Substring {
    /// The text without `set` at either end.
    func trimmed(_ set: Character) -> String {
        var s = self[...]
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}

extension String {
    /// The text without any `c`.
    func without(_ c: Character) -> String { String(filter { $0 != c }) }
}

/// `chipify-bench --svg DIR`: measures the filter on the generated and the
/// real corpus and keystrokes at three field sizes, and draws
/// `DIR/throughput.svg` (with the peers of the given tables) and
/// `DIR/keystroke.svg`. Returns the exit status.
func drawCharts(dir: String, size: Int, samples: Int?, realPath: String, peers: [(corpus: String, path: String)]) -> Int32 {
    guard let real = readFile(realPath), !real.isEmpty else {
        say("chipify-bench: cannot read '\(realPath)'")
        return 1
    }
    var realCorpus: [UInt8] = []
    while realCorpus.count < size { realCorpus += real }
    let corpora: [(name: String, bytes: [UInt8])] = [("generated", generateCorpus(size: size, seed: 1)), ("real", realCorpus)]
    let runs: [(label: String, arguments: [String])] = [
        ("chipify -j 1 --summary", ["-j", "1", "--summary"]), ("chipify -j 1 --format jsonl", ["-j", "1", "--format", "jsonl"]),
        ("chipify -j 2 --summary", ["-j", "2", "--summary"]), ("chipify -j 2 --format jsonl", ["-j", "2", "--format", "jsonl"]),
    ]
    var measured = [[Double?]](repeating: [nil, nil], count: runs.count)
    for (c, corpus) in corpora.enumerated() {
        guard let path = temporaryFile(corpus.bytes) else {
            say("chipify-bench: cannot write a temporary file")
            return 1
        }
        defer { unlink(path) }
        for (k, run) in runs.enumerated() {
            let arguments = run.arguments + [path]
            let result = measure(Scenario(name: run.label, bytes: corpus.bytes.count, warmups: 1, samples: samples ?? 5) {
                runCLI(arguments)
            })
            measured[k][c] = throughput(result)
            say("\(corpus.name.padding(10)) \(report(result, json: false))")
        }
    }
    var bars = runs.enumerated().map { k, run in SVG.Bar(label: run.label, values: measured[k]) }
    // The peers, by tool, from the tables of `run_peers.sh`.
    var peerValues: [(tool: String, values: [Double?])] = []
    for table in peers {
        guard let c = corpora.firstIndex(where: { $0.name == table.corpus }) else {
            say("chipify-bench: --peers names a corpus '\(table.corpus)': use generated or real")
            return 64
        }
        guard let bytes = readFile(table.path) else {
            say("chipify-bench: cannot read '\(table.path)'")
            return 1
        }
        for row in PeersTable.rows(String(decoding: bytes, as: UTF8.self)) {
            if let i = peerValues.firstIndex(where: { $0.tool == row.tool }) {
                peerValues[i].values[c] = row.mbPerSecond
            } else {
                var values: [Double?] = [nil, nil]
                values[c] = row.mbPerSecond
                peerValues.append((row.tool, values))
            }
        }
    }
    bars += peerValues.map { SVG.Bar(label: $0.tool, values: $0.values) }
    let throughputSVG = SVG.barChart(
        title: "Throughput, MB/s (higher is better)", unit: "MB/s", series: corpora.map { "\($0.name) corpus" }, bars: bars,
        note: "chipify: in process, by chipify-bench when drawn; peers: whole processes, from the tables given (their own run).")
    // Keystroke latency at each percentile, by field size.
    var lines: [(name: String, points: [(x: Double, y: Double)])] = []
    for chips in [10, 1_000, 100_000] {
        let (times, _) = keystrokeTimes(chips: chips, samples: 20_000)
        let sorted = times.sorted()
        let points = stride(from: 1.0, through: 99.9, by: 0.5).map { p -> (x: Double, y: Double) in
            let k = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
            return (p, sorted[k] / 1_000)
        }
        lines.append(("\(chips) chips", points))
        say("keystroke/\(chips) median \(formatDouble(Stats(times).median / 1_000, decimals: 2)) µs p99 \(formatDouble(Stats(times).p99 / 1_000, decimals: 2)) µs")
    }
    let keystrokeSVG = SVG.lineChart(
        title: "One keystroke, by field size: latency at each percentile", xLabel: "percentile of keystrokes",
        yLabel: "µs (log scale)", series: lines, xTicks: [1, 25, 50, 75, 90, 99], logY: true,
        note: "Typing addresses key by key into a composer (undo recorded); about one keystroke in 35 completes a chip.")
    for (name, text) in [("throughput.svg", throughputSVG), ("keystroke.svg", keystrokeSVG)] {
        let path = dir + "/" + name
        guard writeFile(path, Array(text.utf8)) else {
            say("chipify-bench: cannot write '\(path)': \(String(cString: strerror(errno)))")
            return 1
        }
        say("wrote \(path)")
    }
    return 0
}

/// Writes `bytes` to a new temporary file; its path, or nil.
func temporaryFile(_ bytes: [UInt8]) -> String? {
    var template = Array("/tmp/chipify-bench-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { return nil }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard writeAll(fd, bytes) else {
        close(fd)
        unlink(path)
        return nil
    }
    close(fd)
    return path
}

/// Writes a whole file; false (errno set) when any write fails.
func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return false }
    let ok = writeAll(fd, bytes)
    return close(fd) == 0 && ok
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// The table `Benchmarks/peers/run_shapes.sh` prints: per shape, chipify's
/// one-core speed over GMime's with `--summary`, with JSON Lines written to
/// a file and (in tables since 0.2.2) with JSON Lines thrown away.
enum ShapesTable {
    struct Row: Equatable {
        var shape: String
        var summaryTimesGMime: Double
        var jsonlTimesGMime: Double
        var jsonlToNullTimesGMime: Double? = nil
    }

    /// The rows of `| shape | --summary MB/s | × GMime | JSON Lines MB/s | × GMime | [to /dev/null, × GMime |] …`.
    static func rows(_ text: String) -> [Row] {
        var rows: [Row] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmed(" ") }
            guard cells.count >= 7,
                  let summary = Double(cells[3].without("×")), let jsonl = Double(cells[5].without("×")) else { continue }
            // Nine columns: the sixth is JSON Lines to /dev/null.
            let toNull = cells.count >= 11 ? Double(cells[6].without("×")) : nil
            rows.append(Row(shape: cells[1], summaryTimesGMime: summary, jsonlTimesGMime: jsonl, jsonlToNullTimesGMime: toNull))
        }
        return rows
    }

    /// The chart of the rows: a group of bars per shape (three when the
    /// table has JSON Lines to /dev/null).
    static func chart(_ rows: [Row]) -> String {
        let toNull = rows.allSatisfy { $0.jsonlToNullTimesGMime != nil }
        return SVG.barChart(
            title: "chipify on one core, times as fast as GMime, by shape of list", unit: "×",
            series: ["--summary", "--format jsonl to a file"] + (toNull ? ["--format jsonl to /dev/null"] : []),
            bars: rows.map {
                SVG.Bar(label: $0.shape, values: [$0.summaryTimesGMime, $0.jsonlTimesGMime] + (toNull ? [$0.jsonlToNullTimesGMime!] : []))
            },
            note: "20 MB of each shape (chipify-bench corpus --shape), whole processes in alternation: Benchmarks/peers/run_shapes.sh.")
    }
}

/// `chipify-bench shapes-chart TABLE OUT`: draws the chart of a table of
/// `run_shapes.sh` into the SVG file OUT. Returns the exit status.
func runShapesChart(_ arguments: ArraySlice<String>) -> Int32 {
    guard arguments.count == 2, let table = arguments.first, let out = arguments.last else {
        say("usage: chipify-bench shapes-chart TABLE OUT.svg")
        return 64
    }
    guard let bytes = readFile(table) else {
        say("chipify-bench: cannot read '\(table)'")
        return 1
    }
    let rows = ShapesTable.rows(String(decoding: bytes, as: UTF8.self))
    guard !rows.isEmpty else {
        say("chipify-bench: '\(table)' holds no row of run_shapes.sh's table")
        return 1
    }
    guard writeFile(out, Array(ShapesTable.chart(rows).utf8)) else {
        say("chipify-bench: cannot write '\(out)': \(String(cString: strerror(errno)))")
        return 1
    }
    say("wrote \(out) (\(rows.count) shapes)")
    return 0
}
