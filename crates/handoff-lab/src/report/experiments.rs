//! The report's sections of the registered experiments: per section (e.g. "Counting puts")
//! a heading, then per experiment what it measures, the seed's claims judged on this
//! machine (with their reasons; the first screen tabulates them and says once which
//! experiments ran on a busy machine), its figures (the files [`super::write_experiment_files`] writes) and a table of
//! every point.

use super::doc::Block;
use crate::bench::models;
use crate::bench::registry;
use crate::bench::render::{fmt_metric, metric_names};
use crate::bench::{BenchResults, ExperimentInfo};
use crate::plot::lines;

/// The report blocks of every experiment in `all`, grouped by section in registry order
/// (experiments the registry does not know come last, as plain tables).
pub fn blocks(all: &[BenchResults]) -> Vec<Block> {
    let mut out = Vec::new();
    let ran = registry::EXPERIMENTS
        .iter()
        .filter(|i| all.iter().any(|r| r.experiment == i.name));
    for section in crate::stats::first_seen(ran.map(|i| i.section)) {
        out.push(Block::Heading(2, section.to_string()));
        for info in registry::EXPERIMENTS
            .iter()
            .filter(|i| i.section == section)
        {
            for res in all.iter().filter(|r| r.experiment == info.name) {
                out.extend(experiment_blocks(res, Some(info)));
            }
        }
    }
    for res in all
        .iter()
        .filter(|r| registry::by_name(&r.experiment).is_none())
    {
        out.extend(experiment_blocks(res, None));
    }
    out
}

fn experiment_blocks(res: &BenchResults, info: Option<&ExperimentInfo>) -> Vec<Block> {
    let mut out = Vec::new();
    let title = info.map_or(res.experiment.as_str(), |i| i.title);
    out.push(Block::Heading(3, title.to_string()));
    if res.partial {
        out.push(Block::Banner(format!(
            "{}: partial — {}",
            res.experiment,
            res.stopped_early.as_deref().unwrap_or("stopped early")
        )));
    }
    if !res.all_verified() {
        out.push(Block::Banner(format!(
            "{}: some data FAILED verification; its numbers are not to be trusted",
            res.experiment
        )));
    }
    if let Some(i) = info {
        out.push(Block::Para(format!("{} Source: {}.", i.what, i.seed)));
        let f = (i.findings)(res);
        if !f.is_empty() {
            out.push(Block::Para(
                "**The seed's claims on this machine:**".to_string(),
            ));
            out.push(Block::List(f.iter().map(|f| f.sentence.clone()).collect()));
        }
        for spec in i.figures {
            if lines::figure_series(res, spec).is_empty() {
                continue;
            }
            out.push(Block::Figure {
                id: spec.id.to_string(),
                alt: spec.title.to_string(),
                caption: format!(
                    "{} — data: `{1}.csv` / `{1}.json`.",
                    spec.title, res.experiment
                ),
                csv: false,
            });
        }
    }
    if !res.models.is_empty() {
        out.push(Block::Para(format!(
            "**Performance models** (least squares over the points' means; a mode whose \
             points do not follow its model — R² below {} and a point more than {:.0}% off \
             the line — is flagged):",
            models::R2_FOLLOWS,
            models::FLAT_WITHIN * 100.0
        )));
        let rows = res
            .models
            .iter()
            .map(|m| {
                vec![
                    m.formula(),
                    m.r2.map_or("-".to_string(), |r| format!("{r:.3}")),
                    format!("{:.0}%", m.max_rel_residual() * 100.0),
                    m.verdict(),
                ]
            })
            .collect();
        out.push(Block::table(
            &["model", "R²", "largest residual", "points follow it"],
            rows,
        ));
    }
    for n in &res.notes {
        out.push(Block::Para(format!("Note: {n}")));
    }
    let metrics = metric_names(res);
    let mut header = vec!["series".to_string(), "x".to_string()];
    header.extend(metrics.iter().map(|m| format!("{m}: mean (95% CI)")));
    header.push("runs".into());
    header.push("data".into());
    let rows = res
        .records
        .iter()
        .map(|r| {
            let metric = |m: &String| r.metrics.get(m).map_or("-".to_string(), fmt_metric);
            let mut row = vec![r.series.clone(), crate::bench::text::sig3(r.x)];
            row.extend(metrics.iter().map(metric));
            row.push(r.runs.to_string());
            row.push(if r.verified { "verified" } else { "FAILED" }.to_string());
            row
        })
        .collect();
    out.push(Block::Table { header, rows });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BenchRecord, MetricRecord};
    use crate::machine::{Machine, Tool};

    fn pv() -> BenchResults {
        let mut r = BenchResults::new(
            "private-vars",
            Machine {
                allowed_cpus: vec![0, 1],
                ..Machine::default()
            },
            Tool::default(),
            serde_json::json!({}),
        );
        for (series, ns) in [("tls", 0.25), ("shared-array", 1.0), ("padded-array", 0.26)] {
            for threads in [1.0, 2.0] {
                let v = if threads == 1.0 { 0.25 } else { ns };
                let runs: Vec<Vec<f64>> =
                    (0..3).map(|k| vec![v * (1.0 + 0.01 * k as f64)]).collect();
                r.records.push(
                    BenchRecord::new(series, threads, 3, 1, true)
                        .param("method", series)
                        .param("threads", threads as u64)
                        .metric(
                            "access_ns",
                            MetricRecord::from_runs("ns", false, &runs).unwrap(),
                        ),
                );
            }
        }
        r
    }

    #[test]
    fn a_registered_experiment_gets_its_section_findings_figure_and_table() {
        let b = blocks(&[pv()]);
        assert!(b.contains(&Block::Heading(
            2,
            "Runtime queues (Charm++, many-core)".into()
        )));
        let findings: Vec<&String> = b
            .iter()
            .filter_map(|x| match x {
                Block::List(items) => Some(items),
                _ => None,
            })
            .flatten()
            .collect();
        // shared / tls = 4x with a tight interval: the claim holds; shared / padded ≈ 3.85x too.
        assert!(
            findings
                .iter()
                .any(|f| f.contains("holds here") && f.contains("shared-array / tls = 4.00×")),
            "{findings:?}"
        );
        assert!(b
            .iter()
            .any(|x| matches!(x, Block::Figure { id, .. } if id == "private_vars")));
        let rows = b.iter().find_map(|x| match x {
            Block::Table { rows, .. } => Some(rows.len()),
            _ => None,
        });
        assert_eq!(rows, Some(6));
    }

    #[test]
    fn fitted_models_get_a_table_and_are_drawn() {
        let mut r = pv();
        // shared-array: 0.25 ns at 1 thread, 1.0 at 2 (means of 1.00x, 1.01x, 1.02x):
        // a two-point line fits exactly, R² = 1.
        let fit = r
            .fit_series(
                "shared-array",
                "access_ns",
                crate::bench::ModelForm::Linear,
                "t",
            )
            .unwrap();
        assert!((fit.b - 0.7575).abs() < 1e-9, "{}", fit.b);
        r.models.push(fit);
        let b = blocks(&[r.clone()]);
        let table = b.iter().find_map(|x| match x {
            Block::Table { header, rows } if header[0] == "model" => Some(rows.clone()),
            _ => None,
        });
        let rows = table.expect("a model table");
        assert!(rows[0][0].starts_with("shared-array ≈ "), "{rows:?}");
        assert_eq!(rows[0][3], "2 points: exact by construction");
        let spec = registry::by_name("private-vars").unwrap().figures[0];
        assert!(lines::render_svg(&r, &spec).unwrap().contains("model"));
    }

    #[test]
    fn files_are_written_for_each_experiment_and_figure() {
        let dir = std::env::temp_dir().join(format!("handoff-bench-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let w = super::super::write_experiment_files(&[pv()], &dir).unwrap();
        for f in [
            "private-vars.json",
            "private-vars.csv",
            "private_vars.png",
            "private_vars.svg",
        ] {
            assert!(w.files.contains(&dir.join(f)), "{f}: {:?}", w.files);
        }
        assert!(w.pngs.contains_key("private_vars"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
