import Configuration
import Foundation

extension ServerConfiguration {
    /// What `purser serve` logs and how (`--log-level` stays a flag of its own).
    public struct Log: Sendable, Encodable {
        /// `text` (swift-log's lines, the default) or `json` (one JSON object per line), on standard error.
        public var format: LogFormat = .text
        public init() {}
    }

    /// The log format these settings choose (`log.format` from the flags, the environment or `file`), read on its own
    /// before anything else, so that `serve` bootstraps logging before its first line (the configuration's own reading
    /// logs at debug level). A value that cannot be read, or a file that cannot, is `text` here: the full reading
    /// (`resolve(file:environment:flags:logger:)`) then reports it with every other problem.
    public static func logFormat(
        file: URL?, environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [AbsoluteConfigKey: ConfigContent] = [:]
    ) async -> LogFormat {
        var providers: [any ConfigProvider] = [
            InMemoryProvider(values: flags.mapValues { ConfigValue($0, isSecret: false) }),
            environmentProvider(environment),
        ]
        if let file, let provider = try? await fileProvider(file) { providers.append(provider) }
        return ConfigReader(providers: providers).string(forKey: "log.format", as: LogFormat.self, default: .text)
    }
}

extension ServerConfiguration.Log {
    /// `format` (string, default `"text"`: `text` or `json`), scoped to `log`.
    public init(reader: ConfigReader) {
        self.init()
        format = reader.string(forKey: "format", as: LogFormat.self, default: format)
    }
}
