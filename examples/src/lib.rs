//! Small functions for the bundled example benchmarks.

/// The naive recursive Fibonacci number of `n` (with `fibonacci(0) == fibonacci(1) == 1`).
pub fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

/// Sorts with bubble sort and returns the sorted vector.
pub fn bubble_sort(mut input: Vec<i32>) -> Vec<i32> {
    for i in 0..input.len() {
        let mut swapped = false;
        for j in 0..input.len() - 1 - i {
            if input[j] > input[j + 1] {
                input.swap(j, j + 1);
                swapped = true;
            }
        }
        if !swapped {
            break;
        }
    }
    input
}

/// Parses a decimal number.
pub fn string_to_u64(line: String) -> Result<u64, String> {
    line.trim()
        .parse()
        .map_err(|e| format!("`{line}` is not a number: {e}"))
}

/// Counts the non-overlapping occurrences of `needle` in `haystack` (std's two-way search).
pub fn count_substring(haystack: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    haystack.matches(needle).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_work() {
        assert_eq!(fibonacci(10), 89);
        assert_eq!(bubble_sort(vec![3, 1, 2]), vec![1, 2, 3]);
        assert_eq!(string_to_u64("11".into()), Ok(11));
        assert_eq!(count_substring("abcabcab", "abc"), 2);
        assert_eq!(count_substring("aaaa", "aa"), 2);
        assert_eq!(count_substring("abc", ""), 0);
    }
}
