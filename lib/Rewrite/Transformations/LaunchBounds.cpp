//===- LaunchBounds.cpp - __launch_bounds__ from uniform launches ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchBounds.h"

#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

StringRef LaunchBoundsTransformation::name() const { return "launch-bounds"; }

StringRef LaunchBoundsTransformation::description() const {
  return "add __launch_bounds__(B) when every launch uses the constant "
         "block size B";
}

bool LaunchBoundsTransformation::precondition(const KernelRecord &K) const {
  return K.Template != TemplateKind::Primary && !K.Bounds;
}

std::vector<std::string> LaunchBoundsTransformation::triggerMetrics() const {
  return {"launch__occupancy_limit_registers", "launch__occupancy_limit_warps"};
}

std::optional<std::string>
LaunchBoundsTransformation::trigger(const MetricValues &M) const {
  auto Regs = M.find("launch__occupancy_limit_registers");
  auto Warps = M.find("launch__occupancy_limit_warps");
  if (Regs == M.end() || Warps == M.end() || !(Regs->second < Warps->second))
    return std::nullopt;
  return "launch__occupancy_limit_registers = " +
         formatMetricValue(Regs->second) +
         " < launch__occupancy_limit_warps = " +
         formatMetricValue(Warps->second);
}

namespace {

/// The block size of every launch of the kernel of \p M, or nullopt with
/// the reason in \p Why.
std::optional<int64_t> uniformBlockSize(const KernelModel &M,
                                        std::string &Why) {
  if (M.kernel().hasAttr<CUDALaunchBoundsAttr>()) {
    Why = "it already has __launch_bounds__";
    return std::nullopt;
  }
  const std::vector<KernelLaunch> *Launches = M.someLaunches(Why);
  if (!Launches)
    return std::nullopt;
  std::optional<int64_t> Block;
  for (const KernelLaunch &L : *Launches) {
    std::string At = "the launch at " + M.where(L.Call);
    std::optional<Dim3> B = constantDims(M.context(), L.Block);
    if (!B) {
      Why = At + " has a block size that is not a compile-time constant";
      return std::nullopt;
    }
    int64_t N = (*B)[0] * (*B)[1] * (*B)[2];
    if (N <= 0 || N > 1024) {
      Why = At + " has blocks of " + std::to_string(N) +
            " threads, not 1 to 1024";
      return std::nullopt;
    }
    if (Block && *Block != N) {
      Why = At + " has blocks of " + std::to_string(N) +
            " threads, another launch of " + std::to_string(*Block);
      return std::nullopt;
    }
    Block = N;
  }
  return Block;
}

} // namespace

Error LaunchBoundsTransformation::apply(const KernelModel &M,
                                        FileEdits &Out) const {
  ASTContext &Ctx = M.context();
  const FunctionDecl &Kernel = M.kernel();
  std::string Why;
  std::optional<int64_t> Block = uniformBlockSize(M, Why);
  if (!Block)
    return Error::success();
  SourceLocation Loc = Kernel.getTypeSpecStartLoc();
  if (Loc.isInvalid() || !Loc.isFileID())
    return Error::success();
  return addEdit(tooling::Replacement(Ctx.getSourceManager(), Loc, 0,
                                      "__launch_bounds__(" +
                                          std::to_string(*Block) + ") "),
                 Out);
}

std::string LaunchBoundsTransformation::explain(const KernelModel &M) const {
  const FunctionDecl &Kernel = M.kernel();
  std::string Why;
  if (!uniformBlockSize(M, Why))
    return Why;
  SourceLocation Loc = Kernel.getTypeSpecStartLoc();
  if (Loc.isInvalid() || !Loc.isFileID())
    return "its return type is written through a macro";
  return "";
}
