//! Performance models (foMPI's way of summarizing a mode: `P_fence = a + b·log2 p`,
//! `P_post = a + b·k`, …): least-squares fits of `a + b·f(x)` over an experiment's points,
//! with R² and residuals, printed in the seed's style and drawn over the points by
//! [`crate::plot::lines`] (a dashed line per series that has a model).
//!
//! A results file carries its fits in [`BenchResults::models`](super::BenchResults::models);
//! an experiment computes them with [`BenchResults::fit_series`](super::BenchResults::fit_series)
//! after measuring.

use serde::{Deserialize, Serialize};

/// The shape of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelForm {
    /// `a + b·x`.
    Linear,
    /// `a + b·log2 x`.
    Log2,
}

impl ModelForm {
    /// `f(x)` of `a + b·f(x)`.
    pub fn f(self, x: f64) -> f64 {
        match self {
            ModelForm::Linear => x,
            ModelForm::Log2 => x.log2(),
        }
    }
}

/// The points of a model are "followed" when R² reaches this. With ≥ 3 points a slope that
/// explains less than 80% of the variance is not what the model says; 0.8 rather than 0.95
/// because whole invocations on a shared 2-CPU machine differ by 10–20%.
pub const R2_FOLLOWS: f64 = 0.8;
/// …or, for a model that is flat within the noise (R² is meaningless when there is almost
/// no variance to explain), when every point lies within this fraction of the line.
pub const FLAT_WITHIN: f64 = 0.2;

/// One fitted model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFit {
    /// The series (mode) fitted.
    pub series: String,
    /// The metric fitted.
    pub metric: String,
    pub form: ModelForm,
    /// The name of x in the formula ("p", "k", "s").
    pub x_name: String,
    /// The metric's unit.
    pub unit: String,
    /// Intercept.
    pub a: f64,
    /// Slope.
    pub b: f64,
    /// Coefficient of determination (`None` when the points have no variance).
    pub r2: Option<f64>,
    /// `(x, measured − model)` per point.
    pub residuals: Vec<[f64; 2]>,
}

impl ModelFit {
    /// The model's value at `x`.
    pub fn predict(&self, x: f64) -> f64 {
        self.a + self.b * self.form.f(x)
    }

    /// The largest |residual| relative to the model's value there.
    pub fn max_rel_residual(&self) -> f64 {
        self.residuals
            .iter()
            .map(|[x, r]| (r / self.predict(*x).abs().max(f64::MIN_POSITIVE)).abs())
            .fold(0.0, f64::max)
    }

    /// Whether the points follow the model ([`R2_FOLLOWS`], [`FLAT_WITHIN`]); `None` with
    /// fewer than 3 points (two points fit any line exactly: nothing is tested).
    pub fn follows(&self) -> Option<bool> {
        (self.residuals.len() >= 3).then(|| {
            self.r2.is_some_and(|r| r >= R2_FOLLOWS) || self.max_rel_residual() <= FLAT_WITHIN
        })
    }

    /// [`follows`](Self::follows) in words, for tables.
    pub fn verdict(&self) -> String {
        match self.follows() {
            Some(true) => "yes".into(),
            Some(false) => "NO: not this model".into(),
            None => format!("{} points: exact by construction", self.residuals.len()),
        }
    }

    /// The seed's notation: `fence ≈ 0.41 µs + 0.12 µs · log2 p`.
    pub fn formula(&self) -> String {
        let fx = match self.form {
            ModelForm::Linear => self.x_name.clone(),
            ModelForm::Log2 => format!("log2 {}", self.x_name),
        };
        let sign = if self.b < 0.0 { "−" } else { "+" };
        // Sub-µs models read better in ns.
        let (scale, unit) = if self.unit == "µs" && self.a.abs().max(self.b.abs()) < 1.0 {
            (1e3, "ns")
        } else {
            (1.0, self.unit.as_str())
        };
        format!(
            "{} ≈ {} {unit} {sign} {} {unit} · {fx}",
            self.series,
            crate::bench::text::sig3(self.a * scale),
            crate::bench::text::sig3(self.b.abs() * scale),
        )
    }
}

/// Least squares of `y = a + b·f(x)`: `(a, b, R²)`; `None` with fewer than 2 points or all
/// `f(x)` equal. R² is `None` when the ys have no variance.
pub fn least_squares(form: ModelForm, points: &[(f64, f64)]) -> Option<(f64, f64, Option<f64>)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let fx: Vec<f64> = points.iter().map(|p| form.f(p.0)).collect();
    let mx = fx.iter().sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = fx.iter().map(|f| (f - mx).powi(2)).sum();
    if sxx <= 0.0 || !sxx.is_finite() {
        return None;
    }
    let sxy: f64 = fx
        .iter()
        .zip(points)
        .map(|(f, p)| (f - mx) * (p.1 - my))
        .sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let ss_tot: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    let ss_res: f64 = fx
        .iter()
        .zip(points)
        .map(|(f, p)| (p.1 - (a + b * f)).powi(2))
        .sum();
    let r2 = (ss_tot > 0.0).then(|| 1.0 - ss_res / ss_tot);
    Some((a, b, r2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_lines_are_recovered() {
        // y = 3 + 2·log2 x at x = 2, 4, 8: (3+2, 3+4, 3+6) by hand.
        let (a, b, r2) =
            least_squares(ModelForm::Log2, &[(2.0, 5.0), (4.0, 7.0), (8.0, 9.0)]).unwrap();
        assert!(
            (a - 3.0).abs() < 1e-12 && (b - 2.0).abs() < 1e-12,
            "{a} {b}"
        );
        assert!((r2.unwrap() - 1.0).abs() < 1e-12);
        // y = 1 + 0.5·k.
        let (a, b, _) =
            least_squares(ModelForm::Linear, &[(1.0, 1.5), (2.0, 2.0), (4.0, 3.0)]).unwrap();
        assert!((a - 1.0).abs() < 1e-12 && (b - 0.5).abs() < 1e-12);
    }

    #[test]
    fn r2_and_residuals_by_hand() {
        // Points (0,0) (1,2) (2,1): b = 0.5, a = 0.5; fitted 0.5, 1, 1.5; residuals
        // −0.5, 1, −0.5; SS_res = 1.5, SS_tot = 2 → R² = 0.25.
        let (a, b, r2) =
            least_squares(ModelForm::Linear, &[(0.0, 0.0), (1.0, 2.0), (2.0, 1.0)]).unwrap();
        assert!((a - 0.5).abs() < 1e-12 && (b - 0.5).abs() < 1e-12);
        assert!((r2.unwrap() - 0.25).abs() < 1e-12);
        let fit = ModelFit {
            series: "m".into(),
            metric: "t".into(),
            form: ModelForm::Linear,
            x_name: "p".into(),
            unit: "µs".into(),
            a,
            b,
            r2,
            residuals: vec![[0.0, -0.5], [1.0, 1.0], [2.0, -0.5]],
        };
        // Relative residual at x = 0: 0.5 / 0.5 = 1 → not flat, R² low → not followed.
        assert!((fit.max_rel_residual() - 1.0).abs() < 1e-12);
        assert_eq!(fit.follows(), Some(false));
        assert_eq!(
            ModelFit {
                residuals: vec![[0.0, 0.0], [1.0, 0.0]],
                ..fit.clone()
            }
            .follows(),
            None
        );
        assert_eq!(fit.formula(), "m ≈ 500 ns + 500 ns · p");
        let big = ModelFit {
            a: 2.0,
            b: -0.25,
            ..fit.clone()
        };
        assert_eq!(big.formula(), "m ≈ 2.00 µs − 0.250 µs · p");
    }

    #[test]
    fn flat_points_follow_a_flat_model_and_degenerate_x_is_no_fit() {
        let (a, b, r2) =
            least_squares(ModelForm::Linear, &[(2.0, 1.0), (3.0, 1.0), (4.0, 1.0)]).unwrap();
        assert_eq!((a, b, r2), (1.0, 0.0, None));
        assert!(least_squares(ModelForm::Linear, &[(2.0, 1.0), (2.0, 3.0)]).is_none());
        assert!(least_squares(ModelForm::Log2, &[(2.0, 1.0)]).is_none());
    }
}
