//===- ChildProcess.cpp - Running the user's program ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"

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

using namespace autoprof::tool;

llvm::Expected<ChildResult> autoprof::tool::runChild(const ChildOptions &O) {
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
  if (O.Quiet) {
    posix_spawn_file_actions_addopen(&Actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&Actions, 2, "/dev/null", O_WRONLY, 0);
  }
  // While the child runs, Ctrl-C reaches it (same process group) and the
  // tool waits for it instead of dying, so what was collected is written.
  struct sigaction Ignore = {}, OldInt = {}, OldQuit = {};
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t Default;
  sigemptyset(&Default);
  sigaddset(&Default, SIGINT);
  sigaddset(&Default, SIGQUIT);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETSIGDEF);

  auto Start = std::chrono::steady_clock::now();
  pid_t Pid = 0;
  int Err = posix_spawn(&Pid, Program.c_str(), &Actions, &Attr, Argv.data(),
                        Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  if (Err != 0) {
    sigaction(SIGINT, &OldInt, nullptr);
    sigaction(SIGQUIT, &OldQuit, nullptr);
    return llvm::createStringError("cannot run '%s': %s", Program.c_str(),
                                   std::strerror(Err));
  }

  ChildResult R;
  int WaitStatus = 0;
  auto Deadline = Start + std::chrono::seconds(O.Timeout);
  while (true) {
    pid_t Done = waitpid(Pid, &WaitStatus, O.Timeout ? WNOHANG : 0);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR)
      break;
    if (O.Timeout && std::chrono::steady_clock::now() >= Deadline) {
      R.TimedOut = true;
      kill(Pid, SIGKILL);
      waitpid(Pid, &WaitStatus, 0);
      break;
    }
    if (O.Timeout)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  R.WallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
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
