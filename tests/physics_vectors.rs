//! Conformance: every case of `physics-vectors.json` (states produced by an
//! independent implementation of PHYSICS.md) is matched tick by tick.

use platnav::{Body, Cell, Input, Level, Physics, formats::VglcLegend};
use serde_json::Value;

fn legend_from(v: &Value) -> VglcLegend {
    let text = serde_json::json!({ "tiles": v }).to_string();
    VglcLegend::from_json(&text).unwrap()
}

#[test]
fn body_matches_every_reference_vector_within_1e_9() {
    let doc: Value = serde_json::from_str(include_str!("physics-vectors.json")).unwrap();
    let legend = legend_from(&doc["legend"]);
    let rows: Vec<&str> = doc["level"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let level = Level::from_vglc(&rows.join("\n"), &legend).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 12, "expected the full vector set");
    let mut ticks = 0;
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let physics: Physics = serde_json::from_value(case["physics"].clone()).unwrap();
        physics.validate().unwrap();
        let start = case["start"].as_array().unwrap();
        let cell = Cell::new(
            start[0].as_i64().unwrap() as i32,
            start[1].as_i64().unwrap() as i32,
        );
        let mut body = Body::standing(cell, &physics);
        let inputs = case["inputs"].as_array().unwrap();
        let states = case["states"].as_array().unwrap();
        assert_eq!(inputs.len(), states.len(), "{name}");
        for (tick, (inp, st)) in inputs.iter().zip(states).enumerate() {
            let t: Vec<i64> = inp
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            let input = Input::from_triple([t[0], t[1], t[2]]).unwrap();
            body.step(&level, &physics, input);
            let s = st.as_array().unwrap();
            let f = |i: usize| s[i].as_f64().unwrap();
            let got = [body.x, body.y, body.vx, body.vy];
            let want = [f(0), f(1), f(2), f(3)];
            for k in 0..4 {
                assert!(
                    (got[k] - want[k]).abs() <= 1e-9,
                    "case {name:?} tick {tick}: component {k} is {} but the vector says {} (state {body:?})",
                    got[k],
                    want[k]
                );
            }
            assert_eq!(
                body.grounded,
                s[4].as_bool().unwrap(),
                "case {name:?} tick {tick}: grounded"
            );
            assert_eq!(
                body.dead,
                s[5].as_bool().unwrap(),
                "case {name:?} tick {tick}: dead"
            );
            assert_eq!(
                u64::from(body.air_jumps_left),
                s[6].as_u64().unwrap(),
                "case {name:?} tick {tick}: air jumps left"
            );
            ticks += 1;
        }
    }
    assert!(ticks > 1000, "only {ticks} ticks compared");
}
