//! The circuit, on midnight-circuits' chips: the native arithmetic chip and gadget (with its
//! power-of-two range-check table), the Jubjub Edwards chip and the Poseidon chip.
//!
//! ```text
//! public:  [commitment, message, threshold]
//! flat:    pk_0..pk_{n-1} on-curve -> Poseidon(x_0, y_0, ..., x_{n-1}, y_{n-1}) = commitment
//!          slot i: enabled_i in {0,1}; enabled_i => s_i G = R_i + c_i pk_i
//! Merkle:  slot j: pk on-curve -> leaf Poseidon(x, y) -> path(index_j) -> root_j = commitment
//!          index_0 < index_1 < ... (distinct members); enabled_j => s_j G = R_j + c_j pk_j
//! both:    c = Poseidon(R.x, R.y, pk.x, pk.y, m);  count = sum enabled;  count >= threshold
//! ```
//!
//! Cofactor: keys and nonce points are loaded with the curve equation only (no subgroup check).
//! The keys are bound by the commitment to a committee whose keys are in the prime-order
//! subgroup ([`crate::Committee`]); `s G` and `c pk` are then in the subgroup, so an `R` with
//! a small-order component can never satisfy `s G = R + c pk`. The check is the native
//! [`crate::VerifyingKey::verify`] equation exactly, so no `[8]` clearing is needed.
//!
//! Scalars: `s` is loaded as 252 bits (Jubjub's scalar size; not reduced mod `r_J`, which
//! does not change `s G`), `c` as the 255 canonical bits of the Poseidon output (the same point
//! as `(c mod r_J) pk`, [`crate::challenge_scalar`]).
//!
//! Not constrained: the signatures of disabled slots (they do not count; a disabled slot's
//! check is a conditional equality). In Merkle mode a disabled slot still proves a distinct
//! committee member, so it cannot take an index a signer needs.

use group::Group;
use midnight_circuits::{
    ecc::native::{AssignedNativePoint, EccChip, EccConfig, NB_EDWARDS_COLS},
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
        DecompositionInstructions, EccInstructions, PublicInputInstructions,
    },
    types::{AssignedBit, AssignedNative, ComposableChip},
};
use midnight_curves::{JubjubExtended, JubjubSubgroup};
use midnight_proofs::{
    circuit::{Layouter, SimpleFloorPlanner, Value},
    plonk::{Circuit, ConstraintSystem, Error},
};

use crate::{
    native::{Base, CommitmentMode, JubjubScalar, Signature},
    witness::{AtmsShape, AtmsWitness},
};

/// The native gadget: arithmetic plus range checks through the power-of-two table.
type Native = NativeGadget<Base, P2RDecompositionChip<Base>, NativeChip<Base>>;
/// The Jubjub Edwards chip.
type Jubjub = EccChip<JubjubExtended>;
/// An assigned Jubjub point.
type Point = AssignedNativePoint<JubjubExtended>;

/// What a disabled slot carries in place of a signature (any point and scalar would do).
fn placeholder_signature() -> Signature {
    Signature {
        r: JubjubSubgroup::generator(),
        s: JubjubScalar::from(1u64),
    }
}

/// The configured chips.
#[derive(Clone, Debug)]
pub struct AtmsConfig {
    native: NativeConfig,
    decomposition: P2RDecompositionConfig,
    jubjub: EccConfig,
    poseidon: PoseidonConfig<Base>,
}

/// The ATMS circuit of one shape; without a witness it lays out the same cells with unknown
/// values (keygen).
#[derive(Clone, Debug)]
pub struct AtmsCircuit {
    shape: AtmsShape,
    witness: Option<AtmsWitness>,
}

impl AtmsCircuit {
    /// The circuit proving `witness`.
    pub fn new(witness: AtmsWitness) -> Self {
        Self {
            shape: witness.shape,
            witness: Some(witness),
        }
    }

    /// The circuit of `shape` without values, for keygen.
    pub fn for_keygen(shape: AtmsShape) -> Self {
        Self {
            shape,
            witness: None,
        }
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
    jubjub: Jubjub,
    poseidon: PoseidonChip<Base>,
}

impl Circuit<Base> for AtmsCircuit {
    type Config = AtmsConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        Self::for_keygen(self.shape)
    }

    fn configure(meta: &mut ConstraintSystem<Base>) -> AtmsConfig {
        let n_advice = NB_ARITH_COLS
            .max(NB_EDWARDS_COLS)
            .max(NB_POSEIDON_ADVICE_COLS);
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
        AtmsConfig {
            native,
            decomposition,
            jubjub,
            poseidon,
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
            jubjub: Jubjub::new(&config.jubjub, &native),
            poseidon: PoseidonChip::new(&config.poseidon, &native_chip),
            native,
            decomposition,
        };
        self.layout(&chips, &mut layouter)?;
        chips.decomposition.load(&mut layouter)
    }
}

impl AtmsCircuit {
    /// Lays out the relation (the module docs' drawing, clause by clause).
    fn layout(&self, chips: &Chips, layouter: &mut impl Layouter<Base>) -> Result<(), Error> {
        let Chips {
            native,
            jubjub,
            poseidon,
            ..
        } = chips;
        let shape = self.shape;
        let message: AssignedNative<Base> =
            native.assign(layouter, self.value(|w| w.instance.message))?;
        let threshold: AssignedNative<Base> =
            native.assign(layouter, self.value(|w| Base::from(w.instance.threshold)))?;

        // The slots' keys (every member in flat mode, where slot j holds member j), on the
        // curve.
        let keys: Vec<Point> = (0..shape.slots())
            .map(|j| {
                let key = self.value(|w| w.committee.keys()[w.slots[j].index].0);
                jubjub.assign_without_subgroup_check(layouter, key)
            })
            .collect::<Result<_, _>>()?;

        let commitment = match shape.mode {
            CommitmentMode::Flat => {
                let coords: Vec<AssignedNative<Base>> = keys
                    .iter()
                    .flat_map(|p| [jubjub.x_coordinate(p), jubjub.y_coordinate(p)])
                    .collect();
                poseidon.hash(layouter, &coords)?
            }
            CommitmentMode::Merkle { .. } => self.merkle_root(chips, layouter, &keys)?,
        };

        // Each slot: enabled => s G = R + c pk.
        let g: Point = jubjub.assign_fixed(layouter, JubjubSubgroup::generator())?;
        let mut enabled_bits = Vec::with_capacity(shape.slots());
        for (j, pk) in keys.iter().enumerate() {
            let slot = self.value(|w| w.slots[j].clone());
            let enabled: AssignedBit<Base> =
                native.assign(layouter, slot.clone().map(|s| s.signature.is_some()))?;
            let sig = slot.map(|s| s.signature.unwrap_or_else(placeholder_signature));
            let r = jubjub.assign_without_subgroup_check(layouter, sig.map(|s| s.r))?;
            let s = jubjub.assign(layouter, sig.map(|s| s.s))?;
            let c = poseidon.hash(
                layouter,
                &[
                    jubjub.x_coordinate(&r),
                    jubjub.y_coordinate(&r),
                    jubjub.x_coordinate(pk),
                    jubjub.y_coordinate(pk),
                    message.clone(),
                ],
            )?;
            let c = jubjub.convert(layouter, &c)?;
            let s_g = jubjub.mul(layouter, &s, &g)?;
            let c_pk = jubjub.mul(layouter, &c, pk)?;
            let rhs = EccInstructions::add(jubjub, layouter, &r, &c_pk)?;
            jubjub.cond_assert_equal(layouter, &enabled, &s_g, &rhs)?;
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

    /// Merkle mode: each slot's leaf hashed up its path to the one root, and strictly
    /// increasing leaf indices (so no member fills two slots).
    fn merkle_root(
        &self,
        chips: &Chips,
        layouter: &mut impl Layouter<Base>,
        keys: &[Point],
    ) -> Result<AssignedNative<Base>, Error> {
        let Chips {
            native,
            jubjub,
            poseidon,
            ..
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
            let mut node = poseidon.hash(
                layouter,
                &[jubjub.x_coordinate(pk), jubjub.y_coordinate(pk)],
            )?;
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
