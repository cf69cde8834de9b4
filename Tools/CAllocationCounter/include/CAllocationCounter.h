#ifndef SEALITE_ALLOCATION_COUNTER_H
#define SEALITE_ALLOCATION_COUNTER_H

// Counts the heap allocations of the process that links this library: it
// defines malloc, calloc, realloc, the aligned allocations (aligned_alloc,
// memalign, posix_memalign, valloc, pvalloc) and free, which take the place
// of the C library's for every caller in the process (Swift's runtime
// included), and forwards them to glibc's own (__libc_malloc and friends).
// Each count is the calling thread's: another thread's work is not counted.
// It also defines malloc_usable_size, which reports for every block the size
// that its request made, not the larger chunk malloc may have handed out
// (see ChunkSlack.c). Only the sealite-allocations tool links it.

#include <stddef.h>
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

/// For the check of malloc_usable_size: frees a block whose chunk is 16
/// bytes larger than the one an exact split gives for `request` bytes, so
/// that malloc may hand it whole to the next such request (glibc does not
/// split off 16 bytes), and returns the block's address (NULL under a
/// sanitizer).
void *sealite_free_block_with_slack(size_t request);

/// The size of the chunk glibc handed out for the block `pointer` (0 under a
/// sanitizer).
size_t sealite_chunk_size(void *pointer);

/// The chunk glibc carves for `request` bytes when it splits a free chunk
/// exactly: the request and its 8-byte header, rounded up to 16, 32 at least.
size_t sealite_exact_chunk_size(size_t request);

#endif
