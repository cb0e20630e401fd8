// tms-verifier: the JavaScript face of tms_verifier.wasm (the tms certificate verifier compiled
// from the crate tms-wasm). Browsers and bundlers: `await init()`, then `new CertificateVerifier`
// or `new ChainVerifier`.
// Node: import "tms-verifier" (node.js), which loads the module synchronously.

let wasm = null;
let trapped = null;

/** Loads the module once: `source` is its URL (default: tms_verifier.wasm next to this file), a
 * fetch Response or a promise of one, its bytes, or a compiled WebAssembly.Module. */
export default async function init(source) {
  if (wasm) return;
  source = await (source ?? new URL("./tms_verifier.wasm", import.meta.url));
  if (typeof source === "string" || source instanceof URL) source = await fetch(source);
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new Error(`tms_verifier.wasm: HTTP ${source.status}`);
    source = await source.arrayBuffer();
  }
  const made = await WebAssembly.instantiate(source, {});
  wasm = (made.instance ?? made).exports;
}

/** Loads the module from its bytes or a compiled WebAssembly.Module, synchronously. */
export function initSync(source) {
  if (wasm) return;
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  wasm = new WebAssembly.Instance(module, {}).exports;
}

function exports() {
  if (trapped) throw new Error(`the verifier module trapped earlier (${trapped}); load the page or process again`);
  if (!wasm) throw new Error("tms-verifier: call init() first");
  return wasm;
}

/** Runs an export; a trap (which no tested input causes) becomes a one-line Error. */
function call(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      trapped = e.message + panicMessage();
      throw new Error(`the verifier module trapped (${trapped})`);
    }
    throw e;
  }
}

/** The module's own words for the panic that made it trap (its memory outlives the trap). */
function panicMessage() {
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

const finalizer = typeof FinalizationRegistry === "undefined" ? null : new FinalizationRegistry(({ handle, free }) => wasm?.[free](handle));

/** A JavaScript number, a bigint within Number's safe range, or (`optional`) nothing as NaN. */
function count(value, what, optional) {
  if (optional && (value === undefined || value === null)) return NaN;
  if (typeof value === "number" && !Number.isNaN(value)) return value;
  if (typeof value === "bigint" && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new TypeError(`${what} ${String(value)}: give a non-negative integer`);
}

/** A module object behind a handle: made by `make` (a handle, or 0 with the reason as the
 * result), described by `describe` and freed by `free` (also when collected). */
class Pinned {
  #handle;
  #names;

  constructor(make, describe, free) {
    const w = exports();
    const handle = call(() => make(w));
    if (handle === 0) throw new Error(result(w));
    this.#handle = handle;
    this.#names = { describe, free };
    finalizer?.register(this, { handle, free }, this);
  }

  /** The live handle. */
  handle() {
    if (this.#handle === undefined) throw new Error("this verifier was freed");
    return this.#handle;
  }

  /** What the pinned key is for. */
  describe() {
    const w = exports();
    call(() => w[this.#names.describe](this.handle()));
    return result(w);
  }

  /** Frees the module's copy of the key (also done when the object is collected). */
  free() {
    const handle = this.handle();
    this.#handle = undefined;
    finalizer?.unregister(this);
    exports()[this.#names.free](handle);
  }
}

/** Runs a verify export (status 1: the verdict is the result) and returns the verdict, or
 * throws the one-line refusal. */
function verdict(w, run) {
  const status = call(run);
  const out = result(w);
  if (status !== 1) throw new Error(out);
  return out;
}

/** A verifier for one pinned verifying key. */
export class CertificateVerifier extends Pinned {

  /** Checks `vk` (a `tms keygen` verifying key file) and `params` (the 388-byte KZG verifier
   * parameters) against their SHA-256 fingerprints (hex), then reads them. `scheme`:
   * "schnorr-atms" or "mithril". Throws a one-line Error on a mismatch or a malformed file. */
  constructor(scheme, vk, vkFingerprint, params, paramsFingerprint) {
    const args = [
      text(scheme, "scheme"),
      bytes(vk, "vk"),
      text(vkFingerprint, "vkFingerprint"),
      bytes(params, "params"),
      text(paramsFingerprint, "paramsFingerprint"),
    ];
    super((w) => w.tms_verifier_new(...args.flatMap((a) => put(w, a))), "tms_verifier_describe", "tms_verifier_free");
  }

  /** Verifies `proof` for the statement the caller trusts: `commitment` ("0x" + 64 hex digits:
   * the committee commitment, or for Mithril the registration digest), the `message` bytes, the
   * `threshold` (required for the Schnorr ATMS; for Mithril optional, and if given the key's
   * quorum k) and the `transcript` ("blake2b", the default, or "evm"). Returns the verdict;
   * throws a one-line Error otherwise. */
  verify(commitment, message, threshold, proof, transcript = "blake2b") {
    const t = count(threshold, "threshold", true);
    const w = exports();
    const handle = this.handle();
    const [c, m, p, tr] = [text(commitment, "commitment"), bytes(message, "message"), bytes(proof, "proof"), text(transcript, "transcript")];
    return verdict(w, () => w.tms_verify(handle, ...put(w, c), ...put(w, m), t, ...put(w, p), ...put(w, tr)));
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
    super((w) => w.tms_chain_verifier_new(...args.flatMap((a) => put(w, a))), "tms_chain_verifier_describe", "tms_chain_verifier_free");
  }

  /** Verifies a chain proof file for the chain the caller trusts: `genesis` and
   * `lastRegistration` (registration digests, "0x" + 64 hex digits), the last certificate's
   * application `message` bytes and the number of `epochs`. Returns the verdict; throws a
   * one-line Error otherwise. */
  verify(genesis, lastRegistration, message, epochs, proof) {
    const n = count(epochs, "epochs", false);
    const w = exports();
    const handle = this.handle();
    const [g, l, m, p] = [text(genesis, "genesis"), text(lastRegistration, "lastRegistration"), bytes(message, "message"), bytes(proof, "proof")];
    return verdict(w, () => w.tms_chain_verify(handle, ...put(w, g), ...put(w, l), ...put(w, m), n, ...put(w, p)));
  }
}
