// tms-verifier for Node: loads tms_verifier.wasm synchronously, so the class is ready on import.
import { readFileSync } from "node:fs";
import { initSync } from "./tms_verifier.js";

initSync(readFileSync(new URL("./tms_verifier.wasm", import.meta.url)));

export { CertificateVerifier, ChainVerifier } from "./tms_verifier.js";
