// The system's SQLite (Debian: libsqlite3-dev; macOS: the SDK's), for the ledger's synchronous SQLite layer.
#include <sqlite3.h>
