//! A progress bar for long map builds, on a terminal.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use platnav::{BuildError, BuildProgress, Level, LinkOptions, NavMap, Physics};

/// How long a build runs before its progress bar appears.
const QUIET: Duration = Duration::from_secs(1);

/// Builds the map; when stderr is a terminal and the build takes longer
/// than a second, shows a bar of standing cells done until it ends.
pub(crate) fn build_watched(
    level: &Level,
    physics: &Physics,
    options: &LinkOptions,
) -> Result<NavMap, BuildError> {
    if !std::io::stderr().is_terminal() {
        return NavMap::build_with(level, physics, options);
    }
    let progress = Arc::new(BuildProgress::new());
    let options = options.clone().with_progress(Some(Arc::clone(&progress)));
    std::thread::scope(|scope| {
        let build = scope.spawn(|| NavMap::build_with(level, physics, &options));
        let start = Instant::now();
        let mut bar: Option<ProgressBar> = None;
        while !build.is_finished() {
            std::thread::sleep(Duration::from_millis(50));
            if bar.is_none() && start.elapsed() >= QUIET && progress.total() > 0 {
                let b = ProgressBar::new(progress.total() as u64).with_elapsed(start.elapsed());
                if let Ok(style) = ProgressStyle::with_template(
                    "building {elapsed_precise} [{bar:40}] {pos}/{len} standing cells, {eta} left",
                ) {
                    b.set_style(style.progress_chars("=> "));
                }
                bar = Some(b);
            }
            if let Some(b) = &bar {
                b.set_position(progress.done() as u64);
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        build
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
