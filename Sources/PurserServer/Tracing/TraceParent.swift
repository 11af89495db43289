import Tracing

/// A trace's W3C `traceparent`, written and read by the process's instrument (swift-otel's W3C propagator when
/// `purser serve` traces): how a span's context is kept in the ledger (`LedgerStore.recordTrace`) and taken up again
/// by a later span, such as a webhook delivery's, so the purchase stays one trace.
enum TraceParent {
    /// Whether this process exports spans: with swift-distributed-tracing's no-op tracer nothing is kept.
    static var isTracing: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

    /// `context`'s `traceparent`, or `nil` without tracing.
    static func of(_ context: ServiceContext) -> String? {
        var headers: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &headers, using: DictionaryCarrier())
        return headers["traceparent"]
    }

    /// A context that continues the trace `traceParent` names (a child span's parent).
    static func context(_ traceParent: String) -> ServiceContext {
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(
            ["traceparent": traceParent], into: &context, using: DictionaryCarrier())
        return context
    }

    struct DictionaryCarrier: Injector, Extractor {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key] = value
        }

        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}
