//! Integration tests of api-core live in `tests/`; this library is empty.
