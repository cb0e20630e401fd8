//! The generated Plutus validator on a real Schnorr ATMS certificate (6 members, 3 sign, t = 3,
//! flat; insecure test parameters), evaluated with `uplc` 1.1.24 under the pinned Plutus V3 cost
//! model in both protocol-version modes (pv 10: the MSM as a fold of scalar multiplications,
//! mainnet today; pv 11: the CIP-0133 MSM builtin). The honest certificate is accepted; a changed
//! proof byte, another message, another committee and a stricter threshold are each refused.
//! Each evaluation prints one line that CI greps:
//! `plutus-budget scheme=schnorr-atms case=<case> cpu=.. mem=.. script_bytes=.. tx_bytes=.. pv=<10|11>`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    message_to_field,
    prover::{insecure_test_params, keygen, min_k, prove, verify, DefaultTranscriptHash},
    AtmsInstance, AtmsShape, AtmsWitness, Base, Certificate, CommitmentMode, Committee, SigningKey,
};
use tms_cardano::plutus::{self, uplc::MsmMode, Entry};
use uplc::ast::{Name, Program};

const MESSAGE: &[u8] = b"sidechain epoch 42";

#[test]
fn schnorr_atms_validator_budgets() {
    let (n, signers, t) = (6, 3, 3u64);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    let m = message_to_field(MESSAGE);
    let sigs: Vec<_> = sks[..signers]
        .iter()
        .map(|sk| (sk.verifying_key(), sk.sign(m)))
        .collect();
    let cert = Certificate::aggregate(&committee, m, &sigs).unwrap();
    let mut shape = AtmsShape {
        n,
        mode: CommitmentMode::Flat,
        k: 10,
    };
    shape.k = min_k(&shape);
    let w = AtmsWitness::new(shape, &committee, &cert, t).unwrap();

    let params = insecure_test_params(shape.k);
    let keys = keygen(&params, shape).unwrap();
    let vp = params.verifier_params();
    let proof =
        prove::<DefaultTranscriptHash>(&params, &keys, &w, ChaCha8Rng::seed_from_u64(1)).unwrap();
    // The statement the verifier builds from what it trusts.
    let trusted = AtmsInstance::from_trusted(&shape, &committee, MESSAGE, t).unwrap();
    verify::<DefaultTranscriptHash>(&vp, keys.vk(), &trusted, &proof).unwrap();
    let commitment = trusted.commitment;
    let pi = trusted.to_public_inputs();
    let vk = keys.vk();

    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let pv = plutus::protocol_version(mode);
            let make = |c: Base, t: u64| {
                plutus::validator(
                    &vp,
                    vk,
                    &[Entry::Param(c), Entry::Message, Entry::Threshold(t)],
                    mode,
                )
                .unwrap()
            };
            let honest_v = make(commitment, t);
            let script = plutus::script_bytes(&honest_v).len();
            // `stmt` is the statement the hints are computed for (what the script will build).
            let verifier = plutus::Halo2Verifier::new(&vp, vk, mode);
            let run = |case: &str, v: &Program<Name>, msg: &[u8], p: &[u8], stmt: &[Base]| {
                let (b, red) = plutus::run_example(v, &verifier, msg, p, stmt);
                println!(
                    "plutus-budget scheme=schnorr-atms case={case} cpu={} mem={} script_bytes={script} tx_bytes={} pv={pv}",
                    b.cpu,
                    b.mem,
                    script + plutus::data_bytes(&red)
                );
                b
            };
            let honest = run("honest", &honest_v, MESSAGE, &proof, &pi);
            assert!(honest.accepted, "honest certificate refused: {honest:?}");

            let mut bad = proof.clone();
            bad[proof.len() / 3] ^= 1;
            assert!(!run("changed-proof-byte", &honest_v, MESSAGE, &bad, &pi).accepted);

            let other_msg = b"sidechain epoch 43";
            let other_pi = [pi[0], message_to_field(other_msg), pi[2]];
            assert!(!run("other-message", &honest_v, other_msg, &proof, &other_pi).accepted);

            // Another committee: the same keys in another order (another flat commitment).
            let mut keys_swapped = committee.keys().to_vec();
            keys_swapped.swap(0, 1);
            let other_c = Committee::new(keys_swapped)
                .unwrap()
                .commitment(CommitmentMode::Flat);
            assert_ne!(other_c, commitment);
            let v = make(other_c, t);
            let stmt = [other_c, pi[1], pi[2]];
            assert!(!run("other-committee", &v, MESSAGE, &proof, &stmt).accepted);

            let v = make(commitment, t + 1);
            let stmt = [pi[0], pi[1], Base::from(t + 1)];
            assert!(!run("stricter-threshold", &v, MESSAGE, &proof, &stmt).accepted);
        }
    });
}
