//! `setup / keygen / prove / verify`.

use halo2_base::{
    gates::RangeChip,
    halo2_proofs::{
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::VerifyingKey,
        poly::kzg::commitment::ParamsKZG,
    },
    AssignedValue, Context,
};
use rand::SeedableRng;
use tms_gadgets::{
    bank::CustomRegion,
    hybrid::HybridCircuit,
    proving::{
        cost::CellLedger,
        keys::{CircuitKeys, KeyedShape},
        measure,
        params::kzg_params,
        scheme::{self, cells_and_custom_rows, HybridScheme},
        stats::{CircuitStats, UNUSABLE_ROWS},
        Transcript,
    },
    signature::schnorr::SigningKey,
    Fr,
};

use crate::{
    error::AtmsError,
    native::{Certificate, Committee},
    witness::{AtmsInstance, AtmsShape, AtmsWitness, SlotWitness},
};

/// Proving and verifying keys of one circuit shape, with the layout the prover must reproduce.
pub type AtmsKeys = CircuitKeys<AtmsShape, HybridCircuit>;

impl KeyedShape for AtmsShape {
    const CIRCUIT: &'static str = "schnorr-atms";

    fn record_detail(&self, stats: &CircuitStats) -> String {
        format!("cells_per_party={}", stats.advice_cells / self.n.max(1))
    }
}

impl HybridScheme for AtmsShape {
    type Witness = AtmsWitness;
    type Instance = AtmsInstance;
    type Error = AtmsError;

    fn k(&self) -> u32 {
        self.k
    }

    fn validate(&self) -> Result<(), AtmsError> {
        AtmsShape::validate(self)
    }

    fn keygen_witness(&self) -> Result<AtmsWitness, AtmsError> {
        keygen_witness(*self)
    }

    fn witness_shape(witness: &AtmsWitness) -> &Self {
        &witness.shape
    }

    fn witness_instance(witness: &AtmsWitness) -> &AtmsInstance {
        &witness.instance
    }

    fn validate_instance(&self, instance: &AtmsInstance) -> Result<(), AtmsError> {
        instance.validate(self)
    }

    fn public_inputs(instance: &AtmsInstance) -> Vec<Fr> {
        instance.to_public_inputs()
    }

    fn synthesize_recorded(
        ctx: &mut Context<Fr>,
        range: &RangeChip<Fr>,
        custom: &CustomRegion,
        witness: &AtmsWitness,
        ledger: &mut CellLedger,
    ) -> Vec<AssignedValue<Fr>> {
        crate::circuit::synthesize_recorded(ctx, range, custom, witness, ledger)
    }

    fn too_large(k: u32) -> AtmsError {
        AtmsError::CircuitTooLarge(k)
    }

    fn shape_mismatch() -> AtmsError {
        AtmsError::ShapeMismatch
    }

    fn rejected() -> AtmsError {
        AtmsError::ProofRejected
    }
}

/// KZG parameters for `2^k` rows.
///
/// **Insecure, for tests and benchmarks**: made from a fixed public seed (and cached under
/// `params/`). Production use needs parameters from a powers-of-tau ceremony.
pub fn setup(k: u32) -> ParamsKZG<Bn256> {
    kzg_params(k)
}

/// Custom rows the shape needs: a challenge hash per slot, the commitment, and either a ladder
/// per slot or the batch check (seed and coefficient hashes, MSM chains).
pub fn custom_rows(shape: &AtmsShape) -> usize {
    let perm = tms_gadgets::hash::rescue_gate::permutation_rows();
    let challenge = 2 * perm;
    let commitment = match shape.mode {
        crate::CommitmentMode::Flat => (2 * shape.n).div_ceil(3) * perm,
        crate::CommitmentMode::Merkle { slots } => slots * (1 + shape.depth()) * perm,
    };
    let slots = shape.slots();
    let signatures = match shape.verification {
        crate::Verification::PerSignature => slots * tms_gadgets::curve::straus::LADDER_ROWS,
        crate::Verification::Batch => {
            let seed = (3 * slots).div_ceil(3) * perm;
            let coefficients = slots * perm;
            let long = (slots + 1).div_ceil(2) * (254 + 1);
            let short = slots.div_ceil(2) * (tms_gadgets::signature::batch::COEFFICIENT_BITS + 1);
            seed + coefficients + long + short
        }
    };
    slots * challenge + commitment + signatures
}

/// The smallest k whose rows hold the custom gates and whose halo2-base part needs at most
/// `max_columns` advice columns.
pub fn min_k(shape: &AtmsShape, max_columns: usize) -> Result<u32, AtmsError> {
    let probe = AtmsShape { k: 20, ..*shape };
    probe.validate()?;
    let (base_cells, custom) = cells_and_custom_rows(&probe)?;
    (10..=26)
        .find(|k| {
            let rows = (1usize << k) - UNUSABLE_ROWS;
            custom <= rows && base_cells.div_ceil(rows) <= max_columns
        })
        .ok_or(AtmsError::CircuitTooLarge(26))
}

/// A witness of the right shape with no signatures, for keygen: every slot disabled and the
/// threshold 0, a statement [`AtmsWitness::new`] refuses to make for a proof (the keys depend on
/// the shape only, not on the statement's values).
fn keygen_witness(shape: AtmsShape) -> Result<AtmsWitness, AtmsError> {
    shape.validate()?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(shape.n as u64);
    let committee = Committee::new(
        (0..shape.n)
            .map(|_| SigningKey::random(&mut rng).verifying_key())
            .collect(),
    )?;
    let slots = atms_core::slot_indices(shape.mode, shape.n, &[])
        .ok_or(AtmsError::ShapeMismatch)?
        .into_iter()
        .map(|index| SlotWitness {
            index,
            signature: None,
        })
        .collect();
    Ok(AtmsWitness {
        shape,
        instance: AtmsInstance {
            commitment: committee.commitment(shape.mode),
            message: tms_gadgets::Fr::zero(),
            threshold: 0,
        },
        committee,
        slots,
    })
}

/// A committee of `n` members with keys drawn from `seed`, of which the first `t` sign `message`
/// with Rescue-Prime challenges, as the witness of the smallest shape of `mode` whose halo2-base
/// part fits `max_base_columns` advice columns (see [`min_k`]). For benchmarks and examples.
pub fn example_witness(
    (n, t): (usize, usize),
    mode: crate::CommitmentMode,
    verification: crate::Verification,
    message: tms_gadgets::Fr,
    seed: u64,
    max_base_columns: usize,
) -> Result<AtmsWitness, AtmsError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(SigningKey::verifying_key).collect())?;
    let signatures = sks
        .iter()
        .take(t)
        .map(|sk| {
            let sig = sk.sign(&tms_gadgets::hash::RescuePrime, message)?;
            Ok((sk.verifying_key(), sig))
        })
        .collect::<Result<Vec<_>, AtmsError>>()?;
    let certificate = Certificate::aggregate(&committee, message, &signatures)?;
    let probe = AtmsShape {
        n,
        mode,
        k: 20,
        verification,
    };
    let shape = AtmsShape {
        k: min_k(&probe, max_base_columns)?,
        ..probe
    };
    AtmsWitness::new(shape, &committee, &certificate, t as u64)
}

/// The cells (by component too), columns and custom rows of `shape` laid out, without keygen:
/// the statistics [`keygen`] returns in [`AtmsKeys::stats`](tms_gadgets::proving::keys::CircuitKeys::stats).
pub fn layout_stats(shape: &AtmsShape) -> Result<CircuitStats, AtmsError> {
    scheme::layout_stats(shape)
}

/// Proving and verifying keys for `shape` (one-time work per shape).
pub fn keygen(params: &ParamsKZG<Bn256>, shape: AtmsShape) -> Result<AtmsKeys, AtmsError> {
    scheme::keygen(params, shape)
}

/// A proof that `witness.instance` holds, in the Blake2b transcript.
pub fn prove(
    params: &ParamsKZG<Bn256>,
    keys: &AtmsKeys,
    witness: &AtmsWitness,
) -> Result<Vec<u8>, AtmsError> {
    prove_with_transcript(params, keys, witness, Transcript::Blake2b)
}

/// A proof that `witness.instance` holds, in `transcript` ([`Transcript::Evm`] for a proof a
/// generated Solidity verifier checks).
pub fn prove_with_transcript(
    params: &ParamsKZG<Bn256>,
    keys: &AtmsKeys,
    witness: &AtmsWitness,
    transcript: Transcript,
) -> Result<Vec<u8>, AtmsError> {
    scheme::prove(params, keys, witness, transcript)
}

/// One timed round trip of this circuit.
pub type MeasuredRoundTrip = measure::MeasuredRoundTrip<AtmsShape, HybridCircuit>;

/// Keygen, one proof and its verification of `witness`, timed.
pub fn measure_round_trip(
    params: &ParamsKZG<Bn256>,
    witness: &AtmsWitness,
) -> Result<MeasuredRoundTrip, AtmsError> {
    measure::measure_round_trip(
        || keygen(params, witness.shape),
        |keys| prove(params, keys, witness),
        |keys, proof| verify(params, keys, &witness.instance, proof),
    )
}

/// Checks `proof` (Blake2b transcript) for `instance`.
pub fn verify(
    params: &ParamsKZG<Bn256>,
    keys: &AtmsKeys,
    instance: &AtmsInstance,
    proof: &[u8],
) -> Result<(), AtmsError> {
    verify_with_vk(
        params,
        &keys.shape,
        keys.vk(),
        instance,
        proof,
        Transcript::Blake2b,
    )
}

/// Checks `proof`, made in `transcript`, for `instance` with only the verifying key of `shape`.
pub fn verify_with_vk(
    params: &ParamsKZG<Bn256>,
    shape: &AtmsShape,
    vk: &VerifyingKey<G1Affine>,
    instance: &AtmsInstance,
    proof: &[u8],
    transcript: Transcript,
) -> Result<(), AtmsError> {
    scheme::verify(params, shape, vk, instance, proof, transcript)
}

/// Reads a verifying key file: the shape and the key.
pub fn read_vk(bytes: &[u8]) -> Result<(AtmsShape, VerifyingKey<G1Affine>), AtmsError> {
    AtmsKeys::read_vk(bytes).map_err(AtmsError::MalformedKeys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{components::*, CommitmentMode, Verification};
    use tms_gadgets::proving::cost::OTHER;

    const K: u32 = 12;

    fn stats(n: usize, mode: CommitmentMode, verification: Verification) -> CircuitStats {
        let shape = AtmsShape {
            n,
            mode,
            k: K,
            verification,
        };
        let stats = layout_stats(&shape).unwrap();
        println!("record: schnorr-atms n={n} {mode:?} {verification:?}: {stats}");
        print!("{}", stats.breakdown());
        assert!(stats.components_sum_to_totals());
        assert_eq!(stats.components.last().unwrap().name, OTHER);
        stats
    }

    /// The components a shape lays out are there with cells; the others are absent.
    fn assert_components(stats: &CircuitStats, present: &[&str], absent: &[&str]) {
        for name in present {
            let c = stats
                .component(name)
                .unwrap_or_else(|| panic!("{name} missing"));
            assert!(c.advice_cells > 0, "{name} has no cells");
        }
        for name in absent {
            assert!(stats.component(name).is_none(), "{name} in this shape");
        }
    }

    #[test]
    fn components_of_flat_and_merkle_shapes_sum_to_the_totals() {
        let common = [KEYS, SIGNATURE_INPUTS, CHALLENGE, THRESHOLD];
        let flat = stats(6, CommitmentMode::Flat, Verification::PerSignature);
        assert_components(&flat, &common, &[MERKLE_PATHS, BATCH]);
        assert_components(&flat, &[COMMITMENT, LADDERS], &[]);
        // The canonical-scalar range checks sit in the ladders; the threshold's in its component.
        assert!(flat.component(LADDERS).unwrap().lookup_cells > 0);
        assert!(flat.component(THRESHOLD).unwrap().lookup_cells > 0);

        let merkle = stats(
            6,
            CommitmentMode::Merkle { slots: 4 },
            Verification::PerSignature,
        );
        assert_components(&merkle, &common, &[COMMITMENT, BATCH]);
        assert_components(&merkle, &[MERKLE_PATHS, LADDERS], &[]);

        let batch = stats(6, CommitmentMode::Flat, Verification::Batch);
        assert_components(&batch, &common, &[LADDERS, MERKLE_PATHS]);
        assert_components(&batch, &[COMMITMENT, BATCH], &[]);
    }

    #[test]
    fn per_slot_components_scale_with_the_slots() {
        let small = stats(6, CommitmentMode::Flat, Verification::PerSignature);
        let large = stats(12, CommitmentMode::Flat, Verification::PerSignature);
        for name in [LADDERS, CHALLENGE, SIGNATURE_INPUTS, KEYS] {
            let (s, l) = (
                small.component(name).unwrap(),
                large.component(name).unwrap(),
            );
            assert_eq!(l.advice_cells, 2 * s.advice_cells, "{name}");
            assert_eq!(l.lookup_cells, 2 * s.lookup_cells, "{name}");
        }
    }
}
