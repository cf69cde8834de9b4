#ifndef SEALITE_ALLOCATION_COUNTER_H
#define SEALITE_ALLOCATION_COUNTER_H

// Counts the heap allocations of the process that links this library: it
// defines malloc, calloc, realloc and free, which take the place of the C
// library's for every caller in the process (Swift's runtime included), and
// forwards them to glibc's own (__libc_malloc and friends). Only the
// sealite-allocations tool links it.

#include <stdint.h>

/// 1 when allocations are counted; 0 in a build under a sanitizer, which
/// replaces malloc itself.
int sealite_allocation_counting_is_available(void);

/// The number of allocations (malloc, calloc, and realloc of a new block) so far.
uint64_t sealite_allocation_count(void);

/// The bytes of the malloc chunks those allocations took, from their requested
/// sizes (glibc's size classes: the request and an 8-byte header, rounded up to
/// 16 bytes, 32 at least); freed chunks are not subtracted.
uint64_t sealite_allocated_chunk_bytes(void);

#endif
