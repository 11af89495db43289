import ArgumentParser
import PurserServer

/// `--app`: which app of a studio's configuration (`apps`) a command works on, its ledger among them.
struct AppOption: ParsableArguments {
    @Option(help: "The app (its bundle id) of a studio's configuration with apps (default: the first app).")
    var app: String?

    /// `configuration`'s settings for that app (`ServerConfiguration.settings(forApp:)`).
    func settings(_ configuration: ServerConfiguration) throws -> ServerConfiguration {
        try configuration.settings(forApp: app)
    }

    /// That app of a resolved configuration (`ResolvedConfiguration.app(_:)`).
    func resolved(_ configuration: ResolvedConfiguration) throws -> ResolvedApp {
        try configuration.app(app)
    }
}
