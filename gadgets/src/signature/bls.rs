//! BLS signatures on BN254, natively: keys in G1, signatures and message hashes in G2.
//!
//! - [`hash_to_g2`] (proofs of possession): RFC 9380 `hash_to_curve` for the BN254 G2 twist
//!   `E': y^2 = x^3 + 3/(9+u)`: `expand_message_xmd` with SHA-256, `hash_to_field` into Fq2
//!   (L = 48 bytes per coefficient), the Shallue-van de Woestijne map with Z = 1 (straight-line
//!   form of RFC 9380 section 6.6.1), and cofactor clearing
//!   `[x0]Q + psi([3 x0]Q) + psi^2([x0]Q) + psi^3(Q)` (x0 = 4965661367192848881,
//!   Fuentes-Castaneda, Knapp and Rodriguez-Henriquez). This is the construction of gnark-crypto's
//!   `bn254.HashToG2`; the tests match its vectors. halo2curves' own G2 `hash_to_curve` is
//!   `unimplemented!()`.
//! - [`hash_message`]: the hash to G2 of a field element (Poseidon to Fq2, the same SvdW map and
//!   cofactor clearing), which a circuit computes too ([`crate::signature::bls_hash`]).
//! - Messages are field elements `m` (`m = keccak-256(bytes) mod r`, [`crate::message`]) hashed
//!   by [`hash_message`]. Proofs of possession keep the SHA-256 suite above under [`POP_DST`]
//!   (native only: a registration is checked once, off-circuit). A proof of possession is never
//!   a signature on a message and vice versa: the two hashes to G2 are different constructions
//!   (SHA-256 XMD there, Poseidon under its own domain tag here), so a proof of possession
//!   `sk H_pop(pk)` verifies as a signature on `m` only if `H_msg(m) = H_pop(pk)`, a collision
//!   between two independent random oracles onto G2 (probability about `q_H^2 / r`).
//! - Registration requires a proof of possession ([`SecretKey::prove_possession`],
//!   [`PublicKey::verify_possession`]): the defence against rogue keys when keys are aggregated.
//! - Verification is one pairing product: `e(pk, H(m)) * e(-g1, sigma) == 1`.

use std::sync::OnceLock;

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{multi_miller_loop, Fq, Fq2, Fr, G1Affine, G2Affine, G2Prepared, Gt, G1, G2},
    ff::{Field, PrimeField},
    group::{prime::PrimeCurveAffine, Curve, Group},
    pairing::MillerLoopResult,
    CurveAffine,
};
use num_bigint::BigUint;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::{
    hash::{NativeHash, Poseidon},
    GadgetError,
};

/// gnark-crypto's G2 suite tag (`BN254G2_XMD:SHA-256_SVDW_RO_`): the tag of its test vectors,
/// against which [`hash_to_g2`] is checked. Messages are not hashed under it ([`hash_message`]).
pub const XMD_SUITE_DST: &[u8] = b"BN254G2_XMD:SHA-256_SVDW_RO_";
/// Domain-separation tag for proofs of possession.
pub const POP_DST: &[u8] = b"BN254G2_XMD:SHA-256_SVDW_RO_TMS_POP_";
/// The BN curve parameter x0 used by the cofactor clearing.
pub const X0: u64 = 4965661367192848881;
/// Bytes per Fq coefficient in `hash_to_field`: ceil((254 + 128) / 8).
const L: usize = 48;

/// RFC 9380 `expand_message_xmd` with SHA-256.
///
/// # Panics
/// If `len_in_bytes > 8160` or the tag is longer than 255 bytes (programming errors: the tags
/// and lengths used here are constants).
pub fn expand_message_xmd(msg: &[u8], dst: &[u8], len_in_bytes: usize) -> Vec<u8> {
    const B: usize = 32;
    const S: usize = 64;
    let ell = len_in_bytes.div_ceil(B);
    assert!(
        ell <= 255 && len_in_bytes <= 65535 && dst.len() <= 255,
        "expand_message_xmd bounds"
    );
    let dst_prime: Vec<u8> = dst.iter().copied().chain([dst.len() as u8]).collect();
    let b0 = Sha256::new()
        .chain_update([0u8; S])
        .chain_update(msg)
        .chain_update((len_in_bytes as u16).to_be_bytes())
        .chain_update([0u8])
        .chain_update(&dst_prime)
        .finalize();
    let mut out = Vec::with_capacity(ell * B);
    let mut prev = Sha256::new()
        .chain_update(b0)
        .chain_update([1u8])
        .chain_update(&dst_prime)
        .finalize();
    out.extend_from_slice(&prev);
    for i in 2..=ell {
        let xored: Vec<u8> = b0.iter().zip(prev.iter()).map(|(a, b)| a ^ b).collect();
        prev = Sha256::new()
            .chain_update(xored)
            .chain_update([i as u8])
            .chain_update(&dst_prime)
            .finalize();
        out.extend_from_slice(&prev);
    }
    out.truncate(len_in_bytes);
    out
}

fn fq_modulus() -> BigUint {
    BigUint::from_bytes_le((-Fq::ONE).to_repr().as_ref()) + 1u8
}

fn fq_from_big(x: &BigUint) -> Fq {
    let mut bytes = (x % fq_modulus()).to_bytes_le();
    bytes.resize(32, 0);
    Fq::from_repr(bytes.try_into().expect("32 bytes")).expect("reduced")
}

/// RFC 9380 `hash_to_field` into Fq2, `count` elements.
pub fn hash_to_field_fq2(msg: &[u8], dst: &[u8], count: usize) -> Vec<Fq2> {
    let bytes = expand_message_xmd(msg, dst, count * 2 * L);
    (0..count)
        .map(|i| {
            let coeff = |j: usize| {
                fq_from_big(&BigUint::from_bytes_be(
                    &bytes[L * (j + 2 * i)..L * (j + 2 * i + 1)],
                ))
            };
            Fq2 {
                c0: coeff(0),
                c1: coeff(1),
            }
        })
        .collect()
}

fn fq_sgn0(x: &Fq) -> bool {
    x.to_repr().as_ref()[0] & 1 == 1
}

/// RFC 9380 `sgn0` for Fq2.
pub fn sgn0(x: &Fq2) -> bool {
    fq_sgn0(&x.c0) || (bool::from(x.c0.is_zero()) && fq_sgn0(&x.c1))
}

/// Whether `x` is a square in Fq2 (RFC 9380 `is_square`, true for zero).
pub(crate) fn is_square(x: &Fq2) -> bool {
    // x is a square in Fq2 iff its norm c0^2 + c1^2 is a square in Fq.
    let norm = x.c0.square() + x.c1.square();
    let exp: BigUint = (fq_modulus() - 1u8) >> 1;
    let legendre = norm.pow_vartime(exp.to_u64_digits());
    legendre != -Fq::ONE
}

/// The twist's constant b' = 3 / (9 + u).
pub fn twist_b() -> Fq2 {
    Fq2::from(3)
        * Fq2 {
            c0: Fq::from(9),
            c1: Fq::ONE,
        }
        .invert()
        .expect("9 + u is invertible")
}

/// The SvdW constants of RFC 9380 section 6.6.1 for the twist (`Z = 1`, `A = 0`).
pub(crate) struct SvdwConstants {
    pub(crate) z: Fq2,
    pub(crate) c1: Fq2,
    pub(crate) c2: Fq2,
    pub(crate) c3: Fq2,
    pub(crate) c4: Fq2,
}

pub(crate) fn svdw() -> &'static SvdwConstants {
    static C: OnceLock<SvdwConstants> = OnceLock::new();
    C.get_or_init(|| {
        let z = Fq2::ONE;
        let g_z = z.square() * z + twist_b();
        let three_z2 = Fq2::from(3) * z.square(); // A = 0
        let mut c3 = (-(g_z * three_z2))
            .sqrt()
            .expect("-g(Z)(3Z^2) is square for Z = 1");
        if sgn0(&c3) {
            c3 = -c3;
        }
        SvdwConstants {
            z,
            c1: g_z,
            c2: -z * Fq2::from(2).invert().expect("2 is invertible"),
            c3,
            c4: -Fq2::from(4) * g_z * three_z2.invert().expect("3Z^2 != 0"),
        }
    })
}

/// The SvdW map (RFC 9380 section 6.6.1) of `u` to a point on the twist (not yet in G2).
pub fn map_to_curve_svdw(u: Fq2) -> G2 {
    let c = svdw();
    let b = twist_b();
    let g = |x: Fq2| x.square() * x + b;
    let tv1 = u.square() * c.c1;
    let tv2 = Fq2::ONE + tv1;
    let tv1 = Fq2::ONE - tv1;
    let tv3 = (tv1 * tv2).invert().unwrap_or(Fq2::ZERO);
    let tv4 = u * tv1 * tv3 * c.c3;
    let x1 = c.c2 - tv4;
    let x2 = c.c2 + tv4;
    let x3 = (tv2.square() * tv3).square() * c.c4 + c.z;
    let x = if is_square(&g(x1)) {
        x1
    } else if is_square(&g(x2)) {
        x2
    } else {
        x3
    };
    let mut y = g(x)
        .sqrt()
        .expect("one of the three candidates is on the curve");
    if sgn0(&u) != sgn0(&y) {
        y = -y;
    }
    G2Affine { x, y }.to_curve()
}

struct PsiConstants {
    cx: Fq2,
    cy: Fq2,
}

/// The coefficients `(xi^((p-1)/3), xi^((p-1)/2))`, `xi = 9 + u`, of [`psi`]:
/// `psi(x, y) = (cx conj(x), cy conj(y))`.
pub fn psi_coefficients() -> (Fq2, Fq2) {
    let c = psi_constants();
    (c.cx, c.cy)
}

fn psi_constants() -> &'static PsiConstants {
    static C: OnceLock<PsiConstants> = OnceLock::new();
    C.get_or_init(|| {
        let xi = Fq2 {
            c0: Fq::from(9),
            c1: Fq::ONE,
        };
        let p_minus_1 = fq_modulus() - 1u8;
        PsiConstants {
            cx: xi.pow_vartime((&p_minus_1 / 3u8).to_u64_digits()),
            cy: xi.pow_vartime((&p_minus_1 / 2u8).to_u64_digits()),
        }
    })
}

/// The untwist-Frobenius-twist endomorphism psi of the twist (acts as multiplication by p on G2).
pub fn psi(p: &G2) -> G2 {
    let a = p.to_affine();
    if bool::from(a.is_identity()) {
        return *p;
    }
    let c = psi_constants();
    let (mut x, mut y) = (a.x, a.y);
    x.conjugate();
    y.conjugate();
    G2Affine {
        x: x * c.cx,
        y: y * c.cy,
    }
    .to_curve()
}

fn mul_u64(p: &G2, k: u64) -> G2 {
    let mut acc = G2::identity();
    for i in (0..64).rev() {
        acc = acc.double();
        if (k >> i) & 1 == 1 {
            acc += p;
        }
    }
    acc
}

/// Maps a twist point into G2: `[x0]Q + psi([3 x0]Q) + psi^2([x0]Q) + psi^3(Q)`.
pub fn clear_cofactor(q: &G2) -> G2 {
    let x0q = mul_u64(q, X0);
    let three_x0q = x0q.double() + x0q;
    x0q + psi(&three_x0q) + psi(&psi(&x0q)) + psi(&psi(&psi(q)))
}

/// RFC 9380 `hash_to_curve` into BN254 G2 under `dst`.
pub fn hash_to_g2(msg: &[u8], dst: &[u8]) -> G2Affine {
    let u = hash_to_field_fq2(msg, dst, 2);
    let q = map_to_curve_svdw(u[0]) + map_to_curve_svdw(u[1]);
    clear_cofactor(&q).to_affine()
}

/// Poseidon outputs per message in [`message_to_fq2`]: two per Fq coefficient, four
/// coefficients.
pub const MESSAGE_FIELD_OUTPUTS: usize = 8;

/// The domain tag of the message hash: the ASCII bytes `TMS-BLS-H2G2-MSG` as a big-endian
/// integer.
pub fn message_tag() -> Fr {
    Fr::from_u128(u128::from_be_bytes(*b"TMS-BLS-H2G2-MSG"))
}

/// An Fr element as the Fq element of the same integer (`r < q`).
fn fr_to_fq(x: &Fr) -> Fq {
    Fq::from_repr(x.to_repr()).expect("r < q")
}

/// `r` as an element of Fq.
pub(crate) fn r_in_fq() -> Fq {
    fq_from_big(&crate::field::fr_modulus())
}

/// The Poseidon outputs `Poseidon_leaf(tag, m, i)`, `i = 0..8`, of [`message_to_fq2`].
pub fn message_field_outputs(m: Fr) -> [Fr; MESSAGE_FIELD_OUTPUTS] {
    std::array::from_fn(|i| {
        Poseidon
            .hash_leaf(&[message_tag(), m, Fr::from(i as u64)])
            .expect("three inputs")
    })
}

/// `hash_to_field` of the message hash: `[u_0, u_1]`, Fq coefficient `j` of
/// `(u_0.c0, u_0.c1, u_1.c0, u_1.c1)` equal to `(o_{2j} + r o_{2j+1}) mod q` for the outputs `o`
/// of [`message_field_outputs`] (the encoding is argued in [`crate::signature::bls_hash`]).
pub fn message_to_fq2(m: Fr) -> [Fq2; 2] {
    let o = message_field_outputs(m);
    let r = r_in_fq();
    let coeff = |j: usize| fr_to_fq(&o[2 * j]) + r * fr_to_fq(&o[2 * j + 1]);
    [
        Fq2 {
            c0: coeff(0),
            c1: coeff(1),
        },
        Fq2 {
            c0: coeff(2),
            c1: coeff(3),
        },
    ]
}

/// The message hash `H(m)` in G2 of a field element `m`: [`message_to_fq2`], the SvdW map of
/// each element, their sum, [`clear_cofactor`] (the ciphersuite `BN254G2_POSEIDON_SVDW_RO` of
/// [`crate::signature::bls_hash`], whose circuit computes the same point).
pub fn hash_message(m: Fr) -> G2Affine {
    let [u0, u1] = message_to_fq2(m);
    clear_cofactor(&(map_to_curve_svdw(u0) + map_to_curve_svdw(u1))).to_affine()
}

/// Whether `p` is in the order-r subgroup of the twist.
pub fn is_in_g2(p: &G2Affine) -> bool {
    let r_minus_1 = -Fr::ONE;
    // [r]P = [r-1]P + P
    bool::from((p.to_curve() * r_minus_1 + p).is_identity())
}

/// A BLS secret key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretKey(pub Fr);

/// A BLS public key in G1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey(pub G1Affine);

/// A BLS signature in G2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature(pub G2Affine);

fn pairing_product_is_one(pk: &G1Affine, h: &G2Affine, sig: &G2Affine) -> bool {
    let neg_g1 = -G1Affine::generator();
    let (h, sig) = (G2Prepared::from(*h), G2Prepared::from(*sig));
    let gt: Gt = multi_miller_loop(&[(pk, &h), (&neg_g1, &sig)]).final_exponentiation();
    bool::from(gt.is_identity())
}

impl SecretKey {
    /// A uniformly random non-zero key.
    pub fn random(rng: &mut impl RngCore) -> Self {
        loop {
            let k = Fr::random(&mut *rng);
            if !bool::from(k.is_zero()) {
                return Self(k);
            }
        }
    }

    /// The public key `sk * g1`.
    pub fn public_key(&self) -> PublicKey {
        PublicKey((G1Affine::generator() * self.0).to_affine())
    }

    /// `sk * H(m)` with `H` = [`hash_message`] (`m` is the signed field element,
    /// [`crate::message::message_to_field`] of a byte message).
    pub fn sign(&self, m: Fr) -> Signature {
        Signature((hash_message(m) * self.0).to_affine())
    }

    /// The proof of possession: a signature on the public key's bytes under [`POP_DST`].
    pub fn prove_possession(&self) -> Signature {
        let pk = self.public_key();
        Signature((hash_to_g2(&pk.to_bytes(), POP_DST) * self.0).to_affine())
    }
}

impl PublicKey {
    /// Compressed bytes (halo2curves' encoding: x little-endian with the sign of y in the top bits).
    pub fn to_bytes(&self) -> Vec<u8> {
        use halo2_base::halo2_proofs::halo2curves::group::GroupEncoding;
        self.0.to_bytes().as_ref().to_vec()
    }

    /// Checks the key is a valid non-identity G1 point.
    pub fn validate(&self) -> Result<(), GadgetError> {
        if bool::from(self.0.is_identity()) {
            return Err(GadgetError::IdentityPoint);
        }
        if !bool::from(self.0.is_on_curve()) {
            return Err(GadgetError::NotOnCurve);
        }
        Ok(())
    }

    /// `e(pk, H(m)) == e(g1, sig)`, with the signature checked to lie in G2.
    pub fn verify(&self, m: Fr, sig: &Signature) -> bool {
        self.validate().is_ok()
            && is_in_g2(&sig.0)
            && pairing_product_is_one(&self.0, &hash_message(m), &sig.0)
    }

    /// Checks a proof of possession.
    pub fn verify_possession(&self, pop: &Signature) -> bool {
        self.validate().is_ok()
            && is_in_g2(&pop.0)
            && pairing_product_is_one(&self.0, &hash_to_g2(&self.to_bytes(), POP_DST), &pop.0)
    }

    /// The sum of keys (for the aggregate key).
    pub fn aggregate(keys: &[PublicKey]) -> G1Affine {
        keys.iter()
            .fold(G1::identity(), |acc, k| acc + k.0)
            .to_affine()
    }
}

impl Signature {
    /// The sum of signatures.
    pub fn aggregate(sigs: &[Signature]) -> Signature {
        Signature(
            sigs.iter()
                .fold(G2::identity(), |acc, s| acc + s.0)
                .to_affine(),
        )
    }
}

/// Verifies an aggregate signature of one message `m` under the aggregate key `avk`.
pub fn verify_aggregate(avk: &G1Affine, m: Fr, sig: &Signature) -> bool {
    !bool::from(avk.is_identity())
        && is_in_g2(&sig.0)
        && pairing_product_is_one(avk, &hash_message(m), &sig.0)
}
