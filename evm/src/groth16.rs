//! The verifier program for a Groth16 wrapper: snark-verifier's own verifier of a halo2 proof,
//! recorded op by op, for `evm/groth16` (gnark) to replay inside a Groth16 circuit.
//!
//! snark-verifier writes its PLONK verifier once over a [`Loader`]: the native loader computes,
//! the EVM loader emits Yul, the halo2 loader lays out cells. [`Recorder`] is one more loader: it
//! computes every value natively (so that it also checks the proof) and writes each scalar and
//! point operation down as one [`Op`] of a straight-line [`Program`]. The Poseidon transcript is
//! snark-verifier's generic sponge over this loader (the SDK's width 3, rate 2, 8 full and 57
//! partial rounds), so the transcript arrives as plain multiplications and linear combinations.
//!
//! The program depends on the verifying key and the number of instances only; the values of one
//! proof are its [`ProgramWitness`]. `evm/groth16/PROGRAM.md` is the format, shared with the Go
//! side; [`Program::replay`] is the native twin of the gnark replay.
//!
//! The proof carries a KZG accumulator in its first instances (an aggregation circuit or a final
//! wrapper): the two accumulators (the proof's own and the carried one) are folded with a
//! challenge squeezed from the transcript after both are absorbed, into one pairing check.

use std::{
    cell::RefCell,
    collections::HashMap,
    fmt,
    ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign},
    rc::Rc,
};

use halo2_base::halo2_proofs::{
    arithmetic::CurveAffine,
    halo2curves::{
        bn256::{Bn256, Fq, Fr, G1Affine, G2Affine},
        group::{ff::PrimeField, prime::PrimeCurveAffine, Curve, Group},
        pairing::{MillerLoopResult, MultiMillerLoop},
    },
    plonk::VerifyingKey,
    poly::{commitment::ParamsProver, kzg::commitment::ParamsKZG},
};
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use snark_verifier_sdk::{
    halo2::POSEIDON_SPEC,
    snark_verifier::{
        loader::{EcPointLoader, LoadedEcPoint, LoadedScalar, Loader, ScalarLoader},
        pcs::{
            kzg::{KzgAccumulator, KzgSuccinctVerifyingKey, LimbsEncoding},
            AccumulatorEncoding,
        },
        system::halo2::{compile, Config},
        util::{
            arithmetic::{fe_to_fe, FieldOps},
            hash::Poseidon,
            transcript::{Transcript, TranscriptRead},
        },
        verifier::{plonk::PlonkSuccinctVerifier, SnarkVerifier},
        Error as VerifierError,
    },
    SHPLONK,
};

/// The accumulator's encoding in the instances: snark-verifier's 3 limbs of 88 bits a coordinate.
const LIMBS: usize = 3;
const LIMB_BITS: usize = 88;
/// The limbs of one accumulator (two points, two coordinates each).
pub const ACCUMULATOR_LIMBS: usize = 4 * LIMBS;

/// The program format's version (`evm/groth16/PROGRAM.md`).
pub const PROGRAM_VERSION: u32 = 1;

/// One operation of the verifier program (`evm/groth16/PROGRAM.md`). Scalars and points live in
/// two register files; `out` names the register an op produces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// `s[out] = v`.
    Const {
        /// Register.
        out: usize,
        /// Decimal value.
        v: String,
    },
    /// `s[out] = instances[i]`.
    Instance {
        /// Register.
        out: usize,
        /// Instance index.
        i: usize,
    },
    /// `s[out] = proof_scalars[i]`.
    ReadScalar {
        /// Register.
        out: usize,
        /// Index among the proof's scalars.
        i: usize,
    },
    /// `s[out] = c + sum coeff * s`.
    Lincomb {
        /// Register.
        out: usize,
        /// `(coefficient, register)` pairs, coefficients decimal.
        terms: Vec<(String, usize)>,
        /// Decimal constant.
        c: String,
    },
    /// `s[out] = s[a] * s[b]`.
    Mul {
        /// Register.
        out: usize,
        /// Left factor.
        a: usize,
        /// Right factor.
        b: usize,
    },
    /// `s[out] = 1 / s[a]` (unsatisfiable for zero).
    Inv {
        /// Register.
        out: usize,
        /// The inverted register.
        a: usize,
    },
    /// `s[a] == s[b]`.
    AssertEq {
        /// Left.
        a: usize,
        /// Right.
        b: usize,
    },
    /// `p[out] = (x, y)`, a constant point.
    PointConst {
        /// Register.
        out: usize,
        /// Decimal x.
        x: String,
        /// Decimal y.
        y: String,
    },
    /// `p[out] = proof_points[i]` (canonical, on the curve); `s[enc] = (x mod r, y mod r)`.
    ReadPoint {
        /// Point register.
        out: usize,
        /// Index among the proof's points.
        i: usize,
        /// The scalar registers of its transcript encoding.
        enc: [usize; 2],
    },
    /// `p[out]` from 88/88/78-bit little-endian limbs of x then y.
    PointFromLimbs {
        /// Register.
        out: usize,
        /// The six limb registers.
        limbs: [usize; 6],
    },
    /// `s[out] = (x mod r, y mod r)` of `p[p]`.
    EncodePoint {
        /// The two scalar registers.
        out: [usize; 2],
        /// The point.
        p: usize,
    },
    /// `p[out] = sum s * p`.
    Msm {
        /// Register.
        out: usize,
        /// `(scalar register, point register)` pairs.
        terms: Vec<(usize, usize)>,
    },
    /// `p[a] == p[b]`.
    PointAssertEq {
        /// Left.
        a: usize,
        /// Right.
        b: usize,
    },
    /// `e(p[lhs], [1]_2) * e(p[rhs], -[tau]_2) == 1`.
    PairingCheck {
        /// The left point.
        lhs: usize,
        /// The right point.
        rhs: usize,
    },
}

/// A G2 point in gnark-crypto's order: `[x.a0, x.a1, y.a0, y.a1]`, decimal.
pub type G2Words = [String; 4];

/// The two fixed G2 points of the pairing check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct G2Points {
    /// `[1]_2`.
    pub one: G2Words,
    /// `[tau]_2`.
    pub tau: G2Words,
}

/// The recorded verifier of one verifying key (`evm/groth16/PROGRAM.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    /// [`PROGRAM_VERSION`].
    pub version: u32,
    /// What it verifies.
    pub description: String,
    /// Instances of the proof (one column).
    pub num_instances: usize,
    /// The instances that become Groth16 public inputs, in order (the statement).
    pub public_instances: Vec<usize>,
    /// `Some("keccak256")`: the Groth16 circuit's one public input is `keccak256` of the
    /// public instances' 32-byte big-endian words, mod r (a contract hashes the statement it
    /// builds; one public input instead of one each). `None`: the public instances themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement_hash: Option<String>,
    /// Which contract's statement the public instances are
    /// ([`crate::certificate::StatementKind::name`]): the exporter writes it into the Groth16
    /// verifier (`STATEMENT_KIND`), and the contracts in front of that verifier refuse another
    /// kind. Set by whoever records the program from a key that says what it proves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement_kind: Option<String>,
    /// Scalars the proof holds.
    pub num_proof_scalars: usize,
    /// Points the proof holds.
    pub num_proof_points: usize,
    /// The pairing's fixed G2 points.
    pub g2: G2Points,
    /// The ops, in order.
    pub ops: Vec<Op>,
}

/// The values of one proof for a [`Program`], and every register's value (for debugging).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramWitness {
    /// The instances, decimal.
    pub instances: Vec<String>,
    /// The proof's scalars in reading order, decimal.
    pub proof_scalars: Vec<String>,
    /// The proof's points, `[x, y]` decimal.
    pub proof_points: Vec<[String; 2]>,
    /// Every scalar register's value.
    pub scalars: Vec<String>,
    /// Every point register's value.
    pub points: Vec<[String; 2]>,
}

fn dec<F: PrimeField<Repr = [u8; 32]>>(v: &F) -> String {
    BigUint::from_bytes_le(v.to_repr().as_ref()).to_str_radix(10)
}

fn from_dec<F: PrimeField<Repr = [u8; 32]>>(s: &str) -> Option<F> {
    let n = BigUint::parse_bytes(s.as_bytes(), 10)?;
    let mut bytes = n.to_bytes_le();
    if bytes.len() > 32 {
        return None;
    }
    bytes.resize(32, 0);
    let mut repr = [0u8; 32];
    repr.copy_from_slice(&bytes);
    Option::from(F::from_repr(repr))
}

fn point_words(p: &G1Affine) -> [String; 2] {
    [dec(&p.x), dec(&p.y)]
}

fn g2_words(p: &G2Affine) -> G2Words {
    [dec(&p.x.c0), dec(&p.x.c1), dec(&p.y.c0), dec(&p.y.c1)]
}

/// The tape a [`Recorder`] writes.
#[derive(Default)]
struct Tape {
    ops: Vec<Op>,
    scalars: Vec<Fr>,
    points: Vec<G1Affine>,
    constants: HashMap<[u8; 32], usize>,
    proof_scalars: Vec<Fr>,
    proof_points: Vec<G1Affine>,
    /// The first check that failed natively (the recorded program would be unsatisfiable).
    failed: Option<String>,
}

/// snark-verifier's loader that records: every value is computed natively and every operation
/// written down as an [`Op`].
#[derive(Clone, Default)]
pub struct Recorder(Rc<RefCell<Tape>>);

impl fmt::Debug for Recorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tape = self.0.borrow();
        write!(f, "Recorder({} ops)", tape.ops.len())
    }
}

/// A scalar register of a [`Recorder`].
#[derive(Clone)]
pub struct RecordedScalar {
    loader: Recorder,
    id: usize,
    value: Fr,
    constant: bool,
}

/// The register id of a constant identity point: it has no register, and an MSM drops its
/// terms (see `ec_point_load_const`).
const IDENTITY_CONST: usize = usize::MAX;

/// A point register of a [`Recorder`].
#[derive(Clone)]
pub struct RecordedPoint {
    loader: Recorder,
    id: usize,
    value: G1Affine,
}

impl fmt::Debug for RecordedScalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.id)
    }
}

impl fmt::Debug for RecordedPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.id)
    }
}

impl PartialEq for RecordedScalar {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.loader.0, &other.loader.0) && self.id == other.id
    }
}

impl PartialEq for RecordedPoint {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.loader.0, &other.loader.0) && self.id == other.id
    }
}

impl Recorder {
    fn scalar(&self, value: Fr, constant: bool, op: impl FnOnce(usize) -> Op) -> RecordedScalar {
        let mut tape = self.0.borrow_mut();
        let id = tape.scalars.len();
        tape.scalars.push(value);
        let op = op(id);
        tape.ops.push(op);
        RecordedScalar {
            loader: self.clone(),
            id,
            value,
            constant,
        }
    }

    fn point(&self, value: G1Affine, op: impl FnOnce(usize) -> Op) -> RecordedPoint {
        let mut tape = self.0.borrow_mut();
        let id = tape.points.len();
        tape.points.push(value);
        let op = op(id);
        tape.ops.push(op);
        RecordedPoint {
            loader: self.clone(),
            id,
            value,
        }
    }

    fn fail(&self, what: &str) {
        let mut tape = self.0.borrow_mut();
        if tape.failed.is_none() {
            tape.failed = Some(what.to_string());
        }
    }

    fn constant(&self, value: Fr) -> RecordedScalar {
        let key = value.to_repr();
        if let Some(&id) = self.0.borrow().constants.get(&key) {
            return RecordedScalar {
                loader: self.clone(),
                id,
                value,
                constant: true,
            };
        }
        let scalar = self.scalar(value, true, |out| Op::Const {
            out,
            v: dec(&value),
        });
        self.0.borrow_mut().constants.insert(key, scalar.id);
        scalar
    }

    /// `c + sum coeff * value`, folded to a constant when every value is one.
    fn lincomb(&self, terms: &[(Fr, &RecordedScalar)], c: Fr) -> RecordedScalar {
        let value = terms.iter().fold(c, |acc, (k, s)| acc + *k * s.value);
        let (constants, variables): (Vec<_>, Vec<_>) = terms.iter().partition(|(_, s)| s.constant);
        let c = constants.iter().fold(c, |acc, (k, s)| acc + *k * s.value);
        match variables.as_slice() {
            [] => self.constant(value),
            [(k, s)] if *k == Fr::one() && c == Fr::zero() => (*s).clone(),
            _ => self.scalar(value, false, |out| Op::Lincomb {
                out,
                terms: variables.iter().map(|(k, s)| (dec(k), s.id)).collect(),
                c: dec(&c),
            }),
        }
    }

    fn mul(&self, a: &RecordedScalar, b: &RecordedScalar) -> RecordedScalar {
        match (a.constant, b.constant) {
            (true, true) => self.constant(a.value * b.value),
            (true, false) => self.lincomb(&[(a.value, b)], Fr::zero()),
            (false, true) => self.lincomb(&[(b.value, a)], Fr::zero()),
            (false, false) => self.scalar(a.value * b.value, false, |out| Op::Mul {
                out,
                a: a.id,
                b: b.id,
            }),
        }
    }

    /// The transcript's encoding of a point: its coordinates reduced mod r.
    fn encode(&self, p: &RecordedPoint) -> [RecordedScalar; 2] {
        // The identity has no encoding (snark-verifier's transcript refuses it too): the replay
        // is unsatisfiable there, and `record` reports it instead of panicking on a bad proof.
        let (x, y): (Fr, Fr) = if bool::from(p.value.is_identity()) {
            self.fail("the identity is absorbed into the transcript");
            (Fr::zero(), Fr::zero())
        } else {
            (fe_to_fe(p.value.x), fe_to_fe(p.value.y))
        };
        let mut tape = self.0.borrow_mut();
        let sx = tape.scalars.len();
        tape.scalars.extend([x, y]);
        tape.ops.push(Op::EncodePoint {
            out: [sx, sx + 1],
            p: p.id,
        });
        drop(tape);
        [(sx, x), (sx + 1, y)].map(|(id, value)| RecordedScalar {
            loader: self.clone(),
            id,
            value,
            constant: false,
        })
    }
}

impl LoadedScalar<Fr> for RecordedScalar {
    type Loader = Recorder;

    fn loader(&self) -> &Recorder {
        &self.loader
    }

    fn pow_var(&self, _exp: &Self, _exp_max_bits: usize) -> Self {
        // snark-verifier's PLONK verifier raises only to constant powers (`pow_const`); the EVM
        // loader does not implement this either.
        unreachable!("the PLONK verifier does not raise to variable powers")
    }
}

impl FieldOps for RecordedScalar {
    fn invert(&self) -> Option<Self> {
        let inverse = Option::<Fr>::from(self.value.invert()).unwrap_or_else(|| {
            // A zero inverted: the replay is unsatisfiable; `record` reports it.
            self.loader.fail("a zero is inverted");
            Fr::zero()
        });
        Some(if self.constant {
            self.loader.constant(inverse)
        } else {
            self.loader
                .scalar(inverse, false, |out| Op::Inv { out, a: self.id })
        })
    }
}

macro_rules! scalar_ops {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, |$l:ident, $a:ident, $b:ident| $body:expr) => {
        impl $trait<&RecordedScalar> for RecordedScalar {
            type Output = RecordedScalar;
            fn $method(self, other: &RecordedScalar) -> RecordedScalar {
                let ($l, $a, $b) = (self.loader.clone(), &self, other);
                $body
            }
        }
        impl $trait<RecordedScalar> for RecordedScalar {
            type Output = RecordedScalar;
            fn $method(self, other: RecordedScalar) -> RecordedScalar {
                self.$method(&other)
            }
        }
        impl $assign<&RecordedScalar> for RecordedScalar {
            fn $assign_method(&mut self, other: &RecordedScalar) {
                *self = self.clone().$method(other);
            }
        }
        impl $assign<RecordedScalar> for RecordedScalar {
            fn $assign_method(&mut self, other: RecordedScalar) {
                *self = self.clone().$method(&other);
            }
        }
    };
}

scalar_ops!(Add, add, AddAssign, add_assign, |l, a, b| l
    .lincomb(&[(Fr::one(), a), (Fr::one(), b)], Fr::zero()));
scalar_ops!(Sub, sub, SubAssign, sub_assign, |l, a, b| l
    .lincomb(&[(Fr::one(), a), (-Fr::one(), b)], Fr::zero()));
scalar_ops!(Mul, mul, MulAssign, mul_assign, |l, a, b| l.mul(a, b));

impl Neg for RecordedScalar {
    type Output = RecordedScalar;
    fn neg(self) -> RecordedScalar {
        self.loader.lincomb(&[(-Fr::one(), &self)], Fr::zero())
    }
}

impl LoadedEcPoint<G1Affine> for RecordedPoint {
    type Loader = Recorder;

    fn loader(&self) -> &Recorder {
        &self.loader
    }
}

impl ScalarLoader<Fr> for Recorder {
    type LoadedScalar = RecordedScalar;

    fn load_const(&self, value: &Fr) -> RecordedScalar {
        self.constant(*value)
    }

    fn assert_eq(&self, annotation: &str, lhs: &RecordedScalar, rhs: &RecordedScalar) {
        if lhs.value != rhs.value {
            self.fail(annotation);
        }
        self.0.borrow_mut().ops.push(Op::AssertEq {
            a: lhs.id,
            b: rhs.id,
        });
    }

    fn sum_with_coeff_and_const(
        &self,
        values: &[(Fr, &RecordedScalar)],
        constant: Fr,
    ) -> RecordedScalar {
        self.lincomb(values, constant)
    }
}

impl EcPointLoader<G1Affine> for Recorder {
    type LoadedEcPoint = RecordedPoint;

    fn ec_point_load_const(&self, value: &G1Affine) -> RecordedPoint {
        let value = *value;
        if bool::from(value.is_identity()) {
            // A key commitment of an all-zero column (SNARK-Mithril's keys have one). It is no
            // point of the program (`point_const` is never the identity): an MSM drops its terms,
            // exactly ([s]O = O); any other use names no register and the replay refuses it.
            return RecordedPoint {
                loader: self.clone(),
                id: IDENTITY_CONST,
                value,
            };
        }
        self.point(value, |out| Op::PointConst {
            out,
            x: dec(&value.x),
            y: dec(&value.y),
        })
    }

    fn ec_point_assert_eq(&self, annotation: &str, lhs: &RecordedPoint, rhs: &RecordedPoint) {
        if lhs.value != rhs.value {
            self.fail(annotation);
        }
        self.0.borrow_mut().ops.push(Op::PointAssertEq {
            a: lhs.id,
            b: rhs.id,
        });
    }

    fn multi_scalar_multiplication(pairs: &[(&RecordedScalar, &RecordedPoint)]) -> RecordedPoint {
        let loader = pairs[0].1.loader.clone();
        let pairs: Vec<_> = pairs
            .iter()
            .filter(|(_, p)| p.id != IDENTITY_CONST)
            .copied()
            .collect();
        let pairs = pairs.as_slice();
        if pairs.is_empty() {
            loader.fail("an MSM of identity constants only");
            return RecordedPoint {
                loader,
                id: IDENTITY_CONST,
                value: G1Affine::identity(),
            };
        }
        // snark-verifier evaluates a lone commitment as an MSM of one term times one.
        if let [(scalar, point)] = pairs {
            if scalar.constant && scalar.value == Fr::one() {
                return (*point).clone();
            }
        }
        let value = pairs
            .iter()
            .fold(G1Affine::identity().to_curve(), |acc, (s, p)| {
                acc + p.value * s.value
            })
            .to_affine();
        loader.point(value, |out| Op::Msm {
            out,
            terms: pairs.iter().map(|(s, p)| (s.id, p.id)).collect(),
        })
    }
}

impl Loader<G1Affine> for Recorder {}

impl AccumulatorEncoding<G1Affine, Recorder> for LimbsEncoding<LIMBS, LIMB_BITS> {
    type Accumulator = KzgAccumulator<G1Affine, Recorder>;

    fn from_repr(limbs: &[&RecordedScalar]) -> Result<Self::Accumulator, VerifierError> {
        if limbs.len() != ACCUMULATOR_LIMBS {
            return Err(VerifierError::InvalidInstances);
        }
        let loader = limbs[0].loader.clone();
        let mut points = Vec::with_capacity(2);
        for point in limbs.chunks(2 * LIMBS) {
            let coordinate = |limbs: &[&RecordedScalar]| -> Result<Fq, VerifierError> {
                let mut value = BigUint::default();
                for (i, limb) in limbs.iter().enumerate() {
                    let limb = BigUint::from_bytes_le(limb.value.to_repr().as_ref());
                    if limb.bits() > LIMB_BITS as u64 {
                        return Err(VerifierError::InvalidInstances);
                    }
                    value += limb << (LIMB_BITS * i);
                }
                from_dec(&value.to_str_radix(10)).ok_or(VerifierError::InvalidInstances)
            };
            let (x, y) = (coordinate(&point[..LIMBS])?, coordinate(&point[LIMBS..])?);
            let value = Option::<G1Affine>::from(G1Affine::from_xy(x, y))
                .ok_or(VerifierError::InvalidInstances)?;
            let ids: [usize; 6] = std::array::from_fn(|i| point[i].id);
            points.push(loader.point(value, |out| Op::PointFromLimbs { out, limbs: ids }));
        }
        let rhs = points.pop().unwrap();
        let lhs = points.pop().unwrap();
        Ok(KzgAccumulator::new(lhs, rhs))
    }
}

/// snark-verifier's Poseidon transcript (the SDK's parameters) over a [`Recorder`], reading a
/// proof's bytes.
struct RecordingTranscript<'a> {
    loader: Recorder,
    proof: &'a [u8],
    /// Made-up values instead of `proof` (the program alone, see [`program_of_key`]): the count
    /// of values made so far.
    synthetic: Option<u64>,
    sponge: Poseidon<Fr, RecordedScalar, 3, 2>,
}

/// The `i`-th made-up scalar of a synthetic transcript: Keccak-derived, so nonzero and distinct
/// from anything the verifier divides by, except with negligible probability.
fn made_up(label: &str, i: u64) -> Fr {
    use halo2_base::halo2_proofs::halo2curves::ff::FromUniformBytes;
    use sha3::{Digest, Keccak256};
    let mut wide = [0u8; 64];
    for (half, chunk) in wide.chunks_mut(32).enumerate() {
        let digest = Keccak256::new()
            .chain_update(b"tms groth16 program of a key: ")
            .chain_update(label.as_bytes())
            .chain_update(i.to_le_bytes())
            .chain_update([half as u8])
            .finalize();
        chunk.copy_from_slice(&digest);
    }
    Fr::from_uniform_bytes(&wide)
}

impl RecordingTranscript<'_> {
    fn next_made_up(&mut self, label: &str) -> Option<Fr> {
        let i = self.synthetic.as_mut()?;
        *i += 1;
        Some(made_up(label, *i))
    }
}

impl Transcript<G1Affine, Recorder> for RecordingTranscript<'_> {
    fn loader(&self) -> &Recorder {
        &self.loader
    }

    fn squeeze_challenge(&mut self) -> RecordedScalar {
        self.sponge.squeeze()
    }

    fn common_ec_point(&mut self, ec_point: &RecordedPoint) -> Result<(), VerifierError> {
        let encoded = self.loader.encode(ec_point);
        self.sponge.update(&encoded);
        Ok(())
    }

    fn common_scalar(&mut self, scalar: &RecordedScalar) -> Result<(), VerifierError> {
        self.sponge.update(std::slice::from_ref(scalar));
        Ok(())
    }
}

fn truncated() -> VerifierError {
    VerifierError::Transcript(
        std::io::ErrorKind::UnexpectedEof,
        "the proof ends early".into(),
    )
}

impl TranscriptRead<G1Affine, Recorder> for RecordingTranscript<'_> {
    fn read_scalar(&mut self) -> Result<RecordedScalar, VerifierError> {
        let value = match self.next_made_up("scalar") {
            Some(value) => value,
            None => {
                let (bytes, rest) = self.proof.split_first_chunk::<32>().ok_or_else(truncated)?;
                self.proof = rest;
                Option::<Fr>::from(Fr::from_repr(*bytes)).ok_or_else(|| {
                    VerifierError::Transcript(
                        std::io::ErrorKind::InvalidData,
                        "a scalar of the proof is not canonical".into(),
                    )
                })?
            }
        };
        let i = {
            let mut tape = self.loader.0.borrow_mut();
            tape.proof_scalars.push(value);
            tape.proof_scalars.len() - 1
        };
        let scalar = self
            .loader
            .scalar(value, false, |out| Op::ReadScalar { out, i });
        self.common_scalar(&scalar)?;
        Ok(scalar)
    }

    fn read_ec_point(&mut self) -> Result<RecordedPoint, VerifierError> {
        use halo2_base::halo2_proofs::halo2curves::group::GroupEncoding;
        let value = match self.next_made_up("point") {
            Some(scalar) => (G1Affine::generator() * scalar).to_affine(),
            None => {
                let (bytes, rest) = self.proof.split_first_chunk::<32>().ok_or_else(truncated)?;
                self.proof = rest;
                let mut repr = <G1Affine as GroupEncoding>::Repr::default();
                repr.as_mut().copy_from_slice(bytes);
                Option::<G1Affine>::from(G1Affine::from_bytes(&repr))
                    .filter(|p| !bool::from(p.is_identity()))
                    .ok_or_else(|| {
                        VerifierError::Transcript(
                            std::io::ErrorKind::InvalidData,
                            "a point of the proof is not on the curve (or is the identity)".into(),
                        )
                    })?
            }
        };
        let i = {
            let mut tape = self.loader.0.borrow_mut();
            tape.proof_points.push(value);
            tape.proof_points.len() - 1
        };
        let coordinates = value.coordinates().unwrap();
        let enc: [Fr; 2] = [fe_to_fe(*coordinates.x()), fe_to_fe(*coordinates.y())];
        let point = {
            let mut tape = self.loader.0.borrow_mut();
            let sx = tape.scalars.len();
            tape.scalars.extend(enc);
            let out = tape.points.len();
            tape.points.push(value);
            tape.ops.push(Op::ReadPoint {
                out,
                i,
                enc: [sx, sx + 1],
            });
            drop(tape);
            let encoded = [(sx, enc[0]), (sx + 1, enc[1])].map(|(id, value)| RecordedScalar {
                loader: self.loader.clone(),
                id,
                value,
                constant: false,
            });
            self.sponge.update(&encoded);
            RecordedPoint {
                loader: self.loader.clone(),
                id: out,
                value,
            }
        };
        Ok(point)
    }
}

/// What can go wrong while recording.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// snark-verifier refused the proof (or could not compile the key).
    #[error("the halo2 verifier refused: {0}")]
    Refused(String),
    /// The pairing check of the folded accumulator does not hold.
    #[error("the pairing check does not hold")]
    Pairing,
    /// Bytes left after the proof.
    #[error("{0} bytes after the proof")]
    Trailing(usize),
    /// A malformed program or witness file.
    #[error("malformed program or witness: {0}")]
    Malformed(String),
}

/// Records snark-verifier's verifier of `vk` (SHPLONK, Poseidon transcript, one instance
/// column) on one proof: the program, and the witness of that proof. `carries_accumulator`: the
/// first [`ACCUMULATOR_LIMBS`] instances hold a KZG accumulator (an aggregation circuit's or a
/// final wrapper's), folded into the one pairing check. `public_instances` are the instance
/// indices that become the Groth16 circuit's public inputs. An error if the proof does not
/// verify.
pub fn record(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instances: &[Fr],
    carries_accumulator: bool,
    proof: &[u8],
    public_instances: &[usize],
    description: &str,
) -> Result<(Program, ProgramWitness), ProgramError> {
    record_with(
        params,
        vk,
        instances,
        carries_accumulator,
        proof,
        false,
        public_instances,
        description,
    )
}

/// The program of `vk` alone, for `num_instances` instances (the first [`ACCUMULATOR_LIMBS`] an
/// accumulator if `carries_accumulator`), without a proof: the verifier replayed on made-up
/// values, which changes no op (the ops follow the key, never the values). What a verifier
/// regenerates from the key it trusts, to compare with the program a Groth16 setup was made
/// for.
pub fn program_of_key(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instances: usize,
    carries_accumulator: bool,
    public_instances: &[usize],
    description: &str,
) -> Result<Program, ProgramError> {
    let accumulator_limbs = if carries_accumulator {
        ACCUMULATOR_LIMBS
    } else {
        0
    };
    // Valid accumulator points (their limbs must decode), then made-up statement words.
    let point = |i| (G1Affine::generator() * made_up("accumulator", i)).to_affine();
    let mut instances: Vec<Fr> = if carries_accumulator {
        let (lhs, rhs) = (point(0), point(1));
        [lhs.x, lhs.y, rhs.x, rhs.y]
            .iter()
            .flat_map(|c| {
                let n = BigUint::from_bytes_le(c.to_repr().as_ref());
                (0..LIMBS).map(move |j| {
                    let limb: BigUint = (&n >> (LIMB_BITS * j)) % (BigUint::from(1u8) << LIMB_BITS);
                    from_dec::<Fr>(&limb.to_str_radix(10)).unwrap()
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    instances
        .extend((accumulator_limbs as u64..num_instances as u64).map(|i| made_up("instance", i)));
    record_with(
        params,
        vk,
        &instances,
        carries_accumulator,
        &[],
        true,
        public_instances,
        description,
    )
    .map(|(program, _)| program)
}

#[allow(clippy::too_many_arguments)]
fn record_with(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instances: &[Fr],
    carries_accumulator: bool,
    proof: &[u8],
    synthetic: bool,
    public_instances: &[usize],
    description: &str,
) -> Result<(Program, ProgramWitness), ProgramError> {
    let accumulator_limbs = if carries_accumulator {
        ACCUMULATOR_LIMBS
    } else {
        0
    };
    if instances.len() < accumulator_limbs || public_instances.iter().any(|&i| i >= instances.len())
    {
        return Err(ProgramError::Malformed(format!(
            "{} instances ({accumulator_limbs} of them the accumulator), public {public_instances:?}",
            instances.len()
        )));
    }
    let refused = |e: VerifierError| ProgramError::Refused(format!("{e:?}"));
    let protocol = compile(
        params,
        vk,
        Config::kzg()
            .with_num_instance(vec![instances.len()])
            .with_accumulator_indices(
                carries_accumulator.then(|| (0..ACCUMULATOR_LIMBS).map(|i| (0, i)).collect()),
            ),
    );
    let svk: KzgSuccinctVerifyingKey<G1Affine> = params.get_g()[0].into();

    let loader = Recorder::default();
    let protocol = protocol.loaded(&loader);
    let loaded_instances: Vec<RecordedScalar> = instances
        .iter()
        .enumerate()
        .map(|(i, &value)| loader.scalar(value, false, |out| Op::Instance { out, i }))
        .collect();
    let mut transcript = RecordingTranscript {
        loader: loader.clone(),
        proof,
        synthetic: synthetic.then_some(0),
        sponge: Poseidon::from_spec(&loader, POSEIDON_SPEC.clone()),
    };
    type Verifier = PlonkSuccinctVerifier<SHPLONK, LimbsEncoding<LIMBS, LIMB_BITS>>;
    let instances_column = vec![loaded_instances];
    let read = Verifier::read_proof(&svk, &protocol, &instances_column, &mut transcript)
        .map_err(refused)?;
    if !transcript.proof.is_empty() {
        return Err(ProgramError::Trailing(transcript.proof.len()));
    }
    let accumulators =
        Verifier::verify(&svk, &protocol, &instances_column, &read).map_err(refused)?;

    // Fold the accumulators (the proof's own, then a carried one) with a challenge squeezed
    // after all of them are absorbed; a lone accumulator is checked as it is.
    for accumulator in accumulators.iter().filter(|_| accumulators.len() > 1) {
        transcript
            .common_ec_point(&accumulator.lhs)
            .map_err(refused)?;
        transcript
            .common_ec_point(&accumulator.rhs)
            .map_err(refused)?;
    }
    let powers = if accumulators.len() > 1 {
        transcript.squeeze_challenge().powers(accumulators.len())
    } else {
        vec![loader.load_one()]
    };
    let fold = |side: &dyn Fn(&KzgAccumulator<G1Affine, Recorder>) -> &RecordedPoint| {
        let pairs: Vec<(&RecordedScalar, &RecordedPoint)> =
            powers.iter().zip(accumulators.iter().map(side)).collect();
        Recorder::multi_scalar_multiplication(&pairs)
    };
    let lhs = fold(&|a| &a.lhs);
    let rhs = fold(&|a| &a.rhs);
    let (g2, s_g2) = (params.g2(), params.s_g2());
    let holds =
        Bn256::multi_miller_loop(&[(&lhs.value, &g2.into()), (&rhs.value, &(-s_g2).into())])
            .final_exponentiation()
            .is_identity();
    if !bool::from(holds) && !synthetic {
        return Err(ProgramError::Pairing);
    }
    loader.0.borrow_mut().ops.push(Op::PairingCheck {
        lhs: lhs.id,
        rhs: rhs.id,
    });

    drop((
        protocol,
        transcript,
        instances_column,
        read,
        accumulators,
        powers,
        lhs,
        rhs,
    ));
    let tape = Rc::try_unwrap(loader.0)
        .map_err(|_| ProgramError::Malformed("the recorder is still shared".into()))?
        .into_inner();
    match tape.failed {
        Some(failed) if !synthetic => return Err(ProgramError::Refused(failed)),
        _ => {}
    }
    let program = Program {
        version: PROGRAM_VERSION,
        description: description.to_string(),
        num_instances: instances.len(),
        public_instances: public_instances.to_vec(),
        statement_hash: None,
        statement_kind: None,
        num_proof_scalars: tape.proof_scalars.len(),
        num_proof_points: tape.proof_points.len(),
        g2: G2Points {
            one: g2_words(&g2),
            tau: g2_words(&s_g2),
        },
        ops: tape.ops,
    };
    let witness = ProgramWitness {
        instances: instances.iter().map(dec).collect(),
        proof_scalars: tape.proof_scalars.iter().map(dec).collect(),
        proof_points: tape.proof_points.iter().map(point_words).collect(),
        scalars: tape.scalars.iter().map(dec).collect(),
        points: tape.points.iter().map(point_words).collect(),
    };
    Ok((program, witness))
}

/// A coordinate from three little-endian limbs of 88, 88 and 78 bits (each within its width),
/// canonical.
fn coordinate_from_limbs(limbs: &[Fr]) -> Option<Fq> {
    let widths = [LIMB_BITS, LIMB_BITS, 254 - 2 * LIMB_BITS];
    let mut value = BigUint::default();
    for (i, (limb, width)) in limbs.iter().zip(widths).enumerate() {
        let limb = BigUint::from_bytes_le(limb.to_repr().as_ref());
        if limb.bits() > width as u64 {
            return None;
        }
        value += limb << (LIMB_BITS * i);
    }
    from_dec(&value.to_str_radix(10))
}

impl Program {
    /// The program labelled with what its statement is (the contract kind in front of its
    /// Groth16 verifier): the recorder knows it from the key file's header.
    pub fn with_statement_kind(self, kind: crate::certificate::StatementKind) -> Self {
        Self {
            statement_kind: Some(kind.name().to_string()),
            ..self
        }
    }

    /// Replays the program natively on `witness` (the twin of the gnark circuit): `Ok` when
    /// every assertion and the pairing check hold, otherwise the first op that fails. The
    /// witness's register values are not trusted: they are only compared, to name the first op
    /// whose value differs (`Err` names it too).
    pub fn replay(&self, witness: &ProgramWitness) -> Result<(), String> {
        let parse = |s: &str| from_dec::<Fr>(s).ok_or_else(|| format!("not a scalar: {s}"));
        let parse_q = |s: &str| from_dec::<Fq>(s).ok_or_else(|| format!("not a coordinate: {s}"));
        let point = |[x, y]: &[String; 2]| -> Result<G1Affine, String> {
            Option::from(G1Affine::from_xy(parse_q(x)?, parse_q(y)?))
                .ok_or_else(|| format!("({x}, {y}) is not on the curve"))
        };
        let instances = witness
            .instances
            .iter()
            .map(|s| parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        let proof_scalars = witness
            .proof_scalars
            .iter()
            .map(|s| parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        // A proof point is never the identity: the transcript cannot encode it.
        let proof_points = witness
            .proof_points
            .iter()
            .map(|p| {
                point(p).and_then(|q| {
                    if bool::from(q.is_identity()) {
                        Err("a proof point is the identity".to_string())
                    } else {
                        Ok(q)
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if instances.len() != self.num_instances
            || proof_scalars.len() != self.num_proof_scalars
            || proof_points.len() != self.num_proof_points
        {
            return Err("the witness does not have the program's shape".into());
        }
        let g2 = |w: &G2Words| -> Result<G2Affine, String> {
            use halo2_base::halo2_proofs::halo2curves::bn256::Fq2;
            let [a, b, c, d] = w.clone().map(|s| parse_q(&s));
            let (x, y) = (Fq2::new(a?, b?), Fq2::new(c?, d?));
            Option::from(G2Affine::from_xy(x, y))
                .ok_or_else(|| "a G2 point is off the curve".into())
        };
        let (one, tau) = (g2(&self.g2.one)?, g2(&self.g2.tau)?);

        let mut s: Vec<Fr> = Vec::new();
        let mut p: Vec<G1Affine> = Vec::new();
        let get = |v: &Vec<Fr>, i: usize| {
            v.get(i)
                .copied()
                .ok_or(format!("s{i} read before it is set"))
        };
        let getp = |v: &Vec<G1Affine>, i: usize| {
            v.get(i)
                .copied()
                .ok_or(format!("p{i} read before it is set"))
        };
        let mut pairing_checked = false;
        for (n, op) in self.ops.iter().enumerate() {
            let at = |what: String| format!("op {n} ({op:?}): {what}");
            let set = |s: &mut Vec<Fr>, out: usize, v: Fr| -> Result<(), String> {
                if out != s.len() {
                    return Err(at(format!("writes s{out}, expected s{}", s.len())));
                }
                s.push(v);
                Ok(())
            };
            match op {
                Op::Const { out, v } => set(&mut s, *out, parse(v)?)?,
                Op::Instance { out, i } => {
                    let v = *instances
                        .get(*i)
                        .ok_or_else(|| at("no such instance".into()))?;
                    set(&mut s, *out, v)?
                }
                Op::ReadScalar { out, i } => {
                    let v = *proof_scalars
                        .get(*i)
                        .ok_or_else(|| at("no such scalar".into()))?;
                    set(&mut s, *out, v)?
                }
                Op::Lincomb { out, terms, c } => {
                    let mut v = parse(c)?;
                    for (k, i) in terms {
                        v += parse(k)? * get(&s, *i)?;
                    }
                    set(&mut s, *out, v)?
                }
                Op::Mul { out, a, b } => {
                    let v = get(&s, *a)? * get(&s, *b)?;
                    set(&mut s, *out, v)?
                }
                Op::Inv { out, a } => {
                    let v = Option::<Fr>::from(get(&s, *a)?.invert())
                        .ok_or_else(|| at("zero inverted".into()))?;
                    set(&mut s, *out, v)?
                }
                Op::AssertEq { a, b } => {
                    if get(&s, *a)? != get(&s, *b)? {
                        return Err(at("not equal".into()));
                    }
                }
                Op::PointConst { out, x, y } => {
                    if *out != p.len() {
                        return Err(at("out of order".into()));
                    }
                    p.push(point(&[x.clone(), y.clone()])?)
                }
                Op::ReadPoint { out, i, enc } => {
                    let v = *proof_points
                        .get(*i)
                        .ok_or_else(|| at("no such point".into()))?;
                    if *out != p.len() {
                        return Err(at("out of order".into()));
                    }
                    p.push(v);
                    set(&mut s, enc[0], fe_to_fe(v.x))?;
                    set(&mut s, enc[1], fe_to_fe(v.y))?;
                }
                Op::PointFromLimbs { out, limbs } => {
                    let limbs = limbs.map(|i| get(&s, i));
                    let limbs = limbs.into_iter().collect::<Result<Vec<_>, _>>()?;
                    let x = coordinate_from_limbs(&limbs[..3]);
                    let y = coordinate_from_limbs(&limbs[3..]);
                    let (x, y) = x.zip(y).ok_or_else(|| at("a limb out of range".into()))?;
                    let v = Option::<G1Affine>::from(G1Affine::from_xy(x, y))
                        .ok_or_else(|| at("not on the curve".into()))?;
                    if *out != p.len() {
                        return Err(at("out of order".into()));
                    }
                    p.push(v)
                }
                Op::EncodePoint { out, p: i } => {
                    let v = getp(&p, *i)?;
                    set(&mut s, out[0], fe_to_fe(v.x))?;
                    set(&mut s, out[1], fe_to_fe(v.y))?;
                }
                Op::Msm { out, terms } => {
                    let mut acc = G1Affine::identity().to_curve();
                    for (k, i) in terms {
                        acc += getp(&p, *i)? * get(&s, *k)?;
                    }
                    if *out != p.len() {
                        return Err(at("out of order".into()));
                    }
                    p.push(acc.to_affine())
                }
                Op::PointAssertEq { a, b } => {
                    if getp(&p, *a)? != getp(&p, *b)? {
                        return Err(at("points not equal".into()));
                    }
                }
                Op::PairingCheck { lhs, rhs } => {
                    let (lhs, rhs) = (getp(&p, *lhs)?, getp(&p, *rhs)?);
                    let holds =
                        Bn256::multi_miller_loop(&[(&lhs, &one.into()), (&rhs, &(-tau).into())])
                            .final_exponentiation()
                            .is_identity();
                    if !bool::from(holds) {
                        return Err(at("the pairing check fails".into()));
                    }
                    pairing_checked = true;
                }
            }
            // Name the first register whose value differs from the recorded one.
            if let Some(recorded) = witness.scalars.get(s.len().wrapping_sub(1)) {
                if s.last().map(dec).as_ref() != Some(recorded) && !s.is_empty() {
                    return Err(at(format!(
                        "s{} differs from the recorded value",
                        s.len() - 1
                    )));
                }
            }
        }
        if !pairing_checked {
            return Err("the program has no pairing check".into());
        }
        Ok(())
    }
}
