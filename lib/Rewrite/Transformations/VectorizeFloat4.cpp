//===- VectorizeFloat4.cpp - float4 loads and stores, four per thread -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "VectorizeFloat4.h"
#include "IndependentThreads.h"
#include "TextEdits.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

#include <map>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

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
         "elements with float4 loads and stores, and divide a grid of one "
         "thread per index by four";
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

namespace {

std::string applyEdits(std::string S, std::vector<TextEdit> Edits) {
  llvm::sort(Edits, [](const TextEdit &A, const TextEdit &B) {
    return A.Offset > B.Offset;
  });
  for (const TextEdit &E : Edits)
    S.replace(E.Offset, E.Length, E.Text);
  return S;
}

/// The float4 rewrite of a kernel of one thread per index, read from the
/// kernel model.
class Vectorizer {
public:
  explicit Vectorizer(const KernelModel &M)
      : M(M), Ctx(M.context()), SM(Ctx.getSourceManager()) {}

  /// The edits, or false with the reason in Why.
  bool run();

  std::vector<tooling::Replacement> Edits;
  std::string Why;

private:
  bool refuse(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }
  /// The offset in the work's text of \p E, or nullopt.
  std::optional<std::pair<unsigned, unsigned>> rangeOf(const Expr *E) const;
  bool classify();
  /// The launches' grids divided by four, where they cover the bound with
  /// one thread per index; with \p Required, every launch must.
  bool launches(bool Required = true);
  /// The guarded form: the index's group of four replaces the guard.
  bool guarded();
  /// The grid-stride form: the loop becomes a loop over groups of four.
  bool gridStride();
  /// Names the index, its group of four and one vector per pointer, and
  /// makes the work's text for one element (One) and per lane (Lane()).
  bool workTexts();
  /// The work's text for lane \p C of the vectors.
  std::string lane(char C) const;
  /// The float4 loads of group \p Group, the work of each lane and the
  /// stores, each line at \p In.
  std::string vectorWork(llvm::StringRef In) const;
  /// The test that every vectorised pointer is 16-byte aligned, its lines
  /// after the first at \p In.
  std::string alignedTest(llvm::StringRef In) const;
  /// The bound's text.
  std::string boundText() const;

  const KernelModel &M;
  ASTContext &Ctx;
  const SourceManager &SM;
  PerIndexKernel K;
  std::vector<const Stmt *> Top;
  SourceLocation WorkBegin, WorkEnd;
  unsigned Begin = 0, End = 0;
  std::string Lead;
  /// The accesses of element I, and the pointer parameter each reaches.
  std::vector<const ModelAccess *> Vectorised;
  /// Pointers only loaded, only stored by top-level assignments, and the
  /// others (loaded first, updated, stored last), in order of appearance.
  std::vector<ModelArray> Loaded, Stored, Updated;
  /// Set by workTexts().
  std::string I, Group, Work, One;
  std::map<ModelArray, std::string> Vec;
  /// The pointers: loaded, updated, stored.
  std::vector<ModelArray> Order;
  std::vector<TextEdit> ToVectors;
  /// Each vectorised pointer's element at the index I is element I + D of
  /// it, with D fixed for the thread (a batch's `b * n`); zero mostly.
  std::map<ModelArray, Polynomial> Offset;
  /// For a pointer with an offset, its first access, from which the
  /// address of a group's first element is written.
  std::map<ModelArray, const ModelAccess *> First;
  /// The text of \p A with the index replaced by the group's first
  /// element, `(4 * i4)`; nullopt through a macro.
  std::optional<std::string> atGroup(const ModelAccess *A) const;
  /// The float4 at the group of pointer \p P: `reinterpret_cast<...>(P)[i4]`,
  /// or through the address of its first element when it has an offset.
  std::string vectorAt(const ModelArray &P, bool Const) const;
};

std::optional<std::pair<unsigned, unsigned>>
Vectorizer::rangeOf(const Expr *E) const {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid() || SM.getFileID(R.getBegin()) != SM.getFileID(WorkBegin))
    return std::nullopt;
  unsigned B = SM.getFileOffset(R.getBegin()), F = SM.getFileOffset(R.getEnd());
  if (B < Begin || F > End)
    return std::nullopt;
  return std::make_pair(B - Begin + unsigned(Lead.size()), F - B);
}

bool Vectorizer::classify() {
  auto TopIndex = [&](const Stmt *S) -> int {
    for (size_t I = 0; I < Top.size(); ++I)
      if (isWithin(Ctx, S, Top[I]))
        return I;
    return -1;
  };
  auto InWork = [&](const Stmt *S) { return TopIndex(S) >= 0; };
  // The index: the global index, or the grid-stride loop's variable.
  std::optional<Symbol> LoopVar;
  if (K.Form == PerIndexKernel::GridStride)
    LoopVar = Symbol::loopVar(M.loopIndex(K.Loop), "");
  const Polynomial Index =
      LoopVar ? Polynomial::symbol(*LoopVar) : globalIndex(0);
  auto PerThread = [&](const Symbol &S) {
    return S.isBuiltin() || (LoopVar && S == *LoopVar);
  };
  // Every access of the work reaches a parameter's memory: element I of a
  // float pointer, or an element the same for every index, only loaded.
  std::vector<const ModelAccess *> Others;
  for (const ModelAccess &A : M.accesses()) {
    if (!InWork(A.E))
      continue;
    if (!A.Array || !A.Index)
      return refuse(A.Why.empty() ? "the access `" + M.text(A.E) + "` at " +
                                        M.where(A.E) +
                                        " reaches memory the model cannot name"
                                  : A.Why);
    // The element I + D, D fixed for the thread: parameters, constants and
    // the blocks of other axes.
    std::optional<Polynomial> D = Polynomial::sub(*A.Index, Index);
    if (D && !D->dependsOn([](const Symbol &S) {
          return !S.isParameter() &&
                 !((S.Kind == Symbol::BlockIdx || S.Kind == Symbol::GridDim) &&
                   S.Index > 0);
        })) {
      if (!isa<ParmVarDecl>(A.Array.var()) || !isFloatPointer(A.Array.type()))
        return refuse("`" + M.text(A.E) + "` at " + M.where(A.E) +
                      " is not an element of a `float *` parameter");
      auto [It, New] = Offset.try_emplace(A.Array, *D);
      if (!New && It->second != *D) {
        // Name the one off the index.
        const ModelAccess *Off = *D == Polynomial() ? First[A.Array] : &A;
        return refuse("`" + M.text(Off->E) + "` at " + M.where(Off->E) +
                      " is an element other than the index's");
      }
      // Off the index, the group's address is taken from the access's
      // text: an element, not a load helper's value.
      if (*D != Polynomial() && isa<CallExpr>(A.E))
        return refuse("`" + M.text(A.E) + "` at " + M.where(A.E) +
                      " reads an element off the index through a function");
      First.try_emplace(A.Array, &A);
      Vectorised.push_back(&A);
      continue;
    }
    if (A.Write || A.Index->dependsOn(PerThread))
      return refuse("`" + M.text(A.E) + "` at " + M.where(A.E) +
                    " is an element other than the index's");
    Others.push_back(&A);
  }
  // Each pointer: only loaded, stored only by top-level assignments, or
  // updated.
  int FirstStore = Top.size(), LastLoad = -1;
  std::vector<ModelArray> Order;
  for (const ModelAccess *A : Vectorised)
    if (!llvm::is_contained(Order, A->Array))
      Order.push_back(A->Array);
  for (const ModelArray &P : Order) {
    bool Reads = false, Writes = false, PlainStores = true;
    for (const ModelAccess *A : Vectorised) {
      if (A->Array != P)
        continue;
      Reads |= A->Read;
      Writes |= A->Write;
      if (A->Write) {
        int T = TopIndex(A->E);
        FirstStore = std::min(FirstStore, T);
        const auto *Assign = dyn_cast<BinaryOperator>(Top[T]);
        PlainStores &= !A->Read && Assign && Assign->getOpcode() == BO_Assign &&
                       Assign->getLHS()->IgnoreParens() == A->E;
      }
    }
    if (!Writes)
      Loaded.push_back(P);
    else if (!Reads && PlainStores)
      Stored.push_back(P);
    else
      Updated.push_back(P);
  }
  if (Stored.empty() && Updated.empty())
    return refuse("it stores no element of the index");
  for (const ModelAccess *A : Vectorised)
    if (llvm::is_contained(Loaded, A->Array))
      LastLoad = std::max(LastLoad, TopIndex(A->E));
  for (const ModelAccess *A : Others) {
    if (!llvm::is_contained(Loaded, A->Array) &&
        llvm::is_contained(Order, A->Array))
      return refuse("`" + M.text(A->E) + "` at " + M.where(A->E) +
                    " reads an array the kernel writes");
    LastLoad = std::max(LastLoad, TopIndex(A->E));
  }
  if (LastLoad > FirstStore)
    return refuse("it loads an element after it stores one");

  // Locals computed before the guard from the index or the thread
  // hierarchy (`int j = i;`, `float *yp = y + i;`): the work runs for other
  // elements after the edit, so it may not read them.
  llvm::SmallPtrSet<const VarDecl *, 4> Derived;
  auto ReadsThread = [&](const Expr *Init) {
    if (!Init)
      return false;
    // A batch's offset (`out + blockIdx.y * n`) is the same for the lanes.
    if (llvm::any_of(M.builtinUses(), [&](const Expr *U) {
          return isWithin(Ctx, U, Init) &&
                 !llvm::any_of(K.OtherAxisReads, [&](const Expr *O) {
                   return isWithin(Ctx, U, O);
                 });
        }))
      return true;
    std::function<bool(const Stmt *)> Refers = [&](const Stmt *X) {
      if (!X)
        return false;
      if (const auto *DR = dyn_cast<DeclRefExpr>(X))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
            V && (V == K.IndexVar || Derived.count(V)))
          return true;
      return llvm::any_of(X->children(), Refers);
    };
    return Refers(Init);
  };
  for (const Stmt *S : M.prologue()) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V != K.IndexVar && ReadsThread(V->getInit()))
          Derived.insert(V);
    // `j = i;` after `int j;`.
    if (const auto *A = dyn_cast<BinaryOperator>(S);
        A && A->getOpcode() == BO_Assign)
      if (const auto *DR = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
            V && V != K.IndexVar && ReadsThread(A->getRHS()))
          Derived.insert(V);
  }

  // The index is read only as the element of a vectorised access, and
  // pointers only to reach elements.
  std::function<bool(const Stmt *)> Check = [&](const Stmt *S) {
    if (!S)
      return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && Derived.count(V))
        return refuse("`" + V->getNameAsString() + "` at " + M.where(DR) +
                      " holds a value of the index computed before the "
                      "guard");
    if (const auto *E = dyn_cast<Expr>(S)) {
      bool IsIndex = llvm::is_contained(K.IndexExprs, E->IgnoreParens());
      if (const auto *DR = dyn_cast<DeclRefExpr>(E))
        IsIndex |= K.IndexVar && DR->getDecl() == K.IndexVar;
      bool IsPointer = false;
      if (const auto *DR = dyn_cast<DeclRefExpr>(E))
        IsPointer = DR->getDecl()->getType()->isPointerType();
      if (IsIndex && llvm::none_of(Vectorised, [&](const ModelAccess *A) {
            return isWithin(Ctx, E, A->E);
          }))
        return refuse("the index is read at " + M.where(E) +
                      " other than as the element of a `float *` parameter");
      if (IsPointer && llvm::none_of(M.accesses(), [&](const ModelAccess &A) {
            return isWithin(Ctx, E, A.E);
          }))
        return refuse("the pointer `" + M.text(E) + "` at " + M.where(E) +
                      " is used other than to reach an element");
    }
    if (isa<ReturnStmt, GotoStmt, LabelStmt>(S))
      return refuse("the work at " + M.where(S) +
                    " returns or jumps, which would leave the other elements");
    for (const Stmt *C : S->children())
      if (!Check(C))
        return false;
    return true;
  };
  for (const Stmt *S : Top)
    if (!Check(S))
      return false;

  // A variable of the work declared outside it is only read there: the
  // four elements of a group run one after the other, so a value one of
  // them leaves would reach the next (`prev = x[i];`, `++count;`). Arrays
  // are reached through the model's accesses, checked above.
  llvm::SmallPtrSet<const VarDecl *, 8> Own;
  std::function<void(const Stmt *)> Declared = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Own.insert(V);
    for (const Stmt *C : S->children())
      Declared(C);
  };
  for (const Stmt *S : Top)
    Declared(S);
  std::function<const DeclRefExpr *(const Stmt *)> Changed =
      [&](const Stmt *S) -> const DeclRefExpr * {
    if (!S)
      return nullptr;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (V && !Own.count(V) && !V->getType()->isArrayType() &&
          !readsOnly(Ctx, V, DR))
        return DR;
      return nullptr;
    }
    for (const Stmt *C : S->children())
      if (const DeclRefExpr *D = Changed(C))
        return D;
    return nullptr;
  };
  for (const Stmt *S : Top)
    if (const DeclRefExpr *DR = Changed(S))
      return refuse("`" + DR->getDecl()->getNameAsString() + "` at " +
                    M.where(DR) +
                    " is declared before the work and changed by it; the "
                    "elements of a group of four would see each other's "
                    "values");
  return true;
}

bool Vectorizer::launches(bool Required) {
  std::string NoLaunch;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(NoLaunch);
  if (!Launches)
    return Required ? refuse(NoLaunch) : true;
  for (const KernelLaunch &L : *Launches) {
    std::string At = "the launch at " + M.where(L.Call);
    std::string Problem;
    std::optional<Dim3> Dims = constantDims(Ctx, L.Block);
    std::optional<std::string> Bound =
        textAtLaunch(Ctx, L, K.Bound, K.BoundExpr);
    if (!Dims || (*Dims)[0] <= 0 || (*Dims)[1] != 1 || (*Dims)[2] != 1)
      Problem = At + " has a block that is not a constant number of "
                     "threads in x";
    else if (!Bound)
      Problem = At + " passes the bound `" + K.Bound.str() +
                "` through a macro or with side effects";
    else if (!gridCoversAtLaunch(Ctx, L, (*Dims)[0], K.Bound))
      Problem = At + " has a grid that does not provably cover the bound `" +
                K.Bound.str() + "`";
    std::optional<tooling::Replacement> G;
    if (Problem.empty()) {
      std::string B = std::to_string((*Dims)[0]);
      if (L.Block->getType()->isIntegerType())
        if (auto Text = sourceText(Ctx, L.Block))
          B = parenthesize(L.Block, *Text);
      std::string NewX = "((" + *Bound + " + 3) / 4 + " + B + " - 1) / " + B;
      // A dim3 grid keeps its other dimensions (a batch on y).
      std::optional<std::string> NewGrid = gridWithNewX(Ctx, L.Grid, NewX);
      if (NewGrid)
        G = replaceExpr(Ctx, L.Grid, *NewGrid);
      if (!G)
        Problem = At + " writes its grid through a macro";
    }
    if (!Problem.empty()) {
      if (Required)
        return refuse(Problem);
      continue;
    }
    Edits.push_back(*G);
  }
  return true;
}

bool Vectorizer::run() {
  if (!M.cooperationWhy().empty())
    return refuse("its threads may depend on each other: " +
                  M.cooperationWhy());
  std::optional<PerIndexKernel> Shape =
      matchPerIndex(M, Why, /*OtherAxes=*/true);
  if (!Shape)
    return false;
  K = *Shape;
  return K.Form == PerIndexKernel::GridStride ? gridStride() : guarded();
}

bool Vectorizer::workTexts() {
  std::vector<std::string> Taken;
  auto Fresh = [&](const std::string &Base) {
    std::string N = freshName(M.kernel(), Base, Taken);
    Taken.push_back(N);
    return N;
  };
  I = K.IndexVar ? K.IndexVar->getNameAsString() : Fresh("i");
  Group = Fresh(I + "4");
  for (const auto *List : {&Loaded, &Updated, &Stored})
    for (const ModelArray &P : *List) {
      Vec[P] = Fresh((P.field() ? P.field()->getNameAsString()
                                : P.var()->getNameAsString()) +
                     "4");
      Order.push_back(P);
    }
  StringRef Buffer = SM.getBufferData(SM.getFileID(WorkBegin));
  Work = Lead + Buffer.substr(Begin, End - Begin).str();
  std::vector<TextEdit> ToIndex;
  for (const ModelAccess *A : Vectorised) {
    auto R = rangeOf(A->E);
    if (!R)
      return refuse("`" + M.text(A->E) + "` at " + M.where(A->E) +
                    " is written through a macro");
    ToVectors.push_back({R->first, R->second, Vec[A->Array] + "."});
  }
  if (!K.IndexVar)
    for (const Expr *X : K.IndexExprs)
      if (auto R = rangeOf(X))
        ToIndex.push_back({R->first, R->second, I});
  One = applyEdits(Work, ToIndex);
  for (const auto &[P, A] : First)
    if (Offset.at(P) != Polynomial() && !atGroup(A))
      return refuse("`" + M.text(A->E) + "` at " + M.where(A->E) +
                    " is written through a macro");
  return true;
}

std::string Vectorizer::lane(char C) const {
  std::vector<TextEdit> E = ToVectors;
  for (TextEdit &T : E)
    T.Text += C;
  return applyEdits(Work, E);
}

std::optional<std::string> Vectorizer::atGroup(const ModelAccess *A) const {
  auto R = rangeOf(A->E);
  if (!R)
    return std::nullopt;
  std::string Text = Work.substr(R->first, R->second);
  std::vector<TextEdit> ToGroup;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    const auto *E = dyn_cast<Expr>(S);
    bool IsIndex = E && llvm::is_contained(K.IndexExprs, E->IgnoreParens());
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      IsIndex |= K.IndexVar && DR->getDecl() == K.IndexVar;
    if (IsIndex) {
      if (auto X = rangeOf(E))
        ToGroup.push_back(
            {X->first - R->first, X->second, "(4 * " + Group + ")"});
      return;
    }
    for (const Stmt *C : S->children())
      Visit(C);
  };
  Visit(A->E);
  if (ToGroup.empty())
    return std::nullopt;
  return applyEdits(Text, ToGroup);
}

std::string Vectorizer::vectorAt(const ModelArray &P, bool Const) const {
  std::string T = Const ? "const float4 *" : "float4 *";
  if (Offset.at(P) == Polynomial())
    return "reinterpret_cast<" + T + ">(" + P.name() + ")[" + Group + "]";
  return "*reinterpret_cast<" + T + ">(&" + *atGroup(First.at(P)) + ")";
}

std::string Vectorizer::vectorWork(StringRef In) const {
  std::string S, In2 = In.str() + "  ";
  for (const ModelArray &P : Order) {
    std::string Load = vectorAt(P, /*Const=*/true);
    if (llvm::is_contained(Loaded, P))
      S += In.str() + "const float4 " + Vec.at(P) + " = " + Load + ";\n";
    else if (llvm::is_contained(Updated, P))
      S += In.str() + "float4 " + Vec.at(P) + " = " + Load + ";\n";
    else
      S += In.str() + "float4 " + Vec.at(P) + ";\n";
  }
  for (char C : {'x', 'y', 'z', 'w'})
    S += In.str() + "{\n" + indentLines(lane(C), In2) + In.str() + "}\n";
  for (const ModelArray &P : Order)
    if (!llvm::is_contained(Loaded, P))
      S += In.str() + vectorAt(P, /*Const=*/false) + " = " + Vec.at(P) + ";\n";
  return S;
}

std::string Vectorizer::alignedTest(StringRef In) const {
  std::string Aligned;
  for (const ModelArray &P : Order)
    Aligned += std::string(Aligned.empty() ? "" : " |\n" + In.str() + "     ") +
               "reinterpret_cast<unsigned long long>(" +
               (Offset.at(P) == Polynomial() ? P.name()
                                             : "&" + *atGroup(First.at(P))) +
               ")";
  return "((" + Aligned + ") % 16) == 0";
}

std::string Vectorizer::boundText() const {
  if (K.Bound.terms().size() == 1 && K.Bound.terms().begin()->second == 1 &&
      !K.BoundExpr)
    return K.Bound.str();
  if (K.BoundExpr)
    if (auto Text = sourceText(Ctx, K.BoundExpr))
      return parenthesize(K.BoundExpr, *Text);
  return "(" + K.Bound.str() + ")";
}

bool Vectorizer::guarded() {
  if (!K.LowerBounds.empty())
    return refuse("its guard at " + M.where(K.Guard) +
                  " also bounds the index from below; four consecutive "
                  "elements per thread would start anywhere");
  const auto *Body = cast<CompoundStmt>(M.kernel().getBody());
  const IfStmt *Guard = K.Guard;
  if (!llvm::is_contained(Body->body(), static_cast<const Stmt *>(Guard)))
    return refuse("its guard at " + M.where(Guard) +
                  " is not a statement of the kernel's body");

  // The top-level statements of the work and the text they span.
  if (isReturnOnly(Guard->getThen())) {
    Top = K.Work;
    if (Top.empty())
      return refuse("it does nothing after its guard");
    WorkBegin = Top.front()->getBeginLoc();
    WorkEnd = Body->getRBracLoc();
  } else if (const auto *CS = dyn_cast<CompoundStmt>(Guard->getThen())) {
    Top.assign(CS->body_begin(), CS->body_end());
    WorkBegin = CS->getLBracLoc().getLocWithOffset(1);
    WorkEnd = CS->getRBracLoc();
  } else {
    Top.push_back(Guard->getThen());
    WorkBegin = Guard->getThen()->getBeginLoc();
    WorkEnd = Body->getRBracLoc();
  }
  if (Top.empty() || !WorkBegin.isFileID() || !WorkEnd.isFileID() ||
      !Guard->getBeginLoc().isFileID() ||
      SM.getFileID(WorkBegin) != SM.getFileID(WorkEnd) ||
      SM.getFileID(Guard->getBeginLoc()) != SM.getFileID(WorkBegin))
    return refuse("its work is written through a macro");
  Begin = SM.getFileOffset(WorkBegin);
  End = SM.getFileOffset(WorkEnd);
  if (End <= Begin)
    return refuse("its work is written through a macro");
  Lead = std::string(SM.getSpellingColumnNumber(WorkBegin) - 1, ' ');
  if (isa<CompoundStmt>(Guard->getThen()))
    Lead.clear();
  if (!classify() || !launches() || !workTexts())
    return false;

  // The index's type and value: from its declaration when it comes right
  // before the guard (which the group of four then replaces), else read
  // after the declarations.
  const DeclStmt *IndexDecl = nullptr;
  if (K.IndexVar) {
    auto It = llvm::find(Body->body(), static_cast<const Stmt *>(Guard));
    const auto *DS =
        It != Body->body_begin() ? dyn_cast<DeclStmt>(*std::prev(It)) : nullptr;
    if (DS && DS->isSingleDecl() && DS->getSingleDecl() == K.IndexVar &&
        DS->getBeginLoc().isFileID() &&
        SM.getFileID(DS->getBeginLoc()) == SM.getFileID(WorkBegin))
      IndexDecl = DS;
  }
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  std::string T, Value;
  if (IndexDecl) {
    auto InitText = sourceText(Ctx, K.IndexVar->getInit());
    if (!InitText)
      return refuse("the index's declaration is written through a macro");
    T = K.IndexVar->getType().getAsString(PP);
    Value = *InitText;
  } else if (K.IndexVar) {
    T = K.IndexVar->getType().getUnqualifiedType().getAsString(PP);
    Value = I;
  } else {
    T = K.IndexExprs.front()->getType().getUnqualifiedType().getAsString(PP);
    Value = "blockIdx.x * blockDim.x + threadIdx.x";
  }
  // The tail's loop changes its variable.
  std::string LoopT = T;
  if (K.IndexVar)
    LoopT = K.IndexVar->getType().getUnqualifiedType().getAsString(PP);
  const Stmt *First = IndexDecl ? static_cast<const Stmt *>(IndexDecl) : Guard;
  std::string N = boundText();

  // The new body, from the index's declaration (or the guard) to the
  // closing brace.
  std::string Indent = lineIndent(SM, First->getBeginLoc());
  std::string In2 = Indent + "  ", In3 = In2 + "  ";
  // The guard's conditions of the launch end the kernel first.
  std::optional<std::string> Exit = conditionsExit(M);
  if (!Exit)
    return refuse("a condition of its guard is written through a macro");
  std::string S;
  if (!Exit->empty())
    S += *Exit + "\n" + Indent;
  S += T + " " + Group + " = " + Value + ";\n";
  S += Indent + "// Four elements per thread: float4 when every vectorised "
                "pointer is\n";
  S += Indent + "// 16-byte aligned, one by one otherwise and for the tail.\n";
  S += Indent + "if (" + Group + " < " + N + " / 4 &&\n";
  S += In2 + alignedTest(In2) + ") {\n";
  S += vectorWork(In2);
  S += Indent + "} else if (" + Group + " < (" + N + " + 3) / 4) {\n";
  S += In2 + "for (" + LoopT + " " + I + " = 4 * " + Group + "; " + I + " < " +
       N + " && " + I + " < 4 * " + Group + " + 4; ++" + I + ") {\n";
  S += indentLines(One, In3);
  S += In2 + "}\n" + Indent + "}\n";
  unsigned From = SM.getFileOffset(First->getBeginLoc());
  unsigned BodyEnd = SM.getFileOffset(Body->getRBracLoc());
  if (BodyEnd < End)
    return refuse("its work is written through a macro");
  Edits.push_back(
      tooling::Replacement(SM, First->getBeginLoc(), BodyEnd - From, S));
  return true;
}

bool Vectorizer::gridStride() {
  // matchPerIndex() found the counter read nowhere outside the loop.
  const ModelLoop &L = M.loops()[M.loopIndex(K.Loop)];
  // The work: the loop's body without a `while`'s step.
  const Stmt *LoopBody = isa<ForStmt>(K.Loop)
                             ? cast<ForStmt>(K.Loop)->getBody()
                             : cast<WhileStmt>(K.Loop)->getBody();
  Top = K.Work;
  if (Top.empty())
    return refuse("its grid-stride loop at " + M.where(K.Loop) +
                  " does nothing");
  std::optional<FileRange> Whole = autoprof::statementRange(Ctx, K.Loop);
  if (const auto *CS = dyn_cast<CompoundStmt>(LoopBody)) {
    WorkBegin = CS->getLBracLoc().getLocWithOffset(1);
    WorkEnd =
        isa<WhileStmt>(K.Loop) ? L.StepStmt->getBeginLoc() : CS->getRBracLoc();
    Lead.clear();
  } else {
    std::optional<FileRange> R = autoprof::statementRange(Ctx, LoopBody);
    if (!R)
      return refuse("its work is written through a macro");
    WorkBegin = LoopBody->getBeginLoc();
    WorkEnd = WorkBegin.getLocWithOffset(R->End - R->Begin);
    Lead = std::string(SM.getSpellingColumnNumber(WorkBegin) - 1, ' ');
  }
  if (!Whole || !WorkBegin.isFileID() || !WorkEnd.isFileID() ||
      SM.getFileID(WorkBegin) != Whole->File ||
      SM.getFileID(WorkEnd) != Whole->File)
    return refuse("its work is written through a macro");
  Begin = SM.getFileOffset(WorkBegin);
  End = SM.getFileOffset(WorkEnd);
  if (End <= Begin || Begin < Whole->Begin || End > Whole->End)
    return refuse("its work is written through a macro");
  // A `continue` or `break` of the loop itself would skip the other lanes.
  // A `break` inside a `switch` leaves the switch.
  std::function<const Stmt *(const Stmt *, bool)> Jump =
      [&](const Stmt *S, bool InSwitch) -> const Stmt * {
    if (!S || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      return nullptr;
    if (isa<ContinueStmt>(S) || (isa<BreakStmt>(S) && !InSwitch))
      return S;
    InSwitch |= isa<SwitchStmt>(S);
    for (const Stmt *C : S->children())
      if (const Stmt *J = Jump(C, InSwitch))
        return J;
    return nullptr;
  };
  for (const Stmt *S : Top)
    if (const Stmt *J = Jump(S, false))
      return refuse("the work at " + M.where(J) +
                    " leaves its iteration early, which would leave the "
                    "other elements of its group of four");
  // Any grid strides over the groups; one of a thread per element (the
  // loop runs once) is divided by four, as a guarded kernel's is.
  if (!classify() || !launches(/*Required=*/false) || !workTexts())
    return false;

  // Any grid strides over the groups of four, then over the tail; the
  // launches stay as they are. The start and the step are written anew
  // from their values, in the loop variable's type.
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  std::string T = L.Var->getType().getUnqualifiedType().getAsString(PP);
  std::string Start = "(" + T + ")blockIdx.x * blockDim.x + threadIdx.x";
  std::string Step = "(" + T + ")blockDim.x * gridDim.x";
  std::string N = boundText();
  std::string Indent = lineIndent(SM, K.Loop->getBeginLoc());
  std::string In2 = Indent + "  ", In3 = In2 + "  ";
  StringRef Buffer = SM.getBufferData(Whole->File);
  std::string Original = Buffer.slice(Whole->Begin, Whole->End).str();
  // The tail's loop declares its variable, or sets the one declared
  // before the loop.
  std::string TailVar = L.DeclaredByLoop ? T + " " + I : I;
  std::string S;
  S += "// Four elements per thread: float4 when every vectorised pointer "
       "is\n";
  S += Indent + "// 16-byte aligned, one by one otherwise and for the tail.\n";
  S += Indent + "if (" + alignedTest(Indent + "  ") + ") {\n";
  S += In2 + "for (" + T + " " + Group + " = " + Start + "; " + Group + " < " +
       N + " / 4;\n";
  S += In2 + "     " + Group + " += " + Step + ") {\n";
  S += vectorWork(In3);
  S += In2 + "}\n";
  S += In2 + "for (" + TailVar + " = 4 * (" + N + " / 4) + (" + Start + "); " +
       I + " < " + N + ";\n";
  S += In2 + "     " + I + " += " + Step + ") {\n";
  S += indentLines(One, In3);
  S += In2 + "}\n";
  S += Indent + "} else {\n";
  S += In2 + indented(Original, "  ") + "\n";
  S += Indent + "}";
  Edits.push_back(
      tooling::Replacement(SM, SM.getComposedLoc(Whole->File, Whole->Begin),
                           Whole->End - Whole->Begin, S));
  return true;
}

} // namespace

Error VectorizeFloat4::apply(const KernelModel &M, FileEdits &Out) const {
  Vectorizer V(M);
  if (!V.run())
    return Error::success();
  return addEdits(V.Edits, Out);
}

std::string VectorizeFloat4::explain(const KernelModel &M) const {
  Vectorizer V(M);
  return V.run() ? "" : V.Why;
}
