//! Support code for what the derives generate. Not a public API: names and
//! signatures here may change in any release.
//!
//! One module per job: [`keywords`] (the keyword model of attributes),
//! [`schema`] (schema builders), [`crd`] (the root schema and the CRD),
//! [`root_serde`] (the root object's serde code), [`update`] (update
//! checks). Everything is re-exported here, where generated code finds it.

pub use crate::checks;
pub use crate::facts::{self, FieldFacts, Kind, TypeFacts};
pub use regex::Regex;
pub use schemars;
pub use serde;
pub use serde_json;

pub mod crd;
pub mod keywords;
pub mod root_serde;
pub mod schema;
pub mod update;

pub use crd::*;
pub use keywords::*;
pub use root_serde::*;
pub use schema::*;
pub use update::*;
