//===- SourceDriverTest.cpp - Tests of the shared source driver -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Tooling/UnitAction.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>

using namespace autoprof;

namespace {

class SourceDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("source-driver", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(const std::string &Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  std::string write(const std::string &Name, const std::string &Text) {
    std::string P = path(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return P;
  }

  /// Runs the driver over \p Inputs (parsed as CUDA, as every source is)
  /// with an engine that records the functions each input's main file
  /// declares.
  int run(const SourceSettings &S, const std::vector<std::string> &Inputs) {
    Names.assign(Inputs.size(), {});
    std::vector<std::unique_ptr<clang::tooling::FrontendActionFactory>> Fs;
    for (size_t I = 0; I < Inputs.size(); ++I)
      Fs.push_back(newUnitActionFactory([this, I](const ParsedUnit &U) {
        for (const clang::Decl *D : U.Ctx.getTranslationUnitDecl()->decls())
          if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
              FD && U.Ctx.getSourceManager().isInMainFile(FD->getLocation()))
            Names[I].push_back(FD->getNameAsString());
      }));
    SourceMessages M{[&](const std::string &E) { Errors.push_back(E); },
                     [&](const std::string &W) { Warnings.push_back(W); }};
    std::string LogText;
    llvm::raw_string_ostream Log(LogText);
    int Status = runSources(
        S, Inputs,
        [&](size_t I) -> clang::tooling::FrontendActionFactory & {
          return *Fs[I];
        },
        [&](size_t I) { Done.push_back(I); }, M, &Summary, Log);
    Diagnostics = LogText;
    return Status;
  }

  llvm::SmallString<256> Dir;
  std::vector<std::vector<std::string>> Names;
  std::vector<std::string> Errors, Warnings;
  std::vector<size_t> Done;
  SourceRunSummary Summary;
  std::string Diagnostics;
};

TEST_F(SourceDriverTest, InputsThatCannotRunAreReportedInTheirPlace) {
  std::string Good = write("good.cpp", "int good();\n");
  std::string Binary = write("blob.cpp", std::string("int x;\0\1", 8));
  std::string Missing = path("missing.cpp");
  SourceSettings S;
  S.FixedArgs = std::vector<std::string>{"-std=c++17"};
  S.Jobs = 2;
  S.Parallel = true;
  EXPECT_EQ(run(S, {Missing, Good, std::string(Dir), Binary}), 1);
  EXPECT_EQ(
      Errors,
      (std::vector<std::string>{
          "no such file: '" + Missing + "'",
          "'" + std::string(Dir) + "' is a directory, not a source file",
          "'" + Binary +
              "' is not a source file: it holds a NUL byte at offset 6"}));
  EXPECT_EQ(Done, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(Names[1], (std::vector<std::string>{"good"}));
  EXPECT_TRUE(Names[0].empty());
  EXPECT_EQ(Summary.Inputs, 4u);
  EXPECT_EQ(Summary.Ran, 1u);
  EXPECT_EQ(Summary.Failed, 0u);
}

TEST_F(SourceDriverTest, CompileErrorsFailTheirFileOnly) {
  std::string Bad = write("bad.cpp", "int bad() { return missing; }\n");
  std::string Ok = write("ok.cpp", "int ok();\n");
  SourceSettings S;
  S.FixedArgs = std::vector<std::string>{"-std=c++17"};
  S.Parallel = true;
  EXPECT_EQ(run(S, {Bad, Ok}), 1);
  EXPECT_TRUE(Errors.empty());
  EXPECT_EQ(Summary.Failed, 1u);
  EXPECT_EQ(Names[1], (std::vector<std::string>{"ok"}));
  EXPECT_NE(Diagnostics.find("use of undeclared identifier 'missing'"),
            std::string::npos)
      << Diagnostics;
}

TEST_F(SourceDriverTest, TextsReplaceFilesOnDisk) {
  std::string File = write("a.cpp", "int on_disk();\n");
  SourceSettings S;
  S.FixedArgs = std::vector<std::string>{"-std=c++17"};
  S.Files[File] = "int in_memory();\n";
  EXPECT_EQ(run(S, {File}), 0);
  EXPECT_EQ(Names[0], (std::vector<std::string>{"in_memory"}));
}

TEST_F(SourceDriverTest, ABadDatabaseRunsNothing) {
  std::string File = write("a.cpp", "int a();\n");
  SourceSettings S;
  S.BuildPath = path("no-build");
  EXPECT_EQ(run(S, {File}), 2);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_NE(Errors[0].find("no-build"), std::string::npos) << Errors[0];
  EXPECT_TRUE(Done.empty());
}

TEST_F(SourceDriverTest, DatabaseSourcesAreItsCudaFiles) {
  std::string Cu = write("k.cu", "");
  write("h.cpp", "");
  write("compile_commands.json",
        "[{\"directory\": \"" + std::string(Dir) +
            "\", \"file\": \"k.cu\", \"command\": \"clang++ -c k.cu\"},"
            " {\"directory\": \"" +
            std::string(Dir) +
            "\", \"file\": \"h.cpp\", \"command\": \"clang++ -c h.cpp\"}]");
  llvm::Expected<std::vector<std::string>> Files =
      databaseSources(std::string(Dir));
  ASSERT_TRUE(bool(Files)) << llvm::toString(Files.takeError());
  EXPECT_EQ(*Files, (std::vector<std::string>{Cu}));

  write("compile_commands.json",
        "[{\"directory\": \"" + std::string(Dir) +
            "\", \"file\": \"h.cpp\", \"command\": \"clang++ -c h.cpp\"}]");
  llvm::Expected<std::vector<std::string>> None =
      databaseSources(std::string(Dir));
  ASSERT_FALSE(bool(None));
  EXPECT_NE(llvm::toString(None.takeError()).find("lists no CUDA file"),
            std::string::npos);
}

TEST_F(SourceDriverTest, SourcesToRunAreTheGivenOnesElseTheDatabases) {
  llvm::Expected<std::vector<std::string>> Given =
      sourcesToRun({"a.cu", "b.cu"}, "no-such-build-dir");
  ASSERT_TRUE(bool(Given)) << llvm::toString(Given.takeError());
  EXPECT_EQ(*Given, (std::vector<std::string>{"a.cu", "b.cu"}));

  llvm::Expected<std::vector<std::string>> None = sourcesToRun({}, "");
  ASSERT_FALSE(bool(None));
  EXPECT_EQ(llvm::toString(None.takeError()).rfind("no source given: ", 0), 0u);

  llvm::Expected<std::vector<std::string>> Missing =
      sourcesToRun({}, "/nonexistent/build");
  ASSERT_FALSE(bool(Missing));
  llvm::consumeError(Missing.takeError());
}

} // namespace
