//! The fold spells no wire value.

use holdbay_engine::MethodId;
use holdbay_engine::model::{ResultType, TaskStatus};
use holdbay_engine::protocol::task_status_name;

/// The fold names wire values through the engine's types (`MethodId::name`,
/// `task_status_name`, rmcp's constants), never by spelling them: a method, `resultType` or
/// task status written as a string in `crates/scene/src` would be a second, untyped decoder.
#[test]
fn the_fold_spells_no_wire_value() {
    let sources = sources(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    )));
    assert!(sources.len() >= 10, "every file of the crate is read");
    let statuses = [
        TaskStatus::Working,
        TaskStatus::InputRequired,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ]
    .map(task_status_name);
    let result_types = [
        ResultType::COMPLETE,
        ResultType::INPUT_REQUIRED,
        ResultType::TASK,
    ];
    let result_types: Vec<&str> = result_types.iter().map(ResultType::as_str).collect();
    for (file, source) in sources {
        for literal in string_literals(&source) {
            let spelled_method = literal.contains("notifications/")
                || MethodId::ALL
                    .iter()
                    .any(|method| literal.contains(method.name()));
            let spelled_value =
                statuses.contains(&literal.as_str()) || result_types.contains(&literal.as_str());
            assert!(
                !spelled_method && !spelled_value,
                "{file} spells the wire value {literal:?}"
            );
        }
    }
}

/// Every Rust file under `dir`, with its path and source.
fn sources(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let source = std::fs::read_to_string(&path).expect("a source file");
            out.push((path.display().to_string(), source));
        }
    }
    out
}

/// The contents of the string literals in Rust source, outside comments.
fn string_literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut chars = code.chars();
        while let Some(c) = chars.next() {
            if c == '/' && chars.clone().next() == Some('/') {
                break;
            }
            if c != '"' {
                continue;
            }
            let mut literal = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    c => literal.push(c),
                }
            }
            out.push(literal);
        }
    }
    out
}
