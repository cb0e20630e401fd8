//! An aggregation key made from stand-ins of the inner proofs (`certificate_sample`: the inner
//! protocol, zero public inputs, a proof of the right shape) is the key made from the proofs
//! themselves, and proves them: what lets a verifier regenerate aggregation keys (`tms aggregate
//! keygen`, `chain keygen`, `chunk keygen`) without any proof, and the provers use the same keys.
//! One Schnorr ATMS certificate (2 of 3, flat), aggregated at `TMS_SAMPLE_K` (default 17):
//! `cargo test -p tms-aggregation --test keygen_samples -- --ignored --nocapture`: 7,434,968
//! advice cells at k = 17 (57 advice columns), 1,005 s wall here at a load average near 10.

use halo2_base::halo2_proofs::SerdeFormat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms::{AtmsShape, AtmsWitness, Certificate, CommitmentMode, Committee, Verification};
use tms_aggregation::{
    aggregation_keygen, aggregation_prove, aggregation_verify, certificate_sample,
    certificate_snark, ExposeAll,
};
use tms_gadgets::{
    hash::RescuePrime,
    message::message_to_field,
    proving::{params::kzg_params, Transcript},
    signature::schnorr::SigningKey,
};

#[test]
#[ignore = "two aggregation keygens and a proof: minutes and GiB"]
fn keys_from_stand_ins_are_the_keys_from_proofs() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let sks: Vec<SigningKey> = (0..3).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(SigningKey::verifying_key).collect()).unwrap();
    let message = b"stand-ins";
    let m = message_to_field(message);
    let signed: Vec<_> = [0, 2]
        .iter()
        .map(|&i| {
            (
                sks[i].verifying_key(),
                sks[i].sign(&RescuePrime, m).unwrap(),
            )
        })
        .collect();
    let certificate = Certificate::aggregate(&committee, m, &signed).unwrap();
    let mut shape = AtmsShape {
        n: 3,
        mode: CommitmentMode::Flat,
        k: 20,
        verification: Verification::PerSignature,
    };
    shape.k = schnorr_atms::min_k(&shape, 8).unwrap();
    let witness = AtmsWitness::new(shape, &committee, &certificate, 2).unwrap();
    let inner_params = kzg_params(shape.k);
    let keys = schnorr_atms::keygen(&inner_params, shape).unwrap();
    let proof =
        schnorr_atms::prove_with_transcript(&inner_params, &keys, &witness, Transcript::Poseidon)
            .unwrap();
    let public = witness.instance.to_public_inputs();
    let snark = certificate_snark(&inner_params, keys.vk(), &public, proof).unwrap();

    let k = std::env::var("TMS_SAMPLE_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(17);
    let params = kzg_params(k);
    let sample = certificate_sample(&inner_params, keys.vk(), public.len());
    let from_samples = aggregation_keygen(&params, k, vec![sample], &ExposeAll).unwrap();
    let from_proofs = aggregation_keygen(&params, k, vec![snark.clone()], &ExposeAll).unwrap();
    assert_eq!(
        from_samples.vk().to_bytes(SerdeFormat::RawBytes),
        from_proofs.vk().to_bytes(SerdeFormat::RawBytes),
        "keygen from stand-ins gives the key keygen from the proofs gives"
    );
    assert_eq!(from_samples.break_points, from_proofs.break_points);
    assert_eq!(from_samples.num_instances, from_proofs.num_instances);
    drop(from_proofs);
    let (public_inputs, proof) = aggregation_prove(
        &params,
        &from_samples,
        vec![snark],
        &ExposeAll,
        Transcript::Poseidon,
    )
    .unwrap();
    assert!(aggregation_verify(
        &params,
        from_samples.vk(),
        &public_inputs,
        &proof,
        Transcript::Poseidon
    ));
    println!(
        "record: stand-in keygen k={k} advice_cells={} config={:?}",
        from_samples.advice_cells, from_samples.config
    );
}
