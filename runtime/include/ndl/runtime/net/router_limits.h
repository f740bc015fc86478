// The sizes a simulator's routers support, which the compiler checks a program against
// (`ndlc check`) so that a simulator it builds does not refuse the network when it starts.
// The --param rules of param_rules.h use the same limits.
#pragma once

#include <cstdint>

namespace ndl::rt {

// Limits that let a router keep its per-cycle requests in 64-bit masks on the stack.
inline constexpr int32_t kMaxPorts = 32;       // network ports + the PE port
inline constexpr int32_t kMaxLocalVcs = 64;    // input VCs of one router
inline constexpr int32_t kMaxVcsPerPort = 32;  // VirtualChannels, InjectionVirtualChannels

// A port keeps its link delay in one byte (network.h: a port's entry stays 16 bytes), and
// the event wheel holds a bucket per clock of the longest delay, a credit's included: both
// delays stop at the same bound.
inline constexpr int64_t kMaxLinkDelayClocks = 255;    // LinkDelay, network clocks
inline constexpr int64_t kMaxCreditDelayClocks = 255;  // CreditDelay, network clocks
// A packet's length is 16 bits (packet.h); an output VC keeps its credits in 15 bits beside
// its owned bit (network.h).
inline constexpr int64_t kMaxPacketFlits = 65535;  // NetworkPacketSize, a message under Message
inline constexpr int64_t kMaxBufferFlits = 32767;  // NodeBufferSize
// A header's ready time is the low 32 bits of a clock, compared by difference: its delay
// stays below 2^31 clocks (router and network clocks alike).
inline constexpr int64_t kMaxHeaderDelayClocks = 2147483647;  // NodeHardwareDelay
// The deadlock backstop waits 4 deadlock timeouts (simulator.cpp), in 64-bit clocks.
inline constexpr int64_t kMaxDeadlockTimeoutClocks = 2305843009213693951;  // 2^61 - 1
// A message counts its packets in 32 bits (packet.h).
inline constexpr int64_t kMaxPacketsPerMessage = 4294967295;
// InternalSpeedup: passes of allocation and switch a router clock.
inline constexpr int64_t kMaxInternalSpeedup = 4;
// The channel width is a 32-bit count of bits.
inline constexpr int64_t kMaxChannelWidthBits = 2147483647;  // NetworkChannelWidth

}  // namespace ndl::rt
