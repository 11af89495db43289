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
    /// A studio run's further apps write the store this makes of the first app's ledger instead of their own (no
    /// partition between games).
    public var furtherAppsLedger: (@Sendable (any LedgerStore) -> any LedgerStore)?
    /// Every app's ledger draws its webhook ids from one and the same seed, so the apps' ids repeat one another (as
    /// ids numbered per ledger did).
    public var sharedEventIDs = false

    public init(
        store: (@Sendable (any LedgerStore) -> any LedgerStore)? = nil,
        adapter: (@Sendable (any StoreAdapter) -> any StoreAdapter)? = nil,
        furtherAppsLedger: (@Sendable (any LedgerStore) -> any LedgerStore)? = nil, sharedEventIDs: Bool = false
    ) {
        self.sharedEventIDs = sharedEventIDs
        self.store = store
        self.adapter = adapter
        self.furtherAppsLedger = furtherAppsLedger
    }
}
