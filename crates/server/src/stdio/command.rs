//! What one stdio server is: a name for `/stdio/NAME` and the program to run, from
//! `--stdio NAME=COMMAND` or from an `mcpServers` file (`config_file`).

use std::fmt;
use std::str::FromStr;

/// One configured stdio server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdioCommand {
    /// Letters, digits, `-` and `_`: it is a path segment.
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    /// Set for the process besides the environment `holdbay` itself runs in.
    pub env: Vec<(String, String)>,
}

impl StdioCommand {
    /// A command checked for a usable name and a program.
    pub fn new(
        name: &str,
        program: &str,
        args: Vec<String>,
        env: Vec<(String, String)>,
    ) -> Result<Self, String> {
        if name.is_empty()
            || name.len() > 64
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "stdio server name {name:?}: use 1 to 64 letters, digits, '-' or '_'"
            ));
        }
        if program.is_empty() {
            return Err(format!("stdio server {name}: no command to run"));
        }
        Ok(Self {
            name: name.to_owned(),
            program: program.to_owned(),
            args,
            env,
        })
    }
}

/// `NAME=PROGRAM ARG…`, the words split as a shell splits them (spaces between words, `'…'`
/// and `"…"` quote, a backslash escapes the next character outside single quotes); no
/// shell runs it.
impl FromStr for StdioCommand {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, command) = text
            .split_once('=')
            .ok_or_else(|| format!("{text:?}: expected NAME=COMMAND"))?;
        let mut words = split_words(command)?.into_iter();
        let program = words.next().unwrap_or_default();
        Self::new(name, &program, words.collect(), Vec::new())
    }
}

/// The command as a person reads it (arguments with spaces quoted).
impl fmt::Display for StdioCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = std::iter::once(&self.program).chain(&self.args);
        for (index, word) in words.enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            if word.is_empty() || word.contains(char::is_whitespace) {
                write!(f, "'{}'", word.replace('\'', "'\\''"))?;
            } else {
                f.write_str(word)?;
            }
        }
        Ok(())
    }
}

/// A command line's words (see [`StdioCommand`]'s `FromStr`).
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("{line:?}: a ' is not closed")),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err(format!("{line:?}: ends in a backslash")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("{line:?}: a \" is not closed")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("{line:?}: ends in a backslash")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell_without_running_one() {
        assert_eq!(
            split_words(r#"node "my server.js" --name 'a b' x\ y "" $HOME"#),
            Ok(vec![
                "node".to_owned(),
                "my server.js".to_owned(),
                "--name".to_owned(),
                "a b".to_owned(),
                "x y".to_owned(),
                String::new(),
                "$HOME".to_owned(),
            ])
        );
        assert!(split_words("node 'open").is_err());
        assert!(split_words("node \"open").is_err());
        assert!(split_words("node \\").is_err());
    }

    #[test]
    fn a_command_needs_a_path_safe_name_and_a_program() {
        let command: StdioCommand = "everything=npx -y server-everything".parse().unwrap();
        assert_eq!(command.name, "everything");
        assert_eq!(command.program, "npx");
        assert_eq!(command.args, ["-y", "server-everything"]);
        assert_eq!(command.to_string(), "npx -y server-everything");
        assert!("../etc=ls".parse::<StdioCommand>().is_err());
        assert!("a b=ls".parse::<StdioCommand>().is_err());
        assert!("name=".parse::<StdioCommand>().is_err());
        assert!("no-equals-sign".parse::<StdioCommand>().is_err());
    }

    #[test]
    fn a_shown_command_quotes_what_has_spaces() {
        let command = StdioCommand::new(
            "x",
            "python3",
            vec!["my peer.py".to_owned(), "it's".to_owned()],
            Vec::new(),
        )
        .unwrap();
        assert_eq!(command.to_string(), "python3 'my peer.py' it's");
    }
}
