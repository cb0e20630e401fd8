//! `tms`: threshold multisignature certificates as Halo2 proofs.
//!
//! Today it has one subcommand, `demo`: an embedded committee of 8 members whose keys are
//! committed in a Poseidon Merkle tree; 5 of them form a certificate; a real KZG proof (insecure
//! test parameters) shows that the 5 are distinct members of the committee root, and is verified.
//! Signatures join the demo with the Schnorr ATMS circuit.
#![deny(missing_docs)]

use std::{process::ExitCode, time::Instant};

use halo2_base::{gates::RangeChip, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use tms_gadgets::{
    hash::{NativeHash, Poseidon, PoseidonChip},
    merkle::{AssignedMerklePath, MerkleChip, MerklePath, MerkleTree},
    testing::CircuitHarness,
    Fr,
};

const COMMITTEE: usize = 8;
const SIGNERS: [usize; 5] = [0, 2, 3, 5, 7];

fn demo() -> Result<(), String> {
    let mut rng = ChaCha20Rng::seed_from_u64(2026);
    // Stand-ins for the members' public keys (two coordinates each) until Schnorr keys land.
    let keys: Vec<[Fr; 2]> = (0..COMMITTEE)
        .map(|_| [Fr::from(rng.gen::<u64>()), Fr::from(rng.gen::<u64>())])
        .collect();
    let leaves = keys
        .iter()
        .map(|k| Poseidon.hash_leaf(k))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let tree = MerkleTree::new(Poseidon, leaves).map_err(|e| e.to_string())?;
    let paths: Vec<MerklePath> = SIGNERS
        .iter()
        .map(|i| tree.path(*i))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    println!("committee: {COMMITTEE} members, root {:?}", tree.root());
    println!("certificate: members {SIGNERS:?}");

    let circuit = |ctx: &mut Context<Fr>, range: &RangeChip<Fr>| {
        let merkle = MerkleChip::new(PoseidonChip::new(), range);
        let leaves: Vec<_> = SIGNERS
            .iter()
            .map(|i| {
                let key = ctx.assign_witnesses(keys[*i]);
                tms_gadgets::hash::HashInstructions::hash_leaf(merkle.hasher(), ctx, &key)
            })
            .collect();
        let paths: Vec<_> = paths
            .iter()
            .map(|p| AssignedMerklePath::load(ctx, p))
            .collect();
        let roots = merkle.compute_batch_roots(ctx, &leaves, &paths);
        for r in &roots[1..] {
            ctx.constrain_equal(r, &roots[0]);
        }
        ((), vec![roots[0]])
    };
    let start = Instant::now();
    let run = CircuitHarness::new(16).prove_and_verify(circuit);
    let elapsed = start.elapsed();
    if run.public_values != vec![tree.root()] {
        return Err("the circuit's root differs from the committee root".into());
    }
    println!();
    println!("| what | value |");
    println!("|---|---|");
    println!("| circuit | {} |", run.stats);
    println!(
        "| keygen + prove + verify | {:.1} s |",
        elapsed.as_secs_f64()
    );
    println!("| proof | {} bytes |", run.proof.len());
    println!("| verified | {} |", run.verified);
    if run.verified {
        Ok(())
    } else {
        Err("the proof did not verify".into())
    }
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
