// The front end end to end on inline sources: parse, check, Parameters.
#include <gtest/gtest.h>

#include <random>

#include "compiler/parse/Loader.h"
#include "compiler/sema/Check.h"

namespace ndl {
namespace {

#define NDL_SOURCE(...) #__VA_ARGS__

// Keeps the program alive: Parameters point into it.
struct Checked {
  SourceManager sources;
  DiagnosticEngine diags{sources, DiagOptions{false, 0}};
  ast::Program program;
  std::optional<sema::CheckedProgram> checked;
  const sema::Parameters* params = nullptr;

  bool has(DiagKind kind) const {
    for (const Diagnostic& d : diags.diagnostics())
      if (d.kind == kind) return true;
    return false;
  }
};

std::unique_ptr<Checked> check(const std::string& text) {
  auto c = std::make_unique<Checked>();
  parse::Loader loader(c->sources, c->diags, parse::LoadOptions{NDL_TEST_STDLIB_DIR});
  c->program = loader.loadText("test.ndl", text);
  if (!c->diags.hasErrors()) c->checked = sema::check(c->program, c->diags);
  if (c->checked) c->params = &c->checked->params;
  return c;
}

const char* kInsight = NDL_SOURCE(
  (Topology (RDT 2 4 1 64 64))
  (FlowControlMethod VirtualCutThrough)
  (NetworkChannelWidth 32bit)
  (NetworkFrequency 50MHz)
  (NetworkPacketSize 256bit)
  (NetworkDataSize 192bit)
  (NodeHardwareDelay 60nsec)
  (NodeBufferSize 256bit)
  (MessageCreationMax 10000)
  (MessageCreationInterval 2usec)
  (MessageCreationRate 1.0%)
  (MessageLength 8byte to 32byte)
  (MessageMaxCount 10000)
  (SimulationInterval 1usec)
  (DataOutputFile "rdt.4096.vct.dof")
  (ScreenOutputFile "rdt.4096.vct.sof"));

TEST(FrontEndTest, InsightProgramConvertsExactly) {
  auto c = check(kInsight);
  ASSERT_TRUE(c->params) << c->diags.errorCount();
  const sema::Parameters& p = *c->params;
  EXPECT_EQ(c->diags.warningCount(), 0u);
  EXPECT_EQ(c->checked->defs.defs[p.topology.def].name, "RDT");
  EXPECT_EQ(p.topology.args.size(), 5u);
  EXPECT_EQ(p.topology.text, "RDT 2 4 1 64 64");
  EXPECT_EQ(p.flowControl, sema::EnumId::FlowControl_VirtualCutThrough);
  EXPECT_EQ(p.channelWidthBits, 32);
  EXPECT_EQ(p.packetFlits, 8);        // 256 / 32
  EXPECT_EQ(p.headerBits, 64);        // 256 - 192
  EXPECT_EQ(p.bufferFlits, 8);
  EXPECT_EQ(p.routerDelayClocks, 3);  // 60ns * 50MHz
  EXPECT_EQ(p.creationRate, *Rational::make(1, 100));
  EXPECT_EQ(*p.creationIntervalClocks, Rational(100));  // 2us * 50MHz
  EXPECT_EQ(p.messageMinBits, 64);
  EXPECT_EQ(p.messageMaxBits, 256);
  EXPECT_EQ(p.sampleIntervalClocks, 50);
  EXPECT_EQ(p.queueCapacity, 10000);
  EXPECT_EQ(p.dataOutputFile, "rdt.4096.vct.dof");
}

TEST(FrontEndTest, DefaultsFillTheRest) {
  auto c = check(NDL_SOURCE((Topology (Torus 8 8)) (NetworkChannelWidth 64bit)
                            (NetworkFrequency 1GHz) (NetworkPacketSize 4flit)
                            (MessageCreationRate 2.5%)));
  ASSERT_TRUE(c->params);
  const sema::Parameters& p = *c->params;
  EXPECT_EQ(p.flowControl, sema::EnumId::FlowControl_Wormhole);
  EXPECT_EQ(p.packetBits, 256);
  EXPECT_EQ(p.dataBits, 192);  // one flit of header by default
  EXPECT_EQ(p.bufferFlits, 4);  // one packet
  EXPECT_EQ(p.routerDelayClocks, 1);
  EXPECT_EQ(p.linkDelayClocks, 1);
  EXPECT_EQ(p.creditDelayClocks, 1);
  EXPECT_EQ(p.virtualChannels, 1);
  EXPECT_EQ(p.creationRate, *Rational::make(1, 40));
  EXPECT_FALSE(p.creationIntervalClocks);
  EXPECT_EQ(p.messageMinBits, 192);
  EXPECT_EQ(p.traffic.pattern, sema::EnumId::Traffic_Uniform);
}

TEST(FrontEndTest, RateAndIntervalMustAgreeWithinOnePercent) {
  std::string base = NDL_SOURCE((Topology (Torus 8 8)) (NetworkChannelWidth 32bit)
                                (NetworkFrequency 50MHz) (NetworkPacketSize 256bit)
                                (MessageCreationInterval 2usec));
  EXPECT_TRUE(check(base + "(MessageCreationRate 1.009%)")->params);
  auto off = check(base + "(MessageCreationRate 1.02%)");
  EXPECT_FALSE(off->params);
  EXPECT_TRUE(off->has(DiagKind::RateIntervalMismatch));
}

TEST(FrontEndTest, BufferRuleDependsOnFlowControl) {
  std::string base = NDL_SOURCE((Topology (Torus 8 8)) (NetworkChannelWidth 32bit)
                                (NetworkFrequency 50MHz) (NetworkPacketSize 256bit)
                                (MessageCreationInterval 2usec) (NodeBufferSize 64bit));
  EXPECT_TRUE(check(base + "(FlowControlMethod Wormhole)")->params);
  auto vct = check(base + "(FlowControlMethod VirtualCutThrough)");
  EXPECT_TRUE(vct->has(DiagKind::BufferTooSmall));
  auto saf = check(base + "(FlowControlMethod StoreAndForward)");
  EXPECT_TRUE(saf->has(DiagKind::BufferTooSmall));
}

TEST(FrontEndTest, StdlibImportProvidesParameters) {
  auto c = check(NDL_SOURCE((import "insight") (Topology (Hypercube 12))
                            (NetworkChannelWidth 16bit) (NetworkFrequency 25MHz)
                            (MessageCreationInterval 10usec)));
  ASSERT_TRUE(c->params);
  EXPECT_EQ(c->params->packetBits, 256);
  EXPECT_EQ(c->params->headerBits, 64);
  EXPECT_EQ(c->params->routerDelayClocks, 2);
}

TEST(FrontEndTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep = std::string(10000, '(') + std::string(10000, ')');
  auto c = check(deep);
  EXPECT_TRUE(c->has(DiagKind::NestingTooDeep));
  auto open = check(std::string(10000, '('));
  EXPECT_TRUE(open->has(DiagKind::NestingTooDeep));
}

// Random mixes of NDL fragments and raw bytes must give diagnostics, never
// a crash, a hang or an exception.
TEST(FrontEndTest, RandomInputNeverCrashes) {
  const std::vector<std::string> pieces = {
      "(", ")", " ", "\n", "to", "32bit", "1.5GHz", "\"s\"", "\"open", "#|", "|#", ";c\n",
      "Topology", "(Torus 4 4)", "-1", "0x", "99999999999999999999", "\x80", std::string(1, '\0'),
      "\xC3", "NetworkFrequency", "%", "[", "1e999", "x+", "(Sweep", "(import \"no\")"};
  std::mt19937 rng(12345);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
    EXPECT_NO_THROW({
      auto c = check(text);
      (void)c;
    }) << text;
  }
}

}  // namespace
}  // namespace ndl
