//===- TriggerTest.cpp - Triggers of the built-in transformations ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/TransformationRegistry.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

const Transformation &get(const char *Name) {
  const Transformation *T = TransformationRegistry::find(Name);
  EXPECT_NE(T, nullptr) << Name;
  return *T;
}

TEST(TriggerTest, RegistryNamesEveryTransformation) {
  EXPECT_EQ(
      TransformationRegistry::names(),
      "tile-matmul-smem, tile-transpose-smem, warp-per-row, "
      "split-serial-loop, warp-aggregate-atomics, privatize-atomics-smem, "
      "warp-shuffle-reduce, "
      "vectorize-float4, register-accumulate, pad-shared-arrays, "
      "fast-math-intrinsics, "
      "unroll-constant-loops, block-shape, launch-block-size, "
      "launch-bounds, "
      "restrict-readonly-params, inline-device-helpers, "
      "index-induction-variables");
  EXPECT_EQ(TransformationRegistry::find("no-such"), nullptr);
}

TEST(TriggerTest, AbsentMetricsNeverFire) {
  MetricValues Unrelated = {{"sm__cycles_elapsed.avg", 1e9},
                            {"dram__bytes_read.sum", 1e9}};
  for (const Transformation *T : TransformationRegistry::all()) {
    EXPECT_FALSE(T->trigger({})) << T->name().str();
    EXPECT_FALSE(T->trigger(Unrelated)) << T->name().str();
    // An enabling transformation is never tried by itself.
    EXPECT_EQ(T->triggerMetrics().empty(), T->enabling()) << T->name().str();
  }
}

TEST(TriggerTest, TheFirstConditionThatHoldsGivesTheReason) {
  const MetricCondition C[] = {{"a", ">=", 10}, {"b", "<", 5}, {"a", ">", 100}};
  EXPECT_EQ(conditionMetrics(C), (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(firstCondition({}, C));
  EXPECT_FALSE(firstCondition({{"a", 9}, {"b", 5}}, C));
  EXPECT_EQ(firstCondition({{"a", 9}, {"b", 4}}, C),
            std::optional<std::string>("b = 4 < 5"));
  EXPECT_EQ(firstCondition({{"a", 200}, {"b", 4}}, C),
            std::optional<std::string>("a = 200 >= 10"));
}

TEST(TriggerTest, RestrictFiresOnMemoryBoundKernels) {
  const Transformation &T = get("restrict-readonly-params");
  EXPECT_EQ(*T.trigger({{"l1tex__t_sector_hit_rate.pct", 12}}),
            "l1tex__t_sector_hit_rate.pct = 12 < 50");
  EXPECT_FALSE(T.trigger({{"l1tex__t_sector_hit_rate.pct", 50}}));
  EXPECT_EQ(
      *T.trigger(
          {{"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 40}}),
      "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed = 40 >= 40");
  EXPECT_FALSE(T.trigger(
      {{"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 39.5}}));
  EXPECT_TRUE(T.trigger({{"lts__t_sector_hit_rate.pct", 49.9}}));
  EXPECT_FALSE(T.trigger({{"lts__t_sector_hit_rate.pct", 80}}));
}

TEST(TriggerTest, UnrollFiresOnDependencyStalls) {
  const Transformation &T = get("unroll-constant-loops");
  const char *Short =
      "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active."
      "ratio";
  const char *Long =
      "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
      "ratio";
  const char *Issue = "smsp__issue_active.avg.pct_of_peak_sustained_active";
  EXPECT_TRUE(T.trigger({{Short, 0.5}}));
  EXPECT_FALSE(T.trigger({{Short, 0.4}}));
  EXPECT_TRUE(T.trigger({{Long, 2.5}}));
  EXPECT_FALSE(T.trigger({{Long, 0.9}}));
  EXPECT_EQ(*T.trigger({{Issue, 25}}), std::string(Issue) + " = 25 < 40");
  EXPECT_FALSE(T.trigger({{Issue, 60}}));
}

TEST(TriggerTest, PadFiresOnBankConflicts) {
  const Transformation &T = get("pad-shared-arrays");
  EXPECT_TRUE(T.trigger(
      {{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1}}));
  EXPECT_FALSE(T.trigger(
      {{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0}}));
  EXPECT_TRUE(T.trigger(
      {{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 64}}));
  EXPECT_EQ(*T.trigger({{"derived__shared_bank_conflict_pct", 6}}),
            "derived__shared_bank_conflict_pct = 6 > 5");
  EXPECT_FALSE(T.trigger({{"derived__shared_bank_conflict_pct", 5}}));
}

TEST(TriggerTest, WarpPerRowFiresOnUncoalescedLoads) {
  const Transformation &T = get("warp-per-row");
  const char *Sectors =
      "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
  EXPECT_EQ(*T.trigger({{Sectors, 16.5}}),
            std::string(Sectors) + " = 16.5 >= 8");
  EXPECT_FALSE(T.trigger({{Sectors, 4}}));
  EXPECT_TRUE(T.trigger({{"derived__global_excess_sectors_pct", 30}}));
  EXPECT_FALSE(T.trigger({{"derived__global_excess_sectors_pct", 25}}));
  const char *Wait =
      "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
      "ratio";
  EXPECT_EQ(*T.trigger({{Wait, 136}}), std::string(Wait) + " = 136 >= 10");
  EXPECT_FALSE(T.trigger({{Wait, 9}}));
}

TEST(TriggerTest, PrivatizeAtomicsFiresOnGlobalAtomics) {
  const Transformation &T = get("privatize-atomics-smem");
  const char *Red = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
  const char *Atom = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
  EXPECT_EQ(*T.trigger({{Red, 4096}}), std::string(Red) + " = 4096 > 0");
  EXPECT_FALSE(T.trigger({{Red, 0}}));
  EXPECT_TRUE(T.trigger({{Red, 0}, {Atom, 5}}));
  EXPECT_FALSE(T.trigger({{Red, 0}, {Atom, 0}}));
}

TEST(TriggerTest, WarpAggregateAtomicsFiresOnGlobalAtomics) {
  const Transformation &T = get("warp-aggregate-atomics");
  const char *Red = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
  const char *Atom = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
  EXPECT_EQ(*T.trigger({{Red, 4096}}), std::string(Red) + " = 4096 > 0");
  EXPECT_TRUE(T.trigger({{Red, 0}, {Atom, 1}}));
  EXPECT_FALSE(T.trigger({{Red, 0}, {Atom, 0}}));
}

TEST(TriggerTest, RegisterAccumulateFiresOnStoresOrWaitedLoads) {
  const Transformation &T = get("register-accumulate");
  const char *St = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
  const char *Ld = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  // One store sector for every three loaded: a store each iteration.
  std::optional<std::string> R = T.trigger({{St, 1e6}, {Ld, 3e6}});
  ASSERT_TRUE(R);
  EXPECT_NE(R->find(">= 0.1 x"), std::string::npos) << *R;
  // One store per output after a long loop.
  EXPECT_FALSE(T.trigger({{St, 1e4}, {Ld, 3e6}}));
  // Stores alone, or loads of nothing, say nothing.
  EXPECT_FALSE(T.trigger({{St, 1e6}}));
  EXPECT_FALSE(T.trigger({{St, 1e6}, {Ld, 0}}));
  EXPECT_TRUE(T.trigger(
      {{"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
        "ratio",
        12}}));
  EXPECT_TRUE(T.trigger(
      {{"smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
        5}}));
}

TEST(TriggerTest, SplitSerialLoopFiresOnAGridTooSmallForTheGPU) {
  const Transformation &T = get("split-serial-loop");
  EXPECT_EQ(*T.trigger({{"launch__waves_per_multiprocessor", 0.25}}),
            "launch__waves_per_multiprocessor = 0.25 < 1");
  EXPECT_FALSE(T.trigger({{"launch__waves_per_multiprocessor", 3}}));
  EXPECT_TRUE(
      T.trigger({{"sm__warps_active.avg.pct_of_peak_sustained_active", 12}}));
  EXPECT_FALSE(
      T.trigger({{"sm__warps_active.avg.pct_of_peak_sustained_active", 80}}));
}

TEST(TriggerTest, BlockShapeFiresOnWastedSectorsOrFewWarps) {
  const Transformation &T = get("block-shape");
  EXPECT_EQ(*T.trigger({{"derived__global_excess_sectors_pct", 40}}),
            "derived__global_excess_sectors_pct = 40 >= 25");
  EXPECT_FALSE(T.trigger({{"derived__global_excess_sectors_pct", 10}}));
  EXPECT_TRUE(
      T.trigger({{"sm__warps_active.avg.pct_of_peak_sustained_active", 30}}));
  EXPECT_FALSE(
      T.trigger({{"sm__warps_active.avg.pct_of_peak_sustained_active", 70}}));
  // Its variants are the shapes it tries, then the coarsenings.
  EXPECT_EQ(T.variants(),
            (std::vector<std::string>{"32x8", "16x16", "32x4", "64x4",
                                      "2-per-thread", "4-per-thread"}));
}

TEST(TriggerTest, FastMathFiresOnABusySpecialFunctionPipe) {
  const Transformation &T = get("fast-math-intrinsics");
  const char *XU = "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active";
  EXPECT_TRUE(T.trigger({{XU, 3.4}}));
  EXPECT_FALSE(T.trigger({{XU, 2.9}}));
}

TEST(TriggerTest, LaunchBoundsNeedsBothOccupancyLimits) {
  const Transformation &T = get("launch-bounds");
  EXPECT_FALSE(T.trigger({{"launch__occupancy_limit_registers", 2}}));
  EXPECT_FALSE(T.trigger({{"launch__occupancy_limit_warps", 8}}));
  EXPECT_EQ(*T.trigger({{"launch__occupancy_limit_registers", 2},
                        {"launch__occupancy_limit_warps", 8}}),
            "launch__occupancy_limit_registers = 2 < "
            "launch__occupancy_limit_warps = 8");
  EXPECT_FALSE(T.trigger({{"launch__occupancy_limit_registers", 8},
                          {"launch__occupancy_limit_warps", 8}}));
}

TEST(TriggerTest, LaunchBlockSizeFiresOnLowOccupancyOrATail) {
  const Transformation &T = get("launch-block-size");
  // Its variants are the block sizes it tries.
  EXPECT_EQ(T.variants(), (std::vector<std::string>{"128", "256", "512"}));
  const char *Active = "sm__warps_active.avg.pct_of_peak_sustained_active";
  EXPECT_EQ(*T.trigger({{Active, 30}}), std::string(Active) + " = 30 < 50");
  EXPECT_FALSE(T.trigger({{Active, 50}}));
  EXPECT_EQ(*T.trigger({{"launch__occupancy_limit_blocks", 16},
                        {"launch__occupancy_limit_warps", 32}}),
            "launch__occupancy_limit_blocks = 16 < "
            "launch__occupancy_limit_warps = 32");
  EXPECT_FALSE(T.trigger({{"launch__occupancy_limit_blocks", 16}}));
  EXPECT_FALSE(T.trigger({{"launch__occupancy_limit_blocks", 32},
                          {"launch__occupancy_limit_warps", 8}}));
  const char *Waves = "launch__waves_per_multiprocessor";
  EXPECT_EQ(*T.trigger({{Waves, 1.2}}),
            "launch__waves_per_multiprocessor = 1.2 leaves 40 % of the wave "
            "slots idle >= 25 %");
  EXPECT_TRUE(T.trigger({{Waves, 0.5}}));
  EXPECT_FALSE(T.trigger({{Waves, 2}}));
  EXPECT_FALSE(T.trigger({{Waves, 10.5}}));
  EXPECT_FALSE(T.trigger({{Waves, 0}}));
}

TEST(TriggerTest, VectorizeFiresOnMemoryBoundKernels) {
  const Transformation &T = get("vectorize-float4");
  const char *Dram = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
  const char *Lg =
      "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio";
  EXPECT_EQ(*T.trigger({{Dram, 85}}), std::string(Dram) + " = 85 >= 50");
  EXPECT_TRUE(T.trigger({{Dram, 50}}));
  EXPECT_FALSE(T.trigger({{Dram, 49}}));
  EXPECT_EQ(*T.trigger({{Lg, 1.5}}), std::string(Lg) + " = 1.5 >= 1");
  EXPECT_FALSE(T.trigger({{Lg, 0.2}}));
  EXPECT_FALSE(T.trigger({{Dram, 10}, {Lg, 0.2}}));
}

TEST(TriggerTest, TileTransposeFiresOnUncoalescedAccesses) {
  const Transformation &T = get("tile-transpose-smem");
  const char *St =
      "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio";
  const char *Ld =
      "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
  EXPECT_EQ(*T.trigger({{St, 32}}), std::string(St) + " = 32 > 8");
  EXPECT_FALSE(T.trigger({{St, 4}}));
  EXPECT_TRUE(T.trigger({{Ld, 16}}));
  EXPECT_FALSE(T.trigger({{Ld, 8}}));
  EXPECT_TRUE(T.trigger({{"derived__global_excess_sectors_pct", 60}}));
  EXPECT_FALSE(T.trigger({{"derived__global_excess_sectors_pct", 25}}));
  const char *Wait =
      "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
      "ratio";
  EXPECT_TRUE(T.trigger({{Wait, 80}}));
  EXPECT_FALSE(T.trigger({{Wait, 9}}));
}

TEST(TriggerTest, WarpShuffleReduceFiresOnBarrierStallsOrDivergence) {
  const Transformation &T = get("warp-shuffle-reduce");
  const char *Barrier =
      "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio";
  const char *Uniform = "derived__branch_uniformity_pct";
  const char *Threads =
      "smsp__average_thread_inst_executed_per_inst_executed.ratio";
  EXPECT_EQ(*T.trigger({{Barrier, 2.5}}), std::string(Barrier) + " = 2.5 >= 1");
  EXPECT_TRUE(T.trigger({{Barrier, 1}}));
  EXPECT_FALSE(T.trigger({{Barrier, 0.5}}));
  EXPECT_EQ(*T.trigger({{Uniform, 70}}), std::string(Uniform) + " = 70 < 90");
  EXPECT_FALSE(T.trigger({{Uniform, 90}}));
  EXPECT_TRUE(T.trigger({{Threads, 12}}));
  EXPECT_FALSE(T.trigger({{Threads, 24}}));
  EXPECT_TRUE(T.trigger({{"derived__shared_bank_conflict_pct", 40}}));
  EXPECT_FALSE(T.trigger({{"derived__shared_bank_conflict_pct", 5}}));
  EXPECT_FALSE(T.trigger({{Barrier, 0.1}, {Uniform, 99}, {Threads, 32}}));
}

TEST(TriggerTest, TileMatmulFiresOnGlobalMemoryTraffic) {
  const Transformation &T = get("tile-matmul-smem");
  const char *L2 = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
  const char *Dram = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
  const char *L1Hit = "l1tex__t_sector_hit_rate.pct";
  const char *Excess = "derived__global_excess_sectors_pct";
  const char *L1 = "l1tex__throughput.avg.pct_of_peak_sustained_active";
  const char *Wait =
      "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
      "ratio";
  EXPECT_EQ(*T.trigger({{Wait, 23}}), std::string(Wait) + " = 23 >= 10");
  EXPECT_FALSE(T.trigger({{Wait, 9}}));
  EXPECT_EQ(*T.trigger({{L1, 99}}), std::string(L1) + " = 99 >= 60");
  EXPECT_FALSE(T.trigger({{L1, 59}}));
  EXPECT_EQ(*T.trigger({{L2, 80}}), std::string(L2) + " = 80 >= 50");
  EXPECT_FALSE(T.trigger({{L2, 49}}));
  EXPECT_TRUE(T.trigger({{Dram, 50}}));
  EXPECT_FALSE(T.trigger({{Dram, 30}}));
  EXPECT_EQ(*T.trigger({{L1Hit, 12}}), std::string(L1Hit) + " = 12 < 50");
  EXPECT_FALSE(T.trigger({{L1Hit, 50}}));
  EXPECT_TRUE(T.trigger({{Excess, 40}}));
  EXPECT_FALSE(T.trigger({{Excess, 25}}));
  EXPECT_FALSE(T.trigger({{L2, 20}, {Dram, 10}, {L1Hit, 90}, {Excess, 0}}));
}

} // namespace
