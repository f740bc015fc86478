// The tables a generated simulator module defines and its entry point
// (runtime/entry/generated_entry.cpp) reads. Plain C data with names from
// one X-macro list, so that the code generator and the entry agree on every
// index without sharing a struct layout.
#pragma once

#include <stdint.h>

// Integer parameters: ndl_params_i64[NDL_P_<Name>]. Times are in network clocks
// (converted by the compiler, exactly) but RouterDelayClocks, in router clocks as
// written, for the report; HeaderDelayClocks is the same delay in network clocks.
#define NDL_ABI_I64_PARAMS(X)                                                                   \
  X(FlowControl) /* ndl::rt::FlowControl */                                                     \
  X(ChannelWidthBits)                                                                           \
  X(PacketFlits) X(HeaderFlits) X(DataBitsPerPacket) X(PacketPerMessage) X(BufferFlits)         \
  X(VirtualChannels)                                                                            \
  X(InjectionVirtualChannels) X(RouterDelayClocks) X(HeaderDelayClocks) X(LinkDelayClocks)      \
  X(CreditDelayClocks)                                                                          \
  X(CreationProcess) /* ndl::rt::CreationProcess */                                             \
  X(CreationMax) X(MessageMinBits) X(MessageMaxBits) X(QueueCapacity)                           \
  X(QueueOverflow) /* ndl::rt::QueueOverflow */                                                 \
  X(AtomicVcAllocation)                                                                         \
  X(SwitchInputByOutput) /* 0 ByVc, 1 ByOutput */ X(SwitchHoldPacket) /* 0 Flit, 1 Packet */    \
  X(InternalSpeedup)                                                                            \
  X(Pattern) /* ndl::rt::TrafficPattern */                                                      \
  X(Deadlock)    /* ndl::rt::DeadlockHandling */                                                \
  X(DeadlockTimeoutClocks) X(RecoveryTimeoutClocks) X(Seed) X(WarmupMessages)                   \
  X(MeasuredMessages) X(TimeLimitClocks) X(SamplingIntervalClocks)                              \
  X(Selection) /* ndl::rt::Selection */ X(NumClasses) X(RecoveryField) X(TokenClasses)          \
  X(HeaderFieldCount)                                                                           \
  X(WaitBreakCount) /* ndl_wait_breaks' entries; -1: route a waiting header every clock */      \
  X(NumNodes) X(NumPorts) X(NumSignatures) X(NumNodeRuns) X(NumDims)                        \
  X(NumPortDims) X(Wrap) X(Diameter) X(HotSpotCount)                                            \
  X(ReportPairCount)                                                                             \
  X(NumEndpoints) X(NumEndpointRuns)                                                             \
  X(ReadsCongestion) /* 1: the routing or selection reads its router's ports (ndl_port_load) */ \
  X(ReadsGlobalCongestion) /* 1: it reads any router's queues as the clock began             \
                              (port-queue-at R P): the simulator keeps a snapshot */          \
  X(PipelineFlitClocks) /* RouterPipeline's ST, network clocks; 0 without the form */         \
  X(Predictor) /* 1: (Predictor ...) names ndl_user_predict and ndl_user_on_forward */          \
  X(PredictHeaderClocks) /* PredictivePath's IB, network clocks */                              \
  X(PredictorLatencyClocks) /* PredictorLatency, network clocks */                              \
  X(MispredictionCheck) /* 0 HintBits, 1 None (kMispredictionCheckNames) */                     \
  X(PortStateCount) /* rings per port or router: ndl_port_states' rows of 4 */             \
  X(Measurement) /* ndl::rt::Measurement */                                                    \
  X(TrafficClassCount) /* (TrafficClass ...) forms; 0 without: ndl_traffic_classes' rows */ \
  X(GroupEndpoints) /* the topology's (Groups n); 0 without (BadDragon needs it) */          \
  X(UserPattern) /* the main traffic's pattern written in NDL (Pattern Custom): its index in \
                    UserPatternNames; -1 none */                                              \
  X(InterfacePeriodPs) /* the network's period in ps with an (Interface ...); 0 without */    \
  X(InterfaceSendStages) X(InterfaceReceiveStages) /* ndl_interface_stages' rows, send first */ \
  X(SynchronizerClocks) X(HostWritePs) X(HostReadPs) X(SoftwareOverheadPs) X(PollIntervalPs) \
  X(PollPhasePs) X(InterfaceLoopback) /* 0 Internal, 1 External */

// Real parameters: ndl_params_f64[NDL_P_<Name>].
#define NDL_ABI_F64_PARAMS(X) \
  X(NetworkFrequencyHz)       \
  X(RouterFrequencyHz) X(CreationRate) X(CreationIntervalClocks) X(AvgDistance) X(HotSpotShare) \
      X(ExpandRate)                                                                             \
      X(OnOffBurstClocks) X(OnOffDuty) /* CreationProcess OnOff; 0 under the others */

// Strings: ndl_params_str[NDL_P_<Name>]. DimNames: the port dimensions' names, comma-separated;
// HeaderFieldNames: the routing's header fields', likewise; ClassNames: its network VC classes';
// TrafficClassNames: the traffic classes', comma-separated; TraceFile: the absolute path of
// (InjectionProcess (Trace "file")), else empty; UserPatternNames: the patterns written in NDL
// the traffic names (define-pattern), comma-separated, in ndl_user_pattern's order; SelectionName: the selection written in NDL (Selection 4), else empty; RouterPipeline: the
// stages' router clocks as "IB 1 RC 3 VA 1 SA 1 ST 1", else empty; InterfaceName: the
// (Interface ...)'s name, else empty.
#define NDL_ABI_STR_PARAMS(X)                                                              \
  X(TopologyName) X(TopologyKind) X(RoutingName) X(DataOutputFile) X(ScreenOutputFile) \
      X(DimNames) X(HeaderFieldNames) X(ClassNames) X(SelectionName) X(PatternFile)      \
          X(RouterPipeline) X(PredictorName) X(PredictivePath) X(TrafficClassNames) X(TraceFile) \
              X(UserPatternNames) X(InterfaceName)

// The entries a built simulator lets `--param Name=Value` change, with their rules, are the
// rows of param_rules.h (kParamRules): the entry reads them into SimParams at start-up and
// the generated code never sees them. Every other entry shapes the code (the routing is
// specialized on the topology, the VC classes, the header fields, RecoveryTimeoutClocks) or
// is derived by the compiler together with such an entry (HotSpotCount sizes ndl_hot_nodes;
// the packet sizes follow the channel width). `ndlc run` keys its build cache on everything
// but the rows of param_rules.h and passes them, converted by the checker, to the cached
// simulator.

#define NDL_ABI_ENUM(Name) NDL_P_##Name,
enum NdlI64Param { NDL_ABI_I64_PARAMS(NDL_ABI_ENUM) NDL_P_I64_COUNT };
enum NdlF64Param { NDL_ABI_F64_PARAMS(NDL_ABI_ENUM) NDL_P_F64_COUNT };
enum NdlStrParam { NDL_ABI_STR_PARAMS(NDL_ABI_ENUM) NDL_P_STR_COUNT };
#undef NDL_ABI_ENUM

// Per port, NDL_PORT_FIELDS int32 values: peer node, peer port, direction
// (ndl::rt::LinkDirection), dimension, sign (+1/-1, 0 for in-only ports),
// wrap (1 when the link crosses its dimension's dateline), the link's own wire delay in
// link clocks (0: LinkDelay; output side).
#define NDL_PORT_FIELDS 7

#ifdef __cplusplus
extern "C" {
#endif
// Defined by the generated module.
extern const int64_t ndl_params_i64[];
extern const double ndl_params_f64[];
extern const char* const ndl_params_str[];
// The ports, compact (port_table.h): NumSignatures + 1 entries, a row per port of each
// signature with the peer as an offset from the node, and NumNodeRuns (signature, count) pairs.
extern const int32_t ndl_signature_start[];
extern const int32_t ndl_signature_ports[];
extern const int32_t ndl_node_runs[];
extern const int32_t ndl_radices[];       // NumDims
extern const int32_t ndl_hot_nodes[];     // HotSpotCount
extern const int32_t ndl_report_pairs[];  // ReportPairCount * 2
// TrafficClassCount rows of NDL_TRAFFIC_CLASS_FIELDS: creation rate per endpoint per clock,
// pattern (ndl::rt::TrafficPattern), shortest and longest message in bits, the replying class
// (-1: none), under pattern Custom its index in UserPatternNames (-1: none), and its
// priority (0..255, higher served first), its creation process (CreationProcess), its
// interval in clocks (Periodic), its mean on period in clocks and duty cycle (OnOff). Class
// 0's rate, pattern, lengths and process are also the main entries (CreationRate,
// Pattern, MessageMinBits, MessageMaxBits), which --param may change: the simulator reads
// them from there.
extern const double ndl_traffic_classes[];
#define NDL_TRAFFIC_CLASS_FIELDS 11
// The endpoints (terminals) of the routers in router order, run-length coded: NumEndpointRuns
// pairs (endpoints of each router of the run, routers in the run); NumEndpoints in all.
// Endpoint ids count up router by router: router r's are ep_begin[r] .. ep_begin[r+1]-1.
extern const int32_t ndl_endpoint_runs[];
extern const int32_t ndl_vc_class[];      // VirtualChannels: the class of each network VC
extern const int32_t ndl_inj_vc_class[];  // InjectionVirtualChannels
extern const int64_t ndl_class_vcs[];     // NumClasses: the VCs of each class as a bit mask
extern const int64_t ndl_header_fields[];  // HeaderFieldCount * 4: offset, bits, lo, hi
// WaitBreakCount: the values of blocked_for, ascending, at which the routing's answer for a
// waiting header may change (docs/routing.md, "Waiting headers").
extern const int64_t ndl_wait_breaks[];
// PortStateCount rows of 3: a ring's capacity, and the lowest and highest symbol it holds.
extern const int64_t ndl_port_states[];
// The interface's stages (docs/interfaces.md), InterfaceSendStages rows then
// InterfaceReceiveStages rows of NDL_INTERFACE_STAGE_FIELDS: the stage's domain (0 the
// network's clock), its domain's period, its latency and its occupancy, in ps.
extern const int64_t ndl_interface_stages[];
#define NDL_INTERFACE_STAGE_FIELDS 4
// The NDL routing function: writes the candidate routes of a header at
// `current` bound for `dest` into out[0..3], one mask per priority tier, bit
// (port code * NumClasses + class) for each candidate (port code = dim * 2 +
// (dir > 0)); bit 63 marks a port of a dimension the network lacks. out[4]:
// 0, or an error (kind << 8 | field; kind 1: a value outside the field's
// range, 2: two values for one field). Then per header field f,
// out[5 + 5f + t] the candidates of tier t that write it and out[5 + 5f + 4]
// the value they write, shifted into place. `header` is the packet's.
void ndl_user_route(int64_t current, int64_t dest, int64_t source, int64_t arrived,
                    int64_t injected, int64_t in_class, int64_t blocked_for, int64_t header,
                    int64_t* out);
// The header of a new packet, its fields packed; `random` seeds the packet's
// draws. Any value the evaluator refuses, one outside a field's range
// included, is a failure (ndl_eval_failure).
int64_t ndl_user_header_init(int64_t source, int64_t dest, int64_t random);
// The score of a free candidate under a selection written in NDL (Selection
// 4): the routing's arguments but the header, then the candidate's port code
// and class, its free slots, and its port's unowned VCs and their free slots.
int64_t ndl_user_select(int64_t current, int64_t dest, int64_t source, int64_t arrived,
                        int64_t injected, int64_t in_class, int64_t blocked_for, int64_t out_port,
                        int64_t out_class, int64_t credits, int64_t port_free_vcs,
                        int64_t port_credits);
// The predictor (Predictor 1): the predicted port code of a header at the front of its VC
// (-1: none, -2: the ejection), and the OnForward block run as a header leaves by out_port.
// Both see the state of the input port being served (ndl_ring_*) and of its router
// (ndl_router_ring_*).
int64_t ndl_user_predict(int64_t current, int64_t dest, int64_t source, int64_t arrived,
                         int64_t injected, int64_t in_class, int64_t blocked_for);
void ndl_user_on_forward(int64_t current, int64_t dest, int64_t source, int64_t arrived,
                         int64_t injected, int64_t in_class, int64_t blocked_for,
                         int64_t out_port);
// The destination of a message from endpoint `source` under pattern `which` written in NDL
// (define-pattern; an index in UserPatternNames); `random` seeds its draws. The entry checks the
// result is an endpoint; -1 without patterns (never called then).
int64_t ndl_user_pattern(int64_t which, int64_t source, int64_t random);
// Defined by the entry for generated predictors: ring k of the port being served: its length,
// entry i (0 the newest; i < length), the count of x, and x pushed as the newest entry.
int64_t ndl_ring_length(int64_t k);
int64_t ndl_ring_ref(int64_t k, int64_t i);
int64_t ndl_ring_count(int64_t k, int64_t x);
void ndl_ring_push(int64_t k, int64_t x);
// The same for ring k of the router being served (define-router-state).
int64_t ndl_router_ring_length(int64_t k);
int64_t ndl_router_ring_ref(int64_t k, int64_t i);
int64_t ndl_router_ring_count(int64_t k, int64_t x);
void ndl_router_ring_push(int64_t k, int64_t x);
// Defined by the entry (generated_entry.cpp): null, or set by generated code to the first
// place in a call where it met a value the NDL evaluator refuses ("division by zero
// (r.ndl:4:9)"); the entry then stops the run with it.
extern const char* ndl_eval_failure;
// The steps (iterations of `sum`, calls of recursive functions) of the call under way: the
// entry sets it to 0 before each call, generated code stops past 2^28 as the evaluator does.
extern uint64_t ndl_eval_steps;
// Defined by the entry (generated_entry.cpp) for generated routing code:
// 1 when `node` has the output port (dim, dir), else 0.
int64_t ndl_has_port(int64_t node, int64_t dim, int64_t dir);
// (peer n p): the node at the far end of n's output port p (code dim * 2 + (dir > 0)), n if
// it has none. (graph-distance a b): hops of a shortest path, the node count if b is unreachable.
int64_t ndl_peer(int64_t node, int64_t port);
// (port-queue P), (port-credits P), (port-free-vcs P) (what 0, 1, 2) of output port P (code)
// at the router whose routing or selection runs now; -1 when it has no such port.
int64_t ndl_port_load(int64_t port, int64_t what);
// (port-queue-at R P): the queue of router R's output port P (code) as the router clock began
// (Network::snapshotQueues); -1 when R does not exist or has no such port.
int64_t ndl_port_queue_at(int64_t router, int64_t port);
int64_t ndl_distance(int64_t from, int64_t to);
// (endpoint-router e), (router-endpoint r i) = first endpoint + i, (router-endpoints r): the
// endpoint layout, numbered router by router (runtime/net/endpoints.h).
int64_t ndl_endpoint_router(int64_t endpoint);
int64_t ndl_router_first_endpoint(int64_t router);
int64_t ndl_router_endpoints(int64_t router);
#ifdef __cplusplus
}
#endif
