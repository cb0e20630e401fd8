//! The native scheme on Jubjub: domain tags, registration, the unique signature and lottery, and
//! [`JubjubStm`], over which `mithril-core` writes the signer, aggregator and verifier once for
//! both curves. Every value the circuit computes has a function here computing it off-circuit
//! (the circuit's twin). The curve-independent parts are `mithril-core`'s.

use ff::{Field, PrimeField};
use group::Group;
use midnight_circuits::{
    ecc::{hash_to_curve::HashToCurveGadget, native::EccChip},
    hash::poseidon::PoseidonChip,
    instructions::hash_to_curve::HashToCurveCPU,
    types::AssignedNative,
};
use midnight_curves::{JubjubExtended, JubjubSubgroup};
use mithril_core::{eligibility, lottery, Parameters};
use num_bigint::BigUint;
pub use schnorr_atms_jubjub::{
    challenge_scalar, coordinates, generator, message_to_field, poseidon, Base, JubjubScalar,
    MerkleTree, SigningKey, VerifyingKey,
};

use crate::MithrilError;

/// midnight-circuits' hash to Jubjub: a Poseidon sponge squeezes two field elements, each mapped
/// with SvdW (through the Weierstrass and Montgomery forms), cofactor cleared, the two added.
/// [`hash_to_jubjub`] is its CPU side; the circuit uses the same gadget.
pub type HashToJubjub = HashToCurveGadget<
    Base,
    JubjubExtended,
    AssignedNative<Base>,
    PoseidonChip<Base>,
    EccChip<JubjubExtended>,
>;

/// `q`, BLS12-381's scalar field order: the circuit's field, Jubjub's base field, and the `r`
/// of the eligibility rule here (lottery values are elements of this field).
pub fn modulus() -> BigUint {
    BigUint::from_bytes_le((-Base::ONE).to_repr().as_ref()) + 1u32
}

/// A field element's canonical integer.
pub fn to_biguint(x: &Base) -> BigUint {
    BigUint::from_bytes_le(x.to_repr().as_ref())
}

/// An integer below `q` as a field element.
pub fn from_biguint(n: &BigUint) -> Base {
    assert!(n < &modulus(), "below the field order");
    let mut le = n.to_bytes_le();
    le.resize(32, 0);
    let mut repr = <Base as PrimeField>::Repr::default();
    repr.as_mut().copy_from_slice(&le);
    Base::from_repr(repr).expect("below the modulus")
}

/// Jubjub's Edwards `d`, from the generator's coordinates (`-x^2 + y^2 = 1 + d x^2 y^2`).
fn edwards_d() -> Base {
    let [x, y] = coordinates(&generator());
    let (x2, y2) = (x.square(), y.square());
    (y2 - x2 - Base::ONE) * (x2 * y2).invert().expect("the generator has x, y != 0")
}

/// Whether `x` is the x-coordinate of a point of Jubjub: `y^2 = (1 + x^2) / (1 - d x^2)` has a
/// root.
pub fn is_x_coordinate(x: Base) -> bool {
    let x2 = x.square();
    match Option::<Base>::from((Base::ONE - edwards_d() * x2).invert()) {
        None => false,
        Some(inv) => bool::from(((Base::ONE + x2) * inv).sqrt().is_some()),
    }
}

/// The domain tags: the big-endian integer of the ASCII name, incremented until it is **not** a
/// Jubjub x-coordinate, so no tagged input is a leaf input `(pk.x, pk.y, stake, T)` (whose first
/// element is one); distinct tags separate the tagged hashes (Poseidon's capacity separates
/// lengths in any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// Parameter digest.
    Params,
    /// Registration digest.
    Registration,
    /// The signed message bound to a registration.
    Message,
    /// The DLEQ challenge.
    Challenge,
    /// The lottery value.
    Lottery,
    /// Hash to Jubjub of the signed message.
    HashToCurve,
}

impl Tag {
    /// Every tag.
    pub const ALL: [Tag; 6] = [
        Tag::Params,
        Tag::Registration,
        Tag::Message,
        Tag::Challenge,
        Tag::Lottery,
        Tag::HashToCurve,
    ];

    /// The ASCII name the tag is derived from.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Params => "tms-mithril-jubjub-params",
            Tag::Registration => "tms-mithril-jubjub-registration",
            Tag::Message => "tms-mithril-jubjub-message",
            Tag::Challenge => "tms-mithril-jubjub-dleq-challenge",
            Tag::Lottery => "tms-mithril-jubjub-lottery",
            Tag::HashToCurve => "tms-mithril-jubjub-h2c",
        }
    }

    /// The field element (derived once, then cached: every lottery hash takes one).
    pub fn value(self) -> Base {
        static VALUES: std::sync::OnceLock<Vec<Base>> = std::sync::OnceLock::new();
        let values = VALUES.get_or_init(|| Tag::ALL.iter().map(|t| t.derive()).collect());
        values[Tag::ALL
            .iter()
            .position(|t| *t == self)
            .expect("every tag is in ALL")]
    }

    fn derive(self) -> Base {
        let mut x = self.name().bytes().fold(Base::ZERO, |acc, b| {
            acc * Base::from(256) + Base::from(b as u64)
        });
        while is_x_coordinate(x) {
            x += Base::ONE;
        }
        x
    }
}

/// `Poseidon(PARAMS tag, m, k, phi_f num, phi_f den)`.
pub fn params_digest(params: &Parameters) -> Base {
    poseidon(&[
        Tag::Params.value(),
        Base::from(params.m()),
        Base::from(params.k()),
        Base::from(params.phi_f().num()),
        Base::from(params.phi_f().den()),
    ])
}

/// One registered party.
pub type Party = mithril_core::registration::Party<JubjubStm>;
/// What a verifier needs of a registration.
pub type RegistrationCommitment = mithril_core::registration::RegistrationCommitment<JubjubStm>;
/// A closed registration: parties with their targets, in a Poseidon Merkle tree.
pub type Registration = mithril_core::registration::Registration<JubjubStm>;

impl mithril_core::registration::RegistrationCurve for JubjubStm {
    type Field = Base;
    type Key = VerifyingKey;
    type KeyId = [u8; 32];
    type Tree = MerkleTree;
    type Path = Vec<Base>;
    type Error = MithrilError;

    /// The key's compressed encoding; the identity is refused.
    fn key_id(index: usize, key: &VerifyingKey) -> Result<[u8; 32], MithrilError> {
        if bool::from(key.0.is_identity()) {
            return Err(MithrilError::IdentityKey(index));
        }
        Ok(key.to_bytes())
    }
    fn target(params: &Parameters, stake: u64, total: u64) -> Result<Base, MithrilError> {
        let t = eligibility::target(params.phi_f(), stake, total, &modulus())?;
        Ok(from_biguint(&t.value))
    }
    /// `Poseidon(pk.x, pk.y, stake, T)`.
    fn leaf(party: &Party) -> Result<Base, MithrilError> {
        let [x, y] = party.key.coordinates();
        Ok(poseidon(&[x, y, Base::from(party.stake), party.target]))
    }
    fn tree(leaves: Vec<Base>, depth: usize) -> Result<MerkleTree, MithrilError> {
        if !(1..=32).contains(&depth) || leaves.len() > 1 << depth {
            return Err(MithrilError::BadShape(format!(
                "{} parties in a tree of depth {depth}",
                leaves.len()
            )));
        }
        Ok(MerkleTree::new(leaves, depth))
    }
    fn root(tree: &MerkleTree) -> Base {
        tree.root()
    }
    fn path(tree: &MerkleTree, index: usize) -> Result<Vec<Base>, MithrilError> {
        Ok(tree.path(index))
    }
    fn hash(inputs: &[Base]) -> Base {
        poseidon(inputs)
    }
    fn registration_tag() -> Base {
        Tag::Registration.value()
    }
    fn message_tag() -> Base {
        Tag::Message.value()
    }
    fn params_digest(params: &Parameters) -> Base {
        params_digest(params)
    }
}

/// `H = H_J(signed)`: midnight-circuits' hash to Jubjub of `(H2C tag, signed)`, in the
/// prime-order subgroup.
pub fn hash_to_jubjub(signed: Base) -> JubjubSubgroup {
    <HashToJubjub as HashToCurveCPU<JubjubExtended, Base>>::hash_to_curve(&[
        Tag::HashToCurve.value(),
        signed,
    ])
}

/// A unique signature `sigma = sk H` with its Chaum-Pedersen proof `(A, B, s)` that
/// `log_G pk = log_H sigma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniqueSignature {
    /// `sigma = sk H`.
    pub sigma: JubjubSubgroup,
    /// `A = k G`.
    pub a: JubjubSubgroup,
    /// `B = k H`.
    pub b: JubjubSubgroup,
    /// `s = k + c sk mod r_J`.
    pub s: JubjubScalar,
}

/// The DLEQ challenge `Poseidon(CHALLENGE tag, pk, H, sigma, A, B)` (all coordinates).
pub fn dleq_challenge(
    pk: &JubjubSubgroup,
    h: &JubjubSubgroup,
    sigma: &JubjubSubgroup,
    a: &JubjubSubgroup,
    b: &JubjubSubgroup,
) -> Base {
    let mut input = vec![Tag::Challenge.value()];
    for p in [pk, h, sigma, a, b] {
        input.extend(coordinates(p));
    }
    poseidon(&input)
}

/// Signs `signed` (a registration-bound message): deterministic, and `sigma` is the only value
/// any prover can make verify for `(pk, signed)`. Refuses an identity `H` (never observed).
pub fn sign(sk: &SigningKey, signed: Base) -> Result<UniqueSignature, MithrilError> {
    let h = hash_to_jubjub(signed);
    if bool::from(h.is_identity()) {
        return Err(MithrilError::IdentityPoint);
    }
    let digest = blake2b_simd::Params::new()
        .hash_length(64)
        .personal(b"mithril-jj-nonce")
        .to_state()
        .update(&sk.0.to_bytes())
        .update(signed.to_repr().as_ref())
        .finalize();
    let k = JubjubScalar::from_bytes_wide(digest.as_array());
    let (a, b, sigma) = (generator() * k, h * k, h * sk.0);
    let pk = sk.verifying_key().0;
    let c = challenge_scalar(dleq_challenge(&pk, &h, &sigma, &a, &b));
    Ok(UniqueSignature {
        sigma,
        a,
        b,
        s: k + c * sk.0,
    })
}

impl UniqueSignature {
    /// `s G = A + c pk` and `s H = B + c sigma` with `H = H_J(signed)`: the equations the
    /// circuit checks. Every point is in the prime-order subgroup by its type.
    pub fn verify(&self, pk: &VerifyingKey, signed: Base) -> bool {
        let h = hash_to_jubjub(signed);
        if bool::from(h.is_identity() | pk.0.is_identity()) {
            return false;
        }
        let c = challenge_scalar(dleq_challenge(&pk.0, &h, &self.sigma, &self.a, &self.b));
        generator() * self.s == self.a + pk.0 * c && h * self.s == self.b + self.sigma * c
    }
}

/// `ev(sigma, j) = Poseidon(LOTTERY tag, sigma.x, sigma.y, j)`, for an index given as the
/// field element the circuit hashes.
pub fn lottery_value_at(sigma: &JubjubSubgroup, index: Base) -> Base {
    let [x, y] = coordinates(sigma);
    poseidon(&[Tag::Lottery.value(), x, y, index])
}

/// [`lottery_value_at`] of an integer index.
pub fn lottery_value(sigma: &JubjubSubgroup, index: u64) -> Base {
    lottery_value_at(sigma, Base::from(index))
}

/// Whether `ev` wins against `target` (`ev < T` as integers).
pub fn wins(ev: Base, target: Base) -> bool {
    lottery::wins(&to_biguint(&ev), &to_biguint(&target))
}

/// The Jubjub side of the native scheme ([`mithril_core::stm::Stm`]): the signer, the
/// aggregator and the verifier are `mithril-core`'s, written once for both curves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JubjubStm;

/// A signer's contribution: its unique signature and the indices it won.
pub type SingleSignature = mithril_core::stm::SingleSignature<JubjubStm>;
/// A registered signer.
pub type Signer = mithril_core::stm::Signer<JubjubStm>;
/// A certificate: `k` index slots over de-duplicated signer slots.
pub type Certificate = mithril_core::stm::Certificate<JubjubStm>;
pub use mithril_core::stm::{aggregate, verify, verify_single, IndexSlot};

/// One signer slot of a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignerSlot {
    /// Its registration index (the leaf's position).
    pub position: usize,
    /// The registered party (the leaf's contents).
    pub party: Party,
    /// Its Merkle path.
    pub path: Vec<Base>,
    /// Its unique signature.
    pub signature: UniqueSignature,
}

impl mithril_core::stm::Stm for JubjubStm {
    type SigningKey = SigningKey;
    type Signature = UniqueSignature;
    type SignerSlot = SignerSlot;

    fn verifying_key(key: &SigningKey) -> VerifyingKey {
        key.verifying_key()
    }
    fn sign(key: &SigningKey, bound: Base) -> Result<UniqueSignature, MithrilError> {
        sign(key, bound)
    }
    fn verifies(signature: &UniqueSignature, party: &Party, bound: Base) -> bool {
        signature.verify(&party.key, bound)
    }
    fn wins(signature: &UniqueSignature, party: &Party, index: u64) -> Result<bool, MithrilError> {
        Ok(wins(lottery_value(&signature.sigma, index), party.target))
    }
    fn signer_slot(
        registration: &Registration,
        position: usize,
        signature: UniqueSignature,
    ) -> Result<SignerSlot, MithrilError> {
        Ok(SignerSlot {
            position,
            party: registration.parties()[position],
            path: registration.path(position)?,
            signature,
        })
    }
    fn slot_parts(slot: &SignerSlot) -> (usize, &Party, &UniqueSignature) {
        (slot.position, &slot.party, &slot.signature)
    }
    /// The position fits the commitment's depth and the root the path leads to is the
    /// commitment's.
    fn path_len(slot: &SignerSlot) -> usize {
        slot.path.len()
    }
    fn in_tree(
        commitment: &RegistrationCommitment,
        slot: &SignerSlot,
    ) -> Result<bool, MithrilError> {
        Ok(slot.position < 1 << commitment.depth
            && MerkleTree::root_from_path(slot.party.leaf()?, slot.position, &slot.path)
                == commitment.root)
    }
}
