import Configuration
import Foundation

extension ServerConfiguration {
    /// OpenTelemetry tracing: with `otlp.endpoint` set, `purser serve` exports a span for every request and its
    /// parts (JWS verification, ledger settlement, each call to Apple, each webhook delivery attempt) over OTLP/HTTP.
    /// Off by default. One process serves a whole studio, so the app is an attribute of each request's span.
    public struct Tracing: Sendable, Encodable {
        /// Where spans go (`otlp.endpoint`): an OTLP/HTTP (protobuf) collector, `http://collector:4318`; a URL
        /// without a path gets OTLP's traces path, `/v1/traces`. `nil`: no tracing.
        public struct OTLP: Sendable, Encodable {
            public var endpoint: String?
        }

        public var otlp = OTLP()
        /// The share of new traces kept, 0 to 1 (parent-based: a request whose `traceparent` says it was sampled is
        /// kept, one that says it was not is dropped, whatever this says).
        public var sampleRatio: Double = 1
        /// The resource's `service.name`.
        public var serviceName = "purser"
        /// The resource's `deployment.environment.name` (`production`, `staging`); `nil`: not set.
        public var environment: String?

        public init() {}

        /// Whether spans are exported.
        public var enabled: Bool { otlp.endpoint != nil }

        /// The URL spans are posted to: `otlp.endpoint`, with `/v1/traces` when it names no path.
        public var tracesURL: String? {
            guard let otlpEndpoint = otlp.endpoint else { return nil }
            guard let url = URL(string: otlpEndpoint), url.path.isEmpty || url.path == "/" else { return otlpEndpoint }
            return otlpEndpoint.hasSuffix("/") ? otlpEndpoint + "v1/traces" : otlpEndpoint + "/v1/traces"
        }

        /// `otlp.endpoint` must be an http(s) URL, `sampleRatio` from 0 to 1, `serviceName` not empty.
        public func check() throws(ConfigurationError) {
            if let otlpEndpoint = otlp.endpoint {
                let url = URL(string: otlpEndpoint)
                guard url?.scheme == "http" || url?.scheme == "https", url?.host != nil else {
                    throw ConfigurationError(
                        "tracing.otlp.endpoint must be an http:// or https:// URL, not \(otlpEndpoint)")
                }
            }
            guard (0...1).contains(sampleRatio) else {
                throw ConfigurationError("tracing.sampleRatio must be from 0 to 1, not \(sampleRatio)")
            }
            guard !serviceName.isEmpty else { throw ConfigurationError("tracing.serviceName must not be empty") }
        }
    }
}

extension ServerConfiguration.Tracing {
    /// `otlp.endpoint`, `sampleRatio`, `serviceName` and `environment`, scoped to `tracing`.
    public init(reader: ConfigReader) {
        self.init()
        otlp.endpoint = reader.string(forKey: "otlp.endpoint")
        sampleRatio = reader.double(forKey: "sampleRatio", default: sampleRatio)
        serviceName = reader.string(forKey: "serviceName", default: serviceName)
        environment = reader.string(forKey: "environment")
    }
}
