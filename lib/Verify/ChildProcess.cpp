//===- ChildProcess.cpp - Running the user's program ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/ChildProcess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace autoprof::verify;

namespace {
volatile sig_atomic_t Interrupted = 0;
void noteInterrupt(int) { Interrupted = 1; }
} // namespace

llvm::Expected<ChildResult> autoprof::verify::runChild(const ChildOptions &O) {
  if (O.Argv.empty())
    return llvm::createStringError("no program to run");
  std::string Program = O.Argv.front();
  if (Program.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program);
    if (!Found)
      return llvm::createStringError("cannot run '%s': not found on PATH",
                                     Program.c_str());
    Program = *Found;
  } else if (!llvm::sys::fs::exists(Program)) {
    return llvm::createStringError("cannot run '%s': no such file",
                                   Program.c_str());
  } else if (!llvm::sys::fs::can_execute(Program)) {
    return llvm::createStringError("cannot run '%s': not executable",
                                   Program.c_str());
  }

  std::vector<std::string> EnvStrings;
  for (char **E = environ; *E; ++E) {
    std::string S(*E);
    std::string Key = S.substr(0, S.find('='));
    if (!O.Env.count(Key))
      EnvStrings.push_back(S);
  }
  for (const auto &[K, V] : O.Env)
    EnvStrings.push_back(K + "=" + V);
  std::vector<char *> Envp, Argv;
  for (std::string &S : EnvStrings)
    Envp.push_back(S.data());
  Envp.push_back(nullptr);
  std::vector<std::string> Args = O.Argv;
  for (std::string &S : Args)
    Argv.push_back(S.data());
  Argv.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  if (!O.OutputFile.empty()) {
    posix_spawn_file_actions_addopen(&Actions, 1, O.OutputFile.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  } else if (O.Quiet) {
    posix_spawn_file_actions_addopen(&Actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&Actions, 2, "/dev/null", O_WRONLY, 0);
  }
  // While the child runs, Ctrl-C reaches it (same process group) and the
  // tool waits for it instead of dying, so what was collected is written.
  // A child in a group of its own does not see the terminal's Ctrl-C: the
  // tool notes SIGINT and SIGTERM and kills the group.
  struct sigaction Ignore = {}, OldInt = {}, OldQuit = {}, OldTerm = {};
  Ignore.sa_handler = O.NewProcessGroup ? noteInterrupt : SIG_IGN;
  Interrupted = 0;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  if (O.NewProcessGroup)
    sigaction(SIGTERM, &Ignore, &OldTerm);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t Default;
  sigemptyset(&Default);
  sigaddset(&Default, SIGINT);
  sigaddset(&Default, SIGQUIT);
  sigaddset(&Default, SIGTERM);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  short Flags = POSIX_SPAWN_SETSIGDEF;
  if (O.NewProcessGroup) {
    Flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&Attr, 0);
  }
  posix_spawnattr_setflags(&Attr, Flags);

  auto Start = std::chrono::steady_clock::now();
  pid_t Pid = 0;
  int Err = posix_spawn(&Pid, Program.c_str(), &Actions, &Attr, Argv.data(),
                        Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  auto Restore = [&] {
    sigaction(SIGINT, &OldInt, nullptr);
    sigaction(SIGQUIT, &OldQuit, nullptr);
    if (O.NewProcessGroup)
      sigaction(SIGTERM, &OldTerm, nullptr);
  };
  if (Err != 0) {
    Restore();
    return llvm::createStringError("cannot run '%s': %s", Program.c_str(),
                                   std::strerror(Err));
  }

  ChildResult R;
  int WaitStatus = 0;
  auto Deadline = Start + std::chrono::seconds(O.Timeout);
  bool Poll = O.Timeout || O.NewProcessGroup;
  // The whole group of a child started in its own.
  pid_t Target = O.NewProcessGroup ? -Pid : Pid;
  while (true) {
    pid_t Done = waitpid(Pid, &WaitStatus, Poll ? WNOHANG : 0);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR)
      break;
    bool Late = O.Timeout && std::chrono::steady_clock::now() >= Deadline;
    if (Late || Interrupted) {
      R.TimedOut = Late && !Interrupted;
      R.Interrupted = Interrupted;
      kill(Target, SIGKILL);
      waitpid(Pid, &WaitStatus, 0);
      break;
    }
    if (Poll)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // What the child left running in its group.
  if (O.NewProcessGroup)
    kill(Target, SIGKILL);
  R.WallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  Restore();
  if (WIFEXITED(WaitStatus)) {
    R.Status = WEXITSTATUS(WaitStatus);
  } else if (WIFSIGNALED(WaitStatus)) {
    R.Signal = WTERMSIG(WaitStatus);
    R.Status = 128 + R.Signal;
  }
  if (R.TimedOut)
    R.Status = 124;
  return R;
}
