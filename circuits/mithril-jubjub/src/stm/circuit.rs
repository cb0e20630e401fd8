//! The mithril-stm mode of the circuit: mithril-stm 0.13.0's relation (its
//! `CertificateCircuit`) on this crate's layout (one signer slot per signer, index slots looking
//! their signer up in the signer table, the DLEQ ladder), with the same chips and configuration
//! as [`crate::MithrilCircuit`].
//!
//! ```text
//! public:  [root, low, high]                (mithril-stm's (merkle_tree_commitment, message),
//!                                            the message's 32 bytes as little-endian halves)
//! message = Poseidon(SMSG_DST, low, high)   (mithril-stm's message element)
//! H      = H_J(root, message)               (midnight's hash to Jubjub, as mithril-stm's)
//! prefix = Poseidon(LOTT_DST, root, message)
//! signer slot s:
//!          vk on-curve, T; leaf = Poseidon(SMLF_DST, vk.x, vk.y, T)
//!          13 levels: node' = Poseidon(l, r) by the position's bit; node = sibling == 0 ? node : node'
//!          node == root
//!          T's limbs (T_hi, T_lo) below q's (the same borrow comparison)
//!          sigma = 8 sigma' (sigma' on-curve: three doublings)
//!          c a witness, its 255 canonical bits; s's bits the ladder's
//!          the ladder: R2 = s G + c vk, R1 = s H + c sigma (tables [O, G, vk, G + vk],
//!          [O, H, sigma, H + sigma], tag = 2 + s)
//!          c == Poseidon(SIGN_DST, H, vk, sigma, R1, R2)
//! index slot i (k of them):
//!          j_i < 2^16; j_0 < .. < j_{k-1} < m (m a constant of the shape): each gap
//!          j_i - j_{i-1} - 1 and m - 1 - j_{k-1} below 2^16
//!          (n_i, sigma.x, sigma.y, T_hi, T_lo) looked up in the signer table
//!          ev = Poseidon(prefix, sigma.x, sigma.y, j_i), limbs (hi, lo) of an X = ev mod q
//!          X <= T: a borrow c, T_lo - lo + c 2^128 and T_hi - hi - c below 2^128
//!                                            (then X <= T < q is ev's integer)
//! ```
//!
//! # Against mithril-stm's circuit
//! The statement is the same; the public inputs carry the message's two halves where mithril-stm's
//! carry their hash, computed here in the circuit (a Plutus script has no Poseidon builtin, and
//! reads the halves from the bytes). The halves are the verifier's, so each is below 2^128 and the
//! pair is the 32 bytes. The rest is mithril-stm's: its hash to curve, its leaf, its padded path (a
//! zero sibling skips the level, as there), its signature equation and challenge, its lottery value
//! and `ev <= T`, `k` strictly increasing indices below `m` (`m < 2^16`, its bound). The
//! differences are in the layout only: a signer's path and signature are checked once, in its
//! signer slot, and an index slot reads `sigma` and `T` from the signer table (mithril-stm repeats
//! them per index); the comparisons are differences range-checked with a borrow (two 128-bit checks
//! for `ev <= T`, one 16-bit check per gap between indices; the argument is on
//! `Chips::assert_limbs_order`): 109 rows per index slot at k = 13, where the
//! lexicographic comparison of this crate's own mode took 171. Soundness of
//! the shared parts (the table, the ladder, `sigma = 8 sigma'`) is argued in
//! [`crate::circuit`]'s module docs.

use ff::{Field, PrimeField};
use group::Group;
use midnight_circuits::{
    instructions::{
        hash::HashInstructions, ArithInstructions, AssertionInstructions, AssignmentInstructions,
        ControlFlowInstructions, ConversionInstructions, DecompositionInstructions,
        EccInstructions, HashToCurveInstructions, PublicInputInstructions, RangeCheckInstructions,
        ZeroInstructions,
    },
    types::AssignedNative,
};
use midnight_curves::JubjubSubgroup;
use midnight_proofs::{
    circuit::{Layouter, SimpleFloorPlanner, Value},
    plonk::{Circuit, ConstraintSystem, Error},
};
use num_bigint::BigUint;

#[cfg(any(test, feature = "test-utils"))]
use crate::ladder::{LadderForgery, Xy};
use crate::{
    circuit::{
        limbs, synthesize_with, Chips, Forgeries, H2c, MithrilConfig, Point, SignerCells,
        TABLE_COLUMNS,
    },
    ladder,
    ladder::LadderReach,
    native::{to_biguint, Base, JubjubScalar},
    stm::{
        native::{
            dst, xy, DST_LOTTERY, DST_MERKLE_LEAF, DST_MESSAGE, DST_UNIQUE_SIGNATURE, TREE_DEPTH,
        },
        witness::{StmShape, StmWitness},
    },
};

/// The bits of an index: mithril-stm's bound (`m < 2^16`).
const INDEX_BITS: usize = 16;

/// `x`'s integer if it is below `2^16`.
fn fits_index(x: &Base) -> Option<u64> {
    u16::try_from(to_biguint(x)).ok().map(u64::from)
}

/// The mithril-stm-mode circuit of one shape; without a witness it lays out the same cells with
/// unknown values (keygen).
#[derive(Clone, Debug)]
pub struct StmCircuit {
    shape: StmShape,
    witness: Option<StmWitness>,
    forgeries: Forgeries,
}

impl StmCircuit {
    /// The circuit proving `witness`.
    pub fn new(witness: StmWitness) -> Self {
        Self {
            shape: witness.shape,
            witness: Some(witness),
            forgeries: Forgeries::default(),
        }
    }

    /// The circuit of `shape` without values, for keygen.
    pub fn for_keygen(shape: StmShape) -> Self {
        Self {
            shape,
            witness: None,
            forgeries: Forgeries::default(),
        }
    }

    /// This circuit with signer slot `slot`'s table row holding `values` instead of copies of the
    /// slot's cells (the copy constraints stay): a cheating prover, for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_forged_table_row(mut self, slot: usize, values: [Base; TABLE_COLUMNS]) -> Self {
        self.forgeries.row = Some((slot, values));
        self
    }

    /// This circuit with signer slot `slot`'s ladder changed by `forgery` at `step`: a cheating
    /// prover, for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_ladder_forgery(mut self, slot: usize, step: usize, forgery: LadderForgery) -> Self {
        self.forgeries.ladder.push((slot, step, forgery));
        self
    }

    /// This circuit with entry `w` of signer slot `slot`'s DLEQ table `table` (0: `[O, G, vk,
    /// G + vk]`, 1: `[O, H, sigma, H + sigma]`) holding `point`: a cheating prover, for the
    /// negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_forged_dleq_entry(
        mut self,
        slot: usize,
        table: usize,
        w: usize,
        point: Xy,
    ) -> Self {
        self.forgeries.dleq.push((slot, table, w, point));
        self
    }

    /// This circuit with index slot `slot`'s borrow in `ev <= T` set to `borrow` instead of the
    /// honest one: a cheating prover, for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_forged_borrow(mut self, slot: usize, borrow: bool) -> Self {
        self.forgeries.borrows.push((slot, borrow));
        self
    }

    /// A value from the witness, unknown at keygen.
    fn value<T>(&self, f: impl FnOnce(&StmWitness) -> T) -> Value<T> {
        match &self.witness {
            Some(w) => Value::known(f(w)),
            None => Value::unknown(),
        }
    }
}

/// The signer-table tuple `(n, sigma.x, sigma.y, T_hi, T_lo)` index slot `i` claims.
pub fn stm_table_tuple(witness: &StmWitness, i: usize) -> [Base; TABLE_COLUMNS] {
    let (_, signer) = witness.indices[i];
    let slot = &witness.signers[signer];
    let [x, y] = xy(&slot.signature.sigma);
    let (t_hi, t_lo) = limbs(slot.leaf.target);
    [Base::from(signer as u64), x, y, t_hi, t_lo]
}

impl Circuit<Base> for StmCircuit {
    type Config = MithrilConfig;
    type FloorPlanner = SimpleFloorPlanner;
    /// The ladder's layout: the shape's ([`StmShape::ladder`]).
    type Params = LadderReach;

    fn without_witnesses(&self) -> Self {
        Self::for_keygen(self.shape)
    }

    fn params(&self) -> LadderReach {
        self.shape.ladder
    }

    fn configure_with_params(
        meta: &mut ConstraintSystem<Base>,
        reach: LadderReach,
    ) -> MithrilConfig {
        MithrilConfig::configure(meta, reach)
    }

    fn configure(meta: &mut ConstraintSystem<Base>) -> MithrilConfig {
        MithrilConfig::configure(meta, LadderReach::default())
    }

    fn synthesize(
        &self,
        config: MithrilConfig,
        layouter: impl Layouter<Base>,
    ) -> Result<(), Error> {
        synthesize_with(&config, self.shape.k, layouter, |chips, layouter| {
            self.layout(chips, layouter)
        })
    }
}

impl StmCircuit {
    /// Lays out the relation (the module docs' drawing, clause by clause).
    fn layout(&self, chips: &Chips, layouter: &mut impl Layouter<Base>) -> Result<(), Error> {
        let Chips {
            native,
            jubjub,
            poseidon,
            ..
        } = chips;
        let shape = self.shape;
        let root: AssignedNative<Base> =
            native.assign(layouter, self.value(|w| w.instance.root))?;
        let [low, high] = [0, 1].map(|i| self.value(|w| w.instance.message_halves[i]));
        let low: AssignedNative<Base> = native.assign(layouter, low)?;
        let high: AssignedNative<Base> = native.assign(layouter, high)?;
        let message_tag = native.assign_fixed(layouter, dst(DST_MESSAGE))?;
        let message = poseidon.hash(layouter, &[message_tag, low.clone(), high.clone()])?;
        let h =
            H2c::new(poseidon, jubjub).hash_to_curve(layouter, &[root.clone(), message.clone()])?;
        let lottery_tag = native.assign_fixed(layouter, dst(DST_LOTTERY))?;
        let prefix = poseidon.hash(layouter, &[lottery_tag, root.clone(), message.clone()])?;

        let g: Point = jubjub.assign_fixed(layouter, JubjubSubgroup::generator())?;
        let identity = [
            native.assign_fixed(layouter, ladder::IDENTITY.0)?,
            native.assign_fixed(layouter, ladder::IDENTITY.1)?,
        ];
        let cofactor_inverse = JubjubScalar::from(8u64).invert().expect("8 is invertible");
        let mut signers = Vec::with_capacity(shape.signer_slots);
        for s in 0..shape.signer_slots {
            let (vk, t_hi, t_lo) = self.member(chips, layouter, s, &root)?;
            let sig = self.value(|w| w.signers[s].signature);
            // sigma = 8 sigma' for a curve point sigma': in the prime-order subgroup.
            // (sigma' is any curve point: the chip's type says subgroup, the constraint is the
            // curve equation; a prover's sigma outside the subgroup has no such sigma'.)
            let sigma_root = sig.map(|x| {
                let [u, v] = xy(&(x.sigma * cofactor_inverse));
                JubjubSubgroup::from_raw_unchecked(u, v)
            });
            let mut sigma = jubjub.assign_without_subgroup_check(layouter, sigma_root)?;
            for _ in 0..3 {
                sigma = jubjub.double(layouter, &sigma)?;
            }
            let c: AssignedNative<Base> = native.assign(layouter, sig.map(|x| x.c))?;
            // c's canonical bits (its integer; the ladder's multiple of a prime-order point is
            // c mod r_J's, as mithril-stm's scalar conversion).
            let c_bits = native.assigned_to_le_bits(layouter, &c, None, true)?;
            let c_bits = c_bits
                .iter()
                .map(|b| native.convert(layouter, b))
                .collect::<Result<Vec<AssignedNative<Base>>, Error>>()?;
            let s_bits = sig.map(|x| ladder::ladder_bits(x.s.to_repr().as_ref()));
            let [r2, r1] = self.forgeries.dleq_ladder(
                chips,
                layouter,
                s,
                (&g, &vk, &h, &sigma),
                (s_bits, &c_bits),
                (&identity, false),
            )?;
            let signature_tag = native.assign_fixed(layouter, dst(DST_UNIQUE_SIGNATURE))?;
            let mut input = vec![signature_tag];
            for p in [&h, &vk, &sigma] {
                input.push(jubjub.x_coordinate(p));
                input.push(jubjub.y_coordinate(p));
            }
            input.extend(r1);
            input.extend(r2);
            let recomputed = poseidon.hash(layouter, &input)?;
            native.assert_equal(layouter, &c, &recomputed)?;
            signers.push(SignerCells { sigma, t_hi, t_lo });
        }
        self.forgeries.load_table(chips, layouter, &signers)?;

        let index_bound = BigUint::from(1u8) << INDEX_BITS;
        let mut previous: Option<AssignedNative<Base>> = None;
        for i in 0..shape.index_slots {
            let j: AssignedNative<Base> =
                native.assign(layouter, self.value(|w| w.indices[i].0))?;
            // j < 2^16, mithril-stm's bound (a prover's out-of-range j fails the equality).
            let j_low = native.assign_lower_than_fixed(
                layouter,
                self.value(|w| Base::from(fits_index(&w.indices[i].0).unwrap_or(i as u64))),
                &index_bound,
            )?;
            native.assert_equal(layouter, &j_low, &j)?;
            if let Some(p) = &previous {
                chips.assert_increasing(layouter, p, &j, INDEX_BITS)?;
            }
            previous = Some(j.clone());
            let tuple = self.value(|w| stm_table_tuple(w, i));
            let [_number, sx, sy, t_hi, t_lo] = chips.lookup(layouter, tuple)?;
            let ev = poseidon.hash(layouter, &[prefix.clone(), sx, sy, j])?;
            let (ev_hi, ev_lo) = chips.limbs(layouter, &ev)?;
            // ev <= T: the looked-up limbs are copies of a signer slot's (below 2^128).
            chips.assert_limbs_order(
                layouter,
                (&ev_hi, &ev_lo),
                (&t_hi, &t_lo),
                false,
                self.forgeries.borrow(i),
            )?;
        }
        // The last index below m: m - 1 - j_last in [0, 2^16).
        let last = previous.expect("at least one index slot");
        let gap =
            native.linear_combination(layouter, &[(-Base::ONE, last)], Base::from(shape.m - 1))?;
        chips.assert_below_pow2(layouter, &gap, INDEX_BITS)?;

        native.constrain_as_public_input(layouter, &root)?;
        native.constrain_as_public_input(layouter, &low)?;
        native.constrain_as_public_input(layouter, &high)
    }

    /// Signer slot `s`'s key and leaf under `root` (mithril-stm's padded path), and its target's
    /// canonical limbs `(T_hi, T_lo)`.
    fn member(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        s: usize,
        root: &AssignedNative<Base>,
    ) -> Result<(Point, AssignedNative<Base>, AssignedNative<Base>), Error> {
        let Chips {
            native,
            jubjub,
            poseidon,
            ..
        } = chips;
        let slot = self.value(|w| w.signers[s].clone());
        // The leaf binds vk to a registered (prime-order) key: the curve equation suffices.
        let vk =
            jubjub.assign_without_subgroup_check(layouter, slot.clone().map(|x| x.leaf.key.0))?;
        let target: AssignedNative<Base> =
            native.assign(layouter, slot.clone().map(|x| x.leaf.target))?;
        let leaf_tag = native.assign_fixed(layouter, dst(DST_MERKLE_LEAF))?;
        let mut node = poseidon.hash(
            layouter,
            &[
                leaf_tag,
                jubjub.x_coordinate(&vk),
                jubjub.y_coordinate(&vk),
                target.clone(),
            ],
        )?;
        let position: AssignedNative<Base> = native.assign(
            layouter,
            slot.clone().map(|x| Base::from(x.path.position as u64)),
        )?;
        let directions = native.assigned_to_le_bits(layouter, &position, Some(TREE_DEPTH), true)?;
        for (level, direction) in directions.iter().enumerate() {
            let sibling: AssignedNative<Base> =
                native.assign(layouter, slot.clone().map(|x| x.path.siblings[level]))?;
            let (left, right) = native.cond_swap(layouter, direction, &node, &sibling)?;
            let parent = poseidon.hash(layouter, &[left, right])?;
            // A zero sibling is mithril-stm's padding: the level is skipped.
            let padding = native.is_zero(layouter, &sibling)?;
            node = native.select(layouter, &padding, &node, &parent)?;
        }
        native.assert_equal(layouter, root, &node)?;
        let (t_hi, t_lo) = chips.limbs(layouter, &target)?;
        chips.assert_canonical(layouter, (&t_hi, &t_lo))?;
        Ok((vk, t_hi, t_lo))
    }
}
