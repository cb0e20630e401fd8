// Compares Cardano module variants in headless Chromium: each variant in turn is copied in as
// wasm/npm/tms_verifier_cardano.wasm (the shipped file is put back at the end), a fresh browser
// loads the page with each Cardano fixture and runs its `tmsBench(10)` REPS times; per variant
// and fixture the median over rounds of the last one, and the CPU time of the browser's renderer
// processes (from /proc, 10 ms ticks) per verification over that last one.
//   ROUNDS=4 REPS=3 node wasm/bench/cardano-chromium-ab.mjs A.wasm B.wasm ...   (Linux)
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launch, serve } from "../test/browser.mjs";

const shipped = fileURLToPath(new URL("../npm/tms_verifier_cardano.wasm", import.meta.url));
const kept = readFileSync(shipped);
const renderers = () =>
  readdirSync("/proc").filter((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer");
    } catch {
      return false;
    }
  });
const cpuMs = (pids) =>
  pids.reduce((sum, pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return sum;
    }
  }, 0);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

const files = process.argv.slice(2);
const reps = Number(process.env.REPS ?? 3);
const results = files.map(() => ({ "schnorr-atms": { wall: [], cpu: [] }, mithril: { wall: [], cpu: [] } }));
const server = await serve();
try {
  for (let round = 0; round < Number(process.env.ROUNDS ?? 4); round++) {
    for (const [i, file] of files.entries()) {
      copyFileSync(file, shipped);
      const before = new Set(renderers());
      const browser = await launch();
      try {
        for (const scheme of ["schnorr-atms", "mithril"]) {
          await browser.goto(`http://127.0.0.1:${server.port}/page/index.html?scheme=cardano/${scheme}&round=${round}`);
          let verdict;
          for (let wait = 0; wait < 600 && !(verdict && verdict.state !== "loading"); wait++) {
            await new Promise((ok) => setTimeout(ok, 100));
            verdict = await browser.evaluate(`(() => { const o = document.getElementById("verdict"); return o && { state: o.dataset.state, text: o.textContent }; })()`);
          }
          if (verdict?.state !== "verified") throw new Error(`${file}: ${scheme}: ${verdict?.text}`);
          const mine = renderers().filter((pid) => !before.has(pid));
          let wall = 0;
          let cpu = 0;
          for (let rep = 0; rep < reps; rep++) {
            const start = cpuMs(mine);
            wall = await browser.evaluate("tmsBench(10)");
            cpu = (cpuMs(mine) - start) / 10;
          }
          results[i][scheme].wall.push(wall);
          results[i][scheme].cpu.push(cpu);
        }
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  server.close();
  writeFileSync(shipped, kept);
}
for (const [i, file] of files.entries()) {
  const cells = Object.entries(results[i]).map(([scheme, r]) => `${scheme} median_ms=${median(r.wall).toFixed(1)} renderer_cpu_ms=${median(r.cpu).toFixed(1)}`);
  console.log(`cardano-ab chromium ${file} ${cells.join(" ")}`);
}
