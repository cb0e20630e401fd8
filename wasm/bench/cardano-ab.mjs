// Compares Cardano module variants (e.g. built with other CFLAGS_wasm32_unknown_unknown, names
// kept or not) in Node, through the package's JavaScript, on both Cardano fixtures: rounds
// interleaved across variants; per variant and fixture the median over rounds of the median of
// 10 verifications, and of the CPU time per verification (process.cpuUsage: on a loaded machine
// nearer than the wall time to what a verification takes with a core of its own).
//   ROUNDS=9 node wasm/bench/cardano-ab.mjs A.wasm B.wasm ...
import { readFileSync } from "node:fs";
import { fixture, medianAndCpuMs } from "../test/fixtures.mjs";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const variants = [];
for (const [copy, file] of process.argv.slice(2).entries()) {
  const pkg = await import(`../npm/tms_verifier.js?variant=${copy}`);
  pkg.initCardanoSync(readFileSync(file));
  const runs = {};
  for (const scheme of ["schnorr-atms", "mithril"]) {
    const f = fixture(`cardano/${scheme}`);
    const s = f.statement;
    const v = new pkg.CardanoCertificateVerifier(s.scheme, f.vk, s.vkFingerprint, f.params, s.paramsFingerprint);
    const run = () => v.verify(s.commitment, f.message, s.threshold, f.proof);
    if (!run().startsWith("verified")) throw new Error(`${file}: ${scheme} does not verify`);
    runs[scheme] = { run, wall: [], cpu: [] };
  }
  variants.push({ file, runs });
}
for (let round = 0; round < Number(process.env.ROUNDS ?? 9); round++) {
  for (const { runs } of variants) {
    for (const r of Object.values(runs)) {
      const { median: wall, cpu } = medianAndCpuMs(r.run);
      r.wall.push(wall);
      r.cpu.push(cpu);
    }
  }
}
for (const { file, runs } of variants) {
  const cells = Object.entries(runs).map(([scheme, r]) => `${scheme} median_ms=${median(r.wall).toFixed(1)} cpu_ms=${median(r.cpu).toFixed(1)}`);
  console.log(`cardano-ab node ${file} ${cells.join(" ")}`);
}
