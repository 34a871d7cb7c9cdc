//! `platnav bench`'s saved-map row for a big level: the map opened
//! lazily, a block of nodes read when a query first needs it, against the
//! whole map loaded, each to its first path.

use std::time::Instant;

use platnav::io::navfile;
use platnav::{NavMap, SearchOptions, find_path};

use super::{CliError, Row, ms, reachable_pairs, row};

/// The row for `map`, `label` its level's size: saved to a scratch file,
/// then opened lazily and loaded whole, each timed to its first path
/// between the same cells.
pub(crate) fn row_for(map: &NavMap, label: &str) -> Result<Row, CliError> {
    let dir = std::env::temp_dir().join(format!("platnav-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    let file = dir.join("saved.pnav");
    navfile::save(map, &file)?;
    let timed = timed_opens(map, &file);
    let _ = std::fs::remove_file(&file);
    let (lazy, whole, read, size) = timed?;
    Ok(row(
        format!(
            "saved map, {label} ({size} MB): open to the first path, reading only the \
             blocks it needs ({read} of {} nodes), vs loading it whole ({})",
            map.node_count(),
            ms(whole)
        ),
        format!("{} ({:.0}x faster)", ms(lazy), whole / lazy.max(1e-9)),
        "< whole load",
        Some(lazy < whole),
    ))
}

/// Seconds to the first path opened lazily and loaded whole, the nodes
/// the lazy map read, and the file's size in MB.
fn timed_opens(map: &NavMap, file: &std::path::Path) -> Result<(f64, f64, usize, u64), CliError> {
    let (level, physics) = (map.level(), map.physics());
    let opts = SearchOptions::default();
    let (from, to) = reachable_pairs(map, 1, 5)
        .first()
        .copied()
        .ok_or_else(|| CliError("no reachable pair on the saved map's level".into()))?;
    let t = Instant::now();
    let mut lazy = navfile::open_lazy(file, level, physics)?;
    let a = lazy.find_path(from, to, &opts)?;
    let lazy_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let loaded = navfile::load(file, level, physics)?;
    let b = find_path(&loaded, from, to, &opts)?;
    let whole_s = t.elapsed().as_secs_f64();
    if a.ticks() != b.ticks() {
        return Err(CliError(format!(
            "{from} -> {to}: {} ticks opened lazily, {} loaded whole",
            a.ticks(),
            b.ticks()
        )));
    }
    let size = std::fs::metadata(file).map_or(0, |m| m.len()) >> 20;
    Ok((lazy_s, whole_s, lazy.built_count(), size))
}
