//! Batch Schnorr verification (`tms_gadgets::signature::batch`): the circuit, its native twin and
//! per-signature verification agree on valid batches, on batches with one bad signature, and on
//! bad signatures in disabled slots; one-change negatives are rejected.

use halo2_base::{
    gates::RangeInstructions,
    halo2_proofs::halo2curves::{ff::Field, group::Curve},
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    curve::{
        fr_modulus,
        msm::{MsmPairChip, MsmTerm},
        offset_point, GrumpkinAffine, GrumpkinChip, GrumpkinScalar,
    },
    hash::{RescueGateChip, RescuePrime},
    signature::batch::{verify_native, zero_filler, BatchItem, NativeBatchItem, SchnorrBatchChip},
    signature::schnorr::{challenge, SigningKey, VerifyingKey},
    testing::{CircuitHarness, MockRun},
    Fr,
};

const K: u32 = 13;

struct Batch {
    items: Vec<NativeBatchItem>,
    message: Fr,
}

/// `n` slots signed on one message; slots in `disabled` do not count.
fn batch(n: usize, disabled: &[usize]) -> Batch {
    let mut rng = ChaCha8Rng::seed_from_u64(0xba7c);
    let message = Fr::random(&mut rng);
    let items = (0..n)
        .map(|i| {
            let sk = SigningKey::random(&mut rng);
            let pk = sk.verifying_key();
            let sig = sk.sign(&RescuePrime, message).unwrap();
            NativeBatchItem {
                pk: pk.0,
                r: sig.r,
                c: challenge(&RescuePrime, &sig.r, &pk, message).unwrap(),
                s: sig.s,
                enabled: !disabled.contains(&i),
            }
        })
        .collect();
    Batch { items, message }
}

impl Batch {
    /// Recomputes slot `i`'s challenge after a change to its `R` or key (or the message).
    fn rehash(&mut self, i: usize) {
        let it = &mut self.items[i];
        it.c = challenge(&RescuePrime, &it.r, &VerifyingKey(it.pk), self.message).unwrap();
    }

    fn per_signature_valid(&self) -> bool {
        self.items.iter().all(|it| {
            !it.enabled
                || (GrumpkinAffine::generator() * it.s).to_affine()
                    == (it.r + it.pk * tms_gadgets::signature::schnorr::base_to_scalar(it.c))
                        .to_affine()
        })
    }

    fn mock(&self) -> MockRun<()> {
        CircuitHarness::new(K).mock_custom(|ctx, range, region| {
            let ecc = GrumpkinChip::new(range);
            let items: Vec<BatchItem> = self
                .items
                .iter()
                .map(|it| BatchItem {
                    pk: ecc.load_point(ctx, it.pk).unwrap(),
                    r: ecc.load_point(ctx, it.r).unwrap(),
                    c: ctx.load_witness(it.c),
                    s: it.s,
                    enabled: ctx.load_witness(Fr::from(it.enabled as u64)),
                })
                .collect();
            let hasher = RescueGateChip::new(region.clone());
            SchnorrBatchChip::new(range, region.clone(), hasher).verify(ctx, &items);
            ((), vec![])
        })
    }

    /// The circuit, the native batch check and per-signature checks all give `expected`.
    fn assert_agree(&self, expected: bool) {
        assert_eq!(
            self.per_signature_valid(),
            expected,
            "per-signature verdict"
        );
        assert_eq!(
            verify_native(&RescuePrime, &self.items),
            expected,
            "native batch verdict"
        );
        let run = self.mock();
        if expected {
            run.assert_satisfied();
        } else {
            assert!(
                !run.rejections().is_empty(),
                "the circuit accepted a bad batch"
            );
        }
    }
}

#[test]
fn valid_batches_are_accepted() {
    batch(1, &[]).assert_agree(true);
    // Three 254-bit terms: the second chain pairs (-pk_1, e_1) with the zero filler.
    batch(2, &[]).assert_agree(true);
    batch(3, &[]).assert_agree(true);
    batch(4, &[1]).assert_agree(true);
}

#[test]
fn batches_with_disabled_slots_are_accepted() {
    // Every disabled slot's chain ends at the same 2^L O: the sum must still meet no equal x.
    batch(4, &[0, 1, 2, 3]).assert_agree(true);
    batch(5, &[1, 2, 3]).assert_agree(true);
}

#[test]
fn a_power_of_the_ladder_offset_in_a_disabled_slot_still_proves() {
    // A chain whose two scalars are zero (two disabled slots, or one and the zero filler) walks
    // the fixed accumulators 2^i O; the key [2^j] O, which anyone can compute, met row j - 1's
    // doubling at an equal x (no slope exists) and made every batch with it unprovable.
    let power = |j: u64| (offset_point() * GrumpkinScalar::from(2).pow_vartime([j])).to_affine();
    for (n, disabled, keys) in [
        // Terms G, -pk_0, -pk_1, -pk_2: slots 1 and 2 share the second chain.
        (3, vec![1, 2], vec![(1, power(1)), (2, power(254))]),
        // Terms G, -pk_0, -pk_1: slot 1 shares its chain with the filler.
        (2, vec![1], vec![(1, power(100))]),
    ] {
        let mut b = batch(n, &disabled);
        for (i, key) in keys {
            b.items[i].pk = key;
            b.rehash(i);
        }
        b.assert_agree(true);
    }
}

#[test]
fn a_bad_signature_in_a_disabled_slot_does_not_matter() {
    let mut b = batch(3, &[1]);
    b.items[1].s += GrumpkinScalar::ONE;
    b.assert_agree(true);
}

#[test]
fn tampered_s_is_rejected() {
    let mut b = batch(3, &[]);
    b.items[2].s += GrumpkinScalar::ONE;
    b.assert_agree(false);
    b.mock().assert_rejected_by_copy();
}

#[test]
fn tampered_r_is_rejected() {
    let mut b = batch(3, &[]);
    b.items[0].r = (b.items[0].r + GrumpkinAffine::generator()).to_affine();
    b.rehash(0);
    b.assert_agree(false);
}

#[test]
fn signature_under_another_key_is_rejected() {
    let mut b = batch(3, &[]);
    b.items[1].pk = b.items[2].pk;
    b.rehash(1);
    b.assert_agree(false);
}

#[test]
fn wrong_message_is_rejected() {
    let mut b = batch(2, &[]);
    b.message += Fr::ONE;
    b.rehash(0);
    b.rehash(1);
    b.assert_agree(false);
}

#[test]
fn enabling_a_bad_slot_is_rejected() {
    let mut b = batch(3, &[1]);
    b.items[1].s += GrumpkinScalar::ONE;
    b.items[1].enabled = true;
    b.assert_agree(false);
}

#[test]
fn two_errors_that_cancel_without_coefficients_are_rejected() {
    // s_0 + d and s_1 - d: the plain sum of the equations holds, the random combination does not.
    let mut b = batch(2, &[]);
    let d = GrumpkinScalar::from(12345);
    b.items[0].s += d;
    b.items[1].s -= d;
    b.assert_agree(false);
}

/// One 254-bit chain as the batch lays out its last one for an odd number of long terms:
/// `(G, S)`-like term `p` (its own bits) and the zero filler on `G`, whose bits are `filler_bits`
/// (most significant first); `old_layout` gives the filler one 254-bit limb instead.
fn filler_chain(filler_bits: &[bool], old_layout: bool) -> MockRun<()> {
    CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let g = ecc.load_constant(ctx, GrumpkinAffine::generator());
        let zero = ctx.load_zero();
        let s = ctx.load_witness(Fr::from(0xdead_beef));
        range.range_check(ctx, s, 88);
        let p = MsmTerm {
            point: g,
            limbs: vec![(zero, 78), (zero, 88), (s, 88)],
        };
        let q = if old_layout {
            MsmTerm {
                point: g,
                limbs: vec![(zero, 254)],
            }
        } else {
            zero_filler(g, zero, 254)
        };
        MsmPairChip::new(range, region.clone()).mul_add_pair_with_bits(
            ctx,
            &p,
            &q,
            &p.bits_msb_first(),
            filler_bits,
        );
        ((), vec![])
    })
}

/// The bits of r, most significant first, 254 of them (`2^253 < r < 2^254`).
fn bits_of_r() -> Vec<bool> {
    let r = fr_modulus();
    assert_eq!(r.bits(), 254);
    (0..254).rev().map(|i| r.bit(i)).collect()
}

#[test]
fn the_zero_filler_cannot_take_the_bits_of_r() {
    // r = 0 modulo r: as the bits of a single 254-bit limb holding 0, r passed the limb's one
    // checkpoint (the bits' recomposition, modulo r, equal to the limb) and the chain added
    // [r] G, not O, to the batch's sum. In 78/88/88 limbs the checkpoints see integers below
    // 2^253 < r, and the top limb's recomposition (the top 78 bits of r) is not 0.
    filler_chain(&[false; 254], false).assert_satisfied();
    filler_chain(&bits_of_r(), false).assert_rejected_by_copy();
}

#[test]
#[should_panic(expected = "every limb has at most 253 bits")]
fn a_254_bit_limb_is_refused_by_the_chain() {
    // The old filler: one 254-bit limb, which admits the bits of r. The chip refuses the layout.
    filler_chain(&bits_of_r(), true);
}
