import ArgumentParser
import Foundation
import PurserServer

extension Purser {
    /// `purser reconcile`: one reconciliation run with the App Store Server API, with a summary.
    struct Reconcile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Credit what devices and notifications missed, from Apple's Notification and Transaction History.",
            discussion: "Idempotent and resumable. With the simulator, the server of --config must be running.")

        @OptionGroup var options: SupportCommandOptions
        @Flag(help: "Print the summary as JSON.") var json = false

        func run() async throws {
            let summary = try await options.withServer(label: "purser.reconcile") { assembly in
                guard let reconciler = assembly.reconciler else {
                    throw ValidationError("reconciliation needs appStoreServerAPI credentials in the configuration")
                }
                return try await reconciler.run { line in
                    FileHandle.standardError.write(Data("reconcile: \(line)\n".utf8))
                }
            }
            if json {
                print(String(decoding: try JSONEncoder().encode(summary), as: UTF8.self))
            } else {
                print("reconciled: \(summary)")
            }
        }
    }
}
