//! OpenAPI v3 schemas for CRDs: the structural-schema checker.

pub mod defaulting;
pub mod structural;
