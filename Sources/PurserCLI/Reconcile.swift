import ArgumentParser
import Foundation
import Logging
import PurserServer
import PurserStorage

extension Purser {
    /// `purser reconcile`: one reconciliation run with the App Store Server API, with a summary.
    struct Reconcile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Credit what devices and notifications missed, from Apple's Notification and Transaction History.",
            discussion: "Idempotent and resumable. With the simulator, the server of --config must be running.")

        @OptionGroup var options: SupportCommandOptions
        @Flag(help: "Print the summary as JSON.") var json = false

        func run() async throws {
            var logger = Logger(label: "purser.reconcile")
            logger.logLevel = .warning
            let (_, bootstrap) = try await options.bootstrap(logger: logger)
            let store = bootstrap.dependencies.store
            let summary: Reconciler.Summary
            do {
                guard let reconciler = bootstrap.reconciler else {
                    throw ValidationError("reconciliation needs appStoreServerAPI credentials in the configuration")
                }
                try await store.migrate()
                summary = try await reconciler.run { line in
                    FileHandle.standardError.write(Data("reconcile: \(line)\n".utf8))
                }
                try await store.close()
            } catch {
                try? await store.close()
                throw error
            }
            if json {
                print(String(decoding: try JSONEncoder().encode(summary), as: UTF8.self))
            } else {
                print("reconciled: \(summary)")
            }
        }
    }
}
