import PurserStorage

/// A configuration with every check done, once: what `ServerConfiguration.resolve(file:environment:flags:logger:)`
/// returns when nothing is wrong, and what `serve` (`PurserStudio.assemble`), `chaos` and `bench` build the server
/// from. `purser config check` runs the same resolution and prints its problems, so the two cannot disagree: a
/// configuration `config check` accepts is one `serve` starts with, and what it refuses `serve` refuses with the
/// same words.
///
/// Resolving reads each app's catalog and checks its webhook endpoints, receipts, consumption answers, Xcode's
/// certificate, Apple's roots and key and its ledger's location; and the studio's apps, console, trusted proxies,
/// HTTP settings, authentication, retention, backups, webhook pacing, database URL and simulator URL. It opens no
/// ledger and calls no one.
public struct ResolvedConfiguration: Sendable {
    /// The settings as read: the command line over the environment over the file over the defaults.
    public let configuration: ServerConfiguration
    /// Every app served (`ServerConfiguration.servedApps`), in order, never empty; the first one's ledger holds the
    /// studio's API keys and console operators.
    public let apps: [ResolvedApp]

    /// The first app: its ledger holds the API keys and the console's operators.
    public var home: ResolvedApp { apps[0] }

    /// The app `bundleId` names (a command's `--app`), or the first app when it is `nil`.
    /// - Throws: `ConfigurationError` naming the apps served, for an app this configuration does not serve.
    public func app(_ bundleId: String?) throws(ConfigurationError) -> ResolvedApp {
        apps[try configuration.servedAppIndex(bundleId)]
    }

    /// What every app of the studio shares, checked once: the console's operators, the trusted proxies and the
    /// authenticator of the app's users.
    struct Studio: Sendable {
        let consoleOperators: [String: (hash: PasswordHash, role: ConsoleRole)]
        let trustedProxies: TrustedProxies
        let authenticator: any Authenticator
    }
}
