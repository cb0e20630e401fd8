//! Proving: KZG (SHPLONK) proofs over BN254 with a Blake2b transcript, behind one pair of
//! functions so that a feature flag can swap the prover (halo2-base's `cuda` backend), and what
//! proving needs around them.
//!
//! | module | what |
//! |---|---|
//! | this one | [`prove_shplonk`], [`verify_shplonk`] |
//! | [`params`] | KZG parameters: snarkjs `.ptau` import, the cached insecure test parameters |
//! | [`keys`] | key files: a JSON header (shape, columns, break points) and halo2's raw key |
//! | [`stats`] | cells, columns and rows of a laid-out circuit; CPU seconds and peak memory |
//! | [`measure`] | one timed round trip (keygen, prove, verify) and its `record:` line |

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::{create_proof, verify_proof, Circuit, ProvingKey, VerifyingKey},
    poly::{
        commitment::ParamsProver,
        kzg::{
            commitment::{KZGCommitmentScheme, ParamsKZG},
            multiopen::{ProverSHPLONK, VerifierSHPLONK},
            strategy::SingleStrategy,
        },
    },
    transcript::{
        Blake2bRead, Blake2bWrite, Challenge255, TranscriptReadBuffer, TranscriptWriterBuffer,
    },
};
use rand::rngs::OsRng;

pub mod keys;
pub mod measure;
pub mod params;
pub mod stats;

use crate::Fr;

/// A SHPLONK proof of `circuit` for one instance column `public_values`, blinded with OS
/// randomness. Returns `None` if the prover fails (a malformed circuit, not a false statement:
/// halo2's prover does not check satisfaction, the verifier does).
pub fn prove_shplonk(
    params: &ParamsKZG<Bn256>,
    pk: &ProvingKey<G1Affine>,
    circuit: impl Circuit<Fr>,
    public_values: &[Fr],
) -> Option<Vec<u8>> {
    let mut transcript = Blake2bWrite::<_, G1Affine, Challenge255<_>>::init(vec![]);
    create_proof::<KZGCommitmentScheme<Bn256>, ProverSHPLONK<'_, Bn256>, _, _, _, _>(
        params,
        pk,
        &[circuit],
        &[&[public_values]],
        OsRng,
        &mut transcript,
    )
    .ok()?;
    Some(transcript.finalize())
}

/// Whether `proof` verifies for `public_values` (one instance column) under `vk`. Any bytes may
/// be passed: a malformed proof is rejected, never a panic (halo2's verifier is guarded), and a
/// proof with bytes after its transcript is rejected (halo2 does not check the end).
pub fn verify_shplonk(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    proof: &[u8],
    public_values: &[Fr],
) -> bool {
    let run = || {
        let strategy = SingleStrategy::new(params);
        let mut rest: &[u8] = proof;
        let verified = {
            let mut transcript = Blake2bRead::<_, G1Affine, Challenge255<_>>::init(&mut rest);
            verify_proof::<KZGCommitmentScheme<Bn256>, VerifierSHPLONK<'_, Bn256>, _, _, _>(
                params.verifier_params(),
                vk,
                strategy,
                &[&[public_values]],
                &mut transcript,
            )
            .is_ok()
        };
        verified && rest.is_empty()
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or(false)
}
