//! Proving: KZG (SHPLONK) proofs over BN254, behind one pair of functions so that a feature flag
//! can swap the prover (halo2-base's `cuda` backend), and what proving needs around them.
//!
//! Three Fiat-Shamir transcripts ([`Transcript`]): Blake2b (halo2's default, the proofs `tms`
//! writes unless asked otherwise), Keccak-256 in snark-verifier's EVM layout (the one its
//! generated Solidity verifiers replay) and snark-verifier's Poseidon (the one its aggregation
//! circuit replays). The statement is the same; the challenge derivation differs, so a proof
//! verifies under exactly one of them (and an EVM proof is longer: its points are written
//! uncompressed).
//!
//! | module | what |
//! |---|---|
//! | this one | [`prove_shplonk`], [`verify_shplonk`], and [`prove_kzg`], [`verify_kzg`] for either [`MultiOpen`] |
//! | [`params`] | KZG parameters: snarkjs `.ptau` import, the cached insecure test parameters |
//! | [`keys`] | key files: a JSON header (shape, columns, break points) and halo2's raw key |
//! | [`stats`] | cells, columns and rows of a laid-out circuit; CPU seconds and peak memory |
//! | [`cost`] | the cells of a laid-out circuit by component ([`cost::CellLedger`]) |
//! | [`measure`] | one timed round trip (keygen, prove, verify) and its `record:` line |
//! | [`scheme`] | the one prover every certificate circuit on `HybridCircuit` goes through |

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::{create_proof, verify_proof, Circuit, ProvingKey, VerifyingKey},
    poly::{
        commitment::ParamsProver,
        kzg::{
            commitment::{KZGCommitmentScheme, ParamsKZG},
            multiopen::{ProverGWC, ProverSHPLONK, VerifierGWC, VerifierSHPLONK},
            strategy::SingleStrategy,
        },
    },
    transcript::{
        Blake2bRead, Blake2bWrite, Challenge255, EncodedChallenge, TranscriptReadBuffer,
        TranscriptWriterBuffer,
    },
};
use rand::rngs::OsRng;
use snark_verifier::{loader::native::NativeLoader, system::halo2::transcript::evm::EvmTranscript};

pub mod cost;
pub mod keys;
pub mod measure;
pub mod params;
pub mod scheme;
pub mod stats;

use crate::Fr;

/// A proof reader that counts what the transcript consumed, so that trailing bytes are found.
struct CountingReader<'p> {
    rest: &'p [u8],
    consumed: std::rc::Rc<std::cell::Cell<usize>>,
}

impl std::io::Read for CountingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.rest.read(buf)?;
        self.consumed.set(self.consumed.get() + n);
        Ok(n)
    }
}

/// The Fiat-Shamir transcript of a proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Transcript {
    /// Blake2b with 255-bit challenges: halo2's default, cheapest to verify natively.
    #[default]
    Blake2b,
    /// Keccak-256 in snark-verifier's EVM layout: what a generated Solidity verifier checks.
    Evm,
    /// Poseidon in snark-verifier's layout: what an aggregation circuit replays in-circuit (the
    /// inner proofs of an outer proof).
    Poseidon,
}

/// snark-verifier's native Poseidon transcript (its SDK's parameters: width 3, rate 2, 8 full
/// and 57 partial rounds).
type PoseidonTranscript<S> = snark_verifier::system::halo2::transcript::halo2::PoseidonTranscript<
    G1Affine,
    NativeLoader,
    S,
    3,
    2,
    8,
    57,
>;

impl Transcript {
    /// The name used on the command line and in files: `blake2b`, `evm` or `poseidon`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Blake2b => "blake2b",
            Self::Evm => "evm",
            Self::Poseidon => "poseidon",
        }
    }
}

/// The KZG multi-opening argument a proof ends with.
///
/// SHPLONK (the default everywhere) ends a proof with two opening commitments whatever the
/// rotations; GWC with one per distinct query point (rotation). The circuit and its keys are the same;
/// a proof verifies under exactly one of them, and an on-chain verifier is generated for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MultiOpen {
    /// SHPLONK (Boneh, Drake, Fisch and Gabizon, 2020; halo2's `ProverSHPLONK`).
    #[default]
    Shplonk,
    /// The multi-open of PLONK's paper (Gabizon, Williamson and Ciobotaru, 2019; halo2's `ProverGWC`).
    Gwc,
}

impl MultiOpen {
    /// `shplonk` or `gwc`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Shplonk => "shplonk",
            Self::Gwc => "gwc",
        }
    }
}

/// A SHPLONK proof of `circuit` for one instance column `public_values`, blinded with OS
/// randomness, in `transcript`. Returns `None` if the prover fails (a malformed circuit, not a
/// false statement: halo2's prover does not check satisfaction, the verifier does).
pub fn prove_shplonk(
    params: &ParamsKZG<Bn256>,
    pk: &ProvingKey<G1Affine>,
    circuit: impl Circuit<Fr>,
    public_values: &[Fr],
    transcript: Transcript,
) -> Option<Vec<u8>> {
    prove_kzg(
        params,
        pk,
        circuit,
        public_values,
        transcript,
        MultiOpen::Shplonk,
    )
}

/// [`prove_shplonk`] with the multi-opening argument `open`.
pub fn prove_kzg(
    params: &ParamsKZG<Bn256>,
    pk: &ProvingKey<G1Affine>,
    circuit: impl Circuit<Fr>,
    public_values: &[Fr],
    transcript: Transcript,
    open: MultiOpen,
) -> Option<Vec<u8>> {
    match transcript {
        Transcript::Blake2b => prove_in::<Blake2bWrite<_, _, Challenge255<_>>, _>(
            params,
            pk,
            circuit,
            public_values,
            open,
        ),
        Transcript::Evm => prove_in::<EvmTranscript<G1Affine, NativeLoader, _, _>, _>(
            params,
            pk,
            circuit,
            public_values,
            open,
        ),
        Transcript::Poseidon => {
            prove_in::<PoseidonTranscript<_>, _>(params, pk, circuit, public_values, open)
        }
    }
}

fn prove_in<T, E>(
    params: &ParamsKZG<Bn256>,
    pk: &ProvingKey<G1Affine>,
    circuit: impl Circuit<Fr>,
    public_values: &[Fr],
    open: MultiOpen,
) -> Option<Vec<u8>>
where
    E: EncodedChallenge<G1Affine>,
    T: TranscriptWriterBuffer<Vec<u8>, G1Affine, E>,
{
    let mut transcript = T::init(vec![]);
    match open {
        MultiOpen::Shplonk => {
            create_proof::<KZGCommitmentScheme<Bn256>, ProverSHPLONK<'_, Bn256>, _, _, _, _>(
                params,
                pk,
                &[circuit],
                &[&[public_values]],
                OsRng,
                &mut transcript,
            )
        }
        MultiOpen::Gwc => {
            create_proof::<KZGCommitmentScheme<Bn256>, ProverGWC<'_, Bn256>, _, _, _, _>(
                params,
                pk,
                &[circuit],
                &[&[public_values]],
                OsRng,
                &mut transcript,
            )
        }
    }
    .ok()?;
    Some(transcript.finalize())
}

/// Whether `proof` verifies in `transcript` for `public_values` (one instance column) under
/// `vk`. Any bytes may be passed: a malformed proof is rejected, never a panic (halo2's verifier
/// is guarded), and a proof with bytes after its transcript is rejected (halo2 does not check the
/// end).
pub fn verify_shplonk(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    proof: &[u8],
    public_values: &[Fr],
    transcript: Transcript,
) -> bool {
    verify_kzg(
        params,
        vk,
        proof,
        public_values,
        transcript,
        MultiOpen::Shplonk,
    )
}

/// [`verify_shplonk`] for a proof made with the multi-opening argument `open`.
pub fn verify_kzg(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    proof: &[u8],
    public_values: &[Fr],
    transcript: Transcript,
    open: MultiOpen,
) -> bool {
    match transcript {
        Transcript::Blake2b => verify_in::<Blake2bRead<_, _, Challenge255<_>>, _>(
            params,
            vk,
            proof,
            public_values,
            open,
        ),
        Transcript::Evm => verify_in::<EvmTranscript<G1Affine, NativeLoader, _, _>, _>(
            params,
            vk,
            proof,
            public_values,
            open,
        ),
        Transcript::Poseidon => {
            verify_in::<PoseidonTranscript<_>, _>(params, vk, proof, public_values, open)
        }
    }
}

fn verify_in<'p, T, E>(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    proof: &'p [u8],
    public_values: &[Fr],
    open: MultiOpen,
) -> bool
where
    E: EncodedChallenge<G1Affine>,
    T: TranscriptReadBuffer<CountingReader<'p>, G1Affine, E>,
{
    let run = || {
        let strategy = SingleStrategy::new(params);
        let consumed = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut transcript = T::init(CountingReader {
            rest: proof,
            consumed: consumed.clone(),
        });
        let instances: &[&[&[Fr]]] = &[&[public_values]];
        let verified = match open {
            MultiOpen::Shplonk => {
                verify_proof::<KZGCommitmentScheme<Bn256>, VerifierSHPLONK<'_, Bn256>, _, _, _>(
                    params.verifier_params(),
                    vk,
                    strategy,
                    instances,
                    &mut transcript,
                )
                .is_ok()
            }
            MultiOpen::Gwc => {
                verify_proof::<KZGCommitmentScheme<Bn256>, VerifierGWC<'_, Bn256>, _, _, _>(
                    params.verifier_params(),
                    vk,
                    strategy,
                    instances,
                    &mut transcript,
                )
                .is_ok()
            }
        };
        verified && consumed.get() == proof.len()
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or(false)
}
