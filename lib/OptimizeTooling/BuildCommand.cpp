//===- BuildCommand.cpp - The command that builds a program ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/BuildCommand.h"

#include "autoprof/Verify/Verifier.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"

using namespace llvm;
using namespace autoprof;

std::string autoprof::shellQuote(StringRef Arg) {
  if (!Arg.empty() &&
      Arg.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "0123456789_-+=./:,@%") == StringRef::npos)
    return Arg.str();
  std::string Q = "'";
  for (char C : Arg)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

Expected<std::string> autoprof::databaseBuildCommand(StringRef Source,
                                                     StringRef BuildPath) {
  std::string Err;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  if (!BuildPath.empty())
    DB = clang::tooling::JSONCompilationDatabase::loadFromDirectory(BuildPath,
                                                                    Err);
  else
    DB = clang::tooling::CompilationDatabase::autoDetectFromSource(Source, Err);
  if (!DB)
    return createStringError("no build command: give --build \"<cmd>\" "
                             "(no compilation database was found for '" +
                             Source + "')");
  std::vector<clang::tooling::CompileCommand> Cmds =
      DB->getCompileCommands(verify::normalPath(Source));
  if (Cmds.empty())
    return createStringError("no build command: give --build \"<cmd>\" (the "
                             "compilation database has no command for '" +
                             Source + "')");
  const clang::tooling::CompileCommand &C = Cmds.front();
  for (const std::string &A : C.CommandLine)
    if (A == "-c" || A == "--compile" || A == "-S" || A == "-E")
      return createStringError(
          "no build command: give --build \"<cmd>\" (the compilation "
          "database's command for '" +
          Source + "' compiles an object; the program must be linked)");
  std::string Cmd = "cd " + shellQuote(C.Directory) + " &&";
  for (const std::string &A : C.CommandLine)
    Cmd += " " + shellQuote(A);
  return Cmd;
}
