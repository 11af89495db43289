import Foundation
import Purser
import Testing

/// A trace id and a span id, as W3C's examples write them.
private let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
private let span = "00f067aa0ba902b7"

/// W3C Trace Context's `traceparent`, as the SDK writes and reads it.
@Suite struct TraceContextTests {
    @Test(arguments: [
        "00-\(trace)-\(span)-01",
        "00-\(trace)-\(span)-00",
        "00-\(trace)-\(span)-ff",
        // A later version is read as version 00 is, and may go on after a dash.
        "01-\(trace)-\(span)-01",
        "cc-\(trace)-\(span)-01-what-comes-later",
        "fe-\(trace)-\(span)-01",
        "00-00000000000000000000000000000001-0000000000000001-01",
    ])
    func aValidTraceparentIsRead(_ value: String) throws {
        let context = try #require(TraceContext(traceparent: value))
        #expect(value.contains(context.traceID) && value.contains(context.spanID))
        #expect(context.traceID.count == 32 && context.spanID.count == 16)
    }

    @Test func theFieldsAreWhatTheHeaderSays() throws {
        let context = try #require(TraceContext(traceparent: "00-\(trace)-\(span)-01"))
        #expect(context.traceID == trace && context.spanID == span && context.flags == 1 && context.sampled)
        #expect(context.traceparent == "00-\(trace)-\(span)-01" && "\(context)" == context.traceparent)
        let unsampled = try #require(TraceContext(traceparent: "00-\(trace)-\(span)-02"))
        #expect(!unsampled.sampled && unsampled.flags == 2 && unsampled.traceparent.hasSuffix("-02"))
        // A later version's context is written in the version the SDK speaks.
        #expect(TraceContext(traceparent: "01-\(trace)-\(span)-01-x")?.traceparent.hasPrefix("00-") == true)
    }

    @Test(arguments: [
        "",
        "00",
        // Version ff is invalid, and a version is two lowercase hexadecimal digits.
        "ff-\(trace)-\(span)-01",
        "0-\(trace)-\(span)-01",
        "0A-\(trace)-\(span)-01",
        "g0-\(trace)-\(span)-01",
        // All-zero ids.
        "00-00000000000000000000000000000000-\(span)-01",
        "00-\(trace)-0000000000000000-01",
        // Uppercase or non-hexadecimal digits.
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-\(span)-01",
        "00-\(trace)-00F067AA0BA902B7-01",
        "00-\(trace)-\(span)-0A",
        "00-4bf92f3577b34da6a3ce929d0e0e473z-\(span)-01",
        "00-\(trace)-\(span)-0g",
        // Wrong lengths.
        "00-\(trace.dropLast())-\(span)-01",
        "00-\(trace)0-\(span)-01",
        "00-\(trace)-\(span.dropLast())-01",
        "00-\(trace)-\(span)0-01",
        "00-\(trace)-\(span)-1",
        "00-\(trace)-\(span)-011",
        // Version 00 has exactly four fields; a later version goes on only after a dash.
        "00-\(trace)-\(span)-01-",
        "00-\(trace)-\(span)-01-extra",
        "01-\(trace)-\(span)-01x",
        // Separators, and spaces around the value.
        "00_\(trace)-\(span)-01",
        "00-\(trace)_\(span)-01",
        "00-\(trace)-\(span)_01",
        " 00-\(trace)-\(span)-01",
        "00-\(trace)-\(span)-01 ",
        // A multi-byte character where a digit goes.
        "00-4bf92f3577b34da6a3ce929d0e0e473é-\(span)-01",
    ])
    func anInvalidTraceparentIsRefused(_ value: String) {
        #expect(TraceContext(traceparent: value) == nil, "\(value)")
    }

    @Test func idsAreCheckedAsTheHeaderChecksThem() {
        #expect(TraceContext(traceID: trace, spanID: span) != nil)
        #expect(TraceContext(traceID: String(repeating: "0", count: 32), spanID: span) == nil)
        #expect(TraceContext(traceID: trace, spanID: String(repeating: "0", count: 16)) == nil)
        #expect(TraceContext(traceID: trace.uppercased(), spanID: span) == nil)
        #expect(TraceContext(traceID: span, spanID: trace) == nil)
        #expect(TraceContext.isTraceID(trace) && !TraceContext.isTraceID(span))
    }

    @Test func newTracesAndSpansAreRandomValidAndSampled() throws {
        let traces = (0..<200).map { _ in TraceContext.newTrace() }
        #expect(Set(traces.map(\.traceID)).count == 200 && Set(traces.map(\.spanID)).count == 200)
        for context in traces {
            #expect(context.sampled && context.flags == 1)
            #expect(TraceContext(traceparent: context.traceparent) == context, "\(context)")
            #expect(context.traceparent.count == 55 && context.traceparent.hasPrefix("00-"))
        }
        let child = TraceContext(newSpanIn: trace)
        #expect(child.traceID == trace && child.spanID != TraceContext(newSpanIn: trace).spanID)
        // Without a valid trace id, a new trace.
        #expect(TraceContext.isTraceID(TraceContext(newSpanIn: nil).traceID))
        #expect(TraceContext(newSpanIn: "not a trace").traceID != "not a trace")
        #expect(TraceContext(newSpanIn: String(repeating: "0", count: 32)).traceID != String(repeating: "0", count: 32))
    }
}
