import PurserCore

// MARK: The wallet, read and followed

extension PurchaseCoordinator {
    /// The signed-in user's wallet from the server (`GET /v1/wallet`): balances, what holds keep back, what can be
    /// spent, and the non-consumables the server credited. Always a request; its answer also goes to
    /// `walletUpdates`.
    public func wallet() async throws(PurserAPIError) -> WalletResponse {
        guard let session else {
            throw PurserAPIError(kind: .unauthenticated, code: "not_signed_in", message: "sign in first")
        }
        walletReads += 1
        let read = walletReads
        let wallet = try await api.wallet(as: session)
        // An answer to an earlier read that arrives after a later one's is older: it is not published.
        if read > walletPublished, self.session?.userID == session.userID, alive {
            walletPublished = read
            walletSink.send(wallet)
        }
        return wallet
    }

    /// Something changed the signed-in user's wallet (a credit, a refund, a spend): while anyone follows
    /// `walletUpdates`, the wallet is read again in a task of its own and published; while nobody does, the last
    /// wallet is forgotten instead, so a later listener never starts with a stale one. Costs no request when nobody
    /// listens (the chaos harness's thousands of devices never do).
    func walletChanged() {
        guard alive, session != nil else { return }
        guard walletSink.hasListeners else {
            walletSink.forget()
            return
        }
        Task { [weak self] in _ = try? await self?.wallet() }
    }
}
