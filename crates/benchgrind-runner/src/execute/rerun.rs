//! Whether a measurement of several processes is made again ([`Rerun`]): the policy the bench
//! harness and `suite measure` share, from what each run counted and what the machine did.

/// At most this many runs of one measurement of several processes ([`Rerun`]).
pub const MOST_RUNS: usize = 5;

/// Whether a measurement of several processes is made again.
///
/// Its processes take turns on one processor in the same order on every run unless one of them
/// waits where it did not choose to. One that waited for the disk (a file not yet in the page
/// cache: the first run of a command after a build, or after the cache was dropped) lets another
/// run at another point: a pipe of three shells counted 9 instructions more, bash behind Python
/// 120 (measured with the page cache dropped every 50 ms: 3 of 6 runs moved, none with it warm).
/// The next run finds the files in the cache; it stands once two runs in a row count the same
/// (under Valgrind 3.24 one run after a dropped page cache still moved by 5 instructions, with
/// no read of its own). Where the kernel's memory monitor DAMON runs, its page checks make a
/// process wait now and then too, unseen: there too a measurement stands once two runs in a row
/// count the same. The bench harness and `suite measure` both ask it.
#[derive(Debug, Default)]
pub struct Rerun {
    /// Whether DAMON runs on this machine ([`super::machine::damon_on`]).
    damon: bool,
    runs: usize,
    /// The counts of the run before.
    before: Option<Vec<u64>>,
    /// Whether a run so far waited for the disk: then it stands only once two runs in a row
    /// count the same (the run right after may still meet the machine writing back or reading
    /// what the first brought in).
    waited: bool,
}

impl Rerun {
    /// The policy for one measurement, on a machine where DAMON runs or not.
    pub fn new(damon: bool) -> Rerun {
        Rerun {
            damon,
            ..Rerun::default()
        }
    }

    /// After a run of `processes` processes that waited for the disk `disk_reads` times and
    /// counted `totals`: why it is to be made again, if it is.
    pub fn again(&mut self, processes: usize, disk_reads: u64, totals: &[u64]) -> Option<String> {
        self.runs += 1;
        let last = self.before.replace(totals.to_vec());
        if processes < 2 || self.runs >= MOST_RUNS {
            return None;
        }
        if disk_reads > 0 {
            self.waited = true;
            return Some(format!(
                "the disk was read during its run ({disk_reads} reads)"
            ));
        }
        let agreeing = last.as_deref() == Some(totals);
        if self.waited && !agreeing {
            return Some(
                "it waited for the disk, and no two runs in a row counted the same yet".into(),
            );
        }
        if self.damon && !agreeing {
            return Some("DAMON runs, and no two runs in a row counted the same yet".to_owned());
        }
        None
    }

    /// How many runs were made.
    pub fn runs(&self) -> usize {
        self.runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_processes_that_waited_for_the_disk_are_measured_again_up_to_five_runs() {
        let mut one = Rerun::new(false);
        assert_eq!(one.again(1, 10, &[5]), None, "one process takes no turns");
        let mut several = Rerun::new(false);
        let again: Vec<bool> = (0..5)
            .map(|_| several.again(3, 10, &[5]).is_some())
            .collect();
        assert_eq!(again, [true, true, true, true, false]);
        assert_eq!(several.runs(), 5);
        // After a wait, the next run stands only when the one after it counts the same.
        let mut cold = Rerun::new(false);
        assert!(cold.again(3, 10, &[7]).is_some());
        assert!(cold.again(3, 0, &[5]).is_some(), "5 after 7: not yet");
        assert_eq!(cold.again(3, 0, &[5]), None);
        // No wait for the disk, and the same counts as the run before: it stands, DAMON or not.
        let mut warm = Rerun::new(false);
        let _ = warm.again(3, 0, &[5]);
        assert_eq!(warm.again(3, 0, &[5]), None);
    }

    #[test]
    fn where_damon_runs_several_processes_run_until_two_runs_agree() {
        let mut rerun = Rerun::new(true);
        assert!(
            rerun.again(3, 0, &[5]).is_some(),
            "a first run has none to agree with"
        );
        assert!(rerun.again(3, 0, &[7]).is_some());
        assert_eq!(rerun.again(3, 0, &[7]), None);
        assert_eq!(
            Rerun::new(true).again(1, 0, &[5]),
            None,
            "one process takes no turns"
        );
    }
}
