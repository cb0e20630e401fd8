//! Rescue-Prime (eprint 2020/1143, the Rescue-XLIX permutation), native over any prime field and
//! in-circuit over BN254 Fr.
//!
//! # Parameters (state width m = 4, capacity 1, rate 3, 128-bit security)
//! Everything is derived as the paper's reference code does, at run time, from `p`:
//! - `alpha`: the smallest integer >= 3 coprime to `p - 1`; `alpha_inv = alpha^-1 mod (p - 1)`;
//! - rounds `N = ceil(1.5 * max(5, l1))`, `l1` the smallest round count whose Groebner-basis
//!   cost `binomial(v + dcon, v)^2` exceeds `2^128`, with `dcon(N) = floor((alpha - 1) m (N - 1) / 2 + 2)`
//!   and `v(N) = m (N - 1) + rate` (the paper's formula with its 50 % margin);
//! - MDS: the transpose of the right half of the echelon form of the `m x 2m` Vandermonde matrix
//!   `[g^(ij)]`, `g` the smallest primitive element of the field;
//! - round constants: `2 m N` integers read little-endian from SHAKE256 of
//!   `"Rescue-XLIX(p,m,capacity,security)"`, `ceil(bits(p) / 8) + 1` bytes each, reduced mod `p`.
//!
//! | field | alpha | alpha_inv | N | g |
//! |---|---|---|---|---|
//! | BN254 Fr | 5 | 17510594297471420177797124596205820070838691520332827474958563349260646796493 | 11 | 5 |
//! | BLS12-381 Fr | 5 | 20974350070050476191779096203274386335076221000211055129041463479975432473805 | 11 | 7 |
//!
//! These figures and the known-answer vectors in `tests/vectors/rescue_prime.json` come from an
//! independent standard-library Python script written from the paper's pseudocode
//! (`tests/vectors/rescue_prime_reference.py`); the tests compare both fields.
//!
//! # Compared with sidechains-zk
//! sidechains-zk uses the original 2019 Rescue (inverse S-box first, an initial constant
//! injection, 12 rounds); this is the later Rescue-Prime specification. The MDS construction is
//! the same Vandermonde one (sidechains-zk stores its transpose).

use std::{
    fmt::Debug,
    ops::{Add, Mul, Sub},
    sync::OnceLock,
};

use halo2_base::halo2_proofs::halo2curves::ff::{Field as _, PrimeField as _};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use sha3::{
    digest::{ExtendableOutput, Update, XofReader},
    Shake256,
};

use super::{leaf_tag, NativeHash};
use crate::{Fr, GadgetError};

/// State width m.
pub const WIDTH: usize = 4;
/// Capacity (one element, the last of the state).
pub const CAPACITY: usize = 1;
/// Rate (the first three elements of the state).
pub const RATE: usize = WIDTH - CAPACITY;
/// Security level in bits.
pub const SECURITY_LEVEL: u32 = 128;

/// A prime field that Rescue-Prime can be instantiated over.
pub trait RescueField:
    Copy
    + Debug
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
{
    /// The field's modulus `p`.
    fn modulus() -> BigUint;
    /// The canonical integer of an element.
    fn to_biguint(&self) -> BigUint;
    /// The element `x mod p`.
    fn from_biguint(x: &BigUint) -> Self;
    /// The distinct primes dividing `p - 1` (to find a primitive element).
    fn p_minus_one_primes() -> Vec<BigUint>;
    /// The cached Rescue-Prime parameters of this field.
    fn rescue_params() -> &'static RescuePrimeParams<Self>;

    /// `self^(1/alpha)`, the inverse S-box (`alpha_inv` of [`Self::rescue_params`]).
    fn inverse_sbox(&self) -> Self {
        self.pow_big(&Self::rescue_params().alpha_inv)
    }

    /// `self^e`, square and multiply.
    fn pow_big(&self, e: &BigUint) -> Self {
        let mut acc = Self::from_biguint(&BigUint::one());
        for i in (0..e.bits()).rev() {
            acc = acc * acc;
            if e.bit(i) {
                acc = acc * *self;
            }
        }
        acc
    }
    /// The multiplicative inverse (`self^(p-2)`); zero maps to zero.
    fn inverse(&self) -> Self {
        self.pow_big(&(Self::modulus() - 2u32))
    }
    /// The element `x`.
    fn from_u64(x: u64) -> Self {
        Self::from_biguint(&BigUint::from(x))
    }
}

/// Rescue-Prime parameters of one field, derived as the paper's reference code derives them.
#[derive(Clone, Debug)]
pub struct RescuePrimeParams<F> {
    /// The S-box exponent.
    pub alpha: u64,
    /// The inverse S-box exponent, `alpha^-1 mod (p - 1)`.
    pub alpha_inv: BigUint,
    /// Number of rounds N (each round is two half-rounds).
    pub rounds: usize,
    /// The smallest primitive element, used for the MDS matrix.
    pub primitive_element: u64,
    /// The MDS matrix.
    pub mds: [[F; WIDTH]; WIDTH],
    /// `2 * WIDTH * rounds` round constants.
    pub round_constants: Vec<F>,
}

fn number_of_rounds(alpha: u64) -> usize {
    let m = WIDTH as u64;
    let dcon = |n: u64| ((alpha - 1) * m * (n - 1)) / 2 + 2;
    let v = |n: u64| m * (n - 1) + RATE as u64;
    let target = BigUint::one() << SECURITY_LEVEL;
    let binomial = |n: u64, k: u64| -> BigUint {
        (0..k).fold(BigUint::one(), |acc, i| acc * (n - i) / (i + 1))
    };
    let mut l1 = 1;
    while l1 < 25 {
        let b = binomial(v(l1) + dcon(l1), v(l1));
        if &b * &b > target {
            break;
        }
        l1 += 1;
    }
    // ceil(1.5 * max(5, l1))
    (3 * l1.max(5) as usize).div_ceil(2)
}

impl<F: RescueField> RescuePrimeParams<F> {
    /// Derives the parameters of `F`.
    pub fn derive() -> Self {
        let p = F::modulus();
        let p_minus_one = &p - 1u32;
        let alpha = (3u64..)
            .find(|a| num_integer_gcd(&BigUint::from(*a), &p_minus_one).is_one())
            .expect("some alpha is coprime to p - 1");
        let alpha_inv = mod_inverse(&BigUint::from(alpha), &p_minus_one);
        let rounds = number_of_rounds(alpha);

        let primes = F::p_minus_one_primes();
        let mut rest = p_minus_one.clone();
        for q in &primes {
            while (&rest % q).is_zero() {
                rest /= q;
            }
        }
        assert!(rest.is_one(), "p_minus_one_primes does not factor p - 1");
        let primitive_element = (2u64..)
            .find(|g| {
                let g = F::from_u64(*g);
                primes
                    .iter()
                    .all(|q| g.pow_big(&(&p_minus_one / q)) != F::from_u64(1))
            })
            .expect("a primitive element exists");

        Self {
            alpha,
            alpha_inv,
            rounds,
            primitive_element,
            mds: mds_matrix(F::from_u64(primitive_element)),
            round_constants: round_constants(&p, rounds),
        }
    }

    /// The Rescue-XLIX permutation.
    pub fn permute(&self, state: &mut [F; WIDTH]) {
        let alpha = BigUint::from(self.alpha);
        for round in 0..self.rounds {
            let rc = &self.round_constants[round * 2 * WIDTH..(round + 1) * 2 * WIDTH];
            for x in state.iter_mut() {
                *x = x.pow_big(&alpha);
            }
            *state = self.mds_mul(state, &rc[..WIDTH]);
            for x in state.iter_mut() {
                *x = x.inverse_sbox();
            }
            *state = self.mds_mul(state, &rc[WIDTH..]);
        }
    }

    fn mds_mul(&self, state: &[F; WIDTH], constants: &[F]) -> [F; WIDTH] {
        std::array::from_fn(|i| {
            (0..WIDTH).fold(constants[i], |acc, j| acc + self.mds[i][j] * state[j])
        })
    }
}

fn num_integer_gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (mut a, mut b) = (a.clone(), b.clone());
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

fn mod_inverse(a: &BigUint, m: &BigUint) -> BigUint {
    use num_bigint::BigInt;
    let (mut old_r, mut r) = (BigInt::from(a.clone()), BigInt::from(m.clone()));
    let (mut old_s, mut s) = (BigInt::one(), BigInt::zero());
    while !r.is_zero() {
        let q = &old_r / &r;
        (old_r, r) = (r.clone(), &old_r - &q * &r);
        (old_s, s) = (s.clone(), &old_s - &q * &s);
    }
    let m = BigInt::from(m.clone());
    (((old_s % &m) + &m) % &m)
        .to_biguint()
        .expect("non-negative")
}

/// The transpose of the right half of the echelon form of `[g^(ij)]` (m x 2m).
fn mds_matrix<F: RescueField>(g: F) -> [[F; WIDTH]; WIDTH] {
    let zero = F::from_u64(0);
    let mut v: Vec<Vec<F>> = (0..WIDTH)
        .map(|i| {
            (0..2 * WIDTH)
                .map(|j| g.pow_big(&BigUint::from((i * j) as u64)))
                .collect()
        })
        .collect();
    for col in 0..WIDTH {
        let pivot = (col..WIDTH)
            .find(|r| v[*r][col] != zero)
            .expect("Vandermonde rows are independent");
        v.swap(col, pivot);
        let inv = v[col][col].inverse();
        v[col] = v[col].iter().map(|x| *x * inv).collect();
        for r in 0..WIDTH {
            if r != col && v[r][col] != zero {
                let f = v[r][col];
                let pivot_row = v[col].clone();
                v[r] = v[r]
                    .iter()
                    .zip(&pivot_row)
                    .map(|(a, b)| *a - f * *b)
                    .collect();
            }
        }
    }
    std::array::from_fn(|i| std::array::from_fn(|j| v[j][WIDTH + i]))
}

fn round_constants<F: RescueField>(p: &BigUint, rounds: usize) -> Vec<F> {
    let bytes_per_int = (p.bits() as usize).div_ceil(8) + 1;
    let count = 2 * WIDTH * rounds;
    let seed = format!(
        "Rescue-XLIX({},{},{},{})",
        p, WIDTH, CAPACITY, SECURITY_LEVEL
    );
    let mut shake = Shake256::default();
    shake.update(seed.as_bytes());
    let mut reader = shake.finalize_xof();
    let mut bytes = vec![0u8; bytes_per_int * count];
    reader.read(&mut bytes);
    bytes
        .chunks(bytes_per_int)
        .map(|chunk| F::from_biguint(&(BigUint::from_bytes_le(chunk) % p)))
        .collect()
}

/// The paper's variable-length hash: pad with a 1 then zeros to a multiple of the rate, absorb
/// into the rate part of a zero state, one permutation per block, output the rate part.
pub fn rescue_prime_hash<F: RescueField>(inputs: &[F]) -> [F; RATE] {
    let params = F::rescue_params();
    let zero = F::from_u64(0);
    let mut padded = inputs.to_vec();
    padded.push(F::from_u64(1));
    while !padded.len().is_multiple_of(RATE) {
        padded.push(zero);
    }
    let mut state = [zero; WIDTH];
    for block in padded.chunks(RATE) {
        for (s, x) in state.iter_mut().zip(block) {
            *s = *s + *x;
        }
        params.permute(&mut state);
    }
    std::array::from_fn(|i| state[i])
}

impl RescueField for Fr {
    fn modulus() -> BigUint {
        (-Fr::one()).to_biguint() + 1u32
    }
    fn to_biguint(&self) -> BigUint {
        BigUint::from_bytes_le(self.to_repr().as_ref())
    }
    fn from_biguint(x: &BigUint) -> Self {
        let mut bytes = (x % Self::modulus()).to_bytes_le();
        bytes.resize(32, 0);
        Fr::from_repr(bytes.try_into().expect("32 bytes")).expect("reduced below p")
    }
    fn p_minus_one_primes() -> Vec<BigUint> {
        primes(&[
            "2",
            "3",
            "13",
            "29",
            "983",
            "11003",
            "237073",
            "405928799",
            "1670836401704629",
            "13818364434197438864469338081",
        ])
    }
    fn rescue_params() -> &'static RescuePrimeParams<Self> {
        static PARAMS: OnceLock<RescuePrimeParams<Fr>> = OnceLock::new();
        PARAMS.get_or_init(RescuePrimeParams::derive)
    }
    fn pow_big(&self, e: &BigUint) -> Self {
        self.pow_vartime(e.to_u64_digits())
    }
    fn inverse_sbox(&self) -> Self {
        static PLAN: OnceLock<WindowPlan> = OnceLock::new();
        PLAN.get_or_init(|| WindowPlan::new(&Fr::rescue_params().alpha_inv))
            .pow(*self)
    }
}

/// A fixed exponent cut into sliding windows of at most [`WindowPlan::BITS`] bits, each ending
/// in a set bit: `x^e` then costs one squaring per bit of `e` and one multiplication per window
/// (about 42 for a 254-bit `e`) instead of one per set bit (about 127). The inverse S-box is
/// most of the Rescue work of the provers and verifiers.
#[derive(Clone, Debug)]
pub struct WindowPlan {
    /// Per window, most significant first: the squarings before it and its odd value.
    windows: Vec<(u32, u64)>,
    /// The squarings after the last window (the exponent's trailing zero bits).
    trailing: u32,
}

impl WindowPlan {
    /// The widest window.
    pub const BITS: u64 = 5;

    /// The plan of `e` (zero gives the empty plan: `x^0 = 1`).
    pub fn new(e: &BigUint) -> Self {
        let mut windows = Vec::new();
        let mut squarings = 0u32;
        let mut i = e.bits() as i64 - 1;
        while i >= 0 {
            if !e.bit(i as u64) {
                squarings += 1;
                i -= 1;
                continue;
            }
            // The window [low, i]: at most BITS bits, ending in a set bit.
            let mut low = (i - Self::BITS as i64 + 1).max(0);
            while !e.bit(low as u64) {
                low += 1;
            }
            let value = (low..=i)
                .rev()
                .fold(0u64, |v, b| (v << 1) | e.bit(b as u64) as u64);
            windows.push((squarings + (i - low + 1) as u32, value));
            squarings = 0;
            i = low - 1;
        }
        Self {
            windows,
            trailing: squarings,
        }
    }

    /// `x^e` for the plan's `e`.
    pub fn pow(&self, x: Fr) -> Fr {
        // x, x^3, x^5, ..., x^(2^BITS - 1).
        let x2 = x.square();
        let mut odd = [x; 1 << (Self::BITS - 1)];
        for k in 1..odd.len() {
            odd[k] = odd[k - 1] * x2;
        }
        let mut acc: Option<Fr> = None;
        for &(squarings, value) in &self.windows {
            let power = odd[(value >> 1) as usize];
            acc = Some(match acc {
                // The first window's squarings act on 1: skip them.
                None => power,
                Some(mut a) => {
                    for _ in 0..squarings {
                        a = a.square();
                    }
                    a * power
                }
            });
        }
        let mut acc = acc.unwrap_or(Fr::ONE);
        for _ in 0..self.trailing {
            acc = acc.square();
        }
        acc
    }
}

impl RescueField for ark_bls12_381::Fr {
    fn modulus() -> BigUint {
        use ark_ff::PrimeField;
        ark_bls12_381::Fr::MODULUS.into()
    }
    fn to_biguint(&self) -> BigUint {
        use ark_ff::PrimeField;
        self.into_bigint().into()
    }
    fn from_biguint(x: &BigUint) -> Self {
        use ark_ff::PrimeField;
        ark_bls12_381::Fr::from_le_bytes_mod_order(&x.to_bytes_le())
    }
    fn p_minus_one_primes() -> Vec<BigUint> {
        primes(&[
            "2",
            "3",
            "11",
            "19",
            "10177",
            "125527",
            "859267",
            "906349",
            "2508409",
            "2529403",
            "52437899",
            "254760293",
        ])
    }
    fn rescue_params() -> &'static RescuePrimeParams<Self> {
        static PARAMS: OnceLock<RescuePrimeParams<ark_bls12_381::Fr>> = OnceLock::new();
        PARAMS.get_or_init(RescuePrimeParams::derive)
    }
    fn pow_big(&self, e: &BigUint) -> Self {
        ark_ff::Field::pow(self, e.to_u64_digits())
    }
}

fn primes(decimal: &[&str]) -> Vec<BigUint> {
    decimal
        .iter()
        .map(|d| d.parse().expect("decimal prime"))
        .collect()
}

/// Native Rescue-Prime over BN254 Fr in the modes of [`crate::hash`].
#[derive(Clone, Copy, Debug, Default)]
pub struct RescuePrime;

impl NativeHash for RescuePrime {
    const NAME: &'static str = "Rescue-Prime";

    fn hash_node(&self, left: Fr, right: Fr) -> Fr {
        let mut state = [left, right, Fr::zero(), Fr::zero()];
        Fr::rescue_params().permute(&mut state);
        state[0]
    }

    fn hash_leaf(&self, inputs: &[Fr]) -> Result<Fr, GadgetError> {
        if inputs.is_empty() {
            return Err(GadgetError::EmptyLeaf);
        }
        let params = Fr::rescue_params();
        let mut state = [Fr::zero(), Fr::zero(), Fr::zero(), leaf_tag(inputs.len())];
        for chunk in inputs.chunks(RATE) {
            for (word, x) in state.iter_mut().zip(chunk) {
                *word += x;
            }
            params.permute(&mut state);
        }
        Ok(state[0])
    }
}
