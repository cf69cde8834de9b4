#ifndef SEALITE_CSQLCIPHER_SHIM_H
#define SEALITE_CSQLCIPHER_SHIM_H

// SQLCipher declares sqlite3_key / sqlite3_rekey only when SQLITE_HAS_CODEC is set.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlite3.h>

#endif
