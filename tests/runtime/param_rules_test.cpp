// The --param rules (param_rules.h) against the runtime they describe: the enums' names in
// the runtime's order, every row an entry of the tables, and applyAbiParams checking each
// value against its row and the entries against each other.
#include "ndl/runtime/sim/param_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ndl/runtime/sim/abi_params.h"
#include "ndl/runtime/sim/generated_abi.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/traffic/traffic.h"

namespace ndl::rt {
namespace {

TEST(ParamRules, EnumNamesAreTheRuntimesInOrder) {
  for (size_t k = 0; k < std::size(kFlowControlNames); ++k)
    EXPECT_EQ(flowControlName(static_cast<FlowControl>(k)), kFlowControlNames[k]);
  for (size_t k = 0; k < std::size(kQueueOverflowNames); ++k)
    EXPECT_EQ(queueOverflowName(static_cast<QueueOverflow>(k)), kQueueOverflowNames[k]);
  for (size_t k = 0; k < std::size(kPatternNames); ++k) {
    EXPECT_EQ(patternName(static_cast<TrafficPattern>(k)), kPatternNames[k]);
    if (static_cast<TrafficPattern>(k) != TrafficPattern::kCustom) {
      EXPECT_NE(destFnFor(static_cast<TrafficPattern>(k)), nullptr) << kPatternNames[k];
    }
  }
  // The last is the program's own pattern written in NDL, whose function is generated code.
  EXPECT_EQ(static_cast<size_t>(TrafficPattern::kCustom) + 1, std::size(kPatternNames));
  EXPECT_EQ(destFnFor(TrafficPattern::kCustom), nullptr);
  EXPECT_EQ(static_cast<int>(CreationProcess::kPeriodic), 1);
  EXPECT_EQ(static_cast<int>(CreationProcess::kOnOff), 2);
}

TEST(ParamRules, RowsAreDistinctEntriesOfTheTables) {
  for (const ParamRule& r : kParamRules) {
    EXPECT_EQ(findParamRule(r.name), &r) << r.name;
    const int count = r.table == AbiTable::kI64   ? static_cast<int>(NDL_P_I64_COUNT)
                      : r.table == AbiTable::kF64 ? static_cast<int>(NDL_P_F64_COUNT)
                                                  : static_cast<int>(NDL_P_STR_COUNT);
    EXPECT_GE(r.index, 0) << r.name;
    EXPECT_LT(r.index, count) << r.name;
    if (r.kind == ParamKind::kEnum) {
      EXPECT_EQ(r.max + 1, static_cast<int64_t>(r.names.size())) << r.name;
    }
  }
  // Derived by the compiler with the packet's layout, or compiled into the code.
  for (const char* name : {"ChannelWidthBits", "PacketFlits", "HeaderFlits", "DataBitsPerPacket",
                           "PacketPerMessage", "VirtualChannels", "Deadlock", "NumNodes"})
    EXPECT_EQ(findParamRule(name), nullptr) << name;
  EXPECT_EQ(paramEnumCode("Pattern", "HotSpot"), 7);
  EXPECT_EQ(paramEnumCode("FlowControl", "Wormhole"), 2);
  EXPECT_EQ(paramEnumCode("FlowControl", "Cut"), std::nullopt);
}

// Tables as a uniform-traffic simulator without hot spots holds them.
AbiValues tables() {
  AbiValues v;
  v.i64.assign(NDL_P_I64_COUNT, 0);
  v.f64.assign(NDL_P_F64_COUNT, 0.0);
  v.str.assign(NDL_P_STR_COUNT, "");
  v.i64[NDL_P_FlowControl] = 2;
  v.i64[NDL_P_LinkDelayClocks] = 1;
  v.f64[NDL_P_CreationRate] = 0.01;
  v.i64[NDL_P_UserPattern] = -1;
  return v;
}

std::string refusal(std::vector<std::string> args, AbiValues v = tables()) {
  std::string error;
  if (applyAbiParams(v, args, &error)) return "accepted";
  return error;
}

TEST(ParamRules, ValuesOutsideTheirRuleAreRefusedWithTheRule) {
  EXPECT_EQ(refusal({"Pattern=20"}),
            "--param Pattern=20: not a Pattern: expected 0 Uniform, 1 BitReversal, 2 "
            "BitComplement, 3 Transpose, 4 Shuffle, 5 Tornado, 6 Neighbor, 7 HotSpot, 8 "
            "AllToAll, 9 Diagonal, 10 Asymmetric, 11 RandomPermutation, 12 BadDragon or 13 "
            "Custom (the code or the name) (the program's TrafficPattern)");
  for (const char* v :
       {"Pattern=-1", "Pattern=255", "Pattern=14", "FlowControl=3", "FlowControl=256",
        "QueueOverflow=2", "CreationProcess=3", "AtomicVcAllocation=2", "FlowControl=wormhole"})
    EXPECT_NE(refusal({v}).find("not a "), std::string::npos) << v;
  EXPECT_EQ(refusal({"LinkDelayClocks=300"}),
            "--param LinkDelayClocks=300: out of range: LinkDelayClocks is 1 to 255 network "
            "clocks (the program's LinkDelay)");
  EXPECT_EQ(refusal({"CreditDelayClocks=256"}),
            "--param CreditDelayClocks=256: out of range: CreditDelayClocks is 1 to 255 network "
            "clocks (the program's CreditDelay)");
  EXPECT_EQ(refusal({"DeadlockTimeoutClocks=0"}),
            "--param DeadlockTimeoutClocks=0: out of range: DeadlockTimeoutClocks is 1 to "
            "2305843009213693951 network clocks (the program's DeadlockTimeout)");
  EXPECT_EQ(refusal({"TimeLimitClocks=-5"}),
            "--param TimeLimitClocks=-5: out of range: TimeLimitClocks is 0 (the default stop) "
            "or at least 1 network clocks (the program's SimulationTime)");
  EXPECT_EQ(refusal({"HotSpotShare=5"}),
            "--param HotSpotShare=5: out of range: HotSpotShare is 0 (no hot-spot traffic) or "
            "above 0 and at most 1 (the program's TrafficPattern)");
  for (const char* v :
       {"HotSpotShare=-1", "CreationIntervalClocks=-1", "CreationIntervalClocks=0.5",
        "HeaderDelayClocks=-1", "RouterDelayClocks=-2", "BufferFlits=32768", "CreationRate=1.5",
        "NetworkFrequencyHz=0", "WarmupMessages=-1", "SamplingIntervalClocks=0", "ExpandRate=-0.5",
        "QueueCapacity=0", "MessageMinBits=0", "LinkDelayClocks=99999999999999999999",
        "CreationRate=1e999"})
    EXPECT_NE(refusal({v}).find("out of range"), std::string::npos) << v;
  EXPECT_EQ(refusal({"Seed=-1"}),
            "--param Seed=-1: expected an unsigned integer, 0 to 18446744073709551615");
  EXPECT_EQ(refusal({"CreationRate= 0.5"}),
            "--param CreationRate= 0.5: expected a number (converted values only)");
  EXPECT_EQ(refusal({"CreationRate=nan"}),
            "--param CreationRate=nan: expected a number (converted values only)");
}

TEST(ParamRules, EntriesThatShapeTheSimulatorNameTheRebuild) {
  for (const char* v : {"ChannelWidthBits=64", "HeaderFlits=3", "DataBitsPerPacket=1000",
                        "PacketFlits=16", "PacketPerMessage=1", "NetworkDataSize=64"}) {
    EXPECT_NE(refusal({v}).find("shapes the simulator itself; change it in the program and "
                                "rebuild (ndlc run FILE --set ... rebuilds when needed)"),
              std::string::npos)
        << v;
  }
}

TEST(ParamRules, ValuesWithNothingToActOnAreRefused) {
  EXPECT_EQ(refusal({"HotSpotShare=0.3"}),
            "--param HotSpotShare=0.3: has no effect: it is the share of HotSpot traffic, and "
            "the pattern is Uniform");
  EXPECT_EQ(refusal({"ExpandRate=0.5"}),
            "--param ExpandRate=0.5: has no effect: it scales the compute gaps of a "
            "communication pattern file, and this run has none (PatternFile)");
  EXPECT_EQ(refusal({"Pattern=HotSpot"}),
            "--param Pattern=HotSpot: this simulator has no hot-spot nodes: they are compiled "
            "in; write (TrafficPattern (HotSpot 10% (Nodes ...))) in the program and rebuild "
            "(ndlc run FILE --set ... rebuilds when needed)");
  EXPECT_EQ(refusal({"Pattern=Custom"}),
            "--param Pattern=Custom: Custom is the program's own pattern written in NDL "
            "(define-pattern), and this simulator's program gives its main traffic (its first "
            "class) none: it is compiled in");
  AbiValues own = tables();
  own.i64[NDL_P_UserPattern] = 0;
  EXPECT_EQ(refusal({"Pattern=Custom"}, own), "accepted");
  // Their neutral values are taken, and a pattern file gives ExpandRate its effect.
  EXPECT_EQ(refusal({"HotSpotShare=0", "ExpandRate=0"}), "accepted");
  EXPECT_EQ(refusal({"ExpandRate=0.5", "PatternFile=/tmp/app.cpf"}), "accepted");

  AbiValues hot = tables();
  hot.i64[NDL_P_Pattern] = 7;
  hot.i64[NDL_P_HotSpotCount] = 2;
  hot.f64[NDL_P_HotSpotShare] = 0.2;
  EXPECT_EQ(refusal({"HotSpotShare=0.5"}, hot), "accepted");
  EXPECT_EQ(refusal({"Pattern=Uniform", "HotSpotShare=0.5"}, hot),
            "--param HotSpotShare=0.5: has no effect: it is the share of HotSpot traffic, and "
            "the pattern is Uniform");
  EXPECT_EQ(refusal({"HotSpotShare=0"}, hot),
            "--param HotSpotShare=0: HotSpot traffic needs a HotSpotShare above 0 (0 sends no "
            "message to the hot spots: that is Pattern=Uniform)");
  // A compiled share that another entry makes moot is not reported.
  std::string error;
  ASSERT_TRUE(applyAbiParams(hot, {"Pattern=Transpose"}, &error)) << error;
  EXPECT_EQ(hot.f64[NDL_P_HotSpotShare], 0.0);
  EXPECT_EQ(hot.i64[NDL_P_Pattern], 3);
}

TEST(ParamRules, PredictorTimingsNeedAPredictor) {
  EXPECT_EQ(refusal({"PredictHeaderClocks=3"}),
            "--param PredictHeaderClocks=3: has no effect: this simulator has no predictor; "
            "write (Predictor Name) and (PredictivePath ...) in the program and rebuild "
            "(docs/prediction.md)");
  EXPECT_NE(refusal({"PredictorLatencyClocks=2"}).find("has no effect"), std::string::npos);
  AbiValues predicting = tables();
  predicting.i64[NDL_P_Predictor] = 1;
  EXPECT_EQ(refusal({"PredictHeaderClocks=3", "PredictorLatencyClocks=2"}, predicting),
            "accepted");
  EXPECT_NE(refusal({"MispredictionCheck=None"}).find("has no effect"), std::string::npos);
}

TEST(ParamRules, NoHintBitsNeedWholePacketBuffers) {
  AbiValues predicting = tables();
  predicting.i64[NDL_P_Predictor] = 1;
  predicting.i64[NDL_P_FlowControl] = *paramEnumCode("FlowControl", "VirtualCutThrough");
  EXPECT_EQ(refusal({"MispredictionCheck=None"}, predicting), "accepted");
  EXPECT_EQ(refusal({"MispredictionCheck=None", "FlowControl=Wormhole"}, predicting),
            "--param MispredictionCheck=None: needs a buffer that holds the whole packet (a "
            "mispredicted packet's copy leaves from it, then the packet itself); FlowControl is "
            "Wormhole: give FlowControl=VirtualCutThrough, or MispredictionCheck=HintBits");
  EXPECT_NE(refusal({"MispredictionCheck=Later"}, predicting).find("Later"), std::string::npos);
  // A simulator that drops packets in deadlocks cannot account copies.
  AbiValues dropping = predicting;
  dropping.i64[NDL_P_Deadlock] = static_cast<int64_t>(DeadlockHandling::kDrop);
  EXPECT_EQ(refusal({"MispredictionCheck=None"}, dropping),
            "--param MispredictionCheck=None: sends copies of packets that are no message's, and "
            "this simulator drops packets in deadlocks (DeadlockHandling Drop or "
            "DropAfterTimeout, compiled in): write (DeadlockHandling Avoid) in the program and "
            "rebuild");
  dropping.i64[NDL_P_Deadlock] = static_cast<int64_t>(DeadlockHandling::kDetect);
  EXPECT_EQ(refusal({"MispredictionCheck=None"}, dropping), "accepted");
}

TEST(ParamRules, OnOffTakesItsBurstAndDutyAndOnlyIt) {
  EXPECT_EQ(refusal({"CreationProcess=OnOff", "OnOffBurstClocks=100", "OnOffDuty=0.25"}),
            "accepted");
  EXPECT_EQ(refusal({"CreationProcess=OnOff", "OnOffBurstClocks=100"}),
            "--param CreationProcess=OnOff: OnOff needs OnOffBurstClocks (the mean on period, at "
            "least 1) and OnOffDuty (the share of the time on, above 0 and at most 1)");
  EXPECT_EQ(refusal({"OnOffDuty=0.5"}),
            "--param OnOffDuty=0.5: has no effect: it shapes the OnOff process, and "
            "CreationProcess is not OnOff");
  EXPECT_NE(refusal({"CreationProcess=OnOff", "OnOffBurstClocks=100", "OnOffDuty=1.5"})
                .find("out of range"),
            std::string::npos);
  // Compiled-in values of a process switched away from OnOff are set to 0 (neutral).
  AbiValues on_off = tables();
  on_off.i64[NDL_P_CreationProcess] = *paramEnumCode("CreationProcess", "OnOff");
  on_off.f64[NDL_P_OnOffBurstClocks] = 100;
  on_off.f64[NDL_P_OnOffDuty] = 0.25;
  EXPECT_EQ(refusal({"CreationProcess=Bernoulli"}, on_off), "accepted");
}

TEST(ParamRules, MeasurementTakesTheBurstsCountsOnlyUnderBurst) {
  AbiValues steady = tables();
  steady.i64[NDL_P_Measurement] = *paramEnumCode("Measurement", "Steady");
  std::string error;
  // A count of the burst selects the burst, as the form does in the checker.
  AbiValues v = steady;
  ASSERT_TRUE(applyAbiParams(v, {"CreationMax=500"}, &error)) << error;
  EXPECT_EQ(v.i64[NDL_P_Measurement], *paramEnumCode("Measurement", "Burst"));
  EXPECT_EQ(v.i64[NDL_P_CreationMax], 500);
  EXPECT_EQ(refusal({"Measurement=Steady", "WarmupMessages=100"}, steady),
            "--param WarmupMessages=100: belongs to a burst run, and Measurement=Steady warms up, "
            "measures and ends by itself; give Measurement=Burst");
  // 0 is a steady run's value of each (ndlc run passes it to a simulator built for a burst).
  AbiValues burst = tables();
  burst.i64[NDL_P_CreationMax] = 600;
  burst.i64[NDL_P_WarmupMessages] = 100;
  ASSERT_TRUE(applyAbiParams(burst, {"Measurement=Steady", "CreationMax=0", "WarmupMessages=0"},
                             &error))
      << error;
  EXPECT_EQ(burst.i64[NDL_P_Measurement], *paramEnumCode("Measurement", "Steady"));
  // Under Steady compiled-in counts are set to 0; a Burst chosen without one takes 10000.
  burst.i64[NDL_P_Measurement] = 0;
  burst.i64[NDL_P_MeasuredMessages] = 300;
  ASSERT_TRUE(applyAbiParams(burst, {"Measurement=Steady"}, &error)) << error;
  EXPECT_EQ(burst.i64[NDL_P_CreationMax], 0);
  EXPECT_EQ(burst.i64[NDL_P_MeasuredMessages], 0);
  v = steady;
  ASSERT_TRUE(applyAbiParams(v, {"Measurement=Burst"}, &error)) << error;
  EXPECT_EQ(v.i64[NDL_P_CreationMax], 10000);
  EXPECT_NE(refusal({"Measurement=Steady", "PatternFile=/tmp/app.cpf"}).find("no steady state"),
            std::string::npos);
}

TEST(ParamRules, AZeroRateNeedsAPatternFile) {
  EXPECT_EQ(refusal({"CreationRate=0"}),
            "--param CreationRate=0: synthetic traffic is off (CreationRate 0) and this run has "
            "no pattern file (PatternFile): nothing would be sent");
  EXPECT_EQ(refusal({"CreationRate=0", "PatternFile=/tmp/app.cpf"}), "accepted");
  AbiValues pattern_only = tables();
  pattern_only.f64[NDL_P_CreationRate] = 0;
  EXPECT_EQ(refusal({"PatternFile="}, pattern_only),
            "--param CreationRate=0 (compiled in): synthetic traffic is off (CreationRate 0) "
            "and this run has no pattern file (PatternFile): nothing would be sent");
}

TEST(ParamRules, EnumsTakeNamesAndSeedsTheWholeRange) {
  AbiValues v = tables();
  std::string error;
  ASSERT_TRUE(applyAbiParams(v,
                             {"FlowControl=VirtualCutThrough", "QueueOverflow=1",
                              "Seed=18446744073709551615", "TimeLimitClocks=0"},
                             &error))
      << error;
  EXPECT_EQ(v.i64[NDL_P_FlowControl], 1);
  EXPECT_EQ(v.i64[NDL_P_QueueOverflow], 1);
  EXPECT_EQ(static_cast<uint64_t>(v.i64[NDL_P_Seed]), 18446744073709551615u);
  SimParams p;
  setRuntimeParams(v, p);
  EXPECT_EQ(p.seed, 18446744073709551615u);
  EXPECT_EQ(p.flow_control, FlowControl::kVirtualCutThrough);
}

}  // namespace
}  // namespace ndl::rt
