import AppStoreSimulator
import Purser
import PurserStorage

/// Broken parts to swap into Purser, so a test can show that the harness notices: a store that forgets
/// de-duplication, an adapter that finishes before the server answered.
public struct ChaosSabotage: Sendable {
    /// Wraps the server's ledger.
    public var store: (@Sendable (any LedgerStore) -> any LedgerStore)?
    /// Wraps each app's StoreKit adapter (a `ForwardingStoreAdapter` implements only what it breaks).
    public var adapter: (@Sendable (any StoreAdapter) -> any StoreAdapter)?

    public init(
        store: (@Sendable (any LedgerStore) -> any LedgerStore)? = nil,
        adapter: (@Sendable (any StoreAdapter) -> any StoreAdapter)? = nil
    ) {
        self.store = store
        self.adapter = adapter
    }
}
