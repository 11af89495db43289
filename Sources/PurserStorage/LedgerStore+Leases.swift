import Foundation

/// Leases on units of background work (reconciliation, notification replay, periodic jobs), and how rows will be
/// claimed the same way.
///
/// A lease is one row of the `leases` table: `name` (primary key), `holder`, `expires_at` (UTC milliseconds). Taking
/// it is one conditional upsert, atomic in both stores:
///
///     INSERT INTO leases (name, holder, expires_at) VALUES (:name, :holder, :until)
///     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
///     WHERE leases.holder = excluded.holder OR leases.expires_at <= :now
///     RETURNING holder
///
/// A row comes back when the caller holds the lease afterwards. A holder renews well before `until` (say at a third
/// of the term) and stops the work when a renewal returns false: another replica took over after its lease ran out.
/// Times are the callers' clocks, so replicas' clocks must agree to well within a lease term.
///
/// Rows (the next issue's outbox) are claimed with the same condition on two columns, `claimed_by` and
/// `claimed_until`, and PostgreSQL's `FOR UPDATE SKIP LOCKED`, so replicas take disjoint batches without waiting:
///
///     UPDATE outbox SET claimed_by = :holder, claimed_until = :until
///     WHERE id IN (SELECT id FROM outbox
///                  WHERE delivered_at IS NULL AND (claimed_until IS NULL OR claimed_until <= :now)
///                  ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED)
///     RETURNING id, idempotency_key, topic, payload
///
/// (SQLite has one writer, so the same statement without `FOR UPDATE SKIP LOCKED` is already exclusive.) A row whose
/// worker died is claimable again once `claimed_until` passes; delivery sets `delivered_at` where `claimed_by` is
/// still the worker, and the receiver de-duplicates by `idempotency_key`.
extension LedgerStore {
    /// Stores that keep no leases (test doubles wrapping a real store) refuse; both real stores implement it.
    public func acquireLease(_ name: String, holder: String, until: Date, now: Date) async throws -> Bool {
        throw StorageError(.unsupported, "this ledger store keeps no leases")
    }

    /// Stores that keep no leases (test doubles wrapping a real store) refuse; both real stores implement it.
    public func releaseLease(_ name: String, holder: String) async throws {
        throw StorageError(.unsupported, "this ledger store keeps no leases")
    }
}
