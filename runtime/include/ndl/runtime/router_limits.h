// The sizes a simulator's routers support, which the compiler checks a program against
// (`ndlc check`) so that a simulator it builds does not refuse the network when it starts.
#pragma once

#include <cstdint>

namespace ndl::rt {

// Limits that let a router keep its per-cycle requests in 64-bit masks on the stack.
inline constexpr int32_t kMaxPorts = 32;     // network ports + the PE port
inline constexpr int32_t kMaxLocalVcs = 64;  // input VCs of one router
inline constexpr int32_t kMaxVcsPerPort = 32;  // VirtualChannels, InjectionVirtualChannels

}  // namespace ndl::rt
