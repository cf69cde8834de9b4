#ifndef SEALITE_CSQLCIPHER_SHIM_H
#define SEALITE_CSQLCIPHER_SHIM_H

// SQLCipher declares sqlite3_key / sqlite3_rekey only when SQLITE_HAS_CODEC is set.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlite3.h>

// sqlite3_config and sqlite3_db_config are variadic, and Swift imports no
// variadic C function.

/// The error log callback SQLite calls with each error and warning it logs.
typedef void (*sealite_log_callback)(void *context, int code, const char *message);

/// Installs (or, with NULL, removes) SQLite's error log callback:
/// sqlite3_config(SQLITE_CONFIG_LOG, …). SQLite accepts it only before it is
/// initialized (before the first connection opens), or at any time from 3.42.
static inline int sealite_config_log(sealite_log_callback callback, void *context) {
  return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

/// Whether double-quoted strings that name no column are taken as string
/// literals (sqlite3_db_config with SQLITE_DBCONFIG_DQS_DML and _DDL, from
/// SQLite 3.29). Older SQLite always takes them: returns SQLITE_OK there.
static inline int sealite_set_double_quoted_string_literals(sqlite3 *db, int enabled) {
#if defined(SQLITE_DBCONFIG_DQS_DML) && defined(SQLITE_DBCONFIG_DQS_DDL)
  int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, enabled, (int *)0);
  if (code != SQLITE_OK) return code;
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, enabled, (int *)0);
#else
  (void)db;
  (void)enabled;
  return SQLITE_OK;
#endif
}

#endif
