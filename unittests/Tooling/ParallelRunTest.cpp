//===- ParallelRunTest.cpp - Tests of running Clang over many files -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/ParallelRun.h"
#include "autoprof/Tooling/UnitAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

/// Records the names of the functions a translation unit defines.
struct NamesFactory {
  NamesFactory() = default;
  NamesFactory(const NamesFactory &) = delete;
  NamesFactory &operator=(const NamesFactory &) = delete;

  clang::tooling::FrontendActionFactory &operator*() { return *Factory; }

  std::vector<std::string> Names;
  std::unique_ptr<clang::tooling::FrontendActionFactory> Factory =
      newUnitActionFactory([this](const ParsedUnit &U) {
        for (const clang::Decl *D : U.Ctx.getTranslationUnitDecl()->decls())
          if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
            Names.push_back(FD->getNameAsString());
      });
};

class ParallelRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("parallel-run", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string write(const std::string &Name, const std::string &Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }

  llvm::SmallString<256> Dir;
};

TEST_F(ParallelRunTest, ResultsComeInInputOrderWithEachFilesDiagnostics) {
  std::string Long;
  for (int I = 0; I < 20000; ++I)
    Long += "+1";
  std::vector<std::string> Files;
  for (int I = 0; I < 8; ++I)
    Files.push_back(write(
        "f" + std::to_string(I) + ".cpp",
        // File 3 does not compile; file 5 is larger, to finish late.
        I == 3 ? "int f3() { return missing; }\n"
               : "int f" + std::to_string(I) + "() { return " +
                     std::string("1") + (I == 5 ? Long : "") + " > 0; }\n"));
  clang::tooling::FixedCompilationDatabase DB(Dir, {"-std=c++17"});
  std::vector<NamesFactory> Factories(Files.size());
  FileRunOptions Options;
  Options.Jobs = 4;
  Options.BufferDiagnostics = true;
  std::vector<size_t> Order;
  std::vector<FileRun> Runs(Files.size());
  runFiles(
      DB, Files, Options,
      [&](size_t I) -> clang::tooling::FrontendActionFactory & {
        return *Factories[I];
      },
      [&](size_t I, FileRun &&Run) {
        Order.push_back(I);
        Runs[I] = std::move(Run);
      });
  ASSERT_EQ(Order.size(), Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    EXPECT_EQ(Order[I], I);
    EXPECT_FALSE(Runs[I].Crashed);
    ASSERT_EQ(Factories[I].Names.size(), 1u) << I;
    EXPECT_EQ(Factories[I].Names[0], "f" + std::to_string(I));
    if (I == 3) {
      EXPECT_NE(Runs[I].Status, 0);
      EXPECT_NE(Runs[I].Diagnostics.find(
                    "f3.cpp:1:19: error: use of undeclared identifier "
                    "'missing'"),
                std::string::npos)
          << Runs[I].Diagnostics;
      EXPECT_NE(Runs[I].Diagnostics.find("Error while processing " + Files[I]),
                std::string::npos);
    } else {
      EXPECT_EQ(Runs[I].Status, 0) << I;
      EXPECT_EQ(Runs[I].Diagnostics, "") << I;
    }
  }
}

TEST_F(ParallelRunTest, OneJobRunsInOrderOnTheCallingSide) {
  std::vector<std::string> Files = {write("a.cpp", "int a();\n"),
                                    write("b.cpp", "int b();\n")};
  clang::tooling::FixedCompilationDatabase DB(Dir, {"-std=c++17"});
  NamesFactory Shared;
  std::vector<size_t> Order;
  runFiles(
      DB, Files, FileRunOptions(),
      [&](size_t) -> clang::tooling::FrontendActionFactory & {
        return *Shared;
      },
      [&](size_t I, FileRun &&Run) {
        EXPECT_EQ(Run.Status, 0);
        Order.push_back(I);
      });
  EXPECT_EQ(Order, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(Shared.Names, (std::vector<std::string>{"a", "b"}));
}

} // namespace
