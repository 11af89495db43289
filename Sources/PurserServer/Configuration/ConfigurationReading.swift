/// What reading a configuration found (`ServerConfiguration.read`): the settings, with its default in place of each
/// value that could not be read, and every problem of reading them. `purser config check` prints the settings and
/// then resolves them exactly as `ServerConfiguration.resolve(file:environment:flags:logger:)` does for `serve`.
package struct ConfigurationReading: Sendable {
    /// The settings read: the command line over the environment over the file over the defaults.
    package let configuration: ServerConfiguration
    /// Each key that could not be read (unknown, or a value of the wrong type), with its source.
    package let problems: [String]

    /// The settings resolved (`ServerConfiguration.resolve(catalogs:)`).
    /// - Throws: `ConfigurationError` listing the problems of reading, then every problem of the settings' values.
    package func resolve() throws(ConfigurationError) -> ResolvedConfiguration {
        try configuration.resolve(ServerConfiguration.Resolution(after: problems))
    }
}
