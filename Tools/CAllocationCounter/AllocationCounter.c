// See include/CAllocationCounter.h. The counts are the calling thread's: the
// tool measures one thread's work at a time, reading the count before and
// after it, and an allocation another thread makes meanwhile (a worker of
// Dispatch, a library's own thread) is not that work's.

// dlsym(RTLD_NEXT, …): the runtime functions this file takes the place of.
#define _GNU_SOURCE
#include "CAllocationCounter.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#include "ChunkSlack.h"
#include "Sanitizers.h"

#if SEALITE_SANITIZED

int sealite_allocation_counting_is_available(void) { return 0; }

uint64_t sealite_allocation_count(void) { return 0; }

uint64_t sealite_allocated_chunk_bytes(void) { return 0; }

int sealite_start_counting_reference_operations(void) { return 0; }

uint64_t sealite_reference_operation_count(void) { return 0; }

#else

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void __libc_free(void *pointer);

// Thread-local, in the executable's own TLS block: reading or writing them
// allocates nothing, and they exist before the first malloc of any thread.
static _Thread_local uint64_t allocations = 0;
static _Thread_local uint64_t chunkBytes = 0;

int sealite_allocation_counting_is_available(void) { return 1; }

uint64_t sealite_allocation_count(void) { return allocations; }

uint64_t sealite_allocated_chunk_bytes(void) { return chunkBytes; }

/// Counts an allocation of `size` bytes that returned `block`, and notes the
/// block for malloc_usable_size (ChunkSlack.c; free forgets it). The bytes are
/// those of the chunk glibc carves for the request, not of the chunk malloc
/// handed out, which is larger whenever it was a free one too small to split:
/// the count must not depend on the state of the heap.
static void *counted(size_t size, void *block) {
  allocations += 1;
  chunkBytes += sealite_exact_chunk_size(size);
  sealiteNoteBlock(block, size);
  return block;
}

void *malloc(size_t size) { return counted(size, __libc_malloc(size)); }

void *calloc(size_t count, size_t size) { return counted(count * size, __libc_calloc(count, size)); }

void *realloc(void *pointer, size_t size) {
  // A realloc of nothing is a malloc; a growth may move the block, which
  // costs as much as an allocation. (If it fails, the block it leaves
  // reports its whole chunk: the tool has failed by then.)
  sealiteForgetBlock(pointer);
  return counted(size, __libc_realloc(pointer, size));
}

// The aligned allocations: Swift's runtime makes one for every
// UnsafeMutablePointer.allocate (swift_slowAlloc with the default alignment
// calls aligned_alloc, not malloc), such as the value buffers of
// Row.fetchAll. A chunk is counted as a malloc of the same size: for the
// alignments up to 16 that Swift asks, glibc carves the same chunk.
void *aligned_alloc(size_t alignment, size_t size) { return counted(size, __libc_memalign(alignment, size)); }

void *memalign(size_t alignment, size_t size) { return counted(size, __libc_memalign(alignment, size)); }

int posix_memalign(void **pointer, size_t alignment, size_t size) {
  // What glibc's own checks: a power of two, a multiple of a pointer's size.
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
  void *block = counted(size, __libc_memalign(alignment, size));
  if (block == NULL) return ENOMEM;
  *pointer = block;
  return 0;
}

void *valloc(size_t size) { return counted(size, __libc_valloc(size)); }

void *pvalloc(size_t size) { return counted(size, __libc_pvalloc(size)); }

void free(void *pointer) {
  sealiteForgetBlock(pointer);
  __libc_free(pointer);
}

// Reference counting: this executable defines swift_retain and
// swift_release, which take the place of the Swift runtime's for the code
// linked into it (Sealite and the tool), and forward to the runtime's own.
// (The runtime's own hook, the function pointers it calls once
// _swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly
// is set, cannot be used on Linux: its adapter masks a tagged word into an
// address before the hook sees it, and the runtime then dereferences it.)
// Retains of strings through swift_bridgeObjectRetain are not counted.
typedef void *(*RetainFunction)(void *object);
typedef void (*ReleaseFunction)(void *object);
typedef void *(*RetainNFunction)(void *object, uint32_t count);
typedef void (*ReleaseNFunction)(void *object, uint32_t count);

static _Atomic int countingReferences = 0;
static _Thread_local uint64_t referenceOperations = 0;
static void *_Atomic runtimeRetain;
static void *_Atomic runtimeRelease;
static void *_Atomic runtimeRetainN;
static void *_Atomic runtimeReleaseN;

/// The runtime's function `name`, found once.
static void *runtimeFunction(void *_Atomic *cache, const char *name) {
  void *function = atomic_load_explicit(cache, memory_order_acquire);
  if (function == NULL) {
    function = dlsym(RTLD_NEXT, name);
    atomic_store_explicit(cache, function, memory_order_release);
  }
  return function;
}

/// Counts `count` operations on `object` while counting is on, those the
/// runtime makes atomic: not for nil, nor for the tagged words an enum or a
/// String may pass (negative on x86-64 and arm64, where the upper half of the
/// address space is the kernel's), which it skips, nor for an immortal object
/// (an empty array's storage, a constant), whose count it only reads.
static void countReference(void *object, uint32_t count) {
  if ((intptr_t)object <= 0 || !atomic_load_explicit(&countingReferences, memory_order_relaxed)) return;
  // As the runtime reads it: the address without its spare bits, and the
  // count's word after the metadata pointer; an immortal count has the
  // slow-count bit (the sign) and its low 32 bits all set.
  const uint64_t *counts = (const uint64_t *)(((uintptr_t)object & 0x00fffffffffffff8) + 8);
  uint64_t bits = *counts;
  if ((int64_t)bits < 0 && (uint32_t)bits == 0xffffffff) return;
  referenceOperations += count;
}

void *swift_retain(void *object) {
  countReference(object, 1);
  return ((RetainFunction)runtimeFunction(&runtimeRetain, "swift_retain"))(object);
}

void swift_release(void *object) {
  countReference(object, 1);
  ((ReleaseFunction)runtimeFunction(&runtimeRelease, "swift_release"))(object);
}

void *swift_retain_n(void *object, uint32_t count) {
  countReference(object, count);
  return ((RetainNFunction)runtimeFunction(&runtimeRetainN, "swift_retain_n"))(object, count);
}

void swift_release_n(void *object, uint32_t count) {
  countReference(object, count);
  ((ReleaseNFunction)runtimeFunction(&runtimeReleaseN, "swift_release_n"))(object, count);
}

int sealite_start_counting_reference_operations(void) {
  atomic_store_explicit(&countingReferences, 1, memory_order_relaxed);
  return 1;
}

uint64_t sealite_reference_operation_count(void) { return referenceOperations; }

#endif
