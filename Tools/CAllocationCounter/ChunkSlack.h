#ifndef SEALITE_CHUNK_SLACK_H
#define SEALITE_CHUNK_SLACK_H

// The slack of the chunks malloc hands out, and malloc_usable_size without
// it: see ChunkSlack.c.

#include <stddef.h>

/// The chunk glibc carves for `request` bytes when it splits a free chunk
/// exactly: the request and its 8-byte header, rounded up to 16, 32 at least.
size_t sealiteExactChunkSize(size_t request);

/// Notes the block `pointer` (or NULL) that an allocation of `request` bytes returned.
void sealiteNoteBlock(void *pointer, size_t request);

/// Forgets the block `pointer` (or NULL), about to be freed or reallocated.
void sealiteForgetBlock(void *pointer);

/// The size of the chunk of the block `pointer`, from glibc's header.
size_t sealiteChunkSize(void *pointer);

#endif
