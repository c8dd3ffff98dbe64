//! The app is built into the release binary (`src/embedded_app.rs`): rebuild this crate when
//! `dist/` changes (Cargo scans a directory for changes below it), since its hashed file
//! names change with every app build.

fn main() {
    println!("cargo:rerun-if-changed=../../dist");
}
