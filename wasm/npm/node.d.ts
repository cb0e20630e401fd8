export { CardanoCertificateVerifier, CertificateVerifier, ChainVerifier } from "./tms_verifier.js";
