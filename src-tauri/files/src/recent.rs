//! The recent files list (File ▸ Open Recent): newest first, each path once, at most
//! [`RECENT_LIMIT`] of them.

/// How many recent files are kept.
pub const RECENT_LIMIT: usize = 10;

/// Puts `path` first in `list`, dropping an earlier mention and the oldest beyond the limit.
pub fn remember(list: &mut Vec<String>, path: &str) {
    list.retain(|p| p != path);
    list.insert(0, path.to_string());
    list.truncate(RECENT_LIMIT);
}

/// Drops `path` from `list` (a file that has gone).
pub fn forget(list: &mut Vec<String>, path: &str) {
    list.retain(|p| p != path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_each_once_at_most_ten() {
        let mut list = Vec::new();
        for i in 0..12 {
            remember(&mut list, &format!("/g/{i}.json"));
        }
        assert_eq!(list.len(), RECENT_LIMIT);
        assert_eq!(list[0], "/g/11.json");
        assert_eq!(list[9], "/g/2.json");
        remember(&mut list, "/g/5.json");
        assert_eq!(list[0], "/g/5.json");
        assert_eq!(list.iter().filter(|p| *p == "/g/5.json").count(), 1);
        assert_eq!(list.len(), RECENT_LIMIT);
        forget(&mut list, "/g/5.json");
        assert!(!list.contains(&"/g/5.json".to_string()));
    }
}
