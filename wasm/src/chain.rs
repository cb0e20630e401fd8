//! A Mithril chain verifier holding a pinned chain key and pinned KZG verifier parameters: a
//! chain tree's root key (`tms chain prove`) or an extended chain's wrapper key (`tms chain
//! wrap`), both verified as `tms chain verify` verifies them ([`verify_chain_proof`]: the
//! halo2 proof in the EVM transcript and the KZG accumulator it carries), from the statement the
//! client trusts: the genesis registration digest, the last registration digest, the last
//! application message and the number of epochs.

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use mithril_snark::chain::ChainStatement;
use tms_aggregation::{
    chain::{verify_chain_proof, ROOT_STATEMENT, STEP_STATEMENT, WRAPPED_STATEMENT},
    read_vk_file, split_proof_file, VkHeader,
};
use tms_gadgets::{
    message::{field_bytes, message_to_field},
    proving::Transcript,
};

use crate::{
    params::verifier_params,
    verifier::{check_pin, describe_message, fr_from_hex, hex},
};

/// What the client trusts about a chain.
#[derive(Clone, Debug)]
pub struct TrustedChain {
    /// The genesis registration's digest, `0x` + 64 hex digits.
    pub genesis: String,
    /// The digest of the registration the chain is claimed to hand over to last.
    pub last_registration: String,
    /// The last certificate's application message bytes.
    pub message: Vec<u8>,
    /// The number of epochs (certificates) claimed.
    pub epochs: u64,
}

/// A chain verifier for one pinned chain key.
pub struct PinnedChainVerifier {
    header: VkHeader,
    vk: VerifyingKey<G1Affine>,
    params: ParamsKZG<Bn256>,
    vk_fingerprint: String,
    params_fingerprint: String,
}

impl PinnedChainVerifier {
    /// Checks the chain key file and the verifier parameters against their pins, then reads
    /// them; refuses a key that is not a chain root's or a wrapped chain's.
    pub fn new(
        vk_file: &[u8],
        vk_fingerprint: &str,
        params_file: &[u8],
        params_fingerprint: &str,
    ) -> Result<Self, String> {
        let vk_fingerprint = check_pin("chain verifying key", vk_file, vk_fingerprint)?;
        let params_fingerprint = check_pin("verifier parameters", params_file, params_fingerprint)?;
        let (header, vk) =
            read_vk_file(vk_file).map_err(|e| format!("chain verifying key: {e}"))?;
        match header.statement.as_str() {
            ROOT_STATEMENT | WRAPPED_STATEMENT => {}
            STEP_STATEMENT => {
                return Err(
                    "chain verifying key: a chain step key (tms chain extend's): this \
                            package verifies its wrapped proof (tms chain wrap) or a tree's root"
                        .into(),
                )
            }
            other => {
                return Err(format!(
                    "chain verifying key: a key for {other:?}, not a Mithril chain"
                ))
            }
        }
        let params = verifier_params(params_file, header.config.degree)?;
        Ok(Self {
            header,
            vk,
            params,
            vk_fingerprint,
            params_fingerprint,
        })
    }

    /// What the pinned key closes.
    pub fn describe(&self) -> String {
        let k = self.header.config.degree;
        match self.header.chain {
            Some(shape) => format!(
                "mithril chain tree root: {} epochs (tree {},{},{}), 2^{k} rows",
                shape.epochs(),
                shape.per_leaf,
                shape.per_node,
                shape.levels
            ),
            None => format!(
                "mithril chain extended one epoch at a time, wrapped: any length, 2^{k} rows"
            ),
        }
    }

    /// The number of epochs a tree root key closes; none for a wrapped chain (any length).
    pub fn key_epochs(&self) -> Option<usize> {
        self.header.chain.map(|shape| shape.epochs())
    }

    /// Verifies a chain proof file (`tms chain prove`'s or `tms chain wrap`'s) for the statement
    /// built from `trusted`; the verdict names what was verified. Refuses as `tms chain verify`
    /// does.
    pub fn verify(&self, trusted: &TrustedChain, proof_file: &[u8]) -> Result<String, String> {
        let statement = ChainStatement {
            genesis: fr_from_hex("genesis digest", &trusted.genesis)?,
            last_registration: fr_from_hex("last registration digest", &trusted.last_registration)?,
            last_application: message_to_field(&trusted.message),
            epochs: usize::try_from(trusted.epochs)
                .map_err(|_| format!("epochs {}: too many", trusted.epochs))?,
        };
        if let Some(closes) = self.key_epochs().filter(|&n| n != statement.epochs) {
            return Err(format!(
                "the key closes chains of {closes} epochs; the trusted statement says {}",
                statement.epochs
            ));
        }
        let (accumulator, proof) =
            split_proof_file(proof_file).map_err(|e| format!("chain proof: {e}"))?;
        if !verify_chain_proof(
            &self.params,
            &self.vk,
            &statement,
            &accumulator,
            &proof,
            Transcript::Evm,
        ) {
            return Err(
                "the chain proof does not verify for the trusted statement (genesis, last \
                        registration, last application message, epochs)"
                    .into(),
            );
        }
        Ok(format!(
            "verified: {} SNARK-Mithril certificates, each signed by the registration the \
             previous one handed over to, from genesis {} to registration {}; last {}; chain key \
             pinned (sha256 {}), verifier parameters pinned (sha256 {})",
            statement.epochs,
            hex(&field_bytes(&statement.genesis)),
            hex(&field_bytes(&statement.last_registration)),
            describe_message(&trusted.message, &statement.last_application),
            self.vk_fingerprint,
            self.params_fingerprint
        ))
    }
}
