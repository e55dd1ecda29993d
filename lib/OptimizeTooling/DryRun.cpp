//===- DryRun.cpp - What optimize --dry-run prints ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/DryRun.h"

#include "autoprof/OptimizeTooling/LLMRewriter.h"
#include "autoprof/Rewrite/UnifiedDiff.h"
#include "autoprof/Tree/Routing.h"
#include "autoprof/Verify/Judge.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace llvm;
using namespace autoprof;

namespace {

/// The values of kernel \p K in the view's samples; null without samples
/// or when the profile lacks the kernel.
const std::map<std::string, double> *samplesOf(const DryRunView &V,
                                               const KernelRecord &K) {
  return V.Samples ? V.Samples->find(K.MangledName, K.Name) : nullptr;
}

void warn(const DryRunView &V, const std::string &Message) {
  if (V.Warn)
    V.Warn(Message);
}

std::string shown(const DryRunView &V, const std::string &File) {
  return V.Shown ? V.Shown(File) : File;
}

} // namespace

void autoprof::writeProposalListing(const RewriteEngine &Engine,
                                    const DryRunView &V, raw_ostream &OS) {
  for (size_t I = 0; I < Engine.kernels().size(); ++I) {
    const KernelRecord &K = Engine.kernels()[I];
    OS << "kernel " << K.QualifiedName << " at " << shown(V, K.File) << ":"
       << K.Line << ":" << K.Column << "\n";
    std::optional<MetricValues> Seen;
    if (V.Samples && V.Tree) {
      if (const std::map<std::string, double> *Values = samplesOf(V, K)) {
        Route R = routeKernel(*V.Tree, K.Features, Values);
        Seen = shownMetrics(*V.Tree, R.Leaf, *Values);
        OS << "  leaf: " << (R.Leaf ? R.Leaf->Id : std::string("(pending)"))
           << ", " << Seen->size() << " metrics\n";
      } else {
        OS << "  not in the profile\n";
      }
    }
    bool Any = false;
    for (const Proposal &P : Engine.proposals()) {
      if (P.Kernel != I)
        continue;
      Any = true;
      OS << "  " << P.name() << ": " << P.T->description() << "\n";
      if (P.T->enabling())
        OS << "    prepares the kernel for the others; not tried by itself\n";
      else if (!Seen)
        OS << "    trigger: needs " << llvm::join(P.T->triggerMetrics(), ", ")
           << "\n";
      else if (std::optional<std::string> Why = P.T->trigger(*Seen))
        OS << "    triggered: " << *Why << "\n";
      else
        OS << "    not triggered by the leaf's metrics\n";
    }
    if (!Any)
      OS << "  no proposal\n";
    for (const Refusal &R : Engine.refusals())
      if (R.Kernel == I)
        OS << "  " << R.name() << ": not applied: " << R.Reason << "\n";
  }
}

void autoprof::writeProposalDiffs(const RewriteEngine &Engine,
                                  const DryRunView &V, raw_ostream &OS) {
  auto Original = [&](StringRef File) { return Engine.originalText(File); };
  for (const Proposal &P : Engine.proposals()) {
    const std::string &Kernel = Engine.kernels()[P.Kernel].QualifiedName;
    auto New = applyFileEdits(P.Edits, Original);
    if (!New) {
      warn(V, "cannot apply " + P.name() + " to '" + Kernel +
                  "': " + toString(New.takeError()));
      continue;
    }
    OS << "# " << P.name() << " on kernel " << Kernel << "\n";
    for (const auto &[File, NewText] : *New)
      OS << unifiedDiff(shown(V, File), Engine.originalText(File), NewText);
  }
}

FileEdits autoprof::mergeFirstVariants(const RewriteEngine &Engine,
                                       StringRef Main, bool MainOnly,
                                       const DryRunView &V) {
  std::vector<const Proposal *> List;
  for (const Proposal &P : Engine.proposals()) {
    // An enabling edit alone makes nothing faster.
    if (P.T->enabling())
      continue;
    if (!P.Variant.empty() && llvm::any_of(List, [&](const Proposal *Q) {
          return Q->Kernel == P.Kernel && Q->T == P.T && Q->After == P.After;
        }))
      continue;
    bool Elsewhere = llvm::any_of(P.Edits, [&](const auto &FE) {
      return !FE.second.empty() && FE.first != Main;
    });
    if (MainOnly && Elsewhere) {
      warn(V, "skipping " + P.name() + " on kernel '" +
                  Engine.kernels()[P.Kernel].QualifiedName +
                  "': it changes files other than '" + shown(V, Main.str()) +
                  "', and -o writes a copy of that one only");
      continue;
    }
    List.push_back(&P);
  }
  std::vector<const Proposal *> Skipped;
  FileEdits Merged = mergeProposals(List, Skipped);
  for (const Proposal *P : Skipped)
    warn(V, "skipping " + P->name() + " on kernel '" +
                Engine.kernels()[P->Kernel].QualifiedName +
                "': its edits overlap another proposal's");
  return Merged;
}

Expected<std::string> autoprof::patchedText(const RewriteEngine &Engine,
                                            const FileEdits &Merged,
                                            StringRef Main) {
  auto It = Merged.find(Main.str());
  if (It == Merged.end() || It->second.empty()) {
    // Unchanged: the file as it is, which the engine kept only when it
    // held a kernel.
    auto Buf = MemoryBuffer::getFile(Main);
    if (!Buf)
      return createStringError("cannot read '%s': %s", Main.str().c_str(),
                               Buf.getError().message().c_str());
    return (*Buf)->getBuffer().str();
  }
  auto New = applyEdits(Engine.originalText(Main), It->second);
  if (!New)
    return createStringError("cannot apply the proposals to '%s': %s",
                             Main.str().c_str(),
                             toString(New.takeError()).c_str());
  return *New;
}

Error autoprof::writeModelDryRun(LLMRewriter &LLM, const RewriteEngine &Engine,
                                 const std::string &Source, bool ShowPrompt,
                                 const DryRunView &V, raw_ostream &OS) {
  for (size_t I = 0; I < Engine.kernels().size(); ++I) {
    const KernelRecord &K = Engine.kernels()[I];
    if (std::optional<std::string> Why = llmUnsupported(Engine, I, Source)) {
      warn(V, "kernel '" + K.QualifiedName + "' is left alone: " + *Why);
      continue;
    }
    KernelProfile KP;
    if (const std::map<std::string, double> *Values = samplesOf(V, K);
        Values && V.Tree) {
      Route R = routeKernel(*V.Tree, K.Features, Values);
      KP.Metrics = shownMetrics(*V.Tree, R.Leaf, *Values);
      if (R.Leaf) {
        KP.Leaf = R.Leaf->Id;
        KP.Focus = R.Leaf->Focus;
      }
    }
    std::vector<ChatMessage> Messages = LLM.prompt(Engine, I, KP, std::nullopt);
    if (ShowPrompt) {
      OS << "# prompt for kernel " << K.QualifiedName << "\n";
      for (const ChatMessage &M : Messages)
        OS << "## " << M.Role << "\n"
           << M.Content << (StringRef(M.Content).ends_with("\n") ? "" : "\n");
      continue;
    }
    Expected<ChatReply> Reply = LLM.ask(std::move(Messages));
    if (!Reply)
      return Reply.takeError();
    LLMRound Round =
        LLM.handle(Engine, I, Source, Reply->Text, Reply->FinishReason);
    OS << "# llm on kernel " << K.QualifiedName;
    if (!Round.Candidate) {
      OS << ": " << verify::verdictName(Round.V) << ": " << Round.Reason
         << "\n";
      continue;
    }
    const KernelSource &KS = Engine.kernelSources()[I];
    OS << "\n"
       << unifiedDiff(shown(V, KS.File), Engine.originalText(KS.File),
                      *Round.Candidate);
  }
  return Error::success();
}
