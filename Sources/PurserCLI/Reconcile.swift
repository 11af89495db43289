import ArgumentParser
import Foundation
import PurserServer

extension Purser {
    /// `purser reconcile`: one reconciliation run with the App Store Server API, with a summary.
    struct Reconcile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Credit what devices and notifications missed, from Apple's Notification and Transaction History.",
            discussion: "Idempotent and resumable; then tells Apple what Purser owes it (Finish Transaction, Set App "
                + "Account Token). With the simulator, the server of --config must be running. "
                + "One reconciliation runs at a time across replicas and this command (the ledger's lease): when a "
                + "replica is reconciling, this waits for it, up to --wait seconds.")

        @OptionGroup var options: SupportCommandOptions
        @Flag(help: "Print the summary as JSON.") var json = false
        @Option(help: "How long to wait for a reconciliation another replica is running (seconds).") var wait = 120

        func run() async throws {
            let summary = try await options.withServer(label: "purser.reconcile") { assembly in
                guard let reconciler = assembly.reconciler else {
                    throw ValidationError("reconciliation needs appStoreServerAPI credentials in the configuration")
                }
                let lease = assembly.reconciliationLease(holder: LeasedWork.holderName("reconcile"))
                let ran = try await lease.runWhenFree(
                    within: .seconds(wait),
                    waiting: {
                        FileHandle.standardError.write(
                            Data("reconcile: another replica is reconciling; waiting\n".utf8))
                    },
                    {
                        try await reconciler.run { line in
                            FileHandle.standardError.write(Data("reconcile: \(line)\n".utf8))
                        }
                    })
                guard let summary = ran else {
                    throw ValidationError(
                        "another replica has been reconciling for \(wait) s (the ledger's reconciliation lease); "
                            + "try again later")
                }
                // What Purser owes Apple after the run (finishing what it credited, owners' tokens).
                if let followUps = assembly.appleFollowUps {
                    let finishing = try await followUps.run()
                    FileHandle.standardError.write(Data("reconcile: finishing at Apple: \(finishing)\n".utf8))
                }
                return summary
            }
            if json {
                print(String(decoding: try JSONEncoder().encode(summary), as: UTF8.self))
            } else {
                print("reconciled: \(summary)")
            }
        }
    }
}
