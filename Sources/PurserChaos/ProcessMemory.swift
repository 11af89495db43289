import Foundation

/// A process's memory as Linux reports it in `/proc/PID/status`: resident now (`VmRSS`) and its peak (`VmHWM`), in
/// bytes. Both are 0 where there is no `/proc` (macOS) or the process is gone.
public struct ProcessMemory: Sendable, Hashable {
    public var resident: Int
    public var peakResident: Int

    /// This process.
    public static var current: ProcessMemory { of("self") }

    /// The process `pid`.
    public static func of(pid: Int32) -> ProcessMemory { of(String(pid)) }

    private static func of(_ process: String) -> ProcessMemory {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else {
            return ProcessMemory(resident: 0, peakResident: 0)
        }
        var memory = ProcessMemory(resident: 0, peakResident: 0)
        for line in status.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { memory.resident = kibibytes(line) * 1024 }
            if line.hasPrefix("VmHWM:") { memory.peakResident = kibibytes(line) * 1024 }
        }
        return memory
    }

    /// `VmRSS:     1234 kB` → 1234.
    private static func kibibytes(_ line: Substring) -> Int {
        Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// `bytes` for a person: `812 MB`, `4.3 GB`.
    public static func text(_ bytes: Int) -> String {
        bytes >= 1_000_000_000
            ? String(format: "%.1f GB", Double(bytes) / 1e9) : String(format: "%.0f MB", Double(bytes) / 1e6)
    }
}
