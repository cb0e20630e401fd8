//! `setup / keygen / prove / verify`.

use halo2_base::{
    gates::{circuit::CircuitBuilderStage, RangeChip},
    halo2_proofs::{
        dev::MockProver,
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
    message::message_to_field,
    proving::{
        cost::CellLedger,
        keys::{CircuitKeys, KeyedShape},
        params::kzg_params,
        scheme::{self, HybridScheme},
        stats::{CircuitStats, UNUSABLE_ROWS},
        Transcript,
    },
    signature::bls::{hash_message, SecretKey},
    Fr,
};

use crate::{
    error::AtmsError,
    native::Committee,
    witness::{AtmsInstance, AtmsShape, AtmsWitness},
};

/// Proving and verifying keys of one circuit shape, with the layout the prover must reproduce.
pub type AtmsKeys = CircuitKeys<AtmsShape, HybridCircuit>;

impl KeyedShape for AtmsShape {
    const CIRCUIT: &'static str = "bls-atms";
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

    // The slots' layout (non-signers distinct, in committee order) beside the statement.
    fn check_witness(witness: &AtmsWitness) -> Result<(), AtmsError> {
        witness.check_layout()
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

/// An honest witness of the right shape from a deterministic committee, for keygen.
pub(crate) fn keygen_witness(shape: AtmsShape) -> Result<AtmsWitness, AtmsError> {
    shape.validate()?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(shape.n as u64);
    let sks: Vec<SecretKey> = (0..shape.n).map(|_| SecretKey::random(&mut rng)).collect();
    let committee =
        Committee::from_keys_unchecked(sks.iter().map(SecretKey::public_key).collect())?;
    let non_signers: Vec<usize> = (0..shape.capacity.min(shape.n - 1)).collect();
    let m = message_to_field(b"keygen");
    let signing: Fr = sks[non_signers.len()..].iter().map(|s| s.0).sum();
    let sigma = halo2_base::halo2_proofs::halo2curves::group::Curve::to_affine(
        &(hash_message(m) * signing),
    );
    AtmsWitness::from_parts(
        shape,
        &committee,
        m,
        sigma,
        &non_signers,
        (shape.n - non_signers.len()) as u64,
    )
}

/// Lays out `shape` with the keygen witness and returns its statistics (no keys made), the
/// cells by component included: those [`keygen`] returns in
/// [`AtmsKeys::stats`](tms_gadgets::proving::keys::CircuitKeys::stats).
pub fn measure(shape: AtmsShape) -> Result<CircuitStats, AtmsError> {
    scheme::layout_stats(&shape)
}

/// Checks with halo2's MockProver that `witness` satisfies the circuit of its shape for the
/// public inputs of `instance` (no parameters, keys or proof; seconds and about 2.6 GB for one
/// pairing): what `tms check --scheme bls-atms` runs.
pub fn mock_check(witness: &AtmsWitness, instance: &AtmsInstance) -> Result<(), AtmsError> {
    witness.check_layout()?;
    let shape = witness.shape;
    let mut c = HybridCircuit::new(CircuitBuilderStage::Mock, shape.k);
    scheme::lay_out::<AtmsShape>(&mut c, witness);
    if c.custom_rows() + UNUSABLE_ROWS > 1 << shape.k {
        return Err(AtmsError::CircuitTooLarge(shape.k));
    }
    c.builder.calculate_params(Some(UNUSABLE_ROWS));
    let prover = MockProver::run(shape.k, &c, vec![instance.to_public_inputs()])
        .map_err(|_| AtmsError::CircuitTooLarge(shape.k))?;
    prover.verify().map_err(|failures| {
        AtmsError::NotSatisfied(format!(
            "{} failed constraints, the first: {}",
            failures.len(),
            failures[0]
        ))
    })
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
    use crate::{components::*, NodeHash, Strategy};
    use tms_gadgets::proving::cost::ComponentCells;
    use tms_gadgets::proving::cost::OTHER;

    /// k of the full circuit's tests (the lookup width, k - 1 bits, sets the range checks' cells).
    const K: u32 = 20;

    /// The laid-out statistics of n = 8 with `capacity` slots; its components sum to the totals.
    fn stats(capacity: usize, strategy: Strategy) -> CircuitStats {
        let shape = AtmsShape {
            n: 8,
            capacity,
            strategy,
            hash: NodeHash::Poseidon,
            k: K,
        };
        let stats = measure(shape).unwrap();
        println!("record: bls-atms n=8 capacity={capacity} {strategy}: {stats}");
        print!("{}", stats.breakdown());
        assert!(stats.components_sum_to_totals());
        assert_eq!(stats.components.last().unwrap().name, OTHER);
        stats
    }

    fn cells<'a>(stats: &'a CircuitStats, name: &str) -> &'a ComponentCells {
        let c = stats
            .component(name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert!(c.advice_cells > 0, "{name} has no cells");
        c
    }

    /// Every component is there; doubling the slots doubles the per-slot ones (with one path
    /// per slot, membership too) and leaves the signature's checks as they are.
    #[test]
    fn components_sum_to_the_totals_and_only_the_slots_scale() {
        let small = stats(2, Strategy::Paths);
        let large = stats(4, Strategy::Paths);
        for stats in [&small, &large] {
            for name in [COMMITTEE_DIGEST, MESSAGE, THRESHOLD] {
                cells(stats, name);
            }
        }
        for name in [SLOTS, MEMBERSHIP, AGGREGATE_KEY] {
            let (s, l) = (cells(&small, name), cells(&large, name));
            let ratio = l.advice_cells as f64 / s.advice_cells as f64;
            assert!((1.8..=2.2).contains(&ratio), "{name}: {ratio}");
        }
        for name in [MESSAGE_HASH, SIGMA_IN_G2, PAIRING] {
            assert_eq!(cells(&small, name), cells(&large, name));
        }
        let pairing = cells(&small, PAIRING).advice_cells;
        assert!(pairing > small.advice_cells / 2, "the pairing dominates");
    }
}
