//! The demo's tools, in the order a learner meets them.

use super::scenarios::{
    book_table, bulk_import, connect_account, deploy, echo, endless_questions, flaky_job,
    format_note, plan_migration, quick_sum, run_pipeline, slow_report, summarize_folder,
};
use crate::fixture_kit::Tool;

pub const TOOLS: &[Tool] = &[
    book_table::TOOL,
    deploy::TOOL,
    endless_questions::TOOL,
    connect_account::TOOL,
    run_pipeline::TOOL,
    plan_migration::TOOL,
    quick_sum::TOOL,
    bulk_import::TOOL,
    flaky_job::TOOL,
    slow_report::TOOL,
    summarize_folder::TOOL,
    echo::TOOL,
    format_note::TOOL,
];
