// swift-tools-version:6.2
import Foundation
import PackageDescription

/// Strict settings for every Purser target. With `PURSER_WARNINGS_AS_ERRORS=1` (as
/// `scripts/test.sh` builds) every warning in Purser's own targets is an error, except deprecations, which stay
/// warnings so StoreKit 1's deprecation shows as it would on a Mac without failing the build.
let strict: [SwiftSetting] =
    [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
    + (ProcessInfo.processInfo.environment["PURSER_WARNINGS_AS_ERRORS"] == "1"
        ? [.treatAllWarnings(as: .error), .treatWarning("DeprecatedDeclaration", as: .warning)] : [])

extension Target.Dependency {
    /// A package the server, its command and its tests use. Resolved only with the `Server` trait, on by default:
    /// an app that depends on Purser with `traits: []` fetches none of the server's packages (measured: none at all).
    static func server(_ product: String, _ package: String) -> Self {
        .product(name: product, package: package, condition: .when(traits: ["Server"]))
    }

    /// Apple's signatures (swift-crypto, swift-certificates, swift-asn1, jwt-kit): App Store verification, the App
    /// Store simulator and webhook signing. With the `Simulator` trait (which `Server` includes), an app's tests can
    /// use the in-process simulated StoreKit (`PurserStoreKitSimulated`) without the server's packages.
    static func simulator(_ product: String, _ package: String) -> Self {
        .product(name: product, package: package, condition: .when(traits: ["Simulator"]))
    }
}

/// Every Apple platform StoreKit runs on. macOS 15 is the server's floor (the standard library's `Mutex`,
/// swift-configuration). The client SDK's floor is StoreKit's scene-anchored purchase, `Product.purchase(confirmIn:)`
/// (iOS, tvOS and Mac Catalyst 17, visionOS 1: visionOS has no `purchase(options:)`); watchOS 10 ships with iOS 17.
/// StoreKit 1 (watchOS 6.2 and later) and StoreKit 2 (iOS 15 and later) are older than all of these.
let package = Package(
    name: "purser",
    platforms: [.macOS(.v15), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1), .macCatalyst(.v17)],
    products: [
        .executable(name: "purser", targets: ["PurserCLI"]),
        .library(name: "PurserCore", targets: ["PurserCore"]),
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        .library(name: "PurserStorage", targets: ["PurserStorage"]),
        .library(name: "PurserStorageTesting", targets: ["PurserStorageTesting"]),
        .library(name: "PurserServer", targets: ["PurserServer"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .library(name: "AppStoreSimulatorHTTP", targets: ["AppStoreSimulatorHTTP"]),
        .library(name: "Purser", targets: ["Purser"]),
        // StoreKit 2's adapter (what most apps link), and StoreKit 1's for apps that still use the payment queue: a
        // StoreKit 2 app compiles no StoreKit 1 code.
        .library(name: "PurserStoreKit", targets: ["PurserStoreKit"]),
        .library(name: "PurserStoreKit1", targets: ["PurserStoreKit1"]),
        .library(name: "PurserChaos", targets: ["PurserChaos"]),
        .library(name: "PurserWebhooks", targets: ["PurserWebhooks"]),
        // For an app's tests: a StoreKit stand-in that pays a running `purser serve`'s simulator over HTTP; with the
        // `Simulator` trait, also the adapters on an in-process simulated StoreKit.
        .library(name: "PurserTesting", targets: ["PurserTesting"]),
        // For an app's tests, with the `Simulator` trait: the StoreKit adapters on an in-process simulated StoreKit.
        .library(name: "PurserStoreKitSimulated", targets: ["PurserStoreKitSimulated", "StoreKitShim"]),
    ],
    // An app depends on Purser with `traits: []` for the client SDK (`Purser`, `PurserStoreKit`, `PurserTesting`):
    // no package dependency at all. Building this repository enables `Server`, as before.
    traits: [
        .trait(
            name: "Server", description: "The server, the purser command and its tests", enabledTraits: ["Simulator"]),
        .trait(
            name: "Simulator",
            description:
                "Apple's signatures: the in-process App Store simulator and simulated StoreKit, webhook signing"),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // The swift-metrics backend `purser serve` exports at GET /metrics (Prometheus text format).
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Starts child processes (chaos's replicas, the CLI tests' servers) without Foundation's Process.run(), which
        // can crash the parent on Linux (swift-corelibs-foundation#5472).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // Spans for every request, ledger write, call to Apple and webhook delivery (`tracing.otlp.endpoint`): the
        // tracing API, and swift-otel's OTLP/HTTP exporter (its gRPC exporter is off: no gRPC package is built).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // The support console's server-rendered pages.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        // NIOHTTPTypes: the request parts the server's read-deadline handler sees (Hummingbird uses it already).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        // JSON files (a default trait) and AccessLogger (the Logging trait) for `purser serve` settings.
        .package(
            url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "Logging"]),
        // `swift package generate-documentation`: scripts/test.sh builds each DocC catalog with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // Domain types and rules; Foundation only.
        .target(name: "PurserCore", swiftSettings: strict),
        // For game backends: verify a Purser webhook (Standard Webhooks) and decode its event. Foundation and
        // swift-crypto only; the server writes and signs its events with the same types.
        .target(
            name: "PurserWebhooks", dependencies: [.simulator("Crypto", "swift-crypto")],
            swiftSettings: strict),
        // Trusting Apple: JWS, certificate chains, payload decoding. No NIO, no server framework.
        .target(
            name: "AppStoreVerification",
            dependencies: [
                "PurserCore",
                .simulator("Crypto", "swift-crypto"),
                .simulator("X509", "swift-certificates"),
                .simulator("SwiftASN1", "swift-asn1"),
                .simulator("JWTKit", "jwt-kit"),
            ],
            swiftSettings: strict
        ),
        // The system's SQLite (libsqlite3-dev on Debian and Ubuntu; in the SDK on Apple platforms), which the ledger drives
        // synchronously on its writer's own thread (SQLiteWriter).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The ledger behind one protocol; SQLite is the embedded default, PostgreSQL the one replicas share.
        .target(
            name: "PurserStorage",
            dependencies: [
                "PurserCore", "PurserWebhooks", "CSQLite",
                .server("Crypto", "swift-crypto"),
                .server("NIOPosix", "swift-nio"),
                .server("PostgresNIO", "postgres-nio"),
                .server("NIOSSL", "swift-nio-ssl"),
                .server("ServiceLifecycle", "swift-service-lifecycle"),
                .server("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The conformance suite every ledger store runs (like swift-configuration's ConfigurationTesting).
        .target(
            name: "PurserStorageTesting",
            dependencies: ["PurserCore", "PurserStorage", "PurserWebhooks"],
            swiftSettings: strict
        ),
        // The server, assembled in one place (PurserAssembly): routes, authentication, services, workers.
        .target(
            name: "PurserServer",
            dependencies: [
                "PurserCore", "AppStoreVerification", "PurserStorage", "AppStoreSimulator", "AppStoreSimulatorHTTP",
                "PurserWebhooks",
                .server("X509", "swift-certificates"),
                .server("SwiftASN1", "swift-asn1"),
                .server("Hummingbird", "hummingbird"),
                .server("HummingbirdCore", "hummingbird"),
                .server("HTTPTypes", "swift-http-types"),
                .server("NIOCore", "swift-nio"),
                .server("NIOPosix", "swift-nio"),
                .server("NIOHTTP1", "swift-nio"),
                .server("NIOHTTPTypes", "swift-nio-extras"),
                .server("AsyncHTTPClient", "async-http-client"),
                .server("Crypto", "swift-crypto"),
                .server("_CryptoExtras", "swift-crypto"),
                .server("Logging", "swift-log"),
                .server("Metrics", "swift-metrics"),
                .server("Prometheus", "swift-prometheus"),
                .server("Mustache", "swift-mustache"),
                .server("ServiceLifecycle", "swift-service-lifecycle"),
                .server("JWTKit", "jwt-kit"),
                .server("Configuration", "swift-configuration"),
                .server("Tracing", "swift-distributed-tracing"),
                .server("OTel", "swift-otel"),
            ],
            swiftSettings: strict
        ),
        // A fake App Store with no HTTP in it: certificate authority, signer, store, devices, receipts, the Server
        // API's logic, the notification schedule.
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                "PurserCore", "AppStoreVerification",
                .simulator("Crypto", "swift-crypto"),
                // RSA keys for the receipt-signing chain.
                .simulator("_CryptoExtras", "swift-crypto"),
                .simulator("X509", "swift-certificates"),
                .simulator("SwiftASN1", "swift-asn1"),
                .simulator("JWTKit", "jwt-kit"),
            ],
            swiftSettings: strict
        ),
        // The simulator on HTTP: its control API, Apple's endpoints, the notification sender service.
        .target(
            name: "AppStoreSimulatorHTTP",
            dependencies: [
                "AppStoreSimulator", "AppStoreVerification", "PurserCore",
                .server("Hummingbird", "hummingbird"),
                .server("Crypto", "swift-crypto"),
                .server("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The client SDK core (`import Purser` in an app): journal, coordinator, server client. Foundation, plus
        // Network and the platform's UI framework on Apple platforms for the recovery signals.
        // Its user-facing messages are a String Catalog, shipped as is and read by `MessageCatalog` on every platform.
        .target(
            name: "Purser", dependencies: ["PurserCore"], resources: [.copy("Resources/Localizable.xcstrings")],
            swiftSettings: strict),
        // The StoreKit 2 adapter on Apple's StoreKit: what an app links. Empty where there is no StoreKit.
        .target(name: "PurserStoreKit", dependencies: ["Purser", "PurserCore"], swiftSettings: strict),
        // The StoreKit 1 adapter (deprecated by Apple): a separate module, so a StoreKit 2 app never compiles it.
        .target(name: "PurserStoreKit1", dependencies: ["Purser", "PurserCore"], swiftSettings: strict),
        // For an app's tests: `SimulatorStoreAdapter`, StoreKit played by a running `purser serve`'s App Store
        // simulator over HTTP. Foundation only, like the SDK.
        // With the `Simulator` trait it also re-exports the adapters on the in-process simulated StoreKit.
        .target(
            name: "PurserTesting",
            dependencies: [
                "Purser", "PurserCore",
                .target(name: "PurserStoreKitSimulated", condition: .when(traits: ["Simulator"])),
                .target(name: "StoreKitShim", condition: .when(traits: ["Simulator"])),
                .target(name: "AppStoreSimulator", condition: .when(traits: ["Simulator"])),
            ],
            swiftSettings: strict),
        // The same adapter sources (symbolic links to PurserStoreKit's files) compiled against StoreKitShim on every
        // platform: what the chaos harness, the CLI and the tests drive, so that on a Mac they never reach the real
        // StoreKit. `scripts/check-storekit-interface.sh` compiles the Apple branch against Apple's declarations.
        .target(
            name: "PurserStoreKitSimulated", dependencies: ["Purser", "PurserCore", "StoreKitShim"],
            swiftSettings: strict + [.define("PURSER_STOREKIT_SHIM")]),
        // StoreKit's names for the subset the adapters use, as strict as Apple's declarations, driven by
        // AppStoreSimulator's devices.
        .target(
            name: "StoreKitShim", dependencies: ["AppStoreSimulator", "AppStoreVerification", "PurserCore"],
            swiftSettings: strict),
        // The fault-injection harness: simulated devices, a real server, the invariant check, field baselines.
        .target(
            name: "PurserChaos",
            dependencies: [
                "PurserCore", "AppStoreVerification", "PurserStorage", "PurserServer", "AppStoreSimulator", "Purser",
                "PurserStoreKitSimulated", "PurserWebhooks",
                .server("Hummingbird", "hummingbird"),
                .server("HTTPTypes", "swift-http-types"),
                .server("NIOCore", "swift-nio"),
                .server("NIOHTTP1", "swift-nio"),
                .server("AsyncHTTPClient", "async-http-client"),
                .server("Crypto", "swift-crypto"),
                .server("Logging", "swift-log"),
                .server("ServiceLifecycle", "swift-service-lifecycle"),
                .server("Subprocess", "swift-subprocess"),
                .server("SystemPackage", "swift-system"),
            ],
            swiftSettings: strict
        ),
        // The `purser` command.
        .executableTarget(
            name: "PurserCLI",
            dependencies: [
                "PurserCore", "AppStoreVerification", "PurserStorage", "PurserServer", "AppStoreSimulator",
                "AppStoreSimulatorHTTP", "PurserChaos", "PurserWebhooks",
                .server("ArgumentParser", "swift-argument-parser"),
                .server("Configuration", "swift-configuration"),
                .server("Hummingbird", "hummingbird"),
                .server("HTTPTypes", "swift-http-types"),
                .server("AsyncHTTPClient", "async-http-client"),
                .server("HummingbirdCore", "hummingbird"),
                .server("NIOCore", "swift-nio"),
                .server("NIOHTTP1", "swift-nio"),
                // `purser bench submit`'s own HTTP client (ClientBootstrap).
                .server("NIOPosix", "swift-nio"),
                .server("X509", "swift-certificates"),
                .server("SwiftASN1", "swift-asn1"),
                .server("Crypto", "swift-crypto"),
                // `purser bench receipt` times one raw RSA-2048 verification.
                .server("_CryptoExtras", "swift-crypto"),
                .server("Logging", "swift-log"),
                .server("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "PurserCoreTests", dependencies: ["PurserCore"], swiftSettings: strict),
        .testTarget(
            name: "PurserWebhooksTests",
            dependencies: ["PurserWebhooks", .server("Crypto", "swift-crypto")], swiftSettings: strict),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [
                "AppStoreVerification", "AppStoreSimulator",
                .server("Crypto", "swift-crypto"),
                .server("X509", "swift-certificates"),
                .server("SwiftASN1", "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PurserStorageTests",
            dependencies: [
                "PurserStorage", "PurserStorageTesting", "PurserCore", .server("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Needs a PostgreSQL server: PURSER_TEST_DATABASE_URL (scripts/postgres.sh starts one); skipped without it.
        .testTarget(
            name: "PurserPostgresTests",
            dependencies: [
                "PurserStorage", "PurserStorageTesting", "PurserCore", "PurserServer", "AppStoreSimulator",
                // PostgresPair: a primary and its synchronous standby for the failover tests.
                "PurserChaos",
                .server("Hummingbird", "hummingbird"),
                .server("HummingbirdTesting", "hummingbird"),
                .server("HTTPTypes", "swift-http-types"),
                .server("PostgresNIO", "postgres-nio"),
                .server("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PurserServerTests",
            dependencies: [
                "PurserServer", "AppStoreSimulator", "PurserStorage", "AppStoreVerification", "PurserWebhooks",
                .server("Hummingbird", "hummingbird"),
                .server("HummingbirdTesting", "hummingbird"),
                .server("AsyncHTTPClient", "async-http-client"),
                .server("NIOCore", "swift-nio"),
                .server("NIOPosix", "swift-nio"),
                .server("ServiceLifecycle", "swift-service-lifecycle"),
                .server("NIOHTTP1", "swift-nio"),
                .server("HTTPTypes", "swift-http-types"),
                .server("Crypto", "swift-crypto"),
                .server("_CryptoExtras", "swift-crypto"),
                .server("Configuration", "swift-configuration"),
                .server("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppStoreSimulatorTests",
            dependencies: [
                "AppStoreSimulator", "AppStoreSimulatorHTTP", "AppStoreVerification", "PurserCore",
                .server("Hummingbird", "hummingbird"),
                .server("HummingbirdTesting", "hummingbird"),
                .server("Crypto", "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "PurserTests", dependencies: ["Purser", "PurserCore"], swiftSettings: strict),
        .testTarget(
            name: "PurserStoreKitTests",
            dependencies: [
                "Purser", "PurserStoreKitSimulated", "PurserCore", "PurserChaos", "PurserStorage", "AppStoreSimulator",
                "AppStoreVerification", "StoreKitShim",
                .server("Hummingbird", "hummingbird"),
                .server("HummingbirdTesting", "hummingbird"),
                .server("AsyncHTTPClient", "async-http-client"),
                .server("HTTPTypes", "swift-http-types"),
                .server("NIOCore", "swift-nio"),
                .server("NIOHTTP1", "swift-nio"),
                .server("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PurserChaosTests",
            dependencies: ["PurserChaos", "Purser", "PurserCore", "PurserStorage"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PurserCLITests",
            dependencies: [
                "PurserCLI", "PurserCore", "AppStoreSimulator", "AppStoreVerification", "PurserStorage",
                "PurserWebhooks", "PurserChaos", "Purser", "PurserTesting",
                .server("Hummingbird", "hummingbird"),
                .server("Logging", "swift-log"),
                // ReplicaRestartTests: the chaos harness's replica set, with its HTTP client.
                .server("AsyncHTTPClient", "async-http-client"),
                // PrivilegeMatrixTests: the hash of an expired key's secret, written to the ledger.
                .server("Crypto", "swift-crypto"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
