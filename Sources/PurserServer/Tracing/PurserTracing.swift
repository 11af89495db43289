import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Purser's OpenTelemetry tracing: swift-otel's tracer, exporting over OTLP/HTTP, bootstrapped once per process by
/// `purser serve` when `tracing.otlp.endpoint` is set. Without it the process-wide tracer is swift-distributed-tracing's
/// no-op one, and every span Purser starts costs next to nothing.
public enum PurserTracing {
    /// The names of Purser's own spans, in one place (the request's span is named by its route).
    public enum SpanName {
        public static let verifySignature = "purser.verify_signature"
        public static let ledgerSettle = "purser.ledger.settle"
        public static let appStoreRequest = "purser.appstore.request"
        public static let webhookAttempt = "purser.webhook.attempt"
    }

    /// Adds the current span's `trace_id` and `span_id` to every log line written inside it (swift-otel's provider):
    /// nothing without tracing, as no span is recording then. `serve` bootstraps swift-log with it.
    public static var loggingMetadata: Logger.MetadataProvider { OTel.makeLoggingMetadataProvider() }

    /// Bootstraps the process's tracer from `settings` and returns the service that exports its spans, to run in the
    /// server's service group (it flushes what is left when the group stops); `nil` when tracing is off. Logs and
    /// metrics stay Purser's own (swift-log, Prometheus): only traces go to the collector. The `OTEL_*` environment
    /// variables are not read: the settings say everything.
    /// - Throws: what swift-otel throws for a configuration it cannot use.
    public static func bootstrap(_ settings: ServerConfiguration.Tracing, logger: Logger) throws -> (any Service)? {
        guard let url = settings.tracesURL else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.resourceAttributes = settings.environment.map { ["deployment.environment.name": $0] } ?? [:]
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.endpoint = url
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        // swift-otel exports one batch per tick: 4,096 spans every 200 ms at most (some 20,000 a second) from a
        // queue of 16,384, where its defaults (512 every 5 s, from 2,048) dropped most spans of a busy server.
        configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(200)
        configuration.traces.batchSpanProcessor.maxQueueSize = 16_384
        configuration.traces.batchSpanProcessor.maxExportBatchSize = 4_096
        configuration.traces.sampler =
            settings.sampleRatio >= 1
            ? .parentBasedAlwaysOn : .parentBasedTraceIDRatio(ratio: settings.sampleRatio) ?? .parentBasedAlwaysOn
        let service = try OTel.bootstrap(configuration: configuration, environment: [:])
        logger.info(
            "tracing: spans to \(url) as \(settings.serviceName), \(Int(settings.sampleRatio * 100))% of new traces")
        return service
    }
}
