//! What a served graph's requests may reach (README, Untrusted graphs: a graph is untrusted input): public
//! addresses, the internal ones the operator allows (`--allow`, `SWITCHYARD_ALLOWED_ADDRESSES`),
//! never the ones the operator denies (`--deny`, `SWITCHYARD_DENIED_ADDRESSES`) nor the Restate
//! ingress the clients use (`SWITCHYARD_SERVER`). The rule itself is [`net::reach::Reach`].

use net::reach::{BadAddress, DENIED_ADDRESSES_VAR, Reach};

/// The clients' variable naming the Restate ingress: a graph never reaches it.
const SERVER_VAR: &str = "SWITCHYARD_SERVER";

/// The reach of served graphs given the `--allow` and `--deny` lists and the environment; an
/// entry that is not an address is an error (a security setting is not guessed at).
pub fn settings(allow: Option<&str>, deny: Option<&str>) -> Result<Reach, BadAddress> {
    // The ingress serves every run's record: denied whenever the environment names it.
    let server = std::env::var(SERVER_VAR).unwrap_or_default();
    Reach::served_settings(allow, deny, &[&server])
}

/// A warning for each allowed entry that opens every port of an internal address, where the
/// Restate server's admin API may listen: name its addresses with `--deny`.
pub fn warnings(reach: &Reach) -> Vec<String> {
    reach
        .wide_allowances()
        .map(|rule| {
            format!(
                "allowed: every port of {rule}; if the Restate server listens there, name its ingress, admin and node addresses with --deny ({DENIED_ADDRESSES_VAR}), or allow only the ports needed ({rule}:PORT)"
            )
        })
        .collect()
}
