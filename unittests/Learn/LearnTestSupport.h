//===- LearnTestSupport.h - Datasets built for the learning tests -*- C++ -*-//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A small catalog, a pass counter that charges one pass per range metric,
/// and a rewriter with three transformations, for the learning tests.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_UNITTESTS_LEARN_LEARNTESTSUPPORT_H
#define AUTOPROF_UNITTESTS_LEARN_LEARNTESTSUPPORT_H

#include "../Support/OnePassEach.h"
#include "autoprof/Learn/Replay.h"

#include <map>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {
namespace fixtures {

/// Range metrics r1..r4 and s (a stage-1 sample), and the launch metric l.
MetricCatalog catalog();

/// One pass per range metric, every call recorded.
using OnePassEach = test::OnePassEach;

/// Transformation A fires when r1 > 10, B when r2 > 10, C when r3 > 10.
TriggerRewriter rewriter();

/// A kernel of \p Program with feature loops = \p Loops, metrics r1..r3 =
/// 20 (every trigger fires when shown), s = \p Sample, and the outcomes
/// (transformation, verdict, speedup) given.
DatasetKernel
kernel(const std::string &Program, double Loops, double Sample,
       std::vector<std::tuple<std::string, std::string, double>> Outcomes);

/// A one-leaf tree with no metrics and \p Stage1.
ProfilingTree oneLeaf(std::vector<std::string> Stage1 = {});

std::vector<const DatasetKernel *>
pointers(const std::vector<DatasetKernel> &K);

} // namespace fixtures
} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_UNITTESTS_LEARN_LEARNTESTSUPPORT_H
