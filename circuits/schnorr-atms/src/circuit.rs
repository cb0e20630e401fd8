//! The circuit: one layout function shared by MockProver, keygen and the prover.
//!
//! ```text
//! public:  [commitment, message, threshold]
//! flat:    pk_0..pk_{n-1} on-curve -> Rescue-Prime sponge -> commitment
//!          slot i: enabled_i in {0,1}; enabled_i => Schnorr(pk_i, message, sig_i)
//! Merkle:  slot j: pk on-curve -> leaf -> path(index_j) -> root_j; root_j = root_0 = commitment
//!          index_0 < index_1 < ... (distinct members); enabled_j => Schnorr(pk, message, sig_j)
//! both:    count = sum enabled_i;  threshold < 2^b;  threshold < count + 1
//! batch:   instead of a check per slot, sum_i rho_i enabled_i (s_i G - R_i - c_i pk_i) = O
//!          with rho_i derived in-circuit from every slot's (c_i, s_i, enabled_i)
//! ```
//!
//! The hashes (commitment, Merkle nodes, challenges) run on the Rescue-Prime round gate and each
//! Schnorr check `s G = R + c pk` is one GLV ladder `s G + c (-pk)` (128 rows on Grumpkin's
//! endomorphism, [`tms_gadgets::curve::glv`]) on the custom gates of
//! [`tms_gadgets::hybrid`] ([`Verification::PerSignature`]), or all checks are one random linear
//! combination verified by a multi-scalar multiplication ([`Verification::Batch`], soundness
//! argued in [`tms_gadgets::signature::batch`]); curve checks, the canonical-challenge bound, counting and the
//! threshold comparison stay on halo2-base.
//!
//! Not constrained: the keys and signatures of disabled slots beyond being on the curve (they
//! do not count). In Merkle mode a disabled slot still proves a distinct committee member, so
//! it cannot take an index a signer needs.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::ff::Field,
    AssignedValue, Context,
};
use tms_gadgets::{
    bank::CustomRegion,
    curve::{GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    hash::{HashInstructions, RescueGateChip},
    merkle::{AssignedMerklePath, MerkleChip},
    signature::batch::{BatchItem, SchnorrBatchChip},
    signature::schnorr::{challenge_in_circuit, SchnorrChip, Signature},
    Fr,
};

use crate::{
    native::CommitmentMode,
    witness::{AtmsWitness, Verification},
};

/// What a disabled slot carries in place of a signature (any on-curve R and scalar s would do).
fn placeholder_signature() -> Signature {
    Signature {
        r: GrumpkinAffine::generator(),
        s: GrumpkinScalar::ONE,
    }
}

/// Lays out the ATMS circuit for `witness` (halo2-base cells on `ctx`, ladders and Rescue
/// rounds on `custom`) and returns the public cells in instance order.
pub fn synthesize(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    custom: &CustomRegion,
    witness: &AtmsWitness,
) -> Vec<AssignedValue<Fr>> {
    let ecc = GrumpkinChip::new(range);
    let hasher = RescueGateChip::new(custom.clone());
    let schnorr = SchnorrChip::new(range, custom.clone());
    let gate = range.gate();
    let message = ctx.load_witness(witness.instance.message);
    let threshold = ctx.load_witness(Fr::from(witness.instance.threshold));
    let keys = witness.committee.keys();

    let slot_keys: Vec<_> = match witness.shape.mode {
        CommitmentMode::Flat => keys
            .iter()
            .map(|k| {
                ecc.load_point(ctx, k.0)
                    .expect("committee keys are not the identity")
            })
            .collect(),
        CommitmentMode::Merkle { .. } => witness
            .slots
            .iter()
            .map(|s| {
                ecc.load_point(ctx, keys[s.index].0)
                    .expect("committee keys are not the identity")
            })
            .collect(),
    };

    let commitment = match witness.shape.mode {
        CommitmentMode::Flat => {
            let coordinates: Vec<_> = slot_keys.iter().flat_map(|p| [p.x, p.y]).collect();
            hasher.hash_leaf(ctx, &coordinates)
        }
        CommitmentMode::Merkle { .. } => {
            let merkle = MerkleChip::new(hasher.clone(), range);
            let leaves: Vec<_> = slot_keys
                .iter()
                .map(|p| merkle.hasher().hash_leaf(ctx, &[p.x, p.y]))
                .collect();
            // One native tree for all slots' paths.
            let tree = witness.committee.tree();
            let paths: Vec<_> = witness
                .slots
                .iter()
                .map(|s| AssignedMerklePath::load(ctx, &tree.path(s.index).expect("member index")))
                .collect();
            let roots = merkle.compute_batch_roots(ctx, &leaves, &paths);
            for root in &roots[1..] {
                ctx.constrain_equal(root, &roots[0]);
            }
            roots[0]
        }
    };

    let mut count = ctx.load_zero();
    let mut batch = Vec::with_capacity(witness.slots.len());
    for (slot, pk) in witness.slots.iter().zip(&slot_keys) {
        let enabled = ctx.load_witness(Fr::from(slot.signature.is_some() as u64));
        gate.assert_bit(ctx, enabled);
        let sig = slot.signature.unwrap_or_else(placeholder_signature);
        let r = ecc
            .load_point(ctx, sig.r)
            .expect("signatures are validated before synthesis");
        let c = challenge_in_circuit(ctx, &hasher, &r, pk, message);
        match witness.shape.verification {
            Verification::PerSignature => {
                schnorr.verify(ctx, pk, c, &r, &sig.s, enabled);
            }
            Verification::Batch => batch.push(BatchItem {
                pk: *pk,
                r,
                c,
                s: sig.s,
                enabled,
            }),
        }
        count = gate.add(ctx, count, enabled);
    }
    if !batch.is_empty() {
        SchnorrBatchChip::new(range, custom.clone(), hasher.clone()).verify(ctx, &batch);
    }

    // count >= threshold, i.e. threshold < count + 1, both below 2^bits.
    let bits = (usize::BITS - witness.slots.len().leading_zeros()) as usize + 1;
    range.range_check(ctx, threshold, bits);
    let count_plus_one = gate.inc(ctx, count);
    range.check_less_than(ctx, threshold, count_plus_one, bits);

    vec![commitment, message, threshold]
}
