//! Key files: the header as JSON after its length (4 bytes, little-endian), then halo2's raw key.
//! The header carries what is needed to read the key back and rebuild the layout the prover
//! reproduces.

use crate::hybrid::HybridParams;

/// The header of a key file: a format tag, the circuit's shape, the column configuration and the
/// break points: what is needed to read a key back and rebuild the layout the prover reproduces.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct KeyHeader<S> {
    /// The file's format tag (e.g. `tms-schnorr-atms-pk-v2`), checked on reading.
    pub format: String,
    /// The circuit's shape.
    pub shape: S,
    /// The column configuration.
    pub config: HybridParams,
    /// halo2-base's break points.
    pub break_points: Vec<Vec<usize>>,
}

/// A key file: the header as JSON after its length (4 bytes, little-endian), then what `body`
/// writes (halo2's raw key).
pub fn write_key_file<S: serde::Serialize>(
    header: &KeyHeader<S>,
    body: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
) -> Vec<u8> {
    let json = serde_json::to_vec(header).expect("header serializes");
    let mut out = (json.len() as u32).to_le_bytes().to_vec();
    out.extend(json);
    body(&mut out).expect("writing to memory");
    out
}

/// Splits a key file written by [`write_key_file`] into its header and body, checking the format
/// tag; the error says what is malformed.
pub fn read_key_file<'a, S: serde::de::DeserializeOwned>(
    bytes: &'a [u8],
    format: &str,
) -> Result<(KeyHeader<S>, &'a [u8]), String> {
    let len = bytes.get(..4).ok_or("too short")?;
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    let json = bytes.get(4..4 + len).ok_or("truncated header")?;
    let header: KeyHeader<S> = serde_json::from_slice(json).map_err(|e| format!("header: {e}"))?;
    if header.format != format {
        return Err(format!("expected a {format} file, found {}", header.format));
    }
    Ok((header, &bytes[4 + len..]))
}
