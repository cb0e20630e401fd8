//! halo2-base's stock Poseidon (`PoseidonHasher::hash_fix_len_array`, width 3, rate 2, 8 full
//! and 57 partial rounds) as a Merkle hash: the baseline the ATMS note built its trees with.
//! Two inputs cost two permutations (its sponge adds a padding permutation when the length is a
//! multiple of the rate), against one for [`tms_gadgets::hash::PoseidonChip`].
//!
//! Node: `hash_fix_len_array([l, r])`; leaf: `hash_fix_len_array([leaf_tag(L), x_1, .., x_L])`
//! (the tag keeps leaves apart from nodes, as in [`tms_gadgets::hash`]). The native twin runs the
//! very same gadget in a scratch witness-generation context, so the two cannot disagree.

use halo2_base::{
    gates::{flex_gate::threads::SinglePhaseCoreManager, GateChip},
    poseidon::hasher::{spec::OptimizedPoseidonSpec, PoseidonHasher},
    AssignedValue, Context,
};
use tms_gadgets::{
    hash::{leaf_tag, HashInstructions, NativeHash},
    Fr, GadgetError,
};

type Hasher = PoseidonHasher<Fr, 3, 2>;

/// The spec (its constants and sparse matrices take milliseconds to derive: derived once).
fn spec() -> OptimizedPoseidonSpec<Fr, 3, 2> {
    static SPEC: std::sync::OnceLock<OptimizedPoseidonSpec<Fr, 3, 2>> = std::sync::OnceLock::new();
    SPEC.get_or_init(OptimizedPoseidonSpec::new::<8, 57, 0>)
        .clone()
}

fn hasher(ctx: &mut Context<Fr>, gate: &GateChip<Fr>) -> Hasher {
    let mut h = Hasher::new(spec());
    h.initialize_consts(ctx, gate);
    h
}

/// In-circuit stock Poseidon.
#[derive(Clone, Debug)]
pub struct StockPoseidonChip {
    hasher: Hasher,
    gate: GateChip<Fr>,
}

impl StockPoseidonChip {
    /// A chip whose constants are loaded into `ctx`.
    pub fn new(ctx: &mut Context<Fr>) -> Self {
        let gate = GateChip::default();
        Self {
            hasher: hasher(ctx, &gate),
            gate,
        }
    }
}

impl HashInstructions for StockPoseidonChip {
    type Native = StockPoseidon;

    fn hash_node(
        &self,
        ctx: &mut Context<Fr>,
        left: AssignedValue<Fr>,
        right: AssignedValue<Fr>,
    ) -> AssignedValue<Fr> {
        self.hasher
            .hash_fix_len_array(ctx, &self.gate, &[left, right])
    }

    fn hash_leaf(&self, ctx: &mut Context<Fr>, inputs: &[AssignedValue<Fr>]) -> AssignedValue<Fr> {
        assert!(!inputs.is_empty(), "a leaf commits at least one element");
        let mut all = vec![ctx.load_constant(leaf_tag(inputs.len()))];
        all.extend_from_slice(inputs);
        self.hasher.hash_fix_len_array(ctx, &self.gate, &all)
    }
}

/// The native twin of [`StockPoseidonChip`].
#[derive(Clone, Copy, Debug, Default)]
pub struct StockPoseidon;

impl StockPoseidon {
    fn run(f: impl FnOnce(&mut Context<Fr>, &StockPoseidonChip) -> AssignedValue<Fr>) -> Fr {
        let mut manager = SinglePhaseCoreManager::<Fr>::new(true, Default::default());
        let ctx = manager.main();
        let chip = StockPoseidonChip::new(ctx);
        *f(ctx, &chip).value()
    }
}

impl NativeHash for StockPoseidon {
    const NAME: &'static str = "stock Poseidon (halo2-base hash_fix_len_array)";

    fn hash_node(&self, left: Fr, right: Fr) -> Fr {
        Self::run(|ctx, chip| {
            let [l, r] = [left, right].map(|v| ctx.load_witness(v));
            chip.hash_node(ctx, l, r)
        })
    }

    fn hash_leaf(&self, inputs: &[Fr]) -> Result<Fr, GadgetError> {
        if inputs.is_empty() {
            return Err(GadgetError::EmptyLeaf);
        }
        Ok(Self::run(|ctx, chip| {
            let xs = ctx.assign_witnesses(inputs.iter().copied());
            chip.hash_leaf(ctx, &xs)
        }))
    }
}
