#ifndef SEALITE_CLIBSECRET_SHIM_H
#define SEALITE_CLIBSECRET_SHIM_H

// libsecret's variadic functions cannot be called from Swift; SealiteKeyring uses the
// GHashTable ("...v") variants and the SecretService / SecretItem API instead.
#include <libsecret/secret.h>

#endif
