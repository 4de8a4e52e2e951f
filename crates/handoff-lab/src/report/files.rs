//! The report folder: `results.json`, every figure as PNG, SVG and CSV, the registered
//! experiments' JSON and CSV, `report.md` and `index.html`; and the clearing of an earlier
//! report's files.

use crate::experiments::exchange::record;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::doc;
use super::sections::{build, title};
use crate::bench::registry;
use crate::bench::render::c2c_csv;
use crate::bench::BenchResults;
use crate::plot::{self, lines, Figure, FigureKind, PlotError};

/// The report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The output directory could not be created.
    #[error("cannot create report directory {}: {source}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A report file could not be written.
    #[error("cannot write report file {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A plot failed.
    #[error(transparent)]
    Plot(#[from] PlotError),
}

/// Writes `bytes` to `dir/name`; returns the path.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ReportError> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|source| ReportError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Writes the whole report for `results` into `out_dir` (created if needed); returns every
/// file written. Works for partial results too (the banner says so).
pub fn write_report(results: &BenchResults, out_dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    write_full_report(results, &[], out_dir)
}

/// [`write_report`] with the results of registered experiments ([`crate::bench`]) beside the
/// exchange results: their JSON, CSV and figures, and their sections in the report.
pub fn write_full_report(
    results: &BenchResults,
    experiments: &[BenchResults],
    out_dir: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    std::fs::create_dir_all(out_dir).map_err(|source| ReportError::CreateDir {
        path: out_dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    let write = |name: &str, bytes: &[u8], written: &mut Vec<PathBuf>| {
        written.push(write(out_dir, name, bytes)?);
        Ok::<(), ReportError>(())
    };
    write(
        "results.json",
        results.to_json_pretty().as_bytes(),
        &mut written,
    )?;

    let figures = plot::plan_figures(results);
    let mut pngs = HashMap::new();
    for fig in &figures {
        let png = plot::render_png(results, fig)?;
        let svg = plot::render_svg(results, fig)?;
        write(&format!("{}.png", fig.id), &png, &mut written)?;
        write(&format!("{}.svg", fig.id), svg.as_bytes(), &mut written)?;
        let csv = figure_csv(results, fig);
        write(&format!("{}.csv", fig.id), csv.as_bytes(), &mut written)?;
        pngs.insert(fig.id.clone(), png);
    }

    let extra = write_experiment_files(experiments, out_dir)?;
    written.extend(extra.files);
    pngs.extend(extra.pngs);
    let blocks = build(results, &figures, experiments);
    write(
        "report.md",
        doc::to_markdown(&blocks).as_bytes(),
        &mut written,
    )?;
    let html = doc::to_html(&title(results), &blocks, &pngs);
    write("index.html", html.as_bytes(), &mut written)?;
    Ok(written)
}

/// Removes the files an earlier report wrote into `dir` (`results.json`, `report.md`,
/// `index.html` and every `.png`, `.svg` and `.csv`), so that no stale plot survives beside a
/// new `results.json`; returns them. A folder without an earlier report's `results.json`
/// (schema `handoff.bench/1`, experiment `exchange`) is left alone, whatever it holds.
pub fn clear_previous_report(dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let results = dir.join("results.json");
    if record::load(&results).is_err() {
        return Ok(Vec::new());
    }
    let entries = std::fs::read_dir(dir).map_err(|source| ReportError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let generated = matches!(name.as_str(), "results.json" | "report.md" | "index.html")
            || [".png", ".svg", ".csv"].iter().any(|x| name.ends_with(x))
            || (name.ends_with(".json") && BenchResults::load(&path).is_ok());
        if generated && path.is_file() {
            std::fs::remove_file(&path).map_err(|source| ReportError::Write {
                path: path.clone(),
                source,
            })?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}

/// The CSV of one figure's data: its records flattened (or the c2c pairs for the heatmap).
pub fn figure_csv(results: &BenchResults, fig: &Figure) -> String {
    match fig.kind {
        FigureKind::C2cHeatmap => c2c_csv(&results.c2c),
        _ => {
            let mut b = results.clone();
            b.records = fig.records.iter().map(|&i| b.records[i].clone()).collect();
            crate::bench::render::csv(&b)
        }
    }
}

/// What [`write_experiment_files`] produced: the files, the PNG bytes by figure id (for the HTML page).
#[derive(Debug, Default)]
pub struct Written {
    /// Every file written.
    pub files: Vec<PathBuf>,
    /// PNG bytes by figure id.
    pub pngs: HashMap<String, Vec<u8>>,
}

/// Writes `<experiment>.json`, `<experiment>.csv` and every figure of every experiment
/// (`<id>.png`, `.svg`, `.csv`) into `out_dir`.
pub fn write_experiment_files(
    all: &[BenchResults],
    out_dir: &Path,
) -> Result<Written, ReportError> {
    let mut w = Written::default();
    let put = |name: String, bytes: &[u8], w: &mut Written| {
        w.files.push(write(out_dir, &name, bytes)?);
        Ok::<(), ReportError>(())
    };
    for res in all {
        put(
            format!("{}.json", res.experiment),
            res.to_json_pretty().as_bytes(),
            &mut w,
        )?;
        put(
            format!("{}.csv", res.experiment),
            crate::bench::render::csv(res).as_bytes(),
            &mut w,
        )?;
        let Some(info) = registry::by_name(&res.experiment) else {
            continue;
        };
        for spec in info.figures {
            if lines::figure_series(res, spec).is_empty() {
                continue;
            }
            let id = spec.id.to_string();
            let png = lines::render_png(res, spec)?;
            let svg = lines::render_svg(res, spec)?;
            put(format!("{id}.png"), &png, &mut w)?;
            put(format!("{id}.svg"), svg.as_bytes(), &mut w)?;
            w.pngs.insert(id, png);
        }
    }
    Ok(w)
}
