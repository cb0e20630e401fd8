//! The SNARK-Mithril circuit: one layout function shared by MockProver, keygen and the prover.
//!
//! ```text
//! public:  [registration digest, message]
//! params:  m, phi num, phi den (witnesses), k = index slots and depth (constants of the shape)
//!          params digest = Poseidon_leaf(PARAMS, m, k, num, den);  m < 2^32
//! signer slot s (S of them), membership:
//!          pk on-curve; leaf = Poseidon_leaf(pk.x, pk.y, stake, T); Merkle path -> root_s = root
//!          T = T_hi 2^128 + T_lo canonically (below r)
//!          digest = Poseidon_leaf(REGISTRATION, root, total, depth, params digest)   == public
//! H:       H = H_G(Poseidon_leaf(MESSAGE, digest, message))   (tms_gadgets::curve::hash_to_curve:
//!          u_i = Poseidon_leaf(H2C, signed, i), two RFC 9380 SvdW maps, one addition)
//! signer slot s, unique signature:
//!          sigma, A, B on-curve; c = Poseidon_leaf(CHALLENGE, pk, H, sigma, A, B)
//!          DLEQ: s G = A + c pk  and  s H = B + c sigma   (tms_gadgets::curve::dleq, shared bits)
//! signer table (tms_gadgets::table, one bank row per signer slot s, cells copied from the slot):
//!          row s = (s, sigma_s.x, sigma_s.y, T_hi_s, T_lo_s)        (s a constant)
//! index slot i (exactly k of them):
//!          j_i < 2^32;  j_0 < j_1 < ... < j_{k-1} < m
//!          (n_i, sigma.x, sigma.y, T_hi, T_lo): fresh cells of one bank row, looked up in the
//!          signer table (halo2's lookup argument)
//!          ev = Poseidon_leaf(LOTTERY, sigma.x, sigma.y, j_i) = hi 2^128 + lo (hi < 2^126, lo < 2^128)
//!          (hi, lo) < (T_hi, T_lo) lexicographically
//! ```
//!
//! # Soundness argument (what a verifier learns)
//! An accepting proof for public `(digest, message)`, where the verifier computed `digest` from
//! a [`RegistrationCommitment`] (a contract stores it) and `message` as `keccak-256(bytes) mod r`,
//! shows:
//! - **Registration and parameters.** The digest is recomputed in-circuit from the root every
//!   signer slot's path reaches, the total stake, the shape's depth and `(m, k, phi_f)` with `k`
//!   the number of index slots. Poseidon is collision resistant, so these are the commitment's.
//! - **H.** The circuit computes the signed message `Poseidon_leaf(MESSAGE, digest, message)` from
//!   the public digest and message, and `H = H_G` of it with [`tms_gadgets::curve::HashToCurveChip`]:
//!   the square roots are witnesses but the candidate the SvdW map takes and the sign of `y` are
//!   constrained (every witness of the map is determined by its input; see that module), so `H` is
//!   the native [`crate::signature::hash_to_grumpkin`] of the signed message, on the curve and not
//!   the identity. A message whose two mapped points share an x-coordinate (probability below
//!   `2^-249`) has no proof; the native scheme refuses it too.
//! - **Signers.** Each signer slot's leaf `(pk, stake, T)` is under that root (so its `T` is the
//!   registered target; changing the stake or `T` changes the leaf). `pk`, `sigma`, `A`, `B` are
//!   on the curve (and not the identity: affine coordinates). The DLEQ relation with the
//!   in-circuit challenge is the native verification, so (see [`crate::signature`]) `sigma` is
//!   the unique `sk H` of the registered key: the lottery values are not grindable.
//! - **Indices.** Exactly `k` index slots with `j_0 < ... < j_{k-1} < m` (all range-checked to
//!   32 bits, `m` too, so the comparisons are exact integer ones): `k` distinct indices below `m`.
//! - **Selection.** Each index slot's tuple `(n_i, sigma, T_hi, T_lo)` is a row of the signer
//!   table ([`tms_gadgets::table`]: halo2's lookup argument, sound under the transcript's
//!   challenges; see below). Which bank rows are table rows is fixed by the verifying key (a
//!   fixed selector), exactly one per signer slot, and row `s` holds the constant `s` and copies
//!   of slot `s`'s `sigma` cells and canonical `T` limbs. So `n_i < S` and the index slot's
//!   `sigma` and `T` are both those of signer slot `n_i`: no mixing of one slot's `sigma` with
//!   another's `T`, no value of a padded or absent slot other than its copied key's. (The number
//!   is not needed for soundness, since the rest of the tuple already names a registered key's
//!   signature and target; it keeps the certificate's "index slot i is won by signer slot
//!   `n_i`" in the relation and costs one cell per slot.)
//! - **Lottery.** Each index slot's value `ev` wins against its signer's `T`. `T`'s 128-bit limbs are canonical (the integer is
//!   below r), so `T_int` is `T`'s integer. `ev`'s limbs are not checked canonical and need not
//!   be: they give an integer `X < 2^254` with `X = ev mod r`; `X < T_int < r` forces `X` to be
//!   `ev`'s canonical integer. A non-canonical decomposition (`ev + r`) only loses.
//!
//! # The lookup's soundness (why the prover cannot pick the challenge)
//! The lookup is the proof system's, not a check computed in the circuit: the prover commits to
//! every advice column (halo2-base's, the bank's: the table and the looked-up tuples included)
//! before the transcript (Blake2b or Keccak, Fiat-Shamir) yields `theta`, which compresses each
//! 6-element input and table expression `(flag, n, sigma.x, sigma.y, T_hi, T_lo)` to
//! `sum theta^i e_i`; then `beta`, `gamma` for the permuted-column argument over the compressed
//! values. A tuple outside the table compresses onto a given table row only at the at most 5
//! roots of a nonzero degree-5 polynomial in `theta`: over all `2^k x 2^k` pairs of rows
//! (`k <= 26`) the probability is below `5 2^52 / r < 2^-199` (Schwartz-Zippel), and the
//! permutation argument over the compressed values is halo2's (sound except with negligible
//! probability in the same way). The challenge depends on everything committed, so the prover
//! cannot adapt the tuples to it. The cost is `O(k + S)`: one bank row of five cells per index
//! slot and per signer slot (the former one-hot selection cost about `27 S` cells per index
//! slot).
//!
//! # Not constrained (and why that is fine)
//! - Signer slots need not be distinct or increasing, nor all used: the statement is about `k`
//!   distinct winning indices, each won by some registered key's unique signature (Mithril's
//!   rule). The prover pads unused signer slots with copies of a used one.
//! - The stake itself is not range-checked: it is only hashed into the leaf.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::ff::Field,
    utils::{biguint_to_fe, fe_to_biguint},
    AssignedValue, Context, QuantumCell,
    QuantumCell::{Constant, Existing},
};
use num_bigint::BigUint;
use tms_gadgets::{
    bank::CustomRegion,
    curve::dleq::DleqChip,
    curve::{AssignedPoint, GrumpkinAffine, GrumpkinChip, HashToCurveChip},
    field::{less_than, split, LO_BITS},
    hash::{HashInstructions, PoseidonGateChip},
    merkle::{AssignedMerklePath, MerkleChip},
    proving::cost::CellLedger,
    table::{TableChip, TABLE_COLUMNS},
    Fr,
};

use crate::{
    params::Tag,
    registration::RegistrationCommitment,
    witness::{MithrilWitness, PreparedSigner},
};

/// The in-circuit hash: Poseidon on the custom round gates, 183 cells per permutation (the
/// native one is [`tms_gadgets::hash::Poseidon`]; `PoseidonChip` on the generic gate gives the
/// same outputs at 2,214 cells). Swapping the chip is this line and [`hasher`].
pub type Hasher = PoseidonGateChip;

/// The in-circuit hash chip.
pub fn hasher(custom: &CustomRegion) -> Hasher {
    PoseidonGateChip::new(custom.clone())
}

/// One laid-out signer slot: what the index slots select from.
struct SignerCells {
    sigma: AssignedPoint,
    t_hi: AssignedValue<Fr>,
    t_lo: AssignedValue<Fr>,
}

/// The components [`synthesize_recorded`] charges cells to (the statistics' `components`; the
/// cells of none of them are under [`tms_gadgets::proving::cost::OTHER`]).
pub mod components {
    /// `m` (range checked), `phi` and the parameters digest.
    pub const PARAMETERS: &str = "parameters digest (Poseidon)";
    /// Each signer slot's key (on-curve), leaf and Merkle path to the shared root.
    pub const REGISTRATION_PATHS: &str = "registration Merkle paths (Poseidon)";
    /// Each signer slot's target split into canonical 128-bit limbs.
    pub const TARGETS: &str = "stake targets T (canonical limbs)";
    /// The registration digest and the signed message (Poseidon).
    pub const DIGESTS: &str = "registration and message digests (Poseidon)";
    /// `H = H_G(signed message)`: the SvdW maps and their sum.
    pub const HASH_TO_CURVE: &str = "hash to curve H (SvdW)";
    /// Each signer slot's `sigma`, `A`, `B` (on-curve) and DLEQ challenge.
    pub const DLEQ_CHALLENGES: &str = "signature points and DLEQ challenge (Poseidon)";
    /// Each signer slot's DLEQ ladders `s G = A + c pk`, `s H = B + c sigma`.
    pub const DLEQ_LADDERS: &str = "DLEQ ladders s*G, s*H";
    /// The signer table: one row per signer slot.
    pub const SIGNER_TABLE: &str = "signer table";
    /// The index slots' indices: 32-bit, strictly increasing, below `m`.
    pub const INDICES: &str = "unique indices (increasing, < m)";
    /// Each index slot's tuple looked up in the signer table.
    pub const SELECTION: &str = "signer selection (table lookup)";
    /// Each index slot's lottery value and its comparison with the target.
    pub const LOTTERY: &str = "lottery / eligibility (ev < T)";
}

/// Lays the circuit out for `witness`, charging the cells of each of the [`components`] to
/// `ledger`, and returns the public cells in instance order (the shape's
/// [`HybridScheme::synthesize_recorded`](tms_gadgets::proving::scheme::HybridScheme::synthesize_recorded):
/// every proof of this crate is of this layout; `synthesize` there lays it out without a ledger).
pub fn synthesize_recorded(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    custom: &CustomRegion,
    witness: &MithrilWitness,
    ledger: &mut CellLedger,
) -> Vec<AssignedValue<Fr>> {
    use components::*;
    let shape = witness.shape;
    let gate = range.gate();
    let ecc = GrumpkinChip::new(range);
    let hash = hasher(custom);
    let merkle = MerkleChip::new(hash.clone(), range);
    let dleq = DleqChip::new(range, custom.clone());
    let tag = |ctx: &mut Context<Fr>, t: Tag| ctx.load_constant(t.value());

    let commitment: &RegistrationCommitment = &witness.instance.commitment;
    let params = commitment.params;
    let message = ctx.load_witness(witness.instance.message);

    // Parameters: m is a witness bound by the digest; k and the depth are the shape's.
    let (m, params_digest) = ledger.charge(PARAMETERS, ctx, |ctx| {
        let m = ctx.load_witness(Fr::from(params.m()));
        range.range_check(ctx, m, 32);
        let phi_num = ctx.load_witness(Fr::from(params.phi_f().num()));
        let phi_den = ctx.load_witness(Fr::from(params.phi_f().den()));
        let params_tag = tag(ctx, Tag::Params);
        let k_const = ctx.load_constant(Fr::from(shape.index_slots as u64));
        let digest = hash.hash_leaf(ctx, &[params_tag, m, k_const, phi_num, phi_den]);
        (m, digest)
    });

    // Signer slots, membership: the registration digest needs the root their paths reach.
    let mut root: Option<AssignedValue<Fr>> = None;
    let members: Vec<Member> = witness
        .signers
        .iter()
        .map(|slot| {
            let (pk, target) = ledger.charge(REGISTRATION_PATHS, ctx, |ctx| {
                member(ctx, &ecc, &hash, &merkle, slot, &mut root)
            });
            let (t_hi, t_lo) = ledger.charge(TARGETS, ctx, |ctx| split(ctx, range, target, true));
            Member { pk, t_hi, t_lo }
        })
        .collect();
    let root = root.expect("at least one signer slot");

    let (digest, signed) = ledger.charge(DIGESTS, ctx, |ctx| {
        let total = ctx.load_witness(Fr::from(commitment.total_stake));
        let reg_tag = tag(ctx, Tag::Registration);
        let depth = ctx.load_constant(Fr::from(shape.depth as u64));
        let digest = hash.hash_leaf(ctx, &[reg_tag, root, total, depth, params_digest]);

        // H = H_G(signed message), the signed message bound to the registration.
        let message_tag = tag(ctx, Tag::Message);
        let signed = hash.hash_leaf(ctx, &[message_tag, digest, message]);
        (digest, signed)
    });
    let h = ledger.charge(HASH_TO_CURVE, ctx, |ctx| {
        let h2c_tag = tag(ctx, Tag::HashToCurve);
        HashToCurveChip::new(range, hash.clone()).hash_to_curve_with_witness(
            ctx,
            h2c_tag,
            signed,
            &witness.h2c,
        )
    });

    // Signer slots, unique signatures.
    let signers: Vec<SignerCells> = witness
        .signers
        .iter()
        .zip(&members)
        .map(|(slot, member)| {
            let (points, c) = ledger.charge(DLEQ_CHALLENGES, ctx, |ctx| {
                challenge(ctx, &ecc, &hash, &h, member, slot)
            });
            ledger.charge(DLEQ_LADDERS, ctx, |ctx| {
                let [sigma, a, b] = &points;
                dleq.verify(ctx, &member.pk, &h, sigma, a, b, c, &slot.signature.s)
            });
            SignerCells {
                sigma: points[0],
                t_hi: member.t_hi,
                t_lo: member.t_lo,
            }
        })
        .collect();

    // The table of signer slots: row s = (s, sigma_s, T_hi_s, T_lo_s), the number a constant,
    // the rest copies of the slot's cells.
    let table = TableChip::new(custom.clone());
    let rows: Vec<[QuantumCell<Fr>; TABLE_COLUMNS]> = signers
        .iter()
        .enumerate()
        .map(|(s, cells)| {
            [
                Constant(Fr::from(s as u64)),
                Existing(cells.sigma.x),
                Existing(cells.sigma.y),
                Existing(cells.t_hi),
                Existing(cells.t_lo),
            ]
        })
        .collect();
    ledger.charge(SIGNER_TABLE, ctx, |ctx| table.load_table(ctx, &rows));

    // Index slots.
    let lottery_tag = ledger.charge(LOTTERY, ctx, |ctx| tag(ctx, Tag::Lottery));
    let mut previous: Option<AssignedValue<Fr>> = None;
    for slot in &witness.indices {
        let j = ledger.charge(INDICES, ctx, |ctx| {
            let j = ctx.load_witness(slot.index);
            range.range_check(ctx, j, 32);
            if let Some(p) = previous {
                range.check_less_than(ctx, p, j, 32);
            }
            j
        });
        previous = Some(j);
        // The signer slot's number and values, one row of the table.
        let target = fe_to_biguint(&slot.target);
        let [_number, sx, sy, t_hi, t_lo] = ledger.charge(SELECTION, ctx, |ctx| {
            table.lookup(
                ctx,
                [
                    Fr::from(slot.signer as u64),
                    slot.sigma.x,
                    slot.sigma.y,
                    biguint_to_fe(&(&target >> LO_BITS)),
                    biguint_to_fe(&(&target % (BigUint::from(1u8) << LO_BITS))),
                ],
            )
        });
        ledger.charge(LOTTERY, ctx, |ctx| {
            let ev = hash.hash_leaf(ctx, &[lottery_tag, sx, sy, j]);
            let ev_limbs = split(ctx, range, ev, false);
            let wins = less_than(ctx, range, ev_limbs, (t_hi, t_lo));
            gate.assert_is_const(ctx, &wins, &Fr::ONE);
        });
    }
    let last = previous.expect("at least one index slot");
    ledger.charge(INDICES, ctx, |ctx| range.check_less_than(ctx, last, m, 32));

    vec![digest, message]
}

/// A signer slot's registered key and the canonical limbs of its target.
struct Member {
    pk: AssignedPoint,
    t_hi: AssignedValue<Fr>,
    t_lo: AssignedValue<Fr>,
}

/// The leaf `(pk, stake, T)` of a signer slot under the root shared by every slot; the key and
/// `T`.
fn member(
    ctx: &mut Context<Fr>,
    ecc: &GrumpkinChip,
    hash: &Hasher,
    merkle: &MerkleChip<Hasher>,
    slot: &PreparedSigner,
    root: &mut Option<AssignedValue<Fr>>,
) -> (AssignedPoint, AssignedValue<Fr>) {
    let pk = load(ctx, ecc, &slot.key);
    let stake = ctx.load_witness(Fr::from(slot.stake));
    let target = ctx.load_witness(slot.target);
    let leaf = hash.hash_leaf(ctx, &[pk.x, pk.y, stake, target]);
    let path = AssignedMerklePath::load(ctx, &slot.path);
    let computed = merkle.compute_root(ctx, leaf, &path);
    match root {
        Some(r) => ctx.constrain_equal(r, &computed),
        None => *root = Some(computed),
    }
    (pk, target)
}

fn load(ctx: &mut Context<Fr>, ecc: &GrumpkinChip, p: &GrumpkinAffine) -> AssignedPoint {
    ecc.load_point(ctx, *p)
        .expect("certificate points are validated before synthesis")
}

/// A signer slot's `sigma`, `A`, `B` (on the curve) and the DLEQ challenge for `member`'s key
/// and `h`.
fn challenge(
    ctx: &mut Context<Fr>,
    ecc: &GrumpkinChip,
    hash: &Hasher,
    h: &AssignedPoint,
    member: &Member,
    slot: &PreparedSigner,
) -> ([AssignedPoint; 3], AssignedValue<Fr>) {
    let pk = &member.pk;
    let sigma = load(ctx, ecc, &slot.signature.sigma);
    let a = load(ctx, ecc, &slot.signature.a);
    let b = load(ctx, ecc, &slot.signature.b);
    let challenge_tag = ctx.load_constant(Tag::Challenge.value());
    let c = hash.hash_leaf(
        ctx,
        &[
            challenge_tag,
            pk.x,
            pk.y,
            h.x,
            h.y,
            sigma.x,
            sigma.y,
            a.x,
            a.y,
            b.x,
            b.y,
        ],
    );
    ([sigma, a, b], c)
}
