//! On-chain verification of `tms` certificates.
//!
//! A certificate proof made with the EVM transcript
//! ([`tms_gadgets::proving::Transcript::Evm`]) is checked by a
//! Solidity verifier that snark-verifier generates from the KZG parameters and the verifying key;
//! the contracts of [`certificate::TEMPLATE`] (`contracts/CertificateVerifier.sol`), exported
//! with it and tied to its code, hold what a bridge trusts (committee and threshold,
//! registration, chain genesis) and build the public inputs from the message bytes.
//!
//! | module | what |
//! |---|---|
//! | [`verifier`] | the generated Halo2 verifier's Solidity source and its calldata |
//! | [`solc`] | the Solidity compiler: solc-js from npm (`npm ci --prefix evm/solc`), run by Node |
//! | [`machine`] | an in-memory EVM (revm): deploy, call, gas used |
//! | [`certificate`] | `CertificateVerifier.sol`: the contracts tied to one verifier, their constructors and calls |
//!
//! Outer (aggregation) proofs come from `tms-aggregation`; their verifiers are built here with
//! [`certificate::Contracts::build_with_accumulator`].
//!
//! The EIP-170 limit on deployed code is [`EIP170_LIMIT`] bytes; [`machine::Machine`] enforces
//! it as mainnet does unless asked not to (to measure a verifier that is too large).
#![deny(missing_docs)]

pub mod certificate;
pub mod groth16;
pub mod machine;
pub mod solc;
pub mod verifier;

/// The largest deployed contract mainnet accepts (EIP-170), in bytes.
pub const EIP170_LIMIT: usize = 24_576;

/// The line every revm measurement prints, for scripts: `evm-gas path=<what> gas=<n>
/// deployed_bytes=<n>`, where `path` names what was verified and how (spaces become `-`), `gas`
/// is one verification transaction's gas and `deployed_bytes` the verifier's deployed code.
pub fn gas_line(path: &str, gas: u64, deployed_bytes: usize) -> String {
    let path: String = path
        .chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .collect();
    format!("evm-gas path={path} gas={gas} deployed_bytes={deployed_bytes}")
}

/// What can go wrong between a verifying key and a transaction.
#[derive(Debug, thiserror::Error)]
pub enum EvmError {
    /// Node or the solc-js package is missing, or it could not be run.
    #[error("solc-js: {0}")]
    Compiler(String),
    /// solc reported errors.
    #[error("solc: {0}")]
    Compilation(String),
    /// snark-verifier could not build a verifier for this key.
    #[error("verifier generation: {0}")]
    Generation(String),
    /// A deployment failed (reverted, halted, or the code is over the EIP-170 limit).
    #[error("deployment: {0}")]
    Deployment(String),
    /// The EVM itself failed (not a revert: a database or environment error).
    #[error("evm: {0}")]
    Machine(String),
    /// A value given to a contract is not what it takes.
    #[error("{0}")]
    Input(String),
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_gas_line_is_one_token_per_field() {
        assert_eq!(
            super::gas_line("schnorr-atms 4 of 6\touter", 433_864, 18_913),
            "evm-gas path=schnorr-atms-4-of-6-outer gas=433864 deployed_bytes=18913"
        );
    }
}
