// The Node build of the package (wasm/npm/node) on the committed fixtures: the honest proofs
// (three certificates, a chain) verify, every one-change case is refused with a one-line Error,
// and a key or parameter file that does not match its pin is refused; every case of
// wasm/fixtures/verdicts.json (the tool's verdicts: tests/wasm_agreement.rs) gets the tool's
// verdict (wasm/fixtures/chain/verdicts.json: the tool's verdicts on the chain's cases). The
// aggregation (wasm/fixtures/aggregate: two certificates in one `tms aggregate prove` proof)
// verifies, its one-change cases and wrong keys are refused, and every case of
// aggregate/verdicts.json gets the tool's verdict. The BN254 module's `Fr::from(u64)` table is
// cut out of the module, filled at load, and a module whose table is not filled (or filled in the
// wrong place) is refused. Prints `wasm-verify runtime=node` lines (median of 10 verifications
// after load) and a `wasm-load` line. Run: `node --test wasm/test/node.test.mjs` after `bash
// wasm/build.sh`.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { aggregateFixture, certificates, fixture, medianMs, refuses, unhex } from "./fixtures.mjs";

import { AggregationVerifier, CertificateVerifier, ChainVerifier, loadTimes } from "../npm/node.js";
import { SECTION, frTableBytes, stripFrTable, withCustomSection, withoutCustomSection } from "../strip-fr-table.mjs";
import { stripNames } from "../strip-names.mjs";

const expected = {
  "schnorr-atms": /^verified \(schnorr-atms\): at least 3 of 4 committee members signed/,
  "bls-atms": /^verified \(bls-atms\): at least 2 of 4 committee members signed/,
  mithril: /^verified \(mithril\): 5 distinct lottery indices won by registered parties/,
};

// One verifier per scheme, freed at the end: a key's reader builds FFT tables for its domain
// (about 0.6 GiB of wasm32's 4 GiB for the k = 20 BLS ATMS key), and the collector frees an
// unreferenced verifier only when it runs.
const sharedCertificate = {};
function pinned(f) {
  const s = f.statement;
  return (sharedCertificate[s.scheme] ??= new CertificateVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, s.paramsFingerprint));
}
after(() => Object.values(sharedCertificate).forEach((v) => v.free()));

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
    if (scheme !== "mithril") {
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
    refuses(() => new CertificateVerifier("stark", f.vk, s.vkFingerprint, f.params, s.paramsFingerprint), /scheme "stark"/);
  });
}

// The chain fixture takes minutes of a loaded machine to make (wasm/fixtures/make-chain.sh):
// until it is committed the chain tests are reported as skipped, not passed.
const noChain = existsSync(new URL("../fixtures/chain/statement.json", import.meta.url)) ? false : "no wasm/fixtures/chain yet (bash wasm/fixtures/make-chain.sh)";

// One chain verifier for every test: halo2-axiom's key reader builds FFT tables for the key's
// domain and each extended size (2.36 GiB of Node's memory for the k = 22 root, measured); a
// second one beside it, before the collector frees the first, exhausted wasm32's 4 GiB (a trap).
let sharedChain = null;
function chainVerifier(f) {
  const s = f.statement;
  return (sharedChain ??= new ChainVerifier(f.vk, s.vkFingerprint, f.params, s.paramsFingerprint));
}
after(() => sharedChain?.free());

test("chain: the honest chain proof verifies and says what it verified", { skip: noChain }, () => {
  const f = fixture("chain");
  const s = f.statement;
  const v = chainVerifier(f);
  assert.match(v.describe(), /^mithril chain tree root: 1 epochs/);
  const verdict = v.verify(s.genesis, s.lastRegistration, f.message, s.epochs, f.proof);
  assert.match(verdict, /^verified: 1 SNARK-Mithril certificates, each signed by the registration the previous one handed over to/);
  for (const part of [`from genesis ${s.genesis}`, `to registration ${s.lastRegistration}`, `chain key pinned (sha256 ${s.vkFingerprint})`]) {
    assert.ok(verdict.includes(part), verdict);
  }
  const ms = medianMs(() => v.verify(s.genesis, s.lastRegistration, f.message, s.epochs, f.proof));
  console.log(`wasm-verify runtime=node scheme=chain proof_bytes=${f.proof.length} median_ms=${ms.toFixed(1)}`);
});

test("chain: one change each is refused", { skip: noChain }, () => {
  const f = fixture("chain");
  const s = f.statement;
  const v = chainVerifier(f);
  const verify = (change) => {
    const c = { genesis: s.genesis, last: s.lastRegistration, message: f.message, epochs: s.epochs, proof: f.proof };
    change(c);
    return () => v.verify(c.genesis, c.last, c.message, c.epochs, c.proof);
  };
  const rejected = /^the chain proof does not verify for the trusted statement/;
  const other = (d) => d.slice(0, -1) + (d.endsWith("0") ? "1" : "0");
  refuses(verify((c) => (c.genesis = other(s.genesis))), rejected);
  refuses(verify((c) => (c.last = other(s.lastRegistration))), rejected);
  refuses(verify((c) => (c.message = Uint8Array.from([...f.message, 0x21]))), rejected);
  refuses(verify((c) => (c.epochs = 2)), /the key closes chains of 1 epochs/);
  refuses(verify((c) => (c.epochs = 0)), /epochs 0: give a positive integer/);
  refuses(verify((c) => (c.epochs = 1.5)), /epochs 1.5: give a positive integer/);
  refuses(verify((c) => (c.genesis = "0x12")), /genesis digest "0x12": give 0x followed by 64 hex digits/);
  for (const at of [31, 384, f.proof.length >> 1, f.proof.length - 1]) {
    refuses(verify((c) => {
      c.proof = f.proof.slice();
      c.proof[at] ^= 1;
    }), rejected);
  }
  refuses(verify((c) => (c.proof = f.proof.slice(0, 100))), /^chain proof: this proof file starts with 12 words/);
});

test("chain: a key or parameters not matching the pin, or a certificate key, are refused", { skip: noChain }, () => {
  const f = fixture("chain");
  const s = f.statement;
  const flip = (pin) => pin.slice(0, -1) + (pin.endsWith("0") ? "1" : "0");
  refuses(() => new ChainVerifier(f.vk, flip(s.vkFingerprint), f.params, s.paramsFingerprint), /^chain verifying key: fingerprint/);
  refuses(() => new ChainVerifier(f.vk, s.vkFingerprint, f.params, flip(s.paramsFingerprint)), /^verifier parameters: fingerprint/);
  // A certificate's key, pinned: not a chain key.
  const cert = fixture("mithril");
  refuses(() => new ChainVerifier(cert.vk, cert.statement.vkFingerprint, f.params, s.paramsFingerprint), /^chain verifying key: malformed aggregation key file/);
});

// The aggregation fixture: two Schnorr ATMS certificates in one `tms aggregate prove` proof at
// k = 20 (wasm/fixtures/make-aggregate.sh, committed once made).
const noAggregate = existsSync(new URL("../fixtures/aggregate/statement.json", import.meta.url)) ? false : "no wasm/fixtures/aggregate yet (wasm/fixtures/make-aggregate.sh)";
let sharedAggregate = null;
function aggregateVerifier(f) {
  const s = f.statement;
  return (sharedAggregate ??= new AggregationVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, s.paramsFingerprint));
}
after(() => sharedAggregate?.free());

test("aggregate: the honest aggregation verifies and says what it verified", { skip: noAggregate }, () => {
  const f = aggregateFixture();
  const v = aggregateVerifier(f);
  assert.equal(v.describe(), "aggregation of 2 schnorr-atms certificates, 2^20 rows");
  const verdict = v.verify(f.certificates, f.proof);
  assert.match(verdict, /^verified: 2 schnorr-atms certificates in one proof; 0: commitment 0x/);
  for (const c of f.certificates) assert.ok(verdict.includes(c.commitment), verdict);
  assert.ok(verdict.includes(`aggregation key pinned (sha256 ${f.statement.vkFingerprint})`), verdict);
  const ms = medianMs(() => v.verify(f.certificates, f.proof));
  console.log(`wasm-verify runtime=node scheme=aggregate proof_bytes=${f.proof.length} median_ms=${ms.toFixed(1)}`);
});

test("aggregate: one change each is refused", { skip: noAggregate }, () => {
  const f = aggregateFixture();
  const v = aggregateVerifier(f);
  const verify = (change) => {
    const c = { certificates: f.certificates.map((x) => ({ ...x })), proof: f.proof.slice() };
    change(c);
    return () => v.verify(c.certificates, c.proof);
  };
  const rejected = /^the aggregation proof does not verify for these trusted statements \(in this order\)$/;
  refuses(verify((c) => c.certificates.reverse()), rejected);
  refuses(verify((c) => (c.certificates[0].message = Uint8Array.from([...f.certificates[0].message, 0x21]))), rejected);
  const other = (d) => d.slice(0, -1) + (d.endsWith("0") ? "1" : "0");
  refuses(verify((c) => (c.certificates[1].commitment = other(c.certificates[1].commitment))), rejected);
  refuses(verify((c) => (c.certificates[1].threshold = 4)), rejected);
  refuses(verify((c) => (c.certificates[1].threshold = 2)), rejected);
  for (const at of [0, 383, 384, f.proof.length >> 1, f.proof.length - 1]) refuses(verify((c) => (c.proof[at] ^= 1)), rejected);
  refuses(verify((c) => (c.proof = c.proof.slice(0, -1))), rejected);
  refuses(verify((c) => c.certificates.pop()), /^the aggregation key is for 2 schnorr-atms certificates; 1 statements were given$/);
  refuses(verify((c) => (c.certificates[1].threshold = undefined)), /^certificate 1: give the threshold/);
  refuses(verify((c) => (c.certificates[1].threshold = 0)), /^certificate 1: threshold 0/);
  refuses(verify((c) => (c.certificates[0].commitment = "0x12")), /^certificate 0: commitment "0x12": give 0x followed by 64 hex digits$/);
  refuses(verify((c) => (c.certificates[0].threshold = 2.5)), /^certificate 0: threshold 2.5: give a non-negative integer$/);
  refuses(verify((c) => (c.proof = c.proof.slice(0, 100))), /^aggregation proof: this proof file starts with 12 words/);
  assert.throws(() => v.verify("not an array", f.proof), TypeError);
});

test("aggregate: a key or parameters not matching the pin, another scheme, a chain or certificate key, are refused", { skip: noAggregate }, () => {
  const f = aggregateFixture();
  const s = f.statement;
  const flip = (pin) => pin.slice(0, -1) + (pin.endsWith("0") ? "1" : "0");
  refuses(() => new AggregationVerifier(s.scheme, f.vk, flip(s.vkFingerprint), f.params, s.paramsFingerprint), /^aggregation key: fingerprint/);
  refuses(() => new AggregationVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, flip(s.paramsFingerprint)), /^verifier parameters: fingerprint/);
  refuses(() => new AggregationVerifier("mithril", f.vk, s.vkFingerprint, f.params, s.paramsFingerprint), /^aggregation key: a key for "aggregate schnorr-atms x2", not an aggregation of mithril certificates$/);
  const cert = fixture("schnorr-atms");
  refuses(() => new AggregationVerifier(s.scheme, cert.vk, cert.statement.vkFingerprint, f.params, s.paramsFingerprint), /^aggregation key: malformed aggregation key file/);
});

test("every case of verdicts.json and chain/verdicts.json gets the tool's verdict", () => {
  const read = (p) => JSON.parse(readFileSync(new URL(p, import.meta.url), "utf8"));
  const rows = [...read("../fixtures/verdicts.json"), ...(noChain ? [] : read("../fixtures/chain/verdicts.json"))];
  assert.ok(rows.length >= 24, `${rows.length} cases`);
  for (const name of ["schnorr-atms", "bls-atms", "mithril", ...(noChain ? [] : ["chain"])]) {
    assert.ok(rows.some((r) => r.fixture === name && r.case === "honest" && r.verified), name);
  }
  const verifiers = {};
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
    const message = unhex(s.message);
    let run;
    if (row.fixture === "chain") {
      const v = (verifiers.chain ??= chainVerifier(f));
      run = () => v.verify(s.genesis, s.lastRegistration, message, s.epochs, proof);
    } else {
      const v = (verifiers[row.fixture] ??= pinned(f));
      run = () => v.verify(s.commitment, message, s.threshold, proof, s.transcript);
    }
    let verified = true;
    try {
      run();
    } catch (e) {
      assert.ok(!e.message.includes("\n"), e.message);
      verified = false;
    }
    assert.equal(verified, row.verified, `${row.fixture} ${row.case}`);
  }
});

test("every case of aggregate/verdicts.json gets the tool's verdict", { skip: noAggregate }, () => {
  const rows = JSON.parse(readFileSync(new URL("../fixtures/aggregate/verdicts.json", import.meta.url), "utf8"));
  assert.ok(rows.length >= 14, `${rows.length} cases`);
  assert.ok(rows.some((r) => r.case === "honest" && r.verified));
  const f = aggregateFixture();
  const v = aggregateVerifier(f);
  for (const row of rows) {
    let proof = f.proof.slice();
    if (row.proofEdit?.flip !== undefined) proof[row.proofEdit.flip] ^= 1;
    if (row.proofEdit?.length !== undefined) {
      const sized = new Uint8Array(row.proofEdit.length);
      sized.set(proof.subarray(0, row.proofEdit.length));
      proof = sized;
    }
    assert.equal(row.statement.vkFingerprint, f.statement.vkFingerprint, row.case);
    let verified = true;
    try {
      v.verify(certificates(row.statement.certificates), proof);
    } catch (e) {
      assert.ok(!e.message.includes("\n"), e.message);
      verified = false;
    }
    assert.equal(verified, row.verified, `aggregate ${row.case}`);
  }
});

// The BN254 module ships without halo2curves-axiom's `Fr::from(u64)` table (wasm/build.sh cuts it
// out); the package fills it at load and refuses the module unless it then agrees with field
// arithmetic on every entry.
test("the Fr::from(u64) table: cut out of the module, filled at load, a module left unfilled is refused", async () => {
  const wasm = new Uint8Array(readFileSync(new URL("../npm/tms_verifier.wasm", import.meta.url)));
  const table = Buffer.from(frTableBytes());
  assert.equal(Buffer.from(wasm).indexOf(table), -1, "the table's bytes are still in the module");
  const module = new WebAssembly.Module(wasm);
  const [record] = WebAssembly.Module.customSections(module, SECTION);
  const view = new DataView(record);
  assert.equal(view.getUint32(4, true), table.length);
  assert.throws(() => stripFrTable(wasm), /already has a tms_fr_table section/);

  // A fresh copy of the package per load (the module is loaded once per copy).
  let copies = 0;
  const fresh = () => import(`../npm/tms_verifier.js?copy=${copies++}`);
  const unfilled = await fresh();
  refuses(() => unfilled.initSync(withoutCustomSection(wasm, SECTION)), /^tms_verifier\.wasm: Fr::from\(u64\) disagrees with field arithmetic .*refusing to load$/);
  const f = fixture("schnorr-atms");
  refuses(() => new unfilled.CertificateVerifier("schnorr-atms", f.vk, f.statement.vkFingerprint, f.params, f.statement.paramsFingerprint), /call init\(\) first/);
  // Filled one entry off (the section's address moved by 32 bytes): refused too.
  const shifted = new Uint8Array(record.slice(0));
  new DataView(shifted.buffer).setUint32(0, view.getUint32(0, true) + 32, true);
  const moved = withCustomSection(withoutCustomSection(wasm, SECTION), SECTION, shifted);
  const offByOne = await fresh();
  refuses(() => offByOne.initSync(moved), /disagrees with field arithmetic/);
  // A length that is not the table's.
  const short = new Uint8Array(record.slice(0));
  new DataView(short.buffer).setUint32(4, table.length - 32, true);
  const shortened = await fresh();
  refuses(() => shortened.initSync(withCustomSection(withoutCustomSection(wasm, SECTION), SECTION, short)), /does not fit the module; refusing to load/);

  // What it costs: median of 10 loads of the compiled module, each in a fresh copy.
  const times = [];
  for (let i = 0; i < 10; i++) {
    const copy = await fresh();
    copy.initSync(module);
    times.push(copy.loadTimes().bn254);
  }
  const median = (xs) => {
    xs.sort((a, b) => a - b);
    return (xs[4] + xs[5]) / 2;
  };
  assert.ok(loadTimes().bn254.frTableMs >= 0);
  console.log(`wasm-load runtime=node backend=bn254 instantiate_median_ms=${median(times.map((t) => t.instantiateMs)).toFixed(1)} fr_table_median_ms=${median(times.map((t) => t.frTableMs)).toFixed(1)}`);
});

// wasm/build.sh removes the `name` section (debug names, about 0.18 MB) from both modules.
test("the shipped modules carry no name section; strip-names removes one and nothing else", () => {
  for (const file of ["tms_verifier.wasm", "tms_verifier_cardano.wasm"]) {
    const wasm = new Uint8Array(readFileSync(new URL(`../npm/${file}`, import.meta.url)));
    const module = new WebAssembly.Module(wasm);
    assert.deepEqual(WebAssembly.Module.customSections(module, "name"), [], `${file} has a name section`);
    // A name section put back is removed, and the result is the shipped module byte for byte.
    const named = withCustomSection(wasm, "name", Uint8Array.from([1, 2, 3]));
    assert.equal(WebAssembly.Module.customSections(new WebAssembly.Module(named), "name").length, 1);
    const stripped = stripNames(named);
    assert.equal(stripped.sections, 1);
    assert.equal(stripped.removed, named.length - wasm.length);
    assert.ok(Buffer.from(stripped.wasm).equals(Buffer.from(wasm)), `${file}: strip-names changed more than the name section`);
  }
});
