import Configuration
import Foundation
import Logging
import Synchronization
import Testing

@testable import PurserServer

/// `log.format` `json`: each entry one valid JSON object on one line, whatever its metadata holds, with what the
/// metadata provider (a tracer's) supplies; and the setting itself, read and refused as every other.
@Suite struct JSONLogHandlerTests {
    /// The lines a handler wrote.
    final class Written: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A logger whose handler writes into a list, and the list.
    func logger(provider: Logger.MetadataProvider? = nil) -> (Logger, Written) {
        let written = Written()
        let logger = Logger(label: "purser.test") { label in
            JSONLogHandler(label: label, metadataProvider: provider, output: { written.append($0) })
        }
        return (logger, written)
    }

    /// `line` parsed: exactly one JSON object, ending in its newline and holding no other.
    func object(_ line: String) throws -> [String: String] {
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1, "\(line)")
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(parsed as? [String: String], "\(line)")
    }

    @Test func writesTheFieldsAndTheWellKnownKeysFirst() throws {
        var (logger, lines) = logger()
        logger[metadataKey: "request_id"] = "r-1"
        logger[metadataKey: "app"] = "com.example.app"
        logger.info("transaction decided", metadata: ["decision": "delivered", "transaction_id": "42", "zeta": "z"])
        let line = try #require(lines.all.first)
        let entry = try object(line)
        #expect(
            entry["level"] == "info" && entry["message"] == "transaction decided" && entry["label"] == "purser.test")
        #expect(entry["request_id"] == "r-1" && entry["decision"] == "delivered" && entry["transaction_id"] == "42")
        #expect(entry["source"] == "PurserServerTests" && entry["zeta"] == "z")
        #expect(try #require(entry["time"]).wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
        let order = ["\"time\"", "\"level\"", "\"message\"", "\"label\"", "\"request_id\"", "\"app\"", "\"decision\""]
        let positions = order.map { line.range(of: $0)?.lowerBound }
        #expect(
            positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted(), "\(line)")
    }

    /// swift-otel's provider supplies `trace_id` and `span_id` from the task's span: the handler must ask it.
    @Test func mergesTheMetadataProvidersValues() throws {
        let provider = Logger.MetadataProvider {
            ["trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "span_id": "00f067aa0ba902b7"]
        }
        var (logger, lines) = logger(provider: provider)
        logger[metadataKey: "span_id"] = "the handler's, overridden by the provider"
        logger.notice("with a span", metadata: ["app": "com.example.app"])
        let entry = try object(try #require(lines.all.first))
        #expect(entry["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(entry["span_id"] == "00f067aa0ba902b7")
        #expect(entry["app"] == "com.example.app" && entry["level"] == "notice")
    }

    /// Quotes, backslashes, every control character, line separators, bytes that were not UTF-8, a key named as a
    /// field: every line still parses, one object, and gives the text back.
    @Test func neverWritesAnInvalidLine() throws {
        let (logger, lines) = logger()
        let controls = String(String.UnicodeScalarView((0..<32).compactMap(Unicode.Scalar.init)))
        let nasty = [
            "\"quoted\" \\ back\\slash", controls + "\u{7F}", "line\u{2028}sep\u{2029}aration", "é 漢字 🎉",
            String(decoding: [0x66, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0x6F], as: UTF8.self), "}\n{\"level\":\"x\"",
        ]
        // A list is written as text mode writes it, its `description`.
        let list: Logger.MetadataValue = ["a", "\"b\""]
        for text in nasty {
            logger.error(
                "\(text)", metadata: [text: "\(text)", "message": "a key named message", "list": list])
        }
        let written = lines.all
        #expect(written.count == nasty.count)
        for (line, text) in zip(written, nasty) {
            let entry = try object(line)
            #expect(entry["message"] == text && entry[text] == text, "\(line)")
            #expect(entry["metadata.message"] == "a key named message" && entry["list"] == list.description, "\(line)")
        }
    }

    @Test func anErrorIsItsMessageAndType() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
        let lines = Written()
        let handler = JSONLogHandler(label: "x", metadataProvider: nil, output: { lines.append($0) })
        var event = LogEvent(
            level: .error, message: "failed", metadata: nil, source: "Test", file: #fileID, function: #function,
            line: #line)
        event.error = Broken()
        handler.log(event: event)
        let entry = try object(try #require(lines.all.last))
        #expect(entry["error.message"] == "it broke" && entry["error.type"]?.hasSuffix("Broken") == true, "\(entry)")
        #expect(entry["source"] == "Test" && entry["message"] == "failed")
    }

    @Test func timeIsRFC3339InUTCWithMilliseconds() {
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 1_700_000_000.1239)) == "2023-11-14T22:13:20.123Z")
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00.500Z")
    }

    /// `log.format` from the file, the environment (`PURSER_LOG_FORMAT`) and the flags; anything else is a
    /// configuration error listing the valid values, and the early reading `serve` bootstraps with says `text`.
    @Test func logFormatIsASettingLikeAnyOther() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-log-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("purser.json")
        try #"{"log": {"format": "json"}}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(try await ServerConfiguration.load(file: nil, environment: [:]).log.format == .text)
        #expect(try await ServerConfiguration.load(file: file, environment: [:]).log.format == .json)
        #expect(await ServerConfiguration.logFormat(file: file, environment: [:]) == .json)
        let text = ["PURSER_LOG_FORMAT": "text"]
        #expect(try await ServerConfiguration.load(file: file, environment: text).log.format == .text)
        #expect(await ServerConfiguration.logFormat(file: file, environment: text) == .text)
        let flag: [AbsoluteConfigKey: ConfigContent] = ["log.format": .string("json")]
        #expect(await ServerConfiguration.logFormat(file: nil, environment: text, flags: flag) == .json)
        let xml = ["PURSER_LOG_FORMAT": "xml"]
        #expect(await ServerConfiguration.logFormat(file: file, environment: xml) == .text)
        do {
            _ = try await ServerConfiguration.load(file: file, environment: xml)
            Issue.record("log.format xml was taken")
        } catch let error as ConfigurationError {
            #expect(error.description.contains("log.format from the environment"), "\(error)")
            #expect(error.description.contains("valid values: text, json"), "\(error)")
        }
    }

    /// A request's id is the one a trusted proxy sends, when it is 1 to 128 visible ASCII characters.
    @Test func aRequestIDIsKeptOnlyFromATrustedProxy() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        func id(_ offered: String?, from peer: String?) -> String {
            RequestIDMiddleware.id(offered: offered, peer: peer, proxies: proxies, generated: "new")
        }
        #expect(id("lb-7f3a", from: "10.1.2.3") == "lb-7f3a")
        #expect(id(String(repeating: "a", count: 128), from: "10.1.2.3") == String(repeating: "a", count: 128))
        #expect(id("lb-7f3a", from: "203.0.113.9") == "new")
        #expect(id("lb-7f3a", from: nil) == "new")
        #expect(id(nil, from: "10.1.2.3") == "new")
        for bad in ["", String(repeating: "a", count: 129), "a b", "one, two", "tab\there", "é", "line\nbreak"] {
            #expect(id(bad, from: "10.1.2.3") == "new", "\(bad)")
        }
    }
}
