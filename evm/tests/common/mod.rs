//! Helpers shared by the contract tests.

use revm::primitives::Address;
use tms_evm::{
    certificate::{is_error, Contracts, Trusted},
    machine::Machine,
};

/// Whether deploying `trusted`'s contract of `contracts` in front of `verifier` reverts with
/// the custom error `error`.
pub fn construction_refused(
    machine: &mut Machine,
    contracts: &Contracts,
    trusted: &Trusted,
    verifier: Address,
    error: &str,
) -> bool {
    let code = contracts.creation_code(trusted, verifier).unwrap();
    matches!(machine.try_deploy(code).unwrap(), Err(output) if is_error(&output, error))
}
