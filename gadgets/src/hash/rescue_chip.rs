//! Rescue-Prime on halo2-base's generic gate (2,247 cells per permutation against the round
//! gate's 180): for circuits without the custom-gate bank (the aggregation circuit joining the
//! committee chunks of Schnorr ATMS, `tms-aggregation`), and the independent cross-check of
//! [`crate::hash::RescueGateChip`]; the tests check that both chips and the native hash agree.

use halo2_base::{
    gates::{GateChip, GateInstructions},
    halo2_proofs::halo2curves::ff::Field,
    AssignedValue, Context,
    QuantumCell::{Constant, Existing, Witness},
};

use crate::{
    hash::{
        leaf_tag,
        rescue::{RescueField, RescuePrime, RATE, WIDTH},
        sponge_leaf, HashInstructions,
    },
    Fr,
};

/// In-circuit Rescue-Prime over BN254 Fr on halo2-base's flex gate.
///
/// Each round is two half-rounds. The forward S-box `x^5` is three multiplications. The inverse
/// S-box `y = x^(1/5)` is *witnessed* and checked by its fifth power: `y^5` (three
/// multiplications) is copy-constrained equal to `x`; since `x -> x^5` is a bijection of the field
/// (gcd(5, p - 1) = 1) the witness is unique. Each linear layer row is one chain of `a + b * c`
/// gates starting from the round constant: `c_i + sum_j M_ij s_j`.
///
/// Not constrained here: nothing about the inputs.
#[derive(Clone, Debug, Default)]
pub struct RescueChip {
    gate: GateChip<Fr>,
}

impl RescueChip {
    /// A new chip.
    pub fn new() -> Self {
        Self::default()
    }

    fn pow5(&self, ctx: &mut Context<Fr>, x: AssignedValue<Fr>) -> AssignedValue<Fr> {
        let x2 = self.gate.mul(ctx, x, x);
        let x4 = self.gate.mul(ctx, x2, x2);
        self.gate.mul(ctx, x4, x)
    }

    /// `c + sum_j m_j s_j` as one gate chain of 1 + 3 * WIDTH cells.
    fn affine(
        ctx: &mut Context<Fr>,
        m: &[Fr; WIDTH],
        s: &[AssignedValue<Fr>; WIDTH],
        c: Fr,
    ) -> AssignedValue<Fr> {
        let mut acc = c;
        let mut cells = vec![Constant(c)];
        for (mj, sj) in m.iter().zip(s) {
            acc += *mj * sj.value();
            cells.extend([Constant(*mj), Existing(*sj), Witness(acc)]);
        }
        let offsets: Vec<isize> = (0..WIDTH as isize).map(|i| 3 * i).collect();
        ctx.assign_region_last(cells, offsets)
    }

    /// Constrains the Rescue-XLIX permutation of `state`.
    pub fn permute(
        &self,
        ctx: &mut Context<Fr>,
        state: [AssignedValue<Fr>; WIDTH],
    ) -> [AssignedValue<Fr>; WIDTH] {
        let alpha_inv = Fr::rescue_params().alpha_inv.to_u64_digits();
        self.permute_with_inverse_witness(ctx, state, |x| x.pow_vartime(&alpha_inv))
    }

    /// [`Self::permute`] with the inverse S-box witness computed by `inverse` instead of
    /// `x^(1/alpha)`. Only a cheating prover passes anything else: negative tests use it to show
    /// that a wrong witness is rejected by the `y^5 = x` check.
    pub fn permute_with_inverse_witness(
        &self,
        ctx: &mut Context<Fr>,
        state: [AssignedValue<Fr>; WIDTH],
        mut inverse: impl FnMut(Fr) -> Fr,
    ) -> [AssignedValue<Fr>; WIDTH] {
        let params = Fr::rescue_params();
        let mut s = state;
        for round in 0..params.rounds {
            let rc = &params.round_constants[round * 2 * WIDTH..(round + 1) * 2 * WIDTH];
            let x: [AssignedValue<Fr>; WIDTH] = std::array::from_fn(|i| self.pow5(ctx, s[i]));
            s = std::array::from_fn(|i| Self::affine(ctx, &params.mds[i], &x, rc[i]));
            let y: [AssignedValue<Fr>; WIDTH] = std::array::from_fn(|i| {
                let root = ctx.load_witness(inverse(*s[i].value()));
                let fifth = self.pow5(ctx, root);
                ctx.constrain_equal(&fifth, &s[i]);
                root
            });
            s = std::array::from_fn(|i| Self::affine(ctx, &params.mds[i], &y, rc[WIDTH + i]));
        }
        s
    }
}

impl HashInstructions for RescueChip {
    type Native = RescuePrime;

    fn hash_node(
        &self,
        ctx: &mut Context<Fr>,
        left: AssignedValue<Fr>,
        right: AssignedValue<Fr>,
    ) -> AssignedValue<Fr> {
        let zero = ctx.load_zero();
        self.permute(ctx, [left, right, zero, zero])[0]
    }

    fn hash_leaf(&self, ctx: &mut Context<Fr>, inputs: &[AssignedValue<Fr>]) -> AssignedValue<Fr> {
        let zero = ctx.load_zero();
        let state = [zero, zero, zero, ctx.load_constant(leaf_tag(inputs.len()))];
        sponge_leaf(
            ctx,
            &self.gate,
            inputs,
            state,
            0..RATE,
            |ctx, s| self.permute(ctx, s),
            |x| x,
        )
    }
}
