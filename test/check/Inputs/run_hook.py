#!/usr/bin/env python3
"""Runs a hook of a pre-commit manifest the way pre-commit does, without
pre-commit: the hook's entry and args, then the staged files of the git
repository in the current directory that match its `files` pattern. Prints
the command's output and its exit status.

  run_hook.py <.pre-commit-hooks.yaml> <hook id> <tool>

The manifest is read with PyYAML when it is installed, else by a line scan
of the hook's `entry`, `args` and `files` keys. <tool> is the path of
clang-autoprof; its directory is put first on PATH.
"""
import os
import re
import shlex
import subprocess
import sys


def scan(text, hook_id):
    """The keys of hook `hook_id`, read line by line (flow lists only)."""
    hook, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^-\s+id:\s*(\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"^\s+(\w+):\s*(.*)$", line)
        if m and current == hook_id:
            key, value = m.group(1), m.group(2).strip()
            if value.startswith("["):
                hook[key] = [v.strip() for v in value.strip("[]").split(",") if v.strip()]
            else:
                hook[key] = value
    return hook if hook else None


def load(path, hook_id):
    text = open(path).read()
    try:
        import yaml
    except ImportError:
        return scan(text, hook_id)
    for hook in yaml.safe_load(text):
        if hook["id"] == hook_id:
            return hook
    return None


def main():
    manifest, hook_id, tool = sys.argv[1:4]
    hook = load(manifest, hook_id)
    if not hook:
        sys.exit("run_hook: no hook %s in %s" % (hook_id, manifest))
    staged = subprocess.run(["git", "diff", "--cached", "--name-only"],
                            capture_output=True, text=True, check=True).stdout.split()
    files = [f for f in staged if re.search(hook.get("files", ""), f)]
    cmd = shlex.split(hook["entry"]) + list(hook.get("args", [])) + files
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(tool)) + os.pathsep + env.get("PATH", "")
    print("run: " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(proc.stdout)
    print("exit: %d" % proc.returncode)


if __name__ == "__main__":
    main()
