//! The command palette's filter: which commands a typed query keeps, best first. Pure, over
//! the commands' names, so it knows nothing of the command table itself.
//!
//! A name is kept when the query, without regard to case, starts it, starts one of its words
//! (each word of the query starting a word of the name, in order), appears in it, or has its
//! letters in it in order (`sva` keeps `Save as…`); the matches are ranked in that order, and
//! names of one rank keep the table's order.

/// How well a name matches a query: lower is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Start,
    WordStarts,
    Inside,
    Letters,
}

/// The words of a text, lower case: runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// How `name` matches `query` (already trimmed and lower case), if it does.
fn rank(query: &str, name: &str) -> Option<Rank> {
    let name = name.to_lowercase();
    if name.starts_with(query) {
        return Some(Rank::Start);
    }
    let wanted = words(query);
    let mut have = words(&name).into_iter();
    if !wanted.is_empty() && wanted.iter().all(|w| have.any(|h| h.starts_with(w.as_str()))) {
        return Some(Rank::WordStarts);
    }
    if name.contains(query) {
        return Some(Rank::Inside);
    }
    let mut letters = name.chars();
    query.chars().filter(|c| !c.is_whitespace()).all(|q| letters.any(|c| c == q)).then_some(Rank::Letters)
}

/// The indexes of the names the query keeps, best first; every index, in order, for an empty
/// query.
pub fn filter<S: AsRef<str>>(query: &str, names: &[S]) -> Vec<usize> {
    let query = query.trim().to_lowercase();
    if query.is_empty() {
        return (0..names.len()).collect();
    }
    let mut kept: Vec<(Rank, usize)> =
        names.iter().enumerate().filter_map(|(i, n)| rank(&query, n.as_ref()).map(|r| (r, i))).collect();
    kept.sort();
    kept.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 7] =
        ["New", "Save", "Save as…", "Select all", "Zoom in", "Command palette…", "Keyboard shortcuts"];

    fn kept(query: &str) -> Vec<&'static str> {
        filter(query, &NAMES).into_iter().map(|i| NAMES[i]).collect()
    }

    #[test]
    fn an_empty_query_keeps_every_command_in_order() {
        assert_eq!(kept(""), NAMES);
        assert_eq!(kept("   "), NAMES);
    }

    #[test]
    fn a_start_ranks_before_a_word_start_before_letters_in_order() {
        assert_eq!(kept("sa"), ["Save", "Save as…", "Select all"], "s…a in Select all, last");
        assert_eq!(kept("s"), ["Save", "Save as…", "Select all", "Keyboard shortcuts"]);
        assert_eq!(kept("pal"), ["Command palette…"]);
        assert_eq!(kept("in"), ["Zoom in"]);
    }

    #[test]
    fn case_is_ignored_and_words_match_by_their_starts_in_order() {
        assert_eq!(kept("SAVE"), ["Save", "Save as…"]);
        assert_eq!(kept("sel a"), ["Select all"]);
        assert_eq!(kept("k sh"), ["Keyboard shortcuts"]);
        assert_eq!(kept("all select"), Vec::<&str>::new(), "words in another order, and not as letters in order");
    }

    #[test]
    fn letters_in_order_match_last_and_others_nothing() {
        assert_eq!(kept("sva"), ["Save as…"]);
        assert_eq!(kept("zmn"), ["Zoom in"]);
        assert!(kept("xyz").is_empty());
        assert_eq!(kept("new!"), ["New"], "signs in the query are not words");
    }
}
