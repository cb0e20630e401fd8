//! The circuit, on midnight-circuits' chips (the native arithmetic chip and gadget with its
//! power-of-two range-check table, the Poseidon chip) plus one gate and one lookup of our own:
//! the one-lane scalar ladder ([`crate::ladder`]) and its table. No Edwards chip: the ladder's
//! gate is the only curve arithmetic, and no point needs an on-curve check (below).
//!
//! ```text
//! public:  [commitment, message, threshold]
//! flat:    pk_0..pk_{n-1} -> Poseidon(x_0, y_0, ..., x_{n-1}, y_{n-1}) = commitment
//!          slot i: enabled_i in {0,1}; enabled_i => s_i G - c_i pk_i = R_i
//! Merkle:  slot j: pk -> leaf Poseidon(x, y) -> path(index_j) -> root_j = commitment
//!          index_0 < index_1 < ... (distinct members); enabled_j => s_j G - c_j pk_j = R_j
//! both:    c = Poseidon(R.x, R.y, pk.x, pk.y, m)
//!          c = sum 2^i c_i over the ladder's bits of c, c_0 = sgn0(c)
//!          the ladder: s G - c pk over the bits of s and c, table [O, G, -pk, G - pk], tag 1 + j
//!          slot j's ladder table: entries tag (w, table[w]), w = 0..3
//!          count = sum enabled;  count >= threshold
//! ```
//!
//! # Soundness argument
//! - **Keys.** Loaded as coordinates; the commitment (flat: one Poseidon sponge over them;
//!   Merkle: each slot's leaf hash and path to the one root, strictly increasing indices) binds
//!   them, by Poseidon's collision resistance, to a committee whose keys are in the prime-order
//!   subgroup ([`crate::Committee`]): so they are curve points without a check of their own, and
//!   so are `-pk = (-x, y)` and `G - pk` (one step of the ladder's gate and lookup,
//!   [`LadderConfig::add`]).
//! - **The signature equation.** The ladder's gate is the complete Edwards addition and doubling
//!   (every pair of curve points), its `s` cells are boolean (fresh: `s` is used nowhere else, so
//!   any 255-bit integer, whose `s G` is `(s mod r_J) G`), its `c` cells are boolean too and sum
//!   to the Poseidon output with `c_0 = sgn0(c)`, so they are its canonical bits (below `2^255`
//!   only `c` and `c + q` reduce to `c`, and `q` is odd: `assert_canonical_bits`), hence the
//!   integer `c`, whose `c pk` is `(c mod r_J) pk` for a subgroup `pk` (the native
//!   [`crate::challenge_scalar`]); and the ladder table's lookup
//!   binds the point each row adds to the slot's own entry for `w = s_i + 2 c_i`: the table's
//!   cells are copies of the cells `O`, `G`, `-pk`, `G - pk` computed from the key, and the
//!   tag (fixed, `1 + j` on slot `j`'s ladder and table rows, 0 elsewhere) keeps another slot's
//!   `-pk'` out (with it a prover holding one key could sign in any slot). So the ladder's sum is
//!   `s G - c pk`, a subgroup point; an enabled slot's `R` (two cells, no curve check) equals it,
//!   so an `R` off the curve or with a small-order component can never pass, and the check is
//!   the native [`crate::VerifyingKey::verify`] equation exactly (no `[8]` clearing needed).
//! - **The lookup.** Input `f_in (1, w, T)` on every row, table `(f_table, w', T')`: a ladder row
//!   (`f_in` = its slot's tag) finds only its slot's entries (`f_table` = the tag, entries
//!   stored times the tag); every other row's input is all zero, found on the table's zero row.
//!
//! Not constrained: the signatures of disabled slots (they do not count; a disabled slot's ladder
//! runs on a placeholder and its equality with `R` is conditional). In Merkle mode a disabled slot
//! still proves a distinct committee member, so it cannot take an index a signer needs.

use ff::{Field, PrimeField};
use group::Group;
use midnight_circuits::{
    field::{
        decomposition::{
            chip::{P2RDecompositionChip, P2RDecompositionConfig},
            pow2range::Pow2RangeChip,
        },
        native::{NB_ARITH_COLS, NB_ARITH_FIXED_COLS},
        NativeChip, NativeConfig, NativeGadget,
    },
    hash::poseidon::{
        PoseidonChip, PoseidonConfig, NB_POSEIDON_ADVICE_COLS, NB_POSEIDON_FIXED_COLS,
    },
    instructions::{
        hash::HashInstructions, ArithInstructions, AssertionInstructions, AssignmentInstructions,
        ComparisonInstructions, ControlFlowInstructions, ConversionInstructions,
        DecompositionInstructions, PublicInputInstructions,
    },
    types::{AssignedBit, AssignedNative, ComposableChip},
};
use midnight_curves::JubjubSubgroup;
use midnight_proofs::{
    circuit::{Layouter, SimpleFloorPlanner, Value},
    plonk::{Advice, Circuit, Column, ConstraintSystem, Error, Expression, Fixed},
    poly::Rotation,
};

use crate::{
    ladder::{
        self, CBits, LadderCells, LadderConfig, LadderForgery, LadderRows, Xy, BIT, C_BIT, T_X, T_Y,
    },
    native::{coordinates, Base, CommitmentMode, JubjubScalar, Signature},
    witness::{AtmsShape, AtmsWitness},
};

/// The name of the ladder table's lookup (MockProver reports it).
pub const LADDER_LOOKUP: &str = "ladder table";

/// The native gadget: arithmetic plus range checks through the power-of-two table.
type Native = NativeGadget<Base, P2RDecompositionChip<Base>, NativeChip<Base>>;
/// A point's assigned coordinates `[x, y]` (the curve equation is not checked: module docs).
type Point = [AssignedNative<Base>; 2];

/// A point's coordinates as two cells (no curve check: module docs).
fn assign_point(
    native: &Native,
    layouter: &mut impl Layouter<Base>,
    xy: Value<[Base; 2]>,
) -> Result<Point, Error> {
    let [x, y] = xy.transpose_array();
    Ok([native.assign(layouter, x)?, native.assign(layouter, y)?])
}

/// What a disabled slot carries in place of a signature (any point and scalar would do).
fn placeholder_signature() -> Signature {
    Signature {
        r: JubjubSubgroup::generator(),
        s: JubjubScalar::from(1u64),
    }
}

/// The ladder table: its lookup over the ladder's `T` and bit columns, and the two fixed columns
/// that say which rows look up (the ladder's, `f_in` = the slot's tag, which also turns the
/// ladder's gate on) and which rows are entries (`f_table` = the tag).
#[derive(Clone, Debug)]
pub struct LadderTableConfig {
    columns: [Column<Advice>; 4],
    input: Column<Fixed>,
    table: Column<Fixed>,
}

impl LadderTableConfig {
    /// The lookup `f_in (1, w, Tx, Ty)` in `(f_table, w', Tx', Ty')`, `w = s_i + 2 c_i` from the
    /// ladder's [`BIT`] and [`C_BIT`] columns (a table row stores `tag w` in [`BIT`] and 0 in
    /// [`C_BIT`]).
    fn configure(meta: &mut ConstraintSystem<Base>, advice: &[Column<Advice>]) -> Self {
        let columns = [T_X, T_Y, BIT, C_BIT].map(|c| advice[c]);
        for c in columns {
            meta.enable_equality(c);
        }
        let input = meta.fixed_column();
        let table = meta.fixed_column();
        ladder::tagged_lookup(meta, LADDER_LOOKUP, (input, table), |m| {
            let [tx, ty, s, c] = columns.map(|c| m.query_advice(c, Rotation::cur()));
            vec![s + Expression::from(2) * c, tx, ty]
        });
        Self {
            columns,
            input,
            table,
        }
    }
}

/// The configured chips.
#[derive(Clone, Debug)]
pub struct AtmsConfig {
    native: NativeConfig,
    decomposition: P2RDecompositionConfig,
    poseidon: PoseidonConfig<Base>,
    table: LadderTableConfig,
    ladder: LadderConfig<1>,
}

/// A cheating prover's changes, for the negative tests only (empty in production).
#[derive(Clone, Debug, Default)]
struct Forgeries {
    /// Changes to slots' ladders `(slot, step, change)`.
    ladder: Vec<(usize, usize, LadderForgery)>,
    /// Ladder table entries `(slot, w, point)` written in place of the slot's own (the copy
    /// constraints kept), the ladder adding them.
    entries: Vec<(usize, usize, Xy)>,
}

/// The ATMS circuit of one shape; without a witness it lays out the same cells with unknown
/// values (keygen).
#[derive(Clone, Debug)]
pub struct AtmsCircuit {
    shape: AtmsShape,
    witness: Option<AtmsWitness>,
    /// A cheating prover's changes: for the negative tests only.
    forgeries: Forgeries,
}

impl AtmsCircuit {
    /// The circuit proving `witness`.
    pub fn new(witness: AtmsWitness) -> Self {
        Self {
            shape: witness.shape,
            witness: Some(witness),
            forgeries: Forgeries::default(),
        }
    }

    /// The circuit of `shape` without values, for keygen.
    pub fn for_keygen(shape: AtmsShape) -> Self {
        Self {
            shape,
            witness: None,
            forgeries: Forgeries::default(),
        }
    }

    /// This circuit with slot `slot`'s ladder changed by `forgery` at `step` (counted from the
    /// most significant bit), everything else computed honestly from it: a cheating prover, for
    /// the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_ladder_forgery(mut self, slot: usize, step: usize, forgery: LadderForgery) -> Self {
        self.forgeries.ladder.push((slot, step, forgery));
        self
    }

    /// This circuit with entry `w` of slot `slot`'s ladder table (`[O, G, -pk, G - pk]`) holding
    /// `point` instead of copies of the cells computed from the key (the copy constraints
    /// stay), and the ladder adding it: a cheating prover, for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_forged_table_entry(mut self, slot: usize, w: usize, point: Xy) -> Self {
        self.forgeries.entries.push((slot, w, point));
        self
    }

    /// A value from the witness, unknown at keygen.
    fn value<T>(&self, f: impl FnOnce(&AtmsWitness) -> T) -> Value<T> {
        match &self.witness {
            Some(w) => Value::known(f(w)),
            None => Value::unknown(),
        }
    }
}

/// The chips of one synthesis.
struct Chips {
    native: Native,
    decomposition: P2RDecompositionChip<Base>,
    poseidon: PoseidonChip<Base>,
    table: LadderTableConfig,
    ladder: LadderConfig<1>,
}

impl Circuit<Base> for AtmsCircuit {
    type Config = AtmsConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        Self::for_keygen(self.shape)
    }

    fn configure(meta: &mut ConstraintSystem<Base>) -> AtmsConfig {
        // The ladder's ten columns are the most any part uses.
        let n_advice = NB_ARITH_COLS.max(NB_POSEIDON_ADVICE_COLS).max(C_BIT + 1);
        let n_fixed = NB_ARITH_FIXED_COLS.max(NB_POSEIDON_FIXED_COLS);
        let advice: Vec<_> = (0..n_advice).map(|_| meta.advice_column()).collect();
        let fixed: Vec<_> = (0..n_fixed).map(|_| meta.fixed_column()).collect();
        // One instance column: the native chip's committed-instance column is the same column
        // and never used, so proofs carry no instance commitment.
        let instance = meta.instance_column();
        let native = NativeChip::configure(
            meta,
            &(
                advice[..NB_ARITH_COLS].try_into().expect("enough columns"),
                fixed[..NB_ARITH_FIXED_COLS]
                    .try_into()
                    .expect("enough columns"),
                [instance, instance],
            ),
        );
        let pow2range = Pow2RangeChip::configure(meta, &advice[1..2]);
        let decomposition = P2RDecompositionChip::configure(meta, &(native.clone(), pow2range));
        let poseidon = PoseidonChip::configure(
            meta,
            &(
                advice[..NB_POSEIDON_ADVICE_COLS]
                    .try_into()
                    .expect("enough columns"),
                fixed[..NB_POSEIDON_FIXED_COLS]
                    .try_into()
                    .expect("enough columns"),
            ),
        );
        let table = LadderTableConfig::configure(meta, &advice);
        let ladder = LadderConfig::configure(meta, &advice, table.input);
        AtmsConfig {
            native,
            decomposition,
            poseidon,
            table,
            ladder,
        }
    }

    fn synthesize(
        &self,
        config: AtmsConfig,
        mut layouter: impl Layouter<Base>,
    ) -> Result<(), Error> {
        let native_chip = NativeChip::new(&config.native, &());
        // The range table has 2^(k-1) rows, as midnight's standard library sizes it.
        let decomposition =
            P2RDecompositionChip::new(&config.decomposition, &(self.shape.k as usize - 1));
        let native = NativeGadget::new(decomposition.clone(), native_chip.clone());
        let chips = Chips {
            poseidon: PoseidonChip::new(&config.poseidon, &native_chip),
            native,
            decomposition,
            table: config.table,
            ladder: config.ladder,
        };
        self.layout(&chips, &mut layouter)?;
        chips.decomposition.load(&mut layouter)
    }
}

impl AtmsCircuit {
    /// Lays out the relation (the module docs' drawing, clause by clause).
    fn layout(&self, chips: &Chips, layouter: &mut impl Layouter<Base>) -> Result<(), Error> {
        let Chips {
            native, poseidon, ..
        } = chips;
        let shape = self.shape;
        let message: AssignedNative<Base> =
            native.assign(layouter, self.value(|w| w.instance.message))?;
        let threshold: AssignedNative<Base> =
            native.assign(layouter, self.value(|w| Base::from(w.instance.threshold)))?;

        // The slots' keys (every member in flat mode, where slot j holds member j): curve points
        // by the commitment (module docs).
        let keys: Vec<Point> = (0..shape.slots())
            .map(|j| {
                let key = self.value(|w| coordinates(&w.committee.keys()[w.slots[j].index].0));
                assign_point(native, layouter, key)
            })
            .collect::<Result<_, _>>()?;

        let commitment = match shape.mode {
            CommitmentMode::Flat => {
                let coords: Vec<AssignedNative<Base>> = keys.iter().flatten().cloned().collect();
                poseidon.hash(layouter, &coords)?
            }
            CommitmentMode::Merkle { .. } => self.merkle_root(chips, layouter, &keys)?,
        };

        // Each slot: enabled => s G - c pk = R, by the ladder.
        let [gx, gy] = coordinates(&JubjubSubgroup::generator());
        let g: Point = [
            native.assign_fixed(layouter, gx)?,
            native.assign_fixed(layouter, gy)?,
        ];
        let identity = [
            native.assign_fixed(layouter, ladder::IDENTITY.0)?,
            native.assign_fixed(layouter, ladder::IDENTITY.1)?,
        ];
        let mut enabled_bits = Vec::with_capacity(shape.slots());
        for (j, pk) in keys.iter().enumerate() {
            let slot = self.value(|w| w.slots[j].clone());
            let enabled: AssignedBit<Base> =
                native.assign(layouter, slot.clone().map(|s| s.signature.is_some()))?;
            let sig = slot.map(|s| s.signature.unwrap_or_else(placeholder_signature));
            // R: two cells, equal to the ladder's sum where the slot is enabled.
            let r = assign_point(native, layouter, sig.map(|s| coordinates(&s.r)))?;
            let c = poseidon.hash(
                layouter,
                &[
                    r[0].clone(),
                    r[1].clone(),
                    pk[0].clone(),
                    pk[1].clone(),
                    message.clone(),
                ],
            )?;
            // The bits of s and c are the ladder's own cells (boolean by its gate); c's are
            // then recomposed and checked canonical below.
            let s_bits = sig.map(|x| ladder::ladder_bits(x.s.to_repr().as_ref()));
            let c_bits = c.value().map(|c| ladder::ladder_bits(c.to_repr().as_ref()));
            let cells = self.ladder(chips, layouter, j, (&g, pk), (s_bits, c_bits), &identity)?;
            self.assert_canonical_bits(native, layouter, &c, &cells.c_bits)?;
            let [x, y] = &cells.sums[0];
            native.cond_assert_equal(layouter, &enabled, x, &r[0])?;
            native.cond_assert_equal(layouter, &enabled, y, &r[1])?;
            enabled_bits.push(enabled);
        }

        // count = sum enabled >= threshold, both below 2^bits.
        let terms = enabled_bits
            .iter()
            .map(|b| Ok((Base::from(1u64), native.convert(layouter, b)?)))
            .collect::<Result<Vec<(Base, AssignedNative<Base>)>, Error>>()?;
        let count = native.linear_combination(layouter, &terms, Base::from(0u64))?;
        let bits = shape.count_bits() as usize;
        let count = native.bounded_of_element(layouter, bits, &count)?;
        let bounded_threshold = native.bounded_of_element(layouter, bits, &threshold)?;
        let met = native.geq(layouter, &count, &bounded_threshold)?;
        native.assert_equal_to_fixed(layouter, &met, true)?;

        native.constrain_as_public_input(layouter, &commitment)?;
        native.constrain_as_public_input(layouter, &message)?;
        native.constrain_as_public_input(layouter, &threshold)
    }

    /// Slot `slot`'s ladder: its table `tag (w, table[w])` (one row per entry, every value a
    /// copy of a cell computed from the slot's points), then the one-lane ladder; returns
    /// `s G - c pk`'s coordinates.
    fn ladder(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        slot: usize,
        (g, pk): (&Point, &Point),
        (s_bits, c_bits): (Value<Vec<bool>>, Value<Vec<bool>>),
        identity: &[AssignedNative<Base>; 2],
    ) -> Result<LadderCells<1>, Error> {
        let Chips {
            native,
            table,
            ladder,
            ..
        } = chips;
        let tag = Base::from(1 + slot as u64);
        // -pk = (-x, y); G - pk by one step of the ladder (its lookup takes -pk as entry 2).
        let neg_pk: Point = [
            native.linear_combination(layouter, &[(-Base::ONE, pk[0].clone())], Base::ZERO)?,
            pk[1].clone(),
        ];
        let g_minus_pk = layouter.assign_region(
            || "G - pk",
            |mut region| {
                ladder.add(
                    &mut region,
                    table.input,
                    tag,
                    [&g[0], &g[1]],
                    [&neg_pk[0], &neg_pk[1]],
                )
            },
        )?;
        let entries: [[AssignedNative<Base>; 2]; 4] =
            [identity.clone(), g.clone(), neg_pk, g_minus_pk];
        // The entries times the tag, as the lookup compares them.
        let mut scaled = Vec::with_capacity(8);
        for cell in entries.iter().flatten() {
            scaled.push(native.linear_combination(layouter, &[(tag, cell.clone())], Base::ZERO)?);
        }
        let scaled_w = (0..4u64)
            .map(|w| native.assign_fixed(layouter, tag * Base::from(w)))
            .collect::<Result<Vec<AssignedNative<Base>>, Error>>()?;
        let zero: AssignedNative<Base> = native.assign_fixed(layouter, Base::ZERO)?;
        let forged_entry = |w: usize| {
            self.forgeries
                .entries
                .iter()
                .find(|(s, fw, _)| (*s, *fw) == (slot, w))
                .map(|(.., point)| *point)
        };
        let [tx, ty, bit, c_bit] = table.columns;
        layouter.assign_region(
            || "ladder table",
            |mut region| {
                for w in 0..4 {
                    region.assign_fixed(|| "tag", table.table, w, || Value::known(tag))?;
                    // Copies of the chip's cells: what binds the lookup's entries to the slot's
                    // points (a forged entry keeps the copies).
                    let forged = forged_entry(w);
                    let cells = &scaled[2 * w..2 * w + 2];
                    for (i, (cell, column)) in cells.iter().zip([tx, ty]).enumerate() {
                        let value = match forged {
                            Some(p) => Value::known(tag * [p.0, p.1][i]),
                            None => cell.value().copied(),
                        };
                        let entry = region.assign_advice(|| "entry", column, w, || value)?;
                        region.constrain_equal(entry.cell(), cell.cell())?;
                    }
                    scaled_w[w].copy_advice(|| "tag w", &mut region, bit, w)?;
                    zero.copy_advice(|| "zero", &mut region, c_bit, w)?;
                }
                // The zero row every row outside a ladder looks up (f_table = 0).
                for column in table.columns {
                    region.assign_advice(|| "zero row", column, 4, || Value::known(Base::ZERO))?;
                }
                Ok(())
            },
        )?;
        let xy = |cells: &[AssignedNative<Base>; 2]| {
            cells[0].value().copied().zip(cells[1].value().copied())
        };
        let values: Value<Vec<Xy>> = entries
            .iter()
            .enumerate()
            .map(|(w, cells)| match forged_entry(w) {
                Some(point) => Value::known(point),
                None => xy(cells),
            })
            .collect();
        let forgeries: Vec<(usize, LadderForgery)> = self
            .forgeries
            .ladder
            .iter()
            .filter(|(forged, _, _)| *forged == slot)
            .map(|(_, step, forgery)| (*step, *forgery))
            .collect();
        let rows = LadderRows {
            tag,
            s_bits,
            c_bits: CBits::Fresh(c_bits.as_ref().map(|bits| bits.as_slice())),
            tables: values.map(|v| [[v[0], v[1], v[2], v[3]]]),
            identity: [&identity[0], &identity[1]],
            forgeries: &forgeries,
        };
        layouter.assign_region(
            || "schnorr ladder",
            |mut region| ladder.assign(&mut region, table.input, &rows),
        )
    }

    /// `bits` (boolean cells, little-endian) are the canonical bits of `c`: their sum
    /// `X = sum 2^i b_i` equals `c` in the field, so `X` is `c`'s integer or, below `2^255`, that
    /// plus `q`; `q` is odd, so the two differ in parity, and `b_0 = sgn0(c)` (the canonical
    /// integer's parity) leaves the first (the argument of midnight-circuits' own
    /// `assigned_to_le_bits`, whose range-table limbs cost a row per bit here).
    fn assert_canonical_bits(
        &self,
        native: &Native,
        layouter: &mut impl Layouter<Base>,
        c: &AssignedNative<Base>,
        bits: &[AssignedNative<Base>],
    ) -> Result<(), Error> {
        let mut power = Base::ONE;
        let terms: Vec<(Base, AssignedNative<Base>)> = bits
            .iter()
            .map(|b| {
                let term = (power, b.clone());
                power = power.double();
                term
            })
            .collect();
        let sum = native.linear_combination(layouter, &terms, Base::ZERO)?;
        native.assert_equal(layouter, &sum, c)?;
        let parity = native.sgn0(layouter, c)?;
        let parity: AssignedNative<Base> = native.convert(layouter, &parity)?;
        native.assert_equal(layouter, &bits[0], &parity)
    }

    /// Merkle mode: each slot's leaf hashed up its path to the one root, and strictly
    /// increasing leaf indices (so no member fills two slots).
    fn merkle_root(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        keys: &[Point],
    ) -> Result<AssignedNative<Base>, Error> {
        let Chips {
            native, poseidon, ..
        } = chips;
        let depth = self.shape.depth();
        let mut root: Option<AssignedNative<Base>> = None;
        let mut previous: Option<AssignedNative<Base>> = None;
        for (j, pk) in keys.iter().enumerate() {
            let index: AssignedNative<Base> = native.assign(
                layouter,
                self.value(|w| Base::from(w.slots[j].index as u64)),
            )?;
            // The index's bits: a range check index < 2^depth and the path's directions.
            let directions = native.assigned_to_le_bits(layouter, &index, Some(depth), true)?;
            let path = self.value(|w| w.slots[j].path.clone());
            let mut node = poseidon.hash(layouter, &[pk[0].clone(), pk[1].clone()])?;
            for (level, direction) in directions.iter().enumerate() {
                let sibling: AssignedNative<Base> =
                    native.assign(layouter, path.clone().map(|p| p[level]))?;
                let (left, right) = native.cond_swap(layouter, direction, &node, &sibling)?;
                node = poseidon.hash(layouter, &[left, right])?;
            }
            match &root {
                None => root = Some(node),
                Some(root) => native.assert_equal(layouter, root, &node)?,
            }
            if let Some(prev) = &previous {
                // prev < index, both below 2^depth.
                let a = native.bounded_of_element(layouter, depth + 1, prev)?;
                let b = native.bounded_of_element(layouter, depth + 1, &index)?;
                let increasing = native.lower_than(layouter, &a, &b)?;
                native.assert_equal_to_fixed(layouter, &increasing, true)?;
            }
            previous = Some(index);
        }
        Ok(root.expect("at least one slot"))
    }
}
