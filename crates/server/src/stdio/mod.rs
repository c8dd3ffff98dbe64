//! stdio servers through `holdbay`: each configured command (`--stdio NAME=COMMAND`, or an
//! `mcpServers` file with `--stdio-config`) runs as a child process whose stdin and stdout
//! carry newline-delimited JSON-RPC (the stdio transport), and the page reaches it at
//! `/stdio/NAME` over HTTP, in whichever era the process speaks. Only configured commands
//! ever run: no request names a program.

mod command;
mod config_file;
mod http;
mod process;

pub use command::{StdioCommand, split_words};
pub use config_file::stdio_servers;
pub use holdbay_engine::stdio::STDIO_PATH;
pub use http::routes;
pub use process::StdioServers;
