import Crypto
import Foundation

/// A console session as a signed cookie: `<operator>.<generation>.<expiry>.<id>.<HMAC-SHA256>`, keyed from the admin
/// token, so nothing in it can be changed unnoticed. The generation is the operator's in the ledger when they signed
/// in (`t` for a sign-in with the admin token): every request compares it with the ledger's, so disabling an
/// operator or changing their password (which bumps it) ends their sessions on every replica at once. The id is
/// random, one per sign-in: signing out records it as ended in the ledger (`LedgerStore.endConsoleSession`), and
/// every request checks it, so a copy of the cookie is refused on every replica from then on. The CSRF token of each
/// form is an HMAC of the session too: a page of another origin can neither read nor make it.
struct ConsoleSession: Sendable, Hashable {
    static let cookieName = "purser_console"
    let operatorName: String
    /// The operator's generation at sign-in; `nil` for a session of the admin token (an admin, not in the ledger).
    let generation: Int64?
    let expires: Date
    /// This sign-in's random id (16 bytes, base64url), which signing out ends.
    let id: String

    init(operatorName: String, generation: Int64?, expires: Date, id: String = Self.newID()) {
        self.operatorName = operatorName
        self.generation = generation
        self.expires = expires
        self.id = id
    }

    /// A new session id: 128 random bits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Keys.encode(Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// Signs and checks sessions and CSRF tokens with one key derived from the admin token.
    struct Keys: Sendable {
        let key: SymmetricKey

        init(adminToken: String) {
            key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Data(adminToken.utf8)),
                info: Data("purser console session v3".utf8), outputByteCount: 32)
        }

        func cookieValue(for session: ConsoleSession) -> String {
            let body =
                "\(Self.encode(Data(session.operatorName.utf8))).\(session.generation.map(String.init) ?? "t")."
                + "\(Int(session.expires.timeIntervalSince1970)).\(session.id)"
            return body + "." + mac(body)
        }

        /// The session in a cookie value, when it is signed by this key and not expired at `now`.
        func session(fromCookie value: String, now: Date) -> ConsoleSession? {
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 5, ConstantTime.equal(mac(parts.dropLast().joined(separator: ".")), String(parts[4])),
                let expiry = Int(parts[2]), parts[1] == "t" || Int64(parts[1]) != nil,
                (1...64).contains(parts[3].count),
                let name = Self.decode(parts[0]).flatMap({ String(data: $0, encoding: .utf8) })
            else { return nil }
            let expires = Date(timeIntervalSince1970: Double(expiry))
            return expires > now
                ? ConsoleSession(
                    operatorName: name, generation: Int64(parts[1]), expires: expires, id: String(parts[3]))
                : nil
        }

        /// The CSRF token every form of this session carries; in a studio, of one app (`app`), so a form drawn for
        /// one app and posted after the browser switched to another is refused rather than applied to the other.
        func csrfToken(forCookie value: String, app: String? = nil) -> String {
            mac("csrf|" + (app.map { "\($0)|" } ?? "") + value)
        }

        private func mac(_ text: String) -> String {
            Self.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
        }

        static func encode(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }

        static func decode(_ text: Substring) -> Data? {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: base64)
        }
    }
}
