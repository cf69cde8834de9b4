#ifndef SEALITE_CSQLCIPHER_SHIM_H
#define SEALITE_CSQLCIPHER_SHIM_H

// SQLCipher declares sqlite3_key / sqlite3_rekey only when SQLITE_HAS_CODEC is set.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlite3.h>

// sqlite3_config is variadic, and Swift imports no variadic C function.

/// The error log callback SQLite calls with each error and warning it logs.
typedef void (*sealite_log_callback)(void *context, int code, const char *message);

/// Installs (or, with NULL, removes) SQLite's error log callback:
/// sqlite3_config(SQLITE_CONFIG_LOG, …). SQLite accepts it only before it is
/// initialized (before the first connection opens), or at any time from 3.42.
static inline int sealite_config_log(sealite_log_callback callback, void *context) {
  return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

#endif
