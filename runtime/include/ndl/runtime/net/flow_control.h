// The buffer rules of the three flow controls of spec 2.2, as the router step asks them.
#pragma once

#include <cstdint>

#include "ndl/runtime/sim/sim_params.h"

namespace ndl::rt {

// Store-and-forward: a packet is routed (and may leave) only once its tail has arrived.
inline bool waitsForTail(FlowControl fc) { return fc == FlowControl::kStoreAndForward; }

// Credits an idle output VC must have before a header of `packet_flits` flits may take it:
// virtual cut-through and store-and-forward need room for the whole packet (a blocked packet
// collects in one node); wormhole allocates buffers flit by flit (a blocked packet stretches
// over several nodes), so any free VC will do.
inline int32_t creditsToAllocate(FlowControl fc, int32_t packet_flits) {
  return fc == FlowControl::kWormhole ? 0 : packet_flits;
}

// Smallest buffer per VC the flow control accepts.
inline int32_t minimumBufferFlits(FlowControl fc, int32_t packet_flits) {
  return fc == FlowControl::kWormhole ? 1 : packet_flits;
}

}  // namespace ndl::rt
