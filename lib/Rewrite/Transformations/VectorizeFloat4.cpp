//===- VectorizeFloat4.cpp - float4 loads and stores, four per thread -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "VectorizeFloat4.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "OneDimKernel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

#include <map>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// Everything the work statements refer to.
class WorkScan : public RecursiveASTVisitor<WorkScan> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    Refs.push_back(DR);
    Names.insert(DR->getDecl()->getName());
    return true;
  }
  bool VisitNamedDecl(NamedDecl *D) {
    Names.insert(D->getName());
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) { return Unsafe = true, true; }
  bool VisitGotoStmt(GotoStmt *) { return Unsafe = true, true; }
  bool VisitLabelStmt(LabelStmt *) { return Unsafe = true, true; }
  std::vector<const DeclRefExpr *> Refs;
  llvm::StringSet<> Names;
  bool Unsafe = false;
};

const Stmt *parentOf(ASTContext &Ctx, const Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
}

/// \p S, skipping parentheses and implicit casts upwards.
const Stmt *parentThroughCasts(ASTContext &Ctx, const Stmt *S) {
  const Stmt *P = parentOf(Ctx, S);
  while (P && isa<ParenExpr, ImplicitCastExpr>(P))
    P = parentOf(Ctx, P);
  return P;
}

bool isLoad(const Stmt *P) {
  const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P);
  return IC && IC->getCastKind() == CK_LValueToRValue;
}

bool isFloatPointer(QualType T) {
  const auto *PT = T->getAs<PointerType>();
  if (!PT)
    return false;
  QualType E = PT->getPointeeType();
  const auto *BT = E->getAs<BuiltinType>();
  return !E.isVolatileQualified() && BT && BT->getKind() == BuiltinType::Float;
}

std::string indentLines(llvm::StringRef Text, llvm::StringRef Indent) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  while (!Lines.empty() && Lines.front().trim().empty())
    Lines.erase(Lines.begin());
  while (!Lines.empty() && Lines.back().trim().empty())
    Lines.pop_back();
  size_t Min = std::string::npos;
  for (llvm::StringRef L : Lines)
    if (!L.trim().empty())
      Min = std::min(Min, L.size() - L.ltrim(" ").size());
  std::string Out;
  for (llvm::StringRef L : Lines) {
    L = L.rtrim();
    if (!L.empty())
      Out += Indent.str() + L.drop_front(std::min(Min, L.size())).str();
    Out += "\n";
  }
  return Out;
}

} // namespace

StringRef VectorizeFloat4::name() const { return "vectorize-float4"; }

StringRef VectorizeFloat4::description() const {
  return "make each thread of an element-wise float kernel handle four "
         "elements with float4 loads and stores, and divide its grid by four";
}

bool VectorizeFloat4::precondition(const KernelRecord &K) const {
  auto Zero = [&](const char *F) { return K.Features.get(F).value_or(0) == 0; };
  return hasIndependentThreads(K) &&
         K.Features.get("global_stores").value_or(0) > 0 &&
         Zero("atomics_global") && Zero("atomics_shared") &&
         Zero("vector_accesses");
}

static const MetricCondition Conditions[] = {
    {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", ">=", 50},
    {"smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
     ">=", 1}};

std::vector<std::string> VectorizeFloat4::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
VectorizeFloat4::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error VectorizeFloat4::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                             tooling::Replacements &Out) const {
  std::optional<OneDimKernel> Shape = matchOneDimKernel(Ctx, Kernel);
  if (!Shape || Shape->Form == OneDimKernel::GridStride)
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());

  // The top-level statements of the work and the text they span.
  std::vector<const Stmt *> Top;
  SourceLocation WorkBegin, WorkEnd;
  if (Shape->Form == OneDimKernel::Guarded) {
    const Stmt *Then = Shape->Work.front();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then)) {
      Top.assign(CS->body_begin(), CS->body_end());
      WorkBegin = CS->getLBracLoc().getLocWithOffset(1);
      WorkEnd = CS->getRBracLoc();
    } else {
      Top.push_back(Then);
      WorkBegin = Then->getBeginLoc();
      WorkEnd = Body->getRBracLoc();
    }
  } else {
    Top = Shape->Work;
    WorkBegin = Top.front()->getBeginLoc();
    WorkEnd = Body->getRBracLoc();
  }
  if (Top.empty() || !WorkBegin.isFileID() || !WorkEnd.isFileID() ||
      !Shape->IndexDecl->getBeginLoc().isFileID())
    return Error::success();

  WorkScan Scan;
  for (const Stmt *S : Top)
    Scan.TraverseStmt(const_cast<Stmt *>(S));
  if (Scan.Unsafe)
    return Error::success();

  // Every use of the index is p[i] on a float pointer parameter; each such
  // pointer is only loaded or only stored, and stored only by a top-level
  // assignment that comes after every load.
  struct Access {
    const ArraySubscriptExpr *E;
    bool Store;
  };
  std::vector<Access> Accesses;
  std::vector<const ParmVarDecl *> Loaded, Stored;
  auto TopIndex = [&](const Stmt *S) -> int {
    DynTypedNode Node = DynTypedNode::create(*S);
    while (true) {
      if (const auto *P = Node.get<Stmt>())
        for (size_t I = 0; I < Top.size(); ++I)
          if (Top[I] == P)
            return I;
      auto Parents = Ctx.getParents(Node);
      if (Parents.size() != 1)
        return -1;
      Node = Parents[0];
    }
  };
  int FirstStore = Top.size(), LastLoad = -1;
  for (const DeclRefExpr *DR : Scan.Refs) {
    if (DR->getDecl() != Shape->Index)
      continue;
    const auto *Sub =
        dyn_cast_or_null<ArraySubscriptExpr>(parentThroughCasts(Ctx, DR));
    if (!Sub || Sub->getIdx()->IgnoreParenImpCasts() != DR)
      return Error::success();
    const auto *Base =
        dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
    const auto *P = Base ? dyn_cast<ParmVarDecl>(Base->getDecl()) : nullptr;
    if (!P || !isFloatPointer(P->getType()))
      return Error::success();
    const Stmt *Use = parentOf(Ctx, Sub);
    while (Use && isa<ParenExpr>(Use))
      Use = parentOf(Ctx, Use);
    int T = TopIndex(Sub);
    if (T < 0)
      return Error::success();
    if (isLoad(Use)) {
      Accesses.push_back({Sub, false});
      Loaded.push_back(P);
      LastLoad = std::max(LastLoad, T);
      continue;
    }
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(Use);
    if (!Assign || Assign->getOpcode() != BO_Assign ||
        Assign->getLHS()->IgnoreParens() != Sub || Top[T] != Assign)
      return Error::success();
    Accesses.push_back({Sub, true});
    Stored.push_back(P);
    FirstStore = std::min(FirstStore, T);
  }
  if (Stored.empty() || LastLoad > FirstStore)
    return Error::success();
  for (const ParmVarDecl *L : Loaded)
    if (llvm::is_contained(Stored, L))
      return Error::success();
  // The vectorised pointers are used only as p[i]; other pointer
  // parameters only to load elements.
  for (const DeclRefExpr *DR : Scan.Refs) {
    const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
    if (!P || !P->getType()->isPointerType())
      continue;
    const Stmt *Parent = parentThroughCasts(Ctx, DR);
    const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Parent);
    bool Vectorised =
        llvm::is_contained(Loaded, P) || llvm::is_contained(Stored, P);
    if (!Sub || Sub->getBase()->IgnoreParenImpCasts() != DR)
      return Error::success();
    if (Vectorised) {
      bool Known = false;
      for (const Access &A : Accesses)
        Known |= A.E == Sub;
      if (!Known)
        return Error::success();
    } else {
      const Stmt *Use = parentOf(Ctx, Sub);
      while (Use && isa<ParenExpr>(Use))
        Use = parentOf(Ctx, Use);
      if (!isLoad(Use))
        return Error::success();
    }
  }

  // Fresh names.
  llvm::StringSet<> Taken = Scan.Names;
  for (const ParmVarDecl *P : Kernel.parameters())
    Taken.insert(P->getName());
  Taken.insert(Shape->Index->getName());
  auto Fresh = [&](std::string Name) {
    while (Taken.count(Name))
      Name += "_";
    Taken.insert(Name);
    return Name;
  };
  std::string I = Shape->Index->getNameAsString();
  std::string Group = Fresh(I + "4");
  std::map<const ParmVarDecl *, std::string> Vec;
  std::vector<const ParmVarDecl *> Order; // Loads first, then stores.
  for (const ParmVarDecl *P : Loaded)
    if (!Vec.count(P)) {
      Vec[P] = Fresh(P->getNameAsString() + "4");
      Order.push_back(P);
    }
  for (const ParmVarDecl *P : Stored)
    if (!Vec.count(P)) {
      Vec[P] = Fresh(P->getNameAsString() + "4");
      Order.push_back(P);
    }

  // The work's text, and its text for one lane of the vectors.
  unsigned Begin = SM.getFileOffset(WorkBegin);
  unsigned End = SM.getFileOffset(WorkEnd);
  if (SM.getFileID(WorkBegin) != SM.getFileID(WorkEnd) || End <= Begin)
    return Error::success();
  StringRef Buffer = SM.getBufferData(SM.getFileID(WorkBegin));
  std::string Lead(SM.getSpellingColumnNumber(WorkBegin) - 1, ' ');
  if (Shape->Form == OneDimKernel::Guarded && isa<CompoundStmt>(Shape->Work[0]))
    Lead.clear();
  std::string Work = Lead + Buffer.substr(Begin, End - Begin).str();
  std::vector<std::pair<unsigned, unsigned>> Ranges; // Offset, length.
  std::vector<const ParmVarDecl *> RangePtr;
  for (const Access &A : Accesses) {
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(A.E->getSourceRange()), SM, LO);
    if (R.isInvalid() || SM.getFileID(R.getBegin()) != SM.getFileID(WorkBegin))
      return Error::success();
    unsigned B = SM.getFileOffset(R.getBegin()),
             E = SM.getFileOffset(R.getEnd());
    if (B < Begin || E > End)
      return Error::success();
    Ranges.push_back({B - Begin + Lead.size(), E - B});
    const auto *Base = cast<DeclRefExpr>(A.E->getBase()->IgnoreParenImpCasts());
    RangePtr.push_back(cast<ParmVarDecl>(Base->getDecl()));
  }
  auto Lane = [&](char C) {
    std::vector<size_t> Idx(Ranges.size());
    for (size_t K = 0; K < Idx.size(); ++K)
      Idx[K] = K;
    llvm::sort(Idx, [&](size_t A, size_t B) {
      return Ranges[A].first > Ranges[B].first;
    });
    std::string S = Work;
    for (size_t K : Idx)
      S.replace(Ranges[K].first, Ranges[K].second,
                Vec[RangePtr[K]] + "." + std::string(1, C));
    return S;
  };

  // The launches: a constant block size and a grid that covers the bound.
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  std::vector<tooling::Replacement> Edits;
  for (const KernelLaunch &L : *Launches) {
    auto Block = evaluateInt(L.Block, Ctx);
    if (!L.Block->getType()->isIntegerType() || !Block || *Block <= 0 ||
        Shape->BoundParam >= L.Call->getNumArgs())
      return Error::success();
    const Expr *Bound = L.Call->getArg(Shape->BoundParam);
    auto BoundText = sourceText(Ctx, Bound);
    auto BlockText = sourceText(Ctx, L.Block);
    if (!BoundText || !BlockText ||
        !gridCoversBound(Ctx, L.Grid, *Block, Bound))
      return Error::success();
    std::string B = parenthesize(L.Block, *BlockText);
    auto G = replaceExpr(
        Ctx, L.Grid, "((" + *BoundText + " + 3) / 4 + " + B + " - 1) / " + B);
    if (!G)
      return Error::success();
    Edits.push_back(*G);
  }

  // The new body, from the index's declaration to the closing brace.
  const Expr *Init = Shape->Index->getInit();
  auto InitText = sourceText(Ctx, Init);
  if (!InitText)
    return Error::success();
  std::string Indent(
      SM.getSpellingColumnNumber(Shape->IndexDecl->getBeginLoc()) - 1, ' ');
  std::string In2 = Indent + "  ", In3 = In2 + "  ";
  std::string T = Shape->Index->getType().getAsString(Ctx.getPrintingPolicy());
  std::string N = Shape->Bound->getNameAsString();
  std::string Aligned;
  for (const ParmVarDecl *P : Order)
    Aligned += std::string(Aligned.empty() ? "" : " |\n" + In2 + "     ") +
               "reinterpret_cast<unsigned long long>(" + P->getNameAsString() +
               ")";
  std::string S;
  S += T + " " + Group + " = " + *InitText + ";\n";
  S += Indent + "// Four elements per thread: float4 when every vectorised "
                "pointer is\n";
  S += Indent + "// 16-byte aligned, one by one otherwise and for the tail.\n";
  S += Indent + "if (" + Group + " < " + N + " / 4 &&\n";
  S += In2 + "((" + Aligned + ") % 16) == 0) {\n";
  for (const ParmVarDecl *P : Order) {
    bool Load = llvm::is_contained(Loaded, P);
    if (Load)
      S += In2 + "const float4 " + Vec[P] +
           " = reinterpret_cast<const float4 *>(" + P->getNameAsString() +
           ")[" + Group + "];\n";
    else
      S += In2 + "float4 " + Vec[P] + ";\n";
  }
  for (char C : {'x', 'y', 'z', 'w'}) {
    S += In2 + "{\n" + indentLines(Lane(C), In3) + In2 + "}\n";
  }
  for (const ParmVarDecl *P : Order)
    if (!llvm::is_contained(Loaded, P))
      S += In2 + "reinterpret_cast<float4 *>(" + P->getNameAsString() + ")[" +
           Group + "] = " + Vec[P] + ";\n";
  S += Indent + "} else if (" + Group + " < (" + N + " + 3) / 4) {\n";
  S += In2 + "for (" + T + " " + I + " = 4 * " + Group + "; " + I + " < " + N +
       " && " + I + " < 4 * " + Group + " + 4; ++" + I + ") {\n";
  S += indentLines(Work, In3);
  S += In2 + "}\n" + Indent + "}\n";
  unsigned DeclOffset = SM.getFileOffset(Shape->IndexDecl->getBeginLoc());
  unsigned BodyEnd = SM.getFileOffset(Body->getRBracLoc());
  if (SM.getFileID(Shape->IndexDecl->getBeginLoc()) !=
          SM.getFileID(WorkBegin) ||
      BodyEnd < End)
    return Error::success();
  Edits.push_back(tooling::Replacement(SM, Shape->IndexDecl->getBeginLoc(),
                                       BodyEnd - DeclOffset, S));
  for (const tooling::Replacement &R : Edits)
    if (Error E = Out.add(R))
      return E;
  return Error::success();
}
