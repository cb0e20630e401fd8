//! mithril-stm 0.13.0's SNARK relation off-circuit, written from its documented formulas (the
//! circuit's twin): domain tags, the message element, the lottery target, the registration tree,
//! the unique Schnorr signature, the lottery, an aggregator and a verifier.

use ff::{Field, PrimeField};
use group::{cofactor::CofactorGroup, Curve, Group, GroupEncoding};
use midnight_circuits::{
    ecc::curves::CircuitCurve,
    hash::poseidon::{permutation_cpu, round_skips::PreComputedRoundCPU},
    instructions::hash_to_curve::HashToCurveCPU,
};
use midnight_curves::{JubjubExtended, JubjubSubgroup};
use mithril_core::{stm::StmError, PhiF};
use num_bigint::{BigInt, Sign};

use crate::{
    native::{
        challenge_scalar, from_biguint, generator, modulus, poseidon, to_biguint, Base,
        HashToJubjub, JubjubScalar, SigningKey, VerifyingKey,
    },
    MithrilError,
};

/// `SIGN_DST` (ASCII, the little-endian u64 of mithril-stm's `DOMAIN_SEPARATION_TAG_UNIQUE_SIGNATURE`).
pub const DST_UNIQUE_SIGNATURE: u64 = 0x5349_474E_5F44_5354;
/// `LOTT_DST`: the lottery prefix.
pub const DST_LOTTERY: u64 = 0x4C4F_5454_5F44_5354;
/// `SMLF_DST`: a leaf of the SNARK registration tree.
pub const DST_MERKLE_LEAF: u64 = 0x534D_4C46_5F44_5354;
/// `SMSG_DST`: the 32-byte message reduced to one element.
pub const DST_MESSAGE: u64 = 0x534D_5347_5F44_5354;
/// The SNARK's registration tree depth (`MERKLE_TREE_DEPTH_FOR_SNARK`): paths are padded to it
/// with zero siblings.
pub const TREE_DEPTH: usize = 13;
/// Terms of mithril-stm's Taylor expansions of `ln(1 - phi_f)` and `exp` (its
/// `TAYLOR_EXPANSION_ITERATIONS`).
pub const TAYLOR_ITERATIONS: usize = 30;

/// A domain tag as the field element mithril-stm hashes.
pub fn dst(tag: u64) -> Base {
    Base::from(tag)
}

/// The 32 message bytes as two little-endian 128-bit halves `[low, high]`, the inputs of
/// mithril-stm's message element (and the statement's public inputs).
pub fn message_halves(message: &[u8; 32]) -> [Base; 2] {
    let half = |bytes: &[u8]| {
        Base::from_u128(u128::from_le_bytes(
            bytes.try_into().expect("a 16-byte half"),
        ))
    };
    [half(&message[..16]), half(&message[16..])]
}

/// mithril-stm's message element from the two halves: `Poseidon(SMSG_DST, low, high)`.
pub fn message_element([low, high]: [Base; 2]) -> Base {
    poseidon(&[dst(DST_MESSAGE), low, high])
}

/// mithril-stm's message element (`from_message_collision_resistant`): the 32 bytes split into
/// two little-endian 128-bit halves, `Poseidon(SMSG_DST, low, high)`.
pub fn message_to_field(message: &[u8; 32]) -> Base {
    message_element(message_halves(message))
}

/// `H = H_J(root, message)`: midnight's hash to Jubjub of the root and the message element
/// (mithril-stm's `hash_to_projective_point(build_snark_message(..))`).
pub fn hash_to_point(root: Base, message: Base) -> JubjubSubgroup {
    <HashToJubjub as HashToCurveCPU<JubjubExtended, Base>>::hash_to_curve(&[root, message])
}

/// A point's affine coordinates (any curve point).
pub fn xy(p: &JubjubExtended) -> [Base; 2] {
    let a = p.to_affine();
    [a.get_u(), a.get_v()]
}

/// `sum_{n < N} x^n / n!` for `x = num / den` (`den > 0`), as an exact fraction `(N, D)` with
/// `D > 0`: the value mithril-stm's binary splitting computes.
fn exp_taylor(num: &BigInt, den: &BigInt, terms: usize) -> (BigInt, BigInt) {
    // Common denominator den^(N-1) (N-1)!; term n is num^n den^(N-1-n) (N-1)!/n!.
    let last = terms - 1;
    let mut sum = BigInt::from(0);
    let mut falling = BigInt::from(1); // (N-1)! / n!, from n = N-1 down
    let mut terms_desc = Vec::with_capacity(terms);
    for n in (0..terms).rev() {
        terms_desc.push((n, falling.clone()));
        falling *= BigInt::from(n.max(1));
    }
    for (n, ratio) in terms_desc {
        sum += num.pow(n as u32) * den.pow((last - n) as u32) * ratio;
    }
    let factorial: BigInt = (1..=last).map(BigInt::from).product();
    (sum, den.pow(last as u32) * factorial)
}

/// mithril-stm's lottery target `floor(q (1 - exp(w ln(1 - phi_f))))` with `w = stake / total`,
/// `ln(1 - a/b) = -sum_{i=1..30} (a/b)^i / i` and `exp` its 30-term Taylor polynomial, in exact
/// rational arithmetic (`compute_target_value_for_snark_lottery`). mithril-stm reads `phi_f`
/// from an `f64` with `Ratio::approximate_float` (0.2 is 1/5); its `phi_f = 1` (every index
/// wins, target `q - 1`) is outside [`PhiF`]'s range and refused there.
pub fn lottery_target(phi_f: PhiF, stake: u64, total_stake: u64) -> Result<Base, MithrilError> {
    if total_stake == 0 {
        return Err(MithrilError::Stm("the total stake is zero".into()));
    }
    let (a, b) = (BigInt::from(phi_f.num()), BigInt::from(phi_f.den()));
    // L = sum_{i=1..N} a^i / (b^i i) over the common denominator b^N N!.
    let n = TAYLOR_ITERATIONS;
    let n_factorial: BigInt = (1..=n).map(BigInt::from).product();
    let mut l_num = BigInt::from(0);
    for i in 1..=n {
        l_num += a.pow(i as u32) * b.pow((n - i) as u32) * (&n_factorial / BigInt::from(i));
    }
    let l_den = b.pow(n as u32) * n_factorial;
    // x = w ln(1 - phi_f) = -L stake / total.
    let x_num = -l_num * BigInt::from(stake);
    let x_den = l_den * BigInt::from(total_stake);
    let (e_num, e_den) = exp_taylor(&x_num, &x_den, n);
    let q = BigInt::from_biguint(Sign::Plus, modulus());
    // floor(q (D - N) / D), a non-negative value with D > 0.
    let target = (&q * (&e_den - &e_num)) / &e_den;
    let target = target
        .to_biguint()
        .ok_or_else(|| MithrilError::Stm("a negative lottery target".into()))?;
    if target >= modulus() {
        return Err(MithrilError::Stm("a lottery target above the field".into()));
    }
    Ok(from_biguint(&target))
}

/// A base field element from its 32 canonical little-endian bytes (mithril-stm's
/// `BaseFieldElement` encoding): refuses other lengths and values not below `q`.
pub fn base_from_bytes(bytes: &[u8]) -> Result<Base, MithrilError> {
    let mut repr = <Base as PrimeField>::Repr::default();
    if bytes.len() != repr.as_ref().len() {
        return Err(MithrilError::Stm(format!(
            "a field element of {} bytes (not 32)",
            bytes.len()
        )));
    }
    repr.as_mut().copy_from_slice(bytes);
    Option::from(Base::from_repr(repr))
        .ok_or_else(|| MithrilError::Stm("a field element not below the modulus".into()))
}

/// A SNARK verification key from mithril-stm's encoding (`to_canonical_bytes`: the affine
/// `x` then `y`, 32 bytes each): refuses points off the curve, outside the prime-order subgroup
/// and the identity.
pub fn key_from_bytes(bytes: &[u8]) -> Result<VerifyingKey, MithrilError> {
    if bytes.len() != 64 {
        return Err(MithrilError::Stm(format!(
            "a verification key of {} bytes (not 64)",
            bytes.len()
        )));
    }
    let (x, y) = (
        base_from_bytes(&bytes[..32])?,
        base_from_bytes(&bytes[32..])?,
    );
    let point = <JubjubExtended as CircuitCurve>::from_xy(x, y)
        .ok_or_else(|| MithrilError::Stm("a verification key off the curve".into()))?;
    if !bool::from(point.is_prime_order()) {
        return Err(MithrilError::Stm(
            "a verification key outside the prime-order subgroup".into(),
        ));
    }
    let key = Option::from(CofactorGroup::into_subgroup(point)).expect("prime order");
    Ok(VerifyingKey(key))
}

/// mithril-stm's encoding of a key: [`key_from_bytes`]'s inverse.
pub fn key_to_bytes(key: &VerifyingKey) -> [u8; 64] {
    let mut out = [0u8; 64];
    let [x, y] = key.coordinates();
    out[..32].copy_from_slice(x.to_repr().as_ref());
    out[32..].copy_from_slice(y.to_repr().as_ref());
    out
}

/// A leaf of the SNARK registration tree: a verifying key and its lottery target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmLeaf {
    /// The verifying key (prime-order subgroup, as mithril-stm's registration checks).
    pub key: VerifyingKey,
    /// Its lottery target.
    pub target: Base,
}

impl StmLeaf {
    /// `Poseidon(SMLF_DST, vk.x, vk.y, target)`.
    pub fn hash(&self) -> Base {
        let [x, y] = self.key.coordinates();
        poseidon(&[dst(DST_MERKLE_LEAF), x, y, self.target])
    }
}

/// The hash of a missing leaf: mithril-stm's `Digest::digest([0u8])`, `Poseidon(0)`.
pub fn missing_leaf() -> Base {
    poseidon(&[Base::ZERO])
}

/// A registration path: siblings bottom up, padded with zeros to [`TREE_DEPTH`], and the leaf's
/// position (its bits, low first, say which side the running node is on: 1 = right).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StmPath {
    /// The leaf's position.
    pub position: usize,
    /// [`TREE_DEPTH`] siblings; zeros past the tree's own depth.
    pub siblings: Vec<Base>,
}

impl StmPath {
    /// The root this path reaches from `leaf`: a zero sibling leaves the node unchanged (the
    /// padding), as mithril-stm's circuit computes it.
    pub fn root(&self, leaf: Base) -> Base {
        let mut node = leaf;
        for (level, sibling) in self.siblings.iter().enumerate() {
            if *sibling == Base::ZERO {
                continue;
            }
            node = if (self.position >> level) & 1 == 1 {
                poseidon(&[*sibling, node])
            } else {
                poseidon(&[node, *sibling])
            };
        }
        node
    }
}

/// The SNARK registration tree: leaves in mithril-stm's order (its closed registration's), a
/// perfect tree over the next power of two with missing leaves [`missing_leaf`], nodes
/// `Poseidon(left, right)`.
#[derive(Clone, Debug)]
pub struct StmTree {
    leaves: Vec<StmLeaf>,
    /// levels[0] = leaf hashes (padded), the last = [root].
    levels: Vec<Vec<Base>>,
}

impl StmTree {
    /// The tree of `leaves`: refuses none and more than `2^13`.
    pub fn new(leaves: &[StmLeaf]) -> Result<Self, MithrilError> {
        if leaves.is_empty() || leaves.len() > 1 << TREE_DEPTH {
            return Err(MithrilError::Stm(format!(
                "{} leaves for a tree of depth {TREE_DEPTH}",
                leaves.len()
            )));
        }
        let width = leaves.len().next_power_of_two();
        let mut level: Vec<Base> = leaves.iter().map(StmLeaf::hash).collect();
        level.resize(width, missing_leaf());
        let mut levels = vec![level];
        while levels.last().expect("one level").len() > 1 {
            let next = levels
                .last()
                .expect("one level")
                .chunks(2)
                .map(|pair| poseidon(&[pair[0], pair[1]]))
                .collect();
            levels.push(next);
        }
        Ok(Self {
            leaves: leaves.to_vec(),
            levels,
        })
    }

    /// The root (mithril-stm's `MerkleTreeCommitment`, the first public input).
    pub fn root(&self) -> Base {
        self.levels.last().expect("one level")[0]
    }

    /// The leaves.
    pub fn leaves(&self) -> &[StmLeaf] {
        &self.leaves
    }

    /// The position of `key`'s leaf.
    pub fn position(&self, key: &VerifyingKey) -> Option<usize> {
        self.leaves.iter().position(|l| l.key == *key)
    }

    /// Leaf `position`'s path, padded to [`TREE_DEPTH`].
    pub fn path(&self, position: usize) -> Result<StmPath, MithrilError> {
        if position >= self.leaves.len() {
            return Err(StmError::NotRegistered.into());
        }
        let mut siblings: Vec<Base> = self.levels[..self.levels.len() - 1]
            .iter()
            .enumerate()
            .map(|(level, nodes)| nodes[(position >> level) ^ 1])
            .collect();
        siblings.resize(TREE_DEPTH, Base::ZERO);
        Ok(StmPath { position, siblings })
    }
}

/// mithril-stm's unique Schnorr signature `(sigma, s, c)`: `sigma = sk H`, `R1 = s H + c sigma`,
/// `R2 = s G + c vk`, `c = Poseidon(SIGN_DST, H, vk, sigma, R1, R2)` (all coordinates), `c`
/// read as a scalar mod `r_J`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmSignature {
    /// The commitment point `sigma` (any curve point as decoded; valid ones are in the
    /// prime-order subgroup).
    pub sigma: JubjubExtended,
    /// The response `s`.
    pub s: JubjubScalar,
    /// The challenge `c`, a base field element.
    pub c: Base,
}

/// The challenge `Poseidon(SIGN_DST, H, vk, sigma, R1, R2)`.
pub fn challenge(
    h: &JubjubSubgroup,
    key: &VerifyingKey,
    sigma: &JubjubExtended,
    r1: &JubjubExtended,
    r2: &JubjubExtended,
) -> Base {
    let mut input = vec![dst(DST_UNIQUE_SIGNATURE)];
    for p in [
        &JubjubExtended::from(*h),
        &JubjubExtended::from(key.0),
        sigma,
        r1,
        r2,
    ] {
        input.extend(xy(p));
    }
    poseidon(&input)
}

impl StmSignature {
    /// mithril-stm's `UniqueSchnorrSignature::to_canonical_bytes`: `sigma` (32, compressed),
    /// `s` (32, little-endian), `c` (32, little-endian).
    pub fn to_bytes(&self) -> [u8; 96] {
        let mut out = [0u8; 96];
        out[..32].copy_from_slice(&self.sigma.to_bytes());
        out[32..64].copy_from_slice(&self.s.to_bytes());
        out[64..].copy_from_slice(self.c.to_repr().as_ref());
        out
    }

    /// Decodes [`Self::to_bytes`]: refuses a point off the curve and non-canonical scalars.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, MithrilError> {
        let bad = |what: &str| MithrilError::Stm(format!("unique signature: bad {what}"));
        let bytes: &[u8; 96] = bytes.try_into().map_err(|_| bad("length (not 96)"))?;
        let sigma = Option::from(JubjubExtended::from_bytes(
            bytes[..32].try_into().expect("32"),
        ))
        .ok_or_else(|| bad("commitment point"))?;
        let s = Option::from(JubjubScalar::from_bytes(
            bytes[32..64].try_into().expect("32"),
        ))
        .ok_or_else(|| bad("response"))?;
        let c = base_from_bytes(&bytes[64..]).map_err(|_| bad("challenge"))?;
        Ok(Self { sigma, s, c })
    }

    /// `sigma` in the prime-order subgroup, if it is.
    pub fn sigma_in_subgroup(&self) -> Option<JubjubSubgroup> {
        if bool::from(self.sigma.is_prime_order()) {
            Option::from(CofactorGroup::into_subgroup(self.sigma))
        } else {
            None
        }
    }

    /// `(R1, R2) = (s H + c sigma, s G + c vk)`.
    pub fn commitments(
        &self,
        key: &VerifyingKey,
        h: &JubjubSubgroup,
    ) -> (JubjubExtended, JubjubExtended) {
        let c = challenge_scalar(self.c);
        let r1 = JubjubExtended::from(*h * self.s) + self.sigma * c;
        let r2 = JubjubExtended::from(generator() * self.s + key.0 * c);
        (r1, r2)
    }

    /// mithril-stm's `UniqueSchnorrSignature::verify` for `H`: `sigma` of prime order, the key
    /// not the identity, and the recomputed challenge equal to `c`.
    pub fn verify(&self, key: &VerifyingKey, h: &JubjubSubgroup) -> bool {
        if self.sigma_in_subgroup().is_none() || bool::from(key.0.is_identity()) {
            return false;
        }
        let (r1, r2) = self.commitments(key, h);
        challenge(h, key, &self.sigma, &r1, &r2) == self.c
    }
}

/// A signature by mithril-stm's rule, with a deterministic nonce (ours: mithril-stm draws it at
/// random; `sigma` is the same either way, it is what makes the signature unique).
pub fn sign(sk: &SigningKey, h: &JubjubSubgroup) -> StmSignature {
    let digest = blake2b_simd::Params::new()
        .hash_length(64)
        .personal(b"tms-stm-nonce")
        .to_state()
        .update(&sk.0.to_bytes())
        .update(&h.to_bytes())
        .finalize();
    let r = JubjubScalar::from_bytes_wide(digest.as_array());
    let key = sk.verifying_key();
    let sigma = JubjubExtended::from(*h * sk.0);
    let (r1, r2) = (
        JubjubExtended::from(*h * r),
        JubjubExtended::from(generator() * r),
    );
    let c = challenge(h, &key, &sigma, &r1, &r2);
    StmSignature {
        sigma,
        s: r - challenge_scalar(c) * sk.0,
        c,
    }
}

/// The lottery prefix `Poseidon(LOTT_DST, root, message)`.
pub fn lottery_prefix(root: Base, message: Base) -> Base {
    poseidon(&[dst(DST_LOTTERY), root, message])
}

/// `ev = Poseidon(prefix, sigma.x, sigma.y, index)`.
pub fn lottery_value(prefix: Base, sigma: &JubjubExtended, index: Base) -> Base {
    let [x, y] = xy(sigma);
    poseidon(&[prefix, x, y, index])
}

/// One signer's lottery values `ev_j = Poseidon(prefix, sigma.x, sigma.y, j)`, evaluated with
/// the sponge's first permutation (over `(prefix, sigma.x)`, the same for every `j`) done once:
/// one permutation per index where [`lottery_value`] makes two (and its round constants
/// precomputed once). The same values (`lottery_evaluator_agrees_with_lottery_value`).
pub struct LotteryEvaluator {
    pre_computed: PreComputedRoundCPU<Base>,
    /// The register after absorbing `(prefix, sigma.x)` and permuting.
    after_first: [Base; 3],
    sigma_y: Base,
}

impl LotteryEvaluator {
    /// The evaluator of `sigma`'s lottery under `prefix`.
    pub fn new(prefix: Base, sigma: &JubjubExtended) -> Self {
        let [x, y] = xy(sigma);
        let pre_computed = PreComputedRoundCPU::init();
        // The sponge of a 4-input hash: capacity 4, rate 2; absorbs (prefix, x), permutes.
        let mut after_first = [prefix, x, Base::from(4u64)];
        permutation_cpu(&pre_computed, &mut after_first);
        Self {
            pre_computed,
            after_first,
            sigma_y: y,
        }
    }

    /// `ev_j`: absorbs `(sigma.y, j)`, permutes, squeezes the first element.
    pub fn value(&self, j: u64) -> Base {
        let mut register = self.after_first;
        register[0] += self.sigma_y;
        register[1] += Base::from(j);
        permutation_cpu(&self.pre_computed, &mut register);
        register[0]
    }
}

/// mithril-stm's rule: an index wins when `ev <= target` as integers.
pub fn wins(ev: Base, target: Base) -> bool {
    to_biguint(&ev) <= to_biguint(&target)
}

/// One signer of a certificate: its leaf position, leaf, path and signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StmSigner {
    /// The leaf.
    pub leaf: StmLeaf,
    /// Its path.
    pub path: StmPath,
    /// Its unique signature.
    pub signature: StmSignature,
}

/// An index won, with the signer (a position in [`StmCertificate::signers`]) that won it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmIndex {
    /// The lottery index.
    pub index: u64,
    /// The signer's number in the certificate.
    pub signer: usize,
}

/// What the prover proves: signers and exactly `k` increasing indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StmCertificate {
    /// The signers (each once).
    pub signers: Vec<StmSigner>,
    /// The indices, increasing.
    pub indices: Vec<StmIndex>,
}

/// The indices `0..m` a signature wins for `leaf` (none if it does not verify).
pub fn winning_indices(
    m: u64,
    root: Base,
    message: Base,
    leaf: &StmLeaf,
    signature: &StmSignature,
) -> Vec<u64> {
    if !signature.verify(&leaf.key, &hash_to_point(root, message)) {
        return Vec::new();
    }
    let lottery = LotteryEvaluator::new(lottery_prefix(root, message), &signature.sigma);
    (0..m)
        .filter(|j| wins(lottery.value(*j), leaf.target))
        .collect()
}

/// Aggregates single signatures `(leaf position, signature)` for `message` into a certificate of
/// the `k` lowest won indices and their signers (at most `k`): refuses a signature that does not
/// verify for its registered key and reports too few indices.
pub fn aggregate(
    tree: &StmTree,
    (m, k): (u64, u64),
    message: Base,
    signatures: &[(usize, StmSignature)],
) -> Result<StmCertificate, MithrilError> {
    let root = tree.root();
    let h = hash_to_point(root, message);
    let prefix = lottery_prefix(root, message);
    let mut signers = Vec::with_capacity(signatures.len());
    for (n, (position, signature)) in signatures.iter().enumerate() {
        let leaf = *tree
            .leaves()
            .get(*position)
            .ok_or(StmError::NotRegistered)?;
        if !signature.verify(&leaf.key, &h) {
            return Err(StmError::InvalidSignature(n).into());
        }
        signers.push((leaf, *position, *signature));
    }
    let lotteries: Vec<LotteryEvaluator> = signers
        .iter()
        .map(|(_, _, signature)| LotteryEvaluator::new(prefix, &signature.sigma))
        .collect();
    // The k lowest indices won by any signer, each with its first signer in signature order:
    // indices in increasing order, so the lotteries past the k-th are never evaluated.
    let mut won: Vec<(u64, usize)> = Vec::with_capacity(k as usize);
    for j in 0..m {
        if won.len() as u64 == k {
            break;
        }
        let winner = signers
            .iter()
            .zip(&lotteries)
            .position(|((leaf, _, _), lottery)| wins(lottery.value(j), leaf.target));
        if let Some(s) = winner {
            won.push((j, s));
        }
    }
    if (won.len() as u64) < k {
        return Err(MithrilError::Stm(format!(
            "{} distinct indices won, quorum {k}",
            won.len()
        )));
    }
    // Only the signers of the chosen indices, renumbered in order (so at most k of them).
    let mut used: Vec<usize> = won.iter().map(|(_, s)| *s).collect();
    used.sort_unstable();
    used.dedup();
    let renumber = |s: usize| used.binary_search(&s).expect("a used signer");
    let chosen = used
        .iter()
        .map(|s| {
            let (leaf, position, signature) = signers[*s];
            Ok(StmSigner {
                leaf,
                path: tree.path(position)?,
                signature,
            })
        })
        .collect::<Result<Vec<_>, MithrilError>>()?;
    Ok(StmCertificate {
        signers: chosen,
        indices: won
            .iter()
            .map(|(index, signer)| StmIndex {
                index: *index,
                signer: renumber(*signer),
            })
            .collect(),
    })
}

/// The relation the circuit proves, off-circuit: every signer's path reaches `root`, its
/// signature verifies for `H(root, message)`, and the `k` indices increase, stay below `m` and
/// are won by their signers.
pub fn verify(
    root: Base,
    message: Base,
    (m, k): (u64, u64),
    certificate: &StmCertificate,
) -> Result<(), MithrilError> {
    let h = hash_to_point(root, message);
    for (n, signer) in certificate.signers.iter().enumerate() {
        if signer.path.siblings.len() != TREE_DEPTH || signer.path.root(signer.leaf.hash()) != root
        {
            return Err(StmError::NotInTree(n).into());
        }
        if !signer.signature.verify(&signer.leaf.key, &h) {
            return Err(StmError::InvalidSignature(n).into());
        }
    }
    if certificate.indices.len() as u64 != k {
        return Err(MithrilError::Stm(format!(
            "{} indices, quorum {k}",
            certificate.indices.len()
        )));
    }
    let prefix = lottery_prefix(root, message);
    let mut previous: Option<u64> = None;
    for (index_slot, slot) in certificate.indices.iter().enumerate() {
        if previous.is_some_and(|p| p >= slot.index) || slot.index >= m {
            return Err(MithrilError::Stm(format!(
                "index {} out of order or not below m",
                slot.index
            )));
        }
        previous = Some(slot.index);
        let signer =
            certificate
                .signers
                .get(slot.signer)
                .ok_or(StmError::SignerSlotOutOfRange {
                    index_slot,
                    signer_slot: slot.signer,
                })?;
        let ev = lottery_value(prefix, &signer.signature.sigma, Base::from(slot.index));
        if !wins(ev, signer.leaf.target) {
            return Err(StmError::LostLottery(slot.index).into());
        }
    }
    Ok(())
}
