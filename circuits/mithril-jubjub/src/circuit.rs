//! The SNARK-Mithril circuit on midnight-circuits' chips (native arithmetic with its power-of-two
//! range table, the Jubjub Edwards chip, Poseidon, the hash to Jubjub) plus one lookup of our own,
//! the signer table, and one gate of our own, the DLEQ ladder ([`crate::ladder`]).
//!
//! ```text
//! public:  [registration digest, message]
//! params:  m, phi num, phi den (witnesses), k = index slots and depth (constants of the shape)
//!          params digest = Poseidon(PARAMS, m, k, num, den);  m < 2^32
//! signer slot s (S of them), membership:
//!          pk on-curve; leaf = Poseidon(pk.x, pk.y, stake, T); Merkle path -> root_s = root
//!          T = 8 chunks of 32 bits = T_hi 2^128 + T_lo;  T_hi 2^128 + T_lo < q (borrow, below)
//!          digest = Poseidon(REGISTRATION, root, total, depth, params digest)   == public
//! H:       H = H_J(Poseidon(MESSAGE, digest, message))  (midnight's hash to Jubjub of
//!          (H2C, signed): sponge, two SvdW maps, cofactor cleared, one addition)
//! signer slot s, unique signature:
//!          sigma = 8 sigma' (sigma' on-curve: three doublings); A, B on-curve
//!          c = Poseidon(CHALLENGE, pk, H, sigma, A, B);  c's 255 canonical bits
//!          the ladder: s G - c pk = A  and  s H - c sigma = B  (shared bits, tables of the
//!          slot's points: [O, G, -pk, G - pk], [O, H, -sigma, H - sigma], tag = 2 + s)
//! signer table (one two-row entry per signer slot, cells copied from the slot):
//!          entry s = 1 (s, sigma_s.x, sigma_s.y, T_hi_s, T_lo_s)     (s a fixed constant)
//!          slot s's ladder table: entries tag (w, table1[w], table2[w]), w = 0..3
//! index slot i (exactly k of them):
//!          j_i < 2^32;  j_0 < j_1 < ... < j_{k-1} < m  (each gap y - x - 1 below 2^32)
//!          1 (n_i, sigma.x, sigma.y, T_hi, T_lo): fresh cells of two rows, looked up in the table
//!          ev = Poseidon(LOTTERY, sigma.x, sigma.y, j_i) = 8 chunks of 32 bits = hi 2^128 + lo
//!          hi 2^128 + lo < T_hi 2^128 + T_lo: a borrow c, T_lo - lo - 1 + c 2^128 and
//!          T_hi - hi - c below 2^128
//! ```
//!
//! # Soundness argument (what a verifier learns)
//! An accepting proof for public `(digest, message)`, the verifier holding `digest` of a
//! [`crate::RegistrationCommitment`] and `message = blake2b-256(bytes) mod q`, shows:
//! - **Registration and parameters.** The digest is recomputed from the root every signer slot's
//!   path reaches, the total stake, the shape's depth and `(m, k, phi_f)` with `k` the number of
//!   index slots; Poseidon is collision resistant, so these are the commitment's.
//! - **H.** The signed message and `H` are computed from the public digest and message by
//!   midnight-circuits' hash to curve (the gadget whose CPU side is
//!   [`crate::native::hash_to_jubjub`]); its output is cofactor-cleared, so in the prime-order
//!   subgroup.
//! - **Signers.** Each leaf `(pk, stake, T)` is under the root, so `pk` is a registered key: in
//!   the prime-order subgroup ([`crate::Registration`] takes subgroup keys only) and `T` its
//!   registered target. `sigma = 8 sigma'` for a curve point `sigma'` (the group has order
//!   `8 r_J`, so `8 E` is the prime-order subgroup), `A` and `B` are loaded with the curve
//!   equation only: `A = s G - c pk` and `B = s H - c sigma` are then subgroup points. The ladder
//!   computes both sums over the bits of `s` (any integer: `s` appears nowhere else) and the
//!   canonical bits of `c` (`c`'s integer, which the native `challenge_scalar` reduces mod `r_J`):
//!   its gate is the complete Edwards addition and doubling, every bit cell boolean, and the
//!   lookup binds each pair's added points to the slot's own table entry for `w = s_i + 2 c_i`
//!   (the tag, a fixed value per slot, keeps another slot's `-pk'`, `-sigma'` out: with them a
//!   prover holding one registered key could verify any slot's `sigma`). So the DLEQ equations are
//!   the native [`crate::UniqueSignature::verify`], and `sigma = sk H`
//!   (unique: the argument of `mithril-snark`'s README, in a prime-order group). Without the
//!   check on `sigma` a prover could add a small-order point `T8` to `sigma` and `-c T8` to `B`,
//!   succeeding for one challenge in 8: other lottery values, hence grinding.
//! - **Indices.** `k` index slots with `j_0 < ... < j_{k-1} < m`, each range-checked to 32 bits
//!   (and `m` too), so the comparisons are integer ones: each `y - x - 1` below `2^32` (a
//!   wrapped difference is not), so `k` distinct indices below `m`.
//! - **Selection.** Each index slot's tuple is an entry of the signer table by the proof system's
//!   lookup argument (compressed with the transcript's `theta` after every advice column is
//!   committed). Which rows start table entries is fixed by the verifying key (fixed column
//!   `f_table`: 1 on a signer entry, one per signer slot, holding a fixed number and copies of
//!   the slot's `sigma` and canonical `T` limbs; `2 + s` on slot `s`'s ladder entries). An index
//!   slot's input starts with `f_in = 1`, so it can only be a signer entry; the zero rows that
//!   the other rows' all-zero inputs need have `f_table = 0`. So the index slot's `sigma` and `T`
//!   are both signer slot `n_i`'s.
//! - **Lottery.** `T`'s limbs are 32-bit chunks regrouped, their integer below `q`, so they
//!   give `T`'s integer. The integer comparisons of two-limb numbers are two range-checked
//!   differences and a borrow bit, sound for any borrow (`Chips::assert_limbs_order`).
//!   `ev`'s limbs need not be: they give `X < 2^256` with `X = ev mod q`; `X < T < q` forces `X`
//!   to be `ev`'s canonical integer.
//!
//! # Not constrained (deliberately, as on BN254)
//! Signer slots need not be distinct, ordered or all used (the statement is `k` distinct winning
//! indices, each won by some registered key); the prover pads with copies. The stake is only
//! hashed.

use ff::{Field, PrimeField};
use group::Group;
use midnight_circuits::{
    ecc::{
        hash_to_curve::HashToCurveGadget,
        native::{AssignedNativePoint, EccChip, EccConfig, NB_EDWARDS_COLS},
    },
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
        ControlFlowInstructions, ConversionInstructions, DecompositionInstructions,
        EccInstructions, HashToCurveInstructions, PublicInputInstructions, RangeCheckInstructions,
    },
    types::{AssignedBit, AssignedNative, ComposableChip},
};
use midnight_curves::{JubjubExtended, JubjubSubgroup};
use midnight_proofs::{
    circuit::{Layouter, SimpleFloorPlanner, Value},
    plonk::{Advice, Circuit, Column, ConstraintSystem, Error, Expression, Fixed},
    poly::Rotation,
};
use num_bigint::BigUint;

use crate::{
    ladder::{self, CBits, LadderConfig, LadderForgery, LadderReach, LadderRows, Xy},
    native::{from_biguint, to_biguint, Base, JubjubScalar, Tag},
    witness::{MithrilShape, MithrilWitness, PreparedIndex},
};

/// The native gadget: arithmetic plus range checks through the power-of-two table.
pub(crate) type Native = NativeGadget<Base, P2RDecompositionChip<Base>, NativeChip<Base>>;
/// The Jubjub Edwards chip.
pub(crate) type Jubjub = EccChip<JubjubExtended>;
/// An assigned Jubjub point.
pub(crate) type Point = AssignedNativePoint<JubjubExtended>;
/// The in-circuit hash to Jubjub (the CPU side is [`crate::native::hash_to_jubjub`]).
pub(crate) type H2c =
    HashToCurveGadget<Base, JubjubExtended, AssignedNative<Base>, PoseidonChip<Base>, Jubjub>;

/// The width of a signer-table row and of a looked-up tuple.
pub const TABLE_COLUMNS: usize = 5;
/// The name of the signer-table lookup (MockProver reports it).
pub const TABLE_LOOKUP: &str = "signer table";
/// Bits of the low limb of a target or a lottery value.
pub const LO_BITS: usize = 128;
/// Bits of an index and of `m` (this mode's bound; the mithril-stm mode's is 16).
const INDEX_BITS: usize = 32;

/// The signer table's columns: the lookup's tuples span two rows of three advice columns, and
/// two fixed columns say which rows start a looked-up tuple and which start a table entry.
#[derive(Clone, Debug)]
pub struct TableConfig {
    columns: [Column<Advice>; 3],
    /// `1` on an index slot's first row, a signer slot's tag on its ladder's even rows.
    input: Column<Fixed>,
    /// `1` on a signer row, a signer slot's tag on its ladder table's entries.
    table: Column<Fixed>,
}

impl TableConfig {
    /// The lookup `f_in (1, e_0, .., e_4)` in `(f_table, e_0, .., e_4)` over two rows of the first
    /// three advice columns (they have equality), `e = (c2 + 2 c2', c0, c1, c0', c1')` (`'` the next
    /// row). An index slot's tuple (`f_in = 1`) is found only on a signer row (`f_table = 1`); a
    /// ladder pair's (`f_in = tag`) only on its slot's ladder table (`f_table = tag`, entries
    /// stored times the tag); every other row's input is all zero, found on the table's zero rows.
    fn configure(meta: &mut ConstraintSystem<Base>, advice: &[Column<Advice>]) -> Self {
        let columns: [Column<Advice>; 3] = advice[..3].try_into().expect("enough columns");
        for c in columns {
            meta.enable_equality(c);
        }
        let input = meta.fixed_column();
        let table = meta.fixed_column();
        ladder::tagged_lookup(meta, TABLE_LOOKUP, (input, table), |m| {
            let [c0, c1, c2] = columns.map(|c| m.query_advice(c, Rotation::cur()));
            let [n0, n1, n2] = columns.map(|c| m.query_advice(c, Rotation::next()));
            vec![c2 + Expression::from(2) * n2, c0, c1, n0, n1]
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
pub struct MithrilConfig {
    native: NativeConfig,
    decomposition: P2RDecompositionConfig,
    jubjub: EccConfig,
    poseidon: PoseidonConfig<Base>,
    table: TableConfig,
    ladder: LadderConfig,
}

/// A cheating prover's changes, for the negative tests only (empty in production): shared by
/// both relations' circuits, whose signer table and DLEQ ladders are laid out by the same code.
#[derive(Clone, Debug, Default)]
pub(crate) struct Forgeries {
    /// A table row (signer slot, values) written in place of the slot's own values, the copy
    /// constraints kept.
    pub(crate) row: Option<(usize, [Base; TABLE_COLUMNS])>,
    /// Changes to signer slots' ladders `(slot, step, change)`.
    pub(crate) ladder: Vec<(usize, usize, LadderForgery)>,
    /// DLEQ table entries `(slot, table, w, point)` written in place of the slot's own (the copy
    /// constraints kept), the ladder adding them.
    pub(crate) dleq: Vec<(usize, usize, usize, Xy)>,
    /// Borrows `(index slot, borrow)` of `ev <= T` in place of the honest ones (the
    /// mithril-stm mode).
    pub(crate) borrows: Vec<(usize, bool)>,
}

/// The Mithril circuit of one shape; without a witness it lays out the same cells with unknown
/// values (keygen).
#[derive(Clone, Debug)]
pub struct MithrilCircuit {
    shape: MithrilShape,
    witness: Option<MithrilWitness>,
    /// A cheating prover's changes: for the negative tests only.
    forgeries: Forgeries,
    /// The DLEQ ladder's layout: [`LadderReach::TwoRows`] (this mode's proofs are never verified
    /// in a circuit); the other only in tests, which check both layouts refuse the same forgeries.
    reach: LadderReach,
}

impl MithrilCircuit {
    /// The circuit proving `witness`.
    pub fn new(witness: MithrilWitness) -> Self {
        Self {
            shape: witness.shape,
            witness: Some(witness),
            forgeries: Forgeries::default(),
            reach: LadderReach::TwoRows,
        }
    }

    /// This circuit with its DLEQ ladder laid out as `reach`: for the tests of both layouts.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_ladder_reach(mut self, reach: LadderReach) -> Self {
        self.reach = reach;
        self
    }

    /// This circuit with signer slot `slot`'s table row holding `values` instead of copies of the
    /// slot's cells (the copy constraints stay): a cheating prover, for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_forged_table_row(mut self, slot: usize, values: [Base; TABLE_COLUMNS]) -> Self {
        self.forgeries.row = Some((slot, values));
        self
    }

    /// This circuit with signer slot `slot`'s ladder changed by `forgery` at `step` (counted from
    /// the most significant bit), everything else computed honestly from it: a cheating prover,
    /// for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_ladder_forgery(mut self, slot: usize, step: usize, forgery: LadderForgery) -> Self {
        self.forgeries.ladder.push((slot, step, forgery));
        self
    }

    /// This circuit with entry `w` of signer slot `slot`'s DLEQ table `table` (0: `[O, G, -pk,
    /// G - pk]`, 1: `[O, H, -sigma, H - sigma]`) holding `point` instead of copies of the cells
    /// the Jubjub chip computed (the copy constraints stay), and the ladder adding it: a cheating
    /// prover, for the negative tests.
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

    /// This circuit with index slot `slot`'s borrow in `ev < T` set to `borrow` instead of the
    /// honest one: a cheating prover, for the negative tests.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn with_forged_borrow(mut self, slot: usize, borrow: bool) -> Self {
        self.forgeries.borrows.push((slot, borrow));
        self
    }

    /// The circuit of `shape` without values, for keygen.
    pub fn for_keygen(shape: MithrilShape) -> Self {
        Self {
            shape,
            witness: None,
            forgeries: Forgeries::default(),
            reach: LadderReach::TwoRows,
        }
    }

    /// A value from the witness, unknown at keygen.
    fn value<T>(&self, f: impl FnOnce(&MithrilWitness) -> T) -> Value<T> {
        match &self.witness {
            Some(w) => Value::known(f(w)),
            None => Value::unknown(),
        }
    }
}

/// The chips of one synthesis.
pub(crate) struct Chips {
    pub(crate) native: Native,
    pub(crate) jubjub: Jubjub,
    pub(crate) poseidon: PoseidonChip<Base>,
    pub(crate) table: TableConfig,
    pub(crate) ladder: LadderConfig,
}

/// The base field modulus `q`'s limbs `(q >> 128, q mod 2^128)`, as field elements.
fn modulus_limbs() -> (Base, Base) {
    integer_limbs(&(to_biguint(&-Base::ONE) + 1u32))
}

/// An integer's limbs `(n >> 128, n mod 2^128)`, as field elements.
fn integer_limbs(n: &BigUint) -> (Base, Base) {
    (
        from_biguint(&(n >> LO_BITS)),
        from_biguint(&(n % (BigUint::from(1u8) << LO_BITS))),
    )
}

/// `x`'s integer if it is below `2^32`.
pub(crate) fn fits_u32(x: &Base) -> Option<u64> {
    u32::try_from(to_biguint(x)).ok().map(u64::from)
}

/// `x`'s limbs `(x >> 128, x mod 2^128)`.
pub fn limbs(x: Base) -> (Base, Base) {
    integer_limbs(&to_biguint(&x))
}

/// The signer-table tuple `(n, sigma.x, sigma.y, T_hi, T_lo)` an index slot claims.
pub fn table_tuple(slot: &PreparedIndex) -> [Base; TABLE_COLUMNS] {
    let [x, y] = schnorr_atms_jubjub::coordinates(&slot.sigma);
    let (t_hi, t_lo) = limbs(slot.target);
    [Base::from(slot.signer as u64), x, y, t_hi, t_lo]
}

impl Circuit<Base> for MithrilCircuit {
    type Config = MithrilConfig;
    type FloorPlanner = SimpleFloorPlanner;
    /// The ladder's layout.
    type Params = LadderReach;

    fn without_witnesses(&self) -> Self {
        Self {
            reach: self.reach,
            ..Self::for_keygen(self.shape)
        }
    }

    fn params(&self) -> LadderReach {
        self.reach
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

impl MithrilConfig {
    /// The columns, gates and lookups of both relations' circuits (the same configuration: one
    /// set of chips, the signer table and the DLEQ ladder laid out as `reach`).
    pub(crate) fn configure(meta: &mut ConstraintSystem<Base>, reach: LadderReach) -> Self {
        let n_advice = NB_ARITH_COLS
            .max(NB_EDWARDS_COLS)
            .max(NB_POSEIDON_ADVICE_COLS);
        let n_fixed = NB_ARITH_FIXED_COLS.max(NB_POSEIDON_FIXED_COLS);
        let advice: Vec<_> = (0..n_advice).map(|_| meta.advice_column()).collect();
        let fixed: Vec<_> = (0..n_fixed).map(|_| meta.fixed_column()).collect();
        // One instance column, as in schnorr-atms-jubjub (no instance commitment in proofs).
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
        let jubjub = Jubjub::configure(
            meta,
            &advice[..NB_EDWARDS_COLS]
                .try_into()
                .expect("enough columns"),
        );
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
        let table = TableConfig::configure(meta, &advice);
        let ladder = LadderConfig::configure_reaching(meta, &advice, table.input, reach);
        MithrilConfig {
            native,
            decomposition,
            jubjub,
            poseidon,
            table,
            ladder,
        }
    }
}

/// Builds the chips of `config` for a circuit of `2^k` rows, lays out `layout` with them, then
/// loads the range table (`2^(k-1)` rows, as midnight's standard library sizes it).
pub(crate) fn synthesize_with<L: Layouter<Base>>(
    config: &MithrilConfig,
    k: u32,
    mut layouter: L,
    layout: impl FnOnce(&Chips, &mut L) -> Result<(), Error>,
) -> Result<(), Error> {
    let native_chip = NativeChip::new(&config.native, &());
    let decomposition = P2RDecompositionChip::new(&config.decomposition, &(k as usize - 1));
    let native = NativeGadget::new(decomposition.clone(), native_chip.clone());
    let chips = Chips {
        jubjub: Jubjub::new(&config.jubjub, &native),
        poseidon: PoseidonChip::new(&config.poseidon, &native_chip),
        native,
        table: config.table.clone(),
        ladder: config.ladder.clone(),
    };
    layout(&chips, &mut layouter)?;
    decomposition.load(&mut layouter)
}

/// A laid-out signer slot: what the table rows copy.
pub(crate) struct SignerCells {
    pub(crate) sigma: Point,
    pub(crate) t_hi: AssignedNative<Base>,
    pub(crate) t_lo: AssignedNative<Base>,
}

impl MithrilCircuit {
    /// Lays out the relation (the module docs' drawing, clause by clause).
    fn layout(&self, chips: &Chips, layouter: &mut impl Layouter<Base>) -> Result<(), Error> {
        let Chips {
            native,
            jubjub,
            poseidon,
            ..
        } = chips;
        let shape = self.shape;
        let tag = |layouter: &mut _, t: Tag| native.assign_fixed(layouter, t.value());
        let message: AssignedNative<Base> =
            native.assign(layouter, self.value(|w| w.instance.message))?;

        // Parameters: m a 32-bit witness bound by the digest; k and the depth the shape's.
        let params = self.value(|w| w.instance.commitment.params);
        let m: AssignedNative<Base> = native.assign(layouter, params.map(|p| Base::from(p.m())))?;
        chips.assert_below_pow2(layouter, &m, INDEX_BITS)?;
        let phi_num: AssignedNative<Base> =
            native.assign(layouter, params.map(|p| Base::from(p.phi_f().num())))?;
        let phi_den: AssignedNative<Base> =
            native.assign(layouter, params.map(|p| Base::from(p.phi_f().den())))?;
        let k_const = native.assign_fixed(layouter, Base::from(shape.index_slots as u64))?;
        let params_tag = tag(layouter, Tag::Params)?;
        let params_digest = poseidon.hash(
            layouter,
            &[params_tag, m.clone(), k_const, phi_num, phi_den],
        )?;

        // Signer slots, membership.
        let mut root: Option<AssignedNative<Base>> = None;
        let mut members = Vec::with_capacity(shape.signer_slots);
        for s in 0..shape.signer_slots {
            members.push(self.member(chips, layouter, s, &mut root)?);
        }
        let root = root.expect("at least one signer slot");

        let total: AssignedNative<Base> = native.assign(
            layouter,
            self.value(|w| Base::from(w.instance.commitment.total_stake)),
        )?;
        let reg_tag = tag(layouter, Tag::Registration)?;
        let depth = native.assign_fixed(layouter, Base::from(shape.depth as u64))?;
        let digest = poseidon.hash(layouter, &[reg_tag, root, total, depth, params_digest])?;
        let message_tag = tag(layouter, Tag::Message)?;
        let signed = poseidon.hash(layouter, &[message_tag, digest.clone(), message.clone()])?;
        let h2c_tag = tag(layouter, Tag::HashToCurve)?;
        let h = H2c::new(poseidon, jubjub).hash_to_curve(layouter, &[h2c_tag, signed])?;

        // Signer slots, unique signatures.
        let g: Point = jubjub.assign_fixed(layouter, JubjubSubgroup::generator())?;
        let identity = [
            native.assign_fixed(layouter, ladder::IDENTITY.0)?,
            native.assign_fixed(layouter, ladder::IDENTITY.1)?,
        ];
        let cofactor_inverse = JubjubScalar::from(8u64).invert().expect("8 is invertible");
        let mut signers = Vec::with_capacity(shape.signer_slots);
        for (s, (pk, t_hi, t_lo)) in members.into_iter().enumerate() {
            let sig = self.value(|w| w.signers[s].signature);
            // sigma = 8 sigma' for a curve point sigma': in the prime-order subgroup, which is what
            // makes it unique (module docs). Three doublings, where midnight's subgroup check
            // multiplies by the cofactor over 255 bits.
            let root = jubjub
                .assign_without_subgroup_check(layouter, sig.map(|x| x.sigma * cofactor_inverse))?;
            let mut sigma = root;
            for _ in 0..3 {
                sigma = jubjub.double(layouter, &sigma)?;
            }
            let a = jubjub.assign_without_subgroup_check(layouter, sig.map(|x| x.a))?;
            let b = jubjub.assign_without_subgroup_check(layouter, sig.map(|x| x.b))?;
            let challenge_tag = tag(layouter, Tag::Challenge)?;
            let mut input = vec![challenge_tag];
            for p in [&pk, &h, &sigma, &a, &b] {
                input.push(jubjub.x_coordinate(p));
                input.push(jubjub.y_coordinate(p));
            }
            let c = poseidon.hash(layouter, &input)?;
            // c's canonical bits (its integer, as the native challenge_scalar reads it); s's
            // bits are the ladder's own cells.
            let c_bits = native.assigned_to_le_bits(layouter, &c, None, true)?;
            let c_bits = c_bits
                .iter()
                .map(|b| native.convert(layouter, b))
                .collect::<Result<Vec<AssignedNative<Base>>, Error>>()?;
            // s's little-endian bits (its canonical repr is little-endian).
            let s_bits = sig.map(|x| ladder::ladder_bits(x.s.to_repr().as_ref()));
            let sums = self.forgeries.dleq_ladder(
                chips,
                layouter,
                s,
                (&g, &pk, &h, &sigma),
                (s_bits, &c_bits),
                (&identity, true),
            )?;
            // s G - c pk = A and s H - c sigma = B.
            for (sum, point) in sums.iter().zip([&a, &b]) {
                native.assert_equal(layouter, &sum[0], &jubjub.x_coordinate(point))?;
                native.assert_equal(layouter, &sum[1], &jubjub.y_coordinate(point))?;
            }
            signers.push(SignerCells { sigma, t_hi, t_lo });
        }
        self.forgeries.load_table(chips, layouter, &signers)?;

        // Index slots.
        let lottery_tag = tag(layouter, Tag::Lottery)?;
        let mut previous: Option<AssignedNative<Base>> = None;
        for i in 0..shape.index_slots {
            let j: AssignedNative<Base> =
                native.assign(layouter, self.value(|w| w.indices[i].index))?;
            // j < 2^32: j equals a cell range-checked to 32 bits. The prover fills that cell with
            // j when it fits, else with the slot's number (any value fails the equality; this one
            // keeps the order checks of a test's out-of-range indices satisfied, so the tests
            // see the range check alone).
            let j_low = native.assign_lower_than_fixed(
                layouter,
                self.value(|w| Base::from(fits_u32(&w.indices[i].index).unwrap_or(i as u64))),
                &(BigUint::from(1u8) << INDEX_BITS),
            )?;
            native.assert_equal(layouter, &j_low, &j)?;
            if let Some(p) = &previous {
                chips.assert_increasing(layouter, p, &j, INDEX_BITS)?;
            }
            previous = Some(j.clone());
            let [_number, sx, sy, t_hi, t_lo] =
                chips.lookup(layouter, self.value(|w| table_tuple(&w.indices[i])))?;
            let ev = poseidon.hash(layouter, &[lottery_tag.clone(), sx, sy, j])?;
            let (ev_hi, ev_lo) = chips.limbs(layouter, &ev)?;
            // ev < T: the looked-up limbs are copies of a signer slot's (below 2^128).
            chips.assert_limbs_order(
                layouter,
                (&ev_hi, &ev_lo),
                (&t_hi, &t_lo),
                true,
                self.forgeries.borrow(i),
            )?;
        }
        let last = previous.expect("at least one index slot");
        chips.assert_increasing(layouter, &last, &m, INDEX_BITS)?;

        native.constrain_as_public_input(layouter, &digest)?;
        native.constrain_as_public_input(layouter, &message)
    }

    /// Signer slot `s`'s key and leaf under the root shared by every slot, and its target's
    /// canonical limbs `(T_hi, T_lo)`.
    fn member(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        s: usize,
        root: &mut Option<AssignedNative<Base>>,
    ) -> Result<(Point, AssignedNative<Base>, AssignedNative<Base>), Error> {
        let Chips {
            native,
            jubjub,
            poseidon,
            ..
        } = chips;
        let slot = self.value(|w| w.signers[s].clone());
        // The leaf binds pk to a registered (prime-order) key: the curve equation suffices.
        let pk = jubjub.assign_without_subgroup_check(layouter, slot.clone().map(|x| x.key.0))?;
        let stake: AssignedNative<Base> =
            native.assign(layouter, slot.clone().map(|x| Base::from(x.stake)))?;
        let target: AssignedNative<Base> =
            native.assign(layouter, slot.clone().map(|x| x.target))?;
        let mut node = poseidon.hash(
            layouter,
            &[
                jubjub.x_coordinate(&pk),
                jubjub.y_coordinate(&pk),
                stake,
                target.clone(),
            ],
        )?;
        let position: AssignedNative<Base> = native.assign(
            layouter,
            slot.clone().map(|x| Base::from(x.position as u64)),
        )?;
        // The position's bits: a range check below 2^depth and the path's directions.
        let directions =
            native.assigned_to_le_bits(layouter, &position, Some(self.shape.depth), true)?;
        for (level, direction) in directions.iter().enumerate() {
            let sibling: AssignedNative<Base> =
                native.assign(layouter, slot.clone().map(|x| x.path[level]))?;
            let (left, right) = native.cond_swap(layouter, direction, &node, &sibling)?;
            node = poseidon.hash(layouter, &[left, right])?;
        }
        match root {
            None => *root = Some(node),
            Some(r) => native.assert_equal(layouter, r, &node)?,
        }
        let (t_hi, t_lo) = chips.limbs(layouter, &target)?;
        chips.assert_canonical(layouter, (&t_hi, &t_lo))?;
        Ok((pk, t_hi, t_lo))
    }
}

impl Forgeries {
    /// The forged borrow of index slot `slot`, if any.
    pub(crate) fn borrow(&self, slot: usize) -> Option<bool> {
        self.borrows
            .iter()
            .rev()
            .find(|(s, _)| *s == slot)
            .map(|(_, b)| *b)
    }

    /// Signer slot `slot`'s DLEQ ladder ([`crate::ladder`]): its table `tag (w, table1[w],
    /// table2[w])` (two rows per entry, every value a copy of a cell computed from the slot's
    /// points), then the ladder; returns `(s G - c pk, s H - c sigma)`'s coordinates (`subtract`)
    /// or `(s G + c pk, s H + c sigma)`'s (mithril-stm's `R2`, `R1`).
    pub(crate) fn dleq_ladder(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        slot: usize,
        (g, pk, h, sigma): (&Point, &Point, &Point, &Point),
        (s_bits, c_bits): (Value<Vec<bool>>, &[AssignedNative<Base>]),
        (identity, subtract): (&[AssignedNative<Base>; 2], bool),
    ) -> Result<[[AssignedNative<Base>; 2]; 2], Error> {
        let Chips {
            native,
            jubjub,
            table,
            ladder,
            ..
        } = chips;
        let tag = Base::from(2 + slot as u64);
        // The added points: -pk, -sigma for this crate's DLEQ proof, pk, sigma for mithril-stm's.
        let (neg_pk, neg_sigma) = if subtract {
            (
                jubjub.negate(layouter, pk)?,
                jubjub.negate(layouter, sigma)?,
            )
        } else {
            (pk.clone(), sigma.clone())
        };
        let g_minus_pk = EccInstructions::add(jubjub, layouter, g, &neg_pk)?;
        let h_minus_sigma = EccInstructions::add(jubjub, layouter, h, &neg_sigma)?;
        let coordinates = |p: &Point| [jubjub.x_coordinate(p), jubjub.y_coordinate(p)];
        let tables: [[[AssignedNative<Base>; 2]; 4]; 2] = [
            [
                identity.clone(),
                coordinates(g),
                coordinates(&neg_pk),
                coordinates(&g_minus_pk),
            ],
            [
                identity.clone(),
                coordinates(h),
                coordinates(&neg_sigma),
                coordinates(&h_minus_sigma),
            ],
        ];
        // The entries times the tag, as the lookup compares them.
        let mut scaled = Vec::with_capacity(16);
        for entry in tables.iter().flatten().flatten() {
            scaled.push(native.linear_combination(
                layouter,
                &[(tag, entry.clone())],
                Base::ZERO,
            )?);
        }
        let scaled_w = (0..4u64)
            .map(|w| native.assign_fixed(layouter, tag * Base::from(w)))
            .collect::<Result<Vec<AssignedNative<Base>>, Error>>()?;
        let zero: AssignedNative<Base> = native.assign_fixed(layouter, Base::ZERO)?;
        let forged_entry = |k: usize, w: usize| {
            self.dleq
                .iter()
                .find(|(s, fk, fw, _)| (*s, *fk, *fw) == (slot, k, w))
                .map(|(.., point)| *point)
        };
        let [c0, c1, c2] = table.columns;
        layouter.assign_region(
            || "dleq table",
            |mut region| {
                for w in 0..4 {
                    let top = 2 * w;
                    region.assign_fixed(|| "tag", table.table, top, || Value::known(tag))?;
                    // scaled = [table1 entries (x, y) .., table2 entries ..]; table k's entry
                    // on row top + k. Copies of the chip's cells: what binds the lookup's
                    // entries to the slot's points (a forged entry keeps the copies).
                    for k in 0..2 {
                        let cells = &scaled[8 * k + 2 * w..8 * k + 2 * w + 2];
                        let forged = forged_entry(k, w);
                        for (i, (cell, column)) in cells.iter().zip([c0, c1]).enumerate() {
                            let value = match forged {
                                Some(p) => Value::known(tag * [p.0, p.1][i]),
                                None => cell.value().copied(),
                            };
                            let entry =
                                region.assign_advice(|| "entry", column, top + k, || value)?;
                            region.constrain_equal(entry.cell(), cell.cell())?;
                        }
                        // (In this order, as before the hook: the copies' order is the key's.)
                        let third = if k == 0 { &scaled_w[w] } else { &zero };
                        third.copy_advice(|| "w or zero", &mut region, c2, top + k)?;
                    }
                }
                Ok(())
            },
        )?;
        let xy = |cells: &[AssignedNative<Base>; 2]| {
            cells[0].value().copied().zip(cells[1].value().copied())
        };
        let values: Value<Vec<Xy>> = tables
            .iter()
            .enumerate()
            .flat_map(|(k, table)| {
                table
                    .iter()
                    .enumerate()
                    .map(move |(w, cells)| (k, w, cells))
            })
            .map(|(k, w, cells)| match forged_entry(k, w) {
                Some(point) => Value::known(point),
                None => xy(cells),
            })
            .collect();
        let forgeries: Vec<(usize, LadderForgery)> = self
            .ladder
            .iter()
            .filter(|(forged, _, _)| *forged == slot)
            .map(|(_, step, forgery)| (*step, *forgery))
            .collect();
        let rows = LadderRows {
            tag,
            s_bits,
            c_bits: CBits::Copies(c_bits),
            tables: values.map(|v| {
                let entry = |k: usize, w: usize| v[4 * k + w];
                [0, 1].map(|k| [0, 1, 2, 3].map(|w| entry(k, w)))
            }),
            identity: [&identity[0], &identity[1]],
            forgeries: &forgeries,
        };
        layouter
            .assign_region(
                || "dleq ladder",
                |mut region| ladder.assign(&mut region, table.input, &rows),
            )
            .map(|cells| cells.sums)
    }

    /// The signer table: entry `s` = a fixed `s` and copies of slot `s`'s `sigma` and `T` limbs
    /// over two rows, then the zero rows the unselected rows' inputs need (`f_table = 0`).
    pub(crate) fn load_table(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        signers: &[SignerCells],
    ) -> Result<(), Error> {
        let Chips {
            native,
            jubjub,
            table,
            ..
        } = chips;
        let numbers = (0..signers.len())
            .map(|s| native.assign_fixed(layouter, Base::from(s as u64)))
            .collect::<Result<Vec<AssignedNative<Base>>, Error>>()?;
        let zero: AssignedNative<Base> = native.assign_fixed(layouter, Base::ZERO)?;
        let sigmas: Vec<[AssignedNative<Base>; 2]> = signers
            .iter()
            .map(|c| [jubjub.x_coordinate(&c.sigma), jubjub.y_coordinate(&c.sigma)])
            .collect();
        let [c0, c1, c2] = table.columns;
        layouter.assign_region(
            || "signer table",
            |mut region| {
                for (s, cells) in signers.iter().enumerate() {
                    let top = 2 * s;
                    region.assign_fixed(
                        || "signer row",
                        table.table,
                        top,
                        || Value::known(Base::ONE),
                    )?;
                    // The tuple's cells (n, sigma.x, sigma.y, T_hi, T_lo) and where they lie.
                    let row = [
                        (&numbers[s], c2, top),
                        (&sigmas[s][0], c0, top),
                        (&sigmas[s][1], c1, top),
                        (&cells.t_hi, c0, top + 1),
                        (&cells.t_lo, c1, top + 1),
                    ];
                    for (c, (cell, column, offset)) in row.into_iter().enumerate() {
                        // The slot's value (a forged one in the negative tests), bound to the
                        // slot's cell by a copy constraint either way.
                        let value = match self.row {
                            Some((forged, values)) if forged == s => Value::known(values[c]),
                            _ => cell.value().copied(),
                        };
                        let entry =
                            region.assign_advice(|| "table cell", column, offset, || value)?;
                        region.constrain_equal(entry.cell(), cell.cell())?;
                    }
                    zero.copy_advice(|| "zero", &mut region, c2, top + 1)?;
                }
                for column in table.columns {
                    for offset in [2 * signers.len(), 2 * signers.len() + 1] {
                        region.assign_advice(
                            || "zero rows",
                            column,
                            offset,
                            || Value::known(Base::ZERO),
                        )?;
                    }
                }
                Ok(())
            },
        )
    }
}

impl Chips {
    /// `x`'s limbs `(X >> 128, X mod 2^128)` for an integer `X < 2^256` with `X = x mod q`: 8
    /// chunks of 32 bits (midnight's chunks stay below 64 bits), regrouped by 128. Not
    /// canonical by itself: a comparison with a canonical bound makes it so.
    pub(crate) fn limbs(
        &self,
        layouter: &mut impl Layouter<Base>,
        x: &AssignedNative<Base>,
    ) -> Result<(AssignedNative<Base>, AssignedNative<Base>), Error> {
        let chunks = self
            .native
            .assigned_to_le_chunks(layouter, x, 32, Some(8))?;
        let lo = self.regroup(layouter, &chunks[..4])?;
        let hi = self.regroup(layouter, &chunks[4..])?;
        Ok((hi, lo))
    }

    /// An index slot's tuple `(n, sigma.x, sigma.y, T_hi, T_lo)`: fresh cells of two rows
    /// looked up in the signer table.
    pub(crate) fn lookup(
        &self,
        layouter: &mut impl Layouter<Base>,
        tuple: Value<[Base; TABLE_COLUMNS]>,
    ) -> Result<[AssignedNative<Base>; TABLE_COLUMNS], Error> {
        let table = &self.table;
        let [c0, c1, c2] = table.columns;
        let tuple = tuple.transpose_array();
        let places = [(c2, 0), (c0, 0), (c1, 0), (c0, 1), (c1, 1)];
        let values: Vec<(Value<Base>, Column<Advice>, usize)> = tuple
            .into_iter()
            .zip(places)
            .map(|(v, (column, offset))| (v, column, offset))
            .collect();
        layouter.assign_region(
            || "signer lookup",
            |mut region| {
                region.assign_fixed(|| "index slot", table.input, 0, || Value::known(Base::ONE))?;
                region.assign_advice(|| "n'", c2, 1, || Value::known(Base::ZERO))?;
                let cells = values
                    .iter()
                    .map(|(v, column, offset)| {
                        region.assign_advice(|| "looked up", *column, *offset, || *v)
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                Ok(cells.try_into().expect("one cell per tuple entry"))
            },
        )
    }

    /// `sum_i part_i 2^(32 i)`.
    pub(crate) fn regroup(
        &self,
        layouter: &mut impl Layouter<Base>,
        part: &[AssignedNative<Base>],
    ) -> Result<AssignedNative<Base>, Error> {
        let terms: Vec<(Base, AssignedNative<Base>)> = part
            .iter()
            .enumerate()
            .map(|(i, c)| (Base::from(2).pow_vartime([32 * i as u64]), c.clone()))
            .collect();
        self.native.linear_combination(layouter, &terms, Base::ZERO)
    }

    /// Asserts `a < b` (`strict`) or `a <= b` for the integers `a = a_hi 2^128 + a_lo` and
    /// `b = b_hi 2^128 + b_lo`, every limb already known to be below `2^128` (regrouped 32-bit
    /// chunks, or copies of such cells): with `e = 1` if strict, else 0, a borrow bit `c` and the
    /// differences `d_lo = b_lo - a_lo - e + c 2^128`, `d_hi = b_hi - a_hi - c`, each
    /// range-checked below `2^128`. Two range checks where a lexicographic comparison of bounded
    /// limbs takes six.
    ///
    /// Sound for any `c` a prover picks: `d_lo` and `d_hi` are, as integers, in
    /// `(-2^129, 2^129)`, far from wrapping (`q > 2^254`), so a residue below `2^128` is the
    /// integer itself and both are `>= 0`; then `b - a - e = d_hi 2^128 + d_lo >= 0`.
    /// `forged_borrow` is a cheating prover's borrow, for the negative tests (`None`: the
    /// honest `b_lo < a_lo + e`).
    pub(crate) fn assert_limbs_order(
        &self,
        layouter: &mut impl Layouter<Base>,
        (a_hi, a_lo): (&AssignedNative<Base>, &AssignedNative<Base>),
        (b_hi, b_lo): (&AssignedNative<Base>, &AssignedNative<Base>),
        strict: bool,
        forged_borrow: Option<bool>,
    ) -> Result<(), Error> {
        let native = &self.native;
        let e = u8::from(strict);
        let honest = a_lo
            .value()
            .zip(b_lo.value())
            .map(|(a, b)| to_biguint(b) < to_biguint(a) + e);
        let borrow: AssignedBit<Base> =
            native.assign(layouter, honest.map(|c| forged_borrow.unwrap_or(c)))?;
        let borrow: AssignedNative<Base> = native.convert(layouter, &borrow)?;
        let two_128 = Base::from(2).pow_vartime([LO_BITS as u64]);
        let d_lo = native.linear_combination(
            layouter,
            &[
                (Base::ONE, b_lo.clone()),
                (-Base::ONE, a_lo.clone()),
                (two_128, borrow.clone()),
            ],
            -Base::from(u64::from(e)),
        )?;
        let d_hi = native.linear_combination(
            layouter,
            &[
                (Base::ONE, b_hi.clone()),
                (-Base::ONE, a_hi.clone()),
                (-Base::ONE, borrow),
            ],
            Base::ZERO,
        )?;
        self.assert_below_pow2(layouter, &d_lo, LO_BITS)?;
        self.assert_below_pow2(layouter, &d_hi, LO_BITS)
    }

    /// Asserts `x < y` for `x` and `y` below `2^bits` (`bits` well below the field's): the gap
    /// `y - x - 1` is below `2^bits`, which it is not when `x >= y` (it wraps).
    pub(crate) fn assert_increasing(
        &self,
        layouter: &mut impl Layouter<Base>,
        x: &AssignedNative<Base>,
        y: &AssignedNative<Base>,
        bits: usize,
    ) -> Result<(), Error> {
        let gap = self.native.linear_combination(
            layouter,
            &[(Base::ONE, y.clone()), (-Base::ONE, x.clone())],
            -Base::ONE,
        )?;
        self.assert_below_pow2(layouter, &gap, bits)
    }

    /// Asserts `x < 2^bits`: a range-checked cell equal to `x`. A cheating prover's `x` out of
    /// range is assigned as 0 there, so that the equality fails where midnight's decomposition
    /// would panic on the value.
    pub(crate) fn assert_below_pow2(
        &self,
        layouter: &mut impl Layouter<Base>,
        x: &AssignedNative<Base>,
        bits: usize,
    ) -> Result<(), Error> {
        let bound = BigUint::from(1u8) << bits;
        let value = x.value().map(|v| {
            if to_biguint(v) < bound {
                *v
            } else {
                Base::ZERO
            }
        });
        let checked = self
            .native
            .assign_lower_than_fixed(layouter, value, &bound)?;
        self.native.assert_equal(layouter, x, &checked)
    }

    /// Asserts limbs `(hi, lo)` (each below `2^128`) are below `q`'s: their integer is
    /// canonical.
    pub(crate) fn assert_canonical(
        &self,
        layouter: &mut impl Layouter<Base>,
        limbs: (&AssignedNative<Base>, &AssignedNative<Base>),
    ) -> Result<(), Error> {
        let (q_hi, q_lo) = modulus_limbs();
        let q_hi = self.native.assign_fixed(layouter, q_hi)?;
        let q_lo = self.native.assign_fixed(layouter, q_lo)?;
        self.assert_limbs_order(layouter, limbs, (&q_hi, &q_lo), true, None)
    }
}
