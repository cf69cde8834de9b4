#ifndef SEALITE_ALLOCATION_COUNTER_H
#define SEALITE_ALLOCATION_COUNTER_H

// Counts the heap allocations of the process that links this library: it
// defines malloc, calloc, realloc, the aligned allocations (aligned_alloc,
// memalign, posix_memalign, valloc, pvalloc) and free, which take the place
// of the C library's for every caller in the process (Swift's runtime
// included), and forwards them to glibc's own (__libc_malloc and friends).
// Each count is the calling thread's: another thread's work is not counted.
// Only the sealite-allocations tool links it.

#include <stdint.h>

/// 1 when allocations are counted; 0 in a build under a sanitizer, which
/// replaces malloc itself.
int sealite_allocation_counting_is_available(void);

/// The number of allocations (malloc, calloc, realloc, and the aligned ones)
/// the calling thread made so far.
uint64_t sealite_allocation_count(void);

/// The bytes of the malloc chunks those allocations took, from their requested
/// sizes (glibc's size classes: the request and an 8-byte header, rounded up to
/// 16 bytes, 32 at least); freed chunks are not subtracted.
uint64_t sealite_allocated_chunk_bytes(void);

/// Starts counting the retains and releases of objects made by the code
/// linked into this executable (Sealite's included): atomic operations, each
/// dearer than most instructions. The library defines swift_retain,
/// swift_release and their _n forms, which count and forward to the Swift
/// runtime's. Returns 1, or 0 in a build under a sanitizer.
int sealite_start_counting_reference_operations(void);

/// The number of atomic retains and releases of objects (not of immortal
/// ones, such as the storage of empty arrays) the calling thread made since
/// counting started.
uint64_t sealite_reference_operation_count(void);

#endif
