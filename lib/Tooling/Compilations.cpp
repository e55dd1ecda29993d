//===- Compilations.cpp - Compile commands for the analysed sources -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/Compilations.h"

#include "autoprof/JSON/BoundedParse.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>

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

/// The most bytes a compile_commands.json may have.
constexpr uint64_t MaxDatabaseBytes = uint64_t(256) << 20;

/// Checks \p File before Clang reads it: a regular file (a FIFO or a
/// device would block the read, or never end), not larger than
/// MaxDatabaseBytes, and for compile_commands.json, JSON within
/// json::parseBounded's limits holding an array of entries, each with a
/// `directory` that exists, a `file`, and a `command` or `arguments`.
llvm::Error checkDatabaseFile(llvm::StringRef File) {
  auto Fail = [&](const std::string &Why) {
    return llvm::createStringError("cannot load compilation database '%s': %s",
                                   File.str().c_str(), Why.c_str());
  };
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(File, Status))
    return Fail(EC.message());
  if (!llvm::sys::fs::is_regular_file(Status))
    return Fail("not a regular file");
  if (Status.getSize() > MaxDatabaseBytes)
    return Fail("larger than " + std::to_string(MaxDatabaseBytes) + " bytes");
  if (llvm::sys::path::filename(File) != "compile_commands.json")
    return llvm::Error::success();
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf)
    return Fail(Buf.getError().message());
  rapidjson::Document Doc;
  std::string JSONError;
  json::ParseLimits Limits;
  Limits.MaxBytes = MaxDatabaseBytes;
  if (!json::parseBounded((*Buf)->getBufferStart(), (*Buf)->getBufferSize(),
                          Doc, JSONError, Limits))
    return Fail(JSONError);
  if (!Doc.IsArray())
    return Fail("$: expected an array of compile commands");
  for (rapidjson::SizeType I = 0; I < Doc.Size(); ++I) {
    const rapidjson::Value &E = Doc[I];
    std::string Where = "$[" + std::to_string(I) + "]";
    auto Str = [&](const char *Key) -> const rapidjson::Value * {
      auto It = E.FindMember(Key);
      return It != E.MemberEnd() && It->value.IsString() ? &It->value : nullptr;
    };
    if (!E.IsObject())
      return Fail(Where + ": expected an object");
    const rapidjson::Value *Dir = Str("directory");
    if (!Dir)
      return Fail(Where + ": expected 'directory', a string");
    if (!Str("file"))
      return Fail(Where + ": expected 'file', a string");
    auto Args = E.FindMember("arguments");
    bool HasArgs = Args != E.MemberEnd() && Args->value.IsArray();
    if (HasArgs)
      for (const rapidjson::Value &A : Args->value.GetArray())
        HasArgs = HasArgs && A.IsString();
    if (!Str("command") && !HasArgs)
      return Fail(Where + ": expected 'command', a string, or 'arguments', "
                          "an array of strings");
    if (!llvm::sys::fs::is_directory(Dir->GetString()))
      return Fail(Where + ": the directory '" +
                  json::printableText(Dir->GetString()) + "' does not exist");
  }
  return llvm::Error::success();
}

/// The database nearest to \p Source: in its directory or a parent, the
/// first of `<dir>` and, with \p InBuild, `<dir>/build` that holds one
/// (compile_commands.json or compile_flags.txt). A database found that
/// checkDatabaseFile() refuses is an error.
llvm::Expected<std::unique_ptr<CompilationDatabase>>
findNearest(llvm::StringRef Source, bool InBuild, std::string &Origin) {
  llvm::SmallString<256> Dir(Source);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Build(D);
    llvm::sys::path::append(Build, "build");
    for (llvm::StringRef Candidate : {D, llvm::StringRef(Build)}) {
      if (Candidate == Build && !InBuild)
        continue;
      if (!llvm::sys::fs::is_directory(Candidate))
        continue;
      for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
        llvm::SmallString<256> File(Candidate);
        llvm::sys::path::append(File, Name);
        if (!llvm::sys::fs::exists(File))
          continue;
        if (llvm::Error E = checkDatabaseFile(File))
          return std::move(E);
        std::string Err;
        if (auto DB = CompilationDatabase::loadFromDirectory(Candidate, Err)) {
          Origin = "the compilation database in '" + Candidate.str() + "'";
          return std::move(DB);
        }
        return llvm::createStringError(
            "cannot load compilation database '%s': %s", File.c_str(),
            oneLine(Err).c_str());
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
    if (llvm::Error E = checkDatabaseFile(Json))
      return std::move(E);
    Primary = JSONCompilationDatabase::loadFromFile(
        Json, Err, JSONCommandLineSyntax::AutoDetect);
    if (!Primary)
      return llvm::createStringError("cannot load compilation database: %s",
                                     oneLine(Err).c_str());
    Origin = std::string(Json);
    IsExplicit = true;
  } else if (!FirstSource.empty()) {
    // Like clang-tidy: a database next to the sources is used when found;
    // a broken one found this way is an error, as one given by -p.
    auto Found = findNearest(FirstSource, Opts.SearchBuildDirs, Origin);
    if (!Found)
      return Found.takeError();
    Primary = std::move(*Found);
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

std::vector<std::string> Compilations::cudaSources() const {
  std::set<std::string> Files;
  if (!Explicit)
    return {};
  for (const CompileCommand &C : Explicit->getAllCompileCommands()) {
    bool Cuda =
        llvm::sys::path::extension(C.Filename).equals_insensitive(".cu");
    for (size_t I = 0; I < C.CommandLine.size() && !Cuda; ++I) {
      llvm::StringRef A = C.CommandLine[I];
      Cuda = A == "-xcuda" || A == "--language=cuda" ||
             ((A == "-x" || A == "--language") &&
              I + 1 < C.CommandLine.size() && C.CommandLine[I + 1] == "cuda");
    }
    if (!Cuda)
      continue;
    llvm::SmallString<256> Path(C.Filename);
    if (!llvm::sys::path::is_absolute(Path)) {
      Path = C.Directory;
      llvm::sys::path::append(Path, C.Filename);
    }
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    Files.insert(std::string(Path));
  }
  return std::vector<std::string>(Files.begin(), Files.end());
}
