// Links clang's relocatable BPF object into the SBPF v0 shared object the Solana loader accepts.
//
// Usage: node tools/link.mjs <input.o> <output.so>
//
// Output layout (every allocated section's address equals its file offset):
//   ELF header | program headers | .text | .rodata | .dynamic | .dynsym | .dynstr | .rel.dyn
//   | .shstrtab | section headers
// Data references (lddw, R_BPF_64_64) are resolved here to 0x100000000 + address; calls between
// the program's own functions become pc-relative offsets (the loader turns them into its hashed
// call keys); calls to undefined symbols (syscalls) stay `call -1` with an R_BPF_64_32 dynamic
// relocation naming the symbol, which the loader resolves by the murmur3 hash of the name.
import { readFileSync, writeFileSync } from 'node:fs';

const MM_PROGRAM_START = 0x100000000n;
const SHT = { NULL: 0, PROGBITS: 1, SYMTAB: 2, STRTAB: 3, NOBITS: 8, REL: 9, DYNAMIC: 6, DYNSYM: 11 };
const SHF = { WRITE: 1, ALLOC: 2, EXEC: 4 };
const R_BPF = { NONE: 0, R64_64: 1, R64_32: 10 };
const DT = { NULL: 0, STRTAB: 5, SYMTAB: 6, STRSZ: 10, SYMENT: 11, REL: 17, RELSZ: 18, RELENT: 19, FLAGS: 30 };
const DF_TEXTREL = 4;
const PT = { LOAD: 1, DYNAMIC: 2 };
const PF = { X: 1, W: 2, R: 4 };
const EM_BPF = 247;
const ET_DYN = 3;
const LDDW = 0x18;
const CALL = 0x85;

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
      entsize: Number(buf.readBigUInt64LE(o + 56)),
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
    const info = buf[base + 4];
    symbols.push({
      name: cString(buf, strtab.offset + buf.readUInt32LE(base)),
      type: info & 0xf,
      bind: info >> 4,
      shndx: buf.readUInt16LE(base + 6),
      value: Number(buf.readBigUInt64LE(base + 8)),
    });
  }
  return { sections, symbols };
}

function link(input) {
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
  for (const rel of sections.filter((s) => s.type === SHT.REL || s.type === 4)) {
    if (sections[rel.info] !== text) fail(`relocations against ${sections[rel.info].name} are not supported (pointers in read-only data)`);
    if (rel.type === 4) fail('RELA relocations are not supported');
  }

  // Layout.
  const EHDR = 64;
  const PHDR = 56;
  const SHDR = 64;
  const phnum = 4;
  const textOffset = align(EHDR + phnum * PHDR, 8);
  const textBytes = Buffer.from(text.data);
  let cursor = textOffset + textBytes.length;
  const rodataOffset = align(cursor, 8);
  const placed = new Map([[text.index, textOffset]]);
  const rodataParts = [];
  cursor = rodataOffset;
  for (const s of rodatas) {
    cursor = align(cursor, Math.max(1, s.addralign));
    placed.set(s.index, cursor);
    rodataParts.push({ at: cursor, data: s.data });
    cursor += s.size;
  }
  const rodataSize = cursor - rodataOffset;
  const rodataBytes = Buffer.alloc(rodataSize);
  for (const part of rodataParts) part.data.copy(rodataBytes, part.at - rodataOffset);

  const addressOf = (symbol, addend) => {
    const base = placed.get(symbol.shndx);
    if (base === undefined) fail(`symbol ${symbol.name || '(section)'} is in a section that is not linked`);
    return base + symbol.value + addend;
  };

  // Relocations of .text.
  const imports = [];
  const importIndex = new Map();
  const dynRelocs = [];
  const relText = sections.find((s) => s.type === SHT.REL && sections[s.info] === text);
  const entries = relText ? relText.size / 16 : 0;
  for (let i = 0; i < entries; i++) {
    const offset = Number(relText.data.readBigUInt64LE(i * 16));
    const info = relText.data.readBigUInt64LE(i * 16 + 8);
    const type = Number(info & 0xffffffffn);
    const symbol = symbols[Number(info >> 32n)];
    const opcode = textBytes[offset];
    if (type === R_BPF.R64_64) {
      if (opcode !== LDDW) fail(`R_BPF_64_64 at .text+${offset} is not on an lddw instruction`);
      const addend = textBytes.readInt32LE(offset + 4);
      const address = BigInt(addressOf(symbol, addend)) + MM_PROGRAM_START;
      textBytes.writeUInt32LE(Number(address & 0xffffffffn), offset + 4);
      textBytes.writeUInt32LE(Number(address >> 32n), offset + 12);
    } else if (type === R_BPF.R64_32) {
      if (opcode !== CALL) fail(`R_BPF_64_32 at .text+${offset} is not on a call instruction`);
      if (symbol.shndx === 0) {
        if (!importIndex.has(symbol.name)) {
          importIndex.set(symbol.name, imports.length + 1);
          imports.push(symbol.name);
        }
        textBytes.writeInt32LE(-1, offset + 4);
        dynRelocs.push({ offset: textOffset + offset, symbol: importIndex.get(symbol.name) });
      } else {
        if (symbol.shndx !== text.index) fail(`call to ${symbol.name}, which is not in .text`);
        const target = symbol.value / 8;
        const pc = offset / 8;
        textBytes.writeInt32LE(target - pc - 1, offset + 4);
      }
    } else if (type !== R_BPF.NONE) {
      fail(`unsupported relocation type ${type} against ${symbol.name} at .text+${offset}`);
    }
  }
  const entry = symbols.find((s) => s.name === 'entrypoint' && s.shndx === text.index);
  if (!entry) fail('no function named entrypoint in .text');
  const entryAddress = textOffset + entry.value;

  // Dynamic string and symbol tables: the imports, then entrypoint.
  const dynstrParts = ['', ...imports, 'entrypoint'];
  const dynstrOffsets = [];
  let dynstrSize = 0;
  for (const name of dynstrParts) {
    dynstrOffsets.push(dynstrSize);
    dynstrSize += Buffer.byteLength(name) + 1;
  }
  const dynstr = Buffer.alloc(dynstrSize);
  dynstrParts.forEach((name, i) => dynstr.write(name, dynstrOffsets[i], 'latin1'));
  const TEXT_SECTION_INDEX = 1;
  const dynsym = Buffer.alloc(24 * (imports.length + 2));
  imports.forEach((_, i) => {
    const o = 24 * (i + 1);
    dynsym.writeUInt32LE(dynstrOffsets[i + 1], o);
    dynsym[o + 4] = (1 << 4) | 0; // STB_GLOBAL, STT_NOTYPE
  });
  {
    const o = 24 * (imports.length + 1);
    dynsym.writeUInt32LE(dynstrOffsets[imports.length + 1], o);
    dynsym[o + 4] = (1 << 4) | 2; // STB_GLOBAL, STT_FUNC
    dynsym.writeUInt16LE(TEXT_SECTION_INDEX, o + 6);
    dynsym.writeBigUInt64LE(BigInt(entryAddress), o + 8);
  }
  const relDyn = Buffer.alloc(16 * dynRelocs.length);
  dynRelocs.forEach((r, i) => {
    relDyn.writeBigUInt64LE(BigInt(r.offset), i * 16);
    relDyn.writeBigUInt64LE((BigInt(r.symbol) << 32n) | BigInt(R_BPF.R64_32), i * 16 + 8);
  });

  const dynamicOffset = align(rodataOffset + rodataSize, 8);
  const dynamicEntries = 8;
  const dynsymOffset = dynamicOffset + dynamicEntries * 16;
  const dynstrOffset = dynsymOffset + dynsym.length;
  const relDynOffset = align(dynstrOffset + dynstr.length, 8);
  const loadEnd = relDynOffset + relDyn.length;
  const dynamic = Buffer.alloc(dynamicEntries * 16);
  const dynTags = [
    [DT.SYMTAB, dynsymOffset], [DT.SYMENT, 24], [DT.STRTAB, dynstrOffset], [DT.STRSZ, dynstr.length],
    [DT.REL, relDynOffset], [DT.RELSZ, relDyn.length], [DT.RELENT, 16], [DT.FLAGS, DF_TEXTREL],
  ].filter(([tag]) => relDyn.length > 0 || (tag !== DT.REL && tag !== DT.RELSZ && tag !== DT.RELENT));
  dynTags.forEach(([tag, value], i) => {
    dynamic.writeBigUInt64LE(BigInt(tag), i * 16);
    dynamic.writeBigUInt64LE(BigInt(value), i * 16 + 8);
  });

  const shstrNames = ['', '.text', '.rodata', '.dynamic', '.dynsym', '.dynstr', '.rel.dyn', '.shstrtab'];
  const shstrOffsets = [];
  let shstrSize = 0;
  for (const name of shstrNames) {
    shstrOffsets.push(shstrSize);
    shstrSize += name.length + 1;
  }
  const shstrtab = Buffer.alloc(shstrSize);
  shstrNames.forEach((name, i) => shstrtab.write(name, shstrOffsets[i], 'latin1'));
  const shstrtabOffset = loadEnd;
  const shoff = align(shstrtabOffset + shstrtab.length, 8);
  const shnum = shstrNames.length;
  const out = Buffer.alloc(shoff + shnum * SHDR);

  // ELF header.
  out.writeUInt32BE(0x7f454c46, 0);
  out[4] = 2; // ELFCLASS64
  out[5] = 1; // little-endian
  out[6] = 1; // EV_CURRENT
  out.writeUInt16LE(ET_DYN, 16);
  out.writeUInt16LE(EM_BPF, 18);
  out.writeUInt32LE(1, 20);
  out.writeBigUInt64LE(BigInt(entryAddress), 24);
  out.writeBigUInt64LE(BigInt(EHDR), 32);
  out.writeBigUInt64LE(BigInt(shoff), 40);
  out.writeUInt32LE(0, 48); // e_flags: SBPF v0
  out.writeUInt16LE(EHDR, 52);
  out.writeUInt16LE(PHDR, 54);
  out.writeUInt16LE(phnum, 56);
  out.writeUInt16LE(SHDR, 58);
  out.writeUInt16LE(shnum, 60);
  out.writeUInt16LE(shnum - 1, 62);

  const phdr = (i, type, flags, offset, size) => {
    const o = EHDR + i * PHDR;
    out.writeUInt32LE(type, o);
    out.writeUInt32LE(flags, o + 4);
    out.writeBigUInt64LE(BigInt(offset), o + 8);
    out.writeBigUInt64LE(BigInt(offset), o + 16);
    out.writeBigUInt64LE(BigInt(offset), o + 24);
    out.writeBigUInt64LE(BigInt(size), o + 32);
    out.writeBigUInt64LE(BigInt(size), o + 40);
    out.writeBigUInt64LE(8n, o + 48);
  };
  phdr(0, PT.LOAD, PF.R | PF.X, textOffset, textBytes.length);
  phdr(1, PT.LOAD, PF.R, rodataOffset, rodataSize);
  phdr(2, PT.LOAD, PF.R, dynamicOffset, loadEnd - dynamicOffset);
  phdr(3, PT.DYNAMIC, PF.R, dynamicOffset, dynamic.length);

  textBytes.copy(out, textOffset);
  rodataBytes.copy(out, rodataOffset);
  dynamic.copy(out, dynamicOffset);
  dynsym.copy(out, dynsymOffset);
  dynstr.copy(out, dynstrOffset);
  relDyn.copy(out, relDynOffset);
  shstrtab.copy(out, shstrtabOffset);

  const shdr = (i, type, flags, offset, size, link, info, addralign, entsize, addressed) => {
    const o = shoff + i * SHDR;
    out.writeUInt32LE(shstrOffsets[i], o);
    out.writeUInt32LE(type, o + 4);
    out.writeBigUInt64LE(BigInt(flags), o + 8);
    out.writeBigUInt64LE(BigInt(addressed ? offset : 0), o + 16);
    out.writeBigUInt64LE(BigInt(offset), o + 24);
    out.writeBigUInt64LE(BigInt(size), o + 32);
    out.writeUInt32LE(link, o + 40);
    out.writeUInt32LE(info, o + 44);
    out.writeBigUInt64LE(BigInt(addralign), o + 48);
    out.writeBigUInt64LE(BigInt(entsize), o + 56);
  };
  shdr(1, SHT.PROGBITS, SHF.ALLOC | SHF.EXEC, textOffset, textBytes.length, 0, 0, 8, 0, true);
  shdr(2, SHT.PROGBITS, SHF.ALLOC, rodataOffset, rodataSize, 0, 0, 8, 0, true);
  shdr(3, SHT.DYNAMIC, SHF.ALLOC, dynamicOffset, dynamic.length, 5, 0, 8, 16, true);
  shdr(4, SHT.DYNSYM, SHF.ALLOC, dynsymOffset, dynsym.length, 5, 1, 8, 24, true);
  shdr(5, SHT.STRTAB, SHF.ALLOC, dynstrOffset, dynstr.length, 0, 0, 1, 0, true);
  shdr(6, SHT.REL, SHF.ALLOC, relDynOffset, relDyn.length, 4, 0, 8, 16, true);
  shdr(7, SHT.STRTAB, 0, shstrtabOffset, shstrtab.length, 0, 0, 1, 0, false);
  return { bytes: out, imports, textSize: textBytes.length, rodataSize };
}

const [, , inputPath, outputPath] = process.argv;
if (!inputPath || !outputPath) {
  console.error('usage: node tools/link.mjs <input.o> <output.so>');
  process.exit(2);
}
try {
  const result = link(readFileSync(inputPath));
  writeFileSync(outputPath, result.bytes);
  console.log(`linked ${outputPath}: ${result.bytes.length} bytes, .text ${result.textSize}, .rodata ${result.rodataSize}, syscalls ${result.imports.join(', ')}`);
} catch (error) {
  if (error instanceof LinkError) {
    console.error(`link error: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
