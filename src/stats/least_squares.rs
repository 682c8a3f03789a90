//! Least-squares fits for scaling laws: a line (activations against batch) and a quadratic
//! (activations against sequence length, where attention adds an s² term). Ordinary least
//! squares through the normal equations, solved with partial pivoting; R² = 1 − SS_res/SS_tot.

use serde::{Deserialize, Serialize};

/// y ≈ Σ `coefficients[i]` · x^i.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolyFit {
    /// Coefficients, constant term first.
    pub coefficients: Vec<f64>,
    /// Coefficient of determination.
    pub r2: f64,
    /// Number of points fitted.
    pub points: usize,
}

impl PolyFit {
    /// The fitted value at `x`.
    pub fn predict(&self, x: f64) -> f64 {
        self.coefficients
            .iter()
            .enumerate()
            .map(|(i, c)| c * x.powi(i as i32))
            .sum()
    }
}

/// Fits a polynomial of `degree` to the points. `None` with fewer than degree + 1 distinct x
/// values (the fit would not be determined).
pub fn poly_fit(points: &[(f64, f64)], degree: usize) -> Option<PolyFit> {
    let n = degree + 1;
    let mut xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.dedup();
    if xs.len() < n || points.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return None;
    }
    let rows: Vec<Vec<f64>> = points
        .iter()
        .map(|&(x, _)| (0..n).map(|i| x.powi(i as i32)).collect())
        .collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    let coefficients = least_squares(&rows, &ys)?;
    let fit = PolyFit {
        coefficients,
        r2: 0.0,
        points: points.len(),
    };
    let mean = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
    let ss_tot: f64 = points.iter().map(|p| (p.1 - mean).powi(2)).sum();
    let ss_res: f64 = points
        .iter()
        .map(|p| (p.1 - fit.predict(p.0)).powi(2))
        .sum();
    Some(PolyFit {
        r2: if ss_tot > 0.0 {
            1.0 - ss_res / ss_tot
        } else {
            1.0
        },
        ..fit
    })
}

/// Multivariate least squares: coefficients b minimising Σ (y − X·b)². Columns are scaled to
/// their largest magnitude first, so features of very different size (parameters and s²) do not
/// wreck the normal equations. `None` when the system is singular or has too few rows.
pub fn least_squares(rows: &[Vec<f64>], y: &[f64]) -> Option<Vec<f64>> {
    ridge(rows, y, 0.0)
}

/// Least squares with a ridge penalty `lambda`·|b|² on the scaled coefficients: with a positive
/// `lambda`, a term the rows do not determine (a feature that does not vary in them) stays near
/// zero instead of making the system singular.
pub fn ridge(rows: &[Vec<f64>], y: &[f64], lambda: f64) -> Option<Vec<f64>> {
    let n = rows.first()?.len();
    if (rows.len() < n && lambda == 0.0)
        || rows.len() != y.len()
        || rows.iter().any(|r| r.len() != n)
    {
        return None;
    }
    let scale = column_scale(rows, n);
    let mut a = vec![vec![0f64; n + 1]; n];
    for (r, &target) in rows.iter().zip(y) {
        for i in 0..n {
            let xi = r[i] / scale[i];
            for j in 0..n {
                a[i][j] += xi * r[j] / scale[j];
            }
            a[i][n] += xi * target;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += lambda;
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            return None;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (cell, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *cell -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i] / scale[i]).collect())
}

/// Each column's largest magnitude (never 0): dividing by it puts features of very different
/// size (parameters and s²) on one footing before the normal equations.
fn column_scale(rows: &[Vec<f64>], n: usize) -> Vec<f64> {
    (0..n)
        .map(|j| {
            rows.iter()
                .fold(0f64, |m, r| m.max(r[j].abs()))
                .max(f64::MIN_POSITIVE)
        })
        .collect()
}

/// Non-negative least squares: coefficients b ≥ 0 minimising Σ (y − X·b)² (Lawson & Hanson
/// 1974, "Solving Least Squares Problems", ch. 23: the active-set method). For models whose
/// terms count things — tensors of a size, bytes per parameter — a negative coefficient has no
/// meaning, and allowing one lets two nearly collinear terms cancel each other: a fit that
/// matches its calibration points and fails away from them. Columns are scaled first (the
/// solution is unchanged by positive scaling). `None` when a sub-problem is singular.
pub fn nonnegative(rows: &[Vec<f64>], y: &[f64]) -> Option<Vec<f64>> {
    let n = rows.first()?.len();
    if rows.len() != y.len() || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    let scale = column_scale(rows, n);
    let a: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| r.iter().zip(&scale).map(|(x, s)| x / s).collect())
        .collect();
    let gradient = |x: &[f64]| -> Vec<f64> {
        let residual: Vec<f64> = a
            .iter()
            .zip(y)
            .map(|(r, v)| v - r.iter().zip(x).map(|(p, q)| p * q).sum::<f64>())
            .collect();
        (0..n)
            .map(|j| a.iter().zip(&residual).map(|(r, e)| r[j] * e).sum())
            .collect()
    };
    // Solves the unconstrained problem on the columns in `passive`, zero elsewhere.
    let solve_on = |passive: &[bool]| -> Option<Vec<f64>> {
        let cols: Vec<usize> = (0..n).filter(|&j| passive[j]).collect();
        let sub: Vec<Vec<f64>> = a
            .iter()
            .map(|r| cols.iter().map(|&j| r[j]).collect())
            .collect();
        let z = ridge(&sub, y, 1e-12)?;
        let mut full = vec![0.0; n];
        for (k, &j) in cols.iter().enumerate() {
            full[j] = z[k];
        }
        Some(full)
    };
    let tol = 1e-12 * y.iter().map(|v| v.abs()).fold(1.0, f64::max);
    let mut x = vec![0.0; n];
    let mut passive = vec![false; n];
    for _ in 0..3 * n + 10 {
        let w = gradient(&x);
        let Some(t) = (0..n)
            .filter(|&j| !passive[j] && w[j] > tol)
            .max_by(|&i, &j| w[i].total_cmp(&w[j]))
        else {
            break;
        };
        passive[t] = true;
        loop {
            let s = solve_on(&passive)?;
            if (0..n).filter(|&j| passive[j]).all(|j| s[j] > 0.0) {
                x = s;
                break;
            }
            let alpha = (0..n)
                .filter(|&j| passive[j] && s[j] <= 0.0)
                .map(|j| x[j] / (x[j] - s[j]))
                .fold(f64::INFINITY, f64::min);
            for j in 0..n {
                x[j] += alpha * (s[j] - x[j]);
                if passive[j] && x[j] <= 1e-15 {
                    passive[j] = false;
                    x[j] = 0.0;
                }
            }
        }
    }
    Some(x.iter().zip(&scale).map(|(v, s)| v / s).collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn least_squares_recovers_a_plane() {
        let rows: Vec<Vec<f64>> = (0..8)
            .map(|i| vec![1.0, i as f64, (i * i) as f64 * 1e6])
            .collect();
        let y: Vec<f64> = rows
            .iter()
            .map(|r| 5.0 + 2.0 * r[1] + 3e-6 * r[2])
            .collect();
        let b = super::least_squares(&rows, &y).unwrap();
        assert!(
            (b[0] - 5.0).abs() < 1e-6 && (b[1] - 2.0).abs() < 1e-6 && (b[2] - 3e-6).abs() < 1e-12,
            "{b:?}"
        );
        assert!(super::least_squares(&rows[..2], &y[..2]).is_none());
    }

    use super::*;

    #[test]
    fn recovers_a_line_and_a_quadratic() {
        let line: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0]
            .iter()
            .map(|&x| (x, 3.0 + 2.5 * x))
            .collect();
        let f = poly_fit(&line, 1).unwrap();
        assert!((f.coefficients[0] - 3.0).abs() < 1e-9 && (f.coefficients[1] - 2.5).abs() < 1e-9);
        assert!((f.r2 - 1.0).abs() < 1e-12);
        let quad: Vec<(f64, f64)> = [16.0, 32.0, 64.0, 128.0, 256.0]
            .iter()
            .map(|&s| (s, 1000.0 + 300.0 * s + 7.0 * s * s))
            .collect();
        let q = poly_fit(&quad, 2).unwrap();
        assert!((q.coefficients[2] - 7.0).abs() < 1e-6, "{q:?}");
        assert!((q.predict(512.0) - (1000.0 + 300.0 * 512.0 + 7.0 * 512.0 * 512.0)).abs() < 1.0);
    }

    #[test]
    fn noisy_points_have_r2_below_one_and_too_few_have_no_fit() {
        let pts = [(1.0, 1.0), (2.0, 2.5), (3.0, 2.9), (4.0, 4.2)];
        let f = poly_fit(&pts, 1).unwrap();
        assert!(f.r2 < 1.0 && f.r2 > 0.9);
        assert!(poly_fit(&[(1.0, 1.0), (1.0, 2.0)], 1).is_none());
        assert!(poly_fit(&[(1.0, f64::NAN), (2.0, 1.0)], 1).is_none());
    }

    #[test]
    fn nonnegative_keeps_coefficients_at_or_above_zero() {
        // y = 2·x0 exactly; x1 nearly equals x0, so plain least squares may split the weight
        // between them with opposite signs once noise is added.
        let rows: Vec<Vec<f64>> = (1..=6)
            .map(|i| vec![i as f64, i as f64 * 1.001 + (i % 2) as f64 * 1e-3])
            .collect();
        let y: Vec<f64> = (1..=6)
            .map(|i| 2.0 * i as f64 + (i % 3) as f64 * 0.01)
            .collect();
        let b = super::nonnegative(&rows, &y).unwrap();
        assert!(b.iter().all(|&c| c >= 0.0), "{b:?}");
        let fit: f64 = rows
            .iter()
            .zip(&y)
            .map(|(r, v)| (r[0] * b[0] + r[1] * b[1] - v).abs())
            .sum();
        assert!(fit < 0.2, "{b:?}");
        // A target that wants a negative coefficient gets zero for it instead.
        let rows = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0]];
        let b = super::nonnegative(&rows, &[1.0, -1.0, 0.0]).unwrap();
        assert!(b[1] == 0.0 && (b[0] - 0.5).abs() < 1e-9, "{b:?}");
    }
}
