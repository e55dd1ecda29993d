//===- PadSharedArrays.cpp - Pad 2-D shared tiles against bank conflicts --===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "PadSharedArrays.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "autoprof/Rewrite/KernelEdits.h"

#include "clang/AST/Decl.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

StringRef PadSharedArrays::name() const { return "pad-shared-arrays"; }

StringRef PadSharedArrays::description() const {
  return "pad the inner dimension of 2-D __shared__ tiles T a[N][32k] to "
         "32k + 1";
}

bool PadSharedArrays::precondition(const KernelRecord &K) const {
  return K.Features.get("shared_bank_conflict_risk").value_or(0) > 0;
}

static const MetricCondition Conditions[] = {
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", ">", 0},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", ">", 0},
    {"derived__shared_bank_conflict_pct", ">", 5}};

std::vector<std::string> PadSharedArrays::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
PadSharedArrays::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error PadSharedArrays::apply(const KernelModel &M, FileEdits &Out) const {
  ASTContext &Ctx = M.context();
  const FunctionDecl &Kernel = M.kernel();
  tooling::Replacements Edits;
  for (const VarDecl *V : sharedArrays(Kernel)) {
    llvm::Expected<bool> Padded = padSharedTile(Ctx, Kernel, *V, Edits);
    if (!Padded)
      return Padded.takeError();
  }
  return addEdits(Edits, Out);
}
