//! Derive macros of api-core. Users never name this crate: they use
//! `api_core::{KubeResource, ApiType}` once the derives land (issue 3).
