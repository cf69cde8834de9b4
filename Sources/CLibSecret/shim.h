#ifndef SEALITE_CLIBSECRET_SHIM_H
#define SEALITE_CLIBSECRET_SHIM_H

// libsecret's variadic functions cannot be called from Swift; SealiteKeyring uses the
// GHashTable ("...v") variants and the SecretService / SecretItem API instead.
// The D-Bus path calls (secret-paths.h) are what lets a search skip an item another
// program deleted while it ran; libsecret still files them as unstable, although they
// have not changed since libsecret 0.7.
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>

#endif
