// A second service on the shared table, written with ElectroDB as a TypeScript team would
// write it: `tests/it/peer_electrodb.rs` runs it with one command as JSON and reads the
// answer as JSON from stdout. The table, endpoint and region come from the environment.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Entity } from "electrodb";

const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: process.env.PEER_ENDPOINT,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  }),
);

// ElectroDB's defaults: keys `$service#attr_value` and `$entity_version#attr_value`,
// lower-cased, values as they are, numbers unpadded; `__edb_e__`/`__edb_v__` attributes.
const Employee = new Entity(
  {
    model: { entity: "employee", version: "1", service: "org" },
    attributes: {
      name: { type: "string", required: true },
      team: { type: "string", required: true },
      level: { type: "number", required: true },
      status: { type: "string", required: true },
      skills: { type: "set", items: "string" },
    },
    indexes: {
      byName: {
        pk: { field: "PK", composite: ["name"] },
        sk: { field: "SK", composite: ["team", "level"] },
      },
      byStatus: {
        index: "GSI1",
        pk: { field: "GSI1PK", composite: ["status"] },
        sk: { field: "GSI1SK", composite: ["name"] },
      },
    },
  },
  { table: process.env.PEER_TABLE, client },
);

const sorted = (items) =>
  items
    .map((e) => ({ ...e, skills: [...(e.skills ?? [])].sort() }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const command = JSON.parse(process.argv[2]);
const key = (c) => ({ name: c.name, team: c.team, level: c.level });
let answer;
switch (command.op) {
  case "put":
    await Employee.put(command.employee).go();
    answer = null;
    break;
  case "get":
    answer = (await Employee.get(key(command)).go()).data;
    if (answer) answer = sorted([answer])[0];
    break;
  case "by_name":
    answer = sorted((await Employee.query.byName({ name: command.name }).go({ pages: "all" })).data);
    break;
  case "by_team":
    answer = sorted(
      (await Employee.query.byName({ name: command.name, team: command.team }).go({ pages: "all" })).data,
    );
    break;
  case "by_status":
    answer = sorted((await Employee.query.byStatus({ status: command.status }).go({ pages: "all" })).data);
    break;
  case "set_status":
    await Employee.patch(key(command)).set({ status: command.status }).go();
    answer = null;
    break;
  case "add_skills":
    await Employee.patch(key(command)).add({ skills: command.skills }).go();
    answer = null;
    break;
  default:
    throw new Error(`unknown op ${command.op}`);
}
process.stdout.write(JSON.stringify(answer));
