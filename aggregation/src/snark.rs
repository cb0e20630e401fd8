//! The aggregation machinery: inner proofs as snark-verifier [`Snark`]s, the aggregation
//! circuit's keys, its prover, and its native verifier.

use halo2_base::{
    gates::{circuit::CircuitBuilderStage, flex_gate::MultiPhaseThreadBreakPoints},
    halo2_proofs::{
        arithmetic::CurveAffine,
        halo2curves::bn256::{Bn256, Fq, Fr, G1Affine},
        plonk::{keygen_pk, keygen_vk, ProvingKey, VerifyingKey},
        poly::{commitment::ParamsProver, kzg::commitment::ParamsKZG},
        SerdeFormat,
    },
    AssignedValue, Context,
};
use snark_verifier_sdk::{
    halo2::aggregation::{AggregationCircuit, AggregationConfigParams, VerifierUniversality},
    halo2::gen_dummy_snark_from_protocol,
    snark_verifier::verifier::plonk::PlonkProtocol,
    snark_verifier::{
        loader::native::NativeLoader,
        pcs::{
            kzg::{KzgAccumulator, KzgDecidingKey},
            AccumulationDecider,
        },
        system::halo2::{compile, Config},
        util::arithmetic::{fe_from_limbs, fe_to_limbs},
    },
    CircuitExt, Snark, BITS, LIMBS, SHPLONK,
};
use tms_gadgets::{
    hash::{HashInstructions, NativeHash},
    proving::{prove_shplonk, verify_shplonk, Transcript},
    timing::phase,
};

use crate::{AggregationError, ACCUMULATOR_LIMBS};

/// What an aggregation circuit proves about the public inputs of the proofs it verifies.
pub trait Statement {
    /// Constrains the inner proofs' public inputs (`inner[i]`, cells of `ctx`, an aggregation
    /// proof's accumulator limbs first) and returns the cells exposed after the accumulator.
    /// Called at keygen with sample proofs and at proving with the real ones: the cells it
    /// creates must not depend on the values.
    fn constrain(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError>;

    /// Whether the inner proofs' verifying keys are witnesses of the circuit rather than
    /// constants (snark-verifier-sdk's `VerifierUniversality::Full`): a recursive step verifies
    /// proofs under its own key, which it cannot contain. Such a statement gets each inner key's
    /// digest ([`key_digest`]) in [`Statement::constrain_keyed`].
    fn keys_as_witness(&self) -> bool {
        false
    }

    /// [`Statement::constrain`] with `keys[i]`, the digest of the key `inner[i]`'s proof was
    /// verified under; called instead of it when [`Statement::keys_as_witness`].
    fn constrain_keyed(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
        keys: &[AssignedValue<Fr>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        let _ = keys;
        self.constrain(ctx, inner)
    }
}

/// Exposes every inner proof's public inputs in order: "these N statements hold". Over
/// aggregation proofs that includes their accumulator limbs (folded into the new accumulator
/// all the same); [`ExposeStatements`] leaves them out.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExposeAll;

impl Statement for ExposeAll {
    fn constrain(
        &self,
        _: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        Ok(inner.concat())
    }
}

/// Exposes the statements of inner aggregation proofs, in order: each one's public inputs after
/// its [`ACCUMULATOR_LIMBS`] accumulator limbs (which the new accumulator folds in). The final
/// wrapper of an aggregation of N certificates exposes what that aggregation did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExposeStatements;

impl Statement for ExposeStatements {
    fn constrain(
        &self,
        _: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        if let Some(index) = inner.iter().position(|i| i.len() < ACCUMULATOR_LIMBS) {
            return Err(AggregationError::Inner {
                index,
                reason: format!(
                    "{} public inputs: not an aggregation proof ({ACCUMULATOR_LIMBS} accumulator \
                     limbs first)",
                    inner[index].len()
                ),
            });
        }
        Ok(inner
            .iter()
            .flat_map(|i| i[ACCUMULATOR_LIMBS..].iter().copied())
            .collect())
    }
}

/// A certificate proof (one instance column, Poseidon transcript) as the aggregation circuit
/// takes it, after checking natively that it verifies: an aggregation proof of a bad inner proof
/// would only fail at its final pairing, without saying which.
pub fn certificate_snark(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    public_inputs: &[Fr],
    proof: Vec<u8>,
) -> Result<Snark, AggregationError> {
    if !verify_shplonk(params, vk, &proof, public_inputs, Transcript::Poseidon) {
        return Err(AggregationError::Inner {
            index: 0,
            reason: "the certificate proof does not verify (Poseidon transcript) for its public \
                     inputs"
                .into(),
        });
    }
    let protocol = certificate_protocol(params, vk, public_inputs.len());
    Ok(Snark::new(protocol, vec![public_inputs.to_vec()], proof))
}

/// The protocol of a certificate proof under `vk` with `inputs` public inputs.
fn certificate_protocol(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    inputs: usize,
) -> PlonkProtocol<G1Affine> {
    compile(params, vk, Config::kzg().with_num_instance(vec![inputs]))
}

/// The digest of a verifying key as the step circuit computes it in-circuit from the key's
/// witnessed form: Poseidon (leaf mode) over the limbs of its preprocessed commitments, its
/// transcript's initial state and `k`, in the order snark-verifier-sdk assigns them.
pub fn key_digest(witnessed: &[Fr]) -> Fr {
    tms_gadgets::hash::Poseidon
        .hash_leaf(witnessed)
        .expect("a key has preprocessed commitments")
}

/// [`key_digest`] in-circuit over the assigned form of a key (`preprocessed` then `k`).
pub fn key_digest_in_circuit(
    ctx: &mut Context<Fr>,
    witnessed: &[AssignedValue<Fr>],
) -> AssignedValue<Fr> {
    tms_gadgets::hash::PoseidonChip::new().hash_leaf(ctx, witnessed)
}

/// The digest of the key a proof of `protocol` is verified under, as a step circuit computes it
/// from the key's witnessed form ([`key_digest`] over the limbs of the
/// preprocessed commitments, the transcript's initial state and `k`).
pub fn protocol_key_digest(protocol: &PlonkProtocol<G1Affine>) -> Fr {
    let mut witnessed: Vec<Fr> = protocol
        .preprocessed
        .iter()
        .flat_map(|point| {
            let coordinates = point
                .coordinates()
                .expect("a commitment is not the identity");
            [*coordinates.x(), *coordinates.y()]
        })
        .flat_map(fe_to_limbs::<Fq, Fr, LIMBS, BITS>)
        .collect();
    witnessed.extend(protocol.transcript_initial_state);
    witnessed.push(Fr::from(protocol.domain.k as u64));
    key_digest(&witnessed)
}

/// The digest of a certificate key `vk` (`inputs` public inputs) in a step circuit.
pub fn certificate_key_digest(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    inputs: usize,
) -> Fr {
    protocol_key_digest(&certificate_protocol(params, vk, inputs))
}

/// The digest of an aggregation key `vk` (`inputs` public inputs, accumulator first) in a step
/// circuit: a step's own key, which its statement carries.
pub fn node_key_digest(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    inputs: usize,
) -> Fr {
    protocol_key_digest(&node_protocol(params, vk, inputs))
}

/// The protocol of an aggregation proof under `vk` with `inputs` public inputs (its accumulator
/// limbs first, which the next level folds in).
pub(crate) fn node_protocol(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    inputs: usize,
) -> PlonkProtocol<G1Affine> {
    compile(
        params,
        vk,
        Config::kzg()
            .with_num_instance(vec![inputs])
            .with_accumulator_indices(AggregationCircuit::accumulator_indices()),
    )
}

/// A stand-in for the certificate proofs `vk` makes (`inputs` public inputs), for keygen: the
/// protocol [`certificate_snark`] gives them, zero public inputs and a proof of the right shape
/// that does not verify. Keygen depends only on the protocol, so a verifier regenerates an
/// aggregation key from the inner verifying key it trusts, without any proof.
pub fn certificate_sample(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    inputs: usize,
) -> Snark {
    gen_dummy_snark_from_protocol::<SHPLONK>(certificate_protocol(params, vk, inputs))
}

/// A stand-in for the aggregation proofs `vk` makes, for keygen of the level above (see
/// [`certificate_sample`]).
pub fn node_sample(params: &ParamsKZG<Bn256>, vk: &VerifyingKey<G1Affine>, inputs: usize) -> Snark {
    gen_dummy_snark_from_protocol::<SHPLONK>(node_protocol(params, vk, inputs))
}

/// An aggregation proof (Poseidon transcript) as the next level takes it, after checking
/// natively that it verifies, its accumulator included.
pub fn node_snark(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    public_inputs: &[Fr],
    proof: Vec<u8>,
) -> Result<Snark, AggregationError> {
    if !aggregation_verify(params, vk, public_inputs, &proof, Transcript::Poseidon) {
        return Err(AggregationError::Inner {
            index: 0,
            reason: "the aggregation proof does not verify (Poseidon transcript, accumulator \
                     included) for its public inputs"
                .into(),
        });
    }
    let protocol = node_protocol(params, vk, public_inputs.len());
    Ok(Snark::new(protocol, vec![public_inputs.to_vec()], proof))
}

/// An aggregation circuit's keys and layout.
pub struct AggregationKeys {
    /// The proving key; its verifying key is what a verifier (or the EVM contract) holds.
    pub pk: ProvingKey<G1Affine>,
    /// The layout keygen chose (`degree` is the circuit's k).
    pub config: AggregationConfigParams,
    /// Where halo2-base broke its rows into columns at keygen.
    pub break_points: MultiPhaseThreadBreakPoints,
    /// Public inputs: accumulator limbs and the statement.
    pub num_instances: usize,
    /// Advice cells of the circuit.
    pub advice_cells: usize,
}

impl AggregationKeys {
    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<G1Affine> {
        self.pk.get_vk()
    }
}

fn circuit(
    stage: CircuitBuilderStage,
    config: AggregationConfigParams,
    params: &ParamsKZG<Bn256>,
    snarks: Vec<Snark>,
    statement: &dyn Statement,
) -> Result<AggregationCircuit, AggregationError> {
    if snarks.is_empty() {
        return Err(AggregationError::Input("nothing to aggregate".into()));
    }
    // The SDK asserts on what it cannot aggregate; snarks come from files.
    let universality = if statement.keys_as_witness() {
        VerifierUniversality::Full
    } else {
        VerifierUniversality::None
    };
    let mut circuit = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        AggregationCircuit::new::<SHPLONK>(stage, config, params, snarks, universality)
    }))
    .map_err(|_| {
        AggregationError::Prover("the aggregation circuit refused an inner proof".into())
    })?;
    let inner = circuit.previous_instances().clone();
    let exposed = if statement.keys_as_witness() {
        // Each key's witnessed form: its preprocessed limbs and transcript state, then k.
        let witnessed: Vec<Vec<AssignedValue<Fr>>> = circuit
            .preprocessed()
            .iter()
            .map(|key| key.preprocessed.iter().copied().chain([key.k]).collect())
            .collect();
        let ctx = circuit.builder.main(0);
        let keys: Vec<AssignedValue<Fr>> = witnessed
            .iter()
            .map(|key| key_digest_in_circuit(ctx, key))
            .collect();
        statement.constrain_keyed(ctx, &inner, &keys)?
    } else {
        statement.constrain(circuit.builder.main(0), &inner)?
    };
    circuit.builder.assigned_instances[0].extend(exposed);
    Ok(circuit)
}

/// Rows an aggregation circuit's layout leaves to halo2's blinding at the bottom.
const MINIMUM_ROWS: usize = 10;

/// The smallest `k` at which `advice_cells` fit in one advice column: the final wrapper's
/// layout (one advice column, the range lookup on it), whose generated verifier is the cheapest
/// deployable one (`tms-evm`'s `wrapper_shapes` test measures every layout).
pub fn one_column_k(advice_cells: usize) -> u32 {
    (10..)
        .find(|k| (1usize << k) - MINIMUM_ROWS >= advice_cells)
        .expect("a k for any count")
}

/// The layout of an aggregation circuit at `2^k` rows over `samples` with `statement`: the
/// columns halo2-base needs, and the advice cells (no keys are made: seconds, not minutes).
pub fn aggregation_layout(
    params: &ParamsKZG<Bn256>,
    k: u32,
    samples: Vec<Snark>,
    statement: &dyn Statement,
) -> Result<(AggregationConfigParams, usize), AggregationError> {
    laid_out(params, k, samples, statement).map(|(circuit, config, cells)| {
        drop(circuit);
        (config, cells)
    })
}

fn laid_out(
    params: &ParamsKZG<Bn256>,
    k: u32,
    samples: Vec<Snark>,
    statement: &dyn Statement,
) -> Result<(AggregationCircuit, AggregationConfigParams, usize), AggregationError> {
    let start = AggregationConfigParams {
        degree: k,
        lookup_bits: k as usize - 1,
        ..Default::default()
    };
    let mut circuit = circuit(
        CircuitBuilderStage::Keygen,
        start,
        params,
        samples,
        statement,
    )?;
    let config = circuit.calculate_params(Some(MINIMUM_ROWS));
    let advice_cells = circuit
        .builder
        .statistics()
        .gate
        .total_advice_per_phase
        .iter()
        .sum();
    Ok((circuit, config, advice_cells))
}

/// Keys of an aggregation circuit at `2^k` rows over proofs shaped like `samples` (same
/// verifying keys and instance counts, in order) with `statement`.
pub fn aggregation_keygen(
    params: &ParamsKZG<Bn256>,
    k: u32,
    samples: Vec<Snark>,
    statement: &dyn Statement,
) -> Result<AggregationKeys, AggregationError> {
    let (circuit, config, advice_cells) = phase("aggregation keygen: layout", || {
        laid_out(params, k, samples, statement)
    })?;
    let vk = phase("aggregation keygen: keygen_vk", || {
        keygen_vk(params, &circuit)
    })
    .map_err(|e| AggregationError::Prover(e.to_string()))?;
    let pk = phase("aggregation keygen: keygen_pk", || {
        keygen_pk(params, vk, &circuit)
    })
    .map_err(|e| AggregationError::Prover(e.to_string()))?;
    Ok(AggregationKeys {
        pk,
        config,
        break_points: circuit.break_points(),
        num_instances: circuit.num_instance()[0],
        advice_cells,
    })
}

/// An aggregation proof that `snarks` verify and `statement` holds of them, and its public
/// inputs (accumulator limbs, then the statement). Use [`Transcript::Poseidon`] for a proof
/// that a next level aggregates, [`Transcript::Evm`] for a proof the EVM verifies.
pub fn aggregation_prove(
    params: &ParamsKZG<Bn256>,
    keys: &AggregationKeys,
    snarks: Vec<Snark>,
    statement: &dyn Statement,
    transcript: Transcript,
) -> Result<(Vec<Fr>, Vec<u8>), AggregationError> {
    let circuit = phase("aggregation prove: witness (inner verifiers)", || {
        circuit(
            CircuitBuilderStage::Prover,
            keys.config,
            params,
            snarks,
            statement,
        )
    })?
    .use_break_points(keys.break_points.clone());
    let instances = circuit.instances().remove(0);
    if instances.len() != keys.num_instances {
        return Err(AggregationError::Input(format!(
            "the proofs give {} public inputs, the key takes {}",
            instances.len(),
            keys.num_instances
        )));
    }
    let proof = phase("aggregation prove: create_proof", || {
        prove_shplonk(params, &keys.pk, circuit, &instances, transcript)
    })
    .ok_or_else(|| AggregationError::Prover("the aggregation prover failed".into()))?;
    Ok((instances, proof))
}

/// Whether an aggregation proof verifies: the halo2 proof for `public_inputs` under `vk`, and
/// the KZG accumulator in its first [`ACCUMULATOR_LIMBS`] public inputs (the inner proofs' final
/// pairing check, deferred). Either alone proves nothing.
pub fn aggregation_verify(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    public_inputs: &[Fr],
    proof: &[u8],
    transcript: Transcript,
) -> bool {
    public_inputs.len() >= ACCUMULATOR_LIMBS
        && verify_shplonk(params, vk, proof, public_inputs, transcript)
        && accumulator_holds(params, &public_inputs[..ACCUMULATOR_LIMBS])
}

/// The deferred pairing check `e(lhs, [1]_2) = e(rhs, [tau]_2)` of an accumulator given as
/// limbs; false for limbs that are not two points on the curve.
pub fn accumulator_holds(params: &ParamsKZG<Bn256>, limbs: &[Fr]) -> bool {
    let Some(words) = limbs.get(..ACCUMULATOR_LIMBS) else {
        return false;
    };
    let coordinate = |i: usize| -> Fq {
        let chunk: [Fr; LIMBS] = words[i * LIMBS..(i + 1) * LIMBS]
            .try_into()
            .expect("LIMBS words");
        fe_from_limbs::<Fr, Fq, LIMBS, BITS>(chunk)
    };
    let point = |x: Fq, y: Fq| Option::<G1Affine>::from(G1Affine::from_xy(x, y));
    let (Some(lhs), Some(rhs)) = (
        point(coordinate(0), coordinate(1)),
        point(coordinate(2), coordinate(3)),
    ) else {
        return false;
    };
    let dk: KzgDecidingKey<Bn256> = (params.get_g()[0], params.g2(), params.s_g2()).into();
    let accumulator = KzgAccumulator::<G1Affine, NativeLoader>::new(lhs, rhs);
    std::panic::catch_unwind(|| {
        <SHPLONK as AccumulationDecider<G1Affine, NativeLoader>>::decide(&dk, accumulator).is_ok()
    })
    .unwrap_or(false)
}

/// The header of a verifying key file of an aggregation circuit.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct VkHeader {
    /// `tms-aggregation-vk-v1`.
    pub format: String,
    /// What the circuit proves (`mithril-chain`, or `aggregate`).
    pub statement: String,
    /// The layout: the key is read back with it.
    pub config: AggregationConfigParams,
    /// Public inputs, the accumulator's included.
    pub num_instances: usize,
    /// For a chain root: the tree it closes.
    pub chain: Option<crate::tree::ChainShape>,
    /// For an aggregation of certificates: the inner circuit's shape, as its key file states
    /// it (a verifier builds the certificates' commitments with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inner: Option<serde_json::Value>,
}

/// The format tag of [`VkHeader`].
pub const VK_FORMAT: &str = "tms-aggregation-vk-v1";

impl AggregationKeys {
    /// A verifying key file: the header's JSON after its length (4 bytes, little-endian), then
    /// halo2's raw verifying key (the layout of `tms` key files).
    pub fn vk_file(&self, statement: &str, chain: Option<crate::tree::ChainShape>) -> Vec<u8> {
        self.vk_file_with_inner(statement, chain, None)
    }

    /// [`AggregationKeys::vk_file`] with the inner circuit's shape in the header.
    pub fn vk_file_with_inner(
        &self,
        statement: &str,
        chain: Option<crate::tree::ChainShape>,
        inner: Option<serde_json::Value>,
    ) -> Vec<u8> {
        let header = VkHeader {
            format: VK_FORMAT.into(),
            statement: statement.into(),
            config: self.config,
            num_instances: self.num_instances,
            chain,
            inner,
        };
        let json = serde_json::to_vec(&header).expect("a serialisable header");
        let mut bytes = (json.len() as u32).to_le_bytes().to_vec();
        bytes.extend(json);
        bytes.extend(self.vk().to_bytes(SerdeFormat::RawBytes));
        bytes
    }
}

/// Reads a verifying key file of [`AggregationKeys::vk_file`]; refuses a malformed file or a
/// layout no aggregation circuit here has (before configuring a circuit from it).
pub fn read_vk_file(bytes: &[u8]) -> Result<(VkHeader, VerifyingKey<G1Affine>), AggregationError> {
    let (header, body) = read_vk_header(bytes)?;
    let bad = |m: &str| AggregationError::Input(format!("malformed aggregation key file: {m}"));
    // Before halo2's reader allocates a domain for the key's own k.
    tms_gadgets::proving::keys::check_key_prefix(body, header.config.degree)
        .map_err(|e| bad(&e))?;
    let mut body = body;
    let vk = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        VerifyingKey::<G1Affine>::read::<_, AggregationCircuit>(
            &mut body,
            SerdeFormat::RawBytes,
            header.config,
        )
    }))
    .map_err(|_| bad("the key does not match its header"))?
    .map_err(|e| bad(&e.to_string()))?;
    if !body.is_empty() {
        return Err(bad("bytes after the key"));
    }
    Ok((header, vk))
}

/// The header of a verifying key file of [`AggregationKeys::vk_file`] (checked as
/// [`read_vk_file`] checks it) and the key's bytes after it, unread: what the file says it
/// proves, before any key is parsed.
pub fn read_vk_header(bytes: &[u8]) -> Result<(VkHeader, &[u8]), AggregationError> {
    let bad = |m: &str| AggregationError::Input(format!("malformed aggregation key file: {m}"));
    let len = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        .ok_or_else(|| bad("too short"))?;
    let json = bytes
        .get(4..4 + len.min(1 << 16))
        .filter(|j| j.len() == len)
        .ok_or_else(|| bad("header length"))?;
    let header: VkHeader = serde_json::from_slice(json).map_err(|e| bad(&e.to_string()))?;
    let c = header.config;
    if header.format != VK_FORMAT {
        return Err(bad(&format!(
            "format {:?}, expected {VK_FORMAT}",
            header.format
        )));
    }
    if !(10..=25).contains(&c.degree)
        || c.num_advice == 0
        || c.num_advice > 64
        || c.num_lookup_advice > 16
        || c.num_fixed > 16
        || c.lookup_bits as u32 >= c.degree
        || header.num_instances > 1024
    {
        return Err(bad("a layout no aggregation circuit here has"));
    }
    Ok((header, &bytes[4 + len..]))
}

/// An aggregation proof file: the accumulator limbs as 32-byte big-endian words (what an
/// on-chain verifier takes before the proof), then the proof.
pub fn proof_file(accumulator: &[Fr], proof: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(accumulator.len() * 32 + proof.len());
    for limb in accumulator {
        let mut word = limb.to_bytes();
        word.reverse();
        bytes.extend(word);
    }
    bytes.extend(proof);
    bytes
}

/// Splits a [`proof_file`] into the accumulator limbs and the proof; refuses a file too short
/// or a word that is not a canonical field element.
pub fn split_proof_file(bytes: &[u8]) -> Result<(Vec<Fr>, Vec<u8>), AggregationError> {
    split_proof_file_words(bytes, ACCUMULATOR_LIMBS)
}

/// [`split_proof_file`] for a file that starts with `count` words (a chain step proof carries
/// all its public inputs).
pub fn split_proof_file_words(
    bytes: &[u8],
    count: usize,
) -> Result<(Vec<Fr>, Vec<u8>), AggregationError> {
    if bytes.len() <= count * 32 {
        return Err(AggregationError::Input(format!(
            "this proof file starts with {count} words (accumulator, statement) and a proof; \
             this one has {} bytes",
            bytes.len()
        )));
    }
    let (words, proof) = bytes.split_at(count * 32);
    let limbs = words
        .chunks(32)
        .enumerate()
        .map(|(i, word)| {
            let mut le: [u8; 32] = word.try_into().expect("32-byte chunks");
            le.reverse();
            Option::<Fr>::from(Fr::from_bytes(&le)).ok_or_else(|| {
                AggregationError::Input(format!("word {i} is not a canonical field element"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((limbs, proof.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_column_k_is_the_smallest_that_fits() {
        assert_eq!(one_column_k(1), 10);
        assert_eq!(one_column_k((1 << 10) - MINIMUM_ROWS), 10);
        assert_eq!(one_column_k((1 << 10) - MINIMUM_ROWS + 1), 11);
        // The Schnorr ATMS outer proof's 6,993,756 cells: k = 23.
        assert_eq!(one_column_k(6_993_756), 23);
    }

    #[test]
    fn expose_statements_leaves_out_each_accumulator() {
        use halo2_base::gates::circuit::builder::BaseCircuitBuilder;
        let mut builder = BaseCircuitBuilder::<Fr>::new(false);
        let ctx = builder.main(0);
        // Two aggregation proofs' public inputs: limbs 0.., then a statement of 2 words.
        let inner: Vec<Vec<AssignedValue<Fr>>> = (0..2u64)
            .map(|i| {
                (0..ACCUMULATOR_LIMBS as u64 + 2)
                    .map(|j| ctx.load_witness(Fr::from(100 * i + j)))
                    .collect()
            })
            .collect();
        let exposed = ExposeStatements.constrain(ctx, &inner).unwrap();
        let values: Vec<Fr> = exposed.iter().map(|v| *v.value()).collect();
        let limbs = ACCUMULATOR_LIMBS as u64;
        assert_eq!(
            values,
            [limbs, limbs + 1, 100 + limbs, 101 + limbs].map(Fr::from)
        );
        // ExposeAll keeps the limbs.
        assert_eq!(
            ExposeAll.constrain(ctx, &inner).unwrap().len(),
            2 * (ACCUMULATOR_LIMBS + 2)
        );
        // A certificate proof's inputs (fewer than the limbs) are not an aggregation's.
        let short = vec![inner[0][..3].to_vec()];
        assert!(matches!(
            ExposeStatements.constrain(ctx, &short),
            Err(AggregationError::Inner { index: 0, .. })
        ));
    }
}
