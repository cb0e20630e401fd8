//! The circuit: one layout shared by MockProver, keygen and the prover.
//!
//! ```text
//! public:   [committee digest, m, t]
//! ivk:      on-curve, y < p -> words;  m: the public message field element
//! slot j:   e_j bit, e_j >= e_{j+1}; key_j on-curve, y < p -> words -> leaf_j (tree hash)
//!           index_j -> depth bits; e_{j+1} => index_j < index_{j+1}
//!           path segment below the cut -> top_j at position index_j >> cut
//! cut = depth:  e_j => top_j = root (root a witness bound by the committee digest)
//! cut < depth:  row (level cut) -> upper tree -> root; LogUp: sum e_j/(g - top_j - b pos_j)
//!               = sum m_i/(g - row_i - b i), (b, g) = Poseidon(root, tops, positions+flags, m)
//! digest:   Poseidon_leaf(root, ivk words, n) = public[0]   (n a constant of the shape)
//! count:    count = sum e_j; t < 2^b; n - t - count in [0, 2^b)
//! avk:      acc = ivk; acc = e_j ? acc - key_j (x-coordinates distinct) : acc
//! H(m):     Poseidon(tag, m, i) -> u_0, u_1 in Fq2 -> SvdW maps -> add -> cofactor cleared (bls_hash)
//! pairing:  sigma on-curve, in G2 (x0 ladder); f = final_exp(miller(avk, H(m)) * miller(-g1, sigma)); f = 1
//! ```

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::{
        bn256::{Fq, Fq12, G1Affine, G2Affine},
        ff::Field,
    },
    utils::ScalarField,
    AssignedValue, Context,
    QuantumCell::Constant,
};
use halo2_ecc::{
    bigint::ProperCrtUint,
    bn254::{pairing::PairingChip, Fp12Chip, Fp2Chip, FpChip},
    ecc::{EcPoint, EccChip},
    fields::{vector::FieldVector, FieldChip},
};
use tms_gadgets::{
    bank::CustomRegion,
    hash::{HashInstructions, PoseidonGateChip},
    merkle::MerkleChip,
    proving::cost::CellLedger,
    signature::bls_hash::{self, mul_by_x0, psi_in_circuit, psi_loaded},
    Fr,
};

use crate::{
    native::limb_shift,
    native::{NodeHash, LIMB_BITS, NUM_LIMBS},
    stock::StockPoseidonChip,
    witness::{AtmsWitness, MembershipValues},
};

type G1Point = EcPoint<Fr, ProperCrtUint<Fr>>;
type G2Point = EcPoint<Fr, FieldVector<ProperCrtUint<Fr>>>;

/// What [`synthesize_membership`] lays out and returns.
#[derive(Clone, Debug)]
pub struct MembershipOutput {
    /// The public cells in instance order.
    pub publics: Vec<AssignedValue<Fr>>,
    /// The value of `avk = ivk - sum(enabled slots' keys)` the circuit computed.
    pub avk: G1Affine,
}

struct Laid {
    publics: Vec<AssignedValue<Fr>>,
    avk: G1Point,
    message: AssignedValue<Fr>,
}

/// The components [`synthesize_recorded`] charges cells to (the statistics' `components`; the
/// cells of none of them are under [`tms_gadgets::proving::cost::OTHER`]).
pub mod components {
    /// `ivk` (on-curve, `y < p`, two words) and the committee digest `Poseidon_leaf(root, ivk,
    /// n)`.
    pub const COMMITTEE_DIGEST: &str = "committee digest (ivk, Poseidon)";
    /// The public message `m` loaded (one cell; [`crate::synthesize_membership`] lays out no more).
    pub const MESSAGE: &str = "message m (public)";
    /// `H(m)` computed from `m` ([`tms_gadgets::signature::bls_hash`]): Poseidon to two Fq2
    /// elements, two SvdW maps on non-native Fp2, their sum and the cofactor clearing (an x0
    /// ladder and psi maps).
    pub const MESSAGE_HASH: &str = "message hash H(m) to G2 (Poseidon, SvdW, cofactor)";
    /// Each non-signer slot's flag, index and key (on-curve, `y < p`, words), and the flags'
    /// order.
    pub const SLOTS: &str = "non-signer slots (keys on-curve, y < p)";
    /// The slots' leaves and Merkle paths or the recomputed tree, the increasing indices and the
    /// LogUp lookup of the cut level (the strategy's).
    pub const MEMBERSHIP: &str = "committee membership (Merkle, LogUp)";
    /// The count of non-signers and the threshold's range checks.
    pub const THRESHOLD: &str = "signer count and threshold";
    /// `avk = ivk - sum` of the enabled slots' keys (non-native G1).
    pub const AGGREGATE_KEY: &str = "aggregate key avk = ivk - sum";
    /// `sigma` loaded on the twist and checked in G2 (the x0 ladder on non-native Fp2).
    pub const SIGMA_IN_G2: &str = "sigma in G2 (subgroup check)";
    /// The multi-Miller loop of `e(avk, H(m)) e(-g1, sigma)`, the final exponentiation and the
    /// comparison with one.
    pub const PAIRING: &str = "pairing check (Miller loop, final exp)";
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
    let fp = FpChip::<Fr>::new(range, LIMB_BITS, NUM_LIMBS);
    let laid = lay_out(
        ctx,
        range,
        custom,
        &fp,
        witness,
        &witness.membership_values(),
        ledger,
    );
    let hm = ledger.charge(components::MESSAGE_HASH, ctx, |ctx| {
        let fp2 = Fp2Chip::<Fr>::new(&fp);
        let g2 = EccChip::new(&fp2);
        let poseidon = PoseidonGateChip::new(custom.clone());
        bls_hash::hash_to_g2_in_circuit(ctx, &g2, &poseidon, laid.message)
    });
    pairing_check(ctx, &fp, &laid.avk, &hm, &witness.signature, ledger);
    laid.publics
}

/// Lays out everything but the signature: the committee digest, the message cell (not its hash
/// to G2), membership, the count and the key aggregation. **Not a sound ATMS circuit on its
/// own** (nothing checks a signature): it exists
/// so that tests can run MockProver on the membership part at small k. [`crate::keygen`] and
/// [`crate::prove`] always lay out the whole circuit, [`synthesize_recorded`].
pub fn synthesize_membership(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    custom: &CustomRegion,
    witness: &AtmsWitness,
) -> MembershipOutput {
    synthesize_membership_with(ctx, range, custom, witness, &witness.membership_values())
}

/// [`synthesize_membership`] with the membership cells' values given by the caller instead of
/// [`AtmsWitness::membership_values`]: negative tests change one of them to play a cheating
/// prover. The layout is the same for any values.
pub fn synthesize_membership_with(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    custom: &CustomRegion,
    witness: &AtmsWitness,
    values: &MembershipValues,
) -> MembershipOutput {
    let fp = FpChip::<Fr>::new(range, LIMB_BITS, NUM_LIMBS);
    let mut ledger = CellLedger::new(range, custom);
    let laid = lay_out(ctx, range, custom, &fp, witness, values, &mut ledger);
    let coord = |p: &ProperCrtUint<Fr>| {
        let mut bytes = p.value().to_bytes_le();
        bytes.resize(32, 0);
        let mut repr = [0u8; 32];
        repr.copy_from_slice(&bytes[..32]);
        Fq::from_bytes(&repr).unwrap_or(Fq::zero())
    };
    MembershipOutput {
        publics: laid.publics,
        avk: G1Affine {
            x: coord(laid.avk.x()),
            y: coord(laid.avk.y()),
        },
    }
}

/// `[x_0 + 2^88 x_1, x_2 + 2^88 s]` for a loaded G1 point, with `y < p` and `s` its parity.
fn point_words(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    fp: &FpChip<Fr>,
    p: &G1Point,
) -> [AssignedValue<Fr>; 2] {
    let gate = range.gate();
    fp.enforce_less_than(ctx, p.y().clone());
    let y0 = p.y().limbs()[0];
    let parity = y0.value().get_lower_32() & 1;
    let s = ctx.load_witness(Fr::from(parity as u64));
    gate.assert_bit(ctx, s);
    let half =
        ctx.load_witness((*y0.value() - Fr::from(parity as u64)) * Fr::from(2).invert().unwrap());
    range.range_check(ctx, half, LIMB_BITS - 1);
    let recomposed = gate.mul_add(ctx, half, Constant(Fr::from(2)), s);
    ctx.constrain_equal(&recomposed, &y0);
    let x = p.x().limbs();
    let shift = Constant(limb_shift());
    [
        gate.mul_add(ctx, x[1], shift, x[0]),
        gate.mul_add(ctx, s, shift, x[2]),
    ]
}

/// A slot's cells before membership.
struct SlotCells {
    enabled: AssignedValue<Fr>,
    index: AssignedValue<Fr>,
    words: [AssignedValue<Fr>; 2],
}

fn lay_out(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    custom: &CustomRegion,
    fp: &FpChip<Fr>,
    w: &AtmsWitness,
    values: &MembershipValues,
    ledger: &mut CellLedger,
) -> Laid {
    use components::*;
    let gate = range.gate();
    let g1 = EccChip::new(fp);
    let poseidon = PoseidonGateChip::new(custom.clone());

    let (ivk, ivk_words) = ledger.charge(COMMITTEE_DIGEST, ctx, |ctx| {
        let ivk = g1.load_private::<G1Affine>(ctx, (w.ivk.x, w.ivk.y));
        let ivk_words = point_words(ctx, range, fp, &ivk);
        (ivk, ivk_words)
    });
    let message = ledger.charge(MESSAGE, ctx, |ctx| ctx.load_witness(w.instance.message));

    let (keys, slots) = ledger.charge(SLOTS, ctx, |ctx| {
        let mut keys = Vec::with_capacity(w.slots.len());
        let mut slots = Vec::with_capacity(w.slots.len());
        for (j, slot) in w.slots.iter().enumerate() {
            let enabled = ctx.load_witness(values.flags[j]);
            gate.assert_bit(ctx, enabled);
            let index = ctx.load_witness(values.indices[j]);
            let key = g1.load_private::<G1Affine>(ctx, (slot.key.x, slot.key.y));
            let words = point_words(ctx, range, fp, &key);
            keys.push(key);
            slots.push(SlotCells {
                enabled,
                index,
                words,
            });
        }
        // Enabled slots first.
        for pair in slots.windows(2) {
            let bad = gate.mul_not(ctx, pair[0].enabled, pair[1].enabled);
            gate.assert_is_const(ctx, &bad, &Fr::zero());
        }
        (keys, slots)
    });

    let root = ledger.charge(MEMBERSHIP, ctx, |ctx| match w.shape.hash {
        NodeHash::Poseidon => {
            membership(ctx, range, &poseidon, poseidon.clone(), w, values, &slots)
        }
        NodeHash::StockPoseidon => {
            let chip = StockPoseidonChip::new(ctx);
            membership(ctx, range, &poseidon, chip, w, values, &slots)
        }
    });
    let committee = ledger.charge(COMMITTEE_DIGEST, ctx, |ctx| {
        // n is a constant of the circuit: a digest made for a committee of another size fails.
        let n = ctx.load_constant(Fr::from(w.shape.n as u64));
        poseidon.hash_leaf(ctx, &[root, ivk_words[0], ivk_words[1], n])
    });

    // count <= n - t, with t and n - t - count range checked.
    let threshold = ledger.charge(THRESHOLD, ctx, |ctx| {
        let bits = (usize::BITS - w.shape.n.leading_zeros()) as usize + 1;
        let threshold = ctx.load_witness(Fr::from(w.instance.threshold));
        range.range_check(ctx, threshold, bits);
        let count = gate.sum(ctx, slots.iter().map(|s| s.enabled));
        let room = gate.sub(ctx, Constant(Fr::from(w.shape.n as u64)), threshold);
        let room = gate.sub(ctx, room, count);
        range.range_check(ctx, room, bits);
        threshold
    });

    // avk = ivk - sum of the enabled slots' keys.
    let avk = ledger.charge(AGGREGATE_KEY, ctx, |ctx| {
        let mut avk = ivk;
        for (key, slot) in keys.into_iter().zip(&slots) {
            let diff = g1.sub_unequal(ctx, avk.clone(), key, true);
            avk = g1.select(ctx, diff, avk, slot.enabled);
        }
        avk
    });

    Laid {
        publics: vec![committee, message, threshold],
        avk,
        message,
    }
}

/// Constrains the slots' membership and returns the committee root: the tree hashed with
/// `hasher`, the LogUp challenges squeezed with `poseidon`.
fn membership<H: HashInstructions>(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    poseidon: &PoseidonGateChip,
    hasher: H,
    w: &AtmsWitness,
    values: &MembershipValues,
    slots: &[SlotCells],
) -> AssignedValue<Fr> {
    let gate = range.gate();
    let depth = w.shape.depth();
    let cut = w.shape.cut();

    let mut tops = Vec::with_capacity(slots.len());
    let mut positions = Vec::with_capacity(slots.len());
    for (slot, siblings) in slots.iter().zip(&values.siblings) {
        let bits = gate.num_to_bits(ctx, slot.index, depth);
        let mut node = hasher.hash_leaf(ctx, &slot.words);
        for (level, bit) in bits.iter().enumerate().take(cut) {
            let sibling = ctx.load_witness(siblings[level]);
            let left = gate.select(ctx, sibling, node, *bit);
            let right = gate.select(ctx, node, sibling, *bit);
            node = hasher.hash_node(ctx, left, right);
        }
        tops.push(node);
        if cut < depth {
            let weights = (0..depth - cut).map(|i| Constant(Fr::from(1u64 << i)));
            positions.push(gate.inner_product(ctx, bits[cut..].iter().copied(), weights));
        }
    }
    // Strictly increasing indices among enabled slots.
    for pair in slots.windows(2) {
        let lt = range.is_less_than(ctx, pair[0].index, pair[1].index, depth + 1);
        let bad = gate.mul_not(ctx, lt, pair[1].enabled);
        gate.assert_is_const(ctx, &bad, &Fr::zero());
    }

    if cut == depth {
        let root = ctx.load_witness(values.row[0]);
        for (top, slot) in tops.iter().zip(slots) {
            let checked = gate.select(ctx, *top, root, slot.enabled);
            ctx.constrain_equal(&checked, &root);
        }
        return root;
    }

    let row = ctx.assign_witnesses(values.row.iter().copied());
    let root = MerkleChip::new(hasher, range).compute_root_of_all(ctx, &row);

    // Multiplicities: how many enabled slots sit under each row entry.
    let mult = ctx.assign_witnesses(values.multiplicities.iter().copied());
    let mult_bits = (usize::BITS - slots.len().leading_zeros()) as usize;
    for m in &mult {
        range.range_check(ctx, *m, mult_bits);
    }

    // Transcript: root (binds the row), tops, positions with flags, multiplicities.
    let mut transcript = vec![root];
    transcript.extend_from_slice(&tops);
    let flagged: Vec<AssignedValue<Fr>> = positions
        .iter()
        .zip(slots)
        .map(|(p, s)| gate.mul_add(ctx, *p, Constant(Fr::from(2)), s.enabled))
        .collect();
    transcript.extend(pack(ctx, range, &flagged, depth - cut + 1));
    transcript.extend(pack(ctx, range, &mult, mult_bits));
    let beta = poseidon.hash_leaf(ctx, &transcript);
    let one = ctx.load_constant(Fr::one());
    let gamma = poseidon.hash_node(ctx, beta, one);

    let mut lhs = Vec::with_capacity(slots.len());
    for ((top, pos), slot) in tops.iter().zip(&positions).zip(slots) {
        let u = gate.mul_add(ctx, beta, *pos, *top);
        let d = gate.sub(ctx, gamma, u);
        lhs.push(gate.div_unsafe(ctx, slot.enabled, d));
    }
    let mut rhs = Vec::with_capacity(row.len());
    for (i, (r, m)) in row.iter().zip(&mult).enumerate() {
        let u = gate.mul_add(ctx, beta, Constant(Fr::from(i as u64)), *r);
        let d = gate.sub(ctx, gamma, u);
        rhs.push(gate.div_unsafe(ctx, *m, d));
    }
    let lhs = gate.sum(ctx, lhs);
    let rhs = gate.sum(ctx, rhs);
    ctx.constrain_equal(&lhs, &rhs);
    root
}

/// Packs values known to be below `2^bits` into as few words as fit injectively.
fn pack(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    values: &[AssignedValue<Fr>],
    bits: usize,
) -> Vec<AssignedValue<Fr>> {
    let per_word = (250 / bits.max(1)).max(1);
    values
        .chunks(per_word)
        .map(|chunk| {
            let weights =
                (0..chunk.len()).map(|i| Constant(Fr::from(2u64).pow_vartime([(i * bits) as u64])));
            range
                .gate()
                .inner_product(ctx, chunk.iter().copied(), weights)
        })
        .collect()
}

/// Constrains `q` to lie in G2: `[x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) == psi^3([2 x0]Q)`
/// (El Housni, Guillevic, Piellard 2022, for BN curves). Every addition is strict (distinct
/// x-coordinates constrained), so no step can hide a degenerate case. The x0 ladder and psi are
/// those of the in-circuit hash to G2 ([`tms_gadgets::signature::bls_hash`]).
fn assert_in_g2(ctx: &mut Context<Fr>, g2: &EccChip<Fr, Fp2Chip<Fr>>, q: &G2Point) {
    let constants = psi_loaded(ctx, g2);
    let psi = |ctx: &mut Context<Fr>, p: G2Point| psi_in_circuit(ctx, g2, p, &constants);
    let a = mul_by_x0(ctx, g2, q);
    let psi_a = psi(ctx, a.clone());
    let psi2_a = psi(ctx, psi_a.clone());
    let mut lhs = g2.add_unequal(ctx, a.clone(), q.clone(), true);
    lhs = g2.add_unequal(ctx, lhs, psi_a, true);
    lhs = g2.add_unequal(ctx, lhs, psi2_a, true);
    let mut rhs = g2.double(ctx, a);
    for _ in 0..3 {
        rhs = psi(ctx, rhs);
    }
    g2.assert_equal(ctx, lhs, rhs);
}

/// `sigma` in G2 and `e(avk, H(m)) * e(-g1, sigma) == 1`, the Fp12 result constrained to one.
fn pairing_check(
    ctx: &mut Context<Fr>,
    fp: &FpChip<Fr>,
    avk: &G1Point,
    hm: &G2Point,
    signature: &G2Affine,
    ledger: &mut CellLedger,
) {
    let fp2 = Fp2Chip::<Fr>::new(fp);
    let g2 = EccChip::new(&fp2);
    let sigma = ledger.charge(components::SIGMA_IN_G2, ctx, |ctx| {
        let sigma = g2.load_private::<G2Affine>(ctx, (signature.x, signature.y));
        assert_in_g2(ctx, &g2, &sigma);
        sigma
    });
    ledger.charge(components::PAIRING, ctx, |ctx| {
        let g1 = EccChip::new(fp);
        let neg_g1 = g1.assign_constant_point(ctx, -G1Affine::generator());
        let pairing = PairingChip::new(fp);
        let f = pairing.multi_miller_loop(ctx, vec![(avk, hm), (&neg_g1, &sigma)]);
        let f = pairing.final_exp(ctx, f);
        let fp12 = Fp12Chip::<Fr>::new(fp);
        let one = fp12.load_constant(ctx, Fq12::one());
        fp12.assert_equal(ctx, f, one);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2_base::halo2_proofs::halo2curves::{
        bn256::{Fq2, G2},
        group::{Curve, Group},
        CurveAffine,
    };
    use rand::SeedableRng;
    use tms_gadgets::{
        signature::bls::{is_in_g2, map_to_curve_svdw, SecretKey},
        testing::{CircuitHarness, MockRun, Rejection},
    };

    /// k of the subgroup-check runs (the x0 ladder on non-native Fp2: about 0.4 M cells).
    const K: u32 = 17;

    /// MockProver on sigma's load (on-curve check) and [`assert_in_g2`], as [`pairing_check`]
    /// lays them out.
    fn mock_in_g2(sigma: &G2Affine) -> MockRun<()> {
        CircuitHarness::new(K).mock(|ctx, range| {
            let fp = FpChip::<Fr>::new(range, LIMB_BITS, NUM_LIMBS);
            let fp2 = Fp2Chip::<Fr>::new(&fp);
            let g2 = EccChip::new(&fp2);
            let q = g2.load_private::<G2Affine>(ctx, (sigma.x, sigma.y));
            assert_in_g2(ctx, &g2, &q);
            ((), vec![])
        })
    }

    #[test]
    fn sigma_on_the_twist_outside_g2_is_rejected_by_the_subgroup_check() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let sigma = SecretKey::random(&mut rng).sign(Fr::from(5)).0;
        let run = mock_in_g2(&sigma);
        run.assert_satisfied();
        println!("record: sigma subgroup check: {}", run.stats);
        // The one change: sigma + T with T = [r]P for a twist point P outside G2, so T is a
        // point of the cofactor part (order dividing 2p - r), not O.
        let p = map_to_curve_svdw(Fq2::random(&mut rng));
        let t = p * -Fr::one() + p;
        assert!(!bool::from(t.is_identity()), "P outside G2");
        let forged = (G2::from(sigma) + t).to_affine();
        assert!(bool::from(forged.is_on_curve()) && !is_in_g2(&forged));
        // Only the ladder's last step fails: lhs == rhs, limb by limb (advice copies; every
        // strict addition on the way had distinct x).
        let run = mock_in_g2(&forged);
        run.assert_rejected_by(Rejection::AdviceCopy);
        assert!(
            run.rejections().iter().all(|r| *r == Rejection::AdviceCopy),
            "{:?}",
            run.rejections()
        );
    }
}
