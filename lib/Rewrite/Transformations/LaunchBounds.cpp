//===- LaunchBounds.cpp - __launch_bounds__ from uniform launches ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchBounds.h"

#include "autoprof/Features/FeatureExtractor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
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
  return K.Template == TemplateKind::None && !K.Bounds;
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

Error LaunchBoundsTransformation::apply(ASTContext &Ctx,
                                        const FunctionDecl &Kernel,
                                        tooling::Replacements &Out) const {
  if (Kernel.hasAttr<CUDALaunchBoundsAttr>() ||
      Kernel.getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  // A kernel of a header may be launched from other translation units with
  // other block sizes.
  if (!SM.isInMainFile(SM.getFileLoc(Kernel.getLocation())))
    return Error::success();
  // The launch sites of this kernel, with their constant block sizes.
  std::string Name = Kernel.getNameAsString();
  FeatureReport Report;
  extractFeatures(
      Ctx, [&](const std::string &N, const std::string &) { return N == Name; },
      Report);
  KernelRecord Self = analyzeKernel(Kernel, Ctx);
  std::optional<int64_t> Block;
  unsigned Sites = 0;
  for (const LaunchSite &L : Report.LaunchSites) {
    if (L.QualifiedKernel != Self.QualifiedName)
      continue;
    ++Sites;
    if (!L.BlockSize || (Block && *Block != *L.BlockSize))
      return Error::success();
    Block = L.BlockSize;
  }
  if (!Sites || !Block || *Block <= 0)
    return Error::success();
  SourceLocation Loc = Kernel.getTypeSpecStartLoc();
  if (Loc.isInvalid() || !Loc.isFileID())
    return Error::success();
  return Out.add(tooling::Replacement(
      SM, Loc, 0, "__launch_bounds__(" + std::to_string(*Block) + ") "));
}
