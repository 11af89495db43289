import PostgresNIO

extension StorageError {
    /// Classifies a failure met while talking to PostgreSQL. What the server refused (a constraint, a bad statement)
    /// is `queryFailed`; a value that does not decode is `corrupt`; everything that means the server cannot be reached
    /// or the session was lost (refused, reset, terminated, shut down, pool closed, no connection in time, too many
    /// connections, the database gone) is `unavailable`, so nothing was decided and the caller may retry. The
    /// `underlying` text keeps the error's code, SQLSTATE and server message, never the query or bound values.
    init(postgres error: any Error) {
        switch error {
        case let error as StorageError:
            self = error
        case let error as PSQLError:
            let summary = "PSQLError \(error.code) \(error.sqlState ?? "-") \(error.serverMessage ?? "")"
            if error.code == .server {
                let lost = error.sqlState.map(PostgresSQLState.meansUnavailable) ?? false
                self.init(lost ? .unavailable : .queryFailed, lost ? "the database is unavailable" : "a query failed")
            } else if PostgresSQLState.clientSideFailures.contains(error.code) {
                self.init(.queryFailed, "a ledger query failed")
            } else {
                self.init(.unavailable, "the database connection failed")
            }
            self.underlying = summary
        case is PostgresDecodingError:
            self.init(.corrupt, "a stored value does not decode")
        default:
            // The pool (shut down, circuit breaker open), NIO (connection refused or reset) or cancellation.
            self.init(.unavailable, "the database cannot be reached", underlying: error)
        }
    }
}

/// The SQLSTATE codes the store tells apart.
enum PostgresSQLState {
    static let uniqueViolation = "23505"

    /// Connection exceptions (class 08), operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03
    /// cannot connect now), insufficient resources (class 53: too many connections, disk full, out of memory),
    /// 3D000 (the database does not exist) and 25006 (read-only transaction: the server is a standby, or a primary
    /// that was demoted; with a multi-host URL the store moves to the one that accepts writes).
    static func meansUnavailable(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53") || state == "3D000"
            || state == readOnlyTransaction
    }

    static let readOnlyTransaction = "25006"

    /// Whether `error` ended the session: a FATAL or PANIC error from the server (terminated, shut down) or the
    /// connection closed under the statement. Anything else leaves the session usable, inside a failed transaction.
    static func sessionLost(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if error.code == .server {
            return ["FATAL", "PANIC"].contains(error.serverInfo?[.severity] ?? "")
        }
        return !clientSideFailures.contains(error.code)
    }

    /// PSQLError codes for failures of the statement itself rather than of the connection.
    static let clientSideFailures: [PSQLError.Code] = [
        .tooManyParameters, .invalidCommandTag, .listenFailed, .unlistenFailed,
    ]
}

extension PSQLError {
    /// The server's SQLSTATE, when the server answered with an error.
    var sqlState: String? { serverInfo?[.sqlState] }
    /// The server's one-line message (no statement, no bound values).
    var serverMessage: String? { serverInfo?[.message] }
}
