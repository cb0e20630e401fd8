//! The verifier program emitted as Untyped Plutus Core (Plutus V3), with the `uplc` crate's AST.
//!
//! The program is one chain of `let`s (`(\v -> rest) value`), strict as UPLC is: each transcript
//! step, field operation and check in the order [`super::program::run`] makes them. Scalars are
//! integers; sums and differences are left unreduced (a product reduces mod r), which keeps every
//! value within a few times r. A failed check evaluates `error`.
//!
//! Constants that flat cannot hold (G1/G2 points) are compressed bytes uncompressed at run time.

use std::{collections::HashMap, rc::Rc};

use ff::PrimeField;
use group::{prime::PrimeCurveAffine, GroupEncoding};
use midnight_curves::{G1Projective, G2Affine};
use num_bigint::{BigInt, Sign};
use uplc::{
    ast::{Constant, Name, Term, Type, Unique},
    builtins::DefaultFunction as F,
};

use super::program::Machine;
use crate::backend::Fr;

/// How the final multi-scalar multiplication is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsmMode {
    /// `bls12_381_G1_scalarMul` and `bls12_381_G1_add` per term: what mainnet has today
    /// (protocol version 10).
    Fold,
    /// One `bls12_381_G1_multiScalarMul` (CIP-0133, protocol version 11).
    Builtin,
}

enum Piece {
    Const(Vec<u8>),
    Term(Term<Name>),
    Proof(usize, usize),
}

/// Emits the verifier as a chain of `let`s.
pub struct UplcMachine {
    binds: Vec<(Rc<Name>, Term<Name>)>,
    next: isize,
    r: Term<Name>,
    proof: Term<Name>,
    hints: Term<Name>,
    /// The lambda parameters, outermost first: proof, hints, then the public inputs.
    pub params: Vec<Rc<Name>>,
    instances: Vec<Vec<Term<Name>>>,
    pending: Vec<Piece>,
    state: Option<Term<Name>>,
    pos: usize,
    n_hints: usize,
    consts: HashMap<[u8; 32], Term<Name>>,
    /// `\a b -> (a * b) mod r` and `\c -> if c then () else error`, bound once: a call is a
    /// few bytes shorter than the inlined body, for a few more machine steps.
    mulmod: Term<Name>,
    assert: Term<Name>,
    /// Common subexpressions: a value already bound is not bound again.
    seen: HashMap<String, Term<Name>>,
    msm: MsmMode,
    s_g2: G2Affine,
}

fn b(f: F) -> Term<Name> {
    let t = Term::Builtin(f);
    // Polymorphic builtins take their type arguments as forces.
    match f {
        F::IfThenElse | F::MkCons => t.force(),
        _ => t,
    }
}

fn int(v: impl Into<BigInt>) -> Term<Name> {
    Term::integer(v.into())
}

fn fr_int(c: &Fr) -> BigInt {
    BigInt::from_bytes_le(Sign::Plus, &c.to_repr())
}

/// The BLS12-381 scalar field's order.
pub fn modulus() -> BigInt {
    fr_int(&(-Fr::from(1u64))) + 1
}

impl UplcMachine {
    /// A machine for `instance_lens[c]` public inputs in column `c`.
    pub fn new(instance_lens: &[usize], msm: MsmMode, s_g2: G2Affine) -> Self {
        let mut m = Self {
            binds: vec![],
            next: 0,
            r: Term::Error,
            proof: Term::Error,
            hints: Term::Error,
            params: vec![],
            instances: vec![],
            pending: vec![],
            state: None,
            pos: 0,
            n_hints: 0,
            consts: HashMap::new(),
            mulmod: Term::Error,
            assert: Term::Error,
            seen: HashMap::new(),
            msm,
            s_g2,
        };
        m.proof = m.param("proof");
        m.hints = m.param("hints");
        for (c, &len) in instance_lens.iter().enumerate() {
            let col = (0..len).map(|r| m.param(&format!("pi_{c}_{r}"))).collect();
            m.instances.push(col);
        }
        m.r = m.bind(int(modulus()));
        let (a, c) = (m.fresh("a"), m.fresh("b"));
        let body = Self::app(
            F::ModInteger,
            vec![
                Self::app(
                    F::MultiplyInteger,
                    vec![Term::Var(a.clone()), Term::Var(c.clone())],
                ),
                m.r.clone(),
            ],
        );
        let f = Term::Lambda {
            parameter_name: a,
            body: Term::Lambda {
                parameter_name: c,
                body: body.into(),
            }
            .into(),
        };
        m.mulmod = m.bind(f);
        let cond = m.fresh("c");
        let body = b(F::IfThenElse)
            .apply(Term::Var(cond.clone()))
            .apply(Term::unit().delay())
            .apply(Term::Error.delay())
            .force();
        m.assert = m.bind(Term::Lambda {
            parameter_name: cond,
            body: body.into(),
        });
        m
    }

    fn fresh(&mut self, text: &str) -> Rc<Name> {
        self.next += 1;
        Rc::new(Name {
            text: text.to_string(),
            unique: Unique::new(self.next),
        })
    }

    fn param(&mut self, text: &str) -> Term<Name> {
        let n = self.fresh(text);
        self.params.push(n.clone());
        Term::Var(n)
    }

    fn bind(&mut self, value: Term<Name>) -> Term<Name> {
        // Every bound value is a pure builtin expression (or a check, whose repeat is a no-op),
        // so an equal one already bound can stand for it.
        let key = format!("{value:?}");
        if let Some(t) = self.seen.get(&key) {
            return t.clone();
        }
        let n = self.fresh("v");
        self.binds.push((n.clone(), value));
        self.seen.insert(key, Term::Var(n.clone()));
        Term::Var(n)
    }

    /// Binds a check: `error` unless `cond`.
    pub fn check(&mut self, cond: Term<Name>) {
        let t = self.assert.clone().apply(cond);
        self.bind(t);
    }

    fn app(f: F, args: Vec<Term<Name>>) -> Term<Name> {
        args.into_iter().fold(b(f), |t, a| t.apply(a))
    }

    fn reduce(&self, t: &Term<Name>) -> Term<Name> {
        Self::app(F::ModInteger, vec![t.clone(), self.r.clone()])
    }

    fn slice(&self, of: &Term<Name>, start: usize, len: usize) -> Term<Name> {
        Self::app(
            F::SliceByteString,
            vec![int(start as u64), int(len as u64), of.clone()],
        )
    }

    fn uncompress_g1(&mut self, p: &G1Projective) -> Term<Name> {
        let bytes = p.to_bytes().as_ref().to_vec();
        self.bind(Self::app(
            F::Bls12_381_G1_Uncompress,
            vec![Term::byte_string(bytes)],
        ))
    }

    fn is_const(t: &Term<Name>, v: u64) -> bool {
        matches!(t, Term::Constant(c) if matches!(c.as_ref(), Constant::Integer(i) if *i == BigInt::from(v)))
    }

    /// Wraps the bindings around `body` and the parameters around that: the verifier as a
    /// function of the proof, the hints and the public inputs that returns `()` or fails.
    ///
    /// A binding used once is inlined at its use: UPLC is strict and every use is evaluated, so
    /// this changes no outcome, and it saves the `let`'s three machine steps and its bytes.
    /// A variable used often far below its binding gets an alias (`let v' = v`) near those
    /// uses (`with_near_aliases`): flat writes a variable's de Bruijn index in 7-bit groups.
    pub fn finish(self, body: Term<Name>) -> Term<Name> {
        let body_name = self.fresh_body_name();
        let mut uses: HashMap<isize, usize> = HashMap::new();
        for (_, v) in &self.binds {
            count_uses(v, &mut uses);
        }
        count_uses(&body, &mut uses);
        let mut inline: HashMap<isize, Term<Name>> = HashMap::new();
        let mut kept = vec![];
        for (n, v) in self.binds {
            let v = subst(&v, &inline);
            if uses.get(&unique(&n)) == Some(&1) {
                inline.insert(unique(&n), v);
            } else {
                kept.push((n, v));
            }
        }
        kept.push((body_name, subst(&body, &inline)));
        let kept = with_near_aliases(&self.params, kept, self.next + 1);
        lets_under(&self.params, kept)
    }

    /// A name for the body in [`with_near_aliases`]'s list (never bound).
    fn fresh_body_name(&self) -> Rc<Name> {
        Rc::new(Name {
            text: "body".into(),
            unique: Unique::new(self.next + 1),
        })
    }

    /// Binds the check that the hints are exactly the bytes the program reads: extra bytes
    /// would let anyone change a pending transaction's redeemer without changing its outcome.
    pub fn end_of_hints(&mut self) {
        let len = Self::app(F::LengthOfByteString, vec![self.hints.clone()]);
        let cond = Self::app(F::EqualsInteger, vec![len, int(32 * self.n_hints as u64)]);
        self.check(cond);
    }

    /// How many inverse hints the program reads.
    pub fn n_hints(&self) -> usize {
        self.n_hints
    }
}

fn unique(n: &Name) -> isize {
    n.unique.into()
}

/// Binders between a variable and its use below which flat writes the de Bruijn index in one
/// byte (indices from 1; seven bits).
const NEAR: usize = 127;

/// The `let` chain `binds` (its last entry the body, whose name is never bound) under
/// `params`, with aliases: where a variable's use is [`NEAR`] binders or more below its binding
/// (or its last alias), and it is used at least `MIN_USES` times in the next window, an alias
/// `let v' = v` is bound just above and those uses take `v'`. An alias costs about three bytes
/// and three machine steps; each use it serves saves a byte. Semantics are unchanged: the
/// alias is the same value, bound strictly.
fn with_near_aliases(
    params: &[Rc<Name>],
    binds: Vec<(Rc<Name>, Term<Name>)>,
    last_unique: isize,
) -> Vec<(Rc<Name>, Term<Name>)> {
    const MIN_USES: usize = 6;
    // The variables each binding uses, and where each variable is used (binding positions in
    // `binds`, with multiplicity).
    let mut vars_of: Vec<Vec<isize>> = Vec::with_capacity(binds.len());
    let mut used_at: HashMap<isize, Vec<usize>> = HashMap::new();
    for (i, (_, v)) in binds.iter().enumerate() {
        let mut here = HashMap::new();
        count_uses(v, &mut here);
        let mut vars: Vec<isize> = here.keys().copied().collect();
        vars.sort_unstable();
        vars_of.push(vars);
        for (u, times) in here {
            used_at
                .entry(u)
                .or_default()
                .extend(std::iter::repeat_n(i, times));
        }
    }
    let uses_in = |u: isize, from: usize, to: usize| -> usize {
        used_at.get(&u).map_or(0, |at| {
            at.partition_point(|&i| i < to) - at.partition_point(|&i| i < from)
        })
    };
    // Each variable's current name and the binder position it is bound at.
    let mut current: HashMap<isize, (Rc<Name>, usize)> = params
        .iter()
        .enumerate()
        .map(|(p, n)| (unique(n), (n.clone(), p)))
        .collect();
    let mut rename: HashMap<isize, Term<Name>> = HashMap::new();
    let mut next = last_unique + 1;
    let mut out = Vec::with_capacity(binds.len());
    for (i, ((n, v), vars)) in binds.into_iter().zip(vars_of).enumerate() {
        for u in vars {
            let Some((name, at)) = current.get(&u).cloned() else {
                continue;
            };
            let position = params.len() + out.len();
            if position - at < NEAR || uses_in(u, i, i + NEAR / 2) < MIN_USES {
                continue;
            }
            next += 1;
            let alias = Rc::new(Name {
                text: format!("{}_near", name.text),
                unique: Unique::new(next),
            });
            out.push((alias.clone(), Term::Var(name)));
            current.insert(u, (alias.clone(), position));
            rename.insert(u, Term::Var(alias));
        }
        let position = params.len() + out.len();
        out.push((n.clone(), subst(&v, &rename)));
        current.insert(unique(&n), (n, position));
    }
    out
}

/// `\\params -> let binds in body`, `binds`' last entry being the body (its name unbound).
fn lets_under(params: &[Rc<Name>], mut binds: Vec<(Rc<Name>, Term<Name>)>) -> Term<Name> {
    let (_, mut t) = binds.pop().expect("the body");
    for (n, v) in binds.into_iter().rev() {
        t = Term::Lambda {
            parameter_name: n,
            body: t.into(),
        }
        .apply(v);
    }
    for p in params.iter().rev() {
        t = Term::Lambda {
            parameter_name: p.clone(),
            body: t.into(),
        };
    }
    t
}

fn count_uses(t: &Term<Name>, uses: &mut HashMap<isize, usize>) {
    match t {
        Term::Var(n) => *uses.entry(unique(n)).or_default() += 1,
        Term::Delay(b) | Term::Force(b) => count_uses(b, uses),
        Term::Lambda { body, .. } => count_uses(body, uses),
        Term::Apply { function, argument } => {
            count_uses(function, uses);
            count_uses(argument, uses);
        }
        _ => {}
    }
}

fn subst(t: &Term<Name>, map: &HashMap<isize, Term<Name>>) -> Term<Name> {
    match t {
        Term::Var(n) => map.get(&unique(n)).cloned().unwrap_or_else(|| t.clone()),
        Term::Delay(b) => subst(b, map).delay(),
        Term::Force(b) => subst(b, map).force(),
        Term::Lambda {
            parameter_name,
            body,
        } => Term::Lambda {
            parameter_name: parameter_name.clone(),
            body: subst(body, map).into(),
        },
        Term::Apply { function, argument } => subst(function, map).apply(subst(argument, map)),
        _ => t.clone(),
    }
}

impl Machine for UplcMachine {
    type S = Term<Name>;
    type P = Term<Name>;

    fn konst(&mut self, c: Fr) -> Term<Name> {
        let v = fr_int(&c);
        if v.bits() <= 64 {
            return int(v);
        }
        // Large constants are bound once: a variable costs a byte or two, the constant 33.
        if let Some(t) = self.consts.get(&c.to_repr()) {
            return t.clone();
        }
        let t = self.bind(int(v));
        self.consts.insert(c.to_repr(), t.clone());
        t
    }
    fn add(&mut self, a: &Term<Name>, c: &Term<Name>) -> Term<Name> {
        self.bind(Self::app(F::AddInteger, vec![a.clone(), c.clone()]))
    }
    fn sub(&mut self, a: &Term<Name>, c: &Term<Name>) -> Term<Name> {
        self.bind(Self::app(F::SubtractInteger, vec![a.clone(), c.clone()]))
    }
    fn mul(&mut self, a: &Term<Name>, c: &Term<Name>) -> Term<Name> {
        let t = self.mulmod.clone().apply(a.clone()).apply(c.clone());
        self.bind(t)
    }
    fn inv(&mut self, a: &Term<Name>) -> Term<Name> {
        let k = self.n_hints;
        self.n_hints += 1;
        let s = self.slice(&self.hints.clone(), 32 * k, 32);
        let h = self.bind(Self::app(
            F::ByteStringToInteger,
            vec![Term::bool(false), s],
        ));
        let p = Self::app(F::MultiplyInteger, vec![a.clone(), h.clone()]);
        let cond = Self::app(F::EqualsInteger, vec![self.reduce(&p), int(1)]);
        self.check(cond);
        h
    }
    fn instance(&mut self, col: usize, row: usize) -> Term<Name> {
        self.instances[col][row].clone()
    }
    fn absorb_bytes(&mut self, bytes: &[u8]) {
        self.pending.push(Piece::Const(bytes.to_vec()));
    }
    fn absorb_scalar(&mut self, s: &Term<Name>) {
        if let Term::Constant(c) = s {
            if let Constant::Integer(i) = c.as_ref() {
                let mut le = i.to_bytes_le().1;
                le.resize(32, 0);
                self.pending.push(Piece::Const(le));
                return;
            }
        }
        let t = Self::app(
            F::IntegerToByteString,
            vec![Term::bool(false), int(32), self.reduce(s)],
        );
        self.pending.push(Piece::Term(t));
    }
    fn read_point(&mut self) -> Term<Name> {
        let (start, proof) = (self.pos, self.proof.clone());
        self.pos += 48;
        self.pending.push(Piece::Proof(start, 48));
        let s = self.slice(&proof, start, 48);
        self.bind(Self::app(F::Bls12_381_G1_Uncompress, vec![s]))
    }
    fn read_scalar(&mut self) -> Term<Name> {
        let (start, proof) = (self.pos, self.proof.clone());
        self.pos += 32;
        self.pending.push(Piece::Proof(start, 32));
        let s = self.slice(&proof, start, 32);
        let v = self.bind(Self::app(
            F::ByteStringToInteger,
            vec![Term::bool(false), s],
        ));
        // midnight-proofs refuses non-canonical scalars.
        let cond = Self::app(F::LessThanInteger, vec![v.clone(), self.r.clone()]);
        self.check(cond);
        v
    }
    fn squeeze(&mut self) -> Term<Name> {
        // Merge neighbouring pieces: one slice per run of proof bytes, one constant per run of
        // constants.
        let mut merged: Vec<Piece> = vec![];
        for p in self.pending.drain(..) {
            match (merged.last_mut(), p) {
                (Some(Piece::Proof(s, l)), Piece::Proof(s2, l2)) if *s + *l == s2 => *l += l2,
                (Some(Piece::Const(a)), Piece::Const(c)) => a.extend_from_slice(&c),
                (_, p) => merged.push(p),
            }
        }
        let mut parts: Vec<Term<Name>> = self.state.iter().cloned().collect();
        for p in merged {
            parts.push(match p {
                Piece::Const(c) => Term::byte_string(c),
                Piece::Term(t) => t,
                Piece::Proof(s, l) => self.slice(&self.proof.clone(), s, l),
            });
        }
        let data = parts
            .into_iter()
            .reduce(|acc, p| Self::app(F::AppendByteString, vec![acc, p]))
            .unwrap_or_else(|| Term::byte_string(vec![]));
        let h = self.bind(Self::app(F::Blake2b_256, vec![data]));
        self.state = Some(h.clone());
        // The challenge is the digest read little-endian, reduced mod r lazily.
        self.bind(Self::app(
            F::ByteStringToInteger,
            vec![Term::bool(false), h],
        ))
    }
    fn const_point(&mut self, p: &G1Projective) -> Term<Name> {
        self.uncompress_g1(p)
    }
    fn end_of_proof(&mut self) {
        let len = Self::app(F::LengthOfByteString, vec![self.proof.clone()]);
        let cond = Self::app(F::EqualsInteger, vec![len, int(self.pos as u64)]);
        self.check(cond);
    }
    fn pairing_check(&mut self, pi: &Term<Name>, terms: &[(Term<Name>, Term<Name>)]) {
        let terms: Vec<_> = terms
            .iter()
            .filter(|(s, _)| !Self::is_const(s, 0))
            .cloned()
            .collect();
        let r = match self.msm {
            MsmMode::Builtin => {
                let mut scalars = Term::Constant(Constant::ProtoList(Type::Integer, vec![]).into());
                let mut points =
                    Term::Constant(Constant::ProtoList(Type::Bls12_381G1Element, vec![]).into());
                for (s, p) in terms.iter().rev() {
                    // The builtin takes scalars up to 4095 bits: ours are a few times r.
                    scalars = Self::app(F::MkCons, vec![s.clone(), scalars]);
                    points = Self::app(F::MkCons, vec![p.clone(), points]);
                }
                self.bind(Self::app(
                    F::Bls12_381_G1_MultiScalarMul,
                    vec![scalars, points],
                ))
            }
            MsmMode::Fold => {
                let mut acc: Option<Term<Name>> = None;
                for (s, p) in &terms {
                    let t = if Self::is_const(s, 1) {
                        p.clone()
                    } else {
                        self.bind(Self::app(
                            F::Bls12_381_G1_ScalarMul,
                            vec![s.clone(), p.clone()],
                        ))
                    };
                    acc = Some(match acc {
                        None => t,
                        Some(a) => self.bind(Self::app(F::Bls12_381_G1_Add, vec![a, t])),
                    });
                }
                acc.expect("a non-empty MSM")
            }
        };
        let s_g2 = Term::byte_string(self.s_g2.to_bytes().as_ref().to_vec());
        let g2 = Term::byte_string(G2Affine::generator().to_bytes().as_ref().to_vec());
        let s_g2 = self.bind(Self::app(F::Bls12_381_G2_Uncompress, vec![s_g2]));
        let g2 = self.bind(Self::app(F::Bls12_381_G2_Uncompress, vec![g2]));
        let ml1 = self.bind(Self::app(F::Bls12_381_MillerLoop, vec![pi.clone(), s_g2]));
        let ml2 = self.bind(Self::app(F::Bls12_381_MillerLoop, vec![r, g2]));
        let cond = Self::app(F::Bls12_381_FinalVerify, vec![ml1, ml2]);
        self.check(cond);
    }
}

/// How many times each builtin occurs in `t`. The verifier is straight-line code, so on an
/// accepted proof each occurrence runs exactly once: this is the run's builtin profile.
pub fn builtin_counts(t: &Term<Name>) -> std::collections::BTreeMap<String, usize> {
    fn walk(t: &Term<Name>, out: &mut std::collections::BTreeMap<String, usize>) {
        match t {
            Term::Builtin(f) => *out.entry(format!("{f}")).or_default() += 1,
            Term::Delay(b) | Term::Force(b) => walk(b, out),
            Term::Lambda { body, .. } => walk(body, out),
            Term::Apply { function, argument } => {
                walk(function, out);
                walk(argument, out);
            }
            _ => {}
        }
    }
    let mut out = Default::default();
    walk(t, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use uplc::ast::{DeBruijn, NamedDeBruijn, Program};

    use super::*;

    /// Whether `program` applied to `x` evaluates without error.
    fn accepts(program: &Program<Name>, x: u64) -> bool {
        let applied: Program<NamedDeBruijn> = program
            .apply_term(&int(x))
            .try_into()
            .expect("closed program");
        applied.eval(Default::default()).result().is_ok()
    }

    /// The flat bytes of `program`.
    fn flat_len(program: &Program<Name>) -> usize {
        let p: Program<DeBruijn> = program.clone().try_into().expect("closed program");
        p.to_flat().expect("flat encodes").len()
    }

    fn name(text: &str, unique: isize) -> Rc<Name> {
        Rc::new(Name {
            text: text.into(),
            unique: Unique::new(unique),
        })
    }

    /// `\\x -> let v_1 = 1 + x; ...; v_n = v_(n-1) + x in check (v_n == expected)`, with
    /// and without near aliases.
    fn chain(n: usize, expected: u64, aliased: bool) -> Program<Name> {
        let x = name("x", 1);
        let mut binds = vec![];
        let mut last = int(1);
        for i in 0..n {
            let v = name("v", 2 + i as isize);
            binds.push((
                v.clone(),
                UplcMachine::app(F::AddInteger, vec![last, Term::Var(x.clone())]),
            ));
            last = Term::Var(v);
        }
        let check = b(F::IfThenElse)
            .apply(UplcMachine::app(
                F::EqualsInteger,
                vec![last, int(expected)],
            ))
            .apply(Term::unit().delay())
            .apply(Term::Error.delay())
            .force();
        binds.push((name("body", 2 + n as isize), check));
        let params = [x];
        let binds = if aliased {
            with_near_aliases(&params, binds, 3 + n as isize)
        } else {
            binds
        };
        Program {
            version: (1, 1, 0),
            term: lets_under(&params, binds),
        }
    }

    #[test]
    fn near_aliases_keep_the_value_and_shorten_the_script() {
        let n = 600;
        let (plain, aliased) = (
            chain(n, 1 + 5 * n as u64, false),
            chain(n, 1 + 5 * n as u64, true),
        );
        for program in [&plain, &aliased] {
            assert!(accepts(program, 5));
            assert!(!accepts(program, 6));
        }
        let (plain_bytes, aliased_bytes) = (flat_len(&plain), flat_len(&aliased));
        // x is used once per binding: every use past the first 127 takes two bytes unaliased.
        assert!(
            aliased_bytes + 300 < plain_bytes,
            "{aliased_bytes} aliased against {plain_bytes}"
        );
        // A short chain has nothing far to alias.
        assert_eq!(
            flat_len(&chain(100, 501, true)),
            flat_len(&chain(100, 501, false))
        );
    }
}
