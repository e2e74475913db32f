//! The conformance corpus beside the repository (`../shared/corpus`), read
//! at run time.
//!
//! A user's clone has no `../shared`: tests that need it print
//! `skipped: ../shared/corpus not found` on stderr and return. CI sets
//! `API_CORE_REQUIRE_SHARED=1`, under which a missing corpus fails the
//! test instead, so every conformance case still runs there.

use std::path::PathBuf;

/// The environment variable that turns a missing corpus into a failure.
pub const REQUIRE_ENV: &str = "API_CORE_REQUIRE_SHARED";

/// `../shared/corpus`, relative to the workspace root.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Whether the corpus is there. When it is not, says so on stderr (or
/// panics under `API_CORE_REQUIRE_SHARED=1`).
pub fn corpus_present() -> bool {
    if corpus_dir().is_dir() {
        return true;
    }
    let required = std::env::var_os(REQUIRE_ENV).is_some_and(|v| !v.is_empty() && v != "0");
    assert!(
        !required,
        "{REQUIRE_ENV} is set but ../shared/corpus was not found at {}",
        corpus_dir().display()
    );
    eprintln!("skipped: ../shared/corpus not found");
    false
}

/// The text of `../shared/corpus/<relative>`, or `None` (after saying so)
/// when the corpus is absent. A corpus without the file is a failure: the
/// test names a file that should be there.
pub fn corpus_file(relative: &str) -> Option<String> {
    if !corpus_present() {
        return None;
    }
    let path = corpus_dir().join(relative);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}
