//! The report folder: `results.json`, every figure as PNG, SVG and CSV, the registered
//! experiments' JSON and CSV, `report.md` and `index.html`; and the clearing of an earlier
//! report's files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::doc;
use super::sections::{build, title};
use crate::bench::load::LoadError;
use crate::bench::registry;
use crate::bench::BenchResults;
use crate::plot::{lines, PlotError};

/// The report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The output directory could not be created.
    #[error("cannot create report directory {}: {source}", path.display())]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A report file could not be written.
    #[error("cannot write report file {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A plot failed.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// A results file lacks what its figures read.
    #[error(transparent)]
    Input(LoadError),
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
    create_dir(out_dir)?;
    let mut w = Written::default();
    w.put(out_dir, "results.json", results.to_json_pretty().as_bytes())?;
    w.extend(write_figures(results, None, out_dir)?);
    w.extend(write_experiment_files(experiments, out_dir)?);
    let blocks = build(results, experiments);
    w.put(out_dir, "report.md", doc::to_markdown(&blocks).as_bytes())?;
    let html = doc::to_html(&title(results), &blocks, &w.pngs);
    w.put(out_dir, "index.html", html.as_bytes())?;
    Ok(w.files)
}

fn create_dir(dir: &Path) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })
}

/// Removes the files an earlier report wrote into `dir` (`results.json`, `report.md`,
/// `index.html` and every `.png`, `.svg` and `.csv`), so that no stale plot survives beside a
/// new `results.json`; returns them. A folder without an earlier report's `results.json`
/// (schema `handoff.bench/1` with the report's settings) is left alone, whatever it holds.
pub fn clear_previous_report(dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let results = dir.join("results.json");
    if BenchResults::load(&results).map_or(true, |r| r.report.is_none()) {
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

/// What [`write_figures`] and [`write_experiment_files`] produced: the files, the PNG bytes by
/// figure id (for the HTML page).
#[derive(Debug, Default)]
pub struct Written {
    pub files: Vec<PathBuf>,
    pub pngs: HashMap<String, Vec<u8>>,
}

impl Written {
    /// Writes `bytes` to `dir/name`.
    fn put(&mut self, dir: &Path, name: &str, bytes: &[u8]) -> Result<(), ReportError> {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|source| ReportError::Write {
            path: path.clone(),
            source,
        })?;
        self.files.push(path);
        Ok(())
    }

    /// Writes figure `id` as `<id>.png` and `<id>.svg`.
    fn figure(&mut self, dir: &Path, id: &str, png: Vec<u8>, svg: &str) -> Result<(), ReportError> {
        self.put(dir, &format!("{id}.png"), &png)?;
        self.put(dir, &format!("{id}.svg"), svg.as_bytes())?;
        self.pngs.insert(id.to_string(), png);
        Ok(())
    }

    fn extend(&mut self, other: Written) {
        self.files.extend(other.files);
        self.pngs.extend(other.pngs);
    }
}

/// Draws every figure of `res` into `dir` (created if needed), as its experiment's registry
/// entry says: its [`crate::bench::FigureSpec`] figures and those its data decides
/// ([`crate::bench::ExperimentInfo::draw`], each with its data as `<id>.csv`). `handoff plot`
/// and the report draw through it. A file whose records lack what its figures read (`source`
/// names it) is refused before anything is made.
pub fn write_figures(
    res: &BenchResults,
    source: Option<&Path>,
    dir: &Path,
) -> Result<Written, ReportError> {
    let info = registry::by_name(&res.experiment);
    let drawn = match info.and_then(|i| i.draw) {
        Some(draw) => draw(res, source).map_err(|e| match e {
            PlotError::Input(e) => ReportError::Input(e),
            e => ReportError::Plot(e),
        })?,
        None => Vec::new(),
    };
    create_dir(dir)?;
    let mut w = Written::default();
    for spec in info.map_or(&[][..], |i| i.figures) {
        if !lines::figure_series(res, spec).is_empty() {
            let png = lines::render_png(res, spec)?;
            w.figure(dir, spec.id, png, &lines::render_svg(res, spec)?)?;
        }
    }
    for d in drawn {
        w.figure(dir, &d.id, d.png, &d.svg)?;
        if let Some(csv) = d.csv {
            w.put(dir, &format!("{}.csv", d.id), csv.as_bytes())?;
        }
    }
    Ok(w)
}

/// Writes `<experiment>.json`, `<experiment>.csv` and every figure of every experiment
/// ([`write_figures`]) into `out_dir`.
pub fn write_experiment_files(
    all: &[BenchResults],
    out_dir: &Path,
) -> Result<Written, ReportError> {
    create_dir(out_dir)?;
    let mut w = Written::default();
    for res in all {
        let name = &res.experiment;
        w.put(
            out_dir,
            &format!("{name}.json"),
            res.to_json_pretty().as_bytes(),
        )?;
        let csv = crate::bench::render::csv(res);
        w.put(out_dir, &format!("{name}.csv"), csv.as_bytes())?;
        w.extend(write_figures(res, None, out_dir)?);
    }
    Ok(w)
}
