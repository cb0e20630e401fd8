export { CertificateVerifier, ChainVerifier } from "./tms_verifier.js";
