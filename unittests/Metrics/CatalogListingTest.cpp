//===- CatalogListingTest.cpp - What `metrics` prints ---------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/CatalogListing.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace autoprof;

namespace {

/// Prices a set of metrics at one pass per dram__ metric and one for the
/// rest together; sm__ metrics are not valid.
class Prices : public PassCounter {
public:
  bool isValid(const std::string &, const std::string &M) override {
    return M.rfind("sm__", 0) != 0;
  }
  Expected<unsigned> passCount(const std::string &Chip,
                               const std::vector<std::string> &Ms) override {
    unsigned Dram = 0, Other = 0;
    for (const std::string &M : Ms) {
      if (!isValid(Chip, M))
        return createStringError("'" + M + "' is not valid");
      (M.rfind("dram__", 0) == 0 ? Dram : Other) += 1;
    }
    return Dram + (Other ? 1 : 0);
  }
};

const MetricCatalog &catalog() {
  static MetricCatalog C = [] {
    Expected<MetricCatalog> C = MetricCatalog::load(
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json");
    if (!C) {
      ADD_FAILURE() << toString(C.takeError());
      return MetricCatalog();
    }
    return std::move(*C);
  }();
  return C;
}

TEST(CatalogListingTest, ListsEveryMetricWithItsCost) {
  Prices P;
  Expected<std::string> Text = listCatalog(catalog(), P, "GH100");
  ASSERT_TRUE(bool(Text)) << toString(Text.takeError());
  EXPECT_EQ(Text->rfind("catalog ", 0), 0u);
  EXPECT_NE(Text->find("gpu__time_duration.sum  range-profiler  nsecond  valid passes=1\n"), std::string::npos)
      << *Text;
  EXPECT_NE(Text->find("  invalid on GH100\n"), std::string::npos);
  EXPECT_NE(Text->find("launch__grid_size  launch  "), std::string::npos);
  EXPECT_NE(Text->find("passes=0 (launch attribute, no pass)"),
            std::string::npos);
  // One line per metric, a header and a total.
  size_t Lines = std::count(Text->begin(), Text->end(), '\n');
  EXPECT_EQ(Lines, catalog().metrics().size() + 2);
  EXPECT_NE(Text->find("invalid; all valid ones together: "),
            std::string::npos);
}

TEST(CatalogListingTest, ChecksAListAndSetsAsideWhatIsInvalid) {
  Prices P;
  std::vector<std::string> Invalid;
  Expected<std::string> Text = checkMetrics(
      catalog(), P, "GH100",
      {"dram__bytes_read.sum", "dram__bytes_write.sum", "launch__grid_size",
       "sm__throughput.avg.pct_of_peak_sustained_elapsed",
       "lts__t_sectors_made_up.sum"},
      Invalid);
  ASSERT_TRUE(bool(Text)) << toString(Text.takeError());
  EXPECT_EQ(*Text, "dram__bytes_read.sum: valid, passes alone=1\n"
                   "dram__bytes_write.sum: valid, passes alone=1\n"
                   "launch__grid_size: launch (launch attribute, no pass)\n"
                   "lts__t_sectors_made_up.sum: valid, passes alone=1 (not "
                   "in the catalog)\n"
                   "passes: 3 for 3 range-profiler metrics on GH100\n");
  ASSERT_EQ(Invalid.size(), 1u);
  EXPECT_EQ(Invalid[0], "sm__throughput.avg.pct_of_peak_sustained_elapsed");
}

} // namespace
