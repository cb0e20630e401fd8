//! The native scheme: keys, Schnorr signatures on Jubjub, committees, their commitments,
//! certificates, and the message rule. The circuit's twin: every value the circuit computes has
//! a function here that computes it off-circuit.

use ff::{Field, PrimeField};
use group::{Group, GroupEncoding};
use std::sync::OnceLock;

use midnight_circuits::{
    ecc::curves::CircuitCurve,
    hash::poseidon::{constants::RATE, permutation_cpu, round_skips::PreComputedRoundCPU},
};
use midnight_curves::{JubjubExtended, JubjubSubgroup};
use num_bigint::BigUint;

use crate::error::AtmsError;

/// BLS12-381's scalar field: the circuit's field and Jubjub's base field.
pub type Base = midnight_curves::Fq;
/// Jubjub's scalar field (the order `r_J` of the prime-order subgroup).
pub type JubjubScalar = midnight_curves::Fr;

/// midnight-circuits' precomputation for Poseidon's partial rounds (round-skip identities and
/// their constants), made once per process: its `HashCPU::hash` makes it again on every call, at
/// several times the cost of the permutation itself.
fn poseidon_rounds() -> &'static PreComputedRoundCPU<Base> {
    static ROUNDS: OnceLock<PreComputedRoundCPU<Base>> = OnceLock::new();
    ROUNDS.get_or_init(PreComputedRoundCPU::init)
}

/// Poseidon over [`Base`], fixed length: midnight-circuits' sponge (its capacity holds the input
/// length, so inputs of different lengths never collide by padding; rate-sized chunks are added
/// into the state and permuted; the output is the first element), with its permutation. Tested
/// equal to midnight-circuits' `HashCPU::hash`.
pub fn poseidon(inputs: &[Base]) -> Base {
    // midnight's width: the rate and one capacity element.
    let mut state = [Base::ZERO; RATE + 1];
    state[RATE] = Base::from_u128(inputs.len() as u128);
    for chunk in inputs.chunks(RATE) {
        for (entry, x) in state.iter_mut().zip(chunk) {
            *entry += x;
        }
        permutation_cpu(poseidon_rounds(), &mut state);
    }
    state[0]
}

/// The affine coordinates `(x, y)` of a subgroup point (the identity is `(0, 1)`).
pub fn coordinates(p: &JubjubSubgroup) -> [Base; 2] {
    let (x, y) = JubjubExtended::from(*p)
        .coordinates()
        .expect("Edwards points always have affine coordinates");
    [x, y]
}

/// The generator `G` of Jubjub's prime-order subgroup used for keys and nonces.
pub fn generator() -> JubjubSubgroup {
    JubjubSubgroup::generator()
}

/// The message rule: `m = blake2b-256(bytes) mod q` with the digest read **big-endian** and `q`
/// BLS12-381's scalar-field order. Plutus computes it with one `blake2b_256` builtin call and one
/// reduction (`integerFromByteString` big-endian, `modInteger`).
pub fn message_to_field(bytes: &[u8]) -> Base {
    let digest = blake2b_simd::Params::new().hash_length(32).hash(bytes);
    biguint_to_base(&BigUint::from_bytes_be(digest.as_bytes()))
}

/// `n mod q` as a field element.
fn biguint_to_base(n: &BigUint) -> Base {
    let modulus = BigUint::from_bytes_le((-Base::ONE).to_repr().as_ref()) + 1u32;
    let mut le = (n % modulus).to_bytes_le();
    le.resize(32, 0);
    let mut repr = <Base as PrimeField>::Repr::default();
    repr.as_mut().copy_from_slice(&le);
    Base::from_repr(repr).expect("reduced below the modulus")
}

/// The Schnorr challenge `c = Poseidon(R.x, R.y, pk.x, pk.y, m)`: both coordinates of the key are
/// committed to (hashing only `x` would let `-pk` stand for `pk`).
pub fn challenge(r: &JubjubSubgroup, pk: &JubjubSubgroup, message: Base) -> Base {
    let [rx, ry] = coordinates(r);
    let [px, py] = coordinates(pk);
    poseidon(&[rx, ry, px, py, message])
}

/// The challenge as a Jubjub scalar: its canonical integer (below `q`) reduced mod `r_J`. The
/// circuit multiplies by the 255 canonical bits of `c`, which is the same point since the key
/// has order `r_J`.
pub fn challenge_scalar(c: Base) -> JubjubScalar {
    let mut wide = [0u8; 64];
    wide[..32].copy_from_slice(c.to_repr().as_ref());
    JubjubScalar::from_bytes_wide(&wide)
}

/// A Schnorr signature `(R, s)` on Jubjub: valid for `pk` and `m` iff `s G = R + c pk` with
/// `c = H(R, pk, m)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The nonce point `R = k G`.
    pub r: JubjubSubgroup,
    /// The response `s = k + c sk`.
    pub s: JubjubScalar,
}

/// A signing key: a Jubjub scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigningKey(pub JubjubScalar);

/// A verifying key `pk = sk G`, in the prime-order subgroup by its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyingKey(pub JubjubSubgroup);

impl SigningKey {
    /// A uniformly random key.
    pub fn random(rng: impl rand::RngCore) -> Self {
        Self(JubjubScalar::random(rng))
    }

    /// `pk = sk G`.
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey(generator() * self.0)
    }

    /// Signs `message` with a deterministic nonce `k = blake2b-512(domain || sk || m) mod r_J`.
    pub fn sign(&self, message: Base) -> Signature {
        let digest = blake2b_simd::Params::new()
            .hash_length(64)
            .personal(b"atms-jubjub-nce")
            .to_state()
            .update(&self.0.to_bytes())
            .update(message.to_repr().as_ref())
            .finalize();
        let k = JubjubScalar::from_bytes_wide(digest.as_array());
        let r = generator() * k;
        let c = challenge_scalar(challenge(&r, &self.verifying_key().0, message));
        Signature {
            r,
            s: k + c * self.0,
        }
    }
}

/// The domain tag of a proof of possession's message (`"tms-pop1"` little-endian).
const POSSESSION_TAG: u64 = u64::from_le_bytes(*b"tms-pop1");

/// The message a key's proof of possession signs: Poseidon of a domain tag and the key's
/// coordinates. No certificate signs it: a certificate's message is a blake2b-256 digest
/// ([`message_to_field`]), so a member asked to sign bytes does not hand out a possession proof.
pub fn possession_message(pk: &VerifyingKey) -> Base {
    let [x, y] = pk.coordinates();
    poseidon(&[Base::from(POSSESSION_TAG), x, y])
}

impl SigningKey {
    /// The key's proof of possession: its signature of [`possession_message`].
    pub fn prove_possession(&self) -> Signature {
        self.sign(possession_message(&self.verifying_key()))
    }
}

impl VerifyingKey {
    /// Whether `pop` is this key's proof of possession.
    pub fn verify_possession(&self, pop: &Signature) -> bool {
        self.verify(possession_message(self), pop)
    }

    /// The native verification `s G = R + c pk`, the equation the circuit checks.
    pub fn verify(&self, message: Base, sig: &Signature) -> bool {
        let c = challenge_scalar(challenge(&sig.r, &self.0, message));
        generator() * sig.s == sig.r + self.0 * c
    }

    /// The key's affine coordinates.
    pub fn coordinates(&self) -> [Base; 2] {
        coordinates(&self.0)
    }

    /// The compressed encoding (32 bytes); decoding checks subgroup membership.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }
}

pub use atms_core::{committee_depth, CheckError, CommitmentMode};

/// An ordered committee of distinct Jubjub keys.
///
/// Cofactor: every key is in the prime-order subgroup ([`VerifyingKey`] holds a
/// [`JubjubSubgroup`]; decoding one from bytes checks it), so the circuit checks only the curve
/// equation of the keys the commitment binds. A verifier trusts the commitment of a committee it
/// built with [`Committee::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committee {
    keys: Vec<VerifyingKey>,
}

impl Committee {
    /// A committee; refuses an empty one, the identity and repeated keys.
    pub fn new(keys: Vec<VerifyingKey>) -> Result<Self, AtmsError> {
        if keys.is_empty() {
            return Err(AtmsError::Check(CheckError::EmptyCommittee));
        }
        for (i, k) in keys.iter().enumerate() {
            if bool::from(k.0.is_identity()) {
                return Err(AtmsError::IdentityKey(i));
            }
            if let Some(j) = keys[..i].iter().position(|o| o == k) {
                return Err(AtmsError::DuplicateMember {
                    first: j,
                    second: i,
                });
            }
        }
        Ok(Self { keys })
    }

    /// A committee of registered keys, each with its proof of possession (checked here), as a
    /// committee of other people's keys is formed; then [`Committee::new`]'s checks.
    pub fn register(members: &[(VerifyingKey, Signature)]) -> Result<Self, AtmsError> {
        for (i, (key, pop)) in members.iter().enumerate() {
            if bool::from(key.0.is_identity()) {
                return Err(AtmsError::IdentityKey(i));
            }
            if !key.verify_possession(pop) {
                return Err(AtmsError::InvalidPossession(i));
            }
        }
        Self::new(members.iter().map(|(k, _)| *k).collect())
    }

    /// The keys in committee order.
    pub fn keys(&self) -> &[VerifyingKey] {
        &self.keys
    }

    /// The flat commitment: Poseidon over `x_0, y_0, ..., x_{n-1}, y_{n-1}`.
    pub fn flat_commitment(&self) -> Base {
        let coords: Vec<Base> = self.keys.iter().flat_map(|k| k.coordinates()).collect();
        poseidon(&coords)
    }

    /// The Merkle leaf of member `i`: `Poseidon(x_i, y_i)`.
    pub fn leaf(&self, i: usize) -> Base {
        poseidon(&self.keys[i].coordinates())
    }

    /// The Merkle tree of the committee (depth [`committee_depth`], empty leaves 0).
    pub fn tree(&self) -> MerkleTree {
        MerkleTree::new(
            (0..self.keys.len()).map(|i| self.leaf(i)).collect(),
            committee_depth(self.keys.len()),
        )
    }

    /// The commitment in `mode`.
    pub fn commitment(&self, mode: CommitmentMode) -> Base {
        match mode {
            CommitmentMode::Flat => self.flat_commitment(),
            CommitmentMode::Merkle { .. } => self.tree().root(),
        }
    }
}

/// A Poseidon Merkle tree (node = `Poseidon(left, right)`), leaves padded with 0 to `2^depth`.
/// A padding leaf is no key's leaf: that would need a Poseidon preimage of 0.
#[derive(Clone, Debug)]
pub struct MerkleTree {
    /// `levels[0]` are the leaves, `levels[depth]` the root alone.
    levels: Vec<Vec<Base>>,
}

impl MerkleTree {
    /// Builds the tree of `leaves` (at most `2^depth`).
    pub fn new(mut leaves: Vec<Base>, depth: usize) -> Self {
        assert!(leaves.len() <= 1 << depth, "too many leaves for the depth");
        leaves.resize(1 << depth, Base::ZERO);
        let mut levels = vec![leaves];
        for _ in 0..depth {
            let next = levels
                .last()
                .expect("non-empty")
                .chunks(2)
                .map(|p| poseidon(&[p[0], p[1]]))
                .collect();
            levels.push(next);
        }
        Self { levels }
    }

    /// The root.
    pub fn root(&self) -> Base {
        self.levels.last().expect("non-empty")[0]
    }

    /// The siblings of leaf `index`, bottom up.
    pub fn path(&self, index: usize) -> Vec<Base> {
        let depth = self.levels.len() - 1;
        (0..depth)
            .map(|level| self.levels[level][(index >> level) ^ 1])
            .collect()
    }

    /// The root that `leaf` at `index` with `path` hashes to (the circuit's computation).
    pub fn root_from_path(leaf: Base, index: usize, path: &[Base]) -> Base {
        path.iter()
            .enumerate()
            .fold(leaf, |node, (level, sibling)| {
                if (index >> level) & 1 == 0 {
                    poseidon(&[node, *sibling])
                } else {
                    poseidon(&[*sibling, node])
                }
            })
    }
}

/// A set of valid signatures on one message by distinct committee members, sorted by member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The message field element ([`message_to_field`] of the signed bytes).
    pub message: Base,
    /// `(member index, signature)`, strictly increasing indices.
    pub signatures: Vec<(usize, Signature)>,
}

impl Certificate {
    /// Checks each signature natively and maps it to its member: refuses unknown keys, a
    /// member signing twice, and invalid signatures (naming the offending input position).
    pub fn aggregate(
        committee: &Committee,
        message: Base,
        signatures: &[(VerifyingKey, Signature)],
    ) -> Result<Self, AtmsError> {
        let signatures = atms_core::index_signatures(&committee.keys, signatures, |key, sig| {
            key.verify(message, sig)
        })?;
        Ok(Self {
            message,
            signatures,
        })
    }
}
