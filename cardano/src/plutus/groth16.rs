//! The Groth16 verifier of a gnark (v0.16.1) BLS12-381 proof with one BSB22 commitment, emitted as
//! UPLC: what a bridge runs when the certificate's halo2 proof is wrapped in Groth16 (issue 47).
//!
//! The key and proofs come from `evm/groth16` (`plutus.go`: `newPlutusKey`, `plutusProofBytes`,
//! and its native twin `plutusVerify`, which checks exactly what this script checks). With `x`
//! the `n` public inputs (each `0 <= x_i < r`) and the proof `A (48) || B (96) || C (48) ||
//! Com (48) || Pok (48)`, every point compressed and uncompressed by the builtins (so on the curve
//! and in its prime-order subgroup):
//!
//! ```text
//! h = blake2b-256(Com bytes || x_j (32 bytes BE) for j hashed with the commitment) read BE
//! L = K0 + sum x_i K_(i+1) + h K_(n+1) + Com
//! rho = blake2b-256(proof || x_0 .. x_(n-1), 32 bytes BE each) read BE mod r, refused when 0
//! e(A, B) e(rho Com, GSigmaNeg) == e(alpha, beta) e(L - rho Pok, gamma) e(C, delta)
//! ```
//!
//! That is gnark's Groth16 equation `X = 1` and its proof of knowledge of the commitment's opening
//! `Y = e(Com, GSigmaNeg) e(Pok, G) = 1` checked together as `X Y^rho = 1`, for a key whose
//! Pedersen G2 point G is gamma (gnark's mpcsetup ceremony makes it so; `plutus.go` re-keys a
//! seeded test setup to it): five Miller loops, one `finalVerify`. Why one check suffices: X and Y
//! lie in the order-r subgroup of GT (every G1/G2 point here is subgroup-checked); if Y != 1,
//! `X Y^rho = 1` holds for exactly one rho mod r, fixed by the proof and inputs, and rho is a hash
//! of those bytes, so a prover hits it with probability about 2^-253 per hash tried (the argument
//! of `evm/groth16/batched.go`, there over keccak256 and BN254). `h` is gnark's commitment hash
//! with our hash-to-field (`plutusCommitmentHash`: blake2b-256 over the commitment compressed,
//! since Plutus cannot serialise a point uncompressed).
//!
//! The verifier takes no hints: the `hints` argument must be empty (a byte there would let anyone
//! change a pending transaction's redeemer without changing its outcome).

use ::uplc::{
    ast::{Name, Term},
    builtins::DefaultFunction as F,
};
use group::{prime::PrimeCurveAffine, Curve, GroupEncoding};
use midnight_curves::{G1Affine, G1Projective, G2Affine};

use super::{
    bridge::{call, Lets},
    protocol_version, scenario,
    uplc::{modulus, MsmMode},
    MessageRule, ScriptVerifier,
};
use crate::backend::Fr;

/// The proof's length: four compressed G1 points and one compressed G2 point.
pub const PROOF_LEN: usize = 4 * 48 + 96;

/// Offsets of the proof's points: A, B, C, Com, Pok.
const OFFSETS: [(usize, usize); 5] = [(0, 48), (48, 96), (144, 48), (192, 48), (240, 48)];

/// Why a Groth16 key is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Groth16Error {
    /// The key file is not the JSON `evm/groth16` writes.
    #[error("the Groth16 key is not valid JSON with the expected fields: {0}")]
    Format(String),
    /// A point that is not a compressed point of its group (on the curve, in the subgroup).
    #[error("the Groth16 key's {0} is not a point of its group")]
    Point(String),
    /// The commitment key's G is not gamma: the one-check verifier needs it to be.
    #[error(
        "the commitment key's G2 point is not gamma: use a ceremony's key or re-key the setup"
    )]
    CommitmentG,
    /// A key made without a ceremony, used where a real key is required.
    #[error("the Groth16 key is INSECURE ({0}): refused without an explicit test flag")]
    Insecure(String),
    /// A key that does not say INSECURE but carries no ceremony record that holds.
    #[error(
        "the Groth16 key claims {setup:?} but {why}: refused without an explicit test flag \
         (extract a ceremony's key with `ceremony-extract -plutus-key`)"
    )]
    Unproven {
        /// What the key's `setup` says.
        setup: String,
        /// What is missing or does not hold.
        why: String,
    },
    /// A proof the native verifier refuses.
    #[error("the Groth16 proof does not verify: {0}")]
    Rejected(String),
}

/// One phase-2 contribution of a ceremony's δ chain (`evm/groth16/plutus_ceremony.go`):
/// `delta = x prev_delta`, `contribution = [x]_1`, `pok = x pok_base`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DeltaLink {
    delta: G1Affine,
    contribution: G1Affine,
    pok_base: G2Affine,
    pok: G2Affine,
}

/// What a key extracted from a BLS12-381 ceremony records beside its points: phase 2's δ chain
/// and the beacon's factor, so that its δ is shown to be `b x_1 .. x_K` with a proof of
/// knowledge of each `x_i`. See [`Groth16Key::trusted`] for what that proves and what not.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CeremonyRecord {
    phase2_contributions: usize,
    chain: Vec<DeltaLink>,
    beacon_delta: Fr,
}

/// A gnark BLS12-381 Groth16 verifying key with one BSB22 commitment whose G is gamma, as
/// `evm/groth16`'s `plutus-fixture` (and later the wrapper) writes it: points compressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groth16Key {
    alpha: [u8; 48],
    beta: [u8; 96],
    gamma: [u8; 96],
    delta: [u8; 96],
    k: Vec<[u8; 48]>,
    g_sigma_neg: [u8; 96],
    public_committed: Vec<usize>,
    /// With a hashed statement: how many words are hashed into the one public input.
    statement_words: Option<usize>,
    setup: String,
    ceremony: Option<CeremonyRecord>,
}

/// The point `bytes` encode (compressed, checked: on the curve, in the subgroup), if any.
fn decode<P: GroupEncoding>(bytes: &[u8]) -> Option<P> {
    let mut repr = P::Repr::default();
    if repr.as_ref().len() != bytes.len() {
        return None;
    }
    repr.as_mut().copy_from_slice(bytes);
    P::from_bytes(&repr).into()
}

fn g1_bytes(v: &serde_json::Value, what: &str) -> Result<[u8; 48], Groth16Error> {
    let b: [u8; 48] = hex_field(v, what)?
        .try_into()
        .map_err(|_| Groth16Error::Point(what.into()))?;
    decode::<G1Affine>(&b)
        .map(|_| b)
        .ok_or_else(|| Groth16Error::Point(what.into()))
}

fn g2_bytes(v: &serde_json::Value, what: &str) -> Result<[u8; 96], Groth16Error> {
    let b: [u8; 96] = hex_field(v, what)?
        .try_into()
        .map_err(|_| Groth16Error::Point(what.into()))?;
    decode::<G2Affine>(&b)
        .map(|_| b)
        .ok_or_else(|| Groth16Error::Point(what.into()))
}

fn g1_point(v: &serde_json::Value, what: &str) -> Result<G1Affine, Groth16Error> {
    let b = g1_bytes(v, what)?;
    Ok(decode(&b).expect("checked by g1_bytes"))
}

fn g2_point(v: &serde_json::Value, what: &str) -> Result<G2Affine, Groth16Error> {
    let b = g2_bytes(v, what)?;
    Ok(decode(&b).expect("checked by g2_bytes"))
}

/// The `ceremony` object of a key, parsed (its relations are checked by [`CeremonyRecord::holds`]).
fn ceremony_record(v: &serde_json::Value) -> Result<CeremonyRecord, Groth16Error> {
    let bad = |what: &str| Groth16Error::Format(format!("ceremony: {what}"));
    let links = v
        .get("phase2_delta_chain")
        .and_then(|c| c.as_array())
        .ok_or_else(|| bad("phase2_delta_chain is not a list"))?;
    let chain = links
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let f = |name: &str| {
                l.get(name)
                    .ok_or_else(|| bad(&format!("link {i}: {name} missing")))
            };
            Ok(DeltaLink {
                delta: g1_point(f("delta_g1")?, &format!("ceremony link {i} delta"))?,
                contribution: g1_point(
                    f("contribution_g1")?,
                    &format!("ceremony link {i} contribution"),
                )?,
                pok_base: g2_point(f("pok_base_g2")?, &format!("ceremony link {i} pok base"))?,
                pok: g2_point(f("pok_g2")?, &format!("ceremony link {i} pok"))?,
            })
        })
        .collect::<Result<Vec<_>, Groth16Error>>()?;
    let beacon: [u8; 32] = hex_field(
        v.get("beacon_delta")
            .ok_or_else(|| bad("beacon_delta missing"))?,
        "ceremony beacon_delta",
    )?
    .try_into()
    .map_err(|_| bad("beacon_delta is not 32 bytes"))?;
    let mut le = beacon;
    le.reverse();
    let beacon_delta = Option::from(<Fr as ff::PrimeField>::from_repr(le))
        .ok_or_else(|| bad("beacon_delta is not below r"))?;
    let phase2_contributions =
        v.get("phase2_contributions")
            .and_then(|n| n.as_u64())
            .ok_or_else(|| bad("phase2_contributions missing"))? as usize;
    Ok(CeremonyRecord {
        phase2_contributions,
        chain,
        beacon_delta,
    })
}

impl CeremonyRecord {
    /// The chain from `[1]_1` to `delta_key`: each link's proof of knowledge
    /// `e([x]_1, R) = e([1]_1, pi)`, each step `e(delta_i, R) = e(delta_(i-1), pi)`, and the seal
    /// `e(b delta_K, [1]_2) = e([1]_1, delta_key)`.
    fn holds(&self, delta_key: &G2Affine) -> Result<(), String> {
        use midnight_curves::{pairing::Engine, Bls12};
        if self.chain.is_empty() || self.chain.len() != self.phase2_contributions {
            return Err(format!(
                "its ceremony record has {} links for {} phase-2 contributions",
                self.chain.len(),
                self.phase2_contributions
            ));
        }
        let g1 = G1Affine::generator();
        let mut prev = g1;
        for (i, l) in self.chain.iter().enumerate() {
            if bool::from(l.contribution.is_identity()) {
                return Err(format!("ceremony link {i} is a zero contribution"));
            }
            if Bls12::pairing(&l.contribution, &l.pok_base) != Bls12::pairing(&g1, &l.pok) {
                return Err(format!(
                    "ceremony link {i}'s proof of knowledge does not hold"
                ));
            }
            if Bls12::pairing(&l.delta, &l.pok_base) != Bls12::pairing(&prev, &l.pok) {
                return Err(format!(
                    "ceremony link {i}'s delta is not the previous delta times its contribution"
                ));
            }
            prev = l.delta;
        }
        let sealed = (G1Projective::from(prev) * self.beacon_delta).to_affine();
        if Bls12::pairing(&sealed, &G2Affine::generator()) != Bls12::pairing(&g1, delta_key) {
            return Err("the key's delta is not the end of its ceremony's delta chain".into());
        }
        Ok(())
    }
}

fn hex_field(v: &serde_json::Value, what: &str) -> Result<Vec<u8>, Groth16Error> {
    let s = v
        .as_str()
        .ok_or_else(|| Groth16Error::Format(format!("{what} is not a string")))?;
    hex::decode(s).map_err(|_| Groth16Error::Format(format!("{what} is not hex")))
}

impl Groth16Key {
    /// Parses the key JSON (`key` of `plutus-fixture`'s output, or the whole file): every point
    /// checked, the commitment's G equal to gamma, the hashed inputs within the inputs.
    pub fn from_json(text: &str) -> Result<Self, Groth16Error> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Groth16Error::Format(e.to_string()))?;
        Self::from_value(v.get("key").unwrap_or(&v))
    }

    /// [`Groth16Key::from_json`] of a parsed value.
    pub fn from_value(v: &serde_json::Value) -> Result<Self, Groth16Error> {
        let field = |name: &str| {
            v.get(name)
                .ok_or_else(|| Groth16Error::Format(format!("{name} missing")))
        };
        if field("curve")?.as_str() != Some("bls12-381") {
            return Err(Groth16Error::Format("curve is not bls12-381".into()));
        }
        let k = field("k_g1")?
            .as_array()
            .ok_or_else(|| Groth16Error::Format("k_g1 is not a list".into()))?
            .iter()
            .enumerate()
            .map(|(i, p)| g1_bytes(p, &format!("K{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        if k.len() < 2 {
            return Err(Groth16Error::Format(
                "k_g1 needs the constant and the commitment's points".into(),
            ));
        }
        let public_committed = field("public_committed")?
            .as_array()
            .ok_or_else(|| Groth16Error::Format("public_committed is not a list".into()))?
            .iter()
            .map(|i| {
                i.as_u64()
                    .map(|i| i as usize)
                    .filter(|i| *i < k.len() - 2)
                    .ok_or_else(|| Groth16Error::Format("a hashed input out of range".into()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let statement_words = match v.get("statement_hash").and_then(|h| h.as_str()) {
            None => None,
            Some("keccak256") if k.len() == 3 => Some(
                v.get("statement_words")
                    .and_then(|n| n.as_u64())
                    .filter(|n| *n > 0)
                    .ok_or_else(|| Groth16Error::Format("statement_words missing".into()))?
                    as usize,
            ),
            Some(h) => {
                return Err(Groth16Error::Format(format!(
                    "a statement hash {h:?} over a key of {} inputs",
                    k.len() - 2
                )))
            }
        };
        let gamma = g2_bytes(field("gamma_g2")?, "gamma")?;
        if g2_bytes(field("commitment_g_g2")?, "commitment G")? != gamma {
            return Err(Groth16Error::CommitmentG);
        }
        Ok(Groth16Key {
            alpha: g1_bytes(field("alpha_g1")?, "alpha")?,
            beta: g2_bytes(field("beta_g2")?, "beta")?,
            gamma,
            delta: g2_bytes(field("delta_g2")?, "delta")?,
            k,
            g_sigma_neg: g2_bytes(field("commitment_g_sigma_neg_g2")?, "commitment GSigmaNeg")?,
            public_committed,
            statement_words,
            setup: field("setup")?
                .as_str()
                .ok_or_else(|| Groth16Error::Format("setup is not a string".into()))?
                .to_string(),
            ceremony: v.get("ceremony").map(ceremony_record).transpose()?,
        })
    }

    /// `K0 + sum v_i K_(i+1)` over the fixed inputs, compressed.
    fn start_point(&self, fixed: &[Option<Fr>]) -> Vec<u8> {
        let point = |b: &[u8; 48]| -> G1Projective {
            decode::<G1Affine>(b).expect("checked when parsed").into()
        };
        let sum = fixed
            .iter()
            .zip(&self.k[1..])
            .filter_map(|(f, k)| f.map(|v| point(k) * v))
            .fold(point(&self.k[0]), |a, t| a + t);
        sum.to_affine().to_bytes().as_ref().to_vec()
    }

    /// How many statement words the verifier takes: the Groth16 public inputs, or with a hashed
    /// statement the words hashed into its one input.
    pub fn n_inputs(&self) -> usize {
        self.statement_words.unwrap_or(self.k.len() - 2)
    }

    /// Where the key comes from (`INSECURE seeded: ..` for a test setup).
    pub fn setup(&self) -> &str {
        &self.setup
    }

    /// Whether the key carries a ceremony record (checked by [`Groth16Key::trusted`]).
    pub fn has_ceremony_record(&self) -> bool {
        self.ceremony.is_some()
    }

    /// The key, if it comes from a ceremony or `insecure_test_key` is set.
    ///
    /// A seeded key says `INSECURE ...` in `setup`; a ceremony's key (`ceremony-extract
    /// -plutus-key`) says `mpcsetup ceremony: ...` and records phase 2's delta chain, checked
    /// here by pairings: the key's delta is `b x_1 .. x_K`, each `x_i` with its contributor's
    /// proof of knowledge, `b` the beacon's factor. So a seeded key does not pass by editing
    /// `setup` (or any one field): its delta ends no chain. What the record proves: the key's
    /// delta came out of K recorded updates, and a contributor who kept their `[x_i]_1` can find
    /// it there. What it does not prove: that any contributor was honest (whoever knows a
    /// seeded setup's delta can compute a one-link chain for it: a program, not an edit), that
    /// each proof's base R was hashed from the transcript (`ceremony-extract` checked that), or
    /// anything of phase 1 (tau, alpha, beta) and of the other points: for those, verify the
    /// transcript with `ceremony-verify`. A record present is checked even with the test flag.
    pub fn trusted(self, insecure_test_key: bool) -> Result<Self, Groth16Error> {
        let delta: G2Affine = decode(&self.delta).expect("checked when parsed");
        if let Some(c) = &self.ceremony {
            if let Err(why) = c.holds(&delta) {
                return Err(Groth16Error::Unproven {
                    setup: self.setup,
                    why,
                });
            }
        }
        if insecure_test_key {
            return Ok(self);
        }
        if self.setup.starts_with("INSECURE") {
            return Err(Groth16Error::Insecure(self.setup));
        }
        if !self.setup.starts_with("mpcsetup ceremony") || self.ceremony.is_none() {
            return Err(Groth16Error::Unproven {
                setup: self.setup,
                why: "it records no ceremony (no phase-2 delta chain)".into(),
            });
        }
        Ok(self)
    }

    /// The verifier's native twin (`plutusVerify` of `evm/groth16/plutus.go`, and what
    /// [`verifier_term`] checks): `proof` for the statement `words` (each below r); with a
    /// hashed statement, the one Groth16 input is `keccak256(words, 32 bytes BE each) mod r`, as
    /// the script computes it.
    pub fn verify(&self, proof: &[u8], words: &[num_bigint::BigUint]) -> Result<(), Groth16Error> {
        use midnight_curves::{pairing::Engine, Bls12};
        use num_bigint::BigUint;
        use sha3::{Digest, Keccak256};
        let reject = |why: &str| Err(Groth16Error::Rejected(why.into()));
        let r = BigUint::from_bytes_be(&modulus().to_bytes_be().1);
        // Each word once below r: one statement, one encoding (hashed or not).
        if words.iter().any(|w| *w >= r) {
            return reject("a statement word is not below r");
        }
        let word = |w: &BigUint| {
            let b = w.to_bytes_be();
            let mut out = [0u8; 32];
            out[32 - b.len()..].copy_from_slice(&b);
            out
        };
        let hashed;
        let words = match self.statement_words {
            None => words,
            Some(n) => {
                if words.len() != n {
                    return Err(Groth16Error::Rejected(format!(
                        "{} statement words for a key hashing {n}",
                        words.len()
                    )));
                }
                let mut keccak = Keccak256::new();
                for w in words {
                    keccak.update(word(w));
                }
                hashed = [BigUint::from_bytes_be(&keccak.finalize()) % &r];
                &hashed[..]
            }
        };
        if words.len() != self.k.len() - 2 {
            return Err(Groth16Error::Rejected(format!(
                "{} statement words for a key of {}",
                words.len(),
                self.k.len() - 2
            )));
        }
        if proof.len() != PROOF_LEN {
            return Err(Groth16Error::Rejected(format!(
                "a proof of {} bytes, not {PROOF_LEN}",
                proof.len()
            )));
        }
        let g1_at = |i: usize| decode::<G1Affine>(&proof[OFFSETS[i].0..][..OFFSETS[i].1]);
        let (Some(a), Some(b), Some(c), Some(com), Some(pok)) = (
            g1_at(0),
            decode::<G2Affine>(&proof[OFFSETS[1].0..][..OFFSETS[1].1]),
            g1_at(2),
            g1_at(3),
            g1_at(4),
        ) else {
            return reject("a proof point is not a point of its group");
        };
        let scalar = |x: &BigUint| {
            let mut le = (x % &r).to_bytes_le();
            le.resize(32, 0);
            Option::<Fr>::from(<Fr as ff::PrimeField>::from_repr(
                le.try_into().expect("32"),
            ))
            .expect("reduced mod r")
        };
        let blake = |data: &[u8]| {
            BigUint::from_bytes_be(
                blake2b_simd::Params::new()
                    .hash_length(32)
                    .hash(data)
                    .as_bytes(),
            )
        };
        let mut h_pre = proof[OFFSETS[3].0..][..OFFSETS[3].1].to_vec();
        for &i in &self.public_committed {
            h_pre.extend(word(&words[i]));
        }
        let h = scalar(&blake(&h_pre));
        let mut rho_pre = proof.to_vec();
        for w in words {
            rho_pre.extend(word(w));
        }
        let rho = scalar(&blake(&rho_pre));
        if bool::from(ff::Field::is_zero(&rho)) {
            return reject("the batching scalar is 0");
        }
        let point = |b: &[u8; 48]| -> G1Projective {
            decode::<G1Affine>(b).expect("checked when parsed").into()
        };
        let scalars = words.iter().map(scalar).chain([h]);
        let l = scalars
            .zip(&self.k[1..])
            .fold(point(&self.k[0]), |acc, (s, k)| acc + point(k) * s)
            + G1Projective::from(com)
            - G1Projective::from(pok) * rho;
        let g2 = |b: &[u8; 96]| decode::<G2Affine>(b).expect("checked when parsed");
        let alpha = point(&self.alpha).to_affine();
        let lhs = Bls12::pairing(&a, &b)
            + Bls12::pairing(
                &(G1Projective::from(com) * rho).to_affine(),
                &g2(&self.g_sigma_neg),
            );
        let rhs = Bls12::pairing(&alpha, &g2(&self.beta))
            + Bls12::pairing(&l.to_affine(), &g2(&self.gamma))
            + Bls12::pairing(&c, &g2(&self.delta));
        if lhs != rhs {
            return reject("the pairing product is not 1");
        }
        Ok(())
    }
}

fn int(v: u64) -> Term<Name> {
    Term::integer(v.into())
}

fn slice(of: &Term<Name>, (start, len): (usize, usize)) -> Term<Name> {
    call(
        F::SliceByteString,
        vec![int(start as u64), int(len as u64), of.clone()],
    )
}

/// The Groth16 inputs as terms, their 32-byte words, and which are fixed.
type GrothInputs = (Vec<Term<Name>>, Vec<Term<Name>>, Vec<Option<Fr>>);

/// The verifier of `key` for `n` public inputs: `\proof \hints \x_0 .. \x_(n-1) -> ()`.
/// Panics unless `n` is the key's input count (a validator is made for one key).
pub fn verifier_term(key: &Groth16Key, n: usize) -> Term<Name> {
    verifier_term_with_fixed(key, &vec![None; n])
}

/// [`verifier_term`] with the inputs `fixed[i] = Some(v)` known when the script is made (an
/// observer's committee and threshold): the script checks `x_i == v` and starts from
/// `K0 + sum v_i K_(i+1)`, computed here, which saves a point and a scalar multiplication each.
pub fn verifier_term_with_fixed(key: &Groth16Key, fixed: &[Option<Fr>]) -> Term<Name> {
    let n = fixed.len();
    assert_eq!(
        n,
        key.n_inputs(),
        "a Groth16 key of {} inputs",
        key.n_inputs()
    );
    // Names from -100000 down: apart from the bridge's (-1000 down) and the halo2 verifier's.
    let mut lets = Lets::from(-100_000);
    let proof = lets.name("proof");
    let hints = lets.name("hints");
    let xs: Vec<_> = (0..n).map(|i| lets.name(&format!("x_{i}"))).collect();
    let proof_t = Term::Var(proof.clone());
    let r = Term::integer(modulus());
    lets.check(call(
        F::EqualsInteger,
        vec![
            call(F::LengthOfByteString, vec![Term::Var(hints.clone())]),
            int(0),
        ],
    ));
    lets.check(call(
        F::EqualsInteger,
        vec![
            call(F::LengthOfByteString, vec![proof_t.clone()]),
            int(PROOF_LEN as u64),
        ],
    ));
    let g1 = |lets: &mut Lets, name: &str, bytes: Term<Name>| {
        lets.bind(name, call(F::Bls12_381_G1_Uncompress, vec![bytes]))
    };
    let g2 = |lets: &mut Lets, name: &str, bytes: Term<Name>| {
        lets.bind(name, call(F::Bls12_381_G2_Uncompress, vec![bytes]))
    };
    let a = g1(&mut lets, "a", slice(&proof_t, OFFSETS[0]));
    let b = g2(&mut lets, "b", slice(&proof_t, OFFSETS[1]));
    let c = g1(&mut lets, "c", slice(&proof_t, OFFSETS[2]));
    let com_bytes = lets.bind("com_bytes", slice(&proof_t, OFFSETS[3]));
    let com = g1(&mut lets, "com", com_bytes.clone());
    let pok = g1(&mut lets, "pok", slice(&proof_t, OFFSETS[4]));
    // Each input in [0, r) (a fixed one equal to its value), and its 32 big-endian bytes.
    let words: Vec<Term<Name>> = xs
        .iter()
        .zip(fixed)
        .map(|(x, f)| {
            let x = Term::Var(x.clone());
            if let Some(v) = f {
                lets.check(call(F::EqualsInteger, vec![x, super::fr_term(v)]));
                let mut be = ff::PrimeField::to_repr(v);
                be.reverse();
                return Term::byte_string(be.to_vec());
            }
            lets.check(call(F::LessThanEqualsInteger, vec![int(0), x.clone()]));
            lets.check(call(F::LessThanInteger, vec![x.clone(), r.clone()]));
            lets.bind(
                "x_bytes",
                call(F::IntegerToByteString, vec![Term::bool(true), int(32), x]),
            )
        })
        .collect();
    let concat = |first: Term<Name>, rest: Vec<Term<Name>>| {
        rest.into_iter()
            .fold(first, |acc, t| call(F::AppendByteString, vec![acc, t]))
    };
    // A hashed statement: the one Groth16 input is keccak256 of the words, read BE mod r.
    let (inputs, words, fixed): GrothInputs = match key.statement_words {
        None => (
            xs.iter().map(|x| Term::Var(x.clone())).collect(),
            words,
            fixed.to_vec(),
        ),
        Some(_) => {
            let mut all = words.into_iter();
            let first = all.next().expect("at least one word");
            let digest = call(F::Keccak_256, vec![concat(first, all.collect())]);
            let x = lets.bind(
                "statement_hash",
                call(
                    F::ModInteger,
                    vec![
                        call(F::ByteStringToInteger, vec![Term::bool(true), digest]),
                        r.clone(),
                    ],
                ),
            );
            let word = lets.bind(
                "statement_hash_bytes",
                call(
                    F::IntegerToByteString,
                    vec![Term::bool(true), int(32), x.clone()],
                ),
            );
            (vec![x], vec![word], vec![None])
        }
    };
    let h_pre = concat(
        com_bytes,
        key.public_committed
            .iter()
            .map(|&i| words[i].clone())
            .collect(),
    );
    // h and rho as 256-bit integers: the scalar multiplications reduce mod r themselves.
    let be = |t: Term<Name>| {
        call(
            F::ByteStringToInteger,
            vec![Term::bool(true), call(F::Blake2b_256, vec![t])],
        )
    };
    let h = lets.bind("h", be(h_pre));
    let rho = lets.bind(
        "rho",
        call(F::ModInteger, vec![be(concat(proof_t, words)), r.clone()]),
    );
    lets.check(call(F::LessThanInteger, vec![int(0), rho.clone()]));
    // L - rho Pok = K0 + sum x_i K_(i+1) + h K_(n+1) + Com + (r - rho) Pok.
    let konst = |lets: &mut Lets, name: &str, b: &[u8]| match b.len() {
        48 => g1(lets, name, Term::byte_string(b.to_vec())),
        _ => g2(lets, name, Term::byte_string(b.to_vec())),
    };
    let mut acc = konst(&mut lets, "k0", &key.start_point(&fixed));
    let scalars = inputs
        .into_iter()
        .zip(&fixed)
        .map(|(x, f)| f.is_none().then_some(x))
        .chain([Some(h)]);
    for (s, k) in scalars.zip(&key.k[1..]) {
        let Some(s) = s else { continue };
        let k = konst(&mut lets, "k", k);
        let t = call(F::Bls12_381_G1_ScalarMul, vec![s, k]);
        acc = lets.bind("l", call(F::Bls12_381_G1_Add, vec![acc, t]));
    }
    acc = lets.bind("l", call(F::Bls12_381_G1_Add, vec![acc, com.clone()]));
    let minus_rho = call(F::SubtractInteger, vec![r, rho.clone()]);
    let l = lets.bind(
        "l",
        call(
            F::Bls12_381_G1_Add,
            vec![acc, call(F::Bls12_381_G1_ScalarMul, vec![minus_rho, pok])],
        ),
    );
    let rho_com = call(F::Bls12_381_G1_ScalarMul, vec![rho, com]);
    let alpha = konst(&mut lets, "alpha", &key.alpha);
    let [beta, gamma, delta, sigma] =
        [&key.beta, &key.gamma, &key.delta, &key.g_sigma_neg].map(|p| konst(&mut lets, "g2", p));
    let ml = |p: Term<Name>, q: Term<Name>| call(F::Bls12_381_MillerLoop, vec![p, q]);
    let mul = |x: Term<Name>, y: Term<Name>| call(F::Bls12_381_MulMlResult, vec![x, y]);
    let lhs = mul(ml(a, b), ml(rho_com, sigma));
    let rhs = mul(mul(ml(alpha, beta), ml(l, gamma)), ml(c, delta));
    lets.check(call(F::Bls12_381_FinalVerify, vec![lhs, rhs]));
    let mut t = lets.wrap(Term::unit());
    for p in xs.into_iter().rev().chain([hints, proof]) {
        t = Term::Lambda {
            parameter_name: p,
            body: t.into(),
        };
    }
    t
}

/// The Groth16 verifier of a key, for the bridge validators and the scenarios.
pub struct Groth16Verifier<'a> {
    /// The scheme's name in printed lines.
    pub scheme: &'a str,
    /// The wrapper's key.
    pub key: &'a Groth16Key,
    /// How the statement's message is made from the signed bytes: the wrapped certificate's
    /// rule (a BN254 certificate: [`MessageRule::Keccak256Bn254`]).
    pub message: MessageRule,
}

impl ScriptVerifier for Groth16Verifier<'_> {
    fn term(&self, n: usize) -> Term<Name> {
        verifier_term(self.key, n)
    }
    fn term_with_fixed(&self, fixed: &[Option<Fr>]) -> Term<Name> {
        verifier_term_with_fixed(self.key, fixed)
    }
    fn hints(&self, _proof: &[u8], _instance: &[Fr]) -> Vec<u8> {
        vec![]
    }
    fn protocol_version(&self) -> u16 {
        // Only PV 10 builtins (no MSM): mainnet today.
        protocol_version(MsmMode::Fold)
    }
    fn forms(&self) -> [&'static str; 3] {
        [
            "groth16-bare-verifier",
            "groth16-state-thread",
            "groth16-observer",
        ]
    }
    fn message_rule(&self) -> MessageRule {
        self.message
    }
    /// A replaced by A + G1's generator: a valid point, a wrong proof.
    fn tampered(&self, proof: &[u8]) -> Option<Vec<u8>> {
        let (start, len) = OFFSETS[0];
        let a: G1Affine = decode(proof.get(start..start + len)?)?;
        let moved = (G1Projective::from(a) + G1Affine::generator()).to_affine();
        let mut out = proof.to_vec();
        out[start..start + len].copy_from_slice(moved.to_bytes().as_ref());
        Some(out)
    }
}

impl scenario::Subject for Groth16Verifier<'_> {
    fn scheme(&self) -> &str {
        self.scheme
    }
}
