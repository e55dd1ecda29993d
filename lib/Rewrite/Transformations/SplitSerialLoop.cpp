//===- SplitSerialLoop.cpp - Split each thread's loop over 32 threads -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "SplitSerialLoop.h"
#include "IndependentThreads.h"
#include "TextEdits.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// Threads per output, and outputs per block.
constexpr int Slices = 32;
/// Threads per block after the rewrite.
constexpr int BlockSize = Slices * 32;

/// Gives each output of a thread-per-output reduction kernel 32 threads:
/// matches the kernel model and gathers the edits, or says why it cannot.
class Splitter {
public:
  explicit Splitter(const KernelModel &M)
      : M(M), Ctx(M.context()), SM(Ctx.getSourceManager()) {
    Slice = freshName(M.kernel(), "Slice");
    Active = freshName(M.kernel(), "Active", {Slice});
    Q = freshName(M.kernel(), "Q", {Slice, Active});
  }

  bool run() {
    if (std::string W = M.cooperationWhy(); !W.empty())
      return refuse(W);
    if (M.kernel().hasAttr<CUDALaunchBoundsAttr>())
      return refuse("the kernel declares __launch_bounds__, which blocks of " +
                    std::to_string(BlockSize) + " threads may exceed");
    if (!outputs() || !launches() || !body())
      return false;
    // Blocks of 1024 would change a size the kernel reads as a constant,
    // unless the value that reads it is an output, which is replaced.
    for (const Expr *E : M.blockSizeReads())
      if (llvm::none_of(Outs,
                        [&](const Expr *O) { return isWithin(Ctx, E, O); }))
        return refuse("`" + M.text(E) + "` at " + M.where(E) +
                      " takes the block's size as the constant of its "
                      "launches");
    return true;
  }

  std::vector<tooling::Replacement> Edits;
  std::string Why;

private:
  bool refuse(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }
  bool outputs();
  bool launches();
  bool body();
  bool loop(const ModelLoop &L, unsigned Index, const std::string &Ind);
  std::string combine(const ModelReduction &R, const std::string &Ind);
  std::string combine(const ModelArgExtreme &A, const std::string &Ind);
  /// The shared array of the slices' partial values of \p V (a second one
  /// of its type for a \p Position).
  std::string part(const VarDecl &V, bool Position);

  const KernelModel &M;
  ASTContext &Ctx;
  const SourceManager &SM;
  std::string Slice, Active, Q;
  /// Edits at file offsets of the kernel's file.
  std::vector<TextEdit> Local;
  FileID File;
  /// The shared arrays of the partial results: by type, and a second one
  /// by type for positions ("<type> at"); each with its type and name.
  std::map<std::string, std::pair<std::string, std::string>> Parts;
  /// The expressions of the output, each replaced by the new index.
  std::vector<const Expr *> Outs;
  /// The loops the slices split, as indices in the model's loops().
  std::vector<unsigned> Split;
};

bool Splitter::outputs() {
  std::vector<const Expr *> Uncovered;
  Outs = M.expressionsOfValue(globalIndex(0), Uncovered);
  // A batch index of the grid's other axes is the same for a block's
  // threads; the blocks change, so threadIdx.y may not be read.
  std::string OtherWhy;
  if (!takeOtherAxes(M, Uncovered, /*BlocksOnly=*/true, OtherWhy))
    return refuse(OtherWhy);
  if (!Uncovered.empty())
    return refuse("`" + M.text(Uncovered.front()) + "` at " +
                  M.where(Uncovered.front()) +
                  " is read other than in the thread's global index "
                  "blockIdx.x * blockDim.x + threadIdx.x, the output, or "
                  "in an index of another axis of the grid");
  if (Outs.empty())
    return refuse("no output: nothing computes blockIdx.x * blockDim.x + "
                  "threadIdx.x");
  const Stmt *Body = M.kernel().getBody();
  std::optional<FileRange> BR = rangeOf(Ctx, Body);
  if (!BR)
    return refuse("the kernel's body is written through a macro");
  File = BR->File;
  for (const Expr *O : Outs) {
    std::optional<FileRange> R = rangeOf(Ctx, O);
    if (!R || R->File != File)
      return refuse("the output at " + M.where(O) +
                    " is written through a macro");
    // In the index's own type: a 64-bit index stays 64-bit.
    std::string Wide;
    if (Ctx.getTypeSize(O->getType()) > 32)
      Wide = "(" +
             O->getType().getUnqualifiedType().getAsString(
                 Ctx.getPrintingPolicy()) +
             ")";
    Local.push_back({R->Begin, R->End - R->Begin,
                     "(" + Wide + "blockIdx.x * 32 + threadIdx.x % 32)"});
  }
  return true;
}

bool Splitter::launches() {
  std::string NoLaunch;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(NoLaunch);
  if (!Launches)
    return refuse(NoLaunch);
  for (const KernelLaunch &KL : *Launches) {
    std::string At = "the launch at " + M.where(KL.Call);
    std::optional<Dim3> Block = constantDims(Ctx, KL.Block);
    if (!Block)
      return refuse(At + " has a block whose size is not a compile-time "
                         "constant");
    if ((*Block)[1] != 1 || (*Block)[2] != 1)
      return refuse(At + " has a block of more than one dimension");
    if ((*Block)[0] <= 0 || (*Block)[0] % 32 != 0)
      return refuse(At + " has blocks of " + std::to_string((*Block)[0]) +
                    " threads, not whole warps");
    // A number is scaled as `(g) * F`, evaluated once as before; a dim3's
    // fields are read three times.
    if (KL.Grid->getType()->isRecordType() && !M.isPure(KL.Grid))
      return refuse(At + " computes its grid with side effects");
    std::optional<std::string> G = sourceText(Ctx, KL.Grid);
    if (!G)
      return refuse(At + " writes its grid through a macro");
    // The same outputs: G * B threads before, 32 outputs per block after.
    std::string Grid =
        scaledGridText(Ctx, KL.Grid, *G, std::to_string((*Block)[0] / 32));
    if ((*Block)[0] == 32)
      Grid = *G;
    std::optional<tooling::Replacement> RG = replaceExpr(Ctx, KL.Grid, Grid);
    std::optional<tooling::Replacement> RB =
        replaceExpr(Ctx, KL.Block, std::to_string(BlockSize));
    if (!RG || !RB)
      return refuse(At + " is written through a macro");
    Edits.push_back(*RG);
    Edits.push_back(*RB);
  }
  return true;
}

std::string Splitter::part(const VarDecl &V, bool Position) {
  // A template's parameter, else the canonical type: an alias may be
  // declared after the array.
  std::string Type = spelledType(Ctx, V.getType().getUnqualifiedType());
  auto &[PartType, Part] = Parts[Position ? Type + " at" : Type];
  if (Part.empty()) {
    std::vector<std::string> Taken = {Slice, Active, Q};
    for (const auto &[_, P] : Parts)
      if (!P.second.empty())
        Taken.push_back(P.second);
    PartType = Type;
    Part = freshName(M.kernel(), Position ? "PartialAt" : "Partial", Taken);
  }
  return Part;
}

std::string Splitter::combine(const ModelArgExtreme &A,
                              const std::string &Ind) {
  std::string X = A.Extreme->getNameAsString(),
              P = A.Position->getNameAsString();
  std::string PX = part(*A.Extreme, false), PP = part(*A.Position, true);
  std::string At = "[threadIdx.x % 32]";
  std::string QX = PX + "[" + Q + "]" + At, QP = PP + "[" + Q + "]" + At;
  return "\n" + Ind +
         "// The slices' extremes meet: every slice reads the greatest (least)"
         "\n" +
         Ind + "// and, of equal ones, the earliest.\n" + Ind + PX + "[" +
         Slice + "]" + At + " = " + X + ";\n" + Ind + PP + "[" + Slice + "]" +
         At + " = " + P + ";\n" + Ind + "__syncthreads();\n" + Ind + X + " = " +
         PX + "[0]" + At + ";\n" + Ind + P + " = " + PP + "[0]" + At + ";\n" +
         Ind + "for (int " + Q + " = 1; " + Q + " < " + std::to_string(Slices) +
         "; ++" + Q + ")\n" + Ind + "  if (" + QX +
         (A.Greatest ? " > " : " < ") + X + " || (" + QX + " == " + X + " && " +
         QP + " < " + P + ")) {\n" + Ind + "    " + X + " = " + QX + ";\n" +
         Ind + "    " + P + " = " + QP + ";\n" + Ind + "  }\n" + Ind +
         "__syncthreads();";
}

std::string Splitter::combine(const ModelReduction &R, const std::string &Ind) {
  std::string Part = part(*R.Scalar, false);
  std::string V = R.Scalar->getNameAsString();
  std::string At = "[threadIdx.x % 32]";
  std::string Step = R.Combine == "+"
                         ? V + " += " + Part + "[" + Q + "]" + At + ";"
                         : V + " = " + R.Combine + "(" + V + ", " + Part + "[" +
                               Q + "]" + At + ");";
  return "\n" + Ind + "// The slices' partial results meet: every slice " +
         "reads the total.\n" + Ind + Part + "[" + Slice + "]" + At + " = " +
         V + ";\n" + Ind + "__syncthreads();\n" + Ind + V + " = " + Part +
         "[0]" + At + ";\n" + Ind + "for (int " + Q + " = 1; " + Q + " < " +
         std::to_string(Slices) + "; ++" + Q + ")\n" + Ind + "  " + Step +
         "\n" + Ind + "__syncthreads();";
}

bool Splitter::loop(const ModelLoop &L, unsigned Index,
                    const std::string &Ind) {
  std::string At = "the loop at " + M.where(L.S);
  Split.push_back(Index);
  if (!L.counted())
    return refuse(At + " is not counted: " + L.Why);
  if (L.Step != Polynomial::constant(1))
    return refuse(At + " steps by " + L.Step.str() + ", not 1");
  const VarDecl *Var = L.symbolVar();
  // Steps of 32 must not wrap where steps of 1 stopped.
  if (!Var->getType()->isIntegerType() || Ctx.getTypeSize(Var->getType()) < 32)
    return refuse(At + " counts in `" +
                  Var->getType().getAsString(Ctx.getPrintingPolicy()) +
                  "`, which steps of " + std::to_string(Slices) +
                  " could wrap");
  // Its values differ from slice to slice: nothing outside the loop may
  // read it.
  if (const DeclRefExpr *DR = M.counterOutside(L))
    return refuse("`" + Var->getNameAsString() +
                  "` is read outside the loop at " + M.where(L.S) + ", at " +
                  M.where(DR));
  for (const ModelLoop &O : M.loops())
    if (O.Parent == static_cast<int>(Index))
      return refuse(At + " holds another loop, at " + M.where(O.S));
  std::vector<const ModelReduction *> Rs;
  for (const ModelReduction &R : M.reductions())
    if (R.Loop == Index)
      Rs.push_back(&R);
  std::vector<const ModelArgExtreme *> As;
  for (const ModelArgExtreme &A : M.argExtremes())
    if (A.Loop == Index)
      As.push_back(&A);
  for (const Stmt *S : loopBody(L)) {
    auto A = llvm::find_if(
        As, [&](const ModelArgExtreme *X) { return X->Statement == S; });
    if (A != As.end()) {
      if (std::string W = M.splitArgExtremeWhy(**A, "slices"); !W.empty())
        return refuse(W);
      continue;
    }
    const ModelReduction *Upd = nullptr;
    for (const ModelReduction *R : Rs)
      if (R->Statement == S)
        Upd = R;
    if (Upd) {
      if (!Upd->Scalar)
        return refuse(At + " accumulates into memory, at " + M.where(S) +
                      "; register-accumulate keeps such a sum in a register");
      if ((Upd->Term && !M.isPure(Upd->Term)) ||
          (Upd->Factor && !M.isPure(Upd->Factor)))
        return refuse("the term added at " + M.where(S) + " has side effects");
      if (Upd->Guard && !M.isPure(Upd->Guard))
        return refuse("the condition of the update at " + M.where(S) +
                      " has side effects");
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S);
        (DS && M.isPure(DS)) || M.isSkip(S, L))
      continue;
    return refuse(At + " does more than reduce: " + M.where(S));
  }
  if (Rs.empty() && As.empty())
    return refuse(At + " reduces nothing");
  for (const ModelReduction *R : Rs) {
    const VarDecl *V = R->Scalar;
    std::string Name = "`" + V->getNameAsString() + "`";
    for (const ModelReduction &O : M.reductions())
      if (O.Scalar == V && &O != R)
        return refuse(Name + " is reduced by more than one statement");
    const Expr *Start = valueOnEntry(Ctx, *V, *L.S);
    if (R->Combine == "+" && (!Start || !isConstantZero(Ctx, Start)))
      return refuse(Name + " does not start at zero before " + At +
                    ": each slice would add its start");
  }
  std::optional<FileRange> LR = rangeOf(Ctx, L.S);
  if (!LR || LR->File != File)
    return refuse(At + " is written through a macro");
  // The slice's iterations: Slice, Slice + 32, ... from the first.
  std::optional<std::vector<tooling::Replacement>> Header =
      strideLoop(Ctx, L, Slice, std::to_string(Slices));
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
  if (!Header || !FE)
    return refuse(At + " is written through a macro");
  for (const tooling::Replacement &R : *Header) {
    if (R.getFilePath() != FE->getName())
      return refuse(At + " is written through a macro");
    Local.push_back(
        {R.getOffset(), R.getLength(), R.getReplacementText().str()});
  }
  // A loop under `#pragma unroll` keeps the pragma right before it: the
  // `if` goes on a line of its own before the pragma's.
  auto Parents = Ctx.getParents(*L.S);
  const auto *Hint =
      Parents.size() == 1 ? Parents[0].get<AttributedStmt>() : nullptr;
  std::optional<FileRange> HR = Hint ? rangeOf(Ctx, Hint) : std::nullopt;
  if (HR && HR->File == File && HR->Begin < LR->Begin) {
    StringRef Text = SM.getBufferData(File).take_front(HR->Begin);
    size_t LineStart = Text.rfind('\n');
    LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
    Local.push_back(
        {static_cast<unsigned>(LineStart), 0, Ind + "if (" + Active + ")\n"});
    Local.push_back({LR->Begin, 0, "  "});
  } else if (Hint) {
    return refuse(At + " follows a loop hint that is not plain text");
  } else {
    Local.push_back({LR->Begin, 0, "if (" + Active + ")\n" + Ind + "  "});
  }
  std::string After;
  for (const ModelReduction *R : Rs)
    After += combine(*R, Ind);
  for (const ModelArgExtreme *A : As)
    After += combine(*A, Ind);
  // After the loop's last token (its `;` when its body is one statement).
  std::optional<FileRange> Whole = statementRange(Ctx, L.S);
  if (!Whole)
    return refuse(At + " does not end in a ';' of its own");
  unsigned End = Whole->End;
  // The loop moves under the `if`: two more spaces on its other lines.
  StringRef Buffer = SM.getBufferData(File);
  for (unsigned I = LR->Begin; I + 1 < End; ++I)
    if (Buffer[I] == '\n')
      Local.push_back({I + 1, 0, "  "});
  Local.push_back({End, 0, After});
  return true;
}

bool Splitter::body() {
  if (!M.guardWhy().empty())
    return refuse(M.guardWhy());
  const auto *Body = cast<CompoundStmt>(M.kernel().getBody());
  if (Body->body_empty())
    return refuse("the kernel's body is empty");
  llvm::ArrayRef<const IfStmt *> Guards = M.guardStatements();
  const Stmt *First = Guards.empty()
                          ? (M.work().empty() ? nullptr : M.work().front())
                          : static_cast<const Stmt *>(Guards.front());
  if (!First)
    return refuse("the kernel does no work");
  std::optional<FileRange> FirstR = rangeOf(Ctx, First);
  std::optional<FileRange> LastR = statementRange(Ctx, Body->body_back());
  if (!FirstR || !LastR || FirstR->File != File || LastR->File != File)
    return refuse("the kernel's work is written through a macro");

  // Before the guard, only declarations that read no memory.
  for (const Stmt *S : M.prologue()) {
    std::optional<FileRange> R = rangeOf(Ctx, S);
    if (!R || R->Begin >= FirstR->Begin)
      return refuse("a declaration between the guard's statements, at " +
                    M.where(S) +
                    ", would be evaluated by threads the guard "
                    "stops");
    for (const ModelAccess &A : M.accesses())
      if (isWithin(Ctx, A.E, S))
        return refuse("the declaration at " + M.where(S) +
                      " reads memory before the guard");
  }

  // The guard becomes a flag: the threads it stops still reach the
  // barriers.
  std::string Cond;
  for (const IfStmt *G : Guards) {
    if (G->getElse() || G->getInit() || G->getConditionVariable())
      return refuse("the guard at " + M.where(G) +
                    " has an else, an init or a declaration");
    std::optional<FileRange> CR = rangeOf(Ctx, G->getCond());
    std::optional<FileRange> GR = rangeOf(Ctx, G);
    if (!CR || !GR || CR->File != File || !M.isPure(G->getCond()))
      return refuse("the guard at " + M.where(G) +
                    " is written through a macro or has side effects");
    std::string C = editedSlice(Ctx, File, CR->Begin, CR->End, Local);
    bool Returns = isReturnOnly(G->getThen());
    Cond += (Cond.empty() ? "" : " && ") +
            std::string(Returns ? "!(" + C + ")" : "(" + C + ")");
    if (Returns) {
      std::optional<FileRange> SR = statementRange(Ctx, G);
      if (!SR)
        return refuse("the guard at " + M.where(G) +
                      " is written through a macro");
      // With the line break and indentation after it: what follows takes
      // its place.
      StringRef Buffer = SM.getBufferData(File);
      size_t Next = Buffer.find_first_not_of(" \t\r\n", SR->End);
      unsigned To = Next == StringRef::npos ? SR->End : Next;
      Local.push_back({SR->Begin, To - SR->Begin, ""});
    } else {
      // `if (c) {` keeps its block as a scope; `if (c) s;` keeps s.
      std::optional<FileRange> TR = rangeOf(Ctx, G->getThen());
      if (!TR)
        return refuse("the guard at " + M.where(G) +
                      " is written through a macro");
      Local.push_back({GR->Begin, TR->Begin - GR->Begin, ""});
    }
  }

  // The work: declarations, reduction loops, stores by slice 0.
  bool Stored = false;
  for (const Stmt *S : M.work()) {
    std::string Ind = lineIndent(SM, S->getBeginLoc());
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (!M.isPure(DS))
        return refuse("the declaration at " + M.where(S) + " has side effects");
      // A value loaded before the loop (`int b = rowptr[r];`, `float m =
      // x[0];`): the threads the guard stopped must not load it, so they
      // take zero instead. Every slice loads it before slice 0 stores.
      llvm::SmallPtrSet<const VarDecl *, 4> Loading;
      for (const ModelAccess &A : M.accesses()) {
        if (!isWithin(Ctx, A.E, S))
          continue;
        const VarDecl *Owner = nullptr;
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && V->getInit() && isWithin(Ctx, A.E, V->getInit()))
            Owner = V;
        if (!Owner)
          return refuse("the declaration at " + M.where(S) +
                        " reads memory outside a loop");
        Loading.insert(Owner);
      }
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !Loading.count(V))
          continue;
        QualType T = V->getType();
        std::optional<FileRange> IR = rangeOf(Ctx, V->getInit());
        if (Stored || T->isReferenceType() || T.isVolatileQualified() ||
            !(T->isArithmeticType() || T->isPointerType()) || !IR ||
            IR->File != File)
          return refuse("the declaration at " + M.where(S) +
                        " reads memory outside a loop");
        Local.push_back({IR->Begin, 0, Active + " ? ("});
        Local.push_back({IR->End, 0, ") : 0"});
      }
      continue;
    }
    if (M.isLocalSet(S)) {
      for (const ModelAccess &A : M.accesses())
        if (isWithin(Ctx, A.E, S))
          return refuse("the assignment at " + M.where(S) +
                        " reads memory outside a loop");
      continue;
    }
    if (int LI = M.loopIndex(S); LI >= 0) {
      if (!loop(M.loops()[LI], LI, Ind))
        return false;
      continue;
    }
    const auto *B = dyn_cast<BinaryOperator>(S);
    // `y[i] = v`, or `y[i] -= v`: slice 0 updates the element once, as
    // the thread did.
    if (!M.storeTarget(S))
      return refuse("the statement at " + M.where(S) +
                    " is not a declaration, a reduction loop or a store");
    if (!M.isPure(B->getRHS()) || !M.isPure(B->getLHS()))
      return refuse("the store at " + M.where(S) + " has side effects");
    std::optional<FileRange> R = statementRange(Ctx, S);
    if (!R || R->File != File)
      return refuse("the store at " + M.where(S) +
                    " is written through a macro");
    Stored = true;
    Local.push_back(
        {R->Begin, 0,
         "if (" + Active + " && " + Slice + " == 0)\n" + Ind + "  "});
    // A later loop's slices may read what slice 0 stored.
    bool LoopAfter = false;
    for (const Stmt *Later : M.work())
      if (M.loopIndex(Later) >= 0 &&
          SM.isBeforeInTranslationUnit(S->getBeginLoc(), Later->getBeginLoc()))
        LoopAfter = true;
    if (LoopAfter)
      Local.push_back({R->End, 0,
                       "\n" + Ind +
                           "__syncthreads(); // what slice 0 stored, seen by "
                           "every slice"});
  }
  if (std::string W = M.fewerIterationsWhy(Split, Slices); !W.empty())
    return refuse(W);

  // One region, from the guard to the end of the body, with its edits;
  // the rest of the kernel's edits outside it.
  std::string Ind = lineIndent(SM, First->getBeginLoc());
  std::string Head = "// " + std::to_string(Slices) +
                     " threads per output: slice s takes iterations s, s + " +
                     std::to_string(Slices) + ", ...\n" + Ind + "const int " +
                     Slice + " = threadIdx.x / 32;\n" + Ind;
  for (const auto &[Key, Part] : Parts)
    Head += "__shared__ " + Part.first + " " + Part.second + "[" +
            std::to_string(Slices) + "][32];\n" + Ind;
  Head += "const bool " + Active + " = " + (Cond.empty() ? "true" : Cond) +
          ";\n" + Ind;
  std::string Region =
      Head + editedSlice(Ctx, File, FirstR->Begin, LastR->End, Local);
  Edits.emplace_back(SM, SM.getComposedLoc(File, FirstR->Begin),
                     LastR->End - FirstR->Begin, Region);
  for (const TextEdit &E : Local)
    if (E.Offset + E.Length <= FirstR->Begin)
      Edits.emplace_back(SM, SM.getComposedLoc(File, E.Offset), E.Length,
                         E.Text);
  return true;
}

} // namespace

llvm::StringRef SplitSerialLoop::name() const { return "split-serial-loop"; }

llvm::StringRef SplitSerialLoop::description() const {
  return "give each output of a thread-per-output reduction 32 threads that "
         "split its loop and combine in shared memory, in blocks of 1024";
}

bool SplitSerialLoop::precondition(const KernelRecord &K) const {
  auto Zero = [&](const char *F) { return K.Features.get(F).value_or(0) == 0; };
  return hasIndependentThreads(K) && K.Features.get("loops").value_or(0) > 0 &&
         Zero("atomics_global") && Zero("atomics_shared");
}

static const MetricCondition Conditions[] = {
    {"launch__waves_per_multiprocessor", "<", 1},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "<", 30}};

std::vector<std::string> SplitSerialLoop::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
SplitSerialLoop::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error SplitSerialLoop::apply(const KernelModel &M, FileEdits &Out) const {
  Splitter S(M);
  if (!S.run())
    return Error::success();
  return addEdits(S.Edits, Out);
}

std::string SplitSerialLoop::explain(const KernelModel &M) const {
  Splitter S(M);
  return S.run() ? "" : S.Why;
}
