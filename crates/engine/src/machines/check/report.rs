//! A finished check as the card shows it and as CI reads it: the verdicts in the rules'
//! order, a summary, and the same written as text, Markdown (for an issue tracker) or JUnit
//! XML (one test case per rule).

use serde::Serialize;

use super::exchange::{Outcome, ProbeExchange, Verdict};
use super::rules::Level;

/// The verdicts on one server, with the exchanges they cite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    pub target: String,
    pub verdicts: Vec<Verdict>,
    pub exchanges: Vec<ProbeExchange>,
}

/// How many rules passed, failed (MUSTs among them) and did not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CheckSummary {
    pub pass: usize,
    pub fail: usize,
    pub fail_must: usize,
    pub not_applicable: usize,
}

impl CheckSummary {
    /// One line: "12 pass, 2 fail (1 MUST), 3 not applicable".
    pub fn line(&self) -> String {
        format!(
            "{} pass, {} fail ({} MUST), {} not applicable",
            self.pass, self.fail, self.fail_must, self.not_applicable
        )
    }
}

impl CheckReport {
    pub fn summary(&self) -> CheckSummary {
        let count =
            |keep: &dyn Fn(&Verdict) -> bool| self.verdicts.iter().filter(|v| keep(v)).count();
        CheckSummary {
            pass: count(&|v| v.outcome == Outcome::Pass),
            fail: count(&|v| v.is_fail()),
            fail_must: count(&|v| v.is_fail() && v.rule.level == Level::Must),
            not_applicable: count(&|v| matches!(v.outcome, Outcome::NotApplicable { .. })),
        }
    }

    /// Whether a rule of `level` or stricter failed (CI's exit status).
    pub fn fails_at(&self, level: Level) -> bool {
        self.verdicts
            .iter()
            .any(|verdict| verdict.is_fail() && verdict.rule.level <= level)
    }

    /// For a terminal: one line per rule, the reason under each that is not a pass.
    pub fn to_text(&self) -> String {
        let mut out = format!("holdbay check {}\n", self.target);
        for verdict in &self.verdicts {
            out.push_str(&format!(
                "{:<5} {:<6} {:<30} {}\n",
                verdict.word(),
                verdict.rule.level.name(),
                verdict.rule.id,
                verdict.rule.says
            ));
            if let Outcome::Fail { why } | Outcome::NotApplicable { why } = &verdict.outcome {
                out.push_str(&format!("      {why}\n"));
            }
        }
        out.push_str(&self.summary().line());
        out.push('\n');
        out
    }

    /// For an issue tracker: a table of the rules that failed, then a count of the rest.
    pub fn to_markdown(&self) -> String {
        let mut out = format!(
            "### holdbay check of `{}`\n\n{}\n\n",
            self.target,
            self.summary().line()
        );
        let failed: Vec<&Verdict> = self.verdicts.iter().filter(|v| v.is_fail()).collect();
        if !failed.is_empty() {
            out.push_str("| Rule | Level | What came |\n|---|---|---|\n");
            for verdict in failed {
                let why = match &verdict.outcome {
                    Outcome::Fail { why } => why.replace('|', "\\|"),
                    _ => String::new(),
                };
                out.push_str(&format!(
                    "| [{}]({}) | {} | {} |\n",
                    verdict.rule.id,
                    verdict.rule.link(),
                    verdict.rule.level.name(),
                    why
                ));
            }
        }
        out
    }

    /// JUnit XML: a suite for the server, a case per rule (a failure, or skipped when it
    /// does not apply).
    pub fn to_junit(&self) -> String {
        let summary = self.summary();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "<testsuites name=\"holdbay check\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
            self.verdicts.len(),
            summary.fail,
            summary.not_applicable
        ));
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
            xml(&self.target),
            self.verdicts.len(),
            summary.fail,
            summary.not_applicable
        ));
        for verdict in &self.verdicts {
            let name = format!("{} ({})", verdict.rule.id, verdict.rule.level.name());
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\">",
                xml(verdict.rule.area.name()),
                xml(&name)
            ));
            match &verdict.outcome {
                Outcome::Pass => {}
                Outcome::Fail { why } => out.push_str(&format!(
                    "<failure message=\"{}\">{}\n{}</failure>",
                    xml(why),
                    xml(verdict.rule.says),
                    xml(&verdict.rule.link())
                )),
                Outcome::NotApplicable { why } => {
                    out.push_str(&format!("<skipped message=\"{}\"/>", xml(why)));
                }
            }
            out.push_str("</testcase>\n");
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// Text as XML character data or an attribute value.
fn xml(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .fold(String::with_capacity(text.len()), |mut out, c| {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&apos;"),
                other => out.push(other),
            }
            out
        })
}
