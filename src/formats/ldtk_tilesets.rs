//! LDtk tileset definitions as the rules engine's tilesets: a tile's enum
//! tags (LDtk's way of tagging tiles, such as `Solid` or `Ladder`) are its
//! marks, as a Tiled tile's class and properties are. Each tag is a yes
//! property named as the tag, and a tile with one tag has it as its class.
use std::collections::HashMap;

use serde::Deserialize;

use super::{MAX_LAYER_CELLS, add_within};
use crate::level::LevelError;
use crate::rules::TileMapping;
use crate::rules::doc::{Placed, Prop, TileDef, TileSet};

/// One tileset definition, as far as platnav reads it.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(super) struct TilesetDef {
    uid: i64,
    identifier: String,
    tile_grid_size: i64,
    enum_tags: Vec<EnumTag>,
}

/// The tiles one enum value tags.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct EnumTag {
    enum_value_id: String,
    tile_ids: Vec<i64>,
}

/// A project's tilesets, and where each uid's is.
pub(super) struct Tilesets {
    pub sets: Vec<TileSet>,
    by_uid: HashMap<i64, u16>,
}

impl Tilesets {
    /// The tilesets of `defs`, their tagged tiles bounded (with the level's
    /// cells) by [`MAX_LAYER_CELLS`].
    pub fn new(defs: &[TilesetDef], budget: &mut u64) -> Result<Self, LevelError> {
        let mut sets = Vec::new();
        let mut by_uid = HashMap::new();
        for (i, d) in defs.iter().enumerate().take(usize::from(u16::MAX)) {
            let mut tiles: HashMap<u32, TileDef> = HashMap::new();
            for tag in &d.enum_tags {
                let n = tag.tile_ids.len() as u64;
                add_within(budget, n, MAX_LAYER_CELLS, "tagged tiles")?;
                for id in tag.tile_ids.iter().filter_map(|&t| u32::try_from(t).ok()) {
                    let def = tiles.entry(id).or_default();
                    def.props
                        .push((tag.enum_value_id.clone(), Prop::Bool(true)));
                }
            }
            for def in tiles.values_mut() {
                if let [(only, _)] = &def.props[..] {
                    def.class = Some(only.clone());
                }
            }
            let side = d.tile_grid_size.max(1) as f64;
            sets.push(TileSet {
                name: d.identifier.clone(),
                tile_w: side,
                tile_h: side,
                tiles,
            });
            by_uid.insert(d.uid, i as u16);
        }
        Ok(Tilesets { sets, by_uid })
    }

    /// The index of the tileset with `uid` (no tileset: past the last).
    pub fn index(&self, uid: Option<i64>) -> u16 {
        uid.and_then(|u| self.by_uid.get(&u).copied())
            .unwrap_or(u16::MAX)
    }

    /// Whether a placed tile carries a mark: an enum tag, or a `tiles`
    /// entry of the rules.
    pub fn marked(&self, p: &Placed, rules: &TileMapping) -> bool {
        let set = self.sets.get(usize::from(p.set));
        set.is_some_and(|s| s.tiles.contains_key(&p.id))
            || rules
                .tile_rule(set.map_or("", |s| s.name.as_str()), p.id)
                .is_some()
    }
}
