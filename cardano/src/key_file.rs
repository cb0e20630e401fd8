//! Verifying key files of the Cardano backend, as `tms keygen --backend cardano` writes them:
//! JSON holding the header (format version, scheme, backend), the circuit shape and
//! midnight-proofs' `Processed` key bytes as `0x`-hex. One reader for `tms verify --backend
//! cardano` and the WebAssembly verifier (`tms-wasm`, feature `cardano`), so that both read a
//! key file the same way.

use midnight_proofs::plonk::Circuit;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::backend::{vk_from_bytes, Fr, Vk};

/// A verifying key file: the header `H`, the shape `F` and the key bytes.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct VkFile<H, F> {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: H,
    /// The circuit shape.
    pub shape: F,
    /// midnight-proofs' `Processed` verifying key bytes, `0x`-hex.
    pub vk: String,
}

/// The shape and key bytes of a key file, its header ignored.
#[derive(Deserialize)]
struct Body<F> {
    shape: F,
    vk: String,
}

/// Parses a verifying key file of circuit `C`: its header, checked by `check_header` before
/// anything else is read, then its shape and key (of `C`'s default layout parameters: key files
/// hold those). Errors are one line.
pub fn read_vk_file<H, F, C>(
    bytes: &[u8],
    check_header: impl FnOnce(&H) -> Result<(), String>,
) -> Result<(F, Vk), String>
where
    H: DeserializeOwned,
    F: DeserializeOwned,
    C: Circuit<Fr>,
{
    let malformed = |e: serde_json::Error| format!("malformed JSON: {e}");
    let header: H = serde_json::from_slice(bytes).map_err(malformed)?;
    check_header(&header)?;
    let file: Body<F> = serde_json::from_slice(bytes).map_err(malformed)?;
    let key = key_bytes(&file.vk)?;
    let vk = vk_from_bytes::<C>(&key, C::Params::default()).map_err(|e| e.to_string())?;
    Ok((file.shape, vk))
}

/// The key's `0x`-hex digits as bytes.
fn key_bytes(hex_digits: &str) -> Result<Vec<u8>, String> {
    let digits = hex_digits
        .strip_prefix("0x")
        .ok_or("vk must start with 0x")?;
    hex::decode(digits).map_err(|_| "vk must be 0x followed by an even number of hex digits".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        backend::{insecure_test_params, keygen, vk_to_bytes},
        toy,
    };

    #[test]
    fn a_key_file_reads_back_and_bad_ones_are_refused() {
        const K: u32 = 7;
        let params = insecure_test_params(K);
        let (_, vk) = keygen(&params, &toy::ToyCircuit::default()).unwrap();
        let text = serde_json::json!({
            "version": 1,
            "shape": { "k": K },
            "vk": format!("0x{}", hex::encode(vk_to_bytes(&vk))),
        })
        .to_string();
        let read = |text: &str, version: u64| {
            read_vk_file::<serde_json::Value, serde_json::Value, toy::ToyCircuit>(
                text.as_bytes(),
                |h| {
                    (h["version"] == version)
                        .then_some(())
                        .ok_or_else(|| "another version".to_string())
                },
            )
        };
        let (shape, read_vk) = read(&text, 1).unwrap();
        assert_eq!(shape["k"], K);
        assert_eq!(vk_to_bytes(&read_vk), vk_to_bytes(&vk));
        assert_eq!(read(&text, 2).unwrap_err(), "another version");
        assert!(read("{", 1).unwrap_err().starts_with("malformed JSON"));
        let no_prefix = text.replace("\"vk\":\"0x", "\"vk\":\"");
        assert_eq!(read(&no_prefix, 1).unwrap_err(), "vk must start with 0x");
        let odd = text.replace("\"vk\":\"0x", "\"vk\":\"0x0");
        assert!(read(&odd, 1).unwrap_err().contains("even number"));
        let cut = {
            let end = text.rfind('"').unwrap();
            format!("{}{}", &text[..end - 8], &text[end..])
        };
        assert!(read(&cut, 1).unwrap_err().starts_with("bad bytes"), "{cut}");
    }

    #[test]
    fn the_verifier_parameters_file_reads_back_and_a_changed_one_is_refused() {
        use crate::backend::{verifier_params_file, verifier_params_from_file};
        let params = insecure_test_params(4);
        let file = verifier_params_file(&params).unwrap();
        let read = verifier_params_from_file(&file).unwrap();
        assert_eq!(read.s_g2(), params.s_g2());
        assert!(verifier_params_from_file(&file[1..])
            .unwrap_err()
            .to_string()
            .contains("95 bytes, expected 96"));
        let mut changed = file.clone();
        changed[95] ^= 1;
        // A changed point is another point or none; never the pinned one.
        if let Ok(other) = verifier_params_from_file(&changed) {
            assert_ne!(other.s_g2(), params.s_g2());
        }
    }
}
