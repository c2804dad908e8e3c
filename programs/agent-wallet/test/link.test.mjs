// The shape of target/agent_wallet.so that the SBPF v3 loader checks (SIMD-0189, SIMD-0178), read
// from the file itself; that the loader takes it is shown by the other tests, which run it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PROGRAM_SO } from './harness.mjs';

const elf = readFileSync(PROGRAM_SO);
const MM_PROGRAM_START = 0x100000000n;
/** Published murmur3-32 keys of the syscalls the program uses (solana-sbpf / agave syscall ids). */
const SYSCALL_KEYS = new Map([
  [0x207559bd, 'sol_log_'], [0x717cc4a3, 'sol_memcpy_'], [0x3770fb22, 'sol_memset_'],
  [0xd56b5fe9, 'sol_get_clock_sysvar'], [0x48504a38, 'sol_try_find_program_address'],
  [0x9377323c, 'sol_create_program_address'], [0xa22b9c85, 'sol_invoke_signed_c'], [0xbf7188f6, 'sol_get_rent_sysvar'],
]);

function programHeader(i) {
  const o = 64 + i * 56;
  return {
    type: elf.readUInt32LE(o), flags: elf.readUInt32LE(o + 4), offset: Number(elf.readBigUInt64LE(o + 8)),
    vaddr: elf.readBigUInt64LE(o + 16), paddr: elf.readBigUInt64LE(o + 24), filesz: Number(elf.readBigUInt64LE(o + 32)),
    memsz: Number(elf.readBigUInt64LE(o + 40)),
  };
}

const [rodata, code] = [programHeader(0), programHeader(1)];
const instructions = [];
for (let at = code.offset; at < code.offset + code.filesz; at += 8) instructions.push(elf.subarray(at, at + 8));

test('ELF header: SBPF v3, EM_BPF, program headers right after it', () => {
  assert.equal(elf.readUInt32BE(0), 0x7f454c46);
  assert.deepEqual([elf[4], elf[5], elf[6], elf[7]], [2, 1, 1, 0]); // ELF64, little-endian, current, SysV ABI
  assert.equal(elf.readUInt16LE(16), 3); // ET_DYN
  assert.equal(elf.readUInt16LE(18), 247); // EM_BPF
  assert.equal(elf.readUInt32LE(48), 3); // e_flags: SBPF v3
  assert.equal(elf.readBigUInt64LE(32), 64n); // e_phoff
  assert.equal(elf.readUInt16LE(52), 64); // e_ehsize
  assert.equal(elf.readUInt16LE(54), 56); // e_phentsize
  assert.equal(elf.readUInt16LE(56), 2); // e_phnum
  const entry = elf.readBigUInt64LE(24);
  assert.ok(entry >= MM_PROGRAM_START && entry < MM_PROGRAM_START + BigInt(code.filesz) && entry % 8n === 0n);
});

test('two PT_LOAD segments: read-only data at 0 starting with zero bytes, then code at 1 << 32', () => {
  assert.deepEqual([rodata.type, rodata.flags, rodata.vaddr, rodata.paddr], [1, 4, 0n, 0n]);
  assert.deepEqual([code.type, code.flags, code.vaddr, code.paddr], [1, 1, MM_PROGRAM_START, MM_PROGRAM_START]);
  assert.equal(rodata.offset, 64 + 2 * 56);
  assert.equal(code.offset, rodata.offset + rodata.filesz);
  for (const segment of [rodata, code]) {
    assert.equal(segment.filesz, segment.memsz);
    assert.equal(segment.offset % 8, 0);
    assert.equal(segment.filesz % 8, 0);
  }
  assert.ok(elf.subarray(rodata.offset, rodata.offset + 8).equals(Buffer.alloc(8)));
});

test('no dynamic section, symbols or relocations are left in the file', () => {
  const shoff = Number(elf.readBigUInt64LE(40));
  const types = [];
  for (let i = 0; i < elf.readUInt16LE(60); i++) types.push(elf.readUInt32LE(shoff + i * 64 + 4));
  for (const type of [2, 4, 6, 9, 11]) assert.ok(!types.includes(type), `section type ${type}`); // SYMTAB RELA DYNAMIC REL DYNSYM
  for (const name of ['entrypoint', 'sol_log_', '.dynsym']) assert.equal(elf.indexOf(name), -1, name);
});

test('calls: syscalls are src 0 with the murmur3 key of their name, internal calls src 1 to code', () => {
  const used = new Set();
  let internal = 0;
  instructions.forEach((insn, pc) => {
    if (insn[0] !== 0x85) return;
    const src = insn[1] >> 4;
    if (src === 0) {
      const key = insn.readUInt32LE(4);
      assert.ok(SYSCALL_KEYS.has(key), `call ${key.toString(16)} at ${pc} is no known syscall`);
      used.add(SYSCALL_KEYS.get(key));
    } else {
      assert.equal(src, 1, `call at ${pc}`);
      const target = pc + 1 + insn.readInt32LE(4);
      assert.ok(target >= 0 && target < instructions.length, `call at ${pc} lands outside the code`);
      internal++;
    }
  });
  assert.deepEqual([...used].sort(), [...SYSCALL_KEYS.values()].sort());
  assert.ok(internal > 0);
});

/** Offsets in .text of the lddw instructions clang left a data relocation (R_BPF_64_64) on. */
function dataLoadOffsets(object) {
  const shoff = Number(object.readBigUInt64LE(40));
  const section = (i) => {
    const o = shoff + i * 64;
    return {
      type: object.readUInt32LE(o + 4), flags: Number(object.readBigUInt64LE(o + 8)), offset: Number(object.readBigUInt64LE(o + 24)),
      size: Number(object.readBigUInt64LE(o + 32)), info: object.readUInt32LE(o + 44),
    };
  };
  const sections = Array.from({ length: object.readUInt16LE(60) }, (_, i) => section(i));
  const text = sections.findIndex((s) => s.flags & 4); // SHF_EXECINSTR
  const rel = sections.find((s) => s.type === 9 && s.info === text);
  const offsets = [];
  for (let o = rel.offset; o < rel.offset + rel.size; o += 16) {
    if (object.readUInt32LE(o + 8) === 1) offsets.push(Number(object.readBigUInt64LE(o)));
  }
  return offsets;
}

test('every lddw of a data address points into the read-only segment, past its zero bytes', () => {
  const offsets = dataLoadOffsets(readFileSync(PROGRAM_SO.replace(/\.so$/, '.o')));
  assert.ok(offsets.length > 0);
  for (const offset of offsets) {
    const insn = instructions[offset / 8];
    assert.equal(insn[0], 0x18, `lddw at .text+${offset}`);
    const address = (BigInt(instructions[offset / 8 + 1].readUInt32LE(4)) << 32n) | BigInt(insn.readUInt32LE(4));
    assert.ok(address >= 8n && address < BigInt(rodata.filesz), `lddw at .text+${offset} loads ${address.toString(16)}`);
  }
});
