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
            // Read, then resolve exactly as serve does (ServerConfiguration.resolve): one list of every problem.
            let reading: ConfigurationReading
            do {
                reading = try await ServerConfiguration.read(file: config.map(URL.init(fileURLWithPath:)))
            } catch let error as ConfigurationError {
                Self.report(error.problems)
                throw ExitCode(1)
            }
            print(try reading.configuration.effectiveJSON())
            if let config, let warning = ServerConfiguration.exposedSecretsWarning(file: URL(fileURLWithPath: config)) {
                FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
            }
            do {
                _ = try reading.resolve()
            } catch {
                Self.report(error.problems)
                throw ExitCode(1)
            }
            FileHandle.standardError.write(Data("no problems: serve would start with this configuration\n".utf8))
        }

        /// Writes each problem on its own line of standard error.
        static func report(_ problems: [String]) {
            for problem in problems { FileHandle.standardError.write(Data("problem: \(problem)\n".utf8)) }
        }
    }
}
