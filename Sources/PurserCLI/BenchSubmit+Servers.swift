import AppStoreSimulator
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import PurserCore
import PurserServer
import PurserStorage
import ServiceLifecycle

extension Purser.BenchSubmit {
    /// Runs `body` against `replicas` Purser servers in this process, each built by `PurserAssembly` (as
    /// `purser serve` builds it) with its own ledger store opened from `settings` (so several servers share one
    /// database, as replicas do) and the hosted simulator, each listening on a free loopback port; `body` gets the
    /// ports and the servers' own ledger stores (for their write counts). The servers shut down (and close their
    /// stores) when `body` returns or throws. `observability` (the span exporter) runs beside them and stops last.
    static func withServers<T: Sendable>(
        _ replicas: Int, settings: ServerConfiguration, appStore: SimulatedAppStore, catalog: ProductCatalog,
        logger: Logger, alongside observability: (any Service)? = nil,
        _ body: @escaping @Sendable (_ ports: [Int], _ ledgers: [any LedgerStore]) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var applications: [any Service] = []
        var ledgers: [any LedgerStore] = []
        var loops = 0
        for _ in 0..<replicas {
            let ledger = try await settings.openLedger(logger: logger)
            ledgers.append(ledger)
            let assembly = try PurserAssembly(
                configuration: settings, catalog: catalog, store: ledger,
                appStore: try await .simulator(
                    appStore, serverAPI: SimulatedServerAPI(store: appStore),
                    configuration: settings, placement: .hosted(notifications: .kept)),
                logger: logger)
            let application = assembly.application(onServerRunning: { portContinuation.yield($0) })
            loops = Array(application.eventLoopGroup.makeIterator()).count
            applications.append(application)
        }
        print("server event-loop threads: \(loops) per server (http.threads \(settings.http.threads))")
        let group = ServiceGroup(
            configuration: .init(services: (observability.map { [$0] } ?? []) + applications, logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                defer { portContinuation.finish() }
                try await group.run()
                return nil
            }
            var listening: [Int] = []
            for await port in ports {
                listening.append(port)
                if listening.count == replicas { break }
            }
            guard listening.count == replicas else {
                try await tasks.waitForAll()  // the servers' own error, if they stopped with one
                throw ValidationError("the servers did not start")
            }
            let result: T
            do {
                result = try await body(listening, ledgers)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        }
    }
}
