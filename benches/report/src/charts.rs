//! SVG line charts (plotters, SVG backend only): one line per system, x = log2(N) labelled
//! with N, y on a log scale.

use std::path::Path;

use plotters::prelude::*;

use crate::{Point, System};

/// One chart: file name, title, y-axis label, and the value of a point.
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

/// The charts of the report.
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

fn color(system: System) -> RGBColor {
    match system {
        System::StarkSingle => RGBColor(31, 119, 180),
        System::StarkConcurrent => RGBColor(23, 190, 207),
        System::SchnorrFlat => RGBColor(214, 39, 40),
        System::SchnorrMerkle => RGBColor(255, 127, 14),
        System::Bls => RGBColor(44, 160, 44),
        System::Mithril => RGBColor(148, 103, 189),
        System::MithrilStm => RGBColor(140, 86, 75),
    }
}

/// A compact number for axis labels.
fn short(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.0}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if v >= 10.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Draws `spec` for `points` into `dir/spec.file`.
pub fn draw(spec: &ChartSpec, points: &[Point], dir: &Path) -> Result<(), String> {
    let path = dir.join(spec.file);
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let values: Vec<(System, f64, f64)> = points
        .iter()
        .map(|p| (p.system, p.n as f64, (spec.value)(p)))
        .filter(|(_, x, y)| *x > 0.0 && y.is_finite() && *y > 0.0)
        .collect();
    if values.is_empty() {
        return Err(err(&"no measured values to plot"));
    }
    let fold = |f: fn(f64, f64) -> f64, init: f64, g: fn(&(System, f64, f64)) -> f64| {
        values.iter().map(g).fold(init, f)
    };
    let (x_min, x_max) = (
        fold(f64::min, f64::INFINITY, |v| v.1),
        fold(f64::max, 0.0, |v| v.1),
    );
    let (y_min, y_max) = (
        fold(f64::min, f64::INFINITY, |v| v.2),
        fold(f64::max, 0.0, |v| v.2),
    );

    let root = SVGBackend::new(&path, (860, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(spec.title, ("sans-serif", 22))
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
        .x_desc("committee size N (t = N/2 signers)")
        .y_desc(spec.y_label)
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
    for system in System::ALL {
        let mut line: Vec<(f64, f64)> = values
            .iter()
            .filter(|v| v.0 == system)
            .map(|v| (v.1.log2(), v.2))
            .collect();
        if line.is_empty() {
            continue;
        }
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        let c = color(system);
        chart
            .draw_series(LineSeries::new(line.clone(), c.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(system.label())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart
            .draw_series(line.into_iter().map(|p| Circle::new(p, 4, c.filled())))
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
