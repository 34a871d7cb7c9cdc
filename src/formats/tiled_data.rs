//! Tiled layer data: gids with their flip bits, decoded from CSV or base64.
use std::io::Read;

use base64::Engine;

use crate::level::MAX_CELLS;

/// Flip and rotation flags in the top four bits of a Tiled gid.
pub(crate) const GID_FLAGS: u32 = 0xF000_0000;

/// The flip bits of a gid as `rules::doc::Placed` keeps them: H=4, V=2,
/// D=1 (the hexagonal 120-degree bit is dropped).
pub(crate) fn flip_bits(gid: u32) -> u8 {
    ((gid >> 29) & 7) as u8
}

/// Decodes one layer's (or chunk's) tile data: CSV text, or base64 with
/// optional `zlib`/`gzip` compression. Exactly `expected` gids must be
/// present; decompression stops after `expected * 4 + 1` bytes, so a
/// compression bomb costs at most that much memory.
pub(crate) fn decode_data(
    encoding: Option<&str>,
    compression: Option<&str>,
    text: &str,
    expected: usize,
) -> Result<Vec<u32>, String> {
    if expected > MAX_CELLS {
        return Err(format!(
            "data of {expected} tiles exceeds the limit of {MAX_CELLS}"
        ));
    }
    let gids = match (encoding, compression.filter(|c| !c.is_empty())) {
        (Some("csv") | None, None) => {
            let text = text.trim();
            if text.is_empty() {
                Vec::new()
            } else {
                let mut gids = Vec::with_capacity(expected.min(text.len() / 2 + 1));
                for (i, v) in text.trim_end_matches(',').split(',').enumerate() {
                    if i >= expected {
                        return Err(format!(
                            "data holds more than the {expected} tiles expected"
                        ));
                    }
                    let v = v.trim();
                    gids.push(
                        v.parse::<u32>()
                            .map_err(|e| format!("data entry {} ({v:?}): {e}", i + 1))?,
                    );
                }
                gids
            }
        }
        (Some("base64"), comp) => {
            let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            let raw = base64::engine::general_purpose::STANDARD
                .decode(&clean)
                .map_err(|e| format!("base64: {e}"))?;
            let want = expected * 4;
            let bytes = match comp {
                None => raw,
                Some(kind @ ("zlib" | "gzip")) => {
                    let mut out = Vec::new();
                    let limit = want as u64 + 1;
                    let res = if kind == "zlib" {
                        flate2::read::ZlibDecoder::new(&raw[..])
                            .take(limit)
                            .read_to_end(&mut out)
                    } else {
                        flate2::read::GzDecoder::new(&raw[..])
                            .take(limit)
                            .read_to_end(&mut out)
                    };
                    res.map_err(|e| format!("{kind}: {e}"))?;
                    out
                }
                Some(other) => {
                    return Err(format!(
                        "compression {other:?} is not supported (use csv, base64, zlib or gzip)"
                    ));
                }
            };
            if bytes.len() > want {
                return Err(format!(
                    "data inflates to more than the {want} bytes of {expected} tiles"
                ));
            }
            if bytes.len() != want {
                return Err(format!(
                    "data holds {} bytes, expected {want} for {expected} tiles",
                    bytes.len()
                ));
            }
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        }
        (enc, comp) => {
            return Err(format!(
                "encoding {enc:?} with compression {comp:?} is not supported"
            ));
        }
    };
    if gids.len() != expected {
        return Err(format!(
            "data holds {} tiles, expected {expected}",
            gids.len()
        ));
    }
    Ok(gids)
}
