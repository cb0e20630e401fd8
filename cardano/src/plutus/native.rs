//! The verifier program run natively on values: the reference the UPLC program is checked
//! against, itself checked against midnight-proofs, and the maker of the inverse hints that a
//! redeemer carries.

use ff::{Field, FromUniformBytes, PrimeField};
use group::{prime::PrimeCurveAffine, Curve, Group, GroupEncoding};
use midnight_curves::{pairing::Engine, G1Projective, G2Affine};

use super::program::Machine;
use crate::backend::{Bls12, Fr};

/// Runs the verifier on one proof.
pub struct NativeMachine<'a> {
    proof: &'a [u8],
    pos: usize,
    instances: Vec<Vec<Fr>>,
    state: Vec<u8>,
    s_g2: G2Affine,
    /// The inverses the program asked for, in order (the redeemer's hints).
    pub hints: Vec<Fr>,
    /// Whether every check so far passed.
    pub ok: bool,
}

impl<'a> NativeMachine<'a> {
    /// A machine for `proof` with `instances` (one vector per column), `s_g2 = [tau] G2`.
    pub fn new(proof: &'a [u8], instances: &[&[Fr]], s_g2: G2Affine) -> Self {
        Self {
            proof,
            pos: 0,
            instances: instances.iter().map(|v| v.to_vec()).collect(),
            state: vec![],
            s_g2,
            hints: vec![],
            ok: true,
        }
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let out = self.proof.get(self.pos..self.pos + n)?;
        self.pos += n;
        self.state.extend_from_slice(out);
        Some(out)
    }
}

impl Machine for NativeMachine<'_> {
    type S = Fr;
    type P = G1Projective;
    fn konst(&mut self, c: Fr) -> Fr {
        c
    }
    fn add(&mut self, a: &Fr, b: &Fr) -> Fr {
        a + b
    }
    fn sub(&mut self, a: &Fr, b: &Fr) -> Fr {
        a - b
    }
    fn mul(&mut self, a: &Fr, b: &Fr) -> Fr {
        a * b
    }
    fn inv(&mut self, a: &Fr) -> Fr {
        let i = Option::from(a.invert()).unwrap_or_else(|| {
            self.ok = false;
            Fr::ZERO
        });
        self.hints.push(i);
        i
    }
    fn instance(&mut self, col: usize, row: usize) -> Fr {
        self.instances[col][row]
    }
    fn absorb_bytes(&mut self, bytes: &[u8]) {
        self.state.extend_from_slice(bytes);
    }
    fn absorb_scalar(&mut self, s: &Fr) {
        self.state.extend_from_slice(&s.to_repr());
    }
    fn read_point(&mut self) -> G1Projective {
        let Some(b) = self.take(48) else {
            self.ok = false;
            return G1Projective::identity();
        };
        let mut repr = <G1Projective as GroupEncoding>::Repr::default();
        repr.as_mut().copy_from_slice(b);
        Option::from(G1Projective::from_bytes(&repr)).unwrap_or_else(|| {
            self.ok = false;
            G1Projective::identity()
        })
    }
    fn read_scalar(&mut self) -> Fr {
        let Some(b) = self.take(32) else {
            self.ok = false;
            return Fr::ZERO;
        };
        let mut repr = [0u8; 32];
        repr.copy_from_slice(b);
        Option::from(Fr::from_repr(repr)).unwrap_or_else(|| {
            self.ok = false;
            Fr::ZERO
        })
    }
    fn squeeze(&mut self) -> Fr {
        let h = blake2b_simd::Params::new()
            .hash_length(32)
            .hash(&self.state);
        self.state = h.as_bytes().to_vec();
        let mut wide = [0u8; 64];
        wide[..32].copy_from_slice(h.as_bytes());
        Fr::from_uniform_bytes(&wide)
    }
    fn const_point(&mut self, p: &G1Projective) -> G1Projective {
        *p
    }
    fn end_of_proof(&mut self) {
        if self.pos != self.proof.len() {
            self.ok = false;
        }
    }
    fn pairing_check(&mut self, pi: &G1Projective, terms: &[(Fr, G1Projective)]) {
        let r: G1Projective = terms.iter().map(|(s, p)| p * s).sum();
        let lhs = Bls12::pairing(&pi.to_affine(), &self.s_g2);
        let rhs = Bls12::pairing(&r.to_affine(), &G2Affine::generator());
        if lhs != rhs {
            self.ok = false;
        }
    }
}
