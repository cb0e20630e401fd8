//! Poseidon and Rescue-Prime permutations (native) and a depth-11 Merkle path (real SHPLONK
//! proof), with advice and lookup cells recorded beside the times.
//!
//! Run: `cargo bench -p tms-gadgets --bench hashes`. The cell counts are printed as
//! `record: ...` lines (criterion keeps only times).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use halo2_base::{
    gates::{circuit::builder::BaseCircuitBuilder, RangeChip},
    halo2_proofs::plonk::{keygen_pk, keygen_vk},
    utils::testing::gen_proof_with_instances,
    Context,
};
use tms_gadgets::{
    hash::{
        poseidon, rescue::RescueField, HashInstructions, NativeHash, Poseidon, PoseidonChip,
        RescueChip, RescuePrime,
    },
    merkle::{AssignedMerklePath, MerkleChip, MerklePath, MerkleTree},
    proving::{params::kzg_params, stats::UNUSABLE_ROWS},
    testing::CircuitHarness,
    Fr,
};

fn native_permutations(c: &mut Criterion) {
    let mut group = c.benchmark_group("native_permutation");
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("poseidon_t3", 1), |b| {
        let mut s = [Fr::from(1), Fr::from(2), Fr::from(3)];
        b.iter(|| poseidon::permute(&mut s))
    });
    group.bench_function(BenchmarkId::new("rescue_prime_m4", 1), |b| {
        let mut s = [Fr::from(1), Fr::from(2), Fr::from(3), Fr::from(4)];
        let params = Fr::rescue_params();
        b.iter(|| params.permute(&mut s))
    });
    group.finish();
}

const DEPTH: usize = 11;
const K: u32 = 15;

fn path_circuit<H: HashInstructions + Default>(
    leaf: Fr,
    path: &MerklePath,
) -> impl Fn(&mut Context<Fr>, &RangeChip<Fr>) -> ((), Vec<halo2_base::AssignedValue<Fr>>) + '_ {
    move |ctx, range| {
        let merkle = MerkleChip::new(H::default(), range);
        let leaf = ctx.load_witness(leaf);
        let path = AssignedMerklePath::load(ctx, path);
        ((), vec![merkle.compute_root(ctx, leaf, &path)])
    }
}

fn merkle_path<H: HashInstructions + Default>(c: &mut Criterion, name: &str) {
    let native = H::Native::default();
    let leaves: Vec<Fr> = (0..1u64 << DEPTH)
        .map(|i| native.hash_leaf(&[Fr::from(i)]).unwrap())
        .collect();
    let tree = MerkleTree::new(native, leaves).unwrap();
    let path = tree.path(1234).unwrap();
    let leaf = tree.leaves()[1234];
    let circuit = path_circuit::<H>(leaf, &path);
    let (_, stats) = CircuitHarness::new(K).measure(|ctx, range| circuit(ctx, range));
    println!("record: {name} depth-{DEPTH} Merkle path: {stats}");

    // One-time work (parameters, keygen) is done outside the timed loop.
    let params = kzg_params(K);
    let mut builder = BaseCircuitBuilder::<Fr>::from_stage(
        halo2_base::gates::circuit::CircuitBuilderStage::Keygen,
    )
    .use_k(K as usize)
    .use_lookup_bits(K as usize - 1)
    .use_instance_columns(1);
    let range = builder.range_chip();
    let (_, publics) = circuit(builder.main(0), &range);
    builder.assigned_instances = vec![publics];
    let config = builder.calculate_params(Some(UNUSABLE_ROWS));
    let vk = keygen_vk(&params, &builder).unwrap();
    let pk = keygen_pk(&params, vk, &builder).unwrap();
    let break_points = builder.break_points();

    let mut group = c.benchmark_group("merkle_path_prove");
    group.sample_size(10);
    group.bench_function(BenchmarkId::new(name, DEPTH), |b| {
        b.iter(|| {
            let mut prover = BaseCircuitBuilder::prover(config.clone(), break_points.clone());
            let range = prover.range_chip();
            let (_, publics) = circuit(prover.main(0), &range);
            let values: Vec<Fr> = publics.iter().map(|v| *v.value()).collect();
            prover.assigned_instances = vec![publics];
            gen_proof_with_instances(&params, &pk, prover, &[&values])
        })
    });
    group.finish();
}

fn merkle_paths(c: &mut Criterion) {
    merkle_path::<PoseidonChip>(c, "poseidon");
    merkle_path::<RescueChip>(c, "rescue_prime");
    // Keep the native hashes referenced so the report names both.
    let _ = (Poseidon::NAME, RescuePrime::NAME);
}

criterion_group!(benches, native_permutations, merkle_paths);
criterion_main!(benches);
