#ifndef SEALITE_SANITIZERS_H
#define SEALITE_SANITIZERS_H

// SEALITE_SANITIZED is 1 in a build under a sanitizer, which replaces malloc
// itself: the counter then defines none of the allocation functions.

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SEALITE_SANITIZED 1
#endif
#endif

#ifndef SEALITE_SANITIZED
#define SEALITE_SANITIZED 0
#endif

#endif
