//! The one `resultType` dispatch: which kinds of answer a method allows, the spec's defaults
//! for older servers, and the findings they earn. Not generic: one copy serves every method.

use rmcp::model::ResultType;
use serde_json::Value;

use super::body::json_kind;
use super::error::ResponseError;
use crate::vocabulary::era::Era;
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::method::{McpMethod, MethodRules};

/// What a method allows of its answers (its [`MethodRules`], without the method itself, so
/// that a method this client does not know can be read too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ResultRules {
    pub method: &'static str,
    pub cacheable: bool,
    pub mrtr: bool,
    pub may_create_task: bool,
    pub task_snapshot: bool,
    /// A legacy session's answer: no `resultType`, no cache hints, no rounds, and tasks in
    /// 2025-11-25's shape.
    pub legacy: bool,
}

impl ResultRules {
    pub(crate) fn of<M: McpMethod>() -> Self {
        MethodRules::of::<M>().into()
    }

    /// The rules of an answer in `era`: a legacy revision has none of 2026-07-28's kinds
    /// of answer but `complete` and its own task shape, and no cache hints.
    pub(crate) fn in_era(self, era: Era) -> Self {
        match era {
            Era::Modern => self,
            Era::Legacy => Self {
                cacheable: false,
                mrtr: false,
                legacy: true,
                ..self
            },
        }
    }

    /// A method this client does not know (a replayed log): its answer may only be
    /// `complete`, and nothing else about it is expected.
    pub(crate) const NEUTRAL: Self = Self {
        method: "this method",
        cacheable: false,
        mrtr: false,
        may_create_task: false,
        task_snapshot: false,
        legacy: false,
    };
}

impl From<MethodRules> for ResultRules {
    fn from(rules: MethodRules) -> Self {
        Self {
            method: rules.name,
            cacheable: rules.cacheable,
            mrtr: rules.mrtr,
            may_create_task: rules.may_create_task,
            task_snapshot: rules.task_snapshot,
            legacy: false,
        }
    }
}

/// The kinds of answer a result can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResultKind {
    Complete,
    InputRequired,
    Task,
}

/// A result checked against its method's rules.
#[derive(Debug)]
pub(crate) struct Checked {
    pub kind: ResultKind,
    pub findings: Vec<Finding>,
    /// The result with the spec's defaults filled in, when an older server left them out;
    /// `None` when the result as received is complete.
    pub patched: Option<Value>,
}

/// Dispatch on `resultType` (absent means `complete`), check it is valid for the method and
/// request, and note what strains the spec.
pub(crate) fn check(
    raw_result: &Value,
    rules: ResultRules,
    declares_tasks: bool,
) -> Result<Checked, ResponseError> {
    let method = rules.method;
    let received = raw_result.as_object();
    let field = |name: &str| received.and_then(|object| object.get(name));
    let mut findings = Vec::new();
    let mut defaults: Vec<(&'static str, Value)> = Vec::new();
    let finding =
        |rule: Rule, explanation: String| Finding::new(rule, explanation, Some(raw_result.clone()));
    // A 2025-11-25 task answer has no resultType: it is the `task` object the request's
    // `params.task` asked for.
    if rules.legacy
        && rules.may_create_task
        && declares_tasks
        && let Some(created) =
            received.and_then(crate::vocabulary::decode::legacy_task::created_task)
    {
        return Ok(Checked {
            kind: ResultKind::Task,
            findings,
            patched: Some(created),
        });
    }
    let mut result_type = match field("resultType") {
        None => {
            // Legacy revisions have no resultType: its absence is news only in 2026-07-28.
            if !rules.legacy {
                findings.push(finding(
                    Rule::ResultTypeMissing,
                    format!(
                        "the {method} result has no resultType (an older server); read as \
                         complete"
                    ),
                ));
            }
            defaults.push(("resultType", ResultType::COMPLETE.as_str().into()));
            ResultType::COMPLETE.as_str()
        }
        Some(Value::String(result_type)) => result_type.as_str(),
        Some(other) => {
            return Err(ResponseError::InvalidResult {
                method,
                detail: format!("resultType is {}, not a string", json_kind(other)),
            });
        }
    };
    // tasks/get snapshots are `complete`; some servers label them `task` (a known
    // inconsistency in the tasks sources): read by status, note it.
    let is = |kind: ResultType, result_type: &str| kind.as_str() == result_type;
    if rules.task_snapshot && is(ResultType::TASK, result_type) {
        findings.push(finding(
            Rule::TaskOnWrongMethod,
            format!(
                "the {method} result says resultType \"{}\"; snapshots are \"{}\"",
                ResultType::TASK.as_str(),
                ResultType::COMPLETE.as_str()
            ),
        ));
        defaults.push(("resultType", ResultType::COMPLETE.as_str().into()));
        result_type = ResultType::COMPLETE.as_str();
    }
    let unexpected = |rule: Rule| ResponseError::UnexpectedResultType {
        method,
        result_type: result_type.to_owned(),
        rule,
    };
    let kind = if is(ResultType::COMPLETE, result_type) {
        if field("requestState").is_some() {
            findings.push(finding(
                Rule::RequestStateOnNonMrtrResult,
                format!(
                    "the complete {method} result carries requestState, which only input_required results may"
                ),
            ));
        }
        if rules.cacheable && (field("ttlMs").is_none() || field("cacheScope").is_none()) {
            findings.push(finding(
                Rule::CacheHintsMissing,
                format!("the {method} result lacks ttlMs or cacheScope; read as 0 ms, private"),
            ));
            if field("ttlMs").is_none() {
                defaults.push(("ttlMs", 0.into()));
            }
            if field("cacheScope").is_none() {
                defaults.push(("cacheScope", "private".into()));
            }
        }
        ResultKind::Complete
    } else if is(ResultType::INPUT_REQUIRED, result_type) {
        if !rules.mrtr {
            return Err(unexpected(Rule::InputRequiredNotAllowed));
        }
        let present = |name| field(name).is_some_and(|v| !v.is_null());
        if !present("inputRequests") && !present("requestState") {
            return Err(unexpected(Rule::InputRequiredEmpty));
        }
        ResultKind::InputRequired
    } else if is(ResultType::TASK, result_type) {
        match (rules.may_create_task, declares_tasks) {
            (true, true) => ResultKind::Task,
            (true, false) => return Err(unexpected(Rule::TaskWithoutExtension)),
            (false, _) => return Err(unexpected(Rule::TaskOnWrongMethod)),
        }
    } else {
        return Err(unexpected(Rule::UnknownResultType));
    };
    let patched = (!defaults.is_empty()).then(|| {
        let mut patched = raw_result.clone();
        if let Some(object) = patched.as_object_mut() {
            object.extend(
                defaults
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value)),
            );
        }
        patched
    });
    Ok(Checked {
        kind,
        findings,
        patched,
    })
}
