// The Node build of the package's Cardano module (tms_verifier_cardano.wasm, through
// wasm/npm/node.js) on the committed Cardano fixtures (wasm/fixtures/cardano): the honest proofs
// (Schnorr ATMS, SNARK-Mithril on Jubjub, KZG over BLS12-381) verify, every one-change case is
// refused with a one-line Error, a key or parameter file that does not match its pin is refused,
// and every case of wasm/fixtures/cardano/verdicts.json (`tms verify --backend cardano`'s
// verdicts: tests/wasm_agreement.rs) gets the tool's verdict. Prints `wasm-verify runtime=node
// backend=cardano` lines (median of 10 verifications after load; then of 10 more, with the CPU
// time per verification).
// Run: `node --test wasm/test/cardano.test.mjs` after `bash wasm/build.sh`.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fixture, medianAndCpuMs, medianMs, refuses, unhex } from "./fixtures.mjs";

import { CardanoCertificateVerifier, CertificateVerifier } from "../npm/node.js";

const expected = {
  "schnorr-atms": /^verified \(schnorr-atms, cardano\): at least 3 of 4 committee members signed/,
  mithril: /^verified \(mithril, cardano\): 5 distinct lottery indices won by registered parties/,
};

const shared = {};
function pinned(f) {
  const s = f.statement;
  return (shared[s.scheme] ??= new CardanoCertificateVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, s.paramsFingerprint));
}
after(() => Object.values(shared).forEach((v) => v.free()));

for (const scheme of Object.keys(expected)) {
  const name = `cardano/${scheme}`;

  test(`${name}: the honest proof verifies and says what it verified`, () => {
    const f = fixture(name);
    const s = f.statement;
    const v = pinned(f);
    assert.match(v.describe(), new RegExp(`^${scheme} \\(cardano\\): `));
    const verdict = v.verify(s.commitment, f.message, s.threshold, f.proof);
    assert.match(verdict, expected[scheme]);
    assert.ok(verdict.includes(s.commitment), verdict);
    assert.ok(verdict.includes(`verifying key pinned (sha256 ${s.vkFingerprint})`), verdict);
    assert.ok(verdict.includes(`verifier parameters pinned (sha256 ${s.paramsFingerprint})`), verdict);
    const run = () => v.verify(s.commitment, f.message, s.threshold, f.proof);
    const ms = medianMs(run);
    // Ten more, once the engine has compiled most hot functions: their CPU time is nearer what a
    // verification takes with a core of its own than the wall time is, on a loaded machine.
    const warm = medianAndCpuMs(run);
    console.log(`wasm-verify runtime=node backend=cardano scheme=${scheme} proof_bytes=${f.proof.length} median_ms=${ms.toFixed(1)} warm_median_ms=${warm.median.toFixed(1)} warm_cpu_ms_per_verify=${warm.cpu.toFixed(1)}`);
  });

  test(`${name}: one change each is refused`, () => {
    const f = fixture(name);
    const s = f.statement;
    const v = pinned(f);
    const verify = (change) => {
      const c = { commitment: s.commitment, message: f.message, threshold: s.threshold, proof: f.proof, transcript: s.transcript };
      change(c);
      return () => v.verify(c.commitment, c.message, c.threshold, c.proof, c.transcript);
    };
    const rejected = /^the proof does not verify for the trusted statement \(cardano backend, blake2b transcript\)$/;
    refuses(verify((c) => (c.message = Uint8Array.from([...f.message, 0x21]))), rejected);
    for (const at of [0, 31, f.proof.length >> 1, f.proof.length - 1]) {
      refuses(verify((c) => {
        c.proof = f.proof.slice();
        c.proof[at] ^= 1;
      }), rejected);
    }
    refuses(verify((c) => (c.proof = f.proof.slice(0, -1))), rejected);
    refuses(verify((c) => (c.proof = Uint8Array.from([...f.proof, 0]))), rejected);
    refuses(verify((c) => (c.transcript = "evm")), /Blake2b transcript only/);
    const other = s.commitment.slice(0, -1) + (s.commitment.endsWith("0") ? "1" : "0");
    refuses(verify((c) => (c.commitment = other)), rejected);
    refuses(verify((c) => (c.commitment = "0x1234")), /64 hex digits/);
    refuses(verify((c) => (c.commitment = "0x" + "f".repeat(64))), /not below the BLS12-381 scalar field modulus/);
    if (scheme !== "mithril") {
      refuses(verify((c) => (c.threshold = s.threshold + 1)), rejected);
      refuses(verify((c) => (c.threshold = s.threshold - 1)), rejected);
      refuses(verify((c) => (c.threshold = 5)), /^threshold: /);
      refuses(verify((c) => (c.threshold = undefined)), /give the threshold/);
    } else {
      refuses(verify((c) => (c.threshold = s.threshold + 1)), /quorum is k = 5/);
    }
    refuses(verify((c) => (c.threshold = 2.5)), /non-negative integer/);
  });

  test(`${name}: a key or parameters not matching the pin, or of the other backend, are refused`, () => {
    const f = fixture(name);
    const s = f.statement;
    const flip = (pin) => pin.slice(0, -1) + (pin.endsWith("0") ? "1" : "0");
    const make = (scheme, vk, vkPin, params, paramsPin) => () => new CardanoCertificateVerifier(scheme, vk, vkPin, params, paramsPin);
    refuses(make(s.scheme, f.vk, flip(s.vkFingerprint), f.params, s.paramsFingerprint), /^verifying key: fingerprint/);
    const vk = f.vk.slice();
    vk[vk.length - 2] ^= 1;
    refuses(make(s.scheme, vk, s.vkFingerprint, f.params, s.paramsFingerprint), /differs from the pinned/);
    refuses(make(s.scheme, f.vk, s.vkFingerprint, f.params, flip(s.paramsFingerprint)), /^verifier parameters: fingerprint/);
    refuses(make("bls-atms", f.vk, s.vkFingerprint, f.params, s.paramsFingerprint), /scheme "bls-atms"/);
    // The BN254 fixture's key and parameters, each under its own pin: not the Cardano backend's.
    const bn254 = fixture(scheme);
    const b = bn254.statement;
    refuses(make(s.scheme, bn254.vk, b.vkFingerprint, f.params, s.paramsFingerprint), /^verifying key: malformed JSON/);
    refuses(make(s.scheme, f.vk, s.vkFingerprint, bn254.params, b.paramsFingerprint), /388 bytes, expected 96/);
    // And the other way round: the BN254 module refuses the Cardano key file.
    refuses(() => new CertificateVerifier(b.scheme, f.vk, s.vkFingerprint, bn254.params, b.paramsFingerprint), /^verifying key: /);
  });
}

test("the modules import nothing but the wasm-bindgen functions the package stubs", () => {
  const imports = (file) => WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(new URL(`../npm/${file}`, import.meta.url))));
  assert.deepEqual(imports("tms_verifier.wasm"), []);
  const cardano = imports("tms_verifier_cardano.wasm");
  for (const i of cardano) {
    assert.equal(i.kind, "function", JSON.stringify(i));
    assert.ok(["__wbindgen_placeholder__", "__wbindgen_externref_xform__"].includes(i.module), JSON.stringify(i));
  }
  console.log(`wasm-imports backend=cardano functions=${cardano.length}`);
});

test("every case of cardano/verdicts.json gets the tool's verdict", () => {
  const rows = JSON.parse(readFileSync(new URL("../fixtures/cardano/verdicts.json", import.meta.url), "utf8"));
  assert.ok(rows.length >= 24, `${rows.length} cases`);
  for (const scheme of Object.keys(expected)) {
    assert.ok(rows.some((r) => r.fixture === `cardano/${scheme}` && r.case === "honest" && r.verified), scheme);
  }
  for (const row of rows) {
    const f = fixture(row.fixture);
    const s = row.statement;
    let proof = f.proof.slice();
    if (row.proofEdit?.flip !== undefined) proof[row.proofEdit.flip] ^= 1;
    if (row.proofEdit?.length !== undefined) {
      const sized = new Uint8Array(row.proofEdit.length);
      sized.set(proof.subarray(0, row.proofEdit.length));
      proof = sized;
    }
    let verified = true;
    try {
      pinned(f).verify(s.commitment, unhex(s.message), s.threshold, proof, s.transcript);
    } catch (e) {
      assert.ok(!e.message.includes("\n"), e.message);
      verified = false;
    }
    assert.equal(verified, row.verified, `${row.fixture} ${row.case}`);
  }
});
