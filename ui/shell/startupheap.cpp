#include "ui/shell/startupheap.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace napkin::ui {

void prefaultStartupHeap()
{
#if defined(__linux__) && defined(__GLIBC__)
#ifndef MADV_POPULATE_WRITE
    constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14, <linux/mman.h>
#endif
    // Setting either threshold turns off glibc's adaptive one, which starts at 128 KiB and rises
    // to the size of each large block freed, up to 32 MiB. Set here at that ceiling: images and
    // the window's backing store come from the heap, as they would after the first ones were
    // freed. Up to 16 MiB of freed memory stays at the heap's top, so the pages made resident
    // below stay resident.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 16 << 20);

    // 12 MiB: the first frame's heap and backing store with a margin, taken from the top of
    // the heap, made resident, and freed back to it.
    constexpr std::size_t kBlock = 2 << 20;
    constexpr std::size_t kPage = 4096;
    std::array<void *, 6> blocks{};
    for (void *&block : blocks) {
        block = std::malloc(kBlock);
        if (!block)
            break;
        const auto from = (reinterpret_cast<std::uintptr_t>(block) + kPage - 1) & ~(kPage - 1);
        const auto to = (reinterpret_cast<std::uintptr_t>(block) + kBlock) & ~(kPage - 1);
        if (to > from)
            madvise(reinterpret_cast<void *>(from), to - from, MADV_POPULATE_WRITE);
    }
    for (void *block : blocks)
        std::free(block);
#endif
}

} // namespace napkin::ui
