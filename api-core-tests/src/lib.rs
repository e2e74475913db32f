//! Integration tests of api-core live in `tests/`. This library only
//! compiles the README's Rust examples as doctests, so that they cannot
//! drift from the code.

#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
