//! `tms`: threshold multisignature certificates as Halo2 proofs.
//!
//! Today it has one subcommand, `demo`, the README's main job: an embedded committee of 6
//! Grumpkin keys (flat Rescue-Prime commitment), 4 members sign a message with Schnorr, the
//! signatures are aggregated into a certificate, and a real KZG proof (insecure test parameters)
//! that at least 3 committee members signed is produced and verified.
#![deny(missing_docs)]

use std::{process::ExitCode, time::Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use schnorr_atms::{
    keygen, prove, setup, verify, AtmsShape, AtmsWitness, Certificate, CommitmentMode, Committee,
};
use tms_gadgets::{
    hash::RescuePrime,
    schnorr::{Signature, SigningKey, VerifyingKey},
    Fr,
};

const COMMITTEE: usize = 6;
const SIGNERS: [usize; 4] = [0, 2, 3, 5];
const THRESHOLD: u64 = 3;
const K: u32 = 17;

fn demo() -> Result<(), String> {
    let err = |e: schnorr_atms::AtmsError| e.to_string();
    let mut rng = ChaCha20Rng::seed_from_u64(2026);
    let members: Vec<SigningKey> = (0..COMMITTEE)
        .map(|_| SigningKey::random(&mut rng))
        .collect();
    let committee =
        Committee::new(members.iter().map(SigningKey::verifying_key).collect()).map_err(err)?;
    let message = Fr::from(0x5eed_0001u64);
    let signatures: Vec<(VerifyingKey, Signature)> = SIGNERS
        .iter()
        .map(|i| {
            Ok((
                members[*i].verifying_key(),
                members[*i]
                    .sign(&RescuePrime, message)
                    .map_err(|e| e.to_string())?,
            ))
        })
        .collect::<Result<_, String>>()?;
    let certificate = Certificate::aggregate(&committee, message, &signatures).map_err(err)?;
    let shape = AtmsShape {
        n: COMMITTEE,
        mode: CommitmentMode::Flat,
        k: K,
    };
    let witness = AtmsWitness::new(shape, &committee, &certificate, THRESHOLD).map_err(err)?;
    println!(
        "committee: {COMMITTEE} Grumpkin keys, flat Rescue-Prime commitment {:?}",
        witness.instance.commitment
    );
    println!("certificate: members {SIGNERS:?} signed message {message:?}; threshold {THRESHOLD}");

    let start = Instant::now();
    let params = setup(K);
    let setup_time = start.elapsed();
    let start = Instant::now();
    let keys = keygen(&params, shape).map_err(err)?;
    let keygen_time = start.elapsed();
    let start = Instant::now();
    let proof = prove(&params, &keys, &witness).map_err(err)?;
    let prove_time = start.elapsed();
    let start = Instant::now();
    verify(&params, &keys, &witness.instance, &proof).map_err(err)?;
    let verify_time = start.elapsed();

    println!();
    println!("| what | value |");
    println!("|---|---|");
    println!("| circuit | {} |", keys.stats);
    println!(
        "| parameters (insecure, test) | {:.1} s |",
        setup_time.as_secs_f64()
    );
    println!("| keygen | {:.1} s |", keygen_time.as_secs_f64());
    println!("| prove | {:.1} s |", prove_time.as_secs_f64());
    println!("| verify | {:.1} ms |", verify_time.as_secs_f64() * 1e3);
    println!("| proof | {} bytes |", proof.len());
    println!("| verified | true |");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("demo") => match demo() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("usage: tms demo");
            ExitCode::from(2)
        }
    }
}
