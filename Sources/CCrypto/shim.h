// OpenSSL's libcrypto, for PBKDF2: Sealite derives a passphrase's key once per
// pool, the way SQLCipher does, and keys every further connection with it.
#include <openssl/evp.h>
