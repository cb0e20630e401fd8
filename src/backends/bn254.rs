//! The BN254 backend ([`Bn254`]: KZG over BN254 on halo2-base, proofs in the Blake2b, EVM or
//! Poseidon transcript) and its parameters (`tms setup`).

use std::path::Path;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use serde::Serialize;
use tms_gadgets::{
    proving::{
        params::{insecure_test_params, is_insecure_test_params, params_from_ptau},
        Transcript,
    },
    Fr,
};

use crate::{
    checks::proof_rejected,
    formats::PublicFile,
    interface::{ProofOutput, ProvingBackend, VerifyArgs},
    io::INSECURE_WARNING,
    io::{at, load_params, read_bytes, usage, write_params_bytes, CliError, Result},
};

/// `tms setup`.
pub fn setup(k: u32, ptau: Option<&Path>, halo2: Option<&Path>, out: &Path) -> Result<()> {
    if !(10..=24).contains(&k) {
        return Err(usage(format!("--k: {k} is outside 10..=24")));
    }
    let bar = crate::io::spinner("making the parameters");
    let params = match (ptau, halo2) {
        (Some(path), _) => params_from_ptau(&read_bytes(path)?, k).map_err(|e| at(path, e))?,
        (None, Some(path)) => {
            let mut params = load_params(path)?;
            if params.k() < k {
                return Err(at(
                    path,
                    format!("holds 2^{} powers, 2^{k} are needed", params.k()),
                ));
            }
            if params.k() > k && is_insecure_test_params(&params) {
                // The powers a cut would keep, made in O(2^k) instead of by the FFT (a test
                // pins the bytes equal).
                bar.suspend(|| {
                    eprintln!(
                        "{}: insecure test parameters: made afresh for 2^{k} rows from the same \
                         seed (the same powers as a cut, without its Lagrange basis FFT)",
                        path.display()
                    )
                });
                params = insecure_test_params(k);
            } else if params.k() > k {
                // Downsizing recomputes the Lagrange basis (an FFT over curve points: 12
                // minutes from 2^21 to 2^20 here), so only a smaller k pays for it.
                params.downsize(k);
            }
            params
        }
        (None, None) => {
            bar.suspend(|| eprintln!("{INSECURE_WARNING}"));
            insecure_test_params(k)
        }
    };
    let mut bytes = vec![];
    params.write(&mut bytes).expect("writing to memory");
    let digest = write_params_bytes(out, &bytes)?;
    bar.finish_and_clear();
    println!(
        "parameters for 2^{k} rows written to {} (sha256 {digest})",
        out.display()
    );
    Ok(())
}

/// KZG over BN254 (halo2-base): proofs a Solidity verifier checks in the EVM transcript.
pub struct Bn254;

impl ProvingBackend for Bn254 {
    const TAG: Option<&'static str> = None;
    type Params = ParamsKZG<Bn256>;
    type Scalar = Fr;
    type Vk = halo2_base::halo2_proofs::plonk::VerifyingKey<
        halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
    >;

    fn load_params(path: &Path) -> Result<ParamsKZG<Bn256>> {
        load_params(path)
    }

    fn params_k(params: &ParamsKZG<Bn256>) -> u32 {
        params.k()
    }

    fn test_params(k: u32) -> ParamsKZG<Bn256> {
        tms_gadgets::proving::params::kzg_params(k)
    }

    fn check_transcript(_: Transcript) -> Result<()> {
        Ok(())
    }

    // A KZG verifier needs only the setup's generators and `[s]G2`, the same at every size.
    fn check_verifier_params(_: &Path, _: &ParamsKZG<Bn256>, _: u32) -> Result<()> {
        Ok(())
    }

    fn write_proof<S: Serialize>(
        out: &ProofOutput,
        proof: &[u8],
        public: &PublicFile<S>,
        public_inputs: &[Fr],
        seconds: f64,
    ) -> Result<Vec<String>> {
        out.write(proof, public, public_inputs, seconds)
    }

    fn rejected(args: &VerifyArgs) -> CliError {
        proof_rejected(args)
    }
}

/// [`crate::interface::CertificateScheme::wrap_program`] of a BN254 certificate: the verifier of
/// `vk` recorded on `proof` (Poseidon transcript), every public input a statement word, the
/// program labelled with the contract statement it serves (`kind`). Replayed natively before it
/// is returned, so a program that would not satisfy its own circuit is refused here.
pub(crate) fn wrap_program(
    params: &ParamsKZG<Bn256>,
    vk: &halo2_base::halo2_proofs::plonk::VerifyingKey<
        halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
    >,
    public: &[Fr],
    proof: &[u8],
    kind: tms_evm::certificate::StatementKind,
    description: &str,
) -> Result<(tms_evm::groth16::Program, tms_evm::groth16::ProgramWitness)> {
    let all: Vec<usize> = (0..public.len()).collect();
    let (program, witness) =
        tms_evm::groth16::record(params, vk, public, false, proof, &all, description).map_err(
            |e| {
                CliError(format!(
                    "the certificate's verifier could not be recorded (a proof in the Poseidon \
                     transcript, for the trusted statement, is needed): {e}"
                ))
            },
        )?;
    program
        .replay(&witness)
        .map_err(|e| CliError(format!("the recorded program refuses its witness: {e}")))?;
    Ok((program.with_statement_kind(kind), witness))
}

/// The two Groth16 wrapper methods of [`crate::interface::CertificateScheme`] for a BN254
/// certificate, written once: `|instance| public` gives the trusted instance's public inputs (the
/// wrapped proof's statement words), `kind` the contract statement ([`StatementKind`] variant)
/// and `label` the recorded program's description.
///
/// [`StatementKind`]: tms_evm::certificate::StatementKind
macro_rules! bn254_wrapper {
    ($kind:ident, $label:expr, |$instance:ident| $public:expr) => {
        fn wrap_program(
            params: &halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG<
                halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
            >,
            vk: &halo2_base::halo2_proofs::plonk::VerifyingKey<
                halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
            >,
            $instance: &Self::Instance,
            proof: &[u8],
        ) -> Option<
            $crate::io::Result<(tms_evm::groth16::Program, tms_evm::groth16::ProgramWitness)>,
        > {
            Some($crate::backends::bn254::wrap_program(
                params,
                vk,
                &$public,
                proof,
                tms_evm::certificate::StatementKind::$kind,
                $label,
            ))
        }

        fn wrap_words($instance: &Self::Instance) -> Option<Vec<num_bigint::BigUint>> {
            Some($crate::backends::bn254::wrap_words(&$public))
        }
    };
}
pub(crate) use bn254_wrapper;

/// The key-file and proving methods of [`crate::interface::CertificateScheme`] for a circuit
/// crate on the one BN254 prover (`tms_gadgets::proving::scheme`), written once: `$circuit` is
/// the crate (`schnorr_atms`, `bls_atms`, `mithril_snark`: each has `read_vk` and
/// `prove_with_transcript`, and its keys `pk_bytes`, `vk_bytes`, `from_pk_bytes` and `stats`).
/// With `verify: $error`, the verifier too (`verify_with_vk`; a rejected proof is
/// `$error::ProofRejected`).
macro_rules! hybrid_calls {
    ($circuit:ident) => {
        fn pk_file(keys: &Self::Keys) -> Vec<u8> {
            keys.pk_bytes()
        }

        fn vk_file(keys: &Self::Keys) -> Vec<u8> {
            keys.vk_bytes()
        }

        fn read_pk(path: &std::path::Path) -> $crate::io::Result<Self::Keys> {
            <Self::Keys>::from_pk_bytes(&$crate::io::read_bytes(path)?)
                .map_err(|e| $crate::io::at(path, e))
        }

        fn read_vk(
            path: &std::path::Path,
            bytes: &[u8],
        ) -> $crate::io::Result<(
            Self::Shape,
            <Self::Backend as $crate::interface::ProvingBackend>::Vk,
        )> {
            $circuit::read_vk(bytes).map_err(|e| $crate::io::at(path, e))
        }

        fn prove(
            params: &<Self::Backend as $crate::interface::ProvingBackend>::Params,
            keys: &Self::Keys,
            witness: &Self::Witness,
            transcript: tms_gadgets::proving::Transcript,
        ) -> std::result::Result<Vec<u8>, String> {
            $circuit::prove_with_transcript(params, keys, witness, transcript)
                .map_err(|e| e.to_string())
        }

        fn describe_circuit(keys: &Self::Keys) -> String {
            keys.stats.to_string()
        }
    };
    ($circuit:ident, verify: $error:ident) => {
        $crate::backends::bn254::hybrid_calls!($circuit);

        fn verify(
            params: &<Self::Backend as $crate::interface::ProvingBackend>::Params,
            shape: &Self::Shape,
            vk: &<Self::Backend as $crate::interface::ProvingBackend>::Vk,
            instance: &Self::Instance,
            proof: &[u8],
            transcript: tms_gadgets::proving::Transcript,
        ) -> $crate::interface::Verdict {
            $circuit::verify_with_vk(params, shape, vk, instance, proof, transcript).map_err(|e| {
                $crate::interface::Rejection::of(matches!(e, $circuit::$error::ProofRejected), e)
            })
        }
    };
}
pub(crate) use hybrid_calls;

/// [`crate::interface::CertificateScheme::wrap_words`] of BN254 public inputs.
pub(crate) fn wrap_words(public: &[Fr]) -> Vec<num_bigint::BigUint> {
    use halo2_base::halo2_proofs::halo2curves::ff::PrimeField;
    public
        .iter()
        .map(|x| num_bigint::BigUint::from_bytes_le(x.to_repr().as_ref()))
        .collect()
}
