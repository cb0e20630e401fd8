//! Extending a Mithril chain proof by one epoch (incremental proofs): the step statement.
//!
//! A light client keeps one proof of the chain since genesis. A **step** circuit verifies two
//! proofs, the previous chain proof and the new epoch's certificate proof, and exposes the
//! extended chain's statement. Its previous proof is one of its own, so the step cannot fix the
//! verifying key of that proof as a constant (the key would contain itself): the inner keys are
//! witnesses of the circuit (snark-verifier-sdk's `VerifierUniversality::Full`), each reduced
//! in-circuit to a Poseidon digest of its preprocessed commitments, transcript state and `k`
//! ([`key_digest`] is the native twin), and the statement carries the digest of the step key:
//!
//! | public input (after the accumulator) | what |
//! |---|---|
//! | genesis | the registration digest that signs epoch 0 |
//! | last registration | the digest epoch `E - 1` hands over to |
//! | last application message | what epoch `E - 1` signs beside the hand-over |
//! | epochs | `E`, the number of certificates |
//! | step key | the digest of the key every step proof of the chain was verified under |
//!
//! [`ChainStep::constrain_step`] enforces, for the previous proof's statement `P` and the
//! certificate's `[registration digest, message]`:
//!
//! - the certificate proof was made under the chain's certificate key (its digest is a constant
//!   of the step circuit), and its message is the Poseidon link hash of the next registration
//!   digest and the application message the step witnesses at epoch `P.epochs` (as a leaf of
//!   [`crate::chain`]): a certificate is bound to its place from genesis;
//! - **base case** (`P.epochs = 0`): the previous proof only stands in for the missing one (any
//!   proof of the step's shape with a valid accumulator); nothing of its statement or key is
//!   used. The new chain starts at the certificate: genesis is its registration digest, and the
//!   step key is a witness;
//! - **step** (`P.epochs > 0`): the previous proof was verified under the key whose digest it
//!   carries (`key digest = P.step key`), and the certificate is signed by the registration the
//!   previous epoch handed over to (`registration digest = P.last registration`); genesis and
//!   step key are carried over;
//! - the new statement is `[genesis, next registration, application message, P.epochs + 1,
//!   step key]`.
//!
//! A verifier that holds the step circuit's key checks the last proof with the statement it
//! builds itself and **the digest of its own key** as the step key. Every step proof in the
//! chain was then verified under that key (by induction over the carried digest), and the
//! chain starts at a base case, the only place the step key is chosen: so the proof shows a
//! chain of `E` certificates from the genesis it names. A proof that claims a step key other
//! than the verifier's own shows nothing and is refused.

use halo2_base::{
    gates::{GateChip, GateInstructions},
    halo2_proofs::{
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::VerifyingKey,
        poly::{
            commitment::{Params, ParamsProver},
            kzg::commitment::ParamsKZG,
        },
    },
    AssignedValue, Context, QuantumCell,
};
use mithril_snark::{chain::ChainStatement, params::Tag};
use snark_verifier_sdk::{
    halo2::aggregation::AggregationConfigParams, snark_verifier::verifier::plonk::PlonkProtocol,
};
use tms_gadgets::{
    hash::{HashInstructions, PoseidonChip},
    proving::{MultiOpen, Transcript},
    Fr,
};

pub use crate::snark::{key_digest, key_digest_in_circuit};
use crate::{
    chain::{segment_inputs, ChainCertificate, Link, SEGMENT_INPUTS},
    snark::{
        aggregation_keygen, aggregation_layout, aggregation_prove, aggregation_verify,
        certificate_key_digest, certificate_sample, node_key_digest, node_protocol, node_sample,
        node_snark, protocol_key_digest, Statement,
    },
    stand_in::{stand_in, trivial_accumulator},
    AggregationError, AggregationKeys, Snark, ACCUMULATOR_LIMBS,
};

/// Public inputs of a step proof after the accumulator: the chain segment, then the step key's
/// digest.
pub const STEP_INPUTS: usize = SEGMENT_INPUTS + 1;

/// Public inputs of a step proof: accumulator limbs, then [`STEP_INPUTS`].
const STEP_PROOF_INPUTS: usize = ACCUMULATOR_LIMBS + STEP_INPUTS;

/// Public inputs of a certificate proof: registration digest, message.
const CERTIFICATE_INPUTS: usize = 2;

/// What one step circuit witnesses beside the two proofs it verifies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChainStep {
    /// The new certificate's link: the registration it hands over to, its application message.
    pub link: Link,
    /// The digest of the certificate verifying key ([`key_digest`]): a constant of the circuit.
    pub certificate_key: Fr,
    /// The digest of the step circuit's own key, chosen in the base case only (carried over
    /// otherwise): the prover puts its key's digest there, and a verifier compares it with its
    /// own.
    pub step_key: Fr,
}

impl Statement for ChainStep {
    fn constrain(
        &self,
        _: &mut Context<Fr>,
        _: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        Err(AggregationError::Input(
            "a chain step verifies its inner proofs under witnessed keys".into(),
        ))
    }

    fn keys_as_witness(&self) -> bool {
        true
    }

    fn constrain_keyed(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
        keys: &[AssignedValue<Fr>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        match (inner, keys) {
            ([previous, certificate], [previous_key, certificate_key]) => self.constrain_step(
                ctx,
                (previous, *previous_key),
                (certificate, *certificate_key),
            ),
            _ => Err(AggregationError::Input(format!(
                "a chain step verifies 2 proofs (the previous step, the certificate), {} given",
                inner.len()
            ))),
        }
    }
}

impl ChainStep {
    /// Constrains one step (see the module documentation) over the previous proof's public
    /// inputs (`previous`: accumulator limbs, then [`STEP_INPUTS`]) and key digest, and the
    /// certificate proof's public inputs and key digest; returns the new statement's cells.
    pub fn constrain_step(
        &self,
        ctx: &mut Context<Fr>,
        (previous, previous_key): (&[AssignedValue<Fr>], AssignedValue<Fr>),
        (certificate, certificate_key): (&[AssignedValue<Fr>], AssignedValue<Fr>),
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        if previous.len() != STEP_PROOF_INPUTS {
            return Err(AggregationError::Inner {
                index: 0,
                reason: format!(
                    "a chain step proof has {} public inputs, {} given",
                    STEP_PROOF_INPUTS,
                    previous.len()
                ),
            });
        }
        if certificate.len() != CERTIFICATE_INPUTS {
            return Err(AggregationError::Inner {
                index: 1,
                reason: format!(
                    "a certificate proof has {CERTIFICATE_INPUTS} public inputs, {} given",
                    certificate.len()
                ),
            });
        }
        let gate = GateChip::<Fr>::default();
        let [genesis, last_registration, _, epochs, step_key]: [AssignedValue<Fr>; STEP_INPUTS] =
            std::array::from_fn(|i| previous[ACCUMULATOR_LIMBS + i]);
        let (registration, message) = (certificate[0], certificate[1]);

        // The certificate is one of the chain's, and binds its link.
        let trusted_certificate_key = ctx.load_constant(self.certificate_key);
        ctx.constrain_equal(&certificate_key, &trusted_certificate_key);
        let tag = ctx.load_constant(Tag::ChainLink.value());
        let next = ctx.load_witness(self.link.next_registration);
        let application = ctx.load_witness(self.link.application);
        // The new certificate is epoch `P.epochs` (0 in the base case: the chain starts there).
        let bound = PoseidonChip::new().hash_leaf(ctx, &[tag, next, application, epochs]);
        ctx.constrain_equal(&bound, &message);

        // Past the base case: the previous proof was verified under the key it carries, and
        // the certificate continues it.
        let base = gate.is_zero(ctx, epochs);
        for (got, carried) in [(previous_key, step_key), (registration, last_registration)] {
            let gap = gate.sub(ctx, got, carried);
            let gap_past_base = gate.mul_not(ctx, base, gap);
            gate.assert_is_const(ctx, &gap_past_base, &Fr::zero());
        }

        // The base case starts the chain at the certificate, with the step key witnessed.
        let witnessed_step_key = ctx.load_witness(self.step_key);
        let genesis = gate.select(ctx, registration, genesis, base);
        let step_key = gate.select(ctx, witnessed_step_key, step_key, base);
        let epochs = gate.add(ctx, epochs, QuantumCell::Constant(Fr::one()));
        Ok(vec![genesis, next, application, epochs, step_key])
    }
}

/// The digest of the certificate key `certificate_vk` as a step circuit fixes it (a constant of
/// the circuit): what step keys are made for, and what a cache of them is keyed by.
pub fn step_certificate_key(
    certificate_params: &ParamsKZG<Bn256>,
    certificate_vk: &VerifyingKey<G1Affine>,
) -> Fr {
    certificate_key_digest(certificate_params, certificate_vk, CERTIFICATE_INPUTS)
}

/// `k` of the stand-in proof the base case verifies: any serves (the step circuit takes each
/// key's `k` as a witness), so the smallest that holds the step's layout.
const STAND_IN_K: u32 = 12;

/// The keys of a chain's step circuit and what proving with them needs.
pub struct StepKeys {
    /// The step circuit's keys.
    pub keys: AggregationKeys,
    /// The digest of the certificate key every epoch is proved under.
    pub certificate_key: Fr,
    /// The digest of the step key, which every proof of a chain carries.
    pub step_key: Fr,
    /// The base case's stand-in for the previous proof ([`crate::stand_in`]).
    stand_in: Snark,
}

/// `params` cut down to `2^k` rows (same tau, so proofs at either size share one accumulator).
fn params_at(params: &ParamsKZG<Bn256>, k: u32) -> ParamsKZG<Bn256> {
    let g = params.get_g()[..1 << k].to_vec();
    params.from_parts(k, g, None, params.g2(), params.s_g2())
}

/// What of a protocol a step circuit's verifier depends on: everything but the key's values (its
/// preprocessed commitments and transcript state, witnessed and digested in circuit) and `k`
/// (witnessed too). The quotient's expression, the linearisation and the instance committing
/// key's form are included: a stand-in that differed there would be verified by another
/// verifier than the step proofs are.
fn protocol_shape(protocol: &PlonkProtocol<G1Affine>) -> String {
    format!(
        "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        protocol.preprocessed.len(),
        protocol.num_instance,
        protocol.num_witness,
        protocol.num_challenge,
        protocol.evaluations,
        protocol.queries,
        protocol.accumulator_indices,
        protocol.quotient,
        protocol.linearization,
        protocol
            .instance_committing_key
            .as_ref()
            .map(|key| (key.bases.len(), key.constant.is_some())),
    )
}

/// The keys of the step circuit at `2^k` rows for certificates proved under `certificate_key`
/// (their parameters and verifying key). The previous proof has the step's own layout, which is
/// only known once the step is laid out: the layout is repeated over a stand-in of the last
/// layout until it gives that layout again (twice, in practice). No proof is needed beyond the
/// stand-in's, so a verifier regenerates the same key.
pub fn step_keygen(
    params: &ParamsKZG<Bn256>,
    k: u32,
    (certificate_params, certificate_vk): (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
) -> Result<StepKeys, AggregationError> {
    let certificate = certificate_sample(certificate_params, certificate_vk, CERTIFICATE_INPUTS);
    let certificate_key = step_certificate_key(certificate_params, certificate_vk);
    let step = ChainStep {
        certificate_key,
        ..Default::default()
    };
    let small = params_at(params, STAND_IN_K);
    // A stand-in statement: any, with zero epochs.
    let inputs = stand_in_inputs(params);
    let mut layout = AggregationConfigParams {
        degree: k,
        num_advice: 4,
        num_lookup_advice: 1,
        num_fixed: 1,
        lookup_bits: k as usize - 1,
    };
    for _ in 0..4 {
        let made = stand_in(
            &small,
            layout,
            &inputs,
            Transcript::Poseidon,
            MultiOpen::Shplonk,
        )?;
        let previous = Snark::new(
            node_protocol(&small, &made.vk, inputs.len()),
            vec![inputs.clone()],
            made.proof,
        );
        let samples = vec![previous.clone(), certificate.clone()];
        let (laid, _) = aggregation_layout(params, k, samples.clone(), &step)?;
        let same = |a: &AggregationConfigParams| {
            (a.num_advice, a.num_lookup_advice, a.num_fixed)
                == (
                    layout.num_advice,
                    layout.num_lookup_advice,
                    layout.num_fixed,
                )
        };
        if !same(&laid) {
            layout = laid;
            continue;
        }
        let keys = aggregation_keygen(params, k, samples, &step)?;
        return StepKeys::from_parts(params, keys, certificate_key, previous);
    }
    Err(AggregationError::Prover(
        "the step circuit's layout does not settle".into(),
    ))
}

/// The base case's public inputs at `params`: the trivial accumulator of the stand-in's
/// parameters, then a statement of zeros (zero epochs).
pub(crate) fn stand_in_inputs(params: &ParamsKZG<Bn256>) -> Vec<Fr> {
    let mut inputs = trivial_accumulator(&params_at(params, STAND_IN_K));
    inputs.extend([Fr::zero(); STEP_INPUTS]);
    inputs
}

impl StepKeys {
    /// Step keys from their parts, checked as [`step_keygen`] checks what it made: the step
    /// key's digest is recomputed from `keys` at `params`, the key takes a step proof's public
    /// inputs, and `stand_in` has the step circuit's protocol and the base case's public inputs.
    /// [`crate::step_cache`] reads keys back through it. What no check here sees (the
    /// certificate key's digest is a constant inside the proving key) a verifier's own key
    /// catches: a step proof made under other keys does not verify under the key it pins.
    pub fn from_parts(
        params: &ParamsKZG<Bn256>,
        keys: AggregationKeys,
        certificate_key: Fr,
        stand_in: Snark,
    ) -> Result<Self, AggregationError> {
        if params.k() < STAND_IN_K {
            return Err(AggregationError::Input(format!(
                "step parameters of 2^{} rows, fewer than the stand-in's 2^{STAND_IN_K}",
                params.k()
            )));
        }
        if keys.num_instances != STEP_PROOF_INPUTS {
            return Err(AggregationError::Input(format!(
                "a step key takes {STEP_PROOF_INPUTS} public inputs, this one {}",
                keys.num_instances
            )));
        }
        let own = node_protocol(params, keys.vk(), STEP_PROOF_INPUTS);
        if protocol_shape(&own) != protocol_shape(&stand_in.protocol) {
            return Err(AggregationError::Prover(
                "the stand-in's protocol is not the step circuit's".into(),
            ));
        }
        if stand_in.instances != [stand_in_inputs(params)] {
            return Err(AggregationError::Input(
                "the stand-in's public inputs are not the base case's".into(),
            ));
        }
        Ok(StepKeys {
            step_key: protocol_key_digest(&own),
            keys,
            certificate_key,
            stand_in,
        })
    }

    /// The base case's stand-in for the previous proof (what a cache stores beside the keys).
    pub fn stand_in(&self) -> &Snark {
        &self.stand_in
    }
}

/// The chain extended by `certificate`: a step proof (Poseidon transcript, so that the next
/// step verifies it) over the previous step proof (its public inputs and proof), or over the
/// stand-in for the first epoch. Returns the new proof's public inputs and proof.
pub fn extend_chain(
    params: &ParamsKZG<Bn256>,
    keys: &StepKeys,
    previous: Option<(&[Fr], Vec<u8>)>,
    certificate: ChainCertificate,
) -> Result<(Vec<Fr>, Vec<u8>), AggregationError> {
    let previous = match previous {
        None => keys.stand_in.clone(),
        Some((public_inputs, proof)) => node_snark(params, keys.keys.vk(), public_inputs, proof)?,
    };
    let step = ChainStep {
        link: certificate.link,
        certificate_key: keys.certificate_key,
        step_key: keys.step_key,
    };
    aggregation_prove(
        params,
        &keys.keys,
        vec![previous, certificate.snark],
        &step,
        Transcript::Poseidon,
    )
}

/// Whether a step proof under `vk` (the verifier's own step key) shows the chain `statement`:
/// the public inputs are the proof's accumulator, the statement the verifier builds, and the
/// digest of `vk` itself, so that every step of the chain was verified under `vk`.
pub fn verify_extended_chain(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    statement: &ChainStatement,
    accumulator: &[Fr],
    proof: &[u8],
) -> bool {
    if accumulator.len() != ACCUMULATOR_LIMBS {
        return false;
    }
    let mut public_inputs = accumulator.to_vec();
    public_inputs.extend(segment_inputs(statement));
    public_inputs.push(node_key_digest(params, vk, STEP_PROOF_INPUTS));
    aggregation_verify(params, vk, &public_inputs, proof, Transcript::Poseidon)
}

/// The final wrapper of an incremental chain: one proof that verifies the last step proof under
/// **the** step key (a constant of the wrapper, so a verifier that holds the wrapper's key holds
/// the step key) and exposes the chain's statement alone, `[genesis, last registration, last
/// application message, epochs]` after the accumulator: what a chain tree's root exposes, so
/// `ChainVerifier` and [`crate::chain::verify_chain_proof`] serve it unchanged, whatever the
/// chain's length.
///
/// The step statement's last word, the digest of the key every earlier step proof was verified
/// under, must be the digest of the wrapped step key: otherwise the earlier steps could have
/// been proved under any key (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChainWrap {
    /// The digest of the step key the wrapper verifies under ([`node_key_digest`] of it).
    pub step_key: Fr,
}

impl Statement for ChainWrap {
    fn constrain(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        let [step] = inner else {
            return Err(AggregationError::Input(format!(
                "a chain wrapper verifies 1 step proof, {} given",
                inner.len()
            )));
        };
        if step.len() != STEP_PROOF_INPUTS {
            return Err(AggregationError::Inner {
                index: 0,
                reason: format!(
                    "a chain step proof has {} public inputs, {} given",
                    STEP_PROOF_INPUTS,
                    step.len()
                ),
            });
        }
        let own = ctx.load_constant(self.step_key);
        ctx.constrain_equal(&step[ACCUMULATOR_LIMBS + SEGMENT_INPUTS], &own);
        Ok(step[ACCUMULATOR_LIMBS..ACCUMULATOR_LIMBS + SEGMENT_INPUTS].to_vec())
    }
}

/// The statement of the wrapper over step proofs under `step_vk` (at `step_params`).
fn chain_wrap(step_params: &ParamsKZG<Bn256>, step_vk: &VerifyingKey<G1Affine>) -> ChainWrap {
    ChainWrap {
        step_key: node_key_digest(step_params, step_vk, STEP_PROOF_INPUTS),
    }
}

/// The advice cells of the wrapper over step proofs under `step_vk` (a layout at `2^k` rows
/// of `params`, no keys): what [`crate::one_column_k`] sizes the wrapper by.
pub fn chain_wrap_cells(
    params: &ParamsKZG<Bn256>,
    k: u32,
    (step_params, step_vk): (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
) -> Result<usize, AggregationError> {
    let sample = node_sample(step_params, step_vk, STEP_PROOF_INPUTS);
    aggregation_layout(params, k, vec![sample], &chain_wrap(step_params, step_vk))
        .map(|(_, cells)| cells)
}

/// The keys of the final wrapper at `2^k` rows over step proofs under `step_vk` (at
/// `step_params`): regenerated by a verifier from the step key alone, no proof needed.
pub fn chain_wrap_keygen(
    params: &ParamsKZG<Bn256>,
    k: u32,
    (step_params, step_vk): (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
) -> Result<AggregationKeys, AggregationError> {
    let sample = node_sample(step_params, step_vk, STEP_PROOF_INPUTS);
    aggregation_keygen(params, k, vec![sample], &chain_wrap(step_params, step_vk))
}

/// The last step proof of a chain (its public inputs and proof, as [`extend_chain`] returns
/// them) wrapped for `transcript` ([`Transcript::Evm`] for `ChainVerifier`): public inputs
/// `[accumulator, genesis, last registration, last application message, epochs]` and the proof.
/// Before proving, the step key the proof claims is checked against `step_vk`'s digest, then
/// the step proof natively, its accumulator included.
pub fn wrap_chain(
    params: &ParamsKZG<Bn256>,
    keys: &AggregationKeys,
    (step_params, step_vk): (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
    (public_inputs, proof): (&[Fr], Vec<u8>),
    transcript: Transcript,
) -> Result<(Vec<Fr>, Vec<u8>), AggregationError> {
    // The wrapper's circuit refuses a step proof that claims another step key; say so here
    // (before the native check of the proof: a comparison, not a verification) rather than
    // make a proof that does not verify.
    let wrap = chain_wrap(step_params, step_vk);
    if public_inputs.last() != Some(&wrap.step_key) {
        return Err(AggregationError::Inner {
            index: 0,
            reason: "the step proof claims a step key other than the digest of the key it \
                     verifies under"
                .into(),
        });
    }
    let step = node_snark(step_params, step_vk, public_inputs, proof)?;
    aggregation_prove(params, keys, vec![step], &wrap, transcript)
}

#[cfg(test)]
mod tests {
    use halo2_base::{
        gates::{
            circuit::{builder::BaseCircuitBuilder, CircuitBuilderStage},
            RangeInstructions,
        },
        halo2_proofs::plonk::keygen_vk,
    };
    use rand_chacha::rand_core::SeedableRng;

    use super::*;

    /// The protocol of one small circuit with a lookup (as the step has) at `2^k` rows.
    fn tiny_protocol(k: u32) -> PlonkProtocol<G1Affine> {
        let params =
            ParamsKZG::<Bn256>::setup(k, rand_chacha::ChaCha20Rng::seed_from_u64(k as u64));
        let mut builder = BaseCircuitBuilder::<Fr>::from_stage(CircuitBuilderStage::Keygen)
            .use_k(k as usize)
            .use_lookup_bits(k as usize - 1)
            .use_instance_columns(1);
        let range = builder.range_chip();
        let ctx = builder.main(0);
        let x = ctx.load_witness(Fr::from(3));
        range.range_check(ctx, x, 8);
        let y = range.gate().mul(ctx, x, x);
        builder.assigned_instances = vec![vec![y; STEP_PROOF_INPUTS]];
        builder.calculate_params(Some(9));
        let vk = keygen_vk(&params, &builder).expect("keygen of a small circuit");
        node_protocol(&params, &vk, STEP_PROOF_INPUTS)
    }

    /// The step's self-check compares a stand-in's protocol at `STAND_IN_K` with its own at its
    /// `k`: what it compares (the quotient's expression included) must not depend on `k`, or
    /// every step keygen would fail.
    #[test]
    fn the_protocol_shape_does_not_depend_on_k() {
        let (small, large) = (tiny_protocol(9), tiny_protocol(11));
        assert_ne!(small.domain.k, large.domain.k);
        assert_eq!(protocol_shape(&small), protocol_shape(&large));
    }
}
