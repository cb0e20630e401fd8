export { CertificateVerifier } from "./tms_verifier.js";
