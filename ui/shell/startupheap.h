#pragma once

namespace napkin::ui {

/// Makes resident, in one step, the heap that building and first painting the window takes,
/// so that it is not faulted in a page at a time. Call once, before the QApplication.
///
/// The window's first frame takes about 6.6 MB of heap (bench_ui --cold-child, mallinfo2) and
/// a backing store of 3.7 MB at 1280x720, over 3,600 page faults in all. A fault costs 0.5-1 us
/// on bare metal and about 10 us on a virtual machine like the 2-core development one, where
/// making the same pages resident with one madvise(MADV_POPULATE_WRITE) costs 0.6 us a page
/// (tests/bench/bench_ui prints the cold start's figures). With glibc on Linux 5.14 or later;
/// a no-op elsewhere, and harmless where the kernel refuses.
void prefaultStartupHeap();

} // namespace napkin::ui
