use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// The attributes of a newtype's field are checked as a struct field's are.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Tags(#[kube(list_type = "bag")] pub Vec<String>);

/// Map types are atomic or granular.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Labels(#[kube(map_type = "frozen")] pub std::collections::BTreeMap<String, String>);

fn main() {}
