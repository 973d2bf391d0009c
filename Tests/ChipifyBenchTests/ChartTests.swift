import Testing
@testable import chipify_bench

/// The charts of `chipify-bench --svg`: bars in proportion to the values,
/// every value shown, text escaped, lines ordered by their points.
@Suite("Benchmark charts")
struct ChartTests {
    /// The values of one attribute of every element with `class`.
    func attribute(_ name: String, ofClass cls: String, in svg: String) -> [String] {
        svg.split(separator: "<").filter { $0.contains("class=\"\(cls)\"") }.compactMap { element in
            // The text after ` name="` up to the next quote.
            let key = Array(" \(name)=\"")
            let chars = Array(element)
            guard chars.count >= key.count else { return nil }
            for start in 0...(chars.count - key.count) where Array(chars[start..<(start + key.count)]) == key {
                return String(chars[(start + key.count)...].prefix { $0 != "\"" })
            }
            return nil
        }
    }

    @Test func barsAreInProportionAndEveryValueIsWritten() {
        let svg = SVG.barChart(title: "T & <U>", unit: "MB/s", series: ["a", "b"], bars: [
            SVG.Bar(label: "one", values: [10, 40]), SVG.Bar(label: "GMime <C>", values: [20, nil]),
        ])
        let widths = attribute("width", ofClass: "bar", in: svg).compactMap(Double.init)
        #expect(widths.count == 3)
        #expect(widths.max() == 330)  // the largest fills the plot
        #expect(abs(widths[0] / widths[1] - 0.25) < 1e-6)
        #expect(abs(widths[2] / widths[1] - 0.5) < 1e-6)
        #expect(svg.contains(">40 MB/s<") && svg.contains(">10 MB/s<") && svg.contains(">20 MB/s<"))
        #expect(svg.contains("class=\"missing\""))
        #expect(svg.contains("T &amp; &lt;U&gt;") && svg.contains("GMime &lt;C&gt;"))
        #expect(!svg.contains("<U>") && !svg.contains("<C>"))
        #expect(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>\n"))
    }

    @Test func linesRiseWithTheirValuesOnALogScale() throws {
        let svg = SVG.lineChart(
            title: "k", xLabel: "x", yLabel: "y",
            series: [("fast", [(1, 1), (50, 2), (99, 10)]), ("slow", [(1, 10), (50, 20), (99, 1000)])],
            xTicks: [1, 50, 99], logY: true)
        let lines = attribute("points", ofClass: "series", in: svg)
        #expect(lines.count == 2)
        let points = try lines.map { line in
            try line.split(separator: " ").map { pair -> (Double, Double) in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                try #require(xy.count == 2)
                return (xy[0], xy[1])
            }
        }
        // x grows left to right; a larger y is higher (a smaller pixel y).
        for line in points {
            #expect(line[0].0 < line[1].0 && line[1].0 < line[2].0)
            #expect(line[0].1 > line[1].1 && line[1].1 > line[2].1)
        }
        // On a log scale 1 → 10 spans what 10 → 100 does: `fast` at 10 and
        // `slow` at 10 are at the same height, and 1000 is the top.
        #expect(abs(points[0][2].1 - points[1][0].1) < 1e-6)
        #expect(abs(points[1][2].1 - 56) < 1e-6)
        #expect(svg.contains(">1000<") && svg.contains(">1<"))
    }

    @Test func peersComeFromTheTablesOfRunPeers() {
        let table = """
            Corpus: x
            | tool | input | median s | min–max s | MB/s | addresses found | valid | chipify MB/s ÷ tool MB/s |
            |---|---|--:|--:|--:|--:|--:|--:|
            | chipify -j 1 --summary (one core) | full | 0.309 | 0.279–0.343 | 70.5 | 567520 | 567480 | 1.00× |
            | floor_scan (C, read + count `\\n` `,`) | full | 0.007 | 0.007–0.010 | 3013.6 | — | — | 0.02× |
            | GMime 3.2.13 `internet_address_list_parse` | full | 1.233 | 0.914–1.254 | 17.7 | 567480 | 567480 | 3.99× |
            | `email.utils.getaddresses` (Python 3.11.2, getaddresses strict=True) | full | 13.0 | 11–13 | 1.5 | 1 | 1 | 24× |
            | `email.headerregistry`, To: (Python 3.11.2) | slice, 2.0 MB | 4.620 | 4.213–5.179 | 0.4 | 1 | 1 | 80× |
            """
        let rows = PeersTable.rows(table)
        #expect(rows.map(\.tool) == ["GMime 3.2.13 internet_address_list_parse", "email.utils.getaddresses"])
        #expect(rows.map(\.mbPerSecond) == [17.7, 1.5])
    }
}
