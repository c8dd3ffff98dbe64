//! The `mcpServers` file the ecosystem's clients already use (`--stdio-config FILE`):
//! `{"mcpServers": {"NAME": {"command": "…", "args": […], "env": {…}}}}`. Entries without a
//! `command` (servers reached over HTTP) are not stdio servers: they are skipped and named.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::command::StdioCommand;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfigFile {
    mcp_servers: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
struct Entry {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

/// The stdio servers of a config file's text, and the names of the entries skipped.
pub fn stdio_servers(text: &str) -> Result<(Vec<StdioCommand>, Vec<String>), String> {
    let file: ConfigFile =
        serde_json::from_str(text).map_err(|error| format!("not an mcpServers file: {error}"))?;
    let mut commands = Vec::new();
    let mut skipped = Vec::new();
    for (name, entry) in file.mcp_servers {
        match entry.command {
            Some(program) => commands.push(StdioCommand::new(
                &name,
                &program,
                entry.args,
                entry.env.into_iter().collect(),
            )?),
            None => skipped.push(name),
        }
    }
    Ok((commands, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_entries_are_stdio_servers_and_the_rest_are_named() {
        let (commands, skipped) = stdio_servers(
            r#"{"mcpServers": {
                "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
                           "env": {"MEMORY_FILE_PATH": "/tmp/m.json"}},
                "remote": {"type": "http", "url": "https://example.com/mcp"}
            }}"#,
        )
        .unwrap();
        assert_eq!(commands.len(), 1);
        assert_eq!(commands[0].name, "memory");
        assert_eq!(
            commands[0].args,
            ["-y", "@modelcontextprotocol/server-memory"]
        );
        assert_eq!(
            commands[0].env,
            [("MEMORY_FILE_PATH".to_owned(), "/tmp/m.json".to_owned())]
        );
        assert_eq!(skipped, ["remote"]);
    }

    #[test]
    fn a_broken_file_or_name_is_refused_with_the_reason() {
        assert!(stdio_servers("{}").unwrap_err().contains("mcpServers"));
        assert!(
            stdio_servers(r#"{"mcpServers": {"a/b": {"command": "x"}}}"#)
                .unwrap_err()
                .contains("a/b")
        );
    }
}
