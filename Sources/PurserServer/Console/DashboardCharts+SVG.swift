import Foundation

/// The SVG elements the dashboard's charts are made of, every text escaped.
extension DashboardCharts {
    static func svg(id: String, height: Double, title: String, description: String, _ marks: [String]) -> String {
        """
        <svg id="\(id)" xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 \(Int(width)) \(Int(height))" \
        width="\(Int(width))" height="\(Int(height))" font-family="system-ui, sans-serif" font-size="11" \
        aria-labelledby="\(id)-title \(id)-desc"><title id="\(id)-title">\(escape(title))</title>\
        <desc id="\(id)-desc">\(escape(description))</desc>\(marks.joined())</svg>
        """
    }

    static func rect(x: Double, y: Double, width: Double, height: Double, fill: String, title: String?) -> String {
        let box = String(format: "x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x, y, width, height)
        guard let title else { return "<rect \(box) fill=\"\(fill)\"/>" }
        return "<rect \(box) fill=\"\(fill)\"><title>\(escape(title))</title></rect>"
    }

    static func line(x1: Double, y1: Double, x2: Double, y2: Double) -> String {
        String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%@\"/>", x1, y1, x2, y2, grey)
    }

    static func label(_ text: String, x: Double, y: Double, anchor: String = "start") -> String {
        String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%@\" fill=\"#3a3a3c\">", x, y, anchor)
            + escape(text) + "</text>"
    }

    /// A legend at the top right: a swatch and a word per series, each as wide as its word.
    static func legend(_ series: [(String, String)], y: Double) -> String {
        let widths = series.map { 30 + textWidth($0.0) }
        var x = width - widths.reduce(0, +)
        var marks: [String] = []
        for ((word, color), room) in zip(series, widths) {
            marks.append(rect(x: x, y: y - 8, width: 10, height: 10, fill: color, title: nil))
            marks.append(label(word, x: x + 14, y: y + 1))
            x += room
        }
        return marks.joined()
    }

    /// About how wide `text` is at the charts' 11 px: a CJK character twice a Latin one.
    static func textWidth(_ text: String) -> Double {
        text.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 11 : 6.2) }
    }

    /// The color of a decision's bar: credits green, refusals and revokes red, waiting orange, the rest grey.
    static func color(of event: String) -> String {
        switch event {
        case "credited", "restored", "override": green
        case "rejected", "revoked", "recorded_revoked": red
        case "recorded_unbound": orange
        default: grey
        }
    }

    /// `2026-11-26 14:00` (UTC), or with the minutes.
    static func hourLabel(_ date: Date, minutes: Bool = false) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d UTC", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            minutes ? parts.minute ?? 0 : 0)
    }

    /// `3 h 20 min`, `2 d 4 h`, `45 s`: an age at a glance.
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        if whole >= 86_400 { return "\(whole / 86_400) d \(whole % 86_400 / 3_600) h" }
        if whole >= 3_600 { return "\(whole / 3_600) h \(whole % 3_600 / 60) min" }
        if whole >= 60 { return "\(whole / 60) min" }
        return "\(whole) s"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
