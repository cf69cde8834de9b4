// See include/CAllocationCounter.h. One relaxed atomic increment per
// allocation: the tool measures one thread's work at a time, and the count is
// read before and after it.

#include "CAllocationCounter.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
// A sanitizer replaces malloc itself: nothing is counted (see below).
#define SEALITE_SANITIZED 1
#endif
#endif

#ifdef SEALITE_SANITIZED

int sealite_allocation_counting_is_available(void) { return 0; }

uint64_t sealite_allocation_count(void) { return 0; }

uint64_t sealite_allocated_chunk_bytes(void) { return 0; }

#else

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);

static _Atomic uint64_t allocations = 0;
static _Atomic uint64_t chunkBytes = 0;

/// The size of the chunk glibc's malloc carves for a request of `size` bytes:
/// the request and its 8-byte header, rounded up to 16, 32 at least. Counted
/// from the request, not from malloc_usable_size, which reports a larger chunk
/// whenever malloc hands out a free one too small to split: the count must not
/// depend on the state of the heap.
static void countChunk(size_t size) {
  size_t chunk = (size + 8 + 15) & ~(size_t)15;
  atomic_fetch_add_explicit(&chunkBytes, chunk < 32 ? 32 : chunk, memory_order_relaxed);
}

int sealite_allocation_counting_is_available(void) { return 1; }

uint64_t sealite_allocation_count(void) {
  return atomic_load_explicit(&allocations, memory_order_relaxed);
}

uint64_t sealite_allocated_chunk_bytes(void) {
  return atomic_load_explicit(&chunkBytes, memory_order_relaxed);
}

void *malloc(size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  countChunk(size);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  countChunk(count * size);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  // A realloc of nothing is a malloc; a growth may move the block, which
  // costs as much as an allocation.
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  countChunk(size);
  return __libc_realloc(pointer, size);
}

void free(void *pointer) {
  __libc_free(pointer);
}

#endif
