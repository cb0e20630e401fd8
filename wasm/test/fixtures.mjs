// The committed fixtures (wasm/fixtures, written by `cargo test -p tms-wasm --test agreement --
// --ignored make_fixtures`; wasm/fixtures/cardano by `--test cardano -- --ignored
// make_cardano_fixtures`): what a client pins and trusts, and the proof it is handed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("../fixtures/", import.meta.url);

/** Bytes of a 0x-hex string. */
export function unhex(s) {
  return Uint8Array.from(Buffer.from(s.replace(/^0x/, ""), "hex"));
}

/** The fixture of `scheme` ("cardano/NAME" for the Cardano backend's): its statement.json, key
 * file, verifier parameters (its backend's) and proof. */
export function fixture(scheme) {
  const read = (p) => new Uint8Array(readFileSync(fileURLToPath(new URL(p, root))));
  const statement = JSON.parse(readFileSync(fileURLToPath(new URL(`${scheme}/statement.json`, root)), "utf8"));
  return {
    statement,
    vk: read(`${scheme}/vk.bin`),
    params: read(scheme.startsWith("cardano/") ? "cardano/params.bin" : "params.bin"),
    proof: read(`${scheme}/proof.bin`),
    message: unhex(statement.message),
  };
}

/** The median of `runs` timings (ms) of `f`. */
export function medianMs(f, runs = 10) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return (times[(runs - 1) >> 1] + times[runs >> 1]) / 2;
}

/** `medianMs` of `f`, and the process's CPU time (user + system) per run over the same runs:
 * on a loaded machine the CPU time is nearer what a run takes with a core of its own than the
 * wall time is (it rises with load too: shared vCPUs, background compilation). */
export function medianAndCpuMs(f, runs = 10) {
  const start = process.cpuUsage();
  const median = medianMs(f, runs);
  const used = process.cpuUsage(start);
  return { median, cpu: (used.user + used.system) / 1000 / runs };
}

/** Throws unless `f` throws an Error of one line matching `pattern`. */
export function refuses(f, pattern) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof Error, `not an Error: ${e}`);
    assert.ok(!e.message.includes("\n"), `more than one line: ${e.message}`);
    assert.match(e.message, pattern);
    return true;
  });
}

/** The aggregation fixture (wasm/fixtures/aggregate, made by make-aggregate.sh): its
 * statement.json, key, the BN254 verifier parameters, proof, and the certificates as
 * `AggregationVerifier.verify` takes them (message bytes). */
export function aggregateFixture() {
  const read = (p) => new Uint8Array(readFileSync(fileURLToPath(new URL(p, root))));
  const statement = JSON.parse(readFileSync(fileURLToPath(new URL("aggregate/statement.json", root)), "utf8"));
  return {
    statement,
    vk: read("aggregate/vk.bin"),
    params: read("params.bin"),
    proof: read("aggregate/proof.bin"),
    certificates: certificates(statement.certificates),
  };
}

/** The certificates of an aggregation statement, message bytes instead of hex. */
export function certificates(list) {
  return list.map((c) => ({ commitment: c.commitment, message: unhex(c.message), threshold: c.threshold }));
}
