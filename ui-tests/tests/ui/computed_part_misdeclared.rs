// Computed key parts declared wrongly: in the primary key but computed from a field the key
// lacks, named like a field, computed from a field the struct lacks, used by no template, a
// shard count of 0, and a function returning another type than the part's. One error
// each, at the culprit.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

fn initial(name: &String) -> String {
    name.chars().take(1).collect()
}

fn length(name: &String) -> usize {
    name.len()
}

#[derive(Entity)]
#[dynamap(table = App, entity = "User", pk = "USER#{letter}", sk = "USER",
          computed(letter: String = initial(name)))]
struct User {
    name: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Team", pk = "TEAM#{id}", sk = "TEAM",
          computed(name: String = initial(title), unused: String = initial(title),
                   other: String = initial(missing)),
          index(name = "GSI1", pk = "T#{name}", sk = "{other}"))]
struct Team {
    id: String,
    name: String,
    title: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST",
          shard(of(id), count = 0),
          index(name = "GSI1", pk = "POSTS#{shard}", sk = "{id}"))]
struct Post {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Tag", pk = "TAG#{id}", sk = "TAG",
          computed(size: String = length(id)),
          index(name = "GSI1", pk = "SIZE#{size}", sk = "{id}"))]
struct Tag {
    id: String,
}

fn main() {}
