//! Token usage as a run record reports it: an `llm` step keeps the provider's count in its
//! details (`usage: {input_tokens, output_tokens}`, per node or mapped instance), and the run's
//! total is their sum.

use std::fmt;
use std::ops::AddAssign;

use engine::record::StepDoc;
use serde_json::Value;

use crate::model::runs::instances::entries_of;

/// Tokens read and written by a model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    /// The `usage` of one node's details, when the provider reported one. A count that is not
    /// a whole number reads as 0 rather than hiding the other.
    pub fn of_detail(detail: &Value) -> Option<Usage> {
        let u = detail.get("usage")?.as_object()?;
        let count = |k: &str| u.get(k).and_then(Value::as_u64);
        let (input, output) = (count("input_tokens"), count("output_tokens"));
        (input.is_some() || output.is_some())
            .then(|| Usage { input_tokens: input.unwrap_or(0), output_tokens: output.unwrap_or(0) })
    }

    /// What every model call of a step used, when any reported usage.
    pub fn of_step(step: &StepDoc) -> Option<Usage> {
        sum(step.details.values().filter_map(Usage::of_detail))
    }

    /// What node `node` (with all its mapped instances) used in `step`.
    pub fn of_node(step: &StepDoc, node: &str) -> Option<Usage> {
        sum(entries_of(&step.details, node).into_iter().filter_map(|(_, d)| Usage::of_detail(d)))
    }

    pub fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

fn sum(items: impl Iterator<Item = Usage>) -> Option<Usage> {
    items.fold(None, |acc, u| {
        let mut acc = acc.unwrap_or_default();
        acc += u;
        Some(acc)
    })
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
    }
}

impl fmt::Display for Usage {
    /// `1,204 in · 87 out tokens`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in · {} out tokens", grouped(self.input_tokens), grouped(self.output_tokens))
    }
}

/// A count with thousands separated by commas.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(details: Value) -> StepDoc {
        serde_json::from_value(json!({
            "step": 1, "ran": [], "updates": {}, "errors": {}, "patch": [], "state": {}, "next": [],
            "details": details, "duration_ms": 1.0
        }))
        .unwrap()
    }

    #[test]
    fn usage_is_read_from_details_and_summed_over_nodes_and_instances() {
        let s = step(json!({
            "agent": {"request": {}, "usage": {"input_tokens": 1200, "output_tokens": 34}},
            "summarize[0]": {"usage": {"input_tokens": 10, "output_tokens": 5}},
            "summarize[1]": {"usage": {"input_tokens": 11, "output_tokens": 6}},
            "fetch": {"request": {"url": "http://x"}}
        }));
        assert_eq!(Usage::of_step(&s), Some(Usage { input_tokens: 1221, output_tokens: 45 }));
        assert_eq!(Usage::of_node(&s, "summarize"), Some(Usage { input_tokens: 21, output_tokens: 11 }));
        assert_eq!(Usage::of_node(&s, "agent"), Some(Usage { input_tokens: 1200, output_tokens: 34 }));
        assert_eq!(Usage::of_node(&s, "fetch"), None, "no usage reported is not zero usage");
        assert_eq!(Usage::of_step(&step(json!({"fetch": {}}))), None);
    }

    #[test]
    fn odd_usage_values_do_not_hide_the_rest() {
        let d = json!({"usage": {"input_tokens": "many", "output_tokens": 7}});
        assert_eq!(Usage::of_detail(&d), Some(Usage { input_tokens: 0, output_tokens: 7 }));
        assert_eq!(Usage::of_detail(&json!({"usage": {}})), None);
        assert_eq!(Usage::of_detail(&json!({"usage": 12})), None);
        let mut big = Usage { input_tokens: u64::MAX, output_tokens: 1 };
        big += Usage { input_tokens: 5, output_tokens: 1 };
        assert_eq!(big.input_tokens, u64::MAX, "saturates");
    }

    #[test]
    fn usage_reads_with_grouped_thousands() {
        assert_eq!(Usage { input_tokens: 1_204_330, output_tokens: 87 }.to_string(), "1,204,330 in · 87 out tokens");
        assert_eq!(Usage { input_tokens: 100, output_tokens: 1000 }.to_string(), "100 in · 1,000 out tokens");
        assert_eq!(Usage::default().to_string(), "0 in · 0 out tokens");
    }
}
