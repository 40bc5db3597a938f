//! Counting words as people write them: "1 step", "2 steps".

/// `n` and `noun`, the noun in the plural unless `n` is one (`noun` takes an `s`).
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1u64, "step"), "1 step");
        assert_eq!(count(0u64, "step"), "0 steps");
        assert_eq!(count(12u32, "run"), "12 runs");
    }
}
