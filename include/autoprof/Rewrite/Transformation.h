//===- Transformation.h - A built-in source transformation ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The interface of a built-in transformation of a CUDA kernel: a static
/// precondition on the kernel's features, a trigger on the metrics a profile
/// collected, and the edit itself, made on the kernel's source ranges.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATION_H
#define AUTOPROF_REWRITE_TRANSFORMATION_H

#include "autoprof/Features/KernelRecord.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace autoprof {

class KernelModel;

/// The metrics a profile collected for one kernel, by metric name. A metric
/// that was not collected is absent.
using MetricValues = std::map<std::string, double>;

/// Edits of one or more files, by path: a kernel defined in a header and
/// launched from the source changes both.
using FileEdits = std::map<std::string, clang::tooling::Replacements>;

/// A built-in transformation of one kernel.
///
/// A transformation is proposed for a kernel when its precondition holds on
/// the kernel's static features and apply() makes at least one edit; it is
/// chosen for a profiled kernel when, in addition, trigger() fires on the
/// collected metrics.
class Transformation {
public:
  virtual ~Transformation();

  /// The name used on the command line, e.g. "restrict-readonly-params".
  virtual llvm::StringRef name() const = 0;
  /// One line saying what the edit does.
  virtual llvm::StringRef description() const = 0;

  /// Whether the static features of \p K allow the edit. A true result does
  /// not promise an edit: apply() looks at the AST and may find none.
  virtual bool precondition(const KernelRecord &K) const = 0;

  /// The metrics trigger() reads; the trigger can fire only when one of them
  /// was collected.
  virtual std::vector<std::string> triggerMetrics() const = 0;

  /// The reason the transformation is worth trying on a kernel with metrics
  /// \p M, such as "l1tex__t_sector_hit_rate.pct = 12 < 50", or nullopt.
  /// A metric absent from \p M never fires.
  virtual std::optional<std::string> trigger(const MetricValues &M) const = 0;

  /// Adds to \p Out the edits of the kernel of \p M (M.kernel(), in
  /// M.context()), made on source ranges of its AST (and of its launch
  /// sites when the launch configuration changes; these may lie in another
  /// file than the kernel). The model is built once per kernel and shared
  /// by every transformation.
  /// Adds nothing when the AST shows that the edit does not apply; fails
  /// only when an edit cannot be recorded.
  virtual llvm::Error apply(const KernelModel &M, FileEdits &Out) const = 0;

  /// The alternatives the transformation proposes, each a proposal of its
  /// own that verification judges (block shapes); one, unnamed, for most.
  virtual std::vector<std::string> variants() const { return {""}; }

  /// apply() for \p Variant, one of variants(); apply() by default.
  virtual llvm::Error applyVariant(const KernelModel &M,
                                   llvm::StringRef Variant,
                                   FileEdits &Out) const {
    (void)Variant;
    return apply(M, Out);
  }

  /// Why apply() makes no edit of the kernel of \p M, in one line naming
  /// what the kernel model could not show, or empty when it makes one. A
  /// transformation that is not written on the kernel model says only that
  /// the kernel does not have its shape.
  virtual std::string explain(const KernelModel &M) const;

  /// Whether an edit may change a kernel's parameter types, and so its
  /// mangled name: the verifier then reads the kernel's name in the
  /// rewritten source before it measures it.
  virtual bool changesSignature() const { return false; }

  /// Whether the edit only prepares a kernel for the other transformations
  /// (it makes nothing faster by itself): it is never verified alone; the
  /// engine proposes, in its place, each other transformation on the
  /// edited kernel (RewriteEngine::expandEnabling()). An enabling
  /// transformation that finds nothing to do says nothing (explain() is
  /// empty).
  virtual bool enabling() const { return false; }

  /// The words (numbers) that the edits write from the transformation's own
  /// constants, never from the kernel: a warp's width, its lane masks. In a
  /// template, a template argument equal to one of them (`DIM` = 32) is
  /// then not taken for what an edit wrote.
  virtual std::vector<std::string> ownWords() const { return {}; }
};

/// A transformation that only prepares kernels for the others (enabling()):
/// it has no precondition on the static features and no trigger; the
/// proposals made after it have their own.
class EnablingTransformation : public Transformation {
public:
  bool precondition(const KernelRecord &) const override { return true; }
  std::vector<std::string> triggerMetrics() const override { return {}; }
  std::optional<std::string> trigger(const MetricValues &) const override {
    return std::nullopt;
  }
  bool enabling() const override { return true; }
};

/// Adds \p Edit to the edits of its file in \p Out; fails when it
/// conflicts with one already there.
llvm::Error addEdit(const clang::tooling::Replacement &Edit, FileEdits &Out);

/// Adds \p Edits to \p Out, in order; fails on the first that conflicts.
llvm::Error addEdits(llvm::ArrayRef<clang::tooling::Replacement> Edits,
                     FileEdits &Out);
llvm::Error addEdits(const clang::tooling::Replacements &Edits, FileEdits &Out);

/// The number of edits in \p Edits, over all files.
size_t editCount(const FileEdits &Edits);

/// Formats a metric value for a trigger's reason ("12", "0.25", "1.5e+09").
std::string formatMetricValue(double V);

/// The reason "<Metric> = <value> <Op> <Threshold>" when \p Metric is in
/// \p M and its value compares with \p Threshold as \p Op says (one of "<",
/// "<=", ">", ">="); nullopt otherwise.
std::optional<std::string> compareMetric(const MetricValues &M,
                                         llvm::StringRef Metric,
                                         llvm::StringRef Op, double Threshold);

/// One condition of a trigger: `Metric Op Threshold`.
struct MetricCondition {
  const char *Metric;
  /// One of "<", "<=", ">", ">=".
  const char *Op;
  double Threshold;
};

/// The reason of the first of \p Conditions that holds on \p M (as
/// compareMetric() gives it), or nullopt: the trigger of a transformation
/// that fires when any of its conditions holds.
std::optional<std::string>
firstCondition(const MetricValues &M,
               llvm::ArrayRef<MetricCondition> Conditions);

/// The metrics \p Conditions read, in their order, each once.
std::vector<std::string>
conditionMetrics(llvm::ArrayRef<MetricCondition> Conditions);

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATION_H
