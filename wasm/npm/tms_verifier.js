// tms-verifier: the JavaScript face of tms_verifier.wasm (the tms certificate verifiers compiled
// from the crate tms-wasm: BN254) and tms_verifier_cardano.wasm (the Cardano backend's: KZG over
// BLS12-381). Browsers and bundlers: `await init()`, then `new CertificateVerifier` or `new
// ChainVerifier`; `await initCardano()`, then `new CardanoCertificateVerifier`.
// Node: import "tms-verifier" (node.js), which loads both modules synchronously.

/** The two modules: each loaded once, its exports, and why it trapped if it did. */
const modules = {
  bn254: { file: "tms_verifier.wasm", exports: null, trapped: null, times: null },
  cardano: { file: "tms_verifier_cardano.wasm", exports: null, trapped: null, times: null },
};

/** The import modules of wasm-bindgen that the Cardano module names without calling them:
 * midnight-curves turns on getrandom's `js` source on wasm32 (it takes precedence over a custom
 * one), so wasm-bindgen and js-sys are linked, and a cdylib exports every `#[no_mangle]` function
 * of its dependencies (wasm-bindgen's `__wbindgen_describe_*`), which keeps their imports. The
 * verifier draws no randomness: each stub throws, and the module is then treated as trapped. */
const unusedImports = ["__wbindgen_placeholder__", "__wbindgen_externref_xform__"];

/** The imports of `module`: a throwing stub for each wasm-bindgen import; any other import is
 * refused here, at load. */
function imports(m, module) {
  const provided = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== "function" || !unusedImports.includes(from)) {
      throw new Error(`${m.file} imports ${from}.${name} (${kind}), which tms-verifier does not provide`);
    }
    (provided[from] ??= {})[name] = () => {
      const e = new Error(`${m.file} called ${from}.${name}, an import of wasm-bindgen it should never call`);
      e.unusedImport = true;
      throw e;
    };
  }
  return provided;
}

/** The BN254 module's `Fr::from(u64)` table: wasm/build.sh cuts its 2 MiB out of the module
 * (wasm/strip-fr-table.mjs) and records where it was in the custom section `tms_fr_table` (u32
 * address, u32 length, u32 entries). Here the module computes the entries by field arithmetic,
 * this host writes them into its memory, and the module must then agree with field arithmetic on
 * every entry (`Fr::from(i)` equals `i` counted up by field addition), or it is not loaded. */
function fillFrTable(m, module, wasm) {
  const [record, ...more] = WebAssembly.Module.customSections(module, "tms_fr_table");
  if (record) {
    if (more.length > 0 || record.byteLength !== 12) throw new Error(`${m.file}: a malformed tms_fr_table section; refusing to load`);
    if (typeof wasm.tms_fr_table_entries !== "function" || typeof wasm.tms_fr_table_check !== "function") {
      throw new Error(`${m.file}: a tms_fr_table section without the tms_fr_table_entries and tms_fr_table_check exports; refusing to load`);
    }
    const view = new DataView(record);
    const [address, length] = [view.getUint32(0, true), view.getUint32(4, true)];
    wasm.tms_fr_table_entries();
    if (wasm.tms_result_len() !== length || address + length > wasm.memory.buffer.byteLength) {
      throw new Error(`${m.file}: the tms_fr_table section (${length} bytes at ${address}) does not fit the module; refusing to load`);
    }
    const entries = new Uint8Array(wasm.memory.buffer, wasm.tms_result_ptr(), length).slice();
    new Uint8Array(wasm.memory.buffer, address, length).set(entries);
  }
  if (typeof wasm.tms_fr_table_check === "function" && wasm.tms_fr_table_check() !== 1) {
    throw new Error(`${m.file}: Fr::from(u64) disagrees with field arithmetic (its table cut out and not filled?); refusing to load`);
  }
}

/** The instance's exports, once its `Fr::from(u64)` table is filled and checked; `started`:
 * when instantiation began (performance.now()). */
function ready(m, module, instance, started) {
  const instantiated = performance.now();
  fillFrTable(m, module, instance.exports);
  m.times = { instantiateMs: instantiated - started, frTableMs: performance.now() - instantiated };
  return instance.exports;
}

async function load(m, source) {
  if (m.exports) return;
  source = await (source ?? new URL(`./${m.file}`, import.meta.url));
  if (typeof source === "string" || source instanceof URL) source = await fetch(source);
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new Error(`${m.file}: HTTP ${source.status}`);
    source = await source.arrayBuffer();
  }
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
  const started = performance.now();
  m.exports = ready(m, module, await WebAssembly.instantiate(module, imports(m, module)), started);
}

function loadSync(m, source) {
  if (m.exports) return;
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  const started = performance.now();
  m.exports = ready(m, module, new WebAssembly.Instance(module, imports(m, module)), started);
}

/** Loads the BN254 module once: `source` is its URL (default: tms_verifier.wasm next to this
 * file), a fetch Response or a promise of one, its bytes, or a compiled WebAssembly.Module. */
export default async function init(source) {
  return load(modules.bn254, source);
}

/** Loads the BN254 module from its bytes or a compiled WebAssembly.Module, synchronously. */
export function initSync(source) {
  loadSync(modules.bn254, source);
}

/** Loads the Cardano module once (default: tms_verifier_cardano.wasm next to this file); as
 * `init`. */
export async function initCardano(source) {
  return load(modules.cardano, source);
}

/** Loads the Cardano module from its bytes or a compiled WebAssembly.Module, synchronously. */
export function initCardanoSync(source) {
  loadSync(modules.cardano, source);
}

/** What loading each module took (null until loaded): instantiation, and filling and checking
 * the BN254 module's `Fr::from(u64)` table (ms). */
export function loadTimes() {
  return { bn254: modules.bn254.times, cardano: modules.cardano.times };
}

function exports(m) {
  if (m.trapped) throw new Error(`the verifier module trapped earlier (${m.trapped}); load the page or process again`);
  if (!m.exports) throw new Error(`tms-verifier: call ${m === modules.cardano ? "initCardano" : "init"}() first`);
  return m.exports;
}

/** Runs an export of `m`; a trap (which no tested input causes) becomes a one-line Error. */
function call(m, f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError || e?.unusedImport) {
      m.trapped = e.message + panicMessage(m.exports);
      throw new Error(`the verifier module trapped (${m.trapped})`);
    }
    throw e;
  }
}

/** The module's own words for the panic that made it trap (its memory outlives the trap). */
function panicMessage(wasm) {
  try {
    const len = wasm.tms_panic_len();
    if (len === 0) return "";
    return ": " + new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, wasm.tms_panic_ptr(), len).slice());
  } catch {
    return "";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bytes(value, what) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError(`${what}: give a Uint8Array or an ArrayBuffer`);
}

function text(value, what) {
  if (typeof value !== "string") throw new TypeError(`${what}: give a string`);
  return encoder.encode(value);
}

/** Copies `data` into a module buffer, handed to the next export: [pointer, length]. */
function put(w, data) {
  const ptr = w.tms_alloc(data.length);
  new Uint8Array(w.memory.buffer, ptr, data.length).set(data);
  return [ptr, data.length];
}

function result(w) {
  return decoder.decode(new Uint8Array(w.memory.buffer, w.tms_result_ptr(), w.tms_result_len()).slice());
}

const finalizer = typeof FinalizationRegistry === "undefined" ? null : new FinalizationRegistry(({ m, handle, free }) => m.exports?.[free](handle));

/** A JavaScript number, a bigint within Number's safe range, or (`optional`) nothing as NaN. */
function count(value, what, optional) {
  if (optional && (value === undefined || value === null)) return NaN;
  if (typeof value === "number" && !Number.isNaN(value)) return value;
  if (typeof value === "bigint" && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new TypeError(`${what} ${String(value)}: give a non-negative integer`);
}

/** An object of module `m` behind a handle: made by `make` (a handle, or 0 with the reason as
 * the result), described by `describe` and freed by `free` (also when collected). */
class Pinned {
  #handle;
  #names;
  #module;

  constructor(m, make, describe, free) {
    const w = exports(m);
    const handle = call(m, () => make(w));
    if (handle === 0) throw new Error(result(w));
    this.#handle = handle;
    this.#names = { describe, free };
    this.#module = m;
    finalizer?.register(this, { m, handle, free }, this);
  }

  /** The live handle. */
  handle() {
    if (this.#handle === undefined) throw new Error("this verifier was freed");
    return this.#handle;
  }

  /** What the pinned key is for. */
  describe() {
    const w = exports(this.#module);
    call(this.#module, () => w[this.#names.describe](this.handle()));
    return result(w);
  }

  /** Runs a verify export `run(exports, handle)` (status 1: the verdict is the result) and
   * returns the verdict, or throws the one-line refusal. */
  verdict(run) {
    const w = exports(this.#module);
    const handle = this.handle();
    const status = call(this.#module, () => run(w, handle));
    const out = result(w);
    if (status !== 1) throw new Error(out);
    return out;
  }

  /** Frees the module's copy of the key (also done when the object is collected). */
  free() {
    const handle = this.handle();
    this.#handle = undefined;
    finalizer?.unregister(this);
    exports(this.#module)[this.#names.free](handle);
  }
}

/** A certificate verifier of module `m` for one pinned verifying key: `names` are its exports
 * (new, describe, free, verify). */
class PinnedCertificate extends Pinned {
  #verify;

  constructor(m, names, scheme, vk, vkFingerprint, params, paramsFingerprint) {
    const args = [
      text(scheme, "scheme"),
      bytes(vk, "vk"),
      text(vkFingerprint, "vkFingerprint"),
      bytes(params, "params"),
      text(paramsFingerprint, "paramsFingerprint"),
    ];
    super(m, (w) => w[names.new](...args.flatMap((a) => put(w, a))), names.describe, names.free);
    this.#verify = names.verify;
  }

  /** Verifies `proof` for the statement the caller trusts: `commitment` ("0x" + 64 hex digits:
   * the committee commitment, or for Mithril the registration digest), the `message` bytes, the
   * `threshold` (required for the Schnorr ATMS; for Mithril optional, and if given the key's
   * quorum k) and the `transcript` ("blake2b", the default; on BN254 also "evm"). Returns the
   * verdict; throws a one-line Error otherwise. */
  verify(commitment, message, threshold, proof, transcript = "blake2b") {
    const t = count(threshold, "threshold", true);
    const [c, m, p, tr] = [text(commitment, "commitment"), bytes(message, "message"), bytes(proof, "proof"), text(transcript, "transcript")];
    return this.verdict((w, handle) => w[this.#verify](handle, ...put(w, c), ...put(w, m), t, ...put(w, p), ...put(w, tr)));
  }
}

/** A BN254 certificate verifier for one pinned verifying key. */
export class CertificateVerifier extends PinnedCertificate {
  /** Checks `vk` (a `tms keygen` verifying key file) and `params` (the 388-byte KZG verifier
   * parameters) against their SHA-256 fingerprints (hex), then reads them. `scheme`:
   * "schnorr-atms", "bls-atms" or "mithril". Throws a one-line Error on a mismatch or a
   * malformed file. */
  constructor(scheme, vk, vkFingerprint, params, paramsFingerprint) {
    const names = { new: "tms_verifier_new", describe: "tms_verifier_describe", free: "tms_verifier_free", verify: "tms_verify" };
    super(modules.bn254, names, scheme, vk, vkFingerprint, params, paramsFingerprint);
  }
}

/** A Cardano-backend certificate verifier (Schnorr ATMS or SNARK-Mithril on Jubjub, KZG over
 * BLS12-381; module tms_verifier_cardano.wasm) for one pinned verifying key. The commitment is
 * below the BLS12-381 scalar field order; the backend has one transcript, "blake2b". */
export class CardanoCertificateVerifier extends PinnedCertificate {
  /** Checks `vk` (a `tms keygen --backend cardano` verifying key file) and `params` (the 96-byte
   * verifier parameters: [tau]_2, compressed) against their SHA-256 fingerprints (hex), then
   * reads them. `scheme`: "schnorr-atms" or "mithril". Throws a one-line Error on a mismatch or
   * a malformed file. */
  constructor(scheme, vk, vkFingerprint, params, paramsFingerprint) {
    const names = { new: "tms_cardano_verifier_new", describe: "tms_cardano_verifier_describe", free: "tms_cardano_verifier_free", verify: "tms_cardano_verify" };
    super(modules.cardano, names, scheme, vk, vkFingerprint, params, paramsFingerprint);
  }
}

/** A Mithril chain verifier for one pinned chain key: a chain tree's root key (`tms chain
 * prove`) or an extended chain's wrapper key (`tms chain wrap`). */
export class ChainVerifier extends Pinned {
  /** Checks `vk` (the chain key file) and `params` (the 388-byte KZG verifier parameters)
   * against their SHA-256 fingerprints (hex), then reads them. Throws a one-line Error on a
   * mismatch, a malformed file or a key that is not a chain root's or a wrapped chain's. */
  constructor(vk, vkFingerprint, params, paramsFingerprint) {
    const args = [bytes(vk, "vk"), text(vkFingerprint, "vkFingerprint"), bytes(params, "params"), text(paramsFingerprint, "paramsFingerprint")];
    super(modules.bn254, (w) => w.tms_chain_verifier_new(...args.flatMap((a) => put(w, a))), "tms_chain_verifier_describe", "tms_chain_verifier_free");
  }

  /** Verifies a chain proof file for the chain the caller trusts: `genesis` and
   * `lastRegistration` (registration digests, "0x" + 64 hex digits), the last certificate's
   * application `message` bytes and the number of `epochs`. Returns the verdict; throws a
   * one-line Error otherwise. */
  verify(genesis, lastRegistration, message, epochs, proof) {
    const n = count(epochs, "epochs", false);
    const [g, l, m, p] = [text(genesis, "genesis"), text(lastRegistration, "lastRegistration"), bytes(message, "message"), bytes(proof, "proof")];
    return this.verdict((w, handle) => w.tms_chain_verify(handle, ...put(w, g), ...put(w, l), ...put(w, m), n, ...put(w, p)));
  }
}

/** An aggregation verifier (BN254) for one pinned aggregation key: `tms aggregate`'s proof of N
 * certificate proofs of one scheme in one. */
export class AggregationVerifier extends Pinned {
  /** Checks `vk` (the aggregation key file `tms aggregate keygen` or `prove` writes) and `params`
   * (the 388-byte KZG verifier parameters) against their SHA-256 fingerprints (hex), then reads
   * them. `scheme`: the aggregated certificates' ("schnorr-atms", "bls-atms" or "mithril").
   * Throws a one-line Error on a mismatch, a malformed file or a key that does not aggregate
   * certificates of `scheme`. */
  constructor(scheme, vk, vkFingerprint, params, paramsFingerprint) {
    const args = [text(scheme, "scheme"), bytes(vk, "vk"), text(vkFingerprint, "vkFingerprint"), bytes(params, "params"), text(paramsFingerprint, "paramsFingerprint")];
    super(modules.bn254, (w) => w.tms_aggregation_verifier_new(...args.flatMap((a) => put(w, a))), "tms_aggregation_verifier_describe", "tms_aggregation_verifier_free");
  }

  /** Verifies an aggregation proof file (`tms aggregate prove`'s) for the certificates the
   * caller trusts, in the aggregation's order: each `{ commitment, message, threshold }` (the
   * commitment, registration or committee digest as "0x" + 64 hex digits; the message bytes; the
   * threshold, required for the ATMS schemes). Returns the verdict; throws a one-line Error
   * otherwise. */
  verify(statements, proof) {
    if (!Array.isArray(statements)) throw new TypeError("statements: give an array of { commitment, message, threshold }");
    const lines = statements.map((s, i) => {
      const commitment = s?.commitment;
      if (typeof commitment !== "string" || /[,\n]/.test(commitment)) throw new TypeError(`statements[${i}].commitment: give a "0x"-hex string`);
      const message = Array.from(bytes(s.message, `statements[${i}].message`), (b) => b.toString(16).padStart(2, "0")).join("");
      const t = s.threshold === undefined || s.threshold === null ? "" : String(count(s.threshold, `statements[${i}].threshold`, false));
      return `${commitment},0x${message},${t}`;
    });
    const [st, p] = [encoder.encode(lines.join("\n")), bytes(proof, "proof")];
    return this.verdict((w, handle) => w.tms_aggregation_verify(handle, ...put(w, st), ...put(w, p)));
  }
}
