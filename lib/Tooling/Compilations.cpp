//===- Compilations.cpp - Compile commands for the analysed sources -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/Compilations.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace autoprof;
using namespace clang::tooling;

namespace {

std::string oneLine(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r')
      C = ' ';
  while (!S.empty() && S.back() == ' ')
    S.pop_back();
  return S;
}

/// Answers from a primary database, and from a fallback for files that the
/// primary does not list; adds the extra arguments to every command.
class LayeredDatabase : public CompilationDatabase {
public:
  LayeredDatabase(std::unique_ptr<CompilationDatabase> Primary,
                  std::unique_ptr<CompilationDatabase> Fallback,
                  ArgumentsAdjuster Adjust)
      : Primary(std::move(Primary)), Fallback(std::move(Fallback)),
        Adjust(std::move(Adjust)) {}

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<CompileCommand> Cmds;
    if (Primary)
      Cmds = Primary->getCompileCommands(File);
    if (Cmds.empty() && Fallback)
      Cmds = Fallback->getCompileCommands(File);
    for (CompileCommand &C : Cmds)
      C.CommandLine = Adjust(C.CommandLine, File);
    return Cmds;
  }
  std::vector<std::string> getAllFiles() const override {
    return Primary ? Primary->getAllFiles() : std::vector<std::string>();
  }

  CompilationDatabase *primary() const { return Primary.get(); }

private:
  std::unique_ptr<CompilationDatabase> Primary, Fallback;
  ArgumentsAdjuster Adjust;
};

/// The database nearest to \p Source: in its directory or a parent, the
/// first of `<dir>` and `<dir>/build` that holds one (compile_commands.json
/// or compile_flags.txt).
std::unique_ptr<CompilationDatabase> findNearest(llvm::StringRef Source,
                                                 std::string &Origin) {
  llvm::SmallString<256> Dir(Source);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Build(D);
    llvm::sys::path::append(Build, "build");
    for (llvm::StringRef Candidate : {D, llvm::StringRef(Build)}) {
      if (!llvm::sys::fs::is_directory(Candidate))
        continue;
      std::string Err;
      if (auto DB = CompilationDatabase::loadFromDirectory(Candidate, Err)) {
        Origin = "the compilation database in '" + Candidate.str() + "'";
        return DB;
      }
    }
  }
  return nullptr;
}

} // namespace

llvm::Expected<Compilations> Compilations::load(const CompilationOptions &Opts,
                                                llvm::StringRef FirstSource) {
  std::unique_ptr<CompilationDatabase> Primary;
  bool IsExplicit = false;
  std::string Origin;
  std::string Err;

  if (Opts.FixedArgs) {
    Primary = std::make_unique<FixedCompilationDatabase>(".", *Opts.FixedArgs);
    Origin = "the arguments after '--'";
  } else if (!Opts.BuildPath.empty()) {
    if (!llvm::sys::fs::is_directory(Opts.BuildPath))
      return llvm::createStringError(
          "cannot load compilation database: '%s' is not a directory",
          Opts.BuildPath.c_str());
    llvm::SmallString<256> Json(Opts.BuildPath);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (!llvm::sys::fs::exists(Json))
      return llvm::createStringError(
          "cannot load compilation database: no compile_commands.json in '%s'",
          Opts.BuildPath.c_str());
    Primary = JSONCompilationDatabase::loadFromFile(
        Json, Err, JSONCommandLineSyntax::AutoDetect);
    if (!Primary)
      return llvm::createStringError("cannot load compilation database: %s",
                                     oneLine(Err).c_str());
    Origin = std::string(Json);
    IsExplicit = true;
  } else if (!FirstSource.empty()) {
    // Like clang-tidy: a database next to the sources is used when found;
    // an unreadable one found this way is not an error.
    if (Opts.SearchBuildDirs)
      Primary = findNearest(FirstSource, Origin);
    else
      Primary = CompilationDatabase::autoDetectFromSource(FirstSource, Err);
    if (Origin.empty())
      Origin = Primary ? "the compilation database found from the sources"
                       : "default flags";
  }

  if (Primary && Opts.InferMissing && !Opts.FixedArgs)
    Primary = inferMissingCompileCommands(std::move(Primary));

  auto Fallback = std::make_unique<FixedCompilationDatabase>(
      ".", std::vector<std::string>());
  ArgumentsAdjuster Adjust = combineAdjusters(
      getInsertArgumentAdjuster(Opts.ExtraArgsBefore,
                                ArgumentInsertPosition::BEGIN),
      getInsertArgumentAdjuster(Opts.ExtraArgs, ArgumentInsertPosition::END));
  auto Layered = std::make_unique<LayeredDatabase>(
      std::move(Primary), IsExplicit ? nullptr : std::move(Fallback),
      std::move(Adjust));
  Compilations C;
  C.Explicit = IsExplicit ? Layered->primary() : nullptr;
  C.Database = std::move(Layered);
  C.Origin = std::move(Origin);
  return C;
}

llvm::Error Compilations::checkHasCommand(llvm::StringRef Source) const {
  if (!Explicit)
    return llvm::Error::success();
  llvm::SmallString<256> Abs(Source);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  if (!Explicit->getCompileCommands(Abs).empty())
    return llvm::Error::success();
  return llvm::createStringError("no compile command for '%s' in %s",
                                 Source.str().c_str(), Origin.c_str());
}
