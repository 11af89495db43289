/// Every user's balance of every currency, stored (migration 18 of both stores): a row per user and currency that
/// the database itself keeps equal to the sum of the user's grants and wallet entries, so that a read costs the same
/// however long the user's history is. Before it, each read summed the whole history (on SQLite, on the one writer,
/// before every spend), and the cost of a purchase grew with every purchase its buyer had made.
///
/// The rows hold `SplitSum`'s two parts (`high`: the amounts' high 32 bits, sign-extended; `low`: their low 32 bits)
/// rather than the total, so that they never overflow while they add, and a balance out of range still reads as
/// `AmountError`, as the sum did. Triggers on `grants` and `wallet_entries` add each inserted row's parts and take a
/// deleted row's back, so every writer (this release's, the previous one's during a rolling deploy, a hand-written
/// repair) keeps them; `ledger check` finds a row that differs from the history (`balance_row_differs`).
enum LedgerBalances {
    /// The rows from the history: one per user and currency that has grants or wallet entries.
    static let fill = """
        INSERT INTO balances (user_id, currency, high, low)
        SELECT user_id, currency, \(SplitSum.sums("amount").high), \(SplitSum.sums("amount").low) FROM (
            SELECT user_id, currency, amount FROM grants
            UNION ALL SELECT user_id, currency, amount FROM wallet_entries) AS e
        GROUP BY user_id, currency
        """

    /// A new row's parts, and a deleted row's (`SplitSum.parts`).
    private static let (added, taken) = (SplitSum.parts("NEW.amount"), SplitSum.parts("OLD.amount"))

    /// The table, in either store's integer type.
    static func table(named name: String = "balances", integer: String) -> String {
        """
        CREATE TABLE \(name) (
            user_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            high \(integer) NOT NULL,
            low \(integer) NOT NULL,
            PRIMARY KEY (user_id, currency)
        )
        """
    }

    /// Migration 18 of SQLite: the table, its rows, and a trigger per table and change.
    static let sqliteMigration: [String] = [table(integer: "INTEGER"), fill] + sqliteTriggers

    /// Migration 20 of SQLite: the same table `WITHOUT ROWID`, its rows kept in the primary key's own B-tree. A rowid
    /// table keeps them twice over, in the table and in the key's index, and a settlement or spend changes a row found
    /// by user: one page less at each commit for every user it touches (the performance guide's "What a settlement
    /// writes"). The triggers name the table, so they are dropped while it is replaced and made again.
    static let sqliteClusteredMigration: [String] =
        ["grants", "wallet_entries"].flatMap {
            ["DROP TRIGGER \($0)_add_to_balance", "DROP TRIGGER \($0)_take_from_balance"]
        }
        + [
            table(named: "balances_by_user", integer: "INTEGER") + " WITHOUT ROWID",
            "INSERT INTO balances_by_user (user_id, currency, high, low) SELECT user_id, currency, high, low FROM balances",
            "DROP TABLE balances",
            "ALTER TABLE balances_by_user RENAME TO balances",
        ] + sqliteTriggers

    /// SQLite's triggers: one per table and change.
    private static let sqliteTriggers: [String] =
        ["grants", "wallet_entries"].flatMap { source in
            [
                """
                CREATE TRIGGER \(source)_add_to_balance AFTER INSERT ON \(source) BEGIN
                    INSERT INTO balances (user_id, currency, high, low)
                    VALUES (NEW.user_id, NEW.currency, \(added.high), \(added.low))
                    ON CONFLICT (user_id, currency) DO UPDATE
                    SET high = high + excluded.high, low = low + excluded.low;
                END
                """,
                """
                CREATE TRIGGER \(source)_take_from_balance AFTER DELETE ON \(source) BEGIN
                    UPDATE balances SET high = high - (\(taken.high)), low = low - (\(taken.low))
                    WHERE user_id = OLD.user_id AND currency = OLD.currency;
                END
                """,
            ]
        }

    /// Migration 18 of PostgreSQL: the table, its rows, one trigger function, and its triggers.
    static let postgresMigration: [String] =
        [
            table(integer: "BIGINT"), fill,
            """
            CREATE FUNCTION purser_follow_balance() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO balances (user_id, currency, high, low)
                    VALUES (NEW.user_id, NEW.currency, \(added.high), \(added.low))
                    ON CONFLICT (user_id, currency) DO UPDATE
                    SET high = balances.high + EXCLUDED.high, low = balances.low + EXCLUDED.low;
                ELSE
                    UPDATE balances SET high = high - (\(taken.high)), low = low - (\(taken.low))
                    WHERE user_id = OLD.user_id AND currency = OLD.currency;
                END IF;
                RETURN NULL;
            END
            $$
            """,
        ]
        + ["grants", "wallet_entries"].map { source in
            """
            CREATE TRIGGER \(source)_follow_balance AFTER INSERT OR DELETE ON \(source)
            FOR EACH ROW EXECUTE FUNCTION purser_follow_balance()
            """
        }
}
