//! Fresh names for what the person adds (nodes, tools, definitions, fields, rows): the name
//! asked for when it is free, else the first of `name_2`, `name_3`… that is.

/// `base`, or `base_2`, `base_3`… whichever `taken` does not hold.
pub fn fresh_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2..).map(|k| format!("{base}_{k}")).find(|n| !taken(n)).unwrap_or_else(|| base.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_name_is_kept_and_a_taken_one_gets_the_first_free_number() {
        let taken = ["tool", "tool_2", "tool_4"];
        let is_taken = |n: &str| taken.contains(&n);
        assert_eq!(fresh_name("fetch", is_taken), "fetch");
        assert_eq!(fresh_name("tool", is_taken), "tool_3");
        assert_eq!(fresh_name("tool_2", is_taken), "tool_2_2");
    }
}
