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
//!
//! No committee member can block a certificate: a disabled slot's ladder (or batch term) runs
//! on the constant [`tms_gadgets::curve::disabled_key`], never on its key, so a key built to
//! meet a ladder's known points at an equal x (`[2^j] O`, `S + K[i]`, which anyone can compute
//! and nobody can sign for) changes nothing (`tests/atms.rs` registers both). Committee files
//! also carry proofs of possession ([`crate::Committee::register`]).
//!
//! The layout is one thread's work (halo2-base's one context), so its heavy native part is done
//! first on every thread ([`precompute`]): the Rescue rows of every challenge and of the flat
//! commitment, and every signature ladder's rows. The layout then copies them: the same rows in
//! the same order, so the same keys and proofs.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::ff::Field,
    AssignedValue, Context,
};
use std::sync::Arc;

use rayon::prelude::*;
use tms_gadgets::{
    bank::CustomRegion,
    curve::{glv::PreparedLadder, xy, GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    hash::{
        rescue_gate::{leaf_permutations, PrecomputedPermutations},
        HashInstructions, RescueGateChip,
    },
    merkle::{AssignedMerklePath, MerkleChip},
    proving::cost::CellLedger,
    signature::batch::{BatchItem, SchnorrBatchChip},
    signature::schnorr::{challenge_in_circuit, SchnorrChip, Signature},
    Fr,
};

use crate::{
    native::CommitmentMode,
    witness::{AtmsWitness, Verification},
};

/// What a disabled slot carries in place of a signature (any on-curve R and scalar s would do:
/// the prover chooses them, and the slot's check is not enforced).
pub fn placeholder_signature() -> Signature {
    Signature {
        r: GrumpkinAffine::generator(),
        s: GrumpkinScalar::ONE,
    }
}

/// What [`precompute`] computes ahead of the layout.
struct Precomputed {
    /// The Rescue rows of every challenge and of the flat commitment (Merkle mode: of every
    /// leaf; its inner nodes are computed in the layout).
    permutations: Arc<PrecomputedPermutations>,
    /// Each slot's ladder rows ([`Verification::PerSignature`]; none for a batch).
    ladders: Vec<Option<PreparedLadder>>,
}

/// The native values the layout computes, on every thread: each slot's challenge
/// `H(R, pk, m)`, its ladder (the challenge's digest is its `c`) and the flat commitment's
/// sponge, from the witness's values (the layout checks nothing here: it copies rows it would
/// otherwise compute, and computes any it is not given).
fn precompute(witness: &AtmsWitness) -> Precomputed {
    let keys = witness.committee.keys();
    let message = witness.instance.message;
    let per_signature = witness.shape.verification == Verification::PerSignature;
    let flat = matches!(witness.shape.mode, CommitmentMode::Flat);
    let ((commitment, merkle_leaves), slots): (_, Vec<_>) = rayon::join(
        || match flat {
            true => {
                let coordinates: Vec<_> = keys
                    .iter()
                    .flat_map(|k| <[Fr; 2]>::from(xy(&k.0)))
                    .collect();
                (leaf_permutations(&coordinates).1, vec![])
            }
            false => (
                vec![],
                witness
                    .slots
                    .par_iter()
                    .flat_map_iter(|s| {
                        let (x, y) = xy(&keys[s.index].0);
                        leaf_permutations(&[x, y]).1
                    })
                    .collect(),
            ),
        },
        || {
            witness
                .slots
                .par_iter()
                .enumerate()
                .map(|(i, slot)| {
                    let pk = keys[if flat { i } else { slot.index }].0;
                    let sig = slot.signature.unwrap_or_else(placeholder_signature);
                    let ((rx, ry), (px, py)) = (xy(&sig.r), xy(&pk));
                    let (c, rows) = leaf_permutations(&[rx, ry, px, py, message]);
                    let ladder = per_signature
                        .then(|| SchnorrChip::prepare(&pk, c, &sig.s, slot.signature.is_some()));
                    (rows, ladder)
                })
                .collect()
        },
    );
    let mut permutations = PrecomputedPermutations::default();
    permutations.extend(commitment);
    permutations.extend(merkle_leaves);
    let mut ladders = Vec::with_capacity(slots.len());
    for (rows, ladder) in slots {
        permutations.extend(rows);
        ladders.push(ladder);
    }
    Precomputed {
        permutations: Arc::new(permutations),
        ladders,
    }
}

/// The components [`synthesize_recorded`] charges cells to (the statistics' `components`; the
/// cells of none of them are under [`tms_gadgets::proving::cost::OTHER`]).
pub mod components {
    /// Loading the committee keys the circuit uses (every key in flat mode, the slots' keys in
    /// Merkle mode) with their on-curve checks.
    pub const KEYS: &str = "committee keys (on-curve)";
    /// Flat mode: the Rescue-Prime sponge of all keys.
    pub const COMMITMENT: &str = "committee commitment (Rescue)";
    /// Merkle mode: the slots' leaves, their paths to the root (Rescue) and the roots' equality.
    pub const MERKLE_PATHS: &str = "Merkle paths (Rescue)";
    /// Each slot's enabled bit and nonce point `R` (on-curve).
    pub const SIGNATURE_INPUTS: &str = "signature inputs (flag, R on-curve)";
    /// Each slot's challenge `H(R, pk, m)`.
    pub const CHALLENGE: &str = "Schnorr challenge hash (Rescue)";
    /// Per-signature verification: one GLV ladder `s G + c (-pk)` per slot and its comparison
    /// with `R`.
    pub const LADDERS: &str = "GLV ladders s*G - c*pk = R";
    /// Batch verification: the random linear combination and its multi-scalar multiplication.
    pub const BATCH: &str = "batch check (MSM)";
    /// The count of enabled slots and the threshold comparison.
    pub const THRESHOLD: &str = "signer count and threshold";
}

/// Lays the circuit out for `witness`, charging the cells of each of the [`components`] to
/// `ledger`, and returns the public cells in instance order (the shape's
/// [`HybridScheme::synthesize_recorded`](tms_gadgets::proving::scheme::HybridScheme::synthesize_recorded):
/// every proof of this crate is of this layout; `synthesize` there lays it out without a ledger).
pub fn synthesize_recorded(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    custom: &CustomRegion,
    witness: &AtmsWitness,
    ledger: &mut CellLedger,
) -> Vec<AssignedValue<Fr>> {
    use components::*;
    let ecc = GrumpkinChip::new(range);
    let Precomputed {
        permutations,
        ladders,
    } = precompute(witness);
    let hasher = RescueGateChip::with_precomputed(custom.clone(), permutations);
    let schnorr = SchnorrChip::new(range, custom.clone());
    let gate = range.gate();
    let message = ctx.load_witness(witness.instance.message);
    let threshold = ctx.load_witness(Fr::from(witness.instance.threshold));
    let keys = witness.committee.keys();

    let slot_keys: Vec<_> = ledger.charge(KEYS, ctx, |ctx| match witness.shape.mode {
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
    });

    let commitment = match witness.shape.mode {
        CommitmentMode::Flat => ledger.charge(COMMITMENT, ctx, |ctx| {
            let coordinates: Vec<_> = slot_keys.iter().flat_map(|p| [p.x, p.y]).collect();
            hasher.hash_leaf(ctx, &coordinates)
        }),
        CommitmentMode::Merkle { .. } => ledger.charge(MERKLE_PATHS, ctx, |ctx| {
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
        }),
    };

    let mut count = ctx.load_zero();
    let mut batch = Vec::with_capacity(witness.slots.len());
    for ((slot, pk), ladder) in witness.slots.iter().zip(&slot_keys).zip(&ladders) {
        let sig = slot.signature.unwrap_or_else(placeholder_signature);
        let (enabled, r) = ledger.charge(SIGNATURE_INPUTS, ctx, |ctx| {
            let enabled = ctx.load_witness(Fr::from(slot.signature.is_some() as u64));
            gate.assert_bit(ctx, enabled);
            let r = ecc
                .load_point(ctx, sig.r)
                .expect("signatures are validated before synthesis");
            (enabled, r)
        });
        let c = ledger.charge(CHALLENGE, ctx, |ctx| {
            challenge_in_circuit(ctx, &hasher, &r, pk, message)
        });
        match witness.shape.verification {
            Verification::PerSignature => {
                let ladder = ladder
                    .as_ref()
                    .expect("precompute prepares every slot's ladder per signature");
                ledger.charge(LADDERS, ctx, |ctx| {
                    schnorr.verify_prepared(ctx, pk, c, &r, ladder, enabled)
                });
            }
            Verification::Batch => batch.push(BatchItem {
                pk: *pk,
                r,
                c,
                s: sig.s,
                enabled,
            }),
        }
        count = ledger.charge(THRESHOLD, ctx, |ctx| gate.add(ctx, count, enabled));
    }
    if !batch.is_empty() {
        ledger.charge(BATCH, ctx, |ctx| {
            SchnorrBatchChip::new(range, custom.clone(), hasher.clone()).verify(ctx, &batch)
        });
    }

    // count >= threshold, i.e. threshold < count + 1, both below 2^bits.
    ledger.charge(THRESHOLD, ctx, |ctx| {
        let bits = (usize::BITS - witness.slots.len().leading_zeros()) as usize + 1;
        range.range_check(ctx, threshold, bits);
        let count_plus_one = gate.inc(ctx, count);
        range.check_less_than(ctx, threshold, count_plus_one, bits);
    });

    vec![commitment, message, threshold]
}
