//===- PromptBuilder.cpp - The messages that ask for a kernel rewrite -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/PromptBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdio>

using namespace autoprof;
using namespace llvm;

namespace {

/// The placeholder names of \p Template, each with the line it is on, in
/// order; fails on a `{{` without `}}`.
Expected<std::vector<std::pair<std::string, unsigned>>>
placeholders(StringRef Template, StringRef File) {
  std::vector<std::pair<std::string, unsigned>> Out;
  size_t Pos = 0;
  while ((Pos = Template.find("{{", Pos)) != StringRef::npos) {
    unsigned Line = 1 + Template.take_front(Pos).count('\n');
    size_t End = Template.find("}}", Pos + 2);
    if (End == StringRef::npos || Template.slice(Pos + 2, End).contains('\n'))
      return createStringError(File + ":" + Twine(Line) +
                               ": '{{' without its '}}'");
    Out.emplace_back(Template.slice(Pos + 2, End).trim().str(), Line);
    Pos = End + 2;
  }
  return Out;
}

/// Checks that \p Template uses only \p Known placeholders.
Error checkTemplate(StringRef Template, StringRef File,
                    const std::vector<std::string> &Known) {
  auto Names = placeholders(Template, File);
  if (!Names)
    return Names.takeError();
  for (const auto &[Name, Line] : *Names)
    if (!is_contained(Known, Name)) {
      std::string List;
      for (const std::string &K : Known)
        List += (List.empty() ? "" : ", ") + ("{{" + K + "}}");
      return createStringError(
          File + ":" + Twine(Line) + ": unknown placeholder {{" + Name + "}}" +
          (List.empty() ? "; this file has none" : "; known: " + List));
    }
  return Error::success();
}

std::string templatePath(StringRef Directory, StringRef Name) {
  SmallString<256> P(Directory);
  sys::path::append(P, Name);
  return std::string(P);
}

std::string signature(const KernelRecord &K) {
  std::string S = K.QualifiedName + "(";
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const KernelParam &P = K.Params[I];
    S += (I ? ", " : "") + P.Type;
    if (!P.Name.empty())
      S += (StringRef(P.Type).ends_with("*") ? "" : " ") + P.Name;
  }
  return S + ")";
}

std::string bulleted(const std::vector<std::string> &Lines, StringRef IfNone) {
  if (Lines.empty())
    return IfNone.str();
  std::string S;
  for (const std::string &L : Lines)
    S += (S.empty() ? "" : "\n") + ("- " + L);
  return S;
}

} // namespace

std::string autoprof::formatPromptValue(double V) {
  if (std::isnan(V))
    return "nan";
  char Buf[64];
  if (V == std::floor(V) && std::fabs(V) < 1e15)
    std::snprintf(Buf, sizeof(Buf), "%.0f", V);
  else
    std::snprintf(Buf, sizeof(Buf), "%.4g", V);
  return Buf;
}

Expected<std::string>
autoprof::fillTemplate(StringRef Template, StringRef File,
                       const std::map<std::string, std::string> &Values) {
  std::string Out;
  size_t Pos = 0;
  while (true) {
    size_t Open = Template.find("{{", Pos);
    if (Open == StringRef::npos) {
      Out += Template.substr(Pos).str();
      return Out;
    }
    Out += Template.slice(Pos, Open).str();
    unsigned Line = 1 + Template.take_front(Open).count('\n');
    size_t Close = Template.find("}}", Open + 2);
    if (Close == StringRef::npos ||
        Template.slice(Open + 2, Close).contains('\n'))
      return createStringError(File + ":" + Twine(Line) +
                               ": '{{' without its '}}'");
    std::string Name = Template.slice(Open + 2, Close).trim().str();
    auto It = Values.find(Name);
    if (It == Values.end())
      return createStringError(File + ":" + Twine(Line) +
                               ": unknown placeholder {{" + Name + "}}");
    Out += It->second;
    Pos = Close + 2;
  }
}

const std::vector<std::string> &PromptTemplates::systemPlaceholders() {
  static const std::vector<std::string> Names;
  return Names;
}

const std::vector<std::string> &PromptTemplates::kernelPlaceholders() {
  static const std::vector<std::string> Names = {
      "kernel_name", "file", "signature", "kernel_source", "launch_sites",
      "features",    "leaf", "focus",     "profile"};
  return Names;
}

const std::vector<std::string> &PromptTemplates::retryPlaceholders() {
  static const std::vector<std::string> Names = {
      "kernel_name", "previous_verdict", "previous_reason", "previous_code"};
  return Names;
}

Expected<PromptTemplates> PromptTemplates::fromText(std::string System,
                                                    std::string Kernel,
                                                    std::string Retry,
                                                    std::string Directory) {
  if (Error E = checkTemplate(System, templatePath(Directory, "system.txt"),
                              systemPlaceholders()))
    return std::move(E);
  if (Error E = checkTemplate(Kernel, templatePath(Directory, "kernel.txt"),
                              kernelPlaceholders()))
    return std::move(E);
  if (Error E = checkTemplate(Retry, templatePath(Directory, "retry.txt"),
                              retryPlaceholders()))
    return std::move(E);
  PromptTemplates T;
  T.System = std::move(System);
  T.Kernel = std::move(Kernel);
  T.Retry = std::move(Retry);
  return T;
}

Expected<PromptTemplates> PromptTemplates::load(StringRef Directory) {
  std::string Texts[3];
  const char *Names[3] = {"system.txt", "kernel.txt", "retry.txt"};
  for (int I = 0; I < 3; ++I) {
    std::string Path = templatePath(Directory, Names[I]);
    auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buf)
      return createStringError("cannot read the prompt template '" + Path +
                               "': " + Buf.getError().message());
    Texts[I] = (*Buf)->getBuffer().str();
  }
  return fromText(std::move(Texts[0]), std::move(Texts[1]), std::move(Texts[2]),
                  Directory.str());
}

std::map<std::string, std::string>
autoprof::kernelPlaceholderValues(const PromptInput &In) {
  const KernelRecord &K = In.Kernel;
  std::map<std::string, std::string> V;
  V["kernel_name"] = K.QualifiedName;
  V["file"] = In.File;
  V["signature"] = signature(K);
  V["kernel_source"] = StringRef(In.KernelSource).rtrim().str();
  V["launch_sites"] =
      bulleted(In.LaunchSites, "(no launch of it in this file)");

  std::vector<std::string> Features;
  for (const auto &[Name, Value] : K.Features.values())
    if (Value && *Value != 0)
      Features.push_back(Name + " = " + formatPromptValue(*Value));
  V["features"] = bulleted(Features, "(every feature is 0)");

  V["leaf"] = In.Leaf.empty() ? "none (no profile was collected)" : In.Leaf;
  V["focus"] = In.Focus.empty() ? "none" : In.Focus;
  std::vector<std::string> Metrics;
  for (const PromptMetric &M : In.Metrics) {
    std::string L = M.Name + " = " + formatPromptValue(M.Value);
    if (!M.Unit.empty())
      L += " " + M.Unit;
    if (!M.Meaning.empty())
      L += ": " + M.Meaning;
    Metrics.push_back(std::move(L));
  }
  V["profile"] = bulleted(Metrics, "(no metric was collected)");
  return V;
}

std::vector<ChatMessage> PromptTemplates::build(const PromptInput &In) const {
  // The templates were checked when they were read, so filling cannot fail.
  std::map<std::string, std::string> None;
  std::string SystemText = cantFail(fillTemplate(System, "system.txt", None));
  std::string User =
      cantFail(fillTemplate(Kernel, "kernel.txt", kernelPlaceholderValues(In)));
  if (In.Previous) {
    std::map<std::string, std::string> R;
    R["kernel_name"] = In.Kernel.QualifiedName;
    R["previous_verdict"] = In.Previous->Verdict;
    R["previous_reason"] = In.Previous->Reason;
    R["previous_code"] = In.Previous->Code.empty()
                             ? "(no code)"
                             : StringRef(In.Previous->Code).rtrim().str();
    User = StringRef(User).rtrim().str() + "\n\n" +
           cantFail(fillTemplate(Retry, "retry.txt", R));
  }
  return {ChatMessage{"system", SystemText}, ChatMessage{"user", User}};
}
