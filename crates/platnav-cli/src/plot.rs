//! PNG charts for `platnav sweep --plot`, drawn with plotters' pure-Rust
//! bitmap backend. Text uses an embedded ASCII subset of DejaVu Sans
//! (assets/), so no system font library is needed.

use std::path::Path as FsPath;

use platnav::{Physics, analysis::Param};
use plotters::coord::{Shift, types::RangedCoordf64};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::CliError;

/// DejaVu Sans, printable ASCII only (license beside it).
const FONT: &[u8] = include_bytes!("../../../assets/DejaVuSans-ascii.ttf");

fn err(e: impl std::fmt::Display) -> CliError {
    CliError(format!("plot: {e}"))
}

/// Per grid point: levels completable, the mean reachable fraction of the
/// levels evaluated, and levels whose evaluation failed.
pub(crate) struct Tally<'a> {
    pub done: &'a [usize],
    pub reach: &'a [f64],
    pub failed: &'a [usize],
}

/// The bitmap the charts are drawn on.
type Root<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// A chart on the bitmap with real numbers on both axes.
type Chart<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One parameter: completable levels (as a fraction of `n`) and mean
/// reachable fraction per value, with failed points marked. Two: a heat
/// map of completable levels, failed points counted in their cells.
pub(crate) fn draw(
    path: &FsPath,
    params: &[Param],
    grid: &[Vec<f64>],
    tally: &Tally<'_>,
    n: usize,
    base: &Physics,
) -> Result<(), CliError> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| err("the embedded font is invalid"))?;
    let root = BitMapBackend::new(path, (960, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    match params {
        [p] => draw_lines(&root, *p, grid, tally, n, base)?,
        [px, py] => draw_heat_map(&root, (*px, *py), grid, tally, n)?,
        _ => return Err(err("one or two parameters")),
    }
    root.present().map_err(err)?;
    Ok(())
}

/// The chart of one parameter `p`: completable levels and the mean
/// reachable fraction against its values, failed points crossed on the
/// axis, and the base physics' value as a vertical line.
fn draw_lines(
    root: &Root<'_>,
    p: Param,
    grid: &[Vec<f64>],
    tally: &Tally<'_>,
    n: usize,
    base: &Physics,
) -> Result<(), CliError> {
    let Tally {
        done,
        reach,
        failed,
    } = *tally;
    let (x0, x1) = value_range(grid);
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("{n} {}: playability against {p}", levels(n)),
            ("sans-serif", 26),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0.0..1.05)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(format!("{p} (base {:.2})", p.get(base)))
        .y_desc("fraction")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    // Points where every level failed have no figures to draw.
    let evaluated = |g: usize| failed[g] < n;
    let completable: Vec<(f64, f64)> = (0..grid.len())
        .filter(|&g| evaluated(g))
        .map(|g| (grid[g][0], done[g] as f64 / n.max(1) as f64))
        .collect();
    let reachable: Vec<(f64, f64)> = (0..grid.len())
        .filter(|&g| evaluated(g))
        .map(|g| (grid[g][0], reach[g]))
        .collect();
    for (series, color, label) in [
        (completable, BLUE, format!("completable levels (of {n})")),
        (
            reachable,
            RED,
            "mean reachable fraction of standing cells".to_string(),
        ),
    ] {
        chart
            .draw_series(LineSeries::new(series.clone(), color.stroke_width(2)))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2))
            });
        chart
            .draw_series(
                series
                    .into_iter()
                    .map(|pt| Circle::new(pt, 4, color.filled())),
            )
            .map_err(err)?;
    }
    cross_failures(&mut chart, grid, failed)?;
    let base_x = p.get(base);
    if (x0..=x1).contains(&base_x) {
        base_line(&mut chart, base_x)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// The lowest and highest value of the grid's (one) parameter, widened
/// to a unit range when they are the same, so that the axis has a width.
fn value_range(grid: &[Vec<f64>]) -> (f64, f64) {
    let lo = grid.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
    let hi = grid.iter().map(|p| p[0]).fold(f64::NEG_INFINITY, f64::max);
    if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, hi + 0.5)
    }
}

/// Points where some level failed: a cross on the axis, with the count of
/// failed levels in the legend.
fn cross_failures(
    chart: &mut Chart<'_, '_>,
    grid: &[Vec<f64>],
    failed: &[usize],
) -> Result<(), CliError> {
    let failures: Vec<(f64, f64)> = grid
        .iter()
        .zip(failed)
        .filter(|&(_, &f)| f > 0)
        .map(|(pt, _)| (pt[0], 0.0))
        .collect();
    if !failures.is_empty() {
        let total: usize = failed.iter().sum();
        chart
            .draw_series(
                failures
                    .into_iter()
                    .map(|pt| Cross::new(pt, 7, BLACK.stroke_width(2))),
            )
            .map_err(err)?
            .label(format!("failed: {total} level points (error in the CSV)"))
            .legend(|(x, y)| Cross::new((x + 12, y), 6, BLACK.stroke_width(2)));
    }
    Ok(())
}

/// The base physics' value `base_x`, as a green vertical line.
fn base_line(chart: &mut Chart<'_, '_>, base_x: f64) -> Result<(), CliError> {
    chart
        .draw_series(LineSeries::new(
            vec![(base_x, 0.0), (base_x, 1.05)],
            RGBColor(0, 150, 0).stroke_width(2),
        ))
        .map_err(err)?
        .label("base physics")
        .legend(|(x, y)| {
            PathElement::new(
                vec![(x, y), (x + 24, y)],
                RGBColor(0, 150, 0).stroke_width(2),
            )
        });
    Ok(())
}

/// The heat map of two parameters `px` and `py`: a cell per grid point,
/// darker the more levels are completable there (grey where every level
/// failed), with the count of completable (and failed) levels written in.
fn draw_heat_map(
    root: &Root<'_>,
    (px, py): (Param, Param),
    grid: &[Vec<f64>],
    tally: &Tally<'_>,
    n: usize,
) -> Result<(), CliError> {
    let Tally { done, failed, .. } = *tally;
    let xs = distinct(grid, 0);
    let ys = distinct(grid, 1);
    let step = |v: &[f64]| if v.len() > 1 { v[1] - v[0] } else { 1.0 };
    let (sx, sy) = (step(&xs), step(&ys));
    let (x0, x1) = (xs[0] - sx / 2.0, xs[xs.len() - 1] + sx / 2.0);
    let (y0, y1) = (ys[0] - sy / 2.0, ys[ys.len() - 1] + sy / 2.0);
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "{n} {}: completable levels by {px} and {py} (dark: all; grey: failed)",
                levels(n)
            ),
            ("sans-serif", 24),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(px.name())
        .y_desc(py.name())
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(grid.iter().zip(done).zip(failed).map(|((pt, &d), &x)| {
            let f = d as f64 / n.max(1) as f64;
            let shade = (255.0 * (1.0 - f)) as u8;
            // Every level failed here: grey, not "none completable".
            let color = if x == n {
                RGBColor(190, 190, 190)
            } else {
                RGBColor(shade, shade, 255)
            };
            Rectangle::new(
                [
                    (pt[0] - sx / 2.0, pt[1] - sy / 2.0),
                    (pt[0] + sx / 2.0, pt[1] + sy / 2.0),
                ],
                color.filled(),
            )
        }))
        .map_err(err)?;
    chart
        .draw_series(grid.iter().zip(done).zip(failed).map(|((pt, &d), &x)| {
            let color = if 2 * d > n { WHITE } else { BLACK };
            // Failed levels follow the count: "3, 2 failed".
            let text = if x > 0 {
                format!("{d}, {x} failed")
            } else {
                d.to_string()
            };
            Text::new(
                text,
                (pt[0], pt[1]),
                ("sans-serif", 18)
                    .into_font()
                    .color(&color)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            )
        }))
        .map_err(err)?;
    Ok(())
}

fn levels(n: usize) -> &'static str {
    if n == 1 { "level" } else { "levels" }
}

fn distinct(grid: &[Vec<f64>], i: usize) -> Vec<f64> {
    let mut v: Vec<f64> = grid.iter().map(|p| p[i]).collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}
