# -*- Python -*-
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "clang-autoprof"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.autoprof_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["clang-autoprof"], [config.autoprof_tools_dir])
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%src_root", config.autoprof_src_root))
config.substitutions.append(("%autoprof_bin", config.autoprof_tools_dir))
config.substitutions.append(("%obj_root", config.autoprof_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%ctest", os.path.join(os.path.dirname(config.cmake_command), "ctest")))
config.substitutions.append(
    ("%inject_lib", os.path.join(os.path.dirname(config.autoprof_tools_dir),
                                 "lib", "libautoprof-inject.so")))
# Runs a command with unittests/LLM/chat_server.py listening, its URL in
# AUTOPROF_LLM_BASE_URL.
config.substitutions.append(
    ("%with_chat_server", "%s %s" % (config.python_executable, os.path.join(
        config.autoprof_src_root, "test", "optimize", "Inputs", "llm",
        "with_chat_server.py"))))
# A rewritten copy of a test file still holds the test's own check
# comments, which its checks would match: `%no-checks <file>` prints the
# file without them.
config.substitutions.append(
    ("%no-checks",
     "sed -E '/^[[:space:]]*\\/\\/[[:space:]]*[A-Z0-9_]+(-[A-Z0-9]+)*:/d'"))
config.substitutions.append(("%nvcc", os.path.join(config.cuda_path, "bin", "nvcc")))

# The tests must not pick up a CUDA installation from the environment.
for var in ["CUDA_PATH", "CUDA_HOME", "AUTOPROF_LLM_API_KEY", "OPENAI_API_KEY",
            "AUTOPROF_LLM_BASE_URL", "AUTOPROF_LLM_MODEL"]:
    config.environment.pop(var, None)

# LLVM's clang-apply-replacements, where it is installed (it is not packed by
# utils/pack-tests.sh).
if os.path.exists(os.path.join(config.llvm_tools_dir, "clang-apply-replacements")):
    config.available_features.add("clang-apply-replacements")

# A CMake build tree, which `cmake --install` needs (the packed tools of
# utils/pack-tests.sh have none).
if os.path.exists(os.path.join(config.autoprof_obj_root, "cmake_install.cmake")):
    config.available_features.add("build-tree")

# pre-commit, and this checkout as a git repository its try-repo can use.
if shutil.which("pre-commit") and shutil.which("git") and os.path.exists(
        os.path.join(config.autoprof_src_root, ".git")):
    config.available_features.add("pre-commit")

# util-linux's script(1): a terminal for the tests of terminal output.
if shutil.which("script"):
    config.available_features.add("script")

if os.path.exists(os.path.join(config.cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")

# Tests that read the GPU's performance counters run one at a time.
lit_config.parallelism_groups["gpu-counters"] = 1

# GPU tests run only where a CUDA device answers.
smi = shutil.which("nvidia-smi")
if smi:
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and "GPU" in out.stdout:
            config.available_features.add("cuda-gpu")
    except (OSError, subprocess.TimeoutExpired):
        pass
