import Foundation
import Synchronization

/// Chains that already passed full verification, keyed by exactly the bytes that name them: a JWS header segment
/// (which encodes `alg` and every certificate byte of `x5c`), or a receipt's certificates and signer identifier. A hit
/// skips re-parsing and re-verifying the chain but still checks the validity window at the signing time. Bounded:
/// the oldest entry goes first.
final class ChainCache<Key: Hashable & Sendable, LeafKey: Sendable>: Sendable {
    struct Entry: Sendable {
        var leafKey: LeafKey
        /// The latest `notBefore` and earliest `notAfter` over the whole chain, root included.
        var validFrom: Date
        var validUntil: Date
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    func entry(for header: Key) -> Entry? {
        state.withLock { $0.entries[header] }
    }

    func insert(_ entry: Entry, for header: Key) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: header) == nil {
                state.order.append(header)
                if state.order.count > capacity {
                    state.entries[state.order.removeFirst()] = nil
                }
            }
        }
    }
}
