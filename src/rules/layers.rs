//! Which layers of a map count, and how each is read: as the rules'
//! `layers` (or `layer`) name them, else every visible layer but those
//! with the `collide_unless` property, else by the conventions.
use std::collections::BTreeMap;

use super::doc::{Layer, LayerKind};
use super::kind::TileKind;
use super::mapping::{LayerRule, TileMapping};
use super::words::{collision_layer_rank, kind_of_name};
use crate::level::LevelError;

/// How one layer is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Treat {
    Kind(TileKind),
    Marks,
    /// Marks, or every tile solid when none of the layer's tiles is marked.
    MarksOrSolid,
}

/// How each layer of a document is read, in its order (`None`: the layer
/// does not count).
pub(super) type Plan = Vec<Option<Treat>>;

/// One way of reading a map's layers: the plan, and the summary phrases
/// that describe it.
pub(super) type Reading = (Plan, Vec<String>);

/// The readings of the layers, most telling first: the one the rules give
/// (the layers they name, or `collide_unless`); else, with the conventions
/// `conv`, each convention that applies (layers named like collision, layer
/// properties, a layer named as games name their collision layer), then
/// every visible layer by its tiles' marks. The caller keeps the reading
/// that explains the map best. Warnings about the rules go to `used`.
pub(super) fn readings(
    layers: &[Layer],
    rules: &TileMapping,
    conv: bool,
    used: &mut Vec<String>,
) -> Result<Vec<Reading>, LevelError> {
    let named = named_layers(layers, rules, used)?;
    let mut out: Vec<Reading> = Vec::new();
    if !named.is_empty() {
        let mut u = Vec::new();
        out.push((by_rules(layers, &named, &mut u), u));
    } else if let Some(p) = &rules.collide_unless {
        let mut u = Vec::new();
        out.push((unless_property(layers, p, &mut u), u));
    } else {
        if conv {
            type Tier = fn(&[Layer], &mut Vec<String>) -> Option<Plan>;
            let tiers: [Tier; 3] = [by_layer_names, by_layer_properties, by_collision_layer_name];
            for tier in tiers {
                let mut u = Vec::new();
                if let Some(p) = tier(layers, &mut u) {
                    out.push((p, u));
                }
            }
        }
        out.push((by_tile_marks(layers, conv), Vec::new()));
    }
    for (plan, _) in &mut out {
        for (l, p) in layers.iter().zip(plan.iter_mut()) {
            if l.marks_only && !l.decorative {
                *p = Some(Treat::Marks);
            }
        }
    }
    let mut seen: Vec<Plan> = Vec::new();
    out.retain(|(p, _)| {
        let new = !seen.contains(p);
        seen.push(p.clone());
        new
    });
    Ok(out)
}

/// Convention: the visible tile layer with the most telling of the names
/// games give their one collision layer without saying so (`main`,
/// `level`, ...) is the collision layer; `None` when no layer has one.
fn by_collision_layer_name(layers: &[Layer], used: &mut Vec<String>) -> Option<Plan> {
    let rank = |l: &Layer| {
        let plain = l.visible && !l.decorative && kind_of_name(&l.name).is_none();
        plain.then(|| collision_layer_rank(&l.name)).flatten()
    };
    let (i, _) = layers
        .iter()
        .enumerate()
        .filter_map(|(i, l)| rank(l).map(|r| (i, r)))
        .min_by_key(|&(_, r)| r)?;
    used.push(format!(
        "layer {:?} (named like a collision layer)",
        layers[i].name
    ));
    Some(
        (0..layers.len())
            .map(|j| (j == i).then_some(Treat::MarksOrSolid))
            .collect(),
    )
}

/// The layers the rules name (`layers`, and `layer` as `"tiles"`). A
/// `layers` name no layer has is a warning in the summary (one rules file
/// serves every map of a game, and some maps lack some layers); a `layer`
/// (the one collision layer) no layer has is an error. Both list the layers.
fn named_layers(
    layers: &[Layer],
    rules: &TileMapping,
    used: &mut Vec<String>,
) -> Result<BTreeMap<String, LayerRule>, LevelError> {
    let names = || {
        let v: Vec<String> = layers.iter().map(|l| format!("{:?}", l.name)).collect();
        v.join(", ")
    };
    let has = |n: &str| layers.iter().any(|l| l.name == n);
    let mut named: BTreeMap<String, LayerRule> = BTreeMap::new();
    for (n, rule) in &rules.layers {
        if n == "*" || has(n) {
            named.insert(n.clone(), *rule);
        } else {
            used.push(format!(
                "warning: the rules name layer {n:?}, which this map lacks (its layers: {})",
                names()
            ));
        }
    }
    if let Some(l) = &rules.layer {
        if !has(l) {
            return Err(LevelError::Mapping(format!(
                "no tile layer named {l:?} (tile layers: {})",
                names()
            )));
        }
        named.insert(l.clone(), LayerRule::Tiles);
    }
    Ok(named)
}

/// The layers the rules name, each as its rule says (`"*"`: every other
/// visible layer); the others do not count.
fn by_rules(layers: &[Layer], named: &BTreeMap<String, LayerRule>, used: &mut Vec<String>) -> Plan {
    let mut plan = Vec::new();
    for l in layers {
        let rule = named
            .get(&l.name)
            .or_else(|| named.get("*").filter(|_| l.visible));
        let treat = match rule {
            Some(LayerRule::Tiles) => Some(Treat::MarksOrSolid),
            Some(LayerRule::Kind(TileKind::EMPTY)) | None => None,
            Some(LayerRule::Kind(k)) => Some(Treat::Kind(*k)),
        };
        if let Some(t) = treat {
            used.push(describe(&l.name, t));
        }
        plan.push(treat);
    }
    plan
}

/// `collide_unless`: every visible layer without property `p` set to yes
/// is solid.
fn unless_property(layers: &[Layer], p: &str, used: &mut Vec<String>) -> Plan {
    let mut plan = Vec::new();
    for l in layers {
        let skip = !l.visible || l.props.iter().any(|(k, v)| k == p && v.truthy());
        plan.push((!skip).then_some(Treat::Kind(TileKind::SOLID)));
    }
    used.push(format!(
        "every visible tile layer without property {p:?}: solid"
    ));
    plan
}

/// Convention: when some layer is named like collision, layers named like
/// collision (and hazard, one-way, ladder layers) count, each as its name
/// says; `None` when no layer is named like collision.
fn by_layer_names(layers: &[Layer], used: &mut Vec<String>) -> Option<Plan> {
    let by_name: Vec<Option<TileKind>> = layers
        .iter()
        .map(|l| kind_of_name(&l.name).filter(|_| !l.decorative))
        .collect();
    if !by_name.contains(&Some(TileKind::SOLID)) {
        return None;
    }
    let mut plan = Vec::new();
    for (l, k) in layers.iter().zip(&by_name) {
        let treat = match k {
            Some(TileKind::SOLID) if !l.decorative => Some(Treat::MarksOrSolid),
            Some(TileKind::EMPTY) | None => None,
            Some(_) if l.decorative => None,
            Some(k) => Some(Treat::Kind(*k)),
        };
        if let Some(t) = treat {
            used.push(describe(&l.name, t));
        }
        plan.push(treat);
    }
    Some(plan)
}

/// Convention: layer properties. A property named like nocollide on some
/// layers skips them (the other visible tile layers collide); else one
/// named like collides on some makes them the collision layers; `None`
/// when no layer has either.
fn by_layer_properties(layers: &[Layer], used: &mut Vec<String>) -> Option<Plan> {
    let flag = |l: &Layer, want: TileKind| {
        l.props
            .iter()
            .find(|(k, v)| kind_of_name(k) == Some(want) && v.truthy())
            .map(|(k, _)| k.clone())
    };
    let off: Vec<Option<String>> = layers.iter().map(|l| flag(l, TileKind::EMPTY)).collect();
    let on: Vec<Option<String>> = layers.iter().map(|l| flag(l, TileKind::SOLID)).collect();
    if let Some(p) = off.iter().flatten().next().cloned() {
        let mut plan = Vec::new();
        for (l, o) in layers.iter().zip(&off) {
            let tiles = matches!(l.kind, LayerKind::Tiles) && !l.decorative;
            plan.push((l.visible && o.is_none() && tiles).then_some(Treat::MarksOrSolid));
        }
        used.push(format!(
            "every visible tile layer without a {p:?} property collides"
        ));
        return Some(plan);
    }
    if on.iter().any(Option::is_some) {
        let mut plan = Vec::new();
        for (l, o) in layers.iter().zip(&on) {
            if let Some(p) = o {
                used.push(format!("layer {:?} (property {p:?}): solid", l.name));
            }
            plan.push(o.is_some().then_some(Treat::MarksOrSolid));
        }
        return Some(plan);
    }
    None
}

/// Every visible layer by its tiles' marks (with the conventions `conv`,
/// not decorative layers nor those named like nocollide).
fn by_tile_marks(layers: &[Layer], conv: bool) -> Plan {
    layers
        .iter()
        .map(|l| {
            let skip = !l.visible
                || (conv && (l.decorative || kind_of_name(&l.name) == Some(TileKind::EMPTY)));
            (!skip).then_some(Treat::Marks)
        })
        .collect()
}

/// How the load summary names a counted layer.
fn describe(layer: &str, t: Treat) -> String {
    match t {
        Treat::Kind(k) => format!("layer {layer:?}: every tile {}", k.name()),
        Treat::Marks => format!("layer {layer:?} by its tiles' marks"),
        Treat::MarksOrSolid => format!("layer {layer:?}"),
    }
}
