//===- SameThreadsLaunch.cpp - Other blocks, the same threads ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "SameThreadsLaunch.h"
#include "TextEdits.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;

std::optional<tooling::Replacement>
autoprof::sameThreadsLaunch(const KernelModel &M, const KernelLaunch &L,
                            int64_t BX, int64_t BY, std::string &Why) {
  ASTContext &Ctx = M.context();
  std::string At = "the launch at " + M.where(L.Call);
  std::optional<Dim3> Dims = constantDims(Ctx, L.Block);
  if (!Dims || (*Dims)[2] != 1)
    return std::nullopt;
  auto Call = sourceText(Ctx, L.Call);
  auto Grid = sourceText(Ctx, L.Grid);
  std::optional<FileRange> CallRange = rangeOf(Ctx, L.Call),
                           GridRange = rangeOf(Ctx, L.Grid),
                           BlockRange = rangeOf(Ctx, L.Block);
  if (!Call || !Grid || !CallRange || !GridRange || !BlockRange ||
      GridRange->File != CallRange->File ||
      BlockRange->File != CallRange->File) {
    Why = At + " writes its grid or block through a macro";
    return std::nullopt;
  }
  unsigned G0 = GridRange->Begin - CallRange->Begin,
           G1 = GridRange->End - CallRange->Begin,
           B0 = BlockRange->Begin - CallRange->Begin,
           B1 = BlockRange->End - CallRange->Begin;
  if (GridRange->Begin < CallRange->Begin ||
      !(G0 < G1 && G1 <= B0 && B0 < B1 && B1 <= Call->size())) {
    Why = At + " writes its grid or block through a macro";
    return std::nullopt;
  }
  // The grid is evaluated once, in a lambda that makes one of the two
  // launches; the launch's threads along x and y in 64 bits.
  const std::string SX = std::to_string(BX), SY = std::to_string(BY);
  const std::string GV = "autoprof_grid_", XV = "autoprof_x_",
                    YV = "autoprof_y_";
  std::string New = Call->substr(0, G0) + "dim3((unsigned)(" + XV + " / " + SX +
                    "), (unsigned)(" + YV + " / " + SY + "), " + GV + ".z)" +
                    Call->substr(G1, B0 - G1) + "dim3(" + SX + ", " + SY + ")" +
                    Call->substr(B1);
  std::string Old = Call->substr(0, G0) + GV + Call->substr(G1);
  std::string Text =
      "[&]() {\n    const dim3 " + GV + "(" + *Grid +
      ");\n    const unsigned long long " + XV + " = (unsigned long long)" +
      GV + ".x * " + std::to_string((*Dims)[0]) + ", " + YV +
      " = (unsigned long long)" + GV + ".y * " + std::to_string((*Dims)[1]) +
      ";\n    if (" + XV + " % " + SX + " == 0 && " + YV + " % " + SY +
      " == 0 && " + YV + " / " + SY + " <= 65535)\n      " + New +
      ";\n    else\n      " + Old + ";\n  }()";
  return replaceExpr(Ctx, L.Call, Text);
}
