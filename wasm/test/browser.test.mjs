// The page (wasm/page) in headless Chromium: it loads a certificate proof and its statement,
// verifies it with the web build of the package and shows the verdict; a proof with one byte
// changed is refused. Keeps a screenshot (wasm/page/screenshot.png, or $TMS_SCREENSHOT) and prints
// `wasm-verify runtime=chromium` lines (median of 10 verifications after load).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
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

for (const [scheme, says] of [["schnorr-atms", /^verified \(schnorr-atms\): at least 3 of 4/], ["mithril", /^verified \(mithril\): 5 distinct lottery indices/]]) {
  test(`${scheme}: the page verifies the honest proof`, async () => {
    const v = await verdict(`?scheme=${scheme}`);
    assert.equal(v.state, "verified", v.text);
    assert.match(v.text, says);
    if (scheme === "schnorr-atms") {
      writeFileSync(process.env.TMS_SCREENSHOT ?? new URL("../page/screenshot.png", import.meta.url), await browser.screenshot());
    }
    const ms = await browser.evaluate("tmsBench(10)");
    console.log(`wasm-verify runtime=chromium scheme=${scheme} median_ms=${ms.toFixed(1)}`);
  });

  test(`${scheme}: the page refuses a proof with one byte changed`, async () => {
    const v = await verdict(`?scheme=${scheme}&tamper=1`);
    assert.equal(v.state, "refused", v.text);
    assert.match(v.text, /^refused: the proof does not verify for the trusted statement/);
  });
}
