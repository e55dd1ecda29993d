//===- CudaCommand.cpp - Compile commands for Clang's CUDA front end ------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/CudaCommand.h"

#include "clang/Options/Options.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <set>

using namespace autoprof;
using llvm::StringRef;

namespace {

// clang-format off
/// nvcc flags dropped together with their value (`-f v` or `-f=v`).
const llvm::StringSet<> &droppedWithValue() {
  static const llvm::StringSet<> S = {
      "-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xlinker",
      "--linker-options", "-Xnvlink", "--nvlink-options", "-Xcudafe",
      "-Xarchive", "--archive-options", "-Xfatbin", "--fatbin-options",
      "-maxrregcount", "--maxrregcount", "-t", "--threads", "-code",
      "--gpu-code", "--diag-suppress", "-diag-suppress", "--diag-error",
      "--diag-warn", "--keep-dir", "-keep-dir", "-odir", "--output-directory",
      "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt",
      "-fmad", "--fmad", "-cudart", "--cudart", "-cudadevrt", "--cudadevrt",
      "--machine", "-m", "-dopt", "--dopt", "-split-compile",
      "--split-compile", "-jump-table-density"};
  return S;
}

/// nvcc flags without a value that are dropped.
const llvm::StringSet<> &droppedAlone() {
  static const llvm::StringSet<> S = {
      "--list-gpu-arch", "-lto", "--optimize", "-Wno-deprecated-gpu-targets",
      "--Wno-deprecated-gpu-targets", "--generate-dependencies-with-compile",
      "-ptx", "-cubin", "-fatbin", "-extensible-whole-program", "-ewp",
      "--time", "-res-usage", "--resource-usage", "-lineinfo",
      "--generate-line-info", "-G", "--device-debug", "-keep", "--keep",
      "-dlto", "--dlink-time-opt", "-dlink", "--device-link", "-dw",
      "--device-w", "-expt-relaxed-constexpr", "--expt-relaxed-constexpr",
      "-expt-extended-lambda", "--expt-extended-lambda", "-extended-lambda",
      "--extended-lambda", "--use-local-env", "-use-local-env",
      "--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler",
      "--forward-unknown-to-host-linker", "--display-error-number",
      "--no-display-error-number", "-err-no", "--keep-device-functions",
      "-keep-device-functions", "--no-host-device-move-forward",
      "--no-host-device-initializer-list", "-nohdinitlist",
      "--allow-unsupported-compiler", "-allow-unsupported-compiler",
      "--source-in-ptx", "-src-in-ptx", "--restrict", "-restrict",
      "--Wreorder", "-Wreorder", "--Wext-lambda-captures-this",
      "--Wno-deprecated-declarations", "-Wno-deprecated-declarations",
      "--disable-warnings"};
  return S;
}

/// nvcc flags translated below that take a value.
const llvm::StringSet<> &translatedWithValue() {
  static const llvm::StringSet<> S = {
      "-arch", "--gpu-architecture", "-gencode", "--generate-code",
      "-Xcompiler", "--compiler-options", "--default-stream",
      "-default-stream", "-rdc", "--relocatable-device-code", "-x", "--x",
      "--std", "-std", "--include-path", "--define-macro", "--undefine-macro",
      "--pre-include", "--system-include", "--options-file", "-optf"};
  return S;
}
// clang-format on

bool takesValue(StringRef Flag) {
  return droppedWithValue().contains(Flag) ||
         translatedWithValue().contains(Flag);
}

/// Splits `-flag=value` into its parts; a flag without '=' has no value.
std::pair<StringRef, std::optional<StringRef>> splitFlag(StringRef A) {
  if (!A.starts_with("-"))
    return {A, std::nullopt};
  size_t Eq = A.find('=');
  if (Eq == StringRef::npos)
    return {A, std::nullopt};
  return {A.substr(0, Eq), A.substr(Eq + 1)};
}

/// The sm_XX named by an nvcc architecture value (sm_90, compute_90,
/// sm_90a, arch=compute_90,code=sm_90, lto_90), or nullopt for virtual
/// spellings like native and all.
std::optional<std::string> archFromValue(StringRef V) {
  // -gencode arch=compute_90,code=[sm_90,compute_90]
  if (V.contains("code=")) {
    StringRef Code = V.substr(V.find("code=") + 5);
    Code = Code.trim("[]\"'");
    Code = Code.split(',').first.trim("[]\"'");
    return archFromValue(Code);
  }
  V = V.split(',').first;
  for (StringRef Prefix : {"sm_", "compute_", "lto_"})
    if (V.consume_front(Prefix)) {
      unsigned N;
      StringRef Digits = V.take_while([](char C) { return isdigit(C); });
      if (Digits.empty() || Digits.getAsInteger(10, N))
        return std::nullopt;
      StringRef Suffix = V.drop_front(Digits.size());
      return "sm_" + Digits.str() + (Suffix == "a" ? "a" : "");
    }
  return std::nullopt;
}

bool isNvcc(StringRef Argv0) {
  StringRef Name = llvm::sys::path::filename(Argv0);
  return Name == "nvcc" || Name == "nvcc.exe";
}

/// Removes the arguments that Clang's driver does not know.
void dropUnknown(AdjustedCommand &C) {
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Argv;
  for (size_t I = 1; I < C.Args.size(); ++I)
    Argv.push_back(C.Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed =
      Table.ParseArgs(Argv, MissingIndex, MissingCount,
                      llvm::opt::Visibility(clang::options::ClangOption));
  std::set<unsigned> Unknown;
  for (const llvm::opt::Arg *A : Parsed.filtered(clang::options::OPT_UNKNOWN))
    Unknown.insert(A->getIndex());
  if (Unknown.empty())
    return;
  std::vector<std::string> Kept = {C.Args[0]};
  for (size_t I = 1; I < C.Args.size(); ++I) {
    if (Unknown.count(I - 1))
      C.Dropped.push_back(C.Args[I]);
    else
      Kept.push_back(C.Args[I]);
  }
  C.Args = std::move(Kept);
}

} // namespace

AdjustedCommand autoprof::adjustCudaCommand(const std::vector<std::string> &In,
                                            const CudaSettings &Settings) {
  AdjustedCommand C;
  if (In.empty())
    return C;
  C.Args.push_back(isNvcc(In[0]) ? "clang++" : In[0]);
  std::optional<std::string> Arch;
  bool HasLanguage = false, HasCudaPath = false, HasArch = false;
  bool HasDeviceOnly = false, HasRdc = false, HasDeferDiag = false;
  auto Emit = [&C](const std::string &S) { C.Args.push_back(S); };
  // nvcc's spellings are understood in nvcc commands and in the arguments
  // given after `--` (the fixed database names its compiler "clang-tool").
  bool NvccSyntax =
      isNvcc(In[0]) || llvm::sys::path::filename(In[0]) == "clang-tool";
  // A command inferred for a CUDA header from a source file names the
  // header's language as C++ (Clang has no type for `.cuh`).
  bool CudaHeader = llvm::any_of(
      In, [](const std::string &A) { return StringRef(A).ends_with(".cuh"); });
  auto language = [CudaHeader](StringRef L) -> std::string {
    if (L == "cu" || (CudaHeader && (L == "c++-header" || L == "c++")))
      return "cuda";
    return L.str();
  };

  for (size_t I = 1; I < In.size(); ++I) {
    StringRef A = In[I];
    auto [Flag, Inline] = splitFlag(A);
    if (Flag == "--cuda-gpu-arch" || Flag == "--offload-arch") {
      if (HasArch)
        continue; // One device compilation gives one AST per kernel.
      HasArch = true;
      Emit(A.str());
      continue;
    }
    if (Flag == "--cuda-path")
      HasCudaPath = true;
    if (A == "--cuda-device-only")
      HasDeviceOnly = true;
    if (A == "-fgpu-defer-diag" || A == "-fno-gpu-defer-diag")
      HasDeferDiag = true;
    if (A == "--cuda-host-only" || A == "--cuda-compile-host-device")
      continue; // The analysis needs the device-side AST.
    if (!NvccSyntax) {
      if (A == "-x" && I + 1 < In.size()) {
        HasLanguage = true;
        Emit("-x");
        Emit(language(In[++I]));
        continue;
      }
      if (A.starts_with("-x") && A.size() > 2) {
        HasLanguage = true;
        Emit("-x" + language(A.drop_front(2)));
        continue;
      }
      Emit(A.str());
      continue;
    }
    // The value of a flag written as `-flag value`.
    auto Value = [&]() -> std::optional<std::string> {
      if (Inline)
        return Inline->str();
      if (takesValue(Flag) && I + 1 < In.size())
        return In[++I];
      return std::nullopt;
    };

    if (Flag == "-arch" || Flag == "--gpu-architecture" || Flag == "-gencode" ||
        Flag == "--generate-code") {
      std::optional<std::string> V = Value();
      if (V && !Arch)
        Arch = archFromValue(*V);
      continue;
    }
    if (Flag == "-rdc" || Flag == "--relocatable-device-code") {
      std::optional<std::string> V = Value();
      if (V && (*V == "true" || *V == "1") && !HasRdc) {
        Emit("-fgpu-rdc");
        HasRdc = true;
      }
      continue;
    }
    if (A == "-dc" || A == "--device-c") {
      Emit("-c");
      if (!HasRdc)
        Emit("-fgpu-rdc");
      HasRdc = true;
      continue;
    }
    if (A == "--use_fast_math" || A == "-use_fast_math" ||
        A == "--use-fast-math") {
      Emit("-ffast-math");
      Emit("-fgpu-approx-transcendentals");
      continue;
    }
    if (Flag == "-Xcompiler" || Flag == "--compiler-options") {
      if (std::optional<std::string> V = Value()) {
        llvm::SmallVector<StringRef, 4> Parts;
        StringRef(*V).split(Parts, ',', -1, /*KeepEmpty=*/false);
        for (StringRef P : Parts)
          Emit(P.trim().str());
      }
      continue;
    }
    if (Flag == "--default-stream" || Flag == "-default-stream") {
      if (std::optional<std::string> V = Value())
        Emit("-fgpu-default-stream=" + *V);
      continue;
    }
    if (Flag == "-x" || Flag == "--x") {
      std::optional<std::string> V = Value();
      HasLanguage = true;
      Emit("-x");
      Emit(V && *V == "cu" ? "cuda" : V.value_or("cuda"));
      continue;
    }
    if (A.starts_with("-x") && A.size() > 2 && Flag == A) {
      HasLanguage = true;
      StringRef L = A.drop_front(2);
      Emit("-x");
      Emit(L == "cu" ? "cuda" : L.str());
      continue;
    }
    if (Flag == "--std" || (Flag == "-std" && !Inline)) {
      if (std::optional<std::string> V = Value())
        Emit("-std=" + *V);
      continue;
    }
    if (Flag == "--options-file" || Flag == "-optf") {
      if (std::optional<std::string> V = Value())
        Emit("@" + *V);
      continue;
    }
    struct LongForm {
      StringRef Nvcc, Clang;
    };
    static const LongForm Long[] = {{"--include-path", "-I"},
                                    {"--define-macro", "-D"},
                                    {"--undefine-macro", "-U"},
                                    {"--pre-include", "-include"},
                                    {"--system-include", "-isystem"}};
    bool Translated = false;
    for (const LongForm &L : Long)
      if (Flag == L.Nvcc) {
        if (std::optional<std::string> V = Value()) {
          if (L.Clang.size() == 2) {
            Emit(L.Clang.str() + *V);
          } else {
            Emit(L.Clang.str());
            Emit(*V);
          }
        }
        Translated = true;
      }
    if (Translated)
      continue;
    if (droppedWithValue().contains(Flag)) {
      if (!Inline && I + 1 < In.size())
        ++I;
      continue;
    }
    if (droppedAlone().contains(A))
      continue;
    Emit(A.str());
  }

  // Flags that must come before the input file are inserted after argv[0].
  std::vector<std::string> Front;
  std::string CudaPath = Settings.CudaPath;
  for (const std::string &A : C.Args)
    if (StringRef(A).starts_with("--cuda-path="))
      CudaPath = A.substr(strlen("--cuda-path="));
  if (!HasLanguage) {
    Front.push_back("-x");
    Front.push_back("cuda");
  }
  if (!HasCudaPath)
    Front.push_back("--cuda-path=" + Settings.CudaPath);
  if (!HasArch)
    Front.push_back("--cuda-gpu-arch=" + Arch.value_or(Settings.GpuArch));
  if (!HasDeviceOnly)
    Front.push_back("--cuda-device-only");
  // Host code the device compilation never emits is not checked for what
  // only a host/device mix-up makes wrong (a host function calling a
  // device-only overload of max()), as nvcc, which compiles it for the
  // host, does not reject it either.
  if (!HasDeferDiag)
    Front.push_back("-fgpu-defer-diag");
  Front.push_back("-Wno-unknown-cuda-version");
  if (CudaHeader)
    Front.push_back("-Wno-pragma-once-outside-header");
  // CUDA 13 keeps libcu++ (needed by cooperative_groups.h) in include/cccl,
  // which nvcc searches and Clang's driver does not.
  llvm::SmallString<256> Cccl(CudaPath);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (!CudaPath.empty() && llvm::sys::fs::is_directory(Cccl)) {
    Front.push_back("-isystem");
    Front.push_back(std::string(Cccl));
  }
  C.Args.insert(C.Args.begin() + 1, Front.begin(), Front.end());
  dropUnknown(C);
  return C;
}

clang::tooling::ArgumentsAdjuster autoprof::getCudaArgumentsAdjuster(
    CudaSettings Settings, std::function<void(const std::string &)> Warn) {
  auto Reported = std::make_shared<std::set<std::string>>();
  auto Lock = std::make_shared<std::mutex>();
  return [Settings, Warn, Reported,
          Lock](const clang::tooling::CommandLineArguments &Args,
                llvm::StringRef) {
    AdjustedCommand C = adjustCudaCommand(Args, Settings);
    if (Warn) {
      std::lock_guard<std::mutex> G(*Lock);
      for (const std::string &D : C.Dropped)
        if (Reported->insert(D).second)
          Warn(D);
    }
    return C.Args;
  };
}

std::string autoprof::defaultCudaPath() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> V = llvm::sys::Process::GetEnv(Var))
      if (!V->empty())
        return *V;
#ifdef AUTOPROF_BUILD_CUDA_PATH
  if (llvm::sys::fs::is_directory(AUTOPROF_BUILD_CUDA_PATH))
    return AUTOPROF_BUILD_CUDA_PATH;
#endif
  return "/usr/local/cuda";
}
