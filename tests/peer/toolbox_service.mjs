// A second service on the shared table, written with DynamoDB Toolbox 2 as a TypeScript team
// would write it: `tests/it/peer_toolbox.rs` runs it with one command as JSON and reads the
// answer as JSON from stdout. The table, endpoint and region come from the environment.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Table } from "dynamodb-toolbox/table";
import { Entity } from "dynamodb-toolbox/entity";
import { item } from "dynamodb-toolbox/schema/item";
import { string } from "dynamodb-toolbox/schema/string";
import { set } from "dynamodb-toolbox/schema/set";
import { PutItemCommand } from "dynamodb-toolbox/entity/actions/put";
import { GetItemCommand } from "dynamodb-toolbox/entity/actions/get";
import { UpdateItemCommand, $add } from "dynamodb-toolbox/entity/actions/update";
import { QueryCommand } from "dynamodb-toolbox/table/actions/query";

const documentClient = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: process.env.PEER_ENDPOINT,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  }),
);

// Toolbox's defaults: the entity in `_et`, timestamps `_ct`/`_md` (ISO-8601 UTC text with
// milliseconds), keys as `computeKey` renders them, case kept.
const Shop = new Table({
  name: process.env.PEER_TABLE,
  partitionKey: { name: "pk", type: "string" },
  sortKey: { name: "sk", type: "string" },
  documentClient,
});

const Customer = new Entity({
  name: "Customer",
  table: Shop,
  schema: item({
    id: string().key(),
    name: string(),
  }),
  computeKey: ({ id }) => ({ pk: `CUSTOMER#${id}`, sk: "CUSTOMER" }),
});

const Basket = new Entity({
  name: "Basket",
  table: Shop,
  schema: item({
    id: string().key(),
    skus: set(string()).optional(),
  }),
  computeKey: ({ id }) => ({ pk: `BASKET#${id}`, sk: "BASKET" }),
});

const basket = (b) => b && { id: b.id, skus: [...(b.skus ?? [])].sort() };

const command = JSON.parse(process.argv[2]);
let answer = null;
switch (command.op) {
  case "put_customer":
    await Customer.build(PutItemCommand).item(command.customer).send();
    break;
  case "get_customer":
    answer = (await Customer.build(GetItemCommand).key({ id: command.id }).send()).Item ?? null;
    break;
  case "query_customer":
    answer = (
      await Shop.build(QueryCommand)
        .entities(Customer)
        .query({ partition: `CUSTOMER#${command.id}` })
        .send()
    ).Items;
    break;
  case "put_basket":
    await Basket.build(PutItemCommand)
      .item({ id: command.id, skus: new Set(command.skus) })
      .send();
    break;
  case "get_basket":
    answer = basket((await Basket.build(GetItemCommand).key({ id: command.id }).send()).Item);
    break;
  case "add_skus":
    await Basket.build(UpdateItemCommand)
      .item({ id: command.id, skus: $add(new Set(command.skus)) })
      .send();
    break;
  default:
    throw new Error(`unknown op ${command.op}`);
}
process.stdout.write(JSON.stringify(answer));
