/// The trace links' table and statements, standard SQL both stores run (bound values are `?` here; PostgreSQL's
/// store interpolates them). A link ties a transaction to the trace of the request that first settled it (a W3C
/// `traceparent`), so support finds the purchase's trace and a webhook about it joins that trace. Observability
/// only: nothing about money reads it.
enum TraceLinkSQL {
    /// Migration 19: one row per traced transaction, the first trace kept; retention prunes old ones by
    /// `recorded_at`.
    static let migration = [
        """
        CREATE TABLE trace_links (
            transaction_id TEXT PRIMARY KEY,
            trace_parent TEXT NOT NULL,
            recorded_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX trace_links_recorded ON trace_links (recorded_at)",
    ]

    /// Keeps the first link of a transaction: a later settlement of it (a repeat, a refund) does not replace it.
    static let insert = """
        INSERT INTO trace_links (transaction_id, trace_parent, recorded_at) VALUES (?, ?, ?)
        ON CONFLICT (transaction_id) DO NOTHING
        """

    static let select = "SELECT trace_parent FROM trace_links WHERE transaction_id = ?"
}
