#ifndef STATESTORE_SQLITE_SHIM_H
#define STATESTORE_SQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro over a function-pointer cast, which Swift cannot import.
static inline sqlite3_destructor_type statestore_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call: a connection that refuses a file after
// SQLite opened its WAL closes without emptying that WAL into the file (or deleting it).
static inline int statestore_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
