//! The generated Halo2 verifier: snark-verifier compiles a verifying key (and the KZG
//! parameters' `[1]_1`, `[1]_2`, `[s]_2`) into a Solidity contract of inline assembly that replays
//! the EVM (Keccak) transcript, checks every opening with the SHPLONK multi-open and one pairing
//! check through the BN254 precompiles, and reverts on any failure.
//!
//! Its calldata ([`calldata`]) is the public inputs, 32 big-endian bytes each in instance order,
//! followed by the proof bytes. It reads both at fixed offsets: it ignores bytes after the
//! proof's [`proof_length`], reads missing ones as zeros, and reduces every scalar word mod r,
//! so a contract in front of it checks the length and keys replay protection on the statement.

use std::rc::Rc;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, Fq, Fr, G1Affine},
    plonk::VerifyingKey,
    poly::{commitment::ParamsProver, kzg::commitment::ParamsKZG},
};
use snark_verifier_sdk::{
    snark_verifier::{
        cost::CostEstimation,
        loader::evm::{encode_calldata, EvmLoader},
        system::halo2::{compile, transcript::evm::EvmTranscript, Config},
        verifier::{plonk::PlonkProtocol, SnarkVerifier},
    },
    PlonkVerifier, GWC, SHPLONK,
};
use tms_gadgets::proving::MultiOpen;

use crate::EvmError;

/// The name of the generated contract (snark-verifier's).
pub const CONTRACT: &str = "Halo2Verifier";

/// The Solidity source of the verifier of `vk` for one instance column of `num_instances`
/// public inputs.
pub fn verifier_source(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
) -> Result<String, EvmError> {
    verifier_source_with_accumulator(params, vk, num_instances, 0)
}

/// [`verifier_source`] for a circuit whose first `accumulator_limbs` public inputs are a KZG
/// accumulator (an aggregation circuit's: the verifier folds it into its pairing check).
pub fn verifier_source_with_accumulator(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    accumulator_limbs: usize,
) -> Result<String, EvmError> {
    verifier_source_for(
        params,
        vk,
        num_instances,
        accumulator_limbs,
        MultiOpen::Shplonk,
    )
}

/// [`verifier_source_with_accumulator`] for proofs that end with the multi-opening argument
/// `open` (a GWC verifier checks only GWC proofs).
pub fn verifier_source_for(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    accumulator_limbs: usize,
    open: MultiOpen,
) -> Result<String, EvmError> {
    let generate = || -> Result<String, String> {
        let protocol = protocol(params, vk, num_instances, accumulator_limbs);
        match open {
            MultiOpen::Shplonk => generated::<SHPLONK>(params, &protocol, num_instances),
            MultiOpen::Gwc => generated::<GWC>(params, &protocol, num_instances),
        }
    };
    // snark-verifier asserts on keys it cannot compile; a key file is user data.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(generate))
        .map_err(|_| EvmError::Generation("snark-verifier panicked on this key".into()))?
        .map_err(EvmError::Generation)
}

/// The Solidity of snark-verifier's verifier of `protocol` with the accumulation scheme `AS`.
fn generated<AS>(
    params: &ParamsKZG<Bn256>,
    protocol: &PlonkProtocol<G1Affine>,
    num_instances: usize,
) -> Result<String, String>
where
    AS: snark_verifier_sdk::evm::EvmKzgAccumulationScheme,
{
    let deciding_key = (params.get_g()[0], params.g2(), params.s_g2()).into();
    let loader = EvmLoader::new::<Fq, Fr>();
    let protocol = protocol.loaded(&loader);
    let mut transcript = EvmTranscript::<_, Rc<EvmLoader>, _, _>::new(&loader);
    let instances = transcript.load_instances(vec![num_instances]);
    let proof =
        PlonkVerifier::<AS>::read_proof(&deciding_key, &protocol, &instances, &mut transcript)
            .map_err(|e| format!("{e:?}"))?;
    PlonkVerifier::<AS>::verify(&deciding_key, &protocol, &instances, &proof)
        .map_err(|e| format!("{e:?}"))?;
    Ok(loader.solidity_code())
}

/// The protocol snark-verifier compiles from `vk`: what the generated verifier reads.
fn protocol(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    accumulator_limbs: usize,
) -> PlonkProtocol<G1Affine> {
    let accumulator =
        (accumulator_limbs > 0).then(|| (0..accumulator_limbs).map(|i| (0, i)).collect());
    compile(
        params,
        vk,
        Config::kzg()
            .with_num_instance(vec![num_instances])
            .with_accumulator_indices(accumulator),
    )
}

/// The length in bytes of every EVM-transcript proof for `vk` (public inputs excluded): its
/// commitments (64 bytes each, uncompressed) and evaluations (32 bytes each), SHPLONK's two
/// opening points included, in the order [`verifier_source`]'s verifier reads them.
pub fn proof_length(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    accumulator_limbs: usize,
) -> Result<usize, EvmError> {
    proof_length_for(
        params,
        vk,
        num_instances,
        accumulator_limbs,
        MultiOpen::Shplonk,
    )
}

/// [`proof_length`] of proofs that end with the multi-opening argument `open`.
pub fn proof_length_for(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    accumulator_limbs: usize,
    open: MultiOpen,
) -> Result<usize, EvmError> {
    proof_cost(params, vk, num_instances, accumulator_limbs, open)
        .map(|cost| 64 * cost.num_commitment + 32 * cost.num_evaluation)
}

/// snark-verifier's count of what a verifier of `vk` with the multi-opening argument `open`
/// reads and computes: commitments and evaluations in the proof, terms of its final MSM, and
/// pairings.
pub fn proof_cost(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    accumulator_limbs: usize,
    open: MultiOpen,
) -> Result<snark_verifier_sdk::snark_verifier::cost::Cost, EvmError> {
    let count = || {
        let protocol = protocol(params, vk, num_instances, accumulator_limbs);
        match open {
            MultiOpen::Shplonk => PlonkVerifier::<SHPLONK>::estimate_cost(&protocol),
            MultiOpen::Gwc => PlonkVerifier::<GWC>::estimate_cost(&protocol),
        }
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(count))
        .map_err(|_| EvmError::Generation("snark-verifier panicked on this key".into()))
}

/// The verifier's calldata: `public_inputs` (32 big-endian bytes each), then `proof`.
pub fn calldata(public_inputs: &[Fr], proof: &[u8]) -> Vec<u8> {
    encode_calldata(&[public_inputs.to_vec()], proof)
}
