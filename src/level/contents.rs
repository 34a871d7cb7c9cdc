//! What a map file holds, listed for the error that says nothing in it
//! marks a solid cell: [`MapContents`].

use std::fmt;

/// What a map file contains, as listed when nothing in it marks a solid
/// cell ([`LevelError::NothingSolid`](crate::LevelError::NothingSolid)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapContents {
    /// The file format.
    pub format: String,
    /// Tile layers (quoted names, hidden ones marked).
    pub tile_layers: Vec<String>,
    /// LDtk IntGrid layers with their values (`1=dirt`).
    pub intgrid_layers: Vec<String>,
    /// Object (or LDtk entity) layers.
    pub object_layers: Vec<String>,
    /// Layer property names with their types.
    pub layer_properties: Vec<String>,
    /// Tile property names with their types.
    pub tile_properties: Vec<String>,
    /// Tile classes (Tiled `type`/`class`).
    pub tile_classes: Vec<String>,
    /// How many tiles have collision shapes.
    pub tiles_with_shapes: usize,
    /// Object classes (Tiled `type`/`class`, LDtk entity identifiers).
    pub object_classes: Vec<String>,
    /// Object names.
    pub object_names: Vec<String>,
    /// A rules file line that would mark something solid.
    pub suggestion: String,
}

fn list(v: &[String]) -> String {
    const MAX: usize = 12;
    if v.is_empty() {
        return "none".into();
    }
    let mut s = v.iter().take(MAX).cloned().collect::<Vec<_>>().join(", ");
    if v.len() > MAX {
        s += &format!(", ... ({} more)", v.len() - MAX);
    }
    s
}

impl fmt::Display for MapContents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nothing in this {} file marks a solid cell by platnav's conventions or rules. \
             It has tile layers: {}; ",
            self.format,
            list(&self.tile_layers)
        )?;
        if !self.intgrid_layers.is_empty() {
            write!(f, "IntGrid layers: {}; ", list(&self.intgrid_layers))?;
        }
        write!(
            f,
            "object layers: {}; layer properties: {}; tile properties: {}; tile classes: {}; \
             tiles with collision shapes: {}; object classes: {}; object names: {}.\n\
             Say what collides in a rules file (--rules FILE), for example: {}",
            list(&self.object_layers),
            list(&self.layer_properties),
            list(&self.tile_properties),
            list(&self.tile_classes),
            self.tiles_with_shapes,
            list(&self.object_classes),
            list(&self.object_names),
            self.suggestion
        )
    }
}
