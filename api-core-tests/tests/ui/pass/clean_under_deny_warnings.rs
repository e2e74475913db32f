//! Generated code is clean under the strictest lints a user may set.
#![deny(warnings, missing_docs, unused, nonstandard_style, rust_2018_idioms, unreachable_pub)]

//! A crate that defines an API.

mod api {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// WidgetSpec is the desired state.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced, status = "WidgetStatus")]
    #[serde(rename_all = "camelCase")]
    pub struct WidgetSpec {
        /// size.
        #[default(1)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size: Option<i32>,
        /// mode.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub mode: Option<Mode>,
    }

    /// Mode.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub enum Mode {
        /// Fast.
        Fast,
        /// Slow.
        Slow,
    }

    /// WidgetStatus is the observed state.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
    pub struct WidgetStatus {}
}

pub use api::{Widget, WidgetList, WidgetSpec};

fn main() {
    let w = Widget::new("w", WidgetSpec { size: None, mode: None });
    let _: WidgetList = vec![w].into_iter().collect();
}
