//! Questions answered from a level and a character, built on the one
//! solver: the character's envelope (what it can do, measured on generated
//! courses), and the level generators those courses and the tests use.

pub mod envelope;
pub mod generate;
