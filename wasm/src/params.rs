//! The verifier's part of KZG parameters: `g[0]`, `g2` and `s·g2`, all a BN254 verifier reads
//! from a ceremony's parameters whatever the circuit's size.
//!
//! The file is halo2's own parameter format for `k = 0` (one G1 point, its Lagrange form, the
//! two G2 points: 388 bytes), so [`tms_gadgets::proving::params::read_params`] reads it and
//! checks every point on its curve. A verifier pins its SHA-256: a wrong `s·g2` would let anyone
//! forge proofs.

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{
        commitment::{Params, ParamsProver},
        kzg::commitment::ParamsKZG,
    },
    SerdeFormat,
};
use tms_gadgets::proving::params::read_params;

/// The verifier part of `params` as a file (halo2's raw format at `k = 0`).
pub fn verifier_params_file(params: &ParamsKZG<Bn256>) -> Vec<u8> {
    let g0 = params.get_g()[0];
    let part = params.from_parts(0, vec![g0], Some(vec![g0]), params.g2(), params.s_g2());
    let mut bytes = Vec::new();
    part.write_custom(&mut bytes, SerdeFormat::RawBytes)
        .expect("writing to a Vec cannot fail");
    bytes
}

/// Parameters a verifier of a circuit of `2^k` rows uses, from a [`verifier_params_file`]:
/// halo2's KZG verifier reads only `n = 2^k`, `g[0]`, `g2` and `s·g2`.
pub fn verifier_params(file: &[u8], k: u32) -> Result<ParamsKZG<Bn256>, String> {
    let part = read_params(file).map_err(|e| format!("verifier parameters: {e}"))?;
    if part.k() != 0 {
        return Err(format!(
            "verifier parameters: a file for k = {} (the verifier's part has k = 0: 388 bytes)",
            part.k()
        ));
    }
    let g0 = part.get_g()[0];
    Ok(part.from_parts(k, vec![g0], Some(vec![g0]), part.g2(), part.s_g2()))
}
