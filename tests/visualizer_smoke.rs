//! The visualizer opens a window, draws the map and saves a screenshot,
//! under a virtual X display (Xvfb).
//!
//! Without Xvfb this test fails and says why, unless `PLATNAV_SKIP_XVFB=1`
//! is set, in which case it prints that it was skipped.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use platnav::NodeType;
use platnav::render::node_color;

const FRAMES: u32 = 20;

/// Stops the Xvfb we started when the test ends, however it ends: SIGTERM
/// first, so that it removes its lock file and socket.
struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let pid = self.0.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The tests that start an X server run one at a time: two starting at
/// once could both pick the same free display.
static X_SERVER: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn start_xvfb() -> (Xvfb, String) {
    let first = 90 + std::process::id() % 400;
    for n in first..first + 50 {
        let lock = format!("/tmp/.X{n}-lock");
        let socket = format!("/tmp/.X11-unix/X{n}");
        if std::path::Path::new(&lock).exists() || std::path::Path::new(&socket).exists() {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([
                &format!(":{n}"),
                "-screen",
                "0",
                "1280x720x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => panic!(
                "cannot run Xvfb ({e}): install it (see ci-viz.sh: apt-get install xvfb libgl1-mesa-dri) \
                 or set PLATNAV_SKIP_XVFB=1 to skip this test"
            ),
        };
        let mut x = Xvfb(child);
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if std::path::Path::new(&socket).exists() {
                return (x, format!(":{n}"));
            }
            if let Ok(Some(status)) = x.0.try_wait() {
                eprintln!("Xvfb :{n} exited ({status}); trying the next display");
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("Xvfb did not start on any display");
}

fn visualizer_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/visualizer_smoke-HASH -> target/<profile>/examples/visualizer
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join("examples").join("visualizer"))
        .unwrap();
    assert!(
        bin.is_file(),
        "{} is missing: build it first with `cargo build --profile test --example visualizer --features viz` \
         (plain `cargo test --features viz` builds it too)",
        bin.display()
    );
    bin
}

#[test]
fn visualizer_draws_the_palette_and_saves_a_screenshot_under_xvfb() {
    if std::env::var("PLATNAV_SKIP_XVFB").is_ok_and(|v| v == "1") {
        println!("SKIPPED: visualizer smoke test (PLATNAV_SKIP_XVFB=1)");
        return;
    }
    let _one_at_a_time = X_SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let bin = visualizer_binary();
    let (_xvfb, display) = start_xvfb();
    let shot = std::env::temp_dir().join(format!("platnav-viz-{}.png", std::process::id()));
    let _ = std::fs::remove_file(&shot);
    let mut child = Command::new(&bin)
        .args([
            "--screenshot",
            shot.to_str().unwrap(),
            "--frames",
            &FRAMES.to_string(),
        ])
        .env("DISPLAY", &display)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("the visualizer did not quit within 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().unwrap();
    assert!(
        status.success(),
        "visualizer failed ({status}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).expect("a screenshot was written");
    let _ = std::fs::remove_file(&shot);
    let pixmap = tiny_skia::Pixmap::decode_png(&png).expect("the screenshot is a PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (1280, 720));
    let colours: std::collections::HashMap<[u8; 3], usize> =
        pixmap.pixels().iter().fold(Default::default(), |mut m, p| {
            let c = p.demultiply();
            *m.entry([c.red(), c.green(), c.blue()]).or_default() += 1;
            m
        });
    assert!(
        colours.len() > 64,
        "only {} distinct colours: a blank or trivial window",
        colours.len()
    );
    for t in [
        NodeType::PLATFORM,
        NodeType::LEFT_EDGE,
        NodeType::RIGHT_EDGE,
        NodeType::LEFT_WALL,
        NodeType::ONE_WAY,
        NodeType::DEATH,
    ] {
        let c = node_color(t);
        let n = colours.get(&[c.r, c.g, c.b]).copied().unwrap_or(0);
        assert!(n >= 20, "{t:?} colour appears on {n} pixels");
    }
    println!("screenshot: {} distinct colours", colours.len());
}

#[test]
fn visualizer_edit_mode_opens_and_closes_a_door_under_xvfb() {
    if std::env::var("PLATNAV_SKIP_XVFB").is_ok_and(|v| v == "1") {
        println!("SKIPPED: visualizer edit smoke test (PLATNAV_SKIP_XVFB=1)");
        return;
    }
    let _one_at_a_time = X_SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let bin = visualizer_binary();
    let (_xvfb, display) = start_xvfb();
    let shot = std::env::temp_dir().join(format!("platnav-viz-door-{}.png", std::process::id()));
    // A door across the demo's floor, toggled every 40 ticks while the
    // enemies chase: one tick per frame, so 130 frames toggle it 3 or 4 times.
    let out = Command::new(&bin)
        .args(["--chase", "--door", "10,15,3", "--door-every", "40"])
        .args(["--screenshot", shot.to_str().unwrap(), "--frames", "130"])
        .env("DISPLAY", &display)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&shot);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "visualizer failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let edits: Vec<&str> = stdout.lines().filter(|l| l.starts_with("edit: ")).collect();
    assert!((3..=4).contains(&edits.len()), "{stdout}");
    for (i, e) in edits.iter().enumerate() {
        assert!(e.contains("3 tiles changed"), "{e}");
        assert!(e.contains(&format!("(generation {})", i + 1)), "{e}");
    }
}

/// `--help` and loader errors need no display: the visualizer reads its
/// arguments and level before it opens a window.
#[test]
fn visualizer_help_and_load_errors_work_without_a_display() {
    let bin = visualizer_binary();
    let help = Command::new(&bin)
        .arg("--help")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(
        help.status.success(),
        "{}",
        String::from_utf8_lossy(&help.stderr)
    );
    let text = String::from_utf8_lossy(&help.stdout);
    for opt in ["--rules", "--layer", "--level", "--legend", "--physics"] {
        assert!(text.contains(opt), "{opt} missing from: {text}");
    }
    // The same loader as the platnav tools: an LDtk level that does not
    // exist is named, and the exit code is 2.
    let bad = Command::new(&bin)
        .args(["levels/ldtk/small.ldtk", "--level", "Nope"])
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains(r#"no level named "Nope""#) && err.contains("\"Start\""),
        "{err}"
    );
}

/// A level with moving platforms (`levels/lifts.txt`, two lifts): the
/// lifts move on the simulation's tick (one a frame in scripted runs) and
/// are drawn where they are on it, the path is planned in time from the
/// current tick and rides them, and the chase runs with them.
#[test]
fn visualizer_moves_the_lifts_and_plans_in_time_under_xvfb() {
    if std::env::var("PLATNAV_SKIP_XVFB").is_ok_and(|v| v == "1") {
        println!("SKIPPED: visualizer lifts smoke test (PLATNAV_SKIP_XVFB=1)");
        return;
    }
    let _one_at_a_time = X_SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let bin = visualizer_binary();
    let (_xvfb, display) = start_xvfb();
    let shot = std::env::temp_dir().join(format!("platnav-viz-lifts-{}.png", std::process::id()));
    for (chase, frames) in [(false, 40), (true, 60)] {
        let _ = std::fs::remove_file(&shot);
        let mut cmd = Command::new(&bin);
        cmd.arg("levels/lifts.txt");
        if chase {
            cmd.arg("--chase");
        }
        let out = cmd
            .args(["--screenshot", shot.to_str().unwrap()])
            .args(["--frames", &frames.to_string()])
            .env("DISPLAY", &display)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "visualizer failed (chase {chase}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains(&format!("platforms: 2 on tick {frames}\n")),
            "{stdout}"
        );
        // Planned on tick 0, from the spawn to the goal over both lifts.
        assert!(
            stdout.contains("path in time: from tick 0,") && stdout.contains("rides true"),
            "{stdout}"
        );
        let png = std::fs::read(&shot).expect("a screenshot was written");
        if !chase {
            // The lifts, filled in their colour (the chase's free space of
            // the flying enemy tints them).
            let pixmap = tiny_skia::Pixmap::decode_png(&png).expect("the screenshot is a PNG");
            let c = platnav::render::PLATFORM_COLOR;
            let n = pixmap
                .pixels()
                .iter()
                .map(|p| p.demultiply())
                .filter(|p| [p.red(), p.green(), p.blue()] == [c.r, c.g, c.b])
                .count();
            assert!(n >= 3000, "the platform colour appears on {n} pixels");
            println!("lifts: the platform colour on {n} pixels");
        }
    }
    let _ = std::fs::remove_file(&shot);
}
