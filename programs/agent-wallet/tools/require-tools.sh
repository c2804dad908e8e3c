#!/usr/bin/env sh
# Fails, naming the one-line install, when a tool the program's build and tests need is missing.
missing=0
if ! command -v clang >/dev/null 2>&1; then
  echo "agent-wallet program: clang is missing. Install it with: apt-get install -y clang llvm" >&2
  missing=1
elif ! clang --print-targets 2>/dev/null | grep -q bpfel; then
  echo "agent-wallet program: this clang has no BPF target. Install Debian's: apt-get install -y clang llvm" >&2
  missing=1
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "agent-wallet program: Node.js 20+ with npm is missing. Install it with: apt-get install -y nodejs npm (Node 20+, e.g. from nodejs.org or NodeSource on older distributions)" >&2
  missing=1
elif [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "agent-wallet program: Node.js $(node --version) is too old; litesvm needs Node 20 or later" >&2
  missing=1
fi
exit $missing
