//! The statistics of perf's samples: mean, spread and number per metric, and Welch's t-test
//! that decides whether two runs differ more than their spread explains (Student's t from
//! `statrs`).

/// A metric's samples, summed up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation (0 for one sample).
    pub sd: f64,
    /// The number of samples.
    pub n: usize,
}

impl Summary {
    /// The summary of `values` (`None` for none).
    pub fn of(values: &[f64]) -> Option<Summary> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Summary {
            mean,
            sd: var.sqrt(),
            n,
        })
    }

    /// The variance of the mean.
    fn var_of_mean(&self) -> f64 {
        self.sd * self.sd / self.n as f64
    }
}

/// The two-sided p-value of Welch's t-test that `a` and `b` have the same mean. Equal means
/// without spread give 1, different ones 0; fewer than two samples on a side with spread on the
/// other give `None` (nothing can be said).
pub fn welch(a: &Summary, b: &Summary) -> Option<f64> {
    welch_with_floor(a, b, 0.0)
}

/// [`welch`] with a known spread between runs added to each side's: a standard deviation of
/// `floor` times its mean (0.015: 1.5 %), which separate runs of the same code differ by
/// whatever their own samples say (where their code and pages landed, the machine's other
/// load). Known, it adds nothing to the degrees of freedom's uncertainty
/// (Welch-Satterthwaite with that term exact).
pub fn welch_with_floor(a: &Summary, b: &Summary, floor: f64) -> Option<f64> {
    let (va, vb) = (a.var_of_mean(), b.var_of_mean());
    let known = (floor * a.mean).powi(2) + (floor * b.mean).powi(2);
    let se2 = va + vb + known;
    if se2 == 0.0 || !se2.is_finite() {
        return Some(if a.mean == b.mean { 1.0 } else { 0.0 });
    }
    if (a.n < 2 || b.n < 2) && va + vb > 0.0 && known == 0.0 {
        return None;
    }
    let t = (a.mean - b.mean) / se2.sqrt();
    let unknown = |v: f64, n: usize| if n > 1 { v * v / (n - 1) as f64 } else { 0.0 };
    let denominator = unknown(va, a.n) + unknown(vb, b.n);
    let df = if denominator > 0.0 {
        (se2 * se2 / denominator).min(1e6)
    } else {
        1e6
    };
    Some(two_sided_p(t, df))
}

/// The two-sided p-value of `t` under Student's t with `df` degrees of freedom.
fn two_sided_p(t: f64, df: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    match StudentsT::new(0.0, 1.0, df) {
        Ok(dist) => (2.0 * dist.cdf(-t.abs())).clamp(0.0, 1.0),
        Err(_) => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn summary_of_samples() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!((s.mean, s.n), (5.0, 8));
        assert!(close(s.sd, 2.138_089_935, 1e-9), "{}", s.sd);
        assert!(Summary::of(&[]).is_none());
    }

    #[test]
    fn welch_p_values() {
        // Two-sided p of t = 2.0 with 10 degrees of freedom (equal sizes and spreads: n = 6
        // each): 0.07339 (Student's t table).
        let a = Summary {
            mean: 2.0 * (2.0f64 / 6.0).sqrt(),
            sd: 1.0,
            n: 6,
        };
        let b = Summary {
            mean: 0.0,
            sd: 1.0,
            n: 6,
        };
        let p = welch(&a, &b).unwrap();
        assert!(close(p, 0.073_39, 2e-5), "{p}");
        assert_eq!(welch(&b, &b), Some(1.0));
        let flat = Summary {
            mean: 3.0,
            sd: 0.0,
            n: 1,
        };
        assert_eq!(welch(&flat, &flat), Some(1.0));
        assert_eq!(welch(&flat, &Summary { mean: 4.0, ..flat }), Some(0.0));
        assert_eq!(welch(&flat, &a), None);
    }

    #[test]
    fn a_floor_between_runs_widens_the_test() {
        // Five rounds each, means 1 % apart with a tiny spread: significant alone, not with a
        // floor of 1.5 % (t = 1 / (1.5 * √2) ≈ 0.47); twice the mean is significant either way.
        let a = Summary {
            mean: 101.0,
            sd: 0.1,
            n: 5,
        };
        let b = Summary {
            mean: 100.0,
            sd: 0.1,
            n: 5,
        };
        assert!(welch(&a, &b).unwrap() < 0.001);
        let p = welch_with_floor(&a, &b, 0.015).unwrap();
        assert!(p > 0.5, "{p}");
        let double = Summary { mean: 200.0, ..a };
        assert!(welch_with_floor(&double, &b, 0.015).unwrap() < 1e-6);
        // Normal limit: |t| = 1.96 has p = 0.05.
        let near = Summary {
            mean: 100.0 + 1.96 * (0.015f64.powi(2) * 2.0 * 100.0f64.powi(2)).sqrt(),
            sd: 0.0,
            n: 5,
        };
        let flat_b = Summary { sd: 0.0, ..b };
        let p = welch_with_floor(&near, &flat_b, 0.015).unwrap();
        assert!((p - 0.05).abs() < 0.005, "{p}");
    }
}
