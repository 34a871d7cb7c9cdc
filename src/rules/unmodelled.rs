//! Mechanics a map places that platnav does not model (moving platforms,
//! vanishing platforms, ...), found by name on the tiles of counted layers and on
//! objects, for `platnav check` to name.
use std::collections::{BTreeMap, HashMap};

use super::doc::{Doc, LayerKind, Prop, Props};
use super::layers::Treat;
use crate::level::{Cell, Unmodelled};

/// The unmodelled mechanics placed in `doc` ([`Unmodelled::named`]): tiles
/// of its counted layers on the map's grid, by class or string property,
/// and objects, by class, name or string property; grouped by what and
/// how the file names them, each with its cells in the level. Objects
/// `taken` as moving platforms are modelled, and not listed.
pub(super) fn unmodelled(
    doc: &Doc,
    plan: &[Option<Treat>],
    taken: &[bool],
    origin: (i64, i64),
    (width, height): (usize, usize),
) -> Vec<Unmodelled> {
    let named = |class: Option<&str>, name: Option<&str>, props: &Props| {
        class
            .into_iter()
            .chain(name)
            .chain(props.iter().filter_map(|(_, v)| match v {
                Prop::Str(s) => Some(s.as_str()),
                _ => None,
            }))
            .find_map(|s| Unmodelled::named(s).map(|k| (k, s.to_owned())))
    };
    let inside = |c: i64, r: i64| {
        let (c, r) = (c - origin.0, r - origin.1);
        (c >= 0 && r >= 0 && (c as u64) < width as u64 && (r as u64) < height as u64)
            .then(|| Cell::new(c as i32, r as i32))
    };
    let mut found: BTreeMap<(&'static str, String), Vec<Cell>> = BTreeMap::new();
    let mut tiles: HashMap<(u16, u32), Option<(&'static str, String)>> = HashMap::new();
    for (layer, treat) in doc.layers.iter().zip(plan) {
        if treat.is_none() || layer.grid.is_some() || !matches!(layer.kind, LayerKind::Tiles) {
            continue;
        }
        for p in &layer.cells {
            let hit = tiles.entry((p.set, p.id)).or_insert_with(|| {
                let def = doc.tile(p)?;
                named(def.class.as_deref(), None, &def.props)
            });
            if let (Some((kind, name)), Some(cell)) =
                (hit.clone(), inside(i64::from(p.col), i64::from(p.row)))
            {
                found
                    .entry((kind, format!("tile {name:?}")))
                    .or_default()
                    .push(cell);
            }
        }
    }
    let (tw, th) = (doc.tile_w.max(1e-9), doc.tile_h.max(1e-9));
    for (o, _) in doc.objects.iter().zip(taken).filter(|(_, t)| !**t) {
        let class = (!o.class.is_empty()).then_some(o.class.as_str());
        let name = (!o.name.is_empty()).then_some(o.name.as_str());
        let Some((kind, _)) = named(class, name, &o.props) else {
            continue;
        };
        let (x0, y0, x1, y1) = o.bounds();
        let (cx, cy) = ((x0 + x1) / 2.0 / tw, (y0 + y1) / 2.0 / th);
        if !(cx.is_finite() && cy.is_finite() && cx.abs() < 1e9 && cy.abs() < 1e9) {
            continue;
        }
        let what = match (name, class) {
            (Some(n), Some(c)) => format!("object {n:?} ({c})"),
            (Some(n), None) => format!("object {n:?}"),
            (None, Some(c)) => format!("object ({c})"),
            (None, None) => "object".to_owned(),
        };
        if let Some(cell) = inside(cx.floor() as i64, cy.floor() as i64) {
            found.entry((kind, what)).or_default().push(cell);
        }
    }
    found
        .into_iter()
        .map(|((kind, what), mut cells)| {
            cells.sort_unstable_by_key(|c| (c.row, c.col));
            cells.dedup();
            Unmodelled { kind, what, cells }
        })
        .collect()
}
