import ArgumentParser
import Foundation

/// The contents of FILE, or standard input for `-`: how `verify` and `receipt` take what support staff paste.
func readInput(_ file: String) throws -> Data {
    if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
    return data
}
