//===- ClangAutoprof.cpp - The clang-autoprof tool ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Entry point: splits off the arguments after `--`, parses the subcommand
/// and its options, and runs it.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "autoprof/JSON/BoundedParse.h"
#include "autoprof/Tooling/CommandLine.h"
#include "autoprof/Verify/Files.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

std::optional<std::vector<std::string>> autoprof::tool::ArgsAfterDashDash;

cl::SubCommand &autoprof::tool::featuresCommand() {
  static cl::SubCommand S("features",
                          "Print the static features of every CUDA kernel");
  return S;
}

cl::SubCommand &autoprof::tool::metricsCommand() {
  static cl::SubCommand S("metrics",
                          "List the metric catalog with each metric's "
                          "validity and pass cost on a chip");
  return S;
}

cl::SubCommand &autoprof::tool::planCommand() {
  static cl::SubCommand S("plan", "Route each kernel through a profiling "
                                  "tree and print what to collect");
  return S;
}

cl::SubCommand &autoprof::tool::profileCommand() {
  static cl::SubCommand S("profile",
                          "Run a CUDA program and collect, for each selected "
                          "kernel, the metrics its profiling tree chooses");
  return S;
}

cl::SubCommand &autoprof::tool::optimizeCommand() {
  static cl::SubCommand S("optimize",
                          "Rewrite each kernel, and keep a rewrite only when "
                          "building, running and timing prove it correct and "
                          "faster (--dry-run only proposes)");
  return S;
}

cl::SubCommand &autoprof::tool::checkCommand() {
  static cl::SubCommand S("check", "Run static diagnostics on CUDA kernels");
  return S;
}

cl::SubCommand &autoprof::tool::learnCommand() {
  static cl::SubCommand S("learn", "Learn a profiling tree from a dataset of "
                                   "verified rewrites");
  return S;
}

cl::SubCommand &autoprof::tool::treeCommand() {
  static cl::SubCommand S("tree", "Validate, print or draw a profiling tree");
  return S;
}

static cl::OptionCategory &toolCategory() {
  static cl::OptionCategory C("clang-autoprof options");
  return C;
}

/// The subcommands that parse sources.
static cl::SubCommandGroup &parsing() {
  static cl::SubCommandGroup G({&featuresCommand(), &planCommand(),
                                &profileCommand(), &optimizeCommand(),
                                &checkCommand()});
  return G;
}

SourceOptions::SourceOptions()
    : BuildPath("p",
                cl::desc("Build directory holding compile_commands.json; "
                         "with no source, features, plan and check run over "
                         "every CUDA file it lists"),
                cl::value_desc("build-dir"), cl::sub(parsing()),
                cl::cat(toolCategory())),
      Sources(cl::Positional, cl::desc("<source>... [-- <compiler args>]"),
              cl::ZeroOrMore, cl::sub(featuresCommand()),
              cl::sub(planCommand()), cl::sub(optimizeCommand()),
              cl::sub(checkCommand()), cl::cat(toolCategory())),
      ExtraArgs("extra-arg",
                cl::desc("Additional argument to append to the compiler "
                         "command line"),
                cl::sub(parsing()), cl::cat(toolCategory())),
      ExtraArgsBefore("extra-arg-before",
                      cl::desc("Additional argument to prepend to the "
                               "compiler command line"),
                      cl::sub(parsing()), cl::cat(toolCategory())),
      CudaPath("cuda-path",
               cl::desc("CUDA installation used when the compile command "
                        "names none (default: $CUDA_PATH, $CUDA_HOME, the "
                        "toolkit found at build time, /usr/local/cuda)"),
               cl::value_desc("dir"), cl::sub(parsing()),
               cl::sub(metricsCommand()), cl::sub(treeCommand()),
               cl::cat(toolCategory())),
      Kernel("kernel",
             cl::desc("Only kernels whose name or qualified name (profile: "
                      "name or mangled name) contains a match of this "
                      "ECMAScript regular expression, e.g. '^tile_\\w+$'"),
             cl::value_desc("regex"), cl::sub(parsing()),
             cl::cat(toolCategory())),
      GpuArch("gpu-arch",
              cl::desc("GPU architecture used when the compile command names "
                       "none"),
              cl::value_desc("sm_XX"), cl::init("sm_90"), cl::sub(parsing()),
              cl::cat(toolCategory())),
      Jobs("j",
           cl::desc("Files analysed at a time (0: as many as there are "
                    "cores; default 1); the output is the same"),
           cl::value_desc("N"), cl::init(1), cl::Prefix,
           cl::sub(featuresCommand()), cl::sub(planCommand()),
           cl::sub(checkCommand()), cl::cat(toolCategory())) {}

SourceOptions &autoprof::tool::sourceOptions() {
  static SourceOptions O;
  return O;
}

/// Messages quote what inputs hold: no control character reaches the
/// terminal, and no line runs on for pages.
constexpr size_t MaxMessageChars = 2000;

void autoprof::tool::reportError(const Twine &Message) {
  WithColor::error(errs(), "clang-autoprof")
      << json::printableText(Message.str(), MaxMessageChars,
                             /*EscapeBackslash=*/false)
      << "\n";
}

void autoprof::tool::reportWarning(const Twine &Message) {
  WithColor::warning(errs(), "clang-autoprof")
      << json::printableText(Message.str(), MaxMessageChars,
                             /*EscapeBackslash=*/false)
      << "\n";
}

bool autoprof::tool::failed(Error E) {
  if (!E)
    return false;
  reportError(toString(std::move(E)));
  return true;
}

std::string autoprof::tool::catalogPath(const char *Argv0,
                                        const std::string &Option) {
  static int Anchor;
  return Option.empty() ? MetricCatalog::defaultPath(Argv0, &Anchor) : Option;
}

Expected<std::unique_ptr<ProfilerHost>> autoprof::tool::loadProfilerHost() {
  const std::string &Path = sourceOptions().CudaPath;
  return ProfilerHost::load(Path.empty() ? defaultCudaPath() : Path);
}

Error autoprof::tool::writeOutput(StringRef Path, StringRef Text) {
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return Error::success();
  }
  return verify::writeFileAtomically(Path, Text);
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  // Split off everything after the first `--`: the compiler arguments.
  for (int I = 1; I < argc; ++I)
    if (std::strcmp(argv[I], "--") == 0) {
      ArgsAfterDashDash.emplace(argv + I + 1, argv + argc);
      argc = I;
      break;
    }
  sourceOptions();
  cl::HideUnrelatedOptions(toolCategory());
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "clang-autoprof " << AUTOPROF_VERSION << "\n";
  });
  std::string OptionErrors;
  if (!parseCommandLine(argc, argv,
                        "clang-autoprof: profile-guided analysis and "
                        "optimisation of CUDA kernels\n",
                        OptionErrors)) {
    reportError(oneLineOptionError(OptionErrors, "clang-autoprof"));
    // `check` keeps 1 for findings; its tool errors, bad options included,
    // exit with 2 as clang-tidy's do.
    return argc > 1 && StringRef(argv[1]) == "check" ? 2 : 1;
  }
  if (featuresCommand())
    return runFeatures();
  if (metricsCommand())
    return runMetrics(argv[0]);
  if (treeCommand())
    return runTree(argv[0]);
  if (planCommand())
    return runPlan(argv[0]);
  if (profileCommand())
    return runProfile(argv[0]);
  if (optimizeCommand())
    return runOptimize(argv[0]);
  if (checkCommand())
    return runCheck(argv[0]);
  if (learnCommand())
    return runLearn(argv[0]);
  reportError("no subcommand given; try 'clang-autoprof --help'");
  return 1;
}
