//===- RunSafely.cpp - Running Clang so that its crashes are recovered ----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/RunSafely.h"

#include "clang/Basic/Stack.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <csignal>
#include <memory>

using namespace autoprof;

namespace {

/// The size of the alternate stack the recovery handler runs on.
constexpr size_t AltStackSize = 1 << 16;

/// Lets the handlers of the crash signals run on the thread's alternate
/// stack: on the overflowed stack itself they cannot run at all.
void handleOnAlternateStack() {
  for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) {
    struct sigaction A;
    if (sigaction(Sig, nullptr, &A) == 0 && !(A.sa_flags & SA_ONSTACK)) {
      A.sa_flags |= SA_ONSTACK;
      sigaction(Sig, &A, nullptr);
    }
  }
}

} // namespace

bool autoprof::runSafely(llvm::function_ref<void()> Work) {
  llvm::CrashRecoveryContext::Enable();
  handleOnAlternateStack();
  // Owned here: after a crash the thread's frames are abandoned.
  std::unique_ptr<char[]> AltStack(new char[AltStackSize]);
  llvm::CrashRecoveryContext CRC;
  return CRC.RunSafelyOnThread(
      [&] {
        stack_t SS;
        SS.ss_sp = AltStack.get();
        SS.ss_size = AltStackSize;
        SS.ss_flags = 0;
        sigaltstack(&SS, nullptr);
        clang::noteBottomOfStack();
        Work();
        stack_t Off;
        Off.ss_sp = nullptr;
        Off.ss_size = 0;
        Off.ss_flags = SS_DISABLE;
        sigaltstack(&Off, nullptr);
      },
      clang::DesiredStackSize);
}
