/// The problems of a configuration found so far, each naming its key or file: every check runs, and what each throws
/// is kept instead of stopping at the first (`ServerConfiguration.resolve`).
struct ProblemList {
    /// One line per problem, in the order the checks ran.
    private(set) var items: [String] = []

    init(_ items: [String] = []) {
        self.items = items
    }

    var isEmpty: Bool { items.isEmpty }

    /// Runs `part`, keeping what it throws as problems, each prefixed with `prefix` (an app's `apps.N (ID): `).
    mutating func check(_ prefix: String = "", _ part: () throws -> Void) {
        _ = value(prefix, part)
    }

    /// What `part` returns, or `nil` when it throws; what it throws is kept as problems, each prefixed with `prefix`.
    mutating func value<T>(_ prefix: String = "", _ part: () throws -> T) -> T? {
        do {
            return try part()
        } catch let error as ConfigurationError {
            items += error.problems.map { prefix + $0 }
        } catch {
            items.append(prefix + "\(error)")
        }
        return nil
    }
}
