//! Reading a suite strictly: unknown fields, wrong types, a wrong `format`, an evaluator with
//! neither or both of `expression` and `graph`, and names given twice are errors naming their
//! path, as a graph's are.

use std::collections::BTreeSet;

use super::types::{Suite, TESTS_FORMAT};
use crate::parse::{DocError, parse_object_as};

/// Reads a `switchyard/tests@1` suite.
pub fn parse_suite(text: &str) -> Result<Suite, DocError> {
    let suite: Suite = parse_object_as(text)?;
    check_suite(&suite)?;
    Ok(suite)
}

/// What the types cannot say: the format, evaluators' one source, unique names, thresholds.
pub(crate) fn check_suite(suite: &Suite) -> Result<(), DocError> {
    if suite.format != TESTS_FORMAT {
        return Err(at("format", format!("expected \"{TESTS_FORMAT}\", found \"{}\"", suite.format)));
    }
    let mut names = BTreeSet::new();
    for (i, case) in suite.cases.iter().enumerate() {
        if !names.insert(case.name.as_str()) {
            return Err(at(&format!("cases[{i}].name"), format!("another case is named \"{}\"", case.name)));
        }
    }
    let mut names = BTreeSet::new();
    for (i, e) in suite.evaluators.iter().enumerate() {
        let path = format!("evaluators[{i}]");
        if !names.insert(e.name.as_str()) {
            return Err(at(&format!("{path}.name"), format!("another evaluator is named \"{}\"", e.name)));
        }
        match (&e.expression, &e.graph) {
            (None, None) => return Err(at(&path, "give `expression` or `graph`")),
            (Some(_), Some(_)) => return Err(at(&path, "give `expression` or `graph`, not both")),
            _ => {}
        }
        if let Some(t) = e.threshold
            && !(0.0..=1.0).contains(&t)
        {
            return Err(at(&format!("{path}.threshold"), format!("must be from 0 to 1, found {t}")));
        }
    }
    Ok(())
}

fn at(path: &str, message: impl Into<String>) -> DocError {
    DocError { path: path.to_string(), line: None, column: None, message: message.into() }
}
