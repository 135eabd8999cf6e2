//! Files written for other tools: the tuned character in other engines'
//! terms ([`engines`]). GUI-free; the CLI and the window both call it.

pub mod engines;
