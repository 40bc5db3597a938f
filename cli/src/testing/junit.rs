//! `--junit FILE`: the results as JUnit XML, which CI systems show as a test report. One
//! `testsuite` per graph tested, one `testcase` per case (its time, its failures as the
//! `failure` element's message and text), each evaluator's score as a property of its case.

use std::path::Path;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use engine::suite::{CaseFailure, CaseResult};

use crate::atomic_write::replace_atomically;
use crate::testing::report::score_value;

/// One graph's results, under the name of its `testsuite` (the graph's file).
pub struct Tested<'a> {
    pub name: String,
    pub results: &'a [CaseResult],
}

/// The XML for `tested`, as a report named after the suite file.
pub fn xml(suite_file: &str, tested: &[Tested<'_>]) -> Result<String, String> {
    let mut report = Report::new(format!("switchyard test {suite_file}"));
    for t in tested {
        let mut suite = TestSuite::new(t.name.clone());
        suite.set_time(ms(t.results.iter().map(|r| r.duration_ms).sum()));
        suite.add_test_cases(t.results.iter().map(|r| test_case(r, &t.name)));
        report.add_test_suite(suite);
    }
    report.to_string().map_err(|e| e.to_string())
}

fn test_case(r: &CaseResult, classname: &str) -> TestCase {
    let status = if r.passed {
        TestCaseStatus::success()
    } else {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        let lines: Vec<String> = r.failures.iter().map(|f| f.to_string()).collect();
        status.set_message(headline(&r.failures).unwrap_or_else(|| "the case failed".into()));
        status.set_type("switchyard test");
        status.set_description(lines.join("\n"));
        status
    };
    let mut case = TestCase::new(r.name.clone(), status);
    case.set_classname(classname.to_string());
    case.set_time(ms(r.duration_ms));
    case.add_property(Property::new("steps", r.record.step.to_string()));
    for score in &r.scores {
        case.add_property(Property::new(format!("score.{}", score.evaluator), score_value(score)));
    }
    case
}

/// The failure a CI page shows first: where the run went another way (a changed request, the
/// first differing step), else the first failure.
fn headline(failures: &[CaseFailure]) -> Option<String> {
    let telling = failures.iter().find(|f| matches!(f, CaseFailure::Replay { .. } | CaseFailure::Ended { .. }));
    telling.or(failures.first()).map(ToString::to_string)
}

fn ms(ms: f64) -> Duration {
    // A duration is never negative nor infinite; should one be, it is written as zero.
    Duration::try_from_secs_f64(ms / 1000.0).unwrap_or_default()
}

/// Writes the XML to `path` whole, or says why it could not.
pub fn write(path: &Path, xml: &str) -> Result<(), String> {
    replace_atomically(path, std::iter::once(xml.as_bytes())).map_err(|e| format!("--junit {}: {e}", path.display()))
}
