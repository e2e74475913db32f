//! Kubernetes' CEL libraries (k8s.io/apiserver `pkg/cel/library`, and the
//! cel-go extensions the apiserver's base environment adds), on the `cel`
//! crate: each module declares its functions' overloads on an [`Env`].

use ::cel::{DeclarationError, Env};

mod cidr;
mod format;
mod ip;
mod lists;
mod quantity;
mod regex;
mod semver;
mod sets;
mod urls;

/// Declares every library on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    urls::register(env)?;
    regex::register(env)?;
    lists::register(env)?;
    sets::register(env)?;
    semver::register(env)?;
    quantity::register(env)?;
    ip::register(env)?;
    cidr::register(env)?;
    format::register(env)?;
    Ok(())
}
