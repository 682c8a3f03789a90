//! Robust statistics for timing samples: median, quartiles, min/max, mean ± σ, MAD, and outliers
//! by modified z-score. Pure functions, no I/O.
//!
//! Sources:
//! - Iglewicz & Hoaglin (1993), "How to Detect and Handle Outliers": modified z-score
//!   `M = (x − median) / (1.4826 · MAD)`; 1.4826 makes the MAD estimate σ for normal data.
//! - hyperfine's `src/outlier_detection.rs` flags |M| > 10 (its constant 14.826 = 10 · 1.4826
//!   applied to the unscaled ratio); we use the same threshold so a flagged point is a genuine
//!   disturbance (another tenant, a clock change), not ordinary jitter.
//! - Quantiles use linear interpolation between order statistics (Hyndman & Fan type 7, numpy's
//!   default), so our medians and quartiles match numpy's on the same samples.

pub mod least_squares;

use serde::{Deserialize, Serialize};

/// |modified z-score| above which a sample is an outlier.
pub const OUTLIER_THRESHOLD: f64 = 10.0;

/// Summary of one set of samples (seconds, or any unit).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of samples.
    pub count: usize,
    /// Smallest sample.
    pub min: f64,
    /// 25th percentile.
    pub p25: f64,
    /// The middle value (the mean of the middle two for an even count).
    pub median: f64,
    /// 75th percentile.
    pub p75: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1).
    pub stddev: f64,
    /// Median absolute deviation (unscaled).
    pub mad: f64,
    /// How many samples are outliers by modified z-score.
    pub outliers: usize,
}

impl Summary {
    /// Summarises `samples`. `None` for an empty slice or any non-finite value.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() || samples.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(|a, b| a.total_cmp(b));
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let stddev = if n > 1 {
            (sorted.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let median = quantile_sorted(&sorted, 0.5);
        let mad = mad(&sorted, median);
        Some(Summary {
            count: n,
            min: sorted[0],
            p25: quantile_sorted(&sorted, 0.25),
            median,
            p75: quantile_sorted(&sorted, 0.75),
            max: sorted[n - 1],
            mean,
            stddev,
            mad,
            outliers: outlier_flags(samples).iter().filter(|f| **f).count(),
        })
    }

    /// Interquartile range relative to the median: a unit-free spread ("± x %").
    pub fn relative_iqr(&self) -> f64 {
        if self.median > 0.0 {
            (self.p75 - self.p25) / self.median
        } else {
            0.0
        }
    }
}

/// Quantile `q` in [0, 1] of already sorted data (type 7 interpolation).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    assert!(!sorted.is_empty(), "quantile of no samples");
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn mad(sorted: &[f64], median: f64) -> f64 {
    let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(|a, b| a.total_cmp(b));
    quantile_sorted(&deviations, 0.5)
}

/// Modified z-scores. With MAD = 0 (more than half the samples identical) every sample off the
/// median gets an infinite score only if it differs, which flags it: such a sample really is
/// unlike the bulk.
pub fn modified_z_scores(samples: &[f64]) -> Vec<f64> {
    if samples.is_empty() {
        return Vec::new();
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let median = quantile_sorted(&sorted, 0.5);
    let scale = 1.4826 * mad(&sorted, median);
    samples
        .iter()
        .map(|x| {
            let d = x - median;
            if scale > 0.0 {
                d / scale
            } else if d == 0.0 {
                0.0
            } else {
                d.signum() * f64::INFINITY
            }
        })
        .collect()
}

/// Which samples are outliers (|M| > [`OUTLIER_THRESHOLD`]).
pub fn outlier_flags(samples: &[f64]) -> Vec<bool> {
    modified_z_scores(samples)
        .into_iter()
        .map(|z| z.abs() > OUTLIER_THRESHOLD)
        .collect()
}

/// A ratio of two timed quantities with its spread: the ratio of medians, and the range the
/// ratio takes when each side moves within its interquartile range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// median(numerator) / median(denominator).
    pub median: f64,
    /// Low end: p25(numerator) / p75(denominator).
    pub low: f64,
    /// High end: p75(numerator) / p25(denominator).
    pub high: f64,
}

impl Ratio {
    /// Speedup of `fast` over `slow` from their time summaries: slow / fast.
    pub fn speedup(slow: &Summary, fast: &Summary) -> Option<Ratio> {
        if fast.median <= 0.0 || fast.p25 <= 0.0 || fast.p75 <= 0.0 {
            return None;
        }
        Some(Ratio {
            median: slow.median / fast.median,
            low: slow.p25 / fast.p75,
            high: slow.p75 / fast.p25,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_numpy() {
        // numpy.percentile([1, 2, 3, 4, 10], [25, 50, 75]) == [2., 3., 4.]
        let s = Summary::of(&[3.0, 1.0, 4.0, 10.0, 2.0]).unwrap();
        assert_eq!((s.p25, s.median, s.p75), (2.0, 3.0, 4.0));
        assert_eq!((s.min, s.max, s.count), (1.0, 10.0, 5));
        // numpy.percentile([1, 2, 3, 4], 50) == 2.5; numpy.std(ddof=1) == 1.2909944
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(s.median, 2.5);
        assert!((s.stddev - 1.290_994_4).abs() < 1e-6);
        assert!(s.min <= s.median && s.median <= s.max);
    }

    #[test]
    fn mad_and_outliers() {
        // median 10, deviations [0,0,1,1,90] → MAD 1; 100 has M = 90/1.4826 ≈ 60.7 → outlier.
        let samples = [10.0, 11.0, 9.0, 10.0, 100.0];
        let s = Summary::of(&samples).unwrap();
        assert_eq!(s.mad, 1.0);
        assert_eq!(s.outliers, 1);
        assert_eq!(
            outlier_flags(&samples),
            vec![false, false, false, false, true]
        );
        // Ordinary jitter is not an outlier.
        assert_eq!(
            Summary::of(&[1.0, 1.1, 0.9, 1.05, 0.95]).unwrap().outliers,
            0
        );
    }

    #[test]
    fn zero_mad_flags_only_the_odd_one() {
        let z = modified_z_scores(&[5.0, 5.0, 5.0, 7.0]);
        assert_eq!(z[0], 0.0);
        assert!(z[3].is_infinite());
    }

    #[test]
    fn empty_or_nan_gives_nothing() {
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn speedup_spread_brackets_the_median() {
        let cpu = Summary::of(&[10.0, 11.0, 12.0, 13.0]).unwrap();
        let gpu = Summary::of(&[1.0, 1.0, 1.1, 1.2]).unwrap();
        let r = Ratio::speedup(&cpu, &gpu).unwrap();
        assert!(r.low <= r.median && r.median <= r.high);
        assert!((r.median - 11.5 / 1.05).abs() < 1e-9);
    }
}
