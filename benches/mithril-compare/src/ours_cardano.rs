//! Our column on mithril-stm's own stack: the `mithril-jubjub` circuit (midnight-circuits' chips,
//! midnight-proofs, KZG over BLS12-381, Jubjub unique signatures, Poseidon), proved through the
//! Cardano backend's one prover (`tms_cardano::scheme`), and its Plutus verifier evaluated offline.
//!
//! The certificate is the very one the mithril-stm side sees: the same stakes in registration
//! order ([`stakes::stakes`]), the same message bytes ([`stakes::message`]), depth and (m, k,
//! phi_f); only the keys are each system's own (another signature scheme). Signing follows the
//! mithril-stm side's policy: parties in decreasing stake order, a batch at a time, each playing
//! its m lotteries, until the distinct indices won reach k.
//!
//! "prove" is measured as mithril-stm's is, from the collected single signatures to the proof
//! bytes: the aggregation (each signature checked and its won indices re-played, the indices
//! chosen, the Merkle paths taken), the witness and the halo2 proof.

use std::collections::BTreeSet;

use mithril_jubjub::{
    aggregate,
    native::{message_to_field, SigningKey},
    prover::{keygen, layout_stats, min_k, prove, verify},
    MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF, Registration, Signer,
    SingleSignature,
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;
use tms_cardano::plutus::{self, uplc::MsmMode, Entry};

use crate::report::{Measurement, PlutusCost, Timings};
use crate::stakes;
use crate::usage::{self, timed, Timing};
use crate::Config;

/// `phi_f` as a fraction with denominator 10,000.
fn phi_f(value: f64) -> Result<PhiF, String> {
    let (num, den) = stakes::phi_f_fraction(value)?;
    PhiF::new(num, den).map_err(|e| format!("phi_f: {e}"))
}

/// Single signatures of the largest-stake parties, a batch at a time in parallel, until their
/// distinct won indices reach `quorum` (or every party has signed).
fn sign_until_quorum(
    keys: &[SigningKey],
    registration: &Registration,
    msg: mithril_jubjub::native::Base,
    quorum: u64,
) -> Result<(Vec<SingleSignature>, usize), String> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(registration.parties()[i].stake));
    let batch = 4 * rayon::current_num_threads().max(1);
    let (mut singles, mut won, mut tried) = (Vec::new(), BTreeSet::new(), 0);
    for chunk in order.chunks(batch) {
        if won.len() as u64 >= quorum {
            break;
        }
        let signed: Vec<Option<SingleSignature>> = chunk
            .par_iter()
            .map(|&i| {
                Signer::new(keys[i], registration)
                    .and_then(|signer| signer.sign(msg))
                    .map_err(|e| format!("party {i} signs: {e}"))
            })
            .collect::<Result<_, String>>()?;
        tried += chunk.len();
        for single in signed.into_iter().flatten() {
            won.extend(single.indices.iter().copied());
            singles.push(single);
        }
    }
    if (won.len() as u64) < quorum {
        return Err(format!(
            "every party signed and {} distinct indices were won: fewer than k = {quorum}",
            won.len()
        ));
    }
    Ok((singles, tried))
}

/// Runs our Cardano circuit once on the certificate `config` describes.
pub fn run(config: &Config) -> Result<Measurement, String> {
    let parameters = Parameters::new(config.m, config.quorum, phi_f(config.phi_f)?)
        .map_err(|e| format!("parameters: {e}"))?;
    let depth = config.depth as usize;
    let message = stakes::message(config.seed);
    let stake = stakes::stakes(config.stakes, config.parties, config.seed);

    let (registered, registration_timing) = timed(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(config.seed);
        let keys: Vec<SigningKey> = (0..config.parties)
            .map(|_| SigningKey::random(&mut rng))
            .collect();
        let entries: Vec<_> = keys
            .iter()
            .zip(&stake)
            .map(|(sk, &s)| (sk.verifying_key(), s))
            .collect();
        Registration::with_depth(parameters, &entries, depth)
            .map(|registration| (keys, registration))
            .map_err(|e| format!("registration: {e}"))
    });
    let (keys, registration) = registered?;
    eprintln!(
        "[ours-cardano] registered {} parties in {:.1} s",
        config.parties,
        registration_timing.wall.as_secs_f64()
    );

    let msg = message_to_field(&message);
    let (signed, signing) = timed(|| sign_until_quorum(&keys, &registration, msg, config.quorum));
    let (singles, tried) = signed?;
    eprintln!(
        "[ours-cardano] {} of {tried} parties tried won indices, signing {:.1} s wall, {:.1} CPU-s",
        singles.len(),
        signing.wall.as_secs_f64(),
        signing.cpu.as_secs_f64()
    );

    // The shape needs the certificate's signer count: aggregate once to learn it (the timed
    // prove below aggregates again, from the same signatures).
    let instance = MithrilInstance::from_trusted(&registration, &message);
    let certificate =
        aggregate(&registration, msg, &singles).map_err(|e| format!("aggregation: {e}"))?;
    let probe = MithrilShape {
        signer_slots: certificate.signers.len(),
        index_slots: config.quorum as usize,
        depth,
        k: 10,
    };
    let (k, layout_timing) = timed(|| min_k(&probe));
    let shape = MithrilShape { k, ..probe };
    let stats = layout_stats(&shape);
    eprintln!(
        "[ours-cardano] {} signer slots, {} index slots: k = {k} ({} rows, {} advice columns; found in {:.1} s)",
        shape.signer_slots,
        shape.index_slots,
        stats.rows,
        stats.advice_columns,
        layout_timing.wall.as_secs_f64()
    );

    let (kzg, setup) = timed(|| tms_cardano::backend::kzg_params(k));
    let (keys, keygen_timing) = timed(|| keygen(&kzg, shape));
    let keys = keys.map_err(|e| format!("keygen: {e}"))?;
    eprintln!(
        "[ours-cardano] parameters {:.1} s, keygen {:.1} s wall, {:.1} CPU-s",
        setup.wall.as_secs_f64(),
        keygen_timing.wall.as_secs_f64(),
        keygen_timing.cpu.as_secs_f64()
    );

    let hwm_reset = usage::reset_vm_hwm();
    let (proved, prove_timing) = timed(|| {
        let (certificate, aggregation) = timed(|| aggregate(&registration, msg, &singles));
        let certificate = certificate.map_err(|e| format!("aggregation: {e}"))?;
        let (witness, preparation) = timed(|| MithrilWitness::new(shape, instance, &certificate));
        let witness = witness.map_err(|e| format!("witness: {e}"))?;
        let (proof, proving) = timed(|| prove(&kzg, &keys, &witness, rand_core::OsRng));
        eprintln!(
            "[ours-cardano] prove phases (CPU-s): aggregation {:.2}, witness {:.2}, proof {:.2}",
            aggregation.cpu.as_secs_f64(),
            preparation.cpu.as_secs_f64(),
            proving.cpu.as_secs_f64()
        );
        proof.map_err(|e| format!("prove: {e}"))
    });
    let prove_peak = if hwm_reset {
        usage::vm_hwm_bytes()
    } else {
        None
    };
    let proof = proved?;
    eprintln!(
        "[ours-cardano] prove {:.1} s wall, {:.1} CPU-s, proof {} B",
        prove_timing.wall.as_secs_f64(),
        prove_timing.cpu.as_secs_f64(),
        proof.len()
    );

    // Verification as a verifier does it: the statement from the registration and the message
    // bytes (median of 5), and the same proof refused for another message.
    let vp = kzg.verifier_params();
    let mut verify_times = Vec::new();
    for _ in 0..5 {
        let (verdict, t) = timed(|| verify(&vp, &shape, keys.vk(), &instance, &proof));
        verdict.map_err(|e| format!("the honest proof was refused: {e}"))?;
        verify_times.push(t.wall);
    }
    verify_times.sort();
    let other = MithrilInstance::from_trusted(&registration, b"another message");
    if verify(&vp, &shape, keys.vk(), &other, &proof).is_ok() {
        return Err("the proof verified against another message".into());
    }

    let plutus = plutus_cost(&vp, &keys, &instance, &message, &proof)?;
    eprintln!(
        "[ours-cardano] Plutus (PV {}): {} steps ({:.1}%), {} memory units ({:.1}%), script {} B",
        plutus.pv,
        plutus.cpu,
        plutus.cpu_percent(),
        plutus.mem,
        plutus.mem_percent(),
        plutus.script_bytes
    );

    Ok(Measurement {
        system: "ours on Cardano (mithril-jubjub)",
        circuit: format!(
            "2^{k} rows, {} advice cols, {} signer slots",
            stats.advice_columns, shape.signer_slots
        ),
        signers: shape.signer_slots,
        timings: Timings {
            setup,
            keygen: Timing {
                wall: keygen_timing.wall,
                cpu: keygen_timing.cpu,
            },
            prove: prove_timing,
            verify: verify_times[verify_times.len() / 2],
        },
        proof_bytes: proof.len(),
        serialized_bytes: proof.len(),
        prove_peak_bytes: prove_peak,
        process_peak_bytes: usage::process_peak_rss_bytes(),
        plutus: Some(plutus),
    })
}

/// The example validator (registration digest a script parameter, message bytes and proof in
/// the redeemer) evaluated on the honest certificate at the newest protocol version (builtin
/// MSM); it must accept, and the same redeemer with a changed proof byte must be refused.
fn plutus_cost(
    vp: &tms_cardano::backend::VerifierParams,
    keys: &mithril_jubjub::prover::MithrilKeys,
    instance: &MithrilInstance,
    message: &[u8],
    proof: &[u8],
) -> Result<PlutusCost, String> {
    let public = instance.to_public_inputs();
    plutus::with_big_stack(|| {
        let mode = MsmMode::Builtin;
        let pv = plutus::protocol_version(mode);
        let validator = plutus::validator(
            vp,
            keys.vk(),
            &[Entry::Param(public[0]), Entry::Message],
            mode,
        )
        .map_err(|e| e.to_string())?;
        let script_bytes = plutus::script_bytes(&validator).len();
        let (_, hints) = plutus::hints(vp, keys.vk(), proof, &[&public]);
        let redeemer = plutus::redeemer(message, proof, &hints);
        let budget = plutus::evaluate(
            &validator,
            vec![plutus::data_arg(plutus::context(redeemer))],
            pv,
        );
        if !budget.accepted {
            return Err("the Plutus validator refused the honest certificate".to_string());
        }
        let mut changed = proof.to_vec();
        changed[proof.len() / 2] ^= 1;
        let redeemer = plutus::redeemer(message, &changed, &hints);
        let refused = plutus::evaluate(
            &validator,
            vec![plutus::data_arg(plutus::context(redeemer))],
            pv,
        );
        if refused.accepted {
            return Err("the Plutus validator accepted a changed proof byte".to_string());
        }
        Ok(PlutusCost {
            pv,
            cpu: budget.cpu,
            mem: budget.mem,
            script_bytes,
        })
    })
}
