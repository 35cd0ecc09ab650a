//! Statistics for the comparison core: median, geometric mean and the two-sided Mann-Whitney U
//! test.
//!
//! The U test gives the same p-values as scipy's `mannwhitneyu(x, y, alternative='two-sided')`
//! with its default `method='auto'` (checked against scipy 1.17.1; the reference numbers and the
//! script that made them are in `tests/compare/fixtures/`): the exact distribution of U when at
//! least one sample has 8 or fewer values and no value is tied, otherwise the normal
//! approximation with tie and continuity corrections.

/// How a p-value was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UMethod {
    /// From the exact distribution of U (small samples without ties).
    Exact,
    /// From the normal approximation with tie and continuity corrections.
    Asymptotic,
}

impl UMethod {
    /// The name used in machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            UMethod::Exact => "exact",
            UMethod::Asymptotic => "asymptotic",
        }
    }
}

/// The outcome of a two-sided Mann-Whitney U test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UTestResult {
    /// U of the first sample: how many (x, y) pairs have x > y, ties counting one half.
    pub u: f64,
    /// The two-sided p-value, in [0, 1].
    pub p_value: f64,
    /// How `p_value` was computed.
    pub method: UMethod,
}

/// The median; `None` for an empty slice or one holding NaN.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| v.is_nan()) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    })
}

/// The geometric mean; `None` when empty or when a value is not finite and positive.
pub fn geomean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite() || *v <= 0.0) {
        return None;
    }
    let mean_log = values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64;
    Some(mean_log.exp())
}

/// The relative change `(new - old) / |old|`; `None` when it is undefined (old is zero and new is
/// not, or a value is NaN).
pub fn relative_change(old: f64, new: f64) -> Option<f64> {
    if old == new {
        return Some(0.0);
    }
    let change = (new - old) / old.abs();
    change.is_finite().then_some(change)
}

/// Two-sided Mann-Whitney U test of `x` against `y`; `None` when a sample is empty or holds a
/// value that is not finite.
pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Option<UTestResult> {
    if x.is_empty() || y.is_empty() || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    let (n1, n2) = (x.len(), y.len());
    let (ranks, tie_term) = average_ranks(x.iter().chain(y).copied().collect());
    let r1: f64 = ranks[..n1].iter().sum();
    let (f1, f2) = (n1 as f64, n2 as f64);
    let u1 = r1 - f1 * (f1 + 1.0) / 2.0;
    // The larger of U1 and U2 = n1*n2 - U1: its upper tail, doubled, is the two-sided p-value.
    let u = u1.max(f1 * f2 - u1);
    let exact = (n1 <= 8 || n2 <= 8) && tie_term == 0.0;
    let (p, method) = match exact.then(|| exact_upper_tail(n1, n2, u)).flatten() {
        Some(tail) => (2.0 * tail, UMethod::Exact),
        None => (
            2.0 * normal_upper_tail(n1, n2, u, tie_term),
            UMethod::Asymptotic,
        ),
    };
    Some(UTestResult {
        u: u1,
        p_value: p.clamp(0.0, 1.0),
        method,
    })
}

/// Ranks (1-based, tied values get the mean of their ranks) in input order, and the tie term
/// `sum(t^3 - t)` over groups of `t` equal values.
fn average_ranks(values: Vec<f64>) -> (Vec<f64>, f64) {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut tie_term = 0.0;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold equal values: ranks start+1 ..= end, averaged.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        let t = (end - start) as f64;
        tie_term += t * t * t - t;
        start = end;
    }
    (ranks, tie_term)
}

/// P(U >= u) under the null hypothesis, from the exact distribution; `None` if the counts would
/// overflow (only for very unbalanced samples of thousands of values).
fn exact_upper_tail(n1: usize, n2: usize, u: f64) -> Option<f64> {
    let counts = u_counts(n1.min(n2), n1.max(n2))?;
    let total: u128 = counts.iter().sum();
    // Without ties U is a whole number; round away the float sums of ranks.
    let k = u.round() as usize;
    let tail: u128 = counts.iter().skip(k).sum();
    Some(tail as f64 / total as f64)
}

/// How many of the C(m+n, m) orderings give each value of U, for samples of `m` and `n` values.
///
/// These are the coefficients of the Gaussian binomial `prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i)`.
/// Building it one factor at a time keeps every intermediate polynomial a Gaussian binomial with
/// non-negative coefficients, so exact integers work until they overflow.
fn u_counts(m: usize, n: usize) -> Option<Vec<u128>> {
    let len = m.checked_mul(n)?.checked_add(1)?;
    let mut poly = vec![0i128; len];
    poly[0] = 1;
    for i in 1..=m {
        // Multiply by (1 - q^(n+i)), from the top down so each coefficient reads an old value.
        for k in (n + i..len).rev() {
            poly[k] = poly[k].checked_sub(poly[k - n - i])?;
        }
        // Divide by (1 - q^i): a running sum with stride i.
        for k in i..len {
            poly[k] = poly[k].checked_add(poly[k - i])?;
        }
    }
    poly.into_iter().map(|c| u128::try_from(c).ok()).collect()
}

/// P(U >= u) under the null hypothesis, from the normal approximation with the tie correction of
/// the variance and a continuity correction of one half.
fn normal_upper_tail(n1: usize, n2: usize, u: f64, tie_term: f64) -> f64 {
    let (f1, f2) = (n1 as f64, n2 as f64);
    let n = f1 + f2;
    let mean = f1 * f2 / 2.0;
    let variance = f1 * f2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if variance <= 0.0 {
        // Every value equal: no evidence of any difference.
        return 0.5;
    }
    let z = (u - mean - 0.5) / variance.sqrt();
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The complementary error function, accurate to about 1e-14 relative.
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.5 {
        return 1.0 - erf_series(x);
    }
    erfc_continued_fraction(x)
}

/// erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_k 2^k x^(2k+1) / (1*3*...*(2k+1)): all terms positive,
/// so no cancellation for the small x it is used for.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut k = 0.0;
    while term > sum * 1e-17 {
        k += 1.0;
        term *= 2.0 * x2 / (2.0 * k + 1.0);
        sum += term;
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x2).exp() * sum
}

/// erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), evaluated with the
/// modified Lentz method; converges quickly for x >= 2.5.
fn erfc_continued_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..500 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        d = if d == 0.0 { TINY } else { d };
        c = x + a / c;
        c = if c == 0.0 { TINY } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erfc_matches_known_values() {
        // Reference values from the definition, to 15 digits (Abramowitz & Stegun tables).
        let cases = [
            (0.0, 1.0),
            (0.5, 0.479500122186953),
            (1.0, 0.157299207050285),
            (2.0, 0.004677734981047266),
            (2.5, 0.000406952017444959),
            (3.0, 2.209049699858544e-05),
            (5.0, 1.537459794428035e-12),
            (-1.0, 1.842700792949715),
        ];
        for (x, want) in cases {
            let got = erfc(x);
            assert!(
                ((got - want) / want).abs() < 1e-12,
                "erfc({x}) = {got}, want {want}"
            );
        }
    }

    #[test]
    fn u_counts_are_the_exact_distribution() {
        // m=2, n=2: orderings of xxyy give U = 0,1,2,2,3,4.
        assert_eq!(u_counts(2, 2).unwrap(), vec![1, 1, 2, 1, 1]);
        // The counts always sum to C(m+n, m).
        let sum: u128 = u_counts(8, 40).unwrap().iter().sum();
        assert_eq!(sum, 377_348_994); // C(48, 8)
        assert!(u_counts(8, usize::MAX / 4).is_none());
    }

    #[test]
    fn ranks_average_ties() {
        let (ranks, tie_term) = average_ranks(vec![3.0, 1.0, 3.0, 2.0]);
        assert_eq!(ranks, vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(tie_term, 6.0);
    }

    /// Expected p-values from scipy 1.17.1, `mannwhitneyu(x, y, alternative='two-sided')`, made by
    /// `tests/compare/fixtures/scipy_reference.py` (its `UNIT_CASES`).
    #[test]
    fn p_values_match_scipy() {
        let cases: [(&[f64], &[f64], f64, UMethod); 7] = [
            (&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], 0.1, UMethod::Exact),
            (
                &[1.0, 5.0, 3.0, 8.0],
                &[2.0, 4.0, 6.0, 7.0],
                0.8857142857142857,
                UMethod::Exact,
            ),
            (
                &[1.0, 2.0],
                &[3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0],
                0.030303030303030304,
                UMethod::Exact,
            ),
            (
                &[1.0, 2.0, 2.0, 3.0],
                &[2.0, 4.0, 5.0],
                0.19908985214820463,
                UMethod::Asymptotic,
            ),
            (
                &[10.1, 10.3, 9.9, 10.0, 10.2, 10.4, 9.8, 10.05, 10.15],
                &[11.1, 10.9, 11.3, 11.0, 10.8, 11.2, 10.7, 11.05, 10.95],
                0.00041229480206169127,
                UMethod::Asymptotic,
            ),
            (&[5.0, 5.0, 5.0], &[5.0, 5.0, 5.0], 1.0, UMethod::Asymptotic),
            (&[1.0], &[2.0], 1.0, UMethod::Exact),
        ];
        for (x, y, want, method) in cases {
            let got = mann_whitney_u(x, y).unwrap();
            assert!(
                (got.p_value - want).abs() < 1e-9,
                "{x:?} vs {y:?}: p = {}, scipy {want}",
                got.p_value
            );
            assert_eq!(got.method, method, "{x:?} vs {y:?}");
        }
        assert!(mann_whitney_u(&[], &[1.0]).is_none());
        assert!(mann_whitney_u(&[f64::NAN], &[1.0]).is_none());
    }

    #[test]
    fn median_geomean_and_change() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert!((geomean(&[1.0, 100.0]).unwrap() - 10.0).abs() < 1e-12);
        assert_eq!(geomean(&[0.0, 1.0]), None);
        assert_eq!(relative_change(100.0, 110.0), Some(0.1));
        assert_eq!(relative_change(-100.0, -90.0), Some(0.1));
        assert_eq!(relative_change(0.0, 0.0), Some(0.0));
        assert_eq!(relative_change(0.0, 1.0), None);
        assert_eq!(relative_change(f64::NAN, 1.0), None);
    }
}
