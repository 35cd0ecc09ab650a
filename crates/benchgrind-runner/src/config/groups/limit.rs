//! [`Limit`]: a hard limit's value, a count or a rate.

/// A limit on a new value: a count, or a rate in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// A whole number (counts).
    Int(u64),
    /// A number with a fraction (rates, in percent).
    Float(f64),
}

impl Limit {
    /// The limit as a float, for comparison with any value.
    pub fn as_f64(self) -> f64 {
        match self {
            Limit::Int(n) => n as f64,
            Limit::Float(x) => x,
        }
    }
}

impl From<u64> for Limit {
    fn from(value: u64) -> Limit {
        Limit::Int(value)
    }
}

impl From<f64> for Limit {
    fn from(value: f64) -> Limit {
        Limit::Float(value)
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Int(n) => write!(f, "{n}"),
            Limit::Float(x) => write!(f, "{x}"),
        }
    }
}
