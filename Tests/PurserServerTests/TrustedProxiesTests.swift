import PurserServer
import Testing

/// `http.trustedProxies`: CIDRs parsed strictly, and the client behind them found as proxies report it.
@Suite struct TrustedProxiesTests {
    @Test func refusesWhatIsNotANetwork() {
        for entry in ["10.0.0.0/33", "nonsense", "10.0.0/8", "::1/129", "10.0.0.0/-1", "10.0.0.0/"] {
            #expect(throws: ConfigurationError.self, "\(entry)") { try TrustedProxies([entry]) }
        }
    }

    @Test func findsTheClientBehindTrustedHops() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "fd00::/8", "192.168.1.1"])
        #expect(proxies.contains("10.200.3.4") && proxies.contains("fd12::1") && proxies.contains("192.168.1.1"))
        #expect(!proxies.contains("11.0.0.1") && !proxies.contains("192.168.1.2") && !proxies.contains("fe80::1"))
        // From a trusted proxy: the right-most hop that is not a proxy (a client may prepend anything it likes).
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: "1.2.3.4, 203.0.113.9, 10.1.1.1") == "203.0.113.9")
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: nil) == "10.0.0.1")
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: "garbage") == "10.0.0.1")
        // From anyone else the header is not believed.
        #expect(proxies.client(peer: "198.51.100.1", forwardedFor: "203.0.113.9") == "198.51.100.1")
    }
}
