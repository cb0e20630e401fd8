//! SVG charts (plotters, SVG backend only): line charts with x = log2(N) labelled with N and y
//! on a log scale (one line per system or baseline), and one bar chart of cells by component
//! per circuit.

use std::path::Path;

use plotters::prelude::*;

use crate::snark::Component;
use crate::{Point, System};

/// One chart of the t-of-N systems: file name, title, y-axis label, and the value of a point.
pub struct ChartSpec {
    /// File name inside the chart directory.
    pub file: &'static str,
    /// Title.
    pub title: &'static str,
    /// y-axis label.
    pub y_label: &'static str,
    /// The plotted value.
    pub value: fn(&Point) -> f64,
}

/// The per-system charts of the report.
pub const CHARTS: [ChartSpec; 5] = [
    ChartSpec {
        file: "prove_time.svg",
        title: "Prove time (wall clock, median)",
        y_label: "seconds",
        value: Point::prove_wall,
    },
    ChartSpec {
        file: "prove_cpu.svg",
        title: "Prove CPU time (user + system, all threads, median)",
        y_label: "CPU seconds",
        value: Point::prove_cpu,
    },
    ChartSpec {
        file: "verify_time.svg",
        title: "Verify time (median)",
        y_label: "milliseconds",
        value: Point::verify,
    },
    ChartSpec {
        file: "proof_size.svg",
        title: "Proof size",
        y_label: "bytes",
        value: |p| p.proof_bytes as f64,
    },
    ChartSpec {
        file: "peak_memory.svg",
        title: "Peak memory (resident, whole measuring process)",
        y_label: "MiB",
        value: |p| p.peak_mib,
    },
];

/// The chart of certificate sizes: proofs beside the naive baselines.
pub const SIZE_VS_NAIVE: &str = "certificate_size.svg";
/// The chart of verification times: proofs beside the naive baselines.
pub const VERIFY_VS_NAIVE: &str = "certificate_verify.svg";

/// The file of a circuit's cost-breakdown chart.
pub fn breakdown_file(system: System) -> String {
    format!("breakdown_{}.svg", system.key())
}

/// One line of a chart.
pub struct Series {
    /// Legend.
    pub label: String,
    /// Colour.
    pub color: RGBColor,
    /// Dashed (naive baselines) or solid (proof systems).
    pub dashed: bool,
    /// (N, value) pairs.
    pub points: Vec<(f64, f64)>,
}

/// The colour of a system's line.
pub fn color(system: System) -> RGBColor {
    match system {
        System::StarkSingle => RGBColor(31, 119, 180),
        System::StarkConcurrent => RGBColor(23, 190, 207),
        System::SchnorrFlat => RGBColor(214, 39, 40),
        System::SchnorrMerkle => RGBColor(255, 127, 14),
        System::Bls => RGBColor(44, 160, 44),
        System::Mithril => RGBColor(148, 103, 189),
        System::MithrilStm => RGBColor(140, 86, 75),
        System::MithrilCardano => RGBColor(227, 119, 194),
        System::MithrilOursStm => RGBColor(188, 189, 34),
    }
}

/// A colour per naive baseline (by its position in the list).
pub fn naive_color(index: usize) -> RGBColor {
    const PALETTE: [RGBColor; 7] = [
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(227, 119, 194),
        RGBColor(57, 59, 121),
        RGBColor(99, 121, 57),
        RGBColor(140, 109, 49),
        RGBColor(132, 60, 57),
    ];
    PALETTE[index % PALETTE.len()]
}

/// A compact number for axis labels.
fn short(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 1e6 {
        format!("{:.0}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if v >= 10.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else if v >= 0.01 {
        format!("{v:.2}")
    } else {
        format!("{v:.0e}")
    }
}

/// Draws `spec` for `points` into `dir/spec.file`, one line per system.
pub fn draw(spec: &ChartSpec, points: &[Point], dir: &Path) -> Result<(), String> {
    let series: Vec<Series> = System::ALL
        .into_iter()
        .map(|system| Series {
            label: system.label().into(),
            color: color(system),
            dashed: false,
            points: points
                .iter()
                .filter(|p| p.system == system)
                .map(|p| (p.n as f64, (spec.value)(p)))
                .collect(),
        })
        .collect();
    draw_lines(&dir.join(spec.file), spec.title, spec.y_label, &series)
}

/// A line chart of `series` (x = N on a log2 axis, y on a log axis) into `path`.
pub fn draw_lines(
    path: &Path,
    title: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let values: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .filter(|(x, y)| *x > 0.0 && y.is_finite() && *y > 0.0)
        .collect();
    if values.is_empty() {
        return Err(err(&"no measured values to plot"));
    }
    let (x_min, x_max) = values.iter().fold((f64::INFINITY, 0.0f64), |(a, b), v| {
        (a.min(v.0), b.max(v.0))
    });
    let (y_min, y_max) = values.iter().fold((f64::INFINITY, 0.0f64), |(a, b), v| {
        (a.min(v.1), b.max(v.1))
    });

    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d(
            x_min.log2() - 0.3..x_max.log2() + 0.3,
            (y_min / 2.0..y_max * 3.0).log_scale(),
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("committee size N (t signers)")
        .y_desc(y_label)
        .x_labels(((x_max.log2() - x_min.log2()) as usize + 2).max(2))
        .x_label_formatter(&|x| {
            // The x axis is log2(N): label the whole powers of two only.
            if (x - x.round()).abs() < 1e-6 {
                format!("{}", x.round().exp2() as u64)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| short(*y))
        .draw()
        .map_err(|e| err(&e))?;
    for s in series {
        let mut line: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|(x, y)| *x > 0.0 && y.is_finite() && *y > 0.0)
            .map(|(x, y)| (x.log2(), *y))
            .collect();
        if line.is_empty() {
            continue;
        }
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        let c = s.color;
        let style = c.stroke_width(2);
        let drawn = if s.dashed {
            chart.draw_series(DashedLineSeries::new(line.clone(), 6, 4, style))
        } else {
            chart.draw_series(LineSeries::new(line.clone(), style))
        };
        let dashed = s.dashed;
        drawn
            .map_err(|e| err(&e))?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                if dashed {
                    PathElement::new(vec![(x, y), (x + 8, y)], c.stroke_width(2))
                } else {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                }
            });
        chart
            .draw_series(line.into_iter().map(|p| Circle::new(p, 3, c.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// A horizontal bar chart of advice cells by component into `path`.
pub fn draw_breakdown(path: &Path, title: &str, components: &[Component]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let bars: Vec<&Component> = components.iter().filter(|c| c.advice_cells > 0).collect();
    if bars.is_empty() {
        return Err(err(&"no component with cells"));
    }
    let total: usize = bars.iter().map(|c| c.advice_cells).sum();
    let max = bars.iter().map(|c| c.advice_cells).max().unwrap_or(1) as f64;
    let height = 120 + 34 * bars.len() as u32;
    let root = SVGBackend::new(path, (900, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(300)
        .build_cartesian_2d(0.0..max * 1.25, 0.0..bars.len() as f64)
        .map_err(|e| err(&e))?;
    let names: Vec<String> = bars.iter().map(|c| c.name.clone()).collect();
    let count = bars.len();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("advice cells")
        .x_label_formatter(&|x| short(*x))
        .y_labels(count * 2 + 1)
        .y_label_formatter(&|y| {
            // Bars sit between i and i + 1, top to bottom in layout order: label the middles.
            let slot = y - y.floor();
            let i = y.floor() as usize;
            if (slot - 0.5).abs() < 1e-6 && i < count {
                names[count - 1 - i].clone()
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(|e| err(&e))?;
    let color = RGBColor(70, 130, 180);
    chart
        .draw_series(bars.iter().enumerate().map(|(i, c)| {
            let y = (count - 1 - i) as f64;
            Rectangle::new(
                [(0.0, y + 0.15), (c.advice_cells as f64, y + 0.85)],
                color.filled(),
            )
        }))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, c)| {
            let y = (count - 1 - i) as f64;
            Text::new(
                format!(
                    "{} ({:.1} %)",
                    crate::sys::thousands(c.advice_cells),
                    100.0 * c.advice_cells as f64 / total as f64
                ),
                (c.advice_cells as f64 + max * 0.01, y + 0.65),
                ("sans-serif", 13),
            )
        }))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
