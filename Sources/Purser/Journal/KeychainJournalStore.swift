#if canImport(Security)
    import Foundation
    import Security

    /// The journal as one generic-password item in the Keychain, which survives uninstalling the app, so purchases
    /// made before a reinstall still find their orders.
    public struct KeychainJournalStore: JournalStore {
        /// The Keychain item's service.
        public let service: String
        /// The Keychain item's account.
        public let account: String

        /// A store in the generic-password item `service` / `account`.
        public init(service: String = "purser.journal", account: String = "default") {
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        /// The entries in the Keychain item; none when it does not exist yet.
        public func load() throws(JournalStoreError) -> [JournalEntry] {
            var search = query
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            guard status == errSecSuccess, let data = result as? Data else {
                throw JournalStoreError(code: "journal_unreadable", message: "Keychain read failed: OSStatus \(status)")
            }
            do {
                return try JournalEntry.decoded(from: data)
            } catch {
                throw JournalStoreError(code: "journal_unreadable", message: "Keychain journal is not valid: \(error)")
            }
        }

        /// Replaces the item's entries.
        public func save(_ entries: [JournalEntry]) throws(JournalStoreError) {
            guard let data = try? JournalEntry.encoded(entries) else {
                throw JournalStoreError(code: "journal_unwritable", message: "cannot encode the journal")
            }
            try save(entries, encoded: data)
        }

        /// Writes `data`, the entries' stored form, to the item.
        public func save(_ entries: [JournalEntry], encoded data: Data) throws(JournalStoreError) {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                status = SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw JournalStoreError(
                    code: "journal_unwritable", message: "Keychain write failed: OSStatus \(status)")
            }
        }
    }
#endif
