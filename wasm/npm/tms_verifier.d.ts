/** Loads the module once (browsers, bundlers): its URL (default: tms_verifier.wasm next to the
 * script), a fetch Response or a promise of one, its bytes, or a compiled module. Fills the
 * module's `Fr::from(u64)` table (cut out by the build) and rejects with a one-line `Error` if
 * the module then disagrees with field arithmetic. */
export default function init(
  source?: string | URL | Response | Promise<Response> | BufferSource | WebAssembly.Module,
): Promise<void>;

/** Loads the module from its bytes or a compiled module, synchronously. */
export function initSync(source: BufferSource | WebAssembly.Module): void;

/** Loads the Cardano module once (default: tms_verifier_cardano.wasm next to the script); as `init`. */
export function initCardano(
  source?: string | URL | Response | Promise<Response> | BufferSource | WebAssembly.Module,
): Promise<void>;

/** Loads the Cardano module from its bytes or a compiled module, synchronously. */
export function initCardanoSync(source: BufferSource | WebAssembly.Module): void;

/** What loading a module took, in ms: instantiating it, and filling and checking the BN254
 * module's `Fr::from(u64)` table (computed at load instead of shipped). */
export interface LoadTime {
  instantiateMs: number;
  frTableMs: number;
}

/** Each module's load times; null for a module not loaded. */
export function loadTimes(): { bn254: LoadTime | null; cardano: LoadTime | null };

/** A certificate verifier for one pinned verifying key. Every refusal is a thrown one-line `Error`. */
export class CertificateVerifier {
  /**
   * Checks `vk` (a `tms keygen` verifying key file) and `params` (the 388-byte KZG verifier
   * parameters) against their SHA-256 fingerprints (64 hex digits), then reads them.
   * @param scheme "schnorr-atms", "bls-atms" or "mithril" (BN254)
   */
  constructor(
    scheme: "schnorr-atms" | "bls-atms" | "mithril",
    vk: Uint8Array | ArrayBuffer,
    vkFingerprint: string,
    params: Uint8Array | ArrayBuffer,
    paramsFingerprint: string,
  );
  /** The scheme and circuit of the pinned key. */
  describe(): string;
  /**
   * Verifies `proof` for the statement the caller trusts and returns the verdict line.
   * @param commitment "0x" + 64 hex digits: the committee commitment, or for Mithril the registration digest
   * @param message the message bytes the signers signed
   * @param threshold required for the Schnorr ATMS; for Mithril optional, and if given the key's quorum k
   * @param transcript "blake2b" (default) or "evm"
   */
  verify(
    commitment: string,
    message: Uint8Array | ArrayBuffer,
    threshold: number | bigint | undefined | null,
    proof: Uint8Array | ArrayBuffer,
    transcript?: "blake2b" | "evm",
  ): string;
  /** Frees the module's copy of the key. */
  free(): void;
}

/** A Mithril chain verifier for one pinned chain key: a chain tree's root key (`tms chain prove`)
 * or an extended chain's wrapper key (`tms chain wrap`). Every refusal is a thrown one-line `Error`. */
export class ChainVerifier {
  /**
   * Checks `vk` (the chain key file) and `params` (the 388-byte KZG verifier parameters) against
   * their SHA-256 fingerprints (64 hex digits), then reads them. Reading a k = 22 key takes
   * about 10 CPU-s and 2.4 GiB of the module's memory: make one per key, reuse it, `free()` it.
   */
  constructor(
    vk: Uint8Array | ArrayBuffer,
    vkFingerprint: string,
    params: Uint8Array | ArrayBuffer,
    paramsFingerprint: string,
  );
  /** What the pinned key closes. */
  describe(): string;
  /**
   * Verifies a chain proof file (`tms chain prove`'s or `tms chain wrap`'s) and returns the verdict line.
   * @param genesis the genesis registration digest, "0x" + 64 hex digits
   * @param lastRegistration the digest of the registration the chain hands over to last
   * @param message the last certificate's application message bytes
   * @param epochs the number of epochs (certificates) claimed
   */
  verify(
    genesis: string,
    lastRegistration: string,
    message: Uint8Array | ArrayBuffer,
    epochs: number | bigint,
    proof: Uint8Array | ArrayBuffer,
  ): string;
  /** Frees the module's copy of the key. */
  free(): void;
}


/** A Cardano-backend certificate verifier (Schnorr ATMS or SNARK-Mithril on Jubjub, KZG over
 * BLS12-381; module tms_verifier_cardano.wasm, loaded by `initCardano`) for one pinned verifying
 * key. Every refusal is a thrown one-line `Error`. */
export class CardanoCertificateVerifier {
  /**
   * Checks `vk` (a `tms keygen --backend cardano` verifying key file) and `params` (the 96-byte
   * verifier parameters: [tau]_2, compressed) against their SHA-256 fingerprints (64 hex
   * digits), then reads them.
   * @param scheme "schnorr-atms" or "mithril" (Cardano backend)
   */
  constructor(
    scheme: "schnorr-atms" | "mithril",
    vk: Uint8Array | ArrayBuffer,
    vkFingerprint: string,
    params: Uint8Array | ArrayBuffer,
    paramsFingerprint: string,
  );
  /** The scheme and circuit of the pinned key. */
  describe(): string;
  /**
   * Verifies `proof` for the statement the caller trusts and returns the verdict line.
   * @param commitment "0x" + 64 hex digits below the BLS12-381 scalar field order: the committee commitment, or for Mithril the registration digest
   * @param message the message bytes the signers signed
   * @param threshold required for the Schnorr ATMS; for Mithril optional, and if given the key's quorum k
   * @param transcript "blake2b" (default: the backend's one transcript)
   */
  verify(
    commitment: string,
    message: Uint8Array | ArrayBuffer,
    threshold: number | bigint | undefined | null,
    proof: Uint8Array | ArrayBuffer,
    transcript?: "blake2b",
  ): string;
  /** Frees the module's copy of the key. */
  free(): void;
}

/** What the client trusts about one aggregated certificate. */
export interface AggregatedCertificate {
  /** "0x" + 64 hex digits: the committee commitment (BLS ATMS: the committee digest; Mithril: the registration digest). */
  commitment: string;
  /** The message bytes the signers signed. */
  message: Uint8Array | ArrayBuffer;
  /** Required for the Schnorr and BLS ATMS; for Mithril optional, and if given the certificates' quorum k. */
  threshold?: number | bigint | null;
}

/** An aggregation verifier (BN254) for one pinned aggregation key: `tms aggregate`'s proof of N
 * certificate proofs of one scheme. Every refusal is a thrown one-line `Error`. */
export class AggregationVerifier {
  /**
   * Checks `vk` (the aggregation key file of `tms aggregate keygen` or `prove`) and `params` (the
   * 388-byte KZG verifier parameters) against their SHA-256 fingerprints (64 hex digits), then
   * reads them; refuses a key that does not aggregate certificates of `scheme`.
   */
  constructor(
    scheme: "schnorr-atms" | "bls-atms" | "mithril",
    vk: Uint8Array | ArrayBuffer,
    vkFingerprint: string,
    params: Uint8Array | ArrayBuffer,
    paramsFingerprint: string,
  );
  /** What the pinned key aggregates, e.g. "aggregation of 2 schnorr-atms certificates, 2^20 rows". */
  describe(): string;
  /**
   * Verifies an aggregation proof file (`tms aggregate prove`'s: accumulator words, then the
   * proof) for the certificates the caller trusts, in the aggregation's order; returns the verdict.
   */
  verify(statements: AggregatedCertificate[], proof: Uint8Array | ArrayBuffer): string;
  /** Frees the module's copy of the key. */
  free(): void;
}
