//===- UnitActionTest.cpp - Tests of the engines' frontend action ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/UnitAction.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

struct Seen {
  unsigned Calls = 0;
  std::string MainFile;
  std::vector<unsigned> ErrorLines;
  bool HasErrors = false;
  std::vector<std::string> Functions;
};

/// Parses \p Code as \p Name and records what the callback saw.
Seen parse(const std::string &Code, const std::string &Name) {
  Seen S;
  auto Factory = newUnitActionFactory([&](const ParsedUnit &U) {
    ++S.Calls;
    S.MainFile = U.MainFile;
    S.HasErrors = U.hasErrors();
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    for (clang::SourceLocation L : U.Errors)
      S.ErrorLines.push_back(SM.getSpellingLineNumber(L));
    for (const clang::Decl *D : U.Ctx.getTranslationUnitDecl()->decls())
      if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
        S.Functions.push_back(FD->getNameAsString());
  });
  clang::tooling::runToolOnCodeWithArgs(Factory->create(), Code,
                                        {"-std=c++17", "-w"}, Name);
  return S;
}

TEST(UnitActionTest, HandsTheEngineTheParsedUnit) {
  Seen S = parse("int f() { return 1; }\nint g();\n", "/work/unit.cpp");
  EXPECT_EQ(S.Calls, 1u);
  EXPECT_EQ(S.MainFile, "/work/unit.cpp");
  EXPECT_FALSE(S.HasErrors);
  EXPECT_TRUE(S.ErrorLines.empty());
  EXPECT_EQ(S.Functions, (std::vector<std::string>{"f", "g"}));
}

TEST(UnitActionTest, RecordsWhereErrorsWere) {
  // Errors on lines 2 and 4, a macro's expansion counted where it is
  // written; the unit still reaches the engine, marked.
  Seen S = parse("int ok();\nint a() { return missing; }\n#define BAD "
                 "undeclared\nint b() { return BAD; }\n",
                 "/work/sub/../bad.cpp");
  EXPECT_EQ(S.Calls, 1u);
  EXPECT_EQ(S.MainFile, "/work/bad.cpp");
  EXPECT_TRUE(S.HasErrors);
  EXPECT_EQ(S.ErrorLines, (std::vector<unsigned>{2, 4}));
}

TEST(UnitActionTest, OneFactoryServesEveryUnit) {
  std::vector<std::string> Mains;
  auto Factory = newUnitActionFactory(
      [&](const ParsedUnit &U) { Mains.push_back(U.MainFile); });
  for (const char *Name : {"/a/one.cpp", "/a/two.cpp"})
    clang::tooling::runToolOnCodeWithArgs(Factory->create(), "int x;",
                                          {"-std=c++17"}, Name);
  EXPECT_EQ(Mains, (std::vector<std::string>{"/a/one.cpp", "/a/two.cpp"}));
}

} // namespace
