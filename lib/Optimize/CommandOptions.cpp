//===- CommandOptions.cpp - What `optimize` is asked to do ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimize/CommandOptions.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::optimize;

static Error problem(const Twine &Why) { return createStringError(Why); }

Error autoprof::optimize::checkCommandOptions(const CommandOptions &O,
                                              ArrayRef<std::string> Sources) {
  int Outputs =
      int(O.Diff) + !O.ExportFixes.empty() + !O.Output.empty() + O.InPlace;
  if (Outputs > 1)
    return problem(
        "--diff, --export-fixes, -o and --in-place exclude each other");
  if (O.DryRun && O.InPlace)
    return problem("--dry-run never changes the source; --in-place needs a "
                   "verified rewrite");
  if (!O.ProfileFile.empty() && O.DryRun)
    return problem("--profile chooses the rewrites of a verified run; a dry "
                   "run takes the values of a profile with --samples");
  if (!O.ProfileFile.empty() && O.TreeGiven)
    return problem("--profile and --tree exclude each other: the profile's "
                   "tree chose its metrics");
  if (O.Rewriter != "builtin" && O.Rewriter != "llm")
    return problem("unknown --rewriter '" + O.Rewriter +
                   "'; known: builtin, llm");
  bool UseLLM = O.useModel();
  if (O.LLMShowPrompt && !(UseLLM && O.DryRun))
    return problem("--llm-show-prompt prints the prompts of a dry run: give "
                   "--dry-run --rewriter=llm");
  if (O.Explain && (!O.DryRun || UseLLM || O.Diff || !O.ExportFixes.empty() ||
                    !O.Output.empty()))
    return problem("--explain lists why built-in rewrites do not apply: give "
                   "--dry-run without --rewriter=llm, --diff, --export-fixes "
                   "or -o");
  if (UseLLM) {
    if (!O.Candidates.empty() || O.TryAll || !O.Transformations.empty())
      return problem("--candidate, --try-all and --transformations choose "
                     "built-in rewrites; --rewriter=llm asks the model");
    if (O.DryRun && (!O.ExportFixes.empty() || !O.Output.empty()))
      return problem("a dry run of --rewriter=llm prints each candidate's "
                     "diff; -o and --export-fixes need a verified run");
    if (Sources.size() != 1)
      return problem("--rewriter=llm rewrites the kernels of one source; " +
                     Twine(Sources.size()) + " were given");
  }
  if (!O.DryRun) {
    if (O.Run.empty())
      return problem("no run command: give --run \"<cmd>\" (the program "
                     "whose kernels are verified and timed), or --dry-run");
    if (O.Runs < 3)
      return problem("--runs must be at least 3: speed is judged over runs "
                     "with different seeds");
    if (O.Attempts == 0)
      return problem("--attempts must be at least 1");
    if (!(O.RTol >= 0) || !(O.ATol >= 0) || !(O.OrderSlack >= 0) ||
        !(O.MinSpeedup >= 1))
      return problem("--rtol, --atol and --order-slack must be non-negative "
                     "and --min-speedup at least 1");
    if (Sources.size() != 1)
      return problem("optimize verifies the kernels of one source; " +
                     Twine(Sources.size()) + " were given");
  }
  if (!O.Output.empty()) {
    if (Sources.size() != 1)
      return problem("-o writes the patched copy of one source; " +
                     Twine(Sources.size()) + " were given");
    if (sys::fs::exists(O.Output) &&
        sys::fs::equivalent(O.Output, Sources.front()))
      return problem("-o '" + O.Output +
                     "' names the source itself, which optimize never "
                     "changes");
  }
  return Error::success();
}
