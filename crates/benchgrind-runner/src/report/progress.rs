//! A progress line on stderr for runs longer than a few seconds, on a terminal only: cleared
//! before each benchmark's report is printed and at the end, so it never mixes with the report.

use std::time::{Duration, Instant};

/// After how long the line appears.
const QUIET_FOR: Duration = Duration::from_secs(2);

/// The state of the progress line.
pub struct Progress {
    enabled: bool,
    total: usize,
    done: usize,
    start: Instant,
    shown: bool,
}

impl Progress {
    /// A progress line, shown only when `enabled` (stderr is a terminal).
    pub fn new(enabled: bool, total: usize) -> Progress {
        Progress {
            enabled,
            total,
            done: 0,
            start: Instant::now(),
            shown: false,
        }
    }

    /// Erases the line, if shown.
    pub fn clear(&mut self) {
        if self.shown {
            crate::messages::status_line("");
            self.shown = false;
        }
    }

    /// One more benchmark is done.
    pub fn done(&mut self, last: &str) {
        self.done += 1;
        let elapsed = self.start.elapsed();
        if !self.enabled || elapsed < QUIET_FOR || self.done >= self.total {
            return;
        }
        let mut last = last.to_owned();
        if last.chars().count() > 60 {
            last = format!(
                "...{}",
                last.chars()
                    .rev()
                    .take(57)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<String>()
            );
        }
        crate::messages::status_line(&format!(
            "[{}/{}] {:.1}s  last: {last}",
            self.done,
            self.total,
            elapsed.as_secs_f64()
        ));
        self.shown = true;
    }
}
