//===- RestrictReadonlyParams.cpp - const __restrict__ read-only params ---===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "RestrictReadonlyParams.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "autoprof/Rewrite/KernelEdits.h"

#include "clang/AST/Decl.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

StringRef RestrictReadonlyParams::name() const {
  return "restrict-readonly-params";
}

StringRef RestrictReadonlyParams::description() const {
  return "declare pointer parameters that are never written through "
         "'const T *__restrict__'";
}

bool RestrictReadonlyParams::precondition(const KernelRecord &K) const {
  for (const KernelParam &P : K.Params)
    if (P.Pointer && !(P.Const && P.Restrict))
      return true;
  return false;
}

static const MetricCondition Conditions[] = {
    {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", ">=", 40},
    {"l1tex__t_sector_hit_rate.pct", "<", 50},
    {"lts__t_sector_hit_rate.pct", "<", 50}};

std::vector<std::string> RestrictReadonlyParams::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
RestrictReadonlyParams::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error RestrictReadonlyParams::apply(const KernelModel &M,
                                    FileEdits &Out) const {
  ASTContext &Ctx = M.context();
  const FunctionDecl &Kernel = M.kernel();
  tooling::Replacements Edits;
  for (const ParmVarDecl *P : readOnlyPointerParams(Ctx, Kernel))
    if (Error E = addConstRestrict(Ctx, *P, Edits))
      return E;
  return addEdits(Edits, Out);
}
