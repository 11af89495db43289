import Foundation
import PurserStorage

/// The dashboard's pictures: server-rendered SVG with presentation attributes only (no script, no `style`), so the
/// console's Content-Security-Policy stays as it is. Each chart carries a title and a description for screen readers,
/// and every bar or point a `<title>` with its number.
struct DashboardCharts {
    /// The console's words in the page's language (`ConsoleText.table`).
    let text: [String: String]
    let now: Date
    let window: TimeInterval = QueueSamplerService.window

    static let width = 720.0
    static let green = "#34c759", red = "#ff3b30", blue = "#007aff", orange = "#ff9500", grey = "#8e8e93"

    /// Credits (green) and revokes (red) per hour over the window, one pair of bars per hour, the newest on the right.
    func hourly(_ timeline: LedgerTimeline) -> String {
        let hours = Int(window / 3_600)
        let last = Int64(now.timeIntervalSince1970 / 3_600)
        var counts = [(credits: Int, revokes: Int)](repeating: (0, 0), count: hours)
        for hour in timeline.hours {
            let slot = hours - 1 - Int(last - Int64(hour.start.timeIntervalSince1970 / 3_600))
            if counts.indices.contains(slot) { counts[slot] = (hour.credits, hour.revokes) }
        }
        let top = max(counts.map { max($0.credits, $0.revokes) }.max() ?? 0, 1)
        let (height, base, step) = (160.0, 140.0, Self.width / Double(hours))
        var marks: [String] = []
        for (slot, count) in counts.enumerated() {
            let x = Double(slot) * step
            let at = Self.hourLabel(now.addingTimeInterval(-Double(hours - 1 - slot) * 3_600))
            for (offset, value, color, word) in [
                (0.1, count.credits, Self.green, text["credits"] ?? ""),
                (0.5, count.revokes, Self.red, text["revokes"] ?? ""),
            ] where value > 0 {
                let h = max(1, Double(value) / Double(top) * (base - 12))
                marks.append(
                    Self.rect(
                        x: x + step * offset, y: base - h, width: step * 0.4, height: h, fill: color,
                        title: "\(at): \(value) \(word)"))
            }
        }
        marks.append(Self.line(x1: 0, y1: base, x2: Self.width, y2: base))
        marks.append(Self.label("\(top)", x: 2, y: 10))
        marks.append(Self.label("−\(hours) h", x: 2, y: base + 14))
        marks.append(Self.label(text["now"] ?? "now", x: Self.width - 2, y: base + 14, anchor: "end"))
        marks.append(Self.legend([(text["credits"] ?? "", Self.green), (text["revokes"] ?? "", Self.red)], y: 10))
        let total = counts.reduce(into: (0, 0)) {
            $0.0 += $1.credits
            $0.1 += $1.revokes
        }
        return Self.svg(
            id: "chart-hourly", height: height, title: text["chartHourly"] ?? "",
            description: "\(total.0) \(text["credits"] ?? ""), \(total.1) \(text["revokes"] ?? "")", marks)
    }

    /// The decisions' mix over the window: one bar per audited decision, the most frequent first.
    func decisions(_ timeline: LedgerTimeline) -> String {
        let rows = timeline.decisions.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        let top = max(rows.first?.value ?? 0, 1)
        var marks: [String] = []
        for (index, (event, count)) in rows.enumerated() {
            let y = Double(index) * 22 + 4
            let word = text["decision." + event] ?? event
            let width = max(1, Double(count) / Double(top) * (Self.width - 260))
            marks.append(Self.label(word, x: 0, y: y + 13))
            marks.append(
                Self.rect(
                    x: 180, y: y, width: width, height: 16, fill: Self.color(of: event), title: "\(word): \(count)"))
            marks.append(Self.label("\(count)", x: 186 + width, y: y + 13))
        }
        if rows.isEmpty { marks.append(Self.label("—", x: 0, y: 16)) }
        return Self.svg(
            id: "chart-decisions", height: max(24, Double(rows.count) * 22 + 8), title: text["chartDecisions"] ?? "",
            description: rows.map { "\(text["decision." + $0.key] ?? $0.key) \($0.value)" }.joined(separator: ", "),
            marks)
    }

    /// The webhook backlog (blue) and the unbound queue (orange) as the sampler recorded them over the window.
    func queues(_ samples: [QueueSample]) -> String {
        let (base, start) = (140.0, now.addingTimeInterval(-window))
        let top = max(samples.map { max($0.webhookBacklog, $0.unbound) }.max() ?? 0, 1)
        func x(_ at: Date) -> Double { min(max(0, at.timeIntervalSince(start)) / window * Self.width, Self.width - 3) }
        func y(_ value: Int) -> Double { base - Double(value) / Double(top) * (base - 12) }
        var marks = [Self.line(x1: 0, y1: base, x2: Self.width, y2: base)]
        for (path, color, word) in [
            (\QueueSample.webhookBacklog, Self.blue, text["webhookBacklog"] ?? ""),
            (\QueueSample.unbound, Self.orange, text["unbound"] ?? ""),
        ] {
            let points = samples.map { String(format: "%.1f,%.1f", x($0.at), y($0[keyPath: path])) }
            if points.count > 1 {
                marks.append(
                    "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" "
                        + "stroke-width=\"2\"/>")
            }
            for sample in samples {
                marks.append(
                    "<circle cx=\"\(String(format: "%.1f", x(sample.at)))\" "
                        + "cy=\"\(String(format: "%.1f", y(sample[keyPath: path])))\" r=\"2\" fill=\"\(color)\">"
                        + "<title>\(Self.escape("\(Self.hourLabel(sample.at, minutes: true)): \(sample[keyPath: path]) \(word)"))"
                        + "</title></circle>")
            }
        }
        marks.append(Self.label("\(top)", x: 2, y: 10))
        marks.append(Self.label("−\(Int(window / 3_600)) h", x: 2, y: base + 14))
        marks.append(Self.label(text["now"] ?? "now", x: Self.width - 2, y: base + 14, anchor: "end"))
        marks.append(
            Self.legend([(text["webhookBacklog"] ?? "", Self.blue), (text["unbound"] ?? "", Self.orange)], y: 10))
        let latest = samples.last.map { "\($0.webhookBacklog) / \($0.unbound)" } ?? "—"
        marks.append(Self.label("\(text["latestSample"] ?? "") \(latest)", x: 40, y: 10))
        return Self.svg(
            id: "chart-queues", height: 160, title: text["chartQueues"] ?? "",
            description: "\(samples.count) \(text["samples"] ?? ""), \(latest)", marks)
    }

    /// The oldest unbound transaction's age against the alert's threshold: green below it, red at or past it.
    func unboundAge(oldest: Date?, threshold: TimeInterval) -> String {
        let age = oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0
        let scale = (Self.width - 40) / 1.5  // the bar spans up to one and a half thresholds
        let width = min(age / threshold, 1.5) * scale
        let color = age >= threshold ? Self.red : Self.green
        let words = "\(Self.duration(age)) / \(Self.duration(threshold))"
        var marks = [
            Self.rect(x: 0, y: 8, width: 1.5 * scale, height: 20, fill: "#e5e5ea", title: nil),
            Self.rect(x: 0, y: 8, width: max(width, oldest == nil ? 0 : 1), height: 20, fill: color, title: words),
            Self.line(x1: scale, y1: 2, x2: scale, y2: 34),
            Self.label(text["alertThreshold"] ?? "", x: scale + 4, y: 46),
        ]
        marks.append(Self.label(oldest == nil ? (text["queueEmpty"] ?? "") : words, x: 0, y: 46))
        return Self.svg(
            id: "chart-unbound-age", height: 52, title: text["chartUnboundAge"] ?? "", description: words, marks)
    }
}
