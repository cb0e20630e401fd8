export { AggregationVerifier, CardanoCertificateVerifier, CertificateVerifier, ChainVerifier, loadTimes } from "./tms_verifier.js";
