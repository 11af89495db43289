import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The networks whose `X-Forwarded-For` Purser believes (`http.trustedProxies`: CIDRs such as `10.0.0.0/8` or
/// `fd00::/8`). Behind a trusted proxy the client is the nearest address in the header that is not itself a trusted
/// proxy; a request from anywhere else is its peer, whatever it claims.
public struct TrustedProxies: Sendable {
    struct Network: Sendable, Hashable {
        var bytes: [UInt8]
        var prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            let whole = prefixLength / 8
            guard address.prefix(whole) == bytes.prefix(whole) else { return false }
            let rest = prefixLength % 8
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return address[whole] & mask == bytes[whole] & mask
        }
    }

    let networks: [Network]

    /// Parses `cidrs` (an address alone is the network of that one address).
    /// - Throws: `ConfigurationError` naming `http.trustedProxies` and the entry that is not a CIDR.
    public init(_ cidrs: [String]) throws(ConfigurationError) {
        var networks: [Network] = []
        for entry in cidrs {
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = parts.first.flatMap(Self.bytes) else {
                throw ConfigurationError("http.trustedProxies: \(entry) is not an IPv4 or IPv6 network (a CIDR)")
            }
            let length = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let length, (0...bytes.count * 8).contains(length) else {
                throw ConfigurationError(
                    "http.trustedProxies: \(entry) has a prefix length outside 0...\(bytes.count * 8)")
            }
            networks.append(Network(bytes: bytes, prefixLength: length))
        }
        self.networks = networks
    }

    /// Whether `address` (textual IPv4 or IPv6) is a trusted proxy.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client of a request that arrived from `peer` carrying `forwardedFor` (`X-Forwarded-For`): the peer, unless
    /// it is a trusted proxy; then the right-most hop of the header that is not a trusted proxy.
    public func client(peer: String, forwardedFor: String?) -> String {
        guard contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.last(where: { !contains($0) && Self.bytes($0) != nil }) ?? peer
    }

    /// An address's bytes: 4 for IPv4, 16 for IPv6; `nil` for anything else.
    static func bytes(_ address: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, address, &buffer) == 1 { return Array(buffer.prefix(4)) }
        if inet_pton(AF_INET6, address, &buffer) == 1 { return buffer }
        return nil
    }
}
