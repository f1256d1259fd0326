#include <sqlite3.h>

/// Leaves the write-ahead log in place when the last connection to a database closes, instead of
/// copying it back and deleting it (sqlite3_db_config is variadic, which Swift cannot call).
static inline int skb_sqlite3_keep_log_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
