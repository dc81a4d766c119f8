//! HTTP integration tests: each test starts the real server on 127.0.0.1:0 and talks HTTP.

mod board;
mod cli;
mod config;
mod consistency;
mod conventions;
mod diagram;
mod draw_counters;
mod endgame;
mod errors;
mod every_endpoint;
mod games;
mod health;
mod helpers;
mod hostile;
mod interop;
mod judge_adjudicate;
mod metrics;
mod moves;
mod openapi;
mod pdn;
mod pdn_stream;
mod perft;
mod play;
mod variants;
mod variants_catalogue;
mod violations;
