//! The `sets` library (not written yet).

use ::cel::{DeclarationError, Env};

/// Declares the library's functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let _ = env;
    Ok(())
}
