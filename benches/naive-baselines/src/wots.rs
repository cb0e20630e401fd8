//! WOTS+ one-time signatures with SHA-256 (n = 32 bytes, w = 16, 67 chains), written here.
//!
//! The construction is the WOTS+ of RFC 8391 section 3.1 (base-w digits of the message digest,
//! a base-w checksum, hash chains), with the tweakable hash of SPHINCS+ "simple" instead of
//! RFC 8391's PRF-derived keys and bitmasks:
//!
//! - `F(PK.seed, ADRS, M) = SHA-256(PK.seed || ADRS || M)` (full 32-byte output, no truncation);
//! - chain secret starts `sk_i = SHA-256(SK.seed || PK.seed || ADRS(type PRF, chain i))`;
//! - the public key is one hash of the 67 chain ends,
//!   `T(PK.seed, ADRS(type PK), end_0 || ... || end_66)`; the verifier stores it with `PK.seed`.
//!
//! [`Address`] is a 32-byte address (type, key pair, chain, hash step; the rest zero), so every
//! call of the hash in every key pair and chain position is a distinct tweak.
//! A key signs one digest only: [`SecretKey::sign`] refuses a second use.

use sha2::{Digest, Sha256};

/// Hash output and chain value length n in bytes.
pub const N: usize = 32;
/// The Winternitz parameter w.
pub const W: usize = 16;
/// Bits per base-w digit (log2 w).
pub const LOG_W: usize = 4;
/// Message digits: 8 n / log2 w.
pub const LEN1: usize = 8 * N / LOG_W;
/// Checksum digits: floor(log2(LEN1 (w - 1)) / log2 w) + 1.
pub const LEN2: usize = 3;
/// Number of chains.
pub const LEN: usize = LEN1 + LEN2;
/// Bytes of one signature: one n-byte chain value per chain.
pub const SIGNATURE_BYTES: usize = LEN * N;
/// Bytes of a public key as the verifier stores it: `PK.seed` and the hash of the chain ends.
pub const PUBLIC_KEY_BYTES: usize = 2 * N;

/// A 32-byte value (seed, digest, chain value).
pub type Bytes32 = [u8; N];

/// What a hash call is for (the address's type word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum AddressType {
    /// One step of a chain.
    Chain = 0,
    /// The compression of the chain ends into the public key.
    PublicKey = 1,
    /// A Merkle tree node (see [`crate::merkle_wots`]).
    TreeNode = 2,
    /// The derivation of a chain's secret start.
    Prf = 3,
}

/// A hash address: `type || key pair || chain || hash step`, big-endian 32-bit words, padded
/// with zeros to 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Address {
    /// What the call is for.
    pub kind: AddressType,
    /// The key pair (the Merkle leaf index; 0 for a lone key). For tree nodes: the height.
    pub key_pair: u32,
    /// The chain index. For tree nodes: the node index at its height.
    pub chain: u32,
    /// The step within the chain.
    pub hash: u32,
}

impl Address {
    /// An address of `kind` in `key_pair`, chain and step zero.
    pub fn new(kind: AddressType, key_pair: u32) -> Self {
        Self {
            kind,
            key_pair,
            chain: 0,
            hash: 0,
        }
    }

    /// The 32 bytes hashed.
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        out[0..4].copy_from_slice(&(self.kind as u32).to_be_bytes());
        out[4..8].copy_from_slice(&self.key_pair.to_be_bytes());
        out[8..12].copy_from_slice(&self.chain.to_be_bytes());
        out[12..16].copy_from_slice(&self.hash.to_be_bytes());
        out
    }
}

/// The tweakable hash `SHA-256(PK.seed || ADRS || parts...)`.
pub fn tweak_hash(pk_seed: &Bytes32, adrs: &Address, parts: &[&[u8]]) -> Bytes32 {
    let mut h = Sha256::new();
    h.update(pk_seed);
    h.update(adrs.to_bytes());
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// `steps` applications of F from position `start` of the chain at `adrs` (its hash word is
/// overwritten with each step's position).
pub fn chain(
    x: &Bytes32,
    start: usize,
    steps: usize,
    pk_seed: &Bytes32,
    adrs: &Address,
) -> Bytes32 {
    let mut adrs = *adrs;
    let mut x = *x;
    for j in start..start + steps {
        adrs.hash = j as u32;
        x = tweak_hash(pk_seed, &adrs, &[&x]);
    }
    x
}

/// The 67 base-w digits signed for a 32-byte digest: its 64 nibbles (high nibble first), then
/// the checksum `sum(w - 1 - d_i)` as three base-w digits, most significant first.
pub fn digits(digest: &Bytes32) -> [u8; LEN] {
    let mut d = [0u8; LEN];
    for (i, byte) in digest.iter().enumerate() {
        d[2 * i] = byte >> 4;
        d[2 * i + 1] = byte & 0x0f;
    }
    let checksum: usize = d[..LEN1].iter().map(|x| W - 1 - *x as usize).sum();
    for j in 0..LEN2 {
        d[LEN1 + j] = ((checksum >> (LOG_W * (LEN2 - 1 - j))) & (W - 1)) as u8;
    }
    d
}

/// A WOTS+ public key as the verifier stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// The public seed (hash tweak).
    pub pk_seed: Bytes32,
    /// The hash of the 67 chain ends.
    pub hash: Bytes32,
}

/// A WOTS+ secret key: the seeds its chains derive from, and whether it has signed.
#[derive(Clone, Debug)]
pub struct SecretKey {
    sk_seed: Bytes32,
    pk_seed: Bytes32,
    key_pair: u32,
    used: bool,
}

/// A WOTS+ signature: one chain value per chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature(pub [Bytes32; LEN]);

impl Signature {
    /// The 2,144 serialized bytes (the chain values in order).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.concat()
    }

    /// Parses [`SIGNATURE_BYTES`] bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != SIGNATURE_BYTES {
            return None;
        }
        let mut values = [[0u8; N]; LEN];
        for (v, chunk) in values.iter_mut().zip(bytes.chunks_exact(N)) {
            v.copy_from_slice(chunk);
        }
        Some(Self(values))
    }
}

/// The secret start of chain `i` of key pair `key_pair`.
fn chain_start(sk_seed: &Bytes32, pk_seed: &Bytes32, key_pair: u32, i: usize) -> Bytes32 {
    let mut adrs = Address::new(AddressType::Prf, key_pair);
    adrs.chain = i as u32;
    let mut h = Sha256::new();
    h.update(sk_seed);
    h.update(pk_seed);
    h.update(adrs.to_bytes());
    h.finalize().into()
}

/// Compresses the chain ends into the public key hash.
pub fn compress(pk_seed: &Bytes32, key_pair: u32, ends: &[Bytes32; LEN]) -> Bytes32 {
    let parts: Vec<&[u8]> = ends.iter().map(|e| e.as_slice()).collect();
    tweak_hash(
        pk_seed,
        &Address::new(AddressType::PublicKey, key_pair),
        &parts,
    )
}

impl SecretKey {
    /// A key from its seeds; `key_pair` is its address (its leaf in a Merkle tree, else 0).
    pub fn from_seeds(sk_seed: Bytes32, pk_seed: Bytes32, key_pair: u32) -> Self {
        Self {
            sk_seed,
            pk_seed,
            key_pair,
            used: false,
        }
    }

    /// A fresh key with seeds drawn from `rng`.
    pub fn random(rng: &mut impl rand::RngCore) -> Self {
        let (mut sk_seed, mut pk_seed) = ([0u8; N], [0u8; N]);
        rng.fill_bytes(&mut sk_seed);
        rng.fill_bytes(&mut pk_seed);
        Self::from_seeds(sk_seed, pk_seed, 0)
    }

    /// The 67 chain ends (each chain run w - 1 steps from its start).
    pub fn chain_ends(&self) -> [Bytes32; LEN] {
        let mut ends = [[0u8; N]; LEN];
        for (i, end) in ends.iter_mut().enumerate() {
            let mut adrs = Address::new(AddressType::Chain, self.key_pair);
            adrs.chain = i as u32;
            let start = chain_start(&self.sk_seed, &self.pk_seed, self.key_pair, i);
            *end = chain(&start, 0, W - 1, &self.pk_seed, &adrs);
        }
        ends
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey {
            pk_seed: self.pk_seed,
            hash: compress(&self.pk_seed, self.key_pair, &self.chain_ends()),
        }
    }

    /// Signs a 32-byte digest: chain `i` is run `d_i` steps. `None` if the key already signed.
    pub fn sign(&mut self, digest: &Bytes32) -> Option<Signature> {
        if self.used {
            return None;
        }
        self.used = true;
        let d = digits(digest);
        let mut values = [[0u8; N]; LEN];
        for (i, v) in values.iter_mut().enumerate() {
            let mut adrs = Address::new(AddressType::Chain, self.key_pair);
            adrs.chain = i as u32;
            let start = chain_start(&self.sk_seed, &self.pk_seed, self.key_pair, i);
            *v = chain(&start, 0, d[i] as usize, &self.pk_seed, &adrs);
        }
        Some(Signature(values))
    }
}

/// The chain ends a signature implies for `digest`: chain `i` continued `w - 1 - d_i` steps from
/// position `d_i`.
pub fn ends_from_signature(
    pk_seed: &Bytes32,
    key_pair: u32,
    digest: &Bytes32,
    sig: &Signature,
) -> [Bytes32; LEN] {
    let d = digits(digest);
    let mut ends = [[0u8; N]; LEN];
    for (i, end) in ends.iter_mut().enumerate() {
        let mut adrs = Address::new(AddressType::Chain, key_pair);
        adrs.chain = i as u32;
        let di = d[i] as usize;
        *end = chain(&sig.0[i], di, W - 1 - di, pk_seed, &adrs);
    }
    ends
}

/// The public key hash a signature implies for `digest` (key pair `key_pair`).
pub fn public_key_from_signature(
    pk_seed: &Bytes32,
    key_pair: u32,
    digest: &Bytes32,
    sig: &Signature,
) -> Bytes32 {
    compress(
        pk_seed,
        key_pair,
        &ends_from_signature(pk_seed, key_pair, digest, sig),
    )
}

/// Whether `sig` signs `digest` under `pk` (a lone key: key pair 0).
pub fn verify(pk: &PublicKey, digest: &Bytes32, sig: &Signature) -> bool {
    public_key_from_signature(&pk.pk_seed, 0, digest, sig) == pk.hash
}

/// The digest a WOTS+ baseline signs for a message: `SHA-256(message)`.
pub fn message_digest(message: &[u8]) -> Bytes32 {
    Sha256::digest(message).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_follow_rfc_8391() {
        // len1 = ceil(8n / lg w) = 64, len2 = floor(log2(64 * 15) / 4) + 1 = floor(9.9 / 4) + 1 = 3.
        assert_eq!((LEN1, LEN2, LEN), (64, 3, 67));
        let max_checksum = LEN1 * (W - 1);
        assert!(max_checksum < W.pow(LEN2 as u32));
        assert!(max_checksum >= W.pow(LEN2 as u32 - 1));
    }

    #[test]
    fn digits_and_checksum() {
        let d = digits(&[0u8; 32]);
        assert!(d[..LEN1].iter().all(|x| *x == 0));
        // checksum 64 * 15 = 960 = 0x3c0
        assert_eq!(&d[LEN1..], &[3, 12, 0]);
        let d = digits(&[0xffu8; 32]);
        assert_eq!(&d[LEN1..], &[0, 0, 0]);
        let mut digest = [0u8; 32];
        digest[0] = 0xa5;
        let d = digits(&digest);
        assert_eq!((d[0], d[1]), (0xa, 0x5));
        assert_eq!(&d[LEN1..], &[3, 11, 1]); // 960 - 10 - 5 = 945 = 0x3b1
    }

    #[test]
    fn chains_compose() {
        let seed = [7u8; 32];
        let adrs = Address::new(AddressType::Chain, 3);
        let x = [1u8; 32];
        let two_then_three = chain(&chain(&x, 0, 2, &seed, &adrs), 2, 3, &seed, &adrs);
        assert_eq!(two_then_three, chain(&x, 0, 5, &seed, &adrs));
        assert_ne!(chain(&x, 0, 1, &seed, &adrs), chain(&x, 1, 1, &seed, &adrs));
    }

    #[test]
    fn a_key_signs_once() {
        let mut sk = SecretKey::from_seeds([1; 32], [2; 32], 0);
        assert!(sk.sign(&[3; 32]).is_some());
        assert!(sk.sign(&[3; 32]).is_none());
    }
}
