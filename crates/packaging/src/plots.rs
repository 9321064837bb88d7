//! `cargo xtask plots`: every scenario run in-process (`runner::Simulate`)
//! and drawn into `docs/figures/<figure>.png`, laid out like the paper's
//! figure: the scenarios sharing a figure are columns (in declared order),
//! each distinct trace label a row of panels, traces with the same label
//! overlaid with a legend naming the variable.
//!
//! Text is laid out here with ab_glyph rather than by plotters: plotters
//! 0.3.7's ab_glyph backend drops each glyph's side bearing, which runs
//! letters together ("cl" reads as "d"). Plotters draws the lines, grid and
//! ticks; the titles, captions, tick labels and legends are ours.

use crate::util::{root, Result};
use ab_glyph::{Font, FontVec, PxScale, ScaleFont};
use fmu::scenarios::Scenario;
use plotters::coord::Shift;
use plotters::prelude::*;
use runner::{Simulate, Table};

/// The text font, read at run time (no fontconfig, no system -dev package).
const FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

const PANEL_WIDTH: u32 = 600;
const PANEL_HEIGHT: u32 = 230;
const TITLE_HEIGHT: u32 = 50;
const X_DESC_HEIGHT: u32 = 24;
const CAPTION_HEIGHT: u32 = 22;
const TITLE_SIZE: f32 = 16.0;
const TEXT_SIZE: f32 = 14.0;
const TICK_SIZE: f32 = 12.0;
const X_TICKS: usize = 8;
const Y_TICKS: usize = 6;

const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

pub fn plots() -> Result<()> {
    let text = Text::load()?;
    let dir = root().join("docs/figures");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let scenarios = fmu::scenarios::all();
    let mut figures: Vec<&str> = Vec::new();
    for s in &scenarios {
        if !figures.contains(&s.figure) {
            figures.push(s.figure);
        }
    }
    for figure in figures {
        let columns: Vec<&Scenario> = scenarios.iter().copied().filter(|s| s.figure == figure).collect();
        let mut runs = Vec::new();
        for s in &columns {
            runs.push((*s, s.simulate()?));
        }
        let path = dir.join(format!("{figure}.png"));
        draw_figure(&path, &runs, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "wrote {} ({} bytes; {})",
            path.display(),
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            columns.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
        );
    }
    let path = dir.join(format!("{SHAFT_SYSTEM_FIGURE}.png"));
    draw_shaft_system(&dir.join(format!("{SHAFT_SYSTEM_FIGURE}.csv")), &path, &text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// The figure every FMU page and docs/interfaces.md show under "which
/// interface to pick": the shaft-and-load system exact, in OMSimulator's strongly
/// coupled system (Model Exchange) and in its weakly coupled one at 20 ms
/// (Co-Simulation, cut at the torque and at the shaft). Its data, the
/// `.csv` beside it, comes from OMSimulator runs in the tests
/// (`the_shaft_system_three_ways_figure_shows_these_runs`, which fails when
/// the committed data is not what the runs give).
pub const SHAFT_SYSTEM_FIGURE: &str = "shaft_system_three_ways";

fn draw_shaft_system(data: &std::path::Path, path: &std::path::Path, text: &Text) -> DrawResult {
    let csv = std::fs::read_to_string(data)?;
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().ok_or("empty")?.split(',').collect();
    let rows: Vec<Vec<f64>> =
        lines.map(|l| l.split(',').map(|x| x.parse::<f64>()).collect()).collect::<std::result::Result<_, _>>()?;
    let column = |name: &str| -> std::result::Result<Vec<f64>, String> {
        let i = header.iter().position(|h| *h == name).ok_or(format!("no column {name}"))?;
        Ok(rows.iter().map(|r| r[i]).collect())
    };
    let time = column("time")?;
    let names = [
        ("exact", "exact (matrix exponential per mode, located events)"),
        ("model_exchange", "Model Exchange, OMSimulator strongly coupled (CVODE, 0.1 ms max step)"),
        ("co_simulation_torque_cut", "Co-Simulation 20 ms, OMSimulator weakly coupled, torque cut"),
        ("co_simulation_shaft_cut", "Co-Simulation 20 ms, weakly coupled, shaft cut (HillFrictionShaftLoad)"),
    ];
    let mut series = Vec::new();
    for (key, name) in names {
        series.push(Series { name, discrete: false, values: column(key)? });
    }
    let width = 2 * PANEL_WIDTH;
    // The stick durations the test measures on the runs behind the data.
    let title = "A stiff speed loop winding a 10 N.m/rad shaft at 0.5 rad/s against a 1 kg.m2 load with 1.5 / 1.0 \
                 N.m static / Coulomb friction: the load sticks 0.1989 s exactly, 0.1988 s in Model Exchange, 0.42 s \
                 in a co-simulation at 20 ms that holds the shaft torque over each step, 0.20 s (on the 20 ms grid) \
                 cut at the shaft port";
    let lines = text.wrap(title, TITLE_SIZE, width as f32 - 24.0);
    let line_height = TITLE_SIZE as u32 + 4;
    let title_height = 12 + line_height * lines.len() as u32;
    let height = title_height + 2 * PANEL_HEIGHT + X_DESC_HEIGHT;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    for (k, line) in lines.iter().enumerate() {
        let y = 6 + (k as u32 * line_height) as i32;
        text.draw(&root, line, (width as i32 / 2, y), TITLE_SIZE, (Align::Center, Align::Start), BLACK)?;
    }
    let bottom = (title_height + 2 * PANEL_HEIGHT) as i32;
    text.draw(&root, "time (s)", (width as i32 / 2, bottom + 2), TEXT_SIZE, (Align::Center, Align::Start), BLACK)?;
    let panel = root.clone().shrink((0, title_height), (width, 2 * PANEL_HEIGHT));
    let stop = *time.last().ok_or("no rows")?;
    draw_panel(&root, &panel, text, "load rate w (rad/s)", &time, &series, stop)?;
    root.present()?;
    Ok(())
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Align {
    Start,
    Center,
    End,
}

/// Text set with ab_glyph: advances, kerning and side bearings.
pub(crate) struct Text {
    font: FontVec,
}

impl Text {
    pub(crate) fn load() -> Result<Self> {
        let path = FONTS.iter().find(|p| std::path::Path::new(p).exists()).ok_or_else(|| {
            format!("no font for the figures: {} is missing (Debian: apt-get install fonts-dejavu-core)", FONTS[0])
        })?;
        // plotters wants a registered font even though every label is ours.
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        plotters::style::register_font("sans-serif", FontStyle::Normal, Box::leak(bytes.clone().into_boxed_slice()))
            .map_err(|_| format!("{path}: not a font ab_glyph can read"))?;
        let font = FontVec::try_from_vec(bytes).map_err(|_| format!("{path}: not a font ab_glyph can read"))?;
        Ok(Self { font })
    }

    fn width(&self, s: &str, size: f32) -> f32 {
        let font = self.font.as_scaled(PxScale::from(size));
        let mut width = 0.0;
        let mut prev = None;
        for c in s.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                width += font.kern(p, id);
            }
            width += font.h_advance(id);
            prev = Some(id);
        }
        width
    }

    /// Draw `s` at `(x, y)` (absolute pixels), aligned horizontally and
    /// vertically as given.
    pub(crate) fn draw(
        &self,
        area: &DrawingArea<BitMapBackend, Shift>,
        s: &str,
        (x, y): (i32, i32),
        size: f32,
        (h, v): (Align, Align),
        color: RGBColor,
    ) -> DrawResult {
        let scale = PxScale::from(size);
        let font = self.font.as_scaled(scale);
        let width = self.width(s, size);
        let height = font.ascent() - font.descent();
        let left = x as f32
            - match h {
                Align::Start => 0.0,
                Align::Center => width / 2.0,
                Align::End => width,
            };
        let top = y as f32
            - match v {
                Align::Start => 0.0,
                Align::Center => height / 2.0,
                Align::End => height,
            };
        let baseline = top + font.ascent();
        let mut pen = left;
        let mut prev = None;
        let mut result = Ok(());
        for c in s.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += font.kern(p, id);
            }
            let glyph = id.with_scale_and_position(scale, ab_glyph::point(pen, baseline));
            if let Some(outline) = self.font.outline_glyph(glyph) {
                let b = outline.px_bounds();
                outline.draw(|gx, gy, coverage| {
                    let at = (b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32);
                    if result.is_ok() {
                        result = area.draw_pixel(at, &color.mix(coverage.min(1.0) as f64));
                    }
                });
            }
            pen += font.h_advance(id);
            prev = Some(id);
        }
        result?;
        Ok(())
    }

    /// Break `s` at spaces into lines no wider than `width`.
    fn wrap(&self, s: &str, size: f32, width: f32) -> Vec<String> {
        let mut lines = vec![String::new()];
        for word in s.split(' ') {
            let line = lines.last_mut().unwrap();
            let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
            if !line.is_empty() && self.width(&candidate, size) > width {
                lines.push(word.to_string());
            } else {
                *line = candidate;
            }
        }
        lines
    }
}

/// Whether a variable of the scenario's model is Integer or Boolean (drawn
/// as steps).
fn is_discrete(s: &Scenario, variable: &str) -> bool {
    fmu::registry::find(s.model)
        .and_then(|m| (m.variables)().into_iter().find(|v| v.name == variable))
        .is_some_and(|v| v.type_name != "Real")
}

/// The labels of a scenario's panels, top to bottom.
fn labels(s: &Scenario) -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for t in s.traces {
        if !out.contains(&t.label) {
            out.push(t.label);
        }
    }
    out
}

pub(crate) type DrawResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// One curve of a panel: variable name, drawn as steps, scaled values.
struct Series<'a> {
    name: &'a str,
    discrete: bool,
    values: Vec<f64>,
}

fn draw_figure(path: &std::path::Path, runs: &[(&Scenario, Table)], text: &Text) -> DrawResult {
    // Rows: the union of the columns' labels, in first-seen order, so that
    // the same quantity lines up across columns.
    let mut rows: Vec<&str> = Vec::new();
    for (s, _) in runs {
        for l in labels(s) {
            if !rows.contains(&l) {
                rows.push(l);
            }
        }
    }
    let width = PANEL_WIDTH * runs.len() as u32;
    let height = TITLE_HEIGHT + PANEL_HEIGHT * rows.len() as u32 + X_DESC_HEIGHT;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    for (c, (s, table)) in runs.iter().enumerate() {
        let x0 = (c as u32 * PANEL_WIDTH) as i32;
        let lines = text.wrap(s.title, TITLE_SIZE, PANEL_WIDTH as f32 - 24.0);
        let n = lines.len() as i32;
        let line_height = TITLE_SIZE as i32 + 4;
        for (k, line) in lines.iter().enumerate() {
            let y = TITLE_HEIGHT as i32 / 2 + (2 * k as i32 - (n - 1)) * line_height / 2;
            let at = (x0 + PANEL_WIDTH as i32 / 2, y);
            text.draw(&root, line, at, TITLE_SIZE, (Align::Center, Align::Center), BLACK)?;
        }
        let bottom = (TITLE_HEIGHT + PANEL_HEIGHT * rows.len() as u32) as i32;
        let at = (x0 + PANEL_WIDTH as i32 / 2, bottom + 2);
        text.draw(&root, "time (s)", at, TEXT_SIZE, (Align::Center, Align::Start), BLACK)?;
        let time = table.column("time");
        for (r, label) in rows.iter().enumerate() {
            let series: Vec<Series> = s
                .traces
                .iter()
                .filter(|t| t.label == *label)
                .map(|t| Series {
                    name: t.variable,
                    discrete: is_discrete(s, t.variable),
                    values: table.column(t.variable).iter().map(|x| x * t.scale).collect(),
                })
                .collect();
            if series.is_empty() {
                continue;
            }
            let y0 = TITLE_HEIGHT + r as u32 * PANEL_HEIGHT;
            let panel = root.clone().shrink((x0 as u32, y0), (PANEL_WIDTH, PANEL_HEIGHT));
            draw_panel(&root, &panel, text, label, &time, &series, s.stop_time)?;
        }
    }
    root.present()?;
    Ok(())
}

fn draw_panel(
    root: &DrawingArea<BitMapBackend, Shift>,
    area: &DrawingArea<BitMapBackend, Shift>,
    text: &Text,
    label: &str,
    time: &[f64],
    series: &[Series],
    stop_time: f64,
) -> DrawResult {
    let all = series.iter().flat_map(|s| s.values.iter().copied()).filter(|x| x.is_finite());
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let discrete = series.iter().all(|s| s.discrete);
    let (lo, hi) = if !lo.is_finite() {
        (-1.0, 1.0)
    } else if discrete {
        (lo - 0.5, hi + 0.5)
    } else if hi - lo <= 1e-12 * hi.abs().max(1.0) {
        let pad = 0.1 * hi.abs().max(1.0);
        (lo - pad, hi + pad)
    } else {
        let pad = 0.06 * (hi - lo);
        (lo - pad, hi + pad)
    };
    let mut chart = ChartBuilder::on(area)
        .margin_left(8)
        .margin_right(30)
        .margin_top(CAPTION_HEIGHT)
        .x_label_area_size(22)
        .y_label_area_size(62)
        .build_cartesian_2d(0.0..stop_time, lo..hi)?;
    let y_ticks = if discrete { (hi - lo).round() as usize + 1 } else { Y_TICKS };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(205, 205, 205))
        .x_labels(X_TICKS)
        .y_labels(y_ticks)
        // The labels are drawn below with proper glyph spacing.
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|_| String::new())
        .draw()?;
    let xs = chart.as_coord_spec().x_spec().key_points(X_TICKS);
    let ys = chart.as_coord_spec().y_spec().key_points(y_ticks);
    let (x_step, y_step) = (tick_step(&xs), tick_step(&ys));
    for x in xs {
        let (px, py) = chart.backend_coord(&(x, lo));
        let s = tick_label(x, x_step);
        text.draw(root, &s, (px, py + 5), TICK_SIZE, (Align::Center, Align::Start), BLACK)?;
    }
    for y in ys {
        let (px, py) = chart.backend_coord(&(0.0, y));
        let s = tick_label(y, y_step);
        text.draw(root, &s, (px - 7, py), TICK_SIZE, (Align::End, Align::Center), BLACK)?;
    }
    let (left, top) = chart.backend_coord(&(0.0, hi));
    let (right, _) = chart.backend_coord(&(stop_time, hi));
    text.draw(root, label, ((left + right) / 2, top - 3), TEXT_SIZE, (Align::Center, Align::End), BLACK)?;

    let plot_width = (right - left).max(1) as usize;
    let mut drawn: Vec<(i32, i32)> = Vec::new();
    for (k, s) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        // Earlier traces drawn wider, so that coinciding ones (locked
        // clutches, equal modes) stay visible as nested lines.
        let width = 2 + (series.len() - 1 - k) as u32;
        let points = if s.discrete { steps(time, &s.values) } else { decimate(time, &s.values, stop_time, plot_width) };
        drawn.extend(points.iter().map(|p| chart.backend_coord(p)));
        chart.draw_series(LineSeries::new(points, color.stroke_width(width)))?;
    }
    // Legend inside the plot, in the corner that hides the fewest points.
    let row = 17;
    let legend_width = series.iter().map(|s| text.width(s.name, TICK_SIZE)).fold(0.0, f32::max) as i32 + 40;
    let legend_height = row * series.len() as i32 + 6;
    let (_, bottom) = chart.backend_coord(&(0.0, lo));
    let corners = [
        (right - legend_width - 6, top + 6),
        (right - legend_width - 6, bottom - legend_height - 6),
        (left + 8, top + 6),
        (left + 8, bottom - legend_height - 6),
    ];
    let hidden = |&(x, y): &(i32, i32)| {
        drawn.iter().filter(|p| p.0 >= x && p.0 <= x + legend_width && p.1 >= y && p.1 <= y + legend_height).count()
    };
    let (lx, ly) = corners.iter().copied().min_by_key(hidden).unwrap();
    let frame =
        Rectangle::new([(lx, ly), (lx + legend_width, ly + legend_height)], ShapeStyle::from(&WHITE.mix(0.9)).filled());
    root.draw(&frame)?;
    root.draw(&Rectangle::new([(lx, ly), (lx + legend_width, ly + legend_height)], RGBColor(200, 200, 200)))?;
    for (k, s) in series.iter().enumerate() {
        let y = ly + 3 + row * k as i32 + row / 2;
        let color = COLORS[k % COLORS.len()];
        root.draw(&PathElement::new(vec![(lx + 8, y), (lx + 28, y)], color.stroke_width(3)))?;
        text.draw(root, s.name, (lx + 34, y), TICK_SIZE, (Align::Start, Align::Center), BLACK)?;
    }
    Ok(())
}

/// Spacing of evenly spaced tick values (0 when fewer than two).
fn tick_step(ticks: &[f64]) -> f64 {
    if ticks.len() < 2 {
        0.0
    } else {
        (ticks[1] - ticks[0]).abs()
    }
}

/// A tick value with as many decimals as its spacing needs.
fn tick_label(x: f64, step: f64) -> String {
    let decimals = if step > 0.0 { (-step.log10().floor()).max(0.0) as usize } else { 2 };
    let s = format!("{x:.decimals$}");
    // No "-0".
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// Zero-order hold: a value holds until the next sample; only the changes
/// are kept.
fn steps(time: &[f64], values: &[f64]) -> Vec<(f64, f64)> {
    let mut p = Vec::new();
    for (i, (&t, &v)) in time.iter().zip(values).enumerate() {
        if i == 0 || v != values[i - 1] {
            if i > 0 {
                p.push((t, values[i - 1]));
            }
            p.push((t, v));
        }
    }
    if let (Some(&t), Some(&v)) = (time.last(), values.last()) {
        p.push((t, v));
    }
    p
}

/// One point per pixel column (its last sample), plus the column's extremes
/// where they span more than a pixel or so: the same line, drawn cleanly
/// and far smaller than every sample.
fn decimate(time: &[f64], values: &[f64], stop_time: f64, columns: usize) -> Vec<(f64, f64)> {
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let visible = 0.01 * (hi - lo);
    let mut out = Vec::new();
    let mut start = 0;
    while start < time.len() {
        let column = |t: f64| ((t / stop_time) * columns as f64).floor() as i64;
        let c = column(time[start]);
        let mut end = start + 1;
        while end < time.len() && column(time[end]) == c {
            end += 1;
        }
        let bucket: Vec<(f64, f64)> =
            time[start..end].iter().copied().zip(values[start..end].iter().copied()).collect();
        let min = (0..bucket.len()).min_by(|&a, &b| bucket[a].1.total_cmp(&bucket[b].1)).unwrap();
        let max = (0..bucket.len()).max_by(|&a, &b| bucket[a].1.total_cmp(&bucket[b].1)).unwrap();
        let mut keep = if bucket[max].1 - bucket[min].1 > visible { vec![min, max] } else { vec![] };
        if start == 0 {
            keep.push(0);
        }
        keep.push(bucket.len() - 1);
        keep.sort_unstable();
        keep.dedup();
        out.extend(keep.into_iter().map(|i| bucket[i]));
        start = end;
    }
    out
}
