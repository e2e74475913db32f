//! Checks between parsing and code generation: they read the model, report
//! what is wrong with it to the `Diagnostics`, and return checked values
//! with typed fields, so that code generation only reads validated data.

#[cfg(feature = "cel")]
pub mod cel;
pub mod keys;
pub mod keywords;
pub mod resource;
pub mod schema;
