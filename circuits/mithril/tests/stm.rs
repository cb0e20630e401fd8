//! End-to-end tests of the native scheme: registration, signing, aggregation, verification, and
//! the verifier's rejections.

use halo2_base::halo2_proofs::halo2curves::group::Curve;
use mithril_core::{stm::StmError, CoreError};
use mithril_snark::{
    aggregate,
    eligibility::target,
    params::Tag,
    registration::Party,
    signature,
    stm::{lottery_value, verify_single, wins, IndexSlot, SignerSlot},
    verify, Certificate, MithrilError, Parameters, PhiF, Registration, Signer, SingleSignature,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_gadgets::{
    hash::{NativeHash, Poseidon},
    merkle::MerkleTree,
    signature::schnorr::SigningKey,
    Fr,
};

fn keys(n: usize, seed: u64) -> Vec<SigningKey> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..n).map(|_| SigningKey::random(&mut rng)).collect()
}

fn setup(params: Parameters, stakes: &[u64]) -> (Vec<SigningKey>, Registration) {
    let sks = keys(stakes.len(), 7);
    let entries: Vec<_> = sks
        .iter()
        .zip(stakes)
        .map(|(sk, s)| (sk.verifying_key(), *s))
        .collect();
    let reg = Registration::new(params, &entries).unwrap();
    (sks, reg)
}

fn sign_all(sks: &[SigningKey], reg: &Registration, msg: Fr) -> Vec<SingleSignature> {
    sks.iter()
        .filter_map(|sk| Signer::new(*sk, reg).unwrap().sign(msg).unwrap())
        .collect()
}

/// Preprod parameters, ten parties of different stakes.
fn preprod() -> (Vec<SigningKey>, Registration, Vec<SingleSignature>, Fr) {
    let stakes = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    let (sks, reg) = setup(Parameters::PREPROD, &stakes);
    let msg = Fr::from(0xc0ffee);
    let sigs = sign_all(&sks, &reg, msg);
    (sks, reg, sigs, msg)
}

/// A certificate with the given (index, party) choices, no validity checks.
fn manual(reg: &Registration, sigs: &[SingleSignature], choice: &[(u64, usize)]) -> Certificate {
    let mut parties: Vec<usize> = choice.iter().map(|c| c.1).collect();
    parties.sort_unstable();
    parties.dedup();
    let signers = parties
        .iter()
        .map(|&p| SignerSlot {
            party: reg.parties()[p],
            path: reg.path(p).unwrap(),
            signature: sigs.iter().find(|s| s.party == p).unwrap().signature,
        })
        .collect();
    let indices = choice
        .iter()
        .map(|&(index, p)| IndexSlot {
            index,
            signer: parties.binary_search(&p).unwrap(),
        })
        .collect();
    Certificate { indices, signers }
}

#[test]
fn registration_tree_and_targets() {
    let stakes = [5u64, 1, 1_000_000, 77];
    let (sks, reg) = setup(Parameters::PREPROD, &stakes);
    assert_eq!(reg.total_stake(), stakes.iter().sum::<u64>());
    let leaves: Vec<Fr> = reg.parties().iter().map(|p| p.leaf().unwrap()).collect();
    let tree = MerkleTree::new(Poseidon, leaves.clone()).unwrap();
    assert_eq!(reg.commitment().root, tree.root());
    for (i, p) in reg.parties().iter().enumerate() {
        assert_eq!(p.key, sks[i].verifying_key());
        let t = target(PhiF::new(7, 10).unwrap(), p.stake, reg.total_stake()).unwrap();
        assert_eq!(p.target, halo2_base::utils::biguint_to_fe(&t.value));
        let path = reg.path(i).unwrap();
        assert!(path.verify(&Poseidon, leaves[i], tree.root()));
    }
    // The total stake and the parameters are committed.
    let c = reg.commitment();
    let mut other = c;
    other.total_stake += 1;
    assert_ne!(c.digest(), other.digest());
    let mut other = c;
    other.params = Parameters::MAINNET;
    assert_ne!(c.digest(), other.digest());
    assert_ne!(c.message(Fr::one()), other.message(Fr::one()));

    let pk = sks[0].verifying_key();
    let pk2 = sks[1].verifying_key();
    let p = Parameters::PREPROD;
    assert_eq!(
        Registration::new(p, &[]).unwrap_err(),
        MithrilError::Core(CoreError::EmptyRegistration)
    );
    assert_eq!(
        Registration::new(p, &[(pk, 1), (pk2, 0)]).unwrap_err(),
        MithrilError::Core(CoreError::ZeroStake(1))
    );
    assert_eq!(
        Registration::new(p, &[(pk, 1), (pk, 2)]).unwrap_err(),
        MithrilError::Core(CoreError::DuplicateKey(1))
    );
    assert_eq!(
        Registration::new(p, &[(pk, u64::MAX), (pk2, 1)]).unwrap_err(),
        MithrilError::Core(CoreError::StakeOverflow)
    );
    let not_registered = keys(1, 99)[0];
    assert_eq!(
        Signer::new(not_registered, &reg).unwrap_err(),
        MithrilError::Check(StmError::NotRegistered)
    );
}

#[test]
fn lottery_determinism_and_domain_separation() {
    let sk = keys(1, 3)[0];
    let sigma = signature::sign(&sk, Fr::from(5)).unwrap().sigma;
    let ev = lottery_value(&sigma, 17).unwrap();
    assert_eq!(ev, lottery_value(&sigma, 17).unwrap());
    assert_ne!(ev, lottery_value(&sigma, 18).unwrap());
    let [x, y] = signature::coordinates(&sigma).unwrap();
    // Untagged, and tagged with another tag: different values.
    assert_ne!(ev, Poseidon.hash_leaf(&[x, y, Fr::from(17)]).unwrap());
    assert_ne!(
        ev,
        Poseidon
            .hash_leaf(&[Tag::Challenge.value(), x, y, Fr::from(17)])
            .unwrap()
    );
    assert_eq!(
        ev,
        Poseidon
            .hash_leaf(&[Tag::Lottery.value(), x, y, Fr::from(17)])
            .unwrap()
    );
    // Signing again gives the same sigma, so the same lottery values.
    assert_eq!(sigma, signature::sign(&sk, Fr::from(5)).unwrap().sigma);
    // The win rule is a strict integer comparison.
    assert!(wins(Fr::from(4), Fr::from(5)));
    assert!(!wins(Fr::from(5), Fr::from(5)));
    assert!(!wins(Fr::from(6), Fr::from(5)));
}

#[test]
fn end_to_end_preprod() {
    let (_, reg, sigs, msg) = preprod();
    for s in &sigs {
        verify_single(&reg, msg, s).unwrap();
    }
    let cert = aggregate(&reg, msg, &sigs).unwrap();
    assert_eq!(cert.indices.len() as u64, Parameters::PREPROD.k());
    assert!(cert.indices.windows(2).all(|w| w[0].index < w[1].index));
    assert!(cert
        .signers
        .windows(2)
        .all(|w| w[0].path.index < w[1].path.index));
    verify(&reg.commitment(), msg, &cert).unwrap();
    // Won indices only, and no more signer slots than the k smallest winning indices would need.
    let mut all: Vec<u64> = sigs.iter().flat_map(|s| s.indices.clone()).collect();
    all.sort_unstable();
    all.dedup();
    assert!(cert.indices.iter().all(|s| all.contains(&s.index)));
    let smallest_k_signers: std::collections::BTreeSet<usize> = all[..cert.indices.len()]
        .iter()
        .map(|j| {
            sigs.iter()
                .filter(|s| s.indices.contains(j))
                .map(|s| s.party)
                .min()
                .unwrap()
        })
        .collect();
    assert!(cert.signers.len() <= smallest_k_signers.len());
    // Deterministic.
    assert_eq!(cert, aggregate(&reg, msg, &sigs).unwrap());
}

#[test]
fn aggregator_dedupes_and_skips_invalid() {
    let (_, reg, sigs, msg) = preprod();
    let cert = aggregate(&reg, msg, &sigs).unwrap();
    // Every signature submitted twice, in reverse order: same certificate.
    let mut twice: Vec<_> = sigs.iter().rev().cloned().collect();
    twice.extend(sigs.iter().cloned());
    assert_eq!(cert, aggregate(&reg, msg, &twice).unwrap());
    // Every index slot goes to a signer that won it.
    for slot in &cert.indices {
        let owner = cert.signers[slot.signer].path.index;
        assert!(sigs
            .iter()
            .any(|s| s.party == owner && s.indices.contains(&slot.index)));
    }
    // A forged single signature (claims an index it did not win) is skipped.
    let mut forged = sigs[0].clone();
    let lost = (0..100).find(|j| !forged.indices.contains(j)).unwrap();
    forged.indices = vec![lost];
    assert!(matches!(
        verify_single(&reg, msg, &forged),
        Err(MithrilError::Check(StmError::LostLottery(_)))
    ));
    // The forged one is skipped; the honest signature of the same party, submitted after it, is
    // still accepted.
    let mut with_forged = vec![forged];
    with_forged.extend(sigs.iter().cloned());
    assert_eq!(aggregate(&reg, msg, &with_forged).unwrap(), cert);
}

#[test]
fn aggregator_too_few_wins() {
    // k = m: ten parties of equal stake win about 11 indices each, far from covering all 100.
    let params = Parameters::new(100, 100, PhiF::new(7, 10).unwrap()).unwrap();
    let (sks, reg) = setup(params, &[1; 10]);
    let msg = Fr::from(1);
    let sigs = sign_all(&sks, &reg, msg);
    match aggregate(&reg, msg, &sigs) {
        Err(MithrilError::Core(CoreError::NotEnoughIndices { found, k: 100 })) => {
            assert!(found < 100)
        }
        other => panic!("unexpected {other:?}"),
    }
    // No signature at all.
    assert!(matches!(
        aggregate(&reg, msg, &[] as &[SingleSignature]),
        Err(MithrilError::Core(CoreError::NotEnoughIndices {
            found: 0,
            ..
        }))
    ));
}

#[test]
fn verifier_negatives() {
    let (sks, reg, sigs, msg) = preprod();
    let c = reg.commitment();
    let cert = aggregate(&reg, msg, &sigs).unwrap();
    verify(&c, msg, &cert).unwrap();
    let m = Parameters::PREPROD.m();

    // Index >= m.
    let mut bad = cert.clone();
    bad.indices.last_mut().unwrap().index = m;
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Core(CoreError::IndexOutOfRange {
            index: m,
            m
        }))
    );
    // Repeated index.
    let mut bad = cert.clone();
    bad.indices[1].index = bad.indices[0].index;
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Core(CoreError::IndicesNotIncreasing {
            position: 1
        }))
    );
    // Decreasing indices.
    let mut bad = cert.clone();
    bad.indices.swap(0, 1);
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Core(CoreError::IndicesNotIncreasing {
            position: 1
        }))
    );
    // Fewer than k.
    let mut bad = cert.clone();
    bad.indices.pop();
    assert!(matches!(
        verify(&c, msg, &bad),
        Err(MithrilError::Core(CoreError::NotEnoughIndices { .. }))
    ));
    // Wrong message.
    assert!(matches!(
        verify(&c, msg + Fr::one(), &cert),
        Err(MithrilError::Check(StmError::InvalidSignature(_)))
    ));
    // Stake changed in the leaf.
    let mut bad = cert.clone();
    bad.signers[0].party.stake += 1;
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::NotInTree(0)))
    );
    // Target raised in the leaf (a bigger lottery).
    let mut bad = cert.clone();
    bad.signers[0].party.target += Fr::one();
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::NotInTree(0)))
    );
    // A leaf that is not in the tree: an unregistered key with a valid signature.
    let outsider = keys(1, 1234)[0];
    let mut bad = cert.clone();
    bad.signers[0].party.key = outsider.verifying_key();
    bad.signers[0].signature = signature::sign(&outsider, c.message(msg)).unwrap();
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::NotInTree(0)))
    );
    // A signature under another (registered) key.
    let slot0 = cert.signers[0].path.index;
    let other = (slot0 + 1) % sks.len();
    let mut bad = cert.clone();
    bad.signers[0].signature = signature::sign(&sks[other], c.message(msg)).unwrap();
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::InvalidSignature(0)))
    );
    // Tampered sigma (a proof for another point).
    let mut bad = cert.clone();
    let g = halo2_base::halo2_proofs::halo2curves::grumpkin::G1Affine::generator();
    bad.signers[0].signature.sigma = (bad.signers[0].signature.sigma + g).to_affine();
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::InvalidSignature(0)))
    );
    // Another registration.
    let (_, reg2) = setup(
        Parameters::PREPROD,
        &[10, 20, 30, 40, 50, 60, 70, 80, 90, 101],
    );
    assert!(verify(&reg2.commitment(), msg, &cert).is_err());
    // Signer slot out of range, unused signer slot, signer repeated.
    let mut bad = cert.clone();
    bad.indices[0].signer = bad.signers.len();
    assert!(matches!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::SignerSlotOutOfRange { .. }))
    ));
    let mut bad = cert.clone();
    bad.signers.push(bad.signers[0].clone());
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::UnusedSignerSlot(
            cert.signers.len()
        )))
    );
    // The same signer in two slots (each used): its registration index is not increasing.
    let rich = sigs.iter().max_by_key(|s| s.indices.len()).unwrap();
    assert!(rich.indices.len() >= 5);
    let choice: Vec<(u64, usize)> = rich.indices[..5].iter().map(|&j| (j, rich.party)).collect();
    let mut bad = manual(&reg, &sigs, &choice);
    verify(&c, msg, &bad).unwrap();
    bad.signers.push(bad.signers[0].clone());
    for s in bad.indices.iter_mut().skip(1) {
        s.signer = 1;
    }
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::SignersNotIncreasing(1)))
    );

    // Lost lottery: an index party 0 did not win, with k - 1 honest winners beside it.
    let p0 = &sigs.iter().find(|s| s.party == 0).unwrap().indices;
    let lost = (0..m).find(|j| !p0.contains(j)).unwrap();
    let mut choice: Vec<(u64, usize)> = vec![(lost, 0)];
    for s in &sigs {
        for &j in &s.indices {
            if choice.len() < Parameters::PREPROD.k() as usize && choice.iter().all(|c| c.0 != j) {
                choice.push((j, s.party));
            }
        }
    }
    choice.sort_unstable();
    let bad = manual(&reg, &sigs, &choice);
    assert_eq!(
        verify(&c, msg, &bad),
        Err(MithrilError::Check(StmError::LostLottery(lost)))
    );
    // The same construction with a won index verifies (the helper itself is sound).
    let mut choice: Vec<(u64, usize)> = Vec::new();
    for s in &sigs {
        for &j in &s.indices {
            if choice.len() < 5 && choice.iter().all(|c| c.0 != j) {
                choice.push((j, s.party));
            }
        }
    }
    choice.sort_unstable();
    verify(&c, msg, &manual(&reg, &sigs, &choice)).unwrap();
}

#[test]
fn mainnet_parameters_small_registration() {
    // Mainnet m, k, phi_f with three equal parties: each wins about 7% of 16,948 lotteries,
    // about 3,300 distinct indices together, above k = 1944.
    let (sks, reg) = setup(Parameters::MAINNET, &[1_000, 1_000, 1_000]);
    let msg = Fr::from(2026);
    let sigs = sign_all(&sks, &reg, msg);
    assert_eq!(sigs.len(), 3);
    for s in &sigs {
        let frac = s.indices.len() as f64 / 16948.0;
        assert!((0.06..0.085).contains(&frac), "{frac}");
    }
    let cert = aggregate(&reg, msg, &sigs).unwrap();
    assert_eq!(cert.indices.len(), 1944);
    // Two parties' 2 x ~1,200 indices already reach k: the aggregator needs only two slots.
    assert_eq!(cert.signers.len(), 2);
    verify(&reg.commitment(), msg, &cert).unwrap();
    let _: &Party = &cert.signers[0].party;
}
