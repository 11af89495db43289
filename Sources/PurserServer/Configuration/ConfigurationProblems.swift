import AppStoreVerification
import Configuration
import PurserCore
import Synchronization

/// An access reporter that keeps what could not be read: a provider's error (a value of the wrong type) or a failed
/// conversion (a string that is not one of an enumeration's values). swift-configuration's readers with a default
/// report these and return the default; `ServerConfiguration.read` keeps every one as a problem of the reading.
/// The messages name the key and its source, never a value.

final class ConfigurationProblems: AccessReporter {
    /// Readable names of the providers, by `providerName`: "the command line", "the environment", a file's path.
    private let sources: [String: String]
    private let problems = Mutex<[String]>([])
    private let read = Mutex<Set<String>>([])

    init(sources: [String: String]) {
        self.sources = sources
    }

    /// Every problem reported, in the order the keys were read.
    var all: [String] { problems.withLock { $0 } }

    /// Every key read so far, by any provider or none.
    var readKeys: Set<String> { read.withLock { $0 } }

    func report(_ event: AccessEvent) {
        let key = event.metadata.key.description
        _ = read.withLock { $0.insert(key) }
        var problem: String?
        for result in event.providerResults {
            if case .failure(let error) = result.result {
                problem = "configuration key \(key) from \(source(result.providerName)): \(error)"
                break
            }
        }
        if problem == nil, let conversionError = event.conversionError {
            let answered = event.providerResults.first { (try? $0.result.get().value) != nil }
            problem = "configuration key \(key) from \(source(answered?.providerName)): \(conversionError)"
            if let valid = Self.validValues[key] { problem? += "; valid values: \(valid.joined(separator: ", "))" }
        }
        if let problem { problems.withLock { if !$0.contains(problem) { $0.append(problem) } } }
    }

    /// The values of the keys that take one of a fixed set, for the message when a value is none of them.
    static let validValues: [String: [String]] = [
        "appStore": ServerConfiguration.AppStoreMode.allCases.map(\.rawValue),
        "auth.mode": ServerConfiguration.Auth.Mode.allCases.map(\.rawValue),
        "environments": AppStoreEnvironment.allCases.map(\.rawValue),
        "appStoreServerAPI.environment": AppStoreEnvironment.allCases.map(\.rawValue),
        "receipts.verification": ServerConfiguration.ReceiptVerification.allCases.map(\.rawValue),
        "consumption.version": ConsumptionResponder.Version.allCases.map(\.rawValue),
        "log.format": LogFormat.allCases.map(\.rawValue),
    ]

    private func source(_ providerName: String?) -> String {
        providerName.map { sources[$0] ?? $0 } ?? "the configuration"
    }
}
