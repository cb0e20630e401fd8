// Removes the `name` custom section (function and local names for debuggers and profilers: about
// 0.18 MB of each module, never read when verifying) from a module, reusing the section parser
// of strip-fr-table.mjs. Every other section is kept byte for byte.
//
//   node wasm/strip-names.mjs IN.wasm OUT.wasm    (wasm/build.sh runs it on both modules; OUT
//                                                 may be IN)
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { customSection, sections, withoutCustomSection } from "./strip-fr-table.mjs";

/** The custom section this script removes. */
export const NAME_SECTION = "name";

/** `wasm` without its `name` section, and how many bytes that removed. */
export function stripNames(wasm) {
  const named = sections(wasm).filter((s) => s.id === 0 && customSection(s).name === NAME_SECTION);
  const stripped = withoutCustomSection(wasm, NAME_SECTION);
  return { wasm: stripped, removed: wasm.length - stripped.length, sections: named.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error("usage: node wasm/strip-names.mjs IN.wasm OUT.wasm");
    process.exit(2);
  }
  try {
    const stripped = stripNames(new Uint8Array(readFileSync(input)));
    writeFileSync(output, stripped.wasm);
    console.log(`strip-names removed_bytes=${stripped.removed} sections=${stripped.sections} (${input} -> ${output})`);
  } catch (e) {
    console.error(`strip-names: ${input}: ${e.message}`);
    process.exit(1);
  }
}
