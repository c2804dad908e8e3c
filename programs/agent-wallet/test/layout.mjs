// Reads layout.json, the one description of the program's byte layouts, and encodes and decodes by it.
// The tests hold the hand-written encoders (program.mjs, the Java adapter) and the C structs to it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const LAYOUT = JSON.parse(readFileSync(join(ROOT, 'layout.json'), 'utf8'));
export const CORPUS = JSON.parse(readFileSync(join(ROOT, 'layout-corpus.json'), 'utf8'));

/** { element, length } of `T[N]` / `T[]` (length null), or null for a scalar type. */
export function arrayOf(type) {
  const match = /^(\w+)\[(\d*)\]$/.exec(type);
  return match ? { element: match[1], length: match[2] === '' ? null : Number(match[2]) } : null;
}

export function sizeOf(type) {
  const array = arrayOf(type);
  if (array) return (array.element === 'bytes' ? 1 : sizeOf(array.element)) * array.length;
  if (type in LAYOUT.types) return LAYOUT.types[type];
  if (type in LAYOUT.structs) return LAYOUT.structs[type].size;
  throw new Error(`unknown type ${type}`);
}

export const instruction = (name) => LAYOUT.instructions.find((i) => i.name === name)
  ?? missing(`no instruction ${name}`);
export const account = (name) => LAYOUT.accounts.find((a) => a.name === name) ?? missing(`no account ${name}`);

function missing(message) {
  throw new Error(message);
}

/** A corpus value of 32 or N bytes: hex, or {sha256: text} for the hash of an id. */
export function bytesValue(value) {
  return typeof value === 'string' ? Buffer.from(value, 'hex') : createHash('sha256').update(value.sha256, 'utf8').digest();
}

function write(out, offset, type, value) {
  switch (type) {
    case 'u8': out.writeUInt8(Number(value), offset); return;
    case 'u16': out.writeUInt16LE(Number(value), offset); return;
    case 'u32': out.writeUInt32LE(Number(value), offset); return;
    case 'u64': out.writeBigUInt64LE(BigInt(value), offset); return;
    case 'i64': out.writeBigInt64LE(BigInt(value), offset); return;
    default: {
      const bytes = bytesValue(value);
      if (bytes.length !== sizeOf(type)) throw new Error(`${type} needs ${sizeOf(type)} bytes, got ${bytes.length}`);
      bytes.copy(out, offset);
    }
  }
}

/** The data of instruction `name` with `values` (by field name; absent fields are zero), by the description alone. */
export function encode(name, values) {
  const ix = instruction(name);
  const list = ix.fields.find((f) => arrayOf(f.type)?.length === null);
  const items = list ? values[list.name] ?? [] : [];
  const out = Buffer.alloc(ix.size + items.length * (list ? sizeOf(arrayOf(list.type).element) : 0));
  out.writeUInt8(ix.discriminator, 0);
  for (const field of ix.fields) {
    if (field === list) {
      items.forEach((item, i) => write(out, field.offset + i * sizeOf(arrayOf(field.type).element), arrayOf(field.type).element, item));
    } else if (values[field.name] !== undefined) {
      write(out, field.offset, field.type, values[field.name]);
    }
  }
  return out;
}

function read(data, offset, type) {
  switch (type) {
    case 'u8': return data.readUInt8(offset);
    case 'u16': return data.readUInt16LE(offset);
    case 'u32': return data.readUInt32LE(offset);
    case 'u64': return data.readBigUInt64LE(offset);
    case 'i64': return data.readBigInt64LE(offset);
    default: return Buffer.from(data.subarray(offset, offset + sizeOf(type)));
  }
}

/** An account's data as { header, ...fields } (arrays and structs as raw bytes), checking kind, version and size. */
export function decodeAccount(name, data) {
  const layout = account(name);
  const bytes = Buffer.from(data);
  if (bytes.length !== layout.size) throw new Error(`${name} account is ${layout.size} bytes, got ${bytes.length}`);
  const fields = (list) => Object.fromEntries(list.map((f) => [f.name, read(bytes, f.offset, f.type)]));
  const header = fields(LAYOUT.header.fields);
  if (header.kind !== layout.kind || header.version !== layout.version) {
    throw new Error(`not a ${name} account of version ${layout.version}: kind ${header.kind}, version ${header.version}`);
  }
  return { header, ...fields(layout.fields) };
}
