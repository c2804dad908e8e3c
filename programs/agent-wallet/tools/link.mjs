// Links clang's relocatable BPF object (-mcpu=v2) into the ELF the Solana loader runs.
//
// Usage: node tools/link.mjs [--sbpf-v0] <input.o> <output.so>
//
// SBPF v3 (the default; SIMD-0189 layout, SIMD-0178 static syscalls), what new deployments need
// once SIMD-0500 stops v0 to v2 deployments:
//   ELF header | 2 program headers | read-only data (vaddr 0) | code (vaddr 1<<32) | .shstrtab
//   | section headers
// Data references (lddw) resolve here to addresses in the read-only segment, which starts with
// zero bytes so that no object sits at address 0; calls between the program's own functions become
// pc-relative `call` (src 1); syscalls become `call` src 0 with imm = murmur3_32 of their name. The
// file has no dynamic section, symbols or relocations. Section headers are written only so that
// readelf and objdump can show the file; the loader ignores them.
//
// --sbpf-v0 writes the legacy v0 shared object (sections at their file offsets, syscalls as
// `call -1` with R_BPF_64_32 dynamic relocations). It is kept only for the test that shows a v0
// build of the same object refused when SIMD-0500 is active.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const MM_PROGRAM_START = 0x100000000n;
const SHT = { NULL: 0, PROGBITS: 1, SYMTAB: 2, STRTAB: 3, RELA: 4, DYNAMIC: 6, NOBITS: 8, REL: 9, DYNSYM: 11 };
const SHF = { WRITE: 1, ALLOC: 2, EXEC: 4 };
const R_BPF = { NONE: 0, R64_64: 1, R64_32: 10 };
const DT = { NULL: 0, STRTAB: 5, SYMTAB: 6, STRSZ: 10, SYMENT: 11, REL: 17, RELSZ: 18, RELENT: 19, FLAGS: 30 };
const DF_TEXTREL = 4;
const PT = { LOAD: 1, DYNAMIC: 2 };
const PF = { X: 1, W: 2, R: 4 };
const EM_BPF = 247;
const ET_DYN = 3;
const E_FLAGS = { v0: 0, v3: 3 };
const EHDR = 64;
const PHDR = 56;
const SHDR = 64;
const LDDW = 0x18;
const CALL = 0x85;
const SRC_INTERNAL_CALL = 1;
/** Zero bytes first in v3's read-only segment: a null pointer then points at no object. */
const RODATA_GUARD = 8;

class LinkError extends Error {}

function fail(message) {
  throw new LinkError(message);
}

function cString(bytes, offset) {
  let end = offset;
  while (bytes[end] !== 0) end++;
  return bytes.subarray(offset, end).toString('latin1');
}

function align(value, to) {
  return Math.ceil(value / to) * to;
}

/** MurmurHash3 x86 32-bit, seed 0: the key by which the runtime knows a syscall. */
function murmur3(text) {
  const data = Buffer.from(text, 'latin1');
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const scramble = (k) => Math.imul(((Math.imul(k, c1) << 15) | (Math.imul(k, c1) >>> 17)), c2);
  let h = 0;
  const blocks = data.length >> 2;
  for (let i = 0; i < blocks; i++) {
    h ^= scramble(data.readUInt32LE(i * 4));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let tail = 0;
  for (let i = data.length - 1; i >= blocks * 4; i--) tail = (tail << 8) | data[i];
  if (data.length & 3) h ^= scramble(tail);
  h ^= data.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Reads the sections, symbols and relocations of a relocatable ELF64 little-endian BPF object. */
function readObject(buf) {
  if (buf.readUInt32BE(0) !== 0x7f454c46) fail('input is not an ELF file');
  if (buf[4] !== 2 || buf[5] !== 1) fail('input is not ELF64 little-endian');
  if (buf.readUInt16LE(16) !== 1) fail('input is not a relocatable object (ET_REL)');
  if (buf.readUInt16LE(18) !== EM_BPF) fail('input is not a BPF object (e_machine != 247)');
  const shoff = Number(buf.readBigUInt64LE(40));
  const shentsize = buf.readUInt16LE(58);
  const shnum = buf.readUInt16LE(60);
  const shstrndx = buf.readUInt16LE(62);
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    sections.push({
      index: i,
      nameOffset: buf.readUInt32LE(o),
      type: buf.readUInt32LE(o + 4),
      flags: Number(buf.readBigUInt64LE(o + 8)),
      offset: Number(buf.readBigUInt64LE(o + 24)),
      size: Number(buf.readBigUInt64LE(o + 32)),
      link: buf.readUInt32LE(o + 40),
      info: buf.readUInt32LE(o + 44),
      addralign: Number(buf.readBigUInt64LE(o + 48)),
    });
  }
  const shstr = sections[shstrndx];
  for (const s of sections) {
    s.name = cString(buf, shstr.offset + s.nameOffset);
    s.data = s.type === SHT.NOBITS ? Buffer.alloc(s.size) : buf.subarray(s.offset, s.offset + s.size);
  }
  const symtab = sections.find((s) => s.type === SHT.SYMTAB);
  if (!symtab) fail('input has no symbol table');
  const strtab = sections[symtab.link];
  const symbols = [];
  for (let o = 0; o < symtab.size; o += 24) {
    const base = symtab.offset + o;
    symbols.push({
      name: cString(buf, strtab.offset + buf.readUInt32LE(base)),
      shndx: buf.readUInt16LE(base + 6),
      value: Number(buf.readBigUInt64LE(base + 8)),
    });
  }
  return { sections, symbols };
}

/**
 * What the object links from: its one .text, its .rodata* sections, the relocations of .text and
 * the entrypoint's offset in .text. Refuses what the target cannot run (writable data, pointers in
 * read-only data).
 */
function parts(input) {
  const { sections, symbols } = readObject(input);
  const allocated = sections.filter((s) => s.flags & SHF.ALLOC && s.size > 0);
  const writable = allocated.filter((s) => s.flags & SHF.WRITE);
  if (writable.length > 0) {
    fail(`writable sections are not supported by the target (no globals that change): ${writable.map((s) => s.name).join(', ')}`);
  }
  const texts = allocated.filter((s) => s.flags & SHF.EXEC);
  if (texts.length !== 1 || texts[0].name !== '.text') {
    fail(`exactly one executable section named .text is needed, found: ${texts.map((s) => s.name).join(', ') || 'none'}`);
  }
  const text = texts[0];
  const rodatas = allocated.filter((s) => !(s.flags & SHF.EXEC));
  for (const s of rodatas) {
    if (!s.name.startsWith('.rodata')) fail(`unsupported allocated section ${s.name}`);
  }
  for (const rel of sections.filter((s) => s.type === SHT.REL || s.type === SHT.RELA)) {
    if (sections[rel.info] !== text) fail(`relocations against ${sections[rel.info].name} are not supported (pointers in read-only data)`);
    if (rel.type === SHT.RELA) fail('RELA relocations are not supported');
  }
  const relText = sections.find((s) => s.type === SHT.REL && sections[s.info] === text);
  const relocations = [];
  for (let i = 0; relText && i < relText.size / 16; i++) {
    const info = relText.data.readBigUInt64LE(i * 16 + 8);
    relocations.push({
      offset: Number(relText.data.readBigUInt64LE(i * 16)),
      type: Number(info & 0xffffffffn),
      symbol: symbols[Number(info >> 32n)],
    });
  }
  const entry = symbols.find((s) => s.name === 'entrypoint' && s.shndx === text.index);
  if (!entry) fail('no function named entrypoint in .text');
  return { text, rodatas, relocations, entry: entry.value };
}

/** The .rodata* sections packed from `start` (an offset in the bytes returned): bytes and each section's offset. */
function packRodata(rodatas, start) {
  const at = new Map();
  let cursor = start;
  for (const s of rodatas) {
    cursor = align(cursor, Math.max(1, s.addralign));
    at.set(s.index, cursor);
    cursor += s.size;
  }
  const bytes = Buffer.alloc(align(cursor, 8));
  for (const s of rodatas) s.data.copy(bytes, at.get(s.index));
  return { bytes, at };
}

/**
 * A copy of .text with its relocations applied: `dataAddress(section index, offset)` gives the VM
 * address an lddw loads; `syscall(code, offset, name)` writes a call to an undefined symbol.
 * Returns the code and the syscalls' names, in order of first use.
 */
function relocate({ text, relocations }, dataAddress, syscall) {
  const code = Buffer.from(text.data);
  const syscalls = [];
  for (const { offset, type, symbol } of relocations) {
    const opcode = code[offset];
    if (type === R_BPF.R64_64) {
      if (opcode !== LDDW) fail(`R_BPF_64_64 at .text+${offset} is not on an lddw instruction`);
      if (symbol.shndx === text.index) fail(`lddw of ${symbol.name}, an address in .text (function pointers are not supported)`);
      const address = dataAddress(symbol.shndx, symbol.value + code.readInt32LE(offset + 4));
      if (address === undefined) fail(`symbol ${symbol.name || '(section)'} is in a section that is not linked`);
      code.writeUInt32LE(Number(address & 0xffffffffn), offset + 4);
      code.writeUInt32LE(Number(address >> 32n), offset + 12);
    } else if (type === R_BPF.R64_32) {
      if (opcode !== CALL) fail(`R_BPF_64_32 at .text+${offset} is not on a call instruction`);
      if (symbol.shndx === 0) {
        if (!syscalls.includes(symbol.name)) syscalls.push(symbol.name);
        syscall(code, offset, symbol.name);
      } else {
        if (symbol.shndx !== text.index) fail(`call to ${symbol.name}, which is not in .text`);
        code[offset + 1] = (code[offset + 1] & 0x0f) | (SRC_INTERNAL_CALL << 4);
        code.writeInt32LE(symbol.value / 8 - offset / 8 - 1, offset + 4);
      }
    } else if (type !== R_BPF.NONE) {
      fail(`unsupported relocation type ${type} against ${symbol.name} at .text+${offset}`);
    }
  }
  return { code, syscalls };
}

/** A string table of `names` (the first is ''): its bytes and each name's offset. */
function stringTable(names) {
  const offsets = [];
  let size = 0;
  for (const name of names) {
    offsets.push(size);
    size += Buffer.byteLength(name, 'latin1') + 1;
  }
  const bytes = Buffer.alloc(size);
  names.forEach((name, i) => bytes.write(name, offsets[i], 'latin1'));
  return { bytes, offsets };
}

/** Writes the ELF header; program headers follow it at EHDR. */
function writeElfHeader(out, { flags, entry, phnum, shoff, shnum }) {
  out.writeUInt32BE(0x7f454c46, 0);
  out[4] = 2; // ELFCLASS64
  out[5] = 1; // little-endian
  out[6] = 1; // EV_CURRENT
  out.writeUInt16LE(ET_DYN, 16);
  out.writeUInt16LE(EM_BPF, 18);
  out.writeUInt32LE(1, 20);
  out.writeBigUInt64LE(BigInt(entry), 24);
  out.writeBigUInt64LE(BigInt(EHDR), 32);
  out.writeBigUInt64LE(BigInt(shoff), 40);
  out.writeUInt32LE(flags, 48);
  out.writeUInt16LE(EHDR, 52);
  out.writeUInt16LE(PHDR, 54);
  out.writeUInt16LE(phnum, 56);
  out.writeUInt16LE(SHDR, 58);
  out.writeUInt16LE(shnum, 60);
  out.writeUInt16LE(shnum - 1, 62); // .shstrtab is the last section
}

function writeProgramHeader(out, i, { type, flags, offset, vaddr, size }) {
  const o = EHDR + i * PHDR;
  out.writeUInt32LE(type, o);
  out.writeUInt32LE(flags, o + 4);
  out.writeBigUInt64LE(BigInt(offset), o + 8);
  out.writeBigUInt64LE(BigInt(vaddr), o + 16);
  out.writeBigUInt64LE(BigInt(vaddr), o + 24);
  out.writeBigUInt64LE(BigInt(size), o + 32);
  out.writeBigUInt64LE(BigInt(size), o + 40);
  out.writeBigUInt64LE(8n, o + 48);
}

function writeSectionHeader(out, shoff, i, { name, type, flags = 0, addr = 0n, offset, size, link = 0, info = 0, addralign = 1, entsize = 0 }) {
  const o = shoff + i * SHDR;
  out.writeUInt32LE(name, o);
  out.writeUInt32LE(type, o + 4);
  out.writeBigUInt64LE(BigInt(flags), o + 8);
  out.writeBigUInt64LE(BigInt(addr), o + 16);
  out.writeBigUInt64LE(BigInt(offset), o + 24);
  out.writeBigUInt64LE(BigInt(size), o + 32);
  out.writeUInt32LE(link, o + 40);
  out.writeUInt32LE(info, o + 44);
  out.writeBigUInt64LE(BigInt(addralign), o + 48);
  out.writeBigUInt64LE(BigInt(entsize), o + 56);
}

/** SBPF v3: read-only data at vaddr 0, code at MM_PROGRAM_START, both right after the headers. */
function linkV3(object) {
  const phnum = 2;
  const rodataOffset = EHDR + phnum * PHDR;
  const rodata = packRodata(object.rodatas, RODATA_GUARD);
  const textOffset = rodataOffset + rodata.bytes.length;
  const dataAddress = (section, offset) => {
    const at = rodata.at.get(section);
    return at === undefined ? undefined : BigInt(at + offset);
  };
  const { code, syscalls } = relocate(object, dataAddress, (bytes, offset, name) => {
    bytes[offset + 1] = 0; // src 0: a syscall, known by the hash in imm
    bytes.writeUInt32LE(murmur3(name), offset + 4);
  });

  const shstr = stringTable(['', '.rodata', '.text', '.shstrtab']);
  const shstrtabOffset = textOffset + code.length;
  const shoff = align(shstrtabOffset + shstr.bytes.length, 8);
  const shnum = 4;
  const out = Buffer.alloc(shoff + shnum * SHDR);
  writeElfHeader(out, { flags: E_FLAGS.v3, entry: MM_PROGRAM_START + BigInt(object.entry), phnum, shoff, shnum });
  writeProgramHeader(out, 0, { type: PT.LOAD, flags: PF.R, offset: rodataOffset, vaddr: 0n, size: rodata.bytes.length });
  writeProgramHeader(out, 1, { type: PT.LOAD, flags: PF.X, offset: textOffset, vaddr: MM_PROGRAM_START, size: code.length });
  rodata.bytes.copy(out, rodataOffset);
  code.copy(out, textOffset);
  shstr.bytes.copy(out, shstrtabOffset);
  writeSectionHeader(out, shoff, 0, { name: 0, type: SHT.NULL, offset: 0, size: 0, addralign: 0 });
  writeSectionHeader(out, shoff, 1, {
    name: shstr.offsets[1], type: SHT.PROGBITS, flags: SHF.ALLOC, offset: rodataOffset, size: rodata.bytes.length, addralign: 8,
  });
  writeSectionHeader(out, shoff, 2, {
    name: shstr.offsets[2], type: SHT.PROGBITS, flags: SHF.ALLOC | SHF.EXEC, addr: MM_PROGRAM_START, offset: textOffset,
    size: code.length, addralign: 8,
  });
  writeSectionHeader(out, shoff, 3, { name: shstr.offsets[3], type: SHT.STRTAB, offset: shstrtabOffset, size: shstr.bytes.length });
  return { bytes: out, syscalls, textSize: code.length, rodataSize: rodata.bytes.length };
}

/**
 * SBPF v0: an ELF shared object whose allocated sections sit at addresses equal to their file
 * offsets: .text, .rodata, then .dynamic, .dynsym, .dynstr and .rel.dyn for the syscalls.
 */
function linkV0(object) {
  const phnum = 4;
  const textOffset = align(EHDR + phnum * PHDR, 8);
  const rodataOffset = align(textOffset + object.text.size, 8);
  const rodata = packRodata(object.rodatas, 0);
  const rodataSize = object.rodatas.length === 0 ? 0
    : Math.max(...object.rodatas.map((s) => rodata.at.get(s.index) + s.size));
  const dataAddress = (section, offset) => {
    const at = rodata.at.get(section);
    return at === undefined ? undefined : MM_PROGRAM_START + BigInt(rodataOffset + at + offset);
  };
  const calls = [];
  const { code, syscalls } = relocate(object, dataAddress, (bytes, offset, name) => {
    bytes.writeInt32LE(-1, offset + 4);
    calls.push({ offset: textOffset + offset, name });
  });
  const entryAddress = textOffset + object.entry;

  // Dynamic symbols: the syscalls (index 1..n, undefined), then entrypoint.
  const dynstr = stringTable(['', ...syscalls, 'entrypoint']);
  const TEXT_SECTION_INDEX = 1;
  const dynsym = Buffer.alloc(24 * (syscalls.length + 2));
  syscalls.forEach((_, i) => {
    const o = 24 * (i + 1);
    dynsym.writeUInt32LE(dynstr.offsets[i + 1], o);
    dynsym[o + 4] = (1 << 4) | 0; // STB_GLOBAL, STT_NOTYPE
  });
  const entrySymbol = 24 * (syscalls.length + 1);
  dynsym.writeUInt32LE(dynstr.offsets[syscalls.length + 1], entrySymbol);
  dynsym[entrySymbol + 4] = (1 << 4) | 2; // STB_GLOBAL, STT_FUNC
  dynsym.writeUInt16LE(TEXT_SECTION_INDEX, entrySymbol + 6);
  dynsym.writeBigUInt64LE(BigInt(entryAddress), entrySymbol + 8);
  const relDyn = Buffer.alloc(16 * calls.length);
  calls.forEach((call, i) => {
    relDyn.writeBigUInt64LE(BigInt(call.offset), i * 16);
    relDyn.writeBigUInt64LE((BigInt(syscalls.indexOf(call.name) + 1) << 32n) | BigInt(R_BPF.R64_32), i * 16 + 8);
  });

  const dynamicOffset = align(rodataOffset + rodataSize, 8);
  const dynamicEntries = 8;
  const dynsymOffset = dynamicOffset + dynamicEntries * 16;
  const dynstrOffset = dynsymOffset + dynsym.length;
  const relDynOffset = align(dynstrOffset + dynstr.bytes.length, 8);
  const loadEnd = relDynOffset + relDyn.length;
  const dynamic = Buffer.alloc(dynamicEntries * 16);
  const dynTags = [
    [DT.SYMTAB, dynsymOffset], [DT.SYMENT, 24], [DT.STRTAB, dynstrOffset], [DT.STRSZ, dynstr.bytes.length],
    [DT.REL, relDynOffset], [DT.RELSZ, relDyn.length], [DT.RELENT, 16], [DT.FLAGS, DF_TEXTREL],
  ].filter(([tag]) => relDyn.length > 0 || (tag !== DT.REL && tag !== DT.RELSZ && tag !== DT.RELENT));
  dynTags.forEach(([tag, value], i) => {
    dynamic.writeBigUInt64LE(BigInt(tag), i * 16);
    dynamic.writeBigUInt64LE(BigInt(value), i * 16 + 8);
  });

  const shstr = stringTable(['', '.text', '.rodata', '.dynamic', '.dynsym', '.dynstr', '.rel.dyn', '.shstrtab']);
  const shstrtabOffset = loadEnd;
  const shoff = align(shstrtabOffset + shstr.bytes.length, 8);
  const shnum = 8;
  const out = Buffer.alloc(shoff + shnum * SHDR);
  writeElfHeader(out, { flags: E_FLAGS.v0, entry: entryAddress, phnum, shoff, shnum });
  const segment = (type, flags, offset, size) => ({ type, flags, offset, vaddr: offset, size });
  writeProgramHeader(out, 0, segment(PT.LOAD, PF.R | PF.X, textOffset, code.length));
  writeProgramHeader(out, 1, segment(PT.LOAD, PF.R, rodataOffset, rodataSize));
  writeProgramHeader(out, 2, segment(PT.LOAD, PF.R, dynamicOffset, loadEnd - dynamicOffset));
  writeProgramHeader(out, 3, segment(PT.DYNAMIC, PF.R, dynamicOffset, dynamic.length));

  code.copy(out, textOffset);
  rodata.bytes.copy(out, rodataOffset, 0, rodataSize);
  dynamic.copy(out, dynamicOffset);
  dynsym.copy(out, dynsymOffset);
  dynstr.bytes.copy(out, dynstrOffset);
  relDyn.copy(out, relDynOffset);
  shstr.bytes.copy(out, shstrtabOffset);

  const allocated = (i, type, offset, size, more = {}) => writeSectionHeader(out, shoff, i, {
    name: shstr.offsets[i], type, flags: SHF.ALLOC, addr: offset, offset, size, addralign: 8, ...more,
  });
  allocated(1, SHT.PROGBITS, textOffset, code.length, { flags: SHF.ALLOC | SHF.EXEC });
  allocated(2, SHT.PROGBITS, rodataOffset, rodataSize);
  allocated(3, SHT.DYNAMIC, dynamicOffset, dynamic.length, { link: 5, entsize: 16 });
  allocated(4, SHT.DYNSYM, dynsymOffset, dynsym.length, { link: 5, info: 1, entsize: 24 });
  allocated(5, SHT.STRTAB, dynstrOffset, dynstr.bytes.length, { addralign: 1 });
  allocated(6, SHT.REL, relDynOffset, relDyn.length, { link: 4, entsize: 16 });
  writeSectionHeader(out, shoff, 7, { name: shstr.offsets[7], type: SHT.STRTAB, offset: shstrtabOffset, size: shstr.bytes.length });
  return { bytes: out, syscalls, textSize: code.length, rodataSize };
}

function main() {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({ options: { 'sbpf-v0': { type: 'boolean', default: false } }, allowPositionals: true }));
  } catch {
    positionals = [];
  }
  if (positionals.length !== 2) {
    console.error('usage: node tools/link.mjs [--sbpf-v0] <input.o> <output.so>');
    process.exit(2);
  }
  const [inputPath, outputPath] = positionals;
  const version = values['sbpf-v0'] ? 'v0' : 'v3';
  try {
    const object = parts(readFileSync(inputPath));
    const result = version === 'v0' ? linkV0(object) : linkV3(object);
    writeFileSync(outputPath, result.bytes);
    console.log(`linked ${outputPath} (SBPF ${version}): ${result.bytes.length} bytes, code ${result.textSize}, `
      + `read-only data ${result.rodataSize}, syscalls ${result.syscalls.join(', ')}`);
  } catch (error) {
    if (error instanceof LinkError) {
      console.error(`link error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

main();
