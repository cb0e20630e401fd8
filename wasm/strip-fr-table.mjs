// Cuts halo2curves-axiom's `FR_TABLE` out of the BN254 module and says where it was.
//
// halo2curves-axiom 0.7.3 implements `From<u64> for Fr` (BN254's scalar field) with a table of
// the 65,536 values 0..2^16 in Montgomery form (`src/bn256/fr/table.rs`, feature
// `bn256-table`, which halo2-axiom 0.5.3 turns on unconditionally): 2 MiB of incompressible data
// in the module's data segments, most of the module's gzipped size. This script computes the
// table independently (entry i = i·R mod r, R = 2^256, as four little-endian u64 limbs), finds
// its bytes in the module's active data segments (exactly once, or it fails), removes them (the
// segment is split: its tail becomes a new segment appended after the others, so no segment
// index changes; the DataCount section is updated) and records the table's address and length
// in a custom section `tms_fr_table`. The package's JavaScript (`npm/tms_verifier.js`) then
// writes the entries the module computes by field arithmetic into that memory before the first
// call, and refuses to load unless the module's `Fr::from(u64)` then agrees with field
// arithmetic on every entry (wasm/src/fr_table.rs).
//
//   node wasm/strip-fr-table.mjs IN.wasm OUT.wasm    (wasm/build.sh runs it)
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The name of the custom section: u32 address, u32 length in bytes, u32 entries (LE). */
export const SECTION = "tms_fr_table";
/** BN254's scalar field modulus r. */
const MODULUS = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
/** The table's entries and bytes. */
export const ENTRIES = 1 << 16;
const ENTRY_BYTES = 32;

/** The table's bytes as halo2curves-axiom lays it out: entry i = i·2^256 mod r, little-endian. */
export function frTableBytes() {
  const r = (1n << 256n) % MODULUS;
  const out = new Uint8Array(ENTRIES * ENTRY_BYTES);
  let value = 0n;
  for (let i = 0; i < ENTRIES; i++) {
    let v = value;
    for (let b = 0; b < ENTRY_BYTES; b++) {
      out[i * ENTRY_BYTES + b] = Number(v & 0xffn);
      v >>= 8n;
    }
    value = (value + r) % MODULUS;
  }
  return out;
}

function readU(bytes, at) {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [result, at];
  }
}

function readS32(bytes, at) {
  let result = 0n;
  let shift = 0n;
  let b;
  do {
    b = bytes[at++];
    result |= BigInt(b & 0x7f) << shift;
    shift += 7n;
  } while (b & 0x80);
  if (b & 0x40) result -= 1n << shift;
  return [Number(BigInt.asIntN(32, result)), at];
}

function u(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Uint8Array.from(out);
}

function s32(n) {
  let v = BigInt(n);
  const out = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && !(b & 0x40)) || (v === -1n && b & 0x40)) {
      out.push(b);
      return Uint8Array.from(out);
    }
    out.push(b | 0x80);
  }
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The module's sections: `{ id, payload }` in order (after the 8-byte header). */
export function sections(wasm) {
  if (wasm.length < 8 || wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) {
    throw new Error("not a WebAssembly module");
  }
  const out = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readU(wasm, at + 1);
    out.push({ id, payload: wasm.subarray(start, start + size) });
    at = start + size;
  }
  return out;
}

/** A module of `sections` (as `sections` returns them). */
export function assemble(header, list) {
  return concat([header.subarray(0, 8), ...list.flatMap((s) => [Uint8Array.of(s.id), u(s.payload.length), s.payload])]);
}

/** A custom section's name and contents. */
export function customSection(section) {
  const [length, at] = readU(section.payload, 0);
  return { name: new TextDecoder().decode(section.payload.subarray(at, at + length)), contents: section.payload.subarray(at + length) };
}

function custom(name, contents) {
  const n = new TextEncoder().encode(name);
  return { id: 0, payload: concat([u(n.length), n, contents]) };
}

/** The data section's segments: active ones as `{ memory, offset, bytes }` (offset an i32.const). */
function segments(payload) {
  const [count, first] = readU(payload, 0);
  let at = first;
  const out = [];
  for (let i = 0; i < count; i++) {
    let flags;
    [flags, at] = readU(payload, at);
    const segment = { flags, memory: 0, offset: null };
    if (flags === 2) [segment.memory, at] = readU(payload, at);
    if (flags === 0 || flags === 2) {
      if (payload[at] !== 0x41) throw new Error(`data segment ${i}: an offset that is not an i32.const`);
      [segment.offset, at] = readS32(payload, at + 1);
      if (payload[at++] !== 0x0b) throw new Error(`data segment ${i}: an offset expression longer than one i32.const`);
    } else if (flags !== 1) {
      throw new Error(`data segment ${i}: flags ${flags}`);
    }
    let length;
    [length, at] = readU(payload, at);
    segment.bytes = payload.subarray(at, at + length);
    at += length;
    out.push(segment);
  }
  return out;
}

function encodeSegment(s) {
  const head = s.flags === 1 ? [u(1)] : [u(s.flags), ...(s.flags === 2 ? [u(s.memory)] : []), Uint8Array.of(0x41), s32(s.offset), Uint8Array.of(0x0b)];
  return concat([...head, u(s.bytes.length), s.bytes]);
}

/** Every place `needle` starts in `haystack`. */
function occurrences(haystack, needle) {
  const found = [];
  const buffer = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length);
  for (let at = buffer.indexOf(needle); at >= 0; at = buffer.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** The module without the table's bytes, with the `tms_fr_table` section; throws unless the
 * table is found exactly once, in an active segment of memory 0. */
export function stripFrTable(wasm) {
  const table = Buffer.from(frTableBytes());
  const list = sections(wasm);
  if (list.some((s) => s.id === 0 && customSection(s).name === SECTION)) throw new Error(`the module already has a ${SECTION} section`);
  const dataAt = list.findIndex((s) => s.id === 11);
  if (dataAt < 0) throw new Error("the module has no data section");
  const segs = segments(list[dataAt].payload);
  const hits = segs.flatMap((s, index) => occurrences(s.bytes, table).map((at) => ({ index, at })));
  const elsewhere = occurrences(wasm, table).length - hits.length;
  if (hits.length !== 1 || elsewhere !== 0) {
    throw new Error(`FR_TABLE found ${hits.length} times in the data segments and ${elsewhere} times elsewhere: expected exactly once in a segment`);
  }
  const [{ index, at }] = hits;
  const seg = segs[index];
  if (seg.offset === null || seg.memory !== 0) throw new Error("FR_TABLE is in a passive segment or another memory");
  const address = seg.offset + at;
  const tail = seg.bytes.subarray(at + table.length);
  const kept = [...segs];
  kept[index] = { ...seg, bytes: seg.bytes.subarray(0, at) };
  if (tail.length > 0) kept.push({ ...seg, offset: address + table.length, bytes: tail });
  const out = [...list];
  out[dataAt] = { id: 11, payload: concat([u(kept.length), ...kept.map(encodeSegment)]) };
  const countAt = out.findIndex((s) => s.id === 12);
  if (countAt >= 0) out[countAt] = { id: 12, payload: u(kept.length) };
  const record = new Uint8Array(12);
  const view = new DataView(record.buffer);
  view.setUint32(0, address, true);
  view.setUint32(4, table.length, true);
  view.setUint32(8, ENTRIES, true);
  out.push(custom(SECTION, record));
  return { wasm: assemble(wasm, out), address, length: table.length };
}

/** The module with a custom section `name` of `contents` appended (the Node test's). */
export function withCustomSection(wasm, name, contents) {
  return assemble(wasm, [...sections(wasm), custom(name, contents)]);
}

/** The module without its custom section `name` (the Node test's unfilled module). */
export function withoutCustomSection(wasm, name) {
  return assemble(wasm, sections(wasm).filter((s) => !(s.id === 0 && customSection(s).name === name)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error("usage: node wasm/strip-fr-table.mjs IN.wasm OUT.wasm");
    process.exit(2);
  }
  try {
    const stripped = stripFrTable(new Uint8Array(readFileSync(input)));
    writeFileSync(output, stripped.wasm);
    console.log(`fr-table address=${stripped.address} bytes=${stripped.length} (cut from ${input}; written to ${output})`);
  } catch (e) {
    console.error(`strip-fr-table: ${input}: ${e.message}`);
    process.exit(1);
  }
}
