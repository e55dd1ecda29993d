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

/// Appends every reference to a declaration inside \p S to \p Refs.
void collectRefs(const Stmt *S, std::vector<const DeclRefExpr *> &Refs) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    Refs.push_back(DR);
  for (const Stmt *C : S->children())
    collectRefs(C, Refs);
}

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
  std::optional<std::pair<unsigned, unsigned>> rangeOf(const Stmt *E) const;
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
  /// after the first at \p In; with \p AtZero, at the first group (see
  /// atGroup()).
  std::string alignedTest(llvm::StringRef In, bool AtZero = false) const;
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
  /// element, `4 * i4` (or by 0 with \p AtZero, for the first group of a
  /// grid-stride loop, before its variable is declared: the others lie
  /// whole multiples of 16 bytes after it); nullopt through a macro.
  std::optional<std::string> atGroup(const ModelAccess *A,
                                     bool AtZero = false) const;
  /// The float4 at the group of pointer \p P: `reinterpret_cast<...>(P)[i4]`,
  /// or through the address of its first element when it has an offset.
  std::string vectorAt(const ModelArray &P, bool Const) const;
  /// The text of \p E with the index replaced by the group's first
  /// element and each local computed from the index (declared in the work
  /// or in Derived) by its value; nullopt through a macro or for such a
  /// local without one value.
  std::optional<std::string> groupText(const clang::Expr *E, bool AtZero,
                                       unsigned Depth = 0) const;
  /// Whether \p E reads the index itself: the index variable or one of
  /// the expressions that compute it.
  bool isIndex(const clang::Expr *E) const;
  /// Whether \p S lies in a vectorised access, which a lane replaces.
  bool inVectorised(const clang::Stmt *S) const;
  /// Makes the edits of a lane: the vectorised accesses, the locals of the
  /// work that only they read (the lanes do not declare them) and, when
  /// the index is written inline, its reads; sets LaneReadsIndex.
  bool laneEdits();

  /// Locals declared before the work whose values depend on the index,
  /// in order of declaration; the work reads them only in vectorised
  /// accesses, and the tail declares them again for its elements.
  std::vector<const clang::VarDecl *> Derived;
  llvm::SmallPtrSet<const clang::VarDecl *, 4> DerivedSet;
  /// Locals declared in the work.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Own;
  /// The edits that make a lane's text from the work's: the vectorised
  /// accesses (each followed by the lane's component) and the others.
  std::vector<TextEdit> LaneVectors, LaneEdits;
  /// Whether a lane reads the index other than in vectorised accesses:
  /// each lane then declares it with its element's value.
  bool LaneReadsIndex = false;
  /// The index's type, for the lanes' declarations of it.
  std::string IndexType;
  /// The declarations of Derived for the tail's elements, one per line,
  /// and of those a lane reads.
  std::string Redeclared, LaneRedeclared;
  std::map<const clang::VarDecl *, std::string> DerivedText;
};

std::optional<std::pair<unsigned, unsigned>>
Vectorizer::rangeOf(const Stmt *E) const {
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
    // the thread hierarchy of other axes (a batch, a row of 2-D blocks).
    std::optional<Polynomial> D = Polynomial::sub(*A.Index, Index);
    if (D && !D->dependsOn([](const Symbol &S) {
          return !S.isParameter() && !(S.isBuiltin() && S.Index > 0);
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
  // hierarchy (`int j = i;`, `float *yp = y + i;`): they hold the values
  // of one element, so the tail and the lanes that read them declare them
  // again.
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
            V && (V == K.IndexVar || DerivedSet.count(V)))
          return true;
      return llvm::any_of(X->children(), Refers);
    };
    return Refers(Init);
  };
  auto Derive = [&](const VarDecl *V) {
    if (DerivedSet.insert(V).second)
      Derived.push_back(V);
  };
  for (const Stmt *S : M.prologue()) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V != K.IndexVar && ReadsThread(V->getInit()))
          Derive(V);
    // `j = i;` after `int j;`.
    if (const auto *A = dyn_cast<BinaryOperator>(S);
        A && A->getOpcode() == BO_Assign)
      if (const auto *DR = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
            V && V != K.IndexVar && ReadsThread(A->getRHS()))
          Derive(V);
  }

  // A pointer of the work's own, declared alone from others and never
  // changed, that reaches elements only (`float *row = m + blockIdx.y *
  // cols; row[c] = ...`): its value is a pointer's use to reach them.
  std::function<bool(const Stmt *)> InRowPointer = [&](const Stmt *E) {
    for (const Stmt *S : Top) {
      const auto *DS = dyn_cast<DeclStmt>(S);
      const auto *V = DS && DS->isSingleDecl()
                          ? dyn_cast<VarDecl>(DS->getSingleDecl())
                          : nullptr;
      if (!V || !V->getType()->isPointerType() || !V->getInit() ||
          !isWithin(Ctx, E, V->getInit()) || !isUnmodified(Ctx, *V))
        continue;
      bool OnlyElements = true;
      std::function<void(const Stmt *)> Uses = [&](const Stmt *X) {
        if (!X)
          return;
        if (const auto *DR = dyn_cast<DeclRefExpr>(X);
            DR && DR->getDecl() == V &&
            llvm::none_of(
                M.accesses(),
                [&](const ModelAccess &A) { return isWithin(Ctx, DR, A.E); }) &&
            !InRowPointer(DR))
          OnlyElements = false;
        for (const Stmt *C : X->children())
          Uses(C);
      };
      for (const Stmt *T : Top)
        Uses(T);
      return OnlyElements;
    }
    return false;
  };

  // The index is read as the element of a vectorised access or as a value
  // (each lane declares it with its own), pointers only to reach elements.
  std::function<bool(const Stmt *)> Check = [&](const Stmt *S) {
    if (!S)
      return true;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (const auto *DR = dyn_cast<DeclRefExpr>(E);
          DR && K.IndexVar && DR->getDecl() == K.IndexVar &&
          !readsOnly(Ctx, K.IndexVar, DR))
        return refuse("the work changes the index at " + M.where(DR));
      bool IsPointer = false;
      if (const auto *DR = dyn_cast<DeclRefExpr>(E))
        IsPointer = DR->getDecl()->getType()->isPointerType();
      auto InAccess = [&](const Stmt *X) {
        return llvm::any_of(M.accesses(), [&](const ModelAccess &A) {
          return isWithin(Ctx, X, A.E);
        });
      };
      if (IsPointer && !InAccess(E) && !InRowPointer(E))
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
    // The block stays as it is; its x counts.
    if (!Dims || (*Dims)[0] <= 0)
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
      matchPerIndex(M, Why, /*OtherAxes=*/true, /*OtherThreads=*/true);
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
                    " is written through a macro or a local of more than "
                    "one value");
  // The tail's elements declare the locals of Derived again, in order;
  // their declarations before the work go when nothing else reads them.
  std::vector<const DeclRefExpr *> Refs;
  collectRefs(M.kernel().getBody(), Refs);
  // Those the work reads, and those their values read.
  llvm::SmallPtrSet<const VarDecl *, 4> Needed;
  for (const DeclRefExpr *DR : Refs)
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && DerivedSet.count(V) &&
        llvm::any_of(Top, [&](const Stmt *S) { return isWithin(Ctx, DR, S); }))
      Needed.insert(V);
  for (const VarDecl *V : llvm::reverse(Derived))
    if (Needed.count(V) && V->getInit())
      for (const DeclRefExpr *DR : Refs)
        if (const auto *W = dyn_cast<VarDecl>(DR->getDecl());
            W && DerivedSet.count(W) && isWithin(Ctx, DR, V->getInit()))
          Needed.insert(W);
  std::vector<FileRange> Moved;
  for (const VarDecl *V : Derived) {
    if (!Needed.count(V))
      continue;
    const DeclStmt *Decl = nullptr;
    for (const Stmt *S : M.prologue())
      if (const auto *DS = dyn_cast<DeclStmt>(S);
          DS && DS->isSingleDecl() && DS->getSingleDecl() == V)
        Decl = DS;
    std::optional<FileRange> R =
        Decl ? autoprof::rangeOf(Ctx, Decl) : std::nullopt;
    if (!R || !isUnmodified(Ctx, *V) || !M.isPure(V->getInit()))
      return refuse("`" + V->getNameAsString() +
                    "` holds a value of the index computed before the guard "
                    "other than by a declaration of its own that nothing "
                    "changes");
    // An element it loads would be loaded apart from the vectors.
    for (const ModelAccess &A : M.accesses())
      if (isWithin(Ctx, A.E, V->getInit()))
        return refuse("`" + V->getNameAsString() + "` at " + M.where(Decl) +
                      " holds an element loaded before the guard");
    std::vector<TextEdit> Edits;
    if (!K.IndexVar)
      for (const Expr *X : K.IndexExprs)
        if (isWithin(Ctx, X, Decl))
          if (std::optional<FileRange> XR = autoprof::rangeOf(Ctx, X))
            Edits.push_back({XR->Begin, XR->End - XR->Begin, I});
    DerivedText[V] = editedSlice(Ctx, R->File, R->Begin, R->End, Edits);
    Redeclared += DerivedText[V] + "\n";
    Moved.push_back(*R);
  }
  bool ReadElsewhere = llvm::any_of(Refs, [&](const DeclRefExpr *DR) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V || !Needed.count(V))
      return false;
    unsigned At = SM.getFileOffset(SM.getSpellingLoc(DR->getLocation()));
    return llvm::none_of(Top,
                         [&](const Stmt *S) { return isWithin(Ctx, DR, S); }) &&
           llvm::none_of(Moved, [&](const FileRange &R) {
             return R.Begin <= At && At < R.End;
           });
  });
  if (!ReadElsewhere)
    for (const FileRange &R : Moved) {
      // The whole line when the declaration is alone on it.
      StringRef Buffer = SM.getBufferData(R.File);
      size_t From = Buffer.rfind('\n', R.Begin) + 1,
             To = Buffer.find('\n', R.End);
      if (To == StringRef::npos ||
          !Buffer.slice(From, R.Begin).trim().empty() ||
          !Buffer.slice(R.End, To).trim().empty()) {
        From = R.Begin;
        To = R.End;
      } else {
        ++To;
      }
      Edits.push_back(tooling::Replacement(SM, SM.getComposedLoc(R.File, From),
                                           To - From, ""));
    }
  return laneEdits();
}

bool Vectorizer::laneEdits() {
  // The work's own locals that a lane need not declare: declared alone
  // with a pure value and read only in vectorised accesses or in the
  // values of others of them (`int idx = b * n + i;` before
  // `out[idx] = ...`).
  std::map<const VarDecl *, const DeclStmt *> Unread;
  for (const Stmt *S : Top)
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
          V && V->getInit() && isUnmodified(Ctx, *V) &&
          (V->getType()->isIntegerType() || V->getType()->isPointerType()) &&
          M.isPure(V->getInit()))
        Unread[V] = DS;
  auto Dead = [&](const Stmt *S) {
    return inVectorised(S) || llvm::any_of(Unread, [&](const auto &U) {
             return isWithin(Ctx, S, U.second);
           });
  };
  std::vector<const DeclRefExpr *> Refs;
  for (const Stmt *S : Top)
    collectRefs(S, Refs);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const DeclRefExpr *DR : Refs) {
      auto It = Unread.find(dyn_cast<VarDecl>(DR->getDecl()));
      if (It != Unread.end() && !Dead(DR)) {
        Unread.erase(It);
        Changed = true;
        break;
      }
    }
  }
  // The edits: vectorised accesses, unread declarations (with their line
  // when alone on it) and, for an index written inline, its other reads.
  LaneVectors = ToVectors;
  for (const auto &[V, DS] : Unread) {
    auto R = rangeOf(DS);
    if (!R)
      return refuse("`" + M.text(V->getInit()) + "` at " + M.where(DS) +
                    " is written through a macro");
    unsigned From = R->first, To = R->first + R->second;
    size_t LineBegin = Work.rfind('\n', From == 0 ? 0 : From - 1);
    LineBegin = LineBegin == std::string::npos ? 0 : LineBegin + 1;
    size_t LineEnd = Work.find('\n', To);
    LineEnd = LineEnd == std::string::npos ? Work.size() : LineEnd + 1;
    if (StringRef(Work).slice(LineBegin, From).trim().empty() &&
        StringRef(Work).slice(To, LineEnd).trim().empty()) {
      From = LineBegin;
      To = LineEnd;
    }
    llvm::erase_if(LaneVectors, [&](const TextEdit &E) {
      return E.Offset >= From && E.Offset + E.Length <= To;
    });
    LaneEdits.push_back({From, To - From, ""});
  }
  auto Read = [&](const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    return E && isIndex(E) && !Dead(E);
  };
  std::function<void(const Stmt *)> Reads = [&](const Stmt *S) {
    if (!S)
      return;
    if (Read(S)) {
      LaneReadsIndex = true;
      if (!K.IndexVar)
        if (auto R = rangeOf(cast<Expr>(S)))
          LaneEdits.push_back({R->first, R->second, I});
      return;
    }
    for (const Stmt *C : S->children())
      Reads(C);
  };
  for (const Stmt *S : Top)
    Reads(S);
  // The locals of Derived that a lane reads, and those their values read.
  llvm::SmallPtrSet<const VarDecl *, 4> Lane;
  for (const DeclRefExpr *DR : Refs)
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && DerivedText.count(V) && !Dead(DR))
      Lane.insert(V);
  std::function<void(const Stmt *)> Closure = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *W = dyn_cast<VarDecl>(DR->getDecl());
          W && DerivedText.count(W))
        Lane.insert(W);
    for (const Stmt *C : S->children())
      Closure(C);
  };
  for (const VarDecl *V : llvm::reverse(Derived))
    if (Lane.count(V))
      Closure(V->getInit());
  for (const VarDecl *V : Derived)
    if (Lane.count(V))
      LaneRedeclared += DerivedText.at(V) + "\n";
  LaneReadsIndex |= !LaneRedeclared.empty();
  return true;
}

std::string Vectorizer::lane(char C) const {
  std::vector<TextEdit> E = LaneEdits;
  for (TextEdit T : LaneVectors) {
    T.Text += C;
    E.push_back(T);
  }
  return applyEdits(Work, E);
}

bool Vectorizer::isIndex(const Expr *E) const {
  if (llvm::is_contained(K.IndexExprs, E->IgnoreParens()))
    return true;
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR && K.IndexVar && DR->getDecl() == K.IndexVar;
}

bool Vectorizer::inVectorised(const Stmt *S) const {
  return llvm::any_of(
      Vectorised, [&](const ModelAccess *A) { return isWithin(Ctx, S, A->E); });
}

std::optional<std::string> Vectorizer::groupText(const Expr *E, bool AtZero,
                                                 unsigned Depth) const {
  std::optional<FileRange> R = autoprof::rangeOf(Ctx, E);
  if (!R || Depth > 8)
    return std::nullopt;
  std::vector<TextEdit> ToGroup;
  bool Named = true;
  // Where a replaced operand needs no parentheses: an element's whole
  // subscript, or an operand of `+` or `-` (`*`, `/`, `%`) that binds
  // tighter, or as tight on the left.
  llvm::DenseMap<const Stmt *, std::pair<int, bool>> Context;
  auto Level = [](const Expr *X) {
    const auto *B = dyn_cast<BinaryOperator>(X->IgnoreImpCasts());
    if (!B)
      return isa<DeclRefExpr, IntegerLiteral, ParenExpr, PseudoObjectExpr,
                 MemberExpr, CallExpr, ArraySubscriptExpr>(X->IgnoreImpCasts())
                 ? 9
                 : 0;
    return B->isMultiplicativeOp() ? 2 : B->isAdditiveOp() ? 1 : 0;
  };
  auto Wrap = [&](const Stmt *At, const Expr *Value, std::string Text) {
    auto It = Context.find(At);
    int Own = Level(Value);
    if (Own == 9 || (It != Context.end() &&
                     (It->second.first < Own ||
                      (It->second.first == Own && It->second.second))))
      return Text;
    return "(" + Text + ")";
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Named)
      return;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      Context[AS->getIdx()->IgnoreImpCasts()] = {0, false};
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && (B->isAdditiveOp() || B->isMultiplicativeOp())) {
      int L = B->isMultiplicativeOp() ? 2 : 1;
      Context[B->getLHS()->IgnoreImpCasts()] = {L, true};
      Context[B->getRHS()->IgnoreImpCasts()] = {L, false};
    }
    const auto *X = dyn_cast<Expr>(S);
    std::optional<std::string> Text;
    if (X && isIndex(X)) {
      // `4 * i4` is a product.
      auto It = Context.find(X);
      Text = "4 * " + Group;
      if (AtZero)
        Text = "0";
      else if (It == Context.end() || It->second.first > 2 ||
               (It->second.first == 2 && !It->second.second))
        Text = "(" + *Text + ")";
    } else if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V || !(Own.count(V) || DerivedSet.count(V)))
        return;
      // A local of the element: its value at the group's first element.
      const Expr *Value = soleValue(Ctx, *V);
      std::optional<std::string> At =
          Value ? groupText(Value, AtZero, Depth + 1) : std::nullopt;
      if (!At) {
        Named = false;
        return;
      }
      Text = Wrap(DR, Value, *At);
    } else {
      for (const Stmt *C : S->children())
        Visit(C);
      return;
    }
    std::optional<FileRange> XR = autoprof::rangeOf(Ctx, S);
    if (!XR || XR->File != R->File) {
      Named = false;
      return;
    }
    ToGroup.push_back({XR->Begin, XR->End - XR->Begin, *Text});
  };
  Visit(E);
  // Text that names neither the index nor a local of it would not move.
  if (!Named || (Depth == 0 && ToGroup.empty()))
    return std::nullopt;
  return editedSlice(Ctx, R->File, R->Begin, R->End, ToGroup);
}

std::optional<std::string> Vectorizer::atGroup(const ModelAccess *A,
                                               bool AtZero) const {
  return groupText(A->E, AtZero);
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
  const char *Lanes = "xyzw";
  for (int C = 0; C < 4; ++C) {
    S += In.str() + "{\n";
    if (LaneReadsIndex)
      S += In2 + IndexType + " " + I + " = 4 * " + Group +
           (C ? " + " + std::to_string(C) : "") + ";\n" +
           indentLines(LaneRedeclared, In2);
    S += indentLines(lane(Lanes[C]), In2) + In.str() + "}\n";
  }
  for (const ModelArray &P : Order)
    if (!llvm::is_contained(Loaded, P))
      S += In.str() + vectorAt(P, /*Const=*/false) + " = " + Vec.at(P) + ";\n";
  return S;
}

std::string Vectorizer::alignedTest(StringRef In, bool AtZero) const {
  std::string Aligned;
  for (const ModelArray &P : Order)
    Aligned +=
        std::string(Aligned.empty() ? "" : " |\n" + In.str() + "     ") +
        "reinterpret_cast<unsigned long long>(" +
        (Offset.at(P) == Polynomial() ? P.name()
                                      : "&" + *atGroup(First.at(P), AtZero)) +
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
  IndexType = LoopT;
  const Stmt *First = IndexDecl ? static_cast<const Stmt *>(IndexDecl) : Guard;
  std::string N = boundText();

  // The new body, from the index's declaration (or the guard) to the
  // closing brace.
  std::string Indent = lineIndent(SM, First->getBeginLoc());
  std::string In2 = Indent + "  ", In3 = In2 + "  ";
  // The guard's conditions of the launch end the kernel first.
  std::optional<std::string> Exit = conditionsExit(M, K.OtherAxisBounds);
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
  S += indentLines(Redeclared, In3) + indentLines(One, In3);
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
  IndexType = T;
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
  S += Indent + "if (" + alignedTest(Indent + "  ", /*AtZero=*/true) + ") {\n";
  S += In2 + "for (" + T + " " + Group + " = " + Start + "; " + Group + " < " +
       N + " / 4;\n";
  S += In2 + "     " + Group + " += " + Step + ") {\n";
  S += vectorWork(In3);
  S += In2 + "}\n";
  S += In2 + "for (" + TailVar + " = 4 * (" + N + " / 4) + (" + Start + "); " +
       I + " < " + N + ";\n";
  S += In2 + "     " + I + " += " + Step + ") {\n";
  S += indentLines(Redeclared, In3) + indentLines(One, In3);
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
