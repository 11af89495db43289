import Configuration
import Foundation

extension ServerConfiguration {
    /// Every configuration key `init(reader:)` reads, sorted, an element of an array of objects written with `[]`
    /// (`webhooks.endpoints[].url`). It comes from the same record of reads that finds a file's unknown keys, and the
    /// server guide's configuration reference lists exactly these (a test holds the two together).
    public static var keys: [String] {
        let reads = ConfigurationProblems(sources: [:])
        // One element of each array of objects, so that its keys are read too.
        let oneOfEach = InMemoryProvider(values: [
            "webhooks.endpoints.0.url": ConfigValue(.string("https://game.example.com/purser"), isSecret: false),
            "console.operators.0.name": ConfigValue(.string("li"), isSecret: false),
            "apps.0.bundleId": ConfigValue(.string("com.example.one"), isSecret: false),
            "apps.0.webhooks.endpoints.0.url": ConfigValue(.string("https://one.example.com/purser"), isSecret: false),
        ])
        _ = ServerConfiguration(reader: ConfigReader(provider: oneOfEach, accessReporter: reads))
        let index = /\.[0-9]+\./
        return Set(reads.readKeys.map { $0.replacing(index, with: "[].") }).sorted()
    }
}
