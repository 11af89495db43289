import PurserCore

// Every part of the configuration that holds a secret describes itself with the secret redacted, so printing the
// configuration (or a service that keeps a part of it) at any log level shows no secret.

extension ServerConfiguration: SecretRedacting {
    public static var secretFields: Set<String> { ["sharedSecret"] }
}

extension ServerConfiguration.Database: SecretRedacting {
    public static var secretFields: Set<String> { ["url", "password"] }
}

extension ServerConfiguration.Admin: SecretRedacting {
    public static var secretFields: Set<String> { ["token"] }
}

extension ServerConfiguration.JWT: SecretRedacting {
    public static var secretFields: Set<String> { ["secret"] }
}

extension ServerConfiguration.Metrics: SecretRedacting {
    public static var secretFields: Set<String> { ["token"] }
}

extension ServerConfiguration.Webhooks.Endpoint: SecretRedacting {
    public static var secretFields: Set<String> { ["secrets"] }
}

extension ServerConfiguration.Console.Operator: SecretRedacting {
    public static var secretFields: Set<String> { ["passwordHash"] }
}

extension PasswordHash: SecretRedacting {
    public static var secretFields: Set<String> { ["salt", "hash"] }
}
