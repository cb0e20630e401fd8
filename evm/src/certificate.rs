//! `CertificateVerifier.sol`: the example contract a bridge deploys beside the generated
//! verifier. It holds the trusted committee digest and threshold and computes the message input
//! itself (`keccak256(message) mod r`), so a caller hands over only the message and the proof.
//!
//! This module encodes its constructor and `verifyCertificate(bytes,bytes)` calls by hand (the
//! ABI of two dynamic `bytes` and four static words is short) and deploys the pair in a
//! [`Machine`].

use halo2_base::halo2_proofs::{
    halo2curves::{
        bn256::{Bn256, Fr, G1Affine},
        ff::PrimeField,
    },
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use revm::primitives::Address;
use sha3::{Digest, Keccak256};

use crate::{
    machine::{Call, Machine},
    solc::{compile, Compiled},
    verifier::{verifier_source_with_accumulator, CONTRACT},
    EvmError,
};

/// The contract's Solidity source.
pub const SOURCE: &str = include_str!("../contracts/CertificateVerifier.sol");
/// Its file name.
pub const FILE: &str = "CertificateVerifier.sol";

/// What a deployed `CertificateVerifier` trusts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrustedStatement {
    /// The committee commitment, committee digest or registration digest.
    pub committee_digest: Fr,
    /// The threshold the proof must be for, if the statement has one (ATMS; `None` for Mithril).
    pub threshold: Option<u64>,
    /// Public inputs before the statement, carried at the front of the proof: the accumulator
    /// limbs of an outer (aggregation) proof (`tms-aggregation`), 0 for a certificate proof.
    pub accumulator_words: usize,
}

impl TrustedStatement {
    /// The number of public inputs of the circuit this statement is for.
    pub fn num_instances(&self) -> usize {
        self.accumulator_words + if self.threshold.is_some() { 3 } else { 2 }
    }
}

/// The first four bytes of `keccak256(signature)`.
pub fn selector(signature: &str) -> [u8; 4] {
    let digest = Keccak256::digest(signature.as_bytes());
    [digest[0], digest[1], digest[2], digest[3]]
}

fn word_fr(x: &Fr) -> [u8; 32] {
    let mut w = x.to_repr();
    w.reverse();
    w
}

fn word_u64(x: u64) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[24..].copy_from_slice(&x.to_be_bytes());
    w
}

/// The creation code of
/// `CertificateVerifier(verifier, digest, threshold, bindsThreshold, accumulatorWords)`.
pub fn creation_code(
    compiled: &Compiled,
    verifier: Address,
    trusted: &TrustedStatement,
) -> Vec<u8> {
    let mut code = compiled.creation.clone();
    let mut address = [0u8; 32];
    address[12..].copy_from_slice(verifier.as_slice());
    code.extend(address);
    code.extend(word_fr(&trusted.committee_digest));
    code.extend(word_u64(trusted.threshold.unwrap_or(0)));
    code.extend(word_u64(u64::from(trusted.threshold.is_some())));
    code.extend(word_u64(trusted.accumulator_words as u64));
    code
}

/// The calldata of `verifyCertificate(message, proof)`.
pub fn verify_certificate_calldata(message: &[u8], proof: &[u8]) -> Vec<u8> {
    let padded = |len: usize| len.div_ceil(32) * 32;
    let mut data = selector("verifyCertificate(bytes,bytes)").to_vec();
    data.extend(word_u64(64));
    data.extend(word_u64((64 + 32 + padded(message.len())) as u64));
    for bytes in [message, proof] {
        data.extend(word_u64(bytes.len() as u64));
        data.extend(bytes);
        data.resize(data.len() + padded(bytes.len()) - bytes.len(), 0);
    }
    data
}

/// The compiled generated verifier and `CertificateVerifier`.
#[derive(Clone, Debug)]
pub struct Contracts {
    /// The generated Halo2 verifier's Solidity source.
    pub verifier_source: String,
    /// The generated verifier, compiled.
    pub verifier: Compiled,
    /// `CertificateVerifier`, compiled.
    pub certificate: Compiled,
}

impl Contracts {
    /// Generates the verifier of `vk` for `num_instances` public inputs and compiles both.
    pub fn build(
        params: &ParamsKZG<Bn256>,
        vk: &VerifyingKey<G1Affine>,
        num_instances: usize,
    ) -> Result<Self, EvmError> {
        Self::build_with_accumulator(params, vk, num_instances, 0)
    }

    /// [`Self::build`] for an outer proof whose first `accumulator_limbs` public inputs are a
    /// KZG accumulator.
    pub fn build_with_accumulator(
        params: &ParamsKZG<Bn256>,
        vk: &VerifyingKey<G1Affine>,
        num_instances: usize,
        accumulator_limbs: usize,
    ) -> Result<Self, EvmError> {
        let verifier_source =
            verifier_source_with_accumulator(params, vk, num_instances, accumulator_limbs)?;
        let verifier = compile(
            &[("Halo2Verifier.sol", &verifier_source)],
            "Halo2Verifier.sol",
            CONTRACT,
            false,
        )?;
        let certificate = compile(&[(FILE, SOURCE)], FILE, "CertificateVerifier", true)?;
        Ok(Self {
            verifier_source,
            verifier,
            certificate,
        })
    }
}

/// A deployed verifier and `CertificateVerifier` pair.
#[derive(Clone, Copy, Debug)]
pub struct Deployment {
    /// The generated verifier's address.
    pub verifier: Address,
    /// Its deployment gas.
    pub verifier_gas: u64,
    /// `CertificateVerifier`'s address.
    pub certificate: Address,
    /// Its deployment gas.
    pub certificate_gas: u64,
}

impl Deployment {
    /// Deploys `contracts` for `trusted` in `machine`.
    pub fn deploy(
        machine: &mut Machine,
        contracts: &Contracts,
        trusted: &TrustedStatement,
    ) -> Result<Self, EvmError> {
        let verifier = machine.deploy(contracts.verifier.creation.clone())?;
        let certificate = machine.deploy(creation_code(
            &contracts.certificate,
            verifier.address,
            trusted,
        ))?;
        Ok(Self {
            verifier: verifier.address,
            verifier_gas: verifier.gas,
            certificate: certificate.address,
            certificate_gas: certificate.gas,
        })
    }

    /// `verifyCertificate(message, proof)`: accepted if the call returns true.
    pub fn verify_certificate(
        &self,
        machine: &mut Machine,
        message: &[u8],
        proof: &[u8],
    ) -> Result<Call, EvmError> {
        let mut call = machine.call(
            self.certificate,
            verify_certificate_calldata(message, proof),
        )?;
        // A successful call returns the ABI word `true`; anything else is a rejection.
        call.success &= call.output == word_u64(1);
        Ok(call)
    }
}

/// The on-chain cost of one certificate: sizes and gas, measured in a fresh [`Machine`] with the
/// EIP-170 limit lifted (so that a verifier over it is still measured; see `within_eip170`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GasReport {
    /// The generated verifier's deployed code, in bytes.
    pub verifier_bytes: usize,
    /// Whether it is at most EIP-170's limit (mainnet deploys it).
    pub within_eip170: bool,
    /// Gas of deploying the generated verifier.
    pub verifier_deploy_gas: u64,
    /// Gas of deploying `CertificateVerifier`.
    pub certificate_deploy_gas: u64,
    /// Gas of one transaction calling the generated verifier with the proof's calldata.
    pub verifier_call_gas: u64,
    /// Gas of one `verifyCertificate(message, proof)` transaction.
    pub certificate_call_gas: u64,
    /// The proof, in bytes.
    pub proof_bytes: usize,
}

impl GasReport {
    /// Deploys `contracts` for `trusted`, verifies `proof` of `public_inputs` (built by the
    /// caller from `trusted` and `message`) both ways, and reports; an error if either call
    /// rejects it. For an outer proof `proof` starts with the accumulator limbs, as
    /// `verifyCertificate` takes it.
    pub fn measure(
        contracts: &Contracts,
        trusted: &TrustedStatement,
        public_inputs: &[Fr],
        message: &[u8],
        proof: &[u8],
    ) -> Result<Self, EvmError> {
        let mut machine = Machine::new(false);
        let deployment = Deployment::deploy(&mut machine, contracts, trusted)?;
        // The raw verifier takes every public input (accumulator limbs included) up front.
        let split = (trusted.accumulator_words * 32).min(proof.len());
        let raw = machine.call(
            deployment.verifier,
            crate::verifier::calldata(public_inputs, &proof[split..]),
        )?;
        let certificate = deployment.verify_certificate(&mut machine, message, proof)?;
        if !raw.success || !certificate.success {
            return Err(EvmError::Input(
                "the deployed verifier rejected the certificate".into(),
            ));
        }
        let verifier_bytes = contracts.verifier.runtime.len();
        Ok(Self {
            verifier_bytes,
            within_eip170: verifier_bytes <= crate::EIP170_LIMIT,
            verifier_deploy_gas: deployment.verifier_gas,
            certificate_deploy_gas: deployment.certificate_gas,
            verifier_call_gas: raw.gas,
            certificate_call_gas: certificate.gas,
            proof_bytes: proof.len(),
        })
    }
}

impl std::fmt::Display for GasReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "verifier_bytes={} eip170={} verifier_deploy_gas={} certificate_deploy_gas={} \
             verifier_call_gas={} verify_certificate_gas={} evm_proof_bytes={}",
            self.verifier_bytes,
            if self.within_eip170 { "within" } else { "over" },
            self.verifier_deploy_gas,
            self.certificate_deploy_gas,
            self.verifier_call_gas,
            self.certificate_call_gas,
            self.proof_bytes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_matches_the_solidity_abi() {
        // keccak256("transfer(address,uint256)")[..4], the best-known selector.
        assert_eq!(
            selector("transfer(address,uint256)"),
            [0xa9, 0x05, 0x9c, 0xbb]
        );
    }

    #[test]
    fn dynamic_arguments_are_padded_to_words() {
        let data = verify_certificate_calldata(&[1, 2, 3], &[9; 33]);
        // selector, two offsets, (len, 1 word), (len, 2 words)
        assert_eq!(data.len(), 4 + 32 * 2 + 32 * 2 + 32 * 3);
        assert_eq!(data[4 + 31], 64);
        assert_eq!(data[4 + 63], 128);
        assert_eq!(data[4 + 64 + 31], 3);
        assert_eq!(&data[4 + 96..4 + 99], &[1, 2, 3]);
        assert_eq!(data[4 + 128 + 31], 33);
    }
}
