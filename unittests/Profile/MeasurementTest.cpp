//===- MeasurementTest.cpp - The measurement record and its configuration -===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profile/Measurement.h"
#include "MeasureConfig.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::inject;

namespace {

TEST(MeasurementTest, RoundTrip) {
  Measurement M;
  M.DramBytesPerSecond = 4.8e12;
  M.L2Bytes = 52428800;
  KernelMeasurement K;
  K.MangledName = "_Z5scalePKfPfi";
  K.Launches = 5;
  K.DurationsNs = {1000.5, 900, 901};
  K.SnapshotLaunch = 0;
  K.Snapshots.push_back({{1, 2}, 64, 60, "/tmp/s/out.bin"});
  K.PoisonedBytes = 48;
  K.OutsideWatched = 3;
  K.OutsideChanged = {4096, 8};
  M.Kernels.push_back(K);
  KernelMeasurement Other;
  Other.MangledName = "_Z4prepv";
  Other.Launches = 1;
  Other.DurationsNs = {50};
  Other.Other = true;
  M.Kernels.push_back(Other);
  M.Errors.push_back("kernel x: argument 3 does not point into device memory");
  Measurement Back;
  std::string Err;
  ASSERT_TRUE(parseMeasurementJSON(writeMeasurementJSON(M), Back, Err)) << Err;
  EXPECT_DOUBLE_EQ(Back.DramBytesPerSecond, 4.8e12);
  ASSERT_EQ(Back.Kernels.size(), 2u);
  EXPECT_TRUE(Back.Kernels[1].Other);
  const KernelMeasurement *B = Back.find("_Z5scalePKfPfi");
  EXPECT_FALSE(B->Other);
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Launches, 5u);
  EXPECT_EQ(B->DurationsNs, K.DurationsNs);
  ASSERT_EQ(B->Snapshots.size(), 1u);
  EXPECT_EQ(B->Snapshots[0].Params, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(B->Snapshots[0].ChangedBytes, 60u);
  EXPECT_EQ(B->Snapshots[0].File, "/tmp/s/out.bin");
  EXPECT_EQ(B->PoisonedBytes, 48u);
  EXPECT_EQ(B->OutsideWatched, 3u);
  EXPECT_EQ(B->OutsideChanged, (std::vector<uint64_t>{4096, 8}));
  EXPECT_EQ(Back.Errors, M.Errors);
  EXPECT_EQ(Back.find("_Z5other"), nullptr);
}

TEST(MeasurementTest, BadInputNamesThePath) {
  auto Error = [](const std::string &Text) {
    Measurement M;
    std::string Err;
    EXPECT_FALSE(parseMeasurementJSON(Text, M, Err));
    return Err;
  };
  EXPECT_EQ(Error("{\"version\": 1,"), "1:15: malformed JSON: Missing a name "
                                       "for object member.");
  EXPECT_EQ(Error("{\"version\": 2, \"kernels\": []}"),
            "$.version: expected version 1");
  EXPECT_EQ(Error("{\"version\": 1}"), "$.kernels: expected an array");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"launches\": 1}]}"),
            "$.kernels[0]: missing 'mangled_name'");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"mangled_name\": \"k\", "
                  "\"durations_ns\": [1, -2]}]}"),
            "$.kernels[0].durations_ns: expected an array of non-negative "
            "numbers");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"mangled_name\": \"k\", "
                  "\"snapshots\": [{\"file\": \"f\", \"params\": [0], "
                  "\"bytes\": 4, \"changed_bytes\": 8}]}]}"),
            "$.kernels[0].snapshots[0].changed_bytes: expected a byte count "
            "up to 'bytes'");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"mangled_name\": \"k\", "
                  "\"other\": 1}]}"),
            "$.kernels[0].other: expected true or false");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"mangled_name\": \"k\", "
                  "\"poisoned_bytes\": -4}]}"),
            "$.kernels[0].poisoned_bytes: expected a byte count");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"mangled_name\": \"k\", "
                  "\"outside_changed\": [1, \"x\"]}]}"),
            "$.kernels[0].outside_changed: expected an array of byte counts");
  EXPECT_EQ(Error("{\"version\": 1, \"kernels\": [{\"mangled_name\": \"k\", "
                  "\"outside_watched\": 1.5}]}"),
            "$.kernels[0].outside_watched: expected a non-negative integer");
}

TEST(MeasureConfigTest, ParsesAndRejects) {
  MeasureConfig C;
  std::string Err;
  ASSERT_TRUE(parseMeasureConfig(
      "{\"output\": \"o.json\", \"snapshot_dir\": \"d\", "
      "\"snapshot_launch\": 2, \"kernels\": {\"_Z1kPf\": [0, 2]}}",
      "c.json", C, Err))
      << Err;
  EXPECT_EQ(C.Output, "o.json");
  EXPECT_EQ(C.SnapshotDir, "d");
  EXPECT_EQ(C.SnapshotLaunch, 2u);
  EXPECT_EQ(C.Kernels["_Z1kPf"], (std::vector<unsigned>{0, 2}));

  MeasureConfig D;
  EXPECT_FALSE(parseMeasureConfig("{\"output\": \"o\", \"kernels\": "
                                  "{\"k\": [-1]}}",
                                  "c.json", D, Err));
  EXPECT_EQ(Err, "malformed measurement configuration 'c.json': "
                 "$.kernels.k: expected an array of parameter indices");
  EXPECT_FALSE(parseMeasureConfig("[]", "c.json", D, Err));
  EXPECT_EQ(Err, "malformed measurement configuration 'c.json': not a JSON "
                 "object");
}

TEST(MeasureConfigTest, Poison) {
  MeasureConfig C;
  std::string Err;
  ASSERT_TRUE(parseMeasureConfig(
      "{\"output\": \"o.json\", \"snapshot_dir\": \"d\", "
      "\"snapshot_launch\": 1, \"kernels\": {\"_Z1kPf\": [0, 2]}, "
      "\"poison\": {\"launch\": 1, \"seed\": 18446744073709551615, "
      "\"kinds\": {\"_Z1kPf\": [\"f32\", \"i32\"]}}}",
      "c.json", C, Err))
      << Err;
  EXPECT_EQ(C.PoisonLaunch, 1u);
  EXPECT_EQ(C.PoisonSeed, 18446744073709551615ull);
  EXPECT_EQ(C.PoisonKinds["_Z1kPf"], (std::vector<std::string>{"f32", "i32"}));
  MeasureConfig D;
  EXPECT_FALSE(parseMeasureConfig("{\"output\": \"o\", \"kernels\": {}, "
                                  "\"poison\": {\"launch\": 0, \"seed\": 1}}",
                                  "c.json", D, Err));
  EXPECT_EQ(Err, "malformed measurement configuration 'c.json': "
                 "$.poison.launch: expected a positive integer");
  EXPECT_FALSE(parseMeasureConfig("{\"output\": \"o\", \"kernels\": {}, "
                                  "\"poison\": {\"launch\": 1, \"seed\": 1, "
                                  "\"kinds\": {\"k\": [3]}}}",
                                  "c.json", D, Err));
  EXPECT_EQ(Err, "malformed measurement configuration 'c.json': "
                 "$.poison.kinds.k: expected an array of element kinds");
}

} // namespace
