//! Model (a): an owner entity with one unique lookup (`#[dynamap(lookup(...))]`, a handle)
//! kept in sync by read-then-TransactWriteItems rounds, `dynamap/src/ops/sync.rs`.
//!
//! Stored state: two owners (`OwnerItem`: the lookup field, the key it records as
//! `_lookup_<name>_pk`, and one more attribute a caller's condition can test) and one lookup
//! item per value, naming its owner (`_owner_pk`). Clients run programs of puts, updates and
//! deletes; each step of a client is one request, so any interleaving of requests, a crash
//! between any two of them, and a lost request or response are all explored.

mod steps;

use crate::check::Model;

/// Owners A and B.
pub const OWNERS: usize = 2;
/// Lookup values v0, v1, v2.
pub const VALUES: usize = 3;
/// At most this many clients.
pub const MAX_CLIENTS: usize = 3;
/// The lookup value an owner created by an update that sets no lookup field takes (a
/// `#[dynamap(default)]` field's value, seed of issue 46's point 3).
pub const DEFAULT: u8 = 0;

/// A stored owner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct OwnerItem {
    /// The lookup field's value.
    pub handle: u8,
    /// The lookup key the owner records (`_lookup_handle_pk`): `None` when not recorded.
    pub recorded: Option<u8>,
    /// An attribute a caller's condition tests (`flag = true`).
    pub flag: bool,
}

/// The table: owners, and lookup items (value → owner).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Table {
    /// Owner items by owner.
    pub owners: [Option<OwnerItem>; OWNERS],
    /// Lookup items by value: the owner each names.
    pub lookups: [Option<u8>; VALUES],
    /// Per client: whether the transaction sent with its current ClientRequestToken
    /// committed (DynamoDB's idempotency record, kept ten minutes).
    pub token_committed: [bool; MAX_CLIENTS],
}

impl Table {
    /// No owners, no lookups.
    pub const EMPTY: Table = Table {
        owners: [None; OWNERS],
        lookups: [None; VALUES],
        token_committed: [false; MAX_CLIENTS],
    };

    /// `owner` stored with lookup `handle` (and its lookup item).
    pub fn with(mut self, owner: u8, handle: u8, flag: bool) -> Table {
        self.owners[owner as usize] = Some(OwnerItem {
            handle,
            recorded: Some(handle),
            flag,
        });
        self.lookups[handle as usize] = Some(owner);
        self
    }
}

/// What a put requires of the stored owner (`dynamap/src/write/put_mode.rs`, `PutMode`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mode {
    /// `put`.
    Overwrite,
    /// `create`.
    Create,
    /// `replace`.
    Replace,
}

/// One call of a client.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// `db.put/create/replace(&owner)`, with `.condition(flag = true)` when `cond`
    /// (`ops/put.rs` `Put::send` → `ops/sync.rs` `put_with_lookups`).
    Put {
        /// Owner.
        owner: u8,
        /// Lookup value written.
        handle: u8,
        /// The other attribute written.
        flag: bool,
        /// Put mode.
        mode: Mode,
        /// With the caller's condition `flag = true`.
        cond: bool,
    },
    /// `db.update(key).set(flag)`, also setting the lookup field when `handle` is given
    /// (`ops/update/plan.rs` `Plan::send` → `ops/sync.rs` `update_with_lookups`), or
    /// creating the owner when `!must_exist` (`create_if_missing`).
    Update {
        /// Owner.
        owner: u8,
        /// The lookup field's new value, if the update sets it.
        handle: Option<u8>,
        /// The value set on the other attribute.
        flag: bool,
        /// `false` for `create_if_missing()`.
        must_exist: bool,
        /// With the caller's condition `flag = true`.
        cond: bool,
    },
    /// `db.delete(key)`, `.if_exists()` when `must_exist` (`ops/delete.rs` →
    /// `ops/sync.rs` `delete_with_lookups`).
    Delete {
        /// Owner.
        owner: u8,
        /// `if_exists()`.
        must_exist: bool,
        /// With the caller's condition `flag = true`.
        cond: bool,
    },
}

impl Op {
    /// The owner the call writes.
    pub fn owner(self) -> u8 {
        match self {
            Op::Put { owner, .. } | Op::Update { owner, .. } | Op::Delete { owner, .. } => owner,
        }
    }

    /// Whether the caller's own condition (mode, existence, `flag = true`) holds on `t`.
    pub fn condition_holds(self, t: &Table) -> bool {
        let item = t.owners[self.owner() as usize];
        let flag = item.is_some_and(|i| i.flag);
        match self {
            Op::Put { mode, cond, .. } => {
                let mode_ok = match mode {
                    Mode::Overwrite => true,
                    Mode::Create => item.is_none(),
                    Mode::Replace => item.is_some(),
                };
                mode_ok && (!cond || flag)
            }
            Op::Update {
                must_exist, cond, ..
            }
            | Op::Delete {
                must_exist, cond, ..
            } => (!must_exist || item.is_some()) && (!cond || flag),
        }
    }
}

/// How a cancelled transaction whose owner action failed is explained.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Decide {
    /// The fix: the owner's action asks `ReturnValuesOnConditionCheckFailure = ALL_OLD`;
    /// if the item DynamoDB evaluated satisfies the lookup guard, the caller's condition
    /// failed, otherwise start over.
    AllOld,
    /// Before: read the owner again and compare its recorded lookups with the first read
    /// (`ops/sync.rs` `Canceled::start_over`).
    Reread,
}

/// What a client does after a lost transaction response.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Lost {
    /// The fix: resend with the same ClientRequestToken and the same actions; the first
    /// outcome comes back; still unknown, answer `OutcomeUnknown`.
    SameToken,
    /// Before: the error is retryable, so `in_rounds` starts a fresh round (new read, new
    /// request, no token: `write/send.rs` `send_actions(.., None)`).
    NewRound,
}

/// How `update().create_if_missing()` that sets no lookup field creates an owner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Creates {
    /// The fix as built for issue 46: an update that may create its owner must set
    /// every lookup field, and is then a lookup-moving update (`update_round`); one that
    /// sets none is refused before sending (`IncompleteKeyUpdate`).
    Refused,
    /// Another design of the fix: an update that creates its owner writes the lookup of
    /// the field's default value with it, and one that finds its owner changes no lookup.
    WithLookups,
    /// Before: a plain UpdateItem (`ops/update/plan.rs` `Plan::send`), no lookup item.
    PlainUpdate,
}

/// The behaviours under test: the designed ones, or the old ones, or a guard removed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Switches {
    /// Explaining a failed owner action.
    pub decide: Decide,
    /// After a lost response.
    pub lost: Lost,
    /// Creating an owner by an update.
    pub creates: Creates,
    /// The owner's guard "still records exactly what was read" (`ops/sync.rs` `guard`).
    pub owner_guard: bool,
    /// The lookup put's "free or mine" (`write/lookup_items.rs` `free_or_owned_by`).
    pub lookup_guard: bool,
    /// Check "every owner records its lookup and its lookup item exists" (off to see the
    /// later uniqueness violation a missing lookup item leads to).
    pub check_missing: bool,
}

impl Switches {
    /// The designed behaviour, every guard on.
    pub const FIXED: Switches = Switches {
        decide: Decide::AllOld,
        lost: Lost::SameToken,
        creates: Creates::Refused,
        owner_guard: true,
        lookup_guard: true,
        check_missing: true,
    };
}

/// The answer a call returns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Answer {
    /// `Ok(())`.
    Ok,
    /// `ConditionalCheckFailed` (or `VersionConflict`).
    ConditionFailed,
    /// `LookupTaken`.
    LookupTaken,
    /// `Contention`: gave up after its rounds.
    Contention,
    /// `OutcomeUnknown`.
    OutcomeUnknown,
    /// Refused before sending (`IncompleteKeyUpdate`).
    Refused,
}

/// Where a client is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pc {
    /// Between calls.
    Idle,
    /// About to read the owner's recorded lookups.
    Read,
    /// About to send the round's transaction (or the plain UpdateItem).
    Send,
    /// About to resend the transaction with the same token.
    Resend,
    /// About to re-read the owner after a failed owner action (old behaviour).
    Reread,
    /// Stopped: crashed, or the program ended.
    Stopped,
}

/// One client.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Client {
    /// Where it is.
    pub pc: Pc,
    /// Calls left in its program.
    pub budget: u8,
    /// The call in progress.
    pub op: Option<Op>,
    /// What the round read: `None` no owner, `Some(recorded)` an owner.
    pub read: Option<Option<u8>>,
    /// Rounds started in this call.
    pub round: u8,
    /// Resends left in this round.
    pub resends: u8,
    /// Ghost: a write of this call has been applied.
    pub applied: bool,
    /// Ghost: the caller's condition was false at some moment of this call.
    pub cond_false_seen: bool,
    /// Ghost: another owner held this call's lookup value at some moment of this call.
    pub taken_seen: bool,
}

/// Everything at one moment.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// The table.
    pub table: Table,
    /// The clients (unused ones stopped).
    pub clients: [Client; MAX_CLIENTS],
    /// Requests or responses that may still be lost.
    pub losses: u8,
    /// The first answer or stored state found wrong.
    pub bad: Option<&'static str>,
}

/// A model: clients' programs (each picks any call of its menu, `budget` times), the
/// start table and the bounds.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Each client's menu and number of calls.
    pub clients: Vec<(Vec<Op>, u8)>,
    /// The table at the start.
    pub table: Table,
    /// Requests or responses lost in the whole run.
    pub losses: u8,
    /// Rounds a call makes before `Contention` (`ops/sync.rs` `MAX_ROUNDS`, 50 in the code).
    pub rounds: u8,
    /// Resends with the same token before `OutcomeUnknown`.
    pub resends: u8,
    /// Whether clients may crash.
    pub crashes: bool,
    /// The behaviours.
    pub switches: Switches,
}

impl Model for Scenario {
    type State = State;
    type Step = (usize, &'static str, Option<Op>);

    fn init(&self) -> Vec<State> {
        assert!(self.clients.len() <= MAX_CLIENTS);
        let idle = Client {
            pc: Pc::Stopped,
            budget: 0,
            op: None,
            read: None,
            round: 0,
            resends: 0,
            applied: false,
            cond_false_seen: false,
            taken_seen: false,
        };
        let mut clients = [idle; MAX_CLIENTS];
        for (client, (_, budget)) in clients.iter_mut().zip(&self.clients) {
            client.pc = Pc::Idle;
            client.budget = *budget;
        }
        vec![State {
            table: self.table,
            clients,
            losses: self.losses,
            bad: None,
        }]
    }

    fn next(&self, state: &State, out: &mut Vec<(Self::Step, State)>) {
        if state.bad.is_some() {
            return;
        }
        for i in 0..self.clients.len() {
            self.client_steps(state, i, out);
        }
        for (_, s) in out.iter_mut() {
            observe(s);
        }
    }

    fn violation(&self, state: &State) -> Option<String> {
        if let Some(bad) = state.bad {
            return Some(bad.to_owned());
        }
        stored_violation(&state.table, self.switches.check_missing).map(str::to_owned)
    }
}

/// One line per state in traces: owners (`A{v1 rec v1 flag}`), lookup items
/// (`v1→A`), then each client busy with a call.
impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = |o: u8| if o == 0 { 'A' } else { 'B' };
        for (o, item) in self.table.owners.iter().enumerate() {
            match item {
                Some(i) => write!(
                    f,
                    "{}{{v{} rec {} {}}} ",
                    name(o as u8),
                    i.handle,
                    i.recorded.map_or("-".to_owned(), |r| format!("v{r}")),
                    if i.flag { "flag" } else { "noflag" }
                )?,
                None => write!(f, "{}- ", name(o as u8))?,
            }
        }
        for (v, owner) in self.table.lookups.iter().enumerate() {
            if let Some(o) = owner {
                write!(f, "v{v}→{} ", name(*o))?;
            }
        }
        for (i, c) in self.clients.iter().enumerate() {
            if let Some(op) = c.op {
                write!(
                    f,
                    "| c{i} {:?} {op:?} read={:?} round {}",
                    c.pc, c.read, c.round
                )?;
                if c.applied {
                    write!(f, " applied")?;
                }
                write!(f, " ")?;
            }
        }
        if let Some(bad) = self.bad {
            write!(f, "| BAD: {bad}")?;
        }
        Ok(())
    }
}

/// Records, for every call in progress, whether its condition is false or its lookup
/// value another owner's in the table now.
fn observe(state: &mut State) {
    let table = state.table;
    for c in &mut state.clients {
        let Some(op) = c.op else { continue };
        if matches!(c.pc, Pc::Idle | Pc::Stopped) {
            continue;
        }
        c.cond_false_seen |= !op.condition_holds(&table);
        c.taken_seen |= steps::wanted(op)
            .is_some_and(|v| table.lookups[v as usize].is_some_and(|o| o != op.owner()));
    }
}

/// The stored invariants: one owner per lookup value, no orphaned or missing lookup item.
pub fn stored_violation(t: &Table, check_missing: bool) -> Option<&'static str> {
    let held: Vec<(usize, OwnerItem)> = t
        .owners
        .iter()
        .enumerate()
        .filter_map(|(o, i)| i.map(|i| (o, i)))
        .collect();
    if held.len() == 2 && held[0].1.handle == held[1].1.handle {
        return Some("uniqueness: two owners hold one lookup value");
    }
    for (v, owner) in t.lookups.iter().enumerate() {
        if let Some(o) = owner {
            let ok = t.owners[*o as usize].is_some_and(|i| i.recorded == Some(v as u8));
            if !ok {
                return Some("orphaned lookup item: its owner does not record it");
            }
        }
    }
    if check_missing {
        for (o, item) in held {
            if item.recorded != Some(item.handle)
                || t.lookups[item.handle as usize] != Some(o as u8)
            {
                return Some("missing lookup item: an owner without its lookup");
            }
        }
    }
    None
}
