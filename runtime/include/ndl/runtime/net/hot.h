// NDL_HOT marks the small per-flit helpers of the router step. GCC inlines
// them on its own; clang, which compiles the core of generated simulators,
// weighs the large router step and leaves them as calls: forced, both
// compilers produce the same shape of loop.
#pragma once

#define NDL_HOT inline __attribute__((always_inline))
