import ArgumentParser
import Foundation
import PurserServer

extension Purser {
    /// `purser console`: tools for the support console at `/console`.
    struct ConsoleCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "console", abstract: "Tools for the support console.", subcommands: [HashPassword.self])
    }

    /// `purser console hash-password`: reads a password on standard input (one line) and prints the scrypt hash that
    /// `console.operators[].passwordHash` takes, so the password itself never enters the configuration.
    struct HashPassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash-password",
            abstract: "Print the scrypt hash of a password read from standard input, for console.operators.")

        func run() throws {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("give the password on standard input, e.g. `read -s P; echo \"$P\" | purser …`")
            }
            guard line.count >= 12 else { throw ValidationError("a console password needs at least 12 characters") }
            print(try PasswordHash.make(line).encoded)
        }
    }
}
