// The page (wasm/page) in headless Chromium: it loads a chain proof (or a certificate proof) and
// its statement, verifies it with the web build of the package and shows the statement, the
// verdict and the time; a proof with one byte changed, and a chain key or verifier parameters
// that do not match their pins, are refused. Keeps a screenshot of the chain view (the
// certificate's until the chain fixture exists; wasm/page/screenshot.png, or $TMS_SCREENSHOT)
// and prints
// `wasm-verify runtime=chromium` lines (median of 10 verifications after load). The Cardano
// certificates (`?scheme=cardano/NAME`) go through the second module, tms_verifier_cardano.wasm.
// Prints a `wasm-load runtime=chromium` line: what filling and checking the BN254 module's
// `Fr::from(u64)` table adds to a load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { launch, serve } from "./browser.mjs";

const server = await serve();
const browser = await launch();
test.after(async () => {
  await browser.close();
  server.close();
});

/** Opens the page with `query` and waits for its verdict: `{ state, text }`. */
async function verdict(query) {
  await browser.goto(`http://127.0.0.1:${server.port}/page/index.html${query}`);
  for (let i = 0; i < 600; i++) {
    const v = await browser.evaluate(`(() => { const o = document.getElementById("verdict"); return o && { state: o.dataset.state, text: o.textContent }; })()`);
    if (v && v.state !== "loading") return v;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error("no verdict within 60 s");
}

const cases = [
  ["chain", /^verified: 1 SNARK-Mithril certificates, each signed by the registration the previous one handed over to, from genesis 0x/, /^refused: the chain proof does not verify for the trusted statement/],
  ["schnorr-atms", /^verified \(schnorr-atms\): at least 3 of 4/, /^refused: the proof does not verify for the trusted statement/],
  ["bls-atms", /^verified \(bls-atms\): at least 2 of 4/, /^refused: the proof does not verify for the trusted statement/],
  ["mithril", /^verified \(mithril\): 5 distinct lottery indices/, /^refused: the proof does not verify for the trusted statement/],
  ["cardano/schnorr-atms", /^verified \(schnorr-atms, cardano\): at least 3 of 4/, /^refused: the proof does not verify for the trusted statement \(cardano backend/],
  ["cardano/mithril", /^verified \(mithril, cardano\): 5 distinct lottery indices/, /^refused: the proof does not verify for the trusted statement \(cardano backend/],
];

// Until the chain fixture is committed (wasm/fixtures/make-chain.sh) its cases are skipped and
// the screenshot shows the Schnorr ATMS certificate.
const hasChain = existsSync(new URL("../fixtures/chain/statement.json", import.meta.url));
const noChain = hasChain ? false : "no wasm/fixtures/chain yet (bash wasm/fixtures/make-chain.sh)";
const shot = hasChain ? "chain" : "schnorr-atms";

for (const [scheme, says, refusal] of cases) {
  const skip = scheme === "chain" && noChain;
  test(`${scheme}: the page verifies the honest proof`, { skip }, async () => {
    const v = await verdict(`?scheme=${scheme}`);
    assert.equal(v.state, "verified", v.text);
    assert.match(v.text, says);
    if (scheme === "chain") {
      // What the page shows: genesis, last registration, epoch count, verdict, time.
      const shown = await browser.evaluate(`document.getElementById("statement").textContent`);
      for (const what of ["genesis registration0x", "last registration0x", "epochs1"]) assert.ok(shown.includes(what), shown);
      assert.match(v.text, /\(\d+\.\d ms\)$/);
    }
    if (scheme === shot) {
      writeFileSync(process.env.TMS_SCREENSHOT ?? new URL("../page/screenshot.png", import.meta.url), await browser.screenshot());
    }
    const ms = await browser.evaluate("tmsBench(10)");
    const [backend, name] = scheme.startsWith("cardano/") ? [" backend=cardano", scheme.slice(8)] : ["", scheme];
    console.log(`wasm-verify runtime=chromium${backend} scheme=${name} median_ms=${ms.toFixed(1)}`);
  });

  test(`${scheme}: the page refuses a proof with one byte changed`, { skip }, async () => {
    const v = await verdict(`?scheme=${scheme}&tamper=1`);
    assert.equal(v.state, "refused", v.text);
    assert.match(v.text, refusal);
  });
}

for (const [scheme, key] of [["chain", "chain verifying key"], ["schnorr-atms", "verifying key"], ["cardano/schnorr-atms", "verifying key"]]) {
  const skip = scheme === "chain" && noChain;
  test(`${scheme}: the page refuses a key or parameters that do not match their pins`, { skip }, async () => {
    for (const [pin, refusal] of [["vk", `refused: ${key}: fingerprint`], ["params", "refused: verifier parameters: fingerprint"]]) {
      const v = await verdict(`?scheme=${scheme}&pin=${pin}`);
      assert.equal(v.state, "refused", v.text);
      assert.ok(v.text.startsWith(refusal), v.text);
    }
  });
}

// The BN254 module ships without its `Fr::from(u64)` table (wasm/build.sh cuts it out): the
// package fills and checks it at load. What that adds to a load in the browser: median of 10
// loads of the compiled module, each in a fresh copy of the package.
test("the BN254 module's Fr::from(u64) table is filled and checked at load", async () => {
  await verdict("?scheme=schnorr-atms");
  const times = await browser.evaluate(`(async () => {
    const module = await WebAssembly.compileStreaming(fetch("/npm/tms_verifier.wasm"));
    const times = [];
    for (let i = 0; i < 10; i++) {
      const copy = await import("/npm/tms_verifier.js?copy=" + i);
      await copy.default(module);
      times.push(copy.loadTimes().bn254);
    }
    return times;
  })()`);
  assert.equal(times.length, 10);
  const median = (xs) => {
    xs.sort((a, b) => a - b);
    return (xs[4] + xs[5]) / 2;
  };
  console.log(`wasm-load runtime=chromium backend=bn254 instantiate_median_ms=${median(times.map((t) => t.instantiateMs)).toFixed(1)} fr_table_median_ms=${median(times.map((t) => t.frTableMs)).toFixed(1)}`);
});
