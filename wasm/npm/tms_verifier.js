// tms-verifier: the JavaScript face of tms_verifier.wasm (the tms certificate verifier compiled
// from the crate tms-wasm). Browsers and bundlers: `await init()`, then `new CertificateVerifier`.
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
      trapped = e.message;
      throw new Error(`the verifier module trapped (${e.message})`);
    }
    throw e;
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

const finalizer = typeof FinalizationRegistry === "undefined" ? null : new FinalizationRegistry((handle) => wasm?.tms_verifier_free(handle));

/** A verifier for one pinned verifying key. */
export class CertificateVerifier {
  #handle;

  /** Checks `vk` (a `tms keygen` verifying key file) and `params` (the 388-byte KZG verifier
   * parameters) against their SHA-256 fingerprints (hex), then reads them. `scheme`:
   * "schnorr-atms" or "mithril". Throws a one-line Error on a mismatch or a malformed file. */
  constructor(scheme, vk, vkFingerprint, params, paramsFingerprint) {
    const w = exports();
    const args = [
      text(scheme, "scheme"),
      bytes(vk, "vk"),
      text(vkFingerprint, "vkFingerprint"),
      bytes(params, "params"),
      text(paramsFingerprint, "paramsFingerprint"),
    ];
    const handle = call(() => w.tms_verifier_new(...args.flatMap((a) => put(w, a))));
    if (handle === 0) throw new Error(result(w));
    this.#handle = handle;
    finalizer?.register(this, handle, this);
  }

  #live() {
    if (this.#handle === undefined) throw new Error("this verifier was freed");
    return this.#handle;
  }

  /** The scheme and circuit of the pinned key. */
  describe() {
    const w = exports();
    call(() => w.tms_verifier_describe(this.#live()));
    return result(w);
  }

  /** Verifies `proof` for the statement the caller trusts: `commitment` ("0x" + 64 hex digits:
   * the committee commitment, or for Mithril the registration digest), the `message` bytes, the
   * `threshold` (required for the Schnorr ATMS; for Mithril optional, and if given the key's
   * quorum k) and the `transcript` ("blake2b", the default, or "evm"). Returns the verdict;
   * throws a one-line Error otherwise. */
  verify(commitment, message, threshold, proof, transcript = "blake2b") {
    let t;
    if (threshold === undefined || threshold === null) t = NaN;
    else if (typeof threshold === "number" && !Number.isNaN(threshold)) t = threshold;
    else if (typeof threshold === "bigint" && threshold <= BigInt(Number.MAX_SAFE_INTEGER)) t = Number(threshold);
    else throw new TypeError(`threshold ${String(threshold)}: give a non-negative integer`);
    const w = exports();
    const handle = this.#live();
    const [c, m, p, tr] = [text(commitment, "commitment"), bytes(message, "message"), bytes(proof, "proof"), text(transcript, "transcript")];
    const status = call(() => w.tms_verify(handle, ...put(w, c), ...put(w, m), t, ...put(w, p), ...put(w, tr)));
    const out = result(w);
    if (status !== 1) throw new Error(out);
    return out;
  }

  /** Frees the module's copy of the key (also done when the object is collected). */
  free() {
    const handle = this.#live();
    this.#handle = undefined;
    finalizer?.unregister(this);
    exports().tms_verifier_free(handle);
  }
}
