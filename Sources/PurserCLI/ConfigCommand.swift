import ArgumentParser
import Foundation
import PurserServer

extension Purser {
    /// `purser config`: the configuration as `serve` would read it.
    struct ConfigCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config", abstract: "Check a configuration before serving with it.",
            subcommands: [Check.self])
    }
}

extension Purser.ConfigCommand {
    /// `purser config check`: prints the effective configuration (file, environment and defaults merged) with every
    /// secret redacted, a warning when the file holds secrets its group or others may read, then every problem that
    /// would stop `serve`, and exits 1 when there is one.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective configuration, secrets redacted, and every problem that would stop serve.")

        @Option(help: "The JSON configuration file (as serve --config takes it).") var config: String?

        func run() async throws {
            let settings: ServerConfiguration
            do {
                settings = try await ServerConfiguration.loadForCommand(file: config, flags: [:])
            } catch let error as ConfigurationError {
                FileHandle.standardError.write(Data("problem: \(error.description)\n".utf8))
                throw ExitCode(1)
            }
            print(try settings.effectiveJSON())
            if let config, let warning = ServerConfiguration.exposedSecretsWarning(file: URL(fileURLWithPath: config)) {
                FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
            }
            let problems = settings.problems()
            for problem in problems { FileHandle.standardError.write(Data("problem: \(problem)\n".utf8)) }
            guard problems.isEmpty else { throw ExitCode(1) }
            FileHandle.standardError.write(Data("no problems: serve would start with this configuration\n".utf8))
        }
    }
}
