// Times blst alone (modules made by blst-flags.sh), interleaved: 100,000 scalar-field
// multiplications, a 2-term pairing (Miller loop and final exponentiation), 32 G1 decompressions
// with subgroup checks, a 64-point MSM (Pippenger). Prints min/median of 15 rounds (ms).
//   node wasm/bench/blst-bench.mjs A.wasm B.wasm ...
import { readFileSync } from "node:fs";

const ops = { fr100k: (e) => e.fr(100000), pairing2: (e) => e.pairing(1), decomp32: (e) => e.decomp(32), msm64: (e) => e.msm(1) };
const modules = [];
for (const file of process.argv.slice(2)) {
  const { instance } = await WebAssembly.instantiate(readFileSync(file), {});
  const e = instance.exports;
  e.setup();
  for (const op of Object.values(ops)) op(e);
  modules.push({ file, e, times: Object.fromEntries(Object.keys(ops).map((k) => [k, []])) });
}
for (let round = 0; round < 15; round++) {
  for (const m of modules) {
    for (const [name, op] of Object.entries(ops)) {
      const start = performance.now();
      op(m.e);
      m.times[name].push(performance.now() - start);
    }
  }
}
for (const m of modules) {
  const cells = Object.entries(m.times).map(([name, t]) => {
    t.sort((a, b) => a - b);
    return `${name}=${t[0].toFixed(2)}/${t[7].toFixed(2)}`;
  });
  console.log(`blst-bench ${m.file} ${cells.join(" ")}`);
}
