// The Node build of the package (wasm/npm/node) on the committed fixtures: the honest proofs
// verify, every one-change case is refused with a one-line Error, and a key or parameter file
// that does not match its pin is refused. Prints `wasm-verify runtime=node` lines (median of 10
// verifications after load). Run: `node --test wasm/test/` after `bash wasm/build.sh`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fixture, medianMs } from "./fixtures.mjs";

import { CertificateVerifier } from "../npm/node.js";

const expected = {
  "schnorr-atms": /^verified \(schnorr-atms\): at least 3 of 4 committee members signed/,
  mithril: /^verified \(mithril\): 5 distinct lottery indices won by registered parties/,
};

function pinned(f) {
  const s = f.statement;
  return new CertificateVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, s.paramsFingerprint);
}

/** Throws unless `f` throws an Error of one line matching `pattern`. */
function refuses(f, pattern) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof Error, `not an Error: ${e}`);
    assert.ok(!e.message.includes("\n"), `more than one line: ${e.message}`);
    assert.match(e.message, pattern);
    return true;
  });
}

for (const scheme of Object.keys(expected)) {
  test(`${scheme}: the honest proof verifies and says what it verified`, () => {
    const f = fixture(scheme);
    const s = f.statement;
    const v = pinned(f);
    const verdict = v.verify(s.commitment, f.message, s.threshold, f.proof, s.transcript);
    assert.match(verdict, expected[scheme]);
    assert.ok(verdict.includes(s.commitment), verdict);
    assert.ok(verdict.includes(`verifying key pinned (sha256 ${s.vkFingerprint})`), verdict);
    const ms = medianMs(() => v.verify(s.commitment, f.message, s.threshold, f.proof));
    console.log(`wasm-verify runtime=node scheme=${scheme} proof_bytes=${f.proof.length} median_ms=${ms.toFixed(1)}`);
  });

  test(`${scheme}: one change each is refused`, () => {
    const f = fixture(scheme);
    const s = f.statement;
    const v = pinned(f);
    const verify = (change) => {
      const c = { commitment: s.commitment, message: f.message, threshold: s.threshold, proof: f.proof, transcript: s.transcript };
      change(c);
      return () => v.verify(c.commitment, c.message, c.threshold, c.proof, c.transcript);
    };
    const rejected = /does not verify for the trusted statement/;
    refuses(verify((c) => (c.message = Uint8Array.from([...f.message, 0x21]))), rejected);
    for (const at of [0, 32, f.proof.length >> 1, f.proof.length - 1]) {
      refuses(verify((c) => {
        c.proof = f.proof.slice();
        c.proof[at] ^= 1;
      }), rejected);
    }
    refuses(verify((c) => (c.proof = f.proof.slice(0, -1))), rejected);
    refuses(verify((c) => (c.transcript = "evm")), rejected);
    refuses(verify((c) => (c.transcript = "poseidon")), /transcript "poseidon"/);
    const other = s.commitment.slice(0, -1) + (s.commitment.endsWith("0") ? "1" : "0");
    refuses(verify((c) => (c.commitment = other)), rejected);
    refuses(verify((c) => (c.commitment = "0x1234")), /64 hex digits/);
    if (scheme === "schnorr-atms") {
      refuses(verify((c) => (c.threshold = s.threshold + 1)), rejected);
      refuses(verify((c) => (c.threshold = s.threshold - 1)), rejected);
      refuses(verify((c) => (c.threshold = 0)), /threshold 0/);
      refuses(verify((c) => (c.threshold = undefined)), /give the threshold/);
    } else {
      refuses(verify((c) => (c.threshold = s.threshold + 1)), /quorum is k = 5/);
    }
    refuses(verify((c) => (c.threshold = 2.5)), /non-negative integer/);
  });

  test(`${scheme}: a key or parameters not matching the pin are refused`, () => {
    const f = fixture(scheme);
    const s = f.statement;
    const flip = (pin) => pin.slice(0, -1) + (pin.endsWith("0") ? "1" : "0");
    refuses(() => new CertificateVerifier(s.scheme, f.vk, flip(s.vkFingerprint), f.params, s.paramsFingerprint), /^verifying key: fingerprint/);
    const vk = f.vk.slice();
    vk[vk.length - 1] ^= 1;
    refuses(() => new CertificateVerifier(s.scheme, vk, s.vkFingerprint, f.params, s.paramsFingerprint), /differs from the pinned/);
    refuses(() => new CertificateVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, flip(s.paramsFingerprint)), /^verifier parameters: fingerprint/);
    refuses(() => new CertificateVerifier("bls-atms", f.vk, s.vkFingerprint, f.params, s.paramsFingerprint), /scheme "bls-atms"/);
  });
}
