//! An aggregation verifier holding a pinned aggregation key (`tms aggregate keygen` or `tms
//! aggregate prove`'s: N certificate proofs of one scheme in one proof, `ExposeAll`) and pinned KZG
//! verifier parameters, verifying as `tms aggregate verify` does: the proof in the EVM transcript,
//! the KZG accumulator it carries, and every certificate's public inputs built from the statement
//! the client holds (commitment, message bytes, threshold), in the aggregation's order.

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use mithril_snark::MithrilShape;
use tms_aggregation::{
    aggregation_verify, read_vk_file, snark::read_vk_header, split_proof_file, VkHeader,
};
use tms_gadgets::{
    message::{field_bytes, message_to_field},
    proving::Transcript,
    Fr,
};

use crate::{
    params::verifier_params,
    verifier::{check_pin, describe_message, fr_from_hex, hex, required_threshold, Scheme},
};

/// At most this many certificates in one aggregation (`tms aggregate`'s limit).
pub const MAX_CERTIFICATES: usize = 16;

/// What the client holds about one aggregated certificate.
#[derive(Clone, Debug)]
pub struct CertificateStatement {
    /// The committee commitment (BLS ATMS: the committee digest; Mithril: the registration
    /// digest), `0x` + 64 hex digits.
    pub commitment: String,
    /// The message bytes.
    pub message: Vec<u8>,
    /// The threshold (Schnorr and BLS ATMS: required; Mithril: optional, and then the quorum k
    /// of the key's certificate circuit).
    pub threshold: Option<u64>,
}

/// An aggregation verifier for one pinned aggregation key.
pub struct PinnedAggregationVerifier {
    scheme: Scheme,
    count: usize,
    header: VkHeader,
    vk: VerifyingKey<G1Affine>,
    params: ParamsKZG<Bn256>,
    vk_fingerprint: String,
    params_fingerprint: String,
}

/// The number of certificates an aggregation key of `scheme` states (its header's statement is
/// `aggregate SCHEME xN`), or the one-line reason it is not such a key.
fn aggregated_count(scheme: Scheme, statement: &str) -> Result<usize, String> {
    let not_ours = || {
        format!(
            "aggregation key: a key for {statement:?}, not an aggregation of {} certificates",
            scheme.name()
        )
    };
    let count = statement
        .strip_prefix("aggregate ")
        .and_then(|rest| rest.strip_prefix(scheme.name()))
        .and_then(|rest| rest.strip_prefix(" x"))
        .ok_or_else(not_ours)?;
    count
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_CERTIFICATES).contains(n))
        .ok_or_else(not_ours)
}

impl PinnedAggregationVerifier {
    /// Checks the aggregation key file and the verifier parameters against their pins, then reads
    /// them; refuses a key that is not an aggregation of `scheme` certificates.
    pub fn new(
        scheme: &str,
        vk_file: &[u8],
        vk_fingerprint: &str,
        params_file: &[u8],
        params_fingerprint: &str,
    ) -> Result<Self, String> {
        let scheme = Scheme::parse(scheme)?;
        let vk_fingerprint = check_pin("aggregation key", vk_file, vk_fingerprint)?;
        let params_fingerprint = check_pin("verifier parameters", params_file, params_fingerprint)?;
        // What the key says it aggregates, before its body is read (a chain root's read builds
        // GiB of FFT tables).
        let (header, _) = read_vk_header(vk_file).map_err(|e| format!("aggregation key: {e}"))?;
        let count = aggregated_count(scheme, &header.statement)?;
        let (header, vk) = read_vk_file(vk_file).map_err(|e| format!("aggregation key: {e}"))?;
        let params = verifier_params(params_file, header.config.degree)?;
        Ok(Self {
            scheme,
            count,
            header,
            vk,
            params,
            vk_fingerprint,
            params_fingerprint,
        })
    }

    /// What the pinned key aggregates.
    pub fn describe(&self) -> String {
        format!(
            "aggregation of {} {} certificates, 2^{} rows",
            self.count,
            self.scheme.name(),
            self.header.config.degree
        )
    }

    /// The number of certificates the key aggregates.
    pub fn count(&self) -> usize {
        self.count
    }

    /// One certificate's public inputs, built as its scheme's verifier builds them, and how the
    /// verdict shows it.
    fn certificate_inputs(&self, c: &CertificateStatement) -> Result<(Vec<Fr>, String), String> {
        let commitment = fr_from_hex("commitment", &c.commitment)?;
        let m = message_to_field(&c.message);
        let shown = describe_message(&c.message, &m);
        let commitment_hex = hex(&field_bytes(&commitment));
        Ok(match self.scheme {
            Scheme::SchnorrAtms => {
                let t = required_threshold(c.threshold)?;
                let inputs =
                    schnorr_atms::AtmsInstance::from_trusted_commitment(commitment, &c.message, t)
                        .to_public_inputs();
                (
                    inputs,
                    format!("commitment {commitment_hex}, {shown}, threshold {t}"),
                )
            }
            Scheme::BlsAtms => {
                let t = required_threshold(c.threshold)?;
                let inputs = bls_atms::AtmsInstance::from_trusted_digest(commitment, &c.message, t)
                    .to_public_inputs();
                (
                    inputs,
                    format!("committee digest {commitment_hex}, {shown}, threshold {t}"),
                )
            }
            Scheme::Mithril => {
                if let Some(t) = c.threshold {
                    let quorum = self
                        .header
                        .inner
                        .clone()
                        .and_then(|shape| serde_json::from_value::<MithrilShape>(shape).ok())
                        .map(|shape| shape.index_slots as u64);
                    if quorum != Some(t) {
                        let stated = quorum.map_or("states none".into(), |k| format!("is k = {k}"));
                        return Err(format!(
                            "threshold {t}: the aggregated certificates' quorum {stated}"
                        ));
                    }
                }
                let inputs = mithril_snark::MithrilInstance::public_inputs(commitment, m);
                (inputs, format!("registration {commitment_hex}, {shown}"))
            }
        })
    }

    /// Verifies an aggregation proof file (`tms aggregate prove`'s: accumulator words, then the
    /// proof in the EVM transcript) for the certificates' statements the client holds, in the
    /// aggregation's order; the verdict names each. Refuses as `tms aggregate verify` does.
    pub fn verify(
        &self,
        statements: &[CertificateStatement],
        proof_file: &[u8],
    ) -> Result<String, String> {
        if statements.len() != self.count {
            return Err(format!(
                "the aggregation key is for {} {} certificates; {} statements were given",
                self.count,
                self.scheme.name(),
                statements.len()
            ));
        }
        let (mut public_inputs, proof) =
            split_proof_file(proof_file).map_err(|e| format!("aggregation proof: {e}"))?;
        let mut shown = Vec::with_capacity(statements.len());
        for (i, statement) in statements.iter().enumerate() {
            let (inputs, line) = self
                .certificate_inputs(statement)
                .map_err(|e| format!("certificate {i}: {e}"))?;
            public_inputs.extend(inputs);
            shown.push(format!("{i}: {line}"));
        }
        if public_inputs.len() != self.header.num_instances
            || !aggregation_verify(
                &self.params,
                &self.vk,
                &public_inputs,
                &proof,
                Transcript::Evm,
            )
        {
            return Err(
                "the aggregation proof does not verify for these trusted statements (in this \
                 order)"
                    .into(),
            );
        }
        Ok(format!(
            "verified: {} {} certificates in one proof; {}; aggregation key pinned (sha256 {}), \
             verifier parameters pinned (sha256 {})",
            self.count,
            self.scheme.name(),
            shown.join("; "),
            self.vk_fingerprint,
            self.params_fingerprint
        ))
    }
}
