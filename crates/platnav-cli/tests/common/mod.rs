//! What the command line's tests share.

/// Runs the test from the workspace root, where the levels are (paths in
/// these tests are relative to it, as in the README's examples).
pub fn at_root() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap();
    });
}
