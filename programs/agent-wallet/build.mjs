// Builds the program: clang (BPF target) compiles src/agent_wallet.c to a relocatable object, then
// tools/link.mjs writes the SBPF v3 program target/agent_wallet.so. Prints the clang version and
// the .so's SHA-256, which docs/PROGRAM.md records. Fails, naming the install, when clang is
// missing: never a silent skip.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const target = join(root, 'target');
const clang = process.env.CLANG ?? 'clang';
const CLANG_INSTALL = 'apt-get install -y clang llvm';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error?.code === 'ENOENT') {
    console.error(`build failed: '${command}' was not found. Install clang with its BPF target: ${CLANG_INSTALL}`);
    process.exit(1);
  }
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`build failed: ${command} ${args.join(' ')} exited with ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

const version = spawnSync(clang, ['--print-targets'], { encoding: 'utf8' });
if (version.error?.code === 'ENOENT') {
  console.error(`build failed: clang is not installed. Install it with: ${CLANG_INSTALL}`);
  process.exit(1);
}
if (!/\bbpfel\b/.test(version.stdout ?? '')) {
  console.error(`build failed: this clang has no BPF target. Install Debian's clang with: ${CLANG_INSTALL}`);
  process.exit(1);
}

mkdirSync(target, { recursive: true });
run(clang, [
  '-target', 'bpfel', '-mcpu=v2', '-O2', '-fno-builtin', '-ffreestanding', '-fPIC',
  '-std=c11', '-Wall', '-Wextra', '-Werror',
  '-c', 'src/agent_wallet.c', '-o', 'target/agent_wallet.o',
]);
run(process.execPath, ['tools/link.mjs', 'target/agent_wallet.o', 'target/agent_wallet.so']);

const clangVersion = spawnSync(clang, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
const sha256 = createHash('sha256').update(readFileSync(join(target, 'agent_wallet.so'))).digest('hex');
console.log(`compiler: ${clangVersion}`);
console.log(`sha256 target/agent_wallet.so: ${sha256}`);
