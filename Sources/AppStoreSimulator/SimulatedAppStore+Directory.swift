import Foundation

extension SimulatedAppStore {
    /// The simulator kept in `directory` (`DATA/appstore-sim` for `purser serve` and `purser appstore-sim`): its
    /// certificate authorities in `ca/` (the JWS chain and the RSA receipt chain, each made on first start), its
    /// purchases in `transactions.jsonl`, so transaction ids never repeat and its roots stay trusted across restarts.
    /// With a `catalog` it sells only those products.
    public static func persistent(
        in directory: URL, bundleID: String, appAppleID: Int64?, catalog: StoreKitConfiguration? = nil,
        productTypes: [String: String] = [:], now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> SimulatedAppStore {
        var configuration = SimulatedAppStore.Configuration(
            defaultBundleID: bundleID, appAppleID: appAppleID,
            journalFile: directory.appendingPathComponent("transactions.jsonl"), catalog: catalog)
        configuration.productTypes = productTypes
        let authority = try SimulatorCertificateAuthority.loadOrCreate(
            in: directory.appendingPathComponent("ca"), now: now())
        let receipts = try ReceiptCertificateAuthority.loadOrCreate(
            in: directory.appendingPathComponent("ca"), now: now())
        return try SimulatedAppStore(
            signer: JWSSigner(authority: authority), receiptAuthority: receipts,
            configuration: configuration, now: now)
    }
}
