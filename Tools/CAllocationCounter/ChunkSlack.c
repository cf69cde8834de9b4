// malloc_usable_size, as the request made it: the sizes the program sees do
// not depend on the state of the heap.
//
// glibc hands out a free chunk whole when what is left of it would be too
// small to be a chunk (under 32 bytes), and its malloc_usable_size then
// reports the larger chunk. Swift's arrays take their capacity from
// malloc_usable_size, and grow to twice that capacity: a chunk 16 bytes
// larger at one step makes every later step of the growth ask for more (the
// tool once read 73.136 bytes a row where it reads 72.944), and SQLite's
// reallocations depend on it too. This file remembers by how much each such
// chunk is larger than its request's (the slack), and malloc_usable_size
// subtracts it: every block reports the usable size an exact split gives,
// which is never less than what was asked.

#include "ChunkSlack.h"

#include "CAllocationCounter.h"
#include "Sanitizers.h"

#if SEALITE_SANITIZED

void *sealite_free_block_with_slack(size_t request) { return NULL; }

size_t sealite_chunk_size(void *pointer) { return 0; }

size_t sealite_exact_chunk_size(size_t request) { return 0; }

#else

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

// glibc's chunk header, the word before the block: the chunk's size, with
// flags in its 3 low bits, of which PREV_INUSE (the chunk before is not free)
// and IS_MMAPPED (a chunk mapped on its own, whose size is a number of pages
// whatever the heap holds).
static const size_t previousChunkInUse = 1;
static const size_t chunkIsMapped = 2;
static const size_t chunkFlags = 7;

static size_t chunkHeader(void *pointer) { return ((size_t *)pointer)[-1]; }

size_t sealite_chunk_size(void *pointer) { return chunkHeader(pointer) & ~chunkFlags; }

size_t sealite_exact_chunk_size(size_t request) {
  size_t chunk = (request + 8 + 15) & ~(size_t)15;
  return chunk < 32 ? 32 : chunk;
}

// The blocks with slack, in an open-addressing table (linear probing) that
// allocates nothing: a malloc of its own would recurse. Such blocks are a
// small part of the live ones; a full table stops the tool.
enum { slotBits = 16, slotCount = 1 << slotBits };
struct Slot {
  uintptr_t address;  // 0: empty
  size_t slack;
};
static struct Slot slots[slotCount];
static _Atomic size_t usedSlots = 0;
static atomic_flag tableLock = ATOMIC_FLAG_INIT;

static void lockTable(void) {
  while (atomic_flag_test_and_set_explicit(&tableLock, memory_order_acquire)) {
  }
}

static void unlockTable(void) { atomic_flag_clear_explicit(&tableLock, memory_order_release); }

static size_t homeSlot(uintptr_t address) {
  return (size_t)(((uint64_t)(address >> 4) * 0x9E3779B97F4A7C15ull) >> (64 - slotBits));
}

/// The slot of `address`, or the empty slot where it would go. Under the lock.
static size_t findSlot(uintptr_t address) {
  size_t index = homeSlot(address);
  while (slots[index].address != 0 && slots[index].address != address) index = (index + 1) & (slotCount - 1);
  return index;
}

void sealiteNoteBlock(void *pointer, size_t request) {
  if (pointer == NULL) return;
  if (chunkHeader(pointer) & chunkIsMapped) return;
  size_t chunk = sealite_chunk_size(pointer);
  size_t exact = sealite_exact_chunk_size(request);
  if (chunk <= exact) return;
  lockTable();
  size_t index = findSlot((uintptr_t)pointer);
  if (slots[index].address == 0) {
    if (atomic_load_explicit(&usedSlots, memory_order_relaxed) + 1 >= slotCount / 2) {
      static const char message[] = "sealite-allocations: too many blocks larger than their request\n";
      write(2, message, sizeof message - 1);
      abort();
    }
    atomic_fetch_add_explicit(&usedSlots, 1, memory_order_relaxed);
  }
  slots[index] = (struct Slot){(uintptr_t)pointer, chunk - exact};
  unlockTable();
}

void sealiteForgetBlock(void *pointer) {
  if (pointer == NULL || atomic_load_explicit(&usedSlots, memory_order_relaxed) == 0) return;
  lockTable();
  size_t index = findSlot((uintptr_t)pointer);
  if (slots[index].address != 0) {
    // Backward-shift deletion: move later entries of the probe sequence into
    // the hole, so that no lookup stops early at it.
    size_t hole = index;
    size_t next = hole;
    for (;;) {
      next = (next + 1) & (slotCount - 1);
      if (slots[next].address == 0) break;
      size_t home = homeSlot(slots[next].address);
      // The entry stays if its home lies cyclically in (hole, next].
      int stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (stays) continue;
      slots[hole] = slots[next];
      hole = next;
    }
    slots[hole] = (struct Slot){0, 0};
    atomic_fetch_sub_explicit(&usedSlots, 1, memory_order_relaxed);
  }
  unlockTable();
}

/// The slack of `pointer`, 0 for most blocks.
static size_t slackOf(void *pointer) {
  if (atomic_load_explicit(&usedSlots, memory_order_relaxed) == 0) return 0;
  lockTable();
  size_t slack = slots[findSlot((uintptr_t)pointer)].slack;
  unlockTable();
  return slack;
}

// What glibc's own returns (a mapped chunk's size less its 16-byte header, a
// heap chunk's less its 8-byte one), less the block's slack.
size_t malloc_usable_size(void *pointer) {
  if (pointer == NULL) return 0;
  if (chunkHeader(pointer) & chunkIsMapped) return sealite_chunk_size(pointer) - 16;
  return sealite_chunk_size(pointer) - 8 - slackOf(pointer);
}

void *sealite_free_block_with_slack(size_t request) {
  size_t exact = sealite_exact_chunk_size(request);
  for (size_t attempt = 0; attempt < 64; attempt++) {
    // A chunk of exact + 16 bytes, and a guard right after it that stays
    // allocated, so that the freed chunk merges with nothing after it
    // (the top of the heap), nor before it (PREV_INUSE). Blocks that came
    // from elsewhere are left allocated: the next attempt's come from the top.
    void *block = malloc(exact + 16 - 8);
    void *guard = malloc(4096 + 16 * attempt);
    if (block == NULL || guard == NULL) return NULL;
    int adjacent = (char *)guard == (char *)block + sealite_chunk_size(block);
    if (adjacent && (chunkHeader(block) & previousChunkInUse)) {
      free(block);
      return block;
    }
  }
  return NULL;
}

#endif
