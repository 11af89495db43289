import Logging
import Synchronization

/// How `purser serve` writes its log on standard error (`log.format`): `text`, swift-log's own lines, for a person, or
/// `json`, one JSON object per line (`JSONLogHandler`), for a machine that collects logs.
public enum LogFormat: String, Sendable, CaseIterable, Encodable {
    /// swift-log's `StreamLogHandler` lines: `TIME LEVEL LABEL: key=value … [SOURCE] MESSAGE`, the default.
    case text
    /// One JSON object per line, with `time`, `level`, `message`, `label` and the metadata (`JSONLogHandler`).
    case json

    /// A handler for a logger labelled `label` that writes in this format to standard error, adding what
    /// `metadataProvider` supplies (a tracer's `trace_id` and `span_id`) to every entry.
    public func handler(label: String, metadataProvider: Logger.MetadataProvider?) -> any LogHandler {
        switch self {
        case .text: StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        case .json: JSONLogHandler(label: label, metadataProvider: metadataProvider)
        }
    }

    /// Bootstraps swift-log with this format's handler (`handler(label:metadataProvider:)`), `metadataProvider` as the
    /// process's. swift-log takes one bootstrap per process: only the first call does anything, later ones are
    /// ignored, so `serve` calls this before it makes its first logger.
    public func bootstrap(metadataProvider: Logger.MetadataProvider? = nil) {
        let first = Self.bootstrapped.withLock { chosen in
            defer { chosen = chosen ?? self }
            return chosen == nil
        }
        guard first else { return }
        LoggingSystem.bootstrap(
            { label, provider in handler(label: label, metadataProvider: provider) }, metadataProvider: metadataProvider
        )
    }

    /// The format this process bootstrapped swift-log with (`bootstrap(metadataProvider:)`); `nil` before that.
    public static var current: LogFormat? { bootstrapped.withLock { $0 } }

    private static let bootstrapped = Mutex<LogFormat?>(nil)
}
