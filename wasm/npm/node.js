// tms-verifier for Node: loads tms_verifier.wasm and tms_verifier_cardano.wasm synchronously, so
// the classes are ready on import.
import { readFileSync } from "node:fs";
import { initCardanoSync, initSync } from "./tms_verifier.js";

initSync(readFileSync(new URL("./tms_verifier.wasm", import.meta.url)));
initCardanoSync(readFileSync(new URL("./tms_verifier_cardano.wasm", import.meta.url)));

export { AggregationVerifier, CardanoCertificateVerifier, CertificateVerifier, ChainVerifier, loadTimes } from "./tms_verifier.js";
