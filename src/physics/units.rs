//! Physics files in the game's own units, and partial files layered on a
//! preset: see [`Physics::from_json_over`].
use serde::Deserialize;

use super::{Physics, PhysicsError, WallJump};

/// The wall-jump object of a physics file; missing fields keep the base's.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct WallJumpFile {
    speed_x: Option<f64>,
    speed_y: Option<f64>,
    slide_speed: Option<f64>,
}

/// `wall_jump`: absent (keep the base's), `null` (off) or an object.
#[derive(Default)]
enum WallJumpField {
    #[default]
    Keep,
    Off,
    Set(WallJumpFile),
}

impl<'de> Deserialize<'de> for WallJumpField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<WallJumpFile>::deserialize(d)? {
            None => WallJumpField::Off,
            Some(w) => WallJumpField::Set(w),
        })
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PhysicsFile {
    preset: Option<String>,
    units: Option<String>,
    tile: Option<f64>,
    per: Option<String>,
    fps: Option<f64>,
    w: Option<f64>,
    h: Option<f64>,
    run_speed: Option<f64>,
    ground_accel: Option<f64>,
    air_accel: Option<f64>,
    gravity: Option<f64>,
    jump_speed: Option<f64>,
    jump_cut_speed: Option<f64>,
    max_fall_speed: Option<f64>,
    air_jumps: Option<u32>,
    #[serde(default)]
    wall_jump: WallJumpField,
    dt: Option<f64>,
    climb_speed: Option<f64>,
    coyote_ticks: Option<u32>,
    jump_buffer_ticks: Option<u32>,
    pad_speed: Option<f64>,
    spring_speed: Option<f64>,
    spring_jump_speed: Option<f64>,
    jump_boost: Option<f64>,
    jump_boost_ticks: Option<u32>,
    jump_height: Option<f64>,
    time_to_apex: Option<f64>,
}

fn file_err(m: impl Into<String>) -> PhysicsError {
    PhysicsError::File(m.into())
}

impl Physics {
    /// The largest physics file accepted, in bytes (64 KiB).
    pub const MAX_FILE_BYTES: usize = 1 << 16;

    /// Reads a physics file (JSON) over `base`: every parameter the file
    /// gives replaces the base's, the others are kept, so a file may be
    /// partial (`--preset smb --physics overrides.json`). `"preset": NAME`
    /// in the file picks the base itself.
    ///
    /// Values are in tiles and seconds (the fields of [`Physics`]), unless
    /// the file says `"units": "px"` with `"tile": N` (pixels per tile):
    /// then lengths (`w`, `h`, `jump_height`) are in pixels, speeds in
    /// pixels per second and accelerations in pixels per second squared,
    /// or, with `"per": "frame"` and `"fps": F`, in pixels per frame and
    /// per frame squared (`v px/frame = v * F px/s`, `a px/frame² = a * F²
    /// px/s²`). `dt` is always in seconds, and `coyote_ticks`,
    /// `jump_buffer_ticks` and `jump_boost_ticks` in ticks. `jump_height` with
    /// `time_to_apex` (seconds) sets `gravity` and `jump_speed` as
    /// [`Physics::with_jump`] does. The result is validated.
    ///
    /// ```
    /// use platnav::Physics;
    /// // The bevy_ecs_ldtk sample's player: 500 px/s jump, 2000 px/s² gravity, 16-px tiles.
    /// let p = Physics::from_json_over(
    ///     r#"{"units": "px", "tile": 16, "w": 12, "h": 28, "jump_speed": 500, "gravity": 2000}"#,
    ///     &Physics::default(),
    /// ).unwrap();
    /// assert_eq!((p.w, p.h), (0.75, 1.75));
    /// assert_eq!((p.jump_speed, p.gravity), (31.25, 125.0));
    /// ```
    ///
    /// # Errors
    /// [`PhysicsError::File`] for malformed JSON (with line and column), an
    /// unknown field or missing `tile`/`fps`; [`PhysicsError::UnknownPreset`];
    /// [`PhysicsError::Invalid`] when the result fails [`Physics::validate`].
    pub fn from_json_over(text: &str, base: &Physics) -> Result<Physics, PhysicsError> {
        if text.len() > Self::MAX_FILE_BYTES {
            return Err(file_err(format!(
                "{} bytes, over the {}-byte limit of a physics file",
                text.len(),
                Self::MAX_FILE_BYTES
            )));
        }
        let f: PhysicsFile = serde_json::from_str(text).map_err(|e| file_err(e.to_string()))?;
        let mut p = match &f.preset {
            Some(name) => Physics::preset(name)?,
            None => base.clone(),
        };
        let units = Units::of(&f)?;
        units.set_values(&mut p, &f);
        units.set_wall_jump(&mut p, &f.wall_jump)?;
        let p = units.set_jump_height(p, &f)?;
        p.validate()?;
        Ok(p)
    }
}

/// `v` when it is absent or a positive finite number, else an error naming
/// the field (`tile`, `fps`).
fn positive(name: &str, v: Option<f64>) -> Result<Option<f64>, PhysicsError> {
    match v {
        Some(x) if !(x.is_finite() && x > 0.0) => {
            Err(file_err(format!("{name} = {x}: must be a positive number")))
        }
        v => Ok(v),
    }
}

/// The units a physics file's values are in: file lengths per tile and
/// seconds per file time unit (both 1 for tiles and seconds).
struct Units {
    /// File lengths per tile: 1, or the tile size in pixels.
    len_unit: f64,
    /// Seconds per file time unit: 1, or one frame (`1 / fps`).
    time_unit: f64,
}

impl Units {
    /// The units `units`, `per`, `tile` and `fps` say, checked in that
    /// order (the first problem is the one reported).
    fn of(f: &PhysicsFile) -> Result<Units, PhysicsError> {
        let px = match f.units.as_deref() {
            None | Some("tiles" | "tile") => false,
            Some("px" | "pixels") => true,
            Some(u) => {
                return Err(file_err(format!(
                    "units {u:?}: expected \"tiles\" or \"px\""
                )));
            }
        };
        let per_frame = match f.per.as_deref() {
            None | Some("s" | "second") => false,
            Some("frame") => true,
            Some(u) => return Err(file_err(format!("per {u:?}: expected \"s\" or \"frame\""))),
        };
        let tile = positive("tile", f.tile)?;
        let fps = positive("fps", f.fps)?;
        let len_unit = match (px, tile) {
            (false, _) => 1.0,
            (true, Some(t)) => t,
            (true, None) => {
                return Err(file_err(
                    "\"units\": \"px\" needs \"tile\": the tile size in pixels",
                ));
            }
        };
        let time_unit = match (per_frame, fps) {
            (false, _) => 1.0,
            (true, Some(f)) => 1.0 / f,
            (true, None) => {
                return Err(file_err(
                    "\"per\": \"frame\" needs \"fps\": frames per second",
                ));
            }
        };
        Ok(Units {
            len_unit,
            time_unit,
        })
    }

    /// A length in tiles.
    fn len(&self, v: f64) -> f64 {
        v / self.len_unit
    }

    /// A speed in tiles per second.
    fn speed(&self, v: f64) -> f64 {
        v / self.len_unit / self.time_unit
    }

    /// An acceleration in tiles per second squared.
    fn accel(&self, v: f64) -> f64 {
        v / self.len_unit / (self.time_unit * self.time_unit)
    }

    /// Replaces the base's plain parameters with those the file gives,
    /// converted to tiles and seconds (`dt` is always in seconds, the tick
    /// counts in ticks).
    fn set_values(&self, p: &mut Physics, f: &PhysicsFile) {
        let set = |slot: &mut f64, v: Option<f64>, conv: &dyn Fn(f64) -> f64| {
            if let Some(v) = v {
                *slot = conv(v);
            }
        };
        let len = |v: f64| self.len(v);
        let speed = |v: f64| self.speed(v);
        let accel = |v: f64| self.accel(v);
        set(&mut p.w, f.w, &len);
        set(&mut p.h, f.h, &len);
        set(&mut p.run_speed, f.run_speed, &speed);
        set(&mut p.ground_accel, f.ground_accel, &accel);
        set(&mut p.air_accel, f.air_accel, &accel);
        set(&mut p.gravity, f.gravity, &accel);
        set(&mut p.jump_speed, f.jump_speed, &speed);
        set(&mut p.jump_cut_speed, f.jump_cut_speed, &speed);
        set(&mut p.max_fall_speed, f.max_fall_speed, &speed);
        set(&mut p.dt, f.dt, &|v| v);
        set(&mut p.climb_speed, f.climb_speed, &speed);
        set(&mut p.jump_boost, f.jump_boost, &accel);
        for (slot, v) in [
            (&mut p.pad_speed, f.pad_speed),
            (&mut p.spring_speed, f.spring_speed),
            (&mut p.spring_jump_speed, f.spring_jump_speed),
        ] {
            if let Some(v) = v {
                *slot = Some(speed(v));
            }
        }
        if let Some(n) = f.air_jumps {
            p.air_jumps = n;
        }
        if let Some(n) = f.coyote_ticks {
            p.coyote_ticks = n;
        }
        if let Some(n) = f.jump_buffer_ticks {
            p.jump_buffer_ticks = n;
        }
        if let Some(n) = f.jump_boost_ticks {
            p.jump_boost_ticks = n;
        }
    }

    /// Applies the file's `wall_jump`: kept, turned off, or set field by
    /// field over the base's (a field the base cannot supply is an error).
    fn set_wall_jump(&self, p: &mut Physics, field: &WallJumpField) -> Result<(), PhysicsError> {
        match field {
            WallJumpField::Keep => {}
            WallJumpField::Off => p.wall_jump = None,
            WallJumpField::Set(w) => {
                let old = p.wall_jump;
                let pick = |v: Option<f64>, old: Option<f64>, name: &str| {
                    v.map(|v| self.speed(v)).or(old).ok_or_else(|| {
                        file_err(format!(
                            "wall_jump.{name} is needed: the base physics has no wall jump"
                        ))
                    })
                };
                p.wall_jump = Some(WallJump {
                    speed_x: pick(w.speed_x, old.map(|o| o.speed_x), "speed_x")?,
                    speed_y: pick(w.speed_y, old.map(|o| o.speed_y), "speed_y")?,
                    slide_speed: pick(w.slide_speed, old.map(|o| o.slide_speed), "slide_speed")?,
                });
            }
        }
        Ok(())
    }

    /// Applies `jump_height` with `time_to_apex` (they set `gravity` and
    /// `jump_speed`, so the file may not give those as well).
    fn set_jump_height(&self, p: Physics, f: &PhysicsFile) -> Result<Physics, PhysicsError> {
        match (f.jump_height, f.time_to_apex) {
            (Some(hgt), Some(t)) => {
                if !(hgt.is_finite() && hgt > 0.0 && t.is_finite() && t > 0.0) {
                    return Err(file_err(format!(
                        "jump_height {hgt} and time_to_apex {t} must be positive"
                    )));
                }
                if f.gravity.is_some() || f.jump_speed.is_some() {
                    return Err(file_err(
                        "give jump_height and time_to_apex, or gravity and jump_speed, not both",
                    ));
                }
                Ok(p.with_jump(self.len(hgt), t))
            }
            (None, None) => Ok(p),
            _ => Err(file_err("jump_height and time_to_apex go together")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_file_keeps_the_base() {
        let smb = Physics::smb();
        let p = Physics::from_json_over(r#"{"air_jumps": 1}"#, &smb).unwrap();
        assert_eq!(
            p,
            Physics {
                air_jumps: 1,
                ..smb.clone()
            }
        );
        let p = Physics::from_json_over(r#"{"preset": "agile", "run_speed": 7}"#, &smb).unwrap();
        assert_eq!(
            p,
            Physics {
                run_speed: 7.0,
                ..Physics::agile()
            }
        );
    }

    #[test]
    fn pixels_per_second_and_per_frame() {
        // HaxeFlixel demo: 32-px tiles, jump 200 px/s, gravity 400 px/s².
        let p = Physics::from_json_over(
            r#"{"units": "px", "tile": 32, "w": 32, "h": 32, "jump_speed": 200, "gravity": 400}"#,
            &Physics::default(),
        )
        .unwrap();
        assert_eq!((p.w, p.h, p.jump_speed, p.gravity), (1.0, 1.0, 6.25, 12.5));
        // 4 px per frame at 60 fps over 16-px tiles: 15 tiles/s; 0.25
        // px/frame² is 900 px/s², 56.25 tiles/s².
        let p = Physics::from_json_over(
            r#"{"units": "px", "tile": 16, "per": "frame", "fps": 60, "run_speed": 4, "gravity": 0.25}"#,
            &Physics::default(),
        )
        .unwrap();
        assert!((p.run_speed - 15.0).abs() < 1e-12, "{}", p.run_speed);
        assert!((p.gravity - 56.25).abs() < 1e-12, "{}", p.gravity);
    }

    #[test]
    fn jump_height_and_wall_jump() {
        let p = Physics::from_json_over(
            r#"{"units": "px", "tile": 16, "jump_height": 48, "time_to_apex": 0.4,
                "wall_jump": {"speed_x": 96, "speed_y": 240, "slide_speed": 48}}"#,
            &Physics::default(),
        )
        .unwrap();
        assert_eq!(
            p,
            Physics::default()
                .with_jump(3.0, 0.4)
                .with_wall(6.0, 15.0, 3.0)
        );
        let off = Physics::from_json_over(r#"{"wall_jump": null}"#, &Physics::agile()).unwrap();
        assert_eq!(off.wall_jump, None);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let d = Physics::default();
        let e = |t: &str| Physics::from_json_over(t, &d).unwrap_err().to_string();
        assert!(e(r#"{"units": "px", "w": 12}"#).contains("tile"));
        assert!(e(r#"{"units": "px", "tile": 16, "per": "frame", "w": 1}"#).contains("fps"));
        assert!(e(r#"{"units": "feet"}"#).contains("feet"));
        assert!(e(r#"{"wj": 1}"#).contains("unknown field"));
        assert!(e(r#"{"tile": -3}"#).contains("positive"));
        assert!(e(r#"{"preset": "nope"}"#).contains("nope"));
        assert!(e(r#"{"wall_jump": {"speed_x": 1}}"#).contains("speed_y"));
        assert!(e(r#"{"jump_height": 3}"#).contains("together"));
        // Validation: 2000 px/s over 16-px tiles tunnels at 60 Hz.
        assert!(e(r#"{"units": "px", "tile": 16, "run_speed": 2000}"#).contains("run_speed"));
    }

    impl Physics {
        fn with_wall(mut self, x: f64, y: f64, s: f64) -> Self {
            self.wall_jump = Some(WallJump {
                speed_x: x,
                speed_y: y,
                slide_speed: s,
            });
            self
        }
    }
}
