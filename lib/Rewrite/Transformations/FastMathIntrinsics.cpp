//===- FastMathIntrinsics.cpp - CUDA fast-math intrinsics -----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "FastMathIntrinsics.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// The intrinsic replacing a single-precision math function, or empty.
StringRef intrinsicFor(StringRef Name) {
  return llvm::StringSwitch<StringRef>(Name)
      .Case("expf", "__expf")
      .Case("logf", "__logf")
      .Case("sinf", "__sinf")
      .Case("cosf", "__cosf")
      .Case("powf", "__powf")
      .Default("");
}

class Calls : public RecursiveASTVisitor<Calls> {
public:
  bool VisitCallExpr(CallExpr *CE) {
    const auto *DR =
        dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!DR || !FD || DR->hasQualifier() || !FD->getIdentifier() ||
        intrinsicFor(FD->getName()).empty() ||
        !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return true;
    Found.push_back(DR);
    return true;
  }
  std::vector<const DeclRefExpr *> Found;
};

} // namespace

StringRef FastMathIntrinsics::name() const { return "fast-math-intrinsics"; }

StringRef FastMathIntrinsics::description() const {
  return "replace expf, logf, sinf, cosf and powf with the CUDA intrinsics "
         "__expf, __logf, __sinf, __cosf and __powf";
}

bool FastMathIntrinsics::precondition(const KernelRecord &K) const {
  return K.Features.get("transcendentals").value_or(0) > 0;
}

static const MetricCondition Conditions[] = {
    {"sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", ">=", 3}};

std::vector<std::string> FastMathIntrinsics::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
FastMathIntrinsics::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error FastMathIntrinsics::apply(const KernelModel &M, FileEdits &Out) const {
  ASTContext &Ctx = M.context();
  const FunctionDecl &Kernel = M.kernel();
  if (!Kernel.getBody())
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  Calls C;
  C.TraverseStmt(Kernel.getBody());
  for (const DeclRefExpr *DR : C.Found) {
    SourceLocation Loc = DR->getLocation();
    if (Loc.isInvalid() || !Loc.isFileID())
      continue;
    StringRef Name = DR->getDecl()->getName();
    if (Error E = addEdit(
            tooling::Replacement(SM, Loc, Name.size(), intrinsicFor(Name)),
            Out))
      return E;
  }
  return Error::success();
}
