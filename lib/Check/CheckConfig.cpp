//===- CheckConfig.cpp - The .clang-autoprof configuration file -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckConfig.h"

#include "autoprof/Check/CheckEngine.h"
#include "autoprof/Check/CheckRegistry.h"
#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"

using namespace autoprof;

namespace llvm {
namespace yaml {
template <> struct MappingTraits<CheckConfig> {
  static void mapping(IO &IO, CheckConfig &C) {
    IO.mapOptional("Checks", C.Checks);
    IO.mapOptional("WarningsAsErrors", C.WarningsAsErrors);
  }
};
} // namespace yaml
} // namespace llvm

llvm::Expected<CheckConfig> autoprof::parseCheckConfig(llvm::StringRef Text,
                                                       llvm::StringRef Path) {
  CheckConfig C;
  C.Path = Path.str();
  // An empty file (or one holding only comments) selects nothing.
  if (Text.trim().empty())
    return C;
  std::string Problem;
  auto Handler = [](const llvm::SMDiagnostic &D, void *Ctx) {
    std::string &P = *static_cast<std::string *>(Ctx);
    if (P.empty())
      P = std::to_string(D.getLineNo()) + ":" +
          std::to_string(D.getColumnNo() + 1) + ": " + D.getMessage().str();
  };
  llvm::yaml::Input In(Text, /*Ctxt=*/nullptr, Handler, &Problem);
  In >> C;
  if (In.error() || !Problem.empty()) {
    if (Problem.empty())
      Problem = In.error().message();
    return llvm::createStringError("malformed configuration file '%s': %s",
                                   Path.str().c_str(), Problem.c_str());
  }
  C.Path = Path.str();
  return C;
}

llvm::Expected<CheckConfig> autoprof::findCheckConfig(llvm::StringRef Source) {
  llvm::SmallString<256> Dir(Source);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> File(D);
    llvm::sys::path::append(File, CheckConfigFileName);
    if (!llvm::sys::fs::is_regular_file(File))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return llvm::createStringError("cannot read '%s': %s", File.c_str(),
                                     Buf.getError().message().c_str());
    return parseCheckConfig((*Buf)->getBuffer(), File);
  }
  return CheckConfig();
}

using namespace llvm;

Expected<GlobList> autoprof::parseCheckGlobs(StringRef Text, StringRef Origin) {
  Expected<GlobList> L = GlobList::parse(Text);
  if (!L)
    return createStringError("invalid %s: %s", Origin.str().c_str(),
                             toString(L.takeError()).c_str());
  std::vector<std::string> Unmatched = L->unmatched(CheckRegistry::names());
  if (!Unmatched.empty())
    return createStringError("no check matches '%s' in %s; checks: %s",
                             Unmatched.front().c_str(), Origin.str().c_str(),
                             join(CheckRegistry::names(), ", ").c_str());
  return L;
}

Expected<CheckSelection>
autoprof::checkSelectionFor(StringRef Source, const std::string *CommandChecks,
                            const std::string *CommandPromoted,
                            StringRef Name) {
  Expected<CheckConfig> Config = findCheckConfig(Source);
  if (!Config)
    return Config.takeError();
  std::string Checks = "autoprof-*";
  std::string Promoted;
  if (Config->Checks) {
    if (Error E =
            parseCheckGlobs(*Config->Checks, "Checks of '" + Config->Path + "'")
                .takeError())
      return std::move(E);
    Checks += "," + *Config->Checks;
  }
  if (Config->WarningsAsErrors) {
    if (Error E = parseCheckGlobs(*Config->WarningsAsErrors,
                                  "WarningsAsErrors of '" + Config->Path + "'")
                      .takeError())
      return std::move(E);
    Promoted = *Config->WarningsAsErrors;
  }
  if (CommandChecks)
    Checks += "," + *CommandChecks;
  if (CommandPromoted)
    Promoted += "," + *CommandPromoted;
  CheckSelection S;
  GlobList Enabled = cantFail(GlobList::parse(Checks));
  for (const Check *C : CheckRegistry::all())
    if (Enabled.contains(C->name()))
      S.Checks.push_back(C);
  if (S.Checks.empty())
    return createStringError("no check is enabled for %s",
                             Name.empty() ? ("'" + Source + "'").str().c_str()
                                          : Name.str().c_str());
  S.WarningsAsErrors = cantFail(GlobList::parse(Promoted));
  return S;
}
