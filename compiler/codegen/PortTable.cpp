#include "compiler/codegen/PortTable.h"

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ndl/runtime/sim/port_table.h"

namespace ndl::codegen {
namespace {

using Row = std::array<int32_t, NDL_PORT_FIELDS>;

// The rows of every node, one node at a time, absolute peers.
class PortRows {
 public:
  explicit PortRows(const elab::Graph& g) : g_(g) {
    // Unidirectional channels by destination, in channel order: the input-only ports.
    bool any = false;
    for (const elab::Channel& ch : g.channels) any |= ch.reverse == elab::kNoChannel;
    if (!any) return;
    inStart_.assign(g.nodeCount + 1, 0);
    for (const elab::Channel& ch : g.channels)
      if (ch.reverse == elab::kNoChannel) ++inStart_[ch.dst + 1];
    for (size_t n = 0; n < g.nodeCount; ++n) inStart_[n + 1] += inStart_[n];
    std::vector<uint32_t> fill(inStart_.begin(), inStart_.end() - 1);
    inChannels_.resize(inStart_.back());
    rankIn_.assign(g.channels.size(), 0);
    for (elab::ChannelId c = 0; c < g.channels.size(); ++c) {
      const elab::Channel& ch = g.channels[c];
      if (ch.reverse != elab::kNoChannel) continue;
      rankIn_[c] = fill[ch.dst] - inStart_[ch.dst];
      inChannels_[fill[ch.dst]++] = c;
    }
  }

  void of(elab::NodeId n, std::vector<Row>& rows) const {
    rows.clear();
    for (elab::ChannelId c = g_.outBegin(n); c < g_.outEnd(n); ++c) {
      const elab::Channel& ch = g_.channels[c];
      const bool bidirectional = ch.reverse != elab::kNoChannel;
      const int32_t peerPort =
          bidirectional ? static_cast<int32_t>(ch.reverse - g_.outBegin(ch.dst))
                        : static_cast<int32_t>(g_.outEnd(ch.dst) - g_.outBegin(ch.dst) + rankIn_[c]);
      rows.push_back({static_cast<int32_t>(ch.dst), peerPort,
                      bidirectional ? 0 : 1,  // kBidirectional, kOutOnly
                      ch.dim, ch.dir, (ch.flags & elab::kWrap) ? 1 : 0,
                      g_.channelDelay.empty() ? 0 : g_.channelDelay[c]});
    }
    if (inStart_.empty()) return;
    for (uint32_t k = inStart_[n]; k < inStart_[n + 1]; ++k) {
      const elab::Channel& ch = g_.channels[inChannels_[k]];
      rows.push_back({static_cast<int32_t>(ch.src),
                      static_cast<int32_t>(inChannels_[k] - g_.outBegin(ch.src)), 2 /* kInOnly */,
                      ch.dim, 0, 0, 0});
    }
  }

 private:
  const elab::Graph& g_;
  std::vector<uint32_t> inStart_, inChannels_, rankIn_;
};

}  // namespace

PortTable encodePortTable(const elab::Graph& g) {
  PortTable t;
  const PortRows rows(g);
  std::unordered_map<std::string, int32_t> signatures;
  std::vector<Row> cur;
  t.signatureStart.push_back(0);
  for (elab::NodeId n = 0; n < g.nodeCount; ++n) {
    rows.of(n, cur);
    t.portCount += static_cast<int64_t>(cur.size());
    for (const Row& r : cur) t.wrap |= r[5] != 0;
    for (Row& r : cur) r[0] = rt::peerToCode(static_cast<int32_t>(n), r[0]);
    const std::string key(reinterpret_cast<const char*>(cur.data()), cur.size() * sizeof(Row));
    auto [it, fresh] = signatures.emplace(key, static_cast<int32_t>(signatures.size()));
    if (fresh) {
      for (const Row& r : cur) t.signatureRows.insert(t.signatureRows.end(), r.begin(), r.end());
      t.signatureStart.push_back(static_cast<int32_t>(t.signatureRows.size() / NDL_PORT_FIELDS));
    }
    if (!t.nodeRuns.empty() && t.nodeRuns[t.nodeRuns.size() - 2] == it->second) {
      ++t.nodeRuns.back();
    } else {
      t.nodeRuns.push_back(it->second);
      t.nodeRuns.push_back(1);
    }
  }
  return t;
}

}  // namespace ndl::codegen
