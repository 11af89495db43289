import Foundation
import PurserCore
import PurserServer

extension ChaosServer {
    /// Writes the catalog and one configuration file per replica in `directory` (and a `logs` folder), as a user
    /// would: port 0, development authentication, the chaos bundle, the simulator at `simulator`, the game backend's
    /// webhook endpoint (`webhooks`, an object of the file's `webhooks` key), and the ledger (SQLite in `ledger/`,
    /// or `setup.databaseURL`). Returns the settings the harness reads the ledger with.
    static func writeConfigurations(_ setup: ReplicaSetup, directory: URL, simulator: URL, webhooks: [String: Any])
        throws -> ServerConfiguration
    {
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let products = Dictionary(
            uniqueKeysWithValues: catalog.products.values.map { product in
                (
                    product.id,
                    [
                        "type": product.type.rawValue,
                        "grants": Dictionary(
                            uniqueKeysWithValues: product.grants.sorted.map { ($0.currency, $0.amount) }),
                    ] as [String: Any]
                )
            })
        try write(["products": products], to: directory.appendingPathComponent("catalog.json"))
        var settings = ServerConfiguration()
        for index in 1...setup.count {
            var file: [String: Any] = [
                "host": "127.0.0.1", "port": 0, "bundleId": bundleID, "environments": ["Sandbox", "Production"],
                "catalogFile": "catalog.json", "appStore": "simulator", "simulator": ["url": simulator.absoluteString],
                "verifyReceiptTimeoutSeconds": 2, "auth": ["mode": "development"],
                "reconciliation": ["intervalSeconds": setup.reconcileEvery], "webhooks": webhooks,
                "wallet": ["clientSpend": true],
                "admin": ["token": adminToken],
                // No load balancer takes a replica out: a stop closes the listener at once, as before the drain.
                "http": ["drainSeconds": 0],
                "log": ["format": setup.logFormat.rawValue],
                // SQLite: one replica, its ledger kept across restarts; PostgreSQL: each replica its own files.
                "dataDirectory": setup.databaseURL == nil ? "ledger" : "replica-\(index)",
            ]
            if let url = setup.databaseURL { file["database"] = ["url": url] }
            try write(file, to: directory.appendingPathComponent("replica-\(index).json"))
        }
        settings.dataDirectory = directory.appendingPathComponent("ledger").path
        settings.database.url = setup.databaseURL
        return settings
    }

    private static func write(_ object: [String: Any], to file: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: file, options: .atomic)
    }

    /// One reconciliation, as support staff run it: `purser reconcile --config FILE --json` against the replicas'
    /// ledger and the simulator. Returns its summary.
    static func reconcile(_ executable: URL, configuration: URL) async throws -> String {
        let output = try await ChildCommand.run(executable, ["reconcile", "--config", configuration.path, "--json"])
        guard output.status == 0,
            let summary = try? JSONDecoder().decode(Reconciler.Summary.self, from: Data(output.standardOutput.utf8))
        else {
            throw ChaosError(
                .setupFailed, "purser reconcile exited \(output.status): \(output.standardError.suffix(500))")
        }
        return summary.description
    }
}
