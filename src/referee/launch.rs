//! Opening an engine: its process started or its address reached in its protocol, and the
//! protocol's handshake made; the listeners of engines that connect to the referee.

use std::sync::Arc;
use std::time::Instant;

use tokio::net::TcpListener;

use super::engine::{EngineSpec, OpenError, Player, Protocol, SharedListener, Timeouts};

/// What opening an engine needs besides its spec.
pub struct Opening {
    /// The game slot, 1 to K.
    pub slot: usize,
    /// The referee's listener of a `listen=` engine.
    pub listener: Option<SharedListener>,
    /// The squares of the board.
    pub squares: usize,
    /// The Hub `variant` value of the match's variant, set when the engine declares that
    /// parameter and its options do not.
    pub variant_param: Option<&'static str>,
    pub timeouts: Timeouts,
}

/// Starts or reaches the engine of `spec` in its protocol, and makes the protocol's
/// handshake, within the start-up timeout.
pub async fn open(spec: Arc<EngineSpec>, o: &Opening) -> Result<Player, OpenError> {
    let deadline = Instant::now() + o.timeouts.startup;
    match spec.protocol {
        Protocol::Dxp => {
            let channel =
                super::dxp::dxp_channel(&spec, o.slot, o.listener.clone(), deadline).await?;
            Ok(Box::new(super::dxp::DxpEngine::new(
                spec, channel, o.squares,
            )))
        }
        Protocol::Hub => {
            let channel = super::hub::hub_channel(&spec, o.slot)?;
            let e = super::hub::HubEngine::open(spec, channel, o.variant_param, deadline)
                .await
                .map_err(OpenError::Fault)?;
            Ok(Box::new(e))
        }
    }
}

/// Binds the listener of a `listen=` engine: `port` or `host:port` (host default 127.0.0.1).
pub async fn bind_listener(spec: &EngineSpec) -> Result<Option<SharedListener>, String> {
    let Some(addr) = &spec.listen else {
        return Ok(None);
    };
    let addr = if addr.contains(':') {
        addr.clone()
    } else {
        format!("127.0.0.1:{addr}")
    };
    TcpListener::bind(&addr)
        .await
        .map(|l| Some(Arc::new(l)))
        .map_err(|e| format!("{}: cannot listen on {addr}: {e}", spec.name))
}
