//! `setup / keygen / prove / verify` (KZG with SHPLONK over BN254, through
//! `tms_gadgets::proving`), key files, example certificates and measured round trips.

use halo2_base::{
    gates::RangeChip,
    halo2_proofs::{
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::VerifyingKey,
        poly::kzg::commitment::ParamsKZG,
    },
    AssignedValue, Context,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use tms_gadgets::{
    bank::CustomRegion,
    curve::{GrumpkinAffine, GrumpkinScalar},
    hybrid::HybridCircuit,
    merkle::MerklePath,
    proving::{
        cost::CellLedger,
        keys::{CircuitKeys, KeyedShape},
        measure,
        params::kzg_params,
        scheme::{self, cells_and_custom_rows, HybridScheme},
        stats::{CircuitStats, UNUSABLE_ROWS},
        verify_shplonk, Transcript,
    },
    signature::schnorr::SigningKey,
    Fr,
};

use crate::{
    error::MithrilError,
    native::{
        params::{Parameters, PhiF},
        registration::{Registration, RegistrationCommitment},
        signature::UniqueSignature,
        stm::{lottery_value, wins, Certificate, SingleSignature},
    },
    witness::{MithrilInstance, MithrilShape, MithrilWitness, PreparedIndex, PreparedSigner},
};

/// A witness of the right shape with placeholder values, for keygen (which needs the layout,
/// not a satisfying assignment).
fn keygen_witness(shape: MithrilShape) -> Result<MithrilWitness, MithrilError> {
    let g = GrumpkinAffine::generator();
    let k = shape.index_slots as u64;
    let params = Parameters::new(k, k, PhiF::new(1, 2)?)?;
    let instance = MithrilInstance {
        commitment: RegistrationCommitment {
            root: Fr::zero(),
            total_stake: 1,
            depth: shape.depth,
            params,
        },
        message: Fr::zero(),
    };
    let signer = PreparedSigner {
        key: g,
        stake: 1,
        target: Fr::one(),
        path: MerklePath {
            index: 0,
            siblings: vec![Fr::zero(); shape.depth],
        },
        signature: UniqueSignature {
            sigma: g,
            a: g,
            b: g,
            s: GrumpkinScalar::one(),
        },
    };
    let signers = vec![signer; shape.signer_slots];
    Ok(MithrilWitness {
        shape,
        instance,
        h2c: instance.h_witness()?,
        indices: (0..k)
            .map(|index| PreparedIndex::new(index, 0, &signers))
            .collect(),
        signers,
    })
}

/// Proving and verifying keys of one circuit shape, with the layout the prover must reproduce.
pub type MithrilKeys = CircuitKeys<MithrilShape, HybridCircuit>;

impl KeyedShape for MithrilShape {
    const CIRCUIT: &'static str = "mithril";

    fn record_detail(&self, _stats: &CircuitStats) -> String {
        format!(
            "signer_slots={} index_slots={} depth={}",
            self.signer_slots, self.index_slots, self.depth
        )
    }
}

impl HybridScheme for MithrilShape {
    type Witness = MithrilWitness;
    type Instance = MithrilInstance;
    type Error = MithrilError;

    fn k(&self) -> u32 {
        self.k
    }

    fn validate(&self) -> Result<(), MithrilError> {
        MithrilShape::validate(self)
    }

    fn keygen_witness(&self) -> Result<MithrilWitness, MithrilError> {
        keygen_witness(*self)
    }

    fn witness_shape(witness: &MithrilWitness) -> &Self {
        &witness.shape
    }

    fn witness_instance(witness: &MithrilWitness) -> &MithrilInstance {
        &witness.instance
    }

    fn validate_instance(&self, instance: &MithrilInstance) -> Result<(), MithrilError> {
        instance.validate(self)
    }

    fn public_inputs(instance: &MithrilInstance) -> Vec<Fr> {
        instance.to_public_inputs()
    }

    fn synthesize_recorded(
        ctx: &mut Context<Fr>,
        range: &RangeChip<Fr>,
        custom: &CustomRegion,
        witness: &MithrilWitness,
        ledger: &mut CellLedger,
    ) -> Vec<AssignedValue<Fr>> {
        crate::circuit::synthesize_recorded(ctx, range, custom, witness, ledger)
    }

    fn too_large(k: u32) -> MithrilError {
        MithrilError::CircuitTooLarge(k)
    }

    fn shape_mismatch() -> MithrilError {
        MithrilError::ShapeMismatch("the witness shape differs from the proving key's".into())
    }

    fn rejected() -> MithrilError {
        MithrilError::ProofRejected
    }
}

/// KZG parameters for `2^k` rows.
///
/// **Insecure, for tests and benchmarks**: made from a fixed public seed (and cached under
/// `params/`). Production use needs parameters from a powers-of-tau ceremony.
pub fn setup(k: u32) -> ParamsKZG<Bn256> {
    kzg_params(k)
}

/// The smallest k whose rows hold the custom gates and whose halo2-base part needs at most
/// `max_columns` advice columns (the range lookups use `k - 1` bits).
pub fn min_k(shape: &MithrilShape, max_columns: usize) -> Result<u32, MithrilError> {
    // (halo2-base cells, custom rows) of the shape laid out with lookups of k - 1 bits.
    let layout = |k: u32| cells_and_custom_rows(&MithrilShape { k, ..*shape });
    let fits = |k: u32, (cells, custom): (usize, usize)| {
        let rows = (1usize << k) - UNUSABLE_ROWS;
        custom <= rows && cells.div_ceil(rows) <= max_columns
    };
    let estimate = layout(20)?;
    let mut k = (10..=26)
        .find(|&k| fits(k, estimate))
        .ok_or(MithrilError::CircuitTooLarge(26))?;
    // The cell count depends slightly on the lookup width (k - 1 bits): confirm at k.
    while !fits(k, layout(k)?) {
        k += 1;
        if k > 26 {
            return Err(MithrilError::CircuitTooLarge(26));
        }
    }
    Ok(k)
}

/// The cells (by component too), columns and custom rows of `shape` laid out (no keygen): for
/// cost accounting. [`keygen`] returns the same in
/// [`MithrilKeys::stats`](tms_gadgets::proving::keys::CircuitKeys::stats).
pub fn layout_stats(shape: &MithrilShape) -> Result<CircuitStats, MithrilError> {
    scheme::layout_stats(shape)
}

/// Proving and verifying keys for `shape` (one-time work per shape).
pub fn keygen(params: &ParamsKZG<Bn256>, shape: MithrilShape) -> Result<MithrilKeys, MithrilError> {
    scheme::keygen(params, shape)
}

/// A proof that `witness.instance` holds, in the Blake2b transcript.
pub fn prove(
    params: &ParamsKZG<Bn256>,
    keys: &MithrilKeys,
    witness: &MithrilWitness,
) -> Result<Vec<u8>, MithrilError> {
    prove_with_transcript(params, keys, witness, Transcript::Blake2b)
}

/// A proof that `witness.instance` holds, in `transcript` ([`Transcript::Evm`] for a proof a
/// generated Solidity verifier checks).
pub fn prove_with_transcript(
    params: &ParamsKZG<Bn256>,
    keys: &MithrilKeys,
    witness: &MithrilWitness,
    transcript: Transcript,
) -> Result<Vec<u8>, MithrilError> {
    scheme::prove(params, keys, witness, transcript)
}

/// Checks `proof` (Blake2b transcript) for `instance`.
pub fn verify(
    params: &ParamsKZG<Bn256>,
    keys: &MithrilKeys,
    instance: &MithrilInstance,
    proof: &[u8],
) -> Result<(), MithrilError> {
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
    shape: &MithrilShape,
    vk: &VerifyingKey<G1Affine>,
    instance: &MithrilInstance,
    proof: &[u8],
    transcript: Transcript,
) -> Result<(), MithrilError> {
    scheme::verify(params, shape, vk, instance, proof, transcript)
}

/// Checks `proof`, made in `transcript`, for a registration digest and an application message
/// alone, as a contract that stores the digest does. Nothing else of the registration is
/// needed: the circuit recomputes the digest with the shape's `k` and depth (so the digest of a
/// registration with another quorum or depth is refused) and computes `H` from the message
/// itself.
pub fn verify_digest_with_vk(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    digest: Fr,
    message: Fr,
    proof: &[u8],
    transcript: Transcript,
) -> Result<(), MithrilError> {
    let public = MithrilInstance::public_inputs(digest, message);
    if verify_shplonk(params, vk, proof, &public, transcript) {
        Ok(())
    } else {
        Err(MithrilError::ProofRejected)
    }
}

/// A registration, a message and a certificate of exactly `k` indices for it.
#[derive(Clone, Debug)]
pub struct Example {
    /// The registration.
    pub registration: Registration,
    /// The application message.
    pub message: Fr,
    /// The aggregated certificate.
    pub certificate: Certificate,
}

impl Example {
    /// The statement.
    pub fn instance(&self) -> MithrilInstance {
        MithrilInstance {
            commitment: self.registration.commitment(),
            message: self.message,
        }
    }

    /// The smallest shape (signer slots = the certificate's signers) whose halo2-base part needs
    /// at most `max_columns` advice columns, and the witness in it.
    pub fn witness(&self, max_columns: usize) -> Result<MithrilWitness, MithrilError> {
        let probe = MithrilShape {
            signer_slots: self.certificate.signers.len(),
            index_slots: self.certificate.indices.len(),
            depth: self.registration.tree().depth(),
            k: 20,
        };
        let shape = MithrilShape {
            k: min_k(&probe, max_columns)?,
            ..probe
        };
        MithrilWitness::new(shape, self.instance(), &self.certificate)
    }
}

/// `parties` keys drawn from `seed` with stakes (uniform in `[1, 1000]`, or `skewed`: party `i`
/// has `1_000_000 / (i + 1)`, a Zipf-like distribution), registered at tree `depth` (`None`:
/// the smallest). Parties sign a message largest stake first (ties: lower registration index),
/// each playing all `m` lotteries, until their wins cover `k` distinct indices (as a signer
/// pool collects signatures until it can aggregate); the aggregator builds the certificate.
pub fn example_certificate(
    params: Parameters,
    parties: usize,
    depth: Option<usize>,
    seed: u64,
    skewed: bool,
) -> Result<Example, MithrilError> {
    example_certificate_on(params, parties, depth, seed, skewed, None)
}

/// [`example_certificate`] on a given `message` (`None`: the one drawn from `seed`), for a
/// certificate whose message comes from bytes (`tms_gadgets::message::message_to_field`).
pub fn example_certificate_on(
    params: Parameters,
    parties: usize,
    depth: Option<usize>,
    seed: u64,
    skewed: bool,
    message: Option<Fr>,
) -> Result<Example, MithrilError> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let sks: Vec<SigningKey> = (0..parties).map(|_| SigningKey::random(&mut rng)).collect();
    let entries: Vec<_> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| {
            let stake = if skewed {
                (1_000_000 / (i as u64 + 1)).max(1)
            } else {
                rng.gen_range(1..=1000)
            };
            (sk.verifying_key(), stake)
        })
        .collect();
    let registration = match depth {
        Some(d) => Registration::with_depth(params, &entries, d)?,
        None => Registration::new(params, &entries)?,
    };
    let drawn = Fr::from(rng.gen::<u64>());
    let message = message.unwrap_or(drawn);
    let signed = registration.commitment().message(message);
    let mut order: Vec<usize> = (0..parties).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(entries[p].1), p));
    let mut won: Vec<Vec<u64>> = vec![Vec::new(); parties];
    let mut signatures: Vec<Option<UniqueSignature>> = vec![None; parties];
    let mut distinct = std::collections::BTreeSet::new();
    for p in order {
        if distinct.len() as u64 >= params.k() {
            break;
        }
        let sig = crate::signature::sign(&sks[p], signed)?;
        for j in 0..params.m() {
            if wins(
                lottery_value(&sig.sigma, j)?,
                registration.parties()[p].target,
            ) {
                won[p].push(j);
                distinct.insert(j);
            }
        }
        signatures[p] = Some(sig);
    }
    let singles: Vec<SingleSignature> = won
        .into_iter()
        .zip(signatures)
        .enumerate()
        .filter_map(|(party, (indices, signature))| {
            let signature = signature.filter(|_| !indices.is_empty())?;
            Some(SingleSignature {
                party,
                signature,
                indices,
            })
        })
        .collect();
    let certificate = crate::aggregate(&registration, message, &singles)?;
    Ok(Example {
        registration,
        message,
        certificate,
    })
}

/// One timed round trip of this circuit.
pub type MeasuredRoundTrip = measure::MeasuredRoundTrip<MithrilShape, HybridCircuit>;

/// Keygen, one proof and its verification of `witness`, timed.
pub fn measure_round_trip(
    params: &ParamsKZG<Bn256>,
    witness: &MithrilWitness,
) -> Result<MeasuredRoundTrip, MithrilError> {
    measure::measure_round_trip(
        || keygen(params, witness.shape),
        |keys| prove(params, keys, witness),
        |keys, proof| verify(params, keys, &witness.instance, proof),
    )
}

/// Reads a verifying key file: the shape and the key.
pub fn read_vk(bytes: &[u8]) -> Result<(MithrilShape, VerifyingKey<G1Affine>), MithrilError> {
    MithrilKeys::read_vk(bytes)
        .map_err(|m| MithrilError::ShapeMismatch(format!("malformed key file: {m}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::components::*;
    use tms_gadgets::proving::cost::OTHER;

    /// The laid-out statistics at depth 4; its components sum to the totals.
    fn stats(signer_slots: usize, index_slots: usize) -> CircuitStats {
        let shape = MithrilShape {
            signer_slots,
            index_slots,
            depth: 4,
            k: 17,
        };
        let stats = layout_stats(&shape).unwrap();
        println!("record: mithril {signer_slots} signer / {index_slots} index slots: {stats}");
        print!("{}", stats.breakdown());
        assert!(stats.components_sum_to_totals());
        assert_eq!(stats.components.last().unwrap().name, OTHER);
        stats
    }

    fn advice(stats: &CircuitStats, name: &str) -> usize {
        let cells = stats
            .component(name)
            .unwrap_or_else(|| panic!("{name} missing"))
            .advice_cells;
        assert!(cells > 0, "{name} has no cells");
        cells
    }

    /// Every component is there; doubling the signer slots doubles the per-signer components
    /// and leaves the per-index ones, and the other way round.
    #[test]
    fn components_sum_to_the_totals_and_scale_with_their_slots() {
        let per_signer = [REGISTRATION_PATHS, TARGETS, DLEQ_CHALLENGES, DLEQ_LADDERS];
        let per_index = [SELECTION, LOTTERY];
        let fixed = [PARAMETERS, DIGESTS, HASH_TO_CURVE];
        let base = stats(2, 3);
        for name in per_signer.iter().chain(&per_index).chain(&fixed) {
            advice(&base, name);
        }
        advice(&base, SIGNER_TABLE);
        advice(&base, INDICES);
        let signers = stats(4, 3);
        let indices = stats(2, 6);
        // Twice the cells, up to a constant (a domain tag) loaded once.
        let doubles = |large: &CircuitStats, name: &str| {
            let ratio = advice(large, name) as f64 / advice(&base, name) as f64;
            assert!((1.95..=2.0).contains(&ratio), "{name}: {ratio}");
        };
        for name in per_signer {
            doubles(&signers, name);
            assert_eq!(advice(&indices, name), advice(&base, name), "{name}");
        }
        for name in per_index {
            doubles(&indices, name);
            assert_eq!(advice(&signers, name), advice(&base, name), "{name}");
        }
        for name in fixed {
            assert_eq!(advice(&signers, name), advice(&base, name), "{name}");
            assert_eq!(advice(&indices, name), advice(&base, name), "{name}");
        }
    }
}
