//! The checker: a breadth-first search over every state a model can reach, each state kept
//! once (hashed), stopping at the first state that breaks an invariant and returning the
//! shortest path to it.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::{Duration, Instant};

/// A protocol as a transition system.
pub trait Model {
    /// Everything that can differ between two moments: the stored items, each client's
    /// place in its program, what it read, and the ghost facts the invariants need.
    type State: Clone + Eq + Hash + Debug;
    /// What one transition did, for traces.
    type Step: Clone + Debug;

    /// The states the system starts in.
    fn init(&self) -> Vec<Self::State>;

    /// Every transition enabled in `state`, appended to `out`.
    fn next(&self, state: &Self::State, out: &mut Vec<(Self::Step, Self::State)>);

    /// The invariant `state` breaks, if any.
    fn violation(&self, state: &Self::State) -> Option<String>;
}

/// What a search found.
#[derive(Debug)]
pub struct Outcome {
    /// Distinct states reached.
    pub states: usize,
    /// Transitions taken (edges, duplicates included).
    pub transitions: usize,
    /// The longest shortest path from a start state.
    pub depth: usize,
    /// How long the search took.
    pub elapsed: Duration,
    /// The first invariant broken, with the shortest path to it.
    pub counterexample: Option<Counterexample>,
}

/// A path to a state that breaks an invariant.
#[derive(Debug)]
pub struct Counterexample {
    /// The invariant broken.
    pub violation: String,
    /// The start state, then each step and the state it led to.
    pub trace: Vec<String>,
}

impl std::fmt::Display for Counterexample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "violation: {}", self.violation)?;
        for line in &self.trace {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

/// A state reached: the state, the index of the state it was first reached from
/// (`u32::MAX` for a start state), the step taken, and its distance from the start.
type Reached<S, T> = (S, u32, Option<T>, u32);

/// FxHash: states are small structs of bytes, and the standard SipHash is most of a debug
/// build's search time.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Searches every state of `model` reachable from its start states, up to `limit` states
/// (a model that grows past it fails loudly rather than running for hours).
///
/// # Panics
///
/// When more than `limit` states are reached.
pub fn check<M: Model>(model: &M, limit: usize) -> Outcome {
    let started = Instant::now();
    let mut index: HashMap<M::State, u32, BuildHasherDefault<Fx>> = HashMap::default();
    // Every state once, with the state and step it was first reached from.
    let mut states: Vec<Reached<M::State, M::Step>> = Vec::new();
    for state in model.init() {
        if !index.contains_key(&state) {
            index.insert(state.clone(), states.len() as u32);
            states.push((state, u32::MAX, None, 0));
        }
    }
    let mut transitions = 0;
    let mut depth = 0;
    let mut next = Vec::new();
    let mut at = 0;
    while at < states.len() {
        let (state, _, _, d) = &states[at];
        let d = *d;
        depth = depth.max(d as usize);
        if let Some(violation) = model.violation(state) {
            return Outcome {
                states: states.len(),
                transitions,
                depth,
                elapsed: started.elapsed(),
                counterexample: Some(Counterexample {
                    violation,
                    trace: trace(&states, at),
                }),
            };
        }
        next.clear();
        model.next(state, &mut next);
        for (step, successor) in next.drain(..) {
            transitions += 1;
            if index.contains_key(&successor) {
                continue;
            }
            assert!(
                states.len() < limit,
                "more than {limit} states: shrink the bounds"
            );
            index.insert(successor.clone(), states.len() as u32);
            states.push((successor, at as u32, Some(step), d + 1));
        }
        at += 1;
    }
    Outcome {
        states: states.len(),
        transitions,
        depth,
        elapsed: started.elapsed(),
        counterexample: None,
    }
}

/// The path from a start state to state `at`.
fn trace<S: Debug, T: Debug>(states: &[Reached<S, T>], mut at: usize) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let (state, parent, step, _) = &states[at];
        match step {
            Some(step) => lines.push(format!("{step:?}\n      -> {state:?}")),
            None => lines.push(format!("start {state:?}")),
        }
        if *parent == u32::MAX {
            break;
        }
        at = *parent as usize;
    }
    lines.reverse();
    lines
}

/// Checks `model` and asserts it holds: no invariant broken, and at least `floor` states
/// searched (so a scenario that shrank by mistake fails). Prints the search's size.
///
/// # Panics
///
/// With the counterexample's trace, or when fewer than `floor` states were reached.
pub fn holds<M: Model>(name: &str, model: &M, limit: usize, floor: usize) -> Outcome {
    let outcome = check(model, limit);
    println!(
        "{name}: {} states, {} transitions, depth {}, {:?}",
        outcome.states, outcome.transitions, outcome.depth, outcome.elapsed
    );
    if let Some(found) = &outcome.counterexample {
        panic!("{name}: {found}");
    }
    assert!(
        outcome.states >= floor,
        "{name}: only {} states",
        outcome.states
    );
    outcome
}

/// Checks `model` and asserts the search finds `violation`, printing the trace.
///
/// # Panics
///
/// When no invariant breaks, or another one does.
pub fn finds<M: Model>(name: &str, model: &M, limit: usize, violation: &str) {
    let outcome = check(model, limit);
    let found = outcome
        .counterexample
        .unwrap_or_else(|| panic!("{name}: no violation in {} states", outcome.states));
    println!("{name} ({} states):\n{found}", outcome.states);
    assert_eq!(found.violation, violation, "{name}:\n{found}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter that may step 0 → 1 → 2 → 3, where 3 is forbidden.
    struct Counter;

    impl Model for Counter {
        type State = u8;
        type Step = &'static str;
        fn init(&self) -> Vec<u8> {
            vec![0]
        }
        fn next(&self, state: &u8, out: &mut Vec<(&'static str, u8)>) {
            if *state < 3 {
                out.push(("up", state + 1));
                out.push(("stay", *state));
            }
        }
        fn violation(&self, state: &u8) -> Option<String> {
            (*state == 3).then(|| "reached 3".to_owned())
        }
    }

    #[test]
    fn finds_the_shortest_path_to_a_violation() {
        let outcome = check(&Counter, 100);
        let found = outcome.counterexample.expect("3 is reachable");
        assert_eq!(found.violation, "reached 3");
        assert_eq!(found.trace.len(), 4, "{found}");
        assert_eq!(outcome.states, 4);
    }
}
