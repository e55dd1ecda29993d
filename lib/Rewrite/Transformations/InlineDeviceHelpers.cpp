//===- InlineDeviceHelpers.cpp - Inlining opaque helpers ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "InlineDeviceHelpers.h"
#include "TextEdits.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <map>
#include <set>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// The calls of \p Kernel's body to helpers whose bodies the model does
/// not read, in source order.
std::vector<const CallExpr *> opaqueCalls(const ASTContext &Ctx,
                                          const FunctionDecl &Kernel) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(const ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitCallExpr(CallExpr *CE) {
      if (!isa<CUDAKernelCallExpr, CXXOperatorCallExpr>(CE) &&
          CE->getDirectCallee() && isOpaqueFunction(Ctx, CE->getDirectCallee()))
        Calls.push_back(CE);
      return true;
    }
    const ASTContext &Ctx;
    std::vector<const CallExpr *> Calls;
  };
  Finder F(Ctx);
  F.TraverseStmt(Kernel.getBody());
  return F.Calls;
}

/// The single parent of \p N, as a statement or a declaration.
DynTypedNode parentOf(ASTContext &Ctx, const DynTypedNode &N) {
  DynTypedNodeList Ps = Ctx.getParents(N);
  return Ps.size() == 1 ? Ps[0] : DynTypedNode();
}

/// How \p E is used: the expression past the fields it selects with `.`
/// (`p.x.y` of `p`), and that expression's parent.
std::pair<const Expr *, DynTypedNode> useOf(ASTContext &Ctx, const Expr *E) {
  DynTypedNode P = parentOf(Ctx, DynTypedNode::create(*E));
  for (const auto *ME = P.get<MemberExpr>(); ME && !ME->isArrow();
       ME = P.get<MemberExpr>()) {
    E = ME;
    P = parentOf(Ctx, P);
  }
  return {E, P};
}

/// Whether \p C copies a value trivially.
bool trivialCopy(const CXXConstructExpr *C) {
  return C && C->getNumArgs() == 1 && C->getConstructor()->isTrivial() &&
         C->getConstructor()->isCopyOrMoveConstructor();
}

/// Whether the use of \p E (useOf()) only reads its value: loads it or
/// copies it trivially.
bool onlyRead(ASTContext &Ctx, const Expr *E) {
  auto [Use, P] = useOf(Ctx, E);
  const auto *Cast = P.get<ImplicitCastExpr>();
  if (Cast && Cast->getCastKind() == CK_LValueToRValue)
    return true;
  if (Cast && Cast->getCastKind() == CK_NoOp)
    P = parentOf(Ctx, P);
  return trivialCopy(P.get<CXXConstructExpr>());
}

/// What the body of a helper holds, read once.
struct HelperBody {
  /// Its parameters and locals.
  llvm::SmallPtrSet<const VarDecl *, 16> Own;
  /// References to them, to rename.
  std::vector<const DeclRefExpr *> OwnRefs;
  /// The declarations of its locals, to rename.
  std::vector<const VarDecl *> Locals;
  /// The declarations it names from outside.
  std::vector<const DeclRefExpr *> Outside;
  /// Why it cannot be inlined, or empty.
  std::string Why;
  /// Whether it may write memory other than its own locals.
  bool Writes = false;
  /// The `return` that ends it, or null.
  const ReturnStmt *Return = nullptr;
  /// Parameters it writes, takes the address of or binds to a reference.
  llvm::SmallPtrSet<const VarDecl *, 4> Changed;
};

/// Whether \p E (under parentheses) names one of \p H's own variables
/// whose type is not a reference: a write of it stays in the helper.
bool ownValue(const HelperBody &H, const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && H.Own.count(V) && !V->getType()->isReferenceType();
}

HelperBody readHelper(const KernelModel &M, const FunctionDecl &Def) {
  HelperBody H;
  for (const ParmVarDecl *P : Def.parameters())
    H.Own.insert(P);
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def.getBody());
  if (!Body) {
    H.Why = "its body is not a block";
    return H;
  }
  class Reader : public RecursiveASTVisitor<Reader> {
  public:
    Reader(const KernelModel &M, const FunctionDecl &Def, HelperBody &H)
        : M(M), Def(Def), H(H) {}
    bool shouldVisitImplicitCode() const { return false; }
    bool VisitVarDecl(VarDecl *V) {
      if (isa<ParmVarDecl>(V))
        return true;
      if (V->isStaticLocal() || V->hasAttr<CUDASharedAttr>() ||
          !V->isLocalVarDecl())
        return fail("it declares the static or __shared__ variable `" +
                    V->getNameAsString() + "`");
      H.Own.insert(V);
      H.Locals.push_back(V);
      return true;
    }
    bool VisitTagDecl(TagDecl *) { return fail("it declares a type"); }
    bool VisitTypedefNameDecl(TypedefNameDecl *) {
      return fail("it declares a type");
    }
    bool VisitLabelStmt(LabelStmt *) { return fail("it holds a label"); }
    bool VisitLambdaExpr(LambdaExpr *) { return fail("it holds a lambda"); }
    bool VisitCXXTryStmt(CXXTryStmt *) { return fail("it holds a `try`"); }
    bool VisitReturnStmt(ReturnStmt *R) {
      if (R != H.Return)
        return fail("it returns before its end");
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (V && V->getDeclContext() == &Def) {
        H.OwnRefs.push_back(E);
        if (isa<ParmVarDecl>(V) && !onlyRead(M.context(), E))
          H.Changed.insert(V);
        return true;
      }
      if (E->getDecl() == &Def || E->getDecl() == Def.getCanonicalDecl())
        return fail("it calls itself");
      H.Outside.push_back(E);
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp() && !ownValue(H, B->getLHS()))
        H.Writes = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp() && !ownValue(H, U->getSubExpr()))
        H.Writes = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      if (CE->getDirectCallee() == &Def)
        return fail("it calls itself");
      if (!M.isPure(CE))
        H.Writes = true;
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      if (!M.isPure(CE))
        H.Writes = true;
      return true;
    }
    bool VisitAsmStmt(AsmStmt *) {
      H.Writes = true;
      return true;
    }
    bool fail(std::string Why) {
      if (H.Why.empty())
        H.Why = std::move(Why);
      return false;
    }
    const KernelModel &M;
    const FunctionDecl &Def;
    HelperBody &H;
  };
  if (!Body->body_empty())
    H.Return = dyn_cast<ReturnStmt>(Body->body_back());
  Reader R(M, Def, H);
  R.TraverseStmt(const_cast<CompoundStmt *>(Body));
  return H;
}

/// Why \p Def cannot be inlined into \p Kernel, or empty.
std::string helperProblem(const KernelModel &M, const FunctionDecl &Def,
                          const HelperBody &H,
                          const std::set<std::string> &KernelNames,
                          bool KernelTypes) {
  const ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Def.hasAttr<CUDADeviceAttr>() || Def.hasAttr<CUDAGlobalAttr>())
    return "it is not a __device__ function";
  if (isa<CXXMethodDecl>(Def))
    return "it is a member function";
  if (Def.getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return "it is a template";
  if (Def.isVariadic())
    return "it is variadic";
  if (Def.getLocation().isMacroID() || Def.getBody()->getBeginLoc().isMacroID())
    return "it is defined through a macro";
  if (Def.getDeclContext()->getRedeclContext() !=
      M.kernel().getDeclContext()->getRedeclContext())
    return "it is declared in another namespace than the kernel";
  if (!H.Why.empty())
    return H.Why;
  if (!H.Return && !Def.getReturnType()->isVoidType())
    return "it does not end in a `return`";
  for (const DeclRefExpr *E : H.OwnRefs)
    if (!E->getLocation().isFileID())
      return "it names `" + E->getDecl()->getNameAsString() +
             "` through a macro";
  for (const VarDecl *V : H.Locals)
    if (!V->getLocation().isFileID() || V->getName().empty())
      return "it declares `" + V->getNameAsString() + "` through a macro";
  if (KernelTypes)
    return "the kernel declares a type of its own";
  for (const DeclRefExpr *E : H.Outside) {
    const NamedDecl *D = E->getDecl();
    std::string Name = D->getNameAsString();
    if (KernelNames.count(Name))
      return "the kernel declares `" + Name + "`, which the helper names";
    // A function declared after the helper could win overload resolution
    // at the kernel.
    if (isa<FunctionDecl>(D))
      for (const NamedDecl *O :
           D->getDeclContext()->getRedeclContext()->lookup(D->getDeclName()))
        if (!SM.isBeforeInTranslationUnit(O->getLocation(), Def.getBeginLoc()))
          return "`" + Name + "` is declared again after the helper";
  }
  return "";
}

/// Every name declared in \p Kernel; \p Types is set when it declares a
/// type.
std::set<std::string> kernelNames(const FunctionDecl &Kernel, bool &Types) {
  class Names : public RecursiveASTVisitor<Names> {
  public:
    bool VisitNamedDecl(NamedDecl *D) {
      if (isa<TagDecl, TypedefNameDecl>(D))
        Types = true;
      if (D->getIdentifier())
        Found.insert(D->getName().str());
      return true;
    }
    std::set<std::string> Found;
    bool Types = false;
  };
  Names N;
  for (const ParmVarDecl *P : Kernel.parameters())
    N.Found.insert(P->getName().str());
  N.TraverseStmt(Kernel.getBody());
  Types = N.Types;
  return N.Found;
}

/// Whether the kernel's variable \p V changes only where the kernel
/// names it: its address is never taken nor bound to a reference.
bool onlyNamedWrites(ASTContext &Ctx, const FunctionDecl &Kernel,
                     const VarDecl *V) {
  class Uses : public RecursiveASTVisitor<Uses> {
  public:
    Uses(ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() != V)
        return true;
      auto [Use, P] = useOf(Ctx, E);
      const auto *B = P.get<BinaryOperator>();
      const auto *U = P.get<UnaryOperator>();
      bool Fine = onlyRead(Ctx, E) ||
                  (B && B->isAssignmentOp() && B->getLHS() == Use) ||
                  (U && U->isIncrementDecrementOp());
      Escapes |= !Fine;
      return !Escapes;
    }
    ASTContext &Ctx;
    const VarDecl *V;
    bool Escapes = false;
  };
  Uses U(Ctx, V);
  U.TraverseStmt(Kernel.getBody());
  return !U.Escapes;
}

/// \p Text's lines without their common indentation and the blank lines
/// at either end, each after \p Indent but the first.
std::string reindented(StringRef Text, StringRef Indent) {
  llvm::SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n');
  while (!Lines.empty() && Lines.front().trim().empty())
    Lines.erase(Lines.begin());
  while (!Lines.empty() && Lines.back().trim().empty())
    Lines.pop_back();
  size_t Common = StringRef::npos;
  for (StringRef L : Lines)
    if (!L.trim().empty())
      Common = std::min(Common, L.find_first_not_of(" \t"));
  std::string Out;
  for (StringRef L : Lines) {
    L = L.rtrim();
    Out += (Out.empty() ? "" : "\n" + Indent.str()) +
           (L.size() > Common ? L.substr(Common) : L.ltrim()).str();
  }
  return Out;
}

/// The leading white space of the line of \p Offset in \p Buffer.
StringRef lineIndent(StringRef Buffer, unsigned Offset) {
  size_t Start = Buffer.rfind('\n', Offset);
  Start = Start == StringRef::npos ? 0 : Start + 1;
  StringRef Line = Buffer.substr(Start);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; });
}

/// One call to inline: where its statement is, and how its value is used.
struct CallSite {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Def = nullptr;
  /// The statement the call belongs to.
  const Stmt *Statement = nullptr;
  /// Whether the statement is a control statement's body, not a block's.
  bool Unbraced = false;
  /// Whether the call is the whole statement, its value unused.
  bool Whole = false;
  /// Whether the call is the whole value of a declaration or assignment.
  bool WholeValue = false;
};

/// Where \p CE lies, or the reason it cannot be inlined there.
std::string locateCall(ASTContext &Ctx,
                       const llvm::SmallPtrSet<const FunctionDecl *, 8> &Opaque,
                       CallSite &S) {
  DynTypedNode Cur = DynTypedNode::create(*S.Call);
  bool Value = true;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNode P = parentOf(Ctx, Cur);
    const Stmt *CurS = Cur.get<Stmt>();
    if (const auto *V = P.get<VarDecl>()) {
      DynTypedNode D = parentOf(Ctx, P);
      const auto *DS = D.get<DeclStmt>();
      if (!DS || !DS->isSingleDecl() || V->getInit() != CurS)
        return "its value initializes a variable not declared alone";
      S.Statement = DS;
      S.WholeValue = Value;
      Cur = D;
      break;
    }
    const auto *PS = P.get<Stmt>();
    if (!PS)
      return "it is not inside a statement of the kernel";
    if (const auto *E = dyn_cast<Expr>(PS)) {
      if (const auto *C = dyn_cast<AbstractConditionalOperator>(E);
          C && C->getCond() != CurS)
        return "it is evaluated under a condition (`?:`)";
      if (const auto *B = dyn_cast<BinaryOperator>(E)) {
        if (B->isLogicalOp() && B->getRHS() == CurS)
          return "it is evaluated under a condition (`&&`, `||`)";
        if (B->isCommaOp())
          return "it is an operand of `,`";
        Value &= B->isAssignmentOp() && B->getRHS() == CurS;
      } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
        if (Opaque.count(Call->getDirectCallee()))
          return "it is an argument of another helper";
        Value = false;
      } else if (!isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups>(E)) {
        Value = false;
      }
      Cur = P;
      continue;
    }
    // The expression is a statement.
    S.Statement = CurS;
    S.Whole = cast<Expr>(CurS)->IgnoreImplicit()->IgnoreParens() == S.Call;
    S.WholeValue = Value;
    break;
  }
  if (!S.Statement)
    return "it is nested too deep";
  DynTypedNode P = parentOf(Ctx, Cur);
  const Stmt *Parent = P.get<Stmt>();
  if (isa_and_nonnull<CompoundStmt>(Parent))
    return "";
  auto Body = [&]() -> const Stmt * {
    if (const auto *I = dyn_cast_or_null<IfStmt>(Parent))
      return I->getThen() == S.Statement ? I->getThen() : I->getElse();
    if (const auto *F = dyn_cast_or_null<ForStmt>(Parent))
      return F->getBody();
    if (const auto *W = dyn_cast_or_null<WhileStmt>(Parent))
      return W->getBody();
    if (const auto *D = dyn_cast_or_null<DoStmt>(Parent))
      return D->getBody();
    return nullptr;
  }();
  if (Body != S.Statement || isa<DeclStmt>(S.Statement))
    return "its statement is not one of a block or of a loop's or `if`'s body";
  S.Unbraced = true;
  return "";
}

/// The text of \p E as written, or empty inside a macro.
std::string textOf(const ASTContext &Ctx, const Stmt *E) {
  std::optional<FileRange> R = rangeOf(Ctx, E);
  if (!R)
    return "";
  return Ctx.getSourceManager()
      .getBufferData(R->File)
      .slice(R->Begin, R->End)
      .str();
}

/// A prefix that starts no word of \p Taken, taken then.
std::string freshPrefix(StringRef Helper, std::set<std::string> &Taken,
                        std::set<std::string> &Used) {
  for (unsigned N = 1;; ++N) {
    std::string Prefix = Helper.str() + (N == 1 ? "" : std::to_string(N)) + "_";
    if (Used.count(Prefix))
      continue;
    bool Clash = llvm::any_of(Taken, [&](const std::string &W) {
      return StringRef(W).starts_with(Prefix);
    });
    if (!Clash) {
      Used.insert(Prefix);
      return Prefix;
    }
  }
}

/// The inlined text of the call of \p S (the statements to put before its
/// statement, and what takes the call's place), or the reason it cannot be
/// written.
struct Inlined {
  std::string Before, Value, Why;
};

Inlined inlineCall(const KernelModel &M, const CallSite &S, const HelperBody &H,
                   const std::string &Prefix, StringRef Indent) {
  ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl &Def = *S.Def;
  const CallExpr &CE = *S.Call;
  Inlined Out;
  PrintingPolicy PP = Ctx.getPrintingPolicy();
  auto Declare = [&](QualType T, const std::string &Name,
                     std::string &Into) -> bool {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    T.print(OS, PP, Name);
    if (StringRef(Text).contains("(anonymous") ||
        StringRef(Text).contains("(lambda") ||
        StringRef(Text).contains("(unnamed"))
      return false;
    Into = Text;
    return true;
  };
  if (CE.getNumArgs() != Def.getNumParams())
    return {"", "", "its call's arguments are not its parameters"};
  // Each parameter: the argument itself, or a local it initializes.
  std::map<const VarDecl *, std::string> Name;
  std::vector<std::string> Lines;
  for (unsigned I = 0; I < Def.getNumParams(); ++I) {
    const ParmVarDecl *P = Def.getParamDecl(I);
    const Expr *Arg = CE.getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      return {"", "", "its call leaves an argument to its default"};
    std::string ArgText = textOf(Ctx, Arg);
    if (ArgText.empty())
      return {"", "", "its call's argument is written through a macro"};
    const Expr *Bare = Arg->IgnoreParenImpCasts();
    // A struct passed by value is copied.
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(Bare); trivialCopy(Copy))
      Bare = Copy->getArg(0)->IgnoreParenImpCasts();
    bool SameType = Ctx.hasSameUnqualifiedType(Bare->getType(), P->getType());
    bool Plain = false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(Bare)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      Plain = V && V->isLocalVarDeclOrParm() &&
              !V->getType()->isReferenceType() &&
              onlyNamedWrites(Ctx, M.kernel(), V);
    } else {
      Plain = isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(Bare);
    }
    if (Plain && SameType && !P->getType()->isReferenceType() &&
        !H.Changed.count(P)) {
      Name[P] = textOf(Ctx, Bare);
      continue;
    }
    // An unnamed parameter still evaluates its argument.
    std::string Local =
        Prefix + (P->getName().empty() ? "arg" + std::to_string(I + 1)
                                       : P->getName().str());
    // `__restrict__` promised no aliasing within the helper's body; a local
    // of the kernel would carry the promise past it, to the end of the
    // block.
    QualType Type = P->getType();
    Type.removeLocalRestrict();
    std::string Decl;
    if (!Declare(Type, Local, Decl))
      return {"", "", "its parameter's type cannot be written at the kernel"};
    Lines.push_back(Decl + " = " + ArgText + ";");
    Name[P] = Local;
  }
  for (const VarDecl *L : H.Locals)
    Name[L] = Prefix + L->getName().str();
  // The renamed body, without its braces and its `return`.
  std::vector<TextEdit> Renames;
  for (const DeclRefExpr *E : H.OwnRefs)
    Renames.push_back(
        {SM.getFileOffset(E->getLocation()),
         static_cast<unsigned>(cast<VarDecl>(E->getDecl())->getName().size()),
         Name[cast<VarDecl>(E->getDecl())]});
  for (const VarDecl *L : H.Locals)
    Renames.push_back({SM.getFileOffset(L->getLocation()),
                       static_cast<unsigned>(L->getName().size()), Name[L]});
  const auto *Body = cast<CompoundStmt>(Def.getBody());
  FileID File = SM.getFileID(Body->getLBracLoc());
  unsigned Begin = SM.getFileOffset(Body->getLBracLoc()) + 1;
  unsigned End = SM.getFileOffset(Body->getRBracLoc());
  if (H.Return) {
    std::optional<FileRange> R = rangeOf(Ctx, H.Return);
    if (!R || R->File != File)
      return {"", "", "its `return` is written through a macro"};
    End = R->Begin;
  }
  std::string Statements = editedSlice(Ctx, File, Begin, End, Renames);
  for (const std::string &L : Lines)
    Out.Before += L + "\n" + Indent.str();
  std::string Body2 = reindented(Statements, Indent);
  if (!Body2.empty())
    Out.Before += Body2 + "\n" + Indent.str();
  // The value returned, converted as `return` converts it.
  const Expr *Value = H.Return ? H.Return->getRetValue() : nullptr;
  if (!Value)
    return Out;
  std::optional<FileRange> VR = rangeOf(Ctx, Value);
  if (!VR || VR->File != File)
    return {"", "", "its returned value is written through a macro"};
  std::string ValueText = editedSlice(Ctx, File, VR->Begin, VR->End, Renames);
  QualType R = Def.getReturnType();
  const Expr *Written = Value->IgnoreImpCasts();
  bool Word = llvm::all_of(ValueText, [](char C) {
    return isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
  });
  if (Ctx.hasSameUnqualifiedType(Written->getType(), R)) {
    Out.Value = Word ? ValueText : "(" + ValueText + ")";
  } else if (R->isScalarType()) {
    std::string Type;
    if (!Declare(R, "", Type))
      return {"", "", "its return type cannot be written at the kernel"};
    Out.Value = "static_cast<" + Type + ">(" + ValueText + ")";
  } else {
    return {"", "", "it returns a value of another class than its own type"};
  }
  return Out;
}

/// The edits that inline every call of \p M's kernel to a helper the model
/// does not read; none with the reason in \p Why. Empty both when the
/// kernel calls no such helper.
FileEdits plan(const KernelModel &M, std::string &Why) {
  ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl &Kernel = M.kernel();
  std::vector<const CallExpr *> Calls = opaqueCalls(Ctx, Kernel);
  if (Calls.empty())
    return {};
  llvm::SmallPtrSet<const FunctionDecl *, 8> Opaque;
  for (const CallExpr *CE : Calls)
    Opaque.insert(CE->getDirectCallee());
  bool KernelTypes = false;
  std::set<std::string> KernelNames = kernelNames(Kernel, KernelTypes);
  // Words no fresh name may start: the kernel's file and each helper's.
  std::set<std::string> Taken;
  auto TakeFile = [&](SourceLocation L) {
    std::set<std::string> W =
        wordsOf(SM.getBufferData(SM.getFileID(SM.getFileLoc(L))));
    Taken.insert(W.begin(), W.end());
  };
  TakeFile(Kernel.getLocation());
  std::map<const FunctionDecl *, HelperBody> Bodies;
  std::vector<CallSite> Sites;
  for (const CallExpr *CE : Calls) {
    const FunctionDecl *Def = nullptr;
    CE->getDirectCallee()->hasBody(Def);
    std::string Name = "`" + CE->getDirectCallee()->getNameAsString() + "`";
    auto Refuse = [&](const std::string &Reason) {
      Why = "it calls " + Name + " at " + M.where(CE) +
            ", which is not inlined: " + Reason;
      return FileEdits();
    };
    if (!Def)
      return Refuse("its body is not in this translation unit");
    auto [It, New] = Bodies.try_emplace(Def);
    if (New) {
      It->second = readHelper(M, *Def);
      TakeFile(Def->getLocation());
    }
    if (std::string P =
            helperProblem(M, *Def, It->second, KernelNames, KernelTypes);
        !P.empty())
      return Refuse(P);
    CallSite S;
    S.Call = CE;
    S.Def = Def;
    if (std::string P = locateCall(Ctx, Opaque, S); !P.empty())
      return Refuse(P);
    if (It->second.Writes && !S.Whole && !S.WholeValue)
      return Refuse("it writes memory, and its value is part of a larger "
                    "expression");
    if (Def->getReturnType()->isVoidType() && !S.Whole)
      return Refuse("its value is used");
    Sites.push_back(S);
  }
  // The statements of each call go before its statement, in order.
  std::vector<TextEdit> Edits;
  std::map<const Stmt *, std::string> Before;
  std::vector<const Stmt *> Order;
  std::set<std::string> Used;
  FileID KernelFile;
  for (const CallSite &S : Sites) {
    std::optional<FileRange> SR = statementRange(Ctx, S.Statement);
    std::optional<FileRange> CR = rangeOf(Ctx, S.Call);
    if (!SR || !CR || SR->File != CR->File) {
      Why = "its call at " + M.where(S.Call) + " is written through a macro";
      return {};
    }
    KernelFile = SR->File;
    StringRef Indent = lineIndent(SM.getBufferData(SR->File), SR->Begin);
    std::string Prefix = freshPrefix(S.Def->getName(), Taken, Used);
    Inlined I = inlineCall(M, S, Bodies[S.Def], Prefix, Indent);
    if (!I.Why.empty()) {
      Why = "it calls `" + S.Def->getNameAsString() + "` at " +
            M.where(S.Call) + ", which is not inlined: " + I.Why;
      return {};
    }
    if (!Before.count(S.Statement))
      Order.push_back(S.Statement);
    Before[S.Statement] += I.Before;
    if (S.Whole) {
      // The statement was the call: its value, if any, is dropped.
      std::string Rest =
          I.Value.empty() ? "" : "static_cast<void>(" + I.Value + ");";
      Edits.push_back({SR->Begin, SR->End - SR->Begin, Rest});
    } else {
      Edits.push_back({CR->Begin, CR->End - CR->Begin, I.Value});
    }
  }
  FileEdits Out;
  StringRef Path = SM.getFileEntryRefForID(KernelFile)->getName();
  for (const Stmt *St : Order) {
    std::optional<FileRange> SR = statementRange(Ctx, St);
    StringRef Indent = lineIndent(SM.getBufferData(SR->File), SR->Begin);
    bool Unbraced = llvm::any_of(Sites, [&](const CallSite &S) {
      return S.Statement == St && S.Unbraced;
    });
    std::string Text = Before[St];
    // A statement that was only the call leaves no line of its own.
    bool Gone = llvm::any_of(Sites, [&](const CallSite &S) {
      return S.Statement == St && S.Whole &&
             (S.Def->getReturnType()->isVoidType());
    });
    if (Gone)
      Text = StringRef(Text).rtrim(" \t\n").str();
    if (Unbraced) {
      Text = "{\n" + Indent.str() + Text;
      Edits.push_back({SR->End, 0, "\n" + Indent.str() + "}"});
    }
    Edits.push_back({SR->Begin, 0, Text});
  }
  // One edit per range: insertions before a statement the call replaces
  // come first.
  std::stable_sort(Edits.begin(), Edits.end(),
                   [](const TextEdit &A, const TextEdit &B) {
                     return A.Offset < B.Offset ||
                            (A.Offset == B.Offset && A.Length < B.Length);
                   });
  for (size_t I = 0; I < Edits.size(); ++I) {
    // Merge edits at one offset into one replacement.
    unsigned Offset = Edits[I].Offset, Length = Edits[I].Length;
    std::string Text = Edits[I].Text;
    while (I + 1 < Edits.size() && Edits[I + 1].Offset == Offset &&
           Length == 0) {
      ++I;
      Length = Edits[I].Length;
      Text += Edits[I].Text;
    }
    if (Error E =
            addEdit(tooling::Replacement(Path, Offset, Length, Text), Out)) {
      Why = "its calls' edits overlap: " + llvm::toString(std::move(E));
      return {};
    }
  }
  return Out;
}

} // namespace

StringRef InlineDeviceHelpers::name() const { return "inline-device-helpers"; }

StringRef InlineDeviceHelpers::description() const {
  return "write the body of each __device__ helper the kernel model does not "
         "read into the kernel at its calls, for the other rewrites";
}

Error InlineDeviceHelpers::apply(const KernelModel &M, FileEdits &Out) const {
  std::string Why;
  FileEdits E = plan(M, Why);
  for (const auto &[File, Rs] : E)
    for (const tooling::Replacement &R : Rs)
      if (Error Err = addEdit(R, Out))
        return Err;
  return Error::success();
}

std::string InlineDeviceHelpers::explain(const KernelModel &M) const {
  std::string Why;
  FileEdits E = plan(M, Why);
  return Why;
}
