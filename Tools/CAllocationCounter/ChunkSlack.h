#ifndef SEALITE_CHUNK_SLACK_H
#define SEALITE_CHUNK_SLACK_H

// The slack of the chunks malloc hands out, and malloc_usable_size without
// it: see ChunkSlack.c.

#include <stddef.h>

/// Notes the block `pointer` (or NULL) that an allocation of `request` bytes returned.
void sealiteNoteBlock(void *pointer, size_t request);

/// Forgets the block `pointer` (or NULL), about to be freed or reallocated.
void sealiteForgetBlock(void *pointer);

#endif
