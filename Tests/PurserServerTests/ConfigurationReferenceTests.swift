import Foundation
import PurserServer
import Testing

/// The server guide's configuration reference (`PurserServer.docc/Configuration.md`) lists exactly the keys
/// `ServerConfiguration.init(reader:)` reads: a key added in code without a row, or a row for a key the code no
/// longer reads, fails here.
@Suite struct ConfigurationReferenceTests {
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/PurserServer/PurserServer.docc/Configuration.md")

    /// The keys in the first column of the reference's table. A name starting with `.` continues the parent of the
    /// last full name, in its row or a row above: `appStoreServerAPI.issuerId`, `.keyId` names
    /// `appStoreServerAPI.keyId`.
    static func documentedKeys(in markdown: String) -> Set<String> {
        var keys: Set<String> = []
        var parent = ""
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.dropFirst(2).prefix { $0 != "|" }
            for match in firstCell.matches(of: /`([^`]+)`/) {
                let name = String(match.1)
                if name.hasPrefix(".") {
                    keys.insert(parent + name)
                } else {
                    keys.insert(name)
                    parent = name.split(separator: ".").dropLast().joined(separator: ".")
                }
            }
        }
        return keys
    }

    @Test func theReferenceListsExactlyTheKeysTheServerReads() throws {
        let read = Set(ServerConfiguration.keys)
        let documented = Self.documentedKeys(in: try String(contentsOf: Self.reference, encoding: .utf8))
        #expect(read.count > 50, "the server reads \(read.count) keys")
        #expect(
            read.subtracting(documented).isEmpty,
            "read but not in the reference: \(read.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(read).isEmpty,
            "in the reference but never read: \(documented.subtracting(read).sorted())")
    }

    @Test func theParserReadsContinuationsAndArrays() {
        let table = """
            | key | default |
            | --- | --- |
            | `a.b`, `.c` | x |
            | `w.endpoints[].url`, `.secret` | none |
            | `.ordered` | `false` |
            """
        #expect(
            Self.documentedKeys(in: table) == [
                "a.b", "a.c", "w.endpoints[].url", "w.endpoints[].secret", "w.endpoints[].ordered",
            ])
    }
}
