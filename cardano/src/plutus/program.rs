//! midnight-proofs 0.8.3's verifier (`plonk::prepare` + KZG `multi_prepare` + the pairing) for
//! one verifying key, written once over a [`Machine`]: the native machine runs it on values (and
//! so is checked against midnight-proofs), the UPLC machine emits it as a Plutus program.
//!
//! Everything the verifying key fixes (the proof layout, which commitment is opened where, the
//! gate, permutation and lookup identities, the multi-open's point sets) is resolved here at
//! generation time; the machine sees only field arithmetic on run-time values, transcript
//! reads and squeezes, and one final MSM-and-pairing check. Constants fold here.
//!
//! Inverses come from the prover as hints that the program checks (`a * h = 1`): one hint per
//! batch (after `x` and in the multi-open), each batch inverted with Montgomery's trick.

use ff::{Field, PrimeField};
use group::Group;
use midnight_curves::G1Projective;
use midnight_proofs::{
    plonk::{Any, Expression},
    poly::Rotation,
};

use crate::backend::{Fr, Vk};

/// What the verifier needs from the thing that runs (or emits) it.
pub trait Machine {
    /// A scalar (a field element known at run time).
    type S: Clone;
    /// A G1 point known at run time.
    type P: Clone;
    /// A constant scalar.
    fn konst(&mut self, c: Fr) -> Self::S;
    /// `a + b`.
    fn add(&mut self, a: &Self::S, b: &Self::S) -> Self::S;
    /// `a - b`.
    fn sub(&mut self, a: &Self::S, b: &Self::S) -> Self::S;
    /// `a * b`.
    fn mul(&mut self, a: &Self::S, b: &Self::S) -> Self::S;
    /// `1 / a`: the next hint, checked against `a`.
    fn inv(&mut self, a: &Self::S) -> Self::S;
    /// Public input `row` of instance column `col`.
    fn instance(&mut self, col: usize, row: usize) -> Self::S;
    /// Absorb constant bytes into the transcript.
    fn absorb_bytes(&mut self, bytes: &[u8]);
    /// Absorb a scalar (32 bytes, little-endian) into the transcript.
    fn absorb_scalar(&mut self, s: &Self::S);
    /// Read (and absorb) a compressed G1 point from the proof.
    fn read_point(&mut self) -> Self::P;
    /// Read (and absorb) a canonical scalar from the proof.
    fn read_scalar(&mut self) -> Self::S;
    /// Squeeze a challenge.
    fn squeeze(&mut self) -> Self::S;
    /// A constant point (from the verifying key, or the generator).
    fn const_point(&mut self, p: &G1Projective) -> Self::P;
    /// The proof has been read to its end: check its length.
    fn end_of_proof(&mut self);
    /// The KZG check `e(pi, [tau] G2) == e(sum of scalar * point, G2)`.
    fn pairing_check(&mut self, pi: &Self::P, terms: &[(Self::S, Self::P)]);
}

/// A scalar that folds while it is a constant.
#[derive(Clone, Debug)]
pub enum Sc<S> {
    /// Known at generation time.
    C(Fr),
    /// Known at run time.
    V(S),
}

/// Folding arithmetic over a machine.
pub struct Ctx<'m, M: Machine> {
    /// The machine.
    pub m: &'m mut M,
}

impl<M: Machine> Ctx<'_, M> {
    fn lower(&mut self, a: &Sc<M::S>) -> M::S {
        match a {
            Sc::C(c) => self.m.konst(*c),
            Sc::V(v) => v.clone(),
        }
    }
    fn add(&mut self, a: &Sc<M::S>, b: &Sc<M::S>) -> Sc<M::S> {
        match (a, b) {
            (Sc::C(x), Sc::C(y)) => Sc::C(*x + y),
            (Sc::C(z), v) | (v, Sc::C(z)) if bool::from(z.is_zero()) => v.clone(),
            _ => {
                let (x, y) = (self.lower(a), self.lower(b));
                Sc::V(self.m.add(&x, &y))
            }
        }
    }
    fn sub(&mut self, a: &Sc<M::S>, b: &Sc<M::S>) -> Sc<M::S> {
        match (a, b) {
            (Sc::C(x), Sc::C(y)) => Sc::C(*x - y),
            (v, Sc::C(z)) if bool::from(z.is_zero()) => v.clone(),
            _ => {
                let (x, y) = (self.lower(a), self.lower(b));
                Sc::V(self.m.sub(&x, &y))
            }
        }
    }
    fn mul(&mut self, a: &Sc<M::S>, b: &Sc<M::S>) -> Sc<M::S> {
        match (a, b) {
            (Sc::C(x), Sc::C(y)) => Sc::C(*x * y),
            (Sc::C(z), _) | (_, Sc::C(z)) if bool::from(z.is_zero()) => Sc::C(Fr::ZERO),
            (Sc::C(o), v) | (v, Sc::C(o)) if *o == Fr::ONE => v.clone(),
            _ => {
                let (x, y) = (self.lower(a), self.lower(b));
                Sc::V(self.m.mul(&x, &y))
            }
        }
    }
    fn neg(&mut self, a: &Sc<M::S>) -> Sc<M::S> {
        self.sub(&Sc::C(Fr::ZERO), a)
    }
    fn c(&self, v: Fr) -> Sc<M::S> {
        Sc::C(v)
    }
    /// Inverses of all of `xs` with one hint (Montgomery's trick).
    fn batch_inv(&mut self, xs: &[Sc<M::S>]) -> Vec<Sc<M::S>> {
        let mut prefix = Vec::with_capacity(xs.len());
        let mut acc = Sc::C(Fr::ONE);
        for x in xs {
            prefix.push(acc.clone());
            acc = self.mul(&acc, x);
        }
        let mut inv = match &acc {
            Sc::C(c) => Sc::C(c.invert().expect("a constant denominator is zero")),
            Sc::V(v) => Sc::V(self.m.inv(v)),
        };
        let mut out = vec![Sc::C(Fr::ZERO); xs.len()];
        for i in (0..xs.len()).rev() {
            out[i] = self.mul(&inv, &prefix[i]);
            inv = self.mul(&inv, &xs[i]);
        }
        out
    }
    fn pow_const(&mut self, a: &Sc<M::S>, e: u64) -> Sc<M::S> {
        let mut r = Sc::C(Fr::ONE);
        for i in (0..64).rev() {
            r = self.mul(&r, &r.clone());
            if (e >> i) & 1 == 1 {
                r = self.mul(&r, a);
            }
        }
        r
    }
    fn squeeze(&mut self) -> Sc<M::S> {
        Sc::V(self.m.squeeze())
    }
    fn read_scalar(&mut self) -> Sc<M::S> {
        Sc::V(self.m.read_scalar())
    }
}

/// A commitment as the multi-open sees it: its identity is where it came from.
#[derive(Clone)]
enum Com<P> {
    One(P),
    /// The quotient's pieces, combined with powers of `x^(n-1)`.
    Chopped(Vec<P>),
}

struct Query<S, P> {
    rot: i32,
    com: usize,
    eval: Sc<S>,
    _p: std::marker::PhantomData<P>,
}

/// The layout of a verifier: how many instances each column has (what the proof is for).
#[derive(Clone, Debug)]
pub struct Shape {
    /// The number of public inputs in each instance column.
    pub instance_lens: Vec<usize>,
}

fn omega_pow(vk: &Vk, rot: i32) -> Fr {
    vk.get_domain().rotate_omega(Fr::ONE, Rotation(rot))
}

fn any_query_index(vk: &Vk, column: &midnight_proofs::plonk::Column<Any>) -> (u8, usize) {
    let cs = vk.cs();
    let idx = column.index();
    match column.column_type() {
        Any::Advice(_) => (
            0,
            cs.advice_queries()
                .iter()
                .position(|(c, r)| c.index() == idx && r.0 == 0)
                .expect("permuted advice column queried at cur"),
        ),
        Any::Fixed => (
            1,
            cs.fixed_queries()
                .iter()
                .position(|(c, r)| c.index() == idx && r.0 == 0)
                .expect("permuted fixed column queried at cur"),
        ),
        Any::Instance => (
            2,
            cs.instance_queries()
                .iter()
                .position(|(c, r)| c.index() == idx && r.0 == 0)
                .expect("permuted instance column queried at cur"),
        ),
    }
}

struct Evals<S> {
    advice: Vec<Sc<S>>,
    fixed: Vec<Sc<S>>,
    instance: Vec<Sc<S>>,
    challenges: Vec<Sc<S>>,
}

fn eval_expr<M: Machine>(ctx: &mut Ctx<'_, M>, e: &Expression<Fr>, ev: &Evals<M::S>) -> Sc<M::S> {
    match e {
        Expression::Constant(c) => Sc::C(*c),
        Expression::Selector(_) => panic!("virtual selectors are removed by keygen"),
        Expression::Fixed(q) => ev.fixed[q.index().expect("indexed query")].clone(),
        Expression::Advice(q) => ev.advice[q.index.expect("indexed query")].clone(),
        Expression::Instance(q) => ev.instance[q.index.expect("indexed query")].clone(),
        Expression::Challenge(c) => ev.challenges[c.index()].clone(),
        Expression::Negated(a) => {
            let a = eval_expr(ctx, a, ev);
            ctx.neg(&a)
        }
        Expression::Sum(a, b) => {
            let (a, b) = (eval_expr(ctx, a, ev), eval_expr(ctx, b, ev));
            ctx.add(&a, &b)
        }
        Expression::Product(a, b) => {
            let (a, b) = (eval_expr(ctx, a, ev), eval_expr(ctx, b, ev));
            ctx.mul(&a, &b)
        }
        Expression::Scaled(a, s) => {
            let a = eval_expr(ctx, a, ev);
            ctx.mul(&a, &Sc::C(*s))
        }
    }
}

/// Runs the verifier of `vk` for one proof with public inputs of `shape` on machine `m`.
///
/// Panics on verifying keys this generator does not cover: committed instances and more than
/// one proof per call (midnight-proofs' batch form).
pub fn run<M: Machine>(m: &mut M, vk: &Vk, shape: &Shape) {
    let cs = vk.cs();
    assert_eq!(
        shape.instance_lens.len(),
        cs.num_instance_columns(),
        "one length per instance column"
    );
    let mut ctx = Ctx { m };
    let n = vk.n();

    // Transcript: the key's representative, then each instance column's length and values.
    ctx.m.absorb_bytes(&vk.transcript_repr().to_repr());
    let mut inst_vals: Vec<Vec<Sc<M::S>>> = vec![];
    for (col, &len) in shape.instance_lens.iter().enumerate() {
        let l = ctx.lower(&Sc::C(Fr::from(len as u64)));
        ctx.m.absorb_scalar(&l);
        let mut vals = vec![];
        for row in 0..len {
            let v = ctx.m.instance(col, row);
            ctx.m.absorb_scalar(&v);
            vals.push(Sc::V(v));
        }
        inst_vals.push(vals);
    }

    // Advice commitments phase by phase, each phase's challenges after it.
    let adv_phase = cs.advice_column_phase();
    let ch_phase = cs.challenge_phase();
    let max_phase = adv_phase.iter().copied().max().unwrap_or(0);
    let mut advice_coms: Vec<Option<M::P>> = vec![None; cs.num_advice_columns()];
    let mut challenges = vec![Sc::C(Fr::ZERO); cs.num_challenges()];
    for phase in 0..=max_phase {
        for (i, p) in adv_phase.iter().enumerate() {
            if *p == phase {
                advice_coms[i] = Some(ctx.m.read_point());
            }
        }
        for (i, p) in ch_phase.iter().enumerate() {
            if *p == phase {
                challenges[i] = ctx.squeeze();
            }
        }
    }
    let advice_coms: Vec<M::P> = advice_coms
        .into_iter()
        .map(|c| c.expect("every phase read"))
        .collect();

    let theta = ctx.squeeze();
    let lookups = cs.lookups();
    let lookup_permuted: Vec<(M::P, M::P)> = lookups
        .iter()
        .map(|_| (ctx.m.read_point(), ctx.m.read_point()))
        .collect();
    let beta = ctx.squeeze();
    let gamma = ctx.squeeze();
    let chunk_len = cs.degree() - 2;
    let perm_columns = cs.permutation().get_columns();
    let perm_prod: Vec<M::P> = perm_columns
        .chunks(chunk_len)
        .map(|_| ctx.m.read_point())
        .collect();
    let lookup_prod: Vec<M::P> = lookups.iter().map(|_| ctx.m.read_point()).collect();
    let trash_challenge = ctx.squeeze();
    let trash_coms: Vec<M::P> = cs.trashcans().iter().map(|_| ctx.m.read_point()).collect();
    let random_com = ctx.m.read_point();
    let y = ctx.squeeze();
    let h_coms: Vec<M::P> = (0..vk.get_domain().get_quotient_poly_degree())
        .map(|_| ctx.m.read_point())
        .collect();
    let x = ctx.squeeze();
    let mut xn = x.clone();
    for _ in 0..vk.get_domain().k() {
        xn = ctx.mul(&xn, &xn.clone());
    }

    // Every inverse needed at x in one batch: the instance Lagrange basis, l_last..l_0, x^n - 1
    // and x (for x^(n-1)).
    let (min_rot, max_rot) = cs
        .instance_queries()
        .iter()
        .fold((0, 0), |(lo, hi), (_, r)| (lo.min(r.0), hi.max(r.0)));
    let max_len = shape.instance_lens.iter().copied().max().unwrap_or(0) as i32;
    let inst_rots: Vec<i32> = (-max_rot..max_len + min_rot.abs()).collect();
    let bf = cs.blinding_factors() as i32;
    let l_rots: Vec<i32> = (-(bf + 1)..=0).collect();
    let one = ctx.c(Fr::ONE);
    let mut dens = vec![];
    for r in inst_rots.iter().chain(l_rots.iter()) {
        let w = ctx.c(omega_pow(vk, *r));
        dens.push(ctx.sub(&x, &w));
    }
    let xn_minus_1 = ctx.sub(&xn, &one);
    dens.push(xn_minus_1.clone());
    dens.push(x.clone());
    let invs = ctx.batch_inv(&dens);
    let inv_xn_minus_1 = invs[dens.len() - 2].clone();
    let inv_x = invs[dens.len() - 1].clone();
    // l_i(x) = omega^i (x^n - 1) / (n (x - omega^i)).
    let n_inv = Fr::from(n).invert().unwrap();
    let common = {
        let c = ctx.c(n_inv);
        ctx.mul(&xn_minus_1, &c)
    };
    let lag = |ctx: &mut Ctx<'_, M>, r: i32, inv: &Sc<M::S>| {
        let t = ctx.mul(inv, &common);
        let w = ctx.c(omega_pow(vk, r));
        ctx.mul(&t, &w)
    };
    let l_inst: Vec<Sc<M::S>> = inst_rots
        .iter()
        .zip(&invs)
        .map(|(r, i)| lag(&mut ctx, *r, i))
        .collect();
    let l_evals: Vec<Sc<M::S>> = l_rots
        .iter()
        .zip(&invs[inst_rots.len()..])
        .map(|(r, i)| lag(&mut ctx, *r, i))
        .collect();
    let l_last = l_evals[0].clone();
    let mut l_blind = ctx.c(Fr::ZERO);
    for l in &l_evals[1..(1 + bf as usize)] {
        l_blind = ctx.add(&l_blind, l);
    }
    let l_0 = l_evals[1 + bf as usize].clone();

    let instance_evals: Vec<Sc<M::S>> = cs
        .instance_queries()
        .iter()
        .map(|(col, rot)| {
            let vals = &inst_vals[col.index()];
            let off = (max_rot - rot.0) as usize;
            let mut acc = ctx.c(Fr::ZERO);
            for (v, l) in vals.iter().zip(&l_inst[off..off + vals.len()]) {
                let t = ctx.mul(v, l);
                acc = ctx.add(&acc, &t);
            }
            acc
        })
        .collect();

    let advice_evals: Vec<_> = cs
        .advice_queries()
        .iter()
        .map(|_| ctx.read_scalar())
        .collect();
    let fixed_evals: Vec<_> = cs
        .fixed_queries()
        .iter()
        .map(|_| ctx.read_scalar())
        .collect();
    let random_eval = ctx.read_scalar();
    let perm_common: Vec<_> = vk
        .permutation()
        .commitments()
        .iter()
        .map(|_| ctx.read_scalar())
        .collect();
    // (eval, next, last) per permutation set; every set but the last has a `last`.
    let mut perm_sets = vec![];
    for i in 0..perm_prod.len() {
        let e = ctx.read_scalar();
        let nx = ctx.read_scalar();
        let last = if i + 1 < perm_prod.len() {
            Some(ctx.read_scalar())
        } else {
            None
        };
        perm_sets.push((e, nx, last));
    }
    // (product, product_next, permuted_input, permuted_input_inv, permuted_table) per lookup.
    let lookup_evals: Vec<[Sc<M::S>; 5]> = lookups
        .iter()
        .map(|_| std::array::from_fn(|_| ctx.read_scalar()))
        .collect();
    let trash_evals: Vec<_> = cs.trashcans().iter().map(|_| ctx.read_scalar()).collect();

    let ev = Evals {
        advice: advice_evals.clone(),
        fixed: fixed_evals.clone(),
        instance: instance_evals.clone(),
        challenges: challenges.clone(),
    };

    // The identities, in midnight-proofs' order, folded with y.
    let mut ids: Vec<Sc<M::S>> = vec![];
    for gate in cs.gates() {
        for poly in gate.polynomials() {
            ids.push(eval_expr(&mut ctx, poly, &ev));
        }
    }
    // Permutation.
    let active = {
        let t = ctx.add(&l_last, &l_blind);
        ctx.sub(&one, &t)
    };
    if let Some((first, _, _)) = perm_sets.first() {
        let t = ctx.sub(&one, first);
        ids.push(ctx.mul(&l_0, &t));
    }
    if let Some((last, _, _)) = perm_sets.last() {
        let sq = ctx.mul(last, last);
        let t = ctx.sub(&sq, last);
        ids.push(ctx.mul(&t, &l_last));
    }
    for i in 1..perm_sets.len() {
        let prev_last = perm_sets[i - 1].2.clone().expect("not the last set");
        let t = ctx.sub(&perm_sets[i].0, &prev_last);
        ids.push(ctx.mul(&t, &l_0));
    }
    let delta = <Fr as PrimeField>::DELTA;
    for (ci, (cols, pevals)) in perm_columns
        .chunks(chunk_len)
        .zip(perm_common.chunks(chunk_len))
        .enumerate()
    {
        let (e, nx, _) = perm_sets[ci].clone();
        let col_eval = |col| {
            let (kind, q) = any_query_index(vk, col);
            match kind {
                0 => ev.advice[q].clone(),
                1 => ev.fixed[q].clone(),
                _ => ev.instance[q].clone(),
            }
        };
        let mut left = nx;
        for (col, pe) in cols.iter().zip(pevals) {
            let bp = ctx.mul(&beta, pe);
            let t = ctx.add(&col_eval(col), &bp);
            let t = ctx.add(&t, &gamma);
            left = ctx.mul(&left, &t);
        }
        let mut right = e;
        let d0 = ctx.c(delta.pow_vartime([(ci * chunk_len) as u64]));
        let bx = ctx.mul(&beta, &x);
        let mut cur_delta = ctx.mul(&bx, &d0);
        for col in cols {
            let t = ctx.add(&col_eval(col), &cur_delta);
            let t = ctx.add(&t, &gamma);
            right = ctx.mul(&right, &t);
            let dc = ctx.c(delta);
            cur_delta = ctx.mul(&cur_delta, &dc);
        }
        let t = ctx.sub(&left, &right);
        ids.push(ctx.mul(&t, &active));
    }
    // Lookups.
    for (arg, [prod, prod_next, pin, pin_inv, ptab]) in lookups.iter().zip(&lookup_evals) {
        let t = ctx.sub(&one, prod);
        ids.push(ctx.mul(&l_0, &t));
        let sq = ctx.mul(prod, prod);
        let t = ctx.sub(&sq, prod);
        ids.push(ctx.mul(&l_last, &t));
        let a = ctx.add(pin, &beta);
        let b = ctx.add(ptab, &gamma);
        let left = ctx.mul(prod_next, &a);
        let left = ctx.mul(&left, &b);
        let compress = |ctx: &mut Ctx<'_, M>, es: &[Expression<Fr>]| {
            let mut acc = ctx.c(Fr::ZERO);
            for e in es {
                let v = eval_expr(ctx, e, &ev);
                let t = ctx.mul(&acc, &theta);
                acc = ctx.add(&t, &v);
            }
            acc
        };
        let ci = compress(&mut ctx, arg.input_expressions());
        let ct = compress(&mut ctx, arg.table_expressions());
        let a = ctx.add(&ci, &beta);
        let b = ctx.add(&ct, &gamma);
        let right = ctx.mul(prod, &a);
        let right = ctx.mul(&right, &b);
        let t = ctx.sub(&left, &right);
        ids.push(ctx.mul(&t, &active));
        let d = ctx.sub(pin, ptab);
        ids.push(ctx.mul(&l_0, &d));
        let d2 = ctx.sub(pin, pin_inv);
        let t = ctx.mul(&d, &d2);
        ids.push(ctx.mul(&t, &active));
    }
    // Trashcans.
    for (arg, te) in cs.trashcans().iter().zip(&trash_evals) {
        let mut acc = ctx.c(Fr::ZERO);
        for e in arg.constraint_expressions() {
            let v = eval_expr(&mut ctx, e, &ev);
            let t = ctx.mul(&acc, &trash_challenge);
            acc = ctx.add(&t, &v);
        }
        let q = eval_expr(&mut ctx, arg.selector(), &ev);
        let omq = ctx.sub(&one, &q);
        let t = ctx.mul(&omq, te);
        ids.push(ctx.sub(&acc, &t));
    }
    let mut h_eval = ctx.c(Fr::ZERO);
    for v in &ids {
        let t = ctx.mul(&h_eval, &y);
        h_eval = ctx.add(&t, v);
    }
    let expected_h_eval = ctx.mul(&h_eval, &inv_xn_minus_1);

    // The queries, in midnight-proofs' order. Commitments are told apart by where they come
    // from, as midnight-proofs compares them by address.
    let mut coms: Vec<Com<M::P>> = vec![];
    let mut queries: Vec<Query<M::S, M::P>> = vec![];
    let new_com = |coms: &mut Vec<Com<M::P>>, c: Com<M::P>| {
        coms.push(c);
        coms.len() - 1
    };
    let q = |rot: i32, com: usize, eval: &Sc<M::S>| Query {
        rot,
        com,
        eval: eval.clone(),
        _p: std::marker::PhantomData,
    };
    let advice_ids: Vec<usize> = advice_coms
        .iter()
        .map(|p| new_com(&mut coms, Com::One(p.clone())))
        .collect();
    for (i, (col, rot)) in cs.advice_queries().iter().enumerate() {
        queries.push(q(rot.0, advice_ids[col.index()], &advice_evals[i]));
    }
    let perm_ids: Vec<usize> = perm_prod
        .iter()
        .map(|p| new_com(&mut coms, Com::One(p.clone())))
        .collect();
    for (i, (e, nx, _)) in perm_sets.iter().enumerate() {
        queries.push(q(0, perm_ids[i], e));
        queries.push(q(1, perm_ids[i], nx));
    }
    for i in (0..perm_sets.len()).rev().skip(1) {
        queries.push(q(
            -(bf + 1),
            perm_ids[i],
            perm_sets[i].2.as_ref().expect("not the last set"),
        ));
    }
    for (((pin_c, ptab_c), prod_c), [prod, prod_next, pin, pin_inv, ptab]) in
        lookup_permuted.iter().zip(&lookup_prod).zip(&lookup_evals)
    {
        let prod_id = new_com(&mut coms, Com::One(prod_c.clone()));
        let pin_id = new_com(&mut coms, Com::One(pin_c.clone()));
        let ptab_id = new_com(&mut coms, Com::One(ptab_c.clone()));
        queries.push(q(0, prod_id, prod));
        queries.push(q(0, pin_id, pin));
        queries.push(q(0, ptab_id, ptab));
        queries.push(q(-1, pin_id, pin_inv));
        queries.push(q(1, prod_id, prod_next));
    }
    for (c, e) in trash_coms.iter().zip(&trash_evals) {
        let id = new_com(&mut coms, Com::One(c.clone()));
        queries.push(q(0, id, e));
    }
    let fixed_ids: Vec<usize> = vk
        .fixed_commitments()
        .iter()
        .map(|c| {
            let p = ctx.m.const_point(c);
            new_com(&mut coms, Com::One(p))
        })
        .collect();
    for (i, (col, rot)) in cs.fixed_queries().iter().enumerate() {
        queries.push(q(rot.0, fixed_ids[col.index()], &fixed_evals[i]));
    }
    for (c, e) in vk.permutation().commitments().iter().zip(&perm_common) {
        let p = ctx.m.const_point(c);
        let id = new_com(&mut coms, Com::One(p));
        queries.push(q(0, id, e));
    }
    let h_id = new_com(&mut coms, Com::Chopped(h_coms));
    queries.push(q(0, h_id, &expected_h_eval));
    let r_id = new_com(&mut coms, Com::One(random_com));
    queries.push(q(0, r_id, &random_eval));

    // construct_intermediate_sets: points by first appearance, commitments by first appearance,
    // point sets by first appearance over the commitments.
    let mut points: Vec<i32> = vec![];
    let mut com_order: Vec<usize> = vec![];
    let mut com_points: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for qu in &queries {
        let pi = match points.iter().position(|p| *p == qu.rot) {
            Some(i) => i,
            None => {
                points.push(qu.rot);
                points.len() - 1
            }
        };
        let e = com_points.entry(qu.com).or_insert_with(|| {
            com_order.push(qu.com);
            vec![]
        });
        assert!(!e.contains(&pi), "duplicated query");
        e.push(pi);
    }
    let mut sets: Vec<Vec<usize>> = vec![]; // sorted point indices
    let mut com_set: std::collections::HashMap<usize, usize> = Default::default();
    for c in &com_order {
        let mut s = com_points[c].clone();
        s.sort();
        let si = match sets.iter().position(|t| *t == s) {
            Some(i) => i,
            None => {
                sets.push(s);
                sets.len() - 1
            }
        };
        com_set.insert(*c, si);
    }
    // evals[com][position in its set's sorted points]
    let mut com_evals: std::collections::HashMap<usize, Vec<Sc<M::S>>> = Default::default();
    for qu in &queries {
        let s = &sets[com_set[&qu.com]];
        let pi = points.iter().position(|p| *p == qu.rot).unwrap();
        let pos = s.iter().position(|i| *i == pi).unwrap();
        com_evals
            .entry(qu.com)
            .or_insert_with(|| vec![Sc::C(Fr::ZERO); s.len()])[pos] = qu.eval.clone();
    }

    let x1 = ctx.squeeze();
    let x2 = ctx.squeeze();
    let set_coms: Vec<Vec<usize>> = (0..sets.len())
        .map(|si| {
            com_order
                .iter()
                .copied()
                .filter(|c| com_set[c] == si)
                .collect()
        })
        .collect();
    let max_coms = set_coms.iter().map(|v| v.len()).max().unwrap_or(0);
    let mut x1_pows = vec![ctx.c(Fr::ONE)];
    for i in 1..max_coms {
        let p = ctx.mul(&x1_pows[i - 1], &x1);
        x1_pows.push(p);
    }
    let mut order: Vec<usize> = (0..sets.len()).collect();
    order.sort_by_key(|&i| (sets[i].len(), i));

    // q_eval_sets per (sorted) set: per point, sum_j x1^j evals_j.
    let q_eval_sets: Vec<Vec<Sc<M::S>>> = order
        .iter()
        .map(|&si| {
            (0..sets[si].len())
                .map(|p| {
                    let mut acc = ctx.c(Fr::ZERO);
                    for (j, c) in set_coms[si].iter().enumerate() {
                        let t = ctx.mul(&com_evals[c][p], &x1_pows[j]);
                        acc = ctx.add(&acc, &t);
                    }
                    acc
                })
                .collect()
        })
        .collect();

    let f_com = ctx.m.read_point();
    let x3 = ctx.squeeze();
    let q_evals_on_x3: Vec<_> = order.iter().map(|_| ctx.read_scalar()).collect();
    let x4 = ctx.squeeze();

    // f_eval = sum_i x2^i (q_i(x3) - r_i(x3)) / prod_p (x3 - p), r_i interpolating set i.
    // Denominators: prod_p (x3 - p) per set, and x^(m-1) * const for the interpolation.
    let mut dens = vec![];
    let mut set_pts: Vec<Vec<Sc<M::S>>> = vec![];
    for &si in &order {
        let pts: Vec<Sc<M::S>> = sets[si]
            .iter()
            .map(|&pi| {
                let w = ctx.c(omega_pow(vk, points[pi]));
                ctx.mul(&x, &w)
            })
            .collect();
        let mut d = ctx.c(Fr::ONE);
        for p in &pts {
            let t = ctx.sub(&x3, p);
            d = ctx.mul(&d, &t);
        }
        dens.push(d);
        set_pts.push(pts);
    }
    let den_invs = ctx.batch_inv(&dens);
    let mut f_eval = ctx.c(Fr::ZERO);
    let mut x2_pow = ctx.c(Fr::ONE);
    for (k, &si) in order.iter().enumerate() {
        let evals = &q_eval_sets[k];
        let pts = &set_pts[k];
        let r_eval = if pts.len() == 1 {
            evals[0].clone()
        } else {
            // r(x3) = sum_j e_j prod_{k != j} (x3 - p_k) / (p_j - p_k), p_j - p_k = x (w_j - w_k).
            let ws: Vec<Fr> = sets[si]
                .iter()
                .map(|&pi| omega_pow(vk, points[pi]))
                .collect();
            let m1 = ws.len() as u64 - 1;
            let inv_x_m1 = ctx.pow_const(&inv_x, m1);
            let mut acc = ctx.c(Fr::ZERO);
            for j in 0..ws.len() {
                let mut cst = Fr::ONE;
                let mut num = ctx.c(Fr::ONE);
                for kk in 0..ws.len() {
                    if kk != j {
                        cst *= ws[j] - ws[kk];
                        let t = ctx.sub(&x3, &pts[kk]);
                        num = ctx.mul(&num, &t);
                    }
                }
                let c = ctx.c(cst.invert().unwrap());
                let t = ctx.mul(&num, &c);
                let t = ctx.mul(&t, &inv_x_m1);
                let t = ctx.mul(&t, &evals[j]);
                acc = ctx.add(&acc, &t);
            }
            acc
        };
        let t = ctx.sub(&q_evals_on_x3[k], &r_eval);
        let t = ctx.mul(&t, &den_invs[k]);
        let t = ctx.mul(&t, &x2_pow);
        f_eval = ctx.add(&f_eval, &t);
        x2_pow = ctx.mul(&x2_pow, &x2);
    }

    // The final MSM: sum_k x4^k q_com_k + x4^m f_com + x3 pi - v G.
    let split = {
        // x^(n-1) = x^n / x.
        ctx.mul(&xn, &inv_x)
    };
    let mut terms: Vec<(Sc<M::S>, M::P)> = vec![];
    let mut x4_pow = ctx.c(Fr::ONE);
    let mut v = ctx.c(Fr::ZERO);
    for (k, &si) in order.iter().enumerate() {
        for (j, c) in set_coms[si].iter().enumerate() {
            let s = ctx.mul(&x4_pow, &x1_pows[j]);
            match &coms[*c] {
                Com::One(p) => terms.push((s, p.clone())),
                Com::Chopped(parts) => {
                    let mut sc = s;
                    for p in parts {
                        terms.push((sc.clone(), p.clone()));
                        sc = ctx.mul(&sc, &split);
                    }
                }
            }
        }
        let t = ctx.mul(&q_evals_on_x3[k], &x4_pow);
        v = ctx.add(&v, &t);
        x4_pow = ctx.mul(&x4_pow, &x4);
    }
    terms.push((x4_pow.clone(), f_com));
    let t = ctx.mul(&f_eval, &x4_pow);
    v = ctx.add(&v, &t);
    let pi = ctx.m.read_point();
    ctx.m.end_of_proof();
    terms.push((x3, pi.clone()));
    let g = ctx.m.const_point(&G1Projective::generator());
    let neg_v = ctx.neg(&v);
    terms.push((neg_v, g));
    let lowered: Vec<(M::S, M::P)> = terms.into_iter().map(|(s, p)| (ctx.lower(&s), p)).collect();
    ctx.m.pairing_check(&pi, &lowered);
}
