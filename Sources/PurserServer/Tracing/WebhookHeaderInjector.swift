import Tracing

/// Writes a trace's headers (`traceparent`) into a webhook post's header list.
struct WebhookHeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout [(name: String, value: String)]) {
        headers.removeAll { $0.name.lowercased() == key.lowercased() }
        headers.append((name: key, value: value))
    }
}
