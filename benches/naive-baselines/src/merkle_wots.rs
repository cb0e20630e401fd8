//! Few-time keys: 2^h WOTS+ keys ([`crate::wots`]) under a SHA-256 Merkle tree (XMSS-like,
//! without XMSS's L-trees and bitmasks).
//!
//! - Leaf `i`: the WOTS+ public key hash of key pair `i` (all key pairs share the member's seeds;
//!   the key pair index is in every hash address, so the chains of different leaves differ).
//! - Node at height `z + 1`, index `j`:
//!   `SHA-256(PK.seed || ADRS(type tree node, z + 1, j) || left || right)`.
//! - Public key as the verifier stores it: `PK.seed || root` (64 bytes).
//! - Signature: leaf index (4 bytes, big-endian) `||` WOTS+ signature (2,144 bytes) `||` auth
//!   path (h x 32 bytes); for h = 10, 2,468 bytes.
//! - The key is stateful: [`SecretKey::sign`] uses the next unused leaf and fails when all
//!   2^h leaves are spent.

use crate::wots::{self, Address, AddressType, Bytes32, N};

/// Tree height used by the baseline: 2^10 = 1,024 one-time keys per member.
pub const HEIGHT: usize = 10;

/// Bytes of one signature at height `height`.
pub const fn signature_bytes(height: usize) -> usize {
    4 + wots::SIGNATURE_BYTES + height * N
}

/// Bytes of a public key: `PK.seed` and the root.
pub const PUBLIC_KEY_BYTES: usize = 2 * N;

/// A Merkle-WOTS+ public key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// The public seed.
    pub pk_seed: Bytes32,
    /// The tree root.
    pub root: Bytes32,
    /// The tree height.
    pub height: usize,
}

/// A Merkle-WOTS+ signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The leaf (one-time key) that signed.
    pub leaf: u32,
    /// The WOTS+ signature of that leaf's key.
    pub wots: wots::Signature,
    /// The siblings from the leaf up to (not including) the root.
    pub auth_path: Vec<Bytes32>,
}

impl Signature {
    /// Serializes as leaf index (4 bytes, big-endian), WOTS+ signature, auth path.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(signature_bytes(self.auth_path.len()));
        out.extend_from_slice(&self.leaf.to_be_bytes());
        out.extend_from_slice(&self.wots.to_bytes());
        for node in &self.auth_path {
            out.extend_from_slice(node);
        }
        out
    }

    /// Parses a signature for a tree of `height`; `None` on a wrong length or a leaf index
    /// outside the tree.
    pub fn from_bytes(bytes: &[u8], height: usize) -> Option<Self> {
        if bytes.len() != signature_bytes(height) {
            return None;
        }
        let leaf = u32::from_be_bytes(bytes[..4].try_into().ok()?);
        if (leaf as u64) >> height != 0 {
            return None;
        }
        let wots_end = 4 + wots::SIGNATURE_BYTES;
        let wots = wots::Signature::from_bytes(&bytes[4..wots_end])?;
        let auth_path = bytes[wots_end..]
            .chunks_exact(N)
            .map(|c| c.try_into().expect("32-byte chunk"))
            .collect();
        Some(Self {
            leaf,
            wots,
            auth_path,
        })
    }
}

/// A Merkle-WOTS+ secret key: the seeds, the whole tree (kept to produce auth paths), and the
/// next unused leaf.
#[derive(Clone, Debug)]
pub struct SecretKey {
    sk_seed: Bytes32,
    pk_seed: Bytes32,
    /// `levels[z]` holds the 2^(h - z) nodes at height z (`levels[0]`: the leaves).
    levels: Vec<Vec<Bytes32>>,
    next_leaf: u32,
}

/// The hash of two children into their parent at `height` (the parent's), index `index`.
pub fn node_hash(
    pk_seed: &Bytes32,
    height: usize,
    index: usize,
    left: &Bytes32,
    right: &Bytes32,
) -> Bytes32 {
    let mut adrs = Address::new(AddressType::TreeNode, height as u32);
    adrs.chain = index as u32;
    wots::tweak_hash(pk_seed, &adrs, &[left, right])
}

impl SecretKey {
    /// Generates the 2^height WOTS+ keys of a member and their tree (2^height x 67 x 15 chain
    /// hashes: the expensive part).
    pub fn generate(rng: &mut impl rand::RngCore, height: usize) -> Self {
        let (mut sk_seed, mut pk_seed) = ([0u8; N], [0u8; N]);
        rng.fill_bytes(&mut sk_seed);
        rng.fill_bytes(&mut pk_seed);
        Self::from_seeds(sk_seed, pk_seed, height)
    }

    /// The key of the given seeds and height.
    ///
    /// # Panics
    /// If `height` is not in 1..=20 (a programming error: the baseline uses [`HEIGHT`]).
    pub fn from_seeds(sk_seed: Bytes32, pk_seed: Bytes32, height: usize) -> Self {
        assert!((1..=20).contains(&height), "tree height 1..=20");
        let leaves: Vec<Bytes32> = (0..1u32 << height)
            .map(|i| {
                wots::SecretKey::from_seeds(sk_seed, pk_seed, i)
                    .public_key()
                    .hash
            })
            .collect();
        let mut levels = vec![leaves];
        for z in 1..=height {
            let below = &levels[z - 1];
            let level = below
                .chunks_exact(2)
                .enumerate()
                .map(|(j, pair)| node_hash(&pk_seed, z, j, &pair[0], &pair[1]))
                .collect();
            levels.push(level);
        }
        Self {
            sk_seed,
            pk_seed,
            levels,
            next_leaf: 0,
        }
    }

    /// The tree height.
    pub fn height(&self) -> usize {
        self.levels.len() - 1
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey {
            pk_seed: self.pk_seed,
            root: self.levels[self.height()][0],
            height: self.height(),
        }
    }

    /// Signs a digest with the next unused leaf; `None` when every leaf is spent.
    pub fn sign(&mut self, digest: &Bytes32) -> Option<Signature> {
        let leaf = self.next_leaf;
        if (leaf as u64) >> self.height() != 0 {
            return None;
        }
        self.next_leaf += 1;
        let wots = wots::SecretKey::from_seeds(self.sk_seed, self.pk_seed, leaf).sign(digest)?;
        let auth_path = (0..self.height())
            .map(|z| self.levels[z][((leaf as usize) >> z) ^ 1])
            .collect();
        Some(Signature {
            leaf,
            wots,
            auth_path,
        })
    }
}

/// Whether `sig` signs `digest` under `pk`: the WOTS+ public key implied by the signature,
/// hashed up the auth path, must give the root.
pub fn verify(pk: &PublicKey, digest: &Bytes32, sig: &Signature) -> bool {
    if sig.auth_path.len() != pk.height || (sig.leaf as u64) >> pk.height != 0 {
        return false;
    }
    let mut node = wots::public_key_from_signature(&pk.pk_seed, sig.leaf, digest, &sig.wots);
    let mut index = sig.leaf as usize;
    for (z, sibling) in sig.auth_path.iter().enumerate() {
        node = if index & 1 == 0 {
            node_hash(&pk.pk_seed, z + 1, index >> 1, &node, sibling)
        } else {
            node_hash(&pk.pk_seed, z + 1, index >> 1, sibling, &node)
        };
        index >>= 1;
    }
    node == pk.root
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_leaf_of_a_small_tree_signs_and_the_key_runs_out() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let mut sk = SecretKey::generate(&mut rng, 2);
        let pk = sk.public_key();
        for leaf in 0..4u32 {
            let digest = [leaf as u8; 32];
            let sig = sk.sign(&digest).expect("leaf left");
            assert_eq!(sig.leaf, leaf);
            let parsed = Signature::from_bytes(&sig.to_bytes(), 2).expect("parses");
            assert!(verify(&pk, &digest, &parsed));
            assert!(!verify(&pk, &[9; 32], &parsed));
        }
        assert!(sk.sign(&[0; 32]).is_none());
    }

    #[test]
    fn a_leaf_index_outside_the_tree_does_not_parse() {
        let mut bytes = vec![0u8; signature_bytes(2)];
        bytes[3] = 4;
        assert!(Signature::from_bytes(&bytes, 2).is_none());
        bytes[3] = 3;
        assert!(Signature::from_bytes(&bytes, 2).is_some());
    }
}
